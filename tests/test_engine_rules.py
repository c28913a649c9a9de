"""Rule examples for the turn state machine (Hunan 跑胡子), each on an explicit 80-card deal.

Every expected value is worked out from the rules: the seed phrase or the digest example
(``E18``..``E28``, digest §4 B) is cited on each test. Seats: 0 is the dealer; seat s+1 is the
下家 (next in turn) of seat s.
"""

from __future__ import annotations

import pytest

from helpers import C, act, c, find, kinds, make_deal, meld, pass_all
from zipai_rules.analysis import win_verdict
from zipai_rules.engine import Action, ActionKind, EventKind, Game
from zipai_rules.engine.claims import hu_allowed, tier_options
from zipai_rules.engine.state import SeatState
from zipai_rules.errors import IllegalActionError

A = ActionKind
E = EventKind


def new(hunan, **spec) -> Game:
    return Game(hunan, deal=make_deal(**spec))


def ev(events, kind, seat=None, card=None):
    """The events of ``kind`` (and seat / card when given)."""
    idx = c(card) if isinstance(card, str) else card
    return [e for e in events if e.kind == kind and (seat is None or e.seat == seat)
            and (card is None or e.card == idx)]


def after_deal(events):
    return [e for e in events if e.kind != E.DEAL]


def counts(text: str) -> tuple[int, ...]:
    out = [0] * 21
    for i in C(text):
        out[i] += 1
    return tuple(out)


# --- the helper ---------------------------------------------------------------------------------

def test_make_deal_completes_a_valid_deal(hunan):
    d = make_deal(hands={0: "x1 x1 x1", 2: "d10 d10"}, wall="x2 d3", liang="d9",
                  wall_tail="x4", avoid={1: "x1"})
    assert [len(h) for h in d.hands] == [21, 20, 20] and len(d.wall) == 19
    everything = [i for h in d.hands for i in h] + list(d.wall)
    assert sorted(everything) == sorted(i for i in range(20) for _ in range(4))
    assert d.hands[0][-1] == c("d9") and d.hands[0].count(c("x1")) == 3
    assert d.hands[1].count(c("x1")) == 0 and d.hands[2].count(c("d10")) == 2
    assert d.wall[:2] == tuple(C("x2 d3")) and d.wall[-1] == c("x4")
    Game(hunan, deal=d)  # passes the engine's own deal check
    with pytest.raises(ValueError):
        make_deal(hands={0: "x1 x1 x1", 1: "x1 x1"})


# --- the deal ----------------------------------------------------------------------------------

def test_deal_sizes_and_dealt_quads_laid_down_before_first_discard(hunan):
    """000 §跑胡子玩牌规则 "起手手上有4张牌时,必须在打出第一张牌前“提”"; 000 §字牌规则说明
    "砌牌后玩家手上如果有一门4只相同的牌，则在亮张后，电脑自动为玩家提牌"."""
    g = new(hunan, hands={0: "d3 d3 d3 d3", 1: "x5 x5 x5 x5"}, liang="x1")
    st = g.state
    assert [len(st.wall)] + [s.held for s in st.seats] == [19, 21, 20, 20]
    tis = ev(g.events, E.TI)
    assert [(e.seat, e.card) for e in tis] == [(0, c("d3")), (1, c("x5"))]
    assert st.seats[0].melds == (meld("ti", "d3 d3 d3 d3"),)
    assert st.seats[1].melds == (meld("ti", "x5 x5 x5 x5"),)
    assert st.seats[0].hand[c("d3")] == 0 and st.seats[1].hand[c("x5")] == 0
    # one 提 does not excuse the dealer's first discard (only a 2nd one does, 000 §字牌规则说明)
    assert (st.phase, st.actor) == ("discard", 0)
    assert not ev(g.events, E.DISCARD) and not ev(g.events, E.DRAW)
    g.apply(Action(A.DISCARD, 0, c("x1")))
    kinds_seq = [e.kind for e in after_deal(g.events)]
    assert kinds_seq[:3] == [E.TI, E.TI, E.DISCARD]


def test_dealer_first_discard_without_drawing(hunan):
    """000 §跑胡子、放炮罚游戏规则 "因为起手21张牌，不要接牌，直接出"; a 坎 stays whole and may not
    be discarded (000 §永州双王扯胡子规则 "一坎牌不能拆散与其他牌组合")."""
    g = new(hunan, hands={0: "x9 x9 x9 d3"}, liang="d3")
    st = g.state
    assert (st.phase, st.actor) == ("discard", 0)
    dealer_hand = g.deal.hands[0]
    want = {i for i in dealer_hand} - {c("x9")}
    assert {a.card for a in g.legal_actions()} == want
    assert all(a.kind == A.DISCARD and a.seat == 0 for a in g.legal_actions())
    with pytest.raises(IllegalActionError):
        g.apply(Action(A.DISCARD, 0, c("x9")))
    before = st.seats[0].hand[c("d3")]
    events = g.apply(Action(A.DISCARD, 0, c("d3")))
    assert events[0].kind == E.DISCARD and (events[0].seat, events[0].card) == (0, c("d3"))
    assert g.state.seats[0].hand[c("d3")] == before - 1 == 1
    assert g.state.seats[0].held == 20
    assert c("d3") in g.state.seats[0].chou_chi_cards  # own discard: never 吃/碰 it (003)


# --- 天胡 ----------------------------------------------------------------------------------------

def test_E18_three_ti_tianhu_non_dealer(hunan):
    """E18; 003 "当砌完牌后，玩家手中有3提或5坎，称为天胡 … 必须天胡"."""
    g = new(hunan, hands={1: "x1 x1 x1 x1 d5 d5 d5 d5 x10 x10 x10 x10 x2 x4 x6 x8 d2 d4 d7 d9"})
    r = g.result
    assert g.is_over and r is not None
    assert (r.kind, r.winner) == ("tianhu", 1)
    assert r.huxi == 9 + 12 + 9  # small 提 9, big 提 12 (digest 1.3c)
    assert sorted(r.decomposition.leftover) == sorted(C("x2 x4 x6 x8 d2 d4 d7 d9"))
    assert sorted(e.card for e in ev(g.events, E.TI, 1)) == sorted(C("x1 d5 x10"))
    assert ev(g.events, E.TIANHU, 1)
    assert g.legal_actions() == ()
    assert g.check(Action(A.DISCARD, 0, c("x3"))) is not None


