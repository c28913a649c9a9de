"""``zipai simulate --dask``: the client's side of a cluster run (docs/cluster.md).

:func:`dask_executor` connects (or starts a ``LocalCluster``), checks every worker before any
game (:func:`check_workers`: the same zipai_rules version and variant hash as the client),
pauses dask's sampling profiler and event-loop tick on the workers for the run, and yields
the executor with a :class:`Watch` that reports lost workers and the chunks the scheduler
plays again.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import Executor
from typing import Any

from ..errors import ZipaiError, brief, install_hint
from ..simulate import _variant_spec, check_worker, halt_tasks, worker_facts
from ..variant import Variant
from . import scheduler
from .scheduler import probe_scheduler

__all__ = ["Watch", "check_workers", "dask_executor"]


#: the worker's periodic callbacks paused for a run: dask's sampling profiler, which samples
#: the running task's stack every 10 ms, its hourly cycle, and the event loop's tick, which
#: wakes the loop every 20 ms to measure its latency (``distributed.admin.tick``): each wake
#: takes the interpreter lock from the task playing the games; measured, the games' own CPU
#: time grew by a quarter with it (docs/cluster.md)
QUIETED = ("profile", "profile-cycle", "tick")


def _pause_profiler(dask_worker: Any) -> list[str]:
    """Run on a worker (``Client.run``): stop the callbacks of :data:`QUIETED` that run;
    their names (for :func:`_resume_profiler`)."""
    stopped = []
    for name in QUIETED:
        callback = dask_worker.periodic_callbacks.get(name)
        if callback is not None and callback.is_running():
            callback.stop()
            stopped.append(name)
    return stopped


def _resume_profiler(names: list[str] | None = None, *, dask_worker: Any) -> None:
    """Run on a worker: start again the callbacks :func:`_pause_profiler` stopped
    (``names``; default all of :data:`QUIETED`)."""
    for name in QUIETED if names is None else names:
        callback = dask_worker.periodic_callbacks.get(name)
        if callback is not None and not callback.is_running():
            callback.start()


def _ignore_sigint() -> bool:
    """Run on a LocalCluster's worker (``Client.run``): ignore Ctrl-C there, so that a
    terminal's SIGINT, sent to the whole process group, reaches only the client, which stops
    the run (the workers finish their game and are shut down by it). Whether it could be set
    (the worker's loop runs in its main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    return True


async def _halt(run: str) -> None:
    """Run on a worker (``Client.run``; a coroutine, so that the client need not wait):
    :func:`~zipai_rules.simulate.halt_tasks`."""
    halt_tasks(run)


def present(client: Any) -> list[str]:
    """The addresses of the workers the scheduler of ``client`` knows now (``[]`` when it
    cannot be asked): the only ones a broadcast is sent to, as one to a lost worker waits
    for dask's connect timeout (30 s)."""
    try:
        return sorted(client.scheduler_info()["workers"])
    except Exception:  # noqa: BLE001 - no scheduler: nobody to tell
        return []


def check_workers(client: Any, variant: Variant) -> int:
    """Ask every worker of ``client`` for its :func:`~zipai_rules.simulate.worker_facts` of
    ``variant`` and refuse the first that differs from this process: its zipai_rules
    version, or the content hash of the variant it builds. Returns the number of workers.
    Raises :class:`ZipaiError` (``worker_mismatch``) for a mismatch or a worker that cannot
    run zipai_rules at all (not installed there: the message names it)."""
    from .. import __version__
    spec = _variant_spec(variant)
    expect = (__version__, variant.content_hash)
    try:
        answers = client.run(worker_facts, spec, on_error="return")
    except Exception as exc:  # noqa: BLE001 - dask's failures, reported as one line
        raise ZipaiError(f"cannot check the workers: {type(exc).__name__}: "
                         f"{brief(str(exc), 200)}", code="worker_mismatch") from None
    for worker, facts in sorted(answers.items()):
        if isinstance(facts, BaseException):
            raise ZipaiError(f"worker {worker} cannot run zipai_rules: "
                             f"{type(facts).__name__}: {brief(str(facts), 200)}",
                             code="worker_mismatch")
        check_worker(facts, expect, worker)
    return len(answers)


class Watch:
    """Looks at a dask cluster's workers for :class:`~.progress.Progress` (from its thread):
    ``watch()`` returns the number of workers and one line per worker lost since the last
    call, with the number of chunks it was playing, which the scheduler plays again on the
    others (each game counts once: a retried chunk plays the same games)."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.playing: dict[str, int] = {}
        self.lost = 0

    def halt(self, run: str) -> None:
        """The ``halt`` hook of :func:`~zipai_rules.simulate.run_games`: tell the workers
        still there (:func:`present`) to stop the tasks of ``run`` after their game
        (:func:`~zipai_rules.simulate.halt_tasks`), without waiting for their answer."""
        workers = present(self.client)
        if workers:
            with contextlib.suppress(Exception):
                self.client.run(_halt, run, workers=workers, wait=False)

    def __call__(self) -> tuple[int | None, list[str]]:
        try:
            playing = {w: len(keys) for w, keys in self.client.processing().items()}
        except Exception:  # noqa: BLE001 - a look that failed is retried at the next tick
            return None, []
        events = []
        for worker in sorted(set(self.playing) - set(playing)):
            self.lost += 1
            chunks = self.playing[worker]
            if not chunks:
                events.append(f"worker {worker} lost")
                continue
            them = "it" if chunks == 1 else "them"
            events.append(f"worker {worker} lost while playing {chunks} chunk"
                          f"{'s' if chunks != 1 else ''}: the scheduler plays {them} again on "
                          "the other workers")
        for worker in sorted(set(playing) - set(self.playing)):
            if self.playing:
                events.append(f"worker {worker} joined")
        self.playing = playing
        return len(playing), events


@contextlib.contextmanager
def dask_executor(address: str, jobs: int, variant: Variant | None = None
                  ) -> Iterator[tuple[Executor, int, Watch]]:
    """A ``dask.distributed`` client's executor, the number of games it plays at once (its
    workers' threads) and a :class:`Watch` of its workers: on the scheduler at ``address``,
    or, for ``local``, on a ``LocalCluster`` of ``jobs`` single-threaded worker processes
    started here and shut down on leaving. A ``tcp://`` address is first checked to be a dask
    scheduler, within :data:`~.scheduler.HANDSHAKE_SECONDS` (:func:`~.scheduler.probe_scheduler`).
    With ``variant``, every worker is checked (:func:`check_workers`) before the block, and
    the workers' profiler and tick (:data:`QUIETED`) are paused within it. Raises
    :class:`ZipaiError` (``bad_option``) when the ``[dask]`` extra is not installed, the
    address cannot be read, the scheduler cannot be reached, or what answers is not one;
    ``worker_mismatch`` as :func:`check_workers`."""
    try:
        import distributed
    except ImportError:
        raise ZipaiError(f"--dask needs dask.distributed: {install_hint('dask')}",
                         code="bad_option") from None
    dask: Any = distributed  # its entry points are untyped
    with contextlib.ExitStack() as stack:
        if address == "local":
            # the workers' warnings (a stopped run's cancelled tasks) are noise here: a
            # lost worker is reported by the Watch; their errors still show
            levels = _levels()
            stack.callback(_set_levels, levels)  # as they were, once the cluster is closed
            cluster = stack.enter_context(dask.LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0",
                silence_logs=logging.ERROR))
            client = stack.enter_context(dask.Client(cluster))
            client.run(_ignore_sigint, on_error="return")
            # the shutdown of a cluster that just ran: its comms closing log tracebacks,
            # here and in the workers
            stack.callback(_quiet_shutdown, client)
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
        if variant is not None:
            check_workers(client, variant)
            paused = client.run(_pause_profiler, on_error="return")
            if address != "local":  # a LocalCluster's workers end with the run
                stack.callback(_resume, client, {w: names for w, names in paused.items()
                                                 if isinstance(names, list) and names})
        threads = sum(client.nthreads().values()) or 1
        yield client.get_executor(), threads, Watch(client)


#: the loggers quieted while a LocalCluster of a run shuts down: its comms closing while the
#: workers stop log errors and tracebacks that say nothing about the run
SHUTDOWN_LOGGERS = ("distributed", "tornado", "asyncio")


def _levels() -> dict[str, int]:
    return {name: logging.getLogger(name).level for name in SHUTDOWN_LOGGERS}


def _set_levels(levels: dict[str, int]) -> None:
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def _quiet() -> None:
    _set_levels(dict.fromkeys(SHUTDOWN_LOGGERS, logging.CRITICAL))


def _quiet_shutdown(client: Any) -> None:
    """Before a LocalCluster shuts down: only critical logging from :data:`SHUTDOWN_LOGGERS`
    here and on its workers still there (:func:`present`)."""
    _quiet()
    workers = present(client)
    if workers:
        with contextlib.suppress(Exception):
            client.run(_quiet, workers=workers, on_error="return")


def _resume(client: Any, paused: dict[str, list[str]]) -> None:
    """Start again what :func:`_pause_profiler` stopped, on the workers still there
    (:func:`present`; a lost one would hold the client for dask's connect timeout): one
    broadcast per set of callbacks."""
    there = set(present(client))
    groups: dict[tuple[str, ...], list[str]] = {}
    for worker, names in paused.items():
        if worker in there:
            groups.setdefault(tuple(names), []).append(worker)
    for group, workers in groups.items():
        with contextlib.suppress(Exception):
            client.run(_resume_profiler, list(group), workers=workers, on_error="return")
