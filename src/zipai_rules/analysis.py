"""Hand analysis: the best 胡息 decomposition, the win verdict and the waits (听牌).

Input is always the same situation: a variant, a player's table melds, their concealed hand,
and optionally an incoming card with how it arrived:

* ``self``: the player's own draw from the wall (自摸);
* ``draw``: another player's draw from the wall, shown to all;
* ``discard``: another player's discard.

Rules applied (digest §1.2, §1.5; each also cited where it is coded):

* every 坎 (three identical concealed cards) stays whole ("一坎牌不能拆散与其他牌组合",
  ``000_cdb63c032605c9a1.txt §永州双王扯胡子规则``), unless ``win.split_kan`` (郴州): then
  the hand wins if any split of all its cards does, each 坎 one group or spread over others
  (Riversteel6/Aizipai ``chenzhou_zipai_ai/engine/hu_checker.py`` ``_solve_grouping_counts``);
  one's own draw kept under ``claims.own_draw: kept`` never locks a 坎 with a pair: the three
  may be one group or spread ([cz-Sim] ``_continue_play``, the win checked before the 偎);
* a 将 only with a 提 or 跑, and then at least one and at most ``max_jiang`` ("当有跑牌或提牌后，
  必须有且只能有一对牌做为一方门子", ``003_5cd7634dfd57d897.txt``);
* an incoming card onto a concealed pair is a 碰 (scored as a 坎 under ``huxi.won_triple:
  kan``) when it comes from another player and a forced 偎 when self-drawn; onto a 坎 or 偎 it
  makes 提 (own draw; 跑 onto a 偎 under ``claims.own_draw_on_wei: pao``) or 跑 (another's
  card, where the variant allows); onto a 碰 it makes 跑 for the sources in
  ``claims.pao_on_peng``; one's own draw kept under ``claims.own_draw: kept`` may also lie
  free in the hand; with 破跑胡
  (``claims.po_pao_hu``) a card that would make a 跑 may instead be used elsewhere to win;
* the best decomposition maximises total 胡息 (table plus hand); ties keep the first found;
  where the variant's scoring may pay a split of fewer 胡息 more (:mod:`zipai_rules.worth`:
  衡阳 10 胡 counted as 15, 耒阳's 卡胡 table), a win is taken with the split paid most
  ("一张牌有几种胡法时，按分数最高的那条走", ``duanly/hzy`` ``docs/RULES.md`` 违规罚分).

:func:`win_verdict` is the one decision whether a player may win: the engine's claim options,
:func:`analyze` and :func:`waits` all call it. A non-winning hand is a result with a stable
``reason`` code, never an exception: ``king_not_claimable``, ``self_win_not_allowed``,
``draw_win_not_allowed``, ``discard_win_not_allowed``, ``chou_hu``, ``incomplete``,
``jiang_not_allowed``, ``below_min_huxi``. A situation no game reaches (a card count a player
never holds) is an error (:func:`check_count`).
"""

from __future__ import annotations

import functools
import operator
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from .blocks import (
    CONTENT_MASK,
    KAN_SHIFT,
    N_CONTENTS,
    NOT_COVERED,
    BlockTables,
    meld_types,
    slice_readers,
    tables_for,
)
from .blocks import encode as encode  # the search pool layout, re-exported
from .cards import (
    KING,
    N_KINDS,
    Card,
    card_index,
    cards_arg,
    check_copies,
    counts_of,
    format_cards,
    indices_of,
    parse_indices,
    token,
)
from .errors import HandError, MeldError
from .kings import DIGIT as _DIGIT
from .kings import DIGITS as _DIGITS
from .kings import may_split as _kings_may_split
from .kings import may_win as _kings_may_win
from .kings import over as _over
from .kings import plain_may_split as _plain_may_split
from .kings import spread_may_split as _spread_may_split
from .melds import QUADS, Meld, MeldKind, parse_meld, stand_in_text
from .special import fixed_value_win, special_win
from .variant import Variant, VariantLike, as_variant
from .vocab import Reason, Source
from .worth import (
    BY_HUXI,
    ON_HUXI,
    Occasion,
    card_facts,
    choose,
    default_occasion,
    most_huxi_pays_most,
    reading,
    worth_at,
)

#: the enum members read here, bound once (docs/benchmarks.md, "Enum members bound once")
_MELD_CHOU_WEI: Final = MeldKind.CHOU_WEI
_MELD_ER_QI_SHI: Final = MeldKind.ER_QI_SHI
_MELD_JIANG: Final = MeldKind.JIANG
_MELD_JIAO: Final = MeldKind.JIAO
_MELD_KAN: Final = MeldKind.KAN
_MELD_PAO: Final = MeldKind.PAO
_MELD_PENG: Final = MeldKind.PENG
_MELD_SHUN: Final = MeldKind.SHUN
_MELD_TI: Final = MeldKind.TI
_MELD_WEI: Final = MeldKind.WEI
_MELD_YI_ER_SAN: Final = MeldKind.YI_ER_SAN
_REASON_BELOW_MIN_HUXI: Final = Reason.BELOW_MIN_HUXI
_REASON_CHOU_HU: Final = Reason.CHOU_HU
_REASON_DEALT_HAND: Final = Reason.DEALT_HAND
_REASON_INCOMPLETE: Final = Reason.INCOMPLETE
_REASON_JIANG_NOT_ALLOWED: Final = Reason.JIANG_NOT_ALLOWED
_REASON_KING_NOT_CLAIMABLE: Final = Reason.KING_NOT_CLAIMABLE
_SOURCE_DISCARD: Final = Source.DISCARD
_SOURCE_DRAW: Final = Source.DRAW
_SOURCE_SELF: Final = Source.SELF

if TYPE_CHECKING:
    from .drawing import AnalysisPicture

SOURCES = tuple(s.value for s in Source)


@attrs.frozen(slots=True)
class Group:
    """One meld of a decomposition with its 胡息 and where it lies (``table`` or ``hand``).
    ``kings``: the cards of ``meld.cards`` that a 王 stands in for (card indices, one per 王
    of the group; empty for a group of real cards)."""

    meld: Meld
    huxi: int
    place: str = "hand"
    kings: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{kind, cards, huxi, place}``; for a group using 王, ``kings``: the card each 王
        stands for, e.g. ``"kings": ["x7"]``; for a 比 laid down with a 吃, ``"bi": true``."""
        out: dict[str, Any] = {"kind": self.meld.kind.value,
                               "cards": format_cards(self.meld.cards).split(),
                               "huxi": self.huxi, "place": self.place}
        if self.meld.bi:
            out["bi"] = True
        if self.kings:
            out["kings"] = format_cards(self.kings).split()
        return out

    def describe(self, zh: bool = False) -> str:
        """The cards, each 王 shown with the card it stands for: ``x7 K(x7)``."""
        return stand_in_text(self.meld.cards, self.kings, zh)


@attrs.frozen(slots=True)
class Decomposition:
    """A full split of table plus hand into melds; ``huxi`` is the total in 胡息.
    ``leftover`` holds cards in no meld (only for a 天胡 or special win whose shape is waived);
    ``special`` names the special win (a hook of :mod:`zipai_rules.special`), if any."""

    groups: tuple[Group, ...]
    huxi: int
    leftover: tuple[int, ...] = ()
    special: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{huxi, groups}`` (each group as :meth:`Group.to_json`: ``kind``, ``cards``,
        ``huxi``, ``place`` and, for a group using 王, ``kings``) and, when present,
        ``leftover`` (card tokens) and ``special`` (the special win's name)."""
        out: dict[str, Any] = {"huxi": self.huxi, "groups": [g.to_json() for g in self.groups]}
        if self.leftover:
            out["leftover"] = format_cards(self.leftover).split()
        if self.special:
            out["special"] = self.special
        return out

    def __str__(self) -> str:
        body = " ".join(f"{g.meld}:{g.huxi}" for g in self.groups)
        if self.leftover:
            body += f" leftover({format_cards(self.leftover)})"
        return f"{body} = {self.huxi}"


@attrs.frozen(slots=True, eq=False, repr=False)
class Analysis:
    """The verdict on one situation.

    ``win`` — whether the player may win; ``reason`` — ``None`` for a win, else a stable code
    (:class:`~zipai_rules.vocab.Reason`);
    ``huxi`` — the best total 胡息 (0 when the hand is incomplete); ``best`` — the decomposition
    giving it; ``decompositions`` — all of them when asked for, best first. For a win, ``best``
    is the split the win is taken with, the one paid most (:mod:`zipai_rules.worth`), and
    ``huxi`` its total: the most 胡息 but where the variant pays fewer 胡息 more.

    The verdict comes from the block tables (:mod:`zipai_rules.blocks`); ``best`` is worked
    out on first reading (``lazy``: how), by the same exact search as ever.
    """

    win: bool
    reason: Reason | None
    huxi: int
    _best: Decomposition | None
    decompositions: tuple[Decomposition, ...] = ()
    _lazy: Callable[[], Decomposition] | None = None
    #: where a win's split is chosen by its worth: what :meth:`taken` chooses again from
    _situation: tuple[Any, ...] | None = None

    @property
    def best(self) -> Decomposition | None:
        if self._best is None and self._lazy is not None:
            object.__setattr__(self, "_best", self._lazy())
            object.__setattr__(self, "_lazy", None)
        return self._best

    def taken(self, occasion: Occasion) -> Analysis:
        """This win as it is taken on ``occasion`` (:class:`~zipai_rules.worth.Occasion`:
        the result's labels, the card it names, 海底), which the engine knows when the win
        is taken: the split paid most then (:mod:`zipai_rules.worth`). The same analysis
        where the variant's splits rank by 胡息 (:func:`by_worth`), or for a refusal."""
        if self._situation is None:
            return self
        return _by_worth(*self._situation, occasion=occasion)

    def _key(self) -> tuple[Any, ...]:
        return (self.win, self.reason, self.huxi, self.best, self.decompositions)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Analysis:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Analysis(win={self.win!r}, reason={self.reason!r}, huxi={self.huxi!r}, "
                f"best={self.best!r}, decompositions={self.decompositions!r})")

    def to_json(self) -> dict[str, Any]:
        best = {"groups": []} if self.best is None else self.best.to_json()
        best["huxi"] = self.huxi
        return {"win": self.win, "reason": None if self.reason is None else str(self.reason),
                "huxi": self.huxi, **best}

    def _repr_svg_(self) -> str:
        """The best decomposition, group by group with 胡息 (:mod:`zipai_rules.svg`)."""
        from .drawing import draw_analysis  # the drawing only when drawn (a lower module)
        return draw_analysis(self.picture())

    def picture(self) -> AnalysisPicture:
        """What a picture of this analysis shows (:func:`zipai_rules.drawing.draw_analysis`):
        the verdict, the best decomposition's groups (a card a 王 stands for drawn as the 王)
        and its leftover cards."""
        from .drawing import AnalysisGroup, AnalysisPicture
        best = self.best
        groups = () if best is None else tuple(
            AnalysisGroup(g.meld.kind, g.huxi, g.place, _lying(g), g.kings) for g in best.groups)
        return AnalysisPicture(self.win, self.reason, self.huxi, groups,
                               () if best is None else tuple(best.leftover))


def _lying(group: Group) -> tuple[int, ...]:
    """A group's cards as they lie: each card a 王 stands for drawn as the 王."""
    cards = list(group.meld.physical)
    for c in group.kings:
        if c in cards:
            cards.remove(c)
            cards.append(KING)
    return tuple(cards)


@attrs.frozen(slots=True)
class Wait:
    """An incoming card that would win, and the 胡息 it would give."""

    card: int
    huxi: int

    def __repr__(self) -> str:
        """``Wait(card=d8, huxi=15)``: the card in the game's notation."""
        return f"Wait(card={token(self.card)}, huxi={self.huxi})"

    def to_json(self) -> dict[str, Any]:
        return {"card": token(self.card), "huxi": self.huxi}


# --- the concealed-hand search --------------------------------------------------------------
# A pool of concealed cards is an int with a 3-bit field per kind (kind i at bits 3i, counts
# 0..3). Bit 2 of every field is a guard: with every guard set, subtracting a meld borrows from
# a guard exactly when some count is too small, so one subtraction tests and removes a meld.

_BITS = 3
_FIELD = 7
_GUARD = sum(4 << (_BITS * i) for i in range(20))
_ONES = _GUARD >> 2  # bit 0 of every field: ``x & (x >> 1) & _ONES`` finds a count of 3




def _delta(cards: Sequence[int]) -> int:
    return sum(1 << (_BITS * i) for i in cards)


