"""The command line when its standard output cannot be written: a full disk is a one-line
``error:`` with exit 2, a closed stream or a reader that stops early ends quietly, and a record
asked with ``--record`` is written in every case (it was lost, or a traceback)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

COMMAND = [sys.executable, "-m", "zipai_rules.cli"]


def _run(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(COMMAND + args, capture_output=False, text=True, timeout=120,
                          check=False, **kw)  # type: ignore[call-overload]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["play", "--seed", "2"], ["variants"], ["terms", "hunan"]])
def test_a_full_disk_is_one_error_line(args: list[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    extra = ["--record", str(record)] if args[0] == "play" else []
    with open("/dev/full", "w") as full:
        done = _run(args + extra, stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 2
    assert done.stderr == "error: cannot write the output: No space left on device\n"
    if extra:
        assert json.loads(record.read_text())["seed"] == 2


def test_a_closed_output_still_writes_the_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    done = subprocess.run(COMMAND + ["play", "--seed", "2", "--record", str(record)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          timeout=120, check=False, close_fds=True,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert json.loads(record.read_text())["seed"] == 2


def test_a_reader_that_stops_early_keeps_the_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    play = subprocess.Popen(COMMAND + ["play", "--seed", "2", "--record", str(record)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert play.stdout is not None and play.stderr is not None
    first = play.stdout.readline()
    play.stdout.close()  # as `| head -1` does
    err = play.stderr.read()
    assert play.wait(timeout=120) == 0 and "Traceback" not in err
    assert first.startswith("湖南跑胡子 (hunan), seed 2")
    assert json.loads(record.read_text())["seed"] == 2
