"""The vectorised environment zipai_rules.rl_vector: every slot plays, row for row, what a
single AEC environment plays for the same seeds and codes; a hand over at the deal ends and
pays on the next step; refusals change nothing."""

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from zipai_rules import rl  # noqa: E402
from zipai_rules.engine.seeds import hand_seed  # noqa: E402
from zipai_rules.errors import IllegalActionError, ZipaiError  # noqa: E402
from zipai_rules.rl_vector import vector_env  # noqa: E402


def single_trace(seed: int, rng: random.Random, steps: int):
    """One AEC environment from ``seed`` on (then its series' next hands): per decision
    ``(seat, observation, mask, code)``, per hand end the rewards by seat."""
    env = rl.env("hunan")
    env.reset(seed=seed)
    trace = []
    while sum(1 for t in trace if t[0] == "act") < steps:
        for agent in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            if terminated:
                trace.append(("end", tuple(float(env.rewards[a]) for a in env.possible_agents)))
                break
            code = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            trace.append(("act", int(agent[5:]), obs["observation"].tobytes(),
                          obs["action_mask"].tobytes(), code))
            env.step(code)
        env.reset()
    return trace


def test_each_slot_plays_what_a_single_environment_plays():
    seeds, steps = [5, 6, 7], 70  # about two and a half hands per slot
    venv = vector_env("hunan", 3)
    obs, info = venv.reset(seed=seeds)
    assert obs["observation"].shape == (3, 267) and obs["observation"].dtype == np.int8
    assert obs["action_mask"].shape == (3, 1980) and info["seat"].dtype == np.int64
    rngs = [random.Random(i) for i in range(3)]
    traces: list[list] = [[], [], []]
    while min(sum(1 for t in tr if t[0] == "act") for tr in traces) < steps:
        codes = np.zeros(3, dtype=np.int64)
        for i in range(3):
            seat = int(info["seat"][i])
            if seat >= 0:
                codes[i] = rngs[i].choice(np.flatnonzero(obs["action_mask"][i]).tolist())
                traces[i].append(("act", seat, obs["observation"][i].tobytes(),
                                  obs["action_mask"][i].tobytes(), int(codes[i])))
        obs, rewards, terminated, truncated, info = venv.step(codes)
        assert not truncated.any()
        for i in np.flatnonzero(terminated):
            traces[i].append(("end", tuple(rewards[i].tolist())))
            assert rewards[i].sum() == 0 and info["seat"][i] == -1
        assert not rewards[~terminated].any()
    for i in range(3):
        ends = sum(1 for t in traces[i] if t[0] == "end")
        assert ends >= 1
        expected = single_trace(seeds[i], random.Random(i), steps)
        n = min(len(traces[i]), len(expected))
        assert traces[i][:n] == expected[:n]


def test_a_hand_over_at_the_deal_ends_and_pays_on_the_next_step():
    """Hunan seed 2857 deals the dealer a 天胡 of 30 胡息: (30 − 12) // 3 = 6 囤 from each of
    the other two (docs/settlement.md, hunan), so seat 0 gains 12."""
    venv = vector_env("hunan", 2)
    obs, info = venv.reset(seed=[2857, 7])
    assert info["seat"].tolist() == [-1, 0]
    assert not obs["action_mask"][0].any()
    legal = int(np.flatnonzero(obs["action_mask"][1])[0])
    obs, rewards, terminated, _, info = venv.step([1979, legal])  # slot 0 ignores its code
    assert rewards[0].tolist() == [12.0, -6.0, -6.0] and rewards[1].tolist() == [0, 0, 0]
    assert terminated.tolist() == [True, False] and info["winner"].tolist() == [0, -1]
    assert venv.envs[1].game.actions[0].kind == "discard"
    nxt = int(np.flatnonzero(obs["action_mask"][1])[0])
    obs, rewards, terminated, _, info = venv.step([0, nxt])
    assert not terminated.any() and not rewards.any()
    assert venv.envs[0].game.seed == hand_seed(2857, 2)  # the series' next hand
    assert info["seat"][0] == venv.envs[0].game.actor and obs["action_mask"][0].any()


def test_seeds_and_arguments():
    venv = vector_env("hunan", 2)
    venv.reset(seed=11)
    assert [e.game.seed for e in venv.envs] == [hand_seed(11, 1), hand_seed(11, 2)]
    for bad, code in ((-1, "bad_seed"), ([1, 2, 3], "bad_argument"), ("7", "bad_seed")):
        with pytest.raises(ZipaiError) as err:
            venv.reset(seed=bad)
        assert err.value.code == code
    with pytest.raises(ZipaiError) as err:
        vector_env("hunan", 0)
    assert err.value.code == "bad_argument"
    with pytest.raises(ZipaiError) as err:
        vector_env("hunan", 2).step([0, 0])
    assert err.value.code == "bad_option"


def test_refused_codes_change_no_slot():
    venv = vector_env("hunan", 2)
    obs, info = venv.reset(seed=[8, 7])
    assert info["seat"].tolist() == [0, 0]
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    # seed 7: seat 0 holds a 坎 of x8 (code 7), which Hunan does not let it break
    assert not obs["action_mask"][1][7]
    cases = [([legal[0], 7], IllegalActionError, "env 1: "),
             ([legal[0], 1980], IllegalActionError, "env 1: action code 1980 outside 0..1979"),
             ([legal[0]], ZipaiError, "actions: "), ([0.0, 1.0], ZipaiError, "actions: ")]
    for actions, error, start in cases:
        with pytest.raises(error) as err:
            venv.step(actions)
        assert str(err.value).startswith(start)
        assert [len(e.game.actions) for e in venv.envs] == [0, 0]


def test_the_blocks_of_docs_rl_md_run():
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text("utf-8")
    blocks = [b for b in re.findall(r"^```python\n(.*?)^```$", doc, re.S | re.M)
              if "rl_vector" in b or "rl_parallel" in b]
    assert len(blocks) == 2
    for block in blocks:
        namespace: dict = {}
        exec(compile(block, "docs/rl.md", "exec"), namespace)
    assert namespace["env"].agents == [] and namespace["env"].payments is not None


@pytest.mark.parametrize("module,missing", [("rl_vector", "numpy"),
                                            ("rl_parallel", "pettingzoo")])
def test_without_the_extra_the_import_names_it(module, missing):
    import subprocess
    import sys
    code = (f"import sys; sys.modules[{missing!r}] = None\ntry:\n"
            f"    import zipai_rules.{module}\nexcept ModuleNotFoundError as e:\n"
            "    print(e.name, '|', e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.startswith(f"{missing} | zipai_rules.rl needs {missing}, which "
                                  "zipai_rules does not install: install the [rl] extra")
    assert done.stderr == ""
