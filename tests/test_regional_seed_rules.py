"""Rules of 娄底放炮罚 read again from the seed
000_cdb63c032605c9a1.txt, each with a worked value (explicit deals: ``tests/helpers.py``; seat 0
deals, seat s+1 is the 下家 of seat s).

* 娄底 §跑胡子、放炮罚游戏规则 "当自己手中有三张同牌，别人再次打出此张牌时，可跑牌": a concealed 坎
  becomes 跑 by another player's discard, not by a draw (the 碰 and 偎 sources follow in the
  same item, each named).

The seat sitting out of 湖南四人跑胡子: tests/test_hunan_four.py.
"""

from __future__ import annotations

from helpers import c, make_deal
from zipai_rules import find_variant
from zipai_rules.engine import Action, ActionKind, EventKind, Game

A = ActionKind
E = EventKind


# --- 娄底: a 坎 becomes 跑 by a discard only ------------------------------------------------------

def _kan_and_fourth(variant, drawn: bool):
    """Seat 1 holds 坎 x5. ``drawn``: the dealer discards d1, seat 1 draws d9, seat 2 draws the
    fourth x5; else the dealer discards the fourth x5 (its 亮张)."""
    if drawn:
        deal = make_deal(hands={0: "d1", 1: "x5 x5 x5"}, wall="d9 x5", liang="x1",
                         avoid={0: "x5 d9", 1: "d1 d9", 2: "x5 d9"})
    else:
        deal = make_deal(hands={1: "x5 x5 x5"}, liang="x5")
    g = Game(variant, deal=deal)
    g.apply(Action(A.DISCARD, 0, c("d1" if drawn else "x5")))
    return g


def test_loudi_a_drawn_fourth_does_not_pao_the_kan():
    """Seat 2 draws the fourth x5: seat 1 (坎 x5) is offered no 跑 and keeps its 坎; the x5, taken
    by nobody, goes to seat 2's discard area. Under Hunan the same draw is a forced 跑."""
    g = _kan_and_fourth(find_variant("loudi_fangpaofa"), drawn=True)
    offered = []
    while not any(e.kind == E.DRAW and e.seat == 0 for e in g.events):
        st = g.state
        offered += [a for a in st.options if a.kind == A.PAO]
        g.apply(Action(A.PASS, st.actor) if st.phase != "discard" else st.options[0])
    assert [(e.seat, e.card) for e in g.events if e.kind == E.DRAW][:2] == [
        (1, c("d9")), (2, c("x5"))]
    assert not offered and not [e for e in g.events if e.kind == E.PAO]
    assert g.state.seats[1].hand[c("x5")] == 3
    assert c("x5") in g.state.seats[2].discards
    hunan = _kan_and_fourth(find_variant("hunan"), drawn=True)
    while not any(e.kind in (E.PAO, E.DRAW) and e.card == c("x5") for e in hunan.events):
        st = hunan.state
        hunan.apply(Action(A.PASS, st.actor) if st.phase != "discard" else st.options[0])
    assert [(e.seat, e.card, e.note) for e in hunan.events if e.kind == E.PAO] == [
        (1, c("x5"), "forced")]


def test_loudi_a_discarded_fourth_may_pao_the_kan():
    """The dealer discards the fourth x5: seat 1 may 跑 it ("可跑牌"): 跑 or pass."""
    g = _kan_and_fourth(find_variant("loudi_fangpaofa"), drawn=False)
    assert g.state.actor == 1 and {a.kind for a in g.state.options} == {A.PAO, A.PASS}
