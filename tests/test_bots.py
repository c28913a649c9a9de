"""GreedyBot's discard measure: the cards the best partial cover of a pool leaves out and its
胡息, worked out as ``searcher(v).best(x, pairs, partial=True)`` finds them, only cheaper."""

import random

import pytest

from helpers import C
from zipai_rules import bots, find_variant
from zipai_rules.analysis import encode, searcher
from zipai_rules.bots import GreedyBot
from zipai_rules.cards import counts_of
from zipai_rules.engine import ActionKind, Game
from zipai_rules.engine.claims import locked
from zipai_rules.loader import build_variant
from zipai_rules.presets import preset_ids, raw_preset


def measure(variant, text, jiang=1):
    m = bots._leftover(variant).measure(encode(counts_of(C(text)) + (0,)), jiang)
    return m >> 8, m & 255  # (胡息, cards left out)


def test_worked_pools(hunan):
    # 小一二三 is worth 3 胡息, the x5 stays out
    assert measure(hunan, "x1 x2 x3 x5") == (3, 1)
    # 大贰柒拾 6 胡息 and the pair x4 as the 将
    assert measure(hunan, "d2 d7 d10 x4 x4") == (6, 0)
    # without a pair allowed the two x4 stay out
    assert measure(hunan, "d2 d7 d10 x4 x4", jiang=0) == (6, 2)
    # nothing forms
    assert measure(hunan, "x3 x5 d8") == (0, 3)
    # a tie at 0 胡息: the search tries x4 x5 x6 first, leaving one x4 (not the pair, which
    # would leave x5 x6)
    assert measure(hunan, "x4 x4 x5 x6") == (0, 1)
    # 小一二三 (3) beats 一 一 壹 绞 (0) even though it leaves more cards out
    assert measure(hunan, "x1 x1 d1 x2 x3 d5") == (3, 3)
    assert measure(hunan, "") == (0, 0)


@pytest.mark.parametrize("pid", preset_ids())
def test_agrees_with_the_search_on_random_pools(pid):
    v = find_variant(pid)
    rng = random.Random(pid)
    bots._MEASURES.clear()
    search = searcher(v)
    for _ in range(300):
        counts = [0] * 20
        for i in rng.sample(range(20), rng.randint(0, 14)):
            counts[i] = rng.choice((1, 1, 2, 2, 3))
        x = encode(counts)
        for jiang in (0, 1, 2):
            found = search.best(x, jiang, partial=True)
            assert found is not None
            got = bots._leftover(v).measure(x, jiang)
            assert (got >> 8, got & 255) == (found[0], len(found[2])), (counts, jiang)


def test_the_empty_pool_first(hunan):
    # a hand of lone cards leaves an empty pool to measure, maybe the first one measured
    bots._MEASURES.clear()
    assert measure(hunan, "") == (0, 0)
    bots._MEASURES.clear()
    assert measure(hunan, "x1 x5 d9") == (0, 3)


def test_single_cards_no_meld_holds(hunan):
    m = bots._leftover(hunan)
    pool = encode(counts_of(C("x1 x2 x3 x5 d9 d9 x7")))
    # x1 x2 x3 form 一二三; no meld holds x5 (no x3 x4, x4 x6, x6 x7 or d5) nor x7 (no x5 x6
    # with it, no x8, no x10 for 二七十, no d7); d9 is a pair, not a single card
    assert m.alone(pool) == encode(counts_of(C("x5 x7")))
    assert m.measure(pool, 1) == 3 << 8 | 2  # 一二三 and the 将 d9 d9: x5 x7 left out
    assert m.measure(pool - m.alone(pool), 1) == 3 << 8 | 0


@pytest.mark.parametrize("pid", ["hunan", "guilin", "penghu", "hengyang_liuhu"])
def test_single_cards_leave_the_measure_as_it_was(pid):
    v = find_variant(pid)
    m = bots._leftover(v)
    rng = random.Random(7)
    for _ in range(300):
        counts = [rng.choice((0, 0, 0, 1, 1, 2)) for _ in range(20)]
        x = encode(counts)
        alone = m.alone(x)
        got, without = m.measure(x, 1), m.measure(x - alone, 1)
        assert got >> 8 == without >> 8
        assert got & 255 == (without & 255) + bin(alone).count("1")


def test_memo_is_emptied_past_its_limit(hunan, monkeypatch):
    rng = random.Random(5)
    pools = []
    for _ in range(200):
        counts = [0] * 20
        for i in rng.sample(range(20), 5):
            counts[i] = rng.choice((1, 2))
        pools.append(encode(counts))
    bots._MEASURES.clear()
    free = [bots._leftover(hunan).measure(x, 1) for x in pools]
    monkeypatch.setattr(bots, "MEMO_LIMIT", 50)
    bots._MEASURES.clear()
    sizes, bounded = [], []
    for x in pools:
        bounded.append(bots._leftover(hunan).measure(x, 1))
        sizes.append(len(bots._leftover(hunan).memo))
    assert bounded == free
    assert max(sizes) < 50 + 60 and min(sizes[20:]) < 30  # emptied, then refilled


