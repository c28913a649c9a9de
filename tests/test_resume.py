"""Stopping and resuming zipai simulate (issue 29): a stopped run leaves a manifest with the
statistics of its finished games; ``--resume`` plays exactly the missing ones, and the
records and statistics equal an uninterrupted run's, byte for byte, under --jobs and --dask;
``--first K`` numbers a run from K so that two runs make one series. The signals go to a
real ``zipai simulate`` process; the work is bounded in games, never timed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import zipai_rules
from zipai_rules.cli import main
from zipai_rules.errors import ZipaiError
from zipai_rules.manifest import missing, read_manifest, write_manifest
from zipai_rules.presets import load_preset
from zipai_rules.simulate import run_games, simulate, summarize
from zipai_rules.stats import merge_stats

COMMAND = [sys.executable, "-m", "zipai_rules.cli", "simulate"]
GAMES, SEED = 240, 11


def records(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("game-*.json"))}


def untimed(stats: dict) -> dict:
    return {k: v for k, v in stats.items() if k != "timing"}


def cli_json(capsys, *argv) -> dict:
    assert main(["simulate", *map(str, argv), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """One uninterrupted run (in this process): its statistics and its records."""
    folder = tmp_path_factory.mktemp("reference")
    hunan = load_preset("hunan")
    games = simulate(hunan, GAMES, seed=SEED, out=folder)
    return untimed(summarize(hunan, games, seed=SEED, bots=["greedy", "random", "greedy"])), \
        records(folder)


def shard_records(folder: Path) -> dict[str, bytes]:
    """The records held by the shards in ``folder``, by the per-game file name each would
    have, each game once (a game in two shards fails)."""
    from zipai_rules.records import dumps_record
    from zipai_rules.shards import iter_shard
    found: dict[str, bytes] = {}
    for path in sorted(folder.glob("games-*.jsonl.gz")):
        for number, record in iter_shard(path):
            name = f"game-{number:05d}.json"
            assert name not in found, f"game {number} in two shards"
            found[name] = dumps_record(record).encode()
    return dict(sorted(found.items()))


def stop_when_playing(args: list[str], out: Path, signum: int, written=records,
                      group: bool = False) -> tuple[int, str, str]:
    """Run the command, send ``signum`` once a few records are written (a hang guard only);
    with ``group``, to its whole process group, as a terminal sends Ctrl-C."""
    proc = subprocess.Popen(COMMAND + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and len(written(out) if out.exists() else ()) < 2:
            if proc.poll() is not None:
                break
            time.sleep(0.02)
        if group:
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)
        stdout, stderr = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, stdout, stderr


MODES = {"jobs-sigint": (["--jobs", "2"], signal.SIGINT),
         "jobs-sigterm": (["--jobs", "2"], signal.SIGTERM),
         "dask-sigint": (["--dask", "local", "--jobs", "2"], signal.SIGINT)}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_stop_and_resume_equals_one_run(mode, reference, tmp_path, capsys):
    options, signum = MODES[mode]
    if "--dask" in options:
        pytest.importorskip("distributed", reason="--dask needs the [dask] extra")
    stats, files = reference
    out = tmp_path / "run"
    code, stdout, stderr = stop_when_playing(
        ["--games", str(GAMES), "--seed", str(SEED), "--out", str(out), "--json",
         "--progress-every", "0", *options], out, signum)
    assert code == 128 + signum, stderr
    manifest = read_manifest(out / "run.json")
    assert manifest.state == "stopped" and 0 < manifest.tally.games < GAMES
    # the statistics of the finished games: printed, and kept in the manifest
    printed = json.loads(stdout)
    assert printed == dict(manifest.statistics)
    assert printed["games"] == manifest.tally.games == len(records(out))
    finished = {n for a, b in manifest.tally.numbers for n in range(a, b + 1)}
    assert {int(name[5:-5]) for name in records(out)} == finished
    assert f"its manifest: {out / 'run.json'}, continue it with `zipai simulate --resume " \
           f"{out}`" in stderr
    # resumed: exactly the missing games, then the run is the uninterrupted one
    resumed = cli_json(capsys, "--resume", out, *options, "--progress-every", 0)
    assert untimed(resumed) == stats
    assert records(out) == files
    assert read_manifest(out / "run.json").state == "finished"
    assert missing(read_manifest(out / "run.json")) == []


@pytest.mark.parametrize("mode", ["jobs-sigint", "dask-sigint"])
def test_stop_and_resume_with_shards_equals_one_run(mode, reference, tmp_path, capsys):
    """With --shards the stopped chunks' shards hold the games they finished; the manifest
    keeps the record format, so the resumed games go to shards too, and the records of all
    the shards are the uninterrupted run's files byte for byte, each game once."""
    options, signum = MODES[mode]
    if "--dask" in options:
        pytest.importorskip("distributed", reason="--dask needs the [dask] extra")
    stats, files = reference
    out = tmp_path / "run"
    code, stdout, stderr = stop_when_playing(
        ["--games", str(GAMES), "--seed", str(SEED), "--out", str(out), "--shards", "--json",
         "--progress-every", "0", *options, *(["--chunk", "5"] if "--dask" in options else [])],
        out, signum, shard_records)
    assert code == 128 + signum, stderr
    manifest = read_manifest(out / "run.json")
    assert manifest.state == "stopped" and manifest.shards and 0 < manifest.tally.games < GAMES
    finished = {n for a, b in manifest.tally.numbers for n in range(a, b + 1)}
    assert {int(name[5:-5]) for name in shard_records(out)} == finished
    assert not list(out.glob("game-*.json"))
    # the format comes from the manifest, not again from the command line
    assert main(["simulate", "--resume", str(out), "--shards"]) == 2
    assert "--shards cannot be given with it" in capsys.readouterr().err
    resumed = cli_json(capsys, "--resume", out, *options, "--progress-every", 0)
    assert untimed(resumed) == stats
    assert shard_records(out) == files
    assert not list(out.glob("game-*.json"))


