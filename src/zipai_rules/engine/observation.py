"""What one seat may see: its own hand, every shown meld and discard, counts of hidden cards.

Meld display follows the variant (``display``): a hidden 偎 shows the others only its kind and
three face-down cards; ``one_up`` shows one card; a 提 may be hidden, one up, or all up. The
seat always sees its own melds in full.
"""

from __future__ import annotations

import attrs

from ..cards import format_cards
from ..melds import Meld, MeldKind
from .state import GameState

_DISPLAY_KEY = {MeldKind.WEI: "wei", MeldKind.CHOU_WEI: "chou_wei", MeldKind.TI: "ti",
                MeldKind.PAO: "pao"}


@attrs.frozen(slots=True)
class SeenMeld:
    """A table meld as a seat sees it: ``kind`` (``None`` when even the kind is hidden),
    the face-up ``cards`` and the number of ``hidden`` cards."""

    kind: MeldKind | None
    cards: tuple[int, ...]
    hidden: int = 0

    def to_json(self) -> dict:
        return {"kind": None if self.kind is None else self.kind.value,
                "cards": format_cards(self.cards).split(), "hidden": self.hidden}


@attrs.frozen(slots=True)
class Observation:
    """One seat's view: ``seat``; its concealed ``hand`` (21 counts); ``melds`` per seat as
    :class:`SeenMeld`; ``discards`` per seat; ``hidden_cards`` per seat (concealed cards);
    ``wall`` (cards left); the card on offer (``pending``: card, source, by) if any;
    ``actor``; ``phase``; its own 臭 sets."""

    seat: int
    hand: tuple[int, ...]
    melds: tuple[tuple[SeenMeld, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    hidden_cards: tuple[int, ...]
    wall: int
    pending: tuple[int, str, int] | None
    actor: int | None
    phase: str
    chou_chi: frozenset[int]
    chou_peng: frozenset[int]

    def to_json(self) -> dict:
        return {"seat": self.seat, "hand": format_cards(
            [i for i, n in enumerate(self.hand) for _ in range(n)]).split(),
            "melds": [[m.to_json() for m in ms] for ms in self.melds],
            "discards": [format_cards(d).split() for d in self.discards],
            "hidden_cards": list(self.hidden_cards), "wall": self.wall,
            "pending": None if self.pending is None else {
                "card": format_cards([self.pending[0]]), "source": self.pending[1],
                "by": self.pending[2]},
            "actor": self.actor, "phase": self.phase}


def seen(meld: Meld, display: str) -> SeenMeld:
    """A meld as the other seats see it under a display rule (``hidden``, ``one_up``,
    ``all_up``)."""
    if display == "hidden":
        return SeenMeld(meld.kind, (), len(meld.cards))
    if display == "one_up":
        return SeenMeld(meld.kind, meld.cards[:1], len(meld.cards) - 1)
    return SeenMeld(meld.kind, meld.cards, 0)


def observe(state: GameState, seat: int) -> Observation:
    """The observation of ``seat`` (0-based) in ``state``. A pending card drawn by a seat is
    shown to all (hidden draws never become pending)."""
    v = state.variant
    melds = []
    for s, st in enumerate(state.seats):
        if s == seat:
            melds.append(tuple(SeenMeld(m.kind, m.cards) for m in st.melds))
        else:
            melds.append(tuple(seen(m, v.display.get(_DISPLAY_KEY.get(m.kind, ""), "all_up"))
                               for m in st.melds))
    p = state.pending
    me = state.seats[seat]
    return Observation(
        seat, me.hand, tuple(melds), tuple(st.discards for st in state.seats),
        tuple(sum(st.hand) for st in state.seats), len(state.wall),
        None if p is None else (p.card, p.source, p.by), state.actor, state.phase,
        me.chou_chi, me.chou_peng)
