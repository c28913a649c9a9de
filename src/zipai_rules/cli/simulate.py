"""``zipai simulate``: play many seeded games with bots and print their statistics (see
:mod:`zipai_rules.simulate`). Ctrl-C stops a run cleanly."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import time
from collections.abc import Iterator
from typing import Any

from ..errors import ZipaiError
from ..replay_html import ReplayIndex
from ..simulate import (
    DEFAULT_BOTS,
    Tally,
    format_stats,
    max_jobs,
    prepare,
    run_games,
    tally_stats,
)
from .cluster import dask_executor
from .common import VARIANT_HELP, bot_list, bot_names, count, variant_arg
from .progress import DEFAULT_EVERY, Progress


class Stop:
    """Whether a stop was asked (:func:`deferred_stop`): calling it polls; ``signal`` is the
    first stopping signal seen (``SIGINT`` or ``SIGTERM``), 0 before one."""

    def __init__(self) -> None:
        self.signal = 0
        self._masked = False

    def seen(self, number: int) -> None:
        if not self.signal:
            self.signal = number

    def __call__(self) -> bool:
        if self._masked and not self.signal and signal.SIGINT in signal.sigpending():
            self.seen(signal.SIGINT)
        return bool(self.signal)

    @property
    def exit_status(self) -> int:
        """The shell's status of a run stopped by the signal: 128 + its number."""
        return 128 + int(self.signal)


@contextlib.contextmanager
def deferred_stop() -> Iterator[Stop]:
    """Within the block, Ctrl-C (SIGINT) and SIGTERM raise nothing: they are held, and the
    :class:`Stop` yielded returns ``True`` once one arrived (and keeps returning it after the
    block). Where signal masks exist (POSIX), SIGINT is blocked in this thread, so the threads
    and worker processes started inside the block (a dask client's, a LocalCluster's) inherit
    the block and never see Ctrl-C; elsewhere a handler records it. SIGTERM is taken by a
    handler (a worker process started inside the block keeps its default action, so a
    cluster can still end it)."""
    stop = Stop()
    before_term = signal.signal(signal.SIGTERM, lambda *_: stop.seen(signal.SIGTERM))
    try:
        if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
            previous = signal.signal(signal.SIGINT, lambda *_: stop.seen(signal.SIGINT))
            try:
                yield stop
            finally:
                signal.signal(signal.SIGINT, previous)
            return
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        stop._masked = True
        try:
            yield stop
        finally:
            if signal.SIGINT in signal.sigpending():
                signal.sigtimedwait({signal.SIGINT}, 0)  # consume it: the caller handled it
                stop.seen(signal.SIGINT)
            stop._masked = False
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
    finally:
        signal.signal(signal.SIGTERM, before_term)


class _Done:
    """The game numbers finished, as a complete prefix and the few finished beyond it (games
    run in parallel chunks, so an interrupted run may leave gaps): bounded by the chunks in
    flight, not by the number of games."""

    def __init__(self) -> None:
        self.prefix = 0
        self.ahead: set[int] = set()

    def add(self, number: int) -> None:
        self.ahead.add(number)
        while self.prefix + 1 in self.ahead:
            self.prefix += 1
            self.ahead.remove(self.prefix)

    def describe(self) -> str:
        """``games 1–222 and 251–275``: the finished numbers as ranges."""
        ranges = [(1, self.prefix)] if self.prefix else []
        for n in sorted(self.ahead):
            if ranges and ranges[-1][1] == n - 1:
                ranges[-1] = (ranges[-1][0], n)
            else:
                ranges.append((n, n))
        if not ranges:
            return "no game finished"
        text = [f"{a}–{b}" if a != b else str(a) for a, b in ranges]
        return "games " + (", ".join(text[:-1]) + " and " + text[-1] if len(text) > 1
                           else text[0])


