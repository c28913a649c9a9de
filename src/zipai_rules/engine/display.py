"""How the other seats see a meld (:func:`display`): the one rule that the seat views
(:mod:`zipai_rules.engine.observation`) and the all-open picture of a state share."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..variant import Variant

if TYPE_CHECKING:
    from ..melds import MeldKind
    from .actions import EventKind

# meld kinds (and the events that lay them down, of the same name) whose display the variant
# chooses (``display.wei`` …); every other meld is shown face up
DISPLAYED = frozenset({"wei", "chou_wei", "ti", "pao"})


def display(variant: Variant, kind: MeldKind | EventKind) -> str:
    """How the other seats see a meld of ``kind`` (or the meld an event of that name lays
    down): ``hidden``, ``one_up`` or ``all_up``."""
    name = kind._value_  # the value itself: ``kind.value`` is a property, read at every meld
    return getattr(variant.display, name) if name in DISPLAYED else "all_up"
