"""The quick refusal of hands holding 坎 under ``win.split_kan`` (郴州): for a hand holding two
or three 坎, or a 坎 of the incoming card, :func:`~zipai_rules.analysis.surely_no_win` answers
from the block tables with each 坎 whole or spread (:func:`zipai_rules.kings.spread_may_split`);
beside 王 it says maybe, but the refusal it would give (``analysis._no_split_kan``, which
reads the 王 as any cards) is checked as well. Its sure answers are checked against
the full search (:func:`~zipai_rules.analysis.win_verdict` with ``explain``, which never asks
the quick refusal) and against the brute force of tests/test_king_oracle.py (its own code: a
split of every card into melds, each 王 any card); and it must answer most of the hands the
search refuses, the reason it exists (without it the 郴州 games ran some 13 refused searches
a game).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from test_king_oracle import _ALL_RUNS, Oracle, _melds, random_table
from zipai_rules import load_preset
from zipai_rules.analysis import _jiang_views, _no_split_kan, searcher, surely_no_win, win_verdict

#: the reasons of a hand that has a split (the quick refusal must never be sure of those)
SPLIT = (None, "below_min_huxi")
SOURCES = (None, "self", "discard")


def situation(rng: random.Random, v, kans: int, kings: int, onto_kan: bool):
    """A seeded situation ``(hand counts, table melds as (kind, cards), card, source)``: a
    hand of melds holding ``kans`` 坎 (and a 将 beside a table 提/跑), ``kings`` of its cards
    turned into 王, one card in two spoiled, then an incoming card: out of the hand, or with
    ``onto_kan`` a fourth copy of one of its 坎 (another card out of the hand for it)."""
    while True:
        table, seen = random_table(rng, (0, 1, 1, 2))
        quads = sum(1 for k, _ in table if k in ("ti", "pao"))
        size = v.resting_size(quads) + 1 - sum(len(cs) for _, cs in table)
        jiang = bool(quads) and v.win.jiang_requires_quad
        if size < 3 * kans + 2 or (size - 2 * jiang) % 3:
            continue
        hand = [0] * 21
        for k in rng.sample(range(20), kans):
            hand[k] += 3
        if jiang:
            hand[rng.randrange(20)] += 2
        for _ in range((size - 2 * jiang) // 3 - kans):
            cards, _ = rng.choice(_ALL_RUNS)
            for c in cards:
                hand[c] += 1
        if rng.random() < 0.5:  # spoil one card
            out = rng.choice([i for i in range(20) if hand[i]])
            hand[out] -= 1
            hand[rng.randrange(20)] += 1
        if any(hand[i] + seen[i] > 4 or hand[i] > 3 for i in range(20)):
            continue
        if sum(1 for n in hand[:20] if n == 3) < kans:
            continue
        cards = [i for i in range(20) for _ in range(hand[i])]
        for c in rng.sample(cards, kings):
            hand[c] -= 1
            hand[20] += 1
        source = rng.choice(SOURCES)
        card = None
        if source is not None:
            held = [i for i in range(20) if hand[i] == 3 and not seen[i]]
            if onto_kan and held:
                card = rng.choice(held)
                out = rng.choice([i for i in range(20) if hand[i] and i != card])
                hand[out] -= 1
            else:
                card = rng.choice([i for i in range(20) if hand[i]])
                hand[card] -= 1
        if 3 not in hand[:20]:
            continue
        return hand, table, card, source


def compare(preset: str, hands: int, seed: int, kings: tuple[int, ...]) -> Counter:
    v = load_preset(preset)
    oracle = Oracle(v)
    rng = random.Random(seed)
    tally: Counter = Counter()
    for n in range(hands):
        hand, table, card, source = situation(rng, v, rng.choice((2, 2, 3)), rng.choice(kings),
                                              n % 4 == 0)
        melds = _melds(table)
        full = win_verdict(v, hand, melds, card, source)  # explain: no quick refusal asked
        split = full.reason in SPLIT
        # (whether the two agree is tests/test_king_oracle.py's to check: here each is a
        # bound that a sure refusal must respect)
        _, want_best = oracle.judge(hand, table, card, source)
        quick = win_verdict(v, hand, melds, card, source, explain=False)
        assert quick.win == full.win, (hand, table, card, source)
        s = searcher(v)
        for known in (melds, None):  # the table melds known, or any
            sure = surely_no_win(v, hand, card, source, known)
            # sure only where no split exists (a 王 as any card, a 坎 whole or spread)
            assert not (sure and (split or want_best is not None)), (hand, table, card, source)
            plain, quad = _jiang_views(v, s.tables, known)
            exact = _no_split_kan(v, s, plain, quad, hand, card, source, known)
            assert not (exact and (split or want_best is not None)), (hand, table, card, source)
        tally["hands"] += 1
        tally["kings"] += bool(hand[20])
        tally["onto_kan"] += card is not None and hand[card] == 3
        tally["kans3"] += sum(1 for x in hand[:20] if x == 3) >= 3
        tally["wins"] += full.win
        if not split:
            tally["refused"] += 1
            tally["sure"] += surely_no_win(v, hand, card, source, melds)
            tally["sure_with_kings"] += bool(hand[20]) and _no_split_kan(
                v, s, *_jiang_views(v, s.tables, melds), hand, card, source, melds)
            tally["refused_with_kings"] += bool(hand[20])
    return tally


@pytest.mark.parametrize("preset, hands, kings", [
    ("chenzhou", 600, (0,)), ("chenzhou_wang", 300, (0, 1, 2))])
def test_split_kan_refusal_is_sure_and_answers_most(preset, hands, kings):
    tally = compare(preset, hands, 28, kings)
    print(preset, dict(tally))
    assert tally["hands"] == hands and tally["wins"] > 0 and tally["onto_kan"] > hands // 10
    assert tally["kans3"] > hands // 10
    assert (tally["kings"] > hands // 2) == (kings != (0,))
    assert tally["refused"] > hands // 4
    # most refusals of the search answered from the tables (measured with seed 28: chenzhou
    # 281 of 291, 97%; chenzhou_wang 58 of the 58 without 王); the rest are hands that the
    # search's own limits refuse (the won card's triple, a 提/跑's 将)
    plain = tally["refused"] - tally["refused_with_kings"]
    assert plain > hands // 10 and tally["sure"] >= 0.85 * plain
    # beside 王, the refusal the search would get from the tables: 35 of 48 (73%; the rest
    # also where a 王 would be a fifth copy)
    if kings != (0,):
        assert tally["sure_with_kings"] >= 0.6 * tally["refused_with_kings"] > 0
