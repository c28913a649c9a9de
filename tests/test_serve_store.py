"""zipai serve's record store (zipai_rules.web.store) and its pages (web.records_routes)."""

from __future__ import annotations

import json
import sqlite3
import threading
from typing import Any

import pytest

from zipai_rules import load_preset
from zipai_rules.bots import make_bots, play_out, seat_bot_names
from zipai_rules.engine.game import Game
from zipai_rules.errors import ERROR_CODES, ZipaiError
from zipai_rules.records import game_record, replay_report
from zipai_rules.settlement import settle
from zipai_rules.web.store import APPLICATION_ID, MAX_LIST, SCHEMA_VERSION, RecordStore

PRESETS = ("hunan", "chenzhou_wang", "guilin")


def played(preset: str, seed: int) -> dict[str, Any]:
    variant = load_preset(preset)
    names = seat_bot_names(("greedy", "random", "greedy"), variant.players)
    game = play_out(Game(variant, seed=seed), make_bots(names, seed, variant.players))
    record = game_record(game, settle(game, variant.seats > variant.players), bots=names)
    return json.loads(json.dumps(record))


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return [played(p, s) for p in PRESETS for s in (1, 2)]


@pytest.fixture
def store():
    with RecordStore(":memory:") as s:
        yield s


def test_the_codes_are_registered():
    for code in ("not_a_store", "store_version", "store_failed", "no_such_record"):
        assert code in ERROR_CODES


def test_round_trip_replays_and_equals(store, records, tmp_path):
    ids = [store.add(r) for r in records]
    assert ids == list(range(1, len(records) + 1))
    assert store.count() == len(records)
    for i, r in zip(ids, records, strict=True):
        got = store.get(i)
        assert got == r
        report = replay_report(got)
        assert report.game.variant.id == r["variant"]["id"]
    assert {store.get(i)["variant"]["id"] for i in ids} == {"hunan", "chenzhou_wang", "guilin"}
    # a file store keeps them across opening
    path = tmp_path / "r.sqlite"
    with RecordStore(path) as s:
        s.add(records[0])
    with RecordStore(str(path)) as s:
        assert s.count() == 1 and s.get(1) == records[0]
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    con.close()


def test_list_order_paging_count(store, records):
    for r in records:
        store.add(r)
    rows = store.list()
    assert [r.id for r in rows] == list(range(len(records), 0, -1))
    assert [r.id for r in store.list(2, 1)] == [len(records) - 1, len(records) - 2]
    assert store.list(10, len(records)) == ()
    assert store.list(0) == ()
    top = rows[-1]
    assert top.variant == "hunan"
    assert top.finished_at.endswith("+00:00") and "T" in top.finished_at
    result = records[0]["result"]
    assert top.winner == result["winner"]
    if result["winner"] is not None:
        assert f"seat {result['winner']}" in top.result
    assert len(store.list(MAX_LIST)) == len(records)


@pytest.mark.parametrize("call", [
    lambda s: s.get("1"), lambda s: s.get(True), lambda s: s.get(1.0), lambda s: s.get(0),
    lambda s: s.get(-1), lambda s: s.get(2**70), lambda s: s.list(-1), lambda s: s.list(1, -1),
    lambda s: s.list(MAX_LIST + 1), lambda s: s.list(10**20), lambda s: s.list(True),
    lambda s: s.list("5"), lambda s: s.add(None), lambda s: s.add([1])])
def test_wrong_arguments(store, call):
    with pytest.raises(ZipaiError) as info:
        call(store)
    assert info.value.code == "bad_argument"


def test_unknown_id(store, records):
    store.add(records[0])
    with pytest.raises(ZipaiError) as info:
        store.get(2)
    assert info.value.code == "no_such_record"


def bad_records(records):
    r = records[0]
    missing = {k: v for k, v in r.items() if k != "actions"}
    wrong = {**r, "seed": "one"}
    huge = {**r, "actions": r["actions"] * 2000}
    changed = json.loads(json.dumps(r))
    changed["result"]["huxi"] = (changed["result"]["huxi"] or 0) + 1
    return [({}, "bad_format"), (missing, "schema"), (wrong, "schema"),
            (huge, "too_large"), ({**r, "x": object()}, "bad_record"),
            ({**r, "seed": float("nan")}, "bad_record"), (changed, None)]


