"""Guilin rules read again from the seed 004_4a6d8adec4e0ba73.txt (the competition rules), on
explicit deals (``tests/helpers.py``; seat 0 deals, seat s+1 is the 下家 of seat s).

* 第四条7 "2）扫的开舵：‘扫’后别家摸起1相同牌，\\扫\\的牌必须得\\开舵\\" (000 §桂林纸牌规则 "无论谁
  摸出第4张牌"): a 扫 becomes 开舵 by another player's *draw* only, while a 坎 takes a fourth
  "摸出或打出" (3）). A discarded fourth onto a 扫 is an ordinary discard: offered for 胡, then
  to the 下家's 吃 ("下家可吃可碰"), else it goes to the discard area.
"""

from __future__ import annotations

import json

import pytest

from helpers import C, c, drive_to, make_deal
from zipai_rules import analyze, find_variant
from zipai_rules.cli import main
from zipai_rules.engine import Action, ActionKind, EventKind, Game
from zipai_rules.errors import HandError
from zipai_rules.loader import build_variant
from zipai_rules.melds import MeldKind
from zipai_rules.presets import raw_preset

A = ActionKind
E = EventKind


def knob(override, base="guilin"):
    raw = {"extends": base, "id": "x", "name": "x", "terminology": {}, "citations": {},
           **override}
    return build_variant(raw, raw_preset, "test")


def events(game, kind, seat=None):
    return [e for e in game.events if e.kind == kind and (seat is None or e.seat == seat)]


# --- 扫 and a discarded fourth ----------------------------------------------------------------

def _sao_then_fourth(variant, fourth_from: str, seat0_holds: str = ""):
    """Seat 1 holds x7 x7 and draws the third x7 (a forced 扫) after the dealer's first discard
    d1; seat 2 holds the fourth x7. ``discard``: seat 2 draws x3 onto its pair x3 x3 (a 扫 of its
    own), and discards the x7; ``draw``: seat 2 holds no x7, it draws the fourth from the wall."""
    sao = fourth_from == "discard"
    hands = {0: "d1 " + seat0_holds, 1: "x7 x7", 2: "x3 x3 x7" if sao else "x3 x3"}
    wall = "x7 x3" if sao else "x7 x7"
    no_chi = "x5 x6 x8 x9 d7"
    deal = make_deal(hands=hands, wall=wall, liang="d2", wall_tail="x3",
                     avoid={0: "x7 x3 " + ("" if seat0_holds else no_chi), 1: "x3", 2: "x7"})
    g = Game(variant, deal=deal)
    g.apply(Action(A.DISCARD, 0, c("d1")))
    drive_to(g, lambda g: any(e.card == c("x7") and e.seat == 2 for e in g.events
                           if e.kind in (E.DISCARD, E.DRAW)),
          discard={2: "x7"})
    return g


def test_a_discarded_fourth_does_not_make_the_sao_kaiduo():
    """Seat 1's 扫 x7 (3 of 4 x7) stays a 扫 when seat 2 discards the fourth x7: no 开舵 is
    offered or forced, nobody can 碰 it, the 下家 (seat 0) holds nothing to 吃 it with, so it
    goes to seat 2's discard area and seat 0 draws."""
    g = _sao_then_fourth(find_variant("guilin"), "discard")
    assert [(e.seat, e.card) for e in events(g, E.WEI)] == [(1, c("x7")), (2, c("x3"))]
    assert g.state.pending is not None and g.state.pending.card == c("x7")
    assert g.state.pending.source == "discard" and g.state.pending.by == 2
    drive_to(g, lambda g: g.state.pending is None or g.state.pending.card != c("x7"))
    assert not events(g, E.PAO)
    assert g.state.seats[1].melds[0].kind == MeldKind.WEI
    assert g.state.seats[1].melds[0].cards == tuple(C("x7 x7 x7"))
    assert g.state.seats[2].discards[-1] == c("x7")
    assert [e.seat for e in g.events if e.kind in (E.DRAW, E.DRAW_HIDDEN)][-1] == 0


def test_the_old_reading_made_it_a_forced_kaiduo():
    """The same deal with ``pao_on_wei: [draw, discard]`` (the Hunan rule the preset had):
    seat 1's 扫 takes the discarded x7 as a forced 开舵."""
    g = _sao_then_fourth(knob({"claims": {"pao_on_wei": ["draw", "discard"]}}), "discard")
    drive_to(g, lambda g: bool(events(g, E.PAO)))
    assert [(e.seat, e.card, e.note) for e in events(g, E.PAO)] == [(1, c("x7"), "forced")]


def test_the_xiajia_may_chi_the_discarded_fourth():
    """What the discarded fourth is instead: an ordinary discard. Seat 0 (seat 2's 下家) holding
    x8 x9 is offered 吃 x7 x8 x9 of it; no seat is offered a 开舵."""
    g = _sao_then_fourth(find_variant("guilin"), "discard", seat0_holds="x8 x9")
    drive_to(g, lambda g: g.state.actor == 0 or g.state.pending is None)
    st = g.state
    assert st.pending.card == c("x7") and st.actor == 0
    kinds = {a.kind for a in st.options}
    assert A.CHI in kinds and A.PAO not in kinds
    assert not events(g, E.PAO)


