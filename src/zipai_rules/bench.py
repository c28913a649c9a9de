"""Benchmarks behind ``zipai bench`` (which prints them): hand analyses per second beside the
naive reference decomposer, waits per second, full games per second per preset (with the
build in use, pure Python or compiled: :func:`build_info`), and the peak memory.

Hands are random concealed hands built from valid melds (chi-type triples and 坎, no pair),
drawn from one deck each so no card exceeds its copies. Each analysis rate is measured on the
same hands, in one run, so that their ratios hold on a shared machine where the absolute
figures do not, and each is the median of :data:`PASSES` passes over them:

* ``analyze``: the full :func:`~zipai_rules.analysis.analyze` (input checks, the verdict;
  the decomposition is not read), with an empty memo (*cold*);
* ``verdict``: :func:`~zipai_rules.analysis.verdict` on the hands' counts (the fast entry);
* ``decomposed``: ``analyze`` with its best decomposition read (the search runs), cold;
* ``reference``: :func:`zipai_rules.reference.best_huxi`, the brute-force oracle of the
  tests, on the first hands (it is slow);
* ``oracle``: :func:`zipai_rules.reference.dp_best_huxi`, a plain memoised Python DP that
  shares no code with the library, on every hand, its memo emptied before each pass (*cold*,
  as ``analyze``): the baseline of the ratios ``analyze_vs_oracle`` and ``verdict_vs_oracle``
  (issue 28's target: ``analyze`` at 4.5 times it or more).
"""

from __future__ import annotations

import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from . import reference
from .analysis import analyze, clear_searchers, searcher, verdict, waits
from .cards import KING
from .melds import chi_shapes_with
from .native import build_name, compiled, compiled_modules
from .presets import load_preset, preset_ids
from .simulate import default_bots, play_game, prepare
from .variant import Variant


def random_meld_hand(variant: Variant, rng: random.Random, size: int = 21) -> list[int]:
    """A random concealed hand of ``size`` cards made only of chi-type triples and 坎."""
    while True:
        left = [variant.deck.copies] * 20
        hand: list[int] = []
        tries = 0
        while len(hand) < size and tries < 200:
            tries += 1
            c = rng.randrange(20)
            if rng.random() < 0.15:
                shape: tuple[int, ...] = (c, c, c)
            else:
                shapes = list(chi_shapes_with(c))
                shape = rng.choice(shapes)
            need = {i: shape.count(i) for i in shape}
            if all(left[i] >= n for i, n in need.items()):
                for i, n in need.items():
                    left[i] -= n
                hand.extend(shape)
        counts = [hand.count(i) for i in range(20)]
        if len(hand) == size and max(counts) <= 3:
            return hand


def _rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


#: how many times each analysis rate is measured over the same hands; the median is given
PASSES = 5


def _median_rate(run: Callable[[], None], n: int, before: Callable[[], None] | None = None
                 ) -> float:
    """The median rate (``n`` per second) of :data:`PASSES` timed calls of ``run``, each
    after ``before`` (untimed) when given: a pass of 20,000 verdicts lasts about 40 ms, which
    one pause of a shared machine can halve."""
    rates = []
    for _ in range(PASSES):
        if before is not None:
            before()
        t0 = time.perf_counter()
        run()
        rates.append(_rate(n, time.perf_counter() - t0))
    return statistics.median(rates)


