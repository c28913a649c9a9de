"""The worked examples of digest §4, run against the shipped presets (not test-local variants).

A Guilin (E1, E2, E4, E6, E7, E8, E14); C Shaoyang (E29, E30, E31); D Hengyang (E32, E33);
E Yongzhou (王霸 wild cards); F 碰胡 (E37, E38). Every expected value was worked out by hand
from the digest (the decomposition and its 胡息 are written out in each docstring); none was
copied from the library's output. Engine tests use explicit deals (``tests/helpers.py``);
seat 0 deals and seat s+1 is the 下家 of seat s.
"""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import C, c, make_deal, verdict
from zipai_rules import analyze, find_variant, parse_meld
from zipai_rules.analysis import instant_win
from zipai_rules.cards import KING, counts_of, format_cards
from zipai_rules.engine import Action, ActionKind, EventKind, Game
from zipai_rules.melds import Meld, MeldKind

A = ActionKind


def V(pid):
    return find_variant(pid)


def T(*specs):
    return [parse_meld(s) for s in specs]


def M(*specs):
    """Expected multiset of (kind, cards), each written "kind:cards"."""
    out = Counter()
    for s in specs:
        kind, cards = s.split(":")
        out[(kind, format_cards(sorted(C(cards))))] += 1
    return out


def melds(decomposition):
    return Counter((g.meld.kind.value, format_cards(sorted(g.meld.cards)))
                   for g in decomposition.groups)


def check(a, *, win, reason, huxi, best=None):
    assert (a.win, a.reason, a.huxi) == (win, reason, huxi)
    if best is not None:
        assert melds(a.best) == best
        assert sum(g.huxi for g in a.best.groups) == a.best.huxi == huxi


def drive_to(game, predicate, discard=None, limit=60):
    """PASS every optional decision (and discard ``discard[seat]`` or the first option when a
    discard is owed) until ``predicate(game)`` holds; return the states seen on the way."""
    seen = []
    for _ in range(limit):
        if predicate(game) or game.is_over:
            return seen
        st = game.state
        seen.append(st)
        if st.phase == "discard":
            want = (discard or {}).get(st.actor)
            opts = [a for a in st.options if want is None or a.card == c(want)]
            game.apply(opts[0])
        else:
            game.apply(Action(A.PASS, st.actor))
    raise AssertionError("predicate never held")


# --- A. Guilin 桂林字牌 --------------------------------------------------------------------------

def test_guilin_preset_is_the_example_setting():
    """§4 A heading: "threshold 10 胡; discard-win allowed and forced" (004_4a6d8adec4e0ba73.txt
    第七条二) "胡牌最低胡牌数10胡"; 第五条6 "放炮必胡：有人打出的牌能胡，则必须胡牌"); 胡息 from the seed table 第七条四)."""
    g = V("guilin")
    assert g.win.min_huxi == 10 and "discard" in g.win.sources
    assert g.win.forced_sources == {"discard"}
    table = {k.value: v for k, v in g.huxi_table.items()}
    assert table == {"ti": (9, 12), "pao": (6, 9), "wei": (3, 6), "chou_wei": (3, 6),
                     "kan": (3, 6), "peng": (1, 3), "yi_er_san": (3, 6), "er_qi_shi": (3, 6),
                     "shun": (0, 0), "jiao": (0, 0), "jiang": (0, 0)}


def test_E1_exact_minimum_on_a_discard():
    """E1 (004_4a6d8adec4e0ba73.txt 第七条四) "碰（三）： 大字3胡；小字1胡"; 第五条6 "放炮必胡").
    碰 d4 3 + 碰 x9 1 + 二七十 3 + [x1 x2 x3] 3 + three plain runs 0 = 10 ≥ 10 → win."""
    a = analyze(V("guilin"), "x1 x2 x3 x4 x5 x6 d5 d6 d7 d8 d9",
                ["peng=d4 d4 d4", "peng=x9 x9 x9", "chi=x2 x7 x10"], "d10", "discard")
    check(a, win=True, reason=None, huxi=10,
          best=M("peng:d4 d4 d4", "peng:x9 x9 x9", "er_qi_shi:x2 x7 x10", "yi_er_san:x1 x2 x3",
                 "shun:x4 x5 x6", "shun:d5 d6 d7", "shun:d8 d9 d10"))


