"""zipai_rules.rl_opponents: the bots as policies from (observation, mask) alone, the
Gymnasium single-agent environment against fixed opponents, self-play."""

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils import env_checker as checker  # noqa: E402

from zipai_rules import rl  # noqa: E402
from zipai_rules import rl_opponents as ro  # noqa: E402
from zipai_rules.bots import GreedyBot  # noqa: E402
from zipai_rules.engine import Game  # noqa: E402
from zipai_rules.engine.encoding import encode_action  # noqa: E402
from zipai_rules.errors import ZipaiError  # noqa: E402
from zipai_rules.settlement import settle  # noqa: E402


@pytest.mark.parametrize(("preset", "seeds"), [("hunan", range(1, 6)), ("yongzhou", (1, 2)),
                                               ("hunan_two", (3,))])
def test_the_greedy_policy_plays_as_the_bot_with_the_full_state(preset, seeds):
    """Every decision of hands played by greedy bots with the game's state is the decision
    of the greedy policy, seeded alike, that sees only the seat's array and mask."""
    bot, name = GreedyBot, "greedy"
    decisions = 0
    for seed in seeds:
        game, env = Game(preset, seed=seed), rl.raw_env(preset)
        env.reset(seed=seed)
        players = game.variant.players
        bots = [bot(s) for s in range(players)]
        policies = [ro.bot_policy(name, preset, s) for s in range(players)]
        while not game.is_over:
            s = game.actor
            action = bots[s](game.state, game.options(s))
            obs = env.observe(f"seat_{s}")
            assert policies[s](obs["observation"], obs["action_mask"]) == encode_action(action)
            game.apply(action)
            env.step(encode_action(action))
            decisions += 1
    assert decisions > 10 * len(seeds)


def test_the_random_policy_draws_a_legal_code_from_its_seed():
    """The random policy chooses uniformly among the mask's codes (in code order, where the
    bot draws in the engine's order of options: the same law, not the same sequence)."""
    env = rl.raw_env("hunan")
    env.reset(seed=7)
    obs = env.observe("seat_0")
    legal = set(np.flatnonzero(obs["action_mask"]).tolist())
    draws = [ro.bot_policy("random", "hunan", 5)(obs["observation"], obs["action_mask"])
             for _ in range(3)]
    assert len(set(draws)) == 1 and draws[0] in legal  # one seed, one draw
    policy = ro.bot_policy("random", "hunan", 5)
    seen = {policy(obs["observation"], obs["action_mask"]) for _ in range(400)}
    assert seen == legal  # 13 codes, 400 draws: each is drawn (miss chance < 1e-12)


def test_a_bot_policy_refuses_what_it_cannot_read():
    policy = ro.bot_policy("greedy", "hunan")
    with pytest.raises(ZipaiError) as info:
        policy(np.zeros(10, np.int8), np.ones(1980, np.int8))
    assert info.value.code == "bad_argument"
    with pytest.raises(ZipaiError) as info:
        policy(np.zeros(rl.observation_size(3), np.int8), np.zeros(1980, np.int8))
    assert info.value.code == "bad_argument"
    with pytest.raises(ZipaiError) as info:
        ro.bot_policy("alphazero")
    assert info.value.code == "unknown_bot"


def test_play_episode_and_self_play_pay_the_settlement():
    variant = "hunan"
    greedy = [ro.bot_policy("greedy", variant, s) for s in range(3)]
    env = rl.raw_env(variant)
    for seed in (1, 2, 2857):
        ep = ro.play_episode(env, greedy, seed=seed, record=True)
        game = env.game
        payments = settle(game.variant, game.result, events=game.events).payments
        assert ep.rewards == {f"seat_{s}": payments[s] for s in range(3)}
        assert ep.result == str(game.result.kind) and ep.seed == seed
        # every decision recorded, in order: the game's actions by seat
        for s in range(3):
            assert [c for _, _, c in ep.steps[f"seat_{s}"]] == [
                encode_action(a) for a in game.actions if a.seat == s]
    assert ep.result == "tianhu" and ep.steps == {a: [] for a in env.possible_agents}
    random = ro.bot_policy("random", variant, 0)
    episodes = list(ro.self_play(variant, random, hands=4, seed=11, record=False))
    assert [e.seed for e in episodes][0] == 11 and len({e.seed for e in episodes}) == 4
    assert all(sum(e.rewards.values()) == 0 and e.steps == {} for e in episodes)
    with pytest.raises(ZipaiError):
        ro.play_episode(env, {"seat_0": random})


