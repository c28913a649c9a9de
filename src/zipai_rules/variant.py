"""The variant model: one regional rule set as a frozen value.

A :class:`Variant` is built by :func:`zipai_rules.loader.load_variant` from YAML data that has
passed the JSON Schema and the semantic checks; code reads rules from it, never from the raw
mapping. Units: 胡息 for thresholds and meld values, cards for hand and wall sizes.

Defaults are declared once, as ``default`` in the shipped JSON Schema (:func:`variant_schema`);
:func:`normalise` fills them in, and :func:`content_hash` is taken of the normalised document.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from functools import cache
from types import MappingProxyType
from typing import Any, TypeVar

import attrs
from attrs import AttrsInstance

from .arguments import int_arg, refuse, text_arg
from .cards import deck_size, is_big, rank_of
from .frozen import derived, freeze, thaw
from .melds import Meld, MeldKind
from .mingtang import Mingtang, Pattern, ResultLike, Step, evaluate, from_bonus, scored
from .mingtang import Scoring as MingtangScoring
from .schemas import shipped_schema

_A = TypeVar("_A", bound=AttrsInstance)


@cache
def variant_schema() -> dict[str, Any]:
    """The variant JSON Schema (draft 2020-12) shipped in the package: the one home of every
    key, its type, its meaning and its ``default``."""
    return shipped_schema("variant")


def normalise(doc: Mapping[str, Any]) -> dict[str, Any]:
    """A plain copy of a resolved variant mapping (plain or frozen) with every default filled
    in: each absent key whose schema property declares a ``default`` takes it (mappings then
    fill their own keys, list items of object type likewise), and ``seats`` defaults to
    ``players``. Values of the wrong type are left as they are (the schema reports them).
    Idempotent; the :func:`content_hash` is taken of this form."""
    out: dict[str, Any] = thaw(doc)
    _fill(out, variant_schema())
    if "seats" not in out and isinstance(out.get("players"), int):
        out["seats"] = out["players"]
    return out


def _fill(node: Any, schema: Mapping[str, Any]) -> None:
    if isinstance(node, dict):
        for key, sub in schema.get("properties", {}).items():
            if key not in node and "default" in sub:
                node[key] = copy.deepcopy(sub["default"])
            if key in node:
                _fill(node[key], sub)
    elif isinstance(node, list) and isinstance(schema.get("items"), Mapping):
        for item in node:
            _fill(item, schema["items"])


#: Keys added after game records were first kept, each with its schema default, which leaves
#: every rule as it was before the key existed: :func:`content_hash` leaves such a key out
#: while it holds that default, so that a record made before it existed still names the same
#: rules (and replays).
HASH_NEUTRAL: dict[tuple[str, ...], Any] = {
    ("scoring", "conversion", "maximum"): 0,
    ("scoring", "mingtang", "max_multiplier"): 0,
    ("scoring", "payment", "max_units"): 0,
    ("scoring", "payment", "discarder_max"): 0,
    ("scoring", "payment", "zimo"): "losers_pay",
    ("scoring", "payment", "draw"): "losers_pay",
    ("scoring", "payment", "credit"): "per_loser",
    ("scoring", "payment", "discard_bonus"): {"units": 0, "at_cap": "credited"},
    ("scoring", "huangzhuang", "dealer_pays"): 0,
}


def content_hash(doc: Mapping[str, Any]) -> str:
    """SHA-256 (64 hex digits) of the canonical JSON (sorted keys, UTF-8, no spaces) of the
    :func:`normalise` d form of a resolved variant mapping, less the :data:`HASH_NEUTRAL` keys
    at their defaults: two documents that differ only in writing a default out have the same
    hash."""
    full = normalise(doc)
    for path, default in HASH_NEUTRAL.items():
        node: Any = full
        for key in path[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict) and path[-1] in node and node[path[-1]] == default:
            del node[path[-1]]
    canon = json.dumps(full, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


def _section(cls: type, *, items: bool = False) -> dict[str, Any]:
    """The metadata of an attrs field holding a nested section (or, with ``items``, a tuple
    of them)."""
    return {"section": cls, "items": items}


def _build(cls: type[_A], doc: Mapping[str, Any]) -> _A:
    """An instance of section class ``cls`` from its (normalised) mapping: a field takes the
    key of its own name; nested sections are built the same way."""
    kwargs: dict[str, Any] = {}
    for f in attrs.fields(cls):
        if not f.init or f.name not in doc:
            continue  # an optional key with no default (scoring.conversion.fixed)
        value, sub = doc[f.name], f.metadata.get("section")
        if sub is not None:
            value = tuple(_build(sub, v) for v in value) if f.metadata["items"] \
                else _build(sub, value)
        kwargs[f.name] = value
    return cls(**kwargs)


def _tiers(tiers: Iterable[Iterable[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(t) for t in tiers)


def _proxy(words: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(words))


@attrs.frozen(slots=True)
class KingRules:
    """``deck.king_rules``: what a wild 王 may do."""

    discardable: bool
    holder_wins_only_self: bool
    claims: tuple[str, ...] = attrs.field(converter=tuple)
    chi_kings: int = 1
    bi_kings: bool = False


@attrs.frozen(slots=True)
class Deck:
    """``deck``: ``copies`` of each of the 20 kinds and ``kings`` wild 王 cards."""

    copies: int
    kings: int
    king_rules: KingRules = attrs.field(metadata=_section(KingRules))
    #: cards in the deck: ``20 * copies + kings``
    size: int = derived()

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "size", deck_size(self.copies, self.kings))


@attrs.frozen(slots=True)
class Deal:
    """``deal``: hand and wall sizes in cards, the cards set aside unseen each hand
    (``set_aside``), the 亮张, and where a dealt 坎 (``dealt_kan``) and a single dealt 提
    (``single_dealt_ti``) go."""

    dealer_hand: int
    other_hand: int
    wall: int
    lianzhang: bool
    lianzhang_is_draw: bool
    set_aside: int = 0
    dealt_kan: str = "hand"
    single_dealt_ti: str = "table"

    def hand_size(self, seat: int, dealer: int) -> int:
        """Cards dealt to ``seat`` when ``dealer`` deals. Raises
        :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a seat or dealer that
        is not an int."""
        int_arg(seat, "seat", 0)
        int_arg(dealer, "dealer", 0)
        return self.dealer_hand if seat == dealer else self.other_hand

    def keeps_quad_in_hand(self, concealed_quads: int, table_quads: int) -> bool:
        """Whether a player may hold ``concealed_quads`` 4-of-a-kinds in the concealed hand
        while ``table_quads`` 提/跑 lie on the table: only a single dealt 提 under
        ``single_dealt_ti: hand``, and only until the player's next 提 or 跑 lays it down too
        (Guilin 004_4a6d8adec4e0ba73.txt 第四条6 "[自已摸到1扫穿不放在桌面；自已摸到2扫穿放在桌面不
        亮]"). The one rule the deal (:func:`~zipai_rules.engine.transition.start`) and
        :func:`~zipai_rules.analysis.analyze`'s input check read; it still counts as a 提."""
        return (concealed_quads == 0 or self.single_dealt_ti == "hand" and concealed_quads == 1
                and table_quads == 0)


