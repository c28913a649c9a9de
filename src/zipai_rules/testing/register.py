"""Type strategies for hypothesis: ``st.from_type(Meld)``, ``st.builds`` with type hints.

:func:`register_type_strategies` registers, for Hunan (the default preset), strategies for
:class:`~zipai_rules.melds.Meld` (:func:`~zipai_rules.testing.melds`),
:class:`~zipai_rules.engine.actions.Action` (a legal action of a
:func:`~zipai_rules.testing.games` game still being played), :class:`~zipai_rules.variant.Variant`
(:func:`~zipai_rules.testing.variants` of the shipped presets),
:class:`~zipai_rules.testing.Situation` and :class:`~zipai_rules.testing.WinningHand`.
Importing :mod:`zipai_rules.testing` registers them; so does hypothesis itself where
zipai_rules is installed, through the entry point ``[project.entry-points.hypothesis]`` of
pyproject.toml (:func:`_hypothesis_setup_hook`, called when hypothesis is imported).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def register_type_strategies() -> None:
    """Register the type strategies (idempotent: registering again replaces them)."""
    from hypothesis import strategies as st

    from ..engine.actions import Action
    from ..melds import Meld
    from ..presets import load_preset
    from ..variant import Variant
    from .strategies import (
        Situation,
        WinningHand,
        games,
        melds,
        situations,
        variants,
        winning_hands,
    )

    def action(game: Any) -> st.SearchStrategy[Action]:
        return st.sampled_from(game.legal_actions())

    made: dict[type, Callable[[], st.SearchStrategy[Any]]] = {
        Meld: lambda: melds("hunan"),
        Action: lambda: games("hunan", max_steps=40, finished=False).flatmap(action),
        Variant: lambda: variants(mutated=False),
        Situation: lambda: situations("hunan"),
        WinningHand: lambda: winning_hands(load_preset("hunan")),
    }
    for kind, build in made.items():
        # built when first asked for (st.from_type calls it with the type), not on import
        st.register_type_strategy(kind, _lazy(build))


def _lazy(build: Callable[[], Any]) -> Callable[[type], Any]:
    """A type-strategy function that builds the strategy when hypothesis asks for it."""
    return lambda _type: build()


def _hypothesis_setup_hook() -> None:
    """The hypothesis entry point (pyproject.toml): registers the type strategies."""
    register_type_strategies()


__all__ = ["register_type_strategies"]