def test_E2_one_short():
    """E2 (004_4a6d8adec4e0ba73.txt 第四条1 "普通顺子及搭子不计胡头"; 第七条二) "胡牌最低胡牌数10胡").
    壹贰叁 6 + 二七十 3 + 绞 / runs 0 = 9 < 10 → no win, so 放炮必胡 does not apply."""
    a = analyze(V("guilin"), "x1 x1 d1 x7 x8 x9 d4 d5 d6 d7 d8",
                ["chi=d1 d2 d3", "chi=x2 x7 x10", "chi=x4 x5 x6"], "d9", "discard")
    check(a, win=False, reason="below_min_huxi", huxi=9,
          best=M("yi_er_san:d1 d2 d3", "er_qi_shi:x2 x7 x10", "shun:x4 x5 x6",
                 "jiao:x1 x1 d1", "shun:x7 x8 x9", "shun:d4 d5 d6", "shun:d7 d8 d9"))


def test_E4_erqishi_over_jiao():
    """E4 (004_4a6d8adec4e0ba73.txt 第七条四) "贰 柒 拾： 6胡二 七 十： 3胡"; 第六条3 "摸牌胡牌").
    A: 绞 x1 + 二七十 3 + 二七十 3 + 贰柒拾 6 = 12, + small 碰 1 = 13 → win; B (four 绞) = 1."""
    a = analyze(V("guilin"), "x1 x1 d1 x2 x2 x7 x10 x10 d2 d7 d10",
                ["peng=x5 x5 x5", "chi=d4 d5 d6", "chi=x3 x4 x5"], "x7", "draw",
                all_decompositions=True)
    check(a, win=True, reason=None, huxi=13,
          best=M("peng:x5 x5 x5", "shun:d4 d5 d6", "shun:x3 x4 x5", "jiao:x1 x1 d1",
                 "er_qi_shi:x2 x7 x10", "er_qi_shi:x2 x7 x10", "er_qi_shi:d2 d7 d10"))
    assert [d.huxi for d in a.decompositions] == [13, 1]


def test_E6_pairs_without_a_quad():
    """E6 (004_4a6d8adec4e0ba73.txt 第三条7; 000_cdb63c032605c9a1.txt §跑胡子玩牌规则 "吊子只能一对").
    [x1 x2 x3] [x7 x8 x9] + pairs x10, d7, d9 with no 开舵 / 扫穿 → no win (21 cards fit)."""
    a = analyze(V("guilin"), "x1 x2 x3 x7 x8 x9 x10 x10 d7 d7 d9",
                ["peng=d3 d3 d3", "chi=d1 d2 d3", "wei=x6 x6 x6"], "d9", "discard")
    check(a, win=False, reason="jiang_not_allowed", huxi=0)


E7_TABLE = ["peng=d3 d3 d3", "chi=d1 d2 d3", "pao=x6 x6 x6 x6"]


def test_E7_one_jiang_after_kaiduo():
    """E7 (003_5cd7634dfd57d897.txt "当有跑牌或提牌后，必须有且只能有一对牌做为一方门子").
    Table 碰 d3 3 + 壹贰叁 6 + 开舵 x6 6 = 15; [x1 x2 x3] 3; 将 x10 → 18 → win."""
    a = analyze(V("guilin"), "x1 x2 x3 x7 x8 x9 d7 d8 d9 x10", E7_TABLE, "x10", "discard")
    check(a, win=True, reason=None, huxi=18,
          best=M("peng:d3 d3 d3", "yi_er_san:d1 d2 d3", "pao:x6 x6 x6 x6", "yi_er_san:x1 x2 x3",
                 "shun:x7 x8 x9", "shun:d7 d8 d9", "jiang:x10 x10"))


