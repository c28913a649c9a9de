"""What a seat can work out from its own view: the 胡息 on the table, the 胡息 its hand holds,
its waits (听牌) with the 胡息 each gives and whether any copy of the card is still unseen,
and the count of unseen cards of each kind.

:func:`hints` reads one :class:`~zipai_rules.engine.observation.Observation` and nothing else
(never the game's state), so two hands that differ only in cards hidden from the seat give
the same hints. Each number comes from the library's own rules: a meld's 胡息 from
:func:`~zipai_rules.drawing.seen_huxi` (:meth:`Variant.meld_huxi` of a meld whose kind and
size show), the waits from :func:`~zipai_rules.analysis.waits` (the engine's win decision,
:func:`~zipai_rules.analysis.win_verdict`), the hand's 胡息 from the variant's exact search
(:func:`~zipai_rules.analysis.searcher`) with every 坎 kept whole, as :func:`analyze`
counts it.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from .analysis import encode, searcher, waits
from .cards import KING, N_KINDS, indices_of
from .drawing import seen_huxi
from .engine.actions import ActionKind
from .engine.observation import Observation, SeenMeld
from .errors import ZipaiError
from .melds import CHI_SHAPES, Meld, MeldKind
from .variant import Variant
from .vocab import Source

#: the order the waits' sources are listed in
_SOURCES = (Source.SELF, Source.DRAW, Source.DISCARD)


@attrs.frozen(slots=True)
class WaitHint:
    """A card that would win: its ``card`` index, the 胡息 it gives from each source that
    allows the win (``huxi``: ``(source, 胡息)`` pairs, in the order self, draw, discard),
    and how many of its copies the seat has not seen (``unseen``); ``dead`` when none."""

    card: int
    huxi: tuple[tuple[str, int], ...]
    unseen: int

    @property
    def dead(self) -> bool:
        """Every copy of the card is seen: it cannot come."""
        return self.unseen == 0


@attrs.frozen(slots=True)
class Hints:
    """What one seat can work out from its view (:func:`hints`).

    * ``table_huxi``: per seat, the 胡息 of its table melds whose kind and size show to this
      seat (all of its own); ``hidden_melds``: per seat, how many melds show too little to
      count (a face-down 偎);
    * ``hand_huxi``: the 胡息 of this seat's concealed hand at best as it lies now (each 坎
      whole, the other cards in the melds worth most, cards in none counting 0);
      ``hand_melds``: those melds;
    * ``waits``: with no discard owed, the cards that would win (:class:`WaitHint`), in card
      order; ``after_discard``: with a discard owed, ``(card, waits)`` for each discard that
      leaves the hand ready;
    * ``unseen``: per kind (20 kinds, then the 王), the copies this seat has not seen: not in
      its hand, on any table face up (or known by the meld's kind), in a discard or on offer.
    """

    seat: int
    table_huxi: tuple[int, ...]
    hidden_melds: tuple[int, ...]
    hand_huxi: int
    hand_melds: tuple[Meld, ...]
    waits: tuple[WaitHint, ...]
    after_discard: tuple[tuple[int, tuple[WaitHint, ...]], ...]
    unseen: tuple[int, ...]


def hints(variant: Variant, obs: Observation) -> Hints:
    """The hints of ``obs`` (one seat's view of a game of ``variant``). Raises
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a view of another variant."""
    if obs.variant_id is not None and obs.variant_id != variant.id:
        raise ZipaiError(f"the view is of {obs.variant_id}, not {variant.id}",
                         code="bad_argument")
    table, hidden = [], []
    for melds in obs.melds:
        values = [seen_huxi(variant, m.kind, m.cards, m.hidden) for m in melds]
        table.append(sum(v for v in values if v is not None))
        hidden.append(sum(1 for v in values if v is None))
    unseen = unseen_counts(variant, obs)
    own = own_melds(obs)
    hand_huxi, hand_melds = _hand_huxi(variant, obs.hand)
    ready: tuple[WaitHint, ...] = ()
    after: list[tuple[int, tuple[WaitHint, ...]]] = []
    discards = sorted({a.card for a in obs.options
                       if a.kind == ActionKind.DISCARD and a.card is not None})
    if discards:
        for card in discards:
            hand = list(obs.hand)
            hand[card] -= 1
            found = _waits(variant, hand, own, unseen)
            if found:
                after.append((card, found))
    else:
        ready = _waits(variant, obs.hand, own, unseen)
    return Hints(obs.seat, tuple(table), tuple(hidden), hand_huxi, hand_melds, ready,
                 tuple(after), unseen)


def own_melds(obs: Observation) -> tuple[Meld, ...]:
    """The seat's own table melds (it sees them whole) as :class:`Meld` values."""
    return tuple(Meld(m.kind, m.cards) for m in obs.melds[obs.seat] if m.kind is not None)


def unseen_counts(variant: Variant, obs: Observation) -> tuple[int, ...]:
    """Per kind (20 kinds, then the 王), the copies of the deck the seat has not seen: not in
    its hand, on a table (a face-down card of a meld of one card's copies, 偎/提/跑 with one
    card up, is known by it), in a discard, on offer. Never below 0."""
    seen = list(obs.hand[:N_KINDS])
    for melds in obs.melds:
        for m in melds:
            for c in _known_cards(variant, m):
                seen[c] += 1
    for pile in obs.discards:
        for c in pile:
            seen[c] += 1
    if obs.pending is not None:
        seen[obs.pending[0]] += 1
    copies = [variant.deck.copies] * 20 + [variant.deck.kings]
    return tuple(max(n - s, 0) for n, s in zip(copies, seen, strict=True))


def _known_cards(variant: Variant, meld: SeenMeld) -> list[int]:
    """The cards of a seen meld the viewer knows: its face-up cards, and its face-down ones
    where the kind says they are copies of the card shown (no 王 in the deck to stand in)."""
    cards = list(meld.cards)
    if meld.hidden and cards and meld.kind is not None and meld.kind not in CHI_SHAPES \
            and not variant.deck.kings and cards[0] != KING:
        cards += [cards[0]] * meld.hidden
    return cards


def _hand_huxi(variant: Variant, hand: Sequence[int]) -> tuple[int, tuple[Meld, ...]]:
    """The concealed hand's 胡息 at best now: each 坎 whole (a four held, a dealt 提 kept in
    the hand, as its 提), the rest in the melds of the exact search worth most, the 王 and
    cards in no meld counting 0."""
    counts = list(hand[:20]) + [0]
    melds = []
    for c in range(20):
        if counts[c] >= 3:
            melds.append(Meld(MeldKind.TI if counts[c] == 4 else MeldKind.KAN,
                              (c,) * counts[c]))
            counts[c] = 0
    found = searcher(variant).best(encode(counts), 0, partial=True)
    if found is not None:
        melds += [m for m in found[1] if variant.meld_huxi(m)]
    return sum(variant.meld_huxi(m) for m in melds), tuple(melds)


def _waits(variant: Variant, hand: Sequence[int], table: tuple[Meld, ...],
           unseen: Sequence[int]) -> tuple[WaitHint, ...]:
    """The cards that would win for ``hand`` (21 counts) and ``table``, from each source the
    variant allows (:func:`~zipai_rules.analysis.waits`); none for a hand no rule reads
    (the analysis refuses it)."""
    by_card: dict[int, list[tuple[str, int]]] = {}
    for source in _SOURCES:
        if source not in variant.win.sources:
            continue
        try:
            found = waits(variant, indices_of(hand), list(table), source)
        except ZipaiError:
            return ()
        for w in found:
            by_card.setdefault(w.card, []).append((str(source), w.huxi))
    return tuple(WaitHint(c, tuple(by_card[c]), unseen[c]) for c in sorted(by_card))