class _Searcher:
    """Memoised exact search over one variant's 胡息 table (lowest card first)."""

    def __init__(self, variant: Variant) -> None:
        self.cands: list[list[tuple[int, int, Meld]]] = [[] for _ in range(20)]
        self.pairs: list[tuple[int, int, Meld]] = []
        for i in range(20):
            r, big = i % 10 + 1, i >= 10
            shapes: list[tuple[MeldKind, tuple[int, ...]]] = []
            if variant.win.split_kan:  # a three of a kind: one group (first: ties keep it)
                shapes.append((_MELD_KAN, (i, i, i)))
            if r <= 8:
                shapes.append((_MELD_YI_ER_SAN if r == 1 else _MELD_SHUN, (i, i + 1, i + 2)))
            if r == 2:
                shapes.append((_MELD_ER_QI_SHI, (i, i + 5, i + 8)))
            if not big:
                shapes.append((_MELD_JIAO, (i, i, i + 10)))
                shapes.append((_MELD_JIAO, (i, i + 10, i + 10)))
            for kind, cards in shapes:
                meld = Meld(kind, cards)
                self.cands[i].append((_delta(cards), variant.meld_huxi(meld), meld))
            pair = Meld(_MELD_JIANG, (i, i))
            self.pairs.append((_delta(pair.cards), variant.meld_huxi(pair), pair))
        self.memo: dict[int, tuple[int, tuple[Meld, ...], tuple[int, ...]] | None] = {}
        # every meld the search can return, the 将 included (a variant may score a pair)
        self.huxi_of = {m: h for cs in self.cands + [self.pairs] for _, h, m in cs}
        self.tables: BlockTables = tables_for(variant.meld_huxi)
        # for :func:`verdict`'s plain hands: the 坎 values, the 将 allowed with no 提/跑
        self.kan_huxi = [variant.meld_huxi(Meld(_MELD_KAN, (i,) * 3)) for i in range(20)]
        self.readers = slice_readers(self.kan_huxi)
        t = self.tables
        #: what :func:`_joined` reads, at hand: the block tables, their masks with any
        #: number of 将 and with none (:meth:`~zipai_rules.blocks.BlockTables.without_pairs`:
        #: the boundary states a content reaches, so two contents split with no 将 exactly
        #: where their pair-free masks meet)
        free = t.without_pairs()
        self.joins: tuple[tuple[dict[int, int] | None, ...], tuple[dict[int, int] | None, ...],
                          tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]
                          ] = (t.a, t.b, t.ma, t.mb, free.ma, free.mb)
        self.plain_jiang = 0 if variant.win.jiang_requires_quad else variant.win.max_jiang
        self.quad_jiang = variant.win.max_jiang  # with a 提 or 跑
        # a 将 allowed whatever the table holds (:func:`_jiang_views`)
        self.jiang_free = bool(variant.win.max_jiang) and not variant.win.jiang_requires_quad
        self.plain = not variant.win.special
        self.min_huxi = variant.win.min_huxi
        #: a win's worth may prefer a split of fewer 胡息 (:func:`~zipai_rules.worth.reading`)
        self.by_worth = reading(variant) != BY_HUXI
        #: a 坎 may be split at the win: a pool's 3 of a kind is whole or spread (the search's
        #: own 坎 candidates), never locked out of it
        self.split_kan = variant.win.split_kan
        #: the numbers of cards :func:`analyze` reads through :func:`_lean` (those a hand
        #: as it stands may hold with no table melds, :func:`check_count`), ``None`` where
        #: the variant's rules leave that reading nothing to answer alone (special wins, a
        #: 坎 that may be split, a win chosen by its worth, fewer than 3 copies of a card)
        self.lean_sizes: frozenset[int] | None = None
        if self.plain and not self.split_kan and not self.by_worth and \
                variant.deck.copies >= 3:
            self.lean_sizes = frozenset(n for n in range(len(_EXACT_INTS))
                                        if _count_allowed(variant, n))
        #: :func:`_lean_readers`, once read
        self.lean: tuple[list[int | None], ...] | None = None
        self._init_wild(variant)

    def _init_wild(self, variant: Variant) -> None:
        """What :meth:`best_wild` reads: for each card, every meld holding it other than a
        triple, as ``(the meld's other cards as (kind, copies), 胡息, meld)``; the triples a 王
        makes (a 坎, or the won triple where it holds the won card); the best meld of three 王
        and the best 将 of two."""
        self.wild_cands: list[list[tuple[tuple[tuple[int, int], ...], int, Meld]]] = []
        # (a triple of one kind, a candidate under win.split_kan, is the triple move's)
        melds = [m for cs in self.cands for _, _, m in cs if m.kind != _MELD_KAN]
        for c in range(20):
            out = []
            for m in melds:
                if c in m.cards:
                    rest = list(m.cards)
                    rest.remove(c)
                    others = tuple((k, rest.count(k)) for k in sorted(set(rest)))
                    out.append((others, variant.meld_huxi(m), m))
            self.wild_cands.append(out)
        self.kan_melds = [same_meld(_MELD_KAN, i) for i in range(20)]
        #: the most real copies a triple move takes: three where a 坎 may lie whole in the
        #: pool (win.split_kan), else two (three real copies in the pool are no 坎 there)
        self.whole = 3 if variant.win.split_kan else 2
        # the triple holding the won card (not one's own draw) and a 王: a 碰 with a 王 where
        # a 王 may 碰 (deck.king_rules.claims), the concealed triple under won_triple kan
        # (Riversteel6/Aizipai chenzhou_zipai_ai/engine/hu_checker.py concealed_group_xi)
        won_kan = variant.won_triple == "kan"
        self.won_melds: list[Meld] | None = None
        if won_kan or "peng" in variant.deck.king_rules.claims:
            self.won_melds = [same_meld(_MELD_KAN if won_kan else _MELD_PENG, i)
                              for i in range(20)]
        #: the 胡息 of the triples a 王 makes
        self.wild_huxi = {m: variant.meld_huxi(m) for m in self.kan_melds + (self.won_melds or [])}
        # the melds of three 王 and the 将 of two, best first (the first of the best first)
        three = [(variant.meld_huxi(m), m) for m in melds + self.kan_melds]
        self.three_kings = sorted(three, key=lambda hm: -hm[0])
        self.two_kings = sorted(((h, m) for _, h, m in self.pairs), key=lambda hm: -hm[0])
        self.wmemo: dict[tuple[int, int, int, int, bytes], _Wild | None] = {}
        self.vmemo: dict[tuple[int, int, int, int, bytes], int] = {}
        #: hand (21 counts) -> :meth:`read` of it, bounded by :data:`READ_LIMIT`
        self.rmemo: dict[tuple[int, ...], tuple[int, int]] = {}

    def read(self, counts: bytes) -> tuple[int, int]:
        """Blocks A and B of the 20 ``counts`` (0–3 each; a count above 3 raises
        ``KeyError``): each its content index with every 坎 locked, plus the 胡息 of those 坎
        shifted by :data:`~zipai_rules.blocks.KAN_SHIFT`, read from the count slices
        (:func:`~zipai_rules.blocks.slice_readers`)."""
        r0, r1, r2, r3 = self.readers
        s0, s1, s2, s3 = _SLICES(counts)
        return r0[s0] + r1[s1], r2[s2] + r3[s3]

    def read_hand(self, hand: Sequence[int]) -> tuple[int, int]:
        """:meth:`read` of a hand's counts (21, the 王 last), kept per hand: the engine asks
        about one seat's hand for each card offered to it until the hand changes."""
        key = tuple(hand)  # (the hand itself where it is a tuple)
        memo = self.rmemo
        found = memo.get(key)
        if found is None:
            found = self.read(bytes(key))
            if len(memo) >= READ_LIMIT:
                memo.clear()
            memo[key] = found
        return found

    def value(self, x: int, jiang: int) -> int:
        """``best(x, jiang)``'s 胡息, -1 for ``None``: from the block tables, the search
        itself only for a pool they do not cover (a count of 3: an incoming card on a pair
        kept free, a 王's stand-in; under ``win.split_kan`` every 3, which the search may
        keep whole)."""
        if self.split_kan and x & (x >> 1) & _ONES:
            found = self.best(x, jiang)
            return -1 if found is None else found[0]
        h = self.tables.best(x, jiang)
        if h == NOT_COVERED:
            found = self.best(x, jiang)
            return -1 if found is None else found[0]
        return h

    def splits(self, x: int, jiang: int) -> bool:
        """Whether ``best(x, jiang)`` finds a split (the tables answer, as in :meth:`value`)."""
        t = self.tables
        ca, cb = t.contents(x)
        if ca >= N_CONTENTS or cb >= N_CONTENTS:
            if self.split_kan:
                return self.best(x, jiang) is not None
            h = t.best(x, jiang)
            return self.best(x, jiang) is not None if h == NOT_COVERED else h >= 0
        return t.splits(x, ca, cb, jiang)

    def best(self, x: int, jiang: int, partial: bool = False
             ) -> tuple[int, tuple[Meld, ...], tuple[int, ...]] | None:
        """Best ``(huxi, melds, leftover)`` covering pool ``x`` with at most ``jiang`` pairs;
        ``partial`` lets cards stay out of every meld (scoring 0). ``None`` if impossible."""
        if x == 0:
            return _EMPTY
        key = (x << 4) | (jiang << 1) | partial
        memo = self.memo
        found: _Best | None = memo.get(key, _MISSING)
        if found is not _MISSING:
            return found
        low = ((x & -x).bit_length() - 1) // _BITS
        res = None
        res_h = -1
        guarded = x | _GUARD
        best = self.best
        for delta, huxi, meld in self.cands[low]:
            y = guarded - delta
            if y & _GUARD == _GUARD:
                sub = best(y ^ _GUARD, jiang, partial)
                if sub is not None and sub[0] + huxi > res_h:
                    res_h = sub[0] + huxi
                    res = (res_h, (meld,) + sub[1], sub[2])
        if jiang and (x >> (_BITS * low)) & _FIELD >= 2:
            delta, huxi, meld = self.pairs[low]
            sub = best(x - delta, jiang - 1, partial)
            if sub is not None and sub[0] + huxi > res_h:
                res_h = sub[0] + huxi
                res = (res_h, (meld,) + sub[1], sub[2])
        if partial:
            sub = best(x - (1 << (_BITS * low)), jiang, partial)
            if sub is not None and sub[0] > res_h:
                res = (sub[0], sub[1], (low,) + sub[2])
        memo[key] = res
        return res

    def best_wild(self, x: int, kings: int, jiang: int, pend: int = -1,
                  room: bytes = b"") -> _Wild | None:
        """Best ``(huxi, melds, stand_ins)`` covering pool ``x`` (its 坎 out) and ``kings`` 王
        with at most ``jiang`` pairs, or ``None`` (the moves: :meth:`_wild_moves`);
        ``stand_ins`` gives, meld by meld, the cards a 王 stands for in it."""
        if not kings:  # the real cards left: the plain search (no triple without a 王)
            plain = self.best(x, jiang)
            return None if plain is None else (plain[0], plain[1], ((),) * len(plain[1]))
        key = (x, kings, jiang, pend, room)
        memo = self.wmemo
        found: _Wild | None = memo.get(key, _MISSING_WILD)
        if found is not _MISSING_WILD:
            return found
        res: _Wild | None = None
        res_h = -1
        best = self.best_wild
        for meld, stood, h, y, k, j, p, r in self._wild_moves(x, kings, jiang, pend, room):
            sub = best(y, k, j, p, r)
            if sub is not None and sub[0] + h > res_h:
                res_h = sub[0] + h
                res = (res_h, (meld,) + sub[1], (stood,) + sub[2])
        memo[key] = res
        return res

    def wild_value(self, x: int, kings: int, jiang: int, pend: int = -1, room: bytes = b""
                   ) -> int:
        """:meth:`best_wild`'s 胡息, -1 for ``None``: the real cards left once every 王 is
        placed read from the block tables (:meth:`value`)."""
        if not kings:
            return self.value(x, jiang)
        key = (x, kings, jiang, pend, room)
        memo = self.vmemo
        found = memo.get(key)
        if found is not None:
            return found
        res = -1
        value = self.wild_value
        for _, _, h, y, k, j, p, r in self._wild_moves(x, kings, jiang, pend, room):
            sub = value(y, k, j, p, r)
            if sub >= 0 and sub + h > res:
                res = sub + h
        memo[key] = res
        return res

    def all_wild(self, x: int, kings: int, jiang: int, pend: int = -1,
                 room: bytes = b""
                 ) -> Iterator[tuple[tuple[Meld, ...], tuple[tuple[int, ...], ...]]]:
        """Every decomposition :meth:`best_wild` chooses among, as ``(melds, stand_ins)``."""
        if not kings:
            for ms in self.all(x, jiang):
                yield ms, ((),) * len(ms)
            return
        for meld, stood, _, y, k, j, p, r in self._wild_moves(x, kings, jiang, pend, room):
            for ms, st in self.all_wild(y, k, j, p, r):
                yield (meld,) + ms, (stood,) + st

    def _wild_moves(self, x: int, kings: int, jiang: int, pend: int,
                    room: bytes
                    ) -> Iterator[tuple[Meld, tuple[int, ...], int, int, int, int, int,
                                        bytes]]:
        """The melds the lowest card of pool ``x`` may lie in with ``kings`` 王 and at most
        ``jiang`` pairs left, as ``(meld, the cards 王 stand for in it, 胡息, pool, 王, pairs,
        pend and room left)``. Each 王 stands for any card ("王霸可以代替任何牌进行游戏",
        000 §永州双王扯胡子规则), never a fifth copy among the player's own cards: ``room``
        holds for each kind how many more 王 may stand for it (:func:`king_room`; ``b""``:
        any).

        The lowest card lies in any meld holding it, its other cards from the pool (real first:
        copies are alike) or stood in for by 王; in a triple of it with one or two 王 (a 坎:
        digest G14 "K + pair = 坎"; Riversteel6/Aizipai ``concealed_group_xi``); in a 将 of two,
        or of it and a 王. With no card left, three 王 make the best meld of three and two a 将.
        ``pend``: the kind of the won card (another's discard or shown draw) held free in the
        pool while no meld has taken a copy of it: a triple taking the last copies then holds
        it and is the won triple (:attr:`won_melds`), where a 王 may make one."""
        if not x:
            if kings >= 3:
                for h, m in self.three_kings:
                    r = _room_after(room, m.cards)
                    if r is not None:
                        yield m, m.cards, h, 0, kings - 3, jiang, -1, r
                        break
            if jiang and kings >= 2:
                for h, m in self.two_kings:
                    r = _room_after(room, m.cards)
                    if r is not None:
                        yield m, m.cards, h, 0, kings - 2, jiang - 1, -1, r
                        break
            return
        low = ((x & -x).bit_length() - 1) // _BITS
        shift = _BITS * low
        have_low = (x >> shift) & _FIELD
        for others, huxi, meld in self.wild_cands[low]:
            y = x - (1 << shift)
            missing = 0
            stood: tuple[int, ...] = ()
            for k, n in others:
                have = (y >> (_BITS * k)) & _FIELD
                if have < n:
                    missing += n - have
                    stood += (k,) * (n - have)
                    n = have
                y -= n << (_BITS * k)
            if missing > kings:
                continue
            r = _room_after(room, stood)
            if r is None:
                continue
            p = pend
            if p >= 0 and (y >> (_BITS * p)) & _FIELD != (x >> (_BITS * p)) & _FIELD:
                p = -1  # the meld takes a copy of the won card: say, the won card itself
            yield meld, stood, huxi, y, kings - missing, jiang, p, r
        # a triple of the card with one or two 王; under win.split_kan also of three real
        # copies (a 坎 of the pool lying whole)
        for real in ((3, 2) if have_low >= 3 and self.whole == 3 else (min(have_low, 2),)):
            need = 3 - real
            if need > kings:
                continue
            y = x - (real << shift)
            triple: Meld | None = self.kan_melds[low]
            p = pend
            if pend == low and not (y >> shift) & _FIELD:
                # the triple takes the last copies: the won card among them (three real
                # copies then are the 碰 placement's, searched apart)
                triple = None if self.won_melds is None or not need else self.won_melds[low]
                p = -1
            stood = (low,) * need
            r = _room_after(room, stood)
            if triple is not None and r is not None:
                yield triple, stood, self.wild_huxi[triple], y, kings - need, jiang, p, r
        if jiang:  # a 将 of two copies, or of the card and a 王 when it is held once
            _, h, m = self.pairs[low]
            p = -1 if pend == low else pend
            if have_low >= 2:
                yield m, (), h, x - (2 << shift), kings, jiang - 1, p, room
            elif kings:
                r = _room_after(room, (low,))
                if r is not None:
                    yield m, (low,), h, x - (1 << shift), kings - 1, jiang - 1, p, r

    def all(self, x: int, jiang: int) -> Iterator[tuple[Meld, ...]]:
        """Every decomposition of pool ``x`` (as meld tuples), unordered."""
        if x == 0:
            yield ()
            return
        low = ((x & -x).bit_length() - 1) // _BITS
        for delta, _, meld in self.cands[low]:
            y = (x | _GUARD) - delta
            if y & _GUARD == _GUARD:
                for rest in self.all(y ^ _GUARD, jiang):
                    yield (meld,) + rest
        if jiang and (x >> (_BITS * low)) & _FIELD >= 2:
            delta, _, meld = self.pairs[low]
            for rest in self.all(x - delta, jiang - 1):
                yield (meld,) + rest