def test_E8_only_one_jiang():
    """E8 (003_5cd7634dfd57d897.txt "必须有且只能有一对牌做为一方门子"; 000_cdb63c032605c9a1.txt §跑胡子玩牌规则 "吊子只能一对").
    [x1 x2 x3] + four pairs (x10, d4, d7, d9) → no win."""
    a = analyze(V("guilin"), "x1 x2 x3 x10 x10 d4 d4 d7 d7 d9", E7_TABLE, "d9", "discard")
    check(a, win=False, reason="jiang_not_allowed", huxi=0)


def test_E14_zhongduo_22_cards():
    """E14 (004_4a6d8adec4e0ba73.txt 第五条3, 7 "重舵除外（即开舵、扫穿两次及以上）").
    开舵 d5 9 + 扫穿 x8 9 + 碰 d3 3 = 21; [x1 x2 x3] 3 → 24 on one's own draw; 22 cards."""
    a = analyze(V("guilin"), "x1 x2 x3 x4 x5 x6 d7 d8 d9 x10",
                ["pao=d5 d5 d5 d5", "ti=x8 x8 x8 x8", "peng=d3 d3 d3"], "x10", "self")
    check(a, win=True, reason=None, huxi=24,
          best=M("pao:d5 d5 d5 d5", "ti:x8 x8 x8 x8", "peng:d3 d3 d3", "yi_er_san:x1 x2 x3",
                 "shun:x4 x5 x6", "shun:d7 d8 d9", "jiang:x10 x10"))
    assert sum(len(g.meld.cards) for g in a.best.groups) == 22


# --- C. Shaoyang 邵阳字牌 ------------------------------------------------------------------------

E29_HAND = "d10 d10 d10 x8 x8 x8 x1 x2 x3 d1 d2 d3 x4 x5 x6 d4 d5 x2 x7 x10"
E29_BEST = M("kan:d10 d10 d10", "kan:x8 x8 x8", "yi_er_san:x1 x2 x3", "yi_er_san:d1 d2 d3",
             "shun:x4 x5 x6", "shun:d4 d5 d6", "er_qi_shi:x2 x7 x10")


def test_E29_dihu_hand_decomposition():
    """E29 (001_5964eea38dea0018.txt 地胡 "闲家要牌之前揭底牌的第一张牌正好是闲家所要胡的牌"; "最低10胡息").
    坎 d10 6 + 坎 x8 3 + 一二三 3 + 壹贰叁 6 + [x4 x5 x6] 0 + [d4 d5 d6] 0 + 二七十 3 = 21."""
    a = analyze(V("shaoyang"), E29_HAND, (), "d6", "draw")
    check(a, win=True, reason=None, huxi=21, best=E29_BEST)


def test_E29_dihu_in_the_engine():
    """E29 (001_5964eea38dea0018.txt "地胡：闲家要牌之前揭底牌的第一张牌正好是闲家所要胡的牌 … 胡牌后所得胡数*以2").
    Seat 2 holds the E29 hand; the first wall card (d6, drawn and shown by seat 1) wins: 21 胡息,
    labelled 地胡, doubled to 42 by the settlement."""
    from zipai_rules.settlement import settle

    deal = make_deal(hands={2: E29_HAND}, wall="d6", liang="x9", avoid={1: "d6", 0: "d6 x9"})
    g = Game(V("shaoyang"), deal=deal)
    drive_to(g, lambda g: any(a.kind == A.HU for a in g.legal_actions()),
             discard={0: "x9"})
    assert (g.state.actor, g.state.pending.card, len(g.state.wall)) == (2, c("d6"), 18)
    g.apply(Action(A.HU, 2, c("d6")))
    r = g.result
    assert (r.kind, r.winner, r.source, r.huxi) == ("hu", 2, "draw", 21)
    assert "dihu" in r.labels and "zimo" not in r.labels
    assert settle(g.state).huxi == 42


E30_HAND = "d1 d2 d3 d1 d2 d3 x2 x7 x10 x9 x9 x9 x4 x5 x6 d7 d8 d9 d5 d5 x5"


