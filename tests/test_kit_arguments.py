"""Hostile arguments to the kit's strategies: every one is refused with
``StrategyArgumentError`` when the strategy is built, never a ``TypeError``, an ``IndexError``
or hypothesis' ``InvalidArgument`` when it draws, and never silently read as true."""

from __future__ import annotations

import pytest

from zipai_rules.testing import (
    StrategyArgumentError,
    game_states,
    games,
    hands,
    machine_for,
    melds,
    offered_states,
    situations,
    variants,
    winning_hands,
)

BUILDS = [
    ("hands size str", lambda: hands("hunan", size="3")),
    ("hands size bool", lambda: hands("hunan", size=True)),
    ("hands size float", lambda: hands("hunan", size=1.5)),
    ("hands min_size None", lambda: hands("hunan", min_size=None)),
    ("hands max_size list", lambda: hands("hunan", max_size=[])),
    ("melds kinds int", lambda: melds("hunan", kinds=3)),
    ("melds kinds bool", lambda: melds("hunan", kinds=True)),
    ("situations variant None", lambda: situations(None)),
    ("situations unknown variant", lambda: situations("nope")),
    ("situations complete str", lambda: situations("hunan", complete="no")),
    ("winning_hands min_huxi str", lambda: winning_hands("hunan", min_huxi="20")),
    ("winning_hands min_huxi bool", lambda: winning_hands("hunan", min_huxi=True)),
    ("winning_hands min_huxi float", lambda: winning_hands("hunan", min_huxi=20.5)),
    ("winning_hands max_huxi None", lambda: winning_hands("hunan", max_huxi=None)),
    ("winning_hands max_huxi nan", lambda: winning_hands("hunan", max_huxi=float("nan"))),
    ("games finished str", lambda: games("hunan", finished="no")),
    ("games finished None", lambda: games("hunan", finished=None)),
    ("game_states offer list", lambda: game_states("hunan", offer=[])),
    ("game_states offer dict", lambda: game_states("hunan", offer={})),
    ("variants mutated str", lambda: variants(mutated="no")),
    ("offered_states holds bytes", lambda: offered_states("hunan", b"d2 d3", "d4")),
    ("offered_states holds bools", lambda: offered_states("hunan", [True, True], "d4")),
    ("offered_states holds float", lambda: offered_states("hunan", [11.0, 12.0], "d4")),
    ("offered_states card huge", lambda: offered_states("hunan", "d2 d3", 10 ** 30)),
    ("offered_states card negative", lambda: offered_states("hunan", "d2 d3", -1)),
    ("machine_for check not callable", lambda: machine_for("hunan", 3)),
    ("machine_for seed_strategy int", lambda: machine_for("hunan", seed_strategy=7)),
    ("machine_for check_records str", lambda: machine_for("hunan", check_records="no")),
    ("machine_for unknown variant", lambda: machine_for("nope")),
]


@pytest.mark.parametrize("build", [b for _, b in BUILDS], ids=[n for n, _ in BUILDS])
def test_a_hostile_argument_is_refused_when_the_strategy_is_built(build):
    with pytest.raises(StrategyArgumentError):
        build()


def test_the_arguments_that_are_right_still_build():
    hands("hunan", size=3)
    hands("hunan", min_size=2, max_size=5)
    melds("hunan", kinds="peng")
    situations("hunan", complete=True)
    winning_hands("hunan", min_huxi=20, max_huxi=30)
    games("hunan", finished=False)
    variants(mutated=False)
    offered_states("hunan", [11, 12], 13)
    machine_for("hunan", lambda game: None, check_records=False)


def _state():
    from zipai_rules import find_variant
    from zipai_rules.engine import Game

    game = Game(find_variant("hunan"), seed=3)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    return game


@pytest.mark.parametrize("args", [
    ("state", 0, 3, "discard"), (None, 0, 3, "discard"),
    (0, 3, "discard"),                                   # the game, not its state: below
    ("S", 1, -1, "discard"), ("S", 1, True, "discard"), ("S", 1, None, "discard"),
    ("S", 1, 1.5, "discard"), ("S", 1, 10 ** 30, "discard"), ("S", 1, 21, "discard"),
    ("S", 1, 3, ["discard"]), ("S", 1, 3, "discard", -1), ("S", 1, 3, "discard", True),
    ("S", 1, 3, "discard", "0"), ("S", 1, 3, "discard", 10 ** 30)])
def test_engine_options_refuses_what_is_no_state_seat_card_or_source(args):
    """A card of -1 read the 王's count (a wrong answer, silently), a card of None or a
    float was a TypeError, a huge one an IndexError, a state of None an AttributeError."""
    from zipai_rules.testing import engine_options

    game = _state()
    args = tuple(game.state if a == "S" else a for a in args)
    if len(args) == 3:
        args = (game, *args)
    with pytest.raises(StrategyArgumentError):
        engine_options(*args)


