"""zipai simulate: many seeded games, their statistics, records and worker processes."""

import json

import pytest

from zipai_rules.cli import main
from zipai_rules.presets import load_preset
from zipai_rules.records import read_record, replay_record
from zipai_rules.simulate import GameSummary, format_stats, simulate, summarize
from zipai_rules.stats import _histogram
from zipai_rules.variant_file import load_variant_file


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def stats_of(capsys, *argv):
    code, out, err = run(capsys, "simulate", *argv, "--json")
    assert code == 0 and err == ""
    return json.loads(out)


def test_summarize_known_values(hunan):
    games = [GameSummary(1, 1, "hu", 0, 15, 1, 2, 20),
             GameSummary(2, 2, "huangzhuang", None, 0, 0, 0, 30),
             GameSummary(3, 3, "hu", 2, 21, 3, 6, 25),
             GameSummary(4, 4, "tianhu", 0, 30, 6, 12, 1)]
    stats = summarize(hunan, games, seed=1, bots=["greedy", "random"], jobs=1, seconds=2.0)
    assert stats["games"] == 4 and stats["bots"] == ["greedy", "random", "greedy"]
    assert stats["wins"] == [2, 0, 1] and stats["win_rate"] == [0.5, 0.0, 0.25]
    assert stats["huangzhuang"] == 1 and stats["huangzhuang_rate"] == 0.25
    assert stats["kinds"] == {"huangzhuang": 1, "hu": 2, "tianhu": 1}
    huxi = stats["huxi"]
    assert (huxi["count"], huxi["mean"], huxi["min"], huxi["q1"], huxi["median"], huxi["q3"],
            huxi["max"]) == (3, 22.0, 15, 18.0, 21.0, 25.5, 30)
    assert [(b["from"], b["to"], b["count"]) for b in huxi["histogram"] if b["count"]] == [
        (14, 15, 1), (20, 21, 1), (30, 31, 1)]
    assert len(huxi["histogram"]) == 9
    assert stats["units"]["mean"] == pytest.approx(10 / 3, abs=0.001)
    assert stats["gain"]["max"] == 12
    length = stats["length"]
    assert (length["count"], length["mean"], length["q1"], length["median"], length["q3"]) == (
        4, 19.0, 15.25, 22.5, 26.25)
    assert stats["timing"] == {"jobs": 1, "seconds": 2.0, "games_per_second": 2.0,
                               "setup_seconds": None, "play_seconds": None,
                               "play_games_per_second": None}
    table = format_stats(stats, hunan)
    assert table.splitlines()[0] == ("湖南跑胡子 (hunan): 4 games, seeds 1..4, bots "
                                     "greedy,random,greedy, seat 0 deals")
    assert "  seat 0 wins                   2    50.0%" in table
    assert "  荒庄 (huangzhuang)            1    25.0%" in table
    assert "speed: 4 games in 2.00 s with 1 job: 2.0 games/s\n" in table + "\n"
    # 0.4 s of the 2 s spent on the setup: the 4 games were played in 1.6 s, 2.5 a second
    timed = summarize(hunan, games, seed=1, bots=["greedy"], seconds=2.0, setup_seconds=0.4)
    assert timed["timing"] == {"jobs": 1, "seconds": 2.0, "games_per_second": 2.0,
                               "setup_seconds": 0.4, "play_seconds": 1.6,
                               "play_games_per_second": 2.5}
    assert ("speed: 4 games in 2.00 s with 1 job: 2.0 games/s (0.40 s of setup, then "
            "2.5 games/s)") in format_stats(timed, hunan)


def test_histogram_widths():
    assert _histogram([3, 3, 5]) == [{"from": 3, "to": 3, "count": 2},
                                     {"from": 4, "to": 4, "count": 0},
                                     {"from": 5, "to": 5, "count": 1}]
    wide = _histogram(list(range(10, 95)))
    assert [b["from"] for b in wide] == [10, 20, 30, 40, 50, 60, 70, 80, 90]
    assert sum(b["count"] for b in wide) == 85


def test_summarize_no_wins(hunan):
    stats = summarize(hunan, [GameSummary(1, 9, "huangzhuang", None, 0, 0, 0, 40)], seed=9,
                      bots=["random"])
    assert stats["huangzhuang_rate"] == 1.0 and stats["huxi"]["count"] == 0
    assert stats["length"]["median"] == 40.0
    assert "winning 胡息" in format_stats(stats, hunan)


