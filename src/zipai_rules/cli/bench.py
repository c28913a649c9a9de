"""``zipai bench``: analyses per second and games per second, or the peak memory of
``zipai simulate``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from ..bench import bench_analysis, bench_games, simulate_peak_rss
from ..errors import ZipaiError
from ..simulate import max_jobs
from ..variant import Variant
from .common import VARIANT_HELP, count, count_list, variant_arg


def add_parser(sub: Any) -> None:
    """Register ``zipai bench`` on an argparse subparsers object."""
    be = sub.add_parser("bench", help="measure analyses per second and games per second")
    be.add_argument("--variant", default="hunan", help=VARIANT_HELP)
    be.add_argument("--hands", type=count(1), default=20_000,
                    help="random hands to analyse (default 20000)")
    be.add_argument("--games", type=count(1), default=300,
                    help="full games with random bots (default 300)")
    be.add_argument("--seed", type=count(0), default=1, help="seed (default 1)")
    be.add_argument("--memory", type=count_list, metavar="N,N,...",
                    help="instead: peak memory of `zipai simulate` for these numbers of games "
                    "(Linux)")
    be.add_argument("--memory-jobs", type=count_list, default=[1, 2], metavar="J,J,...",
                    help="with --memory: the --jobs values to measure (default 1,2)")
    be.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.memory:
        if max(args.memory_jobs) > max_jobs():
            raise ZipaiError(f"--memory-jobs {max(args.memory_jobs)} is above the number of "
                             f"CPUs ({max_jobs()})", code="bad_option")
        variant_arg(args.variant, args)  # refuse an unknown variant before starting
        run_memory_bench(args.variant, args.memory, args.memory_jobs)
        return 0
    run_bench(variant_arg(args.variant, args), hands=args.hands, games=args.games,
              seed=args.seed)
    return 0


def run_bench(variant: Variant, hands: int, games: int, seed: int) -> None:
    """Print both measurements for one variant."""
    cold, warm, wins = bench_analysis(variant, hands, seed)
    size = variant.deal.dealer_hand // 3 * 3
    print(f"analysis  {variant.id}: {hands} random {size}-card meld hands")
    print(f"  cold memo {cold:12,.0f} analyses/s")
    print(f"  warm memo {warm:12,.0f} analyses/s   "
          f"({wins} of them reach {variant.win.min_huxi} 胡息)")
    rate, counts = bench_games(variant, games, seed)
    print(f"games     {variant.id}: {games} full games, random bots")
    print(f"  {rate:12,.1f} games/s   results: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


def run_memory_bench(variant: str, games: Sequence[int], jobs: Sequence[int]) -> None:
    """Print the peak memory of ``zipai simulate`` for each number of games and jobs."""
    print(f"peak RSS of `zipai simulate --variant {variant}` (total: the process and its "
          "workers, sampled; largest: one process, kernel peak)")
    print(f"  {'games':>7} {'jobs':>4} {'seconds':>8} {'total MB':>9} {'largest MB':>10}")
    for j in jobs:
        for n in games:
            seconds, total, largest = simulate_peak_rss(variant, n, j)
            print(f"  {n:7} {j:4} {seconds:8.1f} {total / 2**20:9.1f} {largest / 2**20:10.1f}")
