"""A reference table server: one hand of 跑胡子 for three seats, JSON lines over TCP.

Standard library only (asyncio) on top of zipai_rules; docs/hosting.md walks through it, and
tests/test_table_server.py runs it with the bots of ``table_bots.py``. Run this file for a demo
table on 127.0.0.1 (three bots, one hand); serve a real one with::

    server = TableServer("hunan", Path("tables/t-1"), window_seconds=10)
    asyncio.run(server.serve("127.0.0.1", 8765))

The wire: every message is one JSON object on one line (UTF-8, at most ``LINE_LIMIT`` bytes).

* client → server: first ``{"join": NAME}`` (a new seat) or ``{"resume": TOKEN}`` (your seat
  back); then ``{"decision": ID, "action": ACTION_JSON}`` or ``{"decision": ID, "text":
  "peng x4"}`` (the wire notation, docs/actions.md), and ``{"upload": RECORD}``.
* server → client: ``welcome`` (``table``, ``seat``, ``token`` on a join, the shuffle
  commitment ``digest``), ``events`` (the events shown to the seat since the last ones; all of
  them again after each welcome), ``decide`` (the seat's own observation, with its
  ``decision`` id and ``options``), ``error`` (``error``: a code, ``message``), ``end`` (the
  seat's view of the result and the record) and ``upload`` (an upload accepted).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import stat
import sys
import traceback
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from zipai_rules.engine import Action, Game
from zipai_rules.engine.notation import parse_action
from zipai_rules.errors import ZipaiError
from zipai_rules.inputs import Refused, loads_json
from zipai_rules.records import (
    dumps_record,
    game_record,
    read_record,
    replay_report,
    resume_game,
    save_game,
    write_text_atomic,
)
from zipai_rules.settlement import settle

#: the longest line read (bytes before its newline); a record upload must fit
LINE_LIMIT = 64 * 1024
#: a connection whose unsent output grows past this many bytes is dropped (it does not read)
SEND_LIMIT = 1024 * 1024
#: seconds a new connection has to say join or resume
HELLO_SECONDS = 10.0
#: the longest player name taken
NAME_LIMIT = 32

#: the JSON name of what a message field holds, for refusals (never the value itself)
JSON_TYPES = {type(None): "null", bool: "a boolean", str: "a string", list: "an array",
              dict: "an object", float: "a number with a fraction"}


def problem(code: str, message: str) -> ZipaiError:
    """An error of the wire (the engine's own errors pass through with their codes)."""
    return ZipaiError(message, code=code)


# --- the wire --------------------------------------------------------------------------------

async def read_line(reader: asyncio.StreamReader) -> bytes | None:
    """The next line (without its newline), ``None`` at the end of the stream; a line longer
    than the reader's limit is skipped whole and raises ``too_large``. Memory stays bounded
    by the limit: nothing of a long line is kept."""
    try:
        return (await reader.readuntil(b"\n"))[:-1]
    except asyncio.IncompleteReadError as end:
        return end.partial or None  # a last line without its newline, or the end
    except asyncio.LimitOverrunError as overrun:
        while True:  # drop what came of the line, then look again for its end
            await reader.readexactly(overrun.consumed)
            try:
                await reader.readuntil(b"\n")
                break
            except asyncio.LimitOverrunError as more:
                overrun = more
            except asyncio.IncompleteReadError:
                break  # the stream ended within the line: refused too, then the end
        raise problem("too_large", f"a line longer than {LINE_LIMIT} bytes") from None


def parse_message(line: bytes) -> dict[str, Any]:
    """One message: a JSON object. Raises ``bad_json`` (not UTF-8, not JSON, ``NaN``, an
    integer of hundreds of digits), ``duplicate_key``, ``too_deep`` or ``bad_message``."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise problem("bad_json", f"not UTF-8 (byte {exc.start})") from None
    try:
        message = loads_json(text)  # the library's strict reader
    except Refused as exc:
        raise problem(exc.code, exc.message) from None
    if not isinstance(message, dict):
        raise problem("bad_message", "a message is a JSON object")
    return message


def send(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
    """Queue one message; drop a connection that does not read what it is sent."""
    if writer.is_closing():
        return
    if writer.transport.get_write_buffer_size() > SEND_LIMIT:
        writer.close()
        return
    writer.write(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def private_folder(folder: Path) -> Path:
    """``folder``, created with mode 0700 when it does not exist; an existing one must already
    be closed to group and others (``folder_not_private``, its mode left as it is): the saves
    it will hold carry the seed."""
    try:
        folder.mkdir(mode=0o700, parents=True)
        folder.chmod(0o700)  # ours: mkdir's mode is narrowed by the umask, never widened
    except FileExistsError:
        mode = folder.stat().st_mode
        if not stat.S_ISDIR(mode):
            raise problem("folder_not_private", f"{folder} is not a folder") from None
        if mode & 0o077:
            raise problem("folder_not_private",
                          f"{folder} is open to others (mode {stat.S_IMODE(mode):o}); the "
                          "table's saves hold its seed: give a new folder (it is created "
                          "with mode 0700) or one of mode 0700") from None
    return folder


# --- the table -------------------------------------------------------------------------------

class TableServer:
    """One hand at one table, saved to ``folder`` after every change.

    ``variant``: a preset id or a Variant; ``seed``: for tests only (default: a secret 128-bit
    seed); ``window_seconds``: the one deadline of every claim window. ``folder`` holds
    ``table.json`` (the save: it holds the seed and the nonce) and, once the hand is over,
    ``record.json``.

    The folder must be private: a folder that does not exist is created with mode 0700; one
    that exists is used only when nobody but its owner may enter it (``folder_not_private``
    otherwise: its mode is never changed, so ``Path(".")`` is refused, not made private). A
    new table refuses a folder that already holds a saved table (``table_exists``): its
    first save would overwrite that hand; :meth:`resume` goes on with it."""

    def __init__(self, variant: Any, folder: Path, *, seed: int | None = None,
                 window_seconds: float = 10.0, table: str | None = None,
                 game: Game | None = None, meta: dict[str, Any] | None = None) -> None:
        self.folder = private_folder(Path(folder))
        if game is None and (self.folder / "table.json").exists():
            raise problem("table_exists", f"{self.folder} holds a saved table: "
                          "TableServer.resume(folder) goes on with it; a new table needs a "
                          "folder of its own")
        self.game = game or Game(variant, seed=seed, commit=True, windows=True)
        assert self.game.commitment is not None and self.game.windows
        self.digest = self.game.commitment.digest  # published to every seat before the deal
        self.window_seconds = window_seconds
        self.meta = meta or {"table": table or "t-" + secrets.token_hex(4), "seats": [],
                             "started": None, "ended": None}
        self.players = self.game.variant.players
        self.conns: dict[int, asyncio.StreamWriter] = {}
        self.sent = [0] * self.players          # events sent to each seat
        self.asked: list[int | None] = [None] * self.players  # decision id last sent
        self.live = False                        # every seat came (back): the hand goes on
        self.deadlines = 0                       # windows closed at their deadline
        self.internal_errors: list[str] = []     # bugs, never a hostile client's doing
        self.ended: set[int] = set()             # seats sent the end of the hand
        self.record: dict[str, Any] | None = None  # the record, once the hand is over
        self.done = asyncio.Event()              # set once the record is written
        self._timer: asyncio.TimerHandle | None = None  # the open window's deadline
        self._tasks: dict[asyncio.Task[Any], asyncio.StreamWriter] = {}
        self._server: asyncio.Server | None = None
        self.closed = False
        if self.game.is_over:  # resumed after the end
            self._finish()

    @classmethod
    def resume(cls, folder: Path, *, window_seconds: float = 10.0) -> TableServer:
        """The table saved in ``folder``, as it was at its last save: same game, same
        commitment, same seats (their tokens are checked against the saved hashes)."""
        saved = read_record(Path(folder) / "table.json")  # strict, as for any record
        game = resume_game(saved)  # as strict as a replay: every action checked again
        return cls(game.variant, folder, game=game, meta=saved["meta"],
                   window_seconds=window_seconds)

    # -- serving ------------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen; returns the port (``0``: any free one)."""
        self._server = await asyncio.start_server(self._connection, host, port,
                                                  limit=LINE_LIMIT)
        return int(self._server.sockets[0].getsockname()[1])

    async def serve(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Serve until cancelled: the hand, then uploads (``done`` is set once the record is
        written)."""
        await self.start(host, port)
        assert self._server is not None
        await self._server.serve_forever()

    async def close(self) -> None:
        """Stop at once, as a crash would (the last save stays the table's state)."""
        if self._timer is not None:
            self._timer.cancel()
        if self._server is not None:
            self._server.close()
        self.closed = True  # a line already read is not applied
        for writer in self._tasks.values():
            writer.close()  # each connection ends at its next read
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _connection(self, reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks[task] = writer
        seat = None
        try:
            seat = await asyncio.wait_for(self._hello(reader, writer), HELLO_SECONDS)
            while seat is not None:
                try:
                    line = await read_line(reader)
                    if line is None or self.closed:
                        break
                    changed = self._message(seat, writer, parse_message(line))
                except ZipaiError as exc:  # refused: the seat is told, nobody else
                    send(writer, {"type": "error", "error": exc.code, "message": str(exc)})
                    continue
                if changed:
                    self._changed()
        except (ConnectionError, TimeoutError, asyncio.IncompleteReadError):
            pass
        except Exception:  # a bug: log it, drop this connection, keep the table
            self.internal_errors.append(traceback.format_exc())
            print(self.internal_errors[-1], file=sys.stderr)
        finally:
            del self._tasks[task]
            if seat is not None and self.conns.get(seat) is writer:
                del self.conns[seat]
            writer.close()

    async def _hello(self, reader: asyncio.StreamReader,
                     writer: asyncio.StreamWriter) -> int | None:
        """Seat a connection: a join takes the next free seat and a new token, a resume
        with a token its seat back (the older connection of that seat is closed)."""
        while True:
            try:
                line = await read_line(reader)  # too_large for an over-long line, as later
                if line is None or self.closed:
                    return None
                seat, token = self._seat(parse_message(line))
                break
            except ZipaiError as exc:
                send(writer, {"type": "error", "error": exc.code, "message": str(exc)})
        old = self.conns.get(seat)
        if old is not None:
            old.close()
        self.conns[seat] = writer
        self.sent[seat], self.asked[seat] = 0, None  # the seat's view is sent again
        self.ended.discard(seat)
        welcome = {"type": "welcome", "table": self.meta["table"], "seat": seat,
                   "digest": self.digest, "variant": self.game.variant.id,
                   "window_seconds": self.window_seconds}
        if token is not None:
            welcome["token"] = token
        send(writer, welcome)  # the digest comes before any card
        if not self.live and len(self.conns) == self.players:
            self.live = True  # every seat is here: deal (and, after a resume, go on)
            self.meta["started"] = self.meta["started"] or now()
            self._changed()
        elif self.live:
            self._update(seat)
        return seat

    def _seat(self, hello: dict[str, Any]) -> tuple[int, str | None]:
        seats = self.meta["seats"]
        if "resume" in hello:
            given = hello["resume"]
            if isinstance(given, str):
                for entry in seats:
                    if hmac.compare_digest(entry["token_sha256"], token_hash(given)):
                        return int(entry["seat"]), None
            raise problem("bad_token", "no seat of this table has that token")
        if "join" in hello:
            name = hello["join"]
            if not (isinstance(name, str) and 0 < len(name) <= NAME_LIMIT
                    and name.isprintable()):
                raise problem("bad_message", f"join: a name of 1 to {NAME_LIMIT} printable "
                              "characters")
            if len(seats) == self.players:
                raise problem("table_full", f"all {self.players} seats are taken")
            token = secrets.token_urlsafe(24)
            seats.append({"seat": len(seats), "name": name, "token_sha256": token_hash(token)})
            self._save()
            return len(seats) - 1, token
        raise problem("bad_message", 'say {"join": NAME} or {"resume": TOKEN} first')

    # -- one message --------------------------------------------------------------------------

    def _message(self, seat: int, writer: asyncio.StreamWriter, message: dict[str, Any]
                 ) -> bool:
        """Apply an answer (or check an upload); whether the game changed. Every refusal is
        a ``ZipaiError``, raised before anything changes."""
        if "upload" in message:
            report = self.check_upload(message["upload"])
            send(writer, {"type": "upload", "accepted": True, "provenance": report.provenance,
                          "digest": report.digest})
            return False
        if "join" in message or "resume" in message:
            raise problem("bad_message", f"this connection already holds seat {seat}")
        if not self.live:
            raise problem("not_started", "the hand starts when every seat has come")
        if "decision" not in message or ("action" in message) == ("text" in message):
            raise problem("bad_message", 'an answer is {"decision": ID, "action": {...}} or '
                          '{"decision": ID, "text": "..."}')
        decision = message["decision"]
        if isinstance(decision, bool) or not isinstance(decision, int):
            # the engine checks the id only when one is given: null must not skip it
            raise problem("bad_argument", f"decision: a decision id is an int, not "
                          f"{JSON_TYPES.get(type(decision), 'a number')}")
        if "action" in message:
            action = Action.from_json(message["action"])
        else:
            text = message["text"]
            if not isinstance(text, str):
                raise problem("bad_message", "text: a string, as Action.to_text writes it")
            action = parse_action(self.game, text, seat=seat)
        # bound to this connection's seat and to the decision it answers
        self.game.apply(action, by=seat, decision=decision)
        return True

    def _changed(self) -> None:
        """After every change of the game: save first (nothing is sent that a crash could
        lose), give a newly opened window its deadline, then tell every seat its part."""
        state = self.game.state
        if self._timer is not None and (state.window is None or not state.window.answers):
            self._timer.cancel()  # the window it timed was decided
            self._timer = None
        if self.game.is_over and self.record is None:
            self._finish()
        self._save()
        if self.live:
            self._arm()
            for seat in self.conns:
                self._update(seat)

    def _update(self, seat: int) -> None:
        """Send ``seat`` the events it is shown and has not been sent, then its own
        observation when it has a new decision, and the end of the hand once."""
        writer = self.conns[seat]
        shown = self.game.events_for(seat)
        if len(shown) > self.sent[seat]:
            send(writer, {"type": "events",
                          "events": [e.to_json() for e in shown[self.sent[seat]:]]})
            self.sent[seat] = len(shown)
        decision = self.game.decision(seat)
        if decision is not None and decision != self.asked[seat]:
            self.asked[seat] = decision
            send(writer, {"type": "decide", "observation": self.game.observe(seat).to_json()})
        if self.record is not None and seat not in self.ended:
            self.ended.add(seat)
            view = self.game.observe(seat)
            assert view.result is not None
            send(writer, {"type": "end", "result": view.result.to_json(),
                          "record": self.record})

    # -- windows and deadlines ----------------------------------------------------------------

    def _arm(self) -> None:
        """One deadline for an open window that has none, the same for every seat."""
        if self.game.state.window is not None and self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.window_seconds,
                                                                self._deadline)

    def _deadline(self) -> None:
        self._timer = None
        self.deadlines += 1
        self.game.close_window()  # every seat that did not answer passes (or its forced 胡)
        self._changed()

    # -- saves, the record, uploads -----------------------------------------------------------

    def _save(self) -> None:
        """Write the save atomically (a reader or a crash never sees half of it)."""
        write_text_atomic(self.folder / "table.json",
                          dumps_record(save_game(self.game, meta=self.meta)))

    def _finish(self) -> None:
        """The record of the finished hand, with the table's ``meta``, as ``record.json``."""
        self.meta["ended"] = self.meta["ended"] or now()
        self.record = game_record(self.game, settle(self.game), meta=self.meta)
        write_text_atomic(self.folder / "record.json", dumps_record(self.record))
        self.done.set()

    def check_upload(self, record: Any) -> Any:
        """Replay an uploaded record strictly against the digest this table published: its
        own record is accepted (a ``ReplayReport``), any other hand refused
        (``digest_mismatch``), a record that does not replay refused with the replay's
        code."""
        if not isinstance(record, dict):
            raise problem("bad_message", "upload: a record, as a JSON object")
        return replay_report(record, expect_digest=self.digest)


if __name__ == "__main__":  # a demo table: three bots, one hand
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from table_bots import demo

    demo()
