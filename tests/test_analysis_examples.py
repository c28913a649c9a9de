"""Hand analysis against the worked examples of the rules digest (§4) and the rules of §1.2–§1.5.

Every expected value below was worked out by hand from the digest, not taken from the code.
Hunan examples use the shipped preset. Guilin, Shaoyang and Hengyang examples use test-local
variants that extend Hunan and change only what the digest says differs: the threshold and the
win sources (digest §1.5, §5), plus for Guilin the 碰 upgrade source (C2) and "胡牌时可以不开舵"
(C9). The 胡息 table is Hunan's in all of them: digest §1.3 (c) adopts the Guilin seed table as
the default for every other variant.
"""

from collections import Counter
from functools import cache

import pytest

from helpers import verdict
from zipai_rules import CardError, HandError, analyze, parse_meld, tianhu, waits
from zipai_rules.analysis import Wait
from zipai_rules.cards import format_cards, parse_indices
from zipai_rules.loader import build_variant
from zipai_rules.presets import raw_preset

# --- helpers ------------------------------------------------------------------------------------

def H(text):
    """Concealed hand as card indices."""
    return parse_indices(text)


def T(*specs):
    """Table melds, written KIND=CARDS."""
    return [parse_meld(s) for s in specs]


def card(text):
    (i,) = parse_indices(text)
    return i


def M(*specs):
    """Expected multiset of (kind, cards) written "kind:cards"."""
    out = Counter()
    for s in specs:
        kind, cards = s.split(":")
        out[(kind, format_cards(sorted(parse_indices(cards))))] += 1
    return out


def melds(decomposition):
    return Counter((g.meld.kind.value, format_cards(g.meld.cards)) for g in decomposition.groups)


def check(a, *, win, reason, huxi, best=None):
    assert (a.win, a.reason, a.huxi) == (win, reason, huxi)
    if best is None:
        return
    assert a.best is not None
    assert melds(a.best) == best
    # the groups add up to the total
    assert sum(g.huxi for g in a.best.groups) == a.best.huxi == huxi


def local_variant(vid, name, win, claims=None):
    raw = {"extends": "hunan", "id": vid, "name": name, "win": win,
           "terminology": {}, "citations": {}}
    if claims:
        raw["claims"] = claims
    return build_variant(raw, raw_preset, f"<test {vid}>")


@cache
def guilin():
    """Guilin (004): ≥ 10 胡 (第六条2 "胡牌最低胡牌数10胡"), discard wins allowed and forced
    (第五条6 "放炮必胡"), 碰 → 开舵 only by one's own draw, "胡牌时可以不开舵"."""
    return local_variant("guilin_test", "桂林字牌",
                         {"min_huxi": 10, "sources": ["self", "draw", "discard"],
                          "forced_sources": ["discard"]},
                         {"pao_on_peng": ["self"], "po_pao_hu": True})


@cache
def shaoyang():
    """Shaoyang (001): "最低10胡息才能胡牌"; "任何人打出来的字不能胡"."""
    return local_variant("shaoyang_test", "邵阳字牌", {"min_huxi": 10, "sources": ["self", "draw"]})


@cache
def shihuqiang():
    """Hengyang 十胡抢 (000 L127): "十胡就可胡牌"; discard wins [D] ("不能吃但可和牌")."""
    return local_variant("shihuqiang_test", "衡阳十胡抢",
                         {"min_huxi": 10, "sources": ["self", "draw", "discard"]})


@cache
def liuhuqiang(min_huxi=6):
    """Hengyang 六胡抢 (000 L83): "六胡就可胡牌" (or the text's "15息", C3)."""
    return local_variant(f"liuhuqiang_{min_huxi}_test", "衡阳六胡抢",
                         {"min_huxi": min_huxi, "sources": ["self", "draw", "discard"]})


# --- the 胡息 tables ------------------------------------------------------------------------------

