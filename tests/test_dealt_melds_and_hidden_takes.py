"""碰胡 dealt 扫 and 连扫三次, Guilin's single dealt 4同牌 kept in the hand and its unshown 吃 of
one's own draw (issue 13, items 2–5), on explicit deals.

* ``deal.dealt_kan: wei`` (碰胡): "起手扫牌必须放在桌上，一开始就必须放在桌上，不管有几个扫"
  (000_cdb63c032605c9a1.txt §碰胡规则);
* ``win.wei_run_as_ti: 3`` (碰胡): "摸上来的牌连扫三次也叫“提蛇”必须放在桌面上" (same section);
* ``deal.single_dealt_ti: hand`` (Guilin): "[自已摸到1扫穿不放在桌面；自已摸到2扫穿放在桌面不亮]"
  (004_4a6d8adec4e0ba73.txt 第四条6), 重舵 as 第五条7;
* ``display.chi_own_draw: hidden`` (Guilin): "吃上家牌需亮顺，自己摸到牌不用亮" (004 第四条1).
"""

from __future__ import annotations

import attrs
import pytest

from helpers import C, c, make_deal
from zipai_rules import load_preset
from zipai_rules.engine import Action, ActionKind, Deal, EventKind, Game
from zipai_rules.engine.observation import SeenMeld, observe
from zipai_rules.melds import Meld, MeldKind

PENGHU_SIZES = (15, 14, 37)
A = ActionKind


def with_option(preset: str, section: str, **changes):
    v = load_preset(preset)
    return attrs.evolve(v, **{section: attrs.evolve(getattr(v, section), **changes)})


def play(game: Game, discards: dict[int, str], stop=None, limit: int = 80) -> None:
    """Discard ``discards[seat]`` in order (else the first option), PASS every other decision,
    until the hand ends or ``stop(game)`` holds."""
    todo = {s: C(t) for s, t in discards.items()}
    for _ in range(limit):
        if game.is_over or (stop is not None and stop(game)):
            return
        st = game.state
        if st.phase == "discard":
            want = todo.get(st.actor) or []
            a = next((a for a in st.options if want and a.card == want[0]), st.options[0])
            if want and a.card == want[0]:
                want.pop(0)
            game.apply(a)
        else:
            game.apply(Action(A.PASS, st.actor))
    raise AssertionError("the hand did not get there")


# --- 2. 碰胡: dealt 坎 go on the table as 扫 -----------------------------------------------------

DEALT_KAN = make_deal(hands={0: "x3", 1: "x3 x3 x3 d7 d7 d7 x1 x2"}, liang="d1",
                      sizes=PENGHU_SIZES)


def test_penghu_dealt_kan_are_laid_down_as_face_down_sao():
    """Seat 1 is dealt 坎 x3 and d7: both go on the table as 扫 at the deal, so 6 of its 14 cards
    lie there face down ("碰亮“扫”不亮") and 8 stay concealed; in Hunan they stay in the hand."""
    g = Game(load_preset("penghu"), deal=DEALT_KAN)
    seat = g.state.seats[1]
    assert seat.melds == (Meld(MeldKind.WEI, (c("x3"),) * 3), Meld(MeldKind.WEI, (c("d7"),) * 3))
    assert (sum(seat.hand), seat.hand[c("x3")], seat.hand[c("d7")]) == (8, 0, 0)
    dealt = [(e.kind, e.card, e.note) for e in g.events if e.seat == 1 and e.kind != "deal"]
    assert dealt == [("wei", c("x3"), "dealt, forced"), ("wei", c("d7"), "dealt, forced")]
    seen = observe(g.state, 0)
    assert seen.melds[1] == (SeenMeld(MeldKind.WEI, (), 3),) * 2
    assert seen.hidden_cards == (15, 8, 14)
    assert [(e.kind, e.card) for e in g.events_for(0) if e.seat == 1 and e.kind == "wei"] == [
        ("wei", None), ("wei", None)]
    # the default keeps a dealt 坎 in the hand
    h = Game(with_option("penghu", "deal", dealt_kan="hand"), deal=DEALT_KAN)
    assert h.state.seats[1].melds == () and h.state.seats[1].hand[c("x3")] == 3


