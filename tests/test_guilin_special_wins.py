"""Guilin's special wins: 004_4a6d8adec4e0ba73.txt 第七条三) "天胡、地胡、三笼五坎四种特殊胡牌+1舵".

天胡, 三笼 and 五坎 are each their own +1 舵 (``scoring.mingtang`` of variants/guilin.yaml), no
longer one 天胡 bonus. What 三笼 and 五坎 are is digest G19: three 提 (笼) and five 坎 after the
deal, a 提 counting as a 坎 ("提牌可以当坎牌算", 003). A win at the deal carries the label
``tianhu``; the dealt 提 and 坎 tell which it is. 胡 → 舵: "10－14胡为1舵，15-19胡为2舵" (第七条二).
"""

import pytest

from helpers import make_deal
from zipai_rules import find_variant, tianhu
from zipai_rules.analysis import Decomposition
from zipai_rules.cards import parse_indices
from zipai_rules.engine import Game, Result
from zipai_rules.melds import parse_meld
from zipai_rules.settlement import settle


@pytest.fixture(scope="module")
def guilin():
    return find_variant("guilin")


def _at_deal(v, hand, *table):
    a = tianhu(v, parse_indices(hand), [parse_meld(t) for t in table])
    assert a is not None
    return Result("tianhu", 0, None, None, a.huxi, a.best, ("tianhu",))


def _bonuses(s):
    return [(line.term, line.value) for line in s.lines if line.item == "bonus"]


def test_sanlong_three_ti(guilin):
    """扫穿 x1 9 + 扫穿 d5 12 + 扫穿 x10 9 = 30 胡 → 5 舵, 三笼 +1 = 6; not 五坎 (3 门), not
    天胡."""
    s = settle(guilin, _at_deal(guilin, "x2 x4 x6 x8 d2 d4 d7 d9",
                                "ti=x1 x1 x1 x1", "ti=d5 d5 d5 d5", "ti=x10 x10 x10 x10"))
    assert (s.huxi, s.units) == (30, 6)
    assert _bonuses(s) == [("三笼", 1)]
    assert list(s.payments) == [12, -6, -6]


def test_wukan_two_ti_and_three_kan(guilin):
    """2 扫穿 + 3 坎 = 5 门: 9 + 12 + 3 + 6 + 6 = 36 胡 → 6 舵, 五坎 +1 = 7; 2 提 is no 三笼."""
    s = settle(guilin, _at_deal(guilin, "x9 x9 x9 d1 d1 d1 d10 d10 d10 x5 d4 x7",
                                "ti=x3 x3 x3 x3", "ti=d7 d7 d7 d7"))
    assert (s.huxi, s.units) == (36, 7)
    assert _bonuses(s) == [("五坎", 1)]


def test_three_ti_and_two_kan_are_both(guilin):
    """3 扫穿 + 2 坎: 三笼 and, the 提 counting as 坎, 五坎 too: 30 + 3 (x9) + 6 (d1) = 39 胡 →
    6 舵, +1 +1 = 8."""
    s = settle(guilin, _at_deal(guilin, "x9 x9 x9 d1 d1 d1 x2 x4 d7",
                                "ti=x1 x1 x1 x1", "ti=d5 d5 d5 d5", "ti=x10 x10 x10 x10"))
    assert (s.huxi, s.units) == (39, 8)
    assert _bonuses(s) == [("三笼", 1), ("五坎", 1)]


def test_plain_tianhu_is_its_own_bonus(guilin):
    """The dealer's 21 cards win (天胡, G19) with fewer than 3 提 and 5 坎: 15 胡 → 2 舵,
    天胡 +1."""
    s = settle(guilin, Result("tianhu", 0, None, None, 15, Decomposition((), 15), ("tianhu",)))
    assert s.units == 3 and _bonuses(s) == [("天胡", 1)]


def test_a_dealt_sanlong_in_play(guilin):
    """Seat 1 is dealt four x1, four d5 and four x10: the three 扫穿 go down at the deal and the
    hand ends at once (003 "必须天胡"), 30 胡 → 5 舵 + 三笼 1. The flipped d7 (醒 d6, d8) is
    not held: no 醒. Each loser pays 6."""
    deal = make_deal({1: "x1 x1 x1 x1 d5 d5 d5 d5 x10 x10 x10 x10 x2 x4 x6 x8 d2 d4 d7 d9"},
                     wall="d7")
    game = Game(guilin, deal=deal)
    r = game.result
    assert (r.kind, r.winner, r.huxi, r.labels) == ("tianhu", 1, 30, ("tianhu",))
    s = settle(guilin, r, events=game.events)
    assert s.units == 6 and _bonuses(s) == [("三笼", 1)]
    assert list(s.payments) == [-6, 12, -6]
