"""zipai serve: the web table (zipai_rules.web) over its WebSocket, with Starlette's
TestClient; the record store is a fake of its ``add`` alone."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from zipai_rules.engine import Action  # noqa: E402
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
        end = play_first(ws, frames)
    game = table.game
    assert game.is_over
    assert end["record_id"] == 1 and store.records[0]["actions"] == \
        [a.to_json() for a in game.actions]
    assert end["result"] == game.observe(0).result.to_json()
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
    assert game.is_over and len(store.records) == 1
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
