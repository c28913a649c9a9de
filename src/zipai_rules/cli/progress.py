"""What ``zipai simulate`` shows while it plays, on its standard error.

On a terminal, a bar (:mod:`tqdm`) with the games done, games/s, the time left and, on a
cluster, the workers. Anywhere else (a batch job, ``nohup``, CI, a pipe) a plain line every
``every`` seconds::

    progress: 1,200/20,000 games (6.0%), 55.3 games/s, ETA 5m 40s, 2 workers

Events (a lost worker, the chunks the scheduler plays again) are one line each in both modes.
The lines are written by a thread of their own, so a run whose chunks take long still reports
on time; the bar is redrawn as games finish.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

__all__ = ["DEFAULT_EVERY", "Progress", "duration"]

#: seconds between two plain progress lines when ``--progress-every`` is not given
DEFAULT_EVERY = 30.0
#: seconds between two looks at the cluster's workers (``watch``)
WATCH_EVERY = 1.0


def duration(seconds: float) -> str:
    """``45s``, ``5m 40s``, ``3h 02m``, ``2d 04h``: a time left, to the unit that matters."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m {s % 60:02d}s"
    if s < 86400:
        return f"{s // 3600}h {s % 3600 // 60:02d}m"
    return f"{s // 86400}d {s % 86400 // 3600:02d}h"


class Progress:
    """The progress of a run of ``total`` games on ``stream``.

    ``bar``: draw a :mod:`tqdm` bar (by default when ``stream`` is a terminal); otherwise a
    plain line every ``every`` seconds (0: none). ``watch()``, when given, is called every
    :data:`WATCH_EVERY` seconds from the reporting thread and returns the number of workers
    (``None``: not known) and the events to report since its last call (one line each).
    ``clock`` is :func:`time.monotonic` (a test passes its own). Use as a context manager:
    the thread runs inside the block; :meth:`update` is called with the games done."""

    def __init__(self, total: int, stream: TextIO, *, every: float = DEFAULT_EVERY,
                 bar: bool | None = None,
                 watch: Callable[[], tuple[int | None, list[str]]] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total, self.stream, self.every, self.watch, self.clock = (
            total, stream, every, watch, clock)
        self.bar = stream.isatty() if bar is None else bar
        self.done = 0
        self.workers: int | None = None
        self.started = clock()
        self.lines = 0  # plain lines written
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._tqdm: Any = None

    # --- what is shown ---------------------------------------------------------------------

    def line(self, now: float | None = None) -> str:
        """The plain progress line at ``now`` (default: the clock's time)."""
        elapsed = (self.clock() if now is None else now) - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        share = self.done / self.total if self.total else 1.0
        parts = [f"progress: {self.done:,}/{self.total:,} games ({share:.1%})",
                 f"{rate:,.1f} games/s"]
        if self.done >= self.total:
            parts.append("done")
        elif rate > 0:
            parts.append(f"ETA {duration((self.total - self.done) / rate)}")
        else:
            parts.append("ETA unknown")
        if self.workers is not None:
            parts.append(f"{self.workers} worker{'s' if self.workers != 1 else ''}")
        return ", ".join(parts)

    def note(self, text: str) -> None:
        """Write one event line (above the bar, if one is drawn)."""
        with self._lock:
            if self._tqdm is not None:
                self._tqdm.write(text, file=self.stream)
            else:
                self.stream.write(text + "\n")
                self.stream.flush()

    def update(self, done: int) -> None:
        """The run has finished ``done`` games."""
        self.done = done
        if self._tqdm is not None:
            with self._lock:
                self._tqdm.update(done - self._tqdm.n)

    # --- the reporting thread --------------------------------------------------------------

    def tick(self, now: float, last_line: float, last_watch: float) -> tuple[float, float]:
        """One turn of the reporting thread at ``now``: look at the workers when
        :data:`WATCH_EVERY` has passed since ``last_watch``, write a plain line when ``every``
        has passed since ``last_line``; the new ``(last_line, last_watch)``."""
        if self.watch is not None and now - last_watch >= WATCH_EVERY:
            last_watch = now
            workers, events = self.watch()
            if workers is not None:
                self.workers = workers
                if self._tqdm is not None:
                    with self._lock:
                        self._tqdm.set_postfix_str(
                            f"{workers} worker{'s' if workers != 1 else ''}")
            for event in events:
                self.note(event)
        if not self.bar and self.every > 0 and now - last_line >= self.every:
            last_line = now
            self.lines += 1
            self.note(self.line(now))
        return last_line, last_watch

    def _run(self) -> None:
        last_line = last_watch = self.started
        step = min(x for x in (WATCH_EVERY if self.watch is not None else 0.0,
                               self.every if not self.bar else 0.0) if x > 0)
        while not self._stop.wait(step):
            last_line, last_watch = self.tick(self.clock(), last_line, last_watch)

    def __enter__(self) -> Progress:
        if self.bar:
            from tqdm import tqdm  # only for a terminal: other commands need not import it
            self._tqdm = tqdm(total=self.total, file=self.stream, unit="game", leave=False,
                              dynamic_ncols=True, smoothing=0.1)
        if self.watch is not None or (not self.bar and self.every > 0):
            self._thread = threading.Thread(target=self._run, name="zipai-progress",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self._tqdm is not None:
            self._tqdm.close()
            self._tqdm = None
        elif self.lines:  # a run that reported on the way says how it ended
            self.note(self.line())
