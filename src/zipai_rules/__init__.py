"""zipai_rules: the rules of 字牌 (zipai, 跑胡子 paohuzi) and its regional variants."""

from .analysis import Analysis, Decomposition, Group, Wait, analyze, tianhu, waits
from .cards import Card, format_cards, parse_card, parse_cards
from .errors import (CardError, HandError, IllegalActionError, MeldError, RecordError,
                     ReplayError, SeatError, VariantError, ZipaiError)
from .loader import load_variant_file
from .melds import Meld, MeldKind, parse_meld
from .presets import find_variant, load_preset, preset_ids
from .variant import Variant

__version__ = "0.1.0"

__all__ = [
    "Analysis", "Card", "CardError", "Decomposition", "Group", "HandError",
    "IllegalActionError", "Meld", "MeldError", "MeldKind", "RecordError", "ReplayError",
    "SeatError", "Variant", "VariantError", "Wait",
    "ZipaiError", "analyze", "find_variant", "format_cards", "load_preset",
    "load_variant_file", "parse_card", "parse_cards", "parse_meld", "preset_ids", "tianhu",
    "waits",
]