def _room_after(room: bytes, stood: Sequence[int]) -> bytes | None:
    """``room`` (:meth:`_Searcher._wild_moves`) once 王 stand for the cards ``stood``, or
    ``None`` where one would be a fifth copy."""
    if not room or not stood:
        return room
    left = bytearray(room)
    for k in stood:
        if not left[k]:
            return None
        left[k] -= 1
    return bytes(left)


def king_room(variant: Variant, hand: Sequence[int], table: Sequence[Meld],
              card: int | None, kings: int) -> bytes:
    """For each kind, how many of the ``kings`` 王 may stand for it (a 王 is never a fifth
    copy among the player's own cards: the concealed ``hand``, the incoming ``card``, the
    ``table`` melds), or ``b""`` where any may stand for any kind."""
    own = list(hand[:20])
    if card is not None and card < 20:
        own[card] += 1
    for m in table:
        for i in m.cards:
            own[i] += 1
    room = bytes(min(max(variant.deck.copies - n, 0), kings) for n in own)
    return b"" if min(room) >= kings else room


# The memo's "not found": compared by identity, so typed Any. Typed as the tuple it is, the
# compiled build (mypyc) would hold it as a plain C value, boxed into a new tuple at each use:
# ``found is not _MISSING`` true for the marker itself, an empty split for every pool.
_MISSING: Any = (-1, (), ())
_EMPTY: tuple[int, tuple[Meld, ...], tuple[int, ...]] = (0, (), ())
#: :meth:`_Searcher.best`'s result: ``(huxi, melds, leftover)``
_Best = tuple[int, tuple[Meld, ...], tuple[int, ...]]
#: :meth:`_Searcher.best_wild`'s result: ``(huxi, melds, stand_ins)``
_Wild = tuple[int, tuple[Meld, ...], tuple[tuple[int, ...], ...]]
_MISSING_WILD: Any = (-1, (), ())  # compared by identity: typed Any as _MISSING is

_SEARCHERS: dict[str, _Searcher] = {}

#: Bounds on the analysis caches, so that a long-running host stays flat: a searcher's memo
#: (about 220 bytes an entry) is emptied when it holds more than ``MEMO_LIMIT`` entries, and
#: the searchers (one per variant content hash) when more than ``SEARCHER_LIMIT`` variants
#: were seen. Raise them (assign the module attributes) to trade memory for speed.
MEMO_LIMIT = 200_000
SEARCHER_LIMIT = 64
#: the hands whose block contents a searcher keeps (:meth:`_Searcher.read_hand`; some 100
#: bytes each)
READ_LIMIT = 4096


def _searcher(variant: Variant) -> _Searcher:
    key = variant.content_hash or variant.id
    s = _SEARCHERS.get(key)
    if s is None:
        if len(_SEARCHERS) >= SEARCHER_LIMIT:
            _SEARCHERS.clear()
        s = _SEARCHERS[key] = _Searcher(variant)
    else:
        if len(s.memo) > MEMO_LIMIT:
            s.memo.clear()
        if len(s.wmemo) > MEMO_LIMIT:
            s.wmemo.clear()
        if len(s.vmemo) > MEMO_LIMIT:
            s.vmemo.clear()
    return s


def searcher(variant: Variant) -> _Searcher:
    """The variant's memoised exact search (one per content hash, bounded as above); its
    ``best(encode(counts), pairs, partial=…)`` gives ``(huxi, melds, leftover)`` or ``None``."""
    return _searcher(variant)


def prepare_tables(variant: Variant) -> None:
    """Build now what the variant's win checks read, once per process: its search with the
    block tables and, with 王 in the deck, the masks of one wildcard over every block content
    (:meth:`~zipai_rules.blocks.BlockTables.one_wild`, about 0.1 s, with those of pair-free
    splits where a 将 needs a 提/跑). Each is built on first use otherwise."""
    s = _searcher(variant)
    if variant.deck.kings:
        s.tables.one_wild()
        if not s.jiang_free:
            s.tables.without_pairs().one_wild()


def clear_searchers() -> None:
    """Forget every variant's search and memo (the next analyses start cold)."""
    _SEARCHERS.clear()


@functools.lru_cache(maxsize=2048)
def same_meld(kind: MeldKind, card: int, kings: tuple[int, ...] = ()) -> Meld:
    """The (cached) meld of ``kind`` made of copies of one card: 坎, 碰, 偎, 提, 跑, 将;
    ``kings``: the copies a 王 stands for on the table (``deck.king_rules.claims``)."""
    size = 4 if kind in QUADS else 2 if kind == _MELD_JIANG else 3
    return Meld(kind, (card,) * size, kings=kings)


# --- placements of the incoming card ---------------------------------------------------------

@attrs.frozen(slots=True)
class _Placement:
    table: tuple[Meld, ...]   # table melds after the card is placed
    extra: tuple[Meld, ...]   # new melds from the hand (the card's 碰/偎/提/跑)
    pool: tuple[int, ...]     # concealed counts left to decompose (kans still inside)
    stood: tuple[int, ...] = ()  # the cards a 王 stands for in the last extra meld


def _placements(variant: Variant, table: tuple[Meld, ...], hand: list[int],
                card: int | None, source: str | None, kings: int = 0, room: bytes = b""
                ) -> list[_Placement]:
    """Every way the incoming card may lie: in its forced or claimed meld, or in the hand.

    Under ``claims.own_draw: kept`` (郴州) one's own draw is in the hand when the win is
    checked, usable in any group ([cz-Sim] ``_continue_play``), so the hand placement is added
    to the forced 跑/提/偎 (which the drawer lays if it does not win, checked again after).
    A card free beside a 坎 (four copies, which no pool holds) lies as the 坎 whole and the
    fourth copy free, and under ``win.split_kan`` also spread (:func:`_spread_four`), a
    meld of the spread completed by up to ``kings`` 王 (``room``: as :func:`king_room`)."""
    out = _placed(variant, table, hand, card, source)
    if card is None or card == KING:
        return out
    if source == _SOURCE_SELF and variant.claims.kept:
        h = list(hand)
        h[card] += 1
        free = _Placement(table, (), tuple(h))
        if free not in out:
            out.append(free)
    if hand[card] < 3 or not (variant.win.split_kan or
                              (source == _SOURCE_SELF and variant.claims.kept)):
        return out
    # four copies in the pool (the card free beside a 坎): the 坎 whole and the fourth free,
    # or under win.split_kan the four spread over melds as well
    spread = []
    for pl in out:
        if pl.pool[card] == 4:
            h = list(pl.pool)
            h[card] = 1
            spread.append(_Placement(pl.table, pl.extra + (same_meld(_MELD_KAN, card),),
                                     tuple(h)))
            if variant.win.split_kan:
                spread += _spread_four(pl, card, kings, room)
        else:
            spread.append(pl)
    return spread


def _spread_four(pl: _Placement, card: int, kings: int = 0, room: bytes = b""
                 ) -> list[_Placement]:
    """Under ``win.split_kan``, the placements spreading the four copies of ``card`` in the
    pool of ``pl`` over melds other than one group of three: each meld holding the card (a
    sequence, 二七十 or 绞) taken out first, the copies left in the pool (a 3 of them then
    whole or spread as any). A card of that meld the pool lacks may be a 王, up to ``kings``
    of them, each where ``room`` lets a 王 stand for it (``_Placement.stood``): ``x6 d6 d6``
    of four d6 and a 王, as the search would take it were the four in its pool (a 王 stands for
    any card, digest G14; 郴州's hand and drawn card are grouped freely, Riversteel6/Aizipai
    ``hu_checker.py``; checked against the brute force of tests/test_king_oracle.py). A split
    into two 将 alone is left out (no preset allows two)."""
    out = []
    for kind, cards in _HOLDING[card]:
        h = list(pl.pool)
        stood: list[int] = []
        for c in cards:
            if h[c]:
                h[c] -= 1
            else:
                stood.append(c)
        if not stood:
            out.append(_Placement(pl.table, pl.extra + (Meld(kind, cards),), tuple(h)))
        elif len(stood) <= kings and (not room or all(
                stood.count(c) <= room[c] for c in stood)):
            out.append(_Placement(pl.table, pl.extra + (Meld(kind, cards),), tuple(h),
                                  tuple(stood)))
    return out


#: for each card kind, the meld types holding it (the 将 apart), as ``(kind, cards)``
_HOLDING: list[list[tuple[MeldKind, tuple[int, ...]]]] = [
    [(k, cs) for k, cs in meld_types() if c in cs and k != _MELD_JIANG] for c in range(20)]


