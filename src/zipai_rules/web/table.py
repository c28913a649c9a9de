"""The host of a web table (``zipai serve``): people at some seats, the default bots at the
others, hand after hand; no web library here (:mod:`zipai_rules.web.app` carries the frames).

The design is the reference server's (docs/hosting.md, examples/table_server.py): a game
``Game(variant, commit=True, windows=True)`` dealt from a secret seed whose commitment digest
every seat is sent first; a join gives a seat and a secret token (only its SHA-256 is kept,
compared with :func:`hmac.compare_digest`), a resume with the token the seat back; every
answer is applied bound to its seat and decision id (``game.apply(action, by=seat,
decision=id)``). After every change each person's seat is sent only its own part: the tail
of ``game.events_for(seat)`` it has not been sent, ``game.observe(seat).to_json()`` when it has
a new decision (the options with their labels, :meth:`~zipai_rules.wording.Words.option`), the
picture of its view (:func:`zipai_rules.svg.render`) and the seconds left to answer.

Timing: one deadline of ``window_seconds`` for each claim window, the same for every seat
(at it, :meth:`~zipai_rules.engine.Game.close_window`: every seat that has not answered takes
its default), and one for a person's own turn (at it, the seat's default bot chooses for it).
The bots answer at once. A finished hand's record goes to the ``store`` (``add(record) -> id``).

The wire (every frame one JSON object, at most :data:`FRAME_LIMIT` bytes):

* client: ``{"join": NAME}``, ``{"resume": TOKEN}``, ``{"decision": ID, "action":
  ACTION_JSON}`` (``Action.to_json``), ``{"next": true}`` (deal the next hand);
* server: ``welcome`` (``seat``, ``token`` on a join, ``digest``, ``variant``,
  ``window_seconds``, ``hand``), ``view`` (``events``, ``observation`` or ``null``,
  ``options``, ``picture``, ``deadline``), ``error`` (``error``: a code, ``message``),
  ``end`` (``result``, ``record_id``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from ..bots import make_bots
from ..engine import Action, Game
from ..errors import ZipaiError
from ..inputs import Limits, check_tree, json_type, loads_json
from ..play import Bot
from ..records import game_record
from ..settlement import settle
from ..simulate import default_bots
from ..svg import render
from ..variant import Variant, as_variant
from ..wording import Words

#: the longest frame read or written, in bytes of UTF-8
FRAME_LIMIT = 64 * 1024
#: the shape of a client frame: an action is a few levels and a few dozen values
FRAME_SHAPE = Limits(max_bytes=FRAME_LIMIT, max_nodes=1000, max_depth=8)
#: the longest player name taken, in characters
NAME_LIMIT = 32
#: the longest pause after a bot move shown, in seconds (``pace``)
MAX_PACE = 10.0
#: bot moves in a row the table plays before it stops (a bound on one change's work)
MOVE_LIMIT = 10_000

Frame = dict[str, Any]
Send = Callable[[Frame], None]


class Cancel(Protocol):
    """A scheduled call that can be called off (``asyncio.TimerHandle``)."""

    def cancel(self) -> None: ...


#: ``schedule(seconds, callback)``: call ``callback`` after ``seconds``; returns a handle
Schedule = Callable[[float, Callable[[], None]], Cancel]


class RecordSink(Protocol):
    """Where finished hands go: ``add(record)`` keeps a record (``game_record``'s JSON dict)
    and returns its id (``RecordStore`` of :mod:`zipai_rules.web.store`)."""

    def add(self, record: dict[str, Any]) -> int: ...


def _loop_schedule(seconds: float, callback: Callable[[], None]) -> Cancel:
    import asyncio  # the running loop of the web server

    return asyncio.get_running_loop().call_later(seconds, callback)


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of a seat token: the table keeps only this."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def parse_frame(text: str | bytes) -> dict[str, Any]:
    """One client frame: a JSON object of at most :data:`FRAME_LIMIT` bytes of UTF-8 text.
    Raises :class:`~zipai_rules.errors.ZipaiError`: ``too_large``, ``bad_message`` (a binary
    frame, or JSON that is not an object), the strict reader's ``bad_json`` and
    ``duplicate_key`` (:func:`~zipai_rules.inputs.loads_json`), and ``too_deep``,
    ``too_large`` or ``schema`` for a shape beyond :data:`FRAME_SHAPE`
    (:func:`~zipai_rules.inputs.check_tree`)."""
    if isinstance(text, bytes | bytearray):
        raise ZipaiError("frames are JSON text, not binary", code="bad_message")
    if len(text) > FRAME_LIMIT or len(text.encode("utf-8", "surrogatepass")) > FRAME_LIMIT:
        raise ZipaiError(f"a frame longer than {FRAME_LIMIT} bytes", code="too_large")
    message = loads_json(text)
    check_tree(message, FRAME_SHAPE)  # too_deep, too_large (values), a lone surrogate
    if not isinstance(message, dict):
        raise ZipaiError("a frame is a JSON object", code="bad_message")
    return message


class Connection:
    """One browser's connection: ``send(frame)`` queues a frame to it, ``close()`` ends it
    (the older connection of a seat that resumes elsewhere); ``seat`` once it holds one."""

    def __init__(self, send: Send, close: Callable[[], None] | None = None) -> None:
        self.send = send
        self.close = close or (lambda: None)
        self.seat: int | None = None


def _size(frame: Frame) -> int:
    return len(json.dumps(frame, ensure_ascii=False).encode("utf-8"))


def _within_limit(frame: Frame) -> list[Frame]:
    """``frame`` as view frames of at most :data:`FRAME_LIMIT` bytes each: when it is
    larger (a seat that resumes late in a long hand is sent every event again), its events
    go first in frames of their own (``observation``, ``options`` and ``picture`` empty),
    the last frame carrying the rest."""
    if _size(frame) <= FRAME_LIMIT or len(frame["events"]) < 2:
        return [frame]
    half = len(frame["events"]) // 2
    first = {**frame, "events": frame["events"][:half],
             "event_labels": frame["event_labels"][:half], "observation": None,
             "options": [], "picture": None}
    rest = {**frame, "events": frame["events"][half:],
            "event_labels": frame["event_labels"][half:]}
    return _within_limit(first) + _within_limit(rest)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class WebTable:
    """A table of ``variant`` (a preset id or a :class:`~zipai_rules.variant.Variant`) with
    ``humans`` seats for people (seats ``0 .. humans-1``, in the order they join) and the
    variant's default bots (``zipai play``'s, :func:`~zipai_rules.simulate.default_bots`) at
    the others.

    ``window_seconds``: the deadline of each claim window and of each person's own turn
    (seconds, more than 0 and at most 3600); ``store``: where finished hands' records go
    (``None``: nowhere, ``record_id`` is then ``null``); ``seed``: for tests only (hand ``n``
    is dealt from ``seed + n``; default: a secret 128-bit seed for each hand); ``ascii``: the
    pictures and labels in ASCII notation and pinyin instead of Chinese; ``pace``: seconds
    (0 to :data:`MAX_PACE`, default 0) between two bot moves the seats are shown; ``schedule``,
    ``clock``: the timer (default: the running asyncio loop) and the clock in seconds
    (default :func:`time.monotonic`). Raises ``bad_argument`` for arguments out of range,
    :class:`~zipai_rules.errors.VariantError` for an unknown variant.

    Everything happens in one thread (the web server's loop): :meth:`connect`,
    :meth:`receive`, :meth:`disconnect` and the timer's :meth:`expire`."""

    def __init__(self, variant: str | Variant, *, humans: int = 1,
                 window_seconds: float = 20.0, store: RecordSink | None = None,
                 seed: int | None = None, ascii: bool = False, pace: float = 0.0,
                 schedule: Schedule | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.variant = as_variant(variant)
        self.players = self.variant.players
        if isinstance(humans, bool) or not isinstance(humans, int) or \
                not 1 <= humans <= self.players:
            raise ZipaiError(f"humans: an int from 1 to {self.players}, the players of "
                             f"{self.variant.id}", code="bad_argument")
        if isinstance(window_seconds, bool) or not isinstance(window_seconds, int | float) \
                or not 0 < window_seconds <= 3600:
            raise ZipaiError("window_seconds: seconds, more than 0 and at most 3600",
                             code="bad_argument")
        if isinstance(pace, bool) or not isinstance(pace, int | float) or \
                not 0 <= pace <= MAX_PACE:
            raise ZipaiError(f"pace: seconds from 0 to {MAX_PACE:g}", code="bad_argument")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or seed < 0):
            raise ZipaiError("seed: a non-negative int (for tests only)", code="bad_argument")
        self.humans = humans
        self.window_seconds = float(window_seconds)
        self.store = store
        self.seed = seed
        self.ascii = bool(ascii)
        self.pace = float(pace)
        self.words = Words(self.variant, zh=not self.ascii)
        self.schedule = schedule or _loop_schedule
        self.clock = clock or time.monotonic
        self.table_id = "t-" + secrets.token_hex(4)
        self.seats: list[dict[str, Any]] = []    # per person: name, token_sha256
        self.conns: dict[int, Connection] = {}
        self.hand = 0
        self.game = self._deal()
        self.live = False                        # every person's seat is taken
        self.record_ids: list[int | None] = []   # per finished hand
        self.records: list[dict[str, Any]] = []  # the finished hands' records, in order
        self.deadlines = 0                       # deadlines that ran out
        self.internal_errors: list[str] = []     # bugs, never a hostile client's doing
        self._timer: Cancel | None = None
        self._pacer: Cancel | None = None      # the next bot move, with a pace
        self._timer_key: frozenset[tuple[int, int]] = frozenset()
        self._due = 0.0
        self._reset_seats()

    # -- hands --------------------------------------------------------------------------------

    def _deal(self) -> Game:
        seed = None if self.seed is None else self.seed + self.hand
        game = Game(self.variant, seed=seed, commit=True, windows=True)
        self.bots: list[Bot] = make_bots(list(default_bots(self.players)),
                                         secrets.randbits(64) if seed is None else seed,
                                         self.players)
        self.meta: dict[str, Any] = {"table": self.table_id, "hand": self.hand + 1,
                                     "started": _now(), "ended": None}
        return game

    def _reset_seats(self) -> None:
        self.sent = [0] * self.players                      # events sent to each seat
        self.asked: list[int | None] = [None] * self.players  # decision id last sent
        self.ended: set[int] = set()                         # seats sent the end
        self.wants_next: set[int] = set()
        self.record: dict[str, Any] | None = None

    @property
    def digest(self) -> str:
        """The commitment digest of the hand being played (sent before any card)."""
        assert self.game.commitment is not None
        return self.game.commitment.digest

    # -- connections --------------------------------------------------------------------------

    def connect(self, send: Send, close: Callable[[], None] | None = None) -> Connection:
        """A new connection, seated by its first ``join`` or ``resume`` frame."""
        return Connection(send, close)

    def disconnect(self, conn: Connection) -> None:
        """The connection ended: its seat plays on by its deadlines until it resumes."""
        if conn.seat is not None and self.conns.get(conn.seat) is conn:
            del self.conns[conn.seat]

    def receive(self, conn: Connection, text: str | bytes) -> None:
        """One frame from ``conn``: applied, or refused with an ``error`` frame to ``conn``
        alone and nothing changed."""
        try:
            self._message(conn, parse_frame(text))
        except ZipaiError as exc:
            conn.send({"type": "error", "error": exc.code, "message": str(exc)})
        except Exception:  # a bug, never a client's doing: kept, and the table goes on
            self.internal_errors.append(traceback.format_exc())
            print(self.internal_errors[-1], file=sys.stderr)
            conn.send({"type": "error", "error": "zipai_error",
                       "message": "the table failed on this frame"})

    def _message(self, conn: Connection, message: dict[str, Any]) -> None:
        if conn.seat is None:
            self._hello(conn, message)
            return
        seat = conn.seat
        if "join" in message or "resume" in message:
            raise ZipaiError(f"this connection already holds seat {seat}", code="bad_message")
        if set(message) == {"next"}:
            if message["next"] is not True:
                raise ZipaiError(f"next: must be true (asks for the next hand), not "
                                 f"{message['next']!r:.20}",
                                 code="bad_message")
            self._next(seat)
            return
        if set(message) != {"decision", "action"}:
            raise ZipaiError('a frame is {"decision": ID, "action": {...}} or {"next": true}',
                             code="bad_message")
        if not self.live:
            raise ZipaiError("the hand starts when every player's seat is taken",
                             code="not_started")
        decision = message["decision"]
        if isinstance(decision, bool) or not isinstance(decision, int):
            raise ZipaiError(f"decision: a decision id is an int, not {json_type(decision)}",
                             code="bad_argument")
        if not isinstance(message["action"], dict):
            raise ZipaiError(f"action: an object (Action.to_json), not "
                             f"{json_type(message['action'])}", code="bad_action")
        action = Action.from_json(message["action"])
        self.game.apply(action, by=seat, decision=decision)  # bound to the seat, the id
        self._changed()

    def _hello(self, conn: Connection, message: dict[str, Any]) -> None:
        token: str | None = None
        if set(message) == {"resume"}:
            given = message["resume"]
            seat = None
            if isinstance(given, str) and len(given) <= 100:
                for k, entry in enumerate(self.seats):
                    if hmac.compare_digest(entry["token_sha256"], token_hash(given)):
                        seat = k
            if seat is None:
                raise ZipaiError("no seat of this table has that token", code="bad_token")
        elif set(message) == {"join"}:
            name = message["join"]
            if not (isinstance(name, str) and 0 < len(name) <= NAME_LIMIT
                    and name.isprintable() and name.strip()):
                raise ZipaiError(f"join: a name of 1 to {NAME_LIMIT} printable characters",
                                 code="bad_message")
            if len(self.seats) == self.humans:
                raise ZipaiError(f"all {self.humans} players' seats are taken",
                                 code="table_full")
            token = secrets.token_urlsafe(24)
            self.seats.append({"name": name, "token_sha256": token_hash(token)})
            seat = len(self.seats) - 1
        else:
            raise ZipaiError('say {"join": NAME} or {"resume": TOKEN} first',
                             code="bad_message")
        old = self.conns.get(seat)
        if old is not None and old is not conn:
            old.seat = None
            old.close()
        conn.seat = seat
        self.conns[seat] = conn
        self.sent[seat], self.asked[seat] = 0, None  # its view is sent again from the start
        self.ended.discard(seat)
        self._welcome(seat, token)
        if not self.live and len(self.seats) == self.humans:
            self.live = True
            self._changed()
        elif self.live:
            self._update(seat)

    def _welcome(self, seat: int, token: str | None = None) -> None:
        frame: Frame = {"type": "welcome", "seat": seat, "digest": self.digest,
                        "variant": self.variant.id,
                        "title": self.variant.id if self.ascii else self.variant.name,
                        "window_seconds": self.window_seconds,
                        "hand": self.hand + 1, "players": self.players,
                        "humans": self.humans}
        if token is not None:
            frame["token"] = token
        self.conns[seat].send(frame)

    def _next(self, seat: int) -> None:
        if not self.game.is_over:
            raise ZipaiError("the hand is not over", code="hand_not_over")
        self.wants_next.add(seat)
        if len(self.wants_next) < self.humans:
            return
        self.hand += 1
        self.game = self._deal()
        self._reset_seats()
        for s in self.conns:
            self._welcome(s)  # the new hand's digest before any of its cards
        self._changed()

    # -- after every change -------------------------------------------------------------------

    def _bot_choice(self, seat: int) -> Action:
        """What ``seat``'s default bot answers its current decision, from its own view."""
        view = self.game.observe(seat)
        bot = self.bots[seat]
        choose = getattr(bot, "choose", None)
        if choose is not None:
            chosen: Action = choose(self.variant, view.hand, view.options)
            return chosen
        return bot(self.game.state, view.options)  # a bot of the acting seat only

    def _changed(self) -> None:
        """After a change: keep the deadline, record a finished hand and tell every connected
        person's seat its part; then let the next bot answer and do it again, so that every
        decision a seat is asked is sent to it, even one a bot's answer decides at once (a 胡
        that takes the card). The bots answer at once; with ``pace``, the next bot move comes
        ``pace`` seconds after a bot move the seats were shown (never after an answer nobody
        is shown, which would tell that a bot was asked)."""
        if self._pacer is not None:
            self._pacer.cancel()
            self._pacer = None
        game = self.game
        for _ in range(MOVE_LIMIT):
            if self.live:
                self._arm()
            if game.is_over and self.record is None:
                self._finish()
            for seat in list(self.conns):
                self._update(seat)
            bots = [s for s in game.awaiting() if s >= self.humans] if self.live else []
            if not bots:
                break
            shown = game.apply(self._bot_choice(bots[0]), by=bots[0],
                               decision=game.decision(bots[0]))
            if shown and self.pace > 0 and not game.is_over:
                self._arm()
                for seat in list(self.conns):
                    self._update(seat)
                if [s for s in game.awaiting() if s >= self.humans]:
                    self._pacer = self.schedule(self.pace, self._paced)
                    return

    def _paced(self) -> None:
        self._pacer = None
        self._changed()

    def _arm(self) -> None:
        """One deadline per claim window (the same for every seat) and per person's own
        turn: kept while the people it waits for are those it was armed for (fewer once some
        answered), else called off and armed anew; none while only bots are to answer."""
        game = self.game
        key = frozenset((s, d) for s in game.awaiting()
                        if s < self.humans and (d := game.decision(s)) is not None)
        if key and self._timer is not None and key <= self._timer_key:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_key = key
        if key:
            self._due = self.clock() + self.window_seconds
            self._timer = self.schedule(self.window_seconds, self.expire)

    def expire(self) -> None:
        """The deadline ran out: a claim window closes (every seat that has not answered
        takes its default: ``pass``, or the 胡 it may not pass); on a person's own turn the
        seat's default bot chooses for it."""
        self._timer = None
        game = self.game
        if game.is_over or not self._timer_key:
            return
        self.deadlines += 1
        if game.state.window is not None:
            game.close_window()
        else:
            seat = game.awaiting()[0]  # the one seat whose own turn it is
            game.apply(self._bot_choice(seat), by=seat, decision=game.decision(seat))
        self._timer_key = frozenset()
        self._changed()

    def seconds_left(self) -> float | None:
        """The seconds left to the deadline, ``None`` when none runs."""
        if self._timer is None:
            return None
        return max(0.0, round(self._due - self.clock(), 3))

    def _finish(self) -> None:
        self.meta["ended"] = _now()
        self.meta["seats"] = [
            {"seat": s, "player": self.seats[s]["name"] if s < self.humans else "bot"}
            for s in range(self.players)]
        self.record = game_record(self.game, settle(self.game), meta=self.meta)
        self.records.append(self.record)
        self.record_ids.append(None if self.store is None else self.store.add(self.record))

    def options(self, seat: int, actions: Sequence[Action]) -> list[Frame]:
        """The options of a decision as sent: ``index``, ``action`` (``Action.to_json``) and
        ``label`` (:meth:`~zipai_rules.wording.Words.option`, the terminal game's wording)."""
        return [{"index": k, "action": a.to_json(), "label": self.words.option(a)}
                for k, a in enumerate(actions)]

    def _update(self, seat: int) -> None:
        """Send ``seat`` the events shown to it and not yet sent, its observation when it has
        a new decision (and once at the end: ``game.views(seat)`` one by one), its picture and
        the seconds left; the end of the hand once."""
        conn = self.conns[seat]
        game = self.game
        shown = game.events_for(seat)
        news = [e.to_json() for e in shown[self.sent[seat]:]]
        self.sent[seat] = len(shown)
        decision = game.decision(seat) if self.live else None
        fresh = decision is not None and decision != self.asked[seat]
        if fresh:
            self.asked[seat] = decision
        fresh = fresh or (game.is_over and seat not in self.ended)  # the last view, over
        if news or fresh:
            view = game.observe(seat)
            labels = [self.words.event(e) for e in shown[len(shown) - len(news):]]
            frame: Frame = {
                "type": "view", "seat": seat, "events": news, "event_labels": labels,
                "observation": view.to_json() if fresh else None, "decision": decision,
                "options": self.options(seat, view.options) if decision else [],
                "picture": render(game.state, seat=seat, ascii=self.ascii),
                "deadline": self.seconds_left() if decision is not None else None}
            for part in _within_limit(frame):
                conn.send(part)
        if self.record is not None and seat not in self.ended:
            self.ended.add(seat)
            result = game.observe(seat).result
            assert result is not None
            conn.send({"type": "end", "result": result.to_json(),
                       "result_text": self.result_text(
                           result.kind.value, result.winner, result.huxi,
                           [getattr(label, "value", label) for label in result.labels]),
                       "record_id": self.record_ids[-1], "hand": self.hand + 1})

    def result_text(self, kind: str, winner: int | None, huxi: int,
                    labels: Sequence[str] = ()) -> str:
        """How the hand ended in one line, in the variant's words (:class:`Words`), its
        labels (名堂, 自摸 …) after: ``1号位 胡，18 胡息 · 自摸`` or ``荒庄``; with ``ascii``
        ``seat 1 hu, 18 huxi · zimo``."""
        w = self.words
        if winner is None:
            line = w.word(kind) if w.zh else kind
        elif w.zh:
            line = f"{w.seat(winner)} {w.word(kind)}，{huxi} {w.word('huxi')}"
        else:
            line = f"{w.seat(winner)} {kind}, {huxi} huxi"
        named = [w.word(label) if w.zh else label for label in labels]
        return " · ".join([line, " ".join(named)]) if named else line
