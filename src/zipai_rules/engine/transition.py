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
from collections.abc import Callable, Sequence
from typing import Any, cast

import attrs

from ..analysis import Analysis, instant_win, tianhu
from ..cards import KING, counts_of, indices_of
from ..melds import Meld, MeldKind
from ..variant import Variant
from ..vocab import Label, Phase, ResultKind, Source
from .actions import Action, ActionKind, Event, EventKind
from .claims import (
    WEI_KINDS,
    discard_options,
    hand_after,
    hu_allowed,
    owes_discard,
    seat_worth,
    table_huxi,
    tier_plans,
    win_labels,
    win_result,
    win_units,
)
from .state import GameState, PaoTarget, Pending, Plan, Result, SeatState, WinContext


class _Builder:
    """A mutable working copy of a state, frozen again by :meth:`freeze`."""

    def __init__(self, v: Variant, dealer: int, seats: Sequence[SeatState], wall: Sequence[int],
                 state: GameState | None = None) -> None:
        self.v = v
        self.dealer = dealer
        self.seats: list[SeatState] = list(seats)
        self.wall: list[int] = list(wall)
        self.phase = Phase.OVER if state is None else state.phase
        self.actor = None if state is None else state.actor
        self.options: tuple[Action, ...] = () if state is None else state.options
        self.plans: dict[Action, Plan] = {} if state is None else dict(state.plans)
        self.pending = None if state is None else state.pending
        self.result = None if state is None else state.result
        self.turn = 0 if state is None else state.turn
        self.events: list[Event] = []

    @classmethod
    def of(cls, state: GameState) -> _Builder:
        return cls(state.variant, state.dealer, state.seats, state.wall, state)

    @property
    def n(self) -> int:
        return len(self.seats)

    def freeze(self) -> GameState:
        return GameState(self.v, self.dealer, tuple(self.seats), tuple(self.wall), self.phase,
                         self.actor, self.options, self.pending, self.result, self.turn,
                         tuple(self.plans.items()))

    def emit(self, kind: EventKind, seat: int | None = None, card: int | None = None,
             melds: tuple[Meld, ...] = (), note: str = "") -> None:
        self.events.append(Event(kind, seat, card, melds, note))

    def ctx(self) -> WinContext:
        """The table as a win's labels and worth read it."""
        return WinContext(self.dealer, len(self.wall), self.wall[0] if self.wall else None,
                          self.turn)

    def took(self, s: int) -> None:
        """Seat ``s`` took a card in (吃, 碰, 偎, 提, 跑 after the deal): 举手胡 no longer."""
        if self.seats[s].first_take is None:
            self.set_seat(s, first_take=self.turn)

    def set_seat(self, s: int, **changes: Any) -> SeatState:
        self.seats[s] = attrs.evolve(self.seats[s], **changes)
        return self.seats[s]

    def ask(self, phase: Phase, actor: int, options: tuple[Action, ...],
            plans: dict[Action, Plan] | None = None) -> None:
        """Stop at a decision: ``actor`` chooses among ``options`` in ``phase``; ``plans``:
        what each offered 胡/跑 decided (kept as they are when ``None``)."""
        self.phase, self.actor, self.options = phase, actor, options
        if plans is not None:
            self.plans = plans

    def finish(self, result: Result) -> None:
        """End the hand with ``result``, completed with what settlement reads of the table:
        the flipped card (the wall's top card), 王 held per seat, and whether a seat sits out."""
        result = attrs.evolve(result, flipped=self.wall[0] if self.wall else None,
                              kings=tuple(seat.hand[KING] for seat in self.seats),
                              sitting_out=self.v.seats > self.v.players)
        self.phase, self.actor, self.options, self.result = Phase.OVER, None, (), result
        self.plans = {}


def _pending(p: Pending | None) -> Pending:
    """The card on offer; its absence in a claim phase is a bug of the engine, not of input."""
    if p is None:
        raise RuntimeError("internal error: no card on offer in a claim phase")
    return p


def _hand_minus(hand: tuple[int, ...], card: int, n: int) -> tuple[int, ...]:
    h = list(hand)
    h[card] -= n
    return tuple(h)


class _Chore(enum.Enum):
    """A forced step between two decisions, done for a seat (see :func:`_run`)."""

    AFTER_TAKE = "after_take"  # the seat took a card in (or was dealt): discard if owed, or on
    DRAW = "draw"              # the seat draws from the wall
    OFFER = "offer"            # the card the seat exposed (``pending``) is offered tier by tier
    OWN_CARD = "own_card"      # the seat kept its own draw: it may win (自摸), or on


