"""The 王 identities the win check searches: the walk, which tests many identities at once on
the block masks, gives exactly the identities a plain enumeration keeps, each identity
judged by the last 王's test alone (``_kings_may_split`` with no 王 left), in the same order.

The hands are seeded random concealed hands holding 1–4 王, judged on every card from every
source, so that the pools the walk meets are those of the win check: the card in the hand
(held free, onto a pair, onto a 坎), taken into a meld, or absent."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from zipai_rules import analysis, load_preset
from zipai_rules.analysis import win_verdict
from zipai_rules.blocks import BLOCK_A, BLOCK_B
from zipai_rules.kings import kings_may_split as _kings_may_split
from zipai_rules.kings import kings_pool as _kings_pool


def _passes(tables, pool, hand, card, subst) -> bool:
    """The last 王's test of one full choice of identities: each 王 adds a copy of its card
    (never a fifth: the counts before it within 3), a 坎 locked where the hand makes three."""
    pool, hand = list(pool), list(hand)
    locked, *_ = _kings_pool(pool, hand)
    free = card is not None and pool[card] > hand[card]
    for i in subst:
        p, h = pool[i], hand[i]
        if p > 2 or h > 2:
            return False
        locked[i] = p - 2 if p >= 2 and h == 2 else p + 1
        pool[i], hand[i] = p + 1, h + 1
    _, a, b, over = _kings_pool(pool, hand)
    if not over:
        if tables.ma[a] & tables.mb[b]:
            return True
        if not (free and pool[card] >= 3):
            return False
    return bool(_kings_may_split(tables, pool, locked, card, free, 0, a, b, over))


def _enumerated(tables, pool, hand, kings, card) -> list[tuple[int, ...]]:
    """Every choice of identities, in order, that passes the last 王's test."""
    return [s for s in itertools.combinations_with_replacement(range(20), kings)
            if _passes(tables, pool, hand, card, s)]


def _random_hand(rng: random.Random, kings: int) -> list[int]:
    """A concealed hand of 8–20 real cards (at most 4 of a kind) and ``kings`` 王."""
    deck = [i for i in range(20) for _ in range(4)]
    hand = [0] * 21
    for i in rng.sample(deck, rng.randint(8, 20)):
        hand[i] += 1
    hand[20] = kings
    return hand


@pytest.mark.parametrize("kings", [1, 2, 3])
def test_the_walk_keeps_what_the_enumeration_keeps(kings, monkeypatch):
    v = load_preset("chenzhou_wang")
    tables = analysis.searcher(v).tables
    walk = analysis._king_substitutions
    seen: Counter = Counter()

    def checked(tables_, pool, hand, kings_, card):
        want = _enumerated(tables_, pool, hand, kings_, card)
        got = walk(tables_, list(pool), list(hand), kings_, card)
        assert got == want, (pool, hand, kings_, card)
        seen["calls"] += 1
        seen["kept"] += len(got)
        seen["free"] += card is not None and pool[card] > hand[card]
        seen["three"] += card is not None and pool[card] == 3 and hand[card] == 2
        seen["two"] += card is not None and pool[card] == 2 and hand[card] == 1
        seen["one"] += card is not None and pool[card] == 1 and hand[card] == 0
        return got

    monkeypatch.setattr(analysis, "_king_substitutions", checked)
    rng = random.Random(1400 + kings)
    for _ in range(40 if kings < 3 else 12):
        hand = _random_hand(rng, kings)
        for card in rng.sample(range(20), 6):
            if hand[card] < 4:
                for source in ("self", "draw", "discard"):
                    win_verdict(v, hand, (), card, source)
    assert tables is analysis.searcher(v).tables
    assert seen["calls"] > 100
    assert seen["kept"] > 100 and seen["free"] > 20
    # the free card onto a pair (three), onto a single (a 王 makes it three), alone
    assert seen["three"] > 5 and seen["two"] > 5 and seen["one"] > 5