def bench_analysis(variant: Variant, hands: int, seed: int,
                   reference_hands: int = 300) -> dict[str, Any]:
    """Analyses per second of ``hands`` random meld-built hands, each way listed in the module
    docstring, with the number of wins and the seconds the block tables took to build."""
    rng = random.Random(seed)
    size = variant.deal.dealer_hand // 3 * 3  # 21 for the 80-card games, 15 for the 14/15 ones
    sample = [random_meld_hand(variant, rng, size) for _ in range(hands)]
    counts = [[h.count(i) for i in range(KING + 1)] for h in sample]
    clear_searchers()
    t0 = time.perf_counter()
    searcher(variant)  # builds (or finds) the block tables
    tables = time.perf_counter() - t0
    clear_searchers()
    searcher(variant)
    for h in sample[:1]:
        analyze(variant, h)  # first uses, untimed
    wins = 0  # counted by each pass of analyze_all

    def cold() -> None:  # each pass starts with an empty memo
        clear_searchers()
        searcher(variant)

    def analyze_all() -> None:
        nonlocal wins
        wins = sum(analyze(variant, h).win for h in sample)

    def verdict_all() -> None:
        for c in counts:
            verdict(variant, c)

    def decompose_all() -> None:
        for h in sample:
            analyze(variant, h).best  # noqa: B018  (reading it runs the search)

    few = sample[:reference_hands]

    def reference_all() -> None:
        for h in few:
            reference.best_huxi(h)

    def oracle_all() -> None:
        for h in sample:
            reference.dp_best_huxi(h)

    cold_rate = _median_rate(analyze_all, hands, cold)
    fast = _median_rate(verdict_all, hands)
    oracle = _median_rate(oracle_all, hands, reference.clear_dp)
    decomposed = _median_rate(decompose_all, hands, cold)
    ref = _median_rate(reference_all, len(few))
    return {"variant": variant.id, "hands": hands, "size": size, "wins": wins,
            "tables_seconds": tables, "analyze": cold_rate, "verdict": fast,
            "decomposed": decomposed, "reference_hands": len(few), "reference": ref,
            "analyze_vs_reference": cold_rate / ref, "verdict_vs_reference": fast / ref,
            "oracle": oracle, "analyze_vs_oracle": cold_rate / oracle,
            "verdict_vs_oracle": fast / oracle, "passes": PASSES}


def bench_waits(variant: Variant, hands: int, seed: int) -> dict[str, Any]:
    """:func:`~zipai_rules.analysis.waits` per second on ``hands`` random hands of the size a
    player holds before a card (a meld-built hand with one card taken out)."""
    rng = random.Random(seed + 1)
    size = variant.deal.dealer_hand // 3 * 3
    sample = []
    for _ in range(hands):
        h = random_meld_hand(variant, rng, size)
        h.pop(rng.randrange(len(h)))
        sample.append(h)
    clear_searchers()
    searcher(variant)
    t0 = time.perf_counter()
    found = sum(len(waits(variant, h)) for h in sample)
    return {"hands": hands, "waits": _rate(hands, time.perf_counter() - t0), "found": found}


def bench_games(variant: Variant, games: int, seed: int,
                bots: Sequence[str] | None = None) -> tuple[float, dict[str, int]]:
    """(games/s, result counts) of ``games`` full games as ``zipai simulate`` plays them (its
    default bots unless ``bots`` are named, settlement included, no records). What every game
    reads (:func:`~zipai_rules.simulate.prepare`: the block tables, the wildcard masks of a
    deck with 王, GreedyBot's measure) is built before the clock starts: a process builds it
    once, which a short run would otherwise count against a few games."""
    names = list(bots) if bots is not None else list(default_bots(variant.players))
    counts: dict[str, int] = {}
    prepare(variant)
    t0 = time.perf_counter()
    for k in range(games):
        kind = play_game(variant, k, seed + k, names).kind
        counts[kind] = counts.get(kind, 0) + 1
    return _rate(games, time.perf_counter() - t0), counts


#: the games/s per core that issue 28 asks of every preset with simulate's default bots
GAMES_TARGET = 1000


