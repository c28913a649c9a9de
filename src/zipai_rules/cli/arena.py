"""``zipai arena``: built-in bots played against each other over seeded deals, every deal once
per seating, with win rates, mean units, confidence intervals and a paired significance test
(see :mod:`zipai_rules.arena`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..arena import MAX_GAMES, arena, format_arena
from .common import VARIANT_HELP, bot_list, count, variant_arg
from .policies import is_policy_spec, load_policy


def level(text: str) -> float:
    """argparse type of ``--confidence``: a decimal strictly between 0.5 and 1 (``0.95``)."""
    try:
        value = float(text) if text.replace(".", "", 1).isdigit() and text.isascii() else None
    except ValueError:
        value = None
    if value is None or not 0.5 < value < 1:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a level strictly between 0.5 "
                                         "and 1 (such as 0.95)")
    return value


def games_arg(text: str) -> int:
    """argparse type of ``--games``: 1..:data:`~zipai_rules.arena.MAX_GAMES`."""
    value = count(1)(text)
    if value > MAX_GAMES:
        raise argparse.ArgumentTypeError(f"{value} is above {MAX_GAMES}")
    return value


def run(args: argparse.Namespace) -> int:
    """``zipai arena``: play and print the report (or its JSON)."""
    variant = variant_arg(args.variant, args)
    players = [load_policy(p) if is_policy_spec(p) else p for p in args.players]
    result = arena(players, variant, games=args.games, seed=args.seed,
                   confidence=args.confidence)
    if args.json:
        print(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
    else:
        print(format_arena(result))
    return 0


def add_parser(sub: Any) -> None:
    """Register ``zipai arena`` on an argparse subparsers object."""
    p = sub.add_parser("arena", help="play bots against each other and test the difference",
                       description="Play N deals (deal k uses seed S+k-1, as `zipai play "
                       "--seed`), each once per seating (the lineup rotated a seat at a "
                       "time), then print each player's win rate and mean units with "
                       "normal-approximation confidence intervals over the deals, and a "
                       "paired z-test over the same deals between each two players.")
    p.add_argument("players", type=bot_list,
                   help="comma-separated players, at most one per seat, repeated to fill the "
                        "table (greedy,random on 3 seats: greedy, random, greedy): a bot name "
                        "(greedy, random) or a policy SOURCE:NAME, NAME(observation, mask) -> "
                        "action code as in zipai_rules.rl_opponents, SOURCE a file ending in "
                        ".py (that file alone is loaded: agent.py:policy) or an installed "
                        "module's dotted name (not searched in the current directory); "
                        "policies need the [rl] extra")
    p.add_argument("--variant", default="hunan", help=VARIANT_HELP)
    p.add_argument("--games", type=games_arg, default=100,
                   help=f"number of deals, each played once per seat (default 100, at most "
                        f"{MAX_GAMES})")
    p.add_argument("--seed", type=count(0), default=1, help="seed of the first deal (default 1)")
    p.add_argument("--confidence", type=level, default=0.95,
                   help="level of the intervals; a difference is significant when p < 1 - "
                        "level (default 0.95)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)
