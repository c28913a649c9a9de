"""The reference table server (examples/table_server.py, docs/hosting.md) with its bots
(examples/table_bots.py), each hand in one asyncio loop over 127.0.0.1.

The oracles share no code with the server: the strict replay of the records it writes, the
engine's own seat views (``Game.events_for``, ``Game.views``) for what each seat was sent, the
error codes the hostile client expects, and an uninterrupted hand for the resumed one.
Deadlines may fire on a slow machine: every assertion is about outcomes, none about time.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zipai_rules import load_preset
from zipai_rules.engine import Game
from zipai_rules.errors import ReplayError, ZipaiError
from zipai_rules.records import game_record, read_record, replay_record, replay_report
from zipai_rules.settlement import settle

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from table_bots import BotClient, HostileClient  # noqa: E402
from table_server import LINE_LIMIT, TableServer  # noqa: E402

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


async def bots_table(variant, folder, seed, window_seconds, clients):
    """One hand at a new table of three bots, ``clients[k](name, seed, where)`` at seat k
    (``BotClient`` seeds 1, 2, 3); returns the closed server and the bots."""
    server = TableServer(variant, folder, seed=seed, window_seconds=window_seconds)
    port = await server.start()
    def where():
        return HOST, port
    names = ("east", "south", "west")
    bots = [client(names[k], k + 1, where) for k, client in enumerate(clients)]
    await asyncio.gather(*await seat_all(bots))
    await server.close()
    return server, bots


def test_deadlines_close_the_windows_of_a_silent_seat(tmp_path):
    server, bots = run(bots_table(HUNAN, tmp_path, 14, 0.05,
                                  (BotClient, SilentClient, BotClient)))
    check_hand(server, bots, tmp_path)
    windows = [v for v in bots[1].views.values() if v["phase"] == "respond"]
    assert windows and server.deadlines > 0
    # every window answer of the silent seat is the deadline's: pass, or a forced 胡
    answers = [a for a in server.game.actions if a.seat == 1 and a.kind != "discard"]
    assert answers and {a.kind.value for a in answers} <= {"pass", "hu"}


# --- a raw table: the wire, line by line -----------------------------------------------------

async def raw_join(port, name, *before):
    """A raw connection that sends each of ``before`` (whole lines), then joins; returns the
    reader, the writer and every reply up to the welcome."""
    reader, writer = await asyncio.open_connection(HOST, port)
    for line in before:
        writer.write(line + b"\n")
    writer.write(json.dumps({"join": name}).encode() + b"\n")
    await writer.drain()
    replies = []
    while not replies or replies[-1]["type"] != "welcome":
        replies.append(json.loads(await reader.readline()))
    return reader, writer, replies


async def next_of(reader, kind):
    """The next message of type ``kind`` (others are skipped)."""
    while True:
        message = json.loads(await reader.readline())
        if message["type"] == kind:
            return message


async def ask(reader, writer, message):
    """Send one line and read the reply to it: an ``error`` or ``upload``, else the next
    ``events`` message (an answer that was applied)."""
    writer.write((message if isinstance(message, bytes) else json.dumps(message).encode())
                 + b"\n")
    await writer.drain()
    while True:
        reply = json.loads(await reader.readline())
        if reply["type"] in ("error", "upload", "events"):
            return reply


def test_an_over_long_first_line_is_refused_and_the_next_line_read(tmp_path):
    async def table():
        server = TableServer(HUNAN, tmp_path, seed=11, window_seconds=30)
        port = await server.start()
        pad = b'{"join": "a", "x": "'  # a join whose unknown key pads it to n bytes
        def line(n):
            return pad + b"y" * (n - len(pad) - 2) + b'"}'
        assert len(line(LINE_LIMIT)) == LINE_LIMIT == 65536
        conns = [await raw_join(port, "mega", b"z" * (1 << 20))]   # 1 MiB, then a join
        early = await ask(*conns[0][:2], {"decision": 1, "text": "x2"})  # one seat of three
        conns.append(await raw_join(port, "over", line(LINE_LIMIT + 1)))  # 65,537 bytes
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(line(LINE_LIMIT) + b"\n")  # the longest line taken: a join
        await writer.drain()
        fits = json.loads(await reader.readline())
        cut_reader, cut = await asyncio.open_connection(HOST, port)
        cut.write(b"z" * (3 * LINE_LIMIT))  # the stream ends within an over-long line
        cut.write_eof()
        cut_off = [json.loads(line) async for line in cut_reader]
        for _, w, _ in conns:
            w.close()
        writer.close()
        cut.close()
        await server.close()
        return server, [replies for _, _, replies in conns], fits, cut_off, early

    server, (mega, over), fits, cut_off, early = run(table())
    assert (early["error"], early["message"]) == (
        "not_started", "the hand starts when every seat has come")
    assert [m["error"] for m in cut_off] == ["too_large"]  # then the end of the stream
    assert [(m["type"], m.get("error"), m.get("seat")) for m in mega] == [
        ("error", "too_large", None), ("welcome", None, 0)]
    assert mega[0]["message"] == "a line longer than 65536 bytes"
    assert [(m["type"], m.get("error"), m.get("seat")) for m in over] == [
        ("error", "too_large", None), ("welcome", None, 1)]
    assert (fits["type"], fits["seat"]) == ("welcome", 2)
    assert [s["name"] for s in server.meta["seats"]] == ["mega", "over", "a"]
    assert server.internal_errors == []


async def dealt_table(folder, seed=11):
    """Hunan seed 11 with three raw seats: the dealer, seat 0, owes its first discard
    (decision 1), the only decision open. Returns the server, the connections and the
    dealer's observation."""
    server = TableServer(HUNAN, folder, seed=seed, window_seconds=30)
    port = await server.start()
    conns = [(await raw_join(port, name))[:2] for name in ("east", "south", "west")]
    view = (await next_of(conns[0][0], "decide"))["observation"]
    return server, conns, view