def test_E19_five_kan_with_ti_counted_as_kan(hunan):
    """E19; 003 "提牌可以当坎牌算 … 提牌和坎牌加起来达到5门或以上也算天胡"."""
    g = new(hunan, hands={1: "x3 x3 x3 x3 d7 d7 d7 d7 x9 x9 x9 d1 d1 d1 d10 d10 d10 x5 d4 x7"})
    r = g.result
    assert (r.kind, r.winner) == ("tianhu", 1)
    assert r.huxi == 9 + 12 + 3 + 6 + 6 == 36
    assert sorted(r.decomposition.leftover) == sorted(C("x5 d4 x7"))


def test_E20_two_ti_two_kan_dealer_no_tianhu_and_no_discard(hunan):
    """E20; 003 "坎牌不可充当提牌"; 000 §字牌规则说明
    "如果没有构成，则亮张后庄家不用打牌。轮到下家摸牌"."""
    g = new(hunan, hands={0: "x3 x3 x3 x3 d7 d7 d7 d7 x9 x9 x9 d1 d1 d1 x2 x4 x8 x10 d5 d6"},
            liang="d10", wall="x5", avoid={1: "x5"})
    st = g.state
    assert st.result is None
    assert not ev(g.events, E.DISCARD, 0)
    after = after_deal(g.events)
    assert [e.kind for e in after[:2]] == [E.TI, E.TI]
    assert after[2].kind in (E.DRAW, E.DRAW_HIDDEN) and after[2].seat == 1
    assert st.seats[0].held == 21 and sum(st.seats[0].hand) == 13
    assert len(st.wall) == 18


def test_lianzhang_makes_second_ti_dealer_does_not_discard(hunan):
    """000 §字牌规则说明
    "如果庄家原来有一门提牌，亮张构成第二门提牌，则亮张后庄家不用打牌。轮到下家摸牌"."""
    g = new(hunan, hands={0: "x3 x3 x3 x3 d7 d7 d7"}, liang="d7", wall="x10", avoid={1: "x10"})
    assert g.result is None
    assert sorted(e.card for e in ev(g.events, E.TI, 0)) == sorted(C("x3 d7"))
    assert not ev(g.events, E.DISCARD)
    first_draw = next(e for e in g.events if e.kind in (E.DRAW, E.DRAW_HIDDEN))
    assert (first_draw.kind, first_draw.seat, first_draw.card) == (E.DRAW, 1, c("x10"))
    assert g.state.seats[0].held == 21


def test_E21_lianzhang_makes_third_ti(hunan):
    """E21; 000 §字牌规则说明 "对庄家来说，如果亮张的牌正好构成第3提或第5坎，则庄家天胡而且自摸"."""
    base = "x2 x2 x2 x2 d6 d6 d6 d6 x8 x8 x8 x1 x3 x5 d2 d4 d8 d9 x10 d10"
    g = new(hunan, hands={0: base}, liang="x8")
    r = g.result
    assert (r.kind, r.winner) == ("tianhu", 0)
    assert r.huxi == 9 + 12 + 9 == 30
    assert {"tianhu", "zimo"} <= set(r.labels)  # "天胡而且自摸"
    assert sorted(e.card for e in ev(g.events, E.TI, 0)) == sorted(C("x2 d6 x8"))
    # control: any other 亮张 leaves 2 提 + 1 坎, no 天胡, and the dealer does not discard
    g2 = new(hunan, hands={0: base}, liang="x7")
    assert g2.result is None
    assert not ev(g2.events, E.DISCARD, 0)
    assert g2.state.seats[0].held == 21


def test_dealer_optional_tianhu_on_complete_21(hunan):
    """003 "两种天胡的优先级：必需天胡（3提或5坎）和选择天胡（亮张胡牌）"; the E30 hand (digest §4
    C) under the Hunan table: 坎 x9 3 + 壹贰叁 6 + 壹贰叁 6 + 二七十 3 = 18 ≥ 15."""
    hand = "d1 d2 d3 d1 d2 d3 x2 x7 x10 x9 x9 x9 x4 x5 x6 d7 d8 d9 d5 d5"
    g = new(hunan, hands={0: hand}, liang="x5")
    assert (g.state.phase, g.state.actor, kinds(g)) == ("hu_check", 0, [A.HU, A.PASS])
    g.apply(find(g, A.HU))
    r = g.result
    assert (r.kind, r.winner, r.source, r.huxi) == ("tianhu", 0, "self", 18)
    assert "tianhu" in r.labels
    # declining it: the dealer discards as usual (the 坎 x9 stays whole)
    g2 = new(hunan, hands={0: hand}, liang="x5")
    g2.apply(Action(A.PASS, 0))
    assert (g2.state.phase, g2.state.actor) == ("discard", 0)
    assert c("x9") not in {a.card for a in g2.legal_actions()}


def test_win_after_forced_wei_on_first_draw_is_zimo_not_tianhu(hunan):
    """Regression: the dealer with 2 提 owes no discard (000 §字牌规则说明), so seat 1 draws first;
    its draw makes a forced 偎 after which the hand wins ("偎完后可胡就自摸胡牌", 000 §衡阳六胡抢).
    That is a 自摸 on a draw, not a 天胡 (天胡 is a dealt hand: 003 "当砌完牌后")."""
    # seat 1 after 偎(d9) 6: [x1 x2 x3] 3 + [x2 x7 x10] 3 + [d1 d2 d3] 6 + 3 plain runs = 18
    g = new(hunan, hands={0: "d7 d7 d7 d7 d10 d10 d10 d10",
                          1: "x1 x2 x3 d1 d2 d3 x4 x5 x6 x7 x8 x9 d4 d5 d6 x2 x7 x10 d9 d9"},
            wall="d9")
    assert not ev(g.events, E.DISCARD)
    assert ev(g.events, E.WEI, 1, "d9")
    assert (g.state.phase, g.state.actor, kinds(g)) == ("hu_check", 1, [A.HU, A.PASS])
    g.apply(find(g, A.HU))
    r = g.result
    assert (r.kind, r.winner, r.source, r.huxi) == ("hu", 1, "self", 18)
    assert ev(g.events, E.HU, 1)[0].note != "天胡"
    assert "tianhu" not in r.labels and "zimo" in r.labels