def games_summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The games figures of :func:`bench_presets` against :data:`GAMES_TARGET`: the slowest
    preset, its rate, and the presets below the target (a rate of one run on this machine,
    so a shared machine's load moves it)."""
    slowest = min(rows, key=lambda r: r["games_per_s"])
    return {"target": GAMES_TARGET, "slowest": slowest["variant"],
            "slowest_games_per_s": slowest["games_per_s"],
            "below_target": [r["variant"] for r in rows if r["games_per_s"] < GAMES_TARGET]}


def bench_presets(games: int, seed: int, ids: Sequence[str] | None = None
                  ) -> list[dict[str, Any]]:
    """:func:`bench_games` for every preset (or those ``ids``), each as
    ``{variant, games, games_per_s, results}``."""
    out = []
    for pid in ids if ids is not None else preset_ids():
        rate, counts = bench_games(load_preset(pid), games, seed)
        out.append({"variant": pid, "games": games, "games_per_s": rate, "results": counts})
    return out


def build_info() -> dict[str, Any]:
    """The build measured (:mod:`zipai_rules.native`): ``{name, compiled, modules, python}``,
    ``modules`` those running compiled (none in the pure build)."""
    return {"name": build_name(), "compiled": compiled(), "modules": list(compiled_modules()),
            "python": platform.python_version()}


def peak_rss() -> int:
    """This process's peak resident memory in bytes (``ru_maxrss``, KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


# --- memory of `zipai simulate` ---------------------------------------------------------------

_WRAPPER = ("import resource, subprocess, sys; code = subprocess.call(sys.argv[1:]); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(code)")


def _tree_rss(root: int) -> int:
    """Resident bytes of all descendants of ``root`` now (Linux ``/proc``)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        pid = int(entry)
        parents[pid] = int(fields[1])
        rss[pid] = int(fields[21]) * page
    tree, frontier = {root}, [root]
    while frontier:
        p = frontier.pop()
        kids = [c for c, pp in parents.items() if pp == p and c not in tree]
        tree.update(kids)
        frontier.extend(kids)
    return sum(rss.get(p, 0) for p in tree if p != root)


def simulate_peak_rss(variant: str, games: int, jobs: int, seed: int = 1,
                      interval: float = 0.05) -> tuple[float, int, int]:
    """Run ``zipai simulate`` in a fresh process; return ``(seconds, total, largest)``:
    the peak of the summed resident memory of it and its workers (bytes, sampled every
    ``interval`` seconds) and the kernel's peak of the largest single process (bytes).
    Linux only (``/proc``). Raises :class:`RuntimeError` if the run fails."""
    argv = [sys.executable, "-c", _WRAPPER, sys.executable, "-m", "zipai_rules.cli",
            "simulate", "--variant", variant, "--games", str(games), "--jobs", str(jobs),
            "--seed", str(seed), "--json"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    total = 0
    while proc.poll() is None:
        total = max(total, _tree_rss(proc.pid))
        time.sleep(interval)
    out, err = proc.communicate()
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"zipai simulate failed: {err.decode(errors='replace').strip()}")
    largest = int(out.splitlines()[-1]) * 1024  # ru_maxrss is in KiB on Linux
    return seconds, max(total, largest), largest


# --- the RL environment ------------------------------------------------------------------

#: passes of the environment's rate (the median is given)
ENV_PASSES = 3


def bench_env(variant: Variant, hands: int, seed: int) -> dict[str, Any]:
    """Steps per second of the PettingZoo environment (``rl.env``, extra ``[rl]``) with
    random masked agents (each picks uniformly among the 1s of its ``action_mask``,
    ``random.Random(seed)``), over ``hands`` hands seeded ``seed``, ``seed + 1``, …: a step is
    ``last()`` (the observation and the mask) and ``step(code)``, the dealing, the
    settlement and the agent's pick included. Beside it, in the same run, the engine alone
    (``Game.apply`` of the same actions on the same deals, dealing included) and the
    environment's rate over it. Each rate is the median of :data:`ENV_PASSES` passes, in
    CPU seconds of this process."""
    from . import rl  # the [rl] extra only when measured
    from .engine.game import Game

    def play() -> tuple[int, list[list[Any]]]:
        env = rl.env(variant)
        rng = random.Random(seed)
        steps, played = 0, []
        for k in range(hands):
            env.reset(seed=seed + k)
            for _ in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
            played.append(list(env.unwrapped.game.actions))
        return steps, played

    _, actions = play()  # first uses (tables, the action space), untimed

    def replay() -> int:
        steps = 0
        for k in range(hands):
            game = Game(variant, seed=seed + k)
            for action in actions[k]:
                game.apply(action)
                steps += 1
        return steps

    env_rates, engine_rates = [], []
    steps = 0
    for _ in range(ENV_PASSES):
        t0 = time.process_time()
        steps = play()[0]
        env_rates.append(_rate(steps, time.process_time() - t0))
        t0 = time.process_time()
        replay()
        engine_rates.append(_rate(steps, time.process_time() - t0))
    env_rate, engine_rate = statistics.median(env_rates), statistics.median(engine_rates)
    return {"variant": variant.id, "hands": hands, "steps": steps, "env": env_rate,
            "engine": engine_rate, "env_vs_engine": env_rate / engine_rate,
            "passes": ENV_PASSES}