def test_penghu_fourth_card_discarded_onto_a_dealt_sao_must_pao():
    """The dealer discards the 4th x3: the dealt 扫 must 跑起 ("无论谁打出第4张牌 … “扫”的牌必须得
    “跑起”"), and seat 1 then owes a discard (15 cards held, one 跑)."""
    g = Game(load_preset("penghu"), deal=DEALT_KAN)
    events = g.apply(Action(A.DISCARD, 0, c("x3")))
    assert [(e.kind, e.seat, e.note) for e in events[1:]] == [("pao", 1, "forced")]
    assert g.state.seats[1].melds[0] == Meld(MeldKind.PAO, (c("x3"),) * 4)
    assert (g.state.phase, g.state.actor) == ("discard", 1)


def test_penghu_dealer_seven_pairs_with_a_dealt_sao_is_xiao_qi_dui():
    """"庄家摸到7对牌，必须带一个“扫”": 6 pairs and a dealt 坎 x10, now a 扫 on the table, still
    win at once as 小七对."""
    deal = make_deal(hands={0: "x1 x1 x3 x3 x5 x5 d2 d2 d6 d6 d8 d8 x10 x10"}, liang="x10",
                     sizes=PENGHU_SIZES)
    g = Game(load_preset("penghu"), deal=deal)
    assert g.state.seats[0].melds == (Meld(MeldKind.WEI, (c("x10"),) * 3),)
    r = g.result
    assert (r.kind, r.winner, r.labels) == ("hu", 0, ("xiao_qi_dui",))


# --- 3. 碰胡: three 扫 in a row are a 提蛇 ----------------------------------------------------

# seat 1: a dealt 提蛇 d9, pairs x1 x2 x3 and singles to discard; the others hold none of them
RUN_HAND = "d9 d9 d9 d9 x1 x1 x2 x2 x3 x3 d2 d4 d6 d8"
RUN_AVOID = {0: "x1 x2 x3 d2 d4 d6", 2: "x1 x2 x3 d2 d4 d6"}


def _run_game(wall: str, variant=None) -> Game:
    deal = make_deal(hands={1: RUN_HAND}, wall=wall, liang="d1", sizes=PENGHU_SIZES,
                     avoid=RUN_AVOID)
    g = Game(variant or load_preset("penghu"), deal=deal)
    play(g, {1: "d2 d4 d6 d8"}, stop=lambda g: len(g.state.wall) <= 37 - 10)
    return g


def test_three_sao_in_a_row_are_a_tishe_and_win_with_a_dealt_one():
    """Seat 1 draws x1, x2, x3 on its first three draws (wall positions 0, 3, 6): three 扫 in a
    row, "连扫三次也叫提蛇"; with its dealt 提蛇 d9 that makes two, a win at once (two_ti)."""
    g = _run_game("x1 x5 x6 x2 x7 x8 x3")
    sao = [(e.card, e.note) for e in g.events if e.seat == 1 and e.kind == "wei"]
    assert sao == [(c("x1"), "forced"), (c("x2"), "forced"),
                   (c("x3"), "forced, 3 in a row: counts as 提")]
    r = g.result
    assert (r.kind, r.winner, r.labels) == ("hu", 1, ("two_ti",))
    assert (g.state.seats[1].wei_run, g.state.seats[1].wei_runs) == (0, 1)
    # ended at the third 扫: 37 − 7 cards drawn
    assert len(g.state.wall) == 30


def test_a_shown_own_draw_breaks_the_run():
    """The same 扫 with a shown draw (x10, nobody takes it) of seat 1 between the first and the
    second: two 扫 in a row at most, no 提蛇, the hand goes on."""
    g = _run_game("x1 x5 x6 x10 x7 x8 x2 x4 x9 x3")
    assert [e.card for e in g.events if e.seat == 1 and e.kind == "wei"] == C("x1 x2 x3")
    assert not g.is_over
    assert (g.state.seats[1].wei_run, g.state.seats[1].wei_runs) == (2, 0)


def test_without_the_option_three_sao_are_three_sao():
    """``win.wei_run_as_ti: 0`` (the default): the same three 扫 count for nothing."""
    g = _run_game("x1 x5 x6 x2 x7 x8 x3", with_option("penghu", "win", wei_run_as_ti=0))
    assert [e.card for e in g.events if e.seat == 1 and e.kind == "wei"] == C("x1 x2 x3")
    assert not g.is_over and g.state.seats[1].wei_runs == 0


# --- 4. Guilin: a single dealt 4同牌 stays in the hand -------------------------------------------

