"""Natural inputs: a variant by name, alias or path wherever one is taken; cards as token
strings or token lists; settle(game); wrong types refused as ZipaiError naming the argument."""

from __future__ import annotations

from pathlib import Path

import pytest

from zipai_rules import analyze, load_preset, tianhu, waits
from zipai_rules.bots import make_bots
from zipai_rules.cards import format_cards
from zipai_rules.engine.game import Deal, Game, shuffled_deal
from zipai_rules.errors import CardError, HandError, VariantError, ZipaiError
from zipai_rules.match import Match
from zipai_rules.play import play_out
from zipai_rules.settlement import settle
from zipai_rules.simulate import play_game, simulate_check
from zipai_rules.variant import as_variant

HUNAN = load_preset("hunan")
PRESETS = Path(__file__).resolve().parents[1] / "variants"
# a Hunan hand of 20 cards waiting on x8 (x6 x7 x8) and d10 (d2 d7 d10)
HAND = "x1 x2 x3 x4 x5 x6 x7 x9 x9 x9 d1 d2 d3 d4 d5 d6 d2 d7 d5 d5"


@pytest.mark.parametrize("name", ["hunan", "湖南跑胡子", "跑胡子", " HUNAN ",
                                  PRESETS / "hunan.yaml", str(PRESETS / "hunan.yaml")])
def test_a_variant_is_taken_by_id_name_alias_or_path(name):
    assert as_variant(name).content_hash == HUNAN.content_hash
    assert Game(name, seed=1).state == Game(HUNAN, seed=1).state


def test_every_function_that_takes_a_variant_takes_a_name():
    a = analyze("跑胡子", HAND, card="x8", source="discard")
    assert a == analyze(HUNAN, HAND, card="x8", source="discard")
    assert waits("hunan", HAND) == waits(HUNAN, HAND)
    assert tianhu("hunan", HAND) is None
    assert Match("hunan", seed=3).variant is HUNAN
    assert play_game("hunan", 1, 1, ["greedy"] * 3) == play_game(HUNAN, 1, 1, ["greedy"] * 3)
    assert simulate_check("hunan", 1) is None


@pytest.mark.parametrize("bad", [5, None, 1.5, ["hunan"], b"hunan"])
def test_a_value_that_is_no_variant_is_refused_naming_the_argument(bad):
    with pytest.raises(VariantError, match="^variant: ") as err:
        Game(bad, seed=1)
    assert err.value.code == "unknown_variant"
    with pytest.raises(VariantError, match="^variant: "):
        analyze(bad, HAND)


def test_an_unknown_name_lists_the_presets():
    with pytest.raises(VariantError, match="unknown variant 'nowhere'; known: .*hunan"):
        analyze("nowhere", HAND)


def test_a_deal_takes_token_strings_and_token_lists():
    dealt = shuffled_deal(HUNAN, 7)
    as_strings = Deal([format_cards(h) for h in dealt.hands], format_cards(dealt.wall), 0)
    as_lists = Deal([format_cards(h).split() for h in dealt.hands],
                    format_cards(dealt.wall).split(), 0)
    assert as_strings == as_lists == dealt
    assert Game("hunan", deal=as_strings).state == Game(HUNAN, seed=7).state
    assert Deal(["x1 x2 d10"], "K", 0).hands == ((0, 1, 19),)


@pytest.mark.parametrize(("hands", "wall", "where"), [
    ([[True, False]], [], r"hands\[0\]\[0\]: True is not a card"),
    ([["x1"], ["x2", "zz"]], [], r"hands\[1\]\[1\]: unknown card token 'zz'"),
    ([[1]], [2, None], r"wall\[1\]: None is not a card"),
    ("x1 x2", [], "hands: 'x1 x2' is not a list of hands"),
    ([[1]], 5, "wall: 5 .* is not a list of cards"),
])
def test_a_deal_of_non_cards_is_refused_naming_the_place(hands, wall, where):
    with pytest.raises(CardError, match=where):
        Deal(hands, wall, 0)


@pytest.mark.parametrize(("dealer", "message"), [
    ("0", "bad deal: dealer '0' is not a seat number: a str, not an int"),
    (True, "bad deal: dealer True is not a seat number: a bool, not an int"),
    (1.0, "bad deal: dealer 1.0 is not a seat number: a float, not an int"),
])
def test_a_dealer_of_the_wrong_type_is_refused_alone(dealer, message):
    """Seed 7 deals 21 cards to seat 0: read as dealing from seat 1 (``True == 1``) the sizes
    would not fit either, but only the type is reported."""
    dealt = shuffled_deal(HUNAN, 7)
    with pytest.raises(HandError) as err:
        Deal(dealt.hands, dealt.wall, dealer)
    assert (str(err.value), err.value.code) == (message, "bad_deal")


