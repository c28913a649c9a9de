"""The invariants every game must keep, written once: ``zipai validate --simulate``, the
testing kit's :class:`~zipai_rules.testing.ZipaiMachine` and the property tests all use them.

Each check returns ``None`` when the invariant holds, otherwise a one-line description of the
first problem found (a caller that asserts writes ``assert problem is None, problem``).
"""

from __future__ import annotations

from .cards import KING, N_KINDS
from .engine.game import Game
from .engine.state import GameState
from .settlement import Settlement


def kind_counts(state: GameState) -> list[int]:
    """Copies of each card kind (index 0..20) anywhere in the state: hands, tables, discard
    areas, the wall and the card on offer."""
    n = [0] * N_KINDS
    for i in state.wall:
        n[i] += 1
    for seat in state.seats:
        for i, k in enumerate(seat.hand):
            n[i] += k
        for m in seat.melds:
            for i in m.physical:
                n[i] += 1
        for i in seat.discards:
            n[i] += 1
    if state.pending is not None:
        n[state.pending.card] += 1
    return n


def conservation(state: GameState) -> str | None:
    """Card conservation: the state holds the variant's whole deck (``copies`` of each
    ordinary card, ``kings`` 王, ``deck_size`` in all) but the ``deal.set_aside`` cards (then
    at most ``copies`` of each kind: which were set aside is not in the state), and no
    concealed hand holds a 4th copy of an ordinary card (four are always laid down as a 提)."""
    v = state.variant
    in_play = v.deck.size - v.deal.set_aside
    if state.card_count() != in_play:
        return f"{state.card_count()} cards, not {in_play}"
    counts = kind_counts(state)
    if v.deal.set_aside:
        full = all(n <= v.deck.copies for n in counts[:KING]) and counts[KING] <= v.deck.kings
    else:
        full = counts[:KING] == [v.deck.copies] * KING and counts[KING] == v.deck.kings
    if not full:
        return (f"card kinds {counts} are not the deck's "
                f"({v.deck.copies} of each, {v.deck.kings} 王)")
    for s, seat in enumerate(state.seats):
        if not all(0 <= k <= 3 for k in seat.hand[:KING]):
            return f"seat {s} holds {list(seat.hand)}: a count outside 0..3"
    return None


def one_actor(state: GameState) -> str | None:
    """Exactly one seat acts until the end: while the hand is not over, the actor is a seat
    of the game, its options are not empty, all of them are its own and none is listed twice;
    once it is over there is a result, no actor and no option."""
    if state.is_over:
        if state.result is None or state.actor is not None or state.options:
            return (f"the hand is over with result {state.result}, actor {state.actor} and "
                    f"{len(state.options)} options")
        return None
    if state.result is not None:
        return "a result is set but the hand is not over"
    if state.actor not in range(len(state.seats)):
        return f"actor {state.actor} is not a seat"
    if not state.options:
        return "no legal action and the hand is not over"
    other = next((a for a in state.options if a.seat != state.actor), None)
    if other is not None:
        return f"more than one seat acts: seat {state.actor} is to act, {other} is offered"
    if len(set(state.options)) != len(state.options):
        return "an option is listed twice"
    return None


def options_accepted(game: Game) -> str | None:
    """Every offered action passes :meth:`Game.check`."""
    bad = next((a for a in game.state.options if game.check(a) is not None), None)
    return None if bad is None else f"offered action {bad} is refused"


def game_problem(game: Game) -> str | None:
    """The first broken invariant of the game's current state: :func:`one_actor`,
    :func:`options_accepted`, :func:`conservation`; ``None`` when all hold."""
    state = game.state
    return one_actor(state) or options_accepted(game) or conservation(state)


def payments_balance(settlement: Settlement) -> str | None:
    """The payments of a settlement (the seat sitting out included) sum to zero, or, for a
    hand that is not zero-sum (湘乡's payments: a win nobody pays, a discard bonus, the
    dealer's 荒庄 charge), to what it ``credited`` without a payer (less what it charged
    without a payee)."""
    credited = settlement.credited
    if sum(settlement.payments) + settlement.sitting_out != credited:
        want = f"{credited} (the units credited without a payer or payee)" if credited else "zero"
        return (f"payments {settlement.payments} and sitting out {settlement.sitting_out} do "
                f"not sum to {want}")
    return None