def test_simulate_json_consistent(capsys, tmp_path):
    out = tmp_path / "recs"
    stats = stats_of(capsys, "--variant", "hunan", "--games", 12, "--seed", 3, "--out", out)
    assert stats["games"] == 12 and stats["seed"] == 3 and stats["variant"] == "hunan"
    assert sum(stats["wins"]) + stats["huangzhuang"] == 12
    assert sum(stats["win_rate"]) + stats["huangzhuang_rate"] == pytest.approx(1.0)
    assert sum(stats["kinds"].values()) == 12
    assert stats["huxi"]["count"] == sum(stats["wins"]) == stats["units"]["count"]
    assert stats["length"]["count"] == 12
    for name in ("huxi", "units", "gain", "length"):
        d = stats[name]
        if d["count"]:
            assert sum(b["count"] for b in d["histogram"]) == d["count"]
            assert d["min"] <= d["q1"] <= d["median"] <= d["q3"] <= d["max"]
    if stats["huxi"]["count"]:
        assert stats["huxi"]["min"] >= load_preset("hunan").win.min_huxi
    t = stats["timing"]
    assert set(t) == {"jobs", "seconds", "games_per_second", "setup_seconds", "play_seconds",
                      "play_games_per_second"}
    # one job in this process: the setup is timed apart, and is part of the whole run
    assert t["setup_seconds"] is not None and t["play_seconds"] is not None
    assert t["setup_seconds"] + t["play_seconds"] == pytest.approx(t["seconds"], abs=0.002)

    # the records agree with the statistics, and each is the `zipai play` game of its seed
    files = sorted(p.name for p in out.iterdir())
    assert files == [f"game-{k:05d}.json" for k in range(1, 13)] + ["run.json"]  # + manifest
    files.pop()
    records = [read_record(out / f) for f in files]
    assert [r["seed"] for r in records] == list(range(3, 15))
    winners = [r["result"]["winner"] for r in records]
    assert [winners.count(s) for s in range(3)] == stats["wins"]
    assert sum(len(r["actions"]) for r in records) / 12 == pytest.approx(
        stats["length"]["mean"], abs=0.001)
    for r in records:
        replay_record(r)
    played = tmp_path / "played.json"
    assert run(capsys, "play", "--seed", 3, "--record", played)[0] == 0
    assert played.read_bytes() == (out / "game-00001.json").read_bytes()


def test_jobs_2_equals_jobs_1(capsys):
    one = stats_of(capsys, "--variant", "guilin", "--games", 30, "--seed", 5)
    two = stats_of(capsys, "--variant", "guilin", "--games", 30, "--seed", 5, "--jobs", 2)
    assert one.pop("timing")["jobs"] == 1 and two.pop("timing")["jobs"] == 2
    assert one == two


