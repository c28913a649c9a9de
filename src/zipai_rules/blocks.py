"""Block tables: the best 胡息 of a concealed hand by two table reads and a short join.

Once the 坎 are locked, every count of a concealed hand is 0, 1 or 2. The 20 kinds are cut
into two blocks of ten: ranks 1–5 of both colours (block ``A``) and ranks 6–10 (block ``B``).
A 绞 keeps to one rank, so to one block; the only melds crossing the cut are the sequences
starting at rank 4 or 5 and 2-7-10, each of either colour: six meld types, each used 0–2
times, so the *boundary state* has at most 3^6 = 729 values.

For every block content (3^10 = 59,049 per block) a table holds the reachable
``(boundary state, pairs)`` with the most 胡息 of the block's own melds (block ``A`` also
carries the 胡息 of the crossing melds). A hand's best 胡息 with at most ``jiang`` pairs is
then the best sum over the states both blocks reach with the same boundary and together at
most ``jiang`` pairs. The tables are built once per 胡息 table (the meld values of the
variant, :func:`tables_for`) by enumerating every multiset of block melds whose counts stay
within 2.

The search value is the same as the memoised search of :mod:`zipai_rules.analysis` (its
``best(x, jiang)[0]``), which builds the decomposition itself when one is asked for; contents
with a count of 3 (a card onto a pair kept free, a 王's stand-in) are not in the tables:
:meth:`BlockTables.best` takes out, one after the other, each meld holding a card held three
times, and returns :data:`NOT_COVERED` only for a count above 3.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Final

from .melds import Meld, MeldKind

#: the enum members read here, bound once (docs/benchmarks.md, "Enum members bound once")
_MELD_ER_QI_SHI: Final = MeldKind.ER_QI_SHI
_MELD_JIANG: Final = MeldKind.JIANG
_MELD_JIAO: Final = MeldKind.JIAO
_MELD_SHUN: Final = MeldKind.SHUN
_MELD_YI_ER_SAN: Final = MeldKind.YI_ER_SAN

#: the cards of block A and of block B, in the digit order of a content index
BLOCK_A = (0, 1, 2, 3, 4, 10, 11, 12, 13, 14)
BLOCK_B = (5, 6, 7, 8, 9, 15, 16, 17, 18, 19)

_BITS = 3  # the pool layout of zipai_rules.analysis: 3 bits a kind, kind i at bit 3i
N_CONTENTS = 3 ** 10

#: :meth:`BlockTables.best` of a pool the tables do not cover (a count above 2)
NOT_COVERED = -2


def _crossing() -> list[tuple[MeldKind, tuple[int, ...]]]:
    """The six meld types crossing the cut, in boundary-digit order."""
    out: list[tuple[MeldKind, tuple[int, ...]]] = []
    for base in (0, 10):
        out.append((_MELD_SHUN, (base + 3, base + 4, base + 5)))
        out.append((_MELD_SHUN, (base + 4, base + 5, base + 6)))
        out.append((_MELD_ER_QI_SHI, (base + 1, base + 6, base + 9)))
    return out


def _internal(block: tuple[int, ...]) -> list[tuple[MeldKind, tuple[int, ...]]]:
    """The melds lying wholly in ``block`` (the 将 apart)."""
    out: list[tuple[MeldKind, tuple[int, ...]]] = []
    inside = set(block)
    for i in block:
        r = i % 10 + 1
        if r <= 8 and {i + 1, i + 2} <= inside:
            out.append((_MELD_YI_ER_SAN if r == 1 else _MELD_SHUN, (i, i + 1, i + 2)))
        if i < 10:
            out.append((_MELD_JIAO, (i, i, i + 10)))
            out.append((_MELD_JIAO, (i, i + 10, i + 10)))
    return out


def meld_types() -> list[tuple[MeldKind, tuple[int, ...]]]:
    """Every meld type the tables use, the 将 last: what :func:`huxi_key` values."""
    pairs = [(_MELD_JIANG, (i, i)) for i in range(20)]
    return _internal(BLOCK_A) + _internal(BLOCK_B) + _crossing() + pairs


def huxi_key(meld_huxi: Callable[[Meld], int]) -> tuple[int, ...]:
    """The 胡息 of every meld type (:func:`meld_types`): the tables depend on nothing else."""
    return tuple(meld_huxi(Meld(k, cs)) for k, cs in meld_types())


#: the attributes of :class:`BlockTables` (read from here: a class compiled by mypyc has no
#: ``__slots__`` to read back)
_SLOTS = ("a", "b", "ma", "mb", "pair_huxi", "digits", "melds_with", "wild", "_no_pairs",
          "_pair_free", "_one", "kings_memo")


class BlockTables:
    """The two block tables for one 胡息 table (``values``: :func:`huxi_key`)."""

    __slots__ = _SLOTS

    def __init__(self, values: Sequence[int]) -> None:
        value = dict(zip(meld_types(), values, strict=True))
        cross = _crossing()
        # every table is kept as a tuple: a tuple holding no container the collector follows
        # is left out of its passes, so a full collection no longer walks some 400,000
        # entries of lists (about 27 M instructions a pass)
        a, a0 = self._build(BLOCK_A, value, [(t, value[t], 3 ** d) for d, t in enumerate(cross)])
        b, b0 = self._build(BLOCK_B, value, [(t, 0, 3 ** d) for d, t in enumerate(cross)])
        self.a: tuple[dict[int, int] | None, ...] = tuple(a)
        self.b: tuple[dict[int, int] | None, ...] = tuple(b)
        self.pair_huxi = [value[(_MELD_JIANG, (i, i))] for i in range(20)]
        # for a count of 3: every meld holding the card, as (pool delta, 胡息, pairs)
        self.melds_with: list[list[tuple[int, int, int]]] = [[] for _ in range(20)]
        for (kind, cards), h in value.items():
            delta = sum(1 << (_BITS * c) for c in cards)
            for c in set(cards):
                self.melds_with[c].append((delta, h, 1 if kind == _MELD_JIANG else 0))
        # content -> the boundary states it reaches with any number of 将, as a bit mask
        self.ma: tuple[int, ...] = tuple(self._any_pairs(a0))
        self.mb: tuple[int, ...] = tuple(self._any_pairs(b0))
        self._pair_free = (tuple(a0), tuple(b0))
        # five 3-bit pool fields -> their base-3 digits (a field above 2: far out of range)
        field = [c if c <= 2 else 3 ** 12 for c in range(8)]
        digits = field
        for d in range(1, 5):  # the fields below d, then field d on top of them
            digits = [low + f * 3 ** d for f in field for low in digits]
        self.digits: tuple[int, ...] = tuple(digits)
        # (block, wildcards, content) -> :meth:`wild_mask`, bounded by WILD_LIMIT
        self.wild: dict[int, int] = {}
        #: (content A, content B, 王 * 32 + lowest kind) -> :func:`~zipai_rules.kings.may_split`
        #: of these masks, bounded by :data:`~zipai_rules.kings.MEMO_LIMIT`
        self.kings_memo: dict[tuple[int, int, int], bool] = {}
        self._no_pairs: BlockTables | None = None
        self._one: tuple[tuple[int, ...], tuple[int, ...]] | None = None  # :meth:`one_wild`

    def without_pairs(self) -> BlockTables:
        """These tables seen as for splits with no 将: the same contents' best 胡息
        (:attr:`a`, :attr:`b`), the masks :attr:`ma` and :attr:`mb` (and so the wildcard masks
        built on them, :meth:`wild_mask`) holding only the boundary states of splits without
        a pair; for those mask tests only (:meth:`best` and :meth:`splits` read the masks as
        allowing 将). Made on first use, kept with the tables."""
        view = self._no_pairs
        if view is None:
            view = self._no_pairs = _PairFree(self)
        return view

    @staticmethod
    def _build(block: tuple[int, ...], value: dict[tuple[MeldKind, tuple[int, ...]], int],
               crossing: list[tuple[tuple[MeldKind, tuple[int, ...]], int, int]]
               ) -> tuple[list[dict[int, int] | None], list[int]]:
        """Every multiset of the block's melds (crossing ones by their cards in the block),
        no 将, with counts within 2: content -> {boundary state: best 胡息}, and content -> the
        bit mask of those states."""
        digit = {c: 3 ** k for k, c in enumerate(block)}
        types: list[tuple[int, int, int]] = []  # (content delta, state delta, value)
        for t in _internal(block):
            types.append((sum(digit[c] for c in t[1]), 0, value[t]))
        for (_, cards), h, sd in crossing:
            types.append((sum(digit[c] for c in cards if c in digit), sd, h))
        # the multisets, type by type: (content, state) -> best 胡息; a content digit above 2
        # is caught by the digit sum check (each type adds at most 2 to one digit)
        ds = _digit_sums()
        reach: dict[int, int] = {0: 0}  # content << 10 | state -> best value
        for delta, sd, h in types:
            dd = ds[delta]
            step_key = delta << 10 | sd
            nxt = dict(reach)
            frontier = reach
            for _ in range(2):
                step: dict[int, int] = {}
                for key, hx in frontier.items():
                    c = (key >> 10) + delta
                    if c >= N_CONTENTS or ds[c] != ds[key >> 10] + dd:
                        continue
                    k = key + step_key
                    v = hx + h
                    if step.get(k, -99) < v:
                        step[k] = v
                for k, v in step.items():
                    if nxt.get(k, -99) < v:
                        nxt[k] = v
                frontier = step
            reach = nxt
        table: list[dict[int, int] | None] = [None] * N_CONTENTS
        masks = [0] * N_CONTENTS
        for key, hx in reach.items():
            c = key >> 10
            entry = table[c]
            if entry is None:
                table[c] = {key & 1023: hx}
            else:
                entry[key & 1023] = hx
            masks[c] |= 1 << (key & 1023)
        return table, masks

    @staticmethod
    def _any_pairs(pair_free: list[int]) -> list[int]:
        """For each content, the bit mask of the boundary states some split of it with any
        number of 将 reaches: the pair-free states (``pair_free``: per content) of every
        content left when a set of its kinds held twice is taken out as 将 (one kind at a
        time, every subset in the end)."""
        masks = list(pair_free)
        for k in range(10):
            unit = 3 ** k
            period = 3 * unit
            if unit <= N_CONTENTS // period:  # few offsets: a stride slice per offset
                for j in range(unit):  # the contents whose digit k is 2, from those with 0
                    twos = slice(2 * unit + j, N_CONTENTS, period)
                    zeros = masks[j::period]
                    masks[twos] = [m | z for m, z in zip(masks[twos], zeros, strict=False)]
            else:  # few runs: a slice per run of contents whose digit k is 2
                for top in range(0, N_CONTENTS, period):
                    lo = top + 2 * unit
                    masks[lo:lo + unit] = [m | z for m, z in zip(
                        masks[lo:lo + unit], masks[top:top + unit], strict=True)]
        return masks

    def best0(self, ca: int, cb: int) -> int:
        """The most 胡息 of the block contents ``ca`` and ``cb`` with no 将, or -1."""
        za, zb = self.a[ca], self.b[cb]
        if za is None or zb is None:
            return -1
        res = -1
        for s, h in za.items():
            hb = zb.get(s)
            if hb is not None and h + hb > res:
                res = h + hb
        return res

    def best(self, x: int, jiang: int) -> int:
        """The most 胡息 of a pool ``x`` (the layout of :func:`zipai_rules.analysis.encode`)
        split wholly into melds with at most ``jiang`` pairs; -1 if it has no such split,
        :data:`NOT_COVERED` if a count is above 3."""
        d = self.digits
        ca = d[x & 0x7FFF] + 243 * d[(x >> 30) & 0x7FFF]
        cb = d[(x >> 15) & 0x7FFF] + 243 * d[(x >> 45) & 0x7FFF]
        if ca >= N_CONTENTS or cb >= N_CONTENTS:
            return self._beyond(x, jiang)
        za, zb = self.a[ca], self.b[cb]
        res = -1
        if za is not None and zb is not None:
            for s, h in za.items():
                hb = zb.get(s)
                if hb is not None and h + hb > res:
                    res = h + hb
        if not jiang:
            return res
        if res < 0 and not self.splits(x, ca, cb, jiang):
            return -1
        # each 将 takes both copies of a kind held twice: try every set of them, at most
        # ``jiang``, that leaves a multiple of three cards
        twos = [i for i in range(20) if (x >> (_BITS * i)) & 7 == 2]
        size = sum((x >> (_BITS * i)) & 7 for i in range(20))
        for n in range(1, min(jiang, len(twos)) + 1):
            if (size - 2 * n) % 3:
                continue
            for chosen in itertools.combinations(twos, n):
                a, b, h = ca, cb, 0
                for i in chosen:
                    h += self.pair_huxi[i]
                    if i % 10 < 5:
                        a -= 2 * _DIGIT[i]
                    else:
                        b -= 2 * _DIGIT[i]
                got = self.best0(a, b)
                if got >= 0 and got + h > res:
                    res = got + h
        return res

    def best_counts(self, counts: bytes, jiang: int) -> int:
        """:meth:`best` of the pool of the 20 ``counts`` (0–3 each)."""
        if jiang or 3 in counts:
            return self.best(encode(counts), jiang)
        f = _FIVE
        return self.best0(f[counts[0:5]] + 243 * f[counts[10:15]],
                          f[counts[5:10]] + 243 * f[counts[15:20]])

    def _beyond(self, x: int, jiang: int) -> int:
        """:meth:`best` of a pool holding a kind three times (which no table covers): some
        meld holds that card in every split, so the best over each such meld taken out
        first. :data:`NOT_COVERED` for a count above 3."""
        if x & _GUARD:
            return NOT_COVERED  # a count of 4 or more
        i = next(k for k in range(20) if (x >> (_BITS * k)) & 7 == 3)
        res = -1
        for delta, h, pair in self.melds_with[i]:
            if pair > jiang:
                continue
            y = (x | _GUARD) - delta
            if y & _GUARD != _GUARD:
                continue  # a card of the meld is missing
            got = self.best(y ^ _GUARD, jiang - pair)
            if got == NOT_COVERED:
                return NOT_COVERED
            if got >= 0 and got + h > res:
                res = got + h
        return res

    def one_wild(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """:meth:`wild_mask` of one wildcard for every content of block A and of block B,
        worked out for all contents at once on first use (about 0.1 s) and kept: for each
        digit, the masks of the contents one wildcard on that digit reaches (a rotation of
        the digit's three values, 0 → 1 → 2 → 0), or-ed together."""
        if self._one is None:
            self._one = (_one_wild(self.ma), _one_wild(self.mb))
        return self._one

    def wild_mask(self, block: int, c: int, w: int) -> int:
        """The boundary states (a bit mask, as :attr:`ma`) that block ``block`` (0: A, 1: B)
        of content ``c`` reaches, with any number of 将, once ``w`` wildcards (王) are added
        to it one at a time: each raises a count 0 to 1 or 1 to 2, or makes a count of 2 a
        坎 taken out (0). A superset of what the 王 can make of the block: a mask of 0 means
        that no way of adding them splits it."""
        masks = self.mb if block else self.ma
        if not w:
            return masks[c]
        if w == 1:
            return self.one_wild()[block][c]
        key = (c * 64 + w) * 2 + block
        found = self.wild.get(key)
        if found is not None:
            return found
        out = 0
        lo, hi = c % 243, c // 243
        steps = _ONE[lo] + _ONE_HIGH[hi]
        if w == 2:  # one wildcard more on the contents one wildcard reaches
            one = self.one_wild()[block]
            for d in steps:
                out |= one[c + d]
        else:
            for unit in _UNITS:
                d = c // unit % 3
                out |= self.wild_mask(block, c - 2 * unit if d == 2 else c + unit, w - 1)
        if len(self.wild) >= WILD_LIMIT:
            self.wild.clear()
        self.wild[key] = out
        return out

    def wild_splits(self, ca: int, cb: int, w: int) -> bool:
        """Whether some way of adding ``w`` wildcards to the block contents ``ca`` and ``cb``
        (:meth:`wild_mask`) may split the pool: ``False`` is sure, ``True`` a maybe."""
        if not w:
            return bool(self.ma[ca] & self.mb[cb])
        if w == 1:
            one_a, one_b = self.one_wild()
            return bool(one_a[ca] & self.mb[cb] or self.ma[ca] & one_b[cb])
        get = self.wild.get
        mask = self.wild_mask
        for wa in range(w + 1):
            ka = get((ca * 64 + wa) * 2) if wa else self.ma[ca]
            if ka is None:
                ka = mask(0, ca, wa)
            if ka:
                wb = w - wa
                kb = get((cb * 64 + wb) * 2 + 1) if wb else self.mb[cb]
                if kb is None:
                    kb = mask(1, cb, wb)
                if ka & kb:
                    return True
        return False

    def contents(self, x: int) -> tuple[int, int]:
        """The content indices of blocks A and B of pool ``x`` (``N_CONTENTS`` or more for a
        block holding a count above 2)."""
        d = self.digits
        return (d[x & 0x7FFF] + 243 * d[(x >> 30) & 0x7FFF],
                d[(x >> 15) & 0x7FFF] + 243 * d[(x >> 45) & 0x7FFF])

    def splits(self, x: int, ca: int, cb: int, jiang: int) -> bool:
        """Whether pool ``x``, of block contents ``ca`` and ``cb`` (:meth:`contents`), splits
        wholly into melds with at most ``jiang`` pairs. Each block is tried with every set of
        its kinds held twice taken out as 将, keeping the fewest 将 per boundary state."""
        if not self.ma[ca] & self.mb[cb]:
            return False  # no split at all, whatever the 将
        fewest: list[dict[int, int]] = []
        for block, c, table in ((BLOCK_A, ca, self.a), (BLOCK_B, cb, self.b)):
            subsets = [(c, 0)]  # (content left, pairs taken), fewest pairs first per content
            for i in block:
                if (x >> (_BITS * i)) & 7 == 2:
                    off = _DIGIT2[i]
                    subsets += [(r - off, n + 1) for r, n in subsets if n < jiang]
            seen: dict[int, int] = {}
            for r, n in subsets:
                t = table[r]
                if t is not None:
                    for s in t:
                        if seen.get(s, 99) > n:
                            seen[s] = n
            if not seen:
                return False
            fewest.append(seen)
        a, b = fewest
        return any(s in b and n + b[s] <= jiang for s, n in a.items())

    def has_split(self, x: int, jiang: int) -> bool:
        """Whether pool ``x`` (counts within 2) splits wholly into melds with at most ``jiang``
        pairs; :meth:`best` gives its 胡息."""
        ca, cb = self.contents(x)
        if ca >= N_CONTENTS or cb >= N_CONTENTS:
            raise ValueError("a count above 2 is not in the block tables")
        return self.splits(x, ca, cb, jiang)


class _PairFree(BlockTables):
    """:meth:`BlockTables.without_pairs`: the tables' own values, the masks without 将. Built
    from the tables, not from the 胡息 (a class compiled by mypyc cannot be made without
    running its ``__init__``)."""

    __slots__ = ()

    def __init__(self, tables: BlockTables) -> None:  # the tables' values, not built again
        for name in _SLOTS:
            setattr(self, name, getattr(tables, name))
        self.ma, self.mb = tables._pair_free
        self.wild = {}
        self.kings_memo = {}
        self._one = None
        self._no_pairs = self


def _one_wild(masks: tuple[int, ...]) -> tuple[int, ...]:
    """For each content, the or of ``masks`` over the contents one wildcard reaches from it
    (:meth:`BlockTables.wild_mask` of one): for each digit ``k`` the contents with that digit
    turned 0 → 1, 1 → 2 or 2 → 0, a rotation within each run of ``3 ** (k + 1)`` contents."""
    n = N_CONTENTS
    turned = []
    for k in range(10):
        unit = 3 ** k
        period = 3 * unit
        r = [0] * n
        if unit <= n // period:  # few offsets: a stride slice per offset and digit value
            for j in range(unit):
                r[j::period] = masks[j + unit::period]
                r[j + unit::period] = masks[j + 2 * unit::period]
                r[j + 2 * unit::period] = masks[j::period]
        else:  # few runs: a slice per run
            for top in range(0, n, period):
                r[top:top + 2 * unit] = masks[top + unit:top + period]
                r[top + 2 * unit:top + period] = masks[top:top + unit]
        turned.append(r)
    return tuple([m0 | m1 | m2 | m3 | m4 | m5 | m6 | m7 | m8 | m9
                  for m0, m1, m2, m3, m4, m5, m6, m7, m8, m9 in zip(*turned, strict=True)])


def _digit_sums() -> list[int]:
    """The sum of the base-3 digits of every content index: adding a delta keeps every digit
    within 2 exactly when the digit sums add up (each carry would lose 2)."""
    out = [0]
    for _ in range(10):  # n + 3^k j, for the digit j on top of the k lower ones
        out = out + [d + 1 for d in out] + [d + 2 for d in out]
    return out


#: the base-3 digit weight of each card within its block
_DIGIT = [0] * 20
for _k, _c in enumerate(BLOCK_A):
    _DIGIT[_c] = 3 ** _k
for _k, _c in enumerate(BLOCK_B):
    _DIGIT[_c] = 3 ** _k
_DIGIT2 = [2 * d for d in _DIGIT]
_UNITS = tuple(3 ** k for k in range(10))
#: for the five low digits of a content (an index below 243), the change of the content as a
#: wildcard joins each digit (0 -> 1, 1 -> 2, 2 -> 0: a 坎 taken out); ``_ONE_HIGH`` the same
#: for the five high digits
_ONE = [tuple(-2 * u if r // u % 3 == 2 else u for u in _UNITS[:5]) for r in range(243)]
_ONE_HIGH = [tuple(243 * d for d in ds) for ds in _ONE]
#: the most entries of a :attr:`BlockTables.wild` cache before it is emptied
WILD_LIMIT = 100_000
_GUARD = sum(4 << (_BITS * i) for i in range(20))  # bit 2 of every field (counts 0–3)

#: five counts (0–2) as bytes -> their base-3 value, for :func:`contents_of`
_FIVE = {bytes(cs): sum(c * 3 ** k for k, c in enumerate(cs))
         for cs in itertools.product(range(3), repeat=5)}


def encode(counts: Sequence[int]) -> int:
    """The pool of the 20 ``counts``: 3 bits a kind, kind ``i`` at bit ``3i`` (the layout of
    :func:`zipai_rules.analysis.encode`)."""
    x = 0
    for i in range(20):
        x |= counts[i] << (_BITS * i)
    return x


#: :func:`slice_readers`' bit where a slice's 坎 胡息 starts (above every content index)
KAN_SHIFT = 20
#: the content index part of a :func:`slice_readers` sum
CONTENT_MASK = (1 << KAN_SHIFT) - 1


def slice_readers(kan_huxi: Sequence[int]) -> tuple[dict[bytes, int], ...]:
    """Four maps reading a hand's 20 counts (0–3 each) by their slices ``[0:5]``,
    ``[10:15]`` (block A) and ``[5:10]``, ``[15:20]`` (block B): each gives the slice's part of
    its block content index, its 坎 locked (a count of 3 read as 0), plus the 胡息 of those
    坎 (``kan_huxi``: per card kind) shifted by :data:`KAN_SHIFT`. The two reads of a block
    added give ``content | kan_huxi << KAN_SHIFT``; a count above 3 is not a key."""
    out = []
    for start, weight in ((0, 1), (10, 243), (5, 1), (15, 243)):
        read = {}
        for cs in itertools.product(range(4), repeat=5):
            content = sum((c if c < 3 else 0) * 3 ** k for k, c in enumerate(cs)) * weight
            kan = sum(kan_huxi[start + k] for k, c in enumerate(cs) if c == 3)
            read[bytes(cs)] = content | kan << KAN_SHIFT
        out.append(read)
    return tuple(out)


def contents_of(counts: bytes) -> tuple[int, int]:
    """The block content indices of the first 20 ``counts`` (each 0–2; a larger count raises
    ``KeyError``)."""
    f = _FIVE
    return (f[counts[0:5]] + 243 * f[counts[10:15]], f[counts[5:10]] + 243 * f[counts[15:20]])


#: tables per 胡息 table, at most :data:`TABLES_LIMIT` (the oldest dropped first)
_TABLES: dict[tuple[int, ...], BlockTables] = {}
TABLES_LIMIT = 4


def tables_for(meld_huxi: Callable[[Meld], int]) -> BlockTables:
    """The block tables for a variant's meld values (built on first use, then cached by the
    values themselves: variants scoring their melds alike share them)."""
    key = huxi_key(meld_huxi)
    t = _TABLES.get(key)
    if t is None:
        while len(_TABLES) >= TABLES_LIMIT:
            del _TABLES[next(iter(_TABLES))]
        t = _TABLES[key] = BlockTables(key)
    return t
