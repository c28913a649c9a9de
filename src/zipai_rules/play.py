"""Playing a hand to its end: the one loop that lets players (bots, people behind a server)
decide until the hand is over.

A player is any callable ``(state, options) -> Action`` choosing one of ``options``; the
built-in ones are in :mod:`zipai_rules.bots`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from .arguments import items_of, of_type, refuse
from .engine.actions import Action, Event
from .engine.game import Game
from .engine.state import GameState
from .errors import ZipaiError

Bot = Callable[[GameState, Sequence[Action]], Action]

#: the default bound on the decisions of one hand in :func:`play_out`
MAX_STEPS = 10_000


def check_bots(bots: object, count: int, what: str = "game seat", who: str = ""
               ) -> tuple[Bot, ...]:
    """``bots`` as a tuple if it is a list of ``count`` callables (one per ``what``); else
    :class:`~zipai_rules.errors.ZipaiError`: ``bad_argument`` for a value that is not a list
    of callables (naming the first that is not), ``unknown_bot`` for another number."""
    found = items_of(bots, object, "bots", "a bot")
    for k, bot in enumerate(found):
        if not callable(bot):
            raise refuse(f"bots[{k}]", bot, "a bot (a callable: state, options -> action)")
    if len(found) != count:
        raise ZipaiError(f"{len(found)} bots for {count} {what}s: {who or ''}"
                         f"{'needs ' if who else ''}one bot per {what}", code="unknown_bot")
    return cast(tuple[Bot, ...], found)


def play_out(game: Game, bots: Sequence[Bot], max_steps: int = MAX_STEPS, *,
             before: Callable[[Game], None] | None = None,
             after: Callable[[Action, Sequence[Event]], None] | None = None) -> Game:
    """Let ``bots`` (one per game seat) play ``game`` to its end; returns the game.

    ``before(game)`` is called before every decision (a check may raise to stop the hand),
    ``after(action, events)`` after every decision with the events it caused. Raises
    :class:`RuntimeError` if the hand is not over after ``max_steps`` decisions, and whatever
    a bot, ``before`` or ``after`` raises (a bot's choice is applied with
    :meth:`Game.apply`, so an illegal one raises
    :class:`~zipai_rules.errors.IllegalActionError`); :class:`~zipai_rules.errors.ZipaiError`
    for a ``game`` that is no :class:`Game` or ``bots`` that are not one callable per seat
    (:func:`check_bots`)."""
    of_type(game, Game, "game", "a Game")
    bots = check_bots(bots, game.variant.players)
    for _ in range(max_steps):
        state = game.state
        if state.is_over:
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