def test_E30_tianhu_dealer_hand():
    """E30 (001_5964eea38dea0018.txt "天胡：只有庄家才有此牌，庄家拿满21张后，达到胡牌条件，胡牌后所得胡数*以2").
    壹贰叁 6 + 壹贰叁 6 + 二七十 3 + 坎 x9 3 + 0 + 0 + 绞 d5 d5 x5 0 = 18 ≥ 10."""
    a = analyze(V("shaoyang"), E30_HAND)
    check(a, win=True, reason=None, huxi=18,
          best=M("yi_er_san:d1 d2 d3", "yi_er_san:d1 d2 d3", "er_qi_shi:x2 x7 x10",
                 "kan:x9 x9 x9", "shun:x4 x5 x6", "shun:d7 d8 d9", "jiao:x5 d5 d5"))


def test_E30_tianhu_in_the_engine():
    """E30 (001_5964eea38dea0018.txt "庄家拿满21张后，达到胡牌条件 … 胡数*以2"): the dealer is offered the win on
    the 21 dealt cards before any discard; taking it is 天胡 with 18 胡息, doubled to 36."""
    from zipai_rules.settlement import settle

    cards = E30_HAND.split()
    g = Game(V("shaoyang"), deal=make_deal(hands={0: " ".join(cards[:-1])}, liang=cards[-1]))
    assert (g.state.phase, g.state.actor) == ("hu_check", 0)
    assert {a.kind for a in g.legal_actions()} == {A.HU, A.PASS}
    g.apply(Action(A.HU, 0))
    r = g.result
    assert (r.kind, r.winner, r.huxi) == ("tianhu", 0, 18)
    assert "tianhu" in r.labels
    assert settle(g.state).huxi == 36


E16_HAND = "x4 x5 x6 x2 x7 x10 x8 x9 x10 d9 d10"
E16_TABLE = ["wei=d7 d7 d7", "peng=d2 d2 d2", "chi=x1 x2 x3"]


@pytest.mark.parametrize("source, win, reason", [
    ("discard", False, "discard_win_not_allowed"), ("draw", True, None), ("self", True, None)])
def test_E31_shaoyang_drawn_cards_only(source, win, reason):
    """E31 (001_5964eea38dea0018.txt "任何人打出来的字不能胡，只能从剩下的牌摸出来才可以胡"). E16's hand: 偎 d7 6 + 碰 d2 3 +
    一二三 3 + 二七十 3 + three runs 0 = 15 ≥ 10: no win on a discard, a win on any draw."""
    a = analyze(V("shaoyang"), E16_HAND, E16_TABLE, "d8", source)
    check(a, win=win, reason=reason, huxi=15,
          best=M("wei:d7 d7 d7", "peng:d2 d2 d2", "yi_er_san:x1 x2 x3", "shun:x4 x5 x6",
                 "er_qi_shi:x2 x7 x10", "shun:x8 x9 x10", "shun:d8 d9 d10"))


# --- D. Hengyang 衡阳 ----------------------------------------------------------------------------

HENGYANG_TABLE = ["peng=d4 d4 d4", "wei=x9 x9 x9"]


def test_E32_shihuqiang_win_with_15_cards():
    """E32 (000_cdb63c032605c9a1.txt §衡阳十胡抢牌型规则 "十胡就可胡牌"; "玩家抓满14张牌").
    碰 d4 3 + 笑到 x9 3 + [x1 x2 x3] 3 + [d6 d7 d8] 0 + [x2 x7 x10] 3 = 12 ≥ 10; 15 cards."""
    v = V("hengyang_shihu")
    a = analyze(v, "x1 x2 x3 d6 d7 d8 x2 x7", HENGYANG_TABLE, "x10", "draw")
    check(a, win=True, reason=None, huxi=12,
          best=M("peng:d4 d4 d4", "wei:x9 x9 x9", "yi_er_san:x1 x2 x3", "shun:d6 d7 d8",
                 "er_qi_shi:x2 x7 x10"))
    assert sum(len(g.meld.cards) for g in a.best.groups) == 15 == v.deal.other_hand + 1


E33 = ("x1 x2 x3 d6 d7 d8 x4 x5", HENGYANG_TABLE, "x6", "draw")
E33_BEST = M("peng:d4 d4 d4", "wei:x9 x9 x9", "yi_er_san:x1 x2 x3", "shun:d6 d7 d8",
             "shun:x4 x5 x6")


