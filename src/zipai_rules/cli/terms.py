"""``zipai terms``: a variant's terminology map (canonical pinyin → the variant's word), then
the 名堂 patterns that carry their own ``term`` (pattern name → that term)."""

from __future__ import annotations

import argparse
from typing import Any

from .common import variant_arg


def add_parser(sub: Any) -> None:
    """Register ``zipai terms`` on an argparse subparsers object."""
    tm = sub.add_parser("terms", help="print a variant's terminology map")
    tm.add_argument("variant", help="preset id, Chinese name or alias (see `zipai variants`), "
                    "or a variant file ending in .yaml/.yml")
    tm.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    v = variant_arg(args.variant, args)
    print(f"{v.name} ({v.id})")
    for canonical, word in sorted(v.terminology.items()):
        print(f"  {canonical:14} {word}")
    own = [(p.name, p.term) for p in v.scoring.mingtang.patterns if p.term is not None]
    if own:
        print("名堂 (scoring.mingtang.patterns, their own term)")
        for name, term in own:
            print(f"  {name:14} {term}")
    return 0