@attrs.frozen(slots=True)
class Tianhu:
    """``win.tianhu``: dealt 提 / 坎 counts that make a forced 天胡 (0: none)."""

    ti: int
    kan: int
    ti_counts_as_kan: bool
    optional_dealer_win: bool


@attrs.frozen(slots=True)
class Win:
    """``win``: threshold in 胡息, sources (``self``/``draw``/``discard``), 将, 臭胡, 天胡,
    地胡, special-win hook names, 举手胡 (``jushou``) and whether a declined win must be
    beaten (``declined_must_be_beaten``), how many 偎 in a row count as a 提 for
    ``two_ti`` (``wei_run_as_ti``, 0: none), and whether a 坎 may be split at the win
    (``split_kan``)."""

    min_huxi: int
    sources: frozenset[str] = attrs.field(converter=frozenset)
    forced_sources: frozenset[str] = attrs.field(converter=frozenset)
    jiang_requires_quad: bool = attrs.field()
    max_jiang: int = attrs.field()
    chou_hu: bool = attrs.field()
    tianhu: Tianhu = attrs.field(metadata=_section(Tianhu))
    dihu: str = attrs.field()
    special: tuple[str, ...] = attrs.field(converter=tuple)
    jushou: bool = attrs.field(default=False)
    declined_must_be_beaten: bool = attrs.field(default=False)
    wei_run_as_ti: int = attrs.field(default=0)
    #: a 坎 may be split at the win (郴州); ``False``: every 坎 stays whole
    split_kan: bool = attrs.field(default=False)


