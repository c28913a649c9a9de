"""How ZipaiMachine draws its deals and finds and shrinks planted bugs (issue 27).

The planted bugs are in tests/machine_bugs.py: a 臭 tracker of a user's that forgets a card its
seat drew and left (003_5cd7634dfd57d897.txt "任何人也不能吃或者碰自己曾经打出过的牌"; the engine
counts a drawn card nobody took as let go by the drawer) or a declined 碰 (003 "玩家可以吃、碰却
选择不吃、不碰时，这张牌就成了该玩家的臭牌 … 不得再吃或者碰"), and a settlement that overpays a win.
The oracle of the tracker bugs is the correct tracker, a plain re-reading of the events that
shares no code with the engine; it agrees with the engine on seeded games first. The long
measurements (many hypothesis seeds, before and after) are tests/machine_shrink.py's; here
each bug runs once, bounded and derandomised.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, Phase, find, settings

from machine_bugs import (
    HUNAN,
    DrawnAgain,
    PengAgain,
    Settling,
    Tracker,
    overpaid_win,
    tracker_problem,
)
from zipai_rules.engine import Game, shuffled_deal
from zipai_rules.testing import StrategyArgumentError, deals, swapped_deal

RUN = settings(database=None, derandomize=True, deadline=None, max_examples=50,
               stateful_step_count=40, phases=[Phase.generate, Phase.shrink],
               suppress_health_check=list(HealthCheck))


def test_swapped_deal_is_the_deal_of_seed_0_with_its_swaps():
    base = shuffled_deal(HUNAN, 0)
    assert swapped_deal(HUNAN) == base == swapped_deal("hunan", [(5, 5)])
    order = [c for h in base.hands for c in h] + list(base.wall)
    moved = swapped_deal(HUNAN, [(0, 79), (1, 21)])
    # position 0 is the dealer's first card, 21 seat 1's first, 79 the wall's last
    assert moved.hands[0][:2] == (order[79], order[21])
    assert moved.hands[1][0] == order[1] and moved.wall[-1] == order[0]
    for bad in ([(0, 80)], [(0,)], [(True, 1)], ["ab"]):
        with pytest.raises(StrategyArgumentError):
            swapped_deal(HUNAN, bad)
    with pytest.raises(StrategyArgumentError):
        deals(HUNAN, max_swaps=-1)


def test_a_deal_shrinks_to_a_swap_from_the_deal_of_seed_0():
    """A condition the deal of seed 0 misses: the first draw is another card than its. The
    shrunk deal is the base deal with one swap, two cards out of place, the first draw one of
    them."""
    base = shuffled_deal(HUNAN, 0)
    deal = find(deals(HUNAN), lambda d: d.wall[0] != base.wall[0],
                settings=settings(database=None, derandomize=True, max_examples=500))
    order = [c for h in base.hands for c in h] + list(base.wall)
    moved = [c for h in deal.hands for c in h] + list(deal.wall)
    out = [k for k, (a, b) in enumerate(zip(order, moved, strict=True)) if a != b]
    assert len(out) == 2 and 61 in out  # 21 + 20 + 20 cards dealt: the wall starts at 61


def test_the_correct_tracker_agrees_with_the_engine():
    rng = random.Random(4)
    for seed in range(12):
        game, tracker, before = Game(HUNAN, seed=seed), Tracker(HUNAN.players), None
        while not game.is_over:
            assert tracker_problem(tracker, before, game) is None
            before, action = game.state, rng.choice(game.legal_actions())
            game.apply(action)
            tracker.feed(game, before, action)


def _shrunk(machine, planted=None):
    with pytest.raises(AssertionError) as info:
        if planted is None:
            machine.TestCase("runTest").runTest()
        else:
            with planted():
                machine.TestCase("runTest").runTest()
    lines = [ln.strip() for n in getattr(info.value, "__notes__", []) for ln in n.splitlines()]
    steps = [ln for ln in lines if ln.startswith("state.") and "invariants" not in ln
             and "teardown" not in ln]
    return info.value, steps, " ".join(lines)


def test_a_tracker_forgetting_a_drawn_card_is_found_and_shrunk_to_the_base_deal():
    """The run shrinks to the deal of seed 0 and one step of a few passes (about 40 shrink
    attempts; before the swaps and the pass-first picks, 900–1,850 and up to hypothesis'
    five-minute limit, on a deal 13–66 cards from that one)."""
    DrawnAgain.TestCase.settings = RUN
    error, steps, report = _shrunk(DrawnAgain)
    assert "own 臭" in str(error) and "differs from the engine's" in str(error)
    assert steps == ["state.first_deal(data=data(...))", "state.actions(data=data(...))"]
    assert "[]," in report  # swapped_deal(variant, [], 0): no swaps


# found in ci (generation alone, derandomised); shrunk too in the dev profile, where a
# shrink takes 300-650 attempts (10-20 processor seconds)
SHRINKS = os.environ.get("HYPOTHESIS_PROFILE") == "dev"


def _bounded(machine):
    phases = [Phase.generate, Phase.shrink] if SHRINKS else [Phase.generate]
    machine.TestCase.settings = settings(RUN, max_examples=100, phases=phases)
    return machine


def test_a_tracker_forgetting_a_declined_peng_is_found():
    error, steps, _ = _shrunk(_bounded(PengAgain))
    assert "臭 for 碰" in str(error)
    if SHRINKS:
        assert steps[0] == "state.first_deal(data=data(...))" and len(steps) <= 6, steps


def test_a_settlement_overpaying_a_win_is_found():
    error, steps, _ = _shrunk(_bounded(Settling), overpaid_win)
    assert "do not sum to zero" in str(error)
    if SHRINKS:
        assert steps[0] == "state.first_deal(data=data(...))" and len(steps) <= 6, steps