def test_guilin_seed_table_is_hunan_table(hunan):
    """004_4a6d8adec4e0ba73.txt 第七条四): "扫穿（四）： 大字12胡；小字9胡", "开舵（四）： 大字9胡；小字6胡",
    "扫、过扫（三）： 大字6胡；小字3胡", "碰（三）： 大字3胡；小字1胡", 壹贰叁 / 贰柒拾 6, 一二三 / 二七十 3,
    "普通顺子及搭子不计胡头". Digest §1.3 (c) uses this table for Hunan."""
    seed = {"ti": (9, 12), "pao": (6, 9), "wei": (3, 6), "chou_wei": (3, 6), "kan": (3, 6),
            "peng": (1, 3), "yi_er_san": (3, 6), "er_qi_shi": (3, 6), "shun": (0, 0),
            "jiao": (0, 0), "jiang": (0, 0)}
    assert {k.value: v for k, v in hunan.huxi_table.items()} == seed
    assert dict(guilin().huxi_table) == dict(hunan.huxi_table)
    assert hunan.win.min_huxi == 15 and hunan.win.sources == {"self", "draw"}


# --- A. Guilin ----------------------------------------------------------------------------------

E4_HAND = "x1 x1 d1 x2 x2 x7 x10 x10 d2 d7 d10"
E4_TABLE = ("peng=x5 x5 x5", "chi=d4 d5 d6", "chi=x3 x4 x5")
E4_A = M("peng:x5 x5 x5", "shun:d4 d5 d6", "shun:x3 x4 x5", "jiao:x1 x1 d1",
         "er_qi_shi:x2 x7 x10", "er_qi_shi:x2 x7 x10", "er_qi_shi:d2 d7 d10")
E4_B = M("peng:x5 x5 x5", "shun:d4 d5 d6", "shun:x3 x4 x5", "jiao:x1 x1 d1",
         "jiao:x2 x2 d2", "jiao:x7 x7 d7", "jiao:x10 x10 d10")


def test_e4_all_decompositions():
    """E4 (its best 13 is checked on the Guilin preset in test_variant_examples.py). Exactly two
    decompositions: A = 12 concealed (13 in all), B = four 绞 = 0 (1 in all)."""
    a = verdict(guilin(), H(E4_HAND), T(*E4_TABLE), card("x7"), "draw",
                all_decompositions=True)
    assert a.win and a.huxi == 13
    assert [d.huxi for d in a.decompositions] == [13, 1]
    assert melds(a.decompositions[0]) == E4_A
    assert melds(a.decompositions[1]) == E4_B
    assert a.best.huxi == 13


# --- B. Hunan -----------------------------------------------------------------------------------

E16_HAND = "x4 x5 x6 x2 x7 x10 x8 x9 x10 d9 d10"
E16_TABLE = ("wei=d7 d7 d7", "peng=d2 d2 d2", "chi=x1 x2 x3")
E16_BEST = M("wei:d7 d7 d7", "peng:d2 d2 d2", "yi_er_san:x1 x2 x3", "shun:x4 x5 x6",
             "er_qi_shi:x2 x7 x10", "shun:x8 x9 x10", "shun:d8 d9 d10")


def test_e16a_no_win_on_a_discard(hunan):
    """E16 (a). 003_5cd7634dfd57d897.txt "任何人打出的牌都不能胡". 12 + 3 = 15 but d8 was discarded."""
    a = verdict(hunan, H(E16_HAND), T(*E16_TABLE), card("d8"), "discard")
    check(a, win=False, reason="discard_win_not_allowed", huxi=15, best=E16_BEST)


def test_e16b_win_on_another_players_draw(hunan):
    """E16 (b). 003_5cd7634dfd57d897.txt "只能胡各玩家从墩上摸出来并且明示的牌（可以是自已摸的也可以是别人摸的）"."""
    a = verdict(hunan, H(E16_HAND), T(*E16_TABLE), card("d8"), "draw")
    check(a, win=True, reason=None, huxi=15, best=E16_BEST)


def test_e16c_win_on_own_draw(hunan):
    """E16 (c). 003_5cd7634dfd57d897.txt "可以是自已摸的": own draw (自摸) → win, 15."""
    a = verdict(hunan, H(E16_HAND), T(*E16_TABLE), card("d8"), "self")
    check(a, win=True, reason=None, huxi=15, best=E16_BEST)


def test_e16_waits(hunan):
    """E16. The hand waits on d8 alone (15 胡息); d9 and d10 can only go in [d8 d9 d10] or with a
    second x9 / d9, which then strands x2. No card wins from a discard
    (003_5cd7634dfd57d897.txt "任何人打出的牌都不能胡")."""
    assert waits(hunan, H(E16_HAND), T(*E16_TABLE)) == [Wait(card("d8"), 15)]
    assert waits(hunan, H(E16_HAND), T(*E16_TABLE), "self") == [Wait(card("d8"), 15)]
    assert waits(hunan, H(E16_HAND), T(*E16_TABLE), "discard") == []


