"""The summaries table (zipai simulate --table): one row per game equal to its summary, and
to what its record says (read apart, with json only); JSON Lines and Parquet; the docs
example runs; paths that cannot be written are refused before any game."""

import gc
import json
import re
import sys
from pathlib import Path

import pytest

from zipai_rules.cli import main
from zipai_rules.errors import RecordError, ZipaiError
from zipai_rules.presets import load_preset
from zipai_rules.simulate import simulate
from zipai_rules.summary_table import COLUMNS, TableWriter, write_table

DOCS = Path(__file__).resolve().parent.parent / "docs" / "tables.md"
GAMES = 40


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 衡阳 run with its 名堂 (红胡, 黑胡 …): the summaries and each game's record."""
    folder = tmp_path_factory.mktemp("records")
    summaries = simulate(load_preset("hengyang_honghei"), GAMES, seed=3, out=folder)
    records = {n: json.loads((folder / f"game-{n:05d}.json").read_text("utf-8"))
               for n in range(1, GAMES + 1)}
    return summaries, records


def test_the_columns_are_the_summary_fields():
    assert COLUMNS == ("number", "seed", "kind", "winner", "huxi", "units", "gain", "actions",
                       "payments", "labels")


def test_json_lines_rows_equal_the_summaries_and_the_records(played, tmp_path):
    summaries, records = played
    assert write_table(summaries, tmp_path / "t.jsonl") == GAMES
    lines = (tmp_path / "t.jsonl").read_text("utf-8").splitlines()
    rows = [json.loads(x) for x in lines]
    assert [list(r) for r in rows] == [list(COLUMNS)] * GAMES  # keys in column order
    for row, g in zip(rows, summaries, strict=True):
        assert row == {"number": g.number, "seed": g.seed, "kind": str(g.kind),
                       "winner": g.winner, "huxi": g.huxi, "units": g.units, "gain": g.gain,
                       "actions": g.actions, "payments": list(g.payments),
                       "labels": list(g.labels)}
        # the record, read apart, says the same
        record = records[row["number"]]
        assert row["seed"] == record["seed"] and row["kind"] == record["result"]["kind"]
        assert row["winner"] == record["result"]["winner"]
        assert row["actions"] == len(record["actions"])
        assert row["payments"] == record["settlement"]["payments"]
        assert sum(row["payments"]) == 0 or record["settlement"].get("zero_sum") is False
        if row["winner"] is None:
            assert row["labels"] == [] and row["gain"] == 0 and row["huxi"] == 0
        else:
            assert row["gain"] == row["payments"][row["winner"]]
            assert row["huxi"] == record["result"]["huxi"]
            assert row["labels"][:len(record["result"]["labels"])] == \
                record["result"]["labels"]
    # the run has 名堂 that applied, and each 名堂 of a row is explained in its settlement
    names = {lab for r in rows for lab in r["labels"]}
    assert {"hu_pai_dun", "quan_hei"} <= names, names
    hengyang = load_preset("hengyang_honghei")
    for r in rows:
        terms = {line["term"] for line in records[r["number"]]["settlement"]["lines"]}
        for lab in r["labels"]:
            if lab in ("quan_hei", "xiao_hong", "da_hong", "yi_dian_hong"):
                assert hengyang.term(lab) in terms, (lab, terms)


def test_the_command_line_table_equals_the_api_table(played, tmp_path, capsys):
    code, out, err = run(capsys, "simulate", "--variant", "hengyang_honghei", "--games", GAMES,
                         "--seed", 3, "--table", tmp_path / "cli.jsonl", "--jobs", 2)
    assert code == 0 and err == "" and f"table: {tmp_path / 'cli.jsonl'}, one row" in out
    write_table(played[0], tmp_path / "api.jsonl")
    cli = [json.loads(x) for x in (tmp_path / "cli.jsonl").read_text().splitlines()]
    api = [json.loads(x) for x in (tmp_path / "api.jsonl").read_text().splitlines()]
    # rows come in completion order with workers: the same rows, sorted by number
    assert sorted(cli, key=lambda r: r["number"]) == api
    assert not list(tmp_path.glob(".*.tmp"))