_Next = tuple[_Chore, int] | None


def _run(b: _Builder, nxt: _Next) -> None:
    """Do chores until one asks a seat for a decision or ends the hand."""
    while nxt is not None:
        chore, s = nxt
        nxt = _CHORES[chore](b, s)


# --- start of a hand -------------------------------------------------------------------------

def start(variant: Variant, hands: Sequence[Sequence[int]], wall: Sequence[int], dealer: int
          ) -> tuple[GameState, list[Event]]:
    """Deal the given hands (card indices per seat; the dealer's last card is the 亮张) and
    wall, lay down dealt 提, settle a forced 天胡, and stop at the dealer's first decision."""
    b = _Builder(variant, dealer, [SeatState(counts_of(h)) for h in hands], wall)
    for s in range(b.n):
        b.emit(EventKind.DEAL, s, note=f"{len(hands[s])} cards")
    if variant.deal.lianzhang:
        b.emit(EventKind.DEAL, dealer, hands[dealer][-1], note="亮张")
    # 起手提: "起手手上有4张牌时,必须在打出第一张牌前“提”" (000 §跑胡子玩牌规则)
    for step in range(b.n):
        s = (dealer + step) % b.n
        for i in range(20):
            if b.seats[s].hand[i] == 4:
                meld = Meld(MeldKind.TI, (i,) * 4)
                seat = b.seats[s]
                b.set_seat(s, hand=_hand_minus(seat.hand, i, 4), melds=seat.melds + (meld,))
                b.emit(EventKind.TI, s, i, (meld,), "dealt, forced")
        if variant.discard.dealt_double_quad == "skip_second" and b.seats[s].quads >= 2:
            b.set_seat(s, early_discard=True)  # "起手2提及以上时，需打一张牌" (000 §衡阳六胡抢)
    for step in range(b.n):
        s = (dealer + step) % b.n
        if _special(b, s):
            return b.freeze(), b.events
    # 天胡 "三提五坎 … 必须天胡" (003)
    for step in range(b.n):
        s = (dealer + step) % b.n
        a = tianhu(variant, indices_of(b.seats[s].hand), b.seats[s].melds)
        if a is not None:
            b.emit(EventKind.TIANHU, s, note="forced")
            b.finish(Result(ResultKind.TIANHU, s, None, None, a.huxi, a.best,
                            _tianhu_labels(b, s)))
            return b.freeze(), b.events
    if variant.win.tianhu.optional_dealer_win:
        win = hu_allowed(variant, b.seats[dealer], None, Source.SELF)
        if win is not None:
            hu = Action(ActionKind.HU, dealer)
            b.ask(Phase.HU_CHECK, dealer, (hu, Action(ActionKind.PASS, dealer)), {hu: win})
            return b.freeze(), b.events
    _run(b, (_Chore.AFTER_TAKE, dealer))
    return b.freeze(), b.events


def _tianhu_labels(b: _Builder, s: int) -> tuple[Label, ...]:
    """A dealer's 天胡 made with the 亮张 is also 自摸 where the 亮张 counts as a draw
    ("如果亮张的牌正好构成第3提或第5坎，则庄家天胡而且自摸", 000 §字牌规则说明)."""
    if s == b.dealer and b.v.deal.lianzhang_is_draw:
        return (Label.TIANHU, Label.ZIMO)
    return (Label.TIANHU,)


def _win_labels(b: _Builder, s: int, source: Source | None, by: int | None,
                fresh: bool = False) -> tuple[Label, ...]:
    """The labels of seat ``s``'s win now (:func:`~zipai_rules.engine.claims.win_labels`)."""
    return win_labels(b.v, b.ctx(), s, b.seats[s], source, by, fresh)


def _special(b: _Builder, s: int) -> bool:
    """End the hand if seat ``s`` holds one of the variant's special wins (e.g. 碰胡 2 提蛇)."""
    if not b.v.win.special:
        return False
    seat = b.seats[s]
    a = instant_win(b.v, seat.hand, seat.melds, dealer=s == b.dealer)
    if a is None:
        return False
    name = a.best.special if a.best else None
    b.emit(EventKind.HU, s, note=name or "special")
    b.finish(Result(ResultKind.HU, s, None, None, a.huxi, a.best,
                    (Label(name),) if name else ()))
    return True


# --- applying a decision -----------------------------------------------------------------------

