"""zipai serve: the web table (zipai_rules.web) over its WebSocket, with Starlette's
TestClient; the record store is a fake of its ``add`` alone."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from zipai_rules.web.app import create_app  # noqa: E402
from zipai_rules.web.table import FRAME_LIMIT, WebTable  # noqa: E402


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
    decided = [f for f in views if f["observation"] is not None]
    assert decided and all(f["options"][0]["label"] for f in decided)
    assert all(len(json.dumps(f).encode()) <= FRAME_LIMIT for f in frames)
