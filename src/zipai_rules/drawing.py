"""The drawing behind the pictures (:mod:`zipai_rules.svg`, docs/pictures.md): SVG of a table,
of an analysis group by group, and the HTML table of a settlement, drawn from plain data.

A table is a :class:`TablePicture` (per seat the concealed cards or their count, the melds
with kind, cards, face-down count and 胡息, the discards; the wall, the card on offer, the
turn, the result), made by ``picture()`` of a state or a view of the engine; an analysis is
an :class:`AnalysisPicture` made by :meth:`zipai_rules.analysis.Analysis.picture`; a
settlement is its lines. This module sits below the analysis and the engine and reads
neither: each of them calls it to draw itself (``_repr_svg_``, ``_repr_html_``), and
:mod:`zipai_rules.svg` checks the arguments of its public functions and calls it likewise.

Standard library only (``xml.etree`` builds the SVG, so every text and attribute is escaped).
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

import attrs

from .arguments import refuse
from .cards import KING, RED_RANKS, is_big, rank_of, token, token_zh
from .melds import Meld, MeldKind
from .variant import Variant
from .vocab import Phase, ResultKind, Source

SVG_NS = "http://www.w3.org/2000/svg"

#: card sizes: a full card in hands, melds and on offer; a small one in the discard areas
CARD_W, CARD_H, STACK = 30, 42, 20
SMALL_W, SMALL_H = 22, 30
GAP = 8
#: the meld kinds' Chinese names where no variant gives its own (``Variant.term``)
KIND_ZH = {"shun": "一句话", "yi_er_san": "一二三", "er_qi_shi": "二七十", "jiao": "绞牌",
           "kan": "坎", "peng": "碰", "wei": "偎", "chou_wei": "臭偎", "ti": "提", "pao": "跑",
           "jiang": "将"}
_SAME_CARD = frozenset({MeldKind.KAN, MeldKind.PENG, MeldKind.WEI, MeldKind.CHOU_WEI,
                        MeldKind.TI, MeldKind.PAO, MeldKind.JIANG})
_STYLE = (
    ".card rect{fill:#fffdf4;stroke:#555;stroke-width:1}"
    ".card.hidden rect{fill:#2e5e4e}"
    ".card.big text{font-weight:bold}"
    ".card text{font-family:'Noto Serif CJK SC','Songti SC',serif;fill:#222}"
    ".card.red text{fill:#c21}"
    ".card.ascii text{font-family:monospace}"
    ".label{font:12px sans-serif;fill:#333}"
    ".title{font:bold 14px sans-serif;fill:#111}"
    ".turn{fill:#c21;font-weight:bold}"
    ".facedown rect{stroke-dasharray:3 2}"
)


#: characters XML 1.0 cannot hold, even escaped (the variant schema refuses control characters
#: in names and words, but a Variant built in code is not checked)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(words: str) -> str:
    """``words`` with every character XML cannot hold replaced by U+FFFD."""
    if not isinstance(words, str):
        raise refuse("words", words, "a str")
    return _NOT_XML.sub("\ufffd", words)


def text_width(words: str) -> int:
    """About how wide ``words`` are in 12px labels: a Chinese character 13px, others 7px."""
    if not isinstance(words, str):
        raise refuse("words", words, "a str")
    return sum(13 if ord(ch) >= 0x2E80 else 7 for ch in words)


def _column_height(n: int) -> int:
    return CARD_H + STACK * max(n - 1, 0)


def _card_text(card: int, ascii: bool) -> str:
    return token(card) if ascii else token_zh(card)


class _Canvas:
    """An SVG document being laid out top to bottom; :meth:`svg` gives its text."""

    def __init__(self, ascii: bool, **attributes: str) -> None:
        self.ascii = ascii
        self.root = ET.Element("svg", {"xmlns": SVG_NS, **attributes})
        ET.SubElement(self.root, "style").text = _STYLE
        self.width = 0
        self.y = GAP

    def text(self, parent: ET.Element, x: float, y: float, words: str, cls: str = "label"
             ) -> ET.Element:
        t = ET.SubElement(parent, "text", {"x": f"{x:g}", "y": f"{y:g}", "class": cls})
        t.text = xml_text(words)
        self.width = max(self.width, int(x + text_width(words)) + GAP)
        return t

    def card(self, parent: ET.Element, card: int | None, x: float, y: float,
             small: bool = False) -> None:
        """One card at ``(x, y)``; ``None`` draws it face down."""
        w, h = (SMALL_W, SMALL_H) if small else (CARD_W, CARD_H)
        classes = ["card"]
        if card is None:
            classes.append("hidden")
        else:
            if card != KING and rank_of(card) in RED_RANKS:
                classes.append("red")
            if card != KING and is_big(card):
                classes.append("big")
            if self.ascii:
                classes.append("ascii")
        g = ET.SubElement(parent, "g", {"class": " ".join(classes),
                                        "data-card": "hidden" if card is None else token(card)})
        ET.SubElement(g, "rect", {"x": f"{x:g}", "y": f"{y:g}", "width": str(w),
                                  "height": str(h), "rx": "3"})
        if card is not None:
            size = (11 if small else 14) if self.ascii else (14 if small else 17)
            t = ET.SubElement(g, "text", {"x": f"{x + w / 2:g}", "y": f"{y + size + 1:g}",
                                          "text-anchor": "middle", "font-size": str(size)})
            t.text = _card_text(card, self.ascii)
        self.width = max(self.width, int(x + w) + GAP)

    def column(self, parent: ET.Element, cards: Sequence[int | None], x: float, y: float
               ) -> int:
        """Cards stacked in a column as a player holds them; the column's height."""
        for k, c in enumerate(cards):
            self.card(parent, c, x, y + k * STACK)
        return _column_height(len(cards))

    def svg(self) -> str:
        height = self.y + GAP
        self.root.set("width", str(self.width))
        self.root.set("height", str(height))
        self.root.set("viewBox", f"0 0 {self.width} {height}")
        return ET.tostring(self.root, encoding="unicode")


