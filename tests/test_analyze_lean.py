"""``analyze``'s lean reading of a hand as it stands (a list of card indices, no table melds,
a ``Variant``) gives what the general reading gives: the same verdict, 胡息 and decomposition
on every preset, the DP oracle's best 胡息, and for every item that is no card index, every
count no player holds, four copies or a 王, the same errors."""

import enum
import random

import pytest

from reference import clear_dp, dp_best_huxi
from zipai_rules import analysis
from zipai_rules.analysis import _checked, analyze, win_verdict
from zipai_rules.bench import random_meld_hand
from zipai_rules.errors import ZipaiError
from zipai_rules.presets import load_preset, preset_ids


@pytest.fixture(autouse=True, params=["c-calls", "loop"])
def reading(request, monkeypatch):
    """Each test both ways the lean reading reads the items: the interpreted build's passes of
    C calls over the list, and the compiled build's own loop (``analysis._NATIVE``; set here,
    it is read by the interpreted build; the compiled one keeps its own)."""
    monkeypatch.setattr(analysis, "_NATIVE", request.param == "loop")
    return request.param


def general(v, hand):
    """The general reading: the checks, then the one win decision."""
    counts, table, card = _checked(v, hand, (), None, None, False, False)
    return win_verdict(v, counts, table, card, None)


def hands_of(v, rng, n):
    size = v.deal.dealer_hand // 3 * 3
    for k in range(n):
        h = random_meld_hand(v, rng, size)
        if k % 3 == 1:
            h[rng.randrange(len(h))] = rng.randrange(21)
        elif k % 3 == 2:
            h.pop(rng.randrange(len(h)))
        yield h


@pytest.mark.parametrize("pid", preset_ids())
def test_the_lean_reading_gives_the_general_one(pid):
    """On every preset: meld-built hands, with a card swapped (a 王 too) or taken out, give
    equal analyses (verdict, reason, 胡息, best decomposition) or equal errors."""
    v = load_preset(pid)
    rng = random.Random(hash(pid) % 1000)
    for h in hands_of(v, rng, 30):
        try:
            want = general(v, list(h))
        except ZipaiError as exc:
            with pytest.raises(type(exc)) as got:
                analyze(v, h)
            assert got.value.code == exc.code and str(got.value) == str(exc)
            continue
        got = analyze(v, h)
        assert got == want and got.best == want.best, h


def test_the_lean_reading_is_taken_and_meets_the_dp_oracle(monkeypatch):
    """In hunan the lean reading answers a list of indices (the general checks are never
    called), and its 胡息 is the DP oracle's where the hand splits."""
    v = load_preset("hunan")
    analyze(v, list(range(20)) + [0])  # the searcher exists
    monkeypatch.setattr(analysis, "_checked", None)  # the general reading would fail
    rng = random.Random(28)
    clear_dp()
    splits = 0
    for _ in range(60):
        h = random_meld_hand(v, rng, 21)
        a = analyze(v, h)
        best = dp_best_huxi(h)
        if best is None:
            assert not a.win and a.huxi == 0
        else:
            splits += 1
            assert a.reason in (None, "below_min_huxi") and a.huxi == best
            assert a.best is not None and a.best.huxi == best
            assert sorted(c for g in a.best.groups for c in g.meld.cards) == sorted(h)
    assert splits >= 10  # (a kind held three times across melds is a 坎 and stays whole)


class Rank(enum.IntEnum):
    X3 = 2


HAND = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 9, 9]


@pytest.mark.parametrize("item, code", [
    (True, "unknown_card"), (False, "unknown_card"), (1.0, "unknown_card"),
    (-1, "unknown_card"), (21, "unknown_card"), (2 ** 70, "unknown_card"), (None, "unknown_card"),
    ("x1", None), (Rank.X3, None)])
def test_an_item_the_lean_reading_does_not_take_goes_to_the_checks(item, code):
    """A bool, a float, an index out of 0..20 or None is refused as before (``unknown_card``);
    a token or an int subclass is read as the card it names, as before."""
    v = load_preset("hunan")
    hand = HAND[:-1] + [item]
    if code is None:
        assert analyze(v, hand) == general(v, hand)
        return
    with pytest.raises(ZipaiError) as exc:
        analyze(v, hand)
    assert exc.value.code == code


def test_a_numpy_index_is_refused_as_before():
    np = pytest.importorskip("numpy")
    v = load_preset("hunan")
    with pytest.raises(ZipaiError) as exc:
        analyze(v, HAND[:-1] + [np.int64(3)])
    assert exc.value.code == "unknown_card"


@pytest.mark.parametrize("hand, code", [
    ([0] * 5 + HAND[5:], "too_many_copies"),       # five x1
    ([0] * 8 + HAND[8:], "too_many_copies"),       # eight x1: a count that would carry
    ([20] + HAND[1:], "too_many_copies"),          # a 王 in a deck without
    (HAND[:-3], "impossible_count"),               # 18 cards
    (HAND + [0, 1], "too_many_cards"),             # 23 cards
    ([0] * 4 + HAND[4:], "concealed_quad"),        # four x1 that hunan lays down as 提
])
def test_counts_the_lean_reading_leaves_get_the_same_errors(hand, code):
    v = load_preset("hunan")
    with pytest.raises(ZipaiError) as exc:
        analyze(v, hand)
    assert exc.value.code == code
    with pytest.raises(type(exc.value)) as want:
        general(v, hand)
    assert str(want.value) == str(exc.value)