def test_ctrl_c_to_the_group_under_dask_with_shards_on_the_workers(reference, tmp_path, capsys):
    """Ctrl-C from a terminal reaches the LocalCluster's workers too: they ignore it, the
    client stops the run, and every task the workers played comes back and is counted (a
    dask task being played cannot be cancelled: it is told to stop after its game), so the
    shards the workers wrote hold exactly the games the manifest counts. Resumed in chunks
    of another size, the shards hold every game once, the uninterrupted run's records."""
    pytest.importorskip("distributed", reason="--dask needs the [dask] extra")
    stats, files = reference
    out = tmp_path / "run"
    code, stdout, stderr = stop_when_playing(
        ["--games", str(GAMES), "--seed", str(SEED), "--out", str(out), "--out-on-workers",
         "--shards", "--chunk", "5", "--json", "--progress-every", "0", "--dask", "local",
         "--jobs", "2"], out, signal.SIGINT, shard_records, group=True)
    assert code == 130, stderr
    # one line, the run's: no worker's KeyboardInterrupt, no dask warning or traceback
    assert stderr.count("\n") == 1 and stderr.startswith("interrupted after "), stderr
    manifest = read_manifest(out / "run.json")
    assert manifest.state == "stopped" and 0 < manifest.tally.games < GAMES
    finished = {n for a, b in manifest.tally.numbers for n in range(a, b + 1)}
    assert {int(name[5:-5]) for name in shard_records(out)} == finished
    assert json.loads(stdout)["games"] == len(finished)
    resumed = cli_json(capsys, "--resume", out, "--dask", "local", "--jobs", "2", "--chunk", 7,
                       "--progress-every", 0)
    assert untimed(resumed) == stats
    assert shard_records(out) == files


def test_a_killed_client_leaves_a_running_manifest(reference, tmp_path, capsys):
    """SIGKILL (a lost client): the manifest written as it started says what to play."""
    stats, files = reference
    out = tmp_path / "run"
    code, _, _ = stop_when_playing(["--games", "30", "--seed", str(SEED), "--out", str(out),
                                    "--progress-every", "0"], out, signal.SIGKILL)
    assert code == -signal.SIGKILL
    manifest = read_manifest(out / "run.json")
    assert manifest.state == "running" and manifest.games == 30
    resumed = cli_json(capsys, "--resume", out / "run.json", "--progress-every", 0)
    hunan = load_preset("hunan")
    assert untimed(resumed) == untimed(summarize(
        hunan, simulate(hunan, 30, seed=SEED), seed=SEED, bots=["greedy", "random", "greedy"]))
    assert records(out) == {k: v for k, v in files.items() if int(k[5:-5]) <= 30}


def test_first_numbers_two_runs_as_one_series(reference, tmp_path, capsys):
    stats, files = reference
    a = cli_json(capsys, "--games", 5, "--seed", SEED, "--out", tmp_path)
    b = cli_json(capsys, "--games", 7, "--first", 6, "--seed", SEED, "--out", tmp_path,
                 "--manifest", tmp_path / "second.json")
    assert b["tally"]["numbers"] == [[6, 12]] and b["seed"] == SEED
    assert records(tmp_path) == {k: v for k, v in files.items() if int(k[5:-5]) <= 12}
    hunan = load_preset("hunan")
    one = summarize(hunan, simulate(hunan, 12, seed=SEED), seed=SEED,
                    bots=["greedy", "random", "greedy"])
    assert untimed(merge_stats([a, b])) == untimed(one)
    # run_games: game K has seed SEED+K-1 whatever the run's first game
    assert [g.seed for g in run_games(hunan, 3, SEED, first=6)] == [SEED + 5, SEED + 6, SEED + 7]
    assert [g.number for g in run_games(hunan, 0, SEED, numbers=[(2, 3), (9, 9)])] == [2, 3, 9]
    with pytest.raises(ZipaiError) as e:
        list(run_games(hunan, 0, SEED, numbers=[(3, 4), (4, 6)]))
    assert e.value.code == "bad_option"


