"""The manifest of a ``zipai simulate`` run: what it was asked to play and the statistics of
the games it finished, so that a stopped run can be continued (``--resume``).

A manifest is a JSON file (``format`` ``zipai-run/1``), by default ``DIR/run.json`` in the
records folder ``--out DIR``::

    {"format": "zipai-run/1", "state": "stopped", "first": 1, "games": 20000,
     "out": "/data/run7", "out_on_workers": false, "shards": false, "statistics": {…}}

``state``: ``running`` (written when the run starts and every :data:`CHECKPOINT_SECONDS`
while it plays: what a client that was killed or lost its machine leaves), ``stopped``
(Ctrl-C, SIGTERM, a failed cluster) or ``finished``. ``first`` and ``games``: the game
numbers asked, ``first`` .. ``first + games - 1``. ``out``: the records folder (absolute, or
as given with ``out_on_workers``, where each worker resolves it), or ``null``. ``shards``:
whether the records go to shards (``--shards``), so a resumed run writes them the same way.
``html`` (optional, ``false`` when absent): whether the run writes replay pages
(``--html``), so a resumed run writes the missing pages and the whole index.
``statistics``: the statistics of the finished games as ``zipai simulate --json`` prints
them (:func:`~zipai_rules.stats.tally_stats`, with the variant, its content hash, the
engine version, the seed, the bots and the exact tally, whose game numbers say which games
finished). docs/cluster.md describes stopping and resuming.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from .engine.seeds import MAX_SEED_BITS
from .errors import ZipaiError
from .inputs import Limits, Refused, check_tree, loads_json, read_text
from .records import write_text_atomic
from .stats import STATS_LIMITS, Tally, check_stats

__all__ = ["CHECKPOINT_SECONDS", "MANIFEST_FORMAT", "MANIFEST_NAME", "STATES", "Manifest",
           "manifest_path", "missing", "read_manifest", "write_manifest"]

MANIFEST_FORMAT = "zipai-run/1"
#: the manifest's name in a records folder
MANIFEST_NAME = "run.json"
#: a running run rewrites its manifest at most this often (seconds)
CHECKPOINT_SECONDS = 10.0
STATES = ("running", "stopped", "finished")
#: a manifest is a statistics document one level deeper
MANIFEST_LIMITS = Limits(max_bytes=STATS_LIMITS.max_bytes, max_nodes=STATS_LIMITS.max_nodes,
                         max_depth=STATS_LIMITS.max_depth + 1)
#: the largest ``first`` or ``games`` a manifest may hold: what ``zipai simulate`` accepts (a
#: game's seed, ``seed + number - 1``, is an integer of at most 1024 bits)
MAX_GAMES = 2 ** MAX_SEED_BITS - 1
_KEYS = ("format", "state", "first", "games", "out", "out_on_workers", "shards",
         "statistics")
#: the fields a manifest may lack, with their values when it does
_OPTIONAL = {"html": False}


@attrs.frozen
class Manifest:
    """A read manifest: its fields, the ``statistics`` dict and their ``tally``."""

    state: str
    first: int
    games: int
    out: str | None
    out_on_workers: bool
    shards: bool
    statistics: Mapping[str, Any] = attrs.field(repr=False)
    tally: Tally = attrs.field(repr=False, eq=False)
    html: bool = False


def manifest_path(path: str | Path) -> Path:
    """The manifest a ``--resume PATH`` names: ``PATH/run.json`` for a folder, else
    ``PATH``."""
    p = Path(path)
    return p / MANIFEST_NAME if p.is_dir() else p


def write_manifest(path: str | Path, state: str, *, first: int, games: int,
                   out: str | None, out_on_workers: bool, shards: bool = False,
                   statistics: Mapping[str, Any], html: bool = False) -> None:
    """Write the manifest ``path`` atomically (a reader sees the old one or the new one).
    Raises :class:`~zipai_rules.errors.RecordError` (``unwritable``)."""
    if state not in STATES:
        raise ZipaiError(f"manifest state {state!r} is not one of {', '.join(STATES)}",
                         code="bad_argument")
    doc = {"format": MANIFEST_FORMAT, "state": state, "first": first, "games": games,
           "out": out, "out_on_workers": out_on_workers, "shards": shards,
           "html": html, "statistics": dict(statistics)}
    write_text_atomic(path, json.dumps(doc, ensure_ascii=False, indent=1) + "\n")


def _bad(path: str | Path, field: str, why: str) -> ZipaiError:
    return ZipaiError(f"{path}: {field} {why}", code="bad_manifest")


def read_manifest(path: str | Path) -> Manifest:
    """The manifest file ``path``, read within :data:`MANIFEST_LIMITS` and checked strictly:
    exactly the fields above with their types, ``statistics`` as
    :func:`~zipai_rules.stats.check_stats` checks them, and every finished game within
    ``first`` .. ``first + games - 1``. Raises :class:`~zipai_rules.errors.ZipaiError`:
    ``unreadable``, ``too_large``, ``too_deep``, ``bad_json``, ``duplicate_key``; ``schema``
    for bad statistics; ``bad_manifest`` for a bad field; the message names the file and
    the field."""
    try:
        doc = loads_json(read_text(path, MANIFEST_LIMITS.max_bytes))
        check_tree(doc, MANIFEST_LIMITS)
    except Refused as exc:
        where = "" if exc.path == "<root>" else f" at {exc.path}"
        message = (f"{path}: larger than a manifest may be ({MANIFEST_LIMITS.max_bytes} "
                   "bytes): not a manifest of zipai simulate" if exc.code == "too_large"
                   else exc.message if exc.message.startswith(f"{path}:")
                   else f"{path}: {exc.message}")
        raise ZipaiError(f"{message}{where}", code=exc.code) from None
    if type(doc) is not dict:
        raise _bad(path, "the document", "is not an object")
    if doc.get("format") != MANIFEST_FORMAT:
        raise _bad(path, "format", f"is not {MANIFEST_FORMAT!r} (not a manifest of zipai "
                   "simulate)")
    extra = sorted(set(doc) - set(_KEYS) - set(_OPTIONAL))
    if extra:
        raise _bad(path, extra[0], "is not a field of a manifest")
    for key in _KEYS:
        if key not in doc:
            raise _bad(path, key, "is missing")
    if doc["state"] not in STATES:
        raise _bad(path, "state", f"is not one of {', '.join(STATES)}")
    for key, low in (("first", 1), ("games", 1)):
        value = doc[key]
        if type(value) is not int or not low <= value <= MAX_GAMES:
            raise _bad(path, key, f"is not an integer from {low} to 2^{MAX_SEED_BITS}-1")
    if doc["out"] is not None and (type(doc["out"]) is not str or not doc["out"]
                                   or len(doc["out"]) > 4096 or "\0" in doc["out"]):
        raise _bad(path, "out", "is not a folder name or null")
    doc = {**_OPTIONAL, **doc}
    for key in ("out_on_workers", "shards", "html"):
        if type(doc[key]) is not bool:
            raise _bad(path, key, "is not true or false")
    try:
        tally = check_stats(doc["statistics"])
    except ZipaiError as exc:
        raise ZipaiError(f"{path}: statistics: {exc}", code=exc.code) from None
    last = doc["first"] + doc["games"] - 1
    if (doc["statistics"]["seed"] + last - 1).bit_length() > MAX_SEED_BITS:
        raise _bad(path, "games", f"end beyond the largest seed: seed + first + games - 2 "
                   f"has more than {MAX_SEED_BITS} bits")
    numbers = tally.numbers
    if numbers and (numbers[0][0] < doc["first"] or numbers[-1][1] > last):
        raise _bad(path, "statistics", f"hold games outside {doc['first']}..{last}")
    return Manifest(doc["state"], doc["first"], doc["games"], doc["out"],
                    doc["out_on_workers"], doc["shards"], doc["statistics"], tally, doc["html"])


def missing(manifest: Manifest) -> list[tuple[int, int]]:
    """The game numbers the run asked for and did not finish, as sorted inclusive ranges
    (for :func:`~zipai_rules.simulate.run_games`' ``numbers``)."""
    gaps = []
    at = manifest.first
    for a, b in manifest.tally.numbers:
        if a > at:
            gaps.append((at, a - 1))
        at = b + 1
    last = manifest.first + manifest.games - 1
    if at <= last:
        gaps.append((at, last))
    return gaps
