"""``zipai bench``'s measuring: each analysis rate is the median of several passes, and the
figures are those of the same hands the module draws."""

import random

from zipai_rules import bench
from zipai_rules.analysis import analyze
from zipai_rules.bench import PASSES, bench_analysis, random_meld_hand


def test_median_rate_is_the_median_of_the_passes(monkeypatch):
    """Five passes timed 1, 5, 2, 4 and 3 s over 60 hands: 60, 12, 30, 15 and 20 hands/s,
    whose median is 20; ``before`` runs once before each pass."""
    clock = iter([0.0, 1.0, 10.0, 15.0, 20.0, 22.0, 30.0, 34.0, 40.0, 43.0])
    monkeypatch.setattr(bench.time, "perf_counter", lambda: next(clock))
    calls = []
    assert PASSES == 5
    rate = bench._median_rate(lambda: calls.append("run"), 60, lambda: calls.append("before"))
    assert rate == 20.0
    assert calls == ["before", "run"] * 5


def test_bench_analysis_counts_the_wins_of_its_hands(hunan):
    """The wins reported are those of the hands drawn with the seed (as ``analyze`` judges
    them one by one), every rate is positive, and the passes are named."""
    got = bench_analysis(hunan, 40, seed=5, reference_hands=10)
    rng = random.Random(5)
    hands = [random_meld_hand(hunan, rng, 21) for _ in range(40)]
    assert got["wins"] == sum(analyze(hunan, h).win for h in hands)
    assert got["passes"] == PASSES and got["hands"] == 40 and got["reference_hands"] == 10
    for key in ("analyze", "verdict", "decomposed", "reference", "oracle"):
        assert got[key] > 0
    assert got["verdict_vs_reference"] == got["verdict"] / got["reference"]
    assert got["analyze_vs_oracle"] == got["analyze"] / got["oracle"]
    assert got["verdict_vs_oracle"] == got["verdict"] / got["oracle"]


def test_games_summary_names_the_slowest_and_those_below_the_target():
    """Three presets at 1,200, 640 and 999.9 games/s against the target of 1,000: the
    slowest is the second, and the last two are below."""
    rows = [{"variant": "a", "games_per_s": 1200.0}, {"variant": "b", "games_per_s": 640.0},
            {"variant": "c", "games_per_s": 999.9}]
    assert bench.games_summary(rows) == {"target": 1000, "slowest": "b",
                                         "slowest_games_per_s": 640.0,
                                         "below_target": ["b", "c"]}
