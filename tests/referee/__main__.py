"""Run the referee over N seeded bot games per preset and print what it found::

    PYTHONPATH=src:tests python -m referee --games 1000 [--presets hunan,guilin] [--seed 1]

One line per preset: games, events checked, disagreements by kind (``kind×count``), and the
checks skipped because the referee does not model them (``skipped kind×count``). With
``--show K`` the first K disagreements of each preset are printed with their seed and event."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any

from .games import judge, play, variant_doc


def run_preset(preset: str, games: int, seed: int) -> dict[str, Any]:
    doc = variant_doc(preset)
    kinds: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    events = 0
    first: list[str] = []
    for k in range(seed, seed + games):
        record, decisions = play(preset, k)
        out, n, skip = judge(preset, record, decisions, doc)
        events += n
        skipped.update(skip)
        for d in out:
            kinds[d.kind] += 1
            first.append(f"seed {k} event {d.event}: {d.kind}: {d.detail}")
    return {"preset": preset, "games": games, "events": events, "kinds": dict(kinds),
            "skipped": dict(skipped), "first": first}


def main(argv: list[str] | None = None) -> int:
    from zipai_rules.presets import preset_ids

    ap = argparse.ArgumentParser(prog="python -m referee")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--presets", default="")
    ap.add_argument("--show", type=int, default=0)
    args = ap.parse_args(argv)
    presets = args.presets.split(",") if args.presets else list(preset_ids())
    total = 0
    for p in presets:
        got = run_preset(p, args.games, args.seed)
        found = " ".join(f"{k}×{n}" for k, n in sorted(got["kinds"].items())) or "none"
        skip = " ".join(f"{k}×{n}" for k, n in sorted(got["skipped"].items()))
        print(f"{p:17} games {got['games']:5}  events {got['events']:8}  disagreements: {found}"
              + (f"  (skipped {skip})" if skip else ""))
        for line in got["first"][:args.show]:
            print("    " + line)
        total += sum(got["kinds"].values())
        sys.stdout.flush()
    print(f"total disagreements: {total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
