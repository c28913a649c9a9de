"""Record shards: the records of a run of games as one gzip-compressed JSON Lines file per
chunk of consecutive games (``zipai simulate --out DIR --shards``), instead of one file per
game.

A shard holds games ``A`` .. ``B`` of a run and is named by them:
``DIR/games-AAAAAAAA-BBBBBBBB.jsonl.gz`` (eight digits at least, :func:`shard_path`). Line
``i`` (1-based) is game ``A + i - 1``'s record as one line of JSON (:func:`shard_line`: the
record's keys sorted, no spaces, UTF-8), and :func:`record_text` of that line is byte for
byte the text ``DIR/game-NNNNN.json`` would hold without ``--shards``
(:func:`~zipai_rules.records.dumps_record`). The file is compressed without a name or a time
in its header, so the same games make the same bytes, and written whole through a rename
(:func:`~zipai_rules.records.write_bytes_atomic`): a reader never sees a partial shard.

Shards are untrusted input like any record (:mod:`zipai_rules.inputs`): a shard is read only
if it is a regular file, at most ``max_bytes`` (:data:`MAX_SHARD_BYTES`) are read from it and
decompressed out of it (a gzip bomb stops there), each line is at most ``limits.max_bytes``
and is read by :func:`~zipai_rules.records.loads_record`, as strictly as a record file.
docs/records.md describes the format.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import stat
import zlib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, cast

from .arguments import int_arg, mapping_arg, of_type, path_arg, refuse
from .errors import RecordError, ZipaiError
from .inputs import RECORD_LIMITS, Limits, brief
from .records import dumps_record, loads_record, write_bytes_atomic

__all__ = ["MAX_SHARD_BYTES", "is_shard", "iter_shard", "read_shard_record", "record_text",
           "shard_line", "shard_path", "shard_range", "write_shard"]

#: the most bytes read from a shard file, and the most decompressed out of it (256 MiB: a
#: shard of 200 games is some 600 KiB decompressed, 60 KiB compressed)
MAX_SHARD_BYTES = 256 * 1024 * 1024

_NAME = re.compile(r"games-(\d{8,18})-(\d{8,18})\.jsonl(?:\.gz)?")


def shard_line(record: Mapping[str, Any]) -> str:
    """The record as one line of JSON, without the newline: keys sorted, no spaces, UTF-8
    characters as they are. Raises :class:`~zipai_rules.errors.ZipaiError`
    (``bad_argument``) for a record that is no mapping or holds a value JSON cannot write."""
    mapping_arg(record, "record")
    try:
        return json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                          allow_nan=False)
    except (TypeError, ValueError) as exc:  # a value json cannot write, as dumps_record says
        raise ZipaiError(f"record: not JSON: {brief(str(exc), 100)}",
                         code="bad_argument") from None


def record_text(line: str | bytes, limits: Limits = RECORD_LIMITS, *,
                origin: str = "<shard line>") -> str:
    """The per-game record file's text of one shard line: the line read strictly
    (:func:`~zipai_rules.records.loads_record`) and written as
    :func:`~zipai_rules.records.dumps_record` writes a record file. Raises
    :class:`RecordError` as :func:`~zipai_rules.records.loads_record` does."""
    return dumps_record(loads_record(line, limits, origin=origin))


def shard_path(out: str | Path, first: int, last: int) -> Path:
    """Where the shard of games ``first`` .. ``last`` goes in the records folder ``out``:
    ``out/games-AAAAAAAA-BBBBBBBB.jsonl.gz``. Raises :class:`~zipai_rules.errors.ZipaiError`
    (``bad_argument``) unless ``1 <= first <= last``."""
    path_arg(out, "out")
    int_arg(first, "first", 1)
    int_arg(last, "last", first)
    return Path(out) / f"games-{first:08d}-{last:08d}.jsonl.gz"


def shard_range(path: str | Path) -> tuple[int, int] | None:
    """The games ``(first, last)`` a shard's file name says it holds, or ``None`` for a name
    not of the form ``games-AAAAAAAA-BBBBBBBB.jsonl.gz`` (or ``.jsonl``) with
    ``1 <= first <= last``."""
    m = _NAME.fullmatch(Path(path).name)
    if m is None:
        return None
    first, last = int(m.group(1)), int(m.group(2))
    return (first, last) if 1 <= first <= last else None


def is_shard(path: str | Path) -> bool:
    """Whether ``path`` names a shard (a file name ending ``.jsonl.gz`` or ``.jsonl``) rather
    than one record."""
    name = Path(path).name
    return name.endswith((".jsonl.gz", ".jsonl"))


def write_shard(out: str | Path, first: int, lines: Sequence[str]) -> Path:
    """Write the shard of games ``first`` .. ``first + len(lines) - 1`` (their
    :func:`shard_line`\\ s, in game order) to :func:`shard_path` in ``out``, compressed
    (gzip, level 6, no name or time in the header) and through a rename; returns its path.
    Raises :class:`RecordError` (``unwritable``) and
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for no lines, or a line that
    is no string, is blank or holds a newline."""
    if isinstance(lines, (str, bytes)) or not isinstance(lines, Sequence) or not lines:
        raise refuse("lines", lines, "a non-empty list of record lines")
    for k, line in enumerate(lines):
        if not isinstance(line, str) or "\n" in line or not line.strip():
            raise refuse(f"lines[{k}]", line, "one record's line (shard_line: no newline)")
    path = shard_path(out, first, first + len(lines) - 1)
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    write_bytes_atomic(path, gzip.compress(data, compresslevel=6, mtime=0))
    return path


def iter_shard(path: str | Path, limits: Limits = RECORD_LIMITS, *,
               max_bytes: int = MAX_SHARD_BYTES) -> Iterator[tuple[int, dict[str, Any]]]:
    """The records of a shard, in order, as ``(game number, record)``: the number from the
    file's name (:func:`shard_range`), or the line's place (1, 2, …) for a shard of another
    name. Each record is read strictly (:func:`~zipai_rules.records.loads_record`, every
    message naming the file and the game). A shard whose name gives its games must hold
    exactly those.

    Raises :class:`RecordError`: ``unreadable`` (missing, not a regular file, not gzip,
    truncated), ``too_large`` (a line over ``limits.max_bytes``, or more than ``max_bytes``
    read or decompressed), ``bad_format`` (an empty line, or other games than the name
    says), and what :func:`~zipai_rules.records.loads_record` raises for a line;
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a bad argument."""
    return _records(path, limits, max_bytes, None)


def read_shard_record(path: str | Path, number: int, limits: Limits = RECORD_LIMITS, *,
                      max_bytes: int = MAX_SHARD_BYTES) -> dict[str, Any]:
    """Game ``number``'s record out of the shard ``path`` (named by its games,
    :func:`shard_range`), read strictly; the lines before it are counted, not parsed.
    Raises :class:`RecordError` as :func:`iter_shard`, and ``bad_argument`` for a shard
    whose name does not give its games or a ``number`` outside them."""
    int_arg(number, "number", 1)
    span = _span(path)
    if span is None:
        raise RecordError(f"{path}: cannot tell which games it holds: a shard's name is "
                          "games-AAAAAAAA-BBBBBBBB.jsonl.gz", code="bad_argument")
    if not span[0] <= number <= span[1]:
        raise RecordError(f"{path}: holds games {span[0]}–{span[1]}, not game {number}",
                          code="bad_argument")
    for _, record in _records(path, limits, max_bytes, number):
        return record
    raise AssertionError("unreachable: _records yields the wanted game or raises")


def _span(path: str | Path) -> tuple[int, int] | None:
    path_arg(path, "path")
    return shard_range(path)


def _records(path: str | Path, limits: Limits, max_bytes: int, wanted: int | None
             ) -> Iterator[tuple[int, dict[str, Any]]]:
    span = _span(path)
    of_type(limits, Limits, "limits", "a Limits (zipai_rules.inputs)")
    int_arg(max_bytes, "max_bytes", 1)
    first = span[0] if span else 1
    count = 0
    for line in _lines(path, limits.max_bytes, max_bytes):
        number = first + count
        count += 1
        if span is not None and number > span[1]:
            raise RecordError(f"{path}: holds more than the {span[1] - span[0] + 1} records "
                              f"of games {span[0]}–{span[1]} its name says", code="bad_format")
        if wanted is not None and number != wanted:
            continue
        where = f"{path} (game {number}, line {count})"
        if not line.strip():
            raise RecordError(f"{where}: an empty line, not a record", code="bad_format")
        yield number, loads_record(line, limits, origin=where)
        if wanted is not None:
            return
    if span is not None and count != span[1] - span[0] + 1:
        raise RecordError(f"{path}: holds {count} records, not the {span[1] - span[0] + 1} of "
                          f"games {span[0]}–{span[1]} its name says", code="bad_format")


def _lines(path: str | Path, max_line: int, max_bytes: int) -> Iterator[bytes]:
    """The lines (without their newline) of the shard file ``path``, decompressed when its
    name ends ``.gz``, each at most ``max_line`` bytes, at most ``max_bytes`` in all."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:
        raise RecordError(f"{path}: cannot read: {_reason(exc)}", code="unreadable") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a folder: before fdopen, which refuses it
        kind = "a folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "not a regular file"
        os.close(fd)
        raise RecordError(f"{path}: cannot read: {kind}", code="unreadable")
    with os.fdopen(fd, "rb") as raw:
        if os.fstat(raw.fileno()).st_size > max_bytes:
            raise RecordError(f"{path}: larger than the limit of {max_bytes} bytes",
                              code="too_large")
        stream = cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb")
                      if str(path).endswith(".gz") else raw)
        total = 0
        while True:
            try:
                line = stream.readline(max_line + 2)  # the line, its newline, one more
            except (OSError, EOFError, zlib.error) as exc:  # not gzip, or cut short
                raise RecordError(f"{path}: cannot read: not a whole gzip file "
                                  f"({_reason(exc)})", code="unreadable") from None
            if not line:
                return
            total += len(line)
            if total > max_bytes:
                raise RecordError(f"{path}: more than the limit of {max_bytes} bytes "
                                  "decompressed", code="too_large")
            body = line[:-1] if line.endswith(b"\n") else line
            if len(body) > max_line:
                raise RecordError(f"{path}: a line of more than the limit of {max_line} bytes "
                                  "(raise it on the command line before the command: zipai "
                                  "--max-bytes N replay …)", code="too_large")
            yield body


def _reason(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or \
        type(exc).__name__
