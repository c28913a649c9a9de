"""``zipai simulate``: play many seeded games with bots and print their statistics (see
:mod:`zipai_rules.simulate`). Ctrl-C stops a run cleanly."""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import signal
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .. import __version__
from ..bots import BOTS
from ..engine.seeds import check_seed
from ..errors import ZipaiError, brief
from ..manifest import (
    CHECKPOINT_SECONDS,
    MANIFEST_NAME,
    manifest_path,
    missing,
    read_manifest,
    write_manifest,
)
from ..replay_html import ReplayIndex
from ..simulate import (
    DEFAULT_BOTS,
    Tally,
    check_last_game,
    format_stats,
    max_jobs,
    prepare,
    prepare_out,
    record_path,
    run_games,
    tally_stats,
)
from ..summary_table import TableWriter
from ..variant import Variant
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
    the block and never see Ctrl-C; a handler records it too (where masks do not exist, and
    when a thread that does not block it receives it). SIGTERM is taken by a
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
        # a thread started by a library (numpy's BLAS, …) may not block it: the handler,
        # which Python runs in this thread whichever thread the signal reached, records it
        before_int = signal.signal(signal.SIGINT, lambda *_: stop.seen(signal.SIGINT))
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
            signal.signal(signal.SIGINT, before_int)
    finally:
        signal.signal(signal.SIGTERM, before_term)


def describe(numbers: Sequence[tuple[int, int]]) -> str:
    """``games 1–222 and 251–275``: finished game numbers (inclusive ranges) in words."""
    if not numbers:
        return "no game finished"
    text = [f"{a}–{b}" if a != b else str(a) for a, b in numbers]
    return "games " + (", ".join(text[:-1]) + " and " + text[-1] if len(text) > 1 else text[0])


#: the options a resumed run takes from its manifest, with their defaults
_FROM_MANIFEST = {"games": 100, "seed": 1, "first": 1, "bots": None, "out": None,
                  "out_on_workers": False, "shards": False, "manifest": None}


@attrs.frozen
class _Plan:
    """What a command runs: the games ``first`` .. ``first + games - 1`` of ``seed``, of
    which ``numbers`` are to be played now (all of them, or a resumed run's missing ones),
    counted into ``tally``; the ``manifest`` file (or ``None``) and the ``earlier`` timing of
    a resumed run."""

    variant: Variant
    bots: list[str]
    seed: int
    first: int
    games: int
    out: str | None
    out_on_workers: bool
    shards: bool
    manifest: Path | None
    numbers: list[tuple[int, int]]
    tally: Tally
    earlier: Mapping[str, Any] | None
    html: bool


#: the names a records folder holds of its own: records, shards, pages, index, manifest
_OWN_NAMES = re.compile(r"game-\d+\.(?:json|html)|games-\d+-\d+\.jsonl\.gz|index\.html|"
                        + re.escape(MANIFEST_NAME))


def _nonempty(args: argparse.Namespace) -> None:
    """Refuse an empty path option (``--out ''`` would write into the working folder)."""
    for key in ("out", "manifest", "resume", "table"):
        if getattr(args, key) == "":
            raise ZipaiError(f"--{key} '': an empty path names no file or folder",
                             code="bad_option")


def _free_manifest(where: Path) -> None:
    """Refuse to start a new run over ``where`` when it holds the manifest of a run not
    finished (``running`` or ``stopped``: it can still be resumed) or a file that is not a
    manifest at all."""
    if not where.exists():
        return
    try:
        state = read_manifest(where).state
    except ZipaiError as exc:
        raise ZipaiError(f"{where} exists and is not a manifest a new run may replace "
                         f"({brief(str(exc), 120)}): remove it or name another --manifest",
                         code="bad_option") from None
    if state != "finished":
        folder = where.parent if where.name == MANIFEST_NAME else where
        raise ZipaiError(f"{where}: a run not finished ({state}) keeps its manifest there: "
                         f"continue it with `zipai simulate --resume {folder}`, or remove "
                         f"{where} to start a new run", code="bad_option")


def _check_paths(out: str | None, manifest: Path | None, table: str | None) -> None:
    """Refuse outputs that would overwrite one another: the ``--table`` file and the
    manifest, or either of them and one of the records folder's own names (a record, a
    shard, a page, the index, the folder's manifest ``run.json``)."""
    folder = None if out is None else Path(out).resolve()
    named = {"--table": table, "--manifest": None if manifest is None else str(manifest)}
    paths = {k: None if v is None else Path(v).resolve() for k, v in named.items()}
    if paths["--table"] is not None and paths["--table"] == paths["--manifest"]:
        raise ZipaiError(f"--table {table} is the run's manifest: name another file",
                         code="bad_option")
    for option, path in paths.items():
        if path is None or folder is None or path.parent != folder:
            continue
        if option == "--manifest" and path.name == MANIFEST_NAME:
            continue  # the folder's own manifest
        if _OWN_NAMES.fullmatch(path.name):
            raise ZipaiError(f"{option} {named[option]}: the records folder --out {out} "
                             "keeps its own files under such names (game-NNNNN.json or .html, "
                             "games-A-B.jsonl.gz, index.html, run.json): name a file outside "
                             "it or of another name", code="bad_option")


