"""A spectator or the seat sitting out sees no more of a seat than every other player sees
of it (issue 24, kind 11): in Guilin and Liuzhou 八块 (``deal.single_dealt_ti: hand``) a
single dealt 提 stays in the hand, unseen, and the table view once showed it face down with
its four cards taken off the concealed count."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zipai_rules.bots import make_bots
from zipai_rules.engine import Game
from zipai_rules.engine.observation import events_for, observe, sitting_out_view, spectate
from zipai_rules.match import Match
from zipai_rules.play import play_out
from zipai_rules.presets import load_preset, preset_ids
from zipai_rules.variant_file import load_variant_file


def test_guilin_seed_10_a_held_ti_is_not_shown_to_a_spectator():
    # worked value: seat 1 of Guilin seed 10 is dealt x4 x4 x4 x4, a single 提 it keeps in
    # the hand; seats 0 and 2 see no meld of seat 1 and 20 concealed cards, and so does the
    # spectator (it was shown a face-down 提 and 16 concealed cards)
    game = Game(load_preset("guilin"), seed=10)
    seat1 = game.state.seats[1]
    assert seat1.held_ti == 3 and [m.kind.value for m in seat1.melds] == ["ti"]
    view = spectate(game.state, game.events)
    assert view.melds[1] == () and view.hidden_cards == (21, 20, 20)
    for other in (0, 2):
        seen = observe(game.state, other)
        assert seen.melds[1] == () and seen.hidden_cards[1] == 20
    assert all("x4" not in str(e.to_json()) for e in view.history if e.seat == 1)


def same_as_every_player(game: Game) -> None:
    """The spectator's view of each seat equals every other player's view of it (the
    players' views computed one by one, from the state: ``observe`` for each seat)."""
    state, v = game.state, game.variant
    view = spectate(state, game.events)
    n = v.players
    for seat in range(n):
        for other in range(n):
            if other == seat:
                continue
            seen = observe(state, other)
            assert view.melds[seat] == seen.melds[seat], (seat, other)
            assert view.hidden_cards[seat] == seen.hidden_cards[seat], (seat, other)
            assert view.discards[seat] == seen.discards[seat]
    if state.pending is not None and n > 1:
        nobody_else = [t for t in range(n) if t != state.pending.by]
        assert view.pending == observe(state, nobody_else[0]).pending
    # the events: of each seat, what another player is shown of it
    for other in range(n):
        shown = [e for e in events_for(v, game.events, other) if e.seat != other]
        assert [e for e in view.history if e.seat != other] == shown, other


@pytest.mark.parametrize("variant", preset_ids())
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_spectator_sees_what_every_player_sees_of_a_seat(variant, seed):
    game = Game(load_preset(variant), seed=seed)
    same_as_every_player(game)
    play_out(game, make_bots(["random"], seed, game.variant.players),
             after=lambda action, events: same_as_every_player(game))


def test_the_sitting_out_seat_of_a_four_seat_guilin_sees_no_held_ti(tmp_path):
    """A 4-seat Guilin (数醒): the seat sitting out, a player of the match, sees a held 提
    no more than the players do."""
    path = tmp_path / "guilin_four.yaml"
    path.write_text("extends: guilin\nid: guilin_four\nname: 桂林字牌四人\nseats: 4\n"
                    "sitting_out: opposite_dealer\n", "utf-8")
    variant = load_variant_file(path)
    match = Match(variant, seed=3, keep_hands=8)
    held = 0
    for _ in range(8):
        hand = match.play_hand(make_bots(["greedy"], 3, variant.seats))
        game = hand.game
        start = Game(variant, deal=game.deal)
        for s, seat in enumerate(start.state.seats):
            if seat.held_ti is not None:
                held += 1
                view = sitting_out_view(start.state, start.events)
                assert view.sitting_out and all(
                    m.kind is None or m.kind.value != "ti" or m.cards
                    for m in view.melds[s])
                assert view.melds[s] == observe(start.state, (s + 1) % 3).melds[s]
                assert view.hidden_cards[s] == observe(start.state, (s + 1) % 3).hidden_cards[s]
    assert held  # the seed deals at least one held 提 in these hands
