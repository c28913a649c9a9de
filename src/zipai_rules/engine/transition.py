"""The one path by which a game changes: ``start`` deals, ``step`` applies an action.

Both build a new frozen :class:`~zipai_rules.engine.state.GameState` and the events that
happened, running every forced move (提/偎/臭偎/跑, 臭 marks, draws) until a seat has a
decision to make or the hand is over. ``step`` assumes the action was already checked legal.

Forced moves run in one loop (:func:`_run`): each chore (:class:`_Chore`) does its part and
names the next, or stops when it has asked a seat (:meth:`_Builder.ask`) or ended the hand, so
no call depth grows with the hand. An option is offered with what it decided (the win
analysis of a 胡, the target of a 跑, in ``GameState.plans``); taking it uses that.
"""

from __future__ import annotations

import enum
import functools
import operator
from collections.abc import Callable, Sequence
from typing import Any, Final, cast

import attrs

from ..analysis import Analysis, instant_win, own_wei_kind, same_meld, tianhu, tianhu_due
from ..cards import KING, counts_of, indices_of
from ..melds import QUADS, Meld, MeldKind
from ..variant import Variant
from ..vocab import Label, Phase, ResultKind, Source
from .actions import Action, ActionKind, Event, EventKind
from .chou import chou_reason, decline_marks
from .claims import (
    PENG_KINDS,
    WEI_KINDS,
    WinWorth,
    discard_options,
    forced_pao,
    hand_after,
    hu_allowed,
    owes_discard,
    peng_kings,
    ready_skip,
    seat_worth,
    table_huxi,
    tier_plans,
    win_labels,
    win_result,
    win_units,
)
from .state import (
    ClaimWindow,
    GameState,
    PaoTarget,
    Pending,
    Plan,
    Result,
    SeatState,
    WinContext,
)
from .window import ask_answer, decided, open_window

#: the enum members read here, bound once (docs/benchmarks.md, "Enum members bound once")
_ACTION_HU: Final = ActionKind.HU
_ACTION_PAO: Final = ActionKind.PAO
_ACTION_PASS: Final = ActionKind.PASS
_ACTION_PENG: Final = ActionKind.PENG
_EVENT_CHI: Final = EventKind.CHI
_EVENT_CHOU: Final = EventKind.CHOU
_EVENT_DEAL: Final = EventKind.DEAL
_EVENT_DISCARD: Final = EventKind.DISCARD
_EVENT_DRAW: Final = EventKind.DRAW
_EVENT_DRAW_HIDDEN: Final = EventKind.DRAW_HIDDEN
_EVENT_HU: Final = EventKind.HU
_EVENT_HUANGZHUANG: Final = EventKind.HUANGZHUANG
_EVENT_NO_DISCARD: Final = EventKind.NO_DISCARD
_EVENT_PAO: Final = EventKind.PAO
_EVENT_PASS: Final = EventKind.PASS
_EVENT_PENG: Final = EventKind.PENG
_EVENT_TI: Final = EventKind.TI
_EVENT_TIANHU: Final = EventKind.TIANHU
_EVENT_TO_DISCARDS: Final = EventKind.TO_DISCARDS
_EVENT_WEI: Final = EventKind.WEI
_LABEL_TIANHU: Final = Label.TIANHU
_LABEL_ZIMO: Final = Label.ZIMO
_MELD_CHOU_WEI: Final = MeldKind.CHOU_WEI
_MELD_PAO: Final = MeldKind.PAO
_MELD_PENG: Final = MeldKind.PENG
_MELD_TI: Final = MeldKind.TI
_MELD_WEI: Final = MeldKind.WEI
_PHASE_DISCARD: Final = Phase.DISCARD
_PHASE_HU_CHECK: Final = Phase.HU_CHECK
_PHASE_OVER: Final = Phase.OVER
_PHASE_RESPOND: Final = Phase.RESPOND
_RESULT_HU: Final = ResultKind.HU
_RESULT_HUANGZHUANG: Final = ResultKind.HUANGZHUANG
_RESULT_TIANHU: Final = ResultKind.TIANHU
_SOURCE_DISCARD: Final = Source.DISCARD
_SOURCE_DRAW: Final = Source.DRAW
_SOURCE_SELF: Final = Source.SELF

_SEAT_FIELDS = tuple(f.name for f in attrs.fields(SeatState))
_SEAT_VALUES = operator.attrgetter(*_SEAT_FIELDS)
_SEAT_INDEX = {name: k for k, name in enumerate(_SEAT_FIELDS)}


