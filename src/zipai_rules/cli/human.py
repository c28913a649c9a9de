"""``zipai play --human SEATS``: play seats yourself against the bots, in the terminal.

At each of a human seat's decisions the table is shown as that seat sees it
(:meth:`Game.observe`, never the full state): the hand grouped (坎 together, then pairs and
runs), every seat's melds, discards and hidden-card count, the wall, the card on offer, whose
turn it is; then the legal actions, numbered, each 吃 with its 比 plan spelled out. The player
types a number or an action in the wire notation (docs/actions.md, read by
:func:`~zipai_rules.engine.notation.parse_action`: ``discard x5``, ``peng``, ``chi x5 x6``,
``chi x4: x4 x5 x6 / x4 x4 d4``, ``pass``, or the variant's Chinese words ``打 五``, ``碰``,
``过``); an action the rules refuse shows the engine's reason (:meth:`Game.check`) and the
question is asked again. Between two human decisions every
move is printed as the log prints it, redacted as the human seat is shown it
(:meth:`Game.events_for`), with ``pace`` seconds' pause after each bot move shown. The hand
ends with the result and the settlement.

With the table each decision shows what the seat can work out from its own view
(:func:`~zipai_rules.hints.hints`, from the observation alone): each seat's table 胡息, its
own hand's 胡息, its waits (听牌) with the 胡息 each gives and those no unseen copy is left of
marked dead, and the unseen count of each card. ``help`` lists the commands; ``undo`` takes
back the seat's last decision and the bots' moves after it, refused where it would take back
another person's decision.

Exit status: 0 after a finished hand; :data:`LEFT` (3) when the input ends (EOF, Ctrl-D) or the
player types ``quit``; 130 on Ctrl-C. Neither prints a traceback.
"""

from __future__ import annotations

import contextlib
import copy
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence

import attrs

from ..bots import seat_bot_names
from ..engine import Action, Game, parse_action
from ..engine.actions import Event
from ..engine.observation import Observation, spectate
from ..errors import ZipaiError
from ..hints import Hints, WaitHint, hints
from ..play import Bot
from ..records import write_record
from ..settlement import settle
from ..wording import Words
from .log import deal_lines, header, print_result, print_settlement

#: the exit status when the player leaves before the hand ends (end of input, or ``quit``)
LEFT = 3
#: the exit status on Ctrl-C
INTERRUPTED = 130

_QUIT = frozenset({"q", "quit", "exit", "退出"})
_HELP = frozenset({"h", "help", "?", "？", "帮助"})
_UNDO = frozenset({"u", "undo", "悔", "悔牌", "撤销"})
#: the longest pause between two bot moves, in seconds (``--pace``)
MAX_PACE = 10.0


class _Leave(Exception):
    """The player left: end of input or ``quit``."""


def group_hand(hand: Sequence[int]) -> list[tuple[int, ...]]:
    """A concealed hand (21 counts) grouped as a player holds it: each 坎 (three or four of a
    card) first, then the pairs, then runs of three (x1 x2 x3, x2 x7 x10 …) of the cards
    left, then each loose card alone, each part in card order."""
    left = list(hand)
    kans = [(i,) * n for i, n in enumerate(left) if n >= 3]
    for group in kans:
        left[group[0]] = 0
    pairs = [(i, i) for i, n in enumerate(left) if n == 2]
    for pair in pairs:
        left[pair[0]] = 0
    runs = []
    for base in (0, 10):
        for start in range(base, base + 8):
            while all(left[i] for i in (start, start + 1, start + 2)):
                runs.append((start, start + 1, start + 2))
                for i in (start, start + 1, start + 2):
                    left[i] -= 1
        while all(left[base + r] for r in (1, 6, 9)):
            runs.append((base + 1, base + 6, base + 9))
            for r in (1, 6, 9):
                left[base + r] -= 1
    return kans + pairs + runs + [(i,) for i, n in enumerate(left) for _ in range(n)]


@attrs.frozen(slots=True)
class _Mark:
    """Where a human decision was asked, to go back to (``undo``): the seat, the actions
    played before it, the lines printed and events told by then, and the bots as they were."""

    seat: int
    actions: int
    shown: int
    told: int
    bots: tuple[Bot, ...]


