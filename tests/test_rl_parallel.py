"""The ParallelEnv on claim windows zipai_rules.rl_parallel: PettingZoo's parallel API test on
every preset; every seat of a window acts in one step; a hand ends as the one-seat-at-a-time
engine ends it for the same answers (tests/test_claim_windows.py's oracle); a 天胡 at the deal
pays on the first step; refusals change nothing."""

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import parallel_api_test  # noqa: E402

from test_claim_windows import play_turns, window_key  # noqa: E402
from zipai_rules.engine.encoding import decode_action  # noqa: E402
from zipai_rules.errors import IllegalActionError, ZipaiError  # noqa: E402
from zipai_rules.presets import load_preset, preset_ids  # noqa: E402
from zipai_rules.rl_parallel import parallel_env  # noqa: E402
from zipai_rules.settlement import settle  # noqa: E402


@pytest.mark.parametrize("preset", preset_ids())
def test_parallel_api_test(preset):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        parallel_api_test(parallel_env(preset), num_cycles=1000)
    assert [str(w.message) for w in seen] == []


def play(env, seed: int, rng: random.Random):
    """A hand with random masked codes; the decisions as test_claim_windows records them."""
    obs, _ = env.reset(seed=seed)
    items, steps = [], []
    while env.agents:
        acting = [a for a in env.agents if obs[a]["action_mask"].any()]
        game = env.game
        window = game.state.window
        assert acting == sorted(env.possible_agents[s] for s in game.awaiting())
        if window is not None:  # every seat of a window acts, whether or not it may claim
            assert [int(a[5:]) for a in acting] == sorted(window.seats)
        actions = {a: rng.choice(np.flatnonzero(obs[a]["action_mask"]).tolist())
                   for a in acting}
        steps.append(actions)
        if window is None:
            (a, code), = actions.items()
            items.append(("one", decode_action(code, int(a[5:]))))
        else:
            items.append(("window", window_key(game.state),
                          {int(a[5:]): decode_action(c, int(a[5:])) for a, c in actions.items()}))
        obs, rewards, terminations, truncations, infos = env.step(actions)
    return items, steps, rewards, terminations


@pytest.mark.parametrize("preset,seed", [("hunan", 1), ("hunan", 4), ("yongzhou", 2),
                                         ("hunan_four", 3), ("hunan_two", 5)])
def test_a_hand_ends_as_one_seat_at_a_time_for_the_same_answers(preset, seed):
    env = parallel_env(preset)
    items, steps, rewards, terminations = play(env, seed, random.Random(seed))
    assert any(len(s) > 1 for s in steps)  # windows answered by several seats at once
    turns = play_turns(load_preset(preset), seed, items)
    assert turns.is_over and env.game.events == turns.events
    paid = settle(turns.variant, turns.result, events=turns.events).payments
    assert [rewards[a] for a in env.possible_agents] == list(paid)
    assert all(terminations.values()) and env.agents == []
    # the same seed and codes play the same hand again (PettingZoo's parallel_seed_test
    # samples codes without the mask, which an environment that refuses them cannot pass)
    again = parallel_env(preset)
    assert play(again, seed, random.Random(seed))[1] == steps
    assert again.game.events == env.game.events


def test_a_hand_over_at_the_deal_pays_on_the_first_step():
    """Hunan seed 2857: the dealer's 天胡 of 30 胡息, (30 − 12) // 3 = 6 囤 from each."""
    env = parallel_env("hunan")
    obs, infos = env.reset(seed=2857)
    assert env.agents == ["seat_0", "seat_1", "seat_2"]
    assert not any(o["action_mask"].any() for o in obs.values())
    _, rewards, terminations, _, infos = env.step({})
    assert rewards == {"seat_0": 12.0, "seat_1": -6.0, "seat_2": -6.0}
    assert all(terminations.values()) and infos["seat_0"]["result"] == "tianhu"
    assert env.agents == []
    with pytest.raises(ZipaiError) as err:
        env.step({})
    assert err.value.code == "bad_option"


def test_refusals_change_nothing():
    env = parallel_env("hunan")
    obs, _ = env.reset(seed=3)
    rng = random.Random(3)
    while env.game.state.window is None or len(env.game.state.window.seats) < 2:
        acting = [a for a in env.agents if obs[a]["action_mask"].any()]
        obs = env.step({a: rng.choice(np.flatnonzero(obs[a]["action_mask"]).tolist())
                        for a in acting})[0]
    acting = [a for a in env.agents if obs[a]["action_mask"].any()]
    legal = {a: int(np.flatnonzero(obs[a]["action_mask"])[-1]) for a in acting}
    done = len(env.game.actions)
    first, last = acting[0], acting[-1]
    cases = [({first: legal[first]}, ZipaiError, f"actions: {last} acts now"),
             ({**legal, last: 1980}, IllegalActionError, f"{last}: action code 1980 outside"),
             ({**legal, last: 0 if not obs[last]["action_mask"][0] else 1},
              IllegalActionError, f"{last}: "),
             ([1, 2], ZipaiError, "actions: list")]
    for actions, error, start in cases:
        with pytest.raises(error) as err:
            env.step(actions)
        assert str(err.value).startswith(start)
        assert len(env.game.actions) == done
    env.step({**legal, "seat_9": "ignored"})  # entries of agents that do not act are ignored
    assert len(env.game.actions) > done


def test_reset_plays_the_deal_given_in_options():
    """``reset(options={"deal": deal})`` was ignored: the parallel env dealt its seed's hand.
    Now the deal, as the AEC env plays it: the deal of seed 5 shows what ``reset(seed=5)``
    shows, whatever the seed given with it; a deal that is no Deal is refused."""
    from zipai_rules.engine.game import shuffled_deal

    env = parallel_env("hunan")
    want, _ = env.reset(seed=5)
    got, _ = env.reset(seed=9, options={"deal": shuffled_deal(load_preset("hunan"), 5)})
    assert all((got[a]["observation"] == want[a]["observation"]).all() for a in want)
    assert env.game.windows
    with pytest.raises(ZipaiError) as refused:
        env.reset(options={"deal": "x1 x2"})
    assert refused.value.code == "bad_argument"
