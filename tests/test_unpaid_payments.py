"""Payments that are not zero-sum, as 湘乡 books them (billee1011/repository
XiangXiangHHTable.process_chi_hu_player_score_phz, PHZHandlerDispatchCard_XiangXiang.exe):
``scoring.payment.draw`` and ``credit`` for a win nobody pays, ``payment.discard_bonus`` (the
winner gains more than the discarder pays; ``at_cap: others_pay``) and
``scoring.huangzhuang.dealer_pays``. Every value is worked by hand on Hunan test variants:
units = (胡息 − 12) // 3, at least 1; three players; the discarder pays for both losers. The
湘乡 preset's own values (42 / −32 on a 红胡 discard, 110 / −100 / −10 at the cap, 110 on a
全黑 自摸) are in tests/test_hhtable_presets.py."""

import pytest

from test_scoring_shapes import DISCARD, SHUANG, variant, win
from zipai_rules.engine import Result
from zipai_rules.errors import VariantError, ZipaiError
from zipai_rules.invariants import payments_balance
from zipai_rules.loader import build_variant
from zipai_rules.match import datuo_payments
from zipai_rules.presets import raw_preset
from zipai_rules.settlement import settle
from zipai_rules.variant import Datuo

# SHUANG (test_scoring_shapes): 30 胡息 → (30 − 12) // 3 = 6 units from each loser


def paid(s):
    return list(s.payments), s.credited, s.zero_sum


def test_a_win_on_another_seats_draw_can_charge_nobody():
    each = variant(payment={"draw": "winner_only"})
    assert paid(settle(each, win(SHUANG, "draw"))) == ([12, 0, 0], 12, False)  # 6 × 2 losers
    once = variant(payment={"draw": "winner_only", "credit": "once"})
    s = settle(once, win(SHUANG, "draw"))
    assert paid(s) == ([6, 0, 0], 6, False)  # the units once
    assert "seat 0 is credited 6 (once) and nobody is charged" in " ".join(x.text for x in s.lines)
    assert payments_balance(s) is None
    # a 自摸 still pays as before: zimo is its own choice
    assert paid(settle(once, win(SHUANG, "self", ["zimo"]))) == ([12, -6, -6], 0, True)
    zimo_once = variant(payment={"zimo": "winner_only", "credit": "once"})
    assert paid(settle(zimo_once, win(SHUANG, "self", ["zimo"]))) == ([6, 0, 0], 6, False)


def test_a_discard_bonus_is_credited_without_a_payer():
    v = variant(win=DISCARD, payment={"discard_bonus": {"units": 5}})
    s = settle(v, win(SHUANG, "discard", discarder=1))
    # the discarder pays for both losers, 12; the winner gains 12 + 5
    assert paid(s) == ([17, -12, 0], 5, False)
    assert [(x.text, x.value) for x in s.lines if "more than is paid" in x.text] == [
        ("seat 0 gains 5 more than is paid, from nobody: not zero-sum", 5)]
    each = variant(win=DISCARD, payment={"discard_win": "each_loser",
                                         "discard_bonus": {"units": 5}})
    assert paid(settle(each, win(SHUANG, "discard", discarder=1))) == ([17, -6, -6], 5, False)
    # no bonus on a win on a draw
    assert paid(settle(v, win(SHUANG, "draw"))) == ([12, -6, -6], 0, True)


@pytest.mark.parametrize("most, want", [
    (10, ([15, -10, -5], 0, True)),   # 12 capped at 10: seat 2 pays the 5, the winner gains 15
    (12, ([17, -12, -5], 0, True)),   # the discarder pays exactly the cap: at the cap too
    (20, ([17, -12, 0], 5, False)),   # below the cap: credited
])
def test_at_the_cap_the_others_pay_the_bonus(most, want):
    v = variant(win=DISCARD, payment={"discarder_max": most, "discard_bonus": {
        "units": 5, "at_cap": "others_pay"}})
    s = settle(v, win(SHUANG, "discard", discarder=1))
    assert paid(s) == want
    assert payments_balance(s) is None


