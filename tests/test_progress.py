"""zipai simulate's progress: the plain line (a fake clock, so no second is waited or
measured), the reporting thread's schedule, events, and the bar on a terminal (tqdm)."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from zipai_rules.cli.progress import WATCH_EVERY, Progress, duration


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_duration() -> None:
    assert [duration(s) for s in (0, 44.6, 60, 340, 3600, 10_920, 86_400 * 2 + 3600 * 4)] == \
        ["0s", "45s", "1m 00s", "5m 40s", "1h 00m", "3h 02m", "2d 04h"]


def test_the_plain_line_says_done_rate_eta_and_workers() -> None:
    clock = Clock()
    p = Progress(20_000, io.StringIO(), every=30, bar=False, clock=clock)
    assert p.line() == "progress: 0/20,000 games (0.0%), 0.0 games/s, ETA unknown"
    clock.now += 10
    p.update(1_200)
    p.workers = 2
    # 120 games/s, 18,800 left: 156.7 s
    assert p.line() == ("progress: 1,200/20,000 games (6.0%), 120.0 games/s, ETA 2m 37s, "
                        "2 workers")
    p.update(20_000)
    p.workers = 1
    assert p.line(clock.now + 90) == ("progress: 20,000/20,000 games (100.0%), 200.0 games/s, "
                                      "done, 1 worker")


def test_the_thread_writes_a_line_every_period_and_the_events() -> None:
    clock, out = Clock(), io.StringIO()
    looks = iter([(3, []), (2, ["worker tcp://a:1 lost while playing 1 chunk: …"])])
    p = Progress(100, out, every=5, bar=False, watch=lambda: next(looks), clock=clock)
    t0 = clock.now
    last = p.tick(t0 + 1, t0, t0)  # a look at the workers, no line yet
    assert out.getvalue() == "" and p.workers == 3 and last == (t0, t0 + 1)
    p.update(40)
    last = p.tick(t0 + 5, *last)  # 5 s: a line, and the second look's event first
    assert out.getvalue().splitlines() == [
        "worker tcp://a:1 lost while playing 1 chunk: …",
        "progress: 40/100 games (40.0%), 8.0 games/s, ETA 8s, 2 workers"]
    assert last == (t0 + 5, t0 + 5) and p.lines == 1
    assert WATCH_EVERY <= 5


def test_no_line_when_off_and_a_closing_line_only_after_one() -> None:
    out = io.StringIO()
    with Progress(10, out, every=0, bar=False) as p:
        p.update(10)
        assert p.tick(p.started + 100, p.started, p.started) == (p.started, p.started)
    assert out.getvalue() == ""
    clock = Clock()
    with Progress(10, out, every=1, bar=False, clock=clock) as p:
        p.tick(clock.now + 1, clock.now, clock.now)
        p.update(10)
        clock.now += 2
    assert out.getvalue().splitlines() == [
        "progress: 0/10 games (0.0%), 0.0 games/s, ETA unknown",
        "progress: 10/10 games (100.0%), 5.0 games/s, done"]


def test_a_pipe_gets_lines_from_the_cli() -> None:
    """Not a terminal: the plain lines on standard error, the statistics alone on stdout (40
    games: a run over before the first 0.01 s line writes no line at all, by design)."""
    done = subprocess.run([sys.executable, "-m", "zipai_rules.cli", "simulate", "--games", "40",
                           "--progress-every", "0.01", "--json"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines and all(line.startswith("progress: ") for line in lines)
    assert lines[-1].startswith("progress: 40/40 games (100.0%), ") and lines[-1].endswith("done")
    assert '"games": 40' in done.stdout


def test_the_bar_on_a_terminal() -> None:
    pexpect = pytest.importorskip("pexpect", reason="the terminal test drives a pty (pexpect)")
    child = pexpect.spawn(sys.executable, ["-m", "zipai_rules.cli", "simulate", "--games", "6",
                                           "--progress-every", "0.01"],
                          encoding="utf-8", timeout=300, dimensions=(24, 100))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = child.before
    assert "/6 [" in text and "game/s" in text  # tqdm's bar, not the plain line
    assert "progress: " not in text


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "86401", "1e400", "x", ""])
def test_a_bad_period_is_refused(value, capsys) -> None:
    from zipai_rules.cli import main

    with pytest.raises(SystemExit) as e:
        main(["simulate", "--games", "1", "--progress-every", value])
    assert e.value.code == 2
    assert "argument --progress-every: " in capsys.readouterr().err