def _placed(variant: Variant, table: tuple[Meld, ...], hand: list[int],
            card: int | None, source: str | None) -> list[_Placement]:
    if card is None:
        return [_Placement(table, (), tuple(hand))]
    own = source == _SOURCE_SELF
    out: list[_Placement] = []

    def with_card() -> _Placement:
        h = list(hand)
        h[card] += 1
        return _Placement(table, (), tuple(h))

    def minus(n: int) -> tuple[int, ...]:
        h = list(hand)
        h[card] -= n
        return tuple(h)

    on_table = next((k for k, m in enumerate(table)
                     if m.cards[0] == card and m.kind in (_MELD_WEI, _MELD_CHOU_WEI,
                                                          _MELD_PENG)), None)
    # 破跑胡: a card that would make the player's own 坎/偎/碰 a 跑 may instead be used
    # elsewhere to win, the meld kept whole ("当玩家自己或其他玩家跑牌时，正好这只牌是自己要胡的，
    # 可以胡，称为破跑胡（即胡牌优先于跑牌）", 003_5cd7634dfd57d897.txt); so may any card whose
    # 跑 the player may decline. The same for a concealed 坎 and a table 偎/碰.
    keep_meld = variant.claims.po_pao_hu or not variant.claims.pao_forced
    if card != KING and hand[card] == 3:
        if own:
            return [_Placement(table, (same_meld(_MELD_TI, card),), minus(3))]
        if source in variant.claims.pao_on_kan:
            out.append(_Placement(table, (same_meld(_MELD_PAO, card),), minus(3)))
            if not keep_meld:
                return out
        out.append(with_card())
        return out
    if on_table is not None:
        kind = table[on_table].kind
        rest = table[:on_table] + table[on_table + 1:]
        if kind == _MELD_PENG:
            # a kept draw onto one's own 碰 is a forced 跑 ([cz-Sim] _apply_draw_auto_meld)
            allowed = (own and variant.claims.kept) or (
                (_SOURCE_SELF if own else source) in variant.claims.pao_on_peng)
            new_kind = _MELD_PAO
        else:
            allowed = own or source in variant.claims.pao_on_wei
            new_kind = (own_wei_kind(variant) if own else _MELD_PAO)
        if allowed:
            kings = table[on_table].kings  # a 王 in the 碰 stays in its 跑
            out.append(_Placement(rest + (Meld(new_kind, (card,) * 4, kings=kings),), (),
                                  tuple(hand)))
            if (own and kind != _MELD_PENG) or not keep_meld:
                return out  # one's own draw onto a 偎 is always its 提 (or 跑), never free
            if own and kind == _MELD_PENG and variant.claims.own_peng_pao_first:
                return out  # 耒阳: 跑 first, then the win (hzy game.ts drawerOpts, paoFirst)
        out.append(with_card())
        return out
    if card != KING and hand[card] == 2:
        if own:
            return [_Placement(table, (same_meld(_MELD_WEI, card),), minus(2))]
        # won_triple kan: the triple scores as a concealed 坎 ([cz-hu] concealed_group_xi)
        triple = _MELD_KAN if variant.won_triple == "kan" else _MELD_PENG
        out.append(_Placement(table, (same_meld(triple, card),), minus(2)))
    out.append(with_card())
    return out


def own_wei_kind(variant: Variant) -> MeldKind:
    """What one's own draw onto one's own 偎 makes: 提, or 跑 under
    ``claims.own_draw_on_wei: pao`` (郴州, [cz-Sim] ``_apply_draw_auto_meld``)."""
    return _MELD_PAO if variant.claims.own_draw_on_wei == "pao" else _MELD_TI


# --- public API -------------------------------------------------------------------------------

_TABLE_KINDS = frozenset(MeldKind) - {_MELD_KAN, _MELD_JIANG}


HandCards = Sequence[Card | int | str] | str
"""A concealed hand as the analysis functions take it: card indices, :class:`Card` values or
tokens, or one string such as ``"x1 x2 x3"``."""

TableMelds = Sequence[Meld | str]
"""Table melds as the analysis functions take them: :class:`Meld` values or ``KIND=CARDS``
strings."""


_INT_ONLY = {int}  # card indices exactly (a bool is no card)


def read_hand(hand: HandCards, argument: str = "hand") -> tuple[list[int], list[int]]:
    """``(indices, counts)`` of a hand given as card indices, :class:`Card` values, tokens, or
    one string (``"x1 x2 x3"``). Raises :class:`~zipai_rules.errors.HandError` (``bad_hand``)
    for a value that is not a list of cards, :class:`~zipai_rules.errors.CardError` for an
    item that is not a card (``True`` is not a card); both messages name ``argument``."""
    given_as: object = hand  # for the message: compiled, a narrowed 5 would fail its type
    if isinstance(hand, str):
        indices = parse_indices(hand)
    elif hand is None:
        raise HandError(f"no {argument} given: pass a list of cards (may be empty)",
                        code="bad_hand")
    elif isinstance(hand, (bytes, Mapping)) or not isinstance(hand, Iterable):
        raise HandError(f"{argument}: {given_as!r:.60} (type {type(given_as).__name__}) is not "
                        "a list of cards nor a string of card tokens", code="bad_hand")
    else:
        given: list[Any] = list(hand)  # probed: any mix of the accepted forms
        if not given or (set(map(type, given)) == _INT_ONLY and min(given) >= 0 and
                         max(given) < N_KINDS):
            counts = [0] * N_KINDS  # fast path: card indices
            for i in given:
                counts[i] += 1
            return given, counts
        indices = cards_arg(given, argument)
    counts = [0] * N_KINDS
    for i in indices:
        counts[i] += 1
    return indices, counts


def read_table(table: TableMelds) -> tuple[Meld, ...]:
    """Table melds given as :class:`Meld` values or ``KIND=CARDS`` strings. Raises
    :class:`~zipai_rules.errors.MeldError` for a concealed-only kind (坎, 将) or a non-meld."""
    out = []
    if isinstance(table, str):  # one meld written out: "peng=d4 d4 d4"
        table = [table]
    if isinstance(table, (bytes, bytearray, Mapping)) or not isinstance(table, Iterable):
        raise MeldError(f"table: {type(table).__name__} {table!r:.40} is not a list of melds: "
                        "give Meld values or 'KIND=CARDS' strings")
    for m in table:
        if isinstance(m, str):
            m = parse_meld(m)
        if not isinstance(m, Meld):
            raise MeldError(f"{m!r} is not a meld: give a Meld or a 'KIND=CARDS' string")
        if m.kind not in _TABLE_KINDS:
            raise MeldError(f"{m} cannot lie on the table: a {m.kind.value} stays in the "
                            "concealed hand (list its cards with the hand)", code="malformed_meld")
        out.append(m)
    return tuple(out)


def analyze(variant: VariantLike, hand: HandCards, table: TableMelds = (),
            card: object = None, source: object = None, *,
            all_decompositions: bool = False, dealer: object = False,
            dealt: object = False) -> Analysis:
    """Analyse a situation with the engine's own win decision (:func:`win_verdict`).

    ``hand``: the concealed cards (card indices, :class:`~zipai_rules.cards.Card` values,
    tokens, or one string such as ``"x1 x2 x3"``); ``table``: the player's exposed melds
    (:class:`~zipai_rules.melds.Meld` values or ``"peng=d4 d4 d4"`` strings); ``card`` and
    ``source``: the incoming card and how it arrived (``self``, ``draw`` or ``discard``), or
    ``None`` to judge the hand as it stands. ``dealer``: the player deals (the dealer's
    碰胡 小七对 shape differs); ``dealt``: the hand is the freshly dealt one (dealt 提 on the
    table), judged for a forced 天胡 too; no incoming card then.

    Returns an :class:`Analysis`; its ``huxi`` is the best total in 胡息 (table melds included)
    when the cards decompose, else 0. Raises :class:`~zipai_rules.errors.HandError` for a
    concealed four of a kind the variant lays down as 提 (a single dealt one that it keeps in
    the hand is taken as that 提: :func:`held_quad`), a bad or missing source, or more cards
    than a player can hold;
    :class:`~zipai_rules.errors.CardError` for an unknown card or more copies than the deck
    holds; :class:`~zipai_rules.errors.MeldError` for a bad table meld.

    A hand as it stands (a list of ``int`` card indices, no table melds, no incoming card,
    ``variant`` a :class:`~zipai_rules.variant.Variant`) is read once through a lean path
    (:func:`_lean`) with the same checks; every other input, and every error, through the
    general ones.
    """
    if card is None and source is None and type(table) is tuple and not table and \
            dealer is False and dealt is False and all_decompositions is False and \
            type(variant) is Variant and type(hand) is list:
        found = _lean(variant, hand)  # the hand as it stands, its indices read once
        if found is not None:
            return found
    variant = as_variant(variant)
    counts, table, c = _checked(variant, hand, table, card, source, dealer, dealt)
    source = source if isinstance(source, str) else None  # checked: a source or None
    return win_verdict(variant, counts, table, c, source, all_decompositions=all_decompositions,
                       dealer=dealer is True, dealt=dealt is True)  # checked bools


#: the exact types of a list of ``n`` card indices (a bool, an int subclass, any other value
#: leaves :func:`_lean` for the general reading)
_EXACT_INTS = [[int] * n for n in range(64)]
#: a card index's weight in :func:`_lean`'s count layout (2 bits a kind, kind ``i`` at bit
#: ``2i``, the 王 at bit 40: a count above 3 carries into the next kind, which the readers'
#: numbers of cards then tell); anything else is no key
_WEIGHT = {i: 1 << (2 * i) for i in range(N_KINDS)}
_FIELD10 = (1 << 10) - 1
#: :func:`_lean_readers`' bit where a slice's number of cards starts (above its 坎 胡息)
_COUNT_SHIFT = 28
_BELOW_COUNT = (1 << _COUNT_SHIFT) - 1
_GETTER = operator.itemgetter
_LEAN_READERS: dict[tuple[int, ...], tuple[list[int | None], ...]] = {}
#: five 2-bit counts as five 3-bit fields of the search's pool (:func:`encode`)
_POOL5 = [sum(((k >> (2 * j)) & 3) << (_BITS * j) for j in range(5)) for k in range(1 << 10)]


def _lean_readers(s: _Searcher) -> tuple[list[int | None], ...]:
    """:func:`~zipai_rules.blocks.slice_readers` of the searcher, indexed by a slice of
    :func:`_lean`'s count layout (five 2-bit counts, 1,024 entries: they stay in the
    processor's cache) instead of its count bytes: each entry is the slice reader's value
    plus its number of cards shifted by :data:`_COUNT_SHIFT`. Built once per 坎 胡息 table."""
    key = tuple(s.kan_huxi)
    found = _LEAN_READERS.get(key)
    if found is None:
        lists = []
        for read in s.readers:
            out: list[int | None] = [None] * (1 << 10)
            for cs, value in read.items():
                out[sum(c << (2 * j) for j, c in enumerate(cs))] = \
                    value + (sum(cs) << _COUNT_SHIFT)
            lists.append(out)
        found = _LEAN_READERS[key] = tuple(lists)
    return found


def _lean(variant: Variant, hand: list[Any]) -> Analysis | None:
    """:func:`analyze` of ``hand`` (a list) as it stands with no table melds, read once: the
    same verdict and lazy decomposition as :func:`_checked` then :func:`win_verdict` give, or
    ``None`` where that reading must decide (an item not exactly an int card index 0..20, a
    count the variant's players never hold, a 王 or four copies of a card, special wins, a
    坎 that may be split, a win chosen by its worth): every error comes from there."""
    s = _SEARCHERS.get(variant.content_hash or variant.id)
    if s is None or s.lean_sizes is None:
        return None
    n = len(hand)
    if n not in s.lean_sizes:
        return None
    if _NATIVE:  # compiled: one loop, each item's exact type and weight (1 << 2i) at once
        y = 0
        for x in hand:
            if type(x) is not int:
                return None
            i: int = x
            if i < 0 or i > KING:
                return None
            y += 1 << (i + i)
    elif [*map(type, hand)] != _EXACT_INTS[n]:
        return None  # interpreted: the types in one pass, the weights in another (in C)
    else:
        try:  # each card's weight added (a card not 0..20 is no key)
            y = sum(_GETTER(*hand)(_WEIGHT)) if n > 1 else _WEIGHT[hand[0]]
        except KeyError:
            return None
    r0, r1, r2, r3 = s.lean or _lean_set(s)
    a = r0[y & _FIELD10] + r1[(y >> 20) & _FIELD10]  # type: ignore[operator]
    b = r2[(y >> 10) & _FIELD10] + r3[(y >> 30) & _FIELD10]  # type: ignore[operator]
    if (a >> _COUNT_SHIFT) + (b >> _COUNT_SHIFT) != n:
        return None  # a 王 (bit 40 up), or a count above 3 that carried into the next kind
    total = _joined(s, a & _BELOW_COUNT, b & _BELOW_COUNT, y)
    if total < 0:
        return _REFUSAL_OF[total]
    lazy = functools.partial(_lean_best, variant, y, s.plain_jiang)
    if total < s.min_huxi:
        return Analysis(False, _REASON_BELOW_MIN_HUXI, total, None, lazy=lazy)
    return Analysis(True, None, total, None, lazy=lazy)


#: this module runs compiled (mypyc makes its functions built-in ones): :func:`_lean` then
#: reads the items in a loop of its own (some 30 instructions an item compiled, some 700
#: interpreted, where two passes of C calls over the list cost some 600 in all)
_NATIVE: Final = isinstance(_lean, types.BuiltinFunctionType)


