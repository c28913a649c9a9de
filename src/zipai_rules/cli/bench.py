"""``zipai bench``: analyses per second beside the naive reference, waits per second, games per
second per preset and the peak memory; or the peak memory of ``zipai simulate``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from ..bench import (
    bench_analysis,
    bench_env,
    bench_games,
    bench_presets,
    bench_waits,
    build_info,
    games_summary,
    peak_rss,
    simulate_peak_rss,
)
from ..errors import ZipaiError
from ..presets import preset_ids
from ..simulate import default_bots, max_jobs
from ..variant import Variant
from .common import VARIANT_HELP, count, count_list, variant_arg


def add_parser(sub: Any) -> None:
    """Register ``zipai bench`` on an argparse subparsers object."""
    be = sub.add_parser("bench", help="measure analyses, waits and games per second")
    be.add_argument("--variant", default=None,
                    help=VARIANT_HELP.replace("%(default)s", "hunan") + "; the analyses use "
                    "it, and when it is given the games are played in it alone instead of in "
                    "every preset")
    be.add_argument("--hands", type=count(1), default=20_000,
                    help="random hands to analyse (default 20000)")
    be.add_argument("--waits", type=count(0), default=1000,
                    help="random hands whose waits are listed (default 1000)")
    be.add_argument("--games", type=count(0), default=80,
                    help="full games per preset, with zipai simulate's default bots "
                    "(default 80)")
    be.add_argument("--env-hands", type=count(0), default=100,
                    help="hands of the RL environment with random masked agents, 0 for none "
                    "(default 100; needs the [rl] extra)")
    be.add_argument("--seed", type=count(0), default=1, help="seed (default 1)")
    be.add_argument("--json", action="store_true", help="print the figures as JSON")
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
        name = args.variant or "hunan"
        variant_arg(name, args)  # refuse an unknown variant before starting
        run_memory_bench(name, args.memory, args.memory_jobs)
        return 0
    variant = variant_arg(args.variant or "hunan", args)
    figures = measure(variant, hands=args.hands, waits=args.waits, games=args.games,
                      seed=args.seed, every_preset=args.variant is None)
    add_env(figures, variant, args.env_hands, args.seed)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=2))
    else:
        print_figures(figures)
    return 0


def measure(variant: Variant, hands: int, waits: int, games: int, seed: int,
            every_preset: bool) -> dict[str, Any]:
    """Every figure of one run, as ``--json`` prints them."""
    out: dict[str, Any] = {"build": build_info(),
                           "analysis": bench_analysis(variant, hands, seed)}
    if waits:
        out["waits"] = bench_waits(variant, waits, seed)
    if games:
        if every_preset:
            out["games"] = bench_presets(games, seed, preset_ids())
        else:
            rate, counts = bench_games(variant, games, seed)
            out["games"] = [{"variant": variant.id, "games": games, "games_per_s": rate,
                             "results": counts}]
        out["bots"] = "zipai simulate's default bots: " + ", ".join(default_bots(4))
        out["games_summary"] = games_summary(out["games"])
    out["peak_rss_mib"] = round(peak_rss() / 2**20, 1)
    return out


def print_figures(f: dict[str, Any]) -> None:
    """The figures of :func:`measure` as text."""
    print(f"build     {f['build']['name']}, Python {f['build']['python']}")
    a = f["analysis"]
    print(f"analysis  {a['variant']}: {a['hands']} random {a['size']}-card meld hands "
          f"({a['wins']} of them win; block tables built in {a['tables_seconds']:.2f} s; "
          f"each rate the median of {a['passes']} passes)")
    print(f"  analyze, cold       {a['analyze']:12,.0f} hands/s   "
          f"{a['analyze_vs_reference']:8.1f} x reference   "
          f"{a['analyze_vs_oracle']:6.2f} x DP oracle")
    print(f"  verdict (counts)    {a['verdict']:12,.0f} hands/s   "
          f"{a['verdict_vs_reference']:8.1f} x reference   "
          f"{a['verdict_vs_oracle']:6.2f} x DP oracle")
    print(f"  with decomposition  {a['decomposed']:12,.0f} hands/s")
    print(f"  naive reference     {a['reference']:12,.0f} hands/s   "
          f"(zipai_rules.reference, first {a['reference_hands']} hands)")
    print(f"  DP oracle, cold     {a['oracle']:12,.0f} hands/s   "
          "(zipai_rules.reference.dp_best_huxi, a plain memoised DP)")
    if "waits" in f:
        w = f["waits"]
        print(f"waits     {w['hands']} hands: {w['waits']:,.0f} hands/s "
              f"({w['found']} waits found)")
    if "games" in f:
        print_games_header(f)
        for g in f["games"]:
            print(f"games     {g['variant']}: {g['games']} full games "
                  f"{g['games_per_s']:9,.1f} games/s   results: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(g["results"].items())))
    if "games_summary" in f:
        g = f["games_summary"]
        below = ", ".join(g["below_target"]) or "none"
        print(f"  slowest {g['slowest']} {g['slowest_games_per_s']:,.1f} games/s; below "
              f"{g['target']:,} games/s: {below}")
    print_env(f)
    print(f"peak RSS  {f['peak_rss_mib']:.1f} MiB")


def print_games_header(f: dict[str, Any]) -> None:
    """The line before the games: the build in use and the bots."""
    print(f"games     build: {f['build']['name']}, Python {f['build']['python']}; "
          f"{f['bots']}; one core")


def add_env(figures: dict[str, Any], variant: Variant, hands: int, seed: int) -> None:
    """The RL environment's steps per second (:func:`~zipai_rules.bench.bench_env`) into
    ``figures["env"]``, when ``hands`` and the ``[rl]`` extra are there."""
    if not hands:
        return
    try:
        figures["env"] = bench_env(variant, hands, seed)
    except ModuleNotFoundError as exc:  # no [rl] extra: say so, measure the rest
        figures["env"] = {"skipped": str(exc)}


def print_env(f: dict[str, Any]) -> None:
    """The environment's line of :func:`print_figures`."""
    e = f.get("env")
    if e is None:
        return
    if "skipped" in e:
        print(f"env       skipped: {e['skipped']}")
        return
    print(f"env       {e['variant']}: rl.env, random masked agents, {e['hands']} hands "
          f"({e['steps']} steps) {e['env']:9,.0f} steps/s; the engine alone on the same "
          f"actions {e['engine']:9,.0f} steps/s ({e['env_vs_engine']:.2f} x; median of "
          f"{e['passes']}, CPU time)")


def run_memory_bench(variant: str, games: Sequence[int], jobs: Sequence[int]) -> None:
    """Print the peak memory of ``zipai simulate`` for each number of games and jobs."""
    print(f"peak RSS of `zipai simulate --variant {variant}` (total: the process and its "
          "workers, sampled; largest: one process, kernel peak)")
    print(f"  {'games':>7} {'jobs':>4} {'seconds':>8} {'total MB':>9} {'largest MB':>10}")
    for j in jobs:
        for n in games:
            seconds, total, largest = simulate_peak_rss(variant, n, j)
            print(f"  {n:7} {j:4} {seconds:8.1f} {total / 2**20:9.1f} {largest / 2**20:10.1f}")