def test_e17_seven_menzi_with_ti_and_jiang(hunan):
    """E17. 003_5cd7634dfd57d897.txt "当有跑牌或提牌后，必须有且只能有一对牌做为一方门子".
    提 x3 9 + 碰 d8 3 + 壹贰叁 6 = 18; concealed 0."""
    a = verdict(hunan, H("x10 x10 x4 x5 x6 d4 d5 d6 x7 x8"),
                T("ti=x3 x3 x3 x3", "peng=d8 d8 d8", "chi=d1 d2 d3"), card("x9"), "draw")
    check(a, win=True, reason=None, huxi=18,
          best=M("ti:x3 x3 x3 x3", "peng:d8 d8 d8", "yi_er_san:d1 d2 d3", "shun:x4 x5 x6",
                 "shun:d4 d5 d6", "shun:x7 x8 x9", "jiang:x10 x10"))


def test_e18_three_ti_tianhu(hunan):
    """E18. 003_5cd7634dfd57d897.txt "这时玩家的门子可以不合要求，直接胡牌，而且必须天胡".
    提 x1 9 + 提 d5 12 + 提 x10 9 = 30; the 8 leftovers form no meld and score 0 (G5)."""
    a = tianhu(hunan, H("x2 x4 x6 x8 d2 d4 d7 d9"),
               T("ti=x1 x1 x1 x1", "ti=d5 d5 d5 d5", "ti=x10 x10 x10 x10"))
    assert a is not None
    check(a, win=True, reason=None, huxi=30,
          best=M("ti:x1 x1 x1 x1", "ti:d5 d5 d5 d5", "ti:x10 x10 x10 x10"))
    assert sorted(a.best.leftover) == H("x2 x4 x6 x8 d2 d4 d7 d9")


def test_e19_five_kan_with_ti_as_kan(hunan):
    """E19. 003_5cd7634dfd57d897.txt "提牌可以当坎牌算 … 提牌和坎牌加起来达到5门或以上也算天胡".
    2 提 + 3 坎: 9 + 12 + 3 + 6 + 6 = 36."""
    a = tianhu(hunan, H("x9 x9 x9 d1 d1 d1 d10 d10 d10 x5 d4 x7"),
               T("ti=x3 x3 x3 x3", "ti=d7 d7 d7 d7"))
    assert a is not None
    check(a, win=True, reason=None, huxi=36,
          best=M("ti:x3 x3 x3 x3", "ti:d7 d7 d7 d7", "kan:x9 x9 x9", "kan:d1 d1 d1",
                 "kan:d10 d10 d10"))
    assert sorted(a.best.leftover) == H("x5 x7 d4")


def test_e20_kan_cannot_act_as_ti(hunan):
    """E20. 003_5cd7634dfd57d897.txt "提牌可以当坎牌算，但坎牌不可充当提牌". 2 提 + 2 坎 = 4 门 < 5 and
    2 提 < 3 → no 天胡."""
    assert tianhu(hunan, H("x9 x9 x9 d1 d1 d1 x2 x4 x8 x10 d5 d6 d10"),
                  T("ti=x3 x3 x3 x3", "ti=d7 d7 d7 d7")) is None


def test_e21_liangzhang_makes_third_ti(hunan):
    """E21. 000_cdb63c032605c9a1.txt §字牌规则说明 "如果亮张的牌正好构成第3提或第5坎，则庄家天胡而且自摸".
    提 x2 9 + 提 d6 12 + 提 x8 9 = 30 (the rest can at best form [d8 d9 d10], worth 0)."""
    hand = H("x1 x3 x5 d2 d4 d8 d9 x10 d10")
    a = tianhu(hunan, hand, T("ti=x2 x2 x2 x2", "ti=d6 d6 d6 d6", "ti=x8 x8 x8 x8"))
    assert a is not None
    assert (a.win, a.reason, a.huxi) == (True, None, 30)
    got = melds(a.best)
    for ti in ("x2", "d6", "x8"):
        assert got[("ti", " ".join([ti] * 4))] == 1
    in_hand = sorted([i for g in a.best.groups if g.place == "hand" for i in g.meld.cards]
                     + list(a.best.leftover))
    assert in_hand == sorted(hand)
    assert set(H("x1 x3 x5 d2 d4 x10")) <= set(a.best.leftover)