@pytest.mark.parametrize("value", [None, 3, "game", []])
def test_the_win_and_settlement_oracles_refuse_what_is_no_game_or_result(value):
    from zipai_rules.errors import ZipaiError
    from zipai_rules.testing import settlement_oracle, win_decision_problems

    game = _state()
    with pytest.raises(StrategyArgumentError):
        win_decision_problems(value)
    with pytest.raises(StrategyArgumentError):
        win_decision_problems(game.state)
    if value is not None:
        with pytest.raises(ZipaiError) as refused:
            settlement_oracle("hunan", value)
        assert refused.value.code == "bad_argument"


@pytest.mark.parametrize("picks", [None, 3, 1.5, "nope", {}, [1.5], [True], ["a"]])
def test_driving_the_machine_by_hand_refuses_picks_that_are_no_ints(picks):
    """``m.act(picks)`` with a number, a string or a float pick was a ``TypeError`` (``'int'
    object is not iterable``, ``not all arguments converted during string formatting``), a
    bool pick was taken for 0 or 1; acting before ``start`` an empty ``AssertionError``."""
    machine = machine_for("hunan")()
    with pytest.raises(StrategyArgumentError):
        machine.act([0])
    machine.start(3)
    with pytest.raises(StrategyArgumentError):
        machine.act(picks)
    machine.act([0, 10 ** 30, -5])  # any int: an index modulo the number of legal actions


@pytest.mark.parametrize("deal", [None, True, 1.5, -1, "7"])
def test_start_refuses_what_is_no_deal_or_seed(deal):
    """``m.start(None)`` dealt from a secret seed, so that a run never replayed."""
    with pytest.raises(StrategyArgumentError):
        machine_for("hunan")().start(deal)


def test_settlement_problems_compares_payments_exactly_and_reports_what_is_no_list():
    """Payments were compared after ``int()``: ``[2.5, -1.25, -1.25]`` against the oracle's
    ``[2, -1, -1]`` (Hunan seed 0, greedy bots, seat 0 wins 15 胡息 on its draw) agreed;
    ``None`` or a number was a ``TypeError``, ``"abc"`` a ``ValueError``."""
    from zipai_rules import find_variant
    from zipai_rules.bots import make_bots, play_out
    from zipai_rules.engine import Game
    from zipai_rules.testing import settlement_problems

    game = Game(find_variant("hunan"), seed=0)
    play_out(game, make_bots(["greedy"], 0, 3))
    assert settlement_problems(game) == []
    assert settlement_problems(game, lambda g: [2, -1, -1]) == []
    assert settlement_problems(game, lambda g: [2.0, -1, -1]) == []
    assert settlement_problems(game, lambda g: [2.5, -1.25, -1.25])[0] == (
        "payments [2.5, -1.25, -1.25], the oracle's [2, -1, -1]")
    for wrong in ("abc", None, 5, [True, 0, 0], {"a": 1}):
        assert "not a list of numbers" in settlement_problems(game, lambda g, w=wrong: w)[0]
    with pytest.raises(StrategyArgumentError):
        settlement_problems(game, 3)


def test_deals_takes_its_variant_by_name_as_every_strategy_does():
    """``deals("hunan")`` was ``AttributeError: 'str' object has no attribute 'players'``
    (docs/testing.md: every strategy takes the variant or its name)."""
    from hypothesis import given, settings

    from zipai_rules.engine.game import shuffled_deal
    from zipai_rules.presets import load_preset
    from zipai_rules.testing import deals

    with pytest.raises(StrategyArgumentError):
        deals(None)
    with pytest.raises(StrategyArgumentError):
        deals("nope")

    seen = []

    @settings(max_examples=3, database=None, deadline=None)
    @given(deals("guilin", dealer=1))
    def draw(deal):
        seen.append(deal)

    draw()
    assert seen and all(len(d.wall) == len(shuffled_deal(load_preset("guilin"), 0, 1).wall)
                        for d in seen)


def test_a_machine_subclass_may_name_its_variant():
    """``variant = "guilin"`` in a subclass failed in the machine's ``illegal`` rule
    (``AttributeError: 'str' object has no attribute 'players'``); a subclass without a
    variant was a bare ``TypeError``."""
    from zipai_rules.testing import ZipaiMachine

    class Named(ZipaiMachine):
        variant = "guilin"

    machine = Named()
    machine.start(4)
    machine.act([0, 1, 2])
    assert machine.game.variant.id == "guilin"

    class Unset(ZipaiMachine):
        pass

    with pytest.raises(StrategyArgumentError):
        Unset()
    Bad = type("Bad", (ZipaiMachine,), {"variant": "nope"})
    with pytest.raises(StrategyArgumentError):
        Bad()
