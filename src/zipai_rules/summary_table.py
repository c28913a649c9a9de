"""The table of a run's games: one row per game, from the summaries
:func:`~zipai_rules.simulate.run_games` yields (``zipai simulate --table FILE``), for pandas,
polars or any reader of JSON Lines or Parquet.

The columns are the fields of :class:`~zipai_rules.simulate.GameSummary`, in its order
(:data:`COLUMNS`): ``number`` and ``seed`` of the game, the result ``kind`` (``hu``,
``tianhu``, ``huangzhuang``), the ``winner`` seat (null on 荒庄), the winning ``huxi`` (胡息), the
``units`` won from each paying loser and the winner's ``gain`` (the variant's unit), the game's
length in seat decisions (``actions``), the ``payments`` per seat (a list, summing to zero
but where the variant credits units no seat pays) and the ``labels`` of the win (a list of
ids: the result's labels, such as ``zimo``, then the 名堂 that applied, such as ``hong_hu``).

Rows come in the order the summaries arrive: game order with one job, completion order with
several (sort by ``number`` to read them in game order). A file name ending ``.parquet`` is
written as Parquet through pyarrow (the ``[table]`` extra), in row groups of
:data:`PARQUET_ROWS`; any other name as JSON Lines (UTF-8, one JSON object a line, keys in
column order). Either is written to a temporary file beside the target and renamed to it when
the writer is closed: a reader never sees half a table.
"""

from __future__ import annotations

import json
import os
import tempfile
import weakref
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import attrs

from .arguments import of_type, path_arg
from .errors import RecordError, ZipaiError, install_hint
from .records import check_writable
from .simulate import GameSummary

__all__ = ["COLUMNS", "PARQUET_ROWS", "TableWriter", "summary_row", "write_table"]

#: the rows buffered before a Parquet row group is written
PARQUET_ROWS = 65_536

#: the columns, in order: the fields of :class:`~zipai_rules.simulate.GameSummary`
COLUMNS: tuple[str, ...] = tuple(f.name for f in attrs.fields(GameSummary))


def summary_row(summary: GameSummary) -> dict[str, Any]:
    """One game's row: its summary's fields by name, in order, as plain JSON values (tuples
    as lists, the result kind as a plain string)."""
    return {k: list(v) if isinstance(v, tuple) else str(v) if isinstance(v, str) else v
            for k, v in attrs.asdict(summary, recurse=False).items()}


class TableWriter:
    """A table file being written: :meth:`add` a summary per game, then :meth:`close` (or use
    it as a context manager, which closes it also when the block raises: the rows added are
    kept; a block that raises before any row leaves no file, and so does a writer dropped
    unclosed). Opening checks ``path`` can be written
    (:func:`~zipai_rules.records.check_writable`) and, for Parquet, that pyarrow is
    installed.

    Raises :class:`RecordError` (``unwritable``) for a path that cannot be written,
    :class:`~zipai_rules.errors.ZipaiError` (``bad_option``) for ``.parquet`` without pyarrow
    and (``bad_argument``) for a ``path`` that is no path or an ``add`` of no summary."""

    def __init__(self, path: str | Path) -> None:
        path_arg(path, "path")
        self.path = Path(path)
        self.parquet = self.path.name.endswith(".parquet")
        self.rows = 0
        self._pa: Any = None
        self._pq: Any = None
        if self.parquet:
            try:
                import pyarrow
                import pyarrow.parquet
            except ImportError:
                raise ZipaiError(f"{self.path}: a Parquet table needs pyarrow: "
                                 f"{install_hint('table')}", code="bad_option") from None
            self._pa, self._pq = pyarrow, pyarrow.parquet
        check_writable(self.path, "the table")
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp",
                                       dir=self.path.parent if str(self.path.parent) else ".")
        except OSError as exc:
            raise RecordError(f"{self.path}: cannot write: {exc.strerror or exc}",
                              code="unwritable") from None
        self._tmp: str | None = tmp
        self._file: IO[bytes] = os.fdopen(fd, "wb")
        os.fchmod(self._file.fileno(), 0o644)
        self._buffer: list[dict[str, Any]] = []
        self._writer: Any = None
        # a writer dropped without close() leaves no temporary file behind
        self._discard = weakref.finalize(self, _discard, self._file, tmp)

    def add(self, summary: GameSummary) -> None:
        """Append the row of one game."""
        of_type(summary, GameSummary, "summary", "a GameSummary")
        if self._tmp is None:
            raise ZipaiError(f"{self.path}: the table is closed", code="bad_argument")
        row = summary_row(summary)
        self.rows += 1
        if not self.parquet:
            self._write(json.dumps(row, ensure_ascii=False, separators=(",", ":"))
                        .encode("utf-8") + b"\n")
            return
        self._buffer.append(row)
        if len(self._buffer) >= PARQUET_ROWS:
            self._flush()

    def _write(self, data: bytes) -> None:
        try:
            self._file.write(data)
        except OSError as exc:
            self._abandon()
            raise RecordError(f"{self.path}: cannot write: {exc.strerror or exc}",
                              code="unwritable") from None

    def _flush(self) -> None:
        """Write the buffered rows as one Parquet row group."""
        pa = self._pa
        if self._writer is None:
            self._writer = self._pq.ParquetWriter(self._file, _schema(pa))
        if self._buffer:
            self._writer.write_table(pa.Table.from_pylist(self._buffer, schema=_schema(pa)))
            self._buffer = []

    def close(self) -> Path:
        """Finish the file and rename it to ``path``; returns ``path``. A second call does
        nothing. Raises :class:`RecordError` (``unwritable``)."""
        if self._tmp is None:
            return self.path
        try:
            if self.parquet:
                self._flush()
                self._writer.close()
            self._file.close()
            os.replace(self._tmp, self.path)
            self._discard.detach()
        except OSError as exc:
            self._abandon()
            raise RecordError(f"{self.path}: cannot write: {exc.strerror or exc}",
                              code="unwritable") from None
        self._tmp = None
        return self.path

    def _abandon(self) -> None:
        """Remove the temporary file after a failure."""
        self._discard()
        self._tmp = None

    def __enter__(self) -> TableWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._tmp is None:
            return
        if exc is not None and not self.rows:
            self._abandon()  # failed before any row (e.g. before any game): leave no file
        else:
            self.close()


def _discard(file: IO[bytes], tmp: str) -> None:
    """Close and remove the temporary file of a table not finished."""
    file.close()
    Path(tmp).unlink(missing_ok=True)


def write_table(summaries: Iterable[GameSummary], path: str | Path) -> int:
    """Write one row per summary (:func:`~zipai_rules.simulate.run_games`' or
    :func:`~zipai_rules.simulate.simulate`'s) to ``path`` (JSON Lines, or Parquet for a
    ``.parquet`` name); returns the number of rows. Raises as :class:`TableWriter`."""
    with TableWriter(path) as table:
        for summary in summaries:
            table.add(summary)
    return table.rows


def _schema(pa: Any) -> Any:
    """The Parquet schema of the rows (:data:`COLUMNS` with their types)."""
    types = {"number": pa.int64(), "seed": pa.int64(), "kind": pa.string(),
             "winner": pa.int8(), "huxi": pa.int64(), "units": pa.int64(), "gain": pa.int64(),
             "actions": pa.int32(), "payments": pa.list_(pa.int64()),
             "labels": pa.list_(pa.string())}
    return pa.schema([(name, types[name]) for name in COLUMNS])

