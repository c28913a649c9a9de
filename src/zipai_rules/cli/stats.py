"""``zipai stats merge``: the statistics of several runs' ``--json`` files as one run's (see
:mod:`zipai_rules.stats`)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ..presets import load_preset, preset_ids
from ..stats import STATS_LIMITS, format_stats, merge_stats, read_stats
from ..variant import Variant
from .common import limits_from


def _read_all(paths: Sequence[str], args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    limits = limits_from(args, STATS_LIMITS)
    for path in paths:
        yield read_stats(path, limits)


def _words(stats: Mapping[str, Any]) -> Variant | None:
    """The shipped preset the statistics are of (for its name and terms), if it is one with
    the same rules; ``None`` for a variant file's statistics (printed in canonical terms)."""
    if stats["variant"] not in preset_ids():
        return None
    variant = load_preset(stats["variant"])
    return variant if variant.content_hash == stats["content_hash"] else None


def run_merge(args: argparse.Namespace) -> int:
    """``zipai stats merge A.json B.json …``: the statistics of the union of their games, as
    a table or (``--json``) as JSON that merges again. Errors (a file that is not statistics,
    of another variant, engine, bots or seat count, or holding a game another file holds)
    are ZipaiErrors: ``error:`` and exit 2."""
    merged = merge_stats(_read_all(args.files, args), args.files)
    if args.json:
        print(json.dumps(merged, ensure_ascii=False, indent=2))
    else:
        print(format_stats(merged, _words(merged)))
    return 0


def add_parser(sub: Any) -> None:
    """Register ``zipai stats`` (and ``zipai stats merge``) on an argparse subparsers
    object."""
    p = sub.add_parser("stats", help="work with the statistics files of zipai simulate --json",
                       description="Statistics of `zipai simulate --json` hold exact counts, so "
                       "the statistics of several runs merge into those of one run.")
    actions = p.add_subparsers(dest="stats_command", required=True)
    m = actions.add_parser(
        "merge", help="the statistics of several runs as those of one run",
        description="Merge statistics files of `zipai simulate --json` (of the same variant, "
        "engine version, bots and seats, holding no common game) into the statistics of the "
        "union of their games: every figure as one run over those games gives, quartiles "
        "included. Files of runs with other seeds are numbered from the smallest seed. The "
        "merged timing sums the files' seconds. A file is read within --max-bytes (default "
        f"{STATS_LIMITS.max_bytes}) and --max-nodes (default {STATS_LIMITS.max_nodes}), "
        "given before `stats`.")
    m.add_argument("files", nargs="+", metavar="FILE",
                   help="statistics JSON files written by `zipai simulate --json` or by this "
                        "command with --json")
    m.add_argument("--json", action="store_true",
                   help="print the merged statistics as JSON (which merges again)")
    m.set_defaults(func=run_merge)