HELD = make_deal(hands={1: "d5 d5 d5 d5 x7 x7 x7"}, wall="d1 d2 d3 x7", liang="x1",
                 wall_tail="d10", avoid={0: "x7 d5", 1: "d10", 2: "x7 d5"})


def test_a_single_dealt_quad_is_not_shown_to_the_others():
    """Seat 1 is dealt d5 ×4: it counts as a 提 (it lies among seat 1's melds, for 重舵 and
    胡息) but the others see no meld and 20 concealed cards, and are told no 提."""
    g = Game(load_preset("guilin"), deal=HELD)
    seat = g.state.seats[1]
    assert (seat.held_ti, seat.melds, sum(seat.hand)) == (
        c("d5"), (Meld(MeldKind.TI, (c("d5"),) * 4),), 16)
    for other in (0, 2):
        seen = observe(g.state, other)
        assert seen.melds[1] == () and seen.hidden_cards[1] == 20
        assert [e.kind for e in g.events_for(other) if e.seat == 1] == ["deal"]
    mine = observe(g.state, 1)
    assert mine.melds[1] == (SeenMeld(MeldKind.TI, (c("d5"),) * 4),) and mine.hidden_cards[1] == 16
    # table: today's default lays it down face down, which shows a quad exists
    t = Game(with_option("guilin", "deal", single_dealt_ti="table"), deal=HELD)
    assert observe(t.state, 0).melds[1] == (SeenMeld(MeldKind.TI, (), 4),)
    assert t.state.seats[1].held_ti is None


def test_the_others_cannot_tell_a_held_quad_from_three_and_a_single():
    """Swap one of seat 1's d5 with the last wall card (d10): seat 1 now holds 坎 d5 and a d10.
    Seat 0's first view (its decision) is the same whether or not seat 1 holds the quad."""
    v = load_preset("guilin")
    hands = [list(h) for h in HELD.hands]
    k = hands[1].index(c("d5"))
    wall = list(HELD.wall)
    assert wall[-1] == c("d10")
    hands[1][k], wall[-1] = wall[-1], hands[1][k]
    twin = Deal(tuple(map(tuple, hands)), tuple(wall), HELD.dealer, HELD.aside)
    a, b = Game(v, deal=HELD), Game(v, deal=twin)
    assert b.state.seats[1].melds == () and b.state.seats[1].hand[c("d5")] == 3
    assert a.state.actor == b.state.actor == 0
    assert a.views(0) == b.views(0)
    t = with_option("guilin", "deal", single_dealt_ti="table")
    assert Game(t, deal=HELD).views(0) != Game(t, deal=twin).views(0)


def test_the_held_quad_is_laid_down_with_the_second_and_makes_chongduo():
    """Seat 1 draws the 4th x7 onto its 坎: a 扫穿, its second 4同牌 (重舵, "自己手中有一个四同牌，
    然后又摸了个扫穿"): both now lie face down, and seat 1 draws on without discarding."""
    g = Game(load_preset("guilin"), deal=HELD)
    play(g, {}, stop=lambda g: g.state.seats[1].quads == 2 and g.state.seats[1].melds[-1].kind
         == MeldKind.TI and g.state.seats[1].melds[-1].cards[0] == c("x7"))
    seat = g.state.seats[1]
    assert seat.held_ti is None
    ti = [e for e in g.events if e.seat == 1 and e.kind == "ti"]
    assert [(e.card, e.note) for e in ti] == [
        (c("d5"), "dealt, held in hand"), (c("x7"), "forced, 八块, lays down its dealt 提")]
    seen = observe(g.state, 0)
    assert seen.melds[1] == (SeenMeld(MeldKind.TI, (), 4),) * 2
    assert seen.hidden_cards[1] == sum(seat.hand) == 13
    assert [(e.kind, e.card, e.note) for e in g.events_for(0) if e.seat == 1 and e.kind == "ti"
            ] == [("ti", None, "forced, 八块, lays down its dealt 提")]
    # 重舵: no discard; the next seat draws
    assert g.state.actor == 2 and g.state.pending.by == 2


def test_two_dealt_quads_are_laid_down_at_the_deal():
    """Two dealt 4同牌 go on the table face down ("自已摸到2扫穿放在桌面不亮")."""
    g = Game(load_preset("guilin"), deal=make_deal(hands={1: "d5 d5 d5 d5 x7 x7 x7 x7"}))
    assert g.state.seats[1].held_ti is None
    assert observe(g.state, 0).melds[1] == (SeenMeld(MeldKind.TI, (), 4),) * 2


