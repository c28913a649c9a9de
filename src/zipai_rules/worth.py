"""A win's worth: what decides between the splits of one win.

A hand often wins in several ways: the incoming card placed differently (kept loose with the
坎 whole, or making a 跑 of it), or the concealed cards split differently. The winner takes
the split that is paid most: "一张牌有几种胡法时，按分数最高的那条走" (``duanly/hzy``
``docs/RULES.md`` 违规罚分; ``packages/engine/src/game.ts`` ``execClaim`` case ``hu``: a claimed
card is played as a 跑 when winning after it is worth more). The worth of a split is the units
each loser owes for it (:meth:`~zipai_rules.variant.Scoring.value`, the valuation settlement
explains: 名堂, the conversion and its ``count_as``, unit multipliers); who pays and how many
times is the same for every split of one win, so the units order the splits as the payments
do. Between splits of equal worth the higher 胡息 wins, and between those the first the search
finds (the split of the most 胡息 that the analysis always gave).

Most variants need no more than the split of the most 胡息: a split's worth then grows with its
胡息 (:func:`reading` is :data:`BY_HUXI`). Only where the scoring reads the split itself is more
needed: a 名堂 on the win's 胡息 (衡阳 "10 胡按 15 算"), a conversion that counts some 胡息 as
more (``count_as``) or pays fewer units for more 胡息 (耒阳's 卡胡 table: 10 胡 2 敦, 11 胡 1), a
fixed-value shape (无胡 scores 21), a 名堂 on the split's groups (``groups``, ``sets``,
``melds_ti`` …, filtered by ``where`` or not, ``hand_cards``, ``hand_groups``) or on
提龙胡/开跑胡/偎起胡, and with 王 in the deck a 名堂 on the cards a 王 stands
for (``red`` … under ``kings: as_stood_for``, ``winning_kind``). 醒 (``scoring.xing``) counts
the winner's cards, the same in every split without 王, and is not part of the worth.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, Protocol, TypeVar

import attrs

from .cards import KING
from .hooks import FIXED_VALUE_WINS
from .melds import Meld, MeldKind
from .mingtang import FACTS, MEASURED_LABELS, DecompositionLike, count_cards
from .special import WU_HU_HUXI
from .variant import Variant
from .vocab import Label, Source

#: the enum members read here, bound once (docs/benchmarks.md, "Enum members bound once")
_LABEL_TIANHU: Final = Label.TIANHU
_LABEL_ZIMO: Final = Label.ZIMO
_SOURCE_SELF: Final = Source.SELF

BY_HUXI, ON_HUXI, ON_SPLIT = 0, 1, 2
"""What :func:`reading` finds: the split of the most 胡息 is the worth's too (``BY_HUXI``);
the worth depends on the split through its 胡息 only (``ON_HUXI``); or on the split's groups,
or the cards its 王 stand for (``ON_SPLIT``)."""

#: facts that differ between splits of the same cards (every group count)
SPLIT_FACTS = frozenset({"groups", "sequences", "sets", *(f"melds_{k.value}" for k in MeldKind),
                         "hand_cards", "hand_groups"})
#: facts of the cards that a 王 standing for one card or another changes
STAND_IN_FACTS = frozenset({"red", "black", "small", "big"})
#: the measured labels that the split decides (the winning card in a 提, 跑 or 偎 of it)
SPLIT_LABELS = frozenset(MEASURED_LABELS) - {"haidi"}


@attrs.frozen(slots=True)
class Occasion:
    """What a win's worth reads besides its split: the result ``labels`` the win would carry
    (``zimo``, ``tianhu``, ``dihu``, ``jushou`` …), the ``card`` the result names (the card won
    on; ``None``: none, as for a 天胡) and whether the wall is empty (``haidi``, 海底)."""

    labels: tuple[Label, ...] = ()
    card: int | None = None
    haidi: bool = False


def default_occasion(card: int | None, source: str | None, dealt: bool = False) -> Occasion:
    """The occasion a win has when nothing else is known of the table (:func:`analyze`): 自摸
    on one's own draw, 天胡 for the dealt hand, the incoming ``card`` named."""
    labels: tuple[Label, ...] = (_LABEL_TIANHU,) if dealt else ()
    if source == _SOURCE_SELF and not dealt:
        labels += (_LABEL_ZIMO,)
    return Occasion(labels, card)


_READINGS: dict[tuple[str, frozenset[str] | None], int] = {}
#: the most entries of the reading and bound caches before each is emptied
CACHE_LIMIT = 4096


