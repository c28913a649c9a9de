"""Many seeded hands with bots, summarised: ``zipai simulate``.

Game ``k`` (1-based) of a run with seed ``S`` is exactly ``zipai play --seed S+k-1`` with the
same bots: the deal shuffled from that seed, seat 0 dealing, the bots seeded from it. Its
record (``--out DIR``) is ``DIR/game-0000k.json`` and replays with ``zipai replay``.

With ``jobs > 1`` the games are spread over worker processes
(:class:`concurrent.futures.ProcessPoolExecutor`); every game depends only on its seed, so
the summaries are identical to a single-process run. Any other
:class:`concurrent.futures.Executor` (``executor=``: a ``dask.distributed`` cluster's
``Client.get_executor()``, a thread pool, …) runs the games in chunks of up to
:data:`EXECUTOR_CHUNK` games, with the same summaries and records (docs/cluster.md).
"""

from __future__ import annotations

import contextlib
import gc
import json
import math
import multiprocessing
import os
import signal
import socket
import tempfile
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

import attrs

from .analysis import prepare_tables
from .bots import BOTS, leftover_measure, make_bots, seat_bot_names
from .engine.actions import Action
from .engine.game import Game
from .engine.seeds import check_seed
from .engine.state import GameState, Result
from .errors import RecordError, ZipaiError, brief
from .frozen import thaw
from .invariants import game_problem, payments_balance
from .loader import build_variant
from .mingtang import evaluate
from .play import Bot, play_out
from .presets import load_preset, raw_preset
from .records import dumps_record, game_record, is_preset, write_text_atomic
from .settlement import settle
from .shards import shard_line, write_shard
from .stats import MAX_COUNT, Tally, format_stats, summarize, tally_stats
from .variant import Variant, VariantLike, as_variant

DEFAULT_BOTS = ("greedy", "random", "greedy")

#: the most games in one task given to an executor: at some 5 ms a game, about a second of
#: work, against a few milliseconds of scheduling per task (docs/cluster.md)
EXECUTOR_CHUNK = 200

#: how long a stopped executor run waits for its tasks to come back (each stops after the game
#: it is playing, :func:`halt_tasks`) before it gives up on them (docs/cluster.md)
STOP_WAIT_SECONDS = 60.0

__all__ = ["DEFAULT_BOTS", "EXECUTOR_CHUNK", "STOP_WAIT_SECONDS", "GameSummary", "Tally",
           "check_last_game", "check_worker", "default_bots", "format_stats", "halt_tasks",
           "max_jobs", "play_game", "prepare", "prepare_out", "record_path", "run_games",
           "simulate", "simulate_check", "summarize", "tally_stats", "worker_facts"]


@attrs.frozen(slots=True)
class GameSummary:
    """One simulated hand: its ``number`` (1-based) and ``seed``, the result ``kind`` (``hu``,
    ``tianhu``, ``huangzhuang``), the ``winner`` seat (``None`` on 荒庄), the winning ``huxi``
    (胡息, 0 on 荒庄), the score ``units`` won from each paying loser and the winner's total
    ``gain`` (both in the variant's unit, 0 on 荒庄), the number of seat decisions
    (``actions``), the ``payments`` per seat (the settlement's, in units) and the ``labels``
    of a win (ids: the result's labels such as ``zimo``, then the 名堂 that applied, such as
    ``hong_hu``, each once; ``()`` on 荒庄). The rows of ``zipai simulate --table``
    (:mod:`zipai_rules.summary_table`)."""

    number: int
    seed: int
    kind: str
    winner: int | None
    huxi: int
    units: int
    gain: int
    actions: int
    payments: tuple[int, ...] = ()
    labels: tuple[str, ...] = ()


def play_game(variant: VariantLike, number: int, seed: int, bots: Sequence[str],
              out: str | Path | None = None) -> GameSummary:
    """Play game ``number`` with ``seed`` (as ``zipai play --seed``); write its record to
    ``out/game-NNNNN.json`` when ``out`` is given. Raises
    :class:`~zipai_rules.errors.ZipaiError` for unknown bot names."""
    summary, record = _play_game(as_variant(variant), number, seed, bots, out is not None)
    if out is not None and record is not None:
        write_text_atomic(record_path(out, number), record)
    return summary