def test_non_dealer_two_dealt_ti_first_take_owes_no_discard(hunan):
    """003 "对其他两个玩家，第一次进牌后不用出牌，直接轮到下家摸牌" (two dealt 提); later takes owe
    one as usual (digest §1.4.0: resting size 21 with two quads)."""
    g = new(hunan, hands={0: "d5 x10", 1: "x1 x1 x1 x1 x2 x2 x2 x2 d5 d5 d8 d8"},
            wall="x9 x9 d8", avoid={0: "d8 x9", 2: "d8 x9 d5"})
    assert sorted(e.card for e in ev(g.events, E.TI, 1)) == sorted(C("x1 x2"))
    g.apply(Action(A.DISCARD, 0, c("d5")))
    assert (g.state.actor, kinds(g)[0]) == (1, A.PENG)
    events = g.apply(find(g, A.PENG, "d5"))
    assert [(e.kind, e.seat) for e in events[:2]] == [(E.PENG, 1), (E.DRAW, 2)]
    assert g.state.seats[1].held == 21
    pass_all(g)
    # the second take (偎 d8 on its own draw) owes a discard
    assert ev(g.events, E.WEI, 1, "d8")
    assert (g.state.phase, g.state.actor) == ("discard", 1)
    assert g.state.seats[1].held == 22


def test_pao_after_dealt_ti_is_baokuai(hunan):
    """003 "当玩家已经跑过牌或提过牌，再跑时或再提牌时称为八块 …
    此时玩家不能打出手中的牌，而由下家继续摸牌": a dealt 提 counts, so the first 跑 after it owes no
    discard."""
    g = new(hunan, hands={0: "x7", 1: "d6 d6 d6 d6 x7 x7 x7"}, wall="x10", avoid={2: "x10"})
    assert g.state.seats[1].melds == (meld("ti", "d6 d6 d6 d6"),)
    events = g.apply(Action(A.DISCARD, 0, c("x7")))
    assert [(e.kind, e.seat) for e in events[:3]] == [(E.DISCARD, 0), (E.PAO, 1), (E.DRAW, 2)]
    assert "八块" in events[1].note
    assert g.state.seats[1].held == 21


# --- draws: forced 偎 / 提 ------------------------------------------------------------------------

def test_draw_forced_wei_is_hidden_then_discard_owed(hunan):
    """000 §衡阳六胡抢 "摸牌时，除偎牌与提牌外，其它必须首先明示"; 003
    "玩家手中有一对牌，当摸起一只相同的 牌，玩家必须 … 放置于桌面，且不能明示给其它玩家，称为偎";
    000 "任何吃碰等动作后都要打牌"."""
    g = new(hunan, hands={0: "d10", 1: "x6 x6"}, wall="x6")
    g.apply(Action(A.DISCARD, 0, c("d10")))
    pass_all(g)
    events = after_deal(g.events)
    k = next(i for i, e in enumerate(events) if e.seat == 1 and e.kind in (E.DRAW, E.DRAW_HIDDEN))
    assert events[k].kind == E.DRAW_HIDDEN and events[k].card is None
    assert (events[k + 1].kind, events[k + 1].seat, events[k + 1].card) == (E.WEI, 1, c("x6"))
    st = g.state
    assert st.seats[1].melds == (meld("wei", "x6 x6 x6"),)
    assert st.seats[1].hand[c("x6")] == 0
    assert (st.phase, st.actor) == ("discard", 1)
    assert st.seats[1].held == 21


def test_draw_forced_ti_onto_kan_then_discard_owed(hunan):
    """003 "玩家手中有一坎，当玩家摸起相同的一只牌后，必须四只放置于桌面 … 也构成提"; the first 提
    still owes a discard (000 "八块(即跑、提两次及以上)除外")."""
    g = new(hunan, hands={0: "d10", 1: "x6 x6 x6"}, wall="x6")
    g.apply(Action(A.DISCARD, 0, c("d10")))
    pass_all(g)
    hidden = ev(g.events, E.DRAW_HIDDEN, 1)
    assert len(hidden) == 1 and hidden[0].card is None
    ti = ev(g.events, E.TI, 1, "x6")
    assert len(ti) == 1 and ti[0].melds == (meld("ti", "x6 x6 x6 x6"),)
    st = g.state
    assert st.seats[1].melds == (meld("ti", "x6 x6 x6 x6"),)
    assert (st.phase, st.actor) == ("discard", 1)


def test_wei_then_own_draw_of_fourth_is_ti(hunan):
    """000 §跑胡子玩牌规则 "如果是自己摸到第4张牌,偎就变成了提"; 003 ③."""
    g = new(hunan, hands={0: "d10", 1: "x6 x6 d1", 2: "x2"},
            wall="x6 x10 d5 x6", avoid={0: "x10 d5", 1: "x10 d5", 2: "x10 d5"})
    g.apply(Action(A.DISCARD, 0, c("d10")))
    pass_all(g)
    assert g.state.seats[1].melds == (meld("wei", "x6 x6 x6"),)
    g.apply(Action(A.DISCARD, 1, c("d1")))
    pass_all(g)
    st = g.state
    assert st.seats[1].melds == (meld("ti", "x6 x6 x6 x6"),)
    assert len(ev(g.events, E.DRAW_HIDDEN, 1)) == 2
    assert (st.phase, st.actor) == ("discard", 1)  # the first quad owes a discard


# --- 跑 ------------------------------------------------------------------------------------------

def test_pao_on_kan_from_discard_is_forced(hunan):
    """000 §跑胡子玩牌规则 "手中有三张,别家打出一张相同牌叫“跑”"; 003 "玩家必须跑牌"; the first 跑
    owes a discard."""
    g = new(hunan, hands={0: "x7", 2: "x7 x7 x7"})
    events = g.apply(Action(A.DISCARD, 0, c("x7")))
    assert [(e.kind, e.seat, e.card) for e in events[:2]] == [
        (E.DISCARD, 0, c("x7")), (E.PAO, 2, c("x7"))]
    st = g.state
    assert st.seats[2].melds == (meld("pao", "x7 x7 x7 x7"),)
    assert st.seats[2].hand[c("x7")] == 0
    assert (st.phase, st.actor) == ("discard", 2)
    assert st.seats[2].held == 21


