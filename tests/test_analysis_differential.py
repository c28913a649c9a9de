"""Differential tests: the best decomposition agrees with the naive reference decomposer
(tests/reference.py) on hands drawn by zipai_rules.testing, for every shipped preset.

The presets share one 胡息 table (pinned below against the reference's own table), but their
thresholds and 将 rules are read per preset. For Yongzhou the hands hold 王 wild cards and
the reference tries every identity for each 王 (``reference.best_huxi_wild``).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference as ref
from helpers import table_extra, verdict
from zipai_rules import MeldKind, load_preset, preset_ids
from zipai_rules.testing import hands, situations, winning_hands

PRESETS = preset_ids()
K = ref.WILD
N = max(10, settings.default.max_examples // 5)
diff = settings(settings.default, max_examples=N,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _key(melds):
    return tuple(sorted((kind, tuple(sorted(cards))) for kind, cards in melds))


def pairs_rule(variant, table) -> int:
    """Pairs a winning hand may hold: ``max_jiang``, only next to a 提/跑 when the variant
    says so (digest §1.2)."""
    quad = any(kind in ref.QUAD_KINDS for kind, _ in table)
    return variant.win.max_jiang if (quad or not variant.win.jiang_requires_quad) else 0


def agree(variant, hand, table_melds):
    """``analyze`` and the reference agree on the best 胡息, the verdict and its reason; the
    library's best decomposition is one of the reference's best for some identity of the 王."""
    table = [(m.kind.value, m.cards) for m in table_melds]
    a = verdict(variant, hand, table_melds)
    if a.best is not None and a.best.special:  # 碰胡 2 提蛇, 小七对: a win with no decomposition
        assert a.win and len(table_melds) >= 2 or a.best.special == "xiao_qi_dui"
        return a
    pairs = pairs_rule(variant, table)
    split = variant.win.split_kan
    best = ref.best_huxi_wild(hand, table, pairs, split)
    extra = table_extra(variant, table_melds)  # 河池's red 跑: the reference knows only Hunan's
    best = None if best is None else best + extra
    if best is None:
        assert not a.win and a.huxi == 0 and a.best is None
        loose = ref.best_huxi_wild(hand, table, 7, split)
        assert a.reason == ("incomplete" if loose is None else "jiang_not_allowed")
        return a
    assert a.huxi == best
    assert a.win == (best >= variant.win.min_huxi)
    assert a.reason == (None if a.win else "below_min_huxi")
    groups = [(g.meld.kind.value, g.meld.cards) for g in a.best.groups]
    assert sum(g.huxi for g in a.best.groups) == best
    placed = sorted(c for g in a.best.groups if g.place == "hand" for c in g.meld.cards)
    assert placed in ref.identities(hand, table)  # the 王 stood for real cards, the others are kept
    found = ref.all_decompositions(placed, table, pairs, split)
    assert _key(groups) in {_key(table + ms) for h, ms in found if h + extra == best}
    return a


def test_every_preset_uses_the_reference_table():
    """The premise of the comparison: every preset scores melds by the digest's standard
    table (§1.3 (c)), the one written out in reference.py."""
    for preset in PRESETS:
        table = {k.value: v for k, v in load_preset(preset).huxi_table.items()}
        assert table == ref.HUXI, preset


@pytest.mark.parametrize("preset", PRESETS)
@diff
@given(data=st.data())
def test_situations_match_reference(preset, data):
    v = load_preset(preset)
    hand, table, _, _ = data.draw(situations(v, complete=data.draw(st.booleans())))
    agree(v, hand, table)


@pytest.mark.parametrize("preset", PRESETS)
@diff
@given(data=st.data())
def test_winning_hands_match_reference(preset, data):
    v = load_preset(preset)
    hand, table, analysis = data.draw(winning_hands(v))
    assert agree(v, hand, table).huxi == analysis.huxi


def _no_concealed_four(hand):
    return all(n <= 3 for c, n in Counter(hand).items() if c != K)


@pytest.mark.parametrize("preset", PRESETS)
@diff
@given(data=st.data())
def test_random_hands_match_reference(preset, data):
    """Hands dealt at random (王 included for Yongzhou), sized 3k or 3k + 2."""
    v = load_preset(preset)
    size = data.draw(st.sampled_from([6, 8, 9, 11, 12, 14]))
    hand = data.draw(hands(v, size=size).filter(_no_concealed_four))
    agree(v, hand, [])


@diff
@given(situations(load_preset("yongzhou"), complete=True).filter(lambda s: K in s.hand))
def test_yongzhou_wild_hands_match_reference(sit):
    hand, table, _, _ = sit
    agree(load_preset("yongzhou"), hand, table)


def test_wild_reference_by_hand():
    """The wild reference on hand-checked cases (x1 = 0 … x10 = 9, d1 = 10 … d10 = 19)."""
    # 王 x2 x3: the 王 as x1 makes 一二三 (3 胡息); as x4 a plain 顺子 (0)
    assert ref.best_huxi_wild([K, 1, 2]) == 3
    # 王 d5 d5: as d5 a big 坎 (6); as x5 a 绞 (0)
    assert ref.best_huxi_wild([K, 14, 14]) == 6
    # two 王: every pair of identities, 20·21/2 = 210 hands
    assert len(ref.identities([K, K])) == 210
    # x1 x1 x1 王: the 王 may not be a fourth x1
    assert len(ref.identities([0, 0, 0, K])) == 19
    # the library agrees on the first two
    yongzhou = load_preset("yongzhou")
    assert verdict(yongzhou, [K, 1, 2]).huxi == 3
    assert verdict(yongzhou, [K, 14, 14]).huxi == 6
    assert verdict(yongzhou, [K, 14, 14]).best.groups[0].meld.kind == MeldKind.KAN
