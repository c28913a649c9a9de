"""A baseline agent for ``zipai_rules.rl`` (extra ``[rl]``; NumPy only): a linear masked
softmax policy trained by REINFORCE against random opponents, then measured against the
random bot by ``zipai_rules.arena`` (every deal played once per seating, paired z-test).

The policy scores each legal action code ``a`` as ``theta · phi(observation, a)`` and plays
the softmax of the scores over the codes the ``action_mask`` allows (the illegal ones get no
probability). ``phi`` is 15 numbers read from the observation array alone: the action's kind
(discard, 碰, 跑, 胡, pass, 吃), and for a discard what the card means to the hand (how many
of it the hand holds, whether its neighbours in the run or its other-size twin are held, a
二七十 card); for a 吃 how many melds it lays. With ``theta = 0`` it is the random bot.

Training: episode ``k`` is the hand of seed ``k`` (the Hunan preset, three seats); the agent
plays seat ``k mod 3`` and random masked agents the others. At the hand's end its reward is
its payment (units, the environment's reward), and every decision it took moves ``theta`` by
``lr * (reward - baseline) * (phi(a) - E_pi[phi])`` (the score-function gradient of a softmax;
the baseline is a running mean of the rewards).

``python examples/rl_baseline.py [EPISODES] [DEALS]`` (default 3000 episodes, then 300
arena deals from seed 1,000,001: 900 games). ``ZIPAI_EXAMPLE_GAMES`` sets the default number
of episodes (the test suite runs 40, and 10 arena deals). The learning curve of the full run
is in docs/rl.md.
"""

import os
import sys
import time

import numpy as np

from zipai_rules import rl
from zipai_rules.arena import Policy, arena, format_arena

KIND_START = (0, 21, 41, 61, 83, 84)  # first code of: discard, 碰, 跑, 胡, pass, 吃
HU_NONE = 82                         # 胡 with no incoming card (the 胡 block is 61..82)
N_FEATURES = 15


def features(obs: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``phi``: one row of ``N_FEATURES`` numbers per legal action code, from the observation
    array (its first 21 entries are the agent's hand, a count per card: x1..x10, d1..d10,
    the 王) and the codes (docs/rl.md's layout)."""
    hand = obs[:21].astype(np.float64)
    phi = np.zeros((len(codes), N_FEATURES))
    kind = np.searchsorted(KIND_START, codes, side="right") - 1
    phi[np.arange(len(codes)), kind] = 1.0
    for row, code in enumerate(codes):
        if code < 20:  # a discard of card ``code``: what the hand keeps of it
            size, number = divmod(int(code), 10)
            left = hand[code - 1] if number > 0 else 0.0
            right = hand[code + 1] if number < 9 else 0.0
            phi[row, 6] = hand[code] == 1
            phi[row, 7] = hand[code] == 2
            phi[row, 8] = left > 0
            phi[row, 9] = right > 0
            phi[row, 10] = (number > 1 and hand[code - 2] > 0) or (number < 8
                                                                   and hand[code + 2] > 0)
            phi[row, 11] = hand[code + 10 if size == 0 else code - 10] > 0
            phi[row, 12] = number in (1, 6, 9)  # 二七十
            phi[row, 13] = phi[row, 8:12].sum() == 0  # a card nothing near it in the hand
        elif code >= KIND_START[5]:
            phi[row, 14] = 1.0  # a 吃 (its plan; the kind column says 吃 too)
    return phi


def probabilities(theta: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """The softmax of ``phi @ theta`` (the legal codes' probabilities)."""
    z = phi @ theta
    z = np.exp(z - z.max())
    return z / z.sum()


def policy_of(theta: np.ndarray, seed: int = 0):
    """The trained policy as an ``(observation, mask) -> code`` function (it samples from the
    softmax with its own seeded generator)."""
    rng = np.random.default_rng(seed)

    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        codes = np.flatnonzero(mask)
        p = probabilities(theta, features(obs, codes))
        return int(codes[rng.choice(len(codes), p=p)])
    return act


def train(episodes: int, lr: float = 0.02, seed: int = 1, every: int = 500,
          variant: str = "hunan"):
    """REINFORCE for ``episodes`` hands (seeds ``seed``..); ``theta`` and the curve: per
    block of ``every`` episodes, the agent's win rate and mean reward."""
    env = rl.raw_env(variant)
    n = len(env.possible_agents)
    rng = np.random.default_rng(seed)
    theta = np.zeros(N_FEATURES)
    baseline, curve, block = 0.0, [], []
    for k in range(episodes):
        env.reset(seed=seed + k)
        me = k % n
        steps = []  # (phi of the legal codes, the index chosen) of the agent's decisions
        while not env.game.is_over:
            agent = env.agent_selection
            obs = env.observe(agent)
            codes = np.flatnonzero(obs["action_mask"])
            if env.agent_name_mapping[agent] == me:
                phi = features(obs["observation"], codes)
                i = rng.choice(len(codes), p=probabilities(theta, phi))
                steps.append((phi, i))
            else:
                i = rng.integers(len(codes))  # a random masked opponent
            env.step(int(codes[i]))
        reward = float((env.payments or [0] * n)[me])
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for phi, i in steps:
            theta += lr * advantage * (phi[i] - probabilities(theta, phi) @ phi)
        block.append((env.game.result.winner == me, reward))
        if len(block) == every or k == episodes - 1:
            won, got = np.array(block, dtype=float).T
            curve.append((k + 1, won.mean(), got.mean()))
            block = []
    return theta, curve


def main(episodes: int, deals: int) -> None:
    t0 = time.perf_counter()
    theta, curve = train(episodes, every=max(1, min(500, episodes // 6)))
    seconds = time.perf_counter() - t0
    print(f"trained {episodes} episodes in {seconds:.1f} s")
    print("episodes  win rate  mean reward (the agent's seat, against 2 random agents)")
    for done, won, got in curve:
        print(f"{done:>8}  {won:>7.1%}  {got:>+11.3f}")
    print("theta:", " ".join(f"{t:+.2f}" for t in theta))
    result = arena([Policy(policy_of(theta), "baseline"), "random", "random"], games=deals,
                   seed=1_000_001)
    print(format_arena(result))


USAGE = ("usage: python examples/rl_baseline.py [EPISODES] [DEALS]: EPISODES ≥ 0 (default "
         "3000), DEALS 1..1000000 (default 300), ASCII digits")


if __name__ == "__main__":
    small = os.environ.get("ZIPAI_EXAMPLE_GAMES")  # run by the test suite: a short run
    argv = [small, "10"] if small else sys.argv[1:]
    if len(argv) > 2 or not all(a.isascii() and a.isdigit() for a in argv) or (
            len(argv) == 2 and not 1 <= int(argv[1]) <= 1_000_000):
        sys.exit(USAGE)  # a typo ("-3", "abc") no longer runs the default 3000 episodes
    main(int(argv[0]) if argv else 3000, int(argv[1]) if len(argv) > 1 else 300)