def test_parquet_round_trip(played, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet", reason="the [table] extra (pyarrow) is not "
                             "installed")
    write_table(played[0], tmp_path / "t.parquet")
    write_table(played[0], tmp_path / "t.jsonl")
    table = pq.read_table(tmp_path / "t.parquet")
    assert table.column_names == list(COLUMNS)
    pa = pytest.importorskip("pyarrow")
    assert table.schema.field("payments").type.value_type == pa.int64()
    assert table.schema.field("winner").type == pa.int8()
    rows = [json.loads(x) for x in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert table.to_pylist() == rows


def test_parquet_in_several_row_groups(played, tmp_path, monkeypatch):
    pq = pytest.importorskip("pyarrow.parquet", reason="the [table] extra (pyarrow) is not "
                             "installed")
    monkeypatch.setattr("zipai_rules.summary_table.PARQUET_ROWS", 16)
    write_table(played[0], tmp_path / "t.parquet")
    f = pq.ParquetFile(tmp_path / "t.parquet")
    assert f.metadata.num_row_groups == 3 and f.metadata.num_rows == GAMES
    assert [r["number"] for r in f.read().to_pylist()] == list(range(1, GAMES + 1))


def test_parquet_without_pyarrow_names_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now fails
    code, out, err = run(capsys, "simulate", "--games", 2, "--table", tmp_path / "t.parquet")
    assert code == 2 and out == ""
    assert err.startswith(f"error: {tmp_path / 't.parquet'}: a Parquet table needs pyarrow: "
                          "install the [table] extra (pyarrow)"), err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("where, message", [
    ("{tmp}", "is a folder"),
    ("{tmp}/missing/t.jsonl", "which is not a folder"),
    ("{tmp}/link.jsonl", "is a symbolic link"),
    ("/dev/null", "is a character device"),
])
def test_a_table_path_that_cannot_be_written_is_refused_before_any_game(tmp_path, capsys,
                                                                          where, message):
    (tmp_path / "target").write_text("keep")
    (tmp_path / "link.jsonl").symlink_to(tmp_path / "target")
    code, out, err = run(capsys, "simulate", "--games", 2, "--table",
                         where.format(tmp=tmp_path))
    assert code == 2 and out == "" and message in err and err.startswith("error: "), err
    assert (tmp_path / "target").read_text() == "keep"
    assert not list(tmp_path.glob(".*.tmp"))


def test_the_writer_keeps_the_rows_added_when_the_block_raises(played, tmp_path):
    with pytest.raises(KeyError), TableWriter(tmp_path / "t.jsonl") as table:
        for g in played[0][:5]:
            table.add(g)
        raise KeyError("stopped")
    assert len((tmp_path / "t.jsonl").read_text().splitlines()) == 5
    with pytest.raises(ZipaiError) as e:
        table.add(played[0][6])
    assert e.value.code == "bad_argument" and "closed" in str(e.value)
    dropped = TableWriter(tmp_path / "u.jsonl")
    with pytest.raises(ZipaiError) as e:
        dropped.add({"number": 1})
    assert e.value.code == "bad_argument"
    assert len(list(tmp_path.glob(".u.jsonl.*.tmp"))) == 1
    del dropped, e  # a writer dropped unclosed leaves nothing behind
    gc.collect()
    with pytest.raises(RecordError):
        TableWriter(tmp_path / "nowhere" / "t.jsonl")
    with pytest.raises(KeyError), TableWriter(tmp_path / "none.jsonl"):
        raise KeyError("before any row")
    assert not (tmp_path / "none.jsonl").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl"]


def test_a_run_refused_before_any_game_leaves_no_table(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    code, out, err = run(capsys, "simulate", "--games", 2, "--table", tmp_path / "t.jsonl",
                         "--out", tmp_path / "file")
    assert code == 2 and "cannot write records there" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_the_docs_example_runs(tmp_path, monkeypatch, capsys):
    pytest.importorskip("polars", reason="the docs example reads the table with polars")
    pytest.importorskip("pyarrow", reason="the [table] extra (pyarrow) is not installed")
    blocks = re.findall(r"^```python\n(.*?)^```$", DOCS.read_text("utf-8"), re.S | re.M)
    assert blocks
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "docs_tables"}
    for block in blocks:
        exec(compile(block, str(DOCS), "exec"), namespace)  # noqa: S102 - our own docs
    out = capsys.readouterr().out
    games = namespace["games"]
    assert out.startswith(f"300 games, {namespace['huangzhuang']} 荒庄\n")
    by_seat = namespace["by_seat"]
    assert by_seat["winner"].to_list() == [0, 1, 2]
    assert sum(by_seat["wins"].to_list()) + namespace["huangzhuang"] == 300
    # the example's figures, computed apart from its table's rows
    rows = games.to_dicts()
    wins = {s: sum(r["winner"] == s for r in rows) for s in range(3)}
    assert dict(zip(by_seat["winner"], by_seat["wins"], strict=True)) == wins
    balance = namespace["balance"].row(0)
    assert balance == tuple(sum(r["payments"][s] for r in rows) for s in range(3))
    labels = dict(zip(namespace["mingtang"]["labels"], namespace["mingtang"]["wins"],
                      strict=True))
    assert labels == {k: sum(k in r["labels"] for r in rows) for k in labels} and labels
