"""Every preset's full records over a fixed set of seeds, played by the bots, hash as stored
(tests/record_hashes.py): a change meant to keep behaviour keeps every game, bots included."""

from __future__ import annotations

import json

import pytest

from record_hashes import HASHES, SEEDS, record_hash
from zipai_rules.presets import preset_ids

STORED = json.loads(HASHES.read_text(encoding="utf-8"))


def test_every_preset_and_seed_is_stored() -> None:
    assert set(STORED) == {f"{p}/{s}" for p in preset_ids() for s in SEEDS}


@pytest.mark.parametrize("preset", preset_ids())
def test_records_hash_as_stored(preset: str) -> None:
    got = {s: record_hash(preset, s) for s in SEEDS}
    assert got == {s: STORED[f"{preset}/{s}"] for s in SEEDS}