def reading(variant: Variant, occasion: Occasion | None = None) -> int:
    """How the worth of a win of ``variant`` on this ``occasion`` (``None``: any) depends on
    its split: :data:`BY_HUXI`, :data:`ON_HUXI` or :data:`ON_SPLIT`. A 名堂 whose label
    condition the occasion's labels fail, or that a label of its ``unless`` excludes, never
    applies and is not read. Remembered per variant and labels."""
    known = None if occasion is None else _labels(occasion, None)
    key = (variant.content_hash or variant.id, known)
    found = _READINGS.get(key)
    if found is None:
        if len(_READINGS) >= CACHE_LIMIT:
            _READINGS.clear()
        found = _READINGS[key] = _reading(variant, known)
    return found


def _reading(variant: Variant, labels: frozenset[str] | None) -> int:
    sc = variant.scoring
    stand_ins = variant.deck.kings > 0
    split_facts = SPLIT_FACTS | ({"winning_kind"} if stand_ins else set()) | (
        STAND_IN_FACTS if stand_ins and sc.mingtang.kings == "as_stood_for" else set())
    level = BY_HUXI
    conv = sc.conversion
    units = [u for _, u in conv.table]
    if conv.count_as or any(b < a for a, b in zip(units, units[1:], strict=False)) or \
            any(name in FIXED_VALUE_WINS for name in variant.win.special):
        level = ON_HUXI
    for p in sc.patterns:
        facts: set[str] = set()
        never = False
        for c in p.when:
            if c.label is not None:
                if c.label in SPLIT_LABELS:
                    return ON_SPLIT
                never = never or (labels is not None and c.label not in labels)
            elif c.fact is not None:
                facts.add(c.fact)
        if any(u in SPLIT_LABELS for u in p.unless):
            return ON_SPLIT
        if never or (labels is not None and any(u in labels for u in p.unless)):
            continue
        if p.per is not None:
            facts.add(p.per.fact)
        if facts & split_facts:
            return ON_SPLIT
        if "huxi" in facts:
            level = ON_HUXI
    return level


def card_facts(variant: Variant, hand: Sequence[int], table: Iterable[Meld],
               card: int | None, won: int | None) -> dict[str, int]:
    """The :data:`~zipai_rules.mingtang.FACTS` of a win that every split shares, counted on
    the cards: ``red`` … ``big`` and ``kings`` of the concealed counts ``hand``, the ``table``
    melds and the incoming ``card``, and ``winning_kind`` of the card ``won`` (a 王 as
    ``scoring.mingtang.kings`` says, a stand-in on the table as the 王 it is). The group
    counts are 0: read only where :func:`reading` is :data:`ON_HUXI`, which they never are."""
    facts = dict.fromkeys(FACTS, 0)
    cards = [i for i in range(len(hand)) for _ in range(hand[i])]
    for m in table:
        cards += m.physical
    if card is not None:
        cards.append(card)
    count_cards(facts, cards, variant.scoring.mingtang.kings)
    facts["kings"] = cards.count(KING)
    if won is not None and won != KING:
        facts["winning_kind"] = cards.count(won)
    return facts


_CURVES: dict[tuple[Any, ...], tuple[list[int], list[int], dict[str, int]]] = {}


def _curve(variant: Variant, facts: Mapping[str, int], occasion: Occasion, upto: int
           ) -> tuple[list[int], list[int], dict[str, int]]:
    """The units of a win of each 胡息 from ``win.min_huxi`` to ``upto`` at least, their
    running maximum, and the units of each fixed-value shape, with these ``facts`` on this
    ``occasion``: remembered per variant, the facts the 名堂 read and the labels, and
    extended as far as asked."""
    key = (variant.content_hash or variant.id,
           tuple(facts[f] for f in _facts_read(variant)), _labels(occasion, None))
    found = _CURVES.get(key)
    if found is None:
        if len(_CURVES) >= CACHE_LIMIT:
            _CURVES.clear()
        fixed = {}
        for name in variant.win.special:
            if name in FIXED_VALUE_WINS:  # a shape of unknown value: the splits are searched
                value = FIXED_HUXI.get(name)
                fixed[name] = _units(variant, facts, occasion, value, name) \
                    if value is not None else _NEVER_SURE
        found = _CURVES[key] = ([], [], fixed)
    worth, most, _ = found
    low = variant.win.min_huxi
    while len(worth) <= upto - low:
        worth.append(_units(variant, facts, occasion, low + len(worth)))
        most.append(max(worth[-1], most[-1]) if most else worth[-1])
    return found


