"""``zipai replay``: replay game records strictly and confirm their results."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import RecordError, ZipaiError
from ..inputs import RECORD_LIMITS
from ..records import replay_file, rules_used
from .common import limits_from


def add_parser(sub: Any) -> None:
    """Register ``zipai replay`` on an argparse subparsers object."""
    p = sub.add_parser("replay", help="replay game records strictly and confirm their results",
                       description="Replay zipai-log/1 game records: the variant must be "
                       "unchanged, every action legal, and the result and settlement equal.")
    p.add_argument("files", nargs="+", metavar="FILE", help="a game record (JSON)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``zipai replay FILE...``: replay each record strictly; exit 2 if any fails."""
    several = len(args.files) > 1
    failed = 0
    for name in args.files:
        prefix = f"{name}: " if several else ""
        try:
            game, _ = replay_file(name, limits_from(args, RECORD_LIMITS))
        except RecordError as exc:
            # the message already names the file
            print(f"error: {exc}", file=sys.stderr)
            failed += 1
            continue
        except ZipaiError as exc:
            print(f"error: {prefix}{exc}", file=sys.stderr)
            failed += 1
            continue
        print(f"{prefix}replayed {len(game.actions)} actions under {rules_used(game.variant)}: "
              "result and settlement confirmed")
        if game.seed is None:  # nothing ties the deal to a shuffle
            print(f"{prefix}note: the deal was given explicitly (no seed): it is not checked "
                  "against a shuffle")
    if several:
        print(f"{len(args.files) - failed} of {len(args.files)} records confirmed")
    return 2 if failed else 0