def test_tianhu_none_for_an_ordinary_hand(hunan):
    """Digest §1.6: 天胡 needs 3 提 or 5 坎; E16's hand has neither."""
    assert tianhu(hunan, H(E16_HAND)) is None


# --- C. Shaoyang --------------------------------------------------------------------------------

def test_e29_dihu_hand():
    """E29. 001_5964eea38dea0018.txt 地胡 "闲家要牌之前揭底牌的第一张牌正好是闲家所要胡的牌"; "最低10胡息".
    坎 d10 6 + 坎 x8 3 + 一二三 3 + 壹贰叁 6 + 0 + 0 + 二七十 3 = 21."""
    a = verdict(shaoyang(), H("d10 d10 d10 x8 x8 x8 x1 x2 x3 d1 d2 d3 x4 x5 x6 d4 d5 x2 x7 x10"),
                (), card("d6"), "draw")
    check(a, win=True, reason=None, huxi=21,
          best=M("kan:d10 d10 d10", "kan:x8 x8 x8", "yi_er_san:x1 x2 x3", "yi_er_san:d1 d2 d3",
                 "shun:x4 x5 x6", "shun:d4 d5 d6", "er_qi_shi:x2 x7 x10"))


def test_e30_dealer_hand():
    """E30. 001_5964eea38dea0018.txt "庄家拿满21张后，达到胡牌条件，胡牌后所得胡数*以2".
    6 + 6 + 3 + 坎 3 + 0 + 0 + 绞 0 = 18 ≥ 10."""
    a = verdict(shaoyang(),
                H("d1 d2 d3 d1 d2 d3 x2 x7 x10 x9 x9 x9 x4 x5 x6 d7 d8 d9 d5 d5 x5"))
    check(a, win=True, reason=None, huxi=18,
          best=M("yi_er_san:d1 d2 d3", "yi_er_san:d1 d2 d3", "er_qi_shi:x2 x7 x10",
                 "kan:x9 x9 x9", "shun:x4 x5 x6", "shun:d7 d8 d9", "jiao:x5 d5 d5"))


@pytest.mark.parametrize("source, win, reason", [
    ("discard", False, "discard_win_not_allowed"),
    ("draw", True, None),
    ("self", True, None),
])
def test_e31_shaoyang_sources(source, win, reason):
    """E31. 001_5964eea38dea0018.txt "任何人打出来的字不能胡，只能从剩下的牌摸出来才可以胡". E16's hand, 15 ≥ 10."""
    a = verdict(shaoyang(), H(E16_HAND), T(*E16_TABLE), card("d8"), source)
    check(a, win=win, reason=reason, huxi=15, best=E16_BEST)


# --- D. Hengyang --------------------------------------------------------------------------------

HENGYANG_TABLE = ("peng=d4 d4 d4", "wei=x9 x9 x9")


def test_e32_shihuqiang_fifteen_cards():
    """E32. 000_cdb63c032605c9a1.txt §衡阳十胡抢牌型规则 "十胡就可胡牌".
    碰 d4 3 + 笑到 x9 3 + 一二三 3 + 0 + 二七十 3 = 12."""
    a = verdict(shihuqiang(), H("x1 x2 x3 d6 d7 d8 x2 x7"), T(*HENGYANG_TABLE), card("x10"),
                "draw")
    check(a, win=True, reason=None, huxi=12,
          best=M("peng:d4 d4 d4", "wei:x9 x9 x9", "yi_er_san:x1 x2 x3", "shun:d6 d7 d8",
                 "er_qi_shi:x2 x7 x10"))


E33_BEST = M("peng:d4 d4 d4", "wei:x9 x9 x9", "yi_er_san:x1 x2 x3", "shun:d6 d7 d8",
             "shun:x4 x5 x6")


def test_e33_shihuqiang_threshold():
    """E33. 000_cdb63c032605c9a1.txt §衡阳十胡抢牌型规则 "十胡就可胡牌": 3 + 3 + 3 = 9 < 10 → no win."""
    a = verdict(shihuqiang(), H("x1 x2 x3 d6 d7 d8 x4 x5"), T(*HENGYANG_TABLE), card("x6"),
                "draw")
    check(a, win=False, reason="below_min_huxi", huxi=9, best=E33_BEST)


