"""Clients of the reference table server (table_server.py, docs/hosting.md): a seeded bot that
checks what the table shows it, a hostile one, and a demo table of three bots.

``BotClient`` joins, keeps its token, reconnects with it when the connection drops, answers
each decision once from its own observation (a 胡 when it may, else a seeded random choice:
the same choices for the same views), and at the end checks the record against the digest the
table published before the deal and against the events it was shown. ``HostileClient`` plays
as well, but first sends the server everything a client must not (probes) and notes each
error it gets back. ``python examples/table_bots.py`` plays the demo.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zipai_rules.engine import Action
from zipai_rules.engine.observation import Observation
from zipai_rules.records import replay_report

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_server import LINE_LIMIT, TableServer, read_line  # noqa: E402

Address = Callable[[], tuple[str, int]]


class BotClient:
    """One seat's player. ``where()`` gives the table's address (asked again at each
    reconnect); ``text``: answer in the wire notation instead of action JSON; ``uploads``:
    records to upload once the hand is over (``"own"``: the record the table sent)."""

    def __init__(self, name: str, seed: int, where: Address, *, text: bool = False,
                 uploads: tuple[Any, ...] = ()) -> None:
        self.name, self.seed, self.where, self.text = name, seed, where, text
        self.uploads = uploads
        self.seat: int | None = None
        self.token: str | None = None
        self.digest: str | None = None          # the table's commitment, from the welcome
        self.transcript: list[dict[str, Any]] = []  # every message received, in order
        self.events: list[dict[str, Any]] = []  # the events shown to this seat
        self.views: dict[int, dict[str, Any]] = {}  # decision id → the observation sent
        self.errors: list[dict[str, Any]] = []
        self.record: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.confirmed = False                  # the record is the hand this seat was shown
        self.upload_replies: list[dict[str, Any]] = []
        self.connections = 0
        self.seated = asyncio.Event()           # set at the first welcome
        self.backlog: list[dict[str, Any]] = []

    def choose(self, view: Observation) -> Action:
        wins = [a for a in view.options if a.kind == "hu"]
        if wins:
            return wins[0]
        rng = random.Random(f"{self.seed}/{view.seat}/{view.decision}")
        return rng.choice(view.options)

    async def run(self) -> None:
        """Play until the end of the hand, reconnecting with the token when cut off."""
        while self.record is None:
            reader, writer = await self.connect()
            try:
                await self.session(reader, writer)
            except ConnectionError:
                pass
            finally:
                writer.close()

    async def connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        for _ in range(500):
            host, port = self.where()
            try:
                return await asyncio.open_connection(host, port, limit=LINE_LIMIT)
            except OSError:
                await asyncio.sleep(0.02)  # the table is not (back) up yet
        raise ConnectionError(f"{self.name}: no table at {self.where()}")

    async def session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                      ) -> None:
        self.connections += 1
        answered: set[int] = set()  # decisions answered on this connection
        hello = {"resume": self.token} if self.token else {"join": self.name}
        await self.send(writer, hello)
        while True:
            message = self.backlog.pop(0) if self.backlog else await self.receive(reader)
            if message is None:
                return  # cut off: run() reconnects
            kind = message["type"]
            if kind == "welcome":
                if self.digest is not None and message["digest"] != self.digest:
                    raise AssertionError("the table dealt another hand after a reconnect")
                self.seat, self.digest = message["seat"], message["digest"]
                self.token = message.get("token", self.token)
                self.events = []  # every event shown so far comes again
                self.seated.set()
            elif kind == "events":
                self.events += message["events"]
            elif kind == "decide":
                view = Observation.from_json(message["observation"])
                assert view.seat == self.seat and view.decision is not None
                self.views.setdefault(view.decision, message["observation"])
                if view.decision not in answered:
                    answered.add(view.decision)
                    await self.decide(reader, writer, view)
            elif kind == "error":
                self.errors.append(message)
            elif kind == "end":
                self.finish(message)
                for record in self.uploads:
                    await self.send(writer, {"upload": self.record if record == "own"
                                             else record})
                    self.upload_replies.append(await self.reply(reader))
                return

    async def decide(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     view: Observation) -> None:
        await self.answer(writer, view.decision, self.choose(view))

    async def answer(self, writer: asyncio.StreamWriter, decision: int | None,
                     action: Action) -> None:
        if self.text:
            await self.send(writer, {"decision": decision, "text": action.to_text()})
        else:
            await self.send(writer, {"decision": decision, "action": action.to_json()})

    def finish(self, message: dict[str, Any]) -> None:
        """Check the record: the hand of the digest published before the deal (a strict
        replay), and the very events this seat was shown."""
        self.record, self.result = message["record"], message["result"]
        assert self.seat is not None and self.record is not None
        report = replay_report(self.record, expect_digest=self.digest)
        shown = [e.to_json() for e in report.game.events_for(self.seat)]
        self.confirmed = report.provenance == "committed" and shown == self.events

    async def send(self, writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
        writer.write(json.dumps(message).encode("utf-8") + b"\n")
        await writer.drain()

    async def receive(self, reader: asyncio.StreamReader) -> dict[str, Any] | None:
        line = await read_line(reader)
        if line is None:
            return None
        message: dict[str, Any] = json.loads(line)
        self.transcript.append(message)
        return message

    async def reply(self, reader: asyncio.StreamReader) -> dict[str, Any]:
        """The server's answer to a request (an ``upload`` or an ``error``); other messages
        that come first are kept for later."""
        while True:
            message = await self.receive(reader)
            if message is None:
                raise ConnectionError("cut off while waiting for a reply")
            if message["type"] in ("upload", "error"):
                return message
            self.backlog.append(message)


class HostileClient(BotClient):
    """A bot that, at its first discard (when the table waits for it alone), sends what no
    client should, then answers twice. ``probes`` holds ``(expected code, code got, whether
    the game stayed the same)``; ``snapshot()``, when given, reads the server's game."""

    def __init__(self, *args: Any, snapshot: Callable[[], Any] | None = None,
                 **options: Any) -> None:
        super().__init__(*args, **options)
        self.snapshot = snapshot or (lambda: None)
        self.probes: list[tuple[str, str, bool]] = []
        self.probed = False

    def bad_messages(self, view: Observation) -> list[tuple[bytes, str]]:
        me, d = view.seat, view.decision
        assert d is not None
        mine = view.options[0].to_json()  # a legal discard
        other = dict(mine, seat=(me + 1) % len(view.hidden_cards))
        missing = next(c for c in range(20) if view.hand[c] == 0)
        card = Action("discard", me, missing).to_json()

        def line(message: Any) -> bytes:
            return json.dumps(message).encode("utf-8")
        return [
            (b"hello there", "bad_json"),
            (b"\xff\xfe\x00", "bad_json"),                      # not UTF-8
            (b'{"decision": NaN}', "bad_json"),
            (b'{"decision": 1, "decision": 2}', "duplicate_key"),
            (b"[" * 5000 + b"]" * 5000, "too_deep"),
            (b"x" * (LINE_LIMIT + 100), "too_large"),
            (b"[1, 2, 3]", "bad_message"),
            (line({"action": mine}), "bad_message"),               # no decision id
            (line({"decision": d, "action": mine, "text": "pass"}), "bad_message"),
            (line({"decision": d, "text": 7}), "bad_message"),
            (line({"join": "again"}), "bad_message"),
            (line({"decision": d, "action": other}), "not_your_seat"),
            (line({"decision": d - 1, "action": mine}), "stale_decision"),
            (line({"decision": str(d), "action": mine}), "bad_argument"),
            (line({"decision": d, "action": {"kind": "fly", "seat": me}}), "bad_action"),
            (line({"decision": d, "action": {"kind": "discard", "seat": me, "card": 5}}),
             "bad_action"),
            (line({"decision": d, "action": card}), "not_held"),
            (line({"decision": d, "action": {"kind": "pass", "seat": me}}), "wrong_phase"),
            (line({"decision": d, "text": "fly away"}), "bad_action_text"),
            (line({"upload": {"format": "nope"}}), "bad_format"),
            (line({"upload": [1]}), "bad_message"),
        ]

    async def decide(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     view: Observation) -> None:
        if self.probed or str(view.phase) != "discard":
            return await super().decide(reader, writer, view)
        self.probed = True
        for line, want in self.bad_messages(view):
            before = self.snapshot()
            writer.write(line + b"\n")
            await writer.drain()
            got = await self.reply(reader)
            self.probes.append((want, got.get("error", "accepted"), self.snapshot() == before))
        action = self.choose(view)
        await self.answer(writer, view.decision, action)
        await self.answer(writer, view.decision, action)  # a second answer: stale
        got = await self.reply(reader)
        self.probes.append(("stale_decision", got.get("error", "accepted"), True))


async def play_demo(seed: int | None = None, window_seconds: float = 0.5) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = TableServer("hunan", Path(folder), seed=seed, window_seconds=window_seconds)
        port = await server.start()
        def where() -> tuple[str, int]:
            return "127.0.0.1", port
        hostile = HostileClient("west", 3, where)
        bots = [BotClient("east", 1, where, uploads=("own",)),
                BotClient("south", 2, where, text=True), hostile]
        tasks = []
        for bot in bots:  # one at a time: bots[k] takes seat k
            tasks.append(asyncio.create_task(bot.run()))
            await bot.seated.wait()
        await asyncio.gather(*tasks)
        await server.close()
    print(f"table {server.meta['table']}: commitment {server.digest} published before the "
          f"deal; {len(server.game.actions)} answers, {server.deadlines} windows closed at "
          "their deadline")
    print("result:", bots[0].result)
    print("each seat confirmed the record against the digest and its own view:",
          all(b.confirmed for b in bots))
    print("hostile probes refused as expected:",
          all(want == got and same for want, got, same in hostile.probes))
    print("own record uploaded:", bots[0].upload_replies[0])


def demo() -> None:
    asyncio.run(play_demo())


if __name__ == "__main__":
    demo()