def test_a_drawn_fourth_makes_the_sao_kaiduo():
    """Seat 2 draws the fourth x7 from the wall: seat 1's 扫 must 开舵 ("‘扫’后别家摸起1相同牌，
    \\扫\\的牌必须得\\开舵\\"), four x7 on the table, worth 6 胡 (a small 开舵)."""
    v = find_variant("guilin")
    g = _sao_then_fourth(v, "draw")
    drive_to(g, lambda g: bool(events(g, E.PAO)))
    assert [(e.seat, e.card, e.note) for e in events(g, E.PAO)] == [(1, c("x7"), "forced")]
    pao = g.state.seats[1].melds[0]
    assert (pao.kind, pao.cards) == (MeldKind.PAO, tuple(C("x7 x7 x7 x7")))
    assert v.meld_huxi(pao) == 6  # 第七条四) "开舵（四）： 大字9胡；小字6胡"


# --- analyze takes a single dealt 4同牌 kept in the hand -----------------------------------------

#: seat 1's 20 cards: d5 ×4 kept in the hand (``deal.single_dealt_ti: hand``), 坎 d8, and runs
HELD_QUAD = "d5 d5 d5 d5 x1 x2 x3 d2 d7 d10 x4 x5 x6 x7 x8 x9 d8 d8 d8 d1"
#: 第七条四) "起手摸到手上的四：大字12胡" (d5 ×4), "壹 贰 叁 … 一 二 三： 3胡", "贰 柒 拾： 6胡",
#: "起手摸到手上的三：大字6胡" (坎 d8); x4 x5 x6, x7 x8 x9 and the 2同牌 d1 d1 count nothing
HELD_QUAD_HUXI = 12 + 3 + 6 + 6


def test_analyze_takes_the_held_quad_as_the_engine_plays_it():
    """The engine deals seat 1 the hand above: the d5 stay in the hand as a 提 and the dealer's
    discard d1 wins for seat 1 (放炮必胡) with 27 胡; ``analyze`` judges the same cards the same
    (Hunan refuses them: there a dealt four is laid down before the first discard)."""
    v = find_variant("guilin")
    hand = C(HELD_QUAD)
    deal = make_deal(hands={0: "d1", 1: hand}, liang="d3", avoid={0: "d1", 2: "d1"})
    g = Game(v, deal=deal)
    assert g.state.seats[1].held_ti == c("d5")
    g.apply(Action(A.DISCARD, 0, c("d1")))
    (hu,) = g.legal_actions()  # its only option: 放炮必胡
    assert (hu.kind, hu.seat, hu.card) == (A.HU, 1, c("d1"))
    g.apply(hu)
    assert g.is_over and (g.result.winner, g.result.source) == (1, "discard")
    assert g.result.huxi == HELD_QUAD_HUXI == 27
    a = analyze(v, hand, card="d1", source="discard")
    assert (a.win, a.huxi) == (True, 27)
    assert {(gr.meld.kind, gr.huxi) for gr in a.best.groups} >= {
        (MeldKind.TI, 12), (MeldKind.KAN, 6), (MeldKind.ER_QI_SHI, 6)}
    with pytest.raises(HandError) as info:
        analyze(find_variant("hunan"), hand, card="d1", source="discard")
    assert info.value.code == "concealed_quad"


def test_analyze_refuses_what_the_engine_never_holds():
    """A four kept in the hand is the only quad: two fours in the hand are laid down at the
    deal, and a four beside a 提/跑 on the table went down with it."""
    v = find_variant("guilin")
    for hand, table in (("d5 d5 d5 d5 x7 x7 x7 x7 x1 x2 x3 d2 d7 d10 x4 x5 x6 d8 d8 d8", ()),
                        ("d5 d5 d5 d5 x1 x2 x3 d2 d7 d10 x4 x5 x6 d1", ("pao=x7 x7 x7 x7",))):
        with pytest.raises(HandError) as info:
            analyze(v, hand, table)
        assert info.value.code == "concealed_quad"


