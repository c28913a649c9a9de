"""``zipai variants``: the shipped presets, one line each."""

from __future__ import annotations

import argparse
from typing import Any

from ..presets import load_preset, preset_ids
from ..terminal import columns


def add_parser(sub: Any) -> None:
    """Register ``zipai variants`` on an argparse subparsers object."""
    vs = sub.add_parser("variants", help="list the shipped presets")
    vs.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rows = [("id", "name", "players", "seats", "deck", "hands (dealer/others)", "wall", "min 胡息")]
    for pid in preset_ids():
        v = load_preset(pid)
        rows.append((v.id, v.name, str(v.players), str(v.seats), str(v.deck.size),
                     f"{v.deal.dealer_hand}/{v.deal.other_hand}", str(v.deal.wall),
                     str(v.win.min_huxi)))
    for line in columns(rows):
        print(line)
    return 0
