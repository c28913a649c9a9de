"""Built-in players for simulations and demos: a random legal player and a simple greedy one.

A bot is any callable ``(state, options) -> Action`` choosing one of ``options``
(:data:`zipai_rules.play.Bot`); :func:`zipai_rules.play.play_out` lets bots play a hand out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import cast

from .analysis import encode, searcher
from .engine.actions import Action, ActionKind
from .engine.state import GameState
from .errors import ZipaiError
from .play import Bot, play_out

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bots", "play_out", "seat_bot_names"]


class RandomBot:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: GameState, options: Sequence[Action]) -> Action:
        return self.rng.choice(list(options))


_RANK = {ActionKind.HU: 0, ActionKind.PAO: 1, ActionKind.PENG: 2, ActionKind.CHI: 3,
         ActionKind.PASS: 4}


#: one card of each kind as a search pool
_UNIT = tuple(encode([int(i == j) for j in range(20)]) for i in range(20))


class GreedyBot:
    """Always wins when it can, takes 跑/碰 and the 吃 plan worth the most 胡息, and discards
    the card whose loss keeps the most of the hand in partial melds (ties: the highest card).
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: GameState, options: Sequence[Action]) -> Action:
        opts = list(options)
        if opts[0].kind == ActionKind.DISCARD:
            return self._discard(state, opts)
        v = state.variant
        def value(a: Action) -> tuple[int, int]:
            gain = sum(v.meld_huxi(m) for m in a.melds) if a.kind == ActionKind.CHI else 0
            return (_RANK[a.kind], -gain)
        best = min(opts, key=value)
        if best.kind == ActionKind.CHI and not any(
                v.meld_huxi(m) for m in best.melds) and self.rng.random() < 0.5:
            return next((o for o in opts if o.kind == ActionKind.PASS), best)
        return best

    def _discard(self, state: GameState, opts: list[Action]) -> Action:
        hand = state.seats[state.acting_seat].hand
        best = searcher(state.variant).best
        # the pool of the concealed cards a discard may leave in melds: every 坎 stays whole
        # (and the 王 out of the search); the pool after each discard is this one minus a card
        x = encode([n if n < 3 else 0 for n in hand[:20]])
        chosen, chosen_key = opts[0], (0, 0, 0)
        for k, a in enumerate(opts):
            c = cast(int, a.card)  # every discard names its card
            if c >= 20:
                y = x  # the 王 is not in the pool
            elif hand[c] < 3:
                y = x - _UNIT[c]
            else:  # a card of a 坎 (where the variant lets one be discarded): it is broken
                y = x + (hand[c] - 1) * _UNIT[c]
            found = best(y, 1, True)
            key = (len(found[2]), -found[0], -c) if found else (99, 0, -c)
            if k == 0 or key < chosen_key:
                chosen, chosen_key = a, key
        return chosen


BOTS: dict[str, Callable[[int | None], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bots(names: Sequence[str], seed: int | None, players: int) -> list[Bot]:
    """One bot per seat from a list of names (``random``, ``greedy``), repeated to fill the
    table; each seeded from ``seed`` and its seat."""
    names = [n.strip().lower() for n in names]
    unknown = [n for n in names if n not in BOTS]
    if not names or unknown:
        raise ZipaiError(f"unknown bot name {unknown[0] if unknown else ''!r}; known: "
                         + ", ".join(BOTS), code="unknown_bot")
    if len(names) > players:
        raise ZipaiError(f"{len(names)} bots named for {players} players", code="unknown_bot")
    base = 0 if seed is None else seed
    return [BOTS[names[s % len(names)]](base * 31 + s) for s in range(players)]


def seat_bot_names(names: Sequence[str], players: int) -> list[str]:
    """The bot name of each seat, as :func:`make_bots` assigns them (repeated to fill the
    table)."""
    names = [n.strip().lower() for n in names]
    return [names[s % len(names)] for s in range(players)]
