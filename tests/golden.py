"""Golden game records: seeded hands played by the built-in bots, stored with their full event
log under ``tests/data/golden/<preset>/seed-NN.json``.

Each file is a ``zipai-log/1`` record (deal, actions, result, settlement) plus ``events``: every
event of the hand as :meth:`Event.to_json`. ``tests/test_golden.py`` replays the actions on the
preset as it is now and compares the events, the result and the settlement. They guard
behaviour, not bytes: the variant's content hash is stored for information only.

When a change alters a rule on purpose, regenerate just the affected records and say in the
commit which and why::

    python tests/golden.py hunan yongzhou        # rewrite the records of these presets
    python tests/golden.py hunan --seed 2        # rewrite one record
    python tests/golden.py --check               # list the records that no longer replay
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "data" / "golden"
SEEDS = range(1, 21)
BOTS = ("greedy", "random", "greedy")


def golden_path(preset: str, seed: int) -> Path:
    return GOLDEN / preset / f"seed-{seed:02d}.json"


def play(preset: str, seed: int) -> dict[str, Any]:
    """The golden document of one seeded hand of ``preset``, played now."""
    from zipai_rules import load_preset
    from zipai_rules.bots import make_bots, play_out, seat_bot_names
    from zipai_rules.engine.game import Game
    from zipai_rules.records import game_record
    from zipai_rules.settlement import settle

    variant = load_preset(preset)
    names = seat_bot_names(BOTS, variant.players)
    game = play_out(Game(variant, seed=seed), make_bots(names, seed, variant.players))
    record = game_record(game, settle(game, variant.seats > variant.players), bots=names)
    record["events"] = [e.to_json() for e in game.events]
    return record


def replayed(doc: dict[str, Any]) -> dict[str, Any]:
    """Replay a golden document's deal and actions on the preset as it is now; return the
    ``events``, ``result`` and ``settlement`` it gives. The result carries its decomposition
    as records write it, unless the document was written before records carried one."""
    from zipai_rules import load_preset
    from zipai_rules.engine.game import replay
    from zipai_rules.records import action_from_json, deal_from_json, result_json
    from zipai_rules.settlement import settle

    variant = load_preset(doc["variant"]["id"])
    game = replay(variant, deal_from_json(doc["deal"]),
                  [action_from_json(a) for a in doc["actions"]])
    result = None if game.result is None else result_json(game.result)
    if result is not None and "decomposition" not in (doc.get("result") or {}):
        del result["decomposition"]
    return {"events": [e.to_json() for e in game.events],
            "result": result,
            "settlement": settle(game, doc["sitting_out"]).to_json()}


def differing(doc: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """The parts of a replay (:func:`replayed`) that differ from the golden document: the
    events and the result exactly; the settlement by every number, item and term, not by the
    wording of its lines (a record written before a wording change still replays)."""
    from zipai_rules.settlement import comparable

    return [k for k in got if (comparable(got[k]) != comparable(doc[k]) if k == "settlement"
                               else got[k] != doc[k])]


def write(preset: str, seeds: list[int] | None = None) -> None:
    from zipai_rules.records import dumps_record

    for seed in seeds or SEEDS:
        path = golden_path(preset, seed)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps_record(play(preset, seed)), "utf-8")


def main(argv: list[str] | None = None) -> int:
    from zipai_rules import preset_ids

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("presets", nargs="*", help="presets to rewrite (default: none)")
    parser.add_argument("--all", action="store_true", help="rewrite every preset's records")
    parser.add_argument("--check", action="store_true", help="list records that differ")
    parser.add_argument("--seed", type=int, action="append",
                        help="rewrite only this seed's record (repeatable)")
    args = parser.parse_args(argv)
    if args.check:
        bad = 0
        for path in sorted(GOLDEN.glob("*/seed-*.json")):
            doc = json.loads(path.read_text("utf-8"))
            try:
                got = replayed(doc)
            except Exception as exc:  # a report, not a test: name every failure
                print(f"{path.relative_to(HERE)}: {exc}")
                bad += 1
                continue
            diff = differing(doc, got)
            if diff:
                print(f"{path.relative_to(HERE)}: {', '.join(diff)} differ")
                bad += 1
        print(f"{bad} record(s) differ")
        return 1 if bad else 0
    for preset in (preset_ids() if args.all else args.presets):
        write(preset, args.seed)
        print(f"wrote {len(args.seed or SEEDS)} record(s) of {preset}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
