"""``zipai validate``: check a variant YAML file, and optionally play it with invariant checks."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import VariantError
from ..inputs import VARIANT_LIMITS
from ..simulate import simulate_check
from ..variant_file import load_variant_file, variant_file_warnings
from .common import count, limits_from


def add_parser(sub: Any) -> None:
    """Register ``zipai validate`` on an argparse subparsers object."""
    va = sub.add_parser("validate", help="check a variant YAML file")
    va.add_argument("file", help="a variant file ending in .yaml/.yml (`zipai variants` lists "
                    "the shipped presets)")
    va.add_argument("--simulate", type=count(0), default=0, metavar="N",
                    help="then play N seeded random games with invariant checks (default 0)")
    va.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        v = load_variant_file(args.file, limits=limits_from(args, VARIANT_LIMITS))
    except VariantError as exc:
        if exc.code != "unreadable" or any(path == "extends" for path, _ in exc.problems):
            raise  # the hint is for the file named, not for a parent it extends
        raise VariantError(f"{exc}; validate checks a variant file ending in .yaml/.yml "
                           "(`zipai variants` lists the shipped presets)", exc.problems,
                           code=exc.code) from None
    print(f"{args.file}: valid variant {v.id} ({v.name}), content hash {v.content_hash[:16]}")
    for warning in variant_file_warnings(args.file, v, limits=limits_from(args, VARIANT_LIMITS)):
        print(f"warning: {args.file}: {warning}", file=sys.stderr)
    if args.simulate:
        problem = simulate_check(v, args.simulate)
        if problem:
            print(f"error: {args.file}: {problem}", file=sys.stderr)
            return 1
        print(f"simulated {args.simulate} games with every built-in bot: every card "
              "conserved, every offered action legal, every game ended")
    return 0
