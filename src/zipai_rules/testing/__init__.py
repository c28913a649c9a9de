"""Hypothesis strategies and a reusable stateful test for code built on zipai_rules.

Import needs the optional ``hypothesis`` dependency (``pip install "zipai-rules[testing]"``);
nothing else in the package imports this package. docs/testing.md is the guide. The
strategies live in :mod:`~zipai_rules.testing.strategies`, the stateful test in
:mod:`~zipai_rules.testing.machine`; both are re-exported here.

Strategies (each takes the :class:`~zipai_rules.variant.Variant` whose rules it respects):

* :func:`cards`, :func:`hands`, :func:`melds`, :func:`situations`, :func:`winning_hands`;
* :func:`games` (legal mid-game states reached by seeded play), :func:`action_sequences`;
* :func:`variant_documents` (schema-valid variant mappings, for fuzzing tooling).

:class:`ZipaiMachine` is a ``RuleBasedStateMachine`` over one variant; subclass it and set
``variant`` (and optionally override :meth:`ZipaiMachine.check_external` to compare your own
view of the game, e.g. a server's, after every step), or build one with :func:`machine_for`.
"""

from __future__ import annotations

from .machine import ZipaiMachine, machine_for
from .strategies import (
    action_sequences,
    cards,
    games,
    hands,
    melds,
    situations,
    variant_documents,
    winning_hands,
)

__all__ = ["ZipaiMachine", "action_sequences", "cards", "games", "hands",
           "machine_for", "melds", "situations", "variant_documents", "winning_hands"]
