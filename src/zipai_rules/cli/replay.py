"""``zipai replay``: replay game records strictly, confirm their results and say how each deal
was established (committed, seeded or dealt). A record shard (``zipai simulate --shards``)
is replayed record by record, or one game of it with ``--game N``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from ..errors import ZipaiError
from ..inputs import RECORD_LIMITS, Limits
from ..records import ReplayReport, check_digest, replay_file_report, replay_report, rules_used
from ..shards import is_shard, iter_shard, read_shard_record
from .common import limits_from


def add_parser(sub: Any) -> None:
    """Register ``zipai replay`` on an argparse subparsers object."""
    p = sub.add_parser("replay", help="replay game records strictly and confirm their results",
                       description="Replay zipai-log/1 game records: the variant must be "
                       "unchanged, every action legal, and the result and settlement equal. "
                       "Each record's line says how its deal was established (committed, "
                       "seeded or dealt) and gives its shuffle commitment digest. A record "
                       "shard (FILE.jsonl.gz, zipai simulate --shards) is replayed record by "
                       "record, or one game of it with --game.")
    p.add_argument("--expect-digest", metavar="HEX", default=None,
                   help="the shuffle commitment digest published before the deal (64 hex "
                   "digits): refuse a record with no commitment or another digest (one FILE; "
                   "for a shard, with --game)")
    p.add_argument("--game", metavar="N", type=int, default=None,
                   help="replay only game N of the shard FILE "
                   "(games-AAAAAAAA-BBBBBBBB.jsonl.gz holds games A..B)")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="a game record (JSON), or a record shard (.jsonl.gz)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``zipai replay [--expect-digest HEX] [--game N] FILE...``: replay each record
    strictly; exit 2 if any fails."""
    try:
        _check(args)
    except ZipaiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    limits = limits_from(args, RECORD_LIMITS)
    several = len(args.files) > 1 or (args.game is None and is_shard(args.files[0]))
    tried = failed = 0
    for name in args.files:
        try:
            for label, replay in _items(name, args, limits):
                tried += 1
                prefix = label if label or not several else f"{name}: "
                try:
                    report = replay()
                except ZipaiError as exc:
                    # a record file's or shard's own errors name it already
                    named = str(exc).startswith(name)
                    print(f"error: {'' if named else prefix}{exc}", file=sys.stderr)
                    failed += 1
                    continue
                print(f"{prefix}replayed {len(report.game.actions)} actions under "
                      f"{rules_used(report.game.variant)}: result and settlement confirmed; "
                      f"deal: {report.provenance_text()}")
                print(f"{prefix}digest: {report.digest or 'none (no shuffle commitment)'}")
        except ZipaiError as exc:  # a shard that cannot be read on: its message names it
            print(f"error: {exc}", file=sys.stderr)
            tried, failed = tried + 1, failed + 1
    if several:
        print(f"{tried - failed} of {tried} records confirmed")
    return 2 if failed else 0


def _check(args: argparse.Namespace) -> None:
    """The options that go together, before any record is read."""
    if args.expect_digest is not None:
        if len(args.files) > 1:
            raise ZipaiError("--expect-digest is the digest of one hand: give one FILE",
                             code="bad_option")
        if is_shard(args.files[0]) and args.game is None:
            raise ZipaiError("--expect-digest is the digest of one hand: give --game N for a "
                             "shard", code="bad_option")
        check_digest(args.expect_digest, "--expect-digest")
    if args.game is not None:
        if len(args.files) > 1 or not is_shard(args.files[0]):
            raise ZipaiError("--game N picks one game out of a record shard (.jsonl.gz): give "
                             "one shard", code="bad_option")
        if args.game < 1:
            raise ZipaiError(f"--game {args.game}: game numbers start at 1", code="bad_option")


def _items(name: str, args: argparse.Namespace, limits: Limits
           ) -> Iterator[tuple[str, Callable[[], ReplayReport]]]:
    """``(label, replay)`` for each record of the file ``name``: the label is ``""`` for a
    record file, ``"SHARD game N: "`` for a game of a shard; ``replay()`` replays it. A
    shard that cannot be read on raises from the iteration."""
    if not is_shard(name):
        yield "", lambda: replay_file_report(name, limits, args.expect_digest)
        return
    if args.game is not None:
        number = args.game
        yield (f"{name} game {number}: ",
               lambda: replay_report(read_shard_record(name, number, limits),
                                     args.expect_digest))
        return
    for number, record in iter_shard(name, limits):
        yield f"{name} game {number}: ", partial(replay_report, record)
