"""Save and resume: :func:`save_game` and :func:`resume_game` round-trip a game at every step.

The property runs seeded bot games over every preset, saving and resuming before every
decision and comparing the resumed game with the uninterrupted one: same state, legal
actions, events, actions, seed and commitment, and the same events once the next action is
applied to both. ``HYPOTHESIS_PROFILE=dev`` plays 200 games per preset, the ``ci`` profile 3.
"""

import copy
import json
import os

import attrs
import pytest

from zipai_rules.bots import make_bots
from zipai_rules.engine import Game
from zipai_rules.errors import RecordError, ReplayError, ZipaiError
from zipai_rules.inputs import RECORD_LIMITS
from zipai_rules.presets import load_preset, preset_ids
from zipai_rules.records import (
    dumps_record,
    game_record,
    replay_record,
    resume_game,
    save_game,
)
from zipai_rules.settlement import settle

GAMES = 200 if os.environ.get("HYPOTHESIS_PROFILE") == "dev" else 3


def same_game(resumed: Game, game: Game) -> None:
    assert resumed.variant.content_hash == game.variant.content_hash
    assert (resumed.seed, resumed.deal, resumed.commitment) == \
        (game.seed, game.deal, game.commitment)
    assert resumed.state == game.state
    assert resumed.legal_actions() == game.legal_actions()
    assert resumed.events == game.events
    assert resumed.actions == game.actions
    assert resumed.actor == game.actor and resumed.result == game.result


@pytest.mark.parametrize("preset", preset_ids())
def test_resume_at_every_step_is_the_uninterrupted_game(preset):
    v = load_preset(preset)
    for seed in range(GAMES):
        game = Game(v, seed=seed, commit=True)
        bots = make_bots(["greedy", "random"], seed, v.players)
        while True:
            text = dumps_record(save_game(game))
            resumed = resume_game(text)
            same_game(resumed, game)
            if game.is_over:
                break
            action = bots[game.state.acting_seat](game.state, game.state.options)
            assert resumed.apply(action) == game.apply(action)
            same_game(resumed, game)


def test_a_saved_hand_in_play(hunan):
    game = Game(hunan, seed=7)
    for _ in range(4):
        game.apply(game.legal_actions()[0])
    saved = save_game(game)
    assert saved["format"] == "zipai-log/1"
    assert saved["seed"] == 7 and saved["result"] is None and saved["settlement"] is None
    assert saved["deal"] == game.deal.to_json()
    assert saved["actions"] == [a.to_json() for a in game.actions]
    assert "commitment" not in saved
    resumed = resume_game(saved)
    same_game(resumed, game)
    # a saved hand in play is not a finished record
    with pytest.raises(ReplayError) as info:
        replay_record(saved)
    assert (info.value.step, info.value.code) == (5, "record_incomplete")


def test_the_save_of_a_finished_hand_is_its_record(hunan):
    game = Game(hunan, seed=7)
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    saved = save_game(game)
    assert saved == game_record(game, settle(hunan, game.result))
    replayed, settlement = replay_record(saved)
    assert replayed.state == game.state
    assert saved["settlement"] == settlement.to_json()


def test_commitment_survives(hunan):
    game = Game(hunan, seed=11, commit=True)
    game.apply(game.legal_actions()[0])
    saved = save_game(game)
    assert saved["commitment"] == game.commitment.to_json()
    assert resume_game(saved).commitment == game.commitment
    bad = copy.deepcopy(saved)
    bad["commitment"]["nonce"] = "0" * 32
    with pytest.raises(ReplayError) as info:
        resume_game(bad)
    assert (info.value.step, info.value.code) == (0, "bad_commitment")


def test_explicit_deal_resumes(hunan):
    dealt = Game(hunan, seed=3).deal
    game = Game(hunan, deal=dealt)
    game.apply(game.legal_actions()[0])
    saved = save_game(game)
    assert saved["seed"] is None
    resumed = resume_game(saved)
    assert resumed.seed is None
    same_game(resumed, game)


def test_resume_under_a_given_variant(hunan):
    game = Game(hunan, seed=2)
    game.apply(game.legal_actions()[0])
    saved = save_game(game)
    same_game(resume_game(saved, hunan), game)
    with pytest.raises(ReplayError) as info:
        resume_game(saved, load_preset("guilin"))
    assert (info.value.step, info.value.code) == (0, "variant_changed")
    with pytest.raises(ZipaiError) as refused:
        resume_game(saved, "not a variant")  # type: ignore[arg-type]
    assert refused.value.code == "bad_variant"


def test_resume_is_strict(hunan):
    game = Game(hunan, seed=7)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    saved = save_game(game)

    wrong = copy.deepcopy(saved)
    wrong["actions"][1]["seat"] = (wrong["actions"][1]["seat"] + 1) % 3
    with pytest.raises(ReplayError) as info:
        resume_game(wrong)
    assert (info.value.step, info.value.code) == (2, "replay_diverged")

    swapped = copy.deepcopy(saved)
    swapped["seed"] = 8
    with pytest.raises(ReplayError) as info:
        resume_game(swapped)
    assert (info.value.step, info.value.code) == (0, "bad_deal")

    stray = {**saved, "extra": 1}
    with pytest.raises(RecordError) as bad:
        resume_game(stray)
    assert bad.value.code == "schema"

    text = json.dumps(saved)
    with pytest.raises(RecordError) as dup:
        resume_game(text[:-1] + ', "seed": 7}')
    assert dup.value.code == "duplicate_key"
    with pytest.raises(RecordError) as big:
        resume_game(text, limits=attrs.evolve(RECORD_LIMITS, max_bytes=100))
    assert big.value.code == "too_large"
    with pytest.raises(RecordError) as floats:
        resume_game(text.replace('"seed": 7', '"seed": 7.0'))
    assert floats.value.code == "schema"
