"""Record shards (zipai simulate --shards): each game's record out of a shard is the per-game
file's text byte for byte, in process, with worker processes and on an executor; zipai replay
and view read a game out of a shard; hostile shards are refused within bounds."""

import gzip
import json
import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from zipai_rules.cli import main
from zipai_rules.errors import RecordError, ZipaiError
from zipai_rules.inputs import RECORD_LIMITS
from zipai_rules.presets import load_preset
from zipai_rules.records import dumps_record
from zipai_rules.shards import (
    iter_shard,
    read_shard_record,
    record_text,
    shard_line,
    shard_path,
    shard_range,
    write_shard,
)
from zipai_rules.simulate import run_games, simulate

GAMES, SEED = 13, 21


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def per_game(tmp_path_factory):
    """The run's per-game record files (the reference), and its summaries."""
    folder = tmp_path_factory.mktemp("per_game")
    summaries = simulate(load_preset("guilin"), GAMES, seed=SEED, out=folder)
    files = {int(p.name[5:10]): p.read_bytes() for p in folder.glob("game-*.json")}
    assert sorted(files) == list(range(1, GAMES + 1))
    return files, summaries


def shard_texts(folder):
    """Each game's record text out of the shards of ``folder``, read with gzip and json only
    (not the library's reader), numbered from the file names; the shards' ranges."""
    texts, ranges = {}, []
    for path in sorted(folder.iterdir()):
        assert path.name.startswith("games-") and path.name.endswith(".jsonl.gz"), path.name
        first, last = (int(x) for x in path.name[6:-9].split("-"))
        ranges.append((first, last))
        raw = gzip.decompress(path.read_bytes())
        assert raw.endswith(b"\n")
        lines = raw.split(b"\n")[:-1]
        assert len(lines) == last - first + 1
        for k, line in enumerate(lines):
            texts[first + k] = line
    return texts, ranges


def check_shards(folder, per_game):
    files, _ = per_game
    lines, ranges = shard_texts(folder)
    assert sorted(lines) == list(range(1, GAMES + 1))
    # the shards tile 1..GAMES without overlap
    assert [a for a, _ in ranges] == [1] + [b + 1 for _, b in ranges[:-1]]
    for number, line in lines.items():
        assert b"\n" not in line
        # the same document as the file (the standard library's reading of both) ...
        assert json.loads(line) == json.loads(files[number])
        # ... and, written as a record file is written, the file's very bytes
        assert dumps_record(json.loads(line)).encode("utf-8") == files[number]
        assert record_text(line).encode("utf-8") == files[number]
    return ranges


def test_shards_in_process_equal_the_per_game_files(per_game, tmp_path):
    got = simulate(load_preset("guilin"), GAMES, seed=SEED, out=tmp_path, shards=True, chunk=5)
    assert got == per_game[1]
    assert check_shards(tmp_path, per_game) == [(1, 5), (6, 10), (11, 13)]


def test_shards_of_worker_processes_equal_the_per_game_files(per_game, tmp_path):
    got = simulate(load_preset("guilin"), GAMES, seed=SEED, jobs=2, out=tmp_path, shards=True)
    assert got == per_game[1]
    assert len(check_shards(tmp_path, per_game)) == 13  # chunks of 1 game: 13 / (2 * 8)


@pytest.mark.parametrize("on_workers", [False, True])
def test_shards_on_an_executor_equal_the_per_game_files(per_game, tmp_path, on_workers):
    with ThreadPoolExecutor(2) as pool:
        got = simulate(load_preset("guilin"), GAMES, seed=SEED, jobs=2, out=tmp_path,
                       shards=True, chunk=4, executor=pool, out_on_workers=on_workers)
    assert got == per_game[1]
    assert check_shards(tmp_path, per_game) == [(1, 4), (5, 8), (9, 12), (13, 13)]


def test_a_stopped_run_writes_the_games_its_chunk_finished(per_game, tmp_path):
    calls = []

    def stop():  # call 1 before the chunk, 2-4 before games 1-3, 5: stop
        calls.append(1)
        return len(calls) >= 5
    got = list(run_games(load_preset("guilin"), GAMES, seed=SEED, out=tmp_path, shards=True,
                         chunk=10, stop=stop))
    assert [g.number for g in got] == [1, 2, 3]
    assert [p.name for p in tmp_path.iterdir()] == ["games-00000001-00000003.jsonl.gz"]
    lines, _ = shard_texts(tmp_path)
    assert {n: record_text(x).encode() for n, x in lines.items()} == \
        {n: per_game[0][n] for n in (1, 2, 3)}


