"""``zipai replay``: replay game records strictly, confirm their results and say how each deal
was established (committed, seeded or dealt)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import RecordError, ZipaiError
from ..inputs import RECORD_LIMITS
from ..records import check_digest, replay_file_report, rules_used
from .common import limits_from


def add_parser(sub: Any) -> None:
    """Register ``zipai replay`` on an argparse subparsers object."""
    p = sub.add_parser("replay", help="replay game records strictly and confirm their results",
                       description="Replay zipai-log/1 game records: the variant must be "
                       "unchanged, every action legal, and the result and settlement equal. "
                       "Each record's line says how its deal was established (committed, "
                       "seeded or dealt) and gives its shuffle commitment digest.")
    p.add_argument("--expect-digest", metavar="HEX", default=None,
                   help="the shuffle commitment digest published before the deal (64 hex "
                   "digits): refuse a record with no commitment or another digest (one FILE)")
    p.add_argument("files", nargs="+", metavar="FILE", help="a game record (JSON)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``zipai replay [--expect-digest HEX] FILE...``: replay each record strictly; exit 2 if
    any fails."""
    several = len(args.files) > 1
    if several and args.expect_digest is not None:
        print("error: --expect-digest is the digest of one hand: give one FILE",
              file=sys.stderr)
        return 2
    try:
        if args.expect_digest is not None:
            check_digest(args.expect_digest, "--expect-digest")
    except ZipaiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    failed = 0
    for name in args.files:
        prefix = f"{name}: " if several else ""
        try:
            report = replay_file_report(name, limits_from(args, RECORD_LIMITS),
                                        args.expect_digest)
        except RecordError as exc:
            # the message already names the file
            print(f"error: {exc}", file=sys.stderr)
            failed += 1
            continue
        except ZipaiError as exc:
            print(f"error: {prefix}{exc}", file=sys.stderr)
            failed += 1
            continue
        print(f"{prefix}replayed {len(report.game.actions)} actions under "
              f"{rules_used(report.game.variant)}: result and settlement confirmed; "
              f"deal: {report.provenance_text()}")
        print(f"{prefix}digest: {report.digest or 'none (no shuffle commitment)'}")
    if several:
        print(f"{len(args.files) - failed} of {len(args.files)} records confirmed")
    return 2 if failed else 0