def test_the_walk_on_worked_pools():
    """Worked pools (small 一–十 are kinds 0–9, big 壹–拾 10–19)."""
    v = load_preset("chenzhou_wang")
    tables = analysis.searcher(v).tables

    def run(counts: dict[int, int], kings: int, card: int | None = None,
            hand_counts: dict[int, int] | None = None) -> list[tuple[int, ...]]:
        pool = [0] * 21
        for i, n in counts.items():
            pool[i] = n
        hand = list(pool)
        for i, n in (hand_counts or {}).items():
            hand[i] = n
        got = analysis._king_substitutions(tables, list(pool), list(hand), kings, card)
        assert got == _enumerated(tables, pool, hand, kings, card)
        return got

    # 一二 and a 王: only 三 (一二三)
    assert run({0: 1, 1: 1}, 1) == [(2,)]
    # 四五七八 and two 王: 三/六 with 三/六 and 六/九 (三四五 or 四五六, 六七八 or 七八九)
    assert run({3: 1, 4: 1, 6: 1, 7: 1}, 2) == [(2, 5), (2, 8), (5, 5), (5, 8)]
    # 四 and the card 五 onto a pair of 五 held free: 三四五 or 四五六, 五五 the 将
    assert run({3: 1, 4: 3}, 1, card=4, hand_counts={4: 2}) == [(2,), (5,)]
    # 四 and the card 五 onto a single 五, two 王: 二三四 五五; 三四五 五五 (a 王 making the
    # card three); a 坎 of 四; the 绞 四四肆 or 五五伍; 四五六 五五; 四肆肆
    assert run({3: 1, 4: 2}, 2, card=4, hand_counts={4: 1}) == [
        (1, 2), (2, 4), (3, 3), (3, 13), (3, 14), (4, 5), (13, 13)]


def test_one_more_is_the_masks_of_each_step():
    v = load_preset("chenzhou_wang")
    t = analysis.searcher(v).tables
    rng = random.Random(7)
    hits = 0
    for _ in range(3000):
        ca, cb = rng.randrange(3 ** 10), rng.randrange(3 ** 10)
        steps_a = [(k, (1 if ca // 3 ** p % 3 < 2 else -2) * 3 ** p)
                   for p, k in enumerate(BLOCK_A) if rng.random() < 0.7]
        steps_b = [(k, (1 if cb // 3 ** p % 3 < 2 else -2) * 3 ** p)
                   for p, k in enumerate(BLOCK_B) if rng.random() < 0.7]
        want = [k for k, d in steps_a if t.ma[ca + d] & t.mb[cb]] + \
               [k for k, d in steps_b if t.ma[ca] & t.mb[cb + d]]
        got = t.one_more(ca, cb, steps_a, steps_b)
        assert got == want
        hits += len(got)
    assert hits > 100


def test_wild_masks_are_the_contents_the_wildcards_reach():
    """One wildcard raises one digit 0 -> 1 or 1 -> 2, or takes a 2 out (a 坎); two are one
    then another: the masks of two are those of one, read from each content one reaches."""
    v = load_preset("chenzhou_wang")
    t = analysis.searcher(v).tables
    rng = random.Random(11)

    def steps(c: int) -> list[int]:
        return [c - 2 * 3 ** k if c // 3 ** k % 3 == 2 else c + 3 ** k for k in range(10)]

    nonzero = 0
    for _ in range(400):
        c, block = rng.randrange(3 ** 10), rng.randrange(2)
        masks = t.mb if block else t.ma
        one = 0
        for d in steps(c):
            one |= masks[d]
        two = 0
        for d in steps(c):
            for e in steps(d):
                two |= masks[e]
        assert t.wild_mask(block, c, 1) == one
        assert t.wild_mask(block, c, 2) == two
        nonzero += bool(two)
    assert nonzero > 100


def test_the_walk_on_random_pools_around_a_free_card():
    """Random pools built around the free incoming card: the fourth copy on a 坎 (pool 4, hand
    3), onto a pair (3 and 2), onto a single (2 and 1), with a 坎 elsewhere half the time: shapes
    a game meets rarely, each with 1–3 王."""
    v = load_preset("chenzhou_wang")
    t = analysis.searcher(v).tables
    rng = random.Random(5)
    kept = Counter()
    for n in range(300):
        pool = [0] * 21
        for i in rng.sample(range(20), rng.randint(3, 9)):
            pool[i] = rng.randint(1, 2)
        card = rng.randrange(20)
        hand = list(pool)
        pool[card], hand[card] = ((4, 3), (3, 2), (2, 1))[n % 3]
        other = rng.randrange(20)
        if rng.random() < 0.5 and other != card:
            pool[other] = hand[other] = 3
        kings = rng.randint(1, 3)
        want = _enumerated(t, pool, hand, kings, card)
        assert analysis._king_substitutions(t, list(pool), list(hand), kings, card) == want, \
            (pool, hand, kings, card)
        kept[pool[card]] += len(want)
    assert min(kept.values()) > 100