def test_the_library_reads_what_the_standard_library_reads(per_game, tmp_path):
    simulate(load_preset("guilin"), GAMES, seed=SEED, out=tmp_path, shards=True, chunk=8)
    path = tmp_path / "games-00000009-00000013.jsonl.gz"
    assert shard_range(path) == (9, 13)
    records = list(iter_shard(path))
    assert [n for n, _ in records] == [9, 10, 11, 12, 13]
    assert [dumps_record(r).encode() for _, r in records] == \
        [per_game[0][n] for n in range(9, 14)]
    assert dumps_record(read_shard_record(path, 12)).encode() == per_game[0][12]
    # the same games make the same bytes: no time or name in the gzip header
    before = path.read_bytes()
    simulate(load_preset("guilin"), GAMES, seed=SEED, out=tmp_path, shards=True, chunk=8)
    assert path.read_bytes() == before and before[4:8] == b"\0\0\0\0"


def test_replay_and_view_read_a_game_of_a_shard(per_game, tmp_path, capsys):
    code, out, err = run(capsys, "simulate", "--variant", "guilin", "--games", GAMES,
                         "--seed", SEED, "--out", tmp_path / "recs", "--shards")
    assert code == 0 and err == "" and "games-AAAAAAAA-BBBBBBBB.jsonl.gz" in out
    shard = sorted((tmp_path / "recs").iterdir())[0]
    first, last = shard_range(shard)
    code, out, err = run(capsys, "replay", shard)
    assert code == 0 and err == ""
    assert out.count("result and settlement confirmed") == last - first + 1
    assert out.endswith(f"{last - first + 1} of {last - first + 1} records confirmed\n")
    assert f"{shard} game {first}: replayed " in out
    code, out, err = run(capsys, "replay", shard, "--game", last)
    assert code == 0 and err == "" and out.startswith(f"{shard} game {last}: replayed ")
    assert "records confirmed" not in out
    # the page of game `last` out of the shard is the page of its per-game file
    (tmp_path / "one.json").write_bytes(per_game[0][last])
    assert run(capsys, "view", tmp_path / "one.json", "-o", tmp_path / "one.html")[0] == 0
    code, out, err = run(capsys, "view", shard, "--game", last)
    page = tmp_path / "recs" / f"game-{last:05d}.html"
    assert code == 0 and out.startswith(f"wrote {page}: ")
    assert page.read_bytes() == (tmp_path / "one.html").read_bytes()


