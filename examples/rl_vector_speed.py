"""Steps per second of the vectorised environment against N single AEC environments (extra
``[rl]``): random masked agents and a small NumPy policy (one hidden layer of 64), Hunan.

``N single``: N ``rl.env()`` stepped in turn, one step each per round, the policy asked once
per environment (a 1-row forward pass). ``vector``: one ``rl_vector.vector_env(N)``, the
policy asked once per round for all N rows. Each runs until it has made ``STEPS`` steps.

``python examples/rl_vector_speed.py [STEPS] [N ...]`` (``ZIPAI_EXAMPLE_GAMES`` sets a
short default, as the test suite does)
"""

import os
import sys
import time

import numpy as np

from zipai_rules import rl
from zipai_rules.rl_vector import vector_env


class Policy:
    """A random masked choice, or a one-layer network's masked argmax (``hidden`` > 0)."""

    def __init__(self, size: int, codes: int, hidden: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.rng, self.hidden = rng, hidden
        if hidden:
            self.w1 = rng.normal(0, 0.1, (size, hidden)).astype(np.float32)
            self.w2 = rng.normal(0, 0.1, (hidden, codes)).astype(np.float32)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """One code per row of ``obs`` (``[B, size]``), among the 1s of ``mask``."""
        if self.hidden:
            score = np.maximum(obs.astype(np.float32) @ self.w1, 0) @ self.w2
        else:
            score = self.rng.random(mask.shape, dtype=np.float32)
        score = np.where(mask > 0, score, -np.inf)
        return score.argmax(axis=1)


def single(n: int, steps: int, hidden: int) -> float:
    envs = [rl.env("hunan") for _ in range(n)]
    for k, env in enumerate(envs):
        env.reset(seed=k + 1)
    policy = Policy(rl.observation_size(3), 1980, hidden)
    done, t0 = 0, time.perf_counter()
    while done < steps:
        for env in envs:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                if not env.agents:
                    env.reset()
                continue
            code = policy(obs["observation"][None], obs["action_mask"][None])[0]
            env.step(int(code))
            done += 1
    return done / (time.perf_counter() - t0)


def vector(n: int, steps: int, hidden: int) -> float:
    venv = vector_env("hunan", n)
    obs, info = venv.reset(seed=1)
    policy = Policy(venv.observation_size, venv.num_actions, hidden)
    done, t0 = 0, time.perf_counter()
    while done < steps:
        acting = info["seat"] >= 0
        codes = np.zeros(n, dtype=np.int64)
        if acting.any():
            codes[acting] = policy(obs["observation"][acting], obs["action_mask"][acting])
        obs, _, _, _, info = venv.step(codes)
        done += int(acting.sum())
    return done / (time.perf_counter() - t0)


def main() -> None:
    short = os.environ.get("ZIPAI_EXAMPLE_GAMES")
    argv = sys.argv[1:]
    if not all(a.isdigit() for a in argv):  # run by a test runner: its own arguments
        argv = []
    steps = int(argv[0]) if argv else (200 if short else 20_000)
    sizes = [int(a) for a in argv[1:]] or ([4] if short else [1, 16, 64])
    print(f"steps/s, Hunan, {steps} steps each")
    print(f"{'N':>4} {'policy':>8} {'N single':>10} {'vector':>10} {'ratio':>6}")
    for n in sizes:
        for hidden, name in ((0, "random"), (64, "mlp 64")):
            a, b = single(n, steps, hidden), vector(n, steps, hidden)
            print(f"{n:>4} {name:>8} {a:>10,.0f} {b:>10,.0f} {b / a:>6.2f}")


if __name__ == "__main__":
    main()