def _plan(args: argparse.Namespace) -> _Plan:
    _nonempty(args)
    if args.resume is None:
        for key, default in _FROM_MANIFEST.items():
            if getattr(args, key) is None:
                setattr(args, key, default)
        variant = variant_arg(args.variant or "hunan", args)
        bots = bot_names(args, variant.players)
        first, games, out = args.first, args.games, args.out
        check_last_game(first + games - 1)
        check_seed(args.seed + first + games - 2, "the last game's seed")
        where = (Path(args.manifest) if args.manifest else
                 Path(out) / MANIFEST_NAME if out else None)
        if where is not None:
            if (where.name == MANIFEST_NAME and out is not None
                    and where.resolve().parent != Path(out).resolve()):
                raise ZipaiError(f"--manifest {where}: {MANIFEST_NAME} is the name of a "
                                 f"records folder's own manifest, and {where.parent} is not "
                                 f"--out {out}: name it otherwise", code="bad_option")
            _check_paths(out, where, args.table)
            _free_manifest(where)
        else:
            _check_paths(out, None, args.table)
        return _Plan(variant, list(bots), args.seed, first, games, out, args.out_on_workers,
                     args.shards, where, [(first, first + games - 1)], Tally(variant.players),
                     None, args.html)
    given = [f"--{k.replace('_', '-')}" for k in _FROM_MANIFEST
             if getattr(args, k) not in (None, False)]
    if given or args.html:
        raise ZipaiError(f"--resume takes the run's own options from its manifest: "
                         f"{', '.join(given or ['--html'])} cannot be given with it",
                         code="bad_option")
    where = manifest_path(args.resume)
    m = read_manifest(where)
    stats = m.statistics
    try:
        variant = variant_arg(args.variant or stats["variant"], args)
    except ZipaiError as exc:
        if args.variant:
            raise
        raise ZipaiError(f"{where}: the run played variant {brief(stats['variant'], 60)}, "
                         f"which is not a preset ({brief(str(exc), 100)}): give its file "
                         "with --variant FILE", code=exc.code) from None
    if variant.content_hash != stats["content_hash"]:
        raise ZipaiError(f"{where}: the run played variant {brief(stats['variant'], 60)} of "
                         f"content hash {stats['content_hash'][:12]}, not {variant.id} of "
                         f"{variant.content_hash[:12]}: it cannot be resumed with other rules",
                         code="bad_manifest")
    if stats["engine"] != __version__:
        raise ZipaiError(f"{where}: the run played with zipai_rules {brief(stats['engine'], 40)}"
                         f", this is {__version__}: resume it with the same version",
                         code="bad_manifest")
    unknown = [b for b in stats["bots"] if b not in BOTS]
    if unknown:
        raise ZipaiError(f"{where}: the run's bots include {brief(unknown[0], 64)!r}, not a "
                         f"bot of this zipai_rules (known: {', '.join(BOTS)})",
                         code="unknown_bot")
    out = m.out
    if out is not None and not m.out_on_workers:
        # the folder a run.json is in is its records folder (a copied or moved run resumes
        # in place); another manifest's relative out is taken from the manifest's folder
        out = str(where.parent if where.name == MANIFEST_NAME else where.parent / out)
    if args.table is not None and Path(args.table).exists():
        raise ZipaiError(f"--table {args.table} exists: a resumed run writes the rows of the "
                         "games it plays to a new table (merge the tables afterwards); name "
                         "another file or remove it", code="bad_option")
    _check_paths(out, where, args.table)
    return _Plan(variant, list(stats["bots"]), stats["seed"], m.first, m.games, out,
                 m.out_on_workers, m.shards, where, missing(m), m.tally, stats["timing"], m.html)


def _stats(plan: _Plan, jobs: int, seconds: float, setup: float | None) -> dict[str, Any]:
    """The statistics of every game the run finished, this command's and a resumed run's
    earlier ones (their seconds added up, as ``zipai stats merge`` adds them)."""
    earlier = plan.earlier
    if earlier is not None:
        before = earlier.get("seconds")
        seconds = seconds + before if isinstance(before, (int, float)) else seconds
        setup = None  # the earlier part's setup was not timed apart from its games
    return tally_stats(plan.tally, plan.variant, seed=plan.seed, bots=plan.bots, jobs=jobs,
                       seconds=seconds, setup_seconds=setup)


