"""The record store of ``zipai serve``: finished hands kept as records in an embedded SQLite
database (standard library :mod:`sqlite3`, docs/play.md "Records").

A store file is marked as zipai's: ``PRAGMA application_id`` is :data:`APPLICATION_ID` and
``PRAGMA user_version`` the schema version :data:`SCHEMA_VERSION`. Each record is accepted
only as the library's record reader accepts it (:func:`~zipai_rules.records.loads_record`,
within :data:`~zipai_rules.inputs.RECORD_LIMITS`) and only if it replays strictly
(:func:`~zipai_rules.records.replay_record`), so every stored record replays.

One :class:`RecordStore` may be shared by threads (the event loop and a thread pool): its one
connection is opened with ``check_same_thread=False`` and every use holds a lock.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Mapping
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from attrs import frozen

from ..arguments import int_arg, mapping_arg, path_arg
from ..errors import RecordError, ZipaiError
from ..records import loads_record, replay_record

__all__ = ["APPLICATION_ID", "MAX_LIST", "SCHEMA_VERSION", "RecordStore", "RecordSummary"]

#: ``PRAGMA application_id`` of a zipai record store: ``"zpai"`` as a big-endian 32-bit int
APPLICATION_ID = 0x7A706169
#: ``PRAGMA user_version``: the store's schema version
SCHEMA_VERSION = 1
#: the most summaries one :meth:`RecordStore.list` returns
MAX_LIST = 500
_MAX_ID = 2**63 - 1

_SCHEMA = """CREATE TABLE records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    variant TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    winner INTEGER,
    result TEXT NOT NULL,
    record TEXT NOT NULL)"""


@frozen
class RecordSummary:
    """One stored record's row: ``id``; ``variant``: the variant id; ``finished_at``: when it
    was stored, UTC ISO 8601 (``2026-12-02T13:52:40+00:00``); ``winner``: the winning seat, or
    ``None``; ``result``: one line (``hu by seat 1, 15 huxi``)."""
    id: int
    variant: str
    finished_at: str
    winner: int | None
    result: str


def _result_line(result: Mapping[str, Any] | None) -> tuple[int | None, str]:
    if result is None:
        return None, "unfinished"
    winner = result.get("winner")
    kind = str(result.get("kind"))
    if winner is None:
        return None, kind
    return int(winner), f"{kind} by seat {winner}, {result.get('huxi')} huxi"


class RecordStore:
    """The records in the SQLite file ``path`` (``":memory:"`` for one in memory), created
    if missing. A context manager; :meth:`close` closes it.

    Raises :class:`ZipaiError`: ``bad_argument`` (a path that is no str/PathLike),
    ``not_a_store`` (a directory, a file that is not SQLite, another application's SQLite
    file, or one that cannot be opened), ``store_version`` (a schema version other than
    :data:`SCHEMA_VERSION`); every method raises ``store_failed`` for a refusal of the
    database itself."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        path = path_arg(path, "path")
        name = os.fspath(path)
        if name != ":memory:" and os.path.isdir(name):
            raise ZipaiError(f"{name}: a directory, not a record store", code="not_a_store")
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(name, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise ZipaiError(f"{name}: cannot be opened as a record store ({exc})",
                             code="not_a_store") from None
        try:
            self._setup(name)
        except BaseException:
            self._db.close()
            raise

    def _setup(self, name: str) -> None:
        try:
            app = self._db.execute("PRAGMA application_id").fetchone()[0]
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            tables = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.Error as exc:
            raise ZipaiError(f"{name}: not a record store ({exc})", code="not_a_store") from None
        if app == 0 and version == 0 and tables == 0:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(_SCHEMA)
                self._db.execute(f"PRAGMA application_id = {APPLICATION_ID:d}")
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise ZipaiError(f"{name}: cannot create a record store ({exc})",
                                 code="not_a_store") from None
            return
        if app != APPLICATION_ID:
            raise ZipaiError(f"{name}: an SQLite file of another application "
                             f"(application_id {app}), not a zipai record store",
                             code="not_a_store")
        if version != SCHEMA_VERSION:
            raise ZipaiError(f"{name}: a record store of schema version {version}; this zipai "
                             f"reads version {SCHEMA_VERSION}", code="store_version")

    def __enter__(self) -> RecordStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the database; closing twice is harmless."""
        with self._lock:
            self._db.close()

    def _run(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise ZipaiError(f"the record store refused: {exc}",
                                 code="store_failed") from None

    def add(self, record: Mapping[str, Any]) -> int:
        """Store ``record`` (a finished hand's record as :func:`~zipai_rules.records.game_record`
        gives it, or its JSON read back) and return its id (1, 2, …). The record is checked
        as its JSON text by :func:`~zipai_rules.records.loads_record` (the record limits:
        size, values, depth, schema) and replayed strictly; nothing is stored on a refusal.

        Raises :class:`ZipaiError` ``bad_argument`` (no mapping), :class:`RecordError`
        (``bad_record`` for values that are no JSON, ``too_large``, ``schema`` …),
        :class:`~zipai_rules.errors.ReplayError`, and ``store_failed``."""
        record = mapping_arg(record, "record")
        try:
            text = json.dumps(record, ensure_ascii=False, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as exc:
            raise RecordError(f"<record>: not JSON data ({exc})", code="bad_record") from None
        data = loads_record(text)
        game, _settlement = replay_record(data)
        winner, line = _result_line(data.get("result"))
        finished = datetime.now(UTC).isoformat(timespec="seconds")
        with self._lock:
            try:
                cur = self._db.execute(
                    "INSERT INTO records (variant, finished_at, winner, result, record) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (game.variant.id, finished, winner, line, text))
            except sqlite3.Error as exc:
                raise ZipaiError(f"the record store refused: {exc}",
                                 code="store_failed") from None
            rowid = cur.lastrowid
        assert rowid is not None
        return rowid

    def get(self, record_id: int) -> dict[str, Any]:
        """The record of id ``record_id`` (an ``int``, not a bool), as a fresh dict equal to
        the one stored. Raises :class:`ZipaiError` ``bad_argument`` and ``no_such_record``."""
        record_id = int_arg(record_id, "record_id", 1, _MAX_ID)
        rows = self._run("SELECT record FROM records WHERE id = ?", (record_id,))
        if not rows:
            raise ZipaiError(f"no record {record_id} in the store", code="no_such_record")
        return loads_record(rows[0][0], origin=f"record {record_id}")

    def list(self, limit: int = 50, offset: int = 0) -> tuple[RecordSummary, ...]:
        """At most ``limit`` (0..:data:`MAX_LIST`) summaries, newest first, after skipping
        ``offset`` (≥ 0) of them. Raises :class:`ZipaiError` ``bad_argument``."""
        limit = int_arg(limit, "limit", 0, MAX_LIST)
        offset = int_arg(offset, "offset", 0, _MAX_ID)
        rows = self._run("SELECT id, variant, finished_at, winner, result FROM records "
                         "ORDER BY id DESC LIMIT ? OFFSET ?", (limit, offset))
        return tuple(RecordSummary(*row) for row in rows)

    def count(self) -> int:
        """How many records the store holds."""
        return int(self._run("SELECT count(*) FROM records")[0][0])
