"""The 王 over the block tables: which identities a hand's 王 may take, and whether a pool may
split once 王 join it, so that the win check (:func:`zipai_rules.analysis.win_verdict`)
searches only the pools that may split.

A 王 stands for any card ("王霸可以代替任何牌进行游戏", ``000_cdb63c032605c9a1.txt
§永州双王扯胡子规则``). Added to a block content as a *wildcard*, it raises a count 0 to 1 or 1 to
2, or makes a count of 2 a 坎 taken out (0): :meth:`~zipai_rules.blocks.BlockTables.wild_mask`
gives the boundary states a block may then reach, a superset of what the 王 can make of it, so
that a mask of 0 is a sure refusal. The identities themselves are walked in the order of
``itertools.combinations_with_replacement(range(20), kings)`` (:func:`substitutions`), each
node tested with the 王 left as wildcards; the ones kept are exactly those whose pool passes
the last 王's test (``tests/test_king_walk.py`` checks this against a plain enumeration).
Nothing here reads a variant: the win check hands over its block tables (those of splits with
any number of 将, or without a 将: :meth:`~zipai_rules.blocks.BlockTables.without_pairs`).
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Sequence

from .blocks import BlockTables, contents_of, meld_types
from .cards import KING
from .vocab import Source


def may_win(plain: BlockTables, quad: BlockTables, hand: Sequence[int], card: int,
            source: str | None, onto: bool = True) -> bool:
    """The quick refusal's maybe (:func:`~zipai_rules.analysis.surely_no_win`) for a hand
    holding 王: whether some pool the win check may search passes the first 王 test of
    :func:`substitutions`. The card's count in the pool is one more than held (in the hand),
    as held (onto a table meld, where ``onto``), two or three fewer (its 碰/偎 or 提/跑), the
    held count each time being that before the card (and after one's own draw joined the
    hand, when it is there): every placement the win check gives. Each placement reads the
    masks of ``quad`` where it makes a 提/跑, else of ``plain``. ``False`` is sure: the win
    check then searches nothing."""
    kings = hand[KING]
    held = hand[card]
    pool = list(hand[:20])
    pool[card] = 0
    rest = bytes(pool).replace(b"\x03", b"\x00")  # every 坎 locked
    if rest.translate(None, _COVERED):  # a count above 3, which no table covers
        locked, ca, cb, over = kings_pool(pool, pool)
    else:
        locked = list(rest)
        ca, cb = contents_of(rest)
        over = 0
    own = source == Source.SELF
    d = DIGIT[card]
    for n in (held + 1, held, held - 2, held - 3):
        if n < 0 or (n == 4 and own) or (n == held and not onto):
            continue  # one's own fourth copy is always its 提 (the pool holds 0 or 1 then)
        tables = quad if n == held or n == held - 3 else plain
        start = n if own and n > held else held  # one's own draw joins the hand
        m = n - 3 if n >= 3 and start == 3 else n
        pool[card] = n
        locked[card] = m
        if m > 2:
            a, b, o = ca, cb, over + 1
        elif card % 10 < 5:
            a, b, o = ca + m * d, cb, over
        else:
            a, b, o = ca, cb + m * d, over
        if not o:  # the wildcard masks first, as kings_may_split tries them
            if tables.wild_splits(a, b, kings):
                return True
            if n <= start or n + kings < 3:
                continue  # no free card to make three
        if kings_may_split(tables, pool, locked, card, n > start, kings, a, b, o):
            return True
    return False


def substitutions(tables: BlockTables, pool: list[int], hand: list[int], kings: int,
                  card: int | None) -> list[tuple[int, ...]]:
    """The identities the ``kings`` 王 may take (each a sorted tuple of card indices, in the
    order of ``itertools.combinations_with_replacement(range(20), kings)``), leaving out only
    those under which the concealed ``pool`` (``hand``: its counts before any 坎 is locked)
    surely has no split (:func:`pool_may_split`): the pools the win check goes on to search.

    The identities are walked in that order, each node (the 王 placed so far) tested with the
    rest as wildcards (:func:`kings_may_split`), and each full choice by that test with no
    王 left (the last 王's test). Where the pool's counts stay within 2, the last two 王 (or
    the last one) are tested for every pair (or kind) above the kind last placed at once, on
    the block masks (:class:`_Steps`, :func:`_two_more`, :meth:`BlockTables.one_more`); where
    the free incoming card is three, on the melds holding it (:func:`_three_last`). The kind
    last placed (its counts changed) and the free card (a 王 may make it three) are tested
    one by one. A full choice passing its test passes every node's test above it, so the
    identities are those passing the last 王's test, whichever way they are found."""
    if not kings:
        return [()] if pool_may_split(tables, pool, hand, card) else []
    out: list[tuple[int, ...]] = []
    chosen: list[int] = []
    locked, ca, cb, over = kings_pool(pool, hand)
    free = card is not None and pool[card] > hand[card]  # the incoming card held free
    fc = card if free and card is not None else -1  # the free card, -1 for none
    may_split = functools.partial(kings_may_split, tables, pool, locked, card, free)
    ma, mb = tables.ma, tables.mb
    wild = tables.wild_splits
    # the first node's test (every 王 a wildcard) refuses most pools at once; two 王 on
    # counts within 2 are all tried at once below instead
    if over or (fc >= 0 and pool[fc] + kings >= 3):
        if not (kings == 2 and not over and pool[fc] < 3) and \
                not may_split(kings, ca, cb, over):
            return out
    elif kings != 2 and not wild(ca, cb, kings):
        return out

    def last(i: int, ca: int, cb: int, over: int) -> bool:
        """Whether the pool of the node (contents ``ca``, ``cb``, ``over``) keeps a maybe once
        its last 王 stands for kind ``i``."""
        p, h = pool[i], hand[i]
        if p > 2 or h > 2:  # a 王 never stands for a fifth copy
            return False
        old = locked[i]
        new, a, b, o = _king_move(i, p, h, old, ca, cb, over)
        if not o:  # the masks decide, unless the free card may be three
            if ma[a] & mb[b]:
                return True
            if fc < 0 or (p + 1 if i == fc else pool[fc]) < 3:
                return False
        pool[i] = p + 1
        hand[i] = h + 1
        locked[i] = new
        try:
            return bool(may_split(0, a, b, o))
        finally:
            pool[i] = p
            hand[i] = h
            locked[i] = old

    if kings == 1:  # one 王: each kind on the masks, the full test where they may not decide
        for i in range(20):
            p, h = pool[i], hand[i]
            if p > 2 or h > 2:  # a 王 never stands for a fifth copy
                continue
            old = locked[i]
            new = p - 2 if p >= 2 and h == 2 else p + 1
            if new <= 2 and not over:
                d = (new - old) * DIGIT[i]
                if (ma[ca + d] & mb[cb] if i % 10 < 5 else ma[ca] & mb[cb + d]):
                    out.append((i,))
                    continue
                if fc < 0 or (p + 1 if i == fc else pool[fc]) < 3:
                    continue
            if last(i, ca, cb, over):
                out.append((i,))
        return out
    st = _Steps(pool, hand, locked, fc)
    steps_a, steps_b, first_a, first_b, raised = st.a, st.b, st.first_a, st.first_b, st.raised

    def walk(low: int, left: int, ca: int, cb: int, over: int) -> None:
        """Every choice below the node of ``left`` 王 still to place, on kinds from ``low``."""
        if left == 1:
            if not over and (fc < 0 or pool[fc] < 3):
                # the counts within 2: the block masks decide, for every kind above ``low``
                hits = tables.one_more(ca, cb, steps_a[first_a[low + 1]:],
                                       steps_b[first_b[low + 1]:])
                if len(hits) > 1:
                    hits.sort()
                if fc > low and last(fc, ca, cb, 0):
                    bisect.insort(hits, fc)
            elif over == 1 and fc >= 0 and locked[fc] == 3 and pool[fc] == 3:
                # the free card three, no 王 may join it: the melds holding it decide
                hits = sorted(_three_last(tables, locked, ca, cb, fc, steps_a[first_a[low + 1]:],
                                          steps_b[first_b[low + 1]:], raised, low))
            else:
                if not may_split(1, ca, cb, over):
                    return
                hits = [i for i in range(low + 1, 20) if last(i, ca, cb, over)]
            if last(low, ca, cb, over):
                hits.insert(0, low)
            for i in hits:
                out.append((*chosen, i))
            return
        if left == 2 and not over and st.doubles and (fc < 0 or pool[fc] < 3):
            # two 王 left, every count within 2: the pairs of kinds above ``low`` at once
            if chosen:  # the node's test (the first node's was made)
                if fc >= 0 and pool[fc] + 2 >= 3:
                    if not may_split(2, ca, cb, 0):
                        return
                elif not wild(ca, cb, 2):
                    return
            child(low, 2, ca, cb, over)
            later = fc > low
            late = None
            if later and pool[fc] == 1:
                # a 王 on the card makes it two: a kind like the others, but second only
                late = (fc, DIGIT[fc], fc % 10 >= 5)
            pairs = _two_more(tables, ca, cb, steps_a[first_a[low + 1]:],
                              steps_b[first_b[low + 1]:], st.twice, late)
            if later and pool[fc] == 2:
                # a 王 on the card makes it three: the melds holding it decide, for the
                # kinds between ``low`` and the card
                d = 2 * DIGIT[fc]
                a, b = (ca - d, cb) if fc % 10 < 5 else (ca, cb - d)
                pairs += [(i, fc) for i in _three_last(
                    tables, locked, a, b, fc, steps_a[first_a[low + 1]:first_a[fc]],
                    steps_b[first_b[low + 1]:first_b[fc]], raised, low, fc)]
            pairs.sort()
            if later:  # the pairs below the card, the card's own, those above it
                cut = bisect.bisect_left(pairs, (fc,))
                out.extend((*chosen, i, j) for i, j in pairs[:cut])
                child(fc, 2, ca, cb, over)
                pairs = pairs[cut:]
            out.extend((*chosen, i, j) for i, j in pairs)
            return
        if over or (fc >= 0 and pool[fc] + left >= 3):
            if not may_split(left, ca, cb, over):
                return
        elif not wild(ca, cb, left):
            return
        for i in range(low, 20):
            child(i, left, ca, cb, over)

    def child(i: int, left: int, ca: int, cb: int, over: int) -> None:
        """The walk below a node once one more of its ``left`` 王 stands for kind ``i``."""
        p, h = pool[i], hand[i]
        if p > 2 or h > 2:  # a 王 never stands for a fifth copy
            return
        old = locked[i]
        new, a, b, o = _king_move(i, p, h, old, ca, cb, over)
        pool[i] = p + 1
        hand[i] = h + 1
        locked[i] = new
        chosen.append(i)
        walk(i, left - 1, a, b, o)
        chosen.pop()
        pool[i] = p
        hand[i] = h
        locked[i] = old

    walk(0, kings, ca, cb, over)
    return out


def _king_move(i: int, p: int, h: int, old: int, ca: int, cb: int, over: int
               ) -> tuple[int, int, int, int]:
    """A 王 standing for kind ``i``, whose pool and hand counts are ``p`` and ``h`` (each
    within 2) and locked count ``old``: the kind's locked count after it (three in the hand
    and the pool lock a 坎: 0), and the block contents and the number of counts above 2 of the
    pool (``ca``, ``cb``, ``over`` before it, as :func:`kings_pool` gives them)."""
    new = p - 2 if p >= 2 and h == 2 else p + 1
    d = DIGIT[i]
    if old > 2:
        over -= 1
    elif i % 10 < 5:
        ca -= old * d
    else:
        cb -= old * d
    if new > 2:
        over += 1
    elif i % 10 < 5:
        ca += new * d
    else:
        cb += new * d
    return new, ca, cb, over


class _Steps:
    """For :func:`substitutions`: what a 王 does to the block contents of a pool, kind
    by kind, as the walk starts (the kinds it has not yet placed a 王 on keep these)."""

    __slots__ = ("a", "b", "first_a", "first_b", "raised", "twice", "doubles")

    def __init__(self, pool: list[int], hand: list[int], locked: list[int], free: int) -> None:
        #: the kinds a 王 may stand for whose locked count stays within 2 (``free``, the
        #: incoming card held free, left out: it may be made three), as ``(kind, change of its
        #: block's content)`` in kind order: those of block A, and those of block B
        a: list[tuple[int, int]] = []
        b: list[tuple[int, int]] = []
        first_a: list[int] = []
        first_b: list[int] = []
        raised = [-1] * 20
        twice: list[int | None] = [None] * 20
        doubles = True
        for i in range(20):
            first_a.append(len(a))
            first_b.append(len(b))
            p, h = pool[i], hand[i]
            if p > 2 or h > 2 or i == free:
                continue
            new = p - 2 if p >= 2 and h == 2 else p + 1
            old = locked[i]
            if new > 2 or old > 2:
                continue
            d = DIGIT[i]
            (a if i % 10 < 5 else b).append((i, (new - old) * d))
            raised[i] = new
            if p < 2 and h < 2:  # a second 王 may join (a count of 3 is never one's)
                two = p - 1 if p >= 1 and h == 1 else p + 2
                if two > 2:
                    doubles = False
                else:
                    twice[i] = (two - old) * d
        first_a.append(len(a))
        first_b.append(len(b))
        #: the kinds a 王 may stand for whose locked count stays within 2 (``free``, the
        #: incoming card held free, left out: it may be made three), as ``(kind, change of its
        #: block's content)`` in kind order: those of block A, and those of block B
        self.a, self.b = a, b
        #: for each kind 0–20, the position in :attr:`a` (:attr:`b`) of the first of that
        #: kind or above
        self.first_a, self.first_b = first_a, first_b
        #: each kind's locked count once a 王 stands for it (-1 where none may)
        self.raised = raised
        #: the change of its block's content once two 王 stand for a kind of :attr:`a` or
        #: :attr:`b` (``None`` where the second may not)
        self.twice = twice
        #: whether a second 王 on any of those kinds keeps its count within 2
        self.doubles = doubles


def _two_more(tables: BlockTables, ca: int, cb: int, steps_a: list[tuple[int, int]],
              steps_b: list[tuple[int, int]], twice: list[int | None],
              late: tuple[int, int, bool] | None) -> list[tuple[int, int]]:
    """For :func:`substitutions`, a node with two 王 left whose counts stay within 2
    (contents ``ca``, ``cb``): the pairs ``(i, j)``, ``i <= j``, of kinds of ``steps_a`` and
    ``steps_b`` (``(kind, change of the content)``; ``twice``: the change of two 王 on one
    kind) whose two 王 leave contents meeting on the block masks, in no order. ``late``:
    ``(kind, change, in block B)`` of a kind that may come second only (the free card, whose
    second 王 would make it three). A block taking both 王 is tried only when the other
    one's mask meets its :meth:`~BlockTables.wild_mask` of two wildcards."""
    ma, mb = tables.ma, tables.mb
    out: list[tuple[int, int]] = []
    la = [(i, ma[ca + d]) for i, d in steps_a]
    lb = [(j, mb[cb + d]) for j, d in steps_b]
    if late is not None:
        k, dk, in_b = late
        lm = mb[cb + dk] if in_b else ma[ca + dk]
        if lm:
            for i, m in (la if in_b else lb):
                if i < k and m & lm:
                    out.append((i, k))
    else:
        k = dk = -1
        in_b = False
    # one 王 in each block
    la = [(i, m) for i, m in la if m]
    lb = [(j, m) for j, m in lb if m]
    if la and lb:
        for i, m in la:
            for j, n in lb:
                if m & n:
                    out.append((i, j) if i < j else (j, i))
    # both in one block, the other one's content as it is
    for steps, c, masks, other, block, mine in (
            (steps_a, ca, ma, mb[cb], 0, late is not None and not in_b),
            (steps_b, cb, mb, ma[ca], 1, late is not None and in_b)):
        if not other or not steps or not tables.wild_mask(block, c, 2) & other:
            continue
        for x, (i, d) in enumerate(steps):
            t = twice[i]
            if t is not None and masks[c + t] & other:
                out.append((i, i))
            e = c + d
            for j, f in steps[x + 1:]:
                if masks[e + f] & other:
                    out.append((i, j))
            if mine and k > i and masks[e + dk] & other:
                out.append((i, k))
    return out


def _three_last(tables: BlockTables, locked: list[int], ca: int, cb: int, card: int,
                steps_a: list[tuple[int, int]], steps_b: list[tuple[int, int]],
                raised: list[int], low: int, high: int = 20) -> set[int]:
    """For :func:`substitutions`, a node with one 王 left whose pool holds a 3 of the
    free ``card`` that no 王 may join (``locked``: the counts, ``ca``/``cb`` the contents of
    the other kinds): the kinds of ``steps_a``/``steps_b`` (:class:`_Steps`, the kinds
    between ``low`` and ``high``; ``raised``: each kind's count once a 王 stands for it) for
    which the last 王 passes :func:`three_may_split` with no 王 left, all at once.

    Each meld holding the card is taken out first: with every other card of it in the pool,
    a kind passes when the contents it leaves meet on the block masks (unless its 王 makes a
    坎 of a pair whose copies the meld needs); with one copy lacking, only that kind may
    stand in for it, and passes when the contents without the meld meet."""
    ma, mb = tables.ma, tables.mb
    hits: set[int] = set()
    for a, b, others in _THREE[card]:
        a += ca
        b += cb
        missing = 0
        lack = need = -1
        for k, n, da, db in others:
            have = locked[k]
            if have < n:  # copies lacking
                missing += n - have
                lack, need = k, n
                n = have
            a -= n * da
            b -= n * db
        if missing == 0:
            found = tables.one_more(a, b, steps_a, steps_b)
            if found:
                for k, n, _, _ in others:
                    if k in found and raised[k] < n:
                        found.remove(k)  # its 坎 took the copies the meld needs
                hits.update(found)
        elif missing == 1 and low < lack < high and raised[lack] >= need and ma[a] & mb[b]:
            hits.add(lack)
    return hits


def kings_pool(pool: list[int], hand: list[int]) -> tuple[list[int], int, int, int]:
    """The count of each kind of the concealed ``pool`` once its 坎 (where ``hand`` holds 3)
    are locked, the block contents of the counts within 2, and how many counts are above 2
    (no table covers those)."""
    locked = [n - 3 if n >= 3 and h == 3 else n for n, h in zip(pool, hand, strict=False)]
    counts = bytes(locked[:20])
    if not counts.translate(None, _COVERED):  # every count within 2: the contents at once
        ca, cb = contents_of(counts)
        return locked, ca, cb, 0
    ca = cb = over = 0
    for i in range(20):
        n = locked[i]
        if n > 2:
            over += 1
        elif i % 10 < 5:
            ca += n * DIGIT[i]
        else:
            cb += n * DIGIT[i]
    return locked, ca, cb, over


def kings_may_split(tables: BlockTables, pool: list[int], locked: list[int], card: int | None,
                     free: bool, left: int, ca: int, cb: int, over: int) -> bool:
    """Whether the pool (``locked`` its counts, ``ca``/``cb``/``over`` as
    :func:`kings_pool` gives them) may split once ``left`` more 王 join it: ``False`` is
    sure. ``free``: the incoming ``card`` is held free (no 坎)."""
    if over:  # three of the free card: a meld holding it goes first
        return three_may_split(tables, locked, ca, cb, over, card, left)
    if tables.wild_splits(ca, cb, left):
        return True
    if free and card is not None and pool[card] + left >= 3:
        # the free card made three by 王 (no 坎): the card's count out of the contents
        d = DIGIT[card] * locked[card]
        if card % 10 < 5:
            return three_may_split(tables, locked, ca - d, cb, 1, card,
                                    left - 3 + pool[card], True)
        return three_may_split(tables, locked, ca, cb - d, 1, card,
                                left - 3 + pool[card], True)
    return False


DIGIT = [3 ** (i % 5 + 5 * (i >= 10)) for i in range(20)]  # a kind's digit in its block

#: for each kind, the melds holding it (the 将 included) as ``(kind, copies)`` pairs
_HOLDING: list[list[tuple[tuple[int, int], ...]]] = [
    [tuple((k, cards.count(k)) for k in sorted(set(cards))) for _, cards in meld_types()
     if c in cards] for c in range(20)]

#: :data:`_HOLDING` as :func:`three_may_split` reads it: for each kind ``c`` and each meld
#: holding it, ``(change of block A's content, change of block B's content, others)`` once the
#: meld is taken out of a 3 of ``c`` (the copies of ``c`` left added to the contents), and
#: ``others`` the meld's other kinds as ``(kind, copies, digit in A, digit in B)``, each digit
#: 0 outside the kind's block
_THREE: list[list[tuple[int, int, tuple[tuple[int, int, int, int], ...]]]] = [
    [((3 - dict(meld)[c]) * DIGIT[c] * (c % 10 < 5),
      (3 - dict(meld)[c]) * DIGIT[c] * (c % 10 >= 5),
      tuple((k, n, DIGIT[k] * (k % 10 < 5), DIGIT[k] * (k % 10 >= 5)) for k, n in meld if k != c))
     for meld in _HOLDING[c]] for c in range(20)]


def three_may_split(tables: BlockTables, locked: list[int], ca: int, cb: int, over: int,
                     card: int | None, kings: int = 0, made: bool = False) -> bool:
    """Whether a pool whose only count above 2 is a 3 of the incoming ``card`` (held free, no
    坎) may split with any number of 将 once ``kings`` more 王 join it: every split has a meld
    holding the card, and the pool less that meld (its cards the pool lacks stood in for by
    王) is one the tables cover, the other 王 added as :meth:`BlockTables.wild_splits` adds
    them. ``locked``: the counts; ``ca`` and ``cb``: the block contents of the kinds other
    than the card; ``made``: the card's 3 is yet to be made by 王 (``locked`` holds less).
    ``False`` is sure, ``True`` a maybe."""
    if over != 1 or card is None or (locked[card] != 3 and not made):
        return True
    ma, mb = tables.ma, tables.mb
    for a, b, others in _THREE[card]:
        a += ca
        b += cb
        missing = 0
        for k, n, da, db in others:
            have = locked[k]
            if have < n:  # the copies lacking, stood in for by 王
                missing += n - have
                n = have
            a -= n * da
            b -= n * db
        if missing == kings:
            if ma[a] & mb[b]:
                return True
        elif missing < kings and tables.wild_splits(a, b, kings - missing):
            return True
    return False


_COVERED = b"\x00\x01\x02"


def pool_may_split(tables: BlockTables, pool: list[int], hand: list[int], card: int | None
                   ) -> bool:
    """Whether the concealed ``pool``, its 坎 locked (a count of 3 where ``hand`` holds 3),
    may split into melds with any number of 将: ``False`` is sure (the block tables' masks),
    ``True`` a maybe. A 3 of the incoming card held free (no 坎) goes to
    :func:`three_may_split`; any other count above 2 is a maybe."""
    counts = bytes(pool[:20])
    if counts.translate(None, _COVERED):
        locked = list(counts)
        over = 0
        for i, n in enumerate(counts):
            if n > 2:
                if hand[i] == 3:
                    n -= 3
                if n > 2:
                    if i != card:
                        return True
                    over += 1
                    n = 0  # out of the block contents, as three_may_split takes them
                locked[i] = n
        ca, cb = contents_of(bytes(locked))
        if over and card is not None:
            locked[card] = 3
            return three_may_split(tables, locked, ca, cb, over, card)
        return bool(tables.ma[ca] & tables.mb[cb])
    ca, cb = contents_of(counts)
    return bool(tables.ma[ca] & tables.mb[cb])