def test_pao_on_kan_from_another_players_draw(hunan):
    """003 "玩家手中有一坎牌，当其他玩家打出或摸出一只相同的牌，玩家必须跑牌"."""
    g = new(hunan, hands={0: "d10", 2: "x7 x7 x7"}, wall="x7", avoid={1: "x7"})
    g.apply(Action(A.DISCARD, 0, c("d10")))
    pass_all(g)
    draws = ev(g.events, E.DRAW, 1, "x7")
    pao = ev(g.events, E.PAO, 2, "x7")
    assert len(draws) == 1 and len(pao) == 1
    assert g.events.index(draws[0]) < g.events.index(pao[0])
    assert (g.state.phase, g.state.actor) == ("discard", 2)


def test_wei_then_fourth_from_discard_or_draw_is_pao(hunan):
    """000 §跑胡子玩牌规则 "同桌无论谁打出第4张牌或者摸出第4张牌,偎的牌都必跑"."""
    # seat 1 偎s x6 on its draw; seat 2 偎s d4 on its draw and must discard: it discards x6.
    g = new(hunan, hands={0: "d10", 1: "x6 x6 d1", 2: "d4 d4 x6"}, wall="x6 d4",
            avoid={0: "x6 d4"})
    g.apply(Action(A.DISCARD, 0, c("d10")))
    pass_all(g)
    g.apply(Action(A.DISCARD, 1, c("d1")))
    pass_all(g)
    assert g.state.seats[2].melds == (meld("wei", "d4 d4 d4"),)
    assert (g.state.phase, g.state.actor) == ("discard", 2)
    events = g.apply(Action(A.DISCARD, 2, c("x6")))
    assert [(e.kind, e.seat) for e in events[:2]] == [(E.DISCARD, 2), (E.PAO, 1)]
    assert g.state.seats[1].melds == (meld("pao", "x6 x6 x6 x6"),)
    assert (g.state.phase, g.state.actor) == ("discard", 1)


def _peng_x8(hunan, wall, **extra):
    """Seat 1 碰s the dealer's discarded x8 and discards d1."""
    hands = {0: "x8", 1: "x8 x8 d1"}
    hands.update(extra.pop("hands", {}))
    g = new(hunan, hands=hands, wall=wall, **extra)
    g.apply(Action(A.DISCARD, 0, c("x8")))
    assert (g.state.phase, g.state.actor) == ("respond", 1)
    assert A.PENG in kinds(g)
    act(g, A.PENG, "x8")
    assert g.state.seats[1].melds == (meld("peng", "x8 x8 x8"),)
    assert (g.state.phase, g.state.actor) == ("discard", 1)
    g.apply(Action(A.DISCARD, 1, c("d1")))
    pass_all(g)
    return g


def test_peng_then_pao_by_another_players_draw(hunan):
    """000 §跑胡子玩牌规则 "第4张牌如果是摸出来的牌还可以跑桌面上碰的牌"; E28 (b) Hunan: 跑."""
    g = _peng_x8(hunan, "x8", avoid={0: "d1", 2: "d1"})
    draw = ev(g.events, E.DRAW, 2, "x8")
    pao = ev(g.events, E.PAO, 1, "x8")
    assert len(draw) == 1 and len(pao) == 1
    assert g.events.index(draw[0]) < g.events.index(pao[0])
    assert g.state.seats[1].melds == (meld("pao", "x8 x8 x8 x8"),)
    assert (g.state.phase, g.state.actor) == ("discard", 1)  # first quad


def test_peng_then_pao_by_own_draw(hunan):
    """E28 (c): own draw onto one's 碰 is a 跑 in Hunan (000 "摸出来的牌还可以跑桌面上碰的牌"); the
    card is shown (a 碰 is not a 偎, so no hidden 提)."""
    g = _peng_x8(hunan, "x10 d5 x8", avoid={0: "d1 x10 d5", 1: "x10 d5", 2: "d1 x10 d5"})
    draw = ev(g.events, E.DRAW, 1, "x8")
    assert len(draw) == 1 and not ev(g.events, E.DRAW_HIDDEN, 1)
    assert ev(g.events, E.PAO, 1, "x8")
    assert g.state.seats[1].melds == (meld("pao", "x8 x8 x8 x8"),)
    assert (g.state.phase, g.state.actor) == ("discard", 1)


def test_peng_is_not_upgraded_by_a_discard(hunan):
    """000 §跑胡子玩牌规则 "桌面上碰的牌不能跑任何人手中打出的牌"; E28 (a)."""
    g = _peng_x8(hunan, "d4", hands={2: "x8 d4 d4"}, avoid={0: "d1 d4", 1: "d4"})
    assert g.state.seats[2].melds == (meld("wei", "d4 d4 d4"),)
    assert (g.state.phase, g.state.actor) == ("discard", 2)
    g.apply(Action(A.DISCARD, 2, c("x8")))
    pass_all(g)
    assert not ev(g.events, E.PAO)
    assert g.state.seats[1].melds == (meld("peng", "x8 x8 x8"),)
    assert ev(g.events, E.TO_DISCARDS, 2, "x8")


def test_second_pao_owes_no_discard_baokuai(hunan):
    """000 §跑胡子玩牌规则 "任何吃碰等动作后都要打牌,八块(即跑、提两次及以上)除外"; 003
    "再跑时或再提牌时 称为八块 … 此时玩家不能打出手中的牌，而由下家继续摸牌"."""
    g = new(hunan, hands={0: "x7", 2: "x7 x7 x7 d7 d7 d7 d1"}, wall="d7", avoid={0: "d1"})
    g.apply(Action(A.DISCARD, 0, c("x7")))
    assert (g.state.phase, g.state.actor) == ("discard", 2)
    g.apply(Action(A.DISCARD, 2, c("d1")))
    pass_all(g)
    pao = ev(g.events, E.PAO, 2, "d7")
    assert len(pao) == 1 and "八块" in pao[0].note
    after = g.events[g.events.index(pao[0]) + 1:]
    assert after[0].kind in (E.DRAW, E.DRAW_HIDDEN) and after[0].seat == 0
    assert not ev(after, E.DISCARD, 2)
    assert g.state.seats[2].held == 21
    assert [m.kind.value for m in g.state.seats[2].melds] == ["pao", "pao"]