def test_the_single_agent_env_passes_gymnasiums_reset_checks():
    """Gymnasium's checks of the spaces and of reset (its ``check_env`` also steps unmasked
    random codes, which a masked environment refuses); then a masked episode's returns
    are of the declared spaces."""
    single = ro.SingleAgentEnv("hunan", seat=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notes on dict observations
        checker.check_observation_space(single.observation_space)
        checker.check_action_space(single.action_space)
        checker.check_reset_return_type(single)
        checker.check_reset_seed_determinism(single)
        checker.check_reset_options(single)
    obs, _ = single.reset(seed=1)
    done = False
    while not done:
        assert single.observation_space.contains(obs)
        obs, reward, done, truncated, _ = single.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        assert type(reward) is int and not truncated


def test_the_single_agent_env_plays_against_fixed_opponents():
    """Seat 1 learns against two greedy bots; the learner's reward is its payment, 0 before;
    a hand the learner never decides in (seed 2857: the dealer's 天胡) is skipped, named
    in ``info["skipped"]`` with the learner's payment (-6), and the series' next hand dealt."""
    single = ro.SingleAgentEnv("hunan", seat=1)
    obs, info = single.reset(seed=2857)
    assert info["skipped"] == [(2857, -6)]
    assert single.aec.agent_selection == "seat_1" and obs["action_mask"].any()
    for seed in (3, 4):
        obs, info = single.reset(seed=seed)
        assert info == {"skipped": []}
        done, rewards = False, []
        while not done:
            code = int(np.flatnonzero(obs["action_mask"])[0])
            obs, reward, done, truncated, info = single.step(code)
            rewards.append(reward)
            assert not truncated
        game = single.aec.game
        payment = settle(game.variant, game.result, events=game.events).payments[1]
        assert rewards[-1] == payment and not any(rewards[:-1])
        assert info["result"] == str(game.result.kind)
        # the opponents played as greedy bots seated 0 and 2
        for a in game.actions:
            if a.seat != 1:
                assert a.kind is not None
    with pytest.raises(ZipaiError) as refused:
        ro.SingleAgentEnv("hunan", opponents=[ro.bot_policy("random")], seat=0)
    assert refused.value.code == "bad_argument"


def test_the_single_agent_env_with_memory_and_win_lose():
    single = ro.SingleAgentEnv("hunan", seat=2, memory=True, reward="win_lose")
    obs, info = single.reset(seed=2857)
    assert info["skipped"] == [(2857, -1)]
    assert obs["observation"].shape == (rl.observation_size(3, memory=True),)
    done = False
    while not done:
        obs, reward, done, _, info = single.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert reward == (0 if info["winner"] is None else 1 if info["winner"] == 2 else -1)


HOSTILE = [True, 3, 1.5, None, object(), np.int64(3)]


@pytest.mark.parametrize("policies", HOSTILE[:5] + ["greedy"])
def test_policies_that_are_neither_callable_nor_a_collection_are_refused(policies):
    """A policy argument that is no policy, no sequence and no mapping was a ``TypeError``
    (``'int' object is not iterable``) from ``play_episode``, ``self_play`` and
    ``SingleAgentEnv``; now ``bad_argument``."""
    builds = [lambda: ro.play_episode(rl.env("hunan"), policies, 1),
              lambda: next(ro.self_play("hunan", policies, 1))]
    if policies is not None:  # None: SingleAgentEnv's default opponents
        builds.append(lambda: ro.SingleAgentEnv("hunan", opponents=policies))
    for build in builds:
        with pytest.raises(ZipaiError) as refused:
            build()
        assert refused.value.code == "bad_argument"


@pytest.mark.parametrize("env", [None, "hunan", 3, rl.ZipaiEnv])
def test_play_episode_refuses_what_is_no_environment(env):
    with pytest.raises(ZipaiError) as refused:
        ro.play_episode(env, ro.bot_policy("random"), 1)
    assert refused.value.code == "bad_argument"


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True, np.int64(3), 2 ** 10000])
def test_the_single_agent_env_refuses_a_bad_seed_as_the_aec_env_does(seed):
    """Gymnasium's own ``Error`` (``Seed must be a python integer``) came first; now the
    environment's ``bad_seed``, as ``rl.env().reset`` says it."""
    with pytest.raises(ZipaiError) as refused:
        ro.SingleAgentEnv("hunan").reset(seed=seed)
    assert refused.value.code == "bad_seed"


@pytest.mark.parametrize("name, seed, code", [
    (["greedy"], None, "unknown_bot"), ({}, None, "unknown_bot"),
    ("random", "7", "bad_seed"), ("random", 1.5, "bad_seed"), ("random", True, "bad_seed"),
    ("random", [1], "bad_seed"), ("random", -1, "bad_seed")])
def test_bot_policy_refuses_a_name_or_seed_of_the_wrong_type(name, seed, code):
    """An unhashable name was a ``TypeError``; a seed of any type was taken
    (``random.Random("7")``) or a ``TypeError``."""
    with pytest.raises(ZipaiError) as refused:
        ro.bot_policy(name, "hunan", seed)
    assert refused.value.code == code


def test_the_single_agent_env_refuses_a_step_before_reset_or_after_the_end():
    """A step after ``terminated`` was PettingZoo's ``ValueError`` ("when an agent is dead,
    the only valid action is None"), or a ``KeyError`` for ``None``; now ``hand_over``.
    Before any reset: ``bad_option``, as the AEC env refuses."""
    single = ro.SingleAgentEnv("hunan", opponents=ro.bot_policy("random"))
    with pytest.raises(ZipaiError) as refused:
        single.step(0)
    assert refused.value.code == "bad_option"
    obs, _ = single.reset(seed=1)
    done = False
    while not done:
        obs, _, done, _, _ = single.step(int(np.flatnonzero(obs["action_mask"])[0]))
    for code in (0, None):
        with pytest.raises(ZipaiError) as refused:
            single.step(code)
        assert refused.value.code == "hand_over"
    single.reset()  # and the next hand plays
    assert single.aec.agents
