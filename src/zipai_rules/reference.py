"""A deliberately naive reference decomposer: the test oracle for ``zipai_rules.analysis``,
and the baseline ``zipai bench`` measures the analysis against.

It shares nothing with the library: its own card decoding, its own meld shapes and its own
胡息 table, written out below from the rules digest (§1.3 (c), the Guilin table of
``004_4a6d8adec4e0ba73.txt`` 第七条四) that the digest adopts as the default for Hunan).

The search is brute force: the first remaining card must lie in some meld, so every 3-card
combination of the full list of chi-type combinations that contains it is tried (plus a pair,
where a 将 is still allowed), and every complete split is enumerated. There is no memoisation
and no "lowest card picks only melds it starts" shortcut; the only acceleration is that the
full combination list is indexed by the cards it contains.

Rules applied (digest §1.2, §1.5):

* three identical concealed cards are a 坎 and stay whole;
* a 将 (pair) only when the player has a 提 or 跑 on the table, and then at most one
  (``pairs_allowed`` overrides this for variants with other 将 rules);
* a wild 王 (index 20, Yongzhou 双王, digest §2.6) stands for any ordinary card: every
  identity is tried for each 王 (an identity that would make a concealed four is no hand);
  the 王 then counts as that card, 坎 included.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations_with_replacement, product

# 胡息 per kind as (small, big), digest §1.3 (c):
# 碰 1/3; 坎, 偎, 臭偎 3/6; 跑 6/9; 提 9/12; 一二三 / 二七十 3/6; everything else 0.
HUXI: dict[str, tuple[int, int]] = {
    "peng": (1, 3),
    "kan": (3, 6),
    "wei": (3, 6),
    "chou_wei": (3, 6),
    "pao": (6, 9),
    "ti": (9, 12),
    "yi_er_san": (3, 6),
    "er_qi_shi": (3, 6),
    "shun": (0, 0),
    "jiao": (0, 0),
    "jiang": (0, 0),
}

QUAD_KINDS = ("ti", "pao")


def rank_case(i: int) -> tuple[int, bool]:
    """(rank 1..10, big?) of card index ``i`` (small r → r-1, big r → 9+r)."""
    if not 0 <= i < 20:
        raise ValueError(f"reference handles ordinary cards only, got index {i}")
    if i < 10:
        return i + 1, False
    return i - 9, True


def triple_kind(cards: Sequence[int]) -> str | None:
    """The chi-type kind of three cards, from the digest's §1.2 definitions, or ``None``."""
    rc = [rank_case(c) for c in cards]
    ranks = sorted(r for r, _ in rc)
    cases = {b for _, b in rc}
    if len(cases) == 1:
        if ranks == [1, 2, 3]:
            return "yi_er_san"
        if ranks == [2, 7, 10]:
            return "er_qi_shi"
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
            return "shun"
        return None
    # mixed case: 大小三搭 / 绞, two of one case and one of the other, same rank
    if ranks[0] == ranks[1] == ranks[2]:
        return "jiao"
    return None


def is_big(cards: Sequence[int]) -> bool:
    """A meld is big when most of its cards are big (all of them except in a 绞)."""
    return sum(1 for c in cards if rank_case(c)[1]) * 2 > len(cards)


def meld_huxi(kind: str, cards: Sequence[int]) -> int:
    small, big = HUXI[kind]
    return big if is_big(cards) else small


# The full list of 3-card combinations that form a chi-type meld.
ALL_TRIPLES: list[tuple[int, int, int]] = [
    t for t in combinations_with_replacement(range(20), 3) if triple_kind(t) is not None
]
_CONTAINING: dict[int, list[tuple[int, int, int]]] = {
    i: [t for t in ALL_TRIPLES if i in t] for i in range(20)
}

Meld = tuple[str, tuple[int, ...]]


def splits(counts: list[int], pairs_left: int, kans: bool = False) -> Iterator[list[Meld]]:
    """Every way to split ``counts`` (20 counts) into chi-type triples and at most
    ``pairs_left`` pairs, and with ``kans`` three of a kind as a 坎. Yields lists of (kind,
    cards); a split whose first card kind lies in several different melds is reached once
    per order of those melds (no deduplication)."""
    first = next((i for i in range(20) if counts[i]), None)
    if first is None:
        yield []
        return
    if kans and counts[first] >= 3:
        counts[first] -= 3
        for rest in splits(counts, pairs_left, kans):
            yield [("kan", (first,) * 3), *rest]
        counts[first] += 3
    for t in _CONTAINING[first]:
        need = {c: t.count(c) for c in t}
        if all(counts[c] >= n for c, n in need.items()):
            for c, n in need.items():
                counts[c] -= n
            kind = triple_kind(t)
            assert kind is not None  # every listed triple is a meld
            for rest in splits(counts, pairs_left, kans):
                yield [(kind, t), *rest]
            for c, n in need.items():
                counts[c] += n
    if pairs_left and counts[first] >= 2:
        counts[first] -= 2
        for rest in splits(counts, pairs_left - 1, kans):
            yield [("jiang", (first, first))] + rest
        counts[first] += 2


def _counts(hand: Iterable[int]) -> list[int]:
    counts = [0] * 20
    for c in hand:
        counts[c] += 1
    return counts