# --- what is drawn, read from a state or a view ----------------------------------------------

@attrs.frozen(slots=True)
class TableMeld:
    """A meld as drawn: its kind (``None``: not even the kind shows), the cards face up, how
    many lie face down, its 胡息 when the viewer can know it, and whether the other seats see
    it face down (drawn open with a dashed edge in the all-open picture)."""

    kind: MeldKind | None
    cards: tuple[int, ...]
    hidden: int
    huxi: int | None
    facedown: bool = False


@attrs.frozen(slots=True)
class TableSeat:
    """A seat as drawn: its concealed cards (``None``: face down, ``hidden`` of them)."""

    hand: tuple[int, ...] | None
    hidden: int
    melds: tuple[TableMeld, ...]
    discards: tuple[int, ...]


@attrs.frozen(slots=True)
class TablePicture:
    """A table as drawn, from a state (``mode`` ``open``) or a view (``seat``, ``spectator``);
    ``turn`` is the seat to act as the viewer may know it, and the phase."""

    title: str
    mode: str
    viewer: int | None
    seats: tuple[TableSeat, ...]
    dealer: int | None
    wall: int
    pending: tuple[int, Source, int] | None
    turn: tuple[int | None, Phase]
    result: Outcome | None
    variant: Variant | None

@attrs.frozen(slots=True)
class Outcome:
    """How the hand ended, as drawn: the result's ``kind``, ``winner``, winning ``card`` and
    ``huxi`` (a state's result and a view's shown result alike)."""

    kind: ResultKind
    winner: int | None
    card: int | None
    huxi: int


def group_hand(counts: Sequence[int]) -> list[list[int]]:
    """A concealed hand (21 counts) in columns as a player holds it: every 坎 (and four of a
    kind) together, then, lowest card first, a run (一二三/顺, 二七十), a 绞 (a card with its
    other-size pair), a pair, or the card alone; the 王 in a column of their own."""
    if (isinstance(counts, str | bytes) or not isinstance(counts, Sequence)
            or len(counts) != 21
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                       for n in counts)):
        raise refuse("counts", counts, "21 counts of cards (ints from 0)")
    left = list(counts)
    columns: list[list[int]] = []
    for c in range(20):
        if left[c] >= 3:
            columns.append([c] * left[c])
            left[c] = 0
    for c in range(20):
        while left[c]:
            rank = c % 10 + 1
            other = c + 10 if c < 10 else c - 10
            shapes = ([c, c + 1, c + 2] if rank <= 8 else [],
                      [c, c + 5, c + 8] if rank == 2 else [],
                      [c, c, other] if left[c] >= 2 and left[other] == 1 else [],
                      [c, other, other] if left[other] == 2 else [],
                      [c, c] if left[c] >= 2 else [])
            shape = next((s for s in shapes if s and _has(left, s)), [c])
            for x in shape:
                left[x] -= 1
            columns.append(sorted(shape))
    if left[KING]:
        columns.append([KING] * left[KING])
    return columns


def _has(left: list[int], cards: Sequence[int]) -> bool:
    return all(left[x] >= cards.count(x) for x in set(cards))


def seen_huxi(variant: Variant | None, kind: MeldKind | None, cards: Sequence[int],
               hidden: int) -> int | None:
    """The 胡息 of a meld as a viewer sees it, when its kind and size (small/big) show."""
    if variant is None or kind is None or kind not in variant.huxi_table:
        return None
    real = [c for c in cards if c != KING]
    if hidden == 0 and len(real) == len(cards):
        return variant.meld_huxi(Meld(kind, real))
    if kind in _SAME_CARD and real:  # every card is the one shown (huxi.extra included)
        size = 4 if kind in (MeldKind.TI, MeldKind.PAO) else 2 if kind == MeldKind.JIANG else 3
        return variant.meld_huxi(Meld(kind, (real[0],) * size))
    return None