def test_second_quad_by_own_draw_ti_owes_no_discard(hunan):
    """000 "八块(即跑、提两次及以上)除外"; 001
    "第二次或第二次以上的跑牌或者提牌，都不需要再打牌"."""
    g = new(hunan, hands={0: "x7", 2: "x7 x7 x7 d7 d7 d7 d1"}, wall="x10 d5 d7",
            avoid={0: "d1 x10 d5", 1: "x10 d5", 2: "x10 d5"})
    g.apply(Action(A.DISCARD, 0, c("x7")))
    g.apply(Action(A.DISCARD, 2, c("d1")))
    pass_all(g)
    ti = ev(g.events, E.TI, 2, "d7")
    assert len(ti) == 1 and "八块" in ti[0].note
    after = g.events[g.events.index(ti[0]) + 1:]
    assert after[0].kind in (E.DRAW, E.DRAW_HIDDEN) and after[0].seat == 0
    assert not ev(after, E.DISCARD, 2)
    assert g.state.seats[2].held == 21


def test_peng_not_offered_when_it_leaves_nothing_to_discard(hunan):
    """Digest G12 (default): a 碰 that owes a discard but would leave only 坎 cards (which may not
    be discarded) is not allowed."""
    table = (meld("peng", "x6 x6 x6"), meld("shun", "x7 x8 x9", claimed="x7"),
             meld("shun", "d2 d3 d4", claimed="d2"))
    stuck = SeatState(counts("x3 x3 d1 d1 d1 d5 d5 d5 d9 d9 d9"), table)
    free = SeatState(counts("x3 x3 d1 d1 d1 d5 d5 d5 d9 d10 x10"), table)
    other = SeatState(counts("x1"))
    assert stuck.held == free.held == 20
    assert tier_options(hunan, (other, stuck, other), ("pao", "peng"), c("x3"), "discard", 0) == []
    opts = tier_options(hunan, (other, free, other), ("pao", "peng"), c("x3"), "discard", 0)
    assert opts == [(1, (Action(A.PENG, 1, c("x3")), Action(A.PASS, 1)))]


# --- 吃 and 比 ------------------------------------------------------------------------------------

def test_chi_on_discard_only_by_next_seat(hunan):
    """000 §跑胡子、放炮罚游戏规则 "下家可吃可碰牌，上家可碰牌不能吃牌"."""
    # dealer discards x3: seat 1 (下家) holds x1 x2, seat 2 (the dealer's 上家) holds x4 x5
    g = new(hunan, hands={0: "x3", 1: "x1 x2", 2: "x4 x5"},
            avoid={1: "x3 x4 x5 d3", 2: "x3 x1 x2 d3"})
    g.apply(Action(A.DISCARD, 0, c("x3")))
    st = g.state
    assert (st.phase, st.actor) == ("respond", 1)
    assert A.CHI in kinds(g)
    g.apply(Action(A.PASS, 1))
    assert ev(g.events, E.TO_DISCARDS, 0, "x3")
    asked = [e.seat for e in g.events if e.kind == E.PASS and e.card == c("x3")]
    assert asked == [1]
    # yet seat 2 could have made 顺子 x3 x4 x5 had it been allowed to 吃
    assert g.state.seats[2].hand[c("x4")] and g.state.seats[2].hand[c("x5")]


def test_chi_on_draw_by_drawer_then_next_seat_never_previous(hunan):
    """003 "当上家打出或摸出一只牌，或玩家自己摸出一只牌 … 玩家可以吃牌"."""
    # seat 1 draws x9: seat 1 holds x7 x8, seat 2 holds x8 x10, seat 0 holds x10 x8
    g = new(hunan, hands={0: "d10 x8 x10", 1: "x7 x8", 2: "x8 x10"}, wall="x9",
            avoid={0: "x9 x7 d9", 1: "x9 x10 d9", 2: "x9 x7 d9"})
    g.apply(Action(A.DISCARD, 0, c("d10")))
    # answer the dealer's discard until seat 1 has drawn
    while not ev(g.events, E.DRAW, 1):
        g.apply(Action(A.PASS, g.state.actor))
    st = g.state
    assert (st.phase, st.actor) == ("respond", 1)
    assert st.pending.card == c("x9") and st.pending.source == "draw"
    assert {a.kind for a in g.legal_actions()} == {A.CHI, A.PASS}
    g.apply(Action(A.PASS, 1))
    assert (g.state.phase, g.state.actor) == ("respond", 2)
    assert A.CHI in kinds(g)
    g.apply(Action(A.PASS, 2))
    asked = [e.seat for e in g.events if e.kind == E.PASS and e.card == c("x9")]
    assert asked == [1, 2]
    assert ev(g.events, E.TO_DISCARDS, 1, "x9")


def test_E23_chi_forbidden_when_bi_impossible(hunan):
    """E23; 003 "如果玩家符合吃牌的条件但达不到比牌的条件 … 则不允许吃牌"."""
    avoid = {1: "x1 d1 x2 x3", 2: "x1"}
    g = new(hunan, hands={0: "x1", 1: "x1 x2 x3 x5 d8"}, avoid=avoid)
    g.apply(Action(A.DISCARD, 0, c("x1")))
    assert not [e for e in g.events if e.kind == E.PASS and e.card == c("x1")]
    assert ev(g.events, E.TO_DISCARDS, 0, "x1")
    # control: without the held x1 nothing needs 比, and 吃 x1 x2 x3 is offered
    g2 = new(hunan, hands={0: "x1", 1: "x2 x3 x5 d8"}, avoid=avoid)
    g2.apply(Action(A.DISCARD, 0, c("x1")))
    assert (g2.state.phase, g2.state.actor) == ("respond", 1)
    assert [a.melds for a in g2.legal_actions() if a.kind == A.CHI] == [
        (meld("yi_er_san", "x1 x2 x3", claimed="x1"),)]


