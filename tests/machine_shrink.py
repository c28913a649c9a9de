"""Measure how ZipaiMachine finds and shrinks the planted bugs of tests/machine_bugs.py, and
its share of invalid runs (issue 27). A development script, not a test:

    PYTHONPATH=src python tests/machine_shrink.py [bug ...] [--seeds N] [--examples M]
        [--steps S] [--invalid]

For each bug and hypothesis seed 0..N-1: whether a failure was found within M runs of S
steps, the processor seconds to find it and to shrink it (and the shrink phase's wall-clock
seconds, ``shrink_wall``), the shrink attempts, the shrunk run's
rule steps, its actions, and how far its deal is from the deal of seed 0 (cards out of
place). ``--invalid``: M runs of S steps of the plain machine on two seeds, and the invalid
runs hypothesis counts (its ``--hypothesis-show-statistics`` numbers).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import hypothesis.core  # noqa: E402
from hypothesis import HealthCheck, Phase, settings  # noqa: E402
from hypothesis.statistics import collector  # noqa: E402

from machine_bugs import BUGS, HUNAN, overpaid_win  # noqa: E402
from zipai_rules.engine import Game  # noqa: E402
from zipai_rules.testing import machine_for  # noqa: E402

BASE = Game(HUNAN, seed=0).deal


def _order(deal: Any) -> list[int]:
    return [c for h in deal.hands for c in h] + list(deal.wall) + list(deal.aside)


def distance(deal: Any) -> int:
    """Cards out of place against the deal of seed 0."""
    return sum(a != b for a, b in zip(_order(deal), _order(BASE), strict=True))


def run(machine: Any, seed: int, examples: int, steps: int,
        verbose: bool = False) -> dict[str, Any]:
    failures: list[tuple[float, Any]] = []
    stats: dict[str, Any] = {}

    def on_failure(game: Any, problem: str) -> None:
        failures.append((time.process_time(), game))

    machine.on_failure = staticmethod(on_failure)
    machine.TestCase.settings = settings(
        max_examples=examples, stateful_step_count=steps, database=None, deadline=None,
        phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))
    hypothesis.core.global_force_seed = seed
    start, cpu = time.perf_counter(), time.process_time()
    found, notes = False, []
    try:
        with collector.with_value(stats.update):
            if machine.__name__ == "Settling":
                with overpaid_win():
                    machine.TestCase("runTest").runTest()
            else:
                machine.TestCase("runTest").runTest()
    except AssertionError as exc:
        found, notes = True, getattr(exc, "__notes__", [])
    end, cpu_end = time.perf_counter(), time.process_time()
    out: dict[str, Any] = {"seed": seed, "found": found, "seconds": end - start}
    if found:
        shrink = stats.get("shrink-phase", {})
        out["find"] = failures[0][0] - cpu  # processor seconds: the machine is shared
        out["shrink"] = cpu_end - failures[0][0]
        out["shrink_wall"] = shrink.get("duration-seconds", 0.0)
        out["shrinks"] = len(shrink.get("test-cases", []))
        lines = [ln.strip() for n in notes for ln in n.splitlines()]
        out["steps"] = sum(1 for ln in lines if ln.startswith("state.")
                           and "invariants" not in ln and "teardown" not in ln)
        game = failures[-1][1]
        out["actions"] = len(game.actions)
        out["distance"] = distance(game.deal)
        if verbose:
            print("\n".join(notes))
    return out


def invalid(examples: int, steps: int, seeds: list[int]) -> None:
    for seed in seeds:
        stats: dict[str, Any] = {}
        m = machine_for(HUNAN, check_records=False)
        m.TestCase.settings = settings(max_examples=examples, stateful_step_count=steps,
                                       database=None, deadline=None,
                                       suppress_health_check=list(HealthCheck))
        hypothesis.core.global_force_seed = seed
        start = time.perf_counter()
        with collector.with_value(stats.update):
            m.TestCase("runTest").runTest()
        cases = stats["generate-phase"]["test-cases"]
        bad = sum(1 for c in cases if c["status"] in ("invalid", "overrun"))
        valid = sum(1 for c in cases if c["status"] == "valid")
        events: dict[str, int] = {}
        for c in cases:
            for e in c["events"]:
                events[e] = events.get(e, 0) + 1
        print(f"seed {seed}: {valid} valid, {bad} invalid of {len(cases)} runs "
              f"({time.perf_counter() - start:.0f} s); events {events}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("bugs", nargs="*", default=list(BUGS))
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--examples", type=int, default=100)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--invalid", action="store_true")
    ap.add_argument("--first", type=int, default=0, help="the first hypothesis seed")
    ap.add_argument("--verbose", action="store_true", help="print each shrunk run")
    args = ap.parse_args()
    if args.invalid:
        invalid(args.examples, args.steps, [0, 1])
        return
    for name in args.bugs:
        rows = []
        for seed in range(args.first, args.first + args.seeds):
            row = run(BUGS[name], seed, args.examples, args.steps, args.verbose)
            rows.append(row)
            print(name, {k: round(v, 1) if isinstance(v, float) else v
                         for k, v in row.items()}, flush=True)
        hit = [r for r in rows if r["found"]]
        if hit:
            print(f"{name}: found in {len(hit)}/{len(rows)}; shrink s median "
                  f"{statistics.median(r['shrink'] for r in hit):.1f} max "
                  f"{max(r['shrink'] for r in hit):.1f}; steps "
                  f"{sorted(r['steps'] for r in hit)}; actions "
                  f"{sorted(r.get('actions', -1) for r in hit)}; deal distance "
                  f"{sorted(r.get('distance', -1) for r in hit)}", flush=True)
        else:
            print(f"{name}: found in 0/{len(rows)}", flush=True)


if __name__ == "__main__":
    main()