def test_jobs_with_a_variant_file(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("extends: hunan\nid: mine\nname: 我的\nwin:\n  min_huxi: 10\n", "utf-8")
    v = load_variant_file(path)
    one = simulate(v, 8, seed=2, jobs=1)
    two = simulate(v, 8, seed=2, jobs=2, out=tmp_path / "recs")
    assert one == two
    assert [g.number for g in two] == list(range(1, 9))
    assert [g.seed for g in two] == list(range(2, 10))
    record = read_record(tmp_path / "recs" / "game-00008.json")
    assert record["variant"]["doc"]["win"]["min_huxi"] == 10
    game, settlement = replay_record(record)
    assert len(game.actions) == two[-1].actions
    assert settlement.units == two[-1].units


def test_simulate_table(capsys):
    code, out, err = run(capsys, "simulate", "--variant", "penghu", "--games", 5, "--seed", 1,
                         "--bots", "random")
    assert code == 0 and err == ""  # no progress bar when stderr is not a terminal
    lines = out.splitlines()
    assert lines[0] == "碰胡 (penghu): 5 games, seeds 1..5, bots random,random,random, seat 0 deals"
    assert lines[1] == "results"
    assert sum(1 for x in lines if x.startswith("  seat ") and " wins " in x) == 3
    assert any(x.startswith("  荒庄 (huangzhuang)") for x in lines)
    assert lines[-1].startswith("speed: 5 games in ") and lines[-1].endswith(" games/s)")
    assert " games/s (" in lines[-1] and " s of setup, then " in lines[-1]


def test_simulate_bad_input(capsys):
    code, out, err = run(capsys, "simulate", "--games", 2, "--bots", "smart")
    assert code == 2 and out == ""
    assert err == "error: unknown bot name 'smart'; known: random, greedy\n"
    code, _, err = run(capsys, "simulate", "--variant", "atlantis", "--games", 2)
    assert code == 2 and err.startswith("error: unknown variant 'atlantis'")


# --- bounded resources: streaming statistics, job cap, writable --out, Ctrl-C ---------------

def test_streamed_distribution_matches_statistics():
    """The running counts give exactly the figures statistics gives on the full list."""
    import random
    import statistics
    from collections import Counter

    from zipai_rules.stats import _distribution

    rng = random.Random(4)
    for size in (1, 2, 3, 4, 5, 17, 400):
        values = [rng.choice([rng.randrange(10, 40), rng.randrange(0, 300)]) for _ in range(size)]
        d = _distribution(Counter(values))
        qs = (statistics.quantiles(values, n=4, method="inclusive") if size > 1
              else [float(values[0])] * 3)
        assert (d["count"], d["mean"], d["min"], d["max"]) == (
            size, round(statistics.fmean(values), 3), min(values), max(values))
        assert [d["q1"], d["median"], d["q3"]] == [round(q, 3) for q in qs]
        assert d["histogram"] == _histogram(values)


def test_run_games_streams_in_any_order(hunan):
    from zipai_rules.simulate import run_games

    one = list(run_games(hunan, 6, seed=4))
    assert [g.number for g in one] == list(range(1, 7))
    two = sorted(run_games(hunan, 6, seed=4, jobs=2), key=lambda g: g.number)
    assert one == two
    assert summarize(hunan, iter(two), seed=4, bots=["greedy"]) == summarize(
        hunan, one, seed=4, bots=["greedy"])


def test_run_games_stops_between_games(hunan):
    from zipai_rules.simulate import run_games

    asked = []

    def stop():
        asked.append(1)
        return len(asked) > 3
    assert [g.number for g in run_games(hunan, 50, stop=stop)] == [1, 2, 3]


@pytest.mark.parametrize("kwargs, words", [
    ({"games": True}, "games True is not an integer"),
    ({"games": 2.0}, "games 2.0 is not an integer"),
    ({"seed": -1}, "seed -1 is negative"),
    ({"jobs": 0}, "jobs 0 is not an integer of at least 1"),
    ({"jobs": 3, "jobs_limit": 2}, "jobs 3 is above the limit of 2"),
])
def test_run_games_bad_arguments(hunan, kwargs, words):
    from zipai_rules.errors import ZipaiError
    from zipai_rules.simulate import run_games

    args = {"games": 2, **kwargs}
    with pytest.raises(ZipaiError) as info:
        run_games(hunan, **args)
    assert words in str(info.value)


def test_jobs_capped_at_cpus(capsys, monkeypatch):
    import zipai_rules.simulate as sim

    monkeypatch.setattr(sim.os, "cpu_count", lambda: 2)
    code, out, err = run(capsys, "simulate", "--games", 3, "--jobs", 64)
    assert code == 2 and out == ""
    assert err == "error: --jobs 64 is above the number of CPUs (2)\n"


def test_unwritable_out_refused_before_any_game(capsys, tmp_path, monkeypatch):
    import zipai_rules.simulate as sim

    played = []
    monkeypatch.setattr(sim, "play_game", lambda *a: played.append(a))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for out in (blocker, blocker / "sub"):
        code, stdout, err = run(capsys, "simulate", "--games", 3, "--out", out)
        assert code == 2 and stdout == "" and err.startswith(f"error: {out}: cannot write")
    assert played == [] and blocker.read_text() == "x"


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_promptly_and_leaves_whole_records(tmp_path, jobs):
    """SIGINT to the whole process group, as Ctrl-C sends it, during a long run."""
    import os
    import re
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "recs"
    proc = subprocess.Popen([sys.executable, "-m", "zipai_rules.cli", "simulate", "--games",
                             "1000000", "--jobs", str(jobs), "--out", str(out)],
                            start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120  # guards a hang only
        while time.monotonic() < deadline and len(list(out.glob("game-*.json"))) < 3:
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        at_signal = len(list(out.glob("game-*.json")))
        stdout, stderr = proc.communicate(timeout=120)  # guards a hang only
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130
    # promptly, in games, not seconds: after Ctrl-C one job ends the game it plays; workers
    # end within the chunk they play (50 games), and the chunks queued (4 a job) never start
    chunk = 1 if jobs == 1 else 50
    assert len(list(out.glob("game-*.json"))) - at_signal <= jobs * chunk
    found = re.fullmatch(r"interrupted after (\d+) of 1000000 games \(games ([0-9–, and]+)\), "
                         r"their records in " + re.escape(str(out)) + "; its manifest: "
                         + re.escape(str(out / "run.json")) + ", continue it with `zipai "
                         "simulate --resume " + re.escape(str(out)) + "`\n", stderr)
    assert found, stderr
    # the statistics of the finished games (tests/test_resume.py resumes such a run)
    assert f": {found[1]} games, " in stdout.splitlines()[0]
    files = sorted(p.name for p in out.glob("game-*"))
    assert len(files) == int(found[1]) >= 3
    # the ranges named are exactly the records written
    named = set()
    for part in re.split(r", | and ", found[2]):
        a, _, b = part.partition("–")
        named |= set(range(int(a), int(b or a) + 1))
    assert {int(name[5:10]) for name in files} == named
    assert all(name.startswith("game-") and name.endswith(".json") for name in files)
    for name in files:
        read_record(out / name)  # whole and valid


def test_prepare_ends_with_a_full_collector_pass():
    # the tables' building would set a full pass off within the first games; prepare makes
    # it (each time: here with the tables already built), and the pass leaves the tables'
    # tuples of plain numbers (the masks, the digit table: 3**10 entries each) out of later ones
    import gc

    from zipai_rules.analysis import searcher
    from zipai_rules.simulate import prepare

    variant = load_preset("guilin")
    prepare(variant)
    passes = []

    def seen(phase, info):
        if phase == "start":
            passes.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        prepare(variant)
    finally:
        gc.callbacks.remove(seen)
    assert 2 in passes
    tables = searcher(variant).tables
    assert len(tables.ma) == len(tables.mb) == 3 ** 10
    assert not any(gc.is_tracked(t) for t in (tables.ma, tables.mb, tables.digits))
