"""What ``zipai simulate`` refuses before it plays, so that no run's output is lost: a new run
over the manifest of a run not finished, outputs that would overwrite one another, an empty
``--out``; and what a resumed run writes where: a moved run folder resumes in place, runs of
any length the CLI accepts resume, a finished run says there is nothing to play. Each run is
a few games, played in this process."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from zipai_rules.cli import main
from zipai_rules.errors import ZipaiError
from zipai_rules.manifest import missing, read_manifest, write_manifest
from zipai_rules.stats import format_stats, merge_stats, read_stats


def simulate(capsys, *argv) -> tuple[int, str, str]:
    code = main(["simulate", *map(str, argv), "--progress-every", "0"])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv) -> str:
    code, out, err = simulate(capsys, *argv)
    assert code == 2 and out == "", err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    return err


def records(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("game-*.json"))}


def widen(path: Path, games: int, state: str = "stopped") -> None:
    """Make the manifest ``path`` ask for ``games`` games (its finished ones kept): the
    manifest a run of that many games stopped after its finished ones leaves."""
    m = read_manifest(path)
    write_manifest(path, state, first=m.first, games=games, out=m.out,
                   out_on_workers=m.out_on_workers, shards=m.shards, statistics=m.statistics,
                   html=m.html)


def test_a_new_run_refuses_the_manifest_of_a_run_not_finished(tmp_path, capsys):
    run = tmp_path / "run"
    assert simulate(capsys, "--games", 3, "--out", run)[0] == 0
    widen(run / "run.json", 6)
    before = (run / "run.json").read_bytes(), records(run)
    link = tmp_path / "link"
    link.symlink_to(run)
    for target in (["--out", run], ["--out", link], ["--out", tmp_path / "other", "--manifest",
                                                     tmp_path / "m.json"]):
        if "--manifest" in target:
            shutil.copy(run / "run.json", tmp_path / "m.json")
        err = refused(capsys, "--games", 2, "--seed", 99, *target)
        assert "a run not finished (stopped)" in err and "zipai simulate --resume" in err
        assert "or remove" in err
    assert f"--resume {run}`" in refused(capsys, "--games", 2, "--out", run)
    assert ((run / "run.json").read_bytes(), records(run)) == before
    assert not (tmp_path / "other").exists()
    # the same for a running one (a lost client's); a finished run's folder is reused
    widen(run / "run.json", 6, "running")
    assert "(running)" in refused(capsys, "--games", 2, "--out", run)
    widen(run / "run.json", 3, "finished")
    assert simulate(capsys, "--games", 2, "--first", 4, "--out", run)[0] == 0
    # a --manifest file that is not a manifest is not overwritten
    notes = tmp_path / "notes.json"
    notes.write_text("my notes", "utf-8")
    err = refused(capsys, "--games", 2, "--manifest", notes)
    assert "is not a manifest a new run may replace" in err
    assert notes.read_text("utf-8") == "my notes"


def test_a_moved_run_folder_resumes_into_itself(tmp_path, capsys):
    whole = tmp_path / "whole"
    assert simulate(capsys, "--games", 5, "--seed", 4, "--out", whole)[0] == 0
    old = tmp_path / "old"
    assert simulate(capsys, "--games", 3, "--seed", 4, "--out", old)[0] == 0
    widen(old / "run.json", 5)
    new = tmp_path / "new"
    shutil.copytree(old, new)
    code, out, err = simulate(capsys, "--resume", new, "--json")
    assert code == 0, err
    assert records(new) == records(whole)
    assert sorted(records(old)) == ["game-00001.json", "game-00002.json", "game-00003.json"]
    assert read_manifest(new / "run.json").state == "finished"
    assert read_manifest(old / "run.json").state == "stopped"
    # a relative out in a manifest of another name is taken from the manifest's folder
    shutil.rmtree(new)
    shutil.copytree(old, new)
    m = read_manifest(new / "run.json")
    (new / "run.json").unlink()
    write_manifest(tmp_path / "elsewhere.json", "stopped", first=1, games=5, out="new",
                   out_on_workers=False, statistics=m.statistics)
    assert simulate(capsys, "--resume", tmp_path / "elsewhere.json")[0] == 0
    assert records(new) == records(whole)


def test_runs_of_every_length_the_cli_accepts_resume(tmp_path, capsys):
    run = tmp_path / "run"
    assert simulate(capsys, "--first", 10 ** 16, "--games", 3, "--out", run)[0] == 0
    assert read_manifest(run / "run.json").first == 10 ** 16
    huge = 10 ** 19
    widen(run / "run.json", huge - 10 ** 16 + 1)
    m = read_manifest(run / "run.json")
    assert m.games == huge - 10 ** 16 + 1
    assert missing(m) == [(10 ** 16 + 3, huge)]
    # beyond the largest seed: refused, naming the file and the field
    doc = json.loads((run / "run.json").read_text("utf-8"))
    doc["games"] = 2 ** 1024
    (run / "run.json").write_text(json.dumps(doc), "utf-8")
    with pytest.raises(ZipaiError) as e:
        read_manifest(run / "run.json")
    assert str(e.value).startswith(f"{run / 'run.json'}: games ")
    assert len(str(e.value)) < 250


def test_a_finished_run_resumed_says_there_is_nothing_to_play(tmp_path, capsys):
    assert simulate(capsys, "--games", 2, "--out", tmp_path)[0] == 0
    code, out, err = simulate(capsys, "--resume", tmp_path, "--json")
    assert code == 0 and json.loads(out)["games"] == 2
    assert err == (f"{tmp_path / 'run.json'}: the run finished all its 2 games: nothing to "
                   "play; its statistics follow\n")


OWN = "the records folder --out R keeps its own files under such names"


@pytest.mark.parametrize("paths, words", [
    (["--out", "R", "--table", "R/game-00001.json"], "--table R/game-00001.json: " + OWN),
    (["--out", "R", "--table", "R/run.json"], "--table R/run.json is the run's manifest"),
    (["--out", "R", "--manifest", "m.json", "--table", "R/run.json"],
     "--table R/run.json: " + OWN),
    (["--out", "R", "--table", "R/games-00000001-00000002.jsonl.gz"], "gz: " + OWN),
    (["--out", "R", "--table", "R/index.html"], "--table R/index.html: " + OWN),
    (["--manifest", "same.json", "--table", "same.json"], "is the run's manifest"),
    (["--out", "R", "--manifest", "R/game-00001.json"], "R/game-00001.json: " + OWN),
    (["--out", "R", "--manifest", "S/run.json"], "is the name of a records folder's own"),
    (["--out", ""], "--out '': an empty path"),
    (["--manifest", ""], "--manifest '': an empty path"),
])
def test_outputs_that_overwrite_one_another_are_refused_before_any_game(paths, words,
                                                                         tmp_path, capsys,
                                                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    err = refused(capsys, "--games", 2, *paths)
    assert words in err
    assert sorted(os.listdir(tmp_path)) == []  # nothing written, no folder made


def test_a_resumed_run_keeps_an_existing_table(tmp_path, capsys):
    run = tmp_path / "run"
    table = tmp_path / "t.jsonl"
    assert simulate(capsys, "--games", 2, "--out", run, "--table", table)[0] == 0
    widen(run / "run.json", 4)
    rows = table.read_bytes()
    assert "--table" in refused(capsys, "--resume", run, "--table", table)
    assert table.read_bytes() == rows and len(records(run)) == 2
    assert simulate(capsys, "--resume", run, "--table", tmp_path / "t2.jsonl")[0] == 0
    assert len((tmp_path / "t2.jsonl").read_text("utf-8").splitlines()) == 2


def test_merged_timing_stays_a_finite_number(tmp_path, capsys):
    code, out, _ = simulate(capsys, "--games", 2, "--json")
    doc = json.loads(out)
    b = json.loads(simulate(capsys, "--games", 2, "--first", 3, "--json")[1])
    big = {**doc["timing"], "seconds": 0.9e12, "setup_seconds": None, "play_seconds": None,
           "games_per_second": 0.0}
    with pytest.raises(ZipaiError) as e:
        merge_stats([{**doc, "timing": big}, {**b, "timing": {**b["timing"], **big}}])
    assert e.value.code == "cannot_merge" and "timing.seconds" in str(e.value)
    path = tmp_path / "huge.json"
    path.write_text(json.dumps({**doc, "timing": {**big, "seconds": 1.7e308}}), "utf-8")
    with pytest.raises(ZipaiError) as e:
        read_stats(path)
    assert "timing.seconds" in str(e.value) and len(str(e.value)) < 200
    line = format_stats({**doc, "timing": big}).splitlines()[-1]
    assert line.startswith("speed: 2 games in 900000000000.00 s")


def test_messages_name_the_file_and_stay_short(tmp_path, capsys):
    run = tmp_path / "run"
    assert simulate(capsys, "--games", 2, "--out", run)[0] == 0
    manifest = run / "run.json"
    doc = json.loads(manifest.read_text("utf-8"))
    # a negative seed: the bound in a few characters
    manifest.write_text(json.dumps({**doc, "statistics": {**doc["statistics"], "seed": -1}}))
    err = refused(capsys, "--resume", run)
    assert str(manifest) in err and "2^1024-1" in err and len(err) < 300
    # a manifest too large: no --max-bytes advice (it does not apply to manifests)
    manifest.write_text(" " * (17 * 1024 * 1024))
    err = refused(capsys, "--resume", run)
    assert "--max-bytes" not in err and "larger than a manifest may be" in err
    # a folder in the manifest's place: its path once
    manifest.unlink()
    manifest.mkdir()
    err = refused(capsys, "--resume", manifest)
    assert err.count(str(manifest)) == 1
    # a bot name this engine does not know
    manifest.rmdir()
    write_manifest(manifest, "stopped", first=1, games=3, out=str(run), out_on_workers=False,
                   statistics={**doc["statistics"], "bots": ["nosuch", "greedy", "greedy"]})
    err = refused(capsys, "--resume", run)
    assert err.startswith(f"error: {manifest}: the run's bots include 'nosuch'")
    # a run of a variant file resumed without it
    yaml = tmp_path / "mine.yaml"
    yaml.write_text("extends: hunan\nid: mine\nname: 我的\nwin:\n  min_huxi: 10\n", "utf-8")
    mine = tmp_path / "mine"
    assert simulate(capsys, "--games", 2, "--variant", yaml, "--out", mine)[0] == 0
    widen(mine / "run.json", 3)
    err = refused(capsys, "--resume", mine)
    assert "give its file with --variant FILE" in err and str(mine / "run.json") in err
    assert simulate(capsys, "--resume", mine, "--variant", yaml)[0] == 0
    # a run whose records went to the workers' disks, resumed without --dask
    doc = json.loads((mine / "run.json").read_text("utf-8"))
    doc.update(state="stopped", out_on_workers=True, games=4)
    (mine / "run.json").write_text(json.dumps(doc), "utf-8")
    err = refused(capsys, "--resume", mine, "--variant", yaml)
    assert "resume it with --dask ADDRESS" in err and "goes with" not in err


def test_merge_messages_name_the_files_in_their_order(tmp_path, capsys):
    out = simulate(capsys, "--games", 2, "--json")[1]
    a, far = tmp_path / "a.json", tmp_path / "far.json"
    a.write_text(out, "utf-8")
    doc = json.loads(out)
    far.write_text(json.dumps({**doc, "seed": 10 ** 300}), "utf-8")
    code = main(["stats", "merge", str(far), str(a)])
    err = capsys.readouterr().err
    assert code == 2 and str(a) in err and len(err) < 400, err
    code = main(["stats", "merge", str(a), str(a)])
    assert f"{a} and {a} both hold game 1" in capsys.readouterr().err


def test_a_folder_in_a_shards_place_and_a_table_path_are_named_once(tmp_path, capsys):
    folder = tmp_path / "games-00000001-00000002.jsonl.gz"
    folder.mkdir()
    for argv in (["replay", str(folder), "--game", "1"], ["view", str(folder), "--game", "1"],
                 ["replay", str(folder)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert f"error: {folder}: cannot read: a folder\n" in err and err.count(str(folder)) == 1
    err = refused(capsys, "--games", 2, "--table", folder)
    assert err == f"error: {folder}: cannot write the table there: it is a folder\n"


def test_a_stop_ends_the_replay_pages_and_the_index_lists_those_written(tmp_path, capsys):
    from zipai_rules.presets import load_preset
    from zipai_rules.replay_html import ReplayIndex
    from zipai_rules.simulate import simulate as play

    games = play(load_preset("hunan"), 4, seed=3, out=tmp_path)
    pages = ReplayIndex(tmp_path, "four games")
    for g in games:
        pages.add(g)
    asked = []
    pages.write(stop=lambda: asked.append(1) or len(asked) > 2)  # a stop after two pages
    assert sorted(p.name for p in tmp_path.glob("game-*.html")) == ["game-00001.html",
                                                                   "game-00002.html"]
    index = (tmp_path / "index.html").read_text("utf-8")
    assert "<p>2 games</p>" in index and 'data-game="3"' not in index


def pages(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.html"))}


def test_a_resumed_html_run_writes_the_missing_pages_and_the_whole_index(tmp_path, capsys):
    whole = tmp_path / "whole"
    assert simulate(capsys, "--games", 5, "--seed", 2, "--out", whole, "--html")[0] == 0
    assert read_manifest(whole / "run.json").html is True
    # stopped while the pages were written: games all played, pages 4, 5 and the index lost
    part = tmp_path / "part"
    assert simulate(capsys, "--games", 5, "--seed", 2, "--out", part, "--html")[0] == 0
    for name in ("game-00004.html", "game-00005.html", "index.html"):
        (part / name).unlink()
    widen(part / "run.json", 5)
    code, out, err = simulate(capsys, "--resume", part)
    assert code == 0 and f"replays: {part}/index.html" in out
    assert "finished all its 5 games: the replay pages it did not write are written now" in err
    assert pages(part) == pages(whole)
    # stopped while the games played: the resumed run plays games 4 and 5 and their pages
    short = tmp_path / "short"
    assert simulate(capsys, "--games", 3, "--seed", 2, "--out", short, "--html")[0] == 0
    (short / "index.html").unlink()
    widen(short / "run.json", 5)
    assert simulate(capsys, "--resume", short)[0] == 0
    assert pages(short) == pages(whole) and records(short) == records(whole)
    # a manifest written before `html` was kept reads as a run without pages
    doc = json.loads((short / "run.json").read_text("utf-8"))
    del doc["html"]
    (short / "run.json").write_text(json.dumps(doc), "utf-8")
    assert read_manifest(short / "run.json").html is False


def test_ctrl_c_while_the_pages_are_written_stops_them(tmp_path, capsys):
    """A real process, stopped by SIGINT once its first page is written: it exits 130 with
    its line, the index lists the pages written, the manifest says stopped, and the resumed
    run writes the rest."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "zipai_rules.cli", "simulate", "--games",
                             "24", "--out", str(out), "--html", "--progress-every", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 240  # a hang guard only
        while (time.monotonic() < deadline and proc.poll() is None
               and not list(out.glob("game-*.html"))):
            time.sleep(0.01)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "interrupted after 24 of 24 games" in err
    written = sorted(out.glob("game-*.html"))
    assert 1 <= len(written) < 24
    index = (out / "index.html").read_text("utf-8")
    assert f"<p>{len(written)} games</p>" in index
    assert read_manifest(out / "run.json").state == "stopped"
    assert simulate(capsys, "--resume", out)[0] == 0
    assert len(list(out.glob("game-*.html"))) == 24
    assert "<p>24 games</p>" in (out / "index.html").read_text("utf-8")


def test_games_numbered_past_the_last_game_number_are_refused_before_any_is_written(
        tmp_path, capsys):
    """Game numbers go up to 2**63-1 (a tally's, a record name's and a table's int64 bound):
    a run that would pass it is refused before it writes a record or a manifest, so its
    folder is not left with a run that cannot be resumed."""
    from zipai_rules.simulate import run_games
    last = 2 ** 63 - 1
    for first, games in ((99999999999999999999, 3), (last, 3), (last - 1, 3)):
        out = tmp_path / f"g{first}"
        assert main(["simulate", "--games", str(games), "--first", str(first), "--out",
                     str(out), "--progress-every", "0"]) == 2
        assert capsys.readouterr().err.startswith("error: the games would be numbered up to ")
        assert not out.exists()
        with pytest.raises(ZipaiError) as e:
            list(run_games("hunan", games, first=first, out=out))
        assert e.value.code == "bad_option" and not out.exists()
    assert main(["simulate", "--games", "1", "--first", str(last), "--json",
                 "--progress-every", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["tally"]["numbers"] == [[last, last]]
