"""The referee's reading of a variant: its normalised data (a plain mapping, as the preset YAML
says it with the schema's defaults filled in) turned into the few facts the referee judges by.
The data only names a rule; what it means is implemented in the referee's own modules.

Where a seed says more than the data, the seed's rule is taken, each with its phrase:
``SEED_RULES`` below."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# Rules read from the seeds where the preset data is silent or, per a known open issue, wrong.
SEED_RULES = {
    # 003_5cd7634dfd57d897.txt "玩家可以吃、碰却选择不吃、不碰时，这张牌就成了该玩家的臭牌…不得再吃
    # 或者碰"; 001_5964eea38dea0018.txt "可吃碰而未吃碰，则这张牌就成臭牌，第二次再出现同张牌时，
    # 不能再吃碰": a declined 吃 or 碰 blocks both, unless the data says ``separate``.
    "chou_scope_default": "both",
    # docs/regional-sources.md 1.4 (衡阳红黑, 耒阳提龙: a missed 碰 marks the kind 臭 for 碰, a
    # passed 吃 for 吃) and 3.3 (郴州: "a seat that could 碰 it and did not may never 碰 that
    # kind again; the next seat that could 吃 it and did not may never 吃 that kind again").
    "chou_scope_separate": ("hengyang_honghei", "leiyang_tilong", "chenzhou", "chenzhou_wang"),
    # 004_4a6d8adec4e0ba73.txt 第四条7 "‘扫’后别家摸起1相同牌" (开舵 onto a 扫 by another's
    # draw); a discarded fourth card does not force it (the fix of the Guilin 开舵 item).
    "wei_pao_by_draw_only": ("guilin", "liuzhou_bayi"),
    # docs/regional-sources.md 3.3 (郴州): at the win "the drawn card may be used in any group
    # here": a 坎 of the hand is not locked at the win.
    "kan_free_at_win": ("chenzhou", "chenzhou_wang"),
}


@dataclass
class Rules:
    id: str
    players: int
    dealer_hand: int
    other_hand: int
    kings: int
    copies: int
    min_huxi: int
    sources: tuple[str, ...]
    huxi: Mapping[str, Any]
    won_triple: str
    priority: tuple[tuple[str, ...], ...]
    chi_by: tuple[str, ...]
    peng_on: tuple[str, ...]
    pao_on_kan: tuple[str, ...]
    pao_on_wei: tuple[str, ...]
    pao_on_peng: tuple[str, ...]
    pao_forced: bool
    own_draw: str
    own_draw_on_wei: str
    chou_chi: bool
    chou_peng: bool
    chou_own_discards: bool
    chou_blocks_on: tuple[str, ...]
    chou_scope: str
    chou_hu: bool
    chou_wei_after_declined_peng: bool
    repeat_quad_skips: bool
    dealt_double_quad: str
    king_holder_self_only: bool
    king_claims: tuple[str, ...]
    special: tuple[str, ...]
    lianzhang_is_draw: bool
    scoring: Mapping[str, Any]
    has_mingtang: bool
    declined_must_be_beaten: bool
    fang_pao_stops_takes: bool
    kan_free_at_win: bool
    raw: Mapping[str, Any] = field(repr=False, default_factory=dict)

    def tier(self, kind: str) -> int:
        """The claim tier of ``kind`` (0 the highest)."""
        for i, row in enumerate(self.priority):
            if kind in row:
                return i
        return len(self.priority)


def _scope(doc: Mapping[str, Any]) -> str:
    for value in doc["chou"].values():
        if value in ("both", "separate"):
            return str(value)
    if doc["id"] in SEED_RULES["chou_scope_separate"]:
        return "separate"
    return SEED_RULES["chou_scope_default"]  # type: ignore[return-value]


def rules_of(doc: Mapping[str, Any]) -> Rules:
    """The referee's rules of a normalised variant mapping."""
    win, claims, chou, deal = doc["win"], doc["claims"], doc["chou"], doc["deal"]
    pao_on_wei = tuple(claims["pao_on_wei"])
    if doc["id"] in SEED_RULES["wei_pao_by_draw_only"]:
        pao_on_wei = tuple(s for s in pao_on_wei if s != "discard")
    return Rules(
        id=doc["id"], players=doc["players"], dealer_hand=deal["dealer_hand"],
        other_hand=deal["other_hand"], kings=doc["deck"]["kings"], copies=doc["deck"]["copies"],
        min_huxi=win["min_huxi"], sources=tuple(win["sources"]), huxi=doc["huxi"],
        won_triple=doc["huxi"].get("won_triple", "peng"),
        priority=tuple(tuple(r) for r in claims["priority"]), chi_by=tuple(claims["chi_by"]),
        peng_on=tuple(claims["peng_on"]), pao_on_kan=tuple(claims["pao_on_kan"]),
        pao_on_wei=pao_on_wei, pao_on_peng=tuple(claims["pao_on_peng"]),
        pao_forced=claims["pao_forced"], own_draw=claims.get("own_draw", "shown"),
        own_draw_on_wei=claims.get("own_draw_on_wei", "ti"),
        chou_chi=chou["chi"], chou_peng=chou["peng"], chou_own_discards=chou["own_discards"],
        chou_blocks_on=tuple(chou["blocks_on"]), chou_scope=_scope(doc),
        chou_hu=win["chou_hu"],
        chou_wei_after_declined_peng=chou["chou_wei_after_declined_peng"],
        repeat_quad_skips=doc["discard"]["repeat_quad_skips_discard"],
        dealt_double_quad=doc["discard"]["dealt_double_quad"],
        king_holder_self_only=doc["deck"]["king_rules"]["holder_wins_only_self"],
        king_claims=tuple(doc["deck"]["king_rules"]["claims"]),
        special=tuple(win.get("special", ())), lianzhang_is_draw=deal["lianzhang_is_draw"],
        scoring=doc["scoring"], has_mingtang=bool(doc["scoring"].get("mingtang")),
        declined_must_be_beaten=win.get("declined_must_be_beaten", False),
        fang_pao_stops_takes=claims.get("fang_pao_stops_takes", False),
        kan_free_at_win=doc["id"] in SEED_RULES["kan_free_at_win"], raw=doc)
