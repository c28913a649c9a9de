"""``zipai simulate``: play many seeded games with bots and print their statistics (see
:mod:`zipai_rules.simulate`). Ctrl-C stops a run cleanly."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from typing import Any

from ..errors import ZipaiError, brief, install_hint
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
from ..summary_table import TableWriter
from . import scheduler
from .common import VARIANT_HELP, bot_list, bot_names, count, variant_arg
from .scheduler import probe_scheduler


class ProgressBar:
    """A one-line progress bar redrawn on a terminal stream."""

    def __init__(self, stream: Any, width: int = 30) -> None:
        self.stream, self.width, self.shown = stream, width, -1

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // total
        if filled == self.shown and done != total:
            return
        self.shown = filled
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} games")
        if done == total:
            self.stream.write("\r" + " " * (self.width + 30) + "\r")
        self.stream.flush()


@contextlib.contextmanager
def deferred_sigint() -> Iterator[Callable[[], bool]]:
    """Within the block, Ctrl-C (SIGINT) raises nothing: it is held, and the function yielded
    returns ``True`` once one arrived (and keeps returning it after the block). Where signal
    masks exist (POSIX), SIGINT is blocked in this thread, so worker processes started inside
    the block inherit the block and never see it; elsewhere a handler records it."""
    seen = threading.Event()
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        previous = signal.signal(signal.SIGINT, lambda *_: seen.set())
        try:
            yield seen.is_set
        finally:
            signal.signal(signal.SIGINT, previous)
        return

    def arrived() -> bool:
        if not seen.is_set() and signal.SIGINT in signal.sigpending():
            seen.set()
        return seen.is_set()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield arrived
    finally:
        if signal.SIGINT in signal.sigpending():
            signal.sigtimedwait({signal.SIGINT}, 0)  # consume it: the caller has handled it
            seen.set()
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


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


@contextlib.contextmanager
def dask_executor(address: str, jobs: int) -> Iterator[tuple[Executor, int]]:
    """A ``dask.distributed`` client's executor and the number of games it plays at once
    (its workers' threads): on the scheduler at ``address``, or, for ``local``, on a
    ``LocalCluster`` of ``jobs`` single-threaded worker processes started here and shut down
    on leaving. A ``tcp://`` address is first checked to be a dask scheduler, within
    :data:`~.scheduler.HANDSHAKE_SECONDS` (:func:`~.scheduler.probe_scheduler`). Raises
    :class:`ZipaiError` (``bad_option``) when the ``[dask]`` extra is not installed, the
    address cannot be read, the scheduler cannot be reached, or what answers is not one."""
    try:
        import distributed
    except ImportError:
        raise ZipaiError(f"--dask needs dask.distributed: {install_hint('dask')}",
                         code="bad_option") from None
    dask: Any = distributed  # its entry points are untyped
    with contextlib.ExitStack() as stack:
        if address == "local":
            cluster = stack.enter_context(dask.LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0"))
            client = stack.enter_context(dask.Client(cluster))
        else:
            shown = brief(address, 80)
            try:
                scheme, where = dask.comm.parse_address(address)
                if scheme == "tcp":  # a bounded handshake first (tls:// needs its keys)
                    probe_scheduler(shown, *dask.comm.parse_host_port(where))
                client = stack.enter_context(dask.Client(address,
                                                         timeout=scheduler.HANDSHAKE_SECONDS))
            except ZipaiError:
                raise
            except (ValueError, TypeError) as exc:  # an address dask cannot parse
                raise ZipaiError(f"--dask {shown!r}: not a scheduler address: {exc}",
                                 code="bad_option") from None
            except OSError as exc:  # refused, or no answer in time after the handshake
                raise ZipaiError(f"--dask {shown}: cannot reach the scheduler: "
                                 f"{brief(str(exc), 200) or type(exc).__name__}",
                                 code="bad_option") from None
            except Exception as exc:  # dask's own failures on a peer that is no scheduler
                raise ZipaiError(f"--dask {shown}: not a dask scheduler: "
                                 f"{type(exc).__name__}: {brief(str(exc), 200)}",
                                 code="bad_option") from None
        threads = sum(client.nthreads().values()) or 1
        yield client.get_executor(), threads


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
    if args.html and args.shards:
        raise ZipaiError("--html writes a page per game from the per-game records: it does "
                         "not go with --shards (zipai view SHARD --game N writes one)",
                         code="bad_option")
    if args.shards and not args.out:
        raise ZipaiError("--shards goes with --out", code="bad_option")
    pages = ReplayIndex(args.out, f"zipai simulate: {variant.name} ({variant.id}), "
                        f"seeds {args.seed}–{args.seed + args.games - 1}") if args.html else None
    if args.jobs > max_jobs() and args.dask in (None, "local"):
        raise ZipaiError(f"--jobs {args.jobs} is above the number of CPUs ({max_jobs()})",
                         code="bad_option")
    progress = ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    tally = Tally(variant.players)
    done = _Done()
    with contextlib.ExitStack() as stack:
        table = None if args.table is None else stack.enter_context(TableWriter(args.table))
        executor, jobs = (None, args.jobs) if args.dask is None else stack.enter_context(
            dask_executor(args.dask, args.jobs))
        t0 = time.perf_counter()
        setup = None
        if executor is None and jobs == 1:  # the games run here: their setup, timed apart
            prepare(variant)
            setup = time.perf_counter() - t0
        with deferred_sigint() as interrupted:
            for g in run_games(variant, args.games, args.seed, bots, jobs, args.out,
                               stop=interrupted, executor=executor,
                               out_on_workers=args.out_on_workers, shards=args.shards):
                tally.add(g)
                if table is not None:
                    table.add(g)
                done.add(g.number)
                if pages is not None:
                    pages.add(g)
                if progress:
                    progress(tally.games, args.games)
        seconds = time.perf_counter() - t0
    if pages is not None:
        pages.write()
    if interrupted():
        written = f", {tally.games} records written to {args.out}" if args.out else ""
        lead = "\n" if progress else ""
        print(f"{lead}interrupted after {tally.games} of {args.games} games "
              f"({done.describe()}){written}", file=sys.stderr)
        return 130
    stats = tally_stats(tally, variant, seed=args.seed, bots=bots, jobs=jobs,
                        seconds=seconds, setup_seconds=setup)
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=2))
    else:
        print(format_stats(stats, variant))
        if args.out:
            where = " on the workers' disks" if args.out_on_workers else ""
            files = ("games-AAAAAAAA-BBBBBBBB.jsonl.gz, one shard per chunk of games"
                     if args.shards else f"game-00001.json .. game-{args.games:05d}.json")
            print(f"records: {args.out}/{files}{where}")
        if args.table:
            print(f"table: {args.table}, one row per game")
        if pages is not None:
            print(f"replays: {args.out}/index.html")
    return 0


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
    p.add_argument("--shards", action="store_true",
                   help="with --out: write the records of each chunk of games as one "
                        "compressed JSON Lines shard, DIR/games-AAAAAAAA-BBBBBBBB.jsonl.gz, "
                        "instead of a file per game (zipai replay and view read them)")
    p.add_argument("--table", metavar="FILE", default=None,
                   help="write one row per game (number, seed, kind, winner, huxi, units, "
                        "gain, actions, payments, labels) to FILE: JSON Lines, or Parquet "
                        "for a .parquet name (needs the [table] extra)")
    p.add_argument("--bots", type=bot_list, default=None,
                   help="comma-separated bot names per seat; a shorter list is repeated to fill "
                        "the table (greedy = greedy,greedy,greedy): "
                        f"greedy, random (default {','.join(DEFAULT_BOTS)})")
    p.add_argument("--html", action="store_true",
                   help="with --out: also write each game's HTML replay (game-NNNNN.html, as "
                        "`zipai view`) and DIR/index.html listing the games")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(func=run)
