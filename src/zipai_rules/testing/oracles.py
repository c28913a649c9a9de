"""Differential oracles for engine authors (see :mod:`zipai_rules.testing`).

A checker that sees only the seat asked misses every bug that offers too much or too little
to a seat nobody asked yet. These helpers give the engine's answer for any seat, asked or
not, so that another engine (a server's, a client's, a port) can be compared with it:

* :func:`engine_options`: the options a seat has on an exposed card in every claim tier;
* :func:`win_decision_problems`: the one win decision, ``analyze`` against the engine's 胡
  offers on the card now on offer.
"""

from __future__ import annotations

from ..analysis import analyze
from ..cards import KING
from ..engine.actions import Action, ActionKind
from ..engine.claims import tier_options
from ..engine.game import Game
from ..engine.state import GameState
from ..vocab import Source
from .strategies import StrategyArgumentError


def engine_options(state: GameState, seat: int, card: int, source: str,
                   by: int | None = None) -> tuple[Action, ...]:
    """The options the engine gives ``seat`` on ``card`` (a card index) exposed from
    ``source`` (``"draw"`` or ``"discard"``) by the seat ``by`` (default: the seat that
    exposed the card on offer, else the seat to act), in ``state`` as its hands and 臭 sets
    stand: every claim tier of ``claims.priority`` in order, whether or not the seat would be
    asked (a higher claim of another seat may come first). A tuple of
    :class:`~zipai_rules.engine.Action`, empty when the seat can claim nothing; the seat
    answering its own draw is offered its ``self`` options. The same function the engine
    asks with (engine/claims.py ``tier_options``). Raises :class:`StrategyArgumentError` for
    a ``state`` that is no ``GameState``, a seat (``seat``, ``by``) that is not one, a card
    that is no index ``0..20`` or an unknown source."""
    if not isinstance(state, GameState):
        raise StrategyArgumentError(f"state is a GameState (game.state), not {state!r}")
    v = state.variant
    if not _is_index(seat, len(state.seats)):
        raise StrategyArgumentError(f"seat is 0..{len(state.seats) - 1}, not {seat!r}")
    if not _is_index(card, KING + 1):
        raise StrategyArgumentError(f"card is a card index 0..{KING}, not {card!r}")
    if not isinstance(source, str) or source not in ("draw", "discard"):
        raise StrategyArgumentError(f"source is 'draw' or 'discard', not {source!r}")
    if by is not None and not _is_index(by, len(state.seats)):
        raise StrategyArgumentError(f"by is a seat 0..{len(state.seats) - 1} or None, "
                                    f"not {by!r}")
    if by is None:
        by = state.pending.by if state.pending is not None else state.acting_seat
    out: list[Action] = []
    for kinds in v.claims.priority:
        for s, opts in tier_options(v, state.seats, kinds, card, Source(source), by,
                                    state.win_context()):
            if s == seat:
                out += [a for a in opts if a.kind != ActionKind.PASS and a not in out]
    return tuple(out)


def _is_index(value: object, n: int) -> bool:
    """Whether ``value`` is an ``int`` (not a bool) in ``0..n-1``."""
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value < n


def win_decision_problems(game: Game) -> list[str]:
    """The one win decision at the card now on offer in ``game`` (a
    :class:`~zipai_rules.engine.Game` in its ``respond`` phase; otherwise ``[]``): for every
    seat offered the card, ``analyze(variant, hand, melds, card, source)`` must say win
    exactly when the engine offers that seat 胡 (:func:`engine_options`). Seats with a
    死手 or a 臭胡 mark on the card are left out (``analyze`` keeps no memory of declined
    wins). Returns one line per disagreement (empty when they agree): feed it the games of
    your own engine's states to find a 胡 it offers or misses. Raises
    :class:`StrategyArgumentError` for a ``game`` that is no ``Game``."""
    if not isinstance(game, Game):
        raise StrategyArgumentError(f"game is a zipai_rules.engine.Game, not {game!r}")
    state = game.state
    p = state.pending
    if state.phase != "respond" or p is None:
        return []
    v, problems = game.variant, []
    for s, seat in enumerate(state.seats):
        if (s == p.by and str(p.source) == "discard") or seat.dead:
            continue
        if v.win.chou_hu and any(c == p.card for c, _ in seat.chou_hu_marks):
            continue
        src = "self" if s == p.by else str(p.source)
        hand = [i for i, n in enumerate(seat.hand) for _ in range(n)]
        wins = analyze(v, hand, seat.melds, p.card, src).win
        offered = any(a.kind == ActionKind.HU
                      for a in engine_options(state, s, p.card, str(p.source), p.by))
        if wins != offered:
            problems.append(f"seat {s}, card {p.card} from {src}: analyze says "
                            f"{'win' if wins else 'no win'}, the engine "
                            f"{'offers' if offered else 'does not offer'} 胡")
    return problems


__all__ = ["engine_options", "win_decision_problems"]