def test_a_huangzhuang_can_charge_the_dealer():
    v = variant(huangzhuang={"dealer_pays": 7})
    s = settle(v, Result("huangzhuang", dealer=2))
    assert paid(s) == ([0, 0, -7], -7, False)
    assert s.to_json()["credited"] == -7 and s.to_json()["zero_sum"] is False
    assert [x.text for x in s.lines][-1] == "seat 2 (the dealer) pays 7 to nobody: not zero-sum"
    assert payments_balance(s) is None
    with pytest.raises(ZipaiError) as err:  # a result built without its dealer
        settle(v, Result("huangzhuang"))
    assert err.value.code == "bad_argument"
    with pytest.raises(ZipaiError) as err:
        settle(v, Result("huangzhuang", dealer=5))
    assert err.value.code == "bad_argument" and "dealer 5" in str(err.value)
    # without the option a 荒庄 pays nothing, dealer or not
    assert paid(settle(variant(), Result("huangzhuang", dealer=2))) == ([0, 0, 0], 0, True)


def test_datuo_doubles_a_charge_nobody_receives_by_the_seats_own_factor():
    rules = Datuo(allowed=True, factor=2, both=4)
    assert datuo_payments(rules, [-10, 0, 0], None, {0}) == [-20, 0, 0]
    assert datuo_payments(rules, [-10, 0, 0], None, {1, 2}) == [-10, 0, 0]
    with pytest.raises(ZipaiError):  # a 荒庄 paying between seats
        datuo_payments(rules, [-5, 5, 0], None, {0})


def test_the_new_keys_at_their_defaults_keep_the_content_hash():
    plain = variant()
    written = variant(payment={"draw": "losers_pay", "credit": "per_loser",
                               "discard_bonus": {"units": 0, "at_cap": "credited"}},
                      huangzhuang={"dealer_pays": 0})
    assert written.content_hash == plain.content_hash
    assert variant(huangzhuang={"dealer_pays": 1}).content_hash != plain.content_hash


@pytest.mark.parametrize("doc, path, needle", [
    ({"scoring": {"payment": {"credit": "once"}}}, "scoring.payment.credit", "no win is unpaid"),
    ({"scoring": {"payment": {"credit": "twice"}}}, "scoring.payment.credit",
     "'twice' is not one of per_loser, once"),
    ({"scoring": {"payment": {"draw": "nobody"}}}, "scoring.payment.draw", "is not one of"),
    ({"win": DISCARD, "scoring": {"payment": {"discard_bonus": {
        "units": 5, "at_cap": "others_pay"}}}},
     "scoring.payment.discard_bonus.at_cap", "discarder_max"),
    ({"win": DISCARD, "scoring": {"payment": {"discarder_max": 9, "discard_bonus": {
        "at_cap": "others_pay"}}}}, "scoring.payment.discard_bonus.at_cap", "bonus of 0"),
    ({"scoring": {"payment": {"discard_bonus": {"units": 5}}}},
     "scoring.payment.discard_bonus.units", "no win comes from a discard"),
    ({"scoring": {"payment": {"discard_bonus": {"units": -1}}}},
     "scoring.payment.discard_bonus.units", "minimum of 0"),
    ({"scoring": {"payment": {"discard_bonus": {"units": 10 ** 9}}}},
     "scoring.payment.discard_bonus.units", "maximum of 10000"),
    ({"scoring": {"payment": {"discard_bonus": {"unit": 5}}}},
     "scoring.payment.discard_bonus.unit", "unknown key"),
    ({"scoring": {"payment": {"discard_bonus": 10}}}, "scoring.payment.discard_bonus",
     "object"),
    ({"scoring": {"huangzhuang": {"dealer_pays": -10}}}, "scoring.huangzhuang.dealer_pays",
     "minimum of 0"),
    ({"scoring": {"huangzhuang": {"dealer_pays": "10"}}}, "scoring.huangzhuang.dealer_pays",
     "integer"),
    ({"win": {"sources": ["self", "discard"]}, "scoring": {"payment": {"draw": "winner_only"}}},
     "scoring.payment.draw", "never gives"),
])
def test_hostile_payment_shapes_are_refused_at_their_path(doc, path, needle):
    assert any(p == path and needle in m for p, m in refused(doc)), refused(doc)


def test_a_win_nobody_pays_refuses_a_mirrored_seat_out():
    doc = {"scoring": {"payment": {"draw": "winner_only"}}}
    assert "scoring.payment.draw" in [p for p, _ in refused(doc, "penghu")]


def refused(doc, parent="hunan"):
    """The (path, message) problems of a variant file extending ``parent`` with ``doc``,
    which the loader must refuse."""
    with pytest.raises(VariantError) as info:
        build_variant({"id": "bad", "name": "bad", "extends": parent, **doc}, raw_preset,
                      "<bad>")
    return info.value.problems