@pytest.mark.parametrize("dealer", [3, -1])
def test_a_dealer_outside_the_table_is_refused_alone(dealer):
    dealt = shuffled_deal(HUNAN, 7)
    with pytest.raises(HandError) as err:
        Game(HUNAN, deal=Deal(dealt.hands, dealt.wall, dealer))
    assert (str(err.value), err.value.code) == (f"bad deal: dealer seat {dealer} outside 0..2",
                                                "bad_deal")


@pytest.mark.parametrize(("hand", "error", "message"), [
    (5, HandError, r"^hand: 5 \(type int\) is not a list of cards"),
    ([True, False], CardError, r"^hand\[0\]: True is not a card"),
    ([0, 1, 2.0], CardError, r"^hand\[2\]: 2.0 is not a card"),
    (b"x1", HandError, r"^hand: b'x1' \(type bytes\)"),
])
def test_a_hand_that_is_not_cards_is_refused_naming_the_argument(hand, error, message):
    with pytest.raises(error, match=message):
        analyze(HUNAN, hand)


@pytest.mark.parametrize("seed", ["abc", 1.5, -1, True])
def test_a_bad_seed_is_refused(seed):
    with pytest.raises(HandError, match="^seed ") as err:
        Game("hunan", seed=seed)
    assert err.value.code == "bad_seed"


def test_settle_takes_a_game_a_state_or_a_variant_and_result():
    game = play_out(Game("hunan", seed=3), make_bots(["greedy"] * 3, 3, 3))
    by_game = settle(game)
    assert by_game == settle(game.state) == settle(HUNAN, game.result) \
        == settle("湖南跑胡子", game.result)
    assert sum(by_game.payments) == 0


def test_settle_of_a_game_not_over_says_so():
    with pytest.raises(ZipaiError, match="not over") as err:
        settle(Game("hunan", seed=3))
    assert err.value.code == "hand_not_over"


@pytest.mark.parametrize(("result", "message"), [
    (5, "settle: result must be a Result, got int 5"),
    (True, "settle: result must be a Result, got bool True"),
    ("hu", "settle: result must be a Result, got str 'hu'"),
])
def test_settle_names_a_result_of_the_wrong_type(result, message):
    with pytest.raises(ZipaiError) as err:
        settle("hunan", result)
    assert (str(err.value), err.value.code) == (message, "bad_argument")
    with pytest.raises(ZipaiError) as err:
        settle("hunan", None)
    assert err.value.code == "hand_not_over"


def test_values_print_in_the_games_notation():
    from zipai_rules import Card, Meld, parse_meld
    from zipai_rules.engine.actions import Action, Event, EventKind
    from zipai_rules.melds import chi_meld

    table = ["wei=d7 d7 d7", "peng=d2 d2 d2", "chi=x1 x2 x3"]
    assert repr(waits("hunan", "x4 x5 x6 x2 x7 x10 x8 x9 x10 d9 d10", table, "draw")) == \
        "[Wait(card=d8, huxi=15)]"
    assert repr(Card(8, True)) == "Card(d8)" and repr(Card.king()) == "Card(K)"
    assert repr(parse_meld("peng=d4 d4 d4")) == "Meld(peng d4 d4 d4)"
    assert repr(parse_meld("chi=x2 x1 x3")) == "Meld(yi_er_san x1 x2 x3, claimed=x2)"
    assert repr(chi_meld([7, 17, 17], bi=True)) == "Meld(bi jiao x8 d8 d8)"
    assert repr(Meld("ti", [3] * 4)) == "Meld(ti x4 x4 x4 x4)"
    plan = (chi_meld([5, 6, 7], claimed=7),)
    assert repr(Action("chi", 0, "x8", plan)) == "Action(seat 0 chi x8 shun(x6 x7 x8))"
    assert repr(Event(EventKind.PENG, 1, 13)) == "Event(seat 1 peng d4)"


def test_a_game_prints_its_variant_seed_turn_and_actor():
    game = Game("hunan", seed=1)
    assert repr(game) == "Game(hunan, seed=1, turn 0, seat 0 to act)"
    game.apply(game.legal_actions()[0])
    assert repr(game) == f"Game(hunan, seed=1, turn 1, seat {game.actor} to act)"
    assert repr(Game(HUNAN, deal=game.deal)).startswith("Game(hunan, dealt, turn 0, ")
    finished = play_out(Game("hunan", seed=7), make_bots(["greedy"] * 3, 7, 3))
    assert repr(finished) == "Game(hunan, seed=7, turn 18, over: hu by seat 2)"