async def hang_up(server, conns):
    for _, writer in conns:
        writer.close()
    await server.close()


def test_an_answer_must_name_its_decision_by_an_int(tmp_path):
    async def table():
        server, conns, view = await dealt_table(tmp_path)
        reader, writer = conns[0]
        mine = view["options"][0]
        assert (view["decision"], view["phase"], mine) == (
            1, "discard", {"kind": "discard", "seat": 0, "card": "x2"})
        refused = []
        for decision in (None, True, 1.0, "1", [1], {"id": 1}):
            refused.append(await ask(reader, writer, {"decision": decision, "action": mine}))
            assert server.game.actions == []  # nothing applied
        raw = await ask(reader, writer, b'{"decision": null, "text": "x2"}')
        applied = await ask(reader, writer, {"decision": 1, "action": mine})
        actions = list(server.game.actions)
        await hang_up(server, conns)
        return server, refused, raw, applied, actions

    server, refused, raw, applied, actions = run(table())
    assert [(r["error"], r["message"]) for r in refused] == [
        ("bad_argument", "decision: a decision id is an int, not null"),
        ("bad_argument", "decision: a decision id is an int, not a boolean"),
        ("bad_argument", "decision: a decision id is an int, not a number with a fraction"),
        ("bad_argument", "decision: a decision id is an int, not a string"),
        ("bad_argument", "decision: a decision id is an int, not an array"),
        ("bad_argument", "decision: a decision id is an int, not an object")]
    assert (raw["error"], raw["message"]) == (
        "bad_argument", "decision: a decision id is an int, not null")
    assert applied == {"type": "events", "events": [{"kind": "discard", "seat": 0,
                                                     "card": "x2"}]}
    assert [a.to_json() for a in actions] == [{"kind": "discard", "seat": 0, "card": "x2"}]
    assert server.internal_errors == []


def test_an_action_with_a_key_it_does_not_know_is_refused(tmp_path):
    async def table():
        server, conns, view = await dealt_table(tmp_path)
        reader, writer = conns[0]
        evil = dict(view["options"][0], evil=1)
        assert evil == {"kind": "discard", "seat": 0, "card": "x2", "evil": 1}
        reply = await ask(reader, writer, {"decision": 1, "action": evil})
        actions = list(server.game.actions)
        await hang_up(server, conns)
        return server, reply, actions

    server, reply, actions = run(table())
    assert (reply["type"], reply["error"]) == ("error", "bad_action")
    assert reply["message"] == ("action: unknown field 'evil'; the fields are card, kind, "
                                "melds, seat")
    assert actions == [] and server.internal_errors == []


# --- uploads: every hostile record is refused with a code ------------------------------------

def bots_hand(variant, seed):
    """The hand the three ``BotClient`` of seeds 1, 2, 3 play at a table of ``seed``, played
    on the engine alone (their answers depend on their views only, never on timing)."""
    return bots_play(Game(variant, seed=seed, commit=True, windows=True))


