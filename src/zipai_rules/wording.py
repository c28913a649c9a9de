"""The words of ``zipai play`` and of the HTML replay (``zipai view``): actions, events,
melds, the result and the settlement, in the log's English notation or (``zh``) in the
variant's own Chinese words.

:class:`Words` is the one place the game's values are turned into text for people. Without
``zh`` it returns the notation the log always printed (``Action.describe``,
``Event.describe``, ``Meld.describe``); with ``zh`` every kind is named by the variant's
``terminology`` (falling back on :data:`~zipai_rules.vocab.ZH_WORDS`), a seat is ``N号位``,
cards are Chinese, and the engine's English notes and settlement texts are put into Chinese.
The command line and the replay page both use it.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .analysis import Group
from .cards import format_cards, parse_indices
from .engine import Action, Event
from .engine.actions import EventKind
from .engine.observation import SeenMeld
from .melds import Meld, stand_in_text
from .settlement import Line, Settlement
from .variant import Variant
from .vocab import zh_word

# the engine's English event notes, in Chinese (other notes are shown as they are)
_NOTES_ZH = {"forced": "强制", "dealt": "起手", "held in hand": "留在手中", "kept": "留下",
             "kept unseen": "暗留", "special": "特殊胡", "self": "自摸", "draw": "他家摸牌",
             "discard": "打出的牌", "lays down its dealt 提": "亮出起手的提",
             "亮张 offered for 地胡": "亮张，可地胡"}
_NOTE_PATTERNS_ZH = (
    (re.compile(r"^(\d+) cards$"), r"\1张"),
    (re.compile(r"^on face-down meld (\d+)$"), r"扣着的第\1组"),
    (re.compile(r"^(\d+) in a row: counts as 提$"), r"连续\1次：算提"),
    (re.compile(r"^放跑: seat (\d+) may no longer 吃/碰$"), r"放跑：\1号位不能再吃碰"),
)
# the settlement's English texts, in Chinese; card tokens are put into Chinese after these
_SETTLEMENT_ZH = (
    (re.compile(r"^total (-?\d+)$"), r"合计 \1"),
    (re.compile(r"^seat (\d+) gains (-?\d+)$"), r"\1号位 得 \2"),
    (re.compile(r"^seat (\d+) pays (-?\d+)$"), r"\1号位 付 \2"),
    (re.compile(r"^seat (\d+) pays (-?\d+) for all losers$"), r"\1号位 替各输家付 \2"),
    (re.compile(r"^seat (\d+) pays (-?\d+) alone, (.*)$"), r"\1号位 独付 \2（\3）"),
    (re.compile(r"^seat (\d+) holds (\d+) (.+): pays seat (\d+) (-?\d+)$"),
     r"\1号位 持 \2 张 \3：付 \4号位 \5"),
    (re.compile(r"^seat (\d+) (\S+) (\S+): each other player pays (-?\d+)$"),
     r"\1号位 \2 \3：其他各家付 \4"),
    (re.compile(r"^the seat sitting out gains (-?\d+), each loser paying (-?\d+)$"),
     r"轮空一家 得 \1，各输家付 \2"),
    (re.compile(r"^the wall is empty and nobody won$"), "牌已摸完，无人胡牌"),
    (re.compile(r"^flipped (\S+): "), r"翻 \1："),
    (re.compile(r" counts as (\d+)"), r" 算 \1"),
    (re.compile(r"\[per win\]"), "[每胡]"),
    (re.compile(r"\[table (.*)\]"), r"[表 \1]"),
    # a meld line (its kind is the line's term): the cards and where the meld lies
    (re.compile(r"^[a-z_]+\((.*)\) \(table\)$"), r"\1（桌面）"),
    (re.compile(r"^[a-z_]+\((.*)\) \(hand\)$"), r"\1（手中）"),
)
_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:[xd](?:10|[1-9])|K)(?![A-Za-z0-9])")
_PLACE_ZH = {"table": "桌面", "hand": "手中"}
_SOURCE_ZH = {"self": "自摸", "draw": "他家摸出的牌", "discard": "打出的牌"}


class Words:
    """Text for the command line under ``variant``: English notation, or Chinese (``zh``)."""

    def __init__(self, variant: Variant, zh: bool = False) -> None:
        self.variant = variant
        self.zh = zh

    def word(self, canonical: str) -> str:
        """The Chinese word for a canonical term (:func:`~zipai_rules.vocab.zh_word`)."""
        return zh_word(canonical, self.variant.terminology.get(canonical))

    def seat(self, seat: int | None) -> str:
        """``seat 2``, or ``2号位``."""
        return f"{seat}号位" if self.zh else f"seat {seat}"

    def cards(self, cards: Sequence[int]) -> str:
        return format_cards(cards, zh=self.zh)

    def meld(self, meld: Meld) -> str:
        """``shun(x6 x7 x8)``, or the variant's word with Chinese cards: ``一句话(六七八)``; a 比
        meld is marked ``bi:`` (``比:``)."""
        if not self.zh:
            return meld.describe()
        text = f"{self.word(meld.kind.value)}({stand_in_text(meld.cards, meld.kings, True)})"
        return f"{self.word('bi')}:{text}" if meld.bi else text

    def seen(self, meld: SeenMeld) -> str:
        """A table meld as a seat sees it: its kind and face-up cards, ``?`` for each face-down
        card; ``?`` for the kind too when even that is hidden."""
        kind = "?" if meld.kind is None else (self.word(meld.kind.value) if self.zh
                                               else meld.kind.value)
        shown = [format_cards([c], zh=self.zh) for c in meld.cards] + ["?"] * meld.hidden
        return f"{kind}({' '.join(shown)})"

    def action(self, action: Action) -> str:
        """``seat 0 chi x8 shun(x6 x7 x8)``, or ``0号位 吃 八 一句话(六七八)``."""
        if not self.zh:
            return action.describe()
        return " ".join([self.seat(action.seat), *self._move(action)])

    def option(self, action: Action) -> str:
        """An action as its seat's own option: the kind, card and melds, no seat; a 吃's 比
        melds spelled out after ``+``."""
        parts = self._move(action)
        if len(action.melds) > 1:
            parts[2:] = [" + ".join(self.meld(m) for m in action.melds)]
        return " ".join(parts)

    def _move(self, action: Action) -> list[str]:
        kind = self.word(action.kind.value) if self.zh else action.kind.value
        parts = [kind]
        if action.card is not None:
            parts.append(format_cards([action.card], zh=self.zh))
        parts += [self.meld(m) for m in action.melds]
        return parts

    def event(self, event: Event) -> str:
        """``seat 1 wei x9 wei(x9 x9 x9) (forced)``, or ``1号位 偎 九 偎(九九九) (强制)``."""
        if not self.zh:
            return event.describe()
        who = [] if event.seat is None else [self.seat(event.seat)]
        card = [] if event.card is None else [format_cards([event.card], zh=True)]
        melds = [" ".join(map(self.meld, event.melds))] if event.melds else []
        note = [f"({self.note(event.note, event.kind)})"] if event.note else []
        return " ".join([*who, self.word(event.kind.value), *card, *melds, *note])

    def note(self, note: str, kind: EventKind | None = None) -> str:
        """An event's note in Chinese: each comma-separated part put into Chinese where the
        engine's English is known (a 臭 mark's ``peng``/``chi`` by the variant's word)."""
        parts = []
        for part in note.split(", "):
            if kind == EventKind.CHOU and part in ("peng", "chi"):
                parts.append(self.word(part))
                continue
            if part == "八块":  # the engine's note for a second 提/跑: the variant's own word
                parts.append(self.word("repeat_quad"))
                continue
            text = _NOTES_ZH.get(part, part)
            for pattern, repl in _NOTE_PATTERNS_ZH:
                text = pattern.sub(repl, text)
            parts.append(text)
        return "，".join(parts)

    def settlement_text(self, line: Line) -> str:
        """A settlement line's text (Chinese cards and words under ``zh``)."""
        if not self.zh:
            return line.text
        text = line.text
        for pattern, repl in _SETTLEMENT_ZH:
            text = pattern.sub(repl, text)
        return _TOKEN.sub(lambda m: format_cards(parse_indices(m.group()), zh=True), text)

    def group(self, group: Group) -> tuple[str, ...]:
        """A result group as table cells: the variant's word, (English: the kind), the cards,
        the 胡息 and where it lies."""
        v, kind = self.variant, group.meld.kind.value
        if not self.zh:
            return (v.term(kind), kind, group.describe(), f"{group.huxi:3}", group.place)
        return (self.word(kind), group.describe(True), f"{group.huxi:3}",
                _PLACE_ZH.get(group.place, group.place))

    def source(self, source: str | None) -> str:
        """Where a winning card came from, in Chinese."""
        return _SOURCE_ZH.get(str(source), str(source))

    def payments(self, settlement: Settlement) -> str:
        """The payments line."""
        v = self.variant
        if not self.zh:
            pays = ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(settlement.payments))
            extra = f", sitting out {settlement.sitting_out:+d}" if settlement.sitting_out else ""
            if settlement.credited > 0:
                extra += f", {settlement.credited} credited unpaid (not zero-sum)"
            elif settlement.credited:
                extra += f", {-settlement.credited} charged to nobody (not zero-sum)"
            return f"  payments ({v.term(settlement.unit)}): {pays}{extra}"
        pays = "，".join(f"{s}号位 {p:+d}" for s, p in enumerate(settlement.payments))
        extra = (f"，{self.word('sit_out')} {settlement.sitting_out:+d}"
                 if settlement.sitting_out else "")
        if settlement.credited > 0:
            extra += f"，无人付的 {settlement.credited}（非零和）"
        elif settlement.credited:
            extra += f"，无人收的 {-settlement.credited}（非零和）"
        return f"  输赢（{self.word(settlement.unit)}）：{pays}{extra}"
