"""Why an action is refused: :func:`refusal` gives the :class:`Refusal` that
:meth:`~zipai_rules.engine.game.Game.check` returns and
:meth:`~zipai_rules.engine.game.Game.apply` raises.

A refusal names the rule the action breaks, in the game's words, with a stable ``code`` from
:data:`~zipai_rules.errors.ERROR_CODES`. The rules themselves are not worked out again here:
the win is :func:`~zipai_rules.analysis.win_verdict`'s, the 吃/比 plans
:func:`~zipai_rules.engine.claims.chi_plans`', the 跑 targets
:func:`~zipai_rules.engine.claims.pao_source`'s, the claim tiers
:func:`~zipai_rules.engine.claims.tier_options`'.
"""

from __future__ import annotations

import attrs

from ..analysis import Analysis, win_verdict
from ..cards import KING, token
from ..vocab import REASON_MEANINGS, Phase, Reason, Source
from .actions import Action, ActionKind
from .chou import OWN, chou_reason
from .claims import chi_plans, discard_left, hand_after, pao_source, peng_kings, seat_worth
from .state import ClaimWindow, GameState, Pending

_ZH = {ActionKind.CHI: "吃", ActionKind.PENG: "碰", ActionKind.PAO: "跑", ActionKind.HU: "胡",
       ActionKind.DISCARD: "discard", ActionKind.PASS: "pass"}


@attrs.frozen(slots=True)
class Refusal:
    """Why an action is not legal now: ``code`` (a key of
    :data:`~zipai_rules.errors.ERROR_CODES`, e.g. ``not_held``, ``no_win``), ``message`` (in
    the game's words; ``str(refusal)`` is the message) and, for a 胡 that is no win, the
    analysis ``reason`` (:class:`~zipai_rules.vocab.Reason`: ``incomplete``,
    ``below_min_huxi``, ``king_not_claimable`` …)."""

    code: str
    message: str
    reason: Reason | None = None

    def __str__(self) -> str:
        return self.message


def refusal(state: GameState, action: object) -> Refusal | None:
    """``None`` if ``action`` is one of ``state``'s legal actions, else the first rule it
    breaks (see :class:`Refusal`; the codes are listed in the README's error codes)."""
    if state.is_over:
        return Refusal(code="hand_over", message="the hand is over")
    if not isinstance(action, Action):
        return Refusal(code="not_an_action", message=f"{action!r:.80} is not an Action")
    if type(action.seat) is not int:
        return Refusal(code="bad_seat",
                       message=f"a seat is an int, not a {type(action.seat).__name__}")
    for offered in state.options:  # a player's choice is one of the options it was given
        if offered is action:
            return None
    if action in state.options:
        return None
    if not 0 <= action.seat < len(state.seats):
        return Refusal(code="bad_seat", message=f"seat {action.seat} is not a seat of this "
                       f"game (0..{len(state.seats) - 1})")
    p = state.pending
    if (p is not None and state.seats[p.by].lianzhang_offer is not None
            and action.kind in (ActionKind.CHI, ActionKind.PENG, ActionKind.PAO)):
        return Refusal(code="claim_not_allowed", message=f"the dealer's 亮张 {token(p.card)} "
                       f"is offered for 胡 only (地胡) in {state.variant.name}")
    if action.kind in (ActionKind.CHI, ActionKind.PENG) and state.seats[action.seat].fang_pao:
        return Refusal(code="fang_pao", message=f"seat {action.seat} may no longer 吃 or 碰: "
                       "another seat 跑'd its discard onto a table 偎/碰 (放跑之后不能再进张)")
    if state.window is not None:
        return _window_refusal(state, action, state.window)
    if action.seat != state.actor:
        if state.phase == Phase.DISCARD:  # whose discard it is shows at the table
            return Refusal(code="not_your_turn",
                           message=f"it is seat {state.actor}'s turn, not seat {action.seat}'s")
        # which seat is asked about a card or a win is not shown to the others (observe:
        # WAIT), nor whether a claim of theirs waits for it
        return Refusal(code="not_your_turn", message=f"seat {action.seat} does not act now")
    found = _own_turn(state, action)
    if found is None:
        legal = ", ".join(str(a) for a in state.options)
        found = Refusal(code="illegal_action",
                        message=f"{action} is not legal now; legal: {legal}")
    return found


def _window_refusal(state: GameState, action: Action, w: ClaimWindow) -> Refusal | None:
    """The refusal of an answer to an open claim window, from what the seat itself is shown:
    its own options, its own hand and the card on offer; never whether another seat may
    claim it or has answered."""
    s = action.seat
    options = state.options_for(s)
    if action in options:
        return None
    p = state.pending
    assert p is not None  # a window is open on the card on offer
    if s not in w.seats:
        return Refusal(code="not_your_turn", message=f"seat {s} discarded {token(p.card)}: it "
                       "does not answer it")
    if w.answer(s) is not None:
        return Refusal(code="already_answered", message=f"seat {s} has answered the window "
                       f"on {token(p.card)}")
    if action.kind == ActionKind.DISCARD:
        return Refusal(code="wrong_phase", message=f"seat {s} does not discard now: "
                       f"{token(p.card)} is on offer: answer it (a claim or pass)")
    if action.kind == ActionKind.PASS:
        return Refusal(code="win_forced", message=f"the 胡 is forced in {state.variant.name}: "
                       f"seat {s} may not pass it")
    if action.card != p.card:
        given = "no card" if action.card is None else token(action.card)
        return Refusal(code="not_on_offer", message=f"the card on offer is {token(p.card)}, "
                       f"not {given}")
    found = _claim(state, action, p)
    if found is None:
        legal = ", ".join(str(a) for a in options)
        found = Refusal(code="illegal_action",
                        message=f"{action} is not legal now; legal: {legal}")
    return found