def test_003_two_copies_bi_plans(hunan):
    """Digest §1.4.10 item 2 (003): incoming x2, hand x1 x2 x2 x3 x3 x4 d2 d2: "如果用两张大2吃 …
    比 小1，小2，小3，再比 小2，小3，小4"; "如果用小1和小3吃 … 如果比
    小2，小2，大2，则只要比这一次就完了。 如果比 小2，大2，大2，则再比 小2，小3，小4"."""
    g = new(hunan, hands={0: "x2", 1: "x1 x2 x2 x3 x3 x4 d2 d2"},
            avoid={1: "x1 x2 x3 x4 x7 x10 d2", 2: "x2"})
    g.apply(Action(A.DISCARD, 0, c("x2")))
    st = g.state
    assert (st.phase, st.actor) == ("respond", 1)
    assert kinds(g) == [A.PENG, A.PASS]  # 碰 before 吃
    g.apply(Action(A.PASS, 1))
    assert (g.state.phase, g.state.actor) == ("respond", 1)

    def plan(chi, *bis):
        def m(t, **kw):
            cards = sorted(C(t))
            shape = "yi_er_san" if cards == C("x1 x2 x3") else (
                "jiao" if len(set(x % 10 for x in cards)) == 1 else "shun")
            return meld(shape, t, **kw)
        return (m(chi, claimed="x2"),) + tuple(sorted((m(b, bi=True) for b in bis),
                                                      key=lambda x: x.cards))

    want = {
        plan("x1 x2 x3", "x2 x3 x4", "x2 d2 d2"),
        plan("x1 x2 x3", "x2 x2 d2"),
        plan("x2 x3 x4", "x1 x2 x3", "x2 d2 d2"),
        plan("x2 x3 x4", "x2 x2 d2"),
        plan("x2 x2 d2", "x1 x2 x3"),
        plan("x2 x2 d2", "x2 x3 x4"),
        plan("x2 d2 d2", "x1 x2 x3", "x2 x3 x4"),
    }
    got = {a.melds for a in g.legal_actions() if a.kind == A.CHI}
    assert got == want
    # every plan lays down all three x2 (the claimed one and both held copies)
    for p in got:
        assert sum(m.cards.count(c("x2")) for m in p) == 3
    # apply the 003 "两张大2" plan: the hand loses x1 x2 x2 x3 x3 x4 d2 d2 entirely
    g.apply(Action(A.CHI, 1, c("x2"), plan("x2 d2 d2", "x1 x2 x3", "x2 x3 x4")))
    hand = g.state.seats[1].hand
    assert all(hand[i] == 0 for i in C("x1 x2 x3 x4 d2"))
    assert (g.state.phase, g.state.actor) == ("discard", 1)


def test_E24_yongzhou_xiahuo_plans_shape(hunan):
    """E24 (the 比 rule is the same in Hunan, 003): hand x1 x2 x3 x4 x5, incoming x3 from 上家:
    (a) 吃 x3 x4 x5 + 比 x1 x2 x3 and (b) 吃 x1 x2 x3 + 比 x3 x4 x5 are legal, (c) 吃 x2 x3 x4
    is not (the held x3 is left with x1 x5)."""
    g = new(hunan, hands={0: "x3", 1: "x1 x2 x3 x4 x5"},
            avoid={1: "x1 x2 x3 x4 x5 x6 d3", 2: "x3"})
    g.apply(Action(A.DISCARD, 0, c("x3")))
    assert (g.state.phase, g.state.actor) == ("respond", 1)
    got = {a.melds for a in g.legal_actions() if a.kind == A.CHI}
    assert got == {
        (meld("shun", "x3 x4 x5", claimed="x3"), meld("yi_er_san", "x1 x2 x3", bi=True)),
        (meld("yi_er_san", "x1 x2 x3", claimed="x3"), meld("shun", "x3 x4 x5", bi=True)),
    }
    bad = Action(A.CHI, 1, c("x3"), (meld("shun", "x2 x3 x4", claimed="x3"),))
    with pytest.raises(IllegalActionError):
        g.apply(bad)


# --- 臭牌 ----------------------------------------------------------------------------------------

def _decline_x2(hunan, wall, **extra):
    """E26 set-up: seat 1 holds x1 x2 x2 x3 d2; the dealer (its 上家) discards x2 and seat 1
    takes neither the 碰 nor the 吃."""
    avoid = {1: "x2 x4 x7 x10 d1 d3", 2: "x2"}
    avoid.update(extra.pop("avoid", {}))
    g = new(hunan, hands={0: "x2", 1: "x1 x2 x2 x3 d2"}, wall=wall, avoid=avoid, **extra)
    g.apply(Action(A.DISCARD, 0, c("x2")))
    assert (g.state.actor, kinds(g)) == (1, [A.PENG, A.PASS])
    g.apply(Action(A.PASS, 1))
    assert g.state.actor == 1 and A.CHI in kinds(g)
    g.apply(Action(A.PASS, 1))
    seat = g.state.seats[1]
    assert c("x2") in seat.chou_peng_cards and c("x2") in seat.chou_chi_cards
    return g


def test_E26_chou_card_own_draw_must_chou_wei(hunan):
    """E26; 003 "如果是自己摸到的“二”则必须臭偎"; "但如果玩家持有臭牌 … 还是可以偎牌"."""
    g = _decline_x2(hunan, "x2")
    pass_all(g)
    cw = ev(g.events, E.CHOU_WEI, 1, "x2")
    assert len(cw) == 1 and cw[0].melds == (meld("chou_wei", "x2 x2 x2"),)
    assert ev(g.events, E.DRAW_HIDDEN, 1)
    assert g.state.seats[1].melds == (meld("chou_wei", "x2 x2 x2"),)
    assert (g.state.phase, g.state.actor) == ("discard", 1)


def test_E26_chou_card_cannot_be_taken_later(hunan):
    """E26; 003 "这张牌就成了该玩家的臭牌，第二次牌桌上再出现同张牌时，该玩家不得再吃或者碰"."""
    # the last x2 is drawn by the dealer, seat 1's 上家: without 臭 seat 1 could 碰 and 吃 it
    g = _decline_x2(hunan, "x9 d5 x2", avoid={0: "x9 d5 x1 x3 d2", 1: "x9 d5", 2: "x9 d5"})
    for _ in range(30):
        if ev(g.events, E.DRAW, 0, "x2") or g.is_over:
            break
        if g.state.phase == "respond":
            g.apply(Action(A.PASS, g.state.actor))
        else:
            g.apply(g.legal_actions()[0])
    assert ev(g.events, E.DRAW, 0, "x2")
    pass_all(g)
    x2_passes = [e.seat for e in g.events if e.kind == E.PASS and e.card == c("x2")]
    assert x2_passes == [1, 1]  # only the first time; never asked again
    assert ev(g.events, E.TO_DISCARDS, 0, "x2")


