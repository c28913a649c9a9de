"""zipai_rules: the rules of 字牌 (zipai, 跑胡子 paohuzi) and its regional variants.

The preset registry, the variant file loader and the record readers (input and output) are
imported when first used, so that ``import zipai_rules.analysis`` loads no more than the hand
analysis needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .analysis import Analysis, Decomposition, Group, Wait, analyze, tianhu, waits
from .cards import Card, format_cards, parse_card, parse_cards
from .errors import (
    CardError,
    HandError,
    IllegalActionError,
    MeldError,
    RecordError,
    ReplayError,
    SeatError,
    VariantError,
    ZipaiError,
)
from .melds import Meld, MeldKind, parse_meld
from .variant import Variant

if TYPE_CHECKING:
    from .native import compiled
    from .presets import find_variant, load_preset, preset_ids
    from .records import loads_record, read_record
    from .variant_file import load_variant_file

#: names imported on first use, and their modules
_LAZY = {"find_variant": "presets", "load_preset": "presets", "preset_ids": "presets",
         "load_variant_file": "variant_file", "loads_record": "records",
         "read_record": "records", "compiled": "native"}

__version__ = "0.1.0"

__all__ = [
    "Analysis", "Card", "CardError", "Decomposition", "Group", "HandError",
    "IllegalActionError", "Meld", "MeldError", "MeldKind", "RecordError", "ReplayError",
    "SeatError", "Variant", "VariantError", "Wait",
    "ZipaiError", "analyze", "compiled", "find_variant", "format_cards", "load_preset",
    "load_variant_file", "loads_record", "parse_card", "parse_cards", "parse_meld",
    "preset_ids", "read_record", "tianhu",
    "waits",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])