def prepare(variant: VariantLike) -> None:
    """Build, once per process, what every game of ``variant`` reads: the analysis's search
    with its block tables (and wildcard masks, :func:`~zipai_rules.analysis.prepare_tables`)
    and GreedyBot's discard measure. Games build them on first use anyway; calling this
    first lets a run time that setup apart from the games. It ends with a full pass of the
    garbage collector (``gc.collect``), which the building's many new objects would otherwise
    set off within the first games: the pass also leaves the tables' tuples of plain numbers
    out of the collector's later passes."""
    v = as_variant(variant)
    prepare_tables(v)
    leftover_measure(v)
    gc.collect()


def record_path(out: str | Path, number: int) -> Path:
    """Where game ``number``'s record goes in the records folder ``out``:
    ``out/game-NNNNN.json`` (five digits at least)."""
    return Path(out) / f"game-{number:05d}.json"


def _play_game(variant: Variant, number: int, seed: int, bots: Sequence[str],
               record: bool | str) -> tuple[GameSummary, str | None]:
    """One game's summary, and its record's text when ``record`` is true: the record file's
    text, or its shard line (:func:`~zipai_rules.shards.shard_line`) for ``"line"``."""
    names = seat_bot_names(bots, variant.players)
    game = play_out(Game(variant, seed=seed), make_bots(names, seed, variant.players))
    settlement = settle(variant, game.result, events=game.events)
    text = None
    if record:
        data = game_record(game, settlement, bots=names)
        text = shard_line(data) if record == "line" else dumps_record(data)
    r = game.state.final_result  # play_out only returns finished games
    won = r.winner is not None
    return GameSummary(number, seed, r.kind, r.winner, r.huxi if won else 0,
                       settlement.units if won else 0,
                       settlement.payments[r.winner] if r.winner is not None else 0,
                       len(game.actions), settlement.payments, _labels(variant, r)), text


def _labels(variant: Variant, result: Result) -> tuple[str, ...]:
    """The labels of a win and the names of the 名堂 that applied (the patterns settlement
    scored it with, :func:`~zipai_rules.mingtang.evaluate`), each once, in that order."""
    if result.winner is None:
        return ()
    sc = variant.scoring
    applied = evaluate(sc.mingtang, sc.patterns, result, variant.term).applied
    return tuple(dict.fromkeys([*map(str, result.labels), *(p.name for p in applied)]))


# --- worker processes -------------------------------------------------------------------------

_WORKER_VARIANTS: dict[str, Variant] = {}
_WORKER_STOP: Any = None  # the run's stop event, in a worker process
_HALTED: dict[str, None] = {}  # the executor runs told to stop, in this process (oldest first)


def halt_tasks(run: str) -> None:
    """Tell the executor tasks of the run ``run`` (its token) playing in this process to stop
    after the game each is playing: a stopped chunk returns the games it finished (and writes
    them, :func:`_shard_chunk`), and a chunk not started yet plays none. Called here by
    :func:`run_games` when stopped (a thread pool's tasks), and on a cluster's workers by
    its ``halt`` hook (``Client.run(halt_tasks, run)``). The last 64 runs are kept."""
    _HALTED[str(run)] = None
    while len(_HALTED) > 64:
        del _HALTED[next(iter(_HALTED))]


def _variant_spec(variant: Variant) -> tuple[str, Any]:
    """A picklable description of a variant: a preset id, or its resolved document."""
    if is_preset(variant):
        return ("preset", variant.id)
    return ("doc", thaw(variant.doc))


def _variant_from_spec(spec: tuple[str, Any]) -> Variant:
    kind, value = spec
    if kind == "preset":
        return load_preset(value)
    key = json.dumps(value, sort_keys=True)
    if key not in _WORKER_VARIANTS:
        _WORKER_VARIANTS.clear()  # a worker serves one run: keep one variant
        _WORKER_VARIANTS[key] = build_variant(value, raw_preset, f"variant {value.get('id')}")
    return _WORKER_VARIANTS[key]


def _init_worker(stop: Any) -> None:
    """Worker set-up: Ctrl-C is the parent's business; ``stop`` says when to quit early."""
    global _WORKER_STOP
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_STOP = stop


