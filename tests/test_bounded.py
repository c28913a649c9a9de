"""Memory that stays flat: the bounded analysis memo, matches that keep few hands, and the
peak-memory benchmark of ``zipai simulate`` (measured small here; the real figures come from
``zipai bench --memory``)."""

import json
import random

from helpers import verdict
from zipai_rules import analysis
from zipai_rules.analysis import analyze
from zipai_rules.bench import random_meld_hand
from zipai_rules.cli import main


def decomposed(variant, hand):
    """The analysis with its decomposition worked out (the search that fills the memo)."""
    a = analyze(variant, hand)
    assert (a.best.huxi if a.best is not None else 0) == a.huxi
    return a


def test_memo_is_emptied_past_its_limit_and_answers_stay_the_same(hunan, monkeypatch):
    rng = random.Random(3)
    hands = [random_meld_hand(hunan, rng) for _ in range(200)]
    analysis._SEARCHERS.clear()
    free = [decomposed(hunan, h) for h in hands]
    grown = len(analysis._searcher(hunan).memo)
    assert grown > 300
    monkeypatch.setattr(analysis, "MEMO_LIMIT", 100)
    analysis._SEARCHERS.clear()
    sizes = []
    bounded = []
    for h in hands:
        bounded.append(decomposed(hunan, h))
        sizes.append(len(analysis._searcher(hunan).memo))
    assert bounded == free
    assert max(sizes) < 100 + 150 and min(sizes[10:]) < max(sizes)  # emptied, then refilled


def test_searchers_are_bounded(hunan, monkeypatch):
    monkeypatch.setattr(analysis, "SEARCHER_LIMIT", 1)
    verdict(hunan, "x1 x2 x3")
    from zipai_rules import find_variant

    verdict(find_variant("guilin"), "x1 x2 x3")
    assert len(analysis._SEARCHERS) == 1


def test_block_tables_are_bounded(monkeypatch):
    from zipai_rules import blocks

    monkeypatch.setattr(blocks, "_TABLES", {})
    monkeypatch.setattr(blocks, "TABLES_LIMIT", 2)
    values = [lambda m, k=k: k for k in range(3)]  # three 胡息 tables: every meld worth k
    made = [blocks.tables_for(f) for f in values]
    assert len(blocks._TABLES) == 2
    assert blocks.tables_for(values[2]) is made[2]  # the newest kept, the oldest dropped
    assert blocks.tables_for(values[0]) is not made[0]
    # x1 x2 x3 (one 一二三) is worth 2 胡息 where every meld is worth 2
    assert made[2].best(analysis.encode([1, 1, 1] + [0] * 17), 0) == 2


def test_match_json_keeps_only_rows(capsys, monkeypatch):
    import zipai_rules.match as match_mod

    made = []
    original = match_mod.Match.__init__

    def spy(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append(self)
    monkeypatch.setattr(match_mod.Match, "__init__", spy)
    assert main(["play", "--hands", "5", "--seed", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [row["hand"] for row in doc["hands"]] == [1, 2, 3, 4, 5]
    assert made[0].played == 5 and len(made[0].hands) == 0


def test_bench_memory(capsys):
    assert main(["bench", "--memory", "2", "--memory-jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("peak RSS of `zipai simulate --variant hunan`")
    games, jobs, seconds, total, largest = lines[2].split()
    assert (games, jobs) == ("2", "1") and float(seconds) > 0
    assert 10 < float(largest) <= float(total) < 1000  # MB


def test_bench_memory_bad_options(capsys):
    assert main(["bench", "--memory", "5", "--memory-jobs", "4096"]) == 2
    assert capsys.readouterr().err.startswith("error: --memory-jobs 4096 is above the number")
    assert main(["bench", "--memory", "5", "--variant", "atlantis"]) == 2
    assert capsys.readouterr().err.startswith("error: unknown variant 'atlantis'")


def test_hand_reads_are_kept_bounded(hunan, monkeypatch):
    # a searcher keeps the block contents of the hands the win checks read (read_hand), the
    # same as reading the counts each time, for a hand given as a tuple or a list
    monkeypatch.setattr(analysis, "READ_LIMIT", 50)
    analysis._SEARCHERS.clear()
    s = analysis._searcher(hunan)
    rng = random.Random(11)
    sizes = []
    for _ in range(300):
        hand = [min(3, c) for c in (rng.choice((0, 0, 1, 2, 3)) for _ in range(20))] + [0]
        want = s.read(bytes(hand))
        assert s.read_hand(hand) == want and s.read_hand(tuple(hand)) == want
        sizes.append(len(s.rmemo))
    assert max(sizes) <= 50 and min(sizes[60:]) < 50  # emptied, then refilled
