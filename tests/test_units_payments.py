"""Units as a table with a formula tail, 胡息 that count as more, the discarder paying alone
with a multiple, and instant 提 payments: values worked by hand."""

import pytest

from zipai_rules import VariantError, find_variant
from zipai_rules.analysis import Decomposition
from zipai_rules.bots import make_bots, play_out
from zipai_rules.cards import parse_card
from zipai_rules.engine import Game, Result
from zipai_rules.engine.actions import Event, EventKind
from zipai_rules.loader import build_variant
from zipai_rules.presets import raw_preset
from zipai_rules.settlement import formula, settle

#: 耒阳's 敦: 10 → 2, 11–15 → 1, 16–19 → 2, 20 → 4, 21 → 3, then +1 per 3 胡息
DUN = {"table": [[10, 2], [11, 1], [16, 2], [20, 4], [21, 3]], "then_per": 3}


def child(parent="hunan", win=None, **scoring):
    doc = {"extends": parent, "scoring": scoring}
    if win is not None:
        doc["win"] = win
    return build_variant(doc, raw_preset, "child")


DISCARD_WINS = {"sources": ["self", "draw", "discard"]}


def card(tok):
    return parse_card(tok).index


def win(winner, huxi, source="draw", labels=(), discarder=None):
    return Result("hu", winner, None, source, huxi, Decomposition((), huxi), tuple(labels),
                  discarder=discarder)


@pytest.mark.parametrize("huxi, units", [
    (5, 1), (10, 2), (11, 1), (15, 1), (16, 2), (19, 2), (20, 4), (21, 3), (23, 3), (24, 4),
    (26, 4), (27, 5), (30, 6)])
def test_table_with_a_tail(huxi, units):
    assert child(conversion=DUN).scoring.units(huxi) == units


def test_table_without_a_tail_and_its_minimum():
    v = child(conversion={"table": [[10, 1], [20, 3]], "minimum": 0})
    assert [v.scoring.units(h) for h in (9, 10, 19, 20, 40)] == [0, 1, 1, 3, 3]


@pytest.mark.parametrize("huxi, text", [
    (24, "table 21 → 3 + (24 − 21) // 3"), (21, "table 21 → 3"), (16, "table 16 → 2"),
    (5, "below the table, at least 1")])
def test_table_formula(huxi, text):
    assert formula(child(conversion=DUN).scoring.conversion, huxi) == text


def test_count_as_applies_after_the_multipliers():
    """Shaoyang doubles a 天胡's 胡息; with units = 胡息, 10 counts as 15 and a doubled 20 as
    24: a 10-胡息 自摸 is 15 + 1 (自摸 +1), a 10-胡息 天胡 is 10 × 2 = 20 → 24."""
    v = child("shaoyang", unit="huxi", conversion={
        "offset": 0, "step": 1, "base": 0, "minimum": 0, "count_as": [[10, 15], [20, 24]]})
    assert settle(v, win(0, 10, "self", ["zimo"])).units == 16
    tianhu = settle(v, win(0, 10, None, ["tianhu"]))
    assert tianhu.units == 24 and tianhu.huxi == 20
    assert any(x.item == "conversion" and "20 胡息 counts as 24" in x.text for x in tianhu.lines)
    assert settle(v, win(0, 11, "self", ["zimo"])).units == 12


def test_discarder_pays_alone_with_a_multiple():
    """Hunan with discard wins: 18 胡息 → (18 − 12) // 3 = 2 囤; seat 0 discards, seat 1 wins.
    By default the discarder pays for both losers (2 × 2); with ``discarder_pays: 3`` it pays
    3 × 2 alone."""
    result = win(1, 18, "discard", discarder=0)
    assert list(settle(child(), result).payments) == [-4, 4, 0]
    s = settle(child(win=DISCARD_WINS, payment={"discarder_pays": 3}), result)
    assert list(s.payments) == [-6, 6, 0]
    assert any("seat 0 pays 6 alone, 3 × 2" == x.text for x in s.lines)
    # a win on a draw: every loser pays once, whatever the multiple
    by_draw = settle(child(win=DISCARD_WINS, payment={"discarder_pays": 3}), win(1, 18))
    assert list(by_draw.payments) == [-2, 4, -2]


TIS = [Event(EventKind.TI, 0, card("d3")), Event(EventKind.TI, 2, card("x5"))]