def _lean_best(variant: Variant, y: int, jiang: int) -> Decomposition:
    """:func:`_plain_best` of a hand given in :func:`_lean`'s count layout."""
    return _plain_best(variant, _pool_of(y), jiang)


def _lean_set(s: _Searcher) -> tuple[list[int | None], ...]:
    s.lean = _lean_readers(s)
    return s.lean


def _pool_of(y: int) -> int:
    """The search's pool (:func:`encode`) of the 20 kinds of :func:`_lean`'s count layout."""
    p = _POOL5
    return (p[y & _FIELD10] | p[(y >> 10) & _FIELD10] << 15 | p[(y >> 20) & _FIELD10] << 30
            | p[(y >> 30) & _FIELD10] << 45)


def _plain_best(variant: Variant, pool: int, jiang: int) -> Decomposition:
    """The best decomposition of a hand as it stands with no table melds and no 王, given as
    its pool (:func:`encode`), its 坎 locked: :func:`_searched` of the 坎 and the rest."""
    kans = _KANS3 & pool & (pool >> 1)  # bit 0 of each field holding 3
    fixed = tuple(same_meld(_MELD_KAN, i) for i in range(20) if kans >> (_BITS * i) & 1)
    return _searched(variant, (), fixed, pool - 3 * kans, jiang)


_KANS3 = sum(1 << (_BITS * i) for i in range(20))
_TWOS2 = sum(1 << (2 * i) for i in range(20))


def _checked(variant: Variant, hand: HandCards, table: TableMelds,
             card: object, source: object, dealer: object,
             dealt: object) -> tuple[list[int], tuple[Meld, ...], int | None]:
    """:func:`analyze`'s checks of a situation: ``(counts, table melds, card index)``, or
    the error it raises."""
    indices, counts = read_hand(hand)
    c = None if card is None else card_index(card)  # type: ignore[arg-type]  # any value: refused there
    if c is not None and (not isinstance(source, str) or source not in SOURCES):
        what = "needs a source" if source is None else f"has an unknown source {source!r:.40}"
        raise HandError(f"incoming card {token(c)} {what}: one of {', '.join(SOURCES)}",
                        code="bad_source")
    if c is None and source is not None:
        raise HandError(f"source {source!r:.40} given without an incoming card", code="bad_source")
    for flag, value in (("dealer", dealer), ("dealt", dealt)):
        if not isinstance(value, bool):
            raise HandError(f"{flag}: {value!r:.40} (type {type(value).__name__}) is not True or "
                            "False", code="bad_hand")
    if dealt and c is not None:
        raise HandError("a dealt hand is judged as dealt: give no incoming card",
                        code="bad_source")
    melds = read_table(table)
    seen = list(counts)
    for m in melds:
        for i in m.physical:
            seen[i] += 1
    if c is not None:
        seen[c] += 1
    if max(seen[:20]) > variant.deck.copies or seen[KING] > variant.deck.kings:
        check_copies(indices_of(seen), variant.deck.copies, variant.deck.kings)
    counts, melds = held_quad(variant, counts, melds)
    held = sum(counts) + sum(len(m.cards) for m in melds)
    if dealt:
        size = variant.deal.dealer_hand if dealer else variant.deal.other_hand
        if held != size:
            raise HandError(f"{held} cards in hand and table; a {'dealer' if dealer else 'player'}"
                            f" of {variant.id} is dealt {size}", code="impossible_count")
    else:
        check_count(variant, held, sum(1 for m in melds if m.kind in QUADS), c is not None)
    return counts, melds, c


def held_quad(variant: Variant, counts: list[int], table: tuple[Meld, ...]
              ) -> tuple[list[int], tuple[Meld, ...]]:
    """The situation as the engine holds it: a 4-of-a-kind in the concealed ``counts`` that
    the variant keeps in the hand (``deal.single_dealt_ti: hand``, read by
    :meth:`~zipai_rules.variant.Deal.keeps_quad_in_hand`) is the 提 it counts as for every
    rule, so it joins the ``table`` melds (where the engine lists it too), and the counts lose
    it. Raises :class:`~zipai_rules.errors.HandError` (``concealed_quad``) for a four the
    variant lays down as 提."""
    fours = [i for i in range(20) if counts[i] == 4]
    if not fours:
        return counts, table
    quads = sum(1 for m in table if m.kind in QUADS)
    if not variant.deal.keeps_quad_in_hand(len(fours), quads):
        i = fours[0]
        if variant.deal.single_dealt_ti != "hand":
            why = "must be laid down as 提 (a table meld)"
        elif len(fours) > 1:
            why = "and another four: two dealt 4同牌 are laid down as 提 at the deal"
        else:
            why = ("with a 提/跑 on the table: a 提 kept in the hand is laid down with the "
                   "player's next 提 or 跑")
        raise HandError(f"four {token(i)} in the concealed hand {why}", code="concealed_quad")
    out = list(counts)
    out[fours[0]] = 0
    return out, table + (same_meld(_MELD_TI, fours[0]),)


def at_rest(variant: VariantLike, hand: HandCards, table: TableMelds = ()) -> bool:
    """Whether a player holding ``hand`` and ``table`` waits for a card (owes no discard): the
    situation :func:`waits` judges."""
    variant = as_variant(variant)
    held = len(read_hand(hand)[0]) + sum(len(m.cards) for m in read_table(table))
    quads = sum(1 for m in held_quad(variant, read_hand(hand)[1], read_table(table))[1]
                if m.kind in QUADS)
    try:
        check_count(variant, held, quads, True)
    except HandError:
        return False
    return True


def _count_allowed(variant: Variant, held: int) -> bool:
    """Whether :func:`check_count` lets a player hold ``held`` cards as they stand with no
    table melds."""
    try:
        check_count(variant, held, 0, False)
    except HandError:
        return False
    return True


def check_count(variant: Variant, held: int, quads: int, incoming: bool) -> None:
    """Check that a player can hold ``held`` cards (concealed plus table, a 提/跑 counting 4)
    with ``quads`` 提/跑 on the table, before an ``incoming`` card or with none.

    A player at rest holds ``variant.resting_size(quads)`` cards (20 in Hunan, plus one for
    every 提/跑 after the first: digest §1.4.0); a card arrives only then. Two or more dealt 提
    leave a player up to one card short of that per 提 after the first until its next take
    (the discard it skips), never below the dealt hand. Judged as it stands, the hand may also
    hold one card more (a discard owed, or a forced 偎/提 just made), or the dealer's dealt
    hand. Raises :class:`HandError`: ``too_many_cards`` above that, and ``impossible_count``
    for any other count (e.g. a partial hand: every win uses every card).
    """
    resting = variant.resting_size(quads)
    low = max(resting - max(quads - 1, 0), min(variant.deal.other_hand, resting))
    high = resting if incoming else resting + 1
    if low <= held <= high or (not incoming and held == variant.deal.dealer_hand):
        return
    total = held + (1 if incoming else 0)
    quad_note = f" with {quads} 提/跑" if quads else ""
    if held > max(high, variant.deal.dealer_hand if not incoming else high):
        raise HandError(f"{total} cards in hand, table and incoming card; a player of "
                        f"{variant.id}{quad_note} holds at most {high + incoming}",
                        code="too_many_cards")
    when = "before the incoming card" if incoming else "as it stands"
    expected = str(low) if low == high else f"{low} to {high}"
    raise HandError(f"{held} cards in hand and table (a 提/跑 counts 4) {when}; a player of "
                    f"{variant.id}{quad_note} holds {expected} then: no game reaches this "
                    "situation", code="impossible_count")


def verdict(variant: Variant, hand: Sequence[int], table: tuple[Meld, ...] = (),
            card: int | None = None, source: str | None = None, *,
            chou_hu: Iterable[tuple[int, int]] = ()) -> tuple[bool, Reason | None, int]:
    """``(win, reason, huxi)`` of :func:`win_verdict` (``explain`` on), without building any
    decomposition: the fast entry for bots and simulations that need the verdict only.

    ``hand``: the 21 concealed counts (index 20 the 王), trusted as in :func:`win_verdict`
    (:func:`analyze` checks user input). A hand judged as it stands, with no table melds, no 王
    and no special wins in the variant, is answered straight from the block tables (unless a
    win may be taken with a split worth more, ``worth.reading``, or a 坎 may be split,
    ``win.split_kan``); every other situation goes through :func:`win_verdict`, whose verdict
    it is either way.
    """
    if card is None and source is None and not table:
        # :func:`_searcher`'s lookup, inlined on the verdict's path (no memo grows here)
        s = _SEARCHERS.get(variant.content_hash or variant.id) or _searcher(variant)
        if s.plain:
            total = _plain(s, hand)
            if total is not None and not (s.by_worth and total >= s.min_huxi):
                if total >= 0:
                    if total < s.min_huxi:
                        return False, _REASON_BELOW_MIN_HUXI, total
                    return True, None, total
                return _REFUSED[total]
    a = win_verdict(variant, hand, table, card, source, chou_hu=chou_hu)
    return a.win, a.reason, a.huxi


_FAILED = {-1: _REASON_INCOMPLETE, -3: _REASON_JIANG_NOT_ALLOWED}
#: a hand's count slices as :func:`~zipai_rules.blocks.slice_readers` read them, in one call
_SLICES = operator.itemgetter(slice(0, 5), slice(10, 15), slice(5, 10), slice(15, 20))
#: the analysis of a refusal with nothing to show (no 胡息, no decomposition): one value each
_REFUSAL = {r: Analysis(False, r, 0, None) for r in Reason}
#: :func:`_joined`'s failures as their refusals
_REFUSAL_OF = {total: _REFUSAL[r] for total, r in _FAILED.items()}
_REFUSED = {k: (False, r, 0) for k, r in _FAILED.items()}


def _plain(s: _Searcher, hand: Sequence[int]) -> int | None:
    """The best total 胡息 of a hand judged as it stands with no table melds and no 王 (its 坎
    locked), -1 for ``incomplete``, -3 for ``jiang_not_allowed``; ``None`` for a hand of other
    counts (not 21 of them, a 王, a four) or holding a 坎 under ``win.split_kan``. Each
    block's content and 坎 胡息 are read from the hand's count slices
    (:func:`~zipai_rules.blocks.slice_readers`), then the block tables are joined
    (:func:`_joined`)."""
    counts = bytes(hand)
    if len(counts) != N_KINDS or counts[KING] or (s.split_kan and 3 in counts):
        return None  # (a 坎 that may be split: the search's placements)
    r0, r1, r2, r3 = s.readers
    s0, s1, s2, s3 = _SLICES(counts)  # :meth:`_Searcher.read`, inlined on the verdict's path
    try:
        a = r0[s0] + r1[s1]
        b = r2[s2] + r3[s3]
    except KeyError:
        return None  # a count above 3
    return _joined(s, a, b, counts)


def _joined(s: _Searcher, a: int, b: int, counts: bytes | int) -> int:
    """:func:`_plain`'s answer from blocks A and B as :meth:`_Searcher.read` gives them (each
    content index plus its 坎 胡息 shifted by :data:`~zipai_rules.blocks.KAN_SHIFT`) and the
    hand's ``counts`` (21 bytes, or the hand's pool in the layout of :func:`encode`, read
    only where a 将 is tried)."""
    ta, tb, ma, mb, fa, fb = s.joins
    ca, cb = a & CONTENT_MASK, b & CONTENT_MASK
    jiang = s.plain_jiang
    if jiang:
        found = s.tables.best(_unlocked(counts), jiang)
        if found >= 0:
            return (a >> KAN_SHIFT) + (b >> KAN_SHIFT) + found
    else:
        za, zb = ta[ca], tb[cb]
        # a split with no 将 where the two tables share a boundary state (their pair-free
        # masks meet): tested before walking the dicts
        if za is not None and zb is not None and fa[ca] & fb[cb]:
            found = -1
            for st, h in za.items():
                hb = zb.get(st)
                if hb is not None and h + hb > found:
                    found = h + hb
            if found >= 0:
                return (a >> KAN_SHIFT) + (b >> KAN_SHIFT) + found
    if jiang >= 7 or not ma[ca] & mb[cb]:
        return -1  # no split with any number of 将 (a 将 takes a kind held twice)
    # some split exists; one with 7 将 at most surely does when at most 7 kinds are held twice
    if _twos(counts) <= 7 or s.tables.splits(_unlocked(counts), ca, cb, 7):
        return -3
    return -1


def _unlocked(counts: bytes | int) -> int:
    """The pool (:func:`encode`) of a hand's 20 counts (bytes, or :func:`_lean`'s layout)
    with its 坎 taken out."""
    if isinstance(counts, int):
        pool = _pool_of(counts)
        return pool - 3 * (_KANS3 & pool & (pool >> 1))
    return encode(counts.replace(b"\x03", b"\x00"))


def _twos(counts: bytes | int) -> int:
    """How many kinds a hand (counts as bytes, or :func:`_lean`'s layout) holds twice."""
    if isinstance(counts, int):
        return ((counts >> 1) & ~counts & _TWOS2).bit_count()
    return counts.count(2)