def _own_turn(state: GameState, action: Action) -> Refusal | None:
    """The refusal of an action by the seat to act, or ``None`` when no named rule applies."""
    v, s, kind = state.variant, action.seat, action.kind
    seat = state.seats[s]
    p = state.pending
    if kind == ActionKind.DISCARD:
        if state.phase != Phase.DISCARD:
            what = (f"{token(p.card)} is on offer: answer it (a claim or pass)" if p
                    else "the hand as it stands may win: 胡 or pass")
            return Refusal(code="wrong_phase", message=f"seat {s} does not discard now: {what}")
        return _discard(state, action)
    if kind == ActionKind.PASS:
        if state.phase == Phase.DISCARD:
            return Refusal(code="wrong_phase", message=f"seat {s} owes a discard: it cannot pass")
        if any(o.kind == ActionKind.HU for o in state.options):
            return Refusal(code="win_forced", message=f"the 胡 is forced in {v.name}: seat {s} "
                           "may not pass it")
        return None
    if p is None:
        if kind == ActionKind.HU:
            a = win_verdict(v, seat.hand, seat.melds, None, None)
            if not a.win and a.reason is not None:
                return _no_win(s, "the hand as it stands", a.reason)
            beaten = _not_beaten(state, s, state.drawn, Source.SELF, s, a, fresh=True)
            if beaten is not None:
                return beaten
        return Refusal(code="nothing_on_offer", message=f"no card is on offer: seat {s} "
                       + ("owes a discard" if state.phase == Phase.DISCARD else "may 胡 or pass"))
    if action.card != p.card:
        given = "no card" if action.card is None else token(action.card)
        return Refusal(code="not_on_offer", message=f"the card on offer is {token(p.card)}, "
                       f"not {given}")
    found = _claim(state, action, p)
    if found is not None:
        return found
    tier_kinds = v.claims.priority[p.tier]
    if kind not in tier_kinds:
        now = "/".join(_ZH[ActionKind(k)] for k in tier_kinds)
        return Refusal(code="outranked", message=f"{now} on {token(p.card)} is asked now: "
                       f"{_ZH[kind]} comes after it is passed")
    return None


def _discard(state: GameState, action: Action) -> Refusal | None:
    v, s, c = state.variant, action.seat, action.card
    seat = state.seats[s]
    if c is None:
        return Refusal(code="not_held", message="a discard names its card")
    if not seat.hand[c]:
        on_table = next((m for m in seat.melds if c in m.cards), None)
        where = f" (it lies in its {on_table.kind.value} on the table)" if on_table else ""
        return Refusal(code="not_held", message=f"seat {s} holds no {token(c)}{where}")
    if c == KING and not v.deck.king_rules.discardable:
        return Refusal(code="card_locked", message=f"a 王 (K) may not be discarded in {v.name}: "
                       "it only stands for other cards")
    if seat.hand[c] >= 3 and not v.discard.kan_discardable:
        return Refusal(code="card_locked", message=f"{token(c)} is a 坎 (three in the hand): a 坎 "
                       f"stays whole in {v.name} and may not be discarded")
    return None


def _not_beaten(state: GameState, s: int, card: int | None, source: Source, by: int | None,
                win: Analysis, fresh: bool = False) -> Refusal | None:
    """The refusal of a win not worth more than one the seat declined
    (``win.declined_must_be_beaten``)."""
    v, seat = state.variant, state.seats[s]
    if not v.win.declined_must_be_beaten or seat.declined_units is None or not win.win:
        return None
    worth = seat_worth(v, state.win_context(), s, seat, card, source, by, fresh)(win)
    if worth > seat.declined_units:
        return None
    return Refusal(code="not_beaten", message=f"seat {s} declined a win worth "
                   f"{seat.declined_units} units; this one is worth {worth}, and in {v.name} a "
                   "later win must be worth more")


def _chou(state: GameState, s: int, c: int, kind: str, source: str) -> Refusal | None:
    """The refusal of seat ``s``'s 吃/碰 (``kind``) of card ``c`` from ``source`` where it is
    臭 for the seat (:func:`~zipai_rules.engine.chou.chou_reason`), else ``None``."""
    v = state.variant
    why = chou_reason(v, state.seats[s], c, kind, source)
    if why is None:
        return None
    take = "吃" if kind == ActionKind.CHI else "碰"
    if why == OWN:
        return Refusal(code="chou", message=f"{token(c)} is 臭 for seat {s}: it let this "
                       f"card go itself and may never {take} it")
    before = f"吃 or 碰 it before, which in {v.name} blocks both" if v.chou.both \
        else f"{take} it before"
    return Refusal(code="chou", message=f"{token(c)} is 臭 for seat {s}: it declined to "
                   f"{before}")