def test_e33_liuhuqiang_six():
    """E33 (C3). 000_cdb63c032605c9a1.txt §衡阳六胡抢字牌规则介绍 "六胡就可胡牌": 9 ≥ 6 → win."""
    a = verdict(liuhuqiang(6), H("x1 x2 x3 d6 d7 d8 x4 x5"), T(*HENGYANG_TABLE), card("x6"),
                "draw")
    check(a, win=True, reason=None, huxi=9, best=E33_BEST)


def test_e33_liuhuqiang_fifteen():
    """E33 (C3). 000_cdb63c032605c9a1.txt §衡阳六胡抢字牌规则介绍 "达到15息或以上": 9 < 15 → no win."""
    a = verdict(liuhuqiang(15), H("x1 x2 x3 d6 d7 d8 x4 x5"), T(*HENGYANG_TABLE), card("x6"),
                "draw")
    check(a, win=False, reason="below_min_huxi", huxi=9, best=E33_BEST)


# --- reason codes -------------------------------------------------------------------------------

def test_incomplete(hunan):
    """x1 x2 x4 forms no meld (digest §1.5 "手上的牌全部构成基本牌型")."""
    a = verdict(hunan, H("x1 x2 x4 d5 d6 d7"))
    check(a, win=False, reason="incomplete", huxi=0)
    assert a.best is None


def test_incomplete_even_with_pairs(hunan):
    """Pairs would not help: the reason is 'incomplete', not 'jiang_not_allowed'."""
    a = verdict(hunan, H("x1 x1 x2 x4 x4"))
    check(a, win=False, reason="incomplete", huxi=0)


def test_below_min_huxi_hunan(hunan):
    """Hunan threshold 15 (000 §湖南字牌技巧 "一般情况下是15须可以胡牌"): 一二三 3 + 贰柒拾 6 = 9."""
    a = verdict(hunan, H("x1 x2 x3 d2 d7 d10 x4 x5 x6"))
    check(a, win=False, reason="below_min_huxi", huxi=9,
          best=M("yi_er_san:x1 x2 x3", "er_qi_shi:d2 d7 d10", "shun:x4 x5 x6"))


@pytest.mark.parametrize("source, reason", [("self", "self_win_not_allowed"),
                                            ("draw", "draw_win_not_allowed"),
                                            ("discard", None)])
def test_source_reasons(source, reason):
    """A variant winning on discards only refuses its own and others' draws."""
    v = local_variant("discard_only_test", "discard only",
                      {"min_huxi": 15, "sources": ["discard"]})
    a = verdict(v, H(E16_HAND), T(*E16_TABLE), card("d8"), source)
    check(a, win=reason is None, reason=reason, huxi=15, best=E16_BEST)


# --- 坎 stay whole ---------------------------------------------------------------------------------

def test_kan_not_split_to_complete(hunan):
    """000_cdb63c032605c9a1.txt §永州双王扯胡子规则 "一坎牌不能拆散与其他牌组合". Split, the cards would
    make [x2 x7 x10] ×2 + [x2 x3 x4]; with the 坎 whole, x3 x4 x7 x7 x10 x10 is stuck."""
    a = verdict(hunan, H("x2 x2 x2 x3 x4 x7 x7 x10 x10"))
    check(a, win=False, reason="incomplete", huxi=0)


def test_kan_not_split_for_more_huxi(hunan):
    """"一坎牌不能拆散" again. With a 提 on the table, splitting the 坎 x1 would give
    [x1 x2 x3] ×2 (6) + 绞 x1 d1 d1 + 将 x4 x4; kept whole: 坎 x1 3 + [x2 x3 x4] ×2 + 将 d1 d1.
    Table 提 d10 12 + 0 + 0 → 15, not 18."""
    a = verdict(hunan, H("x1 x1 x1 x2 x2 x3 x3 x4 x4 d1 d1"),
                T("ti=d10 d10 d10 d10", "chi=d5 d6 d7", "chi=x6 x7 x8"))
    check(a, win=True, reason=None, huxi=15,
          best=M("ti:d10 d10 d10 d10", "shun:d5 d6 d7", "shun:x6 x7 x8", "kan:x1 x1 x1",
                 "shun:x2 x3 x4", "shun:x2 x3 x4", "jiang:d1 d1"))


# --- the incoming card --------------------------------------------------------------------------

