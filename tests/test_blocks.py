"""The block tables (zipai_rules.blocks) against the naive reference decomposer and against
hand-worked values; the verdict without a decomposition, and the decomposition on demand.

The reference check runs over a seeded sample of block contents here; with ``ZIPAI_DEV=1`` (or
``HYPOTHESIS_PROFILE=dev``) it runs over every one of the 3^10 contents of both blocks."""

import itertools
import os
import random

import pytest

import reference as ref
from zipai_rules import analysis, blocks
from zipai_rules.analysis import analyze, encode, verdict, win_verdict
from zipai_rules.cards import parse_indices

DEV = os.environ.get("ZIPAI_DEV") == "1" or os.environ.get("HYPOTHESIS_PROFILE") == "dev"


def tables(variant):
    return blocks.tables_for(variant.meld_huxi)


def pool(cards):
    counts = [0] * 20
    for c in cards:
        counts[c] += 1
    return encode(counts)


def cards_of(block, digits):
    return [c for c, n in zip(block, digits, strict=True) for _ in range(n)]


def contents():
    every = list(itertools.product(range(3), repeat=10))
    return every if DEV else random.Random(14).sample(every, 1500)


@pytest.mark.parametrize("block, other", [(blocks.BLOCK_A, blocks.BLOCK_B),
                                          (blocks.BLOCK_B, blocks.BLOCK_A)])
def test_every_block_content_agrees_with_the_reference(hunan, block, other):
    """Each content alone (its melds inside the block, with and without a 将), and joined
    with a random content of the other block (the melds crossing the cut)."""
    t = tables(hunan)
    rng = random.Random(5)
    checked = 0
    for digits in contents():
        hand = cards_of(block, digits)
        for pairs in (0, 1):
            want = ref.best_huxi(hand, pairs_allowed=pairs)
            assert t.best(pool(hand), pairs) == (-1 if want is None else want), (hand, pairs)
        joined = hand + cards_of(other, [rng.choice((0, 0, 1, 1, 2)) for _ in range(10)])
        want = ref.best_huxi(joined, pairs_allowed=0)
        assert t.best(pool(joined), 0) == (-1 if want is None else want), joined
        checked += 1
    assert checked == (3 ** 10 if DEV else 1500)


@pytest.mark.parametrize("text, pairs, huxi", [
    ("x1 x2 x3", 0, 3),                      # 一二三, small
    ("d2 d7 d10", 0, 6),                     # 二七十, big
    ("x4 x5 x6", 0, 0),                      # a sequence across the cut
    ("x4 x5 x6 d1 d2 d3", 0, 6),             # across the cut, beside a big 一二三
    ("x2 x7 x10 x5 x6 x7", 0, 3),            # 二七十 and a sequence share the cut
    ("x1 x1", 0, -1),                        # a pair with no 将 allowed
    ("x1 x1", 1, 0),
    ("x1 x1 d1 d1", 1, -1),                  # two pairs, one 将
    ("x1 x1 d1 d1 x2 x3", 1, 3),             # no 将 needed: 绞 x1 d1 d1 and 一二三 (3)
    ("x1 x1 d1 d1 d2 d3", 0, 6),             # no 将 either: 绞 x1 x1 d1 and big 一二三 (6)
    ("x1 x1 x5 x6 x7", 1, 0),                # 将 x1 x1 and a sequence
    ("x1 x1 x5 x6 x7", 0, -1),
    ("x1 x2 x3 d2 d7 d10 x9 x9", 1, 9),      # 将 x9 x9, 一二三 (3), big 二七十 (6)
    ("x5 x5 x5 d5 d5 d5", 0, 0),             # a free three: two 绞 (x5 x5 d5, x5 d5 d5)
    ("x5 x5 x5", 0, -1),                     # three alike, not a 坎 here: no meld
    ("x1 x2 x3 x1 x2 x3 x1 x2 x3", 0, 9),    # three 一二三 (a count of 3 each)
])
def test_worked_values(hunan, text, pairs, huxi):
    from zipai_rules.cards import parse_indices

    assert tables(hunan).best(pool(parse_indices(text)), pairs) == huxi


def test_four_alike_are_not_covered(hunan):
    assert tables(hunan).best(pool([0, 0, 0, 0, 1, 2]), 0) == blocks.NOT_COVERED