# --- drawing ----------------------------------------------------------------------------------

def _kind_name(kind: MeldKind | None, variant: Variant | None, ascii: bool) -> str:
    if kind is None:
        return "?"
    if ascii:
        return kind.value
    return variant.term(kind.value) if variant is not None else KIND_ZH[kind.value]


def _result_text(result: Outcome, variant: Variant | None, ascii: bool) -> str:
    kind = str(result.kind)
    if not ascii:
        kind = variant.term(kind) if variant is not None else KIND_ZH.get(kind, kind)
    if result.kind == ResultKind.HUANGZHUANG:
        return "huangzhuang (no winner)" if ascii else kind
    card = "" if result.card is None else " " + _card_text(result.card, ascii)
    word = "huxi" if ascii else "胡息"
    return f"seat {result.winner} wins: {kind}{card}, {result.huxi} {word}"


def draw_table(t: TablePicture, ascii: bool) -> str:
    attributes = {"class": "zipai-table", "data-mode": t.mode}
    if t.viewer is not None:
        attributes["data-seat"] = str(t.viewer)
    c = _Canvas(ascii, **attributes)
    head = ET.SubElement(c.root, "g", {"class": "header"})
    y = c.y + 14
    c.text(head, GAP, y, t.title or "zipai", "title")
    view = {"open": "all cards open", "spectator": "spectator"}.get(
        t.mode, f"seat {t.viewer}'s view")
    c.text(head, GAP + 16 * max(len(t.title), 5) + 10, y, view)
    y += 20
    wall = c.text(head, GAP, y, f"wall {t.wall}")
    wall.set("class", "label wall")
    wall.set("data-wall", str(t.wall))
    actor, phase = t.turn
    if t.result is not None:
        status = _result_text(t.result, t.variant, ascii)
    elif actor is not None:
        status = f"seat {actor} to act: {phase}"
    else:
        status = "waiting for another seat"
    turn = c.text(head, GAP + 90, y, status)
    turn.set("class", "label turn")
    if actor is not None:
        turn.set("data-actor", str(actor))
    c.y = y + 8
    if t.pending is not None:
        card, source, by = t.pending
        g = ET.SubElement(c.root, "g", {"class": "pending", "data-source": str(source),
                                        "data-seat": str(by)})
        c.text(g, GAP, c.y + 26, f"on offer ({source} by seat {by}):")
        c.card(g, card, GAP + 170, c.y)
        c.y += CARD_H + GAP
    for s, seat in enumerate(t.seats):
        _draw_seat(c, t, s, seat, actor)
    return c.svg()


def _draw_seat(c: _Canvas, t: TablePicture, s: int, seat: TableSeat, actor: int | None) -> None:
    g = ET.SubElement(c.root, "g", {"class": "seat", "data-seat": str(s)})
    marks = [f"seat {s}"]
    if s == t.dealer:
        marks.append("dealer" if c.ascii else "庄")
    if s == t.viewer:
        marks.append("(you)")
    if s == actor:
        marks.append("← to act")
    huxi = [m.huxi for m in seat.melds]
    if huxi and None not in huxi:
        marks.append(f"table {sum(h for h in huxi if h is not None)} "
                     + ("huxi" if c.ascii else "胡息"))
    c.y += 16
    c.text(g, GAP, c.y, "  ".join(marks), "label turn" if s == actor else "label")
    c.y += 6
    top, x, tallest = c.y, GAP, CARD_H
    hand = ET.SubElement(g, "g", {"class": "hand", "data-seat": str(s)})
    if seat.hand is not None:
        counts = [0] * 21
        for card in seat.hand:
            counts[card] += 1
        for column in group_hand(counts):
            col = ET.SubElement(hand, "g", {"class": "group"})
            tallest = max(tallest, c.column(col, column, x, top))
            x += CARD_W + 2
    else:
        hand.set("data-hidden", str(seat.hidden))
        for k in range(seat.hidden):
            c.card(hand, None, x + k * 10, top)
        x += 10 * max(seat.hidden - 1, 0) + CARD_W
    x += 3 * GAP
    below = top + max((_column_height(len(m.cards) + m.hidden) for m in seat.melds),
                      default=0) + 13
    for m in seat.melds:
        attributes = {"class": "meld facedown" if m.facedown else "meld", "data-seat": str(s),
                      "data-kind": "" if m.kind is None else m.kind.value}
        if m.huxi is not None:
            attributes["data-huxi"] = str(m.huxi)
        mg = ET.SubElement(g, "g", attributes)
        cards: list[int | None] = [*m.cards, *([None] * m.hidden)]
        c.column(mg, cards, x, top)
        label = _kind_name(m.kind, t.variant, c.ascii)
        if m.huxi is not None:
            label += f" {m.huxi}"
        c.text(mg, x, below, label)
        tallest = max(tallest, below - top + 3)
        x += max(CARD_W, text_width(label)) + 4
    c.y = top + tallest + 6
    discards = ET.SubElement(g, "g", {"class": "discards", "data-seat": str(s)})
    if seat.discards:
        c.text(discards, GAP, c.y + 19, "discards" if c.ascii else "弃牌")
        for k, card in enumerate(seat.discards):
            c.card(discards, card, GAP + 60 + k * (SMALL_W + 2), c.y, small=True)
        c.y += SMALL_H + 4
    c.y += GAP



