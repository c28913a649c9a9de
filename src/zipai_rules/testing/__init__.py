"""Hypothesis strategies and a reusable stateful test for code built on zipai_rules.

Import needs the optional ``hypothesis`` dependency, the ``[testing]`` extra (installed from a
checkout or a built wheel: :func:`zipai_rules.errors.install_hint`);
nothing else in the package imports this package. docs/testing.md is the guide. The
strategies live in :mod:`~zipai_rules.testing.strategies`, the stateful test in
:mod:`~zipai_rules.testing.machine`; both are re-exported here.

Strategies (each takes the :class:`~zipai_rules.variant.Variant` whose rules it respects):

* :func:`cards`, :func:`hands`, :func:`melds`, :func:`situations`, :func:`winning_hands`,
  :func:`winning_situations`;
* :func:`deals` (the deal of seed 0 with a few swaps, shrinking to that deal;
  :func:`swapped_deal` rebuilds one), :func:`games`
  (legal mid-game states reached by seeded play), :func:`game_states` (states
  with a claim, a 胡, a 比 choice or a forced move on offer), :func:`observations`,
  :func:`action_sequences`;
* :func:`variants` and :func:`variant_documents` (schema-valid variant mappings, for
  fuzzing tooling);
* :func:`offered_states` (a state from a chosen situation: a seat holding given cards asked
  about a card).

Every strategy takes the variant as a :class:`~zipai_rules.variant.Variant` or by name (a
preset id, name or alias, or a variant file's path). Importing this package registers type
strategies (:func:`register_type_strategies`): ``st.from_type(Meld)`` and ``st.builds`` with
type hints draw Hunan melds, actions, variants, situations and winning hands.

:class:`ZipaiMachine` is a ``RuleBasedStateMachine`` over one variant; subclass it and set
``variant`` (and optionally override :meth:`ZipaiMachine.check_external` to compare your own
view of the game, e.g. a server's, after every step), or build one with :func:`machine_for`.

Differential oracles (:mod:`~zipai_rules.testing.oracles`): :func:`engine_options` (any
seat's options on an exposed card, asked or not) and :func:`win_decision_problems` (``analyze``
against the engine's 胡 offers); a settlement oracle (:mod:`~zipai_rules.testing.payments`):
:func:`settlement_oracle` (a finished hand's payments read again from the variant's scoring
data, sharing no code with the settlement) and :func:`settlement_problems` (your payment code
against it).
"""

from __future__ import annotations

try:
    import hypothesis  # noqa: F401
except ModuleNotFoundError as exc:  # pragma: no cover - exercised in a subprocess
    from ..errors import install_hint

    raise ModuleNotFoundError(
        "zipai_rules.testing needs hypothesis, which zipai_rules does not install: "
        + install_hint("testing"), name=exc.name) from exc

from .machine import ZipaiMachine, machine_for
from .oracles import engine_options, win_decision_problems
from .payments import (
    ExpectedSettlement,
    OracleRefusal,
    covers,
    settlement_oracle,
    settlement_problems,
)
from .register import register_type_strategies
from .situations import offered_states
from .strategies import (
    OFFERS,
    DrawnGame,
    Situation,
    StrategyArgumentError,
    WinningHand,
    action_sequences,
    cards,
    deals,
    game_states,
    games,
    hands,
    melds,
    observations,
    situations,
    swapped_deal,
    variant_documents,
    variants,
    winning_hands,
    winning_situations,
)

register_type_strategies()  # st.from_type(Meld), Action, Variant, Situation, WinningHand

__all__ = ["OFFERS", "DrawnGame", "ExpectedSettlement", "OracleRefusal", "Situation",
           "StrategyArgumentError", "WinningHand", "ZipaiMachine", "action_sequences", "cards",
           "covers", "deals", "engine_options", "game_states", "games", "hands", "machine_for",
           "melds", "observations", "offered_states", "register_type_strategies",
           "settlement_oracle", "settlement_problems", "situations", "swapped_deal",
           "variant_documents",
           "variants", "win_decision_problems", "winning_hands", "winning_situations"]
