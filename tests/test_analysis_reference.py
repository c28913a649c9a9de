"""Property tests: ``analyze`` agrees with the naive brute-force decomposer in ``reference.py``.

The reference has its own meld shapes and its own 胡息 table (digest §1.3 (c)); it keeps every
坎 whole and allows one 将 only next to a 提 or 跑. On random hands both must find the same best
胡息, the same verdict and reason, and (asked for all of them) the same set of decompositions.
"""

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

import reference as ref
from helpers import verdict
from zipai_rules import Meld, MeldKind

MIN_HUXI = 15  # the Hunan threshold, digest §2.1


# --- strategies ---------------------------------------------------------------------------------

def _table_meld(kind, cards):
    if kind in ("shun", "yi_er_san", "er_qi_shi", "jiao"):
        return Meld(MeldKind(kind), cards, claimed=cards[0])
    return Meld(MeldKind(kind), cards)


SPECIAL = [0, 1, 2, 6, 9, 10, 11, 12, 16, 19]  # x1 x2 x3 x7 x10 d1 d2 d3 d7 d10


@st.composite
def built_hands(draw):
    """21 cards (hand plus table) built from random valid melds: chi-type triples in the hand or
    on the table, 坎, table 碰 / 偎, and optionally one 提 or 跑 on the table plus one pair."""
    supply = [4] * 20
    hand = Counter()
    table = []
    # strict: hand melds never share a card kind beyond a pair, so the only 坎 are the dealt ones
    # and the hand is complete; loose: overlapping melds may make an accidental 坎, which must
    # then stay whole
    limit = draw(st.sampled_from([2, 2, 3]))
    # focus: chi-type triples mostly from the kinds of 一二三 / 二七十, where the split matters
    focus = draw(st.booleans())
    quad = draw(st.sampled_from([None, "ti", "pao"]))
    triples = 7
    if quad:
        k = draw(st.integers(0, 19))
        table.append((quad, (k,) * 4))
        supply[k] = 0
        pair = draw(st.sampled_from([i for i in range(20) if supply[i] >= 2]))
        hand[pair] += 2
        supply[pair] -= 2
        triples = 5
    for _ in range(triples):
        what = draw(st.sampled_from(["chi", "chi", "chi", "chi_table", "kan", "peng", "wei"]))
        if what in ("chi", "chi_table"):
            room = [t for t in ref.ALL_TRIPLES
                    if all(supply[c] >= t.count(c) for c in t)
                    and (what == "chi_table" or all(hand[c] + t.count(c) <= limit for c in t))]
            if focus:
                room = [t for t in room if set(t) <= set(SPECIAL)] or room
            t = draw(st.sampled_from(room))
            for c in t:
                supply[c] -= 1
            if what == "chi":
                hand.update(t)
            else:
                table.append((ref.triple_kind(t), t))
        else:
            room = [i for i in range(20) if supply[i] >= 3 and (what != "kan" or hand[i] == 0)]
            k = draw(st.sampled_from(room))
            supply[k] -= 3
            if what == "kan":
                hand[k] += 3
            else:
                table.append((what, (k,) * 3))
    return sorted(hand.elements()), table


def _no_concealed_quad(hand):
    return not hand or max(Counter(hand).values()) <= 3


@st.composite
def random_hands(draw):
    """8 to 14 random concealed cards, sometimes next to a 提 or 跑."""
    hand = draw(st.lists(st.integers(0, 19), min_size=8, max_size=14).filter(_no_concealed_quad))
    table = []
    quad = draw(st.sampled_from([None, "ti", "pao"]))
    free = [i for i in range(20) if i not in hand]
    if quad and free:
        k = draw(st.sampled_from(free))
        table.append((quad, (k,) * 4))
    return hand, table


@st.composite
def dense_hands(draw):
    """8 to 14 cards from a few kinds, complete (or complete but for the pair rule) far more
    often than fully random hands: four neighbouring ranks in both cases (sometimes with
    x2 x7 x10), or the kinds of 一二三 / 二七十 in both cases, where 胡息 depends on the split."""
    if draw(st.booleans()):
        r0 = draw(st.integers(1, 7))
        kinds = [r - 1 for r in range(r0, r0 + 4)] + [9 + r for r in range(r0, r0 + 4)]
        if draw(st.booleans()):
            kinds += [1, 6, 9]  # x2 x7 x10
    else:
        kinds = SPECIAL
    quad = draw(st.sampled_from([None, "ti", "pao"]))
    # with a quad, 3k + 2 cards can be complete (10 and 13 only with a forbidden 2nd pair);
    # without, 3k (8 and 11 only with forbidden pairs)
    size = draw(st.sampled_from([8, 10, 11, 13, 14] if quad else [8, 9, 11, 12]))
    hand = draw(st.lists(st.sampled_from(kinds), min_size=size, max_size=size)
                .filter(_no_concealed_quad))
    table = []
    free = [i for i in range(20) if i not in hand]
    if quad:
        k = draw(st.sampled_from(free))
        table.append((quad, (k,) * 4))
    return hand, table


# --- the comparison -----------------------------------------------------------------------------

def _key(melds):
    return tuple(sorted((kind, tuple(sorted(cards))) for kind, cards in melds))