# --- 5. Guilin: a 吃 of one's own draw is not shown ----------------------------------------------

def _own_chi(hand: str, lacks: str = ""):
    """Seat 1 holds ``hand`` and none of ``lacks``; the dealer discards d1 (nobody takes it) and
    seat 1 draws x5 and 吃s it with the first 吃 option offered."""
    deal = make_deal(hands={0: "d1", 1: hand}, wall="x5", liang="x1",
                     avoid={0: "x3 x4 x5 x6 x7", 1: lacks, 2: "x3 x4 x5 x6 x7"})
    g = Game(load_preset("guilin"), deal=deal)
    g.apply(Action(A.DISCARD, 0, c("d1")))
    while g.state.pending.card == c("d1"):
        g.apply(Action(A.PASS, g.state.actor))
    st = g.state
    assert (st.actor, st.pending.card, st.pending.by) == (1, c("x5"), 1)
    g.apply(next(a for a in st.options if a.kind == A.CHI))
    return g


def test_a_chi_of_ones_own_draw_lies_face_down():
    """Seat 1 吃s its own draw x5 with x4 x6 (x3 x4 x5, 比 x5 x6 x7 offered first: it holds x3 x4
    x6 x7): the others see two face-down groups of 3 (no kind), and the 吃 event with the drawn
    card (which they saw) but without its melds; seat 1 sees both melds."""
    g = _own_chi("x3 x4 x6 x7 x9")
    melds = g.state.seats[1].melds
    assert [m.cards for m in melds] == [tuple(C("x3 x4 x5")), tuple(C("x5 x6 x7"))]
    assert g.state.seats[1].own_chi == (0, 1)
    for other in (0, 2):
        assert observe(g.state, other).melds[1] == (SeenMeld(None, (), 3),) * 2
        chi = [e for e in g.events_for(other) if e.kind == "chi"]
        assert [(e.seat, e.card, e.melds) for e in chi] == [(1, c("x5"), ())]
    assert [m.cards for m in observe(g.state, 1).melds[1]] == [m.cards for m in melds]


def test_the_others_cannot_tell_which_chi_was_made():
    """Seat 1 holding x4 x6 吃s x4 x5 x6; holding x3 x4 instead, x3 x4 x5. Seat 0 sees the same
    melds (one face-down group of 3) and the same events of seat 1 either way."""
    a = _own_chi("x4 x6 x9", lacks="x2 x3 x5 x7 x8 d5")
    b = _own_chi("x3 x4 x9", lacks="x2 x5 x6 x7 x8 d5")
    assert [m.cards for m in a.state.seats[1].melds] == [tuple(C("x4 x5 x6"))]
    assert [m.cards for m in b.state.seats[1].melds] == [tuple(C("x3 x4 x5"))]
    assert observe(a.state, 0).melds[1] == observe(b.state, 0).melds[1] == (
        SeenMeld(None, (), 3),)
    seen_a = [e for e in a.events_for(0) if e.seat == 1 and e.kind != "deal"]
    seen_b = [e for e in b.events_for(0) if e.seat == 1 and e.kind != "deal"]
    assert seen_a == seen_b
    assert [(e.kind, e.card) for e in seen_a] == [("draw", c("x5")), ("chi", c("x5"))]


@pytest.mark.parametrize("preset", ["hunan", "guilin"])
def test_a_chi_of_a_discard_is_shown(preset):
    """"吃上家牌需亮顺": seat 1 吃s the dealer's discard x5: shown in full everywhere."""
    v = load_preset(preset)
    deal = make_deal(hands={0: "x5", 1: "x4 x6 x9"}, liang="x1",
                     avoid={0: "x3 x4 x6 x7", 1: "x2 x3 x5 x7 x8 d5",
                            2: "x3 x4 x5 x6 x7"})
    g = Game(v, deal=deal)
    g.apply(Action(A.DISCARD, 0, c("x5")))
    while g.state.actor != 1:
        g.apply(Action(A.PASS, g.state.actor))
    g.apply(next(a for a in g.state.options if a.kind == A.CHI))
    assert g.state.seats[1].own_chi == ()
    seen = observe(g.state, 0).melds[1]
    assert seen == (SeenMeld(MeldKind.SHUN, tuple(C("x4 x5 x6")), 0),)
    assert [e.melds for e in g.events_for(0) if e.kind == EventKind.CHI] == [
        g.state.seats[1].melds]
