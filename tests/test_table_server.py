"""The reference table server (examples/table_server.py, docs/hosting.md) with its bots
(examples/table_bots.py), each hand in one asyncio loop over 127.0.0.1.

The oracles share no code with the server: the strict replay of the records it writes, the
engine's own seat views (``Game.events_for``, ``Game.views``) for what each seat was sent, the
error codes the hostile client expects, and an uninterrupted hand for the resumed one.
Deadlines may fire on a slow machine: every assertion is about outcomes, none about time.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from pathlib import Path

import pytest

from zipai_rules import load_preset
from zipai_rules.engine import Game
from zipai_rules.records import game_record, read_record, replay_record, replay_report
from zipai_rules.settlement import settle

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from table_bots import BotClient, HostileClient  # noqa: E402
from table_server import TableServer  # noqa: E402

HUNAN = load_preset("hunan")
HOST = "127.0.0.1"


def run(coro):
    """Run one table; the guard stops a hung test, it asserts nothing about time."""
    return asyncio.run(asyncio.wait_for(coro, 60))


async def seat_all(bots):
    """Start the bots one at a time, so that bots[k] takes seat k."""
    tasks = []
    for bot in bots:
        tasks.append(asyncio.create_task(bot.run()))
        await bot.seated.wait()
    return tasks


async def exchange(port, *messages):
    """A raw connection: send each line, read one reply to each; then hang up."""
    reader, writer = await asyncio.open_connection(HOST, port)
    replies = []
    for message in messages:
        writer.write(message + b"\n")
        await writer.drain()
        replies.append(json.loads(await reader.readline()))
    writer.close()
    return replies


def home_dealt_record():
    """A hand dealt at home with a seed and commitment of its own (hunan 2857: a 天胡)."""
    game = Game(HUNAN, seed=2857, commit=True, windows=True)
    assert game.is_over
    record = game_record(game, settle(game))
    assert replay_report(record).provenance == "committed"  # sound, but not this table's
    return record


def seat_views(game, seat):
    """What the engine says ``seat`` is shown: its events, and its observation at each of
    its decisions."""
    events = [e.to_json() for e in game.events_for(seat)]
    views = {v.decision: v.to_json() for v in game.views(seat) if v.decision is not None}
    return events, views


def check_hand(server, bots, folder):
    """What every hand must end with: a record that replays strictly to the server's result,
    each seat sent exactly its own view, the digest first, the seats in meta."""
    assert server.internal_errors == []
    record = read_record(folder / "record.json")
    report = replay_report(record, expect_digest=server.digest)
    assert report.provenance == "committed"
    assert report.game.result == server.game.result is not None
    assert report.settlement == settle(server.game)
    assert report.game.actions == server.game.actions
    game, _ = replay_record(read_record(folder / "table.json"))  # the last save: the record
    assert game.result == server.game.result
    meta = record["meta"]
    assert meta["table"] == server.meta["table"] and meta["started"] and meta["ended"]
    text = (folder / "record.json").read_text()
    for seat, bot in enumerate(bots):
        assert bot.seat == seat and bot.record == record and bot.confirmed
        assert meta["seats"][seat] == {"seat": seat, "name": bot.name, "token_sha256":
                                       hashlib.sha256(bot.token.encode()).hexdigest()}
        assert bot.token not in text
        first = bot.transcript[0]  # the commitment comes before any card
        assert first["type"] == "welcome" and first["digest"] == record["commitment"]["digest"]
        events, views = seat_views(server.game, seat)
        assert bot.events == events
        assert bot.views == views
        assert all(m["observation"]["seat"] == seat for m in bot.transcript
                   if m["type"] == "decide")
        assert bot.result == server.game.observe(seat).result.to_json()
    return record


@pytest.mark.parametrize("seed", [11, 12])
def test_a_hand_with_a_hostile_seat(seed, tmp_path):
    async def table():
        server = TableServer(HUNAN, tmp_path, seed=seed, window_seconds=0.5)
        port = await server.start()
        def where():
            return HOST, port
        def snapshot():
            return server.game.state, len(server.game.actions), len(server.game.events)
        forged = home_dealt_record()
        bots = [BotClient("east", 1, where, uploads=("own", forged)),
                BotClient("south", 2, where, text=True),
                HostileClient("west", 3, where, snapshot=snapshot)]
        tasks = await seat_all(bots)
        late = await exchange(port, b"hello", b'{"join": "late"}', b'{"resume": "nope"}',
                              b'{"resume": 5}', b'{"join": ""}')
        await asyncio.gather(*tasks)
        await server.close()
        return server, bots, late

    server, bots, late = run(table())
    check_hand(server, bots, tmp_path)
    hostile = bots[2]
    assert len(hostile.probes) == 22
    assert [got for _, got, _ in hostile.probes] == [want for want, _, _ in hostile.probes]
    assert all(same for _, _, same in hostile.probes)  # no bad message changed the game
    # the bots' own errors: at most a late answer to a window a 胡 decided first
    assert {e["error"] for b in bots[:2] for e in b.errors} <= {"stale_decision"}
    assert [r["error"] for r in late] == ["bad_json", "table_full", "bad_token", "bad_token",
                                          "bad_message"]
    own, forged = bots[0].upload_replies
    assert own == {"type": "upload", "accepted": True, "provenance": "committed",
                   "digest": server.digest}
    assert forged["type"] == "error" and forged["error"] == "digest_mismatch"


class SlowClient(BotClient):
    """Answers claim windows a little late, so that a window is often half answered."""

    async def decide(self, reader, writer, view):
        if str(view.phase) == "respond":
            await asyncio.sleep(0.02)
        await super().decide(reader, writer, view)


async def play(folder, seed, crash_after=None, window_seconds=5.0):
    """One hand of three bots; with ``crash_after``, the server is stopped once that many
    answers are applied and a window is half answered, and a new one resumes the table
    from its save."""
    server = TableServer(HUNAN, folder, seed=seed, window_seconds=window_seconds)
    address = [await server.start()]
    def where():
        return HOST, address[0]
    bots = [BotClient("east", 1, where), BotClient("south", 2, where, text=True),
            SlowClient("west", 3, where)]
    tasks = await seat_all(bots)
    first = server
    if crash_after is not None:
        while not server.game.is_over and (len(server.game.actions) < crash_after
                                           or server.game.state.window is None
                                           or not server.game.state.window.answers):
            await asyncio.sleep(0.002)
        await server.close()  # the crash: nothing after the last save survives
        server = TableServer.resume(folder, window_seconds=window_seconds)
        address[0] = await server.start()
    await asyncio.gather(*tasks)
    await server.close()
    return first, server, bots


def test_a_crash_and_a_resume_end_the_hand_as_an_uninterrupted_run(tmp_path):
    seed = 13
    _, whole, _ = run(play(tmp_path / "whole", seed))
    assert len(whole.game.actions) > 40
    crash_after = len(whole.game.actions) // 2
    first, resumed, bots = run(play(tmp_path / "crashed", seed, crash_after))
    assert resumed is not first and resumed.digest == first.digest
    assert resumed.meta["table"] == first.meta["table"]
    assert resumed.meta["started"] == first.meta["started"]
    saved_at = len(first.game.actions)
    assert crash_after <= saved_at < len(resumed.game.actions)  # mid-hand
    assert resumed.game.actions[:saved_at] == first.game.actions
    assert first.game.state.window.answers  # it stopped in the middle of a window
    assert [b.connections for b in bots] == [2, 2, 2]  # each came back with its token
    check_hand(resumed, bots, tmp_path / "crashed")
    if whole.deadlines == first.deadlines == resumed.deadlines == 0:
        # the same answers (every bot chooses from its view alone): the same hand
        assert resumed.game.result == whole.game.result
        assert resumed.game.events == whole.game.events
        assert settle(resumed.game) == settle(whole.game)


class SilentClient(BotClient):
    """Answers its own turns, never a claim window: the deadline answers for it."""

    async def decide(self, reader, writer, view):
        if str(view.phase) != "respond":
            await super().decide(reader, writer, view)


def test_deadlines_close_the_windows_of_a_silent_seat(tmp_path):
    async def table():
        server = TableServer(HUNAN, tmp_path, seed=14, window_seconds=0.05)
        port = await server.start()
        def where():
            return HOST, port
        bots = [BotClient("east", 1, where), SilentClient("south", 2, where),
                BotClient("west", 3, where)]
        await asyncio.gather(*await seat_all(bots))
        await server.close()
        return server, bots

    server, bots = run(table())
    check_hand(server, bots, tmp_path)
    windows = [v for v in bots[1].views.values() if v["phase"] == "respond"]
    assert windows and server.deadlines > 0
    # every window answer of the silent seat is the deadline's: pass, or a forced 胡
    answers = [a for a in server.game.actions if a.seat == 1 and a.kind != "discard"]
    assert answers and {a.kind.value for a in answers} <= {"pass", "hu"}
