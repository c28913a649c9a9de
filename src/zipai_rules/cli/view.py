"""``zipai view``: a game record as one self-contained HTML replay (see
:mod:`zipai_rules.replay_html`); a game of a record shard with ``--game N``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import ZipaiError
from ..inputs import RECORD_LIMITS
from ..records import rules_used
from ..replay_html import view_data, view_record
from ..shards import is_shard, read_shard_record
from ..simulate import record_path
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
    p.add_argument("record", metavar="RECORD",
                   help="a game record (JSON), or a record shard (.jsonl.gz) with --game")
    p.add_argument("--game", metavar="N", type=int, default=None,
                   help="the game of the shard RECORD to view "
                   "(games-AAAAAAAA-BBBBBBBB.jsonl.gz holds games A..B)")
    p.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="the HTML file to write (default: RECORD with .html for .json; for "
                   "game N of a shard, game-NNNNN.html beside it)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``zipai view RECORD [--game N] -o FILE``: write the replay page; exit 2 on a bad
    record or an output that cannot be written."""
    limits = limits_from(args, RECORD_LIMITS)
    shard = is_shard(args.record)
    if shard != (args.game is not None):
        raise ZipaiError("--game N goes with a record shard (.jsonl.gz), and a shard needs "
                         "--game N: the page shows one game", code="bad_option")
    if args.game is not None and args.game < 1:
        raise ZipaiError(f"--game {args.game}: game numbers start at 1", code="bad_option")
    out = args.output
    if shard:
        if out is None:
            out = str(record_path(Path(args.record).parent, args.game).with_suffix(".html"))
        if Path(out).resolve() == Path(args.record).resolve():
            raise ZipaiError(f"{out}: the replay would overwrite its shard", code="bad_option")
        game = view_data(read_shard_record(args.record, args.game, limits), out)
    else:
        if out is None:
            out = (args.record[:-5] if args.record.endswith(".json") else args.record) \
                + ".html"
        game = view_record(args.record, out, limits)
    print(f"wrote {out}: {len(game.actions)} actions under {rules_used(game.variant)}")
    return 0