@attrs.frozen(slots=True)
class Claims:
    """``claims``: priority tiers (highest first) and who may take an exposed card."""

    priority: tuple[tuple[str, ...], ...] = attrs.field(converter=_tiers)
    chi_by: frozenset[str] = attrs.field(converter=frozenset)
    peng_on: frozenset[str] = attrs.field(converter=frozenset)
    pao_on_kan: frozenset[str] = attrs.field(converter=frozenset)
    pao_on_wei: frozenset[str] = attrs.field(converter=frozenset)
    pao_on_peng: frozenset[str] = attrs.field(converter=frozenset)
    pao_forced: bool = attrs.field()
    po_pao_hu: bool = attrs.field()
    fang_pao_stops_takes: bool = attrs.field()
    own_peng_pao_first: bool = attrs.field()
    own_draw: str = attrs.field()
    own_draw_on_wei: str = attrs.field()
    #: a 坎 of a card in the hand blocks 吃 of that card (郴州)
    kan_blocks_chi: bool = attrs.field(default=False)
    #: the drawer keeps its draw unseen (``own_draw: kept``, 郴州)
    kept: bool = derived()

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "kept", self.own_draw == "kept")


@attrs.frozen(slots=True)
class Chou:
    """``chou``: 臭牌, the cards a player may no longer take. ``chi`` / ``peng``: whether a
    declined 吃 / 碰 makes the card 臭; ``scope``: for what, ``both`` (吃 and 碰, 003) or
    ``separate`` (the kind declined, 衡阳十胡抢); ``blocks_on``: the sources on which a card
    臭 for 吃 by a decline may not be 吃'd."""

    chi: bool
    peng: bool
    own_discards: bool
    chou_wei_after_declined_peng: bool
    blocks_on: frozenset[str] = attrs.field(converter=frozenset)
    scope: str
    #: a declined 吃 or 碰 makes the card 臭 for both (``scope: both``)
    both: bool = derived()

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "both", self.scope == "both")


@attrs.frozen(slots=True)
class Discard:
    """``discard``: what may be discarded and when a discard is owed."""

    kan_discardable: bool
    repeat_quad_skips_discard: bool
    dealt_double_quad: str


@attrs.frozen(slots=True)
class Dealer:
    """``dealer``: how the first dealer is chosen, and 荒庄 in a row before the next deals."""

    first: str
    huangzhuang_streak: int


@attrs.frozen(slots=True)
class Display:
    """``display``: how each meld kind is shown to the others (``hidden``, ``one_up``,
    ``all_up``); ``chi_own_draw``: a 吃 of one's own draw (``hidden`` or ``all_up``)."""

    wei: str
    chou_wei: str
    ti: str
    pao: str
    chi_own_draw: str = "all_up"


@attrs.frozen(slots=True)
class Bonus:
    """A scoring bonus for results carrying ``label``: multiply the 胡息, and/or add units;
    not for results that also carry a label in ``unless``. Scored as a 名堂
    (:attr:`Scoring.patterns`)."""

    label: str
    multiply_huxi: int
    add_units: int
    unless: tuple[str, ...] = attrs.field(converter=tuple)


