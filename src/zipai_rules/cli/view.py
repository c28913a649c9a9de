"""``zipai view``: a game record as one self-contained HTML replay (see
:mod:`zipai_rules.replay_html`)."""

from __future__ import annotations

import argparse
from typing import Any

from ..inputs import RECORD_LIMITS
from ..records import rules_used
from ..replay_html import view_record
from .common import limits_from


def add_parser(sub: Any) -> None:
    """Register ``zipai view`` on an argparse subparsers object."""
    p = sub.add_parser("view", help="write a game record's replay as one HTML file",
                       description="Replay a zipai-log/1 record strictly and write it as one "
                       "self-contained HTML page (no network): step through the hand with "
                       "◀/▶ or the ←/→ keys, a slider, all cards open or one seat's view, "
                       "Chinese (the variant's own words) or ASCII, and the settlement at the "
                       "end. The file holds every card of the hand, whatever view it opens "
                       "in: it is for after the hand, never for a player during it.")
    p.add_argument("record", metavar="RECORD", help="a game record (JSON)")
    p.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="the HTML file to write (default: RECORD with .html for .json)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``zipai view RECORD -o FILE``: write the replay page; exit 2 on a bad record or an
    output that cannot be written."""
    out = args.output
    if out is None:
        out = (args.record[:-5] if args.record.endswith(".json") else args.record) + ".html"
    game = view_record(args.record, out, limits_from(args, RECORD_LIMITS))
    print(f"wrote {out}: {len(game.actions)} actions under {rules_used(game.variant)}")
    return 0