def _shard_chunk(variant: Variant, first: int, count: int, seed: int, bots: Sequence[str],
                 out: str | Path, stopped: Callable[[], bool] | None) -> list[GameSummary]:
    """Games ``first`` .. ``first + count - 1`` with their records as one shard in ``out``
    (:func:`~zipai_rules.shards.write_shard`), written when the chunk ends; ``stopped()`` is
    polled between games, so a stopped chunk's shard holds the games ``first`` .. ``k`` it
    finished, and is named by them."""
    done, lines = [], []
    for number in range(first, first + count):
        if stopped is not None and stopped():
            break
        summary, line = _play_game(variant, number, seed + number - 1, bots, "line")
        assert line is not None  # asked for
        done.append(summary)
        lines.append(line)
    if lines:
        write_shard(out, first, lines)
    return done


def _worker_stopped() -> bool:
    return _WORKER_STOP is not None and bool(_WORKER_STOP.is_set())


def _run_chunk(spec: tuple[str, Any], first: int, count: int, seed: int, bots: Sequence[str],
               out: str | None, shards: bool = False) -> list[GameSummary]:
    """Games ``first`` .. ``first + count - 1``; stops between games once the run's stop
    event is set, so a record is either fully written or not started (with ``shards``, the
    chunk's shard holds the games it finished)."""
    variant = _variant_from_spec(spec)
    if shards and out is not None:
        return _shard_chunk(variant, first, count, seed, bots, out, _worker_stopped)
    done = []
    for number in range(first, first + count):
        if _WORKER_STOP is not None and _WORKER_STOP.is_set():
            break
        done.append(play_game(variant, number, seed + number - 1, bots, out))
    return done


def worker_facts(spec: tuple[str, Any]) -> dict[str, str]:
    """What a worker process would play the variant of ``spec`` with: its zipai_rules
    ``version``, the ``content_hash`` of the variant it builds and its ``host`` name.
    Compared with the client's before a cluster run (docs/cluster.md)."""
    from . import __version__
    return {"version": __version__, "content_hash": _variant_from_spec(spec).content_hash,
            "host": socket.gethostname()}


def check_worker(facts: Mapping[str, str], expect: tuple[str, str], worker: str) -> None:
    """Refuse a worker whose :func:`worker_facts` differ from ``expect`` (the client's
    ``(version, content_hash)``): :class:`~zipai_rules.errors.ZipaiError`
    (``worker_mismatch``) naming ``worker``, both versions or both hashes."""
    version, content_hash = expect
    if facts.get("version") != version:
        raise ZipaiError(f"worker {worker} runs zipai_rules {facts.get('version')}, the client "
                         f"{version}: install the same version on every worker",
                         code="worker_mismatch")
    if facts.get("content_hash") != content_hash:
        raise ZipaiError(f"worker {worker} builds the variant with content hash "
                         f"{str(facts.get('content_hash'))[:12]}, the client {content_hash[:12]}:"
                         " the same rules must play on every worker", code="worker_mismatch")


def _run_task(spec: tuple[str, Any], first: int, count: int, seed: int, bots: Sequence[str],
              worker_out: str | None, ship: bool, shards: bool = False,
              expect: tuple[str, str] | None = None, run: str | None = None
              ) -> list[tuple[GameSummary, str | None]]:
    """An executor's task: games ``first`` .. ``first + count - 1``, each with its record's
    text when ``ship`` (for the caller to write; its shard line with ``shards``), or written
    to ``worker_out`` on the disk of the machine that plays it (one shard for the chunk with
    ``shards``). Playing a chunk twice (a retried task) gives the same games and rewrites
    the same files with the same bytes. With ``expect`` (the client's version and variant
    hash) a worker that differs refuses the task before any game (:func:`check_worker`).
    Once the run ``run`` is halted in this process (:func:`halt_tasks`) the task stops
    between games and returns the games ``first`` .. ``k`` it finished (none if halted before
    it started), their shard named by them."""
    def stopped() -> bool:
        return run is not None and run in _HALTED
    variant = _variant_from_spec(spec)
    if expect is not None:
        facts = worker_facts(spec)
        check_worker(facts, expect, facts["host"])
    if worker_out is not None:
        Path(worker_out).mkdir(parents=True, exist_ok=True)
        if shards:
            return [(g, None) for g in _shard_chunk(variant, first, count, seed, bots,
                                                    worker_out, stopped)]
    done = []
    for number in range(first, first + count):
        if stopped():
            break
        summary, text = _play_game(variant, number, seed + number - 1, bots,
                                   ("line" if shards else True) if ship
                                   else worker_out is not None)
        if worker_out is not None and text is not None:
            write_text_atomic(record_path(worker_out, number), text)
            text = None
        done.append((summary, text))
    return done