def _pairs(rows: Iterable[Iterable[int]]) -> tuple[tuple[int, int], ...]:
    return tuple((int(a), int(b)) for a, b in rows)


@attrs.frozen(slots=True)
class Conversion:
    """``scoring.conversion``: units = (胡息 − offset) // step + base, at least ``minimum``;
    or ``fixed`` units per win (``None``: use the formula); or a ``table`` of
    ``(胡息, units)`` rows, ascending: a 胡息 scores the units of the last row it reaches, and
    beyond the last row one more unit per ``then_per`` 胡息 (``None``: no tail), at least
    ``minimum``. ``count_as``: ``(胡息, counts as)`` pairs applied first, to the 胡息 after
    the bonus multipliers (衡阳 10 胡 counts as 15: ``(10, 15)``). ``maximum``: the most units
    a win scores after its 名堂 (封顶, applied by :meth:`Scoring.value`; 0: no cap)."""

    offset: int
    step: int
    base: int
    minimum: int
    fixed: int | None = None
    table: tuple[tuple[int, int], ...] = attrs.field(default=(), converter=_pairs)
    then_per: int | None = None
    count_as: tuple[tuple[int, int], ...] = attrs.field(default=(), converter=_pairs)
    maximum: int = 0

    def counted(self, huxi: int) -> int:
        """The 胡息 the conversion counts for a win worth ``huxi`` (``count_as``)."""
        return next((to for at, to in self.count_as if at == huxi), huxi)

    def units(self, huxi: int) -> int:
        """Score units of ``huxi`` 胡息, already :meth:`counted` (before unit bonuses)."""
        if self.fixed is not None:
            return self.fixed
        if self.table:
            return max(self.table_units(huxi), self.minimum)
        return max((huxi - self.offset) // self.step + self.base, self.minimum)

    def table_units(self, huxi: int) -> int:
        """The ``table`` (and ``then_per`` tail) units of ``huxi``; 0 below the first row."""
        reached = [row for row in self.table if row[0] <= huxi]
        if not reached:
            return 0
        at, units = reached[-1]
        if self.then_per is not None and reached[-1] == self.table[-1]:
            units += (huxi - at) // self.then_per
        return units


@attrs.frozen(slots=True)
class Xing:
    """``scoring.xing``: units per 上醒 / 下醒 card the winner holds (0: no 醒)."""

    per_card: int


@attrs.frozen(slots=True)
class TiPayment:
    """``scoring.payment.ti``: units each other player pays a seat at once for one of its 提
    of a ``big`` card and of a ``small`` card (耒阳: 2 and 1)."""

    big: int
    small: int


@attrs.frozen(slots=True)
class DiscardBonus:
    """``scoring.payment.discard_bonus``: on a win on a discard the winner gains ``units``
    more than the discarder (or the losers) pay, credited without a payer; ``at_cap``:
    ``credited`` (the same when the discarder pays ``discarder_max``) or ``others_pay``
    (then each loser other than the discarder pays ``units``: 湘乡 10)."""

    units: int = 0
    at_cap: str = "credited"


@attrs.frozen(slots=True)
class Payment:
    """``scoring.payment``: who pays a discard win (``discarder_pays``: how many times the
    units the discarder pays alone; ``None``: once per loser); what the seat sitting out gets;
    ``ti``: units each other player pays at once for each 提 (龙) a seat makes, dealt ones
    included (0: no such payment). Caps (0: none): ``max_units``, the most one loser's
    share comes to; ``discarder_max``, the most a discarder paying for all pays. ``zimo``:
    ``losers_pay``, or ``winner_only`` (a 自摸 credits the winner and charges nobody: the
    payments do not sum to zero); ``draw``: the same choice for a win on a card another seat
    drew (source ``draw``); ``credit``: what such a win nobody pays credits the winner,
    ``per_loser`` (each loser's share, as if they paid) or ``once`` (the units once, 湘乡);
    ``discard_bonus`` (:class:`DiscardBonus`)."""

    discard_win: str
    sitting_out: str
    discarder_pays: int | None = None
    ti: TiPayment = attrs.field(factory=lambda: TiPayment(0, 0), metadata=_section(TiPayment))
    max_units: int = 0
    discarder_max: int = 0
    zimo: str = "losers_pay"
    draw: str = "losers_pay"
    credit: str = "per_loser"
    discard_bonus: DiscardBonus = attrs.field(factory=DiscardBonus,
                                              metadata=_section(DiscardBonus))

    def uncharged(self, labels: Collection[str], source: str | None) -> bool:
        """Whether a win with these result ``labels`` and ``source`` charges nobody: a 自摸
        (label ``zimo``) under ``zimo: winner_only``, a win on another seat's draw under
        ``draw: winner_only``."""
        return ((self.zimo == "winner_only" and "zimo" in labels)
                or (self.draw == "winner_only" and source == "draw"))

    def share(self, units: int) -> int:
        """The units one loser's share of a win worth ``units`` comes to (``max_units``)."""
        return min(units, self.max_units) if self.max_units else units


@attrs.frozen(slots=True)
class Huangzhuang:
    """``scoring.huangzhuang``: units each 王 holder pays per 王 on a drawn hand;
    ``dealer_pays``: units the dealer is charged on a drawn hand, paid to nobody (湘乡 10)."""

    king_penalty: int
    dealer_pays: int = 0


@attrs.frozen(slots=True)
class Scoring:
    """``scoring``: the unit, the 胡息 → unit conversion, bonuses, 名堂 (``mingtang``, absent:
    none), 醒, who pays; ``unit_word`` the region's word for the unit (``None``: the
    terminology's, which :meth:`Variant.term` gives either way)."""

    unit: str
    conversion: Conversion = attrs.field(metadata=_section(Conversion))
    bonuses: tuple[Bonus, ...] = attrs.field(metadata=_section(Bonus, items=True))
    xing: Xing = attrs.field(metadata=_section(Xing))
    payment: Payment = attrs.field(metadata=_section(Payment))
    huangzhuang: Huangzhuang = attrs.field(metadata=_section(Huangzhuang))
    mingtang: Mingtang = attrs.field(factory=Mingtang, metadata=_section(Mingtang))
    unit_word: str | None = None
    #: every 名堂 in the order it applies: the ``bonuses`` (each a pattern whose condition is
    #: its label) first, then ``mingtang.patterns``
    patterns: tuple[Pattern, ...] = derived()

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "patterns", tuple(
            from_bonus(b.label, b.multiply_huxi, b.add_units, b.unless)
            for b in self.bonuses) + self.mingtang.patterns)

    def units(self, huxi: int) -> int:
        """Score units of a win worth ``huxi`` 胡息 after multipliers (before unit bonuses):
        the ``conversion`` of the 胡息 it counts as."""
        return self.conversion.units(self.conversion.counted(huxi))

    def value(self, result: ResultLike, word: Callable[[str], str] = str) -> WinValue:
        """What a win is worth before 醒 and payments: the one valuation that settlement
        explains and that the engine compares (``win.declined_must_be_beaten``). ``word``
        names a pattern in the variant's words (:meth:`Variant.term`)."""
        return self._valued(evaluate(self.mingtang, self.patterns, result, word), result.huxi)

    def units_at(self, facts: Mapping[str, int], labels: frozenset[str], huxi: int) -> int:
        """The units each loser owes for a win of ``huxi`` 胡息 with the measured ``facts``
        (:data:`~zipai_rules.mingtang.FACTS`, whose ``huxi`` is this ``huxi``) and ``labels``
        (:func:`~zipai_rules.mingtang.labels_of`): :meth:`value`'s ``units`` without a result
        to measure."""
        return self._valued(scored(self.mingtang, self.patterns, facts, labels), huxi).units

    def _valued(self, named: MingtangScoring, huxi: int) -> WinValue:
        huxi, huxi_steps = named.huxi(huxi)
        converted = self.units(huxi)
        units, unit_steps = named.units(converted)
        most = self.conversion.maximum
        if most and units > most:
            unit_steps += (Step("cap", named.cap_word, f"{units} capped at {most}", most),)
            units = most
        return WinValue(huxi, self.conversion.counted(huxi), converted, units, huxi_steps,
                        unit_steps)