class _Builder:
    """A mutable working copy of a state, frozen again by :meth:`freeze`."""

    def __init__(self, v: Variant, dealer: int, seats: Sequence[SeatState], wall: Sequence[int],
                 state: GameState | None = None) -> None:
        self.v = v
        self.dealer = dealer
        self.seats: list[SeatState] = list(seats)
        self.wall: list[int] = list(wall)
        self.phase = _PHASE_OVER if state is None else state.phase
        self.actor = None if state is None else state.actor
        self.options: tuple[Action, ...] = () if state is None else state.options
        self.plans: dict[Action, Plan] = {} if state is None else dict(state.plans)
        self.pending = None if state is None else state.pending
        self.result = None if state is None else state.result
        self.turn = 0 if state is None else state.turn
        self.drawn: int | None = None  # the own draw taken in this step (GameState.drawn)
        self.events: list[Event] = []
        self.windows = False if state is None else state.windows
        self.prompts: list[int] = [0] * len(self.seats) if state is None or not state.prompts \
            else list(state.prompts)
        self.resolving: ClaimWindow | None = None  # the claim window being resolved now

    @classmethod
    def of(cls, state: GameState) -> _Builder:
        return cls(state.variant, state.dealer, state.seats, state.wall, state)

    @property
    def n(self) -> int:
        return len(self.seats)

    def freeze(self) -> GameState:
        return GameState(self.v, self.dealer, tuple(self.seats), tuple(self.wall), self.phase,
                         self.actor, self.options, self.pending, self.result, self.turn,
                         tuple(self.plans.items()),
                         self.drawn if self.phase == _PHASE_HU_CHECK else None,
                         self.windows, tuple(self.prompts))

    def emit(self, kind: EventKind, seat: int | None = None, card: int | None = None,
             melds: tuple[Meld, ...] = (), note: str = "") -> None:
        self.events.append(_event(kind, seat, card) if not melds and not note
                           else Event(kind, seat, card, melds, note))

    def ctx(self) -> WinContext:
        """The table as a win's labels and worth read it."""
        return WinContext(self.dealer, len(self.wall), self.wall[0] if self.wall else None,
                          self.turn, self.pending is not None
                          and self.seats[self.dealer].lianzhang_offer is not None)

    def took(self, s: int) -> None:
        """Seat ``s`` took a card in (吃, 碰, 偎, 提, 跑 after the deal): 举手胡 no longer."""
        if self.seats[s].first_take is None:
            self.set_seat(s, first_take=self.turn)

    def set_seat(self, s: int, **changes: Any) -> SeatState:
        """Seat ``s`` with ``changes`` (field names of :class:`SeatState`), as
        ``attrs.evolve`` makes it, without looking its fields up again."""
        values = list(_SEAT_VALUES(self.seats[s]))
        for name, value in changes.items():
            values[_SEAT_INDEX[name]] = value
        self.seats[s] = seat = SeatState(*values)
        return seat

    def ask(self, phase: Phase, actor: int, options: tuple[Action, ...],
            plans: dict[Action, Plan] | None = None) -> None:
        """Stop at a decision: ``actor`` chooses among ``options`` in ``phase``; ``plans``:
        what each offered 胡/跑 decided (kept as they are when ``None``). A new decision of
        ``actor`` (its ``prompts`` count up), but for an ask of a claim window being resolved
        from the answers given (:func:`_resolve_window`)."""
        self.phase, self.actor, self.options = phase, actor, options
        if plans is not None:
            self.plans = plans
        if self.resolving is None or self.pending is None \
                or self.pending.window is not self.resolving:
            self.prompts[actor] += 1

    def finish(self, result: Result) -> None:
        """End the hand with ``result``, completed with what settlement reads of the table:
        the flipped card (the wall's top card), 王 held per seat, whether a seat sits out, and
        the dealer."""
        result = attrs.evolve(result, flipped=self.wall[0] if self.wall else None,
                              kings=tuple(seat.hand[KING] for seat in self.seats),
                              sitting_out=self.v.seats > self.v.players,
                              dealer=self.dealer)
        self.phase, self.actor, self.options, self.result = _PHASE_OVER, None, (), result
        self.plans = {}


@functools.lru_cache(maxsize=4096)
def _event(kind: EventKind, seat: int | None, card: int | None) -> Event:
    """The event of ``kind`` by ``seat`` on ``card`` with no melds and no note (a draw, a
    discard, a pass …): one shared value each."""
    return Event(kind, seat, card)


def _pending(p: Pending | None) -> Pending:
    """The card on offer; its absence in a claim phase is a bug of the engine, not of input."""
    if p is None:
        raise RuntimeError("internal error: no card on offer in a claim phase")
    return p


def _moved(p: Pending, tier: int, queue: tuple[tuple[int, tuple[Action, ...]], ...],
           declined: tuple[int, ...] | None = None) -> Pending:
    """The card on offer ``p`` asked in claim ``tier``, with ``queue`` the seats still to ask
    in it and ``declined`` (default: unchanged) the seats that declined it: ``attrs.evolve``
    of those fields, without looking the fields up (the one place that lists Pending's
    fields in order)."""
    return Pending(p.card, p.source, p.by, tier, queue,
                   p.declined if declined is None else declined, p.window)


def _hand_minus(hand: tuple[int, ...], card: int, n: int) -> tuple[int, ...]:
    h = list(hand)
    h[card] -= n
    return tuple(h)


class _Chore(enum.IntEnum):
    """A forced step between two decisions, done for a seat (see :func:`_run`); its value is
    its place in :data:`_CHORES`."""

    AFTER_TAKE = 0  # the seat took a card in (or was dealt): discard if owed, or on
    DRAW = 1        # the seat draws from the wall
    OFFER = 2       # the card the seat exposed (``pending``) is offered tier by tier
    OWN_CARD = 3    # the seat kept its own draw: it may win (自摸), or on
    KEPT = 4        # own_draw kept: the drawn card (``pending``) may win, or on


_Next = tuple[_Chore, int] | None


def _run(b: _Builder, nxt: _Next) -> None:
    """Do chores until one asks a seat for a decision or ends the hand; while a claim window
    is being resolved, its asks are answered from the answers given (:func:`_resolve_window`)."""
    while True:
        while nxt is not None:
            chore, s = nxt
            nxt = _CHORES[chore](b, s)
        if b.resolving is None:
            return
        nxt = _resolve_window(b)


# --- start of a hand -------------------------------------------------------------------------