def surely_no_win(variant: Variant, hand: Sequence[int], card: int | None, source: str | None,
                  table: Sequence[Meld] | None = None) -> bool:
    """Whether :func:`win_verdict` surely refuses a win on ``card`` (``None``: the hand as it
    stands) from ``source`` to a player holding the concealed counts ``hand`` and the table
    melds ``table`` (``None``: whatever they are), for the hand's shape: ``True`` is sure (the
    search would find ``incomplete``, or ``jiang_not_allowed`` where only a split with a 将
    the table does not allow is left), ``False`` a maybe. Answered from the block tables:
    whatever the card's placement (in the hand, or taking 2, 3 or none of its copies there
    into a meld, none only onto a table 偎/碰 of it where ``table`` is known), the concealed
    cards left, their 坎 locked (under ``win.split_kan`` each 坎 whole or spread:
    :func:`_no_split_kan`), have no split with any number of 将, or with none where
    ``table`` shows that the placement allows no 将 (``win.jiang_requires_quad`` with no
    提/跑, ``win.max_jiang`` 0); with 王, not even once the 王 join them as any cards
    (:func:`zipai_rules.kings.may_split`, so that the check would search no pool). A
    variant's special wins
    (:func:`instant_win`) come with the hand as it stands or one's own draw, a maybe then; a
    fixed-value shape needs a split too."""
    if variant.win.special and (source == _SOURCE_SELF or card is None):
        return False  # a special win of the hand as it stands, or after one's own draw
    return _no_split(variant, hand, card, source, table)


def _no_split(variant: Variant, hand: Sequence[int], card: int | None, source: str | None,
              table: Sequence[Meld] | None) -> bool:
    """:func:`surely_no_win` once the special wins are known to be none (as
    :func:`win_verdict` knows after :func:`instant_win`)."""
    if card == KING:
        return False
    s = _SEARCHERS.get(variant.content_hash or variant.id) or _searcher(variant)  # inlined
    # the masks of the splits a placement may use: with any number of 将 where the variant
    # allows a 将 then (a table 提/跑, or the card making one, where ``win.jiang_requires_quad``)
    if table is None or s.jiang_free:
        plain = quad = s.tables
    else:
        plain, quad = _jiang_views(variant, s.tables, table)
    if s.split_kan and 3 in hand[:20]:  # a 坎 whole or spread, as the search may lay it
        # beside 王, a maybe: answering it (exactly, as :func:`_no_split_kan` can) cost more
        # instructions a game of chenzhou_wang than the searches it saved
        return not hand[KING] and _no_split_kan(variant, s, plain, quad, hand, card, source,
                                                 table)
    if hand[KING] and card is not None:
        onto = table is None or hand[card] == 3 or _on_table_meld(table, card)
        if _kings_may_win(plain, quad, hand, card, source, onto):
            return False
        # a kept draw onto a pair may also lie free, its three spread, as another's card
        return not (variant.claims.kept and source == _SOURCE_SELF and hand[card] == 2 and
                    _kings_may_win(plain, quad, hand, card, _SOURCE_DISCARD, onto))
    a, b = s.read_hand(hand)  # the block contents with every 坎 out of the pool
    ca, cb = a & CONTENT_MASK, b & CONTENT_MASK
    if card is None:  # the hand as it stands, its 王 joining it as any cards
        if not hand[KING]:
            return not plain.ma[ca] & plain.mb[cb]
        return not _kings_may_split(plain, [n if n < 3 else 0 for n in hand[:20]], hand[KING])
    held = hand[card]
    unit = _DIGIT[card]
    own_count = held if held < 3 else 0  # the card's own count, set below for each placement
    if card % 10 < 5:
        ca -= own_count * unit
        unit_a, unit_b = unit, 0
    else:
        cb -= own_count * unit
        unit_a, unit_b = 0, unit
    # the card onto a table 偎/碰 (pool as held): only where the table may hold one
    onto = table is None or held == 3 or _on_table_meld(table, card)
    own = source == _SOURCE_SELF
    kept = variant.claims.kept
    for n in (held + 1, held, held - 2, held - 3):
        if n < 0 or (n == held and not onto):
            continue
        # onto a table meld or out of a 坎, the card makes a 提/跑
        tables = quad if n == held or n == held - 3 else plain
        if n == 3 and (held == 3 or (own and held == 2)):
            if own and held == 2 and kept:  # the kept draw's three may also be spread
                rest = [k if k < 3 else 0 for k in hand[:20]]
                rest[card] = 3
                if _plain_may_split(tables, rest):
                    return False
            n = 0  # a 坎, locked
        elif n == 4:
            n = 1  # the 坎 and the fourth copy free
        if n == 3:  # the card onto a pair held free
            rest = [k if k < 3 else 0 for k in hand[:20]]
            rest[card] = 3
            if _plain_may_split(tables, rest):
                return False
        elif tables.ma[ca + n * unit_a] & tables.mb[cb + n * unit_b]:
            return False
    return True


def _no_split_kan(variant: Variant, s: _Searcher, plain: BlockTables, quad: BlockTables,
                  hand: Sequence[int], card: int | None, source: str | None,
                  table: Sequence[Meld] | None) -> bool:
    """:func:`_no_split` of a hand holding a 坎 under ``win.split_kan``, with the block tables
    of a placement making no 提/跑 (``plain``) and of one making one (``quad``): no pool the
    search may be given (:func:`_placements`) may split, each 3 (or 4) of a kind in it lying
    as a group of three real copies or spread over other melds, the 王 as any cards
    (:func:`~zipai_rules.kings.spread_may_split` with ``whole``). The search's own limits (a
    王 never a fifth copy, the won card's triple being its 碰's placement, the count a 提/跑
    leaves for its 将) are left out: they only refuse more. Exact with 王 too, though
    :func:`_no_split` asks it only for hands holding none."""
    kings = hand[KING]
    pool = list(hand[:20])
    a, b = s.read_hand(hand)  # the block contents with every 3 out of them
    ca, cb = a & CONTENT_MASK, b & CONTENT_MASK
    big = _over(pool)
    if card is None:
        return not _spread_may_split(plain, pool, ca, cb, kings, big, True)
    held = hand[card]
    own = source == _SOURCE_SELF
    claims = variant.claims
    # each placement as (the card's count in the pool, whether it makes a 提/跑)
    if held == 3:  # onto the 坎: its 提/跑, or free beside it (four copies, whole or spread)
        pao = own or source in claims.pao_on_kan
        free = claims.kept if own else not pao or claims.po_pao_hu or not claims.pao_forced
        placed = ((0, True),) * pao + ((4, False),) * free
    elif held == 2:  # its 偎/碰 (or the won triple), or free (another's card, one's kept draw)
        placed = ((0, False),) + ((3, False),) * (not own or claims.kept)
    else:  # free, or onto a table 偎/碰 of it (its 提/跑)
        onto = table is None or _on_table_meld(table, card)
        placed = ((held + 1, False),) + ((held, True),) * onto
    da, db = _DIGITS[card]
    if held < 3:  # the card's own count out of the contents, set for each placement
        ca -= held * da
        cb -= held * db
    bit = 1 << card
    big &= ~bit
    for n, made in placed:
        pool[card] = n
        x = n if n < 3 else 0
        if _spread_may_split(quad if made else plain, pool, ca + x * da, cb + x * db, kings,
                             big | bit if n > 2 else big, True):
            return False
    return True


def _jiang_views(variant: Variant, tables: BlockTables, table: Sequence[Meld] | None
                 ) -> tuple[BlockTables, BlockTables]:
    """The block tables whose masks :func:`surely_no_win` reads for a placement of the card
    that makes no 提/跑 and for one that does: ``tables`` (any number of 将) where a 将 may
    be used, else :meth:`~zipai_rules.blocks.BlockTables.without_pairs` (no 将:
    ``win.max_jiang`` 0, or ``win.jiang_requires_quad`` with no 提/跑 on the table and none
    made). With ``table`` unknown (``None``), ``tables`` both."""
    rules = variant.win
    if table is None or (rules.max_jiang and not rules.jiang_requires_quad):
        return tables, tables
    if not rules.max_jiang:
        return tables.without_pairs(), tables.without_pairs()
    for m in table:
        if m.kind in QUADS:
            return tables, tables
    return tables.without_pairs(), tables


_ONTO = frozenset({_MELD_WEI, _MELD_CHOU_WEI, _MELD_PENG})


def _on_table_meld(table: Sequence[Meld], card: int) -> bool:
    """Whether ``table`` holds a 偎, 臭偎 or 碰 of ``card`` (which the card may make a 提/跑:
    :func:`_placed`)."""
    for m in table:
        if m.cards[0] == card and m.kind in _ONTO:
            return True
    return False


def win_verdict(variant: Variant, hand: Sequence[int], table: tuple[Meld, ...],
                card: int | None, source: str | None, *,
                chou_hu: Iterable[tuple[int, int]] = (), explain: bool = True,
                all_decompositions: bool = False, dealer: bool = False,
                dealt: bool = False, occasion: Occasion | None = None) -> Analysis:
    """May a player win, and with what best decomposition: the one decision that the engine's
    claim options, :func:`analyze`, :func:`waits` and the bots all use.

    ``hand``: the 21 concealed counts (index 20 the 王); ``table``: the player's table melds;
    ``card`` and ``source``: the incoming card and how it came (``self``, ``draw``,
    ``discard``), or ``None`` for the hand as it stands (``source`` ``self`` when the engine
    asks after one's own forced 偎/提); ``chou_hu``: the player's ``(card, table 胡息)`` marks
    of declined wins. The counts are trusted: :func:`analyze` checks user input first.

    The rules, in order, each with its reason code when it refuses:

    * ``king_not_claimable``: a 王 is never claimed from another player, and where
      ``deck.king_rules.holder_wins_only_self`` a player holding a 王 wins only on their own
      draw ("手中有王霸的玩家，只能自摸", 000_cdb63c032605c9a1.txt §永州双王扯胡子规则);
    * ``{source}_win_not_allowed``: the source is not in ``win.sources``;
    * ``chou_hu``: 臭胡, the same card declined before with the same table 胡息 ("能胡而没胡的牌
      第二次出现时，如果玩家的当前胡息数没发生变化，则玩家不可以胡牌", 003_5cd7634dfd57d897.txt);
    * ``incomplete`` / ``jiang_not_allowed``: no placement of the card (破跑胡 included) lets
      every card lie in a meld;
    * ``below_min_huxi``: the best total is under ``win.min_huxi``, unless the hand has one
      of the variant's fixed-value shapes (无胡: 0 胡息, no pair, scores as 21).

    With ``explain`` (the default) the best decomposition and 胡息 are given even when a rule
    refuses the win; without it (the verdict alone: the engine's claim checks, most of which
    fail) a refusal by the first three rules returns at once with 0, and so does a shape
    that the block tables refuse before any search (:func:`surely_no_win`), with the reason
    ``incomplete`` (which the search may have told apart as ``jiang_not_allowed``); a shape
    the search refuses is ``incomplete`` too (no second search with more 将 to tell them
    apart).

    A win is taken with the split paid most (:func:`~zipai_rules.worth.choose`) where the
    variant's scoring may prefer fewer 胡息 (:func:`by_worth`); ``occasion`` is what that
    worth reads besides the split (the result's labels, the card it names, 海底); ``None``:
    自摸 on one's own draw, 天胡 for a ``dealt`` hand, the incoming card. The engine, which
    knows the occasion only when the win is taken, chooses again then
    (:meth:`Analysis.taken`).

    Before all of these, the wins that need no choice (:func:`instant_win`): the hand as it
    stands, or after one's own draw made a forced 偎/提, is judged for the variant's special
    wins (碰胡 2 提蛇, 小七对: ``dealer`` says whether the seat deals), and with ``dealt`` (a
    freshly dealt hand) for the forced 天胡 too.

    Raises :class:`~zipai_rules.errors.HandError` (``bad_hand``) for counts that are not 21
    or hold more 王 than the deck: the only checks on the trusted counts, which bound the
    time the 王 search (``_Searcher.best_wild``) takes.
    """
    if len(hand) != N_KINDS or hand[KING] > variant.deck.kings:
        raise HandError(f"{len(hand)} counts holding {hand[KING] if len(hand) > KING else '?'} "
                        f"王: {N_KINDS} counts are expected, with at most the deck's "
                        f"{variant.deck.kings} 王", code="bad_hand")
    if card is None and source is None and not table and not dealt and not all_decompositions:
        s = _searcher(variant)
        total = _plain(s, hand) if s.plain else None
        if total is not None:  # the hand as it stands, from the block tables
            if total < 0:
                return _REFUSAL_OF[total]
            kans = tuple(same_meld(_MELD_KAN, i) for i in range(20) if hand[i] == 3)
            rest = encode([n if n < 3 else 0 for n in hand[:20]])
            lazy = functools.partial(_searched, variant, (), kans, rest, s.plain_jiang)
            if total < s.min_huxi:
                return Analysis(False, _REASON_BELOW_MIN_HUXI, total, None, lazy=lazy)
            found = Analysis(True, None, total, None, lazy=lazy)
            return _taken(variant, found, hand, (), None, None, occasion, False) \
                if s.by_worth else found
    if dealt:
        source = _SOURCE_SELF  # the dealer's optional 天胡 is a win on its own cards
    if variant.win.special or dealt:
        instant = _instant_on(variant, hand, table, card, source, dealer, dealt)
        if instant is not None:
            return instant
    reason: Reason | None = None
    if dealt and not (dealer and variant.win.tianhu.optional_dealer_win):
        reason = _REASON_DEALT_HAND  # the others wait for a card (003 天胡; digest C11)
    elif card == KING and source != _SOURCE_SELF:
        reason = _REASON_KING_NOT_CLAIMABLE  # a 王 joins only by one's own draw (digest G14)
    elif variant.deck.king_rules.holder_wins_only_self and hand[KING] and \
            source in (_SOURCE_DRAW, _SOURCE_DISCARD):
        reason = _REASON_KING_NOT_CLAIMABLE
    elif source is not None and source not in variant.win.sources:
        reason = Reason.source_not_allowed(source)
    elif variant.win.chou_hu and card is not None and chou_hu and \
            (card, sum(map(variant.meld_huxi, table))) in set(chou_hu):
        reason = _REASON_CHOU_HU
    if reason is not None and (not explain or card == KING):
        return _REFUSAL[reason]
    if not explain and _no_split(variant, hand, card, source, table):  # no special win came
        return _REFUSAL[_REASON_INCOMPLETE]  # what the search would find
    found = _best(variant, hand, table, card, source, all_decompositions, why=explain)
    if variant.win.special and found.reason == _REASON_BELOW_MIN_HUXI and found.best is not None:
        b = found.best
        fixed = fixed_value_win(variant, [g.meld for g in b.groups], b.huxi, b.leftover)
        if fixed is not None:  # a fixed-value shape (无胡) wins below the threshold
            found = attrs.evolve(found, win=True, reason=None, huxi=fixed[1], best=attrs.evolve(
                found.best, huxi=fixed[1], special=fixed[0]))
    if reason is not None:  # the same reason as without explain, the 胡息 shown besides
        return attrs.evolve(found, win=False, reason=reason)
    if found.win and _searcher(variant).by_worth:
        return _taken(variant, found, hand, table, card, source, occasion, all_decompositions,
                      dealt)
    return found


