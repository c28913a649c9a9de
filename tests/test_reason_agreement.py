"""One reason for a hand that does not win, whatever is asked: ``analyze`` with and without
``all_decompositions`` (the exhaustive search against the block-table verdict) gives the same
``win``, ``reason`` and 胡息.

``jiang_not_allowed`` is the reason of a hand that would split with a 将 the rules forbid here
(Hunan: a 将 only with a 提 or 跑, "当有跑牌或提牌后，必须有且只能有一对牌做为一方门子",
``003_5cd7634dfd57d897.txt``); ``incomplete`` of one that does not split even then."""

from __future__ import annotations

import random

import pytest

from zipai_rules import analyze, load_preset
from zipai_rules.cards import counts_of
from zipai_rules.errors import HandError

HUNAN = load_preset("hunan")

# 20 cards as they stand, no 提/跑: 20 = 3 × 6 + 2, so a split needs one 将.
# x1 x2 x3 · x4 x5 x6 · x7 x8 x9 · d1 d2 d3 · d4 d5 d6 · d7 d8 d9 and the 将 x10 x10: it splits,
# with a 将 Hunan allows only beside a 提/跑.
PAIRED = "x1 x2 x3 x4 x5 x6 x7 x8 x9 d1 d2 d3 d4 d5 d6 d7 d8 d9 x10 x10"
# the same with x10 d10: twenty different cards hold no pair, so no split at all.
UNPAIRED = "x1 x2 x3 x4 x5 x6 x7 x8 x9 d1 d2 d3 d4 d5 d6 d7 d8 d9 x10 d10"


@pytest.mark.parametrize(("hand", "reason"), [(PAIRED, "jiang_not_allowed"),
                                              (UNPAIRED, "incomplete")])
@pytest.mark.parametrize("every", [False, True])
def test_worked_reasons(hand, reason, every):
    a = analyze(HUNAN, hand, all_decompositions=every)
    assert (a.win, a.reason, a.huxi, a.decompositions) == (False, reason, 0, ())


def situations(variant, rng, n):
    """``n`` seeded situations of ``variant``: a dealt-size hand as it stands, or one card
    short with an incoming card from a random source."""
    deck = [i for i in range(20) for _ in range(variant.deck.copies)] + \
        [20] * variant.deck.kings
    size = variant.deal.other_hand
    for _ in range(n):
        rng.shuffle(deck)
        hand = deck[:size]
        if 4 in counts_of(hand)[:20]:
            continue  # four of a kind lie on the table as a 提
        if rng.random() < 0.5:
            yield hand, None, None
        else:
            yield hand, deck[size], rng.choice(["self", "draw", "discard"])


@pytest.mark.parametrize("preset", ["hunan", "yongzhou", "chenzhou_wang", "penghu",
                                    "leiyang_tilong", "hengyang_honghei"])
def test_the_reason_is_the_same_with_every_decomposition(preset):
    """Seeded hands (about 1 in 80 is ``jiang_not_allowed``): the same verdict either way."""
    v = load_preset(preset)
    rng = random.Random(80)
    told = set()
    for hand, card, source in situations(v, rng, 500):
        try:
            a = analyze(v, hand, (), card, source)
        except HandError:
            continue  # more copies than the deck holds, or a count no game reaches
        b = analyze(v, hand, (), card, source, all_decompositions=True)
        assert (a.win, a.reason, a.huxi) == (b.win, b.reason, b.huxi), (hand, card, source)
        told.add(a.reason)
    assert {"incomplete", "jiang_not_allowed"} <= told or preset == "penghu"