def _claim(state: GameState, action: Action, p: Pending) -> Refusal | None:
    """The refusal of a 胡, 跑, 碰 or 吃 of the card on offer, by the rule it breaks."""
    v, s, kind, c = state.variant, action.seat, action.kind, p.card
    seat = state.seats[s]
    own = s == p.by
    source = Source.SELF if own else p.source
    from_where = f"{token(c)} from {'its own draw' if own else 'a ' + str(p.source)}"
    if kind == ActionKind.HU:
        a = win_verdict(v, seat.hand, seat.melds, c, source, chou_hu=seat.chou_hu_marks)
        if not a.win and a.reason is not None:
            return _no_win(s, from_where, a.reason)
        return _not_beaten(state, s, c, source, p.by, a)
    if kind == ActionKind.PAO:
        if pao_source(v, seat, c, p.source, own) is None:
            king = (f" (a 王 does not stand in for a claimed card in {v.name})"
                    if c != KING and seat.hand[c] == 2 and seat.hand[KING] else "")
            return Refusal(code="cannot_claim", message=f"seat {s} has no 坎, 偎 or 碰 of "
                           f"{token(c)} that takes {from_where} as 跑 in {v.name}{king}")
        return None
    if kind == ActionKind.PENG:
        if own or p.source not in v.claims.peng_on:
            allowed = " or ".join(sorted(str(x) for x in v.claims.peng_on)) or "no card"
            return Refusal(code="claim_not_allowed", message=f"a 碰 takes another player's "
                           f"{allowed} in {v.name}, not {from_where}")
        if peng_kings(v, seat.hand, c) is None:
            king = (f" (a 王 does not stand in for a claimed card in {v.name})"
                    if c != KING and seat.hand[c] == 1 and seat.hand[KING] else "")
            return Refusal(code="cannot_claim", message=f"a 碰 needs a pair of {token(c)}; seat "
                           f"{s} holds {seat.hand[c]}{king}")
        refused = _chou(state, s, c, kind, p.source)
        if refused is not None:
            return refused
        kings = peng_kings(v, seat.hand, c) or 0
        after = list(seat.hand)
        after[c] -= 2 - kings
        after[KING] -= kings
        return _nothing_to_discard(state, s, kind, after)
    if kind == ActionKind.CHI:
        n = len(state.seats)
        if not ((own and Source.SELF in v.claims.chi_by)
                or (s == (p.by + 1) % n and "next" in v.claims.chi_by)):
            who = " and ".join({"self": "the seat that drew it", "next": "the next seat"}
                               .get(str(x), str(x)) for x in sorted(v.claims.chi_by, key=str))
            return Refusal(code="claim_not_allowed", message=f"in {v.name} only {who} may 吃 "
                           f"a card; seat {s} may not 吃 {from_where}")
        refused = _chou(state, s, c, kind, p.source)
        if refused is not None:
            return refused
        plans = chi_plans(v, seat.hand, c, seat.melds)
        king = (f"; a 王 does not stand in a 吃 in {v.name}"
                if seat.hand[KING] and "chi" not in v.deck.king_rules.claims else "")
        if not plans:
            return Refusal(code="bad_plan", message=f"{token(c)} makes no complete 吃 with seat "
                           f"{s}'s hand (every {token(c)} held must be laid down with it as 比, "
                           f"and a 坎 is never used{king})")
        if action.melds not in plans:
            shown = " | ".join(" ".join(str(m) for m in plan) for plan in plans)
            given = (f"the 吃 plan {' '.join(str(m) for m in action.melds)} does not fit seat "
                     f"{s}'s hand" if action.melds else "a 吃 names its whole plan (the 吃 meld "
                     "and every 比 meld)")
            return Refusal(code="bad_plan", message=f"{given}; the plans that fit: {shown}"
                           f"{king if any(m.kings for m in action.melds) else ''}")
        return _nothing_to_discard(state, s, kind, hand_after(seat.hand, action.melds, c))
    return None


def _nothing_to_discard(state: GameState, s: int, kind: str, after: list[int]
                        ) -> Refusal | None:
    """The refusal of a 吃 or 碰 after which seat ``s`` would owe a discard and hold only
    cards it may not discard (:func:`~zipai_rules.engine.claims.discard_left`)."""
    if discard_left(state.variant, state.seats[s], after):
        return None
    return Refusal(code="nothing_to_discard", message=f"after this {_ZH[ActionKind(kind)]} seat "
                   f"{s} would owe a discard and hold only cards it may not discard (坎, 王)")


def _no_win(seat: int, what: str, reason: Reason) -> Refusal:
    return Refusal(code="no_win", message=f"seat {seat} has no win with {what}: {reason} "
                   f"({REASON_MEANINGS[reason]})", reason=reason)