class Console:
    """The terminal game: ``read(prompt)`` reads a line (raises :class:`EOFError` at the end
    of input), ``write(text)`` prints one; ``pace``: seconds to pause (``sleep``) after each
    bot move that printed a line (``time.sleep`` by default; 0 to :data:`MAX_PACE`; else
    :class:`~zipai_rules.errors.ZipaiError`, ``bad_argument``)."""

    def __init__(self, game: Game, humans: Sequence[int], bots: Sequence[Bot], words: Words,
                 read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print, *, pace: float = 0.0,
                 sleep: Callable[[float], None] | None = None) -> None:
        if type(pace) not in (int, float) or not 0 <= pace <= MAX_PACE:
            raise ZipaiError(f"pace {pace!r:.40}: seconds from 0 to {MAX_PACE:g}",
                             code="bad_argument")
        self.game, self.humans, self.bots, self.words = game, tuple(humans), list(bots), words
        self.read, self.write, self.pace = read, write, float(pace)
        self.sleep = time.sleep if sleep is None else sleep
        self._told = len(game.deal.hands)  # the events printed so far: the deal's
        # the decisions shown so far: the lines are numbered by what the seat was shown, never
        # by the record's step (which would count the others' unseen passes)
        self.shown = 0
        self._marks: list[_Mark] = []  # each human decision asked, for undo

    def _news(self) -> list[Event]:
        """The events not yet printed, as one human seat is shown them
        (:meth:`Game.events_for`), or with several (taking turns at one screen) as a spectator
        is (:func:`~zipai_rules.engine.observation.spectate`)."""
        game = self.game
        seen = (game.events_for(self.humans[0]) if len(self.humans) == 1
                else spectate(game.state, game.events).history)
        news, self._told = list(seen[self._told:]), len(seen)
        return news

    def _t(self, english: str, chinese: str) -> str:
        return chinese if self.words.zh else english

    def play(self) -> None:
        """Play the hand to its end; raises :class:`_Leave` or :class:`KeyboardInterrupt`."""
        game = self.game
        for e in self._news():
            self.write(f"      {self.words.event(e)}")
        while not game.is_over:
            state = game.state
            seat = state.acting_seat
            human = seat in self.humans
            if human:
                chosen = self.ask(seat)
                if chosen is None:  # undone: the hand is back at an earlier decision
                    continue
                action = chosen
            else:
                action = self.bots[seat](state, state.options)
            game.apply(action)
            shown = self._news()
            printed = bool(shown)
            if shown and shown[0].kind.value == action.kind.value and shown[0].seat == seat:
                self.shown += 1
                self.write(f"{self.shown:4}. {self.words.event(shown.pop(0))}")
            for e in shown:
                self.write(f"      {self.words.event(e)}")
            if printed and not human and self.pace > 0 and not game.is_over:
                self.sleep(self.pace)  # only after a move the seat was shown: a pause
                # after an unseen pass would tell that a bot was asked

    # --- one decision ----------------------------------------------------------------------

    def table(self, obs: Observation) -> list[str]:
        """The table as ``obs.seat`` sees it, as text lines, with its hints
        (:func:`~zipai_rules.hints.hints` of ``obs`` alone)."""
        w, seat = self.words, obs.seat
        hint = hints(self.game.variant, obs)
        huxi = w.word("huxi") if w.zh else self.game.variant.term("huxi")
        lines = [self._t(f"--- step {self.shown + 1}: {w.seat(seat)} (you) to act ---",
                         f"--- 第 {self.shown + 1} 步：{w.seat(seat)}（你）行动 ---")]
        top = [self._t(f"wall {obs.wall}", f"{w.word('wall')} {obs.wall} 张"),
               self._t(f"dealer {w.seat(obs.dealer)}", f"庄家 {w.seat(obs.dealer)}")]
        if obs.pending is not None:
            card, source, by = obs.pending
            how = {"discard": self._t("discarded", "打出"), "draw": self._t("drawn", "摸出"),
                   "self": self._t("your own draw", "自己摸的")}[str(source)]
            top.append(self._t(f"on offer: {w.cards([card])}, {how} by {w.seat(by)}",
                               f"待取：{w.cards([card])}，{w.seat(by)}{how}"))
        lines.append(" · ".join(top))
        for s in [t for t in range(len(obs.melds)) if t != seat] + [seat]:
            who = self._t("you", "你") if s == seat else (
                self._t("human", "玩家") if s in self.humans else self._t("bot", "机器人"))
            melds = " ".join(w.seen(m) for m in obs.melds[s]) or "-"
            discards = w.cards(obs.discards[s]) or "-"
            down = hint.hidden_melds[s]
            lines.append(self._t(
                f"  {w.seat(s)} ({who}): {obs.hidden_cards[s]} in hand; melds {melds}; "
                f"discards {discards}; table {hint.table_huxi[s]} {huxi}"
                + (f" + {down} face down" if down else ""),
                f"  {w.seat(s)}（{who}）：手牌 {obs.hidden_cards[s]} 张；"
                f"桌面 {melds}；弃牌 {discards}；桌面{huxi} {hint.table_huxi[s]}"
                + (f"（另有 {down} 组扣着）" if down else "")))
        groups = " ".join(f"[{w.cards(g)}]" if len(g) > 1 else w.cards(g)
                          for g in group_hand(obs.hand))
        lines.append(self._t(f"your hand ({sum(obs.hand)}): {groups}",
                             f"你的手牌（{sum(obs.hand)} 张）：{groups}"))
        lines += self.hint_lines(hint)
        chou = [(w.word(k) if w.zh else k, cs) for k, cs in
                (("chi", obs.chou_chi), ("peng", obs.chou_peng)) if cs]
        if chou:
            marks = self._t("; ", "；").join(f"{k} {w.cards(sorted(cs))}" for k, cs in chou)
            lines.append(self._t(f"臭 (no longer takeable by you): {marks}",
                                 f"{w.word('chou')}（你不能再取）：{marks}"))
        lines.append(self._t("your options:", "你可以："))
        for k, option in enumerate(obs.options, 1):
            lines.append(f"  {k:2}. {w.option(option)}")
        return lines

    def hint_lines(self, hint: Hints) -> list[str]:
        """The seat's own hints as text lines: its 胡息 (table, hand as it lies, total), its
        waits (with no discard owed) or the discards that leave it waiting, and the unseen
        count of each card."""
        w, v = self.words, self.game.variant
        huxi = w.word("huxi") if w.zh else v.term("huxi")
        mine = hint.table_huxi[hint.seat]
        held = self._t(", ", "，").join(f"{w.meld(m)} {v.meld_huxi(m)}"
                                        for m in hint.hand_melds)
        held = self._t(f" ({held})", f"（{held}）") if held else ""
        total = mine + hint.hand_huxi
        lines = [self._t(f"your {huxi}: table {mine} + hand {hint.hand_huxi}{held} = {total}",
                         f"你的{huxi}：桌面 {mine} + 手中 {hint.hand_huxi}{held} = {total}")]
        if hint.after_discard:
            plans = self._t("; ", "；").join(
                f"{w.cards([c])} → {self._waits_text(found)}" for c, found in hint.after_discard)
            lines.append(self._t(f"discard to wait (听牌): {plans}",
                                 f"打出即听牌：{plans}"))
        elif hint.waits:
            lines.append(self._t(f"waits (听牌): {self._waits_text(hint.waits)}",
                                 f"听牌：{self._waits_text(hint.waits)}"))
        kinds = list(range(20)) + ([20] if v.deck.kings else [])
        counts = " ".join(f"{w.cards([c])}:{hint.unseen[c]}" for c in kinds)
        lines.append(self._t(f"unseen: {counts}", f"未见：{counts}"))
        return lines

    def _waits_text(self, found: Sequence[WaitHint]) -> str:
        """``x5 15, d3 12 self / 9 draw [dead]``: each wait, its 胡息 (per source where the
        sources differ or not all of the variant's allow it), dead ones marked."""
        w, v = self.words, self.game.variant
        names = {"self": self._t("self", "自摸"), "draw": self._t("draw", "他家摸"),
                 "discard": self._t("discard", "打出")}
        out = []
        for wait in found:
            values = {h for _, h in wait.huxi}
            if len(values) == 1 and len(wait.huxi) == len(v.win.sources):
                text = f"{w.cards([wait.card])} {values.pop()}"
            else:
                text = f"{w.cards([wait.card])} " + " / ".join(
                    f"{h} {names[src]}" for src, h in wait.huxi)
            if wait.dead:
                text += self._t(" [dead: every copy seen]", "（死：已全见）")
            else:
                text += self._t(f" [{wait.unseen} unseen]", f"（未见 {wait.unseen} 张）")
            out.append(text)
        return self._t(", ", "，").join(out)

    def help_lines(self, n: int) -> list[str]:
        """What ``help`` prints: the commands and the action notation."""
        if self.words.zh:
            return ["命令：",
                    f"  1-{n}            选这一项",
                    "  动作            按记法输入（docs/actions.md）：打 五、碰、跑、胡、过、"
                    "吃 二二贰（吃的一组）、吃 贰：二二贰 / 贰柒拾（整套，比在 / 之后）；"
                    "英文记法也可：discard x5、peng、chi x2 x2 d2",
                    "  help、帮助、?    列出这些命令",
                    "  undo、悔        收回你上一次的决定和其后机器人的动作（只对机器人；"
                    "会影响另一位玩家时不行）",
                    "  quit、退出      离开本手牌（状态 3），Ctrl-D 亦可",
                    "牌：一..十 小字，壹..拾 大字，王；也可写 x1..x10、d1..d10、K"]
        return ["commands:",
                f"  1-{n}            choose that option",
                "  an action       in the notation (docs/actions.md): discard x5, peng, pao, "
                "hu, pass, chi x2 x2 d2 (the 吃 meld), chi d2: x2 x2 d2 / d2 d7 d10 (the whole "
                "plan, each 比 after /); the variant's words too: 打 五, 碰, 过",
                "  help, ?         this list",
                "  undo            take back your last decision and the bots' moves after it "
                "(against bots only: refused where another person's decision would go too)",
                "  quit            leave the hand (status 3); Ctrl-D too",
                "cards: x1..x10 small, d1..d10 big, K the 王; Chinese 一..十 small, 壹..拾 big"]

    def undo(self, seat: int) -> str | None:
        """Take back ``seat``'s last decision before the one it is asked now and every move
        after it (the bots as they were then); ``None`` when done, else why not: no earlier
        decision, or another human seat decided since (undo plays against bots only)."""
        marks = self._marks[:-1]
        k = next((k for k in range(len(marks) - 1, -1, -1) if marks[k].seat == seat), None)
        if k is None:
            return self._t("nothing to undo: this is your first decision",
                           "没有可收回的：这是你的第一个决定")
        mark = marks[k]
        others = sorted({a.seat for a in self.game.actions[mark.actions:]
                         if a.seat in self.humans and a.seat != seat})
        if others:
            who = self._t(", ", "、").join(map(self.words.seat, others))
            return self._t(f"undo refused: it would take back {who}'s decision too (a person, "
                           "not a bot); undo plays against bots only",
                           f"不能收回：会一并收回{who}（另一位玩家，不是机器人）的决定；"
                           "只能对机器人收回")
        while len(self.game.actions) > mark.actions:
            self.game.undo()
        self.shown, self._told, self.bots = mark.shown, mark.told, list(mark.bots)
        del self._marks[k:]
        self.write(self._t(f"undone: back to step {self.shown + 1}",
                           f"已收回：回到第 {self.shown + 1} 步"))
        return None

    def _mark(self, seat: int) -> None:
        """Remember this decision, to come back to it (``undo``)."""
        try:
            bots = tuple(copy.deepcopy(self.bots))  # their generators as they are now
        except Exception:  # a bot that cannot be copied plays on from where it is
            bots = tuple(self.bots)
        self._marks.append(_Mark(seat, len(self.game.actions), self.shown, self._told, bots))

    def ask(self, seat: int) -> Action | None:
        """Show the table to ``seat`` and read its choice until it is a legal action;
        ``None`` when the player undid (:meth:`undo`) an earlier decision."""
        obs = self.game.observe(seat)
        self._mark(seat)
        for line in self.table(obs):
            self.write(line)
        n = len(obs.options)
        prompt = self._t(f"choose 1-{n} or type an action (help, quit to leave): ",
                         f"选 1-{n} 或输入动作（help 帮助，quit 退出）：")
        while True:
            try:
                text = self.read(prompt).strip()
            except EOFError:
                raise _Leave from None
            if not text:
                continue
            if text.lower() in _QUIT:
                raise _Leave
            if text.lower() in _HELP:
                for line in self.help_lines(n):
                    self.write(line)
                continue
            if text.lower() in _UNDO:
                why = self.undo(seat)
                if why is None:
                    return None
                self.write(why)
                continue
            choice = self.parse(text, obs)
            if isinstance(choice, Action):
                refusal = self.game.check(choice)
                if refusal is None:
                    return choice
                choice = self._t(f"refused: {refusal.message}", f"不行：{refusal.message}")
            self.write(choice)

    def parse(self, text: str, obs: Observation) -> Action | str:
        """The action ``text`` names (a number of ``obs.options``, or an action text read by
        :func:`~zipai_rules.engine.notation.parse_action` against the seat's legal actions),
        or why it names none."""
        options = obs.options
        if text.isascii() and text.isdigit():  # ASCII digits only: int() takes others too
            if len(text) <= 6 and 1 <= int(text) <= len(options):
                return options[int(text) - 1]
            return self._t(f"no option {text:.12}: choose 1-{len(options)}",
                           f"没有第 {text:.12} 项：请选 1-{len(options)}")
        try:
            return parse_action(self.game, text, seat=obs.seat)
        except ZipaiError as exc:
            return self._t(str(exc), f"{_ZH_PROBLEM.get(exc.code, '不行')}：{exc}")


