"""Golden records replay unchanged: the same actions on the same deal give the same event log,
result and settlement (tests/golden.py says how the records are made and regenerated)."""

from __future__ import annotations

import json

import pytest

from golden import GOLDEN, SEEDS, differing, replayed
from zipai_rules import preset_ids

FILES = sorted(GOLDEN.glob("*/seed-*.json"))


def test_every_preset_has_its_golden_records():
    for preset in preset_ids():
        have = sorted(p.name for p in (GOLDEN / preset).glob("seed-*.json"))
        assert have == [f"seed-{s:02d}.json" for s in SEEDS], preset


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_record_replays_unchanged(path):
    doc = json.loads(path.read_text("utf-8"))
    got = replayed(doc)
    assert got["result"] == doc["result"]
    assert got["events"] == doc["events"]
    # the wording of the settlement's lines may change (a record written before still
    # replays); every number, item and term must not: the one comparison `golden.py --check`
    # makes too
    assert differing(doc, got) == []