def test_the_decomposition_is_searched_only_when_read(hunan):
    hand = "x1 x2 x3 d2 d7 d10 x10 x10 x10 d4 d5 d6 x4 x5 x6 d8 d9 d10 x7 x8 x9"
    analysis.clear_searchers()
    a = analyze(hunan, hand)
    # 一二三 3 + big 二七十 6 + 坎 x10 3 = 12: complete, under Hunan's 15
    assert (a.win, a.reason, a.huxi) == (False, "below_min_huxi", 12)
    assert analysis._searcher(hunan).memo == {}  # no search yet
    assert a.best is not None and a.best.huxi == 12
    assert analysis._searcher(hunan).memo  # reading it ran the search
    # the 坎, then the search's melds lowest card first: x1, x4, x7, d2, d4, d8
    assert [(g.meld.kind.value, g.huxi) for g in a.best.groups] == [
        ("kan", 3), ("yi_er_san", 3), ("shun", 0), ("shun", 0), ("er_qi_shi", 6), ("shun", 0),
        ("shun", 0)]
    assert a == analyze(hunan, hand)  # a lazy analysis equals one already read


def test_verdict_is_win_verdicts_without_the_decomposition(hunan):
    from zipai_rules.cards import counts_of, parse_indices

    win = list(counts_of(parse_indices(
        "x1 x2 x3 d1 d2 d3 d2 d7 d10 x10 x10 x10 d4 d5 d6 x4 x5 x6 x7 x8 x9")))
    # small 一二三 3 + big 一二三 6 + big 二七十 6 + 坎 x10 3 = 18
    assert verdict(hunan, win) == (True, None, 18)
    broken = list(win)
    broken[0], broken[9] = 0, 2  # x1 gone, a second x10 beside the 坎: no split
    assert verdict(hunan, broken) == (False, "incomplete", 0)
    pairs = list(counts_of(parse_indices("x1 x1 x2 x2 x3 x3 d1 d1 d2 d2 d3 d3 d5 d5 d5 x9 x9 x9")))
    pairs[4] = 2  # and x5 x5: a 将 would make it whole, and Hunan allows none without 提/跑
    assert verdict(hunan, pairs) == (False, "jiang_not_allowed", 0)
    for counts in (win, broken, pairs):
        a = win_verdict(hunan, counts, (), None, None)
        assert verdict(hunan, counts) == (a.win, a.reason, a.huxi)


def _content(cards):
    counts = bytes(min(n, 2) for n in [sum(1 for c in cards if c == k) for k in range(20)])
    return blocks.contents_of(counts)


@pytest.mark.parametrize("text, kings, maybe", [
    ("x1 x2", 0, False),      # two cards make no meld
    ("x1 x2", 1, True),       # the 王 as x3 (一二三), or x1/x2 with a 将
    ("x1 x5", 1, False),      # x1 x5 and any third card: no meld holds x1 and x5
    ("x1 x5", 2, True),       # the 王 as x1 and x5: two 将
    ("x4 d7", 1, False),      # rank 4 and rank 7 never share a meld: a block-crossing check
    ("x4 d7", 2, True),       # each with a 将 (x4 x4, d7 d7) under any number of 将
    ("x2 x7", 1, True),       # 二七十: the 王 as x10 crosses the cut
    ("x3 x3", 1, True),       # the 王 makes the pair a 坎, taken out
])
def test_wild_splits_worked_values(hunan, text, kings, maybe):
    """Whether some identities of the 王 may split the cards (any number of 将 allowed), as
    worked out by hand (x1 = 0 … x10 = 9, d1 = 10 … d10 = 19)."""
    ca, cb = _content(parse_indices(text))
    assert tables(hunan).wild_splits(ca, cb, kings) is maybe


def test_wild_splits_is_never_wrong_when_it_refuses(hunan):
    """A refusal is sure: every identity of every 王 leaves cards no meld split covers (the
    reference decomposer, any number of 将), over a seeded sample of small hands."""
    rng = random.Random(7)
    t = tables(hunan)
    refused = 0
    for _ in range(300):
        real = sorted(rng.sample([c for c in range(20) for _ in range(2)], rng.randint(1, 6)))
        kings = rng.randint(0, 2)
        ca, cb = _content(real)
        if t.wild_splits(ca, cb, kings):
            continue
        refused += 1
        for subst in itertools.combinations_with_replacement(range(20), kings):
            hand = real + list(subst)
            if max(hand.count(c) for c in hand) > 3:
                continue
            left = [c for c in hand if hand.count(c) != 3]  # a 坎 is taken out
            assert ref.best_huxi(left, [], pairs_allowed=7) is None, (real, subst)
    assert refused > 100


