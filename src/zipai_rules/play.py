"""Playing a hand to its end: the one loop that lets players (bots, people behind a server)
decide until the hand is over.

A player is any callable ``(state, options) -> Action`` choosing one of ``options``; the
built-in ones are in :mod:`zipai_rules.bots`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .engine.actions import Action, Event
from .engine.game import Game
from .engine.state import GameState

Bot = Callable[[GameState, Sequence[Action]], Action]

#: the default bound on the decisions of one hand in :func:`play_out`
MAX_STEPS = 10_000


def play_out(game: Game, bots: Sequence[Bot], max_steps: int = MAX_STEPS, *,
             before: Callable[[Game], None] | None = None,
             after: Callable[[Action, Sequence[Event]], None] | None = None) -> Game:
    """Let ``bots`` (one per game seat) play ``game`` to its end; returns the game.

    ``before(game)`` is called before every decision (a check may raise to stop the hand),
    ``after(action, events)`` after every decision with the events it caused. Raises
    :class:`RuntimeError` if the hand is not over after ``max_steps`` decisions, and whatever
    a bot, ``before`` or ``after`` raises (a bot's choice is applied with
    :meth:`Game.apply`, so an illegal one raises
    :class:`~zipai_rules.errors.IllegalActionError`)."""
    for _ in range(max_steps):
        if game.is_over:
            return game
        if before is not None:
            before(game)
        state = game.state
        action = bots[state.acting_seat](state, state.options)
        events = game.apply(action)
        if after is not None:
            after(action, events)
    if game.is_over:
        return game
    raise RuntimeError(f"game did not end within {max_steps} steps")
