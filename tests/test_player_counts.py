"""The default bots follow the player count: a 2-player variant plays, simulates, validates with
``--simulate``, benches and plays a match with no bots named."""

from __future__ import annotations

import pytest

from zipai_rules.bots import make_bots
from zipai_rules.cli import main
from zipai_rules.errors import ZipaiError
from zipai_rules.match import Match
from zipai_rules.simulate import DEFAULT_BOTS, default_bots, run_games, simulate
from zipai_rules.variant_file import load_variant_file

DUO = ("id: duo\nname: Duo\nextends: hunan\nplayers: 2\n"
       "deal: {dealer_hand: 21, other_hand: 20, wall: 39}\n"
       "citations: {players: two players, deal: 80 cards for two}\n")


@pytest.fixture
def duo_file(tmp_path):
    path = tmp_path / "duo.yaml"
    path.write_text(DUO, "utf-8")
    return path


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_default_bots_are_cut_to_the_table():
    assert default_bots(3) == DEFAULT_BOTS == ("greedy", "random", "greedy")
    assert default_bots(2) == ("greedy", "random")


def test_simulate_two_players_with_the_default_bots(duo_file):
    variant = load_variant_file(duo_file)
    games = simulate(variant, 4, seed=5)
    assert [g.number for g in games] == [1, 2, 3, 4]
    assert all(g.winner in (None, 0, 1) for g in games)
    assert games == list(run_games(variant, 4, seed=5, bots=["greedy", "random"]))


def test_simulate_two_players_refuses_three_named_bots(duo_file):
    with pytest.raises(ZipaiError) as info:
        simulate(load_variant_file(duo_file), 1, bots=DEFAULT_BOTS)
    assert (info.value.code, str(info.value)) == ("unknown_bot", "3 bots named for 2 players")


def test_match_of_two_players(duo_file):
    variant = load_variant_file(duo_file)
    match = Match(variant, seed=3)
    bots = make_bots(default_bots(variant.seats), 3, variant.seats)
    hands = [match.play_hand(bots) for _ in range(3)]
    assert len(hands) == 3 and sum(match.scores) == 0 and len(match.scores) == 2


def test_match_refuses_a_bot_per_player_short_of_the_seats():
    match = Match("penghu", seed=3)  # 4 seats, 3 players
    with pytest.raises(ZipaiError) as info:
        match.play_hand(make_bots(DEFAULT_BOTS, 3, 3))
    assert (info.value.code, str(info.value)) == (
        "unknown_bot", "3 bots for 4 table seats: a match needs one bot per table seat")


@pytest.mark.parametrize("argv, says", [
    (["play", "--seed", "3"], "payments"),
    (["play", "--seed", "3", "--hands", "3"], "final scores: seat 0"),
    (["simulate", "--games", "3"], "3 games"),
    (["bench", "--games", "3", "--hands", "3"], "duo: 3 full games"),
])
def test_cli_two_players_without_bots(capsys, duo_file, argv, says):
    code, out, err = run(capsys, *argv, "--variant", duo_file)
    assert code == 0, err
    assert says in out


def test_validate_simulate_two_players(capsys, duo_file):
    code, out, err = run(capsys, "validate", duo_file, "--simulate", "3")
    assert (code, err) == (0, "")
    assert "simulated 3 games with every built-in bot" in out
