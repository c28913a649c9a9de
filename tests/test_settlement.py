"""Settlement against hand-worked tables (tests/data/scoring.yaml) and payment invariants."""

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from zipai_rules import analyze, find_variant
from zipai_rules.analysis import Decomposition
from zipai_rules.bots import make_bots, play_out
from zipai_rules.cards import parse_card
from zipai_rules.engine import Game, Result
from zipai_rules.errors import ZipaiError
from zipai_rules.presets import preset_ids
from zipai_rules.settlement import settle, xing_cards

DATA = yaml.safe_load((Path(__file__).parent / "data" / "scoring.yaml").read_text("utf-8"))


def card(token):
    return parse_card(token).index


@pytest.mark.parametrize("pid, huxi, units", DATA["conversion"])
def test_conversion(pid, huxi, units):
    assert find_variant(pid).scoring.units(huxi) == units


@pytest.mark.parametrize("flipped, up, down", DATA["xing"])
def test_xing_cards(flipped, up, down):
    assert xing_cards(card(flipped)) == (card(up), card(down))


def _e7_decomposition(v):
    a = analyze(v, "x1 x2 x3 x7 x8 x9 d7 d8 d9 x10",
                ["peng=d3 d3 d3", "chi=d1 d2 d3", "pao=x6 x6 x6 x6"], "x10", "draw")
    assert a.win and a.huxi == 18
    return a.best


@pytest.mark.parametrize("case", DATA["wins"], ids=lambda c: c["name"])
def test_win_settlement(case):
    v = find_variant(case["variant"])
    dec = _e7_decomposition(v) if case.get("e7_hand") else Decomposition((), case["huxi"])
    result = Result("hu", case["winner"], None, case["source"], case["huxi"], dec,
                    tuple(case["labels"]),
                    discarder=case["discarder"] if case["source"] == "discard" else None,
                    flipped=card(case["wall_top"]) if case["wall_top"] else None)
    s = settle(v, result)
    assert s.units == case["units"]
    assert list(s.payments) == case["payments"]
    assert sum(s.payments) == 0
    assert all(line.term for line in s.lines)


@pytest.mark.parametrize("case", DATA["huangzhuang"], ids=lambda c: c["name"])
def test_huangzhuang_settlement(case):
    v = find_variant(case["variant"])
    s = settle(v, Result("huangzhuang", kings=tuple(case["kings"])))
    assert list(s.payments) == case["payments"]
    assert s.winner is None


def test_sitting_out_mirrors_the_winner():
    """碰胡 数醒: the 碰胡 text names the seat ("庄家的对家为闲家", 000 §碰胡规则) and not what it
    gains; the common convention of four-seat 跑胡子 (000 §湖南字牌技巧 "因为你在数醒而进钱",
    docs/variants.md): the seat out gains as the winner gains, 1 分 from each of the two losers."""
    v = find_variant("penghu")
    s = settle(v, Result("hu", 1, None, "draw", 0, None, sitting_out=True))
    assert list(s.payments) == [-2, 2, -2] and s.sitting_out == 2


def test_settlement_lines_use_variant_terms():
    v = find_variant("guilin")
    s = settle(v, Result("hu", 0, None, "self", 24, Decomposition((), 24), ("zimo",)))
    terms = [(line.item, line.term) for line in s.lines]
    assert ("conversion", "舵") in terms and ("bonus", "自摸") in terms


@pytest.mark.parametrize("pid", preset_ids())
@settings(max_examples=8)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_payments_sum_to_zero(pid, seed):
    v = find_variant(pid)
    game = play_out(Game(v, seed=seed), make_bots(["greedy", "random"], seed, v.players))
    s = settle(game, v.seats > v.players)
    # 湘乡, the one preset that is not zero-sum, says by how much (credited)
    assert sum(s.payments) + s.sitting_out == s.credited
    assert s.credited == 0 or pid == "xiangxiang"
    if game.result.winner is not None:
        ti = v.scoring.payment.ti  # the 提 others made can cancel what the win brings
        assert s.payments[game.result.winner] > 0 or v.scoring.units(0) == 0 or ti.big \
            or ti.small


def test_settle_is_a_function_of_the_result():
    """``settle(variant, result)`` reads only the result: the older ``settle(state, flag)``
    gives the same settlement, and an unfinished hand is a ``ZipaiError``."""
    v = find_variant("penghu")
    game = play_out(Game(v, seed=3), make_bots(["greedy", "random"], 3, v.players))
    assert game.result.sitting_out is True and game.result.kings == (0, 0, 0)
    assert settle(v, game.result) == settle(game.state, True)
    with pytest.raises(ZipaiError) as err:
        settle(Game(v, seed=3).state)
    assert err.value.code == "hand_not_over"


@pytest.mark.parametrize("change, says", [
    ({"winner": 7}, "winner 7 is not a seat 0..2"),
    ({"winner": "0"}, "winner '0' is not a seat"),
    ({"kind": "bogus"}, "kind 'bogus' is not one of hu, tianhu, huangzhuang"),
    ({"huxi": -3}, "huxi -3 is not a whole number"),
    ({"source": "elsewhere"}, "source 'elsewhere' is not one of self, draw, discard"),
    ({"discarder": 0}, "discarder 0 is not a seat other than the winner"),
    ({"card": 99}, "card 99 is not a card index 0..20"),
])
def test_a_result_no_hand_ends_with_is_refused(change, says):
    from zipai_rules.engine import Result
    from zipai_rules.errors import ZipaiError

    fields = {"kind": "hu", "winner": 0, "card": None, "source": "self", "huxi": 15, **change}
    with pytest.raises(ZipaiError) as info:
        settle("hunan", Result(**fields))
    assert info.value.code == "bad_argument" and says in str(info.value)
