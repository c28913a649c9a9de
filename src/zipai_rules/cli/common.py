"""What the subcommands share: argparse value types and reading the ``--variant`` option."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import attrs

from ..inputs import VARIANT_LIMITS, Limits, brief
from ..variant import Variant
from ..variant_file import variant_named


def count(minimum: int) -> Callable[[str], int]:
    """argparse type: an integer of at least ``minimum``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{brief(repr(text), 40)} is not an integer"
                                              ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{brief(str(value), 40)} is below {minimum}")
        return value
    return parse


def count_list(text: str) -> list[int]:
    """argparse type: comma-separated positive integers, at most 20 of them."""
    parts = text.split(",")
    if len(parts) > 20:
        raise argparse.ArgumentTypeError(f"{len(parts)} numbers; at most 20")
    return [count(1)(part.strip()) for part in parts]


def bot_names(args: argparse.Namespace, seats: int) -> list[str]:
    """The ``--bots`` names, or the default bots (greedy, random, greedy) cut to the table:
    a list given explicitly must not name more bots than seats."""
    from ..simulate import default_bots

    return args.bots.split(",") if args.bots else list(default_bots(seats))


def variant_arg(name: str, args: argparse.Namespace | None = None) -> Variant:
    """The variant a ``--variant`` value names: a YAML file (``.yaml``/``.yml``, read within
    the ``--max-*`` limits) or a preset id, Chinese name or alias. Raises
    :class:`~zipai_rules.errors.VariantError`; for an unknown name that is a folder or has
    another file suffix, the message says what a variant file's name ends in."""
    return variant_named(name, limits=limits_from(args, VARIANT_LIMITS))


#: the ``--variant`` help line every subcommand shows
VARIANT_HELP = ("preset id, Chinese name or alias (see `zipai variants`), or a variant file "
                "ending in .yaml/.yml (default: %(default)s)")


def limits_from(args: argparse.Namespace | None, default: Limits) -> Limits:
    """``default`` with the top-level ``--max-bytes`` / ``--max-nodes`` options applied."""
    changes = {k: getattr(args, k, None) for k in ("max_bytes", "max_nodes")}
    return attrs.evolve(default, **{k: v for k, v in changes.items() if v is not None})