SIX_MELDS = "x1 x2 x3 x4 x5 x6 x7 x8 x9 d1 d2 d3 d4 d5 d6 d7 d8 d9"


@pytest.mark.parametrize("extra, card, source, sure", [
    # x10 d5 waiting: x10 from another's draw leaves d5 alone (the d5 pair then leaves d4 and d6)
    ("x10 d5", "x10", "draw", True),
    # the same card drawn by oneself: no placement of it splits either
    ("x10 d5", "x10", "self", True),
    # x10 x10 waiting: d10 makes the 绞 x10 x10 d10, a split: no sure refusal
    ("x10 x10", "d10", "draw", False),
    # x10 x10 waiting: x10 from another's draw is the 碰 (or three free x10): a split again
    ("x10 x10", "x10", "draw", False),
])
def test_surely_no_win_worked_values(hunan, extra, card, source, sure):
    """The quick refusal of a win on a card (x1 = 0 … x10 = 9, d1 = 10 … d10 = 19): sure only
    where the full decision refuses too."""
    from zipai_rules.analysis import surely_no_win
    from zipai_rules.cards import counts_of
    hand = list(counts_of(parse_indices(f"{SIX_MELDS} {extra}")))
    c = parse_indices(card)[0]
    assert surely_no_win(hunan, hand, c, source) is sure
    if sure:
        a = win_verdict(hunan, hand, (), c, source)
        assert (a.win, a.reason) == (False, "incomplete")


def test_surely_no_win_knowing_the_table(hunan):
    """This 20-card hand splits with one 将 (d6 d6 d6 as a 坎 locked, d7 d8 d9, …). An x1 that
    could go onto a table 碰 of x1, making it a 跑, leaves that pool, which splits with the
    将 the 跑 allows (a maybe); with no such meld on the table x1 joins the hand, which splits
    with no number of 将: sure. As it stands (no card) the hand splits only with its 将, which
    Hunan allows only beside a 提/跑: sure with no table meld, a maybe beside a 跑."""
    from zipai_rules.analysis import surely_no_win
    from zipai_rules.cards import counts_of
    from zipai_rules.melds import parse_meld

    cards = "x6 x6 x7 x8 x9 x9 d2 d2 d4 d4 d5 d5 d6 d6 d6 d7 d7 d8 d8 d9"
    hand = list(counts_of(parse_indices(cards)))
    x1 = parse_indices("x1")[0]
    assert surely_no_win(hunan, hand, x1, "draw") is False
    assert surely_no_win(hunan, hand, x1, "draw", ()) is True
    assert surely_no_win(hunan, hand, x1, "draw", (parse_meld("peng=x1 x1 x1"),)) is False
    a = win_verdict(hunan, hand, (), x1, "draw")
    assert (a.win, a.reason) == (False, "incomplete")
    assert surely_no_win(hunan, hand, None, "self") is False
    assert surely_no_win(hunan, hand, None, "self", ()) is True
    a = win_verdict(hunan, hand, (), None, "self")
    assert (a.win, a.reason) == (False, "jiang_not_allowed")
    pao = (parse_meld("pao=x3 x3 x3 x3"),)
    assert surely_no_win(hunan, hand, None, "self", pao) is False
    loose = list(counts_of(parse_indices(cards.replace("x6 x6", "x1"))))
    assert surely_no_win(hunan, loose, None, "self", ()) is True
    a = win_verdict(hunan, loose, (), None, "self")
    assert (a.win, a.reason) == (False, "incomplete")


