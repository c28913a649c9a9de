"""Bounds on work, not on seconds: a test of "refused quickly" counts the work done, so that
it gives the same verdict on a busy machine as on an idle one (issue 24, kind 12).

* :class:`calls` counts the function calls (Python and built-in) made inside its block and
  stops the block with :class:`TooMuchWork` once they pass the budget: a quadratic walk of
  50 000 items is stopped after its first ``budget`` calls, not waited for.
* :func:`hang_guard` only guards against a hang: a generous alarm (minutes) that turns a block
  that never ends into a failure. It measures no speed.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

#: the hang guard's alarm: far above any run of the suite, on any machine
HANG_SECONDS = 300


class TooMuchWork(AssertionError):
    """More calls than the budget of a :class:`calls` block."""


class calls:
    """``with calls(budget) as work: ...``; ``work.count`` is the number of calls made."""

    def __init__(self, budget: int) -> None:
        self.budget, self.count = budget, 0

    def _profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            self.count += 1
            if self.count > self.budget:
                sys.setprofile(None)
                raise TooMuchWork(f"more than {self.budget} calls")

    def __enter__(self) -> calls:
        self._previous = sys.getprofile()
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.setprofile(self._previous)


@contextlib.contextmanager
def hang_guard(seconds: int = HANG_SECONDS) -> Iterator[None]:
    """Fail the block if it has not ended after ``seconds`` (POSIX, main thread; elsewhere
    no guard)."""
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def hung(signum: int, frame: FrameType | None) -> None:
        raise AssertionError(f"still running after {seconds} s: a hang")
    previous = signal.signal(signal.SIGALRM, hung)
    left = signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        if left:
            signal.alarm(left)