def test_never_take_own_discard(hunan):
    """003 "任何人也不能吃或者碰自己曾经打出过的牌，不管这张牌后来有人打出还是自己摸到的"."""
    # seat 1 偎s d4 on its draw and discards x9 (keeping x7 x8); later the dealer, seat 1's
    # 上家, draws x9: seat 1 could make 顺子 x7 x8 x9 but must not be asked
    g = new(hunan, hands={0: "d10 x9", 1: "d4 d4 x7 x8 x9", 2: "x9"}, wall="d4 x10 x9",
            avoid={0: "x7 x8 x10 d4", 1: "x7 x8 x10 d9", 2: "x7 x8 x10 d4"})
    g.apply(Action(A.DISCARD, 0, c("d10")))
    pass_all(g)
    assert (g.state.phase, g.state.actor) == ("discard", 1)
    g.apply(Action(A.DISCARD, 1, c("x9")))
    assert c("x9") in g.state.seats[1].chou_chi_cards
    while not ev(g.events, E.DRAW, 0, "x9"):
        g.apply(Action(A.PASS, g.state.actor))
    seat1 = g.state.seats[1]
    assert seat1.hand[c("x7")] == 1 and seat1.hand[c("x8")] == 1
    assert seat1.melds == (meld("wei", "d4 d4 d4"),)
    while g.state.pending is not None and g.state.pending.card == c("x9"):
        assert g.state.actor != 1
        g.apply(Action(A.PASS, g.state.actor))
    x9_asked = [e.seat for e in g.events if e.kind == E.PASS and e.card == c("x9")]
    assert 1 not in x9_asked
    assert ev(g.events, E.TO_DISCARDS, 0, "x9")


# --- 臭胡 and claim priority ---------------------------------------------------------------------

# Waits on x5 (x4 _ x6) for 15 胡息 with no x5 held:
# [x1 x2 x3] 3 + [d1 d2 d3] 6 + 坎 d9 6 + [x4 x5 x6] + [x7 x8 x9] + [d4 d5 d6] + [d6 d7 d8]
WAIT_A = "x1 x2 x3 d1 d2 d3 d9 d9 d9 x4 x6 x7 x8 x9 d4 d5 d6 d6 d7 d8"
# the same with 坎 d10: 3 + 6 + 6 = 15
WAIT_B = "x1 x2 x3 d1 d2 d3 d10 d10 d10 x4 x6 x7 x8 x9 d4 d5 d6 d6 d7 d8"


def test_wait_hands_win_on_drawn_x5(hunan):
    """E16-style check of the fixtures: a drawn x5 wins with exactly 15 (threshold 15, 000
    §湖南字牌技巧 "一般情况下是15须可以胡牌")."""
    for text in (WAIT_A, WAIT_B):
        seat = SeatState(counts(text))
        a = win_verdict(hunan, seat.hand, seat.melds, c("x5"), "draw")
        assert a.win and a.huxi == 15
        assert not win_verdict(hunan, seat.hand, seat.melds, c("x3"), "draw").win


def test_no_win_on_a_discard_in_hunan(hunan):
    """E16 (a); 003 ③ "任何人打出的牌都不能胡"."""
    g = new(hunan, hands={0: "x5 x10", 1: WAIT_A}, avoid={0: "x5"})
    g.apply(Action(A.DISCARD, 0, c("x5")))
    seen = []
    while g.state.phase == "respond" and g.state.pending.card == c("x5"):
        seen += kinds(g)
        g.apply(Action(A.PASS, g.state.actor))
    assert A.HU not in seen
    assert A.CHI in seen  # seat 1 was asked (吃 x4 x5 x6), just never offered 胡
    assert hu_allowed(hunan, SeatState(counts(WAIT_A)), c("x5"), "discard") is None


def test_drawer_hu_offered_first_then_next_seat(hunan):
    """003 "同时有两个以上玩家要胡同一张牌时，如果是自己摸的牌，则自己优先胡牌"."""
    g = new(hunan, hands={0: "x10", 1: WAIT_A, 2: WAIT_B}, wall="x5", avoid={0: "x5"})
    g.apply(Action(A.DISCARD, 0, c("x10")))
    while not ev(g.events, E.DRAW, 1):
        g.apply(Action(A.PASS, g.state.actor))
    assert (g.state.actor, kinds(g)) == (1, [A.HU, A.PASS])
    g.apply(Action(A.PASS, 1))
    assert (g.state.actor, kinds(g)) == (2, [A.HU, A.PASS])
    g.apply(find(g, A.HU))
    r = g.result
    assert (r.kind, r.winner, r.card, r.source, r.huxi) == ("hu", 2, c("x5"), "draw", 15)
    assert "zimo" not in r.labels  # G25: 自摸 only on one's own draw


def test_drawer_self_win_source_is_self(hunan):
    """E16 (c): own draw → 自摸 win, 15."""
    g = new(hunan, hands={0: "x10", 1: WAIT_A}, wall="x5", avoid={0: "x5"})
    g.apply(Action(A.DISCARD, 0, c("x10")))
    while not ev(g.events, E.DRAW, 1):
        g.apply(Action(A.PASS, g.state.actor))
    g.apply(find(g, A.HU))
    assert (g.result.kind, g.result.winner, g.result.source, g.result.huxi) == ("hu", 1, "self", 15)
    assert "zimo" in g.result.labels


def test_next_seat_hu_first_when_two_others_win(hunan):
    """003 "如果是其他两家要胡牌，则下家优先可以胡"."""
    g = new(hunan, hands={0: "x10", 1: WAIT_A, 2: WAIT_B}, wall="x10 x10 x5",
            avoid={0: "x5 x10"})
    g.apply(Action(A.DISCARD, 0, c("x10")))
    for _ in range(30):
        if ev(g.events, E.DRAW, 0, "x5"):
            break
        if g.state.phase == "respond":
            g.apply(Action(A.PASS, g.state.actor))
        else:
            g.apply(g.legal_actions()[0])
    assert ev(g.events, E.DRAW, 0, "x5")
    order = []
    while g.state.phase == "respond" and A.HU in kinds(g):
        order.append(g.state.actor)
        g.apply(Action(A.PASS, g.state.actor))
    assert order == [1, 2]


