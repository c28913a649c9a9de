"""What the subcommands share: argparse value types and reading the ``--variant`` option."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

import attrs

from ..inputs import VARIANT_LIMITS, Limits, brief
from ..variant import Variant
from ..variant_file import variant_named

#: the most digits an integer argument may have (a 1024-bit seed has 309)
MAX_DIGITS = 320

_DECIMAL = re.compile(r"-?[0-9]+")


def decimal(text: str) -> int:
    """The integer ``text`` writes in ASCII decimal digits (an optional leading ``-``), at
    most :data:`MAX_DIGITS` of them. ``int()`` also takes other scripts' digits (``١٢٣``),
    underscores (``1_000``), a ``+`` and surrounding blanks: each is refused here.

    Raises :class:`argparse.ArgumentTypeError` naming the text."""
    if not _DECIMAL.fullmatch(text):
        raise argparse.ArgumentTypeError(f"{brief(repr(text), 40)} is not an integer (ASCII "
                                         "decimal digits 0-9 only)")
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"{brief(repr(text), 40)} is not an integer of at most "
                                         f"{MAX_DIGITS} digits ({len(text.lstrip('-'))} digits)")
    return int(text)


def count(minimum: int) -> Callable[[str], int]:
    """argparse type: an integer of at least ``minimum``, in ASCII decimal digits
    (:func:`decimal`)."""
    def parse(text: str) -> int:
        value = decimal(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{brief(str(value), 40)} is below {minimum}")
        return value
    return parse


def items(text: str, most: int, what: str) -> list[str]:
    """The comma-separated items of ``text`` (blanks around each removed): at least one, at
    most ``most``, none empty (``''``, ``a,,b`` and ``a,`` are refused). Raises
    :class:`argparse.ArgumentTypeError`."""
    parts = [part.strip() for part in text.split(",", most)]
    if len(parts) > most:
        raise argparse.ArgumentTypeError(f"more than {most} {what}")
    if not all(parts):
        raise argparse.ArgumentTypeError(f"{brief(repr(text), 40)}: an empty {what[:-1]} "
                                         f"(give {what} separated by commas)")
    return parts


def count_list(text: str) -> list[int]:
    """argparse type: comma-separated positive integers, at least one, at most 20."""
    return [count(1)(part) for part in items(text, 20, "numbers")]


def bot_list(text: str) -> list[str]:
    """argparse type of ``--bots``: comma-separated bot names, at least one, at most 8 (an
    empty ``--bots ''`` is an error, not the default bots)."""
    return items(text, 8, "bots")


def bot_names(args: argparse.Namespace, seats: int) -> list[str]:
    """The ``--bots`` names (:func:`bot_list`), or the default bots (greedy, random, greedy)
    cut to the table when ``--bots`` is not given."""
    from ..simulate import default_bots

    return list(args.bots) if args.bots is not None else list(default_bots(seats))


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

