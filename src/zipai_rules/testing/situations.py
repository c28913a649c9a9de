"""Game states built from a chosen situation: "seat 0 holds this 坎 and is offered this card"
(:func:`offered_states`), written as a position (:mod:`zipai_rules.engine.position`) and
read back, so every state is one the engine's own rules complete: the options, the claim
tier and the seats still to ask are the engine's."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from ..cards import KING, counts_of, format_cards, parse_indices
from ..engine.actions import Action, ActionKind
from ..engine.claims import forced_pao, tier_options, tier_plans
from ..engine.game import deck
from ..engine.position import POSITION_FORMAT, position
from ..engine.state import GameState, SeatState
from ..engine.transition import step
from ..errors import ZipaiError
from ..variant import Variant, VariantLike
from ..vocab import Phase, Source
from .strategies import StrategyArgumentError, _named, _variant


def _cards(value: Any, name: str) -> list[int]:
    """Card tokens (``"d5 d5 x2"``) or card indices ``0..20`` (ints, never bools, bytes or
    floats); anything else raises :class:`StrategyArgumentError`."""
    if isinstance(value, str):
        try:
            return parse_indices(value)
        except ZipaiError as exc:
            raise StrategyArgumentError(f"{name}: {exc}") from None
    if isinstance(value, (bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        raise StrategyArgumentError(f"{name} is card tokens or a list of card indices, "
                                    f"not {value!r}")
    out = list(value)
    for c in out:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= KING:
            raise StrategyArgumentError(f"{name}: a card index is an int 0..{KING}, not {c!r}")
    return out


def _draw_offered(draw: st.DrawFn, v: Variant, seat: int, holds: tuple[int, ...], card: int,
                  source: str, by: int) -> GameState:
    n, size = v.players, v.deal.other_hand
    pool = deck(v)
    for c in (*holds, card):
        pool.remove(c)
    # a seeded shuffle: it shrinks to seed 0 in a few steps, where a permutation of the
    # deck takes hundreds of slow ones
    perm = list(pool)
    random.Random(draw(st.integers(0, 2**32 - 1), label="deal seed")).shuffle(perm)
    earlier = draw(st.integers(0, min(8, v.deal.wall)), label="earlier draws")
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[seat] = list(holds)
    rest: list[int] = []
    for c in perm:  # each card to the first seat with room that it leaves without a 提
        for s in range(n):
            h = hands[s]
            if len(h) < size and h.count(c) < 3 and (c == KING or h.count(c) < 3) and not (
                    source == "draw" and s == by and c == card and h.count(c) >= 1):
                h.append(c)
                break
        else:
            rest.append(c)
    assume(all(len(h) == size for h in hands))
    discards: list[list[int]] = [[] for _ in range(n)]
    for k in range(earlier):
        discards[k % n].append(rest.pop(0))
    seats, states = [], []
    for s in range(n):
        marks = frozenset(discards[s]) if v.chou.own_discards else frozenset()
        states.append(SeatState(counts_of(hands[s]), discards=tuple(discards[s]),
                                chou_chi_cards=marks, chou_peng_cards=marks, own_chou=marks))
        d: dict[str, Any] = {"hand": format_cards(hands[s])}
        if discards[s]:
            d["discards"] = format_cards(discards[s])
            if v.chou.own_discards:
                mine = format_cards(sorted(set(discards[s])))
                d.update(chou_chi_cards=mine, chou_peng_cards=mine, own_chou=mine)
        seats.append(d)
    tiers = v.claims.priority
    tier = next((k for k in range(len(tiers))
                 if tier_options(v, tuple(states), tiers[k], card, source, by)), None)
    assume(tier is not None)
    assert tier is not None
    cands, plans = tier_plans(v, tuple(states), tiers[tier], card, source, by)
    assume(forced_pao(v, cands, plans) is None)  # a forced 跑 is made, not offered
    doc = {"variant": v.id, "dealer": 0, "turn": 2 * earlier + 1, "phase": "respond",
           "actor": cands[0][0], "wall": format_cards(rest), "seats": seats,
           "pending": {"card": format_cards([card]), "source": source, "by": by,
                       "tier": tier}}
    state = position(v, POSITION_FORMAT + " " + json.dumps(doc))
    while state.phase == Phase.RESPOND and state.actor != seat and state.pending is not None \
            and state.pending.card == card:
        pass_ = Action(ActionKind.PASS, state.acting_seat)
        assume(pass_ in state.options)  # a forced 胡 of another seat comes first
        state = step(state, pass_)[0]
    assume(state.phase == Phase.RESPOND and state.actor == seat and state.pending is not None
           and state.pending.card == card)
    return state


_offered = _named("offered_states", _draw_offered)


def offered_states(variant: VariantLike, holds: Any, card: Any, *, seat: int = 0,
                   source: str = "discard", by: int | None = None
                   ) -> st.SearchStrategy[GameState]:
    """A :class:`~zipai_rules.engine.state.GameState` in which seat ``seat`` holds the cards
    ``holds`` (card tokens, ``"d5 d5 d5 x2"``, or indices) among its concealed cards and is
    asked about ``card`` exposed by seat ``by`` (default: the seat before it) from ``source``
    (``discard`` or ``draw``): the other cards dealt from a seeded shuffle of the rest of the
    deck (every hand the resting size, none with four of a kind, the drawer holding no pair of
    a drawn card, which would make its 偎), up to eight earlier cards in the discard areas
    (臭 for their seat under ``chou.own_discards``), dealer seat 0. The options, the claim
    tier and the seats still to ask are the engine's (read back from a position,
    :func:`~zipai_rules.engine.position.position`); seats asked before ``seat`` have passed.
    Step it with :func:`zipai_rules.engine.transition.step`. The deal is a seeded shuffle:
    shrinks towards seed 0 and no earlier discards.

    Raises :class:`StrategyArgumentError` when built for a seat outside the table, ``by``
    equal to ``seat`` for a discard, cards beyond the deck, four of a kind or more than a hand
    in ``holds``, a drawn 王 or a draw under ``claims.own_draw: kept`` (never offered), or a
    situation in which the seat, holding only ``holds``, has no claim on ``card`` or must
    跑 it."""
    v = _variant(variant)
    n = v.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise StrategyArgumentError(f"seat is a seat 0..{n - 1}, not {seat!r}")
    by = (seat - 1) % n if by is None else by
    if isinstance(by, bool) or not isinstance(by, int) or not 0 <= by < n:
        raise StrategyArgumentError(f"by is a seat 0..{n - 1}, not {by!r}")
    if source not in (Source.DISCARD, Source.DRAW):
        raise StrategyArgumentError(f"source is discard or draw, not {source!r}")
    if source == Source.DISCARD and by == seat:
        raise StrategyArgumentError("a seat is not offered its own discard")
    held = _cards(holds, "holds")
    offered = _cards([card] if isinstance(card, int) else card, "card")
    if len(offered) != 1:
        raise StrategyArgumentError(f"card is one card, not {card!r}")
    c = offered[0]
    if source == Source.DRAW and (c == KING or v.claims.kept):
        raise StrategyArgumentError("a drawn 王, or a draw kept unseen, is never offered")
    counts = counts_of(held + [c])
    pool = counts_of(deck(v))
    if any(counts[i] > pool[i] for i in range(KING + 1)) or len(held) > v.deal.other_hand \
            or any(counts_of(held)[i] >= 4 for i in range(KING)):
        raise StrategyArgumentError(f"holds {format_cards(held)} and {format_cards([c])}: "
                                    "more than the deck or a hand holds, or four of a kind")
    if source == Source.DRAW and by == seat and counts_of(held)[c] >= 2:
        raise StrategyArgumentError("a drawn card the drawer holds twice makes its 偎")
    alone = tuple(SeatState(counts_of(held)) if s == seat else SeatState(counts_of([]))
                  for s in range(n))
    for tier in v.claims.priority:
        cands, plans = tier_plans(v, alone, tier, c, source, by)
        if any(s == seat for s, _ in cands):
            if forced_pao(v, cands, plans) is not None:
                raise StrategyArgumentError(f"seat {seat} holding {format_cards(held)} must "
                                            f"跑 {format_cards([c])}: nothing is offered")
            break
    else:
        raise StrategyArgumentError(f"seat {seat} holding {format_cards(held)} has no claim "
                                    f"on {format_cards([c])} from a {source} by seat {by}")
    return _offered(v, seat, tuple(held), c, Source(source), by)


__all__ = ["offered_states"]
