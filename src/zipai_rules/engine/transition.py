"""The one path by which a game changes: ``start`` deals, ``step`` applies an action.

Both build a new frozen :class:`~zipai_rules.engine.state.GameState` and the events that
happened, running every forced move (提/偎/臭偎/跑, 臭 marks, draws) until a seat has a
decision to make or the hand is over. ``step`` assumes the action was already checked legal.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from ..analysis import tianhu
from ..cards import KING
from ..melds import Meld, MeldKind
from ..special import special_win
from ..variant import Variant
from .actions import Action, ActionKind, Event, EventKind
from .claims import (WEI_KINDS, discard_options, hu_allowed, owes_discard,
                     pao_source, table_huxi, tier_options)
from .state import GameState, Pending, Result, SeatState


class _Builder:
    """A mutable working copy of a state, frozen again by :meth:`freeze`."""

    def __init__(self, state: GameState) -> None:
        self.v: Variant = state.variant
        self.dealer = state.dealer
        self.seats: list[SeatState] = list(state.seats)
        self.wall: list[int] = list(state.wall)
        self.phase = state.phase
        self.actor = state.actor
        self.options: tuple[Action, ...] = state.options
        self.pending = state.pending
        self.result = state.result
        self.turn = state.turn
        self.events: list[Event] = []

    @property
    def n(self) -> int:
        return len(self.seats)

    def freeze(self) -> GameState:
        return GameState(self.v, self.dealer, tuple(self.seats), tuple(self.wall), self.phase,
                         self.actor, self.options, self.pending, self.result, self.turn)

    def emit(self, kind: EventKind, seat: int | None = None, card: int | None = None,
             melds: tuple[Meld, ...] = (), note: str = "") -> None:
        self.events.append(Event(kind, seat, card, melds, note))

    def set_seat(self, s: int, **changes) -> SeatState:  # type: ignore[no-untyped-def]
        self.seats[s] = attrs.evolve(self.seats[s], **changes)
        return self.seats[s]

    def ask(self, phase: str, actor: int, options: tuple[Action, ...]) -> None:
        self.phase, self.actor, self.options = phase, actor, options

    def finish(self, result: Result) -> None:
        self.phase, self.actor, self.options, self.result = "over", None, (), result


def _pending(p: Pending | None) -> Pending:
    """The card on offer; its absence in a claim phase is a bug of the engine, not of input."""
    if p is None:
        raise RuntimeError("internal error: no card on offer in a claim phase")
    return p


def _hand_minus(hand: tuple[int, ...], card: int, n: int) -> tuple[int, ...]:
    h = list(hand)
    h[card] -= n
    return tuple(h)


# --- start of a hand -------------------------------------------------------------------------

def start(variant: Variant, hands: Sequence[Sequence[int]], wall: Sequence[int], dealer: int
          ) -> tuple[GameState, list[Event]]:
    """Deal the given hands (card indices per seat; the dealer's last card is the 亮张) and
    wall, lay down dealt 提, settle a forced 天胡, and stop at the dealer's first decision."""
    from ..cards import counts_of

    seats = tuple(SeatState(counts_of(h)) for h in hands)
    state = GameState(variant, dealer, seats, tuple(wall), "start", None, ())
    b = _Builder(state)
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
        a = tianhu(variant, _indices(b.seats[s].hand), b.seats[s].melds)
        if a is not None:
            b.emit(EventKind.TIANHU, s, note="forced")
            b.finish(Result("tianhu", s, None, None, a.huxi, a.best, _tianhu_labels(b, s)))
            return b.freeze(), b.events
    if variant.win.tianhu.optional_dealer_win:
        if hu_allowed(variant, b.seats[dealer], None, "self") is not None:
            b.ask("hu_check", dealer, (Action(ActionKind.HU, dealer), Action(ActionKind.PASS, dealer)))
            return b.freeze(), b.events
    _after_take(b, dealer)
    return b.freeze(), b.events


def _tianhu_labels(b: _Builder, s: int) -> tuple[str, ...]:
    """A dealer's 天胡 made with the 亮张 is also 自摸 where the 亮张 counts as a draw
    ("如果亮张的牌正好构成第3提或第5坎，则庄家天胡而且自摸", 000 §字牌规则说明)."""
    return ("tianhu", "zimo") if s == b.dealer and b.v.deal.lianzhang_is_draw else ("tianhu",)


def _win_labels(b: _Builder, s: int, source: str | None, by: int | None) -> tuple[str, ...]:
    """``zimo`` for a win on one's own draw, ``dihu`` per the variant's 地胡 rule."""
    labels = ("zimo",) if source == "self" else ()
    if b.v.win.dihu != "none" and s != b.dealer:
        first_draw = source in ("self", "draw") and len(b.wall) == b.v.deal.wall - 1
        first_discard = (source == "discard" and by == b.dealer and len(b.wall) == b.v.deal.wall
                         and b.v.win.dihu == "first_discard_or_wall_card")
        if first_draw or first_discard:
            labels += ("dihu",)
    return labels


def _special(b: _Builder, s: int) -> bool:
    """End the hand if seat ``s`` holds one of the variant's special wins (e.g. 碰胡 2 提蛇)."""
    if not b.v.win.special:
        return False
    seat = b.seats[s]
    a = special_win(b.v, seat.hand, seat.melds, s == b.dealer)
    if a is None:
        return False
    name = a.best.special if a.best else "special"
    b.emit(EventKind.HU, s, note=name)
    b.finish(Result("hu", s, None, None, a.huxi, a.best, (name or "special",)))
    return True


def _indices(hand: tuple[int, ...]) -> list[int]:
    out: list[int] = []
    for i, n in enumerate(hand):
        out.extend([i] * n)
    return out


# --- applying a decision -----------------------------------------------------------------------

def step(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply a legal ``action`` and run the forced moves that follow."""
    b = _Builder(state)
    b.turn += 1
    kind = action.kind
    if state.phase == "discard":
        _discard(b, action.seat, action.card)  # type: ignore[arg-type]
    elif state.phase == "hu_check":
        if kind == ActionKind.HU:
            a = hu_allowed(b.v, b.seats[action.seat], None, "self")
            if a is None:  # the option was offered, so the win was allowed
                raise RuntimeError(f"internal error: seat {action.seat} offered 胡 cannot win")
            # 天胡 only on the dealt hand: no card drawn from the wall yet (a win checked after
            # a forced 偎/提 on the first draw, when the dealer owed no discard, is a 自摸)
            first = state.turn == 0 and len(state.wall) == b.v.deal.wall
            b.emit(EventKind.HU, action.seat, note="天胡" if first else "自摸")
            labels = (_tianhu_labels(b, action.seat) if first
                      else _win_labels(b, action.seat, "self", action.seat))
            b.finish(Result("tianhu" if first else "hu", action.seat, None, "self", a.huxi,
                            a.best, labels))
        else:
            b.emit(EventKind.PASS, action.seat)
            _after_take(b, action.seat)
    else:  # respond
        p = _pending(state.pending)
        if kind == ActionKind.PASS:
            _decline(b, action.seat, state.options)
            if p.queue:
                (s, opts), rest = p.queue[0], p.queue[1:]
                b.pending = attrs.evolve(p, queue=rest)
                b.ask("respond", s, opts)
            else:
                b.pending = attrs.evolve(p, tier=p.tier + 1)
                _resolve(b)
        else:
            _take(b, action, p)
    return b.freeze(), b.events


def _decline(b: _Builder, s: int, options: tuple[Action, ...]) -> None:
    p = _pending(b.pending)
    b.emit(EventKind.PASS, s, p.card)
    seat = b.seats[s]
    kinds = {o.kind for o in options}
    if ActionKind.HU in kinds and b.v.win.chou_hu:
        seat = b.set_seat(s, chou_hu=seat.chou_hu + ((p.card, table_huxi(b.v, seat)),))
        b.emit(EventKind.CHOU, s, p.card, note="臭胡")
    if ActionKind.PENG in kinds and b.v.chou.peng and p.card not in seat.chou_peng:
        seat = b.set_seat(s, chou_peng=seat.chou_peng | {p.card})
        b.emit(EventKind.CHOU, s, p.card, note="peng")
    if ActionKind.CHI in kinds and b.v.chou.chi and p.card not in seat.chou_chi:
        b.set_seat(s, chou_chi=seat.chou_chi | {p.card})
        b.emit(EventKind.CHOU, s, p.card, note="chi")


def _take(b: _Builder, action: Action, p: Pending) -> None:
    s, c = action.seat, p.card
    seat = b.seats[s]
    if action.kind == ActionKind.HU:
        source = "self" if (s == p.by and p.source == "draw") else p.source
        a = hu_allowed(b.v, seat, c, source)
        if a is None:  # the option was offered, so the win was allowed
            raise RuntimeError(f"internal error: seat {s} was offered 胡 but cannot win")
        b.emit(EventKind.HU, s, c, note=source)
        b.finish(Result("hu", s, c, source, a.huxi, a.best, _win_labels(b, s, source, p.by)))
        return
    b.pending = None
    if action.kind == ActionKind.PAO:
        _pao(b, s, c, p)
    elif action.kind == ActionKind.PENG:
        meld = Meld(MeldKind.PENG, (c,) * 3)
        b.set_seat(s, hand=_hand_minus(seat.hand, c, 2), melds=seat.melds + (meld,))
        b.emit(EventKind.PENG, s, c, (meld,))
        _after_take(b, s)
    else:  # chi
        hand = list(seat.hand)
        used = [i for m in action.melds for i in m.cards]
        used.remove(c)
        for i in used:
            hand[i] -= 1
        b.set_seat(s, hand=tuple(hand), melds=seat.melds + action.melds)
        b.emit(EventKind.CHI, s, c, action.melds)
        _after_take(b, s)


def _pao(b: _Builder, s: int, c: int, p: Pending, forced: bool = False) -> None:
    seat = b.seats[s]
    own = s == p.by
    where = pao_source(b.v, seat, c, p.source, own)
    meld = Meld(MeldKind.PAO, (c,) * 4)
    if where == -1:
        b.set_seat(s, hand=_hand_minus(seat.hand, c, 3), melds=seat.melds + (meld,))
    else:
        if where is None:  # the option was offered, so a 坎/偎/碰 takes the card
            raise RuntimeError(f"internal error: seat {s} was offered 跑 without a meld")
        melds = list(seat.melds)
        melds[where] = meld
        b.set_seat(s, melds=tuple(melds))
    b.pending = None
    notes = (["forced"] if forced else []) + (["八块"] if b.seats[s].quads > 1 else [])
    b.emit(EventKind.PAO, s, c, (meld,), ", ".join(notes))
    _after_take(b, s)


def _after_take(b: _Builder, s: int) -> None:
    """After seat ``s`` took in a card (or at the deal): discard if owed, else the next draws.

    "任何吃碰等动作后都要打牌,八块(即跑、提两次及以上)除外" (000 §跑胡子玩牌规则), expressed as the
    resting size of digest §1.4.0.
    """
    seat = b.seats[s]
    if owes_discard(b.v, seat):
        opts = discard_options(b.v, s, seat.hand)
        if opts:
            b.ask("discard", s, opts)
            return
        b.set_seat(s, dead=True)
        b.emit(EventKind.NO_DISCARD, s, note="死手")
    _draw(b, (s + 1) % b.n)


def _discard(b: _Builder, s: int, c: int) -> None:
    seat = b.seats[s]
    b.set_seat(s, hand=_hand_minus(seat.hand, c, 1), early_discard=False)
    b.emit(EventKind.DISCARD, s, c)
    _mark_own(b, s, c)
    b.pending = Pending(c, "discard", s, 0)
    _resolve(b)


def _mark_own(b: _Builder, s: int, c: int) -> None:
    """A card a player discards (or leaves from their own draw) is 臭 for them."""
    if b.v.chou.own_discards:
        seat = b.seats[s]
        b.set_seat(s, chou_chi=seat.chou_chi | {c}, chou_peng=seat.chou_peng | {c},
                   own_chou=seat.own_chou | {c})


def _draw(b: _Builder, s: int) -> None:
    if not b.wall:
        b.emit(EventKind.HUANGZHUANG)
        b.finish(Result("huangzhuang"))
        return
    c = b.wall.pop(0)
    seat = b.seats[s]
    if c == KING:
        # a drawn 王 is shown and kept ("在之后摸牌过程中抓到的王霸需要明示", 000 §永州双王扯胡子规则;
        # kept in hand: digest G14)
        hand = list(seat.hand)
        hand[KING] += 1
        seat = b.set_seat(s, hand=tuple(hand))
        b.emit(EventKind.DRAW, s, c, note="kept")
        _after_own_card(b, s)
        return
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
            chou = b.v.chou.chou_wei_after_declined_peng and c in seat.chou_peng
            meld = Meld(MeldKind.CHOU_WEI if chou else MeldKind.WEI, (c,) * 3)
            seat = b.set_seat(s, hand=_hand_minus(seat.hand, c, 2), melds=seat.melds + (meld,))
            kind = EventKind.CHOU_WEI if chou else EventKind.WEI
        b.emit(kind, s, c, (meld,), "forced" + (", 八块" if kind == EventKind.TI and seat.quads > 1 else ""))
        if _special(b, s):
            return
        _after_own_card(b, s)
        return
    b.emit(EventKind.DRAW, s, c)
    b.pending = Pending(c, "draw", s, 0)
    _resolve(b)


def _after_own_card(b: _Builder, s: int) -> None:
    """After a seat took its own draw into hand or a forced meld: it may win (自摸), else on.
    "偎完后可胡就自摸胡牌" (000 §衡阳六胡抢字牌规则介绍)."""
    if hu_allowed(b.v, b.seats[s], None, "self") is not None:
        opts = (Action(ActionKind.HU, s),)
        if "self" not in b.v.win.forced_sources:
            opts += (Action(ActionKind.PASS, s),)
        b.ask("hu_check", s, opts)
        return
    _after_take(b, s)


def _resolve(b: _Builder) -> None:
    """Offer the pending card tier by tier; a forced 跑 happens as soon as its tier is reached;
    an unclaimed card goes to the exposer's discard area and the next seat draws."""
    p = _pending(b.pending)
    tiers = b.v.claims.priority
    tier = p.tier
    while tier < len(tiers):
        kinds = tiers[tier]
        cands = tier_options(b.v, tuple(b.seats), kinds, p.card, p.source, p.by)
        # a forced 跑 waits for every win on the card to be declined (破跑胡, 胡 > 跑)
        if b.v.claims.pao_forced and not any(o.kind == ActionKind.HU for _, opts in cands
                                      for o in opts):
            for s, opts in cands:
                if any(o.kind == ActionKind.PAO for o in opts):
                    _pao(b, s, p.card, p, forced=True)
                    return
        if cands:
            (s, opts), rest = cands[0], tuple(cands[1:])
            b.pending = Pending(p.card, p.source, p.by, tier, rest)
            b.ask("respond", s, opts)
            return
        tier += 1
    # nobody takes it
    by = p.by
    seat = b.seats[by]
    b.set_seat(by, discards=seat.discards + (p.card,))
    if p.source == "draw":
        _mark_own(b, by, p.card)
    b.emit(EventKind.TO_DISCARDS, by, p.card)
    b.pending = None
    _draw(b, (by + 1) % b.n)
