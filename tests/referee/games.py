"""Seeded hands played by the built-in bots through the public API, as records with their events
and what the engine offered at each decision (the referee's input)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

BOTS = ("greedy", "random", "greedy")


def variant_doc(preset: str) -> dict[str, Any]:
    """The preset's data as a plain normalised mapping (its YAML with the schema defaults)."""
    from zipai_rules import load_preset
    from zipai_rules.variant import normalise

    return normalise(load_preset(preset).doc)


def play(preset: str, seed: int) -> tuple[dict[str, Any], dict[int, list[tuple[int, set[str]]]]]:
    """(record with ``events``, decisions) of one seeded hand of ``preset``."""
    from zipai_rules import load_preset
    from zipai_rules.bots import make_bots, play_out, seat_bot_names
    from zipai_rules.engine.game import Game
    from zipai_rules.records import game_record
    from zipai_rules.settlement import settle

    variant = load_preset(preset)
    names = seat_bot_names(BOTS, variant.players)
    decisions: dict[int, list[tuple[int, set[str]]]] = {}

    def before(game: Any) -> None:
        kinds: dict[int, set[str]] = {}
        for a in game.legal_actions():
            kinds.setdefault(a.seat, set()).add(str(a.kind.value if hasattr(a.kind, "value")
                                                    else a.kind))
        decisions.setdefault(len(game.events), []).extend(kinds.items())

    game = play_out(Game(variant, seed=seed), make_bots(names, seed, variant.players),
                    before=before)
    record = game_record(game, settle(game, variant.seats > variant.players), bots=names)
    record["events"] = [e.to_json() for e in game.events]
    return record, decisions


def judge(preset: str, record: Mapping[str, Any],
          decisions: Mapping[int, list[tuple[int, set[str]]]] | None,
          doc: Mapping[str, Any] | None = None) -> tuple[list[Any], int, dict[str, int]]:
    """(disagreements, events checked, skipped checks) of one hand."""
    from .rules import rules_of
    from .settlement import check_settlement
    from .tracker import Referee

    rules = rules_of(doc or variant_doc(preset))
    ref = Referee(rules, record, decisions)
    ref.run()
    check_settlement(ref)
    return ref.out, ref.events_checked, ref.skipped