def test_verdict_tells_jiang_not_allowed_from_incomplete_in_many_pair_hands(hunan):
    """A hand whose only split uses nine 将 is ``incomplete`` (a win allows 7 at most); with at
    most 7 kinds held twice any split has at most 7 将, so the masks alone answer; the
    verdict agrees with the naive reference on a seeded sample of 9-pair hands."""
    from zipai_rules.cards import counts_of
    from zipai_rules.melds import chi_shapes_with

    nine = parse_indices("x2 x2 x3 x3 x5 x5 x6 x6 x9 x9 d1 d1 d3 d3 d4 d4 d7 d7 d8 d9 d10")
    assert ref.best_huxi(nine, (), pairs_allowed=9) is not None  # nine 将 and d8 d9 d10
    assert ref.best_huxi(nine, (), pairs_allowed=7) is None
    assert verdict(hunan, list(counts_of(nine))) == (False, "incomplete", 0)
    rng = random.Random(3)
    seen = set()
    for _ in range(150):
        kinds = rng.sample(range(20), 9)
        others = [k for k in range(20) if k not in kinds]
        c = rng.choice(others)
        shapes = [s for s in chi_shapes_with(c) if len(set(s)) == 3 and set(s) <= set(others)]
        if not shapes:
            continue
        hand = [k for k in kinds for _ in (0, 1)] + list(rng.choice(shapes))
        got = verdict(hunan, list(counts_of(hand)))
        if ref.best_huxi(hand, (), pairs_allowed=0) is None:
            with_pairs = ref.best_huxi(hand, (), pairs_allowed=7)
            assert got == (False, "incomplete" if with_pairs is None else "jiang_not_allowed", 0)
        seen.add(got[1])
    assert {"incomplete", "jiang_not_allowed"} <= seen


def test_slice_readers_give_each_block_content_and_its_kan_huxi(hunan):
    """The four slice reads of a hand's counts add up to the block contents of the hand with
    its 坎 locked (``contents_of``) and, above ``KAN_SHIFT``, the 胡息 of those 坎 (small 3,
    big 6 in Hunan); a count of 4 is not read."""
    readers = blocks.slice_readers(analysis._searcher(hunan).kan_huxi)
    r0, r1, r2, r3 = readers
    rng = random.Random(11)
    for _ in range(300):
        counts = bytes(rng.choice((0, 0, 1, 2, 3)) for _ in range(20))
        a = r0[counts[0:5]] + r1[counts[10:15]]
        b = r2[counts[5:10]] + r3[counts[15:20]]
        locked = counts.replace(b"\x03", b"\x00")
        assert (a & blocks.CONTENT_MASK, b & blocks.CONTENT_MASK) == blocks.contents_of(locked)
        kans = [i for i in range(20) if counts[i] == 3]
        assert (a >> blocks.KAN_SHIFT) + (b >> blocks.KAN_SHIFT) == sum(
            3 if i < 10 else 6 for i in kans)
    assert bytes([4, 0, 0, 0, 0]) not in r0


def test_surely_no_win_leaves_the_special_wins_of_a_hand_as_it_stands_open():
    """碰胡 (penghu): two 提 on the table are a special win whatever the hand (2 提蛇): the hand
    as it stands, with no card, is no sure refusal even though it has no split."""
    from zipai_rules import find_variant
    from zipai_rules.analysis import read_table, surely_no_win
    from zipai_rules.cards import counts_of

    v = find_variant("penghu")
    hand = list(counts_of(parse_indices("d4 d4 d4 d3 d3 d3 x8")))
    table = tuple(read_table(["ti=x6 x6 x6 x6", "ti=d7 d7 d7 d7"]))
    a = win_verdict(v, hand, table, None, None, explain=False)
    assert (a.win, a.huxi) == (True, 21)
    for source in (None, "self"):
        assert surely_no_win(v, hand, None, source, table) is False
        assert surely_no_win(v, hand, None, source) is False


def test_win_verdict_refuses_counts_it_cannot_bound(hunan):
    """The trusted counts are checked for what bounds the time of the 王 identities: 21 of
    them, and no more 王 than the deck holds (hunan none, chenzhou_wang 4)."""
    from zipai_rules import HandError, find_variant

    with pytest.raises(HandError, match="21 counts are expected") as e:
        verdict(hunan, [0] * 20)
    assert e.value.code == "bad_hand"
    with pytest.raises(HandError, match="at most the deck's 0 王"):
        verdict(hunan, [0] * 20 + [1])
    wang = find_variant("chenzhou_wang")
    with pytest.raises(HandError, match="at most the deck's 4 王"):
        win_verdict(wang, [0] * 20 + [21], (), None, "self")
    assert verdict(wang, [0] * 20 + [3])[0] is False  # three 王 alone: no 21-card hand