@attrs.frozen(slots=True)
class WinValue:
    """A win's valuation (:meth:`Scoring.value`): ``huxi`` after the 名堂 additions and
    multipliers, the 胡息 the conversion ``counted`` it as, the ``converted`` units, and the
    ``units`` each loser owes after the unit multipliers and additions (before 醒 and the
    discarder's share); the explaining steps of each half."""

    huxi: int
    counted: int
    converted: int
    units: int
    huxi_steps: tuple[Step, ...]
    unit_steps: tuple[Step, ...]


@attrs.frozen(slots=True)
class MatchEnd:
    """``match.end``: the match ends after ``hands`` hands, or after the first hand at whose
    end a seat's running total (in score units) is at least ``score_at_least``; with both, at
    whichever comes first; ``None``: not that way (both ``None``: no end of its own)."""

    hands: int | None = None
    score_at_least: int | None = None


@attrs.frozen(slots=True)
class Datuo:
    """``match.datuo``: 打坨. Whether a seat may double its stakes before a hand
    (``allowed``), and ``who`` may (``any``, ``dealer``, ``not_dealer``); a payment between a
    seat that 打坨 and one that does not is multiplied by ``factor``, between two that both do
    by ``both`` (湘乡 坨对坨4番 / 坨对坨3番)."""

    allowed: bool = False
    factor: int = 2
    both: int = 4
    who: str = "any"

    def multiplier(self, a: bool, b: bool) -> int:
        """What a payment between two seats is multiplied by when the first does (``a``) or
        does not 打坨, and the second likewise (``b``): 1, ``factor`` or ``both``."""
        return self.both if a and b else self.factor if a or b else 1

    def may(self, seat: int, dealer: int) -> bool:
        """Whether table seat ``seat`` may 打坨 a hand dealt by table seat ``dealer``."""
        return self.allowed and (self.who == "any" or (seat == dealer) == (self.who == "dealer"))