def test_measures_are_bounded(monkeypatch):
    monkeypatch.setattr(bots, "MEASURE_LIMIT", 2)
    bots._MEASURES.clear()
    for pid in ("hunan", "guilin", "penghu"):
        bots._leftover(find_variant(pid)).measure(encode(counts_of(C("x1 x2 x3"))), 1)
    assert list(bots._MEASURES) == [find_variant(p).content_hash for p in ("guilin", "penghu")]


def _old_choice(state, opts):
    """The discard GreedyBot chose before the measure: the search's own cover per discard."""
    seat = state.seats[state.acting_seat]
    search = searcher(state.variant)
    hand = list(seat.hand)
    for i in locked(state.variant, hand):
        hand[i] = 0

    def leftover_after(a):
        h, c = list(hand), a.card
        if not h[c]:
            h[c] = seat.hand[c]
        h[c] -= 1
        found = search.best(encode(h), 1, partial=True)
        return (len(found[2]) if found else 99, -(found[0] if found else 0))
    return min(opts, key=lambda a: (leftover_after(a), -(a.card or 0)))


def greedy_discards(variant, seeds):
    """``(state, discard chosen)`` of every discard GreedyBot makes in games of ``seeds``."""
    for seed in seeds:
        game = Game(variant, seed=seed)
        bot = GreedyBot(seed)
        while not game.is_over:
            st = game.state
            action = bot(st, st.options)
            if st.options[0].kind == ActionKind.DISCARD:
                yield st, action
            game.apply(action)


@pytest.mark.parametrize("pid", ["hunan", "yongzhou", "chenzhou_wang", "penghu", "guilin"])
def test_discards_as_the_plain_search_chooses(pid):
    checked = 0
    for st, action in greedy_discards(find_variant(pid), range(4)):
        assert action == _old_choice(st, list(st.options))
        checked += 1
    assert checked > 10


# --- the measure's shortcuts against plain versions -------------------------------------------

def scored(melds):
    """Hunan with some melds scored too (``{kind: [small, big]}``), so that the melds worth
    胡息 are other than the presets' (a scored 将 makes the most 胡息 depend on the pairs)."""
    return build_variant({"extends": "hunan", "id": "scored_test", "name": "scored",
                          "huxi": melds, "terminology": {}, "citations": {}},
                         raw_preset, "<test scored melds>")


def plain_measure(variant, counts, jiang, memo):
    """``(胡息, cards left out)`` of the first best partial cover in the search's order, plainly:
    at the lowest kind, each meld that fits, then the pair, then leaving a card out; the first
    of the most 胡息 kept. ``counts``: a tuple of 20 counts; ``memo`` is filled."""
    key = (counts, jiang)
    if key not in memo:
        if not any(counts):
            memo[key] = (0, 0)
            return memo[key]
        search = searcher(variant)
        low = next(i for i, n in enumerate(counts) if n)

        def without(cards):
            rest = list(counts)
            for c in cards:
                rest[c] -= 1
            return tuple(rest) if min(rest) >= 0 else None
        options = []
        for _, huxi, meld in search.cands[low]:
            rest = without(meld.cards)
            if rest is not None:
                h, left = plain_measure(variant, rest, jiang, memo)
                options.append((h + huxi, left))
        if jiang and counts[low] >= 2:
            _, huxi, pair = search.pairs[low]
            h, left = plain_measure(variant, without(pair.cards), jiang - 1, memo)
            options.append((h + huxi, left))
        h, left = plain_measure(variant, without((low,)), jiang, memo)
        options.append((h, left + 1))
        most = max(h for h, _ in options)
        memo[key] = next(o for o in options if o[0] == most)
    return memo[key]


def random_counts(rng):
    counts = [0] * 20
    for i in rng.sample(range(20), rng.randint(0, 16)):
        counts[i] = rng.choice((1, 1, 1, 2, 2, 3))
    return tuple(counts)


MEASURED = [(pid, None) for pid in ("hunan", "chenzhou", "guilin", "hengyang_liuhu")] + [
    ("scored jiang", {"jiang": [1, 2]}),
    ("scored shun and jiao", {"shun": [1, 2], "jiao": [2, 1]}),
    ("scored everything", {"shun": [1, 1], "jiao": [1, 3], "jiang": [2, 1]})]


@pytest.mark.parametrize("name, melds", MEASURED)
def test_measure_as_the_plain_search(name, melds):
    """The walk down the first best choice gives what the plain search gives, on 1,500 random
    pools with 0 to 3 pairs allowed (cold memo, then warm)."""
    v = scored(melds) if melds else find_variant(name)
    rng = random.Random(name)
    m = bots._Leftover(v)
    memo = {}
    pools = [random_counts(rng) for _ in range(500)]
    for _ in range(2):
        for counts in pools:
            for jiang in (0, 1, 3):
                got = m.measure(encode(counts), jiang)
                assert (got >> 8, got & 255) == plain_measure(v, counts, jiang, memo), (
                    counts, jiang)


