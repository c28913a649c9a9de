"""Hashes of full game records: every preset, a fixed set of seeds, played by the bots (not
replayed), so that a change meant to keep behaviour (a faster path, the compiled build) shows
any game it alters, bots' choices included.

Each entry of ``tests/data/record_hashes.json`` is the SHA-256 of one hand's record as
``zipai play --seed`` writes it, with its full event log, played by simulate's default bots.
``tests/test_record_hashes.py`` plays them again and compares::

    python tests/record_hashes.py --check     # list the hands whose record changed
    python tests/record_hashes.py --write     # rewrite them (only for a rule changed on purpose)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
HASHES = HERE / "data" / "record_hashes.json"
SEEDS = range(101, 111)


def record_hash(preset: str, seed: int) -> str:
    """The SHA-256 (hex) of the canonical JSON of one seeded hand of ``preset``: its record
    with the event log, played by simulate's default bots."""
    from zipai_rules import load_preset
    from zipai_rules.bots import make_bots, play_out
    from zipai_rules.engine.game import Game
    from zipai_rules.records import game_record
    from zipai_rules.settlement import settle
    from zipai_rules.simulate import default_bots

    variant = load_preset(preset)
    names = default_bots(variant.players)
    game = play_out(Game(variant, seed=seed), make_bots(names, seed, variant.players))
    record = game_record(game, settle(game, variant.seats > variant.players), bots=names)
    record["events"] = [e.to_json() for e in game.events]
    text = json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def all_hashes() -> dict[str, str]:
    """``{"<preset>/<seed>": hash}`` for every preset and every seed of :data:`SEEDS`."""
    from zipai_rules.presets import preset_ids

    return {f"{p}/{s}": record_hash(p, s) for p in preset_ids() for s in SEEDS}


def changed() -> list[str]:
    """The keys whose hash differs from the stored file (or is missing from it)."""
    stored = json.loads(HASHES.read_text(encoding="utf-8"))
    now = all_hashes()
    return sorted(k for k in set(stored) | set(now) if stored.get(k) != now.get(k))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--check", action="store_true")
    group.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    if args.write:
        HASHES.write_text(json.dumps(all_hashes(), indent=1, sort_keys=True) + "\n",
                          encoding="utf-8")
        return 0
    diff = changed()
    for key in diff:
        print(key)
    print(f"{len(diff)} records differ")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