def agree(variant, hand, table):
    melds = [_table_meld(k, cs) for k, cs in table]
    a = verdict(variant, hand, melds)
    found = ref.all_decompositions(hand, table)
    best = max((h for h, _ in found), default=None)
    if best is None:
        assert a.huxi == 0 and not a.win and a.best is None
        with_pairs = ref.best_huxi(hand, table, pairs_allowed=7)
        assert a.reason == ("incomplete" if with_pairs is None else "jiang_not_allowed")
        return a
    assert a.huxi == best
    assert a.win == (best >= MIN_HUXI)
    assert a.reason == (None if best >= MIN_HUXI else "below_min_huxi")
    # the library's best is one of the reference's decompositions, with the best total
    groups = [(g.meld.kind.value, g.meld.cards) for g in a.best.groups]
    assert _key(groups) in {_key(list(table) + ms) for h, ms in found if h == best}
    assert sum(g.huxi for g in a.best.groups) == a.best.huxi == best
    assert sorted(c for _, cs in groups for c in cs) == sorted(
        list(hand) + [c for _, cs in table for c in cs])
    return a


@given(built_hands())
def test_built_hands_match_reference(hunan, case):
    hand, table = case
    assert len(hand) + sum(len(cs) for _, cs in table) == 21
    agree(hunan, hand, table)


@given(random_hands())
def test_random_hands_match_reference(hunan, case):
    agree(hunan, *case)


@given(dense_hands())
def test_dense_hands_match_reference(hunan, case):
    agree(hunan, *case)


@given(st.one_of(built_hands(), dense_hands()))
def test_all_decompositions_match_reference(hunan, case):
    """With ``all_decompositions=True`` the library lists exactly the reference's decompositions,
    each once, best first."""
    hand, table = case
    melds = [_table_meld(k, cs) for k, cs in table]
    a = verdict(hunan, hand, melds, all_decompositions=True)
    mine = Counter(_key([(g.meld.kind.value, g.meld.cards) for g in d.groups])
                   for d in a.decompositions)
    # the reference may reach one split in several orders; compare distinct splits
    theirs = {_key(list(table) + ms): h for h, ms in ref.all_decompositions(hand, table)}
    assert set(mine) == set(theirs)
    assert all(n == 1 for n in mine.values())  # each decomposition listed once
    for d in a.decompositions:
        assert d.huxi == theirs[_key([(g.meld.kind.value, g.meld.cards) for g in d.groups])]
    assert [d.huxi for d in a.decompositions] == sorted((d.huxi for d in a.decompositions),
                                                        reverse=True)


# --- the reference itself -------------------------------------------------------------------------

def test_reference_sanity():
    """The oracle on hand-checked cases (digest E4 concealed part, E6, E8)."""
    x = lambda r: r - 1   # noqa: E731
    d = lambda r: 9 + r   # noqa: E731
    e4 = [x(1), x(1), d(1), x(2), x(2), x(7), x(7), x(10), x(10), d(2), d(7), d(10)]
    assert sorted(h for h, _ in ref.all_decompositions(e4)) == [0, 12]
    e6 = [x(1), x(2), x(3), x(7), x(8), x(9), x(10), x(10), d(7), d(7), d(9), d(9)]
    assert ref.best_huxi(e6) is None
    assert ref.best_huxi(e6, pairs_allowed=3) == 3
    e8 = [x(1), x(2), x(3), x(10), x(10), d(4), d(4), d(7), d(7), d(9), d(9)]
    assert ref.best_huxi(e8, [("pao", (x(6),) * 4)]) is None
    assert ref.best_huxi([x(5)] * 3 + [d(5)] * 3) == 9   # two 坎, never two 绞
    assert ref.triple_kind((x(9), x(10), d(1))) is None


# --- the plain memoised DP (zipai bench's baseline) against the brute force -----------------


def test_dp_oracle_worked_values():
    """Worked values (digest §1.3 (c)): 一二三 small 3 and 二七十 big 6 with a shun of 0 is 9;
    a small 坎 (3) beside a big 一二三 (6) is 9; a lone pair splits only with a 将 allowed."""
    from reference import clear_dp, dp_best_huxi
    clear_dp()
    # x1 x2 x3 | d2 d7 d10 | x4 x5 x6
    assert dp_best_huxi([0, 1, 2, 11, 16, 19, 3, 4, 5]) == 9
    # x9 x9 x9 | d1 d2 d3
    assert dp_best_huxi([8, 8, 8, 10, 11, 12]) == 9
    assert dp_best_huxi([4, 4]) is None
    assert dp_best_huxi([4, 4], pairs_allowed=1) == 0
    assert dp_best_huxi([0, 1]) is None


def test_dp_oracle_agrees_with_the_brute_force():
    """The DP gives the brute force's best 胡息 (or none) on random meld-built hands and on
    the same hands with a card swapped (mostly no split), with and without a 将."""
    import random

    from reference import best_huxi, clear_dp, dp_best_huxi
    from zipai_rules.bench import random_meld_hand
    from zipai_rules.presets import load_preset

    v = load_preset("hunan")
    rng = random.Random(28)
    clear_dp()
    for _ in range(40):
        hand = random_meld_hand(v, rng, 15)
        if rng.random() < 0.5:
            hand[rng.randrange(len(hand))] = rng.randrange(20)
            if max(hand.count(i) for i in range(20)) > 3:
                continue
        for pairs in (0, 1):
            assert dp_best_huxi(hand, pairs) == best_huxi(hand, pairs_allowed=pairs), hand