PAIR_HAND = "x5 x5 x1 x2 x3 d4 d5 d6 x7 x8 x9"
PAIR_TABLE = ("chi=d1 d2 d3", "peng=d8 d8 d8", "chi=x2 x7 x10")
PAIR_REST = ("yi_er_san:d1 d2 d3", "peng:d8 d8 d8", "er_qi_shi:x2 x7 x10", "yi_er_san:x1 x2 x3",
             "shun:d4 d5 d6", "shun:x7 x8 x9")


@pytest.mark.parametrize("source, kind, huxi, win, reason", [
    ("draw", "peng", 16, True, None),
    ("discard", "peng", 16, False, "discard_win_not_allowed"),
    ("self", "wei", 18, True, None),
])
def test_card_onto_concealed_pair(hunan, source, kind, huxi, win, reason):
    """Digest §1.3 (a) [D] / G4: a winning card onto a concealed pair is a 碰 (small 1) when it comes
    from another player and a forced 偎 (small 3) when self-drawn. Table 6 + 3 + 3, [x1 x2 x3] 3."""
    a = verdict(hunan, H(PAIR_HAND), T(*PAIR_TABLE), card("x5"), source)
    check(a, win=win, reason=reason, huxi=huxi, best=M(f"{kind}:x5 x5 x5", *PAIR_REST))


KAN_HAND = "x5 x5 x5 x1 x2 x3 d4 d5 d6 x7 x8 x9 x10 x10"
KAN_TABLE = ("chi=d1 d2 d3", "peng=d8 d8 d8")
KAN_REST = ("yi_er_san:d1 d2 d3", "peng:d8 d8 d8", "yi_er_san:x1 x2 x3", "shun:d4 d5 d6",
            "shun:x7 x8 x9", "jiang:x10 x10")


@pytest.mark.parametrize("source, kind, huxi, win, reason", [
    ("draw", "pao", 18, True, None),
    ("discard", "pao", 18, False, "discard_win_not_allowed"),
    ("self", "ti", 21, True, None),
])
def test_fourth_card_onto_kan(hunan, source, kind, huxi, win, reason):
    """000_cdb63c032605c9a1.txt §跑胡子玩牌规则 "手中有三张，别家打出一张或者摸出一张相同牌" → 跑 (small 6);
    one's own 4th → 提 (small 9). The quad then allows the 将 x10 x10. Table 6 + 3, [x1 x2 x3] 3."""
    a = verdict(hunan, H(KAN_HAND), T(*KAN_TABLE), card("x5"), source)
    check(a, win=win, reason=reason, huxi=huxi, best=M(f"{kind}:x5 x5 x5 x5", *KAN_REST))


def test_kan_hand_without_the_fourth_card(hunan):
    """The same hand without the 4th x5 has no quad, so the pair x10 x10 is not allowed."""
    a = verdict(hunan, H(KAN_HAND), T(*KAN_TABLE))
    check(a, win=False, reason="jiang_not_allowed", huxi=0)


UP_HAND = "x1 x2 x3 d4 d5 d6 x7 x8 x9 x10 x10"
UP_REST = ("yi_er_san:d1 d2 d3", "er_qi_shi:x2 x7 x10", "yi_er_san:x1 x2 x3", "shun:d4 d5 d6",
           "shun:x7 x8 x9", "jiang:x10 x10")


@pytest.mark.parametrize("source", ["self", "draw"])
def test_drawn_card_upgrades_table_peng(hunan, source):
    """000_cdb63c032605c9a1.txt §跑胡子玩牌规则 "第4张牌如果是摸出来的牌还可以跑桌面上碰的牌" (hunan
    pao_on_peng [self, draw]): 碰 x6 1 → 跑 x6 6, and the 将 x10 x10 is allowed. 6 + 6 + 3 + 3 = 18."""
    a = verdict(hunan, H(UP_HAND), T("peng=x6 x6 x6", "chi=d1 d2 d3", "chi=x2 x7 x10"),
                card("x6"), source)
    check(a, win=True, reason=None, huxi=18, best=M("pao:x6 x6 x6 x6", *UP_REST))
    assert [g.place for g in a.best.groups if g.meld.kind.value == "pao"] == ["table"]


