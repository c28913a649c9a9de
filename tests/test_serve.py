"""zipai serve: the web table (zipai_rules.web) over its WebSocket, with Starlette's
TestClient; the record store is a fake of its ``add`` alone."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from zipai_rules.engine import Action  # noqa: E402
from zipai_rules.errors import ZipaiError  # noqa: E402
from zipai_rules.web.app import create_app  # noqa: E402
from zipai_rules.web.table import FRAME_LIMIT, WebTable  # noqa: E402
from zipai_rules.wording import Words  # noqa: E402


class FakeStore:
    """Keeps records in a list; ids from 1."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def add(self, record: dict[str, Any]) -> int:
        self.records.append(record)
        return len(self.records)


class Timers:
    """A schedule that never fires by itself: the test calls the table's ``expire``."""

    def __init__(self) -> None:
        self.armed: list[Handle] = []

    def __call__(self, seconds: float, callback: Any) -> Handle:
        handle = Handle(seconds, callback)
        self.armed.append(handle)
        return handle

    def live(self) -> list[Handle]:
        return [h for h in self.armed if not h.cancelled]


class Handle:
    def __init__(self, seconds: float, callback: Any) -> None:
        self.seconds, self.callback, self.cancelled = seconds, callback, False

    def cancel(self) -> None:
        self.cancelled = True


