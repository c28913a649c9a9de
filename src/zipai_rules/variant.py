"""The variant model: one regional rule set as a frozen value.

A :class:`Variant` is built by :func:`zipai_rules.loader.load_variant` from YAML data that has
passed the JSON Schema and the semantic checks; code reads rules from it, never from the raw
mapping. Units: 胡息 for thresholds and meld values, cards for hand and wall sizes.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs

from .cards import deck_size
from .frozen import freeze, thaw
from .melds import Meld, MeldKind


@attrs.frozen(slots=True)
class Bonus:
    """A scoring bonus for results carrying ``label``: multiply the 胡息, and/or add units;
    not for results that also carry a label in ``unless``."""

    label: str
    multiply_huxi: int = 1
    add_units: int = 0
    unless: tuple[str, ...] = attrs.field(default=(), converter=tuple)

    def applies(self, labels: tuple[str, ...]) -> bool:
        """Whether the bonus applies to a result carrying ``labels``."""
        return self.label in labels and not any(u in labels for u in self.unless)


@attrs.frozen(slots=True)
class Scoring:
    """Settlement rules: the unit, the 胡息 → unit conversion, bonuses, 醒, who pays."""

    unit: str = "point"
    offset: int = 0
    step: int = 1
    base: int = 0
    minimum: int = 1
    fixed: int | None = None
    bonuses: tuple[Bonus, ...] = ()
    xing_per_card: int = 0
    discard_win: str = "discarder_pays_all"
    sitting_out: str = "none"
    king_penalty: int = 0

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> Scoring:
        conv = doc.get("conversion", {})
        return cls(unit=doc.get("unit", "point"), offset=conv.get("offset", 0),
                   step=conv.get("step", 1), base=conv.get("base", 0),
                   minimum=conv.get("minimum", 1), fixed=conv.get("fixed"),
                   bonuses=tuple(Bonus(**b) for b in doc.get("bonuses", ())),
                   xing_per_card=doc.get("xing", {}).get("per_card", 0),
                   discard_win=doc.get("payment", {}).get("discard_win", "discarder_pays_all"),
                   sitting_out=doc.get("payment", {}).get("sitting_out", "none"),
                   king_penalty=doc.get("huangzhuang", {}).get("king_penalty", 0))

    def units(self, huxi: int) -> int:
        """Score units of a win worth ``huxi`` 胡息 (before unit bonuses)."""
        if self.fixed is not None:
            return self.fixed
        return max((huxi - self.offset) // self.step + self.base, self.minimum)


def _frozen_set(values: Any) -> frozenset[str]:
    return frozenset(values or ())


@attrs.frozen(slots=True, repr=False)
class Variant:
    """A resolved, validated variant.

    Attributes are read by the analysis and the engine; ``doc`` keeps the resolved mapping
    (read-only all the way down: mappings are ``MappingProxyType``, lists tuples; use
    :func:`zipai_rules.frozen.thaw` for a plain copy) and ``content_hash`` the SHA-256 of its
    canonical JSON, so a game record can tell whether the rules changed. A variant pickles
    and deep-copies (it is rebuilt from its document).
    """

    id: str
    name: str
    aliases: tuple[str, ...]
    players: int
    copies: int
    kings: int
    dealer_hand: int
    other_hand: int
    wall: int
    lianzhang: bool
    min_huxi: int
    win_sources: frozenset[str]
    forced_win_sources: frozenset[str]
    jiang_requires_quad: bool
    max_jiang: int
    chou_hu: bool
    tianhu_ti: int
    tianhu_kan: int
    tianhu_ti_counts_as_kan: bool
    tianhu_optional_dealer: bool
    huxi_table: Mapping[MeldKind, tuple[int, int]]
    priority: tuple[tuple[str, ...], ...]
    chi_by: frozenset[str]
    peng_on: frozenset[str]
    pao_on_kan: frozenset[str]
    pao_on_wei: frozenset[str]
    pao_on_peng: frozenset[str]
    pao_forced: bool
    po_pao_hu: bool
    chou_chi: bool
    chou_peng: bool
    chou_own_discards: bool
    chou_wei_after_declined_peng: bool
    kan_discardable: bool
    repeat_quad_skips_discard: bool
    seats: int
    sitting_out: str
    first_dealer: str
    huangzhuang_streak: int
    display: Mapping[str, str]
    king_discardable: bool
    king_holder_wins_only_self: bool
    lianzhang_is_draw: bool
    dihu: str
    special_wins: tuple[str, ...]
    chou_blocks_on: frozenset[str]
    dealt_double_quad: str
    scoring: Scoring
    terminology: Mapping[str, str]
    citations: Mapping[str, str]
    doc: Mapping[str, Any] = attrs.field(eq=False, repr=False)
    content_hash: str = ""

    def __repr__(self) -> str:
        return f"Variant(id={self.id!r}, name={self.name!r}, hash={self.content_hash[:12]!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Variant.from_doc, (thaw(self.doc), self.content_hash))

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any], content_hash: str) -> Variant:
        """Build from a resolved mapping that already passed schema and semantic checks."""
        win, claims, chou = doc["win"], doc["claims"], doc.get("chou", {})
        tianhu = win.get("tianhu", {})
        discard = doc.get("discard", {})
        table = {MeldKind(k): (int(v[0]), int(v[1])) for k, v in doc["huxi"].items()}
        return cls(
            id=doc["id"], name=doc["name"], aliases=tuple(doc.get("aliases", ())),
            players=doc["players"], copies=doc["deck"]["copies"], kings=doc["deck"]["kings"],
            dealer_hand=doc["deal"]["dealer_hand"], other_hand=doc["deal"]["other_hand"],
            wall=doc["deal"]["wall"], lianzhang=doc["deal"].get("lianzhang", True),
            min_huxi=win["min_huxi"], win_sources=_frozen_set(win["sources"]),
            forced_win_sources=_frozen_set(win.get("forced_sources")),
            jiang_requires_quad=win.get("jiang_requires_quad", True),
            max_jiang=win.get("max_jiang", 1), chou_hu=win.get("chou_hu", False),
            tianhu_ti=tianhu.get("ti", 0), tianhu_kan=tianhu.get("kan", 0),
            tianhu_ti_counts_as_kan=tianhu.get("ti_counts_as_kan", True),
            tianhu_optional_dealer=tianhu.get("optional_dealer_win", False),
            huxi_table=MappingProxyType(table),
            priority=tuple(tuple(t) for t in claims["priority"]),
            chi_by=_frozen_set(claims["chi_by"]), peng_on=_frozen_set(claims["peng_on"]),
            pao_on_kan=_frozen_set(claims["pao_on_kan"]),
            pao_on_wei=_frozen_set(claims["pao_on_wei"]),
            pao_on_peng=_frozen_set(claims["pao_on_peng"]),
            pao_forced=claims["pao_forced"],
            po_pao_hu=claims.get("po_pao_hu", True),
            chou_chi=chou.get("chi", True), chou_peng=chou.get("peng", True),
            chou_own_discards=chou.get("own_discards", True),
            chou_wei_after_declined_peng=chou.get("chou_wei_after_declined_peng", True),
            kan_discardable=discard.get("kan_discardable", False),
            repeat_quad_skips_discard=discard.get("repeat_quad_skips_discard", True),
            seats=doc.get("seats", doc["players"]),
            sitting_out=doc.get("sitting_out", "none"),
            first_dealer=doc.get("dealer", {}).get("first", "random"),
            huangzhuang_streak=doc.get("dealer", {}).get("huangzhuang_streak", 3),
            display=MappingProxyType({"wei": "hidden", "chou_wei": "one_up", "ti": "one_up",
                                      "pao": "all_up", **doc.get("display", {})}),
            king_discardable=doc["deck"].get("king_rules", {}).get("discardable", False),
            king_holder_wins_only_self=doc["deck"].get("king_rules", {}).get(
                "holder_wins_only_self", False),
            lianzhang_is_draw=doc["deal"].get("lianzhang_is_draw", False),
            dihu=win.get("dihu", "none"), special_wins=tuple(win.get("special", ())),
            chou_blocks_on=_frozen_set(chou.get("blocks_on", ("draw", "discard"))),
            dealt_double_quad=discard.get("dealt_double_quad", "skip_first"),
            scoring=Scoring.from_doc(doc.get("scoring", {})),
            terminology=MappingProxyType(dict(doc["terminology"])),
            citations=MappingProxyType(dict(doc["citations"])),
            doc=freeze(doc), content_hash=content_hash,
        )

    def huxi(self, kind: MeldKind, big: bool) -> int:
        """胡息 of a meld kind in its small or big form."""
        return self.huxi_table[kind][1 if big else 0]

    def meld_huxi(self, meld: Meld) -> int:
        """胡息 of one meld under this variant's table (digest §1.3)."""
        return self.huxi_table[meld.kind][meld.big]

    def term(self, canonical: str) -> str:
        """The variant's own word for a canonical term (the term itself when it has none)."""
        return self.terminology.get(canonical, canonical)

    @property
    def deck_size(self) -> int:
        return deck_size(self.copies, self.kings)

    def hand_size(self, seat: int, dealer: int) -> int:
        return self.dealer_hand if seat == dealer else self.other_hand

    def resting_size(self, quads: int) -> int:
        """Cards a player holds (hand plus table) when no discard is owed, with ``quads``
        提/跑: ``other_hand + max(quads - 1, 0)`` (digest §1.4.0; 八块)."""
        if not self.repeat_quad_skips_discard:
            return self.other_hand
        return self.other_hand + max(quads - 1, 0)