def start(variant: Variant, hands: Sequence[Sequence[int]], wall: Sequence[int], dealer: int,
          windows: bool = False) -> tuple[GameState, list[Event]]:
    """Deal the given hands (card indices per seat; the dealer's last card is the 亮张) and
    wall, lay down dealt 提 (and 坎 as 偎 under ``deal.dealt_kan: wei``), settle a forced
    天胡, and stop at the dealer's first decision. ``windows``: exposed cards open claim
    windows (engine/window.py) rather than asking one seat at a time."""
    b = _Builder(variant, dealer, [SeatState(counts_of(h)) for h in hands], wall)
    b.windows = windows
    for s in range(b.n):
        b.emit(_EVENT_DEAL, s, note=f"{len(hands[s])} cards")
    if variant.deal.lianzhang:
        b.emit(_EVENT_DEAL, dealer, hands[dealer][-1], note="亮张")
    # 起手提: "起手手上有4张牌时,必须在打出第一张牌前“提”" (000 §跑胡子玩牌规则)
    for step in range(b.n):
        s = (dealer + step) % b.n
        quads = [i for i in range(20) if b.seats[s].hand[i] == 4]
        # Guilin: "[自已摸到1扫穿不放在桌面；自已摸到2扫穿放在桌面不亮]" (004 第四条6)
        held = bool(quads) and variant.deal.keeps_quad_in_hand(len(quads), b.seats[s].quads)
        for i in quads:
            meld = same_meld(_MELD_TI, i)
            seat = b.seats[s]
            b.set_seat(s, hand=_hand_minus(seat.hand, i, 4), melds=seat.melds + (meld,),
                       held_ti=i if held else None)
            b.emit(_EVENT_TI, s, i, (meld,), "dealt, held in hand" if held else "dealt, forced")
        if variant.deal.dealt_kan == "wei":
            _lay_dealt_kan(b, s)
        if variant.discard.dealt_double_quad != "skip_first" and b.seats[s].quads >= 2:
            # "起手2提及以上时，需打一张牌" (000 §衡阳六胡抢);
            # "照常打牌，在听牌的时候不打" (004 第五条7)
            b.set_seat(s, early_discard=True)
    if variant.win.dihu == "lianzhang" and b.seats[dealer].hand[hands[dealer][-1]]:
        # 衡阳 地胡: the 亮张 is offered before the dealer's first discard (hzy game.ts start,
        # offerDiHu); a 亮张 laid down in a dealt 提 is no longer in the hand to offer
        b.set_seat(dealer, lianzhang_offer=hands[dealer][-1])
    for step in range(b.n):
        s = (dealer + step) % b.n
        if _special(b, s):
            return b.freeze(), b.events
    # 天胡 "三提五坎 … 必须天胡" (003)
    for step in range(b.n):
        s = (dealer + step) % b.n
        seat = b.seats[s]
        a = tianhu(variant, indices_of(seat.hand), seat.melds) \
            if tianhu_due(variant, seat.hand, seat.melds) else None
        if a is not None:
            b.emit(_EVENT_TIANHU, s, note="forced")
            b.finish(Result(_RESULT_TIANHU, s, None, None, a.huxi, a.best,
                            _tianhu_labels(b, s)))
            return b.freeze(), b.events
    if variant.win.tianhu.optional_dealer_win:
        win = hu_allowed(variant, b.seats[dealer], None, _SOURCE_SELF)
        if win is not None:
            hu = Action(_ACTION_HU, dealer)
            b.ask(_PHASE_HU_CHECK, dealer, (hu, Action(_ACTION_PASS, dealer)), {hu: win})
            return b.freeze(), b.events
    _run(b, (_Chore.AFTER_TAKE, dealer))
    return b.freeze(), b.events


def _lay_dealt_kan(b: _Builder, s: int) -> None:
    """碰胡: seat ``s``'s dealt 坎 go on the table as 偎 (扫):
    "起手扫牌必须放在桌上，一开始就必须放在桌上，不管有几个扫" (000 §碰胡规则)."""
    for i in range(20):
        seat = b.seats[s]
        if seat.hand[i] == 3:
            meld = same_meld(_MELD_WEI, i)
            b.set_seat(s, hand=_hand_minus(seat.hand, i, 3), melds=seat.melds + (meld,))
            b.emit(_EVENT_WEI, s, i, (meld,), "dealt, forced")


def _wei_run(b: _Builder, s: int, wei: bool) -> str:
    """Count seat ``s``'s 偎 in a row on its own draws (``win.wei_run_as_ti``): a 偎 (``wei``)
    extends the run, any other take or own draw ends it; a run of that many 偎 counts as a 提
    for ``two_ti`` ("摸上来的牌连扫三次也叫提蛇", 000 §碰胡规则). The note of a completed run."""
    n = b.v.win.wei_run_as_ti
    seat = b.seats[s]
    if not n or not (wei or seat.wei_run):
        return ""
    if not wei:
        b.set_seat(s, wei_run=0)
        return ""
    if seat.wei_run + 1 < n:
        b.set_seat(s, wei_run=seat.wei_run + 1)
        return ""
    b.set_seat(s, wei_run=0, wei_runs=seat.wei_runs + 1)
    return f"{n} in a row: counts as 提"


def _lay_held(b: _Builder, s: int) -> str:
    """Seat ``s`` makes a 提 or 跑: a dealt 提 it kept in the hand goes on the table with it
    ("自已摸到2扫穿放在桌面不亮", 004 第四条6); the note saying so."""
    if b.seats[s].held_ti is None:
        return ""
    b.set_seat(s, held_ti=None)
    return "lays down its dealt 提"