def _taken(variant: Variant, found: Analysis, hand: Sequence[int], table: tuple[Meld, ...],
           card: int | None, source: str | None, occasion: Occasion | None, want_all: bool,
           dealt: bool = False) -> Analysis:
    """:func:`win_verdict`'s win ``found`` taken on ``occasion`` (``None``: the default one,
    :func:`~zipai_rules.worth.default_occasion`), keeping what :meth:`Analysis.taken` needs
    to choose again."""
    situation: tuple[Any, ...] = (variant, found, tuple(hand), table, card, source, want_all,
                                  [])  # the winning splits, listed once (a memo)
    chosen = _by_worth(*situation, occasion=occasion or default_occasion(card, source, dealt))
    return attrs.evolve(chosen, situation=situation)


def _by_worth(variant: Variant, found: Analysis, hand: Sequence[int], table: tuple[Meld, ...],
              card: int | None, source: str | None, want_all: bool, splits: list[Any], *,
              occasion: Occasion) -> Analysis:
    """The win ``found`` (its best split the one of the most 胡息) taken with the split worth
    the most (:func:`~zipai_rules.worth.choose`): the same ``found`` where the occasion's
    scoring ranks the splits by 胡息 (:func:`~zipai_rules.worth.reading`) or, reading only the
    胡息, no split of fewer 胡息 can pay more (:func:`~zipai_rules.worth.most_huxi_pays_most`);
    else every split is valued. A split below ``win.min_huxi`` is a win only as a
    fixed-value shape (无胡), valued as it scores. ``splits``: the winning splits once
    listed (empty before), kept for the next occasion."""
    level = reading(variant, occasion)
    worth: Callable[[Decomposition], int] | None = None
    if level == ON_HUXI:
        facts = card_facts(variant, hand, table, card, occasion.card)
        if most_huxi_pays_most(variant, facts, occasion, found.huxi):
            return found  # the split of the most 胡息, still unsearched
        worth = functools.partial(worth_at, variant, facts, occasion)
    elif level == BY_HUXI:
        return found
    top = found.best
    if top is None:
        return found
    if not splits:
        every = found.decompositions if want_all else \
            _best(variant, hand, table, card, source, True).decompositions
        for d in every:
            if d.huxi < variant.win.min_huxi:
                fixed = fixed_value_win(variant, [g.meld for g in d.groups], d.huxi,
                                        d.leftover) if variant.win.special else None
                if fixed is None:
                    continue
                d = attrs.evolve(d, huxi=fixed[1], special=fixed[0])
            splits.append(d)
    chosen = choose(variant, top, splits, occasion, source, worth)
    if chosen is top:
        return found
    rest = tuple(d for d in found.decompositions if d.groups != chosen.groups)
    return Analysis(True, None, chosen.huxi, chosen, (chosen, *rest) if want_all else ())


def by_worth(variant: Variant) -> bool:
    """Whether a win of ``variant`` may be taken with a split of fewer 胡息 than the most,
    being worth more (:func:`~zipai_rules.worth.reading`)."""
    return _searcher(variant).by_worth


def instant_win(variant: Variant, hand: Sequence[int], table: Sequence[Meld], *,
                dealer: bool = False, dealt: bool = False, runs: int = 0) -> Analysis | None:
    """The win a seat has at once, with no card to wait for and no choice, or ``None``: one of
    the variant's special wins (``win.special``, :mod:`zipai_rules.special`: checked after
    the deal and after every forced 提/偎 of the seat), and for a freshly ``dealt`` hand the
    forced 天胡 (:func:`tianhu`). ``hand``: the 21 concealed counts; ``dealer``: whether the
    seat deals (the dealer's 小七对 shape differs); ``runs``: the seat's runs of 偎 that count as
    提 (``win.wei_run_as_ti``), which only the engine knows."""
    if variant.win.special:
        shape = special_win(variant, hand, table, dealer, runs)
        if shape is not None:
            groups = tuple([Group(m, variant.meld_huxi(m), "table", m.kings) for m in table]
                           + [Group(m, variant.meld_huxi(m)) for m in shape.hand_melds])
            total = sum(g.huxi for g in groups)
            return Analysis(True, None, total,
                            Decomposition(groups, total, shape.leftover, shape.label))
    if dealt:
        return tianhu(variant, indices_of(hand), table)
    return None


def _instant_on(variant: Variant, hand: Sequence[int], table: tuple[Meld, ...],
                card: int | None, source: str | None, dealer: bool, dealt: bool
                ) -> Analysis | None:
    """:func:`instant_win` of the hand as it stands, or after one's own draw of ``card`` made
    its forced 提 (onto a 坎 or a 偎) or 偎 (onto a pair)."""
    if card is None:
        return instant_win(variant, hand, table, dealer=dealer, dealt=dealt)
    if source != _SOURCE_SELF or card == KING or not variant.win.special:
        return None
    after = list(hand)
    wei = next((k for k, m in enumerate(table)
                if m.cards[0] == card and m.kind in (_MELD_WEI, _MELD_CHOU_WEI)), None)
    if hand[card] == 3:
        after[card] = 0
        melds = table + (same_meld(_MELD_TI, card),)
    elif wei is not None:
        melds = table[:wei] + table[wei + 1:] + (same_meld(own_wei_kind(variant), card),)
    elif hand[card] == 2:
        after[card] = 0
        melds = table + (same_meld(_MELD_WEI, card),)
    else:
        return None
    return instant_win(variant, after, melds, dealer=dealer)


def _best(variant: Variant, counts: Sequence[int], table: tuple[Meld, ...],
          card: int | None, source: str | None, want_all: bool, why: bool = True
          ) -> Analysis:
    """The best decomposition over every placement of the card, with the shape reasons
    (``incomplete``, ``jiang_not_allowed``) and the threshold (``below_min_huxi``). Without
    ``why`` (:func:`win_verdict` without ``explain``) a hand that does not split is
    ``incomplete``, the search with more 将 that would tell ``jiang_not_allowed`` apart not
    made."""
    if card == KING:  # one's own draw of a 王 joins the hand
        counts = list(counts)
        counts[KING] += 1
        card = None
    searcher = _searcher(variant)
    kings = counts[KING]
    results: list[Decomposition] = []
    best_key: tuple[int, tuple[Meld, ...], tuple[Meld, ...], int, int, int, int,
                    bytes, int, tuple[int, ...]] | None = None
    pair_only = False
    real = list(counts)
    real[KING] = 0
    # the incoming card is placed on the real cards first: a forced 偎/提 or a 跑 uses real
    # copies only; then the 王 join the concealed cards left, each standing for any card
    kan_huxi = searcher.kan_huxi
    room = king_room(variant, real, table, card, kings) if kings else b""
    every = kings
    for pl in _placements(variant, table, real, card, source, every, room):
        kings = every - len(pl.stood)  # the 王 left for the search (_spread_four)
        here = room if not pl.stood or not room else bytes(
            min(n - pl.stood.count(i), kings) for i, n in enumerate(room))
        start = list(real)
        if source == _SOURCE_SELF and card is not None and pl.pool[card] > real[card]:
            start[card] += 1  # one's own draw joins the concealed cards
        quads = any(m.kind in QUADS for m in pl.table + pl.extra)
        jiang = variant.win.max_jiang if (quads or not variant.win.jiang_requires_quad) else 0
        if quads and variant.win.jiang_requires_quad and (sum(pl.pool[:20]) + kings) % 3 == 0:
            continue  # a 提/跑 needs its 将 ("必须有且只能有一对牌做为一方门子", 003): the count
            # of the pool, each 王 in it and each 坎 out of it, leaves no room for one
        fixed = sum(map(variant.meld_huxi, pl.table + pl.extra)) if pl.table or pl.extra \
            else 0
        # the won card (not one's own draw) held free: a triple holding it is the won triple
        pend = card if card is not None and kings and pl.pool[card] > start[card] else -1
        # the 坎 of three real concealed copies stay whole (000 "一坎牌不能拆散") where they
        # are locked (:func:`_kan_choices`); a kind not locked is a 3 in the pool, whole or
        # spread as the search finds best
        held = [i for i in range(20) if start[i] == 3 and pl.pool[i] >= 3]
        for kans in _kan_choices(searcher, held, real, card):
            x = encode(pl.pool) - sum(3 << (3 * i) for i in kans)
            base = fixed + sum(kan_huxi[i] for i in kans)
            if kings:
                found = searcher.wild_value(x, kings, jiang, pend, here)
            else:
                found = searcher.value(x, jiang)
            if found < 0:
                # the same reason with or without every decomposition: a pool that splits
                # only with a 将 more than this placement allows is ``jiang_not_allowed``
                if why and not pair_only and jiang < 7 and (
                        searcher.wild_value(x, kings, 7, pend, here) >= 0 if kings
                        else searcher.splits(x, 7)):
                    pair_only = True
                continue
            hand_fixed = pl.extra + tuple(same_meld(_MELD_KAN, i) for i in kans)
            if want_all:
                if kings:
                    for melds, stood in searcher.all_wild(x, kings, jiang, pend, here):
                        results.append(_decomposition(variant, searcher, pl.table, hand_fixed,
                                                      melds, stood, len(pl.extra), pl.stood))
                else:
                    for melds in searcher.all(x, jiang):
                        results.append(_decomposition(variant, searcher, pl.table, hand_fixed,
                                                      melds, (), len(pl.extra), pl.stood))
                continue
            if best_key is None or base + found > best_key[0]:
                best_key = (base + found, pl.table, hand_fixed, x, jiang, kings, pend, here,
                            len(pl.extra), pl.stood)
    if best_key is not None and not want_all:
        total = best_key[0]
        reason = _REASON_BELOW_MIN_HUXI if total < variant.win.min_huxi else None
        return Analysis(reason is None, reason, total, None,
                        lazy=functools.partial(_searched, variant, *best_key[1:]))
    if not results:
        failed = _REASON_JIANG_NOT_ALLOWED if pair_only else _REASON_INCOMPLETE
        return Analysis(False, failed, 0, None)
    results.sort(key=lambda d: -d.huxi)
    best = results[0]
    reason = _REASON_BELOW_MIN_HUXI if best.huxi < variant.win.min_huxi else None
    return Analysis(reason is None, reason, best.huxi, best,
                    tuple(_unique(results)) if want_all else ())