def test_E33_shihuqiang_no_win_at_9():
    """E33 (000_cdb63c032605c9a1.txt §衡阳十胡抢牌型规则 "十胡就可胡牌"): 3 + 3 + 3 + 0 + 0 = 9 < 10 → no win."""
    check(analyze(V("hengyang_shihu"), *E33), win=False, reason="below_min_huxi", huxi=9,
          best=E33_BEST)


def test_E33_liuhuqiang_win_at_9():
    """E33 / C3 (000_cdb63c032605c9a1.txt §衡阳六胡抢字牌规则介绍 "六胡就可胡牌"; the preset takes the name's 6,
    digest C3): the same 9 胡息 ≥ 6 → win."""
    check(analyze(V("hengyang_liuhu"), *E33), win=True, reason=None, huxi=9, best=E33_BEST)


# --- E. Yongzhou 永州双王扯胡子 --------------------------------------------------------------------

def test_yongzhou_king_takes_the_best_identity():
    """Yongzhou (000_cdb63c032605c9a1.txt §永州双王扯胡子规则 "王霸 … 可以代替任何牌进行游戏"; G14: K takes the identity
    that maximises 胡息, K + pair = 坎). Table 碰 d4 3 + 吃 壹贰叁 6 = 9; hand x1 x2 x4 x5 x6 d6 d7 d8 d10
    d10 K + own draw x3. The K is needed: d10 d10 must take a third card. As d10 it makes a 坎 (6): 9
    + 6 + [x1 x2 x3] 3 + [x4 x5 x6] 0 + [d6 d7 d8] 0 = 18 ≥ 15. As x10 it makes a 绞 (0): 12 < 15. No
    other identity completes the hand (d8 d9 d10 or d2 d7 d10 strand the other d10). So the best is
    18 with K = d10."""
    a = verdict(V("yongzhou"), "x1 x2 x4 x5 x6 d6 d7 d8 d10 d10 K",
                ["peng=d4 d4 d4", "chi=d1 d2 d3"], "x3", "self", all_decompositions=True)
    check(a, win=True, reason=None, huxi=18,
          best=M("peng:d4 d4 d4", "yi_er_san:d1 d2 d3", "kan:d10 d10 d10", "yi_er_san:x1 x2 x3",
                 "shun:x4 x5 x6", "shun:d6 d7 d8"))
    assert sorted(d.huxi for d in a.decompositions) == [12, 18]
    # without the K the same cards cannot win
    no_king = verdict(V("yongzhou"), "x1 x2 x4 x5 x6 d6 d7 d8 d10 d10",
                      ["peng=d4 d4 d4", "chi=d1 d2 d3"], "x3", "self")
    assert not no_king.win


# Seat 1: 壹贰叁 | 二七十 | d10 d10 K | x4 x5 x6 | d6 d7 d8 | d4 d5 d6 | x1 x2, waiting on x3:
# 6 + 3 + 坎 d10 (K) 6 + 0 + 0 + 0 + 一二三 3 = 18 ≥ 15 (a K as x10 gives only 绞 0: 12).
KING_HAND = "d1 d2 d3 x2 x7 x10 d10 d10 K x4 x5 x6 d6 d7 d8 d4 d5 d6 x1 x2"
YONGZHOU_SIZES = (21, 20, 21)


def _yongzhou_game(wall):
    deal = make_deal(hands={0: "K", 1: KING_HAND}, wall=wall, liang="x8",
                     avoid={0: "x3 x9 x8", 2: "x3 x9"}, sizes=YONGZHOU_SIZES)
    return Game(V("yongzhou"), deal=deal)