@pytest.mark.parametrize("argv, message", [
    (["replay", "{shard}", "--game", "99"], "holds games 1–5, not game 99"),
    (["replay", "{shard}", "--game", "0"], "game numbers start at 1"),
    (["replay", "{record}", "--game", "2"], "--game N picks one game out of a record shard"),
    (["replay", "{shard}", "{shard}", "--game", "2"], "give one shard"),
    (["replay", "{shard}", "--expect-digest", "0" * 64], "give --game N for a shard"),
    (["view", "{shard}"], "a shard needs --game N"),
    (["view", "{shard}", "--game", "1", "-o", "{shard}"], "would overwrite its shard"),
    (["view", "{record}", "--game", "1"], "--game N goes with a record shard"),
    (["simulate", "--games", "2", "--shards"], "--shards goes with --out"),
    (["simulate", "--games", "2", "--shards", "--out", "{tmp}/x", "--html"],
     "it does not go with --shards"),
])
def test_options_that_do_not_go_together(tmp_path, capsys, argv, message):
    shard = write_shard(tmp_path, 1, [shard_line(json.loads(t)) for t in _records(5)])
    record = tmp_path / "r.json"
    record.write_text(_records(1)[0])
    argv = [a.format(shard=shard, record=record, tmp=tmp_path) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and err.startswith("error: "), err


_RECORDS = []


def _records(n):
    """The record texts of guilin games 1..n, seeds 1..n (played once per test run)."""
    while len(_RECORDS) < n:
        k = len(_RECORDS) + 1
        _RECORDS.append(_play(k))
    return _RECORDS[:n]


def _play(seed):
    from zipai_rules.simulate import _play_game
    return _play_game(load_preset("guilin"), seed, seed, ["greedy", "random", "greedy"], True)[1]


# --- hostile shards ---------------------------------------------------------------------------

def _gz(data):
    return gzip.compress(data, mtime=0)


def _hostile(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_a_gzip_bomb_stops_at_the_bound(tmp_path):
    # 16 MiB without a newline compress to some 16 KiB: reading stops at the line bound
    bomb = _hostile(tmp_path, "games-00000001-00000001.jsonl.gz", _gz(b"0" * (16 << 20)))
    assert bomb.stat().st_size < 50_000
    with pytest.raises(RecordError) as e:
        list(iter_shard(bomb))
    assert e.value.code == "too_large"
    assert "a line of more than the limit of 1048576" in str(e.value)
    # many records: the bound on the whole file stops it
    record = shard_line(json.loads(_records(1)[0])).encode() + b"\n"
    lines = _hostile(tmp_path, "many.jsonl.gz", _gz(record * 300))
    assert lines.stat().st_size < 1 << 16 < len(record) * 300
    with pytest.raises(RecordError) as e:
        list(iter_shard(lines, max_bytes=1 << 16))
    assert e.value.code == "too_large" and "65536 bytes decompressed" in str(e.value)


def test_a_line_over_the_record_bound_is_refused_on_the_command_line(tmp_path, capsys):
    line = b'{"format": "zipai-log/1", "pad": "' + b"x" * (RECORD_LIMITS.max_bytes) + b'"}\n'
    path = _hostile(tmp_path, "games-00000001-00000001.jsonl.gz", _gz(line))
    code, out, err = run(capsys, "replay", path)
    assert code == 2 and "a line of more than the limit of 1048576 bytes" in err
    assert "Traceback" not in err and out.endswith("0 of 1 records confirmed\n")


@pytest.mark.parametrize("name, data, code, message", [
    ("games-00000001-00000002.jsonl.gz", ("raw", b"not gzip at all"), "unreadable",
     "not a whole gzip file"),
    ("games-00000001-00000002.jsonl.gz", None, "unreadable", "not a whole gzip file"),
    ("games-00000001-00000002.jsonl.gz", b"[1, 2]\n[3]\n", "bad_format",
     "(game 1, line 1): <root>: not a game record"),
    ("games-00000001-00000001.jsonl.gz", b"\n", "bad_format", "an empty line"),
    ("games-00000001-00000001.jsonl.gz", b"\xff\xfe\n", "unreadable", "not UTF-8"),
    ("games-00000001-00000001.jsonl.gz", b'{"a": 1, "a": 2}\n', "duplicate_key", "'a'"),
    ("games-00000001-00000001.jsonl.gz", b"{RECORD}\n{RECORD}\n", "bad_format",
     "holds more than the 1 records of games 1–1"),
    ("games-00000001-00000003.jsonl.gz", b"{RECORD}\n", "bad_format",
     "holds 1 records, not the 3 of games 1–3"),
    ("games-00000001-00000001.jsonl.gz", b"{SEED}\n", "schema", "(game 1, line 1): seed: "),
])
def test_hostile_shards(tmp_path, capsys, name, data, code, message):
    record = shard_line(json.loads(_records(1)[0])).encode()
    if data is None:  # a shard cut short
        data = _gz(record + b"\n" + record + b"\n")[:-30]
    elif isinstance(data, tuple):  # not compressed at all
        data = data[1]
    else:
        wrong = record.replace(b'"seed":1,', b'"seed":"1",')
        assert wrong != record
        data = _gz(data.replace(b"{RECORD}", record).replace(b"{SEED}", wrong))
    path = _hostile(tmp_path, name, data)
    with pytest.raises(RecordError) as e:
        list(iter_shard(path))
    assert e.value.code == code and message in str(e.value), str(e.value)
    assert str(path) in str(e.value)
    got, out, err = run(capsys, "replay", path)
    assert got == 2 and message in err and "Traceback" not in err, err


def test_a_plain_json_lines_shard_reads_and_the_name_numbers_it(tmp_path):
    texts = _records(2)
    path = tmp_path / "games-00000007-00000008.jsonl"
    path.write_text("".join(shard_line(json.loads(t)) + "\n" for t in texts), "utf-8")
    assert [(n, dumps_record(r)) for n, r in iter_shard(path)] == [(7, texts[0]), (8, texts[1])]
    other = tmp_path / "mine.jsonl"
    other.write_bytes(path.read_bytes())
    assert [n for n, _ in iter_shard(other)] == [1, 2]  # no range in its name: line numbers
    with pytest.raises(RecordError, match="cannot tell which games it holds") as e:
        read_shard_record(other, 1)
    assert e.value.code == "bad_argument"


def test_a_fifo_or_a_folder_is_no_shard(tmp_path, capsys):
    fifo = tmp_path / "games-00000001-00000001.jsonl.gz"
    os.mkfifo(fifo)
    with pytest.raises(RecordError, match="not a regular file") as e:
        list(iter_shard(fifo))  # never blocks waiting for a writer
    assert e.value.code == "unreadable"
    (tmp_path / "d.jsonl.gz").mkdir()
    code, out, err = run(capsys, "view", tmp_path / "d.jsonl.gz", "--game", "1")
    assert code == 2 and err.startswith("error: ")
    code, out, err = run(capsys, "replay", tmp_path / "missing.jsonl.gz")
    assert code == 2 and "cannot read" in err


def test_bad_arguments_of_the_api(tmp_path):
    for lines in ([], "{}", ["{}\n{}"], ["  "], [b"{}"]):
        with pytest.raises(ZipaiError) as e:
            write_shard(tmp_path, 1, lines)
        assert e.value.code == "bad_argument"
    assert not list(tmp_path.iterdir())
    with pytest.raises(ZipaiError):
        shard_path(tmp_path, 3, 2)
    for bad in ({"a": {1, 2}}, {"a": float("nan")}, ["not", "a", "mapping"]):
        with pytest.raises(ZipaiError) as e:
            shard_line(bad)
        assert e.value.code == "bad_argument"
    assert shard_path(tmp_path, 3, 12).name == "games-00000003-00000012.jsonl.gz"
    assert shard_range("games-00000005-00000004.jsonl.gz") is None
    assert shard_range("x/games-123456789-123456790.jsonl.gz") == (123456789, 123456790)
    with pytest.raises(ZipaiError) as e:
        list(iter_shard(tmp_path / "a.jsonl.gz", limits="big"))
    assert e.value.code == "bad_argument"
    with pytest.raises(ZipaiError) as e:
        list(run_games("guilin", 2, shards=True))
    assert e.value.code == "bad_option" and "give out" in str(e.value)
    with pytest.raises(ZipaiError) as e:
        list(run_games("guilin", 2, out=tmp_path, shards="yes"))
    assert e.value.code == "bad_option"


def test_ctrl_c_leaves_whole_shards_and_the_table_of_the_same_games(tmp_path, jobs=2):
    """SIGINT to the process group, as Ctrl-C sends it, to a run on worker processes: the
    shards hold exactly the games the run says finished, and the table has a row for each
    of them (one job stops as test_a_stopped_run_writes_the_games_its_chunk_finished)."""
    import re
    import signal
    import subprocess
    import sys
    import time

    out, table = tmp_path / "recs", tmp_path / "t.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "zipai_rules.cli", "simulate", "--games",
                             "1000000", "--jobs", str(jobs), "--out", str(out), "--shards",
                             "--table", str(table)],
                            start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120  # guards a hang only
        while time.monotonic() < deadline and not list(out.glob("games-*.jsonl.gz")):
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)  # guards a hang only
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, stderr
    found = re.fullmatch(r"interrupted after (\d+) of 1000000 games \(games ([0-9–, and]+)\), "
                         r"their records in " + re.escape(str(out)) + "; its manifest: "
                         + re.escape(str(out / "run.json")) + ", continue it with `zipai "
                         "simulate --resume " + re.escape(str(out)) + "`\n", stderr)
    assert found, stderr
    assert f": {found[1]} games, " in stdout.splitlines()[0]  # the finished games' statistics
    named = set()
    for part in re.split(r", | and ", found[2]):
        a, _, b = part.partition("–")
        named |= set(range(int(a), int(b or a) + 1))
    in_shards = []
    for path in out.glob("games-*.jsonl.gz"):
        first, last = shard_range(path)
        numbers = [n for n, _ in iter_shard(path)]  # whole and valid
        assert numbers == list(range(first, last + 1))
        in_shards += numbers
    assert sorted(in_shards) == sorted(named) and len(named) == int(found[1])
    rows = [json.loads(x) for x in table.read_text("utf-8").splitlines()]
    assert sorted(r["number"] for r in rows) == sorted(named)
    assert not list(tmp_path.glob(".*.tmp"))