def test_discard_does_not_upgrade_table_peng(hunan):
    """000_cdb63c032605c9a1.txt §跑胡子玩牌规则 "桌面上碰的牌不能跑任何人手中打出的牌": the x6 stays loose,
    no quad, so x6 x7 x8 x9 x10 x10 cannot be completed. (Hunan refuses any discard win first:
    the shape is judged under the Guilin rules, which take discard wins and 碰 → 跑 only on
    one's own draw.)"""
    assert verdict(hunan, H(UP_HAND), T("peng=x6 x6 x6", "chi=d1 d2 d3", "chi=x2 x7 x10"),
                   card("x6"), "discard").reason == "discard_win_not_allowed"
    a = verdict(guilin(), H(UP_HAND), T("peng=x6 x6 x6", "chi=d1 d2 d3", "chi=x2 x7 x10"),
                card("x6"), "discard")
    check(a, win=False, reason="incomplete", huxi=0)


@pytest.mark.parametrize("source, kind, huxi, win, reason", [
    ("self", "ti", 21, True, None),
    ("draw", "pao", 18, True, None),
    ("discard", "pao", 18, False, "discard_win_not_allowed"),
])
def test_fourth_card_onto_table_wei(hunan, source, kind, huxi, win, reason):
    """000_cdb63c032605c9a1.txt §跑胡子玩牌规则 "无论谁打出第4张牌或者摸出第4张牌,偎的牌都必跑";
    one's own 4th onto a 偎 is a 提 (digest §2.1 "Own draw → 提")."""
    a = verdict(hunan, H(UP_HAND), T("wei=x6 x6 x6", "chi=d1 d2 d3", "chi=x2 x7 x10"),
                card("x6"), source)
    check(a, win=win, reason=reason, huxi=huxi, best=M(f"{kind}:x6 x6 x6 x6", *UP_REST))


# --- input errors -------------------------------------------------------------------------------

def test_concealed_quad(hunan):
    with pytest.raises(HandError) as info:
        analyze(hunan, H("x1 x1 x1 x1 x2 x3 x4"))
    assert info.value.code == "concealed_quad"
    assert "x1" in str(info.value)


@pytest.mark.parametrize("source", [None, "wall", ""])
def test_incoming_card_needs_source(hunan, source):
    with pytest.raises(HandError) as info:
        analyze(hunan, H(E16_HAND), T(*E16_TABLE), card("d8"), source)
    assert info.value.code == "bad_source"


def test_too_many_copies(hunan):
    with pytest.raises(CardError) as info:
        analyze(hunan, H("d4 d4 x1 x2 x3"), T("peng=d4 d4 d4"))
    assert info.value.code == "too_many_copies"
    with pytest.raises(CardError):
        analyze(hunan, H("x5 x5 x5"), T("peng=x5 x5 x5"), card("x5"), "draw")


def test_cards_as_card_objects(hunan):
    """Hands may be given as Card values as well as indices."""
    from zipai_rules import parse_cards
    a = verdict(hunan, parse_cards(E16_HAND), T(*E16_TABLE), parse_cards("d8")[0], "draw")
    check(a, win=True, reason=None, huxi=15, best=E16_BEST)


def test_jiang_scored_by_the_variant_table():
    """A variant that scores the 将 (here 1/2) gets it in the group and in the total:
    提 x5 9 + 一二三 3 + 将 d9 d9 2 = 14."""
    v = build_variant({"extends": "hunan", "id": "scored_jiang_test", "name": "scored jiang",
                       "huxi": {"jiang": [1, 2]}, "terminology": {}, "citations": {}},
                      raw_preset, "<test scored jiang>")
    for want_all in (False, True):
        a = verdict(v, H("x1 x2 x3 d9 d9"), T("ti=x5 x5 x5 x5"), all_decompositions=want_all)
        assert a.huxi == 14
        assert [g.huxi for g in a.best.groups if g.meld.kind.value == "jiang"] == [2]
        assert sum(g.huxi for g in a.best.groups) == 14


# --- E28 and Guilin's optional 开舵 ---------------------------------------------------------

@pytest.mark.parametrize("source, win, huxi, reason", [
    ("self", True, 18, None),            # 碰 + own draw → 开舵 (small 6)
    ("draw", False, 0, "incomplete"),    # another's draw cannot upgrade a Guilin 碰
    ("discard", False, 0, "incomplete"),
])
def test_e28_guilin_peng_upgrade(source, win, huxi, reason):
    """E28 (C2). 004_4a6d8adec4e0ba73.txt 第四条7 "‘碰’牌后自己摸起相同的1牌，\\碰\\的牌必须得\\开舵\\ …
    （但其他人手中打出的牌是不能让碰牌\\开舵\\的）"; only one's own draw upgrades it (1 → 6). Without the
    upgrade there is no quad, and x6 x7 x8 x9 x10 x10 cannot be completed."""
    a = verdict(guilin(), H(UP_HAND), T("peng=x6 x6 x6", "chi=d1 d2 d3", "chi=x2 x7 x10"),
                card("x6"), source)
    if win:
        check(a, win=True, reason=None, huxi=huxi, best=M("pao:x6 x6 x6 x6", *UP_REST))
    else:
        check(a, win=False, reason=reason, huxi=0)