def run(args: argparse.Namespace) -> int:
    """``zipai simulate``: play many seeded games and print their statistics. Ctrl-C or
    SIGTERM stops it within about a second: the games being played finish and are written,
    the statistics of the finished games are printed and kept in the run's manifest (with
    ``--out`` or ``--manifest``), and the exit status is 130 (143 for SIGTERM). ``--resume``
    plays the games a stopped run did not finish."""
    plan = _plan(args)
    variant = plan.variant
    if plan.out_on_workers and not (args.dask and plan.out):
        raise ZipaiError(f"{plan.manifest}: the run wrote its records on the workers' disks "
                         "(--out-on-workers): resume it with --dask ADDRESS"
                         if args.resume is not None and plan.out else
                         "--out-on-workers goes with --dask and --out", code="bad_option")
    if plan.html and (not plan.out or plan.out_on_workers):
        raise ZipaiError("--html goes with --out (and not --out-on-workers)", code="bad_option")
    if plan.html and plan.shards:
        raise ZipaiError("--html writes a page per game from the per-game records: it does "
                         "not go with --shards (zipai view SHARD --game N writes one)",
                         code="bad_option")
    if plan.shards and not plan.out:
        raise ZipaiError("--shards goes with --out", code="bad_option")
    last = plan.first + plan.games - 1
    pages = ReplayIndex(plan.out or "", f"zipai simulate: {variant.name} ({variant.id}), "
                        f"seeds {plan.seed + plan.first - 1}–{plan.seed + last - 1}"
                        ) if plan.html else None
    if pages is not None:  # a resumed run's index lists the earlier games too
        pages.add_earlier(plan.tally.numbers, plan.seed)
    if args.chunk is not None and args.dask is None:
        raise ZipaiError("--chunk goes with --dask", code="bad_option")
    if args.jobs > max_jobs() and args.dask in (None, "local"):
        raise ZipaiError(f"--jobs {args.jobs} is above the number of CPUs ({max_jobs()})",
                         code="bad_option")
    if plan.out is not None:  # with --out-on-workers, here for the manifest only
        prepare_out(plan.out)
    tally = plan.tally
    to_play = sum(b - a + 1 for a, b in plan.numbers)
    if args.resume is not None and not to_play:
        rest = ("the replay pages it did not write are written now, then its statistics "
                "follow" if pages is not None else "nothing to play; its statistics follow")
        print(f"{plan.manifest}: the run finished all its {plan.games} games: {rest}",
              file=sys.stderr)
    t0 = time.perf_counter()
    setup = None
    jobs = args.jobs
    out = (None if plan.out is None else plan.out if plan.out_on_workers
           else str(Path(plan.out).absolute()))

    def checkpoint(state: str) -> None:
        if plan.manifest is not None:
            write_manifest(plan.manifest, state, first=plan.first, games=plan.games, out=out,
                           out_on_workers=plan.out_on_workers, shards=plan.shards,
                           statistics=_stats(plan, jobs, time.perf_counter() - t0, setup),
                           html=plan.html)
    failure: ZipaiError | None = None
    with deferred_stop() as interrupted:
        try:
            with contextlib.ExitStack() as stack:
                table = (None if args.table is None
                         else stack.enter_context(TableWriter(args.table)))
                executor, jobs, watch = (None, args.jobs, None) if args.dask is None else \
                    stack.enter_context(dask_executor(args.dask, args.jobs, variant))
                t0 = time.perf_counter()
                if executor is None and jobs == 1:  # the games run here: setup timed apart
                    prepare(variant)
                    setup = time.perf_counter() - t0
                checkpoint("running")
                saved = time.monotonic()
                progress = stack.enter_context(Progress(to_play, sys.stderr,
                                                        every=args.progress_every, watch=watch))
                played = 0
                for g in run_games(variant, 0, plan.seed, plan.bots, jobs, plan.out,
                                   stop=interrupted, executor=executor,
                                   out_on_workers=plan.out_on_workers, numbers=plan.numbers,
                                   chunk=args.chunk, shards=plan.shards,
                                   halt=None if watch is None else watch.halt):
                    tally.add(g)
                    played += 1
                    if table is not None:
                        table.add(g)
                    if pages is not None:
                        pages.add(g)
                    progress.update(played)
                    if time.monotonic() - saved >= CHECKPOINT_SECONDS:
                        checkpoint("running")
                        saved = time.monotonic()
        except ZipaiError as exc:
            if tally.games == 0 or args.dask is None:
                raise
            failure = exc  # a task refused (another worker version): keep what finished
        except Exception as exc:  # noqa: BLE001 - a lost scheduler or worker, in one line
            if args.dask is None:
                raise
            failure = ZipaiError(f"the cluster failed: {type(exc).__name__}: "
                                 f"{brief(str(exc), 200)}", code="cluster_lost")
        seconds = time.perf_counter() - t0
        if pages is not None:  # a stop (before or while the pages are written) ends them
            pages.write(stop=interrupted)
    stats = _stats(plan, jobs, seconds, setup)
    stopped = failure is not None or interrupted()
    if plan.manifest is not None:
        write_manifest(plan.manifest, "stopped" if stopped else "finished", first=plan.first,
                       games=plan.games, out=out, out_on_workers=plan.out_on_workers,
                       shards=plan.shards, statistics=stats, html=plan.html)
    kept = "" if plan.manifest is None else (
        f"; its manifest: {plan.manifest}, continue it with `zipai simulate --resume "
        f"{plan.manifest.parent if plan.manifest.name == MANIFEST_NAME else plan.manifest}`")
    if failure is not None:
        raise ZipaiError(f"{failure} (after {tally.games} of {plan.games} games, "
                         f"{describe(tally.numbers)}{kept})", code=failure.code)
    _print_stats(args, stats, variant, plan, last)
    if interrupted():
        written = f", their records in {plan.out}" if plan.out else ""
        print(f"interrupted after {tally.games} of {plan.games} games "
              f"({describe(tally.numbers)}){written}{kept}", file=sys.stderr)
        return interrupted.exit_status
    return 0