def test_yongzhou_king_holder_no_hu_on_another_players_draw():
    """Yongzhou (000_cdb63c032605c9a1.txt §永州双王扯胡子规则 "手中有王霸的玩家，只能自摸"). Seat 1 holds a K and would
    win on x3 (18 胡息 by the analysis), but x3 is drawn by seat 2: seat 1 is never offered 胡."""
    v = V("yongzhou")
    # the shape and 胡息 are there, but the one decision refuses it (analyze agrees)
    held = analyze(v, KING_HAND, (), "x3", "draw")
    assert (held.win, held.reason, held.huxi) == (False, "king_not_claimable", 18)
    assert analyze(v, KING_HAND, (), "x3", "self").win
    g = _yongzhou_game("x9 x3")
    seen = drive_to(g, lambda g: len(g.state.wall) < 19, discard={0: "x8"})  # until the 3rd draw
    drawn = [e for e in g.events if e.kind == EventKind.DRAW]
    assert [(e.seat, e.card) for e in drawn[:2]] == [(1, c("x9")), (2, c("x3"))]
    asked = [st for st in seen if st.pending is not None and st.pending.card == c("x3")]
    assert asked  # x3 was offered to someone (seat 2 or seat 0 may 吃 it)
    for st in seen:
        assert not any(a.kind == A.HU for a in st.options), st.options
    assert not g.is_over


def test_yongzhou_king_holder_wins_on_own_draw():
    """Yongzhou (000_cdb63c032605c9a1.txt §永州双王扯胡子规则 "手中有王霸的玩家，只能自摸"): the same seat
    drawing x3 itself is offered 胡 and wins with 18 胡息 (自摸)."""
    g = _yongzhou_game("x3")
    drive_to(g, lambda g: g.state.actor == 1 and any(a.kind == A.HU for a in g.legal_actions()),
             discard={0: "x8"})
    g.apply(next(a for a in g.legal_actions() if a.kind == A.HU))
    r = g.result
    assert (r.winner, r.source, r.huxi) == (1, "self", 18)
    assert "zimo" in r.labels


def test_yongzhou_king_never_discarded():
    """Yongzhou (000_cdb63c032605c9a1.txt §永州双王扯胡子规则 "王霸不能打出，只能代替牌"): the dealer
    holding a K is never offered to discard it; nor is anyone in 50 seeded random games."""
    g = _yongzhou_game("x9")
    assert g.state.phase == "discard" and g.state.seats[0].hand[KING] == 1
    assert g.legal_actions() and all(a.card != KING for a in g.legal_actions())
    from zipai_rules.bots import make_bots

    v = V("yongzhou")
    for seed in range(1, 51):
        game = Game(v, seed=seed)
        bots = make_bots(["random"], seed, v.players)
        while not game.is_over:
            st = game.state
            assert not any(a.kind == A.DISCARD and a.card == KING for a in st.options)
            game.apply(bots[st.actor](st, st.options))


# --- F. 碰胡 -----------------------------------------------------------------------------------

PENGHU_SIZES = (15, 14, 37)


def test_E37_two_ti_hook():
    """E37 (000_cdb63c032605c9a1.txt §碰胡规则 "如果摸上来有2双提蛇的牌 … 一定要放在桌面上，并视为胡牌"): two 提蛇 on the table
    win whatever the other cards; no 胡息 threshold ("不用数信"). One 提 is not enough."""
    v = V("penghu")
    hand = counts_of(C("x1 x3 x6 d2 d5 d7"))
    two = [Meld(MeldKind.TI, (c("x4"),) * 4), Meld(MeldKind.TI, (c("d9"),) * 4)]
    a = instant_win(v, hand, two, dealer=False)
    assert a is not None and a.win
    assert a.best.special == "two_ti"
    assert sorted(a.best.leftover) == sorted(C("x1 x3 x6 d2 d5 d7"))
    assert a.huxi == 9 + 12  # the two 提 (small 9, big 12); the leftovers score nothing
    assert instant_win(v, hand, two[:1], dealer=False) is None


def test_E37_two_ti_in_the_engine_from_a_draw():
    """E37 (000_cdb63c032605c9a1.txt §碰胡规则 "2双提蛇 … 视为胡牌"): seat 1 is dealt 提 x4 and a 坎 d9; its
    first draw is the 4th d9, a forced 提蛇, and the hand ends at once as a two_ti win."""
    deal = make_deal(hands={1: "x4 x4 x4 x4 d9 d9 d9"}, wall="d9", liang="x1", avoid={0: "x1"},
                     sizes=PENGHU_SIZES)
    g = Game(V("penghu"), deal=deal)
    assert not g.is_over
    drive_to(g, lambda g: False, discard={0: "x1"})
    r = g.result
    assert (r.kind, r.winner) == ("hu", 1)
    assert r.labels == ("two_ti",)
    assert [e.card for e in g.events if e.kind == EventKind.TI and e.seat == 1] == C("x4 d9")


