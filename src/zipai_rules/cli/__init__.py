"""The ``zipai`` command line: play, analyze, variants, terms, validate, schema, bench,
replay, simulate, stats, arena, view, serve (one module of this package each).

Every user error prints one ``error: …`` line (or a list of variant problems) to stderr and
exits with status 2; nothing prints a traceback for bad input. Everything printed passes
through :func:`~zipai_rules.terminal.escape`: names from variant files and records cannot
send control characters or ANSI escapes to the terminal.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import ZipaiError
from ..terminal import EscapingStream
from . import (
    analyze,
    arena,
    bench,
    play,
    replay,
    schema,
    serve,
    simulate,
    stats,
    terms,
    validate,
    variants,
    view,
)
from .common import count

#: the subcommands in the order ``zipai --help`` lists them
SUBCOMMANDS = (play, analyze, variants, terms, validate, schema, bench, replay, simulate,
               stats, arena, view, serve)


def build_parser() -> argparse.ArgumentParser:
    """The ``zipai`` argument parser with every subcommand."""
    p = argparse.ArgumentParser(prog="zipai", description="The rules of 字牌 (zipai / 跑胡子).")
    p.add_argument("--version", action="version", version=f"zipai_rules {__version__}")
    p.add_argument("--max-bytes", type=count(1), metavar="N",
                   help="read at most N bytes from a variant file (default 131072), a record "
                   "(default 1048576) or a statistics file (default 16777216)")
    p.add_argument("--max-nodes", type=count(1), metavar="N",
                   help="accept at most N values in a variant file (default 20000), a record "
                   "(default 100000) or a statistics file (default 1000000), YAML aliases "
                   "expanded")
    sub = p.add_subparsers(dest="command", required=True)
    for command in SUBCOMMANDS:
        command.add_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``zipai`` with ``argv`` (default: the process's arguments); the exit status."""
    out, err = sys.stdout, sys.stderr
    # a closed standard stream (``>&-``) is None: what would go there is dropped
    sys.stdout = EscapingStream(out if out is not None else open(os.devnull, "w"))  # noqa: SIM115
    sys.stderr = EscapingStream(err if err is not None else open(os.devnull, "w"))  # noqa: SIM115
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except ZipaiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:  # standard output that cannot be written (a full disk, …)
        try:
            print(f"error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        except OSError:
            pass
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