# --- runs -------------------------------------------------------------------------------------

def max_jobs() -> int:
    """The default cap on worker processes: the number of CPUs (``os.cpu_count()``)."""
    return os.cpu_count() or 1


def _check_count(value: object, what: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ZipaiError(f"{what} {value!r} is not an integer of at least {minimum}",
                         code="bad_option")
    return value


def prepare_out(out: str | Path) -> Path:
    """Create the records folder ``out`` if missing and check that a file can be written in
    it (a probe file is created and removed). Raises :class:`RecordError` (``unwritable``)."""
    path = Path(out)
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".zipai-probe-", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise RecordError(f"{out}: cannot write records there: {exc.strerror or exc}",
                          code="unwritable") from None
    return path


def default_bots(players: int) -> tuple[str, ...]:
    """The bots of a table of ``players`` when none are named: :data:`DEFAULT_BOTS` cut to
    the player count (greedy, random, greedy for three; greedy, random for two)."""
    return DEFAULT_BOTS[:players]


def run_games(variant: VariantLike, games: int, seed: int = 1,
              bots: Sequence[str] | None = None, jobs: int = 1, out: str | Path | None = None, *,
              stop: Callable[[], bool] | None = None, jobs_limit: int | None = None,
              executor: Executor | None = None, out_on_workers: bool = False,
              chunk: int | None = None, shards: bool = False, first: int = 1,
              numbers: Sequence[tuple[int, int]] | None = None,
              halt: Callable[[str], None] | None = None) -> Iterator[GameSummary]:
    """Play ``games`` hands, games ``first`` .. ``first + games - 1``, game k with seed
    ``seed + k - 1`` (so two runs of the same seed, one from ``first=1`` and one from
    ``first=games + 1``, make one numbered series), and yield their summaries as they
    finish: in game order with one job, in completion order with several. Nothing is kept,
    so memory does not grow with ``games``. ``numbers``: instead, exactly the games of these
    inclusive ranges ``[(a, b), …]`` (sorted and apart, as :attr:`Tally.numbers` gives them:
    e.g. the games a stopped run did not finish); ``games`` and ``first`` are then unused.

    ``bots``: bot names (``greedy``, ``random``), repeated to fill the table; by default
    :data:`DEFAULT_BOTS` cut to the variant's player count (:func:`default_bots`).

    ``jobs``: worker processes (1: this process), at most ``jobs_limit`` (default
    :func:`max_jobs`, the number of CPUs). ``out``: a folder for the records, created and
    checked for writing before any game is played. ``stop()`` is polled between games (and
    every 0.1 s with workers); once it returns true no new game starts, the games being played
    finish (their records are whole) and are yielded, then the iteration ends.

    ``executor``: any :class:`concurrent.futures.Executor` to play the games on (a
    ``dask.distributed`` ``Client.get_executor()``, a process or thread pool); ``jobs`` is
    then the number of games it plays at once (its worker threads: not checked against this
    machine's CPUs), and ``4 * jobs`` tasks of ``chunk`` games are kept submitted (by
    default ``games / (8 * jobs)`` rounded up, at most :data:`EXECUTOR_CHUNK`). Results come
    back in completion order; a task the executor retries (a lost worker) yields its games
    once. With ``out``, each game's record is sent back and written here, or, with
    ``out_on_workers``, written by the worker that played it to ``out`` on its own disk
    (``out/game-NNNNN.json``, :func:`record_path`; each machine holds the games it played).
    ``stop()`` ends the run without submitting new tasks. The tasks playing in this process
    (a thread pool's) are told to stop after their game (:func:`halt_tasks`). Without
    ``halt``, every task not started is cancelled and the others are waited for; with
    ``halt``, it is called with the run's token (a string) to tell the executor's workers
    the same (for dask, ``Client.run(halt_tasks, token)``: a dask task being played cannot
    be cancelled), and every task submitted is waited for, so each chunk that ran yields the
    games it finished, a contiguous first part, and with ``out_on_workers`` nothing lands on
    a worker's disk that is not yielded. The wait is bounded by
    :data:`STOP_WAIT_SECONDS`; the tasks still out then are cancelled, their games not
    yielded (with ``out_on_workers`` some of their records may then be on a worker's disk:
    a later run of the same games rewrites them with the same bytes). On an error (a task
    that failed, the iteration closed early) the tasks still out are halted and cancelled,
    not waited for.

    ``shards``: with ``out``, the records of each chunk of games go to one compressed JSON
    Lines shard ``out/games-AAAAAAAA-BBBBBBBB.jsonl.gz`` (:mod:`zipai_rules.shards`)
    instead of a file per game, written by whoever plays the chunk (a worker process; an
    executor's worker with ``out_on_workers``; else this process, from the lines sent back)
    once the chunk ends; a chunk stopped early writes the games it finished. With one job,
    the chunks are of ``chunk`` games (default :data:`EXECUTOR_CHUNK`), and a chunk's
    summaries are yielded once its shard is written, as with workers.

    Raises :class:`~zipai_rules.errors.ZipaiError` (``bad_option``) for a bad count, seed,
    job number or chunk, an unknown bot name or ``shards`` without ``out``,
    :class:`~zipai_rules.errors.RecordError`
    (``unwritable``) for an unwritable ``out``; all before any game is played.
    """
    variant = as_variant(variant)
    _check_count(games, "games", 0)
    check_seed(seed)
    spans = _check_spans([(_check_count(first, "first", 1), first + games - 1)]
                         if numbers is None else numbers)
    games = sum(b - a + 1 for a, b in spans)
    check_last_game(spans[-1][1] if spans else 0)
    check_seed(seed + (spans[-1][1] - 1 if spans else 0))
    if bots is None:
        bots = default_bots(variant.players)
    if not isinstance(shards, bool):
        raise ZipaiError(f"shards {shards!r:.40} is not True or False", code="bad_option")
    if shards and out is None:
        raise ZipaiError("shards: the records' shards go in a records folder: give out",
                         code="bad_option")
    if executor is not None:
        _check_count(jobs, "jobs", 1)
        size = (_check_count(chunk, "chunk", 1) if chunk is not None
                else max(1, min(EXECUTOR_CHUNK, math.ceil(games / (8 * jobs)))))
        make_bots(bots, seed, variant.players)
        if out is not None and not out_on_workers:
            prepare_out(out)
        return _run_executor(variant, spans, seed, bots, executor, 4 * jobs, size, out,
                             out_on_workers, stop, shards, halt)
    limit = max_jobs() if jobs_limit is None else _check_count(jobs_limit, "jobs_limit", 1)
    if _check_count(jobs, "jobs", 1) > limit:
        raise ZipaiError(f"jobs {jobs} is above the limit of {limit} (the number of CPUs)",
                         code="bad_option")
    make_bots(bots, seed, variant.players)  # unknown names fail here, before any work
    if out is not None:
        prepare_out(out)
    if jobs <= 1 or games <= 1:
        if shards and out is not None:
            size = EXECUTOR_CHUNK if chunk is None else _check_count(chunk, "chunk", 1)
            return _run_here_shards(variant, spans, seed, bots, out, stop, size)
        return _run_here(variant, spans, seed, bots, out, stop)
    return _run_pool(variant, spans, seed, bots, jobs, out, stop, shards)


def _run_here_shards(variant: Variant, spans: Sequence[tuple[int, int]], seed: int,
                     bots: Sequence[str], out: str | Path, stop: Callable[[], bool] | None,
                     size: int) -> Iterator[GameSummary]:
    """The games here, in shards of ``size`` games, each chunk's summaries once its shard is
    written."""
    for first, count in _chunks(spans, size):
        if stop is not None and stop():
            return
        yield from _shard_chunk(variant, first, count, seed, bots, out, stop)


def check_last_game(last: int) -> None:
    """Refuse a run whose games would be numbered past ``2**63-1`` (:data:`MAX_COUNT`), the
    most a tally, a record's name and a table's int64 column hold: checked before any game,
    so nothing is written. Raises :class:`ZipaiError` (``bad_option``)."""
    if last > MAX_COUNT:
        raise ZipaiError(f"the games would be numbered up to {brief(str(last), 24)}: game "
                         "numbers go up to 2**63-1 (lower --first or --games)",
                         code="bad_option")


def _check_spans(spans: object) -> list[tuple[int, int]]:
    """``numbers`` of :func:`run_games`: a list of inclusive ranges of game numbers, each
    ``(a, b)`` with ``1 <= a <= b``, sorted and apart (an empty range ``(a, a - 1)`` is
    dropped). Raises :class:`ZipaiError` (``bad_option``) naming the bad one."""
    if not isinstance(spans, (list, tuple)):
        raise ZipaiError(f"numbers {spans!r} is not a list of ranges", code="bad_option")
    checked: list[tuple[int, int]] = []
    for span in spans:
        if (not isinstance(span, (list, tuple)) or len(span) != 2
                or any(isinstance(x, bool) or not isinstance(x, int) for x in span)
                or span[0] < 1 or span[1] < span[0] - 1
                or (checked and span[0] <= checked[-1][1] + 1 and span[1] >= span[0])):
            raise ZipaiError(f"numbers: {span!r} is not a range (a, b) of game numbers "
                             "1 <= a <= b after the ranges before it", code="bad_option")
        if span[1] >= span[0]:
            checked.append((span[0], span[1]))
    return checked


def _chunks(spans: Sequence[tuple[int, int]], size: int) -> Iterator[tuple[int, int]]:
    """``(first, count)`` chunks of at most ``size`` consecutive games covering ``spans``."""
    for a, b in spans:
        for start in range(a, b + 1, size):
            yield start, min(size, b + 1 - start)


def _run_here(variant: Variant, spans: Sequence[tuple[int, int]], seed: int,
              bots: Sequence[str], out: str | Path | None, stop: Callable[[], bool] | None
              ) -> Iterator[GameSummary]:
    for a, b in spans:
        for number in range(a, b + 1):
            if stop is not None and stop():
                return
            yield play_game(variant, number, seed + number - 1, bots, out)


def _run_pool(variant: Variant, spans: Sequence[tuple[int, int]], seed: int,
              bots: Sequence[str], jobs: int, out: str | Path | None,
              stop: Callable[[], bool] | None, shards: bool = False) -> Iterator[GameSummary]:
    """Chunks of games on ``jobs`` workers, at most ``4 * jobs`` chunks submitted at a time."""
    spec = _variant_spec(variant)
    games = sum(b - a + 1 for a, b in spans)
    size = max(1, min(50, math.ceil(games / (jobs * 8))))
    starts = _chunks(spans, size)
    context = multiprocessing.get_context()
    stop_event = context.Event()
    folder = None if out is None else str(out)
    pending: set[Future[list[GameSummary]]] = set()
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                             initargs=(stop_event,)) as pool:
        try:
            while True:
                if stop is not None and stop():
                    break
                for first, count in starts:
                    pending.add(pool.submit(_run_chunk, spec, first, count, seed, list(bots),
                                            folder, shards))
                    if len(pending) >= 4 * jobs:
                        break
                if not pending:
                    return
                finished, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                for f in finished:
                    yield from f.result()
            stop_event.set()  # stopped: let the chunks being played end after their game
            for f in pending:
                f.cancel()
            for f in pending:
                if not f.cancelled():
                    yield from f.result()
        finally:
            stop_event.set()
            for f in pending:
                f.cancel()