def test_E37_two_dealt_ti_in_the_engine():
    """E37 (000_cdb63c032605c9a1.txt §碰胡规则 "2双提蛇的牌就一定要放在桌面上，并视为胡牌"): two 提蛇
    dealt also win at once, before any discard."""
    g = Game(V("penghu"), deal=make_deal(hands={2: "x4 x4 x4 x4 d9 d9 d9 d9"},
                                         sizes=PENGHU_SIZES))
    r = g.result
    assert g.is_over and (r.kind, r.winner, r.labels) == ("hu", 2, ("two_ti",))


SEVEN_PAIRS = "x1 x1 x3 x3 x5 x5 d2 d2 d6 d6 d8 d8 x10 x10"


def test_E38_xiao_qi_dui_hook():
    """E38 (000_cdb63c032605c9a1.txt §碰胡规则 "摸到7对牌，叫做“小七对” … 庄家摸到7对牌，必须带一个扫"): 7 pairs win for a
    non-dealer (14 cards); the dealer (15 cards) needs 6 pairs + a 坎 [D, weak], so 7 pairs and
    a single card are not enough."""
    v = V("penghu")
    a = instant_win(v, counts_of(C(SEVEN_PAIRS)), (), dealer=False)
    assert a is not None and a.win and a.best.special == "xiao_qi_dui"
    assert sum(1 for g in a.best.groups if g.meld.kind == MeldKind.JIANG) == 7
    assert instant_win(v, counts_of(C(SEVEN_PAIRS)), (), dealer=True) is None
    assert instant_win(v, counts_of(C(SEVEN_PAIRS + " d9")), (), dealer=True) is None
    dealer = "x1 x1 x3 x3 x5 x5 d2 d2 d6 d6 d8 d8 x10 x10 x10"  # 6 pairs + 坎 x10
    b = instant_win(v, counts_of(C(dealer)), (), dealer=True)
    assert b is not None and b.win and b.best.special == "xiao_qi_dui"
    assert instant_win(v, counts_of(C(dealer)), (), dealer=False) is None
    # 6 pairs and two singles: not 小七对
    assert instant_win(v, counts_of(C("x1 x1 x3 x3 x5 x5 d2 d2 d6 d6 d8 d8 x10 d10")), (), dealer=False) is None


def test_E38_xiao_qi_dui_non_dealer_in_the_engine():
    """E38 (000_cdb63c032605c9a1.txt §碰胡规则 "摸到7对牌，叫做“小七对”"): a non-dealer dealt
    x1 x1 x3 x3 x5 x5 d2 d2 d6 d6 d8 d8 x10 x10 wins at once."""
    g = Game(V("penghu"), deal=make_deal(hands={1: SEVEN_PAIRS}, sizes=PENGHU_SIZES))
    r = g.result
    assert g.is_over and (r.kind, r.winner, r.labels) == ("hu", 1, ("xiao_qi_dui",))


def test_E38_dealer_needs_a_kan():
    """E38 ("庄家摸到7对牌，必须带一个扫"): the dealer with 7 pairs and a single card plays on (and
    discards); with 6 pairs and a 坎 it wins at once."""
    g = Game(V("penghu"), deal=make_deal(hands={0: SEVEN_PAIRS}, liang="d9",
                                         sizes=PENGHU_SIZES))
    assert not g.is_over and (g.state.phase, g.state.actor) == ("discard", 0)
    g = Game(V("penghu"), deal=make_deal(hands={0: "x1 x1 x3 x3 x5 x5 d2 d2 d6 d6 d8 d8 x10 x10"},
                                         liang="x10", sizes=PENGHU_SIZES))
    r = g.result
    assert g.is_over and (r.kind, r.winner, r.labels) == ("hu", 0, ("xiao_qi_dui",))
