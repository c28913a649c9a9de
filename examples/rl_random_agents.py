"""Random masked agents in the PettingZoo environment (extra ``[rl]``): nothing is trained.
Each agent picks uniformly among the codes its ``action_mask`` allows; 1,000 hands of Hunan
跑胡子 (seeds 1..1000), then each seat's win rate, the 荒庄 rate, the mean reward per seat
(the settlement's payments) and the environment's speed in steps per second.

``python examples/rl_random_agents.py [GAMES] [VARIANT]`` (``ZIPAI_EXAMPLE_GAMES`` sets the
default number of hands, as the test suite does to keep it short)
"""

import os
import sys
import time

import numpy as np

from zipai_rules import rl


def play(games: int, variant: str = "hunan", seed: int = 1) -> dict:
    """Play ``games`` hands (seeds ``seed``..) with random masked agents; the tallies."""
    env = rl.env(variant)
    rng = np.random.default_rng(seed)
    n = len(env.possible_agents)
    wins, rewards, huangzhuang, steps = [0] * n, [0] * n, 0, 0
    t0 = time.perf_counter()
    for k in range(games):
        env.reset(seed=seed + k)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                seat = int(agent.split("_")[1])
                rewards[seat] += reward
                if seat == 0:  # the hand's result, counted once
                    if info["winner"] is None:
                        huangzhuang += 1
                    else:
                        wins[info["winner"]] += 1
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    seconds = time.perf_counter() - t0
    return {"games": games, "wins": wins, "huangzhuang": huangzhuang, "rewards": rewards,
            "steps": steps, "seconds": seconds}


if __name__ == "__main__":
    argv = sys.argv[1:3]
    if not argv or not argv[0].isdigit():  # run by a test runner: its own arguments
        argv = [os.environ.get("ZIPAI_EXAMPLE_GAMES", "1000")]
    games = int(argv[0])
    t = play(games, argv[1] if len(argv) > 1 else "hunan")
    for seat, (w, r) in enumerate(zip(t["wins"], t["rewards"], strict=True)):
        print(f"seat_{seat}: wins {w / games:6.1%}, mean reward {r / games:+.2f}")
    print(f"荒庄 (nobody wins): {t['huangzhuang'] / games:6.1%}")
    print(f"{t['steps']} steps in {t['seconds']:.1f} s: "
          f"{t['steps'] / t['seconds']:.0f} steps/s, {games / t['seconds']:.1f} games/s")