def bots_play(game):
    """``game`` played to its end by ``BotClient`` of seeds 1, 2, 3 at game seats 0, 1, 2."""
    while not game.is_over:
        seat = game.awaiting()[0]
        view = game.observe(seat)
        game.apply(BotClient("bot", seat + 1, lambda: (HOST, 0)).choose(view), by=seat,
                   decision=view.decision)
    return game


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A table resumed after its hand, hunan seed 22 (seat 0 wins on the 27th answer), and
    the JSON of its record as the wire carries it."""
    game = bots_hand(HUNAN, 22)
    assert (game.result.winner, len(game.actions)) == (0, 27)
    server = TableServer(HUNAN, tmp_path_factory.mktemp("finished") / "t", game=game)
    return server, json.loads(json.dumps(server.record))


def record_paths(value, path=()):
    """Every path into a JSON value (dict keys and list indices), the root excluded."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, item in items:
        yield (*path, key)
        yield from record_paths(item, (*path, key))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 10**20) | st.floats(allow_nan=False)
    | st.text(max_size=4) | st.sampled_from(["x2", "d10", "K", "hu", "pass", "committed"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=6)


def mutated(record, path, how, value):
    """``record`` with the value at ``path`` replaced by ``value`` (``how`` "set"), removed
    ("drop") or given a key it does not know ("add")."""
    record = copy.deepcopy(record)
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    if how == "drop" and isinstance(parent, dict):
        del parent[path[-1]]
    elif how == "add" and isinstance(parent[path[-1]], dict):
        parent[path[-1]]["evil"] = value
    else:
        parent[path[-1]] = value
    return record


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), how=st.sampled_from(["set", "set", "drop", "add"]), value=JSON_VALUES)
def test_a_hostile_upload_is_refused_with_a_code_or_is_the_hand(finished, data, how, value):
    server, record = finished
    path = data.draw(st.sampled_from(sorted(record_paths(record), key=repr)), label="path")
    try:
        report = server.check_upload(mutated(record, path, how, value))
    except ZipaiError as refused:
        assert refused.code  # answered as {"type": "error", "error": code}
        return
    assert report.provenance == "committed"  # accepted: this very hand, as the table saw it
    assert report.game.actions == server.game.actions
    assert report.game.result == server.game.result


@pytest.mark.parametrize("upload", [None, [], "record", 5, True])
def test_an_upload_that_is_no_object_is_a_bad_message(finished, upload):
    server, _ = finished
    with pytest.raises(ZipaiError) as refused:
        server.check_upload(upload)
    assert refused.value.code == "bad_message"


@pytest.mark.parametrize("key", ["result", "settlement"])
def test_an_upload_of_the_own_record_with_a_null_part_is_refused(finished, key):
    server, record = finished
    with pytest.raises(ReplayError) as refused:
        server.check_upload(dict(record, **{key: None}))
    assert refused.value.code == "result_differs"
    assert str(refused.value) == (f"step 27: result differs: {key} recorded null (a hand still "
                                  "being played), replayed a finished hand")


def test_an_upload_with_a_null_result_is_answered_and_the_connection_goes_on(tmp_path):
    async def table():
        server = TableServer(HUNAN, tmp_path, seed=2857)  # a 天胡: over at the deal
        assert server.game.is_over and server.record is not None
        port = await server.start()
        reader, writer, _ = await raw_join(port, "east")
        own = json.loads(json.dumps(server.record))
        nulled = await ask(reader, writer, {"upload": dict(own, result=None)})
        accepted = await ask(reader, writer, {"upload": own})
        writer.close()
        await server.close()
        return server, nulled, accepted

    server, nulled, accepted = run(table())
    assert (nulled["type"], nulled["error"]) == ("error", "result_differs")
    assert nulled["message"].startswith("step 0: result differs: result recorded null")
    assert accepted == {"type": "upload", "accepted": True, "provenance": "committed",
                        "digest": server.digest}
    assert server.internal_errors == []


# --- the table's folder ----------------------------------------------------------------------

def mode_of(path):
    return path.stat().st_mode & 0o777


def test_a_new_table_creates_its_folder_private_and_never_chmods_one_it_was_given(tmp_path):
    made = TableServer(HUNAN, tmp_path / "tables" / "t-1", seed=11)
    assert mode_of(made.folder) == 0o700 and list(made.folder.iterdir()) == []
    shared = tmp_path / "shared"
    shared.mkdir()
    for mode in (0o755, 0o750, 0o701, 0o707):
        shared.chmod(mode)
        with pytest.raises(ZipaiError) as refused:
            TableServer(HUNAN, shared, seed=11)
        assert refused.value.code == "folder_not_private"
        assert f"mode {mode:o}" in str(refused.value)
        assert mode_of(shared) == mode and list(shared.iterdir()) == []  # left as it was
    shared.chmod(0o700)
    assert TableServer(HUNAN, shared, seed=11).folder == shared
    (tmp_path / "file").write_text("")
    with pytest.raises(ZipaiError) as refused:
        TableServer(HUNAN, tmp_path / "file", seed=11)
    assert refused.value.code == "folder_not_private"