def _print_stats(args: argparse.Namespace, stats: Mapping[str, Any], variant: Variant,
                 plan: _Plan, last: int) -> None:
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=2))
        return
    print(format_stats(stats, variant))
    if plan.out:
        where = " on the workers' disks" if plan.out_on_workers else ""
        files = ("games-AAAAAAAA-BBBBBBBB.jsonl.gz, one shard per chunk of games"
                 if plan.shards else f"{record_path(plan.out, plan.first).name} .. "
                 f"{record_path(plan.out, last).name}")
        print(f"records: {plan.out}/{files}{where}")
    if args.table:
        print(f"table: {args.table}, one row per game played by this command")
    if plan.html:
        print(f"replays: {plan.out}/index.html")


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
    p.add_argument("--variant", default=None,
                   help=VARIANT_HELP.replace("%(default)s", "hunan") + "; --resume: the run's")
    p.add_argument("--games", type=count(1), default=None, help="number of games (default 100)")
    p.add_argument("--seed", type=count(0), default=None,
                   help="the run's seed: game k is played with seed SEED+k-1 (default 1)")
    p.add_argument("--first", type=count(1), default=None, metavar="K",
                   help="number the games from K (default 1): game K is played with seed "
                        "SEED+K-1, as in one long run, so runs of the same seed from K=1 and "
                        "K=N+1 make one numbered series (and their statistics merge)")
    p.add_argument("--resume", metavar="DIR", default=None,
                   help="play the games a stopped run did not finish: DIR is its records "
                        "folder (DIR/run.json) or its manifest file; the variant, seed, games, "
                        "bots and records are the run's own")
    p.add_argument("--manifest", metavar="FILE", default=None,
                   help="where the run's manifest goes (default DIR/run.json with --out DIR, "
                        "else none): its options and the statistics of the finished games, "
                        "kept while it plays and when it stops")
    p.add_argument("--jobs", type=count(1), default=1,
                   help="worker processes, at most the number of CPUs (default 1); with "
                        "--dask local, the LocalCluster's workers")
    p.add_argument("--out", metavar="DIR", help="write each game's record to DIR/game-NNNNN.json")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="play on a dask.distributed cluster: a scheduler address "
                        "(tcp://host:8786), or `local` for a LocalCluster of --jobs worker "
                        "processes on this machine (needs the [dask] extra)")
    p.add_argument("--chunk", type=count(1), default=None, metavar="N",
                   help="with --dask: games per task (default games/(8 x threads), at most "
                        "200); larger chunks for a large cluster, see docs/cluster.md")
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
    p.add_argument("--progress-every", type=_seconds, default=DEFAULT_EVERY, metavar="SECONDS",
                   help="when standard error is not a terminal, a progress line (done, games/s, "
                        f"ETA, workers) every SECONDS (default {DEFAULT_EVERY:g}; 0: none); on a "
                        "terminal a bar is drawn instead")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(func=run)
