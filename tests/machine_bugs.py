"""Planted bugs for measuring how ``ZipaiMachine`` finds and shrinks a failure (issue 27),
shared by tests/test_machine_shrink.py (cheap, ci) and tests/machine_shrink.py (the
measurement script, many hypothesis seeds).

Each bug is "your code" of a user, checked by the machine after every action, or an engine
that misbehaves:

* ``drawn_again``: a 臭 tracker that forgets a card its seat drew and left (own_discards:
  "任何人也不能吃或者碰自己曾经打出过的牌", 003_5cd7634dfd57d897.txt; the engine counts a drawn card
  left unclaimed as let go, engine/transition.py): it is wrong when such a card comes round
  again to a seat holding a copy;
* ``peng_again``: a 臭 tracker that forgets a declined 碰 ("玩家可以吃、碰却选择不吃、不碰时，这张牌
  就成了该玩家的臭牌 … 不得再吃或者碰", 003): wrong when the card comes round again to a seat
  holding a copy;
* ``settlement``: a settlement that pays the winner one unit too many (22 of 300 randomly
  played Hunan hands end in a win); the machine's own check that payments balance finds it.

The tracker is a plain re-reading of the events and of the options its seat was sent; the
correct tracker (``Tracker()``) agrees with the engine on every seat holding the card of every
new offer (tests/test_machine_shrink.py checks it on seeded games).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from zipai_rules import find_variant
from zipai_rules.engine import ActionKind, EventKind, Game
from zipai_rules.testing import ZipaiMachine

HUNAN = find_variant("hunan")
_GONE = (EventKind.TO_DISCARDS, EventKind.CHI, EventKind.PENG, EventKind.PAO, EventKind.HU)


class Tracker:
    """A 臭 tracker of Hunan (``chou``: chi, peng, own_discards, scope both) from the events
    and the options each seat was sent: ``own[s]`` the cards seat ``s`` let go itself (its
    discards, and a draw of its own nobody took), ``peng[s]`` the cards 臭 for its 碰 (those,
    a declined 碰, and a declined 吃 once the card is gone to another seat or a discard area).
    ``forget_drawn`` / ``forget_peng`` plant the two bugs."""

    def __init__(self, players: int, forget_drawn: bool = False,
                 forget_peng: bool = False) -> None:
        self.own: list[set[int]] = [set() for _ in range(players)]
        self.peng: list[set[int]] = [set() for _ in range(players)]
        self.seen = 0
        self.open: list[tuple[int, int]] = []
        self.forget_drawn, self.forget_peng = forget_drawn, forget_peng

    def feed(self, game: Game, before: Any, action: Any) -> None:
        if before is not None and before.phase == "respond" and action.kind == ActionKind.PASS:
            kinds = {a.kind for a in before.options}
            if ActionKind.PENG in kinds and not self.forget_peng:
                self.peng[action.seat].add(before.pending.card)
            elif ActionKind.CHI in kinds:
                self.open.append((action.seat, before.pending.card))
        for e in game.events[self.seen:]:
            if e.kind == EventKind.DISCARD or (e.kind == EventKind.TO_DISCARDS
                                               and not self.forget_drawn):
                self.own[e.seat].add(e.card)
                self.peng[e.seat].add(e.card)
            if e.kind in _GONE:
                for s, c in self.open:
                    if c == e.card and (e.kind == EventKind.TO_DISCARDS or e.seat != s):
                        self.peng[s].add(c)
                self.open = [(s, c) for s, c in self.open if c != e.card]
        self.seen = len(game.events)


def _new_offer(before: Any, state: Any) -> bool:
    p = state.pending
    if state.phase != "respond" or p is None:
        return False
    q = None if before is None else before.pending
    return q is None or (q.card, q.by, q.source) != (p.card, p.by, p.source)


def tracker_problem(tracker: Tracker, before: Any, game: Game) -> str | None:
    """At a new offer of a card, each seat other than its exposer that holds a copy: the
    tracker's 臭 (own, for 碰) against the engine's seat sets; ``None`` when they agree."""
    state = game.state
    if not _new_offer(before, state):
        return None
    c = state.pending.card
    for s, seat in enumerate(state.seats):
        if s == state.pending.by or not seat.hand[c]:
            continue
        if (c in tracker.own[s]) != (c in seat.own_chou):
            return f"seat {s}: the tracker's own 臭 of card {c} differs from the engine's"
        if (c in tracker.peng[s]) != (c in seat.chou_peng_cards):
            return f"seat {s}: the tracker's 臭 for 碰 of card {c} differs from the engine's"
    return None


class TrackerMachine(ZipaiMachine):
    """The machine with a tracker following each hand (``check_external``)."""

    variant = HUNAN
    check_records = False
    forget_drawn = False
    forget_peng = False
    on_failure: Callable[[Game, str], None] | None = None

    def check_external(self, game: Game) -> None:
        n = len(game.actions)
        if getattr(self, "_followed", None) is not game or not n:
            self._followed, self._before, self._n = game, None, 0
            self._tracker = Tracker(HUNAN.players, self.forget_drawn, self.forget_peng)
        if n == self._n and n:  # the same action undone and applied again
            return
        if n:
            self._tracker.feed(game, self._before, game.actions[-1])
        problem = tracker_problem(self._tracker, self._before, game)
        self._before, self._n = game.state, n
        if problem is not None:
            if self.on_failure is not None:
                type(self).on_failure(game, problem)
            raise AssertionError(problem)


class DrawnAgain(TrackerMachine):
    forget_drawn = True


class PengAgain(TrackerMachine):
    forget_peng = True


class Settling(ZipaiMachine):
    """The machine over an engine whose settlement overpays a win (the test plants it with
    :func:`overpaid_win`)."""

    variant = HUNAN
    check_records = False
    on_failure: Callable[[Game, str], None] | None = None

    def _check_end(self, game: Game) -> None:
        try:
            super()._check_end(game)
        except AssertionError as exc:
            if self.on_failure is not None:
                type(self).on_failure(game, str(exc))
            raise


@contextmanager
def overpaid_win() -> Iterator[None]:
    """Plant the settlement bug: ``zipai_rules.settlement.settle`` pays the winner one more
    unit."""
    import zipai_rules.settlement as settlement

    real = settlement.settle

    def settle(variant: Any, result: Any = None, *args: Any, **kwargs: Any) -> Any:
        out = real(variant, result, *args, **kwargs)
        if result is not None and getattr(result, "winner", None) is not None:
            pays = list(out.payments)
            pays[result.winner] += 1
            return attrs.evolve(out, payments=tuple(pays))
        return out

    settlement.settle = settle
    try:
        yield
    finally:
        settlement.settle = real


BUGS = {"drawn_again": DrawnAgain, "peng_again": PengAgain, "settlement": Settling}