def _kan_choices(searcher: _Searcher, held: list[int], real: list[int], card: int | None
                 ) -> Iterator[tuple[int, ...]]:
    """The ways the 坎 ``held`` (kinds three times in the pool and among the concealed cards
    before any 王) lie in a decomposition: each the kinds locked whole, a kind not locked left
    in the pool as a 3, which the search keeps whole or spreads. Every 坎 is locked, except
    under ``win.split_kan`` (郴州: none is, the search's own 坎 first, so that ties keep it)
    and the three copies of one's own kept draw onto a pair (``real`` not counting the draw),
    never a 坎 held: locked, or spread over melds, the win being checked with the card in the
    hand before its 偎 ([cz-Sim] ``_continue_play``). Whole first: ties keep the 坎."""
    if searcher.split_kan:
        yield ()
        return
    yield tuple(held)
    if card is not None and card in held and real[card] == 2:
        yield tuple(i for i in held if i != card)


def _searched(variant: Variant, table: tuple[Meld, ...], fixed: tuple[Meld, ...], x: int,
              jiang: int, kings: int = 0, pend: int = -1,
              room: bytes = b"", extra: int = 0, extra_kings: tuple[int, ...] = ()
              ) -> Decomposition:
    """The best decomposition of the table melds, the ``fixed`` hand melds and pool ``x``
    with ``kings`` 王 searched with at most ``jiang`` pairs (the first found among equals, as
    ever; ``pend``, ``room``: as :meth:`_Searcher._wild_moves`; ``extra``, ``extra_kings``:
    as :func:`_decomposition`)."""
    searcher = _searcher(variant)
    if kings:
        wild = searcher.best_wild(x, kings, jiang, pend, room)
        if wild is None:  # cannot happen: the search found a split of this pool
            raise RuntimeError("the 王 search lost its split")
        return _decomposition(variant, searcher, table, fixed, wild[1], wild[2], extra,
                              extra_kings)
    found = searcher.best(x, jiang)
    if found is None:  # cannot happen: the tables found a split of this pool
        raise RuntimeError("the block tables and the search disagree")
    return _decomposition(variant, searcher, table, fixed, found[1], (), extra, extra_kings)


def _decomposition(variant: Variant, searcher: _Searcher, table: tuple[Meld, ...],
                   fixed: tuple[Meld, ...], melds: tuple[Meld, ...],
                   stood: tuple[tuple[int, ...], ...] = (), extra: int = 0,
                   extra_kings: tuple[int, ...] = ()) -> Decomposition:
    """The decomposition of the table melds, the ``fixed`` hand melds (the first ``extra``
    made by the card's placement, then the 坎) and the searched ones; ``stood``: for each
    searched meld, the cards a 王 stands for in it (none given: none); ``extra_kings``: the
    cards a 王 stands for in the last of the ``extra`` (:func:`_spread_four`)."""
    groups = [Group(m, variant.meld_huxi(m), "table", m.kings) for m in table]
    groups += [Group(m, variant.meld_huxi(m), kings=extra_kings if k == extra - 1 else ())
               for k, m in enumerate(fixed[:extra])]
    if stood:  # a 坎 a 王 completes is shown among the real ones, in card order
        searched = [Group(m, variant.meld_huxi(m), kings=k)
                    for m, k in zip(melds, _real_kans(melds, stood), strict=True)]
        made = [g for g in searched if g.meld.kind == _MELD_KAN]
        kans = [Group(m, variant.meld_huxi(m)) for m in fixed[extra:]] + made
        groups += sorted(kans, key=lambda g: g.meld.cards[0])
        groups += [g for g in searched if g.meld.kind != _MELD_KAN]
    else:
        if searcher.split_kan:  # the 坎 the search kept whole first, where locked ones lie
            melds = tuple(sorted(melds, key=lambda m: m.kind != _MELD_KAN))
        groups += [Group(m, variant.meld_huxi(m)) for m in fixed[extra:]]
        groups += [Group(m, searcher.huxi_of.get(m, 0)) for m in melds]
    return Decomposition(tuple(groups), sum(g.huxi for g in groups))


def _real_kans(melds: tuple[Meld, ...], stood: tuple[tuple[int, ...], ...]
               ) -> list[tuple[int, ...]]:
    """``stood`` with each 王 standing for a copy of a 坎's kind moved, where another meld
    holds a real copy of that kind, to stand for that copy instead (copies are alike: the
    same split, its 坎 shown of real cards where it can be, as a 坎 kept whole)."""
    out = [list(k) for k in stood]
    for i, m in enumerate(melds):
        if m.kind != _MELD_KAN or not out[i]:
            continue
        c = m.cards[0]
        for j, other in enumerate(melds):
            while c in out[i] and j != i and other.cards.count(c) > out[j].count(c):
                out[i].remove(c)
                out[j].append(c)
    return [tuple(sorted(k)) for k in out]


def _unique(decs: list[Decomposition]) -> Iterator[Decomposition]:
    seen = set()
    for d in decs:
        key = tuple(sorted((g.meld.kind.value, g.meld.cards, g.place) for g in d.groups))
        if key not in seen:
            seen.add(key)
            yield d


def waits(variant: VariantLike, hand: HandCards, table: TableMelds = (),
          source: str = _SOURCE_DRAW) -> list[Wait]:
    """Every card that would win if it arrived from ``source``, with the 胡息 it gives,
    in card order. Cards the deck has no copy left of are skipped. The decision is
    :func:`win_verdict`'s: a 王 holder who may win only by 自摸 has no ``draw`` or
    ``discard`` waits. Raises :class:`~zipai_rules.errors.HandError` (``impossible_count``,
    ``too_many_cards``) when the hand and table are not what a player holds before a card."""
    variant = as_variant(variant)
    indices, counts = read_hand(hand)
    counts, table = held_quad(variant, counts, read_table(table))
    indices = indices_of(counts)
    check_count(variant, len(indices) + sum(len(m.cards) for m in table),
                sum(1 for m in table if m.kind in QUADS), True)
    cards = _left(variant, counts, table)
    if not cards:
        return []
    _checked(variant, indices, table, cards[0], source, False, False)  # checked once
    return _waits(variant, counts, table, source, cards)


def _left(variant: Variant, counts: Sequence[int], table: tuple[Meld, ...]) -> list[int]:
    """The card kinds of which the deck has a copy the player does not hold or show."""
    seen = list(counts[:20])
    for m in table:
        for i in m.physical:
            if i < 20:
                seen[i] += 1
    return [c for c in range(20) if seen[c] < variant.deck.copies]


def _waits(variant: Variant, counts: Sequence[int], table: tuple[Meld, ...], source: str,
           cards: Sequence[int]) -> list[Wait]:
    """:func:`waits` on trusted counts, for the given ``cards``."""
    s = _searcher(variant)
    if not table and not counts[KING] and source in variant.win.sources and s.plain and \
            not (s.split_kan and 3 in counts[:20]):
        found = _plain_waits(variant, counts, cards, source)
        if not s.by_worth:
            return found
        # each win taken with the split paid most: its 胡息, from the win decision
        return [Wait(w.card, win_verdict(variant, counts, table, w.card, source).huxi)
                for w in found]
    out = []
    for c in cards:
        a = win_verdict(variant, counts, table, c, source)
        if a.win:
            out.append(Wait(c, a.huxi))
    return out


def ready(variant: Variant, counts: Sequence[int], table: tuple[Meld, ...]) -> bool:
    """听牌: whether some card, from some source ``win.sources`` allows, would win for a
    player holding the concealed ``counts`` (21, trusted) and the ``table`` melds; the
    cards are those :func:`waits` tries. What ``discard.dealt_double_quad: skip_when_ready``
    reads (Guilin 004_4a6d8adec4e0ba73.txt 第五条7 "在听牌的时候不打")."""
    cards = _left(variant, counts, table)
    return any(_waits(variant, counts, table, src, cards) for src in variant.win.sources)


def _plain_waits(variant: Variant, counts: Sequence[int], cards: Sequence[int], source: str
                 ) -> list[Wait]:
    """:func:`waits` of a hand with no table melds and no 王 in a variant with no special
    wins, from an allowed ``source``: each card joins the concealed cards (with one copy
    held or none, only that); held twice it may also make the 碰 (the 坎 under
    ``huxi.won_triple: kan``) or, one's own draw, is the forced 偎 (:func:`_placed`; under
    ``claims.own_draw: kept`` also free: a 坎 with the pair, or spread over melds). A card
    held three times goes to :func:`win_verdict`, and so does a hand holding a 坎 under
    ``win.split_kan``."""
    s = _searcher(variant)
    tables = s.tables
    kan = s.kan_huxi
    jiang = s.plain_jiang
    low = s.min_huxi
    own = source == _SOURCE_SELF
    free_pair = not own or variant.claims.kept
    pair_kind = _MELD_WEI if own else (
        _MELD_KAN if variant.won_triple == "kan" else _MELD_PENG)
    pool = bytearray(counts[:20])
    base = 0
    kans = 0
    for i in range(20):
        if pool[i] == 3:
            base += kan[i]
            pool[i] = 0
            kans += 1
    x = encode(pool)
    size = sum(counts[:20])
    quad_pair = variant.win.jiang_requires_quad  # a 提/跑 then needs its 将
    keep_meld = variant.claims.po_pao_hu or not variant.claims.pao_forced
    out = []
    for c in cards:
        n = counts[c]
        one = 1 << (3 * c)
        if n == 3:  # onto the 坎: 提 (own) or 跑, and where allowed the 坎 kept whole
            total = -1
            if own or source in variant.claims.pao_on_kan:
                quad = same_meld(_MELD_TI if own else _MELD_PAO, c)
                rest = x  # the 坎's cards are already out of the pool
                if not (quad_pair and (size - 3 * kans) % 3 == 0):
                    found = tables.best(rest, s.quad_jiang)
                    if found >= 0:
                        total = base - kan[c] + variant.meld_huxi(quad) + found
            if (not own and (keep_meld or source not in variant.claims.pao_on_kan)) or (
                    own and variant.claims.kept):
                found = tables.best(x + one, jiang)  # the 坎 whole, the fourth copy free
                if found >= 0:
                    total = max(total, base + found)
            if total >= low:
                out.append(Wait(c, total))
            continue
        if n <= 1:
            found = tables.best(x + one, jiang)
            total = base + found if found >= 0 else -1
        else:
            found = tables.best(x - 2 * one, jiang)
            meld = variant.meld_huxi(same_meld(pair_kind, c))
            total = base + meld + found if found >= 0 else -1
            if free_pair:  # the card joins the pair, free: the three spread over melds
                f = tables.best(x + one, jiang)
                h = base + f if f >= 0 else -1
                if own and found >= 0:  # kept: or the pair and the draw one group, a 坎
                    h = max(h, base + kan[c] + found)
                total = max(total, h)
        if total >= low:
            out.append(Wait(c, total))
    return out


def tianhu_due(variant: Variant, counts: Sequence[int], table: Sequence[Meld] = ()) -> bool:
    """Whether a freshly dealt hand (``counts``: its 21 concealed counts; ``table``: its dealt
    melds) has the forced 天胡 (:func:`tianhu`, which gives its analysis): ``tianhu.ti`` or
    more 提, or ``tianhu.kan`` or more 坎, a 提 counting as a 坎 where
    ``tianhu.ti_counts_as_kan``."""
    rules = variant.win.tianhu
    tis = sum(1 for m in table if m.kind == _MELD_TI)
    if rules.ti and tis >= rules.ti:
        return True
    kans = counts[:20].count(3) + (tis if rules.ti_counts_as_kan else 0)
    return bool(rules.kan) and kans >= rules.kan


def tianhu(variant: VariantLike, hand: HandCards, table: Sequence[Meld] = ()) -> Analysis | None:
    """The forced 天胡 of a freshly dealt hand, or ``None``.

    With dealt 提 on the ``table`` and the concealed ``hand``: ``tianhu.ti`` or more 提, or
    ``tianhu.kan`` or more 坎 (a 提 counting as a 坎 when the variant says so), is a win whatever
    the other cards ("这时玩家的门子可以不合要求，直接胡牌，而且必须天胡",
    ``003_5cd7634dfd57d897.txt``). Its 胡息: the 提 and 坎 plus the best partial decomposition of
    the rest, leftovers scoring 0 (digest G5).
    """
    variant = as_variant(variant)
    indices = read_hand(hand)[0]
    counts = list(counts_of(indices))
    if not tianhu_due(variant, counts, table):
        return None
    tis = [m for m in table if m.kind == _MELD_TI]
    kans = [i for i in range(20) if counts[i] == 3]
    searcher = _searcher(variant)
    groups = [Group(m, variant.meld_huxi(m), "table", m.kings) for m in table]
    for i in kans:
        counts[i] = 0
        m = Meld(_MELD_KAN, (i,) * 3)
        groups.append(Group(m, variant.meld_huxi(m)))
    counts[KING] = 0
    found = searcher.best(encode(counts), variant.win.max_jiang if tis else 0, partial=True)
    if found is None:  # cannot happen: a partial search always succeeds
        raise RuntimeError("partial decomposition failed")
    groups += [Group(m, searcher.huxi_of.get(m, 0)) for m in found[1]]
    total = sum(g.huxi for g in groups)
    leftover = tuple(found[2]) + (KING,) * counts_of(indices)[KING]
    return Analysis(True, None, total, Decomposition(tuple(groups), total, leftover))