def test_resume_refuses_what_would_change_the_run(tmp_path, capsys):
    assert main(["simulate", "--games", "2", "--out", str(tmp_path), "--json"]) == 0
    capsys.readouterr()
    for extra, message in [(["--games", "3"], "--games cannot be given with it"),
                           (["--bots", "random"], "--bots cannot be given with it"),
                           (["--variant", "guilin"], "cannot be resumed with other rules")]:
        assert main(["simulate", "--resume", str(tmp_path), *extra]) == 2
        assert message in capsys.readouterr().err
    doc = json.loads((tmp_path / "run.json").read_text())
    doc["statistics"]["engine"] = "0.0.1"
    (tmp_path / "run.json").write_text(json.dumps(doc))
    assert main(["simulate", "--resume", str(tmp_path)]) == 2
    assert "the run played with zipai_rules 0.0.1" in capsys.readouterr().err
    # a finished run resumed plays nothing and prints its statistics again
    doc["statistics"]["engine"] = zipai_rules.__version__
    (tmp_path / "run.json").write_text(json.dumps(doc))
    again = cli_json(capsys, "--resume", tmp_path)
    assert untimed(again) == untimed(doc["statistics"])


def manifest_doc(tmp_path, capsys) -> dict:
    assert main(["simulate", "--games", "3", "--manifest", str(tmp_path / "m.json"),
                 "--json"]) == 0
    capsys.readouterr()
    return json.loads((tmp_path / "m.json").read_text())


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(format="zipai-run/2"), "format is not 'zipai-run/1'"),
    (lambda d: d.update(extra=1), "extra is not a field of a manifest"),
    (lambda d: d.pop("games"), "games is missing"),
    (lambda d: d.update(games=True), "games is not an integer"),
    (lambda d: d.update(first=0), "first is not an integer"),
    (lambda d: d.update(state="done"), "state is not one of"),
    (lambda d: d.update(out=5), "out is not a folder name or null"),
    (lambda d: d.update(out_on_workers="no"), "out_on_workers is not true or false"),
    (lambda d: d.update(games=2), "statistics hold games outside 1..2"),
    (lambda d: d["statistics"].update(games=4), "statistics: "),
    (lambda d: d["statistics"]["tally"].update(games=-1), "statistics: "),
])
def test_hostile_manifests_are_refused(change, message, tmp_path, capsys):
    doc = manifest_doc(tmp_path, capsys)
    change(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ZipaiError) as e:
        read_manifest(path)
    assert message in str(e.value) and str(path) in str(e.value)
    assert main(["simulate", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_manifest_sizes_and_shapes_are_bounded(tmp_path):
    path = tmp_path / "big.json"
    path.write_text("[" * 100 + "]" * 100)
    with pytest.raises(ZipaiError) as e:
        read_manifest(path)
    assert e.value.code == "too_deep"
    path.write_text(" " * (17 * 1024 * 1024))
    with pytest.raises(ZipaiError) as e:
        read_manifest(path)
    assert e.value.code == "too_large"
    with pytest.raises(ZipaiError):
        write_manifest(tmp_path / "m.json", "paused", first=1, games=1, out=None,
                       out_on_workers=False, statistics={})


def test_a_failed_cluster_keeps_the_finished_games(reference, tmp_path, capsys, monkeypatch):
    """A cluster that fails mid-run (here an executor whose third task raises, as a lost
    scheduler does): one error line, the manifest keeps the games that came back."""
    import contextlib
    from concurrent.futures import ThreadPoolExecutor

    import zipai_rules.cli.simulate as cli_simulate

    class Failing(ThreadPoolExecutor):
        def __init__(self):
            super().__init__(1)
            self.tasks = 0

        def submit(self, fn, *args, **kwargs):
            self.tasks += 1
            if self.tasks == 3:
                def lost():
                    raise OSError("Timed out trying to connect to tcp://scheduler:8786")
                return super().submit(lost)
            return super().submit(fn, *args, **kwargs)

    @contextlib.contextmanager
    def fake(address, jobs, variant):
        with Failing() as pool:
            yield pool, 1, None
    monkeypatch.setattr(cli_simulate, "dask_executor", fake)
    out = tmp_path / "run"
    code = main(["simulate", "--games", "12", "--seed", str(SEED), "--out", str(out),
                 "--dask", "tcp://scheduler:8786", "--chunk", "2", "--progress-every", "0"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("error: the cluster failed: OSError: Timed out trying to connect")
    manifest = read_manifest(out / "run.json")
    # whole chunks of two came back, never the failed one (games 5-6); which others did
    # depends on the order the loop sees the finished tasks in (the fourth may come first)
    finished = {n for a, b in manifest.tally.numbers for n in range(a, b + 1)}
    assert manifest.state == "stopped" and not finished & {5, 6}
    assert all((n + 1 if n % 2 else n - 1) in finished for n in finished)
    assert f"(after {manifest.tally.games} of 12 games, " in err
    resumed = cli_json(capsys, "--resume", out, "--progress-every", 0)
    hunan = load_preset("hunan")
    assert untimed(resumed) == untimed(summarize(
        hunan, simulate(hunan, 12, seed=SEED), seed=SEED, bots=["greedy", "random", "greedy"]))
    assert records(out) == {k: v for k, v in reference[1].items() if int(k[5:-5]) <= 12}