@pytest.mark.parametrize("name, melds", MEASURED)
def test_most_huxi_as_the_plain_search(name, melds):
    v = scored(melds) if melds else find_variant(name)
    m = bots._Leftover(v)
    rng = random.Random(3)
    memo = {}
    for _ in range(300):
        counts = random_counts(rng)
        x = encode(counts)
        for jiang in (0, 1, 2):
            assert m.most(x & m.mask, jiang) == plain_measure(v, counts, jiang, memo)[0]


@pytest.mark.parametrize("name, melds", MEASURED)
def test_single_cards_as_plainly_found(name, melds):
    """:meth:`alone`, worked out for all kinds at once, against each single card's melds."""
    v = scored(melds) if melds else find_variant(name)
    m = bots._Leftover(v)
    search = searcher(v)
    rng = random.Random(4)
    melds = [meld for cs in search.cands for _, _, meld in cs]
    for _ in range(2000):
        counts = random_counts(rng)
        held = {c for meld in melds for c in meld.cards
                if all(counts[k] >= meld.cards.count(k) for k in meld.cards)}
        lone = [int(n == 1 and i not in held) for i, n in enumerate(counts)]
        assert m.alone(encode(counts)) == encode(lone), counts


def test_fewest_left_is_a_bound(hunan):
    """No cover leaves out fewer cards than :func:`_fewest_left` says, and some reach it."""
    rng = random.Random(6)
    memo = {}
    reached = 0
    for _ in range(1000):
        counts = random_counts(rng)
        for jiang in (0, 1):
            fewest = bots._fewest_left(encode(counts), jiang)
            left = plain_measure(hunan, counts, jiang, memo)[1]
            assert left >= fewest
            if jiang == 0:  # no pair: the cards left out are the pool's modulo 3
                assert (left - fewest) % 3 == 0
            reached += left == fewest
    assert reached > 200


@pytest.mark.parametrize("pid", ["chenzhou", "hengyang_liuhu", "shaoyang", "daye"])
def test_discards_as_plainly_measured(pid):
    """GreedyBot's choice, which stops measuring a discard once it surely leaves out more cards
    than the one chosen so far, is the least ``(cards left out, -胡息, -card)`` of every
    discard measured whole (plainly, the 坎 kept whole, the 王 out), over whole games."""
    v = find_variant(pid)
    memo = {}
    checked = 0
    for st, action in greedy_discards(v, range(6)):
        hand = st.seats[st.acting_seat].hand
        keys = {}
        for a in st.options:
            counts = [n if n < 3 else 0 for n in hand[:20]]
            if a.card < 20:  # a card of a 坎 breaks it
                counts[a.card] = max(counts[a.card], hand[a.card]) - 1
            huxi, left = plain_measure(v, tuple(counts), 1, memo)
            keys[a] = (left, -huxi, -a.card)
        assert action == min(st.options, key=keys.__getitem__)
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("name, melds", MEASURED)
def test_a_card_left_out_goes_alone(name, melds):
    """The kinds the walk keeps as left out of a pool's cover: without one card of such a
    kind, the plain search finds the same 胡息 and one card fewer out (what GreedyBot reads of
    such a discard instead of measuring it)."""
    v = scored(melds) if melds else find_variant(name)
    m = bots._Leftover(v)
    rng = random.Random(8)
    memo = {}
    checked = 0
    for _ in range(400):
        counts = random_counts(rng)
        x = encode(counts)
        for jiang in (0, 1):
            m.measure(x, jiang)
            entry = m.memo[x << 3 | jiang]
            huxi, left = plain_measure(v, counts, jiang, memo)
            assert entry & bots._MEASURED == huxi << 8 | left
            lost = [i for i in range(20) if entry >> (24 + i) & 1]
            assert len(lost) <= left and all(counts[i] for i in lost)
            for i in lost:
                fewer = tuple(n - (j == i) for j, n in enumerate(counts))
                assert plain_measure(v, fewer, jiang, memo) == (huxi, left - 1), (counts, i)
                checked += 1
    assert checked > 300


@pytest.mark.parametrize("pid", ["chenzhou", "chenzhou_wang"])
def test_pools_of_pairs_under_split_kan(pid):
    # with 坎 split at the win the search holds melds of three cards of a kind, worth 胡息,
    # so every kind is worth 胡息 in some meld; in a pool holding each kind at most twice (as
    # GreedyBot's) none fits, and the measure reads only the kinds of 一二三 and 二七十
    v = find_variant(pid)
    m = bots._Leftover(v)
    kinds = lambda mask: [i for i in range(20) if mask >> (bots._BITS * i) & 7]  # noqa: E731
    assert kinds(m.mask) == list(range(20))
    assert kinds(m.mask_two) == [0, 1, 2, 6, 9, 10, 11, 12, 16, 19]
    rng = random.Random(pid)
    search = searcher(v)
    for _ in range(300):
        counts = [0] * 20
        for i in rng.sample(range(20), rng.randint(0, 14)):
            counts[i] = rng.choice((1, 2))
        x = encode(counts)
        for jiang in (0, 1):
            found = search.best(x, jiang, partial=True)
            got = m.measure(x, jiang)
            assert (got >> 8, got & 255) == (found[0], len(found[2])), (counts, jiang)