def test_the_cli_analyzes_the_held_quad(capsys):
    """``zipai analyze --variant guilin`` with the four d5 in ``--hand``: the win on d1 with 27
    胡, and as it stands the waits: d1 from every source (27; 自摸 makes no 扫 of a single)."""
    hand = HELD_QUAD
    assert main(["analyze", "--variant", "guilin", "--hand", hand, "--card", "d1",
                 "--from", "discard", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["win"], out["huxi"]) == (True, 27)
    assert {"kind": "ti", "cards": ["d5"] * 4, "huxi": 12, "place": "table"} in out["groups"]
    assert main(["analyze", "--variant", "guilin", "--hand", hand, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(w["card"], w["source"], w["huxi"]) for w in out["waits"] if w["card"] == "d1"] == [
        ("d1", "self", 27), ("d1", "draw", 27), ("d1", "discard", 27)]
    assert main(["analyze", "--variant", "hunan", "--hand", hand]) == 2
    assert "must be laid down as 提" in capsys.readouterr().err


# --- two dealt 4同牌: "照常打牌，在听牌的时候不打" -------------------------------------------

#: the dealer's 提 x1 and 提 d5 (9 + 12 胡 on the table: the threshold of 10 is met)
TWO_QUADS = "x1 x1 x1 x1 d5 d5 d5 d5 "


def _two_quads_dealer(variant, concealed: str, liang: str, wall: str = ""):
    deal = make_deal(hands={0: TWO_QUADS + concealed}, wall=wall, liang=liang,
                     wall_tail="d8 x9", avoid={1: "d8 x9 x10", 2: "d8 x9 x10"})
    return Game(variant, deal=deal)


def _take_peng(g):
    """PASS until the dealer is offered 碰, and take it."""
    for _ in range(10):
        st = g.state
        peng = next((a for a in st.options if a.kind == A.PENG and a.seat == 0), None)
        if peng is not None:
            return g.apply(peng)
        g.apply(Action(A.PASS, st.actor))
    raise AssertionError("no 碰 offered")


def test_two_dealt_quads_discard_as_usual_until_ready():
    """The dealer holds 提 x1, 提 d5 and x2 x3 x4 x6 x7 x8 x9 x9 x10 d2 d8 d8 d4 (21 cards; two
    4同牌 win only with 22). Not 听 at the deal: it discards d4 as usual. It 碰s seat 1's drawn
    d8 (21 cards: x2 x3 x4 x6 x7 x8 x9 x9 x10 d2 and one card cannot make melds and a 2同牌 of
    them), still not 听: it discards d2 as usual (``skip_second`` would skip this one). It 碰s
    seat 1's next draw x9: x2 x3 x4 x6 x7 x8 x10 waits for x10 (2同牌), so it is 听 and does not
    discard; seat 1 draws next. From then on it holds 21 cards, the resting size of two quads."""
    v = find_variant("guilin")
    g = _two_quads_dealer(v, "x2 x3 x4 x6 x7 x8 x9 x9 x10 d2 d8 d8", "d4", wall="d8 x9")
    assert (g.state.phase, g.state.actor) == ("discard", 0)
    g.apply(Action(A.DISCARD, 0, c("d4")))
    _take_peng(g)
    assert (g.state.phase, g.state.actor) == ("discard", 0) and g.state.seats[0].held == 21
    g.apply(Action(A.DISCARD, 0, c("d2")))
    _take_peng(g)
    dealer = g.state.seats[0]
    assert [m.kind for m in dealer.melds] == [MeldKind.TI, MeldKind.TI, MeldKind.PENG,
                                                MeldKind.PENG]
    assert dealer.hand == tuple(1 if i in C("x2 x3 x4 x6 x7 x8 x10") else 0 for i in range(21))
    assert dealer.held == 21 and not dealer.early_discard
    assert not (g.state.phase == "discard" and g.state.actor == 0)
    assert [e.seat for e in g.events if e.kind in (E.DRAW, E.DRAW_HIDDEN)][-1] == 1
    assert [e.card for e in g.events if e.kind == E.DISCARD and e.seat == 0] == C("d4 d2")
    # 听: the 2同牌 x10 wins (9 + 12 + 碰 d8 3 + 碰 x9 1 = 25 胡)
    assert analyze(v, "x2 x3 x4 x6 x7 x8 x10", ("ti=x1 x1 x1 x1", "ti=d5 d5 d5 d5",
                   "peng=d8 d8 d8", "peng=x9 x9 x9"), "x10", "discard").huxi == 25


def test_skip_second_skips_at_the_next_take_instead():
    """The same deal under ``skip_second`` (the preset's value before): after the first 碰 the
    dealer, not 听, does not discard."""
    g = _two_quads_dealer(knob({"discard": {"dealt_double_quad": "skip_second"}}),
                          "x2 x3 x4 x6 x7 x8 x9 x9 x10 d2 d8 d8", "d4", wall="d8 x9")
    g.apply(Action(A.DISCARD, 0, c("d4")))
    _take_peng(g)
    assert not (g.state.phase == "discard" and g.state.actor == 0)
    assert g.state.seats[0].held == 21


def test_two_dealt_quads_ready_at_the_deal_skip_the_first_discard():
    """The dealer is dealt 提 x1, 提 d5, x2 x3 x4, x6 x7 x8, d2 d7 d10, 坎 d8 and x10: 听 (x10
    makes the 2同牌) with its 21 cards, so it does not discard; seat 1 draws first."""
    g = _two_quads_dealer(find_variant("guilin"), "x2 x3 x4 x6 x7 x8 d2 d7 d10 d8 d8 d8", "x10")
    assert g.state.phase != "discard" and g.state.seats[0].held == 21
    assert not g.state.seats[0].early_discard
    assert not [e for e in g.events if e.kind == E.DISCARD]
    assert [e.seat for e in g.events if e.kind in (E.DRAW, E.DRAW_HIDDEN)] == [1]
