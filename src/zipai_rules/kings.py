"""The 王 over the block tables: whether a concealed pool may split once 王 join it, so that
the win check (:func:`zipai_rules.analysis.win_verdict`, the engine's claims through it)
refuses most hands holding 王 before any search (:func:`~zipai_rules.analysis.surely_no_win`).

A 王 stands for any card ("王霸可以代替任何牌进行游戏", ``000_cdb63c032605c9a1.txt
§永州双王扯胡子规则``). Only three real concealed copies are a 坎 that stays whole ("坎：砌牌后手中3
个相同的牌为1坎。一坎牌不能拆散", 000 §永州双王扯胡子规则); a 王 beside a pair may make their
triple, scored as a 坎 (digest G14 "K + pair = 坎"; Riversteel6/Aizipai
``chenzhou_zipai_ai/engine/hu_checker.py`` ``concealed_group_xi``: two equal cards and a 王
score as 偎), or stand for a third copy used in another meld; a 王 may be a fourth copy
beside a 坎. The exact search is :meth:`zipai_rules.analysis._Searcher.best_wild`; here only
the sure refusals, which leave out its last rule (never a fifth copy among the player's own
cards), so that they refuse no less than it.

Every split of a pool with 王 is one of two kinds. Either every kind a 王 stands for is held
at most twice in the end, or three times as a triple: each 王 then raises a count 0 to 1 or
1 to 2, or makes a count of 2 a triple taken out (0), which is what
:meth:`~zipai_rules.blocks.BlockTables.wild_splits` adds to the block masks. Or some kind is
held three times or more with a copy outside a triple: a 王 is then (copies being alike) that
copy, in a meld holding the kind, whose other cards the pool gives (real first) or other 王
stand for; that meld taken out, the rest splits with the 王 left. :func:`may_split` tries both,
the second for every kind that the 王 left could make three. Nothing here reads a variant:
the win check hands over its block tables (those of splits with any number of 将, or without a
将: :meth:`~zipai_rules.blocks.BlockTables.without_pairs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .blocks import BlockTables, contents_of, meld_types
from .cards import KING
from .melds import MeldKind
from .vocab import Source

#: the enum members read here, bound once (docs/benchmarks.md, "Enum members bound once")
_MELD_JIANG: Final = MeldKind.JIANG
_SOURCE_SELF: Final = Source.SELF

DIGIT = [3 ** (i % 5 + 5 * (i >= 10)) for i in range(20)]  # a kind's digit in its block

#: for each kind, the melds holding it other than a triple (the 将 included), as ``(copies of
#: the kind, is a 将, the meld's other kinds as (kind, copies))``
_HOLDING: list[list[tuple[int, bool, tuple[tuple[int, int], ...]]]] = [
    [(cards.count(c), kind == _MELD_JIANG,
      tuple((k, cards.count(k)) for k in sorted(set(cards)) if k != c))
     for kind, cards in meld_types() if c in cards] for c in range(20)]

#: :data:`_HOLDING` as :func:`_wild` reads it: for each kind, each meld holding it but a
#: triple as ``(is a 将, the meld's cards but one copy of the kind, as (kind, copies, digit in
#: block A, digit in block B))``, each digit 0 outside the kind's block
_HOLD: list[list[tuple[bool, tuple[tuple[int, int, int, int], ...]]]] = [
    [(jiang, tuple((j, n, DIGIT[j] * (j % 10 < 5), DIGIT[j] * (j % 10 >= 5))
                   for j, n in ((c, nk - 1),) + others if n))
     for nk, jiang, others in _HOLDING[c]] for c in range(20)]

_COVERED = b"\x00\x01\x02"

#: each kind's digit in blocks A and B (0 outside its block), as a pair
DIGITS = [(DIGIT[j] * (j % 10 < 5), DIGIT[j] * (j % 10 >= 5)) for j in range(20)]

#: the most entries of a tables' memo of :func:`may_split` (``BlockTables.kings_memo``, kept
#: with the tables whose masks it read) before it is emptied
MEMO_LIMIT = 100_000


def may_split(tables: BlockTables, counts: Sequence[int], kings: int) -> bool:
    """Whether the concealed pool of the 20 ``counts`` (every 坎 already out of it; any count,
    a count of 3 or more being the incoming card held free or copies a 王 joined) may split
    wholly into melds with any number of 将 (as ``tables`` allow them) once ``kings`` 王 join
    it: ``False`` is sure, ``True`` a maybe (:func:`spread_may_split`)."""
    counts = list(counts[:20])
    ca, cb = contents_of(bytes(n if n < 3 else 0 for n in counts))
    return spread_may_split(tables, counts, ca, cb, kings, over(counts))


def over(counts: Sequence[int]) -> int:
    """The kinds of the 20 ``counts`` held three times or more, as bits (kind ``k``: ``1 <<
    k``)."""
    big = 0
    for k in range(20):
        if counts[k] > 2:
            big |= 1 << k
    return big


def spread_may_split(tables: BlockTables, counts: list[int], ca: int, cb: int, kings: int,
                     big: int, whole: bool = False) -> bool:
    """:func:`may_split` of the pool ``counts`` (20 counts, changed while it runs and given
    back as they were) whose block contents are ``ca``, ``cb`` with the kinds ``big`` (bits,
    :func:`over`: those held three times or more) at 0. The lowest of them is first taken
    down by a triple of it with a 王, or with ``whole`` (``win.split_kan``: a 坎 lies whole
    or spread) by a triple of three real copies, or by each meld holding it (its other cards
    from the pool, real first, or stood in for by 王; copies being alike, a real copy of the
    kind first); then :func:`_wild`."""
    if not big:
        if not kings:  # (:func:`_wild` without 王: the masks)
            return bool(tables.ma[ca] & tables.mb[cb])
        return _wild(tables, counts, ca, cb, kings, 0)
    k = (big & -big).bit_length() - 1
    bit = 1 << k
    c = counts[k]
    da, db = DIGITS[k]
    # a triple of the kind: three real copies (a 坎 kept whole), or two and a 王 (without
    # ``whole`` the pool holds no triple of real copies: the 碰 is a placement of its own)
    for taken, need in ((3, 0), (2, 1)):
        if need > kings or (not need and not whole):
            continue
        left = c - taken
        counts[k] = left
        try:
            if left > 2:
                hit = spread_may_split(tables, counts, ca, cb, kings - need, big, whole)
            else:
                hit = spread_may_split(tables, counts, ca + left * da, cb + left * db,
                                       kings - need, big ^ bit, whole)
        finally:
            counts[k] = c
        if hit:
            return True
    pair_free = tables.without_pairs() is tables
    counts[k] = c - 1  # one real copy of the kind in each meld tried
    try:
        for jiang, others in _HOLD[k]:
            if jiang and pair_free:
                continue
            left_kings = kings
            for j, n, _, _ in others:  # the 王 standing for the cards the pool lacks
                if counts[j] < n:
                    left_kings -= n - counts[j]
            if left_kings < 0:
                continue
            a, b, rest = ca, cb, big
            took: list[tuple[int, int]] = []
            for j, n, ja, jb in others:  # the meld's other cards: real first
                have = counts[j]
                if have < n:
                    n = have
                if n:
                    took.append((j, have))
                    counts[j] = have - n
                    if j != k:  # (the kind's own contents are set below)
                        if have < 3:
                            a -= n * ja
                            b -= n * jb
                        elif have - n < 3:  # out of the contents until now
                            a += (have - n) * ja
                            b += (have - n) * jb
                            rest ^= 1 << j
            left = counts[k]
            if left > 2:
                hit = spread_may_split(tables, counts, a, b, left_kings, rest, whole)
            else:
                hit = spread_may_split(tables, counts, a + left * da, b + left * db,
                                       left_kings, rest ^ bit, whole)
            for j, have in reversed(took):
                counts[j] = have
            if hit:
                return True
    finally:
        counts[k] = c
    return False


def _wild(tables: BlockTables, counts: list[int], ca: int, cb: int, kings: int, low: int
          ) -> bool:
    """:func:`may_split` of a pool of counts within 2 (block contents ``ca``, ``cb``): the
    masks with the 王 as wildcards (:meth:`~zipai_rules.blocks.BlockTables.wild_splits`),
    else, for each kind that the 王 could make three or more, a 王 standing for it in each
    meld holding it taken out (its other cards from the pool, real first, or other 王). The
    kinds are tried from ``low`` up: the lowest such kind of a split first, so that the rest
    of it has none below (its counts are the split's, less the meld's)."""
    if tables.wild_splits(ca, cb, kings):
        return True
    if not kings:
        return False
    memo = tables.kings_memo
    key = (ca, cb, kings * 32 + low)
    found = memo.get(key)
    if found is not None:
        return found
    found = False
    pair_free = tables.without_pairs() is tables
    ma, mb = tables.ma, tables.mb
    for k in range(low, 20):  # the lowest kind held three times with a copy out of a triple
        if counts[k] + kings < 3:
            continue
        for jiang, others in _HOLD[k]:
            if jiang and pair_free:
                continue
            left = kings - 1  # the 王 standing for one copy of the kind
            a, b = ca, cb
            for j, n, da, db in others:  # the meld's other cards: real first
                have = counts[j]
                if have < n:
                    left -= n - have
                    n = have
                a -= n * da
                b -= n * db
            if left < 0:
                continue
            if not left:
                if ma[a] & mb[b]:
                    found = True
                    break
                continue
            taken = [(j, min(n, counts[j])) for j, n, _, _ in others]
            for j, r in taken:
                counts[j] -= r
            try:
                hit = _wild(tables, counts, a, b, left, k)
            finally:
                for j, r in taken:
                    counts[j] += r
            if hit:
                found = True
                break
        if found:
            break
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = found
    return found


def may_win(plain: BlockTables, quad: BlockTables, hand: Sequence[int], card: int,
            source: str | None, onto: bool = True) -> bool:
    """The quick refusal's maybe (:func:`~zipai_rules.analysis.surely_no_win`) for a hand
    holding 王 and an incoming ``card``: whether some pool the win check may search may split
    (:func:`may_split`). The card's count in the pool is one more than held (in the hand), as
    held (onto a table meld, where ``onto``), two or three fewer (its 碰/偎 or 提/跑), the held
    count each time being that before the card (and after one's own draw joined the hand, when
    it is there): every placement the win check gives. Each placement reads the masks of
    ``quad`` where it makes a 提/跑, else of ``plain``. ``False`` is sure: the win check then
    searches nothing."""
    kings = hand[KING]
    held = hand[card]
    pool = [n if n < 3 else 0 for n in hand[:20]]  # every 坎 locked
    own = source == _SOURCE_SELF
    for n in (held + 1, held, held - 2, held - 3):
        if n < 0 or (n == 4 and own) or (n == held and not onto):
            continue  # one's own fourth copy is always its 提 (the pool holds 0 or 1 then)
        tables = quad if n == held or n == held - 3 else plain
        start = n if own and n > held else held  # one's own draw joins the hand
        pool[card] = n - 3 if n >= 3 and start == 3 else n
        if may_split(tables, pool, kings):
            return True
    return False


def plain_may_split(tables: BlockTables, counts: Sequence[int]) -> bool:
    """:func:`may_split` with no 王, from the block masks at once where every count is
    within 2."""
    data = bytes(counts[:20])
    if data.translate(None, _COVERED):
        return may_split(tables, counts, 0)
    ca, cb = contents_of(data)
    return bool(tables.ma[ca] & tables.mb[cb])