def all_decompositions(hand: Iterable[int], table: Sequence[Meld] = (),
                       pairs_allowed: int | None = None, split_kan: bool = False
                       ) -> list[tuple[int, list[Meld]]]:
    """Every decomposition of the concealed ``hand`` (card indices) next to the ``table``
    melds, as ``(total 胡息, concealed melds)``; 坎 stay whole, unless ``split_kan`` (郴州:
    three of a kind is then one group or spread over others). ``pairs_allowed`` overrides the
    pair rule (default: one pair if the table holds a 提 or 跑, else none)."""
    counts = _counts(hand)
    if any(n > 3 for n in counts):
        raise ValueError("a concealed four of a kind is not a hand")
    kans: list[Meld] = []
    for i in range(20):
        if counts[i] == 3 and not split_kan:
            kans.append(("kan", (i, i, i)))
            counts[i] = 0
    if pairs_allowed is None:
        pairs_allowed = 1 if any(k in QUAD_KINDS for k, _ in table) else 0
    base = sum(meld_huxi(k, cs) for k, cs in table) + sum(meld_huxi(k, cs) for k, cs in kans)
    out = []
    for melds in splits(counts, pairs_allowed, split_kan):
        out.append((base + sum(meld_huxi(k, cs) for k, cs in melds), kans + melds))
    return out


def best_huxi(hand: Iterable[int], table: Sequence[Meld] = (),
              pairs_allowed: int | None = None, split_kan: bool = False) -> int | None:
    """The most 胡息 of any decomposition, or ``None`` when the hand has none."""
    found = all_decompositions(hand, table, pairs_allowed, split_kan)
    return max(h for h, _ in found) if found else None


# --- the wild 王 ---------------------------------------------------------------------------------

WILD = 20  # the card index of the 王


def identities(hand: Iterable[int], table: Sequence[Meld] = ()) -> list[list[int]]:
    """Every hand the 王 in ``hand`` can stand for: each 王 replaced by each of the 20
    ordinary cards in turn (all combinations), without the hands holding four of a card, nor
    a fifth copy of a card with the ``table`` melds' (a 王 is never a fifth copy:
    docs/variants.md "What a 王 may do"). A hand without 王 is its own single identity."""
    hand = list(hand)
    on_table = _counts(c for _, cs in table for c in cs if c != WILD)
    real = [c for c in hand if c != WILD]
    wild = len(hand) - len(real)
    seen = set()
    out = []
    for ids in product(range(20), repeat=wild):
        h = sorted(real + list(ids))
        if tuple(h) in seen or any(n > 3 or n + t > 4
                                   for n, t in zip(_counts(h), on_table, strict=True)):
            continue
        seen.add(tuple(h))
        out.append(h)
    return out


def best_huxi_wild(hand: Iterable[int], table: Sequence[Meld] = (),
                   pairs_allowed: int | None = None, split_kan: bool = False) -> int | None:
    """:func:`best_huxi` over every identity of the 王 in ``hand``; ``None`` when no
    identity decomposes."""
    found = [h for h in (best_huxi(i, table, pairs_allowed, split_kan)
                         for i in identities(hand, table)) if h is not None]
    return max(found) if found else None


# --- a plain memoised DP, the speed baseline ----------------------------------------------------

#: for each card index, the chi-type triples whose lowest card it is, as the copies of each card
#: they take and their 胡息: the lowest card left in a hand lies in one of them (or in a pair)
_LOWEST: list[list[tuple[tuple[tuple[int, int], ...], int]]] = [
    [(tuple((c, t.count(c)) for c in sorted(set(t))), meld_huxi(kind, t))
     for t in ALL_TRIPLES if t[0] == i for kind in (triple_kind(t),) if kind is not None]
    for i in range(20)]
_KAN_HUXI = [meld_huxi("kan", (i, i, i)) for i in range(20)]
_DP_MEMO: dict[tuple[tuple[int, ...], int], int] = {}


def dp_best_huxi(hand: Iterable[int], pairs_allowed: int = 0) -> int | None:
    """The most 胡息 of the concealed ``hand`` (card indices 0..19, no table melds), its 坎
    locked, with at most ``pairs_allowed`` pairs, or ``None`` when it does not split: the
    answer of :func:`best_huxi`, by a plain memoised dynamic programme (the counts as a tuple,
    the lowest card placed first, each subproblem memoised for the process until
    :func:`clear_dp` forgets them). ``zipai bench`` measures the analysis against it; it shares
    no code with the library. Raises :class:`ValueError` for a card that is not 0..19 or a
    concealed four."""
    counts = _counts(hand)
    if any(n > 3 for n in counts):
        raise ValueError("a concealed four of a kind is not a hand")
    base = 0
    for i in range(20):
        if counts[i] == 3:
            base += _KAN_HUXI[i]
            counts[i] = 0
    found = _dp(tuple(counts), pairs_allowed, 0)
    return None if found < 0 else base + found


def clear_dp() -> None:
    """Forget the subproblems :func:`dp_best_huxi` memoised (its next calls start cold)."""
    _DP_MEMO.clear()


def _dp(counts: tuple[int, ...], pairs: int, first: int) -> int:
    """The most 胡息 of a split of ``counts`` (20 counts, no 坎 left, none below ``first``),
    -1 for none."""
    key = (counts, pairs)
    found = _DP_MEMO.get(key)
    if found is not None:
        return found
    while first < 20 and not counts[first]:
        first += 1
    if first == 20:
        return 0
    found = -1
    for need, h in _LOWEST[first]:
        left = list(counts)
        for c, n in need:
            if left[c] < n:
                break
            left[c] -= n
        else:
            rest = _dp(tuple(left), pairs, first)
            if rest >= 0 and rest + h > found:
                found = rest + h
    if pairs and counts[first] >= 2:
        left = list(counts)
        left[first] -= 2
        rest = _dp(tuple(left), pairs - 1, first)
        if rest > found:
            found = rest
    _DP_MEMO[key] = found
    return found