def most_huxi_pays_most(variant: Variant, facts: Mapping[str, int], occasion: Occasion,
                        top: int) -> bool:
    """Where the worth depends on the split through its 胡息 only (:data:`ON_HUXI`): whether
    no split of a win whose most 胡息 is ``top`` can be worth more than one of ``top``, for
    any 胡息 from ``win.min_huxi`` up, or any fixed-value shape (无胡) it might have; ``facts``:
    :func:`card_facts`."""
    low = variant.win.min_huxi
    if top < low:
        return False  # a fixed-value win: its splits are searched
    worth, most, fixed = _curve(variant, facts, occasion, top)
    best = worth[top - low]
    return (top == low or most[top - low - 1] <= best) and \
        all(f <= best for f in fixed.values())


def worth_at(variant: Variant, facts: Mapping[str, int], occasion: Occasion, split: Split
             ) -> int:
    """Where the worth depends on the split through its 胡息 only (:data:`ON_HUXI`): the
    units of a win on ``split`` (its ``huxi``, or the fixed-value shape its ``special``
    names), as :func:`units` gives them, from the remembered worth of each 胡息."""
    worth, _, fixed = _curve(variant, facts, occasion, split.huxi)
    if split.special is not None and split.special in fixed:
        return fixed[split.special]
    return worth[split.huxi - variant.win.min_huxi]


#: a fixed-value shape's worth when its 胡息 is unknown: above any split's
_NEVER_SURE = 1 << 62


def _units(variant: Variant, facts: Mapping[str, int], occasion: Occasion, huxi: int,
           special: str | None = None) -> int:
    """The units of a win of ``huxi`` 胡息 with these ``facts`` on this ``occasion``."""
    here = dict(facts)
    here["huxi"] = huxi
    return variant.scoring.units_at(here, _labels(occasion, special), huxi)


_READ: dict[str, tuple[str, ...]] = {}


def _facts_read(variant: Variant) -> tuple[str, ...]:
    """The facts but ``huxi`` that some 名堂 of ``variant`` reads, in :data:`FACTS` order."""
    key = variant.content_hash or variant.id
    found = _READ.get(key)
    if found is None:
        if len(_READ) >= CACHE_LIMIT:
            _READ.clear()
        named = {c.fact for p in variant.scoring.patterns for c in p.when if c.fact} | {
            p.per.fact for p in variant.scoring.patterns if p.per is not None}
        found = _READ[key] = tuple(f for f in FACTS if f in named and f != "huxi")
    return found


#: the 胡息 each fixed-value shape scores as (无胡: 21)
FIXED_HUXI = {"wu_hu": WU_HU_HUXI}


def _labels(occasion: Occasion, special: str | None) -> frozenset[str]:
    """The labels the worth reads: the occasion's, 海底, a fixed-value shape's name."""
    out = {str(x) for x in occasion.labels}
    if occasion.haidi:
        out.add("haidi")
    if special is not None:
        out.add(special)
    return frozenset(out)


class Split(DecompositionLike, Protocol):
    """A split as :func:`choose` reads it (:class:`~zipai_rules.analysis.Decomposition`)."""

    @property
    def huxi(self) -> int: ...
    @property
    def special(self) -> str | None: ...


@attrs.frozen(slots=True)
class _Win:
    """A win on one split as :meth:`~zipai_rules.variant.Scoring.value` reads it."""

    card: int | None
    source: Source | None
    huxi: int
    labels: tuple[Label, ...]
    decomposition: Split
    flipped: int | None


def units(variant: Variant, split: Split, occasion: Occasion, source: str | None) -> int:
    """The units each loser owes for a win on ``split`` (its ``huxi``; a fixed-value shape
    named by its ``special``) from ``source`` on this ``occasion``."""
    labels = occasion.labels
    if split.special is not None and split.special not in labels:
        labels += (Label(split.special),)
    src = None if source is None else Source(source)
    win = _Win(occasion.card, src, split.huxi, labels, split,
               None if occasion.haidi else 0)  # 0: some card left to draw (not 海底)
    return variant.scoring.value(win).units


S = TypeVar("S", bound=Split)


def choose(variant: Variant, top: S, splits: Iterable[S], occasion: Occasion,
           source: str | None, worth: Callable[[S], int] | None = None) -> S:
    """The split a win is taken with: of ``top`` (the split of the most 胡息) and the
    ``splits`` (each a win: at least ``win.min_huxi`` or a fixed-value shape, as given), the
    one worth the most :func:`units`, then the most 胡息, then ``top``, then the first.
    ``worth``: the units of a split where they are known otherwise (:func:`worth_at`)."""
    def valued(split: S) -> int:
        return units(variant, split, occasion, source) if worth is None else worth(split)

    best = top
    best_key = (valued(top), top.huxi)
    for s in splits:
        if s is top:
            continue
        key = (valued(s), s.huxi)
        if key > best_key:
            best, best_key = s, key
    return best