def test_a_new_table_refuses_a_folder_that_holds_a_saved_table(tmp_path):
    async def table():
        server, conns, view = await dealt_table(tmp_path, seed=11)
        await ask(*conns[0], {"decision": view["decision"], "action": view["options"][0]})
        await hang_up(server, conns)  # a crash after the dealer's discard
        return server

    first = run(table())
    saved = (tmp_path / "table.json").read_bytes()
    with pytest.raises(ZipaiError) as refused:
        TableServer(HUNAN, tmp_path, seed=12)  # a restart with the constructor
    assert refused.value.code == "table_exists"
    assert "TableServer.resume" in str(refused.value)
    assert (tmp_path / "table.json").read_bytes() == saved  # the hand is still there
    resumed = TableServer.resume(tmp_path)
    assert resumed.digest == first.digest
    assert [a.to_json() for a in resumed.game.actions] == [
        {"kind": "discard", "seat": 0, "card": "x2"}]
    assert [s["name"] for s in resumed.meta["seats"]] == ["east", "south", "west"]


# --- a variant with a seat sitting out -------------------------------------------------------

PENGHU = load_preset("penghu")


def text_bot(name, seed, where):
    return BotClient(name, seed, where, text=True)


def test_a_penghu_hand_ends_with_a_record_that_replays_strictly(tmp_path):
    server, bots = run(bots_table(PENGHU, tmp_path, 10, 10, (BotClient, text_bot, BotClient)))
    record = check_hand(server, bots, tmp_path)
    # penghu seed 10: seat 1 wins on the 9th answer; the seat sitting out (数醒) mirrors it
    assert (server.game.result.winner, len(server.game.actions)) == (1, 9)
    assert record["settlement"]["payments"] == [-2, 2, -2]
    assert record["settlement"]["sitting_out"] == 2
    assert replay_report(record, expect_digest=server.digest).settlement.sitting_out == 2


# --- a match of window hands (docs/hosting.md, A match of hands) -----------------------------

def hosting_block(heading):
    """The ```python block under ``heading`` of docs/hosting.md, run: its namespace."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "hosting.md").read_text("utf-8")
    section = text[text.index(f"\n## {heading}\n"):]
    block = section[section.index("```python\n") + 10:section.index("\n```\n")]
    namespace = {"__name__": "hosting_block"}
    exec(compile(block, "docs/hosting.md", "exec"), namespace)  # noqa: S102 - our own docs
    return namespace


def test_a_match_of_window_hands_as_hosting_md_plays_it():
    recipe = hosting_block("A match of hands")
    match = recipe["Match"](PENGHU, seed=8)
    hands = []
    for _ in range(3):
        dealer, out = match.dealer, match.sitting_out()
        game, seats = recipe["next_table_hand"](match)
        assert game.windows and game.commitment is not None
        # 碰胡: four seats, the seat opposite the dealer sits out, the dealer plays first
        assert out == (dealer + 2) % 4
        assert seats == tuple(t % 4 for t in range(dealer, dealer + 4) if t % 4 != out)
        bots_play(game)
        hand = recipe["count_table_hand"](match, game)
        hands.append(hand)
        record = game_record(game, hand.settlement)
        report = replay_report(record, expect_digest=game.commitment.digest)
        assert report.provenance == "committed" and report.settlement == hand.settlement
        # the winner deals next, a 荒庄 leaves the deal where it was
        assert match.dealer == (dealer if hand.winner is None else hand.winner)
    # match seed 8: table seat 3 wins, a 荒庄 (seat 3 deals again), table seat 2 wins
    assert [(h.number, h.dealer, h.sitting_out, h.seats, h.winner) for h in hands] == [
        (1, 0, 2, (0, 1, 3), 3), (2, 3, 1, (3, 0, 2), None), (3, 3, 1, (3, 0, 2), 2)]
    assert [h.settlement.payments for h in hands] == [(-2, -2, 2), (0, 0, 0), (-2, -2, 2)]
    assert [h.settlement.sitting_out for h in hands] == [2, 0, 2]  # 数醒: as the winner
    # per table seat, by hand: its payment at its game seat, or its 数醒 share sitting out
    assert match.scores == [-2 + 0 - 2, -2 + 0 + 2, 2 + 0 + 2, 2 + 0 - 2] == [-4, 0, 4, 0]
    assert match.played == 3 and match.dealer == 2