@attrs.frozen(slots=True)
class MatchRules:
    """``match``: how a match ends (``end``), the multiple its final totals are rounded to
    (``round_to``, a half away from zero; 1: not rounded) and 打坨 (``datuo``). Absent from a
    variant: no end of its own, no rounding, no 打坨."""

    end: MatchEnd = attrs.field(factory=MatchEnd, metadata=_section(MatchEnd))
    round_to: int = 1
    datuo: Datuo = attrs.field(factory=Datuo, metadata=_section(Datuo))


#: Keys of the ``huxi`` section that are no meld kind (``won_triple``, ``extra``).
HUXI_OPTIONS = frozenset({"won_triple", "extra"})


def _kind_set(kinds: Iterable[str]) -> frozenset[MeldKind]:
    return frozenset(MeldKind(k) for k in kinds)


@attrs.frozen(slots=True)
class HuxiExtra:
    """One ``huxi.extra`` entry: ``add`` more 胡息 for a meld of one of the ``kind`` s whose
    cards all have one of the ``ranks`` (empty: any rank) and, with ``cards`` (``small`` or
    ``big``), are all of that size (河池: a 跑 or 提 of 二/七/十 counts 3 more)."""

    kind: frozenset[MeldKind] = attrs.field(converter=_kind_set)
    add: int
    ranks: frozenset[int] = attrs.field(default=frozenset(), converter=frozenset)
    cards: str | None = None

    def applies(self, meld: Meld) -> bool:
        """Whether ``meld`` (its cards as they stand, a 王 as the card it stands for) gets
        the extra."""
        return meld.kind in self.kind and all(
            (not self.ranks or rank_of(c) in self.ranks)
            and (self.cards is None or is_big(c) == (self.cards == "big")) for c in meld.cards)


