"""Hashable variants, observation JSON round trips, spectator and sitting-out views, and the
one action decoder (issue 17)."""

from __future__ import annotations

import functools
import json
import pickle
import random

import pytest

from zipai_rules import find_variant
from zipai_rules.engine import Action, ActionKind, Event, EventKind, Game
from zipai_rules.engine.observation import (
    Observation,
    ShownResult,
    TableView,
    sitting_out_view,
    spectate,
)
from zipai_rules.errors import RecordError, SeatError
from zipai_rules.melds import Meld, MeldKind
from zipai_rules.presets import load_preset, preset_ids
from zipai_rules.records import action_from_json


def test_a_variant_is_hashable_and_equal_variants_hash_alike():
    hunan, guilin = find_variant("hunan"), find_variant("guilin")
    again = pickle.loads(pickle.dumps(hunan))
    assert again == hunan and again is not hunan
    assert hash(again) == hash(hunan) == hash((hunan.content_hash, "hunan"))
    assert len({hunan, again, guilin}) == 2
    assert {hunan: 1}[again] == 1

    @functools.lru_cache(maxsize=8)
    def players(v):
        return v.players

    assert players(hunan) == players(again) == 3
    assert players.cache_info().hits == 1


def _hunan_after_two():
    game = Game(find_variant("hunan"), seed=7)
    for _ in range(2):
        game.apply(game.legal_actions()[0])
    return game


def test_observation_json_has_the_chou_sets():
    # seed 7: seat 0 discards x1 and seat 2 takes it with 碰; seat 0's own discard is 臭
    game = _hunan_after_two()
    assert [str(a) for a in game.actions] == ["seat 0 discard x1", "seat 2 peng x1"]
    out = game.observe(0).to_json()
    assert out["chou_chi"] == ["x1"] and out["chou_peng"] == ["x1"]
    assert out["dealer"] == 0 and out["result"] is None and out["phase"] == "wait"


def _played(variant, seed):
    """Every state of one random hand (the chooser seeded by ``seed``)."""
    game, rng = Game(variant, seed=seed), random.Random(seed)
    yield game
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        yield game


@pytest.mark.parametrize("preset", preset_ids())
def test_observations_and_table_views_round_trip_through_json(preset):
    v = load_preset(preset)
    views = 0
    for seed in range(3, 8):  # hands until 40 views (a hand may end on the first discard)
        for game in _played(v, seed):
            for s in range(v.players):
                o = game.observe(s)
                assert Observation.from_json(json.loads(json.dumps(o.to_json()))) == o
                views += 1
            t = spectate(game.state, game.events)
            assert TableView.from_json(json.loads(json.dumps(t.to_json()))) == t
        assert game.observe(0).result == ShownResult.of(game.state.result)
        if views >= 40:
            break
    assert views >= 40


def test_observation_from_json_refuses_a_malformed_document():
    o = _hunan_after_two().observe(1).to_json()
    del o["wall"]
    with pytest.raises(RecordError) as info:
        Observation.from_json(o)
    assert info.value.code == "bad_observation"


def _won_game(variant):
    for seed in range(200):
        game, rng = Game(variant, seed=seed), random.Random(seed)
        while not game.is_over:
            options = game.legal_actions()
            hu = [a for a in options if a.kind == ActionKind.HU]
            game.apply(hu[0] if hu else rng.choice(options))
        if game.state.result.winner is not None:
            return game
    raise AssertionError("no win in 200 hands")


def test_every_view_shows_the_dealer_and_the_result_at_the_end():
    game = _won_game(find_variant("hunan"))
    r = game.state.result
    shown = ShownResult(r.kind, r.winner, r.card, r.source, r.huxi,
                        tuple(str(x) for x in r.labels), r.discarder)
    for s in range(3):
        o = game.observe(s)
        assert o.phase == "over" and o.result == shown and o.dealer == game.state.dealer
    t = spectate(game.state, game.events)
    assert t.phase == "over" and t.result == shown and t.dealer == 0
    assert t.to_json()["result"]["winner"] == r.winner


def test_the_spectator_sees_no_hand_no_pass_and_no_face_down_card():
    v = find_variant("hunan")  # 偎 hidden, 提 one up
    for game in _played(v, 11):
        if game.is_over:
            break
        t = spectate(game.state, game.events)
        assert t.phase == "wait" and t.sitting_out is False
        assert t.hidden_cards == tuple(sum(s.hand) for s in game.state.seats)
        for e in t.history:
            assert e.kind not in (EventKind.PASS, EventKind.CHOU)
            if e.kind == EventKind.WEI:
                assert e.card is None and e.melds == ()
        for ms in t.melds:
            for m in ms:
                if m.kind == MeldKind.WEI:
                    assert (m.cards, m.hidden) == ((), 3)


def test_the_seat_sitting_out_has_its_own_view():
    v = find_variant("hunan_four")  # three players, four seats
    assert (v.players, v.seats) == (3, 4)
    game = Game(v, seed=5)
    view = sitting_out_view(game.state, game.events)
    assert view.sitting_out and view.dealer == 0 and view.wall == len(game.state.wall)
    assert view.to_json()["sitting_out"] is True
    assert view == TableView.from_json(view.to_json())
    with pytest.raises(SeatError):
        sitting_out_view(Game(find_variant("hunan"), seed=5).state)


def test_action_from_json_is_the_one_decoder():
    chi = Action(ActionKind.CHI, 1, 7, (Meld(MeldKind.SHUN, (6, 7, 8), claimed=7),))
    data = chi.to_json()
    assert data == {"kind": "chi", "seat": 1, "card": "x8",
                    "melds": [{"kind": "shun", "cards": ["x7", "x8", "x9"], "claimed": "x8"}]}
    assert Action.from_json(data) == chi == action_from_json(data)
    assert Action.from_json({"kind": "pass", "seat": 2}) == Action(ActionKind.PASS, 2)
    with pytest.raises(RecordError) as info:
        Action.from_json({"kind": "pass"})
    assert info.value.code == "bad_action"
    e = Event(EventKind.PENG, 1, 13, (Meld(MeldKind.PENG, (13, 13, 13), claimed=13),), "x")
    assert Event.from_json(e.to_json()) == e