def play_first(ws: Any, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """Answer every decision with its first option until the end; the end frame."""
    while True:
        frame = ws.receive_json()
        frames.append(frame)
        if frame["type"] == "end":
            return frame
        if frame["type"] == "view" and frame["decision"] is not None:
            ws.send_json({"decision": frame["decision"],
                          "action": frame["options"][0]["action"]})


def test_the_page_and_its_files_are_served_with_a_strict_policy() -> None:
    client = TestClient(create_app("hunan", seed=1))
    page = client.get("/")
    assert page.status_code == 200 and 'id="options"' in page.text
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert "table.js" in page.text and "http" not in page.text.replace("http-equiv", "")
    script = client.get("/static/table.js")
    assert script.status_code == 200 and "WebSocket" in script.text
    assert client.get("/static/table.css").status_code == 200
    assert client.get("/static/nothing.js").status_code == 404


def test_one_human_plays_a_whole_hand_against_the_bots() -> None:
    store = FakeStore()
    app = create_app("hunan", seed=5, store=store)
    table: WebTable = app.state.table
    frames: list[dict[str, Any]] = []
    with TestClient(app).websocket_connect("/ws") as ws:
        ws.send_json({"join": "east"})
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        assert welcome["digest"] == table.game.commitment.digest
        assert welcome["variant"] == "hunan" and len(welcome["token"]) >= 32
        assert welcome["title"] == "湖南跑胡子"
        end = play_first(ws, frames)
    game = table.game
    assert game.is_over and table.internal_errors == []
    assert end["record_id"] == 1 and store.records[0]["actions"] == \
        [a.to_json() for a in game.actions]
    assert end["result"] == game.observe(0).result.to_json()
    assert end["result_text"].split(" · ")[0] == (
        "荒庄" if game.result.winner is None else
        f"{game.result.winner}号位 胡，{game.result.huxi} 胡息")
    views = [f for f in frames if f["type"] == "view"]
    assert all(f["picture"].startswith("<svg") for f in views)
    decided = [f for f in views if f["decision"] is not None]
    words = Words(game.variant, zh=True)  # the terminal game's wording, in Chinese
    assert decided and all(o["label"] == words.option(Action.from_json(o["action"]))
                           for f in decided for o in f["options"])
    assert {o["label"] for f in decided for o in f["options"]} >= {"过"} or \
        any(o["label"].startswith("打 ") for f in decided for o in f["options"])
    assert views[-1]["observation"]["phase"] == "over"
    assert all(len(json.dumps(f).encode()) <= FRAME_LIMIT for f in frames)


# --- what each seat is sent: the information flow on the wire ---------------------------------

class Seat:
    """One browser over the TestClient: the frames it got, its open decision."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.open: int | None = None     # the decision it was sent and has not answered
        self.last: dict[str, Any] | None = None

    def sync(self) -> None:
        """Read everything queued to this seat: a frame of no known shape is answered with an
        error after every frame sent before it (the connection is handled in order)."""
        self.ws.send_json({"sync": 1})
        while True:
            frame = self.ws.receive_json()
            if frame == {"type": "error", "error": "bad_message",
                         "message": frame.get("message")} and "decision" in frame["message"]:
                return
            self.frames.append(frame)
            if frame["type"] == "view":
                self.open = frame["decision"]
                if frame["observation"] is not None:
                    self.last = frame
            elif frame["type"] == "end":
                self.open = None

    def answer(self) -> bool:
        if self.open is None or self.last is None or self.last["decision"] != self.open:
            return False
        self.ws.send_json({"decision": self.open, "action": self.last["options"][0]["action"]})
        self.open = None
        return True

    def ended(self) -> bool:
        return any(f["type"] == "end" for f in self.frames)


def test_each_seat_is_sent_exactly_its_own_view() -> None:
    store = FakeStore()
    app = create_app("hunan", humans=2, seed=11, store=store)
    table: WebTable = app.state.table
    client = TestClient(app)
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        seats = [Seat(a), Seat(b)]
        a.send_json({"join": "east"})
        assert a.receive_json()["seat"] == 0
        b.send_json({"join": "south"})
        assert b.receive_json()["seat"] == 1
        for _ in range(500):
            for s in seats:
                s.sync()
            if all(s.ended() for s in seats):
                break
            moved = [s.answer() for s in seats]
            assert any(moved), "the table waits for nobody"
            for s in seats:  # the answers are handled before the next look
                s.sync()
    game = table.game
    assert game.is_over and len(store.records) == 1 and table.internal_errors == []
    record = store.records[0]
    for seat, s in enumerate(seats):
        views = [f for f in s.frames if f["type"] == "view"]
        sent_events = [e for f in views for e in f["events"]]
        assert sent_events == [e.to_json() for e in game.events_for(seat)]
        sent_views = [f["observation"] for f in views if f["observation"] is not None]
        assert sent_views == [v.to_json() for v in game.views(seat)]
        for f in views:
            if f["observation"] is not None:
                assert [o["action"] for o in f["options"]] == f["observation"]["options"]
        text = json.dumps(s.frames, ensure_ascii=False)
        for other in range(3):
            if other == seat:
                continue
            dealt = record["deal"]["hands"][other]
            hand = sorted(dealt.split(), key=lambda t: (t[0] == "d", int(t[1:])))
            assert dealt not in text and json.dumps(hand) not in text
        assert "wall" not in json.dumps([f.get("observation") or {} for f in views]) or \
            record["deal"]["wall"] not in text
        ends = [f for f in s.frames if f["type"] == "end"]
        assert len(ends) == 1 and ends[0]["result"] == game.observe(seat).result.to_json()


# --- deadlines -------------------------------------------------------------------------------

def seated_table(humans: int, seed: int, timers: Timers) -> tuple[WebTable, list[Any]]:
    table = WebTable("hunan", humans=humans, seed=seed, store=FakeStore(), schedule=timers)
    conns = []
    for k in range(humans):
        frames: list[dict[str, Any]] = []
        conn = table.connect(frames.append)
        table.receive(conn, json.dumps({"join": f"p{k}"}))
        conns.append((conn, frames))
    return table, conns


def answer_first(table: WebTable, conns: list[Any], seat: int) -> None:
    conn, frames = conns[seat]
    last = [f for f in frames if f["type"] == "view" and f["decision"] is not None][-1]
    assert last["decision"] == table.game.decision(seat)
    table.receive(conn, json.dumps({"decision": last["decision"],
                                    "action": last["options"][0]["action"]}))


def test_a_silent_seat_s_window_closes_with_its_default_at_the_deadline() -> None:
    timers = Timers()
    table, conns = seated_table(2, 11, timers)
    game = table.game
    for _ in range(300):  # play on until a window asks both people
        waiting = game.awaiting()
        if game.state.window is not None and set(waiting) == {0, 1}:
            break
        answer_first(table, conns, waiting[0])
    else:
        raise AssertionError("no window asked both players")
    armed = timers.live()
    assert len(armed) == 1 and armed[0].seconds == table.window_seconds
    asked = game.decision(1)
    answer_first(table, conns, 0)             # seat 0 answers, seat 1 stays silent
    assert game.decision(1) == asked and timers.live() == armed  # the same one deadline
    before = len(game.actions)
    armed[0].callback()                       # the deadline runs out
    assert table.deadlines == 1
    defaults = [a for a in game.actions[before:] if a.seat == 1]
    assert defaults and defaults[0].kind.value in ("pass", "hu")
    assert game.decision(1) != asked


def test_a_silent_own_turn_takes_the_default_bot_s_choice_at_the_deadline() -> None:
    timers = Timers()
    table, conns = seated_table(1, 5, timers)
    game = table.game
    for _ in range(300):  # the dealer's first discard is seat 0's own turn
        if game.state.window is None and game.awaiting() == (0,):
            break
        answer_first(table, conns, 0)
    view = game.observe(0)
    assert view.options and view.phase.value == "discard"
    expected = copy.deepcopy(table.bots[0]).choose(game.variant, view.hand, view.options)
    before = len(game.actions)
    timers.live()[-1].callback()
    assert game.actions[before] == expected and table.deadlines == 1


def test_a_hand_nobody_answers_is_played_to_its_end_by_the_deadlines() -> None:
    store = FakeStore()
    app = create_app("hunan", seed=5, store=store, window_seconds=0.02)
    table: WebTable = app.state.table
    with TestClient(app).websocket_connect("/ws") as ws:
        ws.send_json({"join": "away"})
        while (frame := ws.receive_json())["type"] != "end":
            pass
    assert table.game.is_over and frame["record_id"] == 1 and table.deadlines > 0
    mine = [a for a in table.game.actions if a.seat == 0]
    assert mine  # every answer of seat 0 was given by a deadline
    assert table.deadlines == sum(1 for v in table.game.views(0) if v.decision is not None)


# --- hostile frames --------------------------------------------------------------------------

def snapshot(table: WebTable) -> tuple[Any, ...]:
    game = table.game
    return (game.state, tuple(game.actions), tuple(game.events), len(table.seats))


def test_hostile_frames_get_a_clean_error_and_change_nothing() -> None:
    app = create_app("hunan", seed=5, store=FakeStore())
    table: WebTable = app.state.table
    client = TestClient(app)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"decision": 1, "action": {"kind": "pass", "seat": 0}})
        assert ws.receive_json()["error"] == "bad_message"  # no seat yet
        ws.send_json({"resume": "not-a-token"})
        assert ws.receive_json()["error"] == "bad_token"
        ws.send_json({"resume": 7})
        assert ws.receive_json()["error"] == "bad_token"
        ws.send_json({"join": ""})
        assert ws.receive_json()["error"] == "bad_message"
        ws.send_json({"join": "x" * 33})
        assert ws.receive_json()["error"] == "bad_message"
        ws.send_json({"join": "east"})
        assert ws.receive_json()["type"] == "welcome"
        view = ws.receive_json()
        decision = view["decision"]
        assert decision is not None and view["options"][0]["action"]["kind"] == "discard"
        held = view["options"][0]["action"]
        before = snapshot(table)
        hostile: list[tuple[Any, str]] = [
            ("not json", "bad_json"),
            ("[1, 2]", "bad_message"),
            ('"text"', "bad_message"),
            ('{"a": 1, "a": 2}', "duplicate_key"),
            ("[" * 200 + "]" * 200, "too_deep"),
            ("NaN", "bad_json"),
            ("x" * (FRAME_LIMIT + 1), "too_large"),
            (b'{"join": "x"}', "bad_message"),
            ({"join": "again"}, "bad_message"),
            ({"resume": "again"}, "bad_message"),
            ({"decision": str(decision), "action": held}, "bad_argument"),
            ({"decision": True, "action": held}, "bad_argument"),
            ({"decision": None, "action": held}, "bad_argument"),
            ({"decision": float(decision), "action": held}, "bad_argument"),
            ({"decision": decision, "action": "discard x1"}, "bad_action"),
            ({"decision": decision, "action": {"kind": "discard", "seat": 0, "card": "zz"}},
             "bad_action"),
            ({"decision": decision, "action": {**held, "seat": 1}}, "not_your_seat"),
            ({"decision": decision + 5, "action": held}, "stale_decision"),
            ({"decision": decision, "action": {"kind": "pass", "seat": 0}}, "wrong_phase"),
            ({"decision": decision, "action": held, "extra": 1}, "bad_message"),
            ({"next": True}, "hand_not_over"),
            ({"next": 1}, "bad_message"),
            ({}, "bad_message"),
        ]
        for frame, code in hostile:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            elif isinstance(frame, str):
                ws.send_text(frame)
            else:
                ws.send_json(frame)
            reply = ws.receive_json()
            assert (reply["type"], reply["error"]) == ("error", code), (frame, reply)
            assert isinstance(reply["message"], str) and "Traceback" not in reply["message"]
            assert snapshot(table) == before, frame
        ws.send_json({"decision": decision, "action": held})  # the real answer is taken
        assert ws.receive_json()["type"] == "view"
        assert table.game.actions[len(before[1])].to_json() == held
        ws.send_json({"decision": decision, "action": held})  # sent twice: stale
        while (reply := ws.receive_json())["type"] == "view":
            pass
        assert reply["error"] == "stale_decision"
    with client.websocket_connect("/ws") as other:
        other.send_json({"join": "west"})
        assert other.receive_json()["error"] == "table_full"
    assert table.internal_errors == []


def test_a_seat_resumes_with_its_token_and_is_sent_its_view_again() -> None:
    app = create_app("hunan", seed=5)
    table: WebTable = app.state.table
    client = TestClient(app)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"join": "east"})
        token = ws.receive_json()["token"]
        first = ws.receive_json()
    assert table.seats[0]["token_sha256"] != token and token not in json.dumps(table.seats)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"resume": token})
        welcome = ws.receive_json()
        assert welcome["seat"] == 0 and "token" not in welcome
        again = ws.receive_json()
        assert again["events"] == first["events"] and again["observation"] == \
            first["observation"] and again["decision"] == first["decision"]


def test_next_deals_a_new_hand_with_a_new_digest() -> None:
    store = FakeStore()
    app = create_app("hunan", seed=5, store=store)
    table: WebTable = app.state.table
    with TestClient(app).websocket_connect("/ws") as ws:
        ws.send_json({"join": "east"})
        digest = ws.receive_json()["digest"]
        play_first(ws, [])
        ws.send_json({"next": True})
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["hand"] == 2
        assert welcome["digest"] != digest == store.records[0]["commitment"]["digest"]
        assert welcome["digest"] == table.game.commitment.digest
        view = ws.receive_json()
        assert view["events"][0] == table.game.events_for(0)[0].to_json()
        assert not table.game.is_over


# --- the command line ------------------------------------------------------------------------

def test_zipai_serve_without_the_extra_says_which_and_exits_2(monkeypatch, capsys) -> None:
    from zipai_rules.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn raises ImportError
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: zipai serve needs the serve extra: ") and ".[serve]" in err


@pytest.mark.parametrize("args", [["--port", "70000"], ["--port", "0"], ["--humans", "0"],
                                  ["--humans", "4"],
                                  ["--window-seconds", "0"], ["--window-seconds", "nan"],
                                  ["--variant", "nowhere"], ["--seed", "-1"],
                                  ["--pace", "11"], ["--pace", "-1"]])
def test_zipai_serve_refuses_bad_arguments(args, capsys) -> None:
    from zipai_rules.cli import main

    try:
        code = main(["serve", *args])
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    assert code == 2 and "error:" in capsys.readouterr().err


def test_a_resume_elsewhere_ends_the_older_connection_with_its_own_code() -> None:
    from starlette.websockets import WebSocketDisconnect

    from zipai_rules.web.app import TAKEN_OVER

    client = TestClient(create_app("hunan", seed=5))
    with client.websocket_connect("/ws") as first:
        first.send_json({"join": "east"})
        token = first.receive_json()["token"]
        first.receive_json()
        with client.websocket_connect("/ws") as second:
            second.send_json({"resume": token})
            assert second.receive_json()["seat"] == 0
            with pytest.raises(WebSocketDisconnect) as closed:
                first.receive_json()
            assert closed.value.code == TAKEN_OVER


def test_the_web_package_and_its_host_load_without_the_web_libraries() -> None:
    code = ("import sys\n"
            "for name in ('starlette', 'uvicorn', 'websockets'):\n"
            "    sys.modules[name] = None\n"
            "import zipai_rules.web, zipai_rules.web.table\n"
            "assert not [m for m in sys.modules if m.startswith('starlette') and sys.modules[m]]\n"
            "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_pace_spaces_the_bot_moves_shown_and_the_hand_still_ends() -> None:
    timers = Timers()
    table = WebTable("hunan", seed=5, store=FakeStore(), schedule=timers, pace=0.25)
    frames: list[dict[str, Any]] = []
    conn = table.connect(frames.append)
    table.receive(conn, json.dumps({"join": "east"}))
    game, paced = table.game, 0
    for _ in range(1000):
        if game.is_over:
            break
        if game.decision(0) is not None:
            answer_first(table, [(conn, frames)], 0)
            continue
        pacers = [h for h in timers.live() if h.seconds == 0.25]
        assert len(pacers) == 1  # one bot move waits, nothing else
        pacers[0].cancelled = True
        pacers[0].callback()
        paced += 1
    assert game.is_over and paced > 0 and table.deadlines == 0
    sent = [e for f in frames if f["type"] == "view" for e in f["events"]]
    assert sent == [e.to_json() for e in game.events_for(0)]
    with pytest.raises(ZipaiError) as refused:
        WebTable("hunan", pace=11)
    assert refused.value.code == "bad_argument"


def test_a_view_too_large_for_one_frame_is_sent_in_several(monkeypatch) -> None:
    from zipai_rules.web import table as host

    table = WebTable("hunan", seed=5, schedule=Timers())
    frames: list[dict[str, Any]] = []
    conn = table.connect(frames.append)
    table.receive(conn, json.dumps({"join": "east"}))
    for _ in range(300):
        if table.game.is_over:
            break
        answer_first(table, [(conn, frames)], 0)
    token = "x" * 32
    table.seats[0]["token_sha256"] = host.token_hash(token)
    whole: list[dict[str, Any]] = []
    table.receive(table.connect(whole.append), json.dumps({"resume": token}))
    [view] = [f for f in whole if f["type"] == "view"]  # all of it in one frame
    limit = len(json.dumps(view, ensure_ascii=False).encode()) - 2000
    monkeypatch.setattr(host, "FRAME_LIMIT", limit)
    again: list[dict[str, Any]] = []
    table.receive(table.connect(again.append), json.dumps({"resume": token}))
    views = [f for f in again if f["type"] == "view"]
    assert len(views) > 1 and all(len(json.dumps(f, ensure_ascii=False).encode()) <= limit
                                  for f in views)
    assert [e for f in views for e in f["events"]] == \
        [e.to_json() for e in table.game.events_for(0)]
    assert [f["observation"] is not None for f in views] == [False] * (len(views) - 1) + [True]


def test_zipai_serve_refuses_an_address_it_cannot_listen_on(capsys) -> None:
    import socket

    from zipai_rules.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --host 127.0.0.1 --port {port}: cannot listen there")
    assert main(["serve", "--host", "no such host.invalid"]) == 2
    assert "cannot listen there" in capsys.readouterr().err


def test_the_page_speaks_the_tables_one_language_and_allows_only_the_pictures_style() -> None:
    import base64
    import hashlib

    from zipai_rules.drawing import STYLE

    zh = TestClient(create_app("hunan", seed=1)).get("/")
    en = TestClient(create_app("hunan", seed=1, ascii=True)).get("/")
    assert '<html lang="zh" data-lang="zh">' in zh.text
    assert '<html lang="en" data-lang="en">' in en.text
    style = "'sha256-" + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode() + "'"
    policy = zh.headers["content-security-policy"]
    assert f"style-src 'self' {style};" in policy and "unsafe-inline" not in policy
    assert "script-src 'self';" in policy and "blob:" not in policy


def test_the_result_line_words_the_labels_in_the_tables_language() -> None:
    zh = WebTable("hunan", seed=1)
    en = WebTable("hunan", seed=1, ascii=True)
    assert zh.result_text("hu", 1, 18, ["zimo"]) == "1号位 胡，18 胡息 · 自摸"
    assert en.result_text("hu", 1, 18, ["zimo"]) == "seat 1 hu, 18 huxi · zimo"
    assert zh.result_text("huangzhuang", None, 0) == "荒庄"