def test_not_a_record_is_refused_and_nothing_stored(store, records):
    for bad, code in bad_records(records):
        with pytest.raises(ZipaiError) as info:
            store.add(bad)
        assert info.value.code in ERROR_CODES
        if code is not None:
            assert info.value.code == code, bad.keys()
    assert store.count() == 0 and store.list() == ()


def test_not_a_store(tmp_path):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    other = tmp_path / "other.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (x)")
    con.execute("PRAGMA application_id = 1234")
    con.commit()
    con.close()
    plain = tmp_path / "plain.sqlite"
    con = sqlite3.connect(plain)
    con.execute("CREATE TABLE records (x)")
    con.commit()
    con.close()
    for path in (junk, other, plain, tmp_path, tmp_path / "no" / "dir" / "x.sqlite"):
        with pytest.raises(ZipaiError) as info:
            RecordStore(path)
        assert info.value.code == "not_a_store", path
    with pytest.raises(ZipaiError) as info:
        RecordStore(b"x.sqlite")  # type: ignore[arg-type]
    assert info.value.code == "bad_argument"


def test_newer_version(tmp_path):
    path = tmp_path / "r.sqlite"
    RecordStore(path).close()
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    with pytest.raises(ZipaiError) as info:
        RecordStore(path)
    assert info.value.code == "store_version"


def test_threads_share_one_store(tmp_path, records):
    with RecordStore(tmp_path / "r.sqlite") as store:
        errors: list[BaseException] = []

        def work(r):
            try:
                for _ in range(3):
                    store.add(r)
                    store.list(5)
            except BaseException as exc:  # pragma: no cover - the assertion shows it
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(r,)) for r in records[:4]]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert store.count() == 12
        assert sorted(r.id for r in store.list(50)) == list(range(1, 13))


def test_store_imports_no_starlette():
    import subprocess
    import sys
    code = ("import sys, zipai_rules.web.store, zipai_rules.web; "
            "print(any(m.startswith('starlette') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_routes_without_starlette_name_the_extra():
    import subprocess
    import sys
    code = ("import sys; sys.modules['starlette'] = None\n"
            "try:\n    import zipai_rules.web.records_routes\n"
            "except ModuleNotFoundError as e:\n    print(e.name, '|', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("starlette | zipai_rules.web.records_routes needs starlette"), out
    assert "[serve]" in out


# ---- the pages

starlette = pytest.importorskip("starlette")


@pytest.fixture
def client(store, records):
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from zipai_rules.web.records_routes import record_routes
    for r in records:
        store.add(r)
    return TestClient(Starlette(routes=record_routes(store)))


def test_list_page(client, records):
    got = client.get("/records")
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/html")
    text = got.text
    links = [f'href="/records/{i}"' for i in range(len(records), 0, -1)]
    positions = [text.index(link) for link in links]
    assert positions == sorted(positions)
    assert "chenzhou_wang" in text
    assert client.get("/records?offset=2").text.count('<li>') == len(records) - 2
    for junk in ("abc", "-1", "1.5", "", "99999999999999999999999"):
        assert client.get(f"/records?offset={junk}").status_code == 400, junk


def test_replay_page(client, records):
    from zipai_rules.replay_html import replay_csp
    got = client.get("/records/3")
    assert got.status_code == 200
    assert got.headers["content-security-policy"] == replay_csp()
    assert "default-src 'none'" in got.headers["content-security-policy"]
    assert records[2]["variant"]["id"] in got.text
    assert "<script" in got.text and "replay-data" in got.text


def test_json_route(client, records):
    for i, r in enumerate(records, 1):
        got = client.get(f"/records/{i}.json")
        assert got.status_code == 200
        assert got.headers["content-type"].startswith("application/json")
        assert got.json() == r


@pytest.mark.parametrize("path", ["/records/999", "/records/999.json", "/records/abc",
                                  "/records/-1", "/records/0", "/records/99999999999999999999",
                                  "/records/99999999999999999999.json", "/records/1x"])
def test_unknown_and_junk_ids(client, path):
    got = client.get(path)
    assert got.status_code in (400, 404)
    assert "Traceback" not in got.text