class HuxiTable(Mapping[MeldKind, tuple[int, int]]):
    """The ``huxi`` section, read-only: meld kind → (small, big) 胡息 (also as ``by_kind``, a
    read-only dict), and ``extra``, its card-dependent :class:`HuxiExtra` entries (empty:
    none)."""

    __slots__ = ("by_kind", "extra")

    def __init__(self, values: Mapping[MeldKind, tuple[int, int]],
                 extra: Iterable[HuxiExtra] = ()) -> None:
        self.by_kind: Mapping[MeldKind, tuple[int, int]] = MappingProxyType(dict(values))
        self.extra = tuple(extra)

    def __getitem__(self, kind: MeldKind) -> tuple[int, int]:
        return self.by_kind[kind]

    def __iter__(self) -> Iterator[MeldKind]:
        return iter(self.by_kind)

    def __len__(self) -> int:
        return len(self.by_kind)

    def __repr__(self) -> str:
        return f"HuxiTable({dict(self.by_kind)!r}, extra={self.extra!r})"


def _huxi_table(doc: Mapping[str, Any]) -> HuxiTable:
    return HuxiTable({MeldKind(k): (int(v[0]), int(v[1])) for k, v in doc.items()
                      if k not in HUXI_OPTIONS},
                     (HuxiExtra(**dict(e)) for e in doc.get("extra", ())))