def _tianhu_labels(b: _Builder, s: int) -> tuple[Label, ...]:
    """A dealer's 天胡 made with the 亮张 is also 自摸 where the 亮张 counts as a draw
    ("如果亮张的牌正好构成第3提或第5坎，则庄家天胡而且自摸", 000 §字牌规则说明)."""
    if s == b.dealer and b.v.deal.lianzhang_is_draw:
        return (_LABEL_TIANHU, _LABEL_ZIMO)
    return (_LABEL_TIANHU,)


def _win_labels(b: _Builder, s: int, source: Source | None, by: int | None,
                fresh: bool = False) -> tuple[Label, ...]:
    """The labels of seat ``s``'s win now (:func:`~zipai_rules.engine.claims.win_labels`)."""
    return win_labels(b.v, b.ctx(), s, b.seats[s], source, by, fresh)


def _special(b: _Builder, s: int) -> bool:
    """End the hand if seat ``s`` holds one of the variant's special wins (e.g. 碰胡 2 提蛇)."""
    if not b.v.win.special:
        return False
    seat = b.seats[s]
    a = instant_win(b.v, seat.hand, seat.melds, dealer=s == b.dealer, runs=seat.wei_runs)
    if a is None:
        return False
    name = a.best.special if a.best else None
    b.emit(_EVENT_HU, s, note=name or "special")
    b.finish(Result(_RESULT_HU, s, None, None, a.huxi, a.best,
                    (Label(name),) if name else ()))
    return True


# --- applying a decision -----------------------------------------------------------------------