#: under ``--zh``, what an action text the parser refuses is, before its (English) reason
_ZH_PROBLEM = {"bad_action_text": "看不懂", "ambiguous_action": "不止一种",
               "no_such_action": "没有这样的动作"}


@contextlib.contextmanager
def _ctrl_c_interrupts() -> Iterator[None]:
    """Within the block Ctrl-C raises :class:`KeyboardInterrupt`, as documented, even where
    the process started with SIGINT ignored or blocked (inherited from the program that
    started it); the signal's handling and mask are restored after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    blocked = (signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
               if hasattr(signal, "pthread_sigmask") else None)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if blocked is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def play_human(game: Game, humans: Sequence[int], bots: Sequence[Bot], words: Words, *,
               seating: str = "", record: str | None = None,
               bot_names: Sequence[str] = (), read: Callable[[str], str] = input,
               seed_secret: bool = False, pace: float = 0.0) -> int:
    """Play ``game`` with ``humans`` at the terminal and ``bots`` in the other seats; print
    the result and the settlement; write the record to ``record`` if given. Returns the exit
    status (0, :data:`LEFT`, :data:`INTERRUPTED`). ``seed_secret``: the seed was drawn, not
    chosen: it would tell the player every card, so it is printed only when the hand ends
    (or is left), to replay it with ``--seed``. ``pace``: seconds between two bot moves
    shown (:class:`Console`)."""
    console = Console(game, humans, bots, words, read, pace=pace)
    print(header(game, bots, words, humans=humans, seed_shown=not seed_secret))
    try:
        return _play(game, console, words, seating, humans, record, bot_names)
    finally:
        if seed_secret:
            print(f"种子 {game.seed}（以 --seed {game.seed} 重玩这一手）" if words.zh
                  else f"seed {game.seed} (replay this hand with --seed {game.seed})")


def _play(game: Game, console: Console, words: Words, seating: str, humans: Sequence[int],
          record: str | None, bot_names: Sequence[str]) -> int:
    v = game.variant
    if seating:
        print(f"  {seating}")
    for line in deal_lines(game, words, humans[0] if len(humans) == 1 else -1):
        print(line)
    try:
        with _ctrl_c_interrupts():
            console.play()
    except _Leave:
        step = console.shown + 1
        print(f"\n已离开：第 {step} 步，本手牌未结束" if words.zh
              else f"\nleft at step {step}: the hand is not finished", file=sys.stderr)
        return LEFT
    except KeyboardInterrupt:
        print("\n已中断，本手牌未结束" if words.zh
              else "\ninterrupted: the hand is not finished", file=sys.stderr)
        return INTERRUPTED
    settlement = settle(v, game.result, events=game.events)
    print_result(game, words)
    print_settlement(settlement, words)
    if record:
        names = seat_bot_names(list(bot_names) or ["greedy"], v.players)
        write_record(record, game, settlement,
                     bots=["human" if s in humans else n for s, n in enumerate(names)])
    return 0