def test_instant_ti_payments():
    """Big 提 2, small 1 from each other player. Seat 0 提 d3 (+4, seats 1 and 2 pay 2 each),
    seat 2 提 x5 (+2, seats 0 and 1 pay 1); seat 1 wins 18 胡息 (2 囤) on a draw: [−2, 4, −2].
    Sum: [−2 + 4 − 1, 4 − 2 − 1, −2 − 2 + 2] = [1, 1, −2]. On 荒庄: [3, −3, 0]."""
    v = child(payment={"ti": {"big": 2, "small": 1}})
    s = settle(v, win(1, 18), events=TIS)
    assert list(s.payments) == [1, 1, -2] and s.units == 2
    assert [x.value for x in s.lines if x.term == v.term("ti")] == [4, 2]
    assert list(settle(v, Result("huangzhuang"), events=TIS).payments) == [3, -3, 0]
    assert list(settle(child(), win(1, 18), events=TIS).payments) == [-2, 4, -2]


def test_settle_game_reads_its_ti_events():
    v = child(payment={"ti": {"big": 2, "small": 1}})
    for seed in range(200):
        game = play_out(Game(v, seed=seed), make_bots(["greedy", "random"], seed, v.players))
        tis = [e for e in game.events if e.kind == EventKind.TI]
        if tis:
            break
    else:
        pytest.fail("no 提 in 200 hands")
    with_events, without = settle(game), settle(v, game.result)
    gained = [0] * v.players
    for e in tis:
        gained[e.seat] += 2 if e.card >= 10 else 1
    for seat in range(v.players):
        per = [2 if e.card >= 10 else 1 for e in tis if e.seat != seat]
        assert with_events.payments[seat] - without.payments[seat] == \
            gained[seat] * (v.players - 1) - sum(per)


@pytest.mark.parametrize("scoring, path", [
    ({"conversion": {"table": [[10, 2], [10, 3]]}}, "scoring.conversion.table[1]"),
    ({"conversion": {"then_per": 3}}, "scoring.conversion.then_per"),
    ({"conversion": {"fixed": 1, "table": [[10, 1]]}}, "scoring.conversion.table"),
    ({"conversion": {"count_as": [[10, 15], [10, 16]]}}, "scoring.conversion.count_as[1]"),
    ({"payment": {"discard_win": "each_loser", "discarder_pays": 2}},
     "scoring.payment.discarder_pays"),
    ({"payment": {"ti": {"big": 2, "huge": 3}}}, "scoring.payment.ti.huge"),
    ({"payment": {"ti": {"big": -1}}}, "scoring.payment.ti.big"),
    ({"conversion": {"table": [[10]]}}, "scoring.conversion.table[0]"),
    ({"payment": {"discarder_pays": 0}}, "scoring.payment.discarder_pays"),
])
def test_invalid_units_and_payments(scoring, path):
    with pytest.raises(VariantError) as err:
        child(**scoring)
    assert path in [p for p, _ in err.value.problems]


WU_HU = "x3 x4 x5 x6 x7 x8 d3 d4 d5 d6 d7 d8 x4 x5 x6 d4 d5 d6 x7 x8"


def test_wu_hu_scores_as_21():
    """耒阳 无胡: seven plain 顺 (0 胡息, no pair) complete on x9 and win as 21 胡息: Hunan
    converts 21 to (21 − 12) // 3 = 3 囤. Without the hook the hand is below the threshold; a
    hand with 胡息 (二七十 big, 6) under the threshold is no 无胡."""
    from zipai_rules import analyze

    v = build_variant({"extends": "hunan", "win": {"special": ["wu_hu"]}}, raw_preset, "child")
    a = analyze(v, WU_HU, [], "x9", "draw")
    assert (a.win, a.huxi, a.best.special, a.best.huxi) == (True, 21, "wu_hu", 21)
    assert settle(v, Result("hu", 1, card("x9"), "draw", a.huxi, a.best)).units == 3
    plain = analyze(child(), WU_HU, [], "x9", "draw")
    assert (plain.win, plain.reason, plain.huxi) == (False, "below_min_huxi", 0)
    some = analyze(v, WU_HU.replace("d6 d7 d8", "d2 d7 d10"), [], "x9", "draw")
    assert (some.win, some.reason, some.huxi) == (False, "below_min_huxi", 6)


def test_settling_a_bare_state_is_refused_where_ti_is_paid_at_once():
    """A GameState has no events, so 耒阳's instant 提 payments cannot be read from it."""
    from zipai_rules.errors import ZipaiError

    v = find_variant("leiyang_tilong")
    game = play_out(Game(v, seed=0), make_bots(["greedy", "random"], 0, v.players))
    with pytest.raises(ZipaiError) as info:
        settle(game.state)
    assert info.value.code == "bad_argument" and "settle the Game" in str(info.value)
    assert settle(game) == settle(v, game.result, events=game.events)