SKIP_HAND = "x5 x5 x5 x3 x4 d1 d2 d3 x8 x9 x10"
SKIP_TABLE = ("peng=d4 d4 d4", "chi=x2 x7 x10")


def test_guilin_may_keep_the_kan_to_win():
    """004_4a6d8adec4e0ba73.txt 第五条5 "胡牌时可以不开舵" (digest G4: "or (Guilin) you keep the 坎 and use
    the card elsewhere"). The discarded x5 completes [x3 x4 x5]; the 坎 x5 stays.
    碰 d4 3 + 二七十 3 + 坎 x5 3 + 壹贰叁 6 = 15 ≥ 10. As a 开舵, x3 x4 would be stranded."""
    a = verdict(guilin(), H(SKIP_HAND), T(*SKIP_TABLE), card("x5"), "discard")
    check(a, win=True, reason=None, huxi=15,
          best=M("peng:d4 d4 d4", "er_qi_shi:x2 x7 x10", "kan:x5 x5 x5", "shun:x3 x4 x5",
                 "yi_er_san:d1 d2 d3", "shun:x8 x9 x10"))


def test_hunan_po_pao_hu_keeps_the_kan(hunan):
    """破跑胡 (003_5cd7634dfd57d897.txt "当玩家自己或其他玩家跑牌时，正好这只牌是自己要胡的，可以胡，
    称为破跑胡（即胡牌优先于跑牌）"): in Hunan the same x5 (here another player's draw) may win
    with the 坎 kept, before the compulsory 跑 that would strand x3 x4. 15 ≥ 15."""
    a = verdict(hunan, H(SKIP_HAND), T(*SKIP_TABLE), card("x5"), "draw")
    check(a, win=True, reason=None, huxi=15,
          best=M("peng:d4 d4 d4", "er_qi_shi:x2 x7 x10", "kan:x5 x5 x5", "shun:x3 x4 x5",
                 "yi_er_san:d1 d2 d3", "shun:x8 x9 x10"))


def test_without_po_pao_hu_the_kan_must_pao():
    """``claims.po_pao_hu: false``: the x5 goes onto the 坎 as the compulsory 跑, which strands
    x3 x4."""
    no_po = local_variant("no_po_pao_hu_test", "no 破跑胡", {}, {"po_pao_hu": False})
    a = verdict(no_po, H(SKIP_HAND), T(*SKIP_TABLE), card("x5"), "draw")
    check(a, win=False, reason="incomplete", huxi=0)


def test_tianhu_due_agrees_with_tianhu_on_the_worked_examples(hunan):
    """``tianhu_due`` (what the engine asks of every dealt hand before ``tianhu`` builds the
    analysis) on E18–E21: 3 提; 2 提 + 3 坎 with 提 counted as 坎; 2 提 + 2 坎; and a hand with
    neither; in chenzhou (no forced 天胡) never."""
    from zipai_rules.analysis import tianhu_due
    from zipai_rules.cards import counts_of
    from zipai_rules.presets import load_preset

    cases = [
        ("x2 x4 x6 x8 d2 d4 d7 d9", ("ti=x1 x1 x1 x1", "ti=d5 d5 d5 d5", "ti=x10 x10 x10 x10"),
         True),
        ("x9 x9 x9 d1 d1 d1 d10 d10 d10 x5 d4 x7", ("ti=x3 x3 x3 x3", "ti=d7 d7 d7 d7"), True),
        ("x9 x9 x9 d1 d1 d1 x2 x4 x8 x10 d5 d6 d10", ("ti=x3 x3 x3 x3", "ti=d7 d7 d7 d7"), False),
        (E16_HAND, (), False),
    ]
    for hand, table, due in cases:
        counts, melds_ = counts_of(H(hand)), tuple(T(*table))
        assert tianhu_due(hunan, counts, melds_) is due
        assert (tianhu(hunan, H(hand), melds_) is not None) is due
        assert tianhu_due(load_preset("chenzhou"), counts, melds_) is False