def step(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply a legal ``action`` and run the forced moves that follow."""
    b = _Builder.of(state)
    b.turn += 1
    _run(b, _decide(b, state, action))
    return b.freeze(), b.events


def _decide(b: _Builder, state: GameState, action: Action) -> _Next:
    """Do what ``action`` does in ``state``'s phase; the chore that follows, if any."""
    kind = action.kind
    if state.phase == Phase.DISCARD:
        return _discard(b, action.seat, cast(int, action.card))  # every discard names its card
    if state.phase == Phase.HU_CHECK:
        s = action.seat
        hu = Action(ActionKind.HU, s)
        win = cast(Analysis, state.plan(hu))  # offered with its win analysis
        # 天胡 only on the dealt hand: no card drawn from the wall yet (a win checked after a
        # forced 偎/提 on the first draw, when the dealer owed no discard, is a 自摸)
        first = state.turn == 0 and len(state.wall) == b.v.deal.wall
        ctx = state.win_context()
        labels = (_tianhu_labels(b, s) if first
                  else win_labels(b.v, ctx, s, b.seats[s], Source.SELF, s, fresh=True))
        kind_of = ResultKind.TIANHU if first else ResultKind.HU
        if kind == ActionKind.PASS:
            b.emit(EventKind.PASS, s)
            _declined(b, s, win_units(b.v, win, s, None, Source.SELF, labels, ctx))
            return (_Chore.AFTER_TAKE, s)
        b.emit(EventKind.HU, s, note="天胡" if first else "自摸")
        b.finish(win_result(b.v, win, s, None, Source.SELF, labels, ctx, kind_of))
        return None
    # respond
    p = _pending(state.pending)
    offered = next((o for o in state.options if o.kind == ActionKind.HU), None)
    if offered is not None and kind != ActionKind.HU:
        s = action.seat
        source = Source.SELF if (s == p.by and p.source == Source.DRAW) else p.source
        ctx = state.win_context()
        labels = win_labels(b.v, ctx, s, b.seats[s], source, p.by)
        _declined(b, s, win_units(b.v, cast(Analysis, state.plan(offered)), s, p.card,
                                  source, labels, ctx))
    if kind != ActionKind.PASS:
        return _take(b, action, p, state.plan(action))
    _decline(b, action.seat, state.options)
    if p.queue:
        (s, opts), rest = p.queue[0], p.queue[1:]
        b.pending = attrs.evolve(p, queue=rest)
        b.ask(Phase.RESPOND, s, opts)
        return None
    b.pending = attrs.evolve(p, tier=p.tier + 1)
    return (_Chore.OFFER, p.by)


def _declined(b: _Builder, s: int, units: int) -> None:
    """Seat ``s`` declined a win worth ``units``: under ``win.declined_must_be_beaten`` a later
    win must be worth more ("耒阳：可以放弃胡", ``duanly/hzy`` ``docs/RULES.md``;
    ``packages/engine/src/game.ts`` ``declineHu``)."""
    if not b.v.win.declined_must_be_beaten:
        return
    seat = b.seats[s]
    if seat.declined_units is None or units > seat.declined_units:
        b.set_seat(s, declined_units=units)  # no event: its worth would show the hand


def _decline(b: _Builder, s: int, options: tuple[Action, ...]) -> None:
    p = _pending(b.pending)
    b.emit(EventKind.PASS, s, p.card)
    seat = b.seats[s]
    kinds = {o.kind for o in options}
    if ActionKind.HU in kinds and b.v.win.chou_hu:
        seat = b.set_seat(s, chou_hu_marks=seat.chou_hu_marks
                          + ((p.card, table_huxi(b.v, seat)),))
        b.emit(EventKind.CHOU, s, p.card, note="臭胡")
    if ActionKind.PENG in kinds and b.v.chou.peng and p.card not in seat.chou_peng_cards:
        seat = b.set_seat(s, chou_peng_cards=seat.chou_peng_cards | {p.card})
        b.emit(EventKind.CHOU, s, p.card, note="peng")
    if ActionKind.CHI in kinds and b.v.chou.chi and p.card not in seat.chou_chi_cards:
        b.set_seat(s, chou_chi_cards=seat.chou_chi_cards | {p.card})
        b.emit(EventKind.CHOU, s, p.card, note="chi")


def _take(b: _Builder, action: Action, p: Pending, plan: Plan | None) -> _Next:
    """Seat ``action.seat`` takes the card on offer; ``plan``: what the option decided."""
    s, c = action.seat, p.card
    seat = b.seats[s]
    if action.kind == ActionKind.HU:
        win = cast(Analysis, plan)  # a 胡 is offered with its win analysis
        source = Source.SELF if (s == p.by and p.source == Source.DRAW) else p.source
        b.emit(EventKind.HU, s, c, note=str(source))
        b.finish(win_result(b.v, win, s, c, source, _win_labels(b, s, source, p.by), b.ctx(),
                            discarder=p.by if source == Source.DISCARD else None))
        return None
    b.pending = None
    b.took(s)
    if action.kind == ActionKind.PAO:
        return _pao(b, s, c, cast(PaoTarget, plan))  # a 跑 is offered with its target
    if action.kind == ActionKind.PENG:
        meld = Meld(MeldKind.PENG, (c,) * 3)
        b.set_seat(s, hand=_hand_minus(seat.hand, c, 2), melds=seat.melds + (meld,))
        b.emit(EventKind.PENG, s, c, (meld,))
    else:  # chi
        b.set_seat(s, hand=tuple(hand_after(seat.hand, action.melds, c)),
                   melds=seat.melds + action.melds)
        b.emit(EventKind.CHI, s, c, action.melds)
    return (_Chore.AFTER_TAKE, s)


def _pao(b: _Builder, s: int, c: int, target: PaoTarget, forced: bool = False) -> _Next:
    b.took(s)
    seat = b.seats[s]
    meld = Meld(MeldKind.PAO, (c,) * 4)
    if target.table_index is None:
        b.set_seat(s, hand=_hand_minus(seat.hand, c, 3), melds=seat.melds + (meld,))
    else:
        melds = list(seat.melds)
        melds[target.table_index] = meld
        b.set_seat(s, melds=tuple(melds))
    b.pending = None
    notes = (["forced"] if forced else []) + (["八块"] if b.seats[s].quads > 1 else [])
    b.emit(EventKind.PAO, s, c, (meld,), ", ".join(notes))
    return (_Chore.AFTER_TAKE, s)


def _discard(b: _Builder, s: int, c: int) -> _Next:
    seat = b.seats[s]
    b.set_seat(s, hand=_hand_minus(seat.hand, c, 1), early_discard=False)
    b.emit(EventKind.DISCARD, s, c)
    _mark_own(b, s, c)
    b.pending = Pending(c, Source.DISCARD, s, 0)
    return (_Chore.OFFER, s)


def _mark_own(b: _Builder, s: int, c: int) -> None:
    """A card a player discards (or leaves from their own draw) is 臭 for them."""
    if b.v.chou.own_discards:
        seat = b.seats[s]
        b.set_seat(s, chou_chi_cards=seat.chou_chi_cards | {c},
                   chou_peng_cards=seat.chou_peng_cards | {c}, own_chou=seat.own_chou | {c})


# --- the chores ------------------------------------------------------------------------------

def _after_take(b: _Builder, s: int) -> _Next:
    """After seat ``s`` took in a card (or at the deal): discard if owed, else the next draws.

    "任何吃碰等动作后都要打牌,八块(即跑、提两次及以上)除外" (000 §跑胡子玩牌规则), expressed as the
    resting size of digest §1.4.0.
    """
    seat = b.seats[s]
    if owes_discard(b.v, seat):
        opts = discard_options(b.v, s, seat.hand)
        if opts:
            b.ask(Phase.DISCARD, s, opts, {})
            return None
        b.set_seat(s, dead=True)
        b.emit(EventKind.NO_DISCARD, s, note="死手")
    return (_Chore.DRAW, (s + 1) % b.n)


def _draw(b: _Builder, s: int) -> _Next:
    """Seat ``s`` draws: 荒庄 on an empty wall; a 王 is kept; a card making a 提/偎/臭偎 is
    used at once; any other card is shown and offered."""
    if not b.wall:
        b.emit(EventKind.HUANGZHUANG)
        b.finish(Result(ResultKind.HUANGZHUANG))
        return None
    c = b.wall.pop(0)
    seat = b.seats[s]
    if c == KING:
        # a drawn 王 is shown and kept ("在之后摸牌过程中抓到的王霸需要明示", 000
        # §永州双王扯胡子规则; kept in hand: digest G14)
        hand = list(seat.hand)
        hand[KING] += 1
        seat = b.set_seat(s, hand=tuple(hand))
        b.emit(EventKind.DRAW, s, c, note="kept")
        return (_Chore.OWN_CARD, s)
    if c < 20 and (seat.hand[c] >= 2 or seat.table_meld(c, WEI_KINDS) is not None):
        # forced 提/偎/臭偎, the card not shown ("摸牌时，除偎牌与提牌外，其它必须首先明示")
        b.emit(EventKind.DRAW_HIDDEN, s)
        k = seat.table_meld(c, WEI_KINDS)
        if seat.hand[c] == 3:
            meld = Meld(MeldKind.TI, (c,) * 4)
            seat = b.set_seat(s, hand=_hand_minus(seat.hand, c, 3), melds=seat.melds + (meld,))
            kind = EventKind.TI
        elif k is not None:
            meld = Meld(MeldKind.TI, (c,) * 4)
            melds = list(seat.melds)
            melds[k] = meld
            seat = b.set_seat(s, melds=tuple(melds))
            kind = EventKind.TI
        else:
            chou = b.v.chou.chou_wei_after_declined_peng and c in seat.chou_peng_cards
            meld = Meld(MeldKind.CHOU_WEI if chou else MeldKind.WEI, (c,) * 3)
            seat = b.set_seat(s, hand=_hand_minus(seat.hand, c, 2), melds=seat.melds + (meld,))
            kind = EventKind.CHOU_WEI if chou else EventKind.WEI
        b.took(s)
        eight = ", 八块" if kind == EventKind.TI and b.seats[s].quads > 1 else ""
        b.emit(kind, s, c, (meld,), "forced" + eight)
        if _special(b, s):
            return None
        return (_Chore.OWN_CARD, s)
    b.emit(EventKind.DRAW, s, c)
    b.pending = Pending(c, Source.DRAW, s, 0)
    return (_Chore.OFFER, s)


def _after_own_card(b: _Builder, s: int) -> _Next:
    """After a seat took its own draw into hand or a forced meld: it may win (自摸), else on.
    "偎完后可胡就自摸胡牌" (000 §衡阳六胡抢字牌规则介绍)."""
    seat = b.seats[s]
    worth = seat_worth(b.v, b.ctx(), s, seat, None, Source.SELF, s, fresh=True)
    win = hu_allowed(b.v, seat, None, Source.SELF, worth)
    if win is not None:
        hu = Action(ActionKind.HU, s)
        opts: tuple[Action, ...] = (hu,)
        if Source.SELF not in b.v.win.forced_sources:
            opts += (Action(ActionKind.PASS, s),)
        b.ask(Phase.HU_CHECK, s, opts, {hu: win})
        return None
    return (_Chore.AFTER_TAKE, s)


def _offer(b: _Builder, by: int) -> _Next:
    """Offer the pending card (exposed by seat ``by``) tier by tier; a forced 跑 happens as
    soon as its tier is reached; an unclaimed card goes to the exposer's discard area and the
    next seat draws."""
    p = _pending(b.pending)
    tiers = b.v.claims.priority
    tier = p.tier
    while tier < len(tiers):
        kinds = tiers[tier]
        cands, plans = tier_plans(b.v, tuple(b.seats), kinds, p.card, p.source, p.by,
                                  b.ctx())
        # a forced 跑 waits for every win on the card to be declined (破跑胡, 胡 > 跑)
        if b.v.claims.pao_forced and not any(o.kind == ActionKind.HU for _, opts in cands
                                      for o in opts):
            for s, opts in cands:
                for o in opts:
                    if o.kind == ActionKind.PAO:
                        return _pao(b, s, p.card, cast(PaoTarget, plans[o]), forced=True)
        if cands:
            (s, opts), rest = cands[0], tuple(cands[1:])
            b.pending = Pending(p.card, p.source, p.by, tier, rest)
            b.ask(Phase.RESPOND, s, opts, plans)
            return None
        tier += 1
    # nobody takes it
    seat = b.seats[p.by]
    b.set_seat(p.by, discards=seat.discards + (p.card,))
    if p.source == Source.DRAW:
        _mark_own(b, p.by, p.card)
    b.emit(EventKind.TO_DISCARDS, p.by, p.card)
    b.pending = None
    return (_Chore.DRAW, (p.by + 1) % b.n)


_CHORES: dict[_Chore, Callable[[_Builder, int], _Next]] = {
    _Chore.AFTER_TAKE: _after_take,
    _Chore.DRAW: _draw,
    _Chore.OFFER: _offer,
    _Chore.OWN_CARD: _after_own_card,
}