def _run_executor(variant: Variant, spans: Sequence[tuple[int, int]], seed: int,
                  bots: Sequence[str],
                  executor: Executor, window: int, size: int, out: str | Path | None,
                  out_on_workers: bool, stop: Callable[[], bool] | None, shards: bool = False,
                  halt: Callable[[str], None] | None = None) -> Iterator[GameSummary]:
    """Chunks of ``size`` games on ``executor``, at most ``window`` submitted at a time;
    stopped as :func:`run_games` says."""
    from . import __version__
    spec = _variant_spec(variant)
    expect = (__version__, variant.content_hash)
    starts = _chunks(spans, size)
    worker_out = str(out) if out is not None and out_on_workers else None
    ship = out is not None and not out_on_workers
    token = uuid.uuid4().hex
    pending: set[Future[list[tuple[GameSummary, str | None]]]] = set()

    def landed(f: Future[list[tuple[GameSummary, str | None]]]) -> Iterator[GameSummary]:
        if shards and ship:
            done = f.result()
            if done and out is not None:
                write_shard(out, done[0][0].number,
                            [text for _, text in done if text is not None])
            for summary, _ in done:
                yield summary
            return
        for summary, text in f.result():
            if out is not None and text is not None:
                write_text_atomic(record_path(out, summary.number), text)
            yield summary

    def halted() -> None:
        halt_tasks(token)
        if halt is None:
            for f in pending:
                f.cancel()
        else:
            halt(token)
    try:
        while not (stop is not None and stop()):
            for first, count in starts:
                pending.add(executor.submit(_run_task, spec, first, count, seed, list(bots),
                                            worker_out, ship, shards, expect, token))
                if len(pending) >= window:
                    break
            if not pending:
                return
            finished, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            for f in finished:
                yield from landed(f)
        halted()
        finished, pending = wait(pending, timeout=STOP_WAIT_SECONDS)
        for f in finished:
            if not f.cancelled():
                yield from landed(f)
    finally:  # an error, the caller gone or the wait given up: halt the rest, not waited for
        if pending:
            halt_tasks(token)
            if halt is not None:
                with contextlib.suppress(Exception):
                    halt(token)
            for f in pending:
                f.cancel()


