"""举手胡 (``win.jushou``), a declined win that must be beaten (``win.declined_must_be_beaten``)
and the 无胡 label, on explicit deals. Values worked from docs/regional-sources.md §2.2–2.3
(耒阳提龙: ``duanly/hzy`` ``docs/RULES.md`` 耒阳：可以放弃胡, 举手胡).

Seat 1 (the dealer's 下家) holds the L4 hand: 坎 d1 (6), 坎 d3 (6), 坎 x9 (3), x4 x5 x6, d4 d5 d6,
x3 x4 x5 and x6 x7, waiting on x8: 15 胡息, one red card (x7).
"""

from __future__ import annotations

import pytest

from helpers import act, c, find, make_deal
from zipai_rules.analysis import analyze
from zipai_rules.engine import Action, ActionKind, Game
from zipai_rules.engine.claims import win_labels, win_result
from zipai_rules.engine.state import SeatState, WinContext
from zipai_rules.loader import build_variant
from zipai_rules.presets import raw_preset
from zipai_rules.settlement import settle
from zipai_rules.vocab import Label, Source

L4 = "d1 d1 d1 d3 d3 d3 x9 x9 x9 x4 x5 x6 d4 d5 d6 x3 x4 x5 x6 x7"


def child(zimo_units: int = 1, jushou: bool = True, beaten: bool = True):
    """Hunan with discard wins, no 臭胡 nor 吃 臭, threshold 10, 1 unit per 3 胡息 from 12,
    举手胡 ×2 on the 胡息, 自摸 × ``zimo_units`` on the units."""
    patterns = ([{"name": "jushou", "when": [{"label": "jushou"}], "multiply_huxi": 2}]
                if jushou else [])
    if zimo_units != 1:
        patterns.append({"name": "zimo", "when": [{"label": "zimo"}],
                         "multiply_units": zimo_units})
    doc = {"extends": "hunan",
           "win": {"sources": ["self", "draw", "discard"], "chou_hu": False, "min_huxi": 10,
                   "jushou": jushou, "declined_must_be_beaten": beaten},
           "chou": {"chi": False},
           "scoring": {"mingtang": {"patterns": patterns}}}
    return build_variant(doc, raw_preset, "child")


def deal_l4():
    """The dealer (seat 0) holds an x8 to discard; the wall's first card is another x8."""
    return make_deal(hands={0: "x8", 1: L4}, wall="x8", avoid={0: "x7 x6", 2: "x6 x7 x8 x9 x10 d8"})


def declined_game(variant):
    """The dealer discards x8; seat 1 is offered the 胡 and passes everything; seat 1 then
    draws the other x8."""
    g = Game(variant, deal=deal_l4())
    act(g, "discard", "x8")
    assert g.state.actor == 1 and find(g, "hu", "x8")
    while g.state.phase == "respond" and g.state.pending.by == 0:
        act(g, "pass")
    return g


def test_jushou_on_a_discard_before_any_take():
    g = Game(child(), deal=deal_l4())
    act(g, "discard", "x8")
    act(g, "hu", "x8")
    r = g.state.result
    assert r.winner == 1 and r.huxi == 15 and r.discarder == 0
    assert set(r.labels) == {Label.JUSHOU}
    # 15 胡息 ×2 (举手胡) = 30 → (30 − 12) // 3 = 6 units; the discarder pays for both losers
    assert settle(g).payments == (-12, 12, 0)


def test_jushou_off_gives_no_label():
    g = Game(child(jushou=False), deal=deal_l4())
    act(g, "discard", "x8")
    act(g, "hu", "x8")
    assert g.state.result.labels == ()


@pytest.mark.parametrize("first_take, fresh, expected", [
    (None, False, True),   # no take at all
    (7, True, True),       # the take that itself wins (偎起胡 / 提龙胡 as the first take)
    (7, False, False),     # a take before a win on a card
    (5, True, False),      # a take in an earlier turn
])
def test_jushou_counts_the_winning_take_only(first_take, fresh, expected):
    v = child()
    seat = SeatState(tuple([0] * 21), first_take=first_take)
    ctx = WinContext(dealer=0, wall=10, flipped=c("x1"), turn=7)
    labels = win_labels(v, ctx, 1, seat, Source.SELF, 1, fresh)
    assert (Label.JUSHOU in labels) is expected
    assert Label.ZIMO in labels
    assert Label.JUSHOU not in win_labels(v, ctx, 0, SeatState(tuple([0] * 21)), Source.SELF, 0)


def test_declined_win_is_recorded_in_units():
    g = declined_game(child())
    # the declined win: 15 ×2 (举手胡) = 30 → 6 units
    assert g.state.seats[1].declined_units == 6


def test_a_later_win_worth_no_more_is_not_offered():
    g = declined_game(child())
    # seat 1 draws x8: 自摸, 举手胡 still (no take): 30 → 6 units, not more than 6; it is
    # asked only about its 吃
    assert g.state.pending is not None and g.state.pending.card == c("x8")
    assert g.state.pending.by == 1 and g.state.actor == 1
    assert [a.kind for a in g.legal_actions()] == [ActionKind.CHI, ActionKind.PASS]
    refusal = g.check(Action(ActionKind.HU, 1, c("x8")))
    assert refusal is not None and refusal.code == "not_beaten"
    assert "worth 6 units; this one is worth 6" in refusal.message


def test_a_later_win_worth_more_is_offered():
    g = declined_game(child(zimo_units=2))
    # declined: 6 units (a discard, no 自摸); the 自摸 is worth 6 × 2 = 12 > 6
    assert g.state.seats[1].declined_units == 6
    act(g, "hu", "x8")
    r = g.state.result
    assert r.winner == 1 and set(r.labels) == {Label.ZIMO, Label.JUSHOU}
    assert settle(g).payments == (-12, 24, -12)


def test_without_the_rule_the_same_win_is_offered_again():
    g = declined_game(child(beaten=False))
    assert g.state.seats[1].declined_units is None
    assert find(g, "hu", "x8")


def test_wu_hu_label_on_the_result():
    v = build_variant({"extends": "hunan", "win": {"special": ["wu_hu"], "min_huxi": 10,
                                                   "sources": ["self", "draw", "discard"]}},
                      raw_preset, "child")
    # L5: 吃 d4 d5 d6 on the table; every hand group a zero-value run, no pair → 21 胡息
    hand = "x3 x4 x5 x4 x5 x6 x6 x7 x8 d3 d4 d5 x9 x9 d9 d6 d7"
    a = analyze(v, hand, ["chi=d4 d5 d6"], card="d8", source="discard")
    assert a.win and a.huxi == 21 and a.best.special == "wu_hu"
    ctx = WinContext(dealer=0, wall=5, flipped=c("x1"), turn=9)
    r = win_result(v, a, 1, c("d8"), Source.DISCARD, (), ctx, discarder=0)
    assert r.labels == (Label.WU_HU,) and r.huxi == 21 and r.discarder == 0