@attrs.frozen(slots=True, repr=False)
class Variant:
    """A resolved, validated variant: nested frozen sections mirroring the YAML sections
    (``variant.win.min_huxi``, ``variant.claims.pao_forced``, ``variant.scoring.xing.per_card``,
    ``variant.match.end.hands``), every default filled in from the schema.

    ``huxi_table`` is the ``huxi`` section (meld kind → (small, big) 胡息, and its card-dependent
    ``extra`` entries, :class:`HuxiTable`) and ``won_triple`` its ``won_triple`` option
    (``peng`` or ``kan``); ``terminology`` holds ``scoring.unit_word`` as the word of
    ``scoring.unit`` (``term(scoring.unit)``). ``doc`` keeps the resolved mapping as written
    (read-only all the way down: mappings are ``MappingProxyType``, lists tuples; use
    :func:`zipai_rules.frozen.thaw` for a plain copy) and ``content_hash`` the SHA-256 of its
    :func:`normalise` d canonical JSON (:func:`content_hash`), so a game record
    can tell whether the rules changed, and two spellings of the same rules (one writing a
    default out) compare equal. A variant pickles and deep-copies (it is rebuilt from its
    document). A variant is hashable, by ``hash((content_hash, id))``: equal variants have the
    same content hash and id, so it can be a set member, a dict key or an ``lru_cache``
    argument.
    """

    id: str
    name: str
    aliases: tuple[str, ...] = attrs.field(converter=tuple)
    players: int = attrs.field()
    seats: int = attrs.field()
    sitting_out: str = attrs.field()
    deck: Deck = attrs.field(metadata=_section(Deck))
    deal: Deal = attrs.field(metadata=_section(Deal))
    win: Win = attrs.field(metadata=_section(Win))
    huxi_table: HuxiTable = attrs.field()
    won_triple: str = attrs.field()
    claims: Claims = attrs.field(metadata=_section(Claims))
    chou: Chou = attrs.field(metadata=_section(Chou))
    discard: Discard = attrs.field(metadata=_section(Discard))
    dealer: Dealer = attrs.field(metadata=_section(Dealer))
    display: Display = attrs.field(metadata=_section(Display))
    scoring: Scoring = attrs.field(metadata=_section(Scoring))
    terminology: Mapping[str, str] = attrs.field(converter=_proxy)
    citations: Mapping[str, str] = attrs.field(converter=_proxy)
    doc: Mapping[str, Any] = attrs.field(eq=False, repr=False)
    content_hash: str = attrs.field()
    #: the ``match`` section (absent: :class:`MatchRules`' defaults, as before it existed)
    match: MatchRules = attrs.field(factory=MatchRules, metadata=_section(MatchRules))

    def __repr__(self) -> str:
        return f"Variant(id={self.id!r}, name={self.name!r}, hash={self.content_hash[:12]!r})"

    def __hash__(self) -> int:
        return hash((self.content_hash, self.id))

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Pretty printers (IPython, hypothesis' reports) show the short :func:`repr`."""
        printer.text(repr(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Variant.from_doc, (thaw(self.doc),))

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> Variant:
        """Build from a resolved mapping that already passed schema and semantic checks;
        defaults are filled in (:func:`normalise`) and the content hash taken here."""
        full = normalise(doc)
        unit, word = full["scoring"]["unit"], full["scoring"].get("unit_word")
        terms = {**full["terminology"], **({unit: word} if word is not None else {})}
        return _build(cls, {**full, "terminology": terms,
                            "huxi_table": _huxi_table(full["huxi"]),
                            "won_triple": full["huxi"]["won_triple"], "doc": freeze(doc),
                            "content_hash": content_hash(full)})

    def huxi(self, kind: MeldKind, big: bool) -> int:
        """胡息 of a meld kind in its small or big form: the table value, without
        ``huxi.extra`` (:meth:`meld_huxi` counts a meld with its extras)."""
        return self.huxi_table[kind][1 if big else 0]

    def meld_huxi(self, meld: Meld) -> int:
        """胡息 of one meld under this variant's table (digest §1.3) plus its ``huxi.extra``
        (:class:`HuxiExtra`): the one count of a meld's 胡息 that the analysis (its block
        tables included), the engine, the bots and settlement read. Raises
        :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a value that is not a
        :class:`~zipai_rules.melds.Meld` (checked only on failure: this is the analysis's hot
        path)."""
        try:
            table = self.huxi_table
            value = table.by_kind[meld.kind][meld.big]
        except (AttributeError, KeyError, TypeError):
            raise refuse("meld", meld, "a Meld") from None
        extra = table.extra
        if extra:
            value += sum(e.add for e in extra if e.applies(meld))
        return value

    def term(self, canonical: str) -> str:
        """The variant's own word for a canonical term (the term itself when it has none).
        Raises :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a term that is
        not a string."""
        return self.terminology.get(text_arg(canonical, "canonical"), canonical)

    def resting_size(self, quads: int) -> int:
        """Cards a player holds (hand plus table) when no discard is owed, with ``quads``
        提/跑: ``deal.other_hand + max(quads - 1, 0)`` (digest §1.4.0; 八块). Raises
        :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for ``quads`` that is not an
        int of 0 or more."""
        if type(quads) is not int or quads < 0:  # inline: the claims read it per offer
            raise refuse("quads", quads, "an int of 0 or more")
        if not self.discard.repeat_quad_skips_discard:
            return self.deal.other_hand
        return self.deal.other_hand + max(quads - 1, 0)


VariantLike = Variant | str | os.PathLike[str]
"""A variant as the library's functions take it: a :class:`Variant`, a preset id, Chinese name
or alias (``"hunan"``, ``"湖南跑胡子"``, ``"跑胡子"``), or the path of a variant file
(``.yaml``/``.yml``)."""


def as_variant(variant: VariantLike, argument: str = "variant") -> Variant:
    """The :class:`Variant` that ``variant`` names, read as ``zipai --variant`` reads it
    (:func:`~zipai_rules.variant_file.variant_named`); a :class:`Variant` is returned as it is.

    Raises :class:`~zipai_rules.errors.VariantError`: ``unknown_variant`` for a name that names
    no preset or a value that is not a variant (the message names ``argument``), and the
    loader's codes for a file that cannot be loaded."""
    if isinstance(variant, Variant):
        return variant
    from .variant_file import variant_named  # the loader and the presets, on first use

    return variant_named(variant, argument=argument)