def run(args: argparse.Namespace) -> int:
    """``zipai simulate``: play many seeded games and print their statistics. Ctrl-C stops
    it within about a second: the games being played finish and are written, the count of
    records written is printed, and the exit status is 130."""
    variant = variant_arg(args.variant, args)
    bots = bot_names(args, variant.players)
    if args.out_on_workers and not (args.dask and args.out):
        raise ZipaiError("--out-on-workers goes with --dask and --out", code="bad_option")
    if args.html and (not args.out or args.out_on_workers):
        raise ZipaiError("--html goes with --out (and not --out-on-workers)", code="bad_option")
    pages = ReplayIndex(args.out, f"zipai simulate: {variant.name} ({variant.id}), "
                        f"seeds {args.seed}–{args.seed + args.games - 1}") if args.html else None
    if args.jobs > max_jobs() and args.dask in (None, "local"):
        raise ZipaiError(f"--jobs {args.jobs} is above the number of CPUs ({max_jobs()})",
                         code="bad_option")
    tally = Tally(variant.players)
    done = _Done()
    with deferred_stop() as interrupted, contextlib.ExitStack() as stack:
        executor, jobs, watch = (None, args.jobs, None) if args.dask is None else \
            stack.enter_context(dask_executor(args.dask, args.jobs, variant))
        t0 = time.perf_counter()
        setup = None
        if executor is None and jobs == 1:  # the games run here: their setup, timed apart
            prepare(variant)
            setup = time.perf_counter() - t0
        progress = stack.enter_context(Progress(args.games, sys.stderr,
                                                every=args.progress_every, watch=watch))
        for g in run_games(variant, args.games, args.seed, bots, jobs, args.out,
                           stop=interrupted, executor=executor,
                           out_on_workers=args.out_on_workers):
            tally.add(g)
            done.add(g.number)
            if pages is not None:
                pages.add(g)
            progress.update(tally.games)
        seconds = time.perf_counter() - t0
    if pages is not None:
        pages.write()
    if interrupted():
        written = f", {tally.games} records written to {args.out}" if args.out else ""
        print(f"interrupted after {tally.games} of {args.games} games "
              f"({done.describe()}){written}", file=sys.stderr)
        return interrupted.exit_status
    stats = tally_stats(tally, variant, seed=args.seed, bots=bots, jobs=jobs,
                        seconds=seconds, setup_seconds=setup)
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=2))
    else:
        print(format_stats(stats, variant))
        if args.out:
            where = " on the workers' disks" if args.out_on_workers else ""
            print(f"records: {args.out}/game-00001.json .. game-{args.games:05d}.json{where}")
        if pages is not None:
            print(f"replays: {args.out}/index.html")
    return 0


def _seconds(text: str) -> float:
    """``--progress-every``: a number of seconds from 0 to a day."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 86400:  # also refuses nan
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds from 0 to 86400")
    return value


def add_parser(sub: Any) -> None:
    """Register ``zipai simulate`` on an argparse subparsers object."""
    p = sub.add_parser("simulate", help="play many seeded games with bots and summarise them",
                       description="Play N games (game k uses seed S+k-1, as `zipai play "
                       "--seed`), then print win rates, 荒庄 rate, 胡息 and score "
                       "distributions, game length and speed.")
    p.add_argument("--variant", default="hunan", help=VARIANT_HELP)
    p.add_argument("--games", type=count(1), default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=count(0), default=1, help="seed of the first game (default 1)")
    p.add_argument("--jobs", type=count(1), default=1,
                   help="worker processes, at most the number of CPUs (default 1); with "
                        "--dask local, the LocalCluster's workers")
    p.add_argument("--out", metavar="DIR", help="write each game's record to DIR/game-NNNNN.json")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="play on a dask.distributed cluster: a scheduler address "
                        "(tcp://host:8786), or `local` for a LocalCluster of --jobs worker "
                        "processes on this machine (needs the [dask] extra)")
    p.add_argument("--out-on-workers", action="store_true",
                   help="with --dask and --out: each worker writes the records of the games "
                        "it plays to DIR on its own disk, instead of sending them back")
    p.add_argument("--bots", type=bot_list, default=None,
                   help="comma-separated bot names per seat; a shorter list is repeated to fill "
                        "the table (greedy = greedy,greedy,greedy): "
                        f"greedy, random (default {','.join(DEFAULT_BOTS)})")
    p.add_argument("--html", action="store_true",
                   help="with --out: also write each game's HTML replay (game-NNNNN.html, as "
                        "`zipai view`) and DIR/index.html listing the games")
    p.add_argument("--progress-every", type=_seconds, default=DEFAULT_EVERY, metavar="SECONDS",
                   help="when standard error is not a terminal, a progress line (done, games/s, "
                        f"ETA, workers) every SECONDS (default {DEFAULT_EVERY:g}; 0: none); on a "
                        "terminal a bar is drawn instead")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(func=run)