# --- an analysis, a settlement ----------------------------------------------------------------

@attrs.frozen(slots=True)
class AnalysisGroup:
    """A group of a decomposition as drawn: its ``kind`` and ``huxi``, ``place`` (``table`` or
    ``hand``), its ``cards`` as they lie (a 王 drawn as the 王) and the cards the 王 stand for
    (``kings``)."""

    kind: MeldKind
    huxi: int
    place: str
    cards: tuple[int, ...]
    kings: tuple[int, ...] = ()


@attrs.frozen(slots=True)
class AnalysisPicture:
    """An analysis as drawn: the verdict (``win``, the ``reason`` of a refusal), the total
    ``huxi``, the groups of the best decomposition and its leftover cards."""

    win: bool
    reason: str | None
    huxi: int
    groups: tuple[AnalysisGroup, ...] = ()
    leftover: tuple[int, ...] = ()


def draw_analysis(picture: AnalysisPicture, ascii: bool = False,
                  variant: Variant | None = None) -> str:
    """The SVG of an analysis: the verdict and total 胡息, the groups one by one (kind, 胡息,
    ``table`` or ``hand``; a 王 labelled with the card it stands for), the leftover cards;
    ``variant`` names the kinds in its own words."""
    c = _Canvas(ascii, **{"class": "zipai-analysis", "data-win": str(picture.win).lower(),
                          "data-huxi": str(picture.huxi)})
    word = "huxi" if ascii else "胡息"
    verdict = "win" if picture.win else f"no win ({picture.reason})"
    c.text(c.root, GAP, c.y + 14, f"{verdict}: {picture.huxi} {word}", "title")
    c.y += 26
    groups = picture.groups
    x, below = GAP, c.y + max((_column_height(len(g.cards)) for g in groups),
                              default=CARD_H) + 13
    for group in groups:
        g = ET.SubElement(c.root, "g", {"class": "meld", "data-kind": group.kind.value,
                                        "data-huxi": str(group.huxi),
                                        "data-place": group.place})
        c.column(g, group.cards, x, c.y)
        label = f"{_kind_name(group.kind, variant, ascii)} {group.huxi}"
        c.text(g, x, below, label)
        place = c.text(g, x, below + 14, group.place if ascii else
                       {"table": "桌面", "hand": "手牌"}.get(group.place, group.place))
        place.set("class", "label place")
        if group.kings:
            c.text(g, x, below + 28, "K=" + " ".join(
                _card_text(k, ascii) for k in group.kings))
        x += max(CARD_W, text_width(label)) + 6
    c.y = below + 34
    if picture.leftover:
        g = ET.SubElement(c.root, "g", {"class": "leftover"})
        c.text(g, GAP, c.y + 14, "leftover" if ascii else "散牌")
        for k, card in enumerate(picture.leftover):
            c.card(g, card, GAP + 60 + k * (CARD_W + 2), c.y)
        c.y += CARD_H + GAP
    return c.svg()


def settlement_table(variant_id: str, winner: int | None, huxi: int, units: int, unit: str,
                     lines: Sequence[tuple[str, str, str, int]]) -> str:
    """A settlement as an HTML table: its caption (variant, winner, 胡息, units), then one
    row per line ``(item, term, text, value)``; every text escaped."""

    def e(words: str) -> str:
        return html.escape(xml_text(words))

    who = "no winner" if winner is None else f"seat {winner} wins"
    rows = [f"<caption>{e(variant_id)}: {e(who)}, {huxi} 胡息, {units} {e(unit)}</caption>",
            "<thead><tr><th>item</th><th>term</th><th>text</th><th>value</th></tr></thead>",
            "<tbody>"]
    rows += [f'<tr class="line" data-item="{e(item)}"><td>{e(item)}</td><td>{e(term)}'
             f"</td><td>{e(text)}</td><td>{value}</td></tr>" for item, term, text, value in lines]
    rows.append("</tbody>")
    return '<table class="zipai-settlement">' + "".join(rows) + "</table>"