def step(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply a legal ``action`` and run the forced moves that follow. In an open claim
    window the action is its seat's answer: kept until the answers decide the window
    (:func:`~zipai_rules.engine.window.decided`), which is then resolved."""
    b = _Builder.of(state)
    b.turn += 1
    window = state.window
    if window is None:
        _run(b, _decide(b, state, action))
    else:
        _run(b, _answer(b, state, window, action))
    return b.freeze(), b.events


def _answer(b: _Builder, state: GameState, window: ClaimWindow, action: Action) -> _Next:
    """Seat ``action.seat`` answers the claim window: the answer is kept (no event: which
    seats have answered is shown to nobody); once the answers decide the window it is
    resolved, ask by ask, as if the seats had been asked one at a time."""
    p = _pending(state.pending)
    window = attrs.evolve(window, answers=window.answers + ((action.seat, action),))
    b.pending = attrs.evolve(p, window=window)
    if not decided(window):
        s = window.awaiting[0]
        b.phase, b.actor, b.options = _PHASE_RESPOND, s, window.offer(s)  # no new decision
        return None
    b.resolving = window
    b.pending = attrs.evolve(p, window=window, tier=0, queue=())
    return _offer(b, p.by)


def _resolve_window(b: _Builder) -> _Next:
    """The next ask of the claim window being resolved, answered with its seat's answer
    (:func:`~zipai_rules.engine.window.ask_answer`); ``None`` once the window is
    resolved (the card taken, or gone to a discard area)."""
    w = b.resolving
    p = b.pending
    if w is None or p is None or p.window is not w or b.phase != _PHASE_RESPOND \
            or b.actor is None:
        b.resolving = None
        return None
    action = ask_answer(w, b.actor, b.options)
    return _decide(b, b.freeze(), action)


def _decide(b: _Builder, state: GameState, action: Action) -> _Next:
    """Do what ``action`` does in ``state``'s phase; the chore that follows, if any."""
    kind = action.kind
    if state.phase == _PHASE_DISCARD:
        return _discard(b, action.seat, cast(int, action.card))  # every discard names its card
    if state.phase == _PHASE_HU_CHECK:
        s = action.seat
        kept = state.pending  # a kept draw (own_draw kept) waits here, else none
        # a kept draw stays on offer, as a claimed 胡's card; a drawn card taken in (偎起胡,
        # 提龙胡) is the card won on
        card = state.drawn if kept is None else kept.card
        win = cast(Analysis, state.plan(Action(_ACTION_HU, s)))  # offered with its analysis
        # 天胡 only on the dealt hand: no card drawn from the wall yet (a win checked after a
        # forced 偎/提 on the first draw, when the dealer owed no discard, is a 自摸)
        first = state.turn == 0 and len(state.wall) == b.v.deal.wall
        ctx = state.win_context()
        labels = (_tianhu_labels(b, s) if first
                  else win_labels(b.v, ctx, s, b.seats[s], _SOURCE_SELF, s, fresh=True))
        kind_of = _RESULT_TIANHU if first else _RESULT_HU
        if kind == _ACTION_PASS:
            b.emit(_EVENT_PASS, s)
            if b.v.win.declined_must_be_beaten:
                _declined(b, s, win_units(b.v, win, s, card, _SOURCE_SELF, labels, ctx))
            if kept is not None:
                _chou_hu(b, s, kept.card)
                return _kept_group(b, s, declined=True)
            return (_Chore.AFTER_TAKE, s)
        b.emit(_EVENT_HU, s, card, note="天胡" if first else "自摸")
        b.finish(win_result(b.v, win, s, card, _SOURCE_SELF, labels, ctx, kind_of))
        return None
    # respond
    p = _pending(state.pending)
    offered = next((o for o in state.options if o.kind == _ACTION_HU), None)
    if offered is not None and kind != _ACTION_HU and b.v.win.declined_must_be_beaten:
        s = action.seat
        source = _SOURCE_SELF if (s == p.by and p.source == _SOURCE_DRAW) else p.source
        ctx = state.win_context()
        labels = win_labels(b.v, ctx, s, b.seats[s], source, p.by)
        _declined(b, s, win_units(b.v, cast(Analysis, state.plan(offered)), s, p.card,
                                  source, labels, ctx))
    if kind != _ACTION_PASS:
        return _take(b, action, p, state.plan(action))
    if b.seats[p.by].lianzhang_offer is not None:
        b.emit(_EVENT_PASS, action.seat, p.card)  # passing the 亮张 marks no 臭
    else:
        _decline(b, action.seat, state.options)
        p = _pending(b.pending)
    if p.queue:
        (s, opts), rest = p.queue[0], p.queue[1:]
        b.pending = _moved(p, p.tier, rest)
        b.ask(_PHASE_RESPOND, s, opts)
        return None
    b.pending = _moved(p, p.tier + 1, p.queue)
    return (_Chore.OFFER, p.by)


def _declined(b: _Builder, s: int, units: int) -> None:
    """Seat ``s`` declined a win worth ``units`` (called only under
    ``win.declined_must_be_beaten``): a later win must be worth more ("耒阳：可以放弃胡",
    ``duanly/hzy`` ``docs/RULES.md``; ``packages/engine/src/game.ts`` ``declineHu``)."""
    seat = b.seats[s]
    if seat.declined_units is None or units > seat.declined_units:
        b.set_seat(s, declined_units=units)  # no event: its worth would show the hand


def _decline(b: _Builder, s: int, options: tuple[Action, ...]) -> None:
    """Seat ``s`` passed ``options`` on the card on offer: 臭胡, and the 臭 marks of
    :func:`~zipai_rules.engine.chou.decline_marks` (those for both kinds, ``chou.scope: both``,
    noted in ``pending.declined`` until the card is gone: :func:`_card_gone`)."""
    p = _pending(b.pending)
    b.emit(_EVENT_PASS, s, p.card)
    kinds = {o.kind for o in options}
    if _ACTION_HU in kinds:
        _chou_hu(b, s, p.card)
    chi, peng, later = decline_marks(b.v, kinds)
    _mark_chou(b, s, p.card, chi, peng)
    if later and s not in p.declined:
        b.pending = _moved(p, p.tier, p.queue, p.declined + (s,))


def _mark_chou(b: _Builder, s: int, card: int, chi: bool, peng: bool) -> None:
    """``card`` becomes 臭 for seat ``s``: for 碰 (``peng``) and for 吃 (``chi``), each
    mark made once, with its ``chou`` event (seen by that seat only)."""
    seat = b.seats[s]
    if peng and card not in seat.chou_peng_cards:
        seat = b.set_seat(s, chou_peng_cards=seat.chou_peng_cards | {card})
        b.emit(_EVENT_CHOU, s, card, note="peng")
    if chi and card not in seat.chou_chi_cards:
        b.set_seat(s, chou_chi_cards=seat.chou_chi_cards | {card})
        b.emit(_EVENT_CHOU, s, card, note="chi")


def _card_gone(b: _Builder, p: Pending, taker: int | None = None) -> None:
    """The card on offer is gone (taken by ``taker``, or to a discard area): under
    ``chou.scope: both`` every seat that declined a 吃 or 碰 of it, the taker excepted, has
    it 臭 for both (engine/chou.py)."""
    for s in p.declined:
        if s != taker:
            _mark_chou(b, s, p.card, chi=True, peng=True)


def _chou_hu(b: _Builder, s: int, card: int) -> None:
    """Seat ``s`` declined a win on ``card``: 臭胡 where the variant has it."""
    if b.v.win.chou_hu:
        seat = b.seats[s]
        b.set_seat(s, chou_hu_marks=seat.chou_hu_marks + ((card, table_huxi(b.v, seat)),))
        b.emit(_EVENT_CHOU, s, card, note="臭胡")


def _take(b: _Builder, action: Action, p: Pending, plan: Plan | None) -> _Next:
    """Seat ``action.seat`` takes the card on offer; ``plan``: what the option decided."""
    s, c = action.seat, p.card
    seat = b.seats[s]
    if action.kind == _ACTION_HU:
        win = cast(Analysis, plan)  # a 胡 is offered with its win analysis
        source = _SOURCE_SELF if (s == p.by and p.source == _SOURCE_DRAW) else p.source
        b.emit(_EVENT_HU, s, c, note=str(source))
        b.finish(win_result(b.v, win, s, c, source, _win_labels(b, s, source, p.by), b.ctx(),
                            discarder=p.by if source == _SOURCE_DISCARD else None))
        return None
    b.pending = None
    _card_gone(b, p, s)
    b.took(s)
    if action.kind == _ACTION_PAO:  # a 跑 is offered with its target
        return _pao(b, s, c, cast(PaoTarget, plan), discarder=_discarder(p))
    _wei_run(b, s, wei=False)
    if action.kind == _ACTION_PENG:
        kings = cast(int, peng_kings(b.v, seat.hand, c))  # offered, so the hand can 碰
        meld = same_meld(_MELD_PENG, c, (c,) * kings)
        hand = _hand_minus(_hand_minus(seat.hand, c, 2 - kings), KING, kings)
        b.set_seat(s, hand=hand, melds=seat.melds + (meld,))
        b.emit(_EVENT_PENG, s, c, (meld,))
    else:  # chi
        own = seat.own_chi
        if s == p.by and p.source == _SOURCE_DRAW:  # "自己摸到牌不用亮" (004 第四条1)
            own += tuple(range(len(seat.melds), len(seat.melds) + len(action.melds)))
        b.set_seat(s, hand=tuple(hand_after(seat.hand, action.melds, c)),
                   melds=seat.melds + action.melds, own_chi=own)
        b.emit(_EVENT_CHI, s, c, action.melds)
    return (_Chore.AFTER_TAKE, s)


def _discarder(p: Pending) -> int | None:
    """The seat that discarded the card on offer from its hand, ``None`` for a shown draw."""
    return p.by if p.source == _SOURCE_DISCARD else None


def _pao(b: _Builder, s: int, c: int, target: PaoTarget, forced: bool = False,
         discarder: int | None = None) -> _Next:
    """Seat ``s`` 跑s ``c`` onto ``target``; ``discarder``: the seat whose discard from hand
    it was (放跑之后不能再进张)."""
    b.took(s)
    seat = b.seats[s]
    if target.table_index is None:
        kings = (c,) if target.king else ()  # a pair and a 王 standing for the third card
        meld = same_meld(_MELD_PAO, c, kings)
        hand = _hand_minus(_hand_minus(seat.hand, c, 3 - len(kings)), KING, len(kings))
        b.set_seat(s, hand=hand, melds=seat.melds + (meld,))
    else:
        melds = list(seat.melds)
        meld = same_meld(_MELD_PAO, c, melds[target.table_index].kings)
        melds[target.table_index] = meld
        b.set_seat(s, melds=tuple(melds))
    b.pending = None
    _wei_run(b, s, wei=False)
    notes = (["forced"] if forced else []) + (["八块"] if b.seats[s].quads > 1 else [])
    notes += filter(None, [_lay_held(b, s)])
    if (b.v.claims.fang_pao_stops_takes and discarder is not None and discarder != s
            and not target.from_hand and not b.seats[discarder].fang_pao):
        # "放跑之后不能再进张": a discard 跑'd onto a table 偎/碰, not onto a concealed 坎
        # (hzy docs/RULES.md 放跑之后不能再进张; game.ts execClaim, case pao)
        b.set_seat(discarder, fang_pao=True)
        notes.append(f"放跑: seat {discarder} may no longer 吃/碰")
    b.emit(_EVENT_PAO, s, c, (meld,), ", ".join(notes))
    return (_Chore.AFTER_TAKE, s)


def _discard(b: _Builder, s: int, c: int) -> _Next:
    seat = b.seats[s]
    b.set_seat(s, hand=_hand_minus(seat.hand, c, 1),
               early_discard=seat.early_discard and b.v.discard.dealt_double_quad
               == "skip_when_ready", **_own_chou(b, seat, c))
    b.emit(_EVENT_DISCARD, s, c)
    b.pending = Pending(c, _SOURCE_DISCARD, s, 0)
    return (_Chore.OFFER, s)


def _mark_own(b: _Builder, s: int, c: int) -> None:
    """A card a player discards (or leaves from their own draw) is 臭 for them."""
    changes = _own_chou(b, b.seats[s], c)
    if changes:
        b.set_seat(s, **changes)


def _own_chou(b: _Builder, seat: SeatState, c: int) -> dict[str, frozenset[int]]:
    """The seat changes of :func:`_mark_own` (none unless ``chou.own_discards``)."""
    if not b.v.chou.own_discards:
        return {}
    return {"chou_chi_cards": seat.chou_chi_cards | {c},
            "chou_peng_cards": seat.chou_peng_cards | {c}, "own_chou": seat.own_chou | {c}}


# --- the chores ------------------------------------------------------------------------------

def _after_take(b: _Builder, s: int) -> _Next:
    """After seat ``s`` took in a card (or at the deal): discard if owed, else the next draws.

    "任何吃碰等动作后都要打牌,八块(即跑、提两次及以上)除外" (000 §跑胡子玩牌规则), expressed as the
    resting size of digest §1.4.0.
    """
    seat = b.seats[s]
    if seat.lianzhang_offer is not None:
        return _offer_lianzhang(b, s)
    if ready_skip(b.v, seat):
        b.set_seat(s, early_discard=False)  # "在听牌的时候不打" (004 第五条7): no discard
    elif owes_discard(b.v, seat):
        opts = discard_options(b.v, s, seat.hand)
        if opts:
            b.ask(_PHASE_DISCARD, s, opts, {})
            return None
        b.set_seat(s, dead=True)
        b.emit(_EVENT_NO_DISCARD, s, note="死手")
    return (_Chore.DRAW, (s + 1) % b.n)


def _offer_lianzhang(b: _Builder, dealer: int) -> _Next:
    """Before the dealer's first discard its 亮张 is offered to the others for 胡 only, as a
    card the dealer discarded (衡阳 地胡: hzy game.ts start, offerDiHu, resolveClaims). While
    on offer it is out of the dealer's hand; unclaimed it goes back (:func:`_end_lianzhang`)."""
    seat = b.seats[dealer]
    c = cast(int, seat.lianzhang_offer)
    b.set_seat(dealer, hand=_hand_minus(seat.hand, c, 1))
    b.emit(_EVENT_DEAL, dealer, c, note="亮张 offered for 地胡")
    b.pending = Pending(c, _SOURCE_DISCARD, dealer, 0)
    return (_Chore.OFFER, dealer)


def _end_lianzhang(b: _Builder, p: Pending) -> _Next:
    """The 亮张 offered for 地胡: ask the seats that win on it, in turn order from the
    dealer's next seat; when none is left, it goes back to the dealer's hand, who plays on."""
    if p.tier == 0:
        cands, plans = tier_plans(b.v, tuple(b.seats), ("hu",), p.card, p.source, p.by)
        if cands:
            (s, opts), rest = cands[0], tuple(cands[1:])
            b.pending = _moved(p, p.tier, rest)
            b.ask(_PHASE_RESPOND, s, opts, plans)
            return None
    seat = b.seats[p.by]
    hand = list(seat.hand)
    hand[p.card] += 1
    b.set_seat(p.by, hand=tuple(hand), lianzhang_offer=None)
    b.pending = None
    return (_Chore.AFTER_TAKE, p.by)


def _draw(b: _Builder, s: int) -> _Next:
    """Seat ``s`` draws: 荒庄 on an empty wall; under ``claims.own_draw: kept`` the card is
    kept unseen (:func:`_kept_draw`); else a 王 is kept; a card making a 提/偎/臭偎 is used at
    once; any other card is shown and offered."""
    if not b.wall:
        b.emit(_EVENT_HUANGZHUANG)
        b.finish(Result(_RESULT_HUANGZHUANG))
        return None
    c = b.wall.pop(0)
    seat = b.seats[s]
    if b.v.claims.kept:
        # 郴州: the drawer keeps its draw, unseen and never offered ([cz-Sim] _continue_play)
        b.emit(_EVENT_DRAW_HIDDEN, s, c, note="kept unseen")  # the others: no card
        b.pending = Pending(c, _SOURCE_SELF, s, 0)
        return (_Chore.KEPT, s)
    if c == KING:
        # a drawn 王 is shown and kept ("在之后摸牌过程中抓到的王霸需要明示", 000
        # §永州双王扯胡子规则; kept in hand: digest G14)
        hand = list(seat.hand)
        hand[KING] += 1
        seat = b.set_seat(s, hand=tuple(hand))
        _wei_run(b, s, wei=False)
        b.emit(_EVENT_DRAW, s, c, note="kept")
        b.drawn = c
        return (_Chore.OWN_CARD, s)
    if c < 20 and (seat.hand[c] >= 2 or seat.table_meld(c, WEI_KINDS) is not None):
        # forced 提/偎/臭偎, the card not shown ("摸牌时，除偎牌与提牌外，其它必须首先明示")
        b.emit(_EVENT_DRAW_HIDDEN, s)
        _lay_forced(b, s, c, seat.table_meld(c, WEI_KINDS))
        if _special(b, s):
            return None
        return (_Chore.OWN_CARD, s)
    _wei_run(b, s, wei=False)
    b.emit(_EVENT_DRAW, s, c)
    b.pending = Pending(c, _SOURCE_DRAW, s, 0)
    return (_Chore.OFFER, s)


def _lay_forced(b: _Builder, s: int, c: int, k: int | None) -> None:
    """Seat ``s``'s own draw ``c`` makes its forced group: 提 with a 坎 in hand; onto the
    table 偎 (or, kept, 碰) at ``k`` a 提, or a 跑 (``own_draw_on_wei: pao``; always onto a
    碰); else a 偎 (臭偎 after a declined 碰) with the pair in hand."""
    seat = b.seats[s]
    if seat.hand[c] == 3:
        meld = same_meld(_MELD_TI, c)
        seat = b.set_seat(s, hand=_hand_minus(seat.hand, c, 3), melds=seat.melds + (meld,))
    elif k is not None:
        on_wei = seat.melds[k].kind in WEI_KINDS
        meld = same_meld(own_wei_kind(b.v) if on_wei else _MELD_PAO, c, seat.melds[k].kings)
        melds = list(seat.melds)
        melds[k] = meld
        seat = b.set_seat(s, melds=tuple(melds))
    else:
        chou = b.v.chou.chou_wei_after_declined_peng \
            and chou_reason(b.v, seat, c, _ACTION_PENG, _SOURCE_DRAW) is not None
        meld = same_meld(_MELD_CHOU_WEI if chou else _MELD_WEI, c)
        seat = b.set_seat(s, hand=_hand_minus(seat.hand, c, 2), melds=seat.melds + (meld,))
    b.took(s)
    b.drawn = c
    kind = EventKind(meld.kind.value)
    notes = ["forced"] + (["八块"] if meld.kind in QUADS and seat.quads > 1 else [])
    notes += filter(None, [_wei_run(b, s, wei=meld.kind not in QUADS)])
    notes += filter(None, [_lay_held(b, s)] if meld.kind in QUADS else [])
    b.emit(kind, s, c, (meld,), ", ".join(notes))


def _own_worth(b: _Builder, s: int, card: int | None, fresh: bool = False) -> WinWorth | None:
    """What a win of seat ``s`` on its own ``card`` is worth (:func:`seat_worth`), read only
    where ``win.declined_must_be_beaten`` compares it with a declined one; else ``None``."""
    if not b.v.win.declined_must_be_beaten:
        return None
    return seat_worth(b.v, b.ctx(), s, b.seats[s], card, _SOURCE_SELF, s, fresh=fresh)


def _kept_draw(b: _Builder, s: int) -> _Next:
    """Step 1 of a kept draw (``pending``, ``claims.own_draw: kept``, 郴州): the drawer may
    win with the card in its hand, used in any group (胡/过); else its forced group.
    [cz-Sim] ``_continue_play``."""
    p = _pending(b.pending)
    seat = b.seats[s]
    worth = _own_worth(b, s, p.card)
    win = hu_allowed(b.v, seat, p.card, _SOURCE_SELF, worth)
    if win is not None:
        _ask_self_win(b, s, win)
        return None
    return _kept_group(b, s, declined=False)


def _kept_group(b: _Builder, s: int, declined: bool) -> _Next:
    """Steps 2–4 of a kept draw: the card makes its forced group (own 碰/偎 → 跑 or 提,
    坎 → 提, pair → 偎; a 王 none) or joins the hand; after a group the win is checked again,
    unless the player ``declined`` a win on this card and still owes a discard; then the
    discard (none after a second 提/跑). [cz-Sim] ``_apply_draw_auto_meld``."""
    c = _pending(b.pending).card
    b.pending = None
    seat = b.seats[s]
    k = None if c == KING else seat.table_meld(c, WEI_KINDS | PENG_KINDS)
    if c == KING or (seat.hand[c] < 2 and k is None):
        hand = list(seat.hand)
        hand[c] += 1
        b.set_seat(s, hand=tuple(hand))
        _wei_run(b, s, wei=False)
        return (_Chore.AFTER_TAKE, s)
    _lay_forced(b, s, c, k)
    if _special(b, s):
        return None
    if declined and owes_discard(b.v, b.seats[s]):
        return (_Chore.AFTER_TAKE, s)
    return (_Chore.OWN_CARD, s)


def _after_own_card(b: _Builder, s: int) -> _Next:
    """After a seat took its own draw into hand or a forced meld: it may win (自摸), else on.
    "偎完后可胡就自摸胡牌" (000 §衡阳六胡抢字牌规则介绍)."""
    seat = b.seats[s]
    worth = _own_worth(b, s, b.drawn, fresh=True)
    win = hu_allowed(b.v, seat, None, _SOURCE_SELF, worth)
    if win is not None:
        _ask_self_win(b, s, win)
        return None
    return (_Chore.AFTER_TAKE, s)


def _ask_self_win(b: _Builder, s: int, win: Analysis) -> None:
    """Ask seat ``s`` whether it wins on its own cards (胡, and 过 unless forced)."""
    hu = Action(_ACTION_HU, s)
    opts: tuple[Action, ...] = (hu,)
    if _SOURCE_SELF not in b.v.win.forced_sources:
        opts += (Action(_ACTION_PASS, s),)
    b.ask(_PHASE_HU_CHECK, s, opts, {hu: win})




def _open_window(b: _Builder, p: Pending) -> _Next:
    """Open the claim window on the card of ``p`` for every seat that answers it
    (:func:`~zipai_rules.engine.window.open_window`), each asked a new decision."""
    lianzhang = b.seats[p.by].lianzhang_offer is not None
    tiers = (("hu",),) if lianzhang else b.v.claims.priority
    ctx = b.ctx() if b.v.win.declined_must_be_beaten and not lianzhang else None
    window, plans = open_window(b.v, b.seats, p, tiers, ctx)
    b.pending = attrs.evolve(p, window=window)
    s = window.seats[0]
    b.phase, b.actor, b.options, b.plans = _PHASE_RESPOND, s, window.offer(s), plans
    for x in window.seats:
        b.prompts[x] += 1
    return None


def _offer(b: _Builder, by: int) -> _Next:
    """Offer the pending card (exposed by seat ``by``) tier by tier; a forced 跑 happens as
    soon as its tier is reached; an unclaimed card goes to the exposer's discard area and the
    next seat draws. In a game of claim windows the card first opens its window
    (:func:`_open_window`); the window decided, its asks are made here, each answered from
    the answers given (:func:`_resolve_window`)."""
    p = _pending(b.pending)
    if b.windows and p.window is None:
        return _open_window(b, p)
    if b.seats[p.by].lianzhang_offer is not None:
        return _end_lianzhang(b, p)
    tiers = b.v.claims.priority
    tier = p.tier
    seats = tuple(b.seats)
    # the table is read only to value a win against one declined before
    ctx = b.ctx() if b.v.win.declined_must_be_beaten else None
    while tier < len(tiers):
        cands, plans = tier_plans(b.v, seats, tiers[tier], p.card, p.source, p.by, ctx)
        if cands:
            forced = forced_pao(b.v, cands, plans)
            if forced is not None:
                s, _, target = forced
                _card_gone(b, p, s)
                return _pao(b, s, p.card, target, forced=True, discarder=_discarder(p))
            (s, opts), rest = cands[0], tuple(cands[1:])
            b.pending = _moved(p, tier, rest)
            b.ask(_PHASE_RESPOND, s, opts, plans)
            return None
        tier += 1
    # nobody takes it
    _card_gone(b, p)
    seat = b.seats[p.by]
    b.set_seat(p.by, discards=seat.discards + (p.card,),
               **(_own_chou(b, seat, p.card) if p.source == _SOURCE_DRAW else {}))
    b.emit(_EVENT_TO_DISCARDS, p.by, p.card)
    b.pending = None
    return (_Chore.DRAW, (p.by + 1) % b.n)


#: what each :class:`_Chore` does, at the place of its value
_CHORES: tuple[Callable[[_Builder, int], _Next], ...] = (
    _after_take,       # _Chore.AFTER_TAKE
    _draw,             # _Chore.DRAW
    _offer,            # _Chore.OFFER
    _after_own_card,   # _Chore.OWN_CARD
    _kept_draw,        # _Chore.KEPT
)