def simulate(variant: VariantLike, games: int, seed: int = 1,
             bots: Sequence[str] | None = None, jobs: int = 1, out: str | Path | None = None,
             progress: Callable[[int, int], None] | None = None, *,
             executor: Executor | None = None, out_on_workers: bool = False,
             chunk: int | None = None, shards: bool = False, first: int = 1
             ) -> list[GameSummary]:
    """Play ``games`` hands as :func:`run_games` does (``executor``, ``out_on_workers``,
    ``chunk``, ``shards`` and ``first`` as there); returns all their summaries in game order
    (for a long run, iterate :func:`run_games` and :func:`summarize` instead, which keep
    nothing).
    ``progress(done, total)`` is called as games finish. Raises as :func:`run_games`.
    """
    done: list[GameSummary] = []
    for g in run_games(variant, games, seed, bots, jobs, out, executor=executor,
                       out_on_workers=out_on_workers, chunk=chunk, shards=shards, first=first):
        done.append(g)
        if progress:
            progress(len(done), games)
    return sorted(done, key=lambda g: g.number)


# --- playing a variant with invariant checks --------------------------------------------------

class _Problem(Exception):
    """A broken invariant found by :func:`simulate_check` (its message says which)."""


def simulate_check(variant: VariantLike, games: int, max_steps: int = 2000) -> str | None:
    """Play ``games`` seeded games (seeds 1..``games``) checking the invariants of
    :mod:`~zipai_rules.invariants` before every decision and at the end, and that the
    payments balance; the first problem (``seed S step K: …``) or ``None``.

    Every built-in bot plays in every game (seat ``s`` of game ``seed`` is played by bot
    ``(seed + s) mod len(BOTS)``), so a variant that a bot cannot play is found here; a bot
    that fails is reported as a problem, and so is a hand not over after ``max_steps``
    decisions."""
    variant = as_variant(variant)
    kinds = sorted(BOTS)
    for seed in range(1, games + 1):
        game = Game(variant, seed=seed)
        names = [kinds[(seed + s) % len(kinds)] for s in range(variant.players)]
        bots = make_bots(names, seed, variant.players)

        def check(g: Game, seed: int = seed) -> None:
            if len(g.actions) >= max_steps:
                raise _Problem(f"seed {seed}: the hand did not end within {max_steps} steps")
            problem = game_problem(g)
            if problem is not None:
                raise _Problem(f"seed {seed} step {len(g.actions)}: {problem}")

        def guarded(bot: Bot, name: str, seed: int = seed, game: Game = game) -> Bot:
            def play(state: GameState, options: Sequence[Action]) -> Action:
                try:
                    return bot(state, options)
                except Exception as exc:  # noqa: BLE001 - reported: finding such faults is the point
                    raise _Problem(f"seed {seed} step {len(game.actions)}: the {name} bot "
                                   f"failed: {type(exc).__name__}: {exc}") from exc
            return play
        try:
            players = [guarded(b, n) for b, n in zip(bots, names, strict=True)]
            play_out(game, players, max_steps + 1, before=check)
        except _Problem as problem:
            return str(problem)
        end = game_problem(game) or payments_balance(
            settle(variant, game.result, events=game.events))
        if end is not None:
            return f"seed {seed} step {len(game.actions)}: {end}"
    return None
