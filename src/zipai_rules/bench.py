"""Benchmarks behind ``zipai bench`` (which prints them): hand analyses per second and full
games per second.

Hands are random 21-card concealed hands built from valid melds (chi-type triples and 坎, no
pair), drawn from one deck each so no card exceeds its copies. Analyses are timed twice:
``cold`` with an empty memo (every hand new to the search) and ``warm`` (the same hands again,
answered from the memo).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

from .analysis import analyze, clear_searchers
from .bots import RandomBot
from .engine.game import Game
from .melds import chi_shapes_with
from .play import play_out
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


def bench_analysis(variant: Variant, hands: int, seed: int) -> tuple[float, float, int]:
    """(cold analyses/s, warm analyses/s, wins) over ``hands`` random meld-built hands."""
    rng = random.Random(seed)
    size = variant.deal.dealer_hand // 3 * 3  # 21 for the 80-card games, 15 for the 14/15 ones
    sample = [random_meld_hand(variant, rng, size) for _ in range(hands)]
    clear_searchers()
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
        kind = g.state.final_result.kind
        counts[kind] = counts.get(kind, 0) + 1
    return games / (time.perf_counter() - t0), counts


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