def test_hu_offered_before_forced_pao(hunan):
    """003 破跑胡 "当玩家自己或其他玩家跑牌时，正好这只牌是自己要胡的，可以胡
    …（即胡牌优先于跑牌）"."""
    # dealer has 坎 x5; seat 2 waits on x5; seat 1 draws the 4th x5
    g = new(hunan, hands={0: "x5 x5 x5 x10", 2: WAIT_B}, wall="x5")
    g.apply(Action(A.DISCARD, 0, c("x10")))
    while not ev(g.events, E.DRAW, 1, "x5"):
        g.apply(Action(A.PASS, g.state.actor))
    assert not ev(g.events, E.PAO)
    assert (g.state.actor, kinds(g)) == (2, [A.HU, A.PASS])
    g.apply(Action(A.PASS, 2))
    assert ev(g.events, E.PAO, 0, "x5")  # declined: the forced 跑 goes ahead
    assert ev(g.events, E.CHOU, 2, "x5")


def test_peng_offered_before_chi(hunan):
    """001 "当有碰牌时，不碰才能吃"; seat order alone would ask seat 1 first."""
    g = new(hunan, hands={0: "x3", 1: "x1 x2", 2: "x3 x3"}, avoid={1: "x3 x4 x5 d3"})
    g.apply(Action(A.DISCARD, 0, c("x3")))
    assert (g.state.actor, kinds(g)) == (2, [A.PENG, A.PASS])
    g.apply(Action(A.PASS, 2))
    assert g.state.actor == 1 and A.CHI in kinds(g)
    # and when seat 2 takes the 碰, seat 1 is never asked
    g2 = new(hunan, hands={0: "x3", 1: "x1 x2", 2: "x3 x3"}, avoid={1: "x3 x4 x5 d3"})
    g2.apply(Action(A.DISCARD, 0, c("x3")))
    act(g2, A.PENG, "x3")
    assert [e.seat for e in g2.events if e.kind == E.PASS] == []
    assert (g2.state.phase, g2.state.actor) == ("discard", 2)


def test_E27_chou_hu(hunan):
    """E27; 003
    "臭胡:能胡而没胡的牌第二次出现时，如果玩家的当前胡息数没发生变化，则玩家不可以胡牌"."""
    # seat 2 waits on x5; seat 1 draws x5 (seat 2 declines), later the dealer draws x5
    g = new(hunan, hands={0: "x10", 2: WAIT_B}, wall="x5 x10 x5",
            avoid={0: "x5 d10", 1: "x5 d10"})
    g.apply(Action(A.DISCARD, 0, c("x10")))
    while not ev(g.events, E.DRAW, 1, "x5"):
        g.apply(Action(A.PASS, g.state.actor))
    while not (g.state.actor == 2 and A.HU in kinds(g)):
        g.apply(Action(A.PASS, g.state.actor))
    g.apply(Action(A.PASS, 2))
    assert (c("x5"), 0) in g.state.seats[2].chou_hu_marks
    for _ in range(30):
        if ev(g.events, E.DRAW, 0, "x5"):
            break
        if g.state.phase == "respond":
            assert A.HU not in kinds(g)
            g.apply(Action(A.PASS, g.state.actor))
        else:
            g.apply(g.legal_actions()[0])
    assert ev(g.events, E.DRAW, 0, "x5")
    assert g.state.seats[2].melds == ()  # table 胡息 unchanged (0)
    seat = g.state.seats[2]
    assert win_verdict(hunan, seat.hand, seat.melds, c("x5"), "draw").win  # shape still wins
    while g.state.phase == "respond" and g.state.pending.card == c("x5"):
        assert A.HU not in kinds(g)
        g.apply(Action(A.PASS, g.state.actor))
    assert g.result is None


def test_E27_chou_hu_lifted_when_huxi_changes(hunan):
    """E27 (second half): "只有玩家的当前胡息数发生变化后 … 才能胡那张牌"."""
    # table 偎(x9) 3 胡息 + hand waiting on x5 ([x1 x2 x3] 3 + [d1 d2 d3] 6 + 坎 d10 6) = 18
    hand = counts("x1 x2 x3 d1 d2 d3 d10 d10 d10 x4 x6 d4 d5 d6 d6 d7 d8")
    table = (meld("wei", "x9 x9 x9"),)
    fresh = SeatState(hand, table)
    assert hu_allowed(hunan, fresh, c("x5"), "draw").huxi == 18
    declined_now = SeatState(hand, table, chou_hu_marks=((c("x5"), 3),))
    assert hu_allowed(hunan, declined_now, c("x5"), "draw") is None
    declined_before_wei = SeatState(hand, table, chou_hu_marks=((c("x5"), 0),))
    assert hu_allowed(hunan, declined_before_wei, c("x5"), "draw") is not None
    other_card = SeatState(hand, table, chou_hu_marks=((c("x3"), 3),))
    assert hu_allowed(hunan, other_card, c("x5"), "draw") is not None


# --- 荒庄 ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8, 13])
def test_huangzhuang_when_wall_runs_out(hunan, seed):
    """000 §字牌规则说明 荒庄 / digest G7: nobody wins and the wall is empty. Declining every
    optional take (Hunan has no forced win on a draw) leaves every one of the 19 wall cards to be
    drawn, and the hand ends at the draw that finds the wall empty."""
    g = Game(hunan, seed=seed)
    assert g.result is None
    while not g.is_over:
        acts = g.legal_actions()
        pas = [a for a in acts if a.kind == A.PASS]
        g.apply(pas[0] if pas else acts[0])
    assert g.result.kind == "huangzhuang" and g.result.winner is None
    assert g.state.wall == ()
    draws = [e for e in g.events if e.kind in (E.DRAW, E.DRAW_HIDDEN)]
    assert len(draws) == 19
    assert g.events[-1].kind == E.HUANGZHUANG
