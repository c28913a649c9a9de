"""Benchmarks behind ``zipai bench``: hand analyses per second and full games per second.

Hands are random 21-card concealed hands built from valid melds (chi-type triples and 坎, no
pair), drawn from one deck each so no card exceeds its copies. Analyses are timed twice:
``cold`` with an empty memo (every hand new to the search) and ``warm`` (the same hands again,
answered from the memo).
"""

from __future__ import annotations

import random
import time

from .analysis import _SEARCHERS, analyze
from .bots import RandomBot, play_out
from .engine.claims import _shapes_with
from .engine.game import Game
from .variant import Variant


def random_meld_hand(variant: Variant, rng: random.Random, size: int = 21) -> list[int]:
    """A random concealed hand of ``size`` cards made only of chi-type triples and 坎."""
    while True:
        left = [variant.copies] * 20
        hand: list[int] = []
        tries = 0
        while len(hand) < size and tries < 200:
            tries += 1
            c = rng.randrange(20)
            if rng.random() < 0.15:
                shape: tuple[int, ...] = (c, c, c)
            else:
                shapes = list(_shapes_with(c))
                shape = rng.choice(shapes)
            need = {i: shape.count(i) for i in shape}
            if all(left[i] >= n for i, n in need.items()):
                for i, n in need.items():
                    left[i] -= n
                hand.extend(shape)
        counts = [hand.count(i) for i in range(20)]
        if len(hand) == size and max(counts) <= 3:
            return hand


def bench_analysis(variant: Variant, hands: int, seed: int) -> tuple[float, float, int]:
    """(cold analyses/s, warm analyses/s, wins) over ``hands`` random meld-built hands."""
    rng = random.Random(seed)
    size = variant.dealer_hand // 3 * 3  # 21 for the 80-card games, 15 for the 14/15 ones
    sample = [random_meld_hand(variant, rng, size) for _ in range(hands)]
    _SEARCHERS.clear()
    t0 = time.perf_counter()
    wins = sum(analyze(variant, h).win for h in sample)
    cold = hands / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for h in sample:
        analyze(variant, h)
    warm = hands / (time.perf_counter() - t0)
    return cold, warm, wins


def bench_games(variant: Variant, games: int, seed: int) -> tuple[float, dict[str, int]]:
    """(games/s, result counts) of ``games`` full games with random bots."""
    counts: dict[str, int] = {}
    t0 = time.perf_counter()
    for k in range(games):
        g = play_out(Game(variant, seed=seed + k),
                     [RandomBot(seed * 7 + k * 3 + s) for s in range(variant.players)])
        counts[g.result.kind] = counts.get(g.result.kind, 0) + 1  # type: ignore[union-attr]
    return games / (time.perf_counter() - t0), counts


def run_bench(variant: Variant, hands: int, games: int, seed: int) -> None:
    """Print both measurements for one variant."""
    cold, warm, wins = bench_analysis(variant, hands, seed)
    print(f"analysis  {variant.id}: {hands} random {variant.dealer_hand // 3 * 3}-card meld hands")
    print(f"  cold memo {cold:12,.0f} analyses/s")
    print(f"  warm memo {warm:12,.0f} analyses/s   ({wins} of them reach {variant.min_huxi} 胡息)")
    rate, counts = bench_games(variant, games, seed)
    print(f"games     {variant.id}: {games} full games, random bots")
    print(f"  {rate:12,.1f} games/s   results: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
