"""The :class:`Game` facade: one hand of zipai under a variant, from the deal to the result.

Chance is only the shuffle: give a ``seed`` (reproducible) or an explicit ``deal``. Every change
goes through :meth:`Game.apply`, which checks the action first and changes nothing when it
raises.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from ..arguments import items_of, of_type
from ..cards import KING, N_KINDS, Card, card_index, cards_arg, check_copies, format_cards
from ..errors import CardError, HandError, IllegalActionError, ZipaiError, brief
from ..variant import Variant, VariantLike, as_variant
from .actions import Action, Event
from .observation import Observation, check_seat, events_for, observe, timeline
from .refusals import Refusal, refusal
from .seeds import ShuffleCommitment, check_seed, commit_seed, fresh_seed
from .state import GameState, Result
from .transition import start, step
from .window import default_answer

Cards = Iterable[Card | int | str] | str


_INT = {int}


def _indices(cards: Cards, argument: str) -> tuple[int, ...]:
    """The card indices of ``cards`` (:func:`cards_arg`); a tuple of indices as it is."""
    if type(cards) is tuple and (not cards or (set(map(type, cards)) == _INT
                                               and 0 <= min(cards) and max(cards) < N_KINDS)):
        return cards  # every item an int (no bool) of a card index, checked in C
    return tuple(cards_arg(cards, argument))


def _wall(cards: Cards) -> tuple[int, ...]:
    return _indices(cards, "wall")


def _aside(cards: Cards) -> tuple[int, ...]:
    return _indices(cards, "aside")


def _hands(hands: Iterable[Cards]) -> tuple[tuple[int, ...], ...]:
    if isinstance(hands, str) or not isinstance(hands, Iterable):
        raise CardError(f"hands: {hands!r:.60} is not a list of hands, one per seat",
                        code="unknown_card")
    return tuple(_indices(h, f"hands[{s}]") for s, h in enumerate(hands))


def _dealer(_deal: object, _field: object, dealer: object) -> None:
    if type(dealer) is not int:
        raise HandError(f"bad deal: dealer {dealer!r:.40} is not a seat number: a "
                        f"{type(dealer).__name__}, not an int", code="bad_deal")


@attrs.frozen(slots=True)
class Deal:
    """An explicit deal: ``hands`` (the cards of each seat, the dealer's last card being the
    亮张), the ``wall`` (next draw first), the ``dealer`` seat, and the cards set ``aside``
    unseen (``deal.set_aside``; empty in most variants). Cards are given as card
    indices, :class:`~zipai_rules.cards.Card` values or tokens, or as one string of tokens
    (``"x1 x2 d3"``); they are kept as tuples of indices, so a deal shares no mutable state
    with its caller. Raises :class:`~zipai_rules.errors.CardError` naming the hand or the wall
    and the position of an item that is not a card, :class:`~zipai_rules.errors.HandError`
    (``bad_deal``) for a ``dealer`` that is not an ``int`` (``True`` and ``1.0`` are not
    seats); whether the seat and the sizes fit a variant is :func:`check_deal`'s question."""

    hands: tuple[tuple[int, ...], ...] = attrs.field(converter=_hands)
    wall: tuple[int, ...] = attrs.field(converter=_wall)
    dealer: int = attrs.field(default=0, validator=_dealer)
    aside: tuple[int, ...] = attrs.field(default=(), converter=_aside)

    def __repr__(self) -> str:
        hands = ", ".join(repr(format_cards(h)) for h in self.hands)
        aside = f", aside={format_cards(self.aside)!r}" if self.aside else ""
        return (f"Deal(hands=[{hands}], wall={format_cards(self.wall)!r}, "
                f"dealer={self.dealer}{aside})")

    def to_json(self) -> dict[str, Any]:
        """``{dealer, hands, wall}`` as token strings, and ``aside`` when cards are set aside."""
        out = {"dealer": self.dealer, "hands": [format_cards(h) for h in self.hands],
               "wall": format_cards(self.wall)}
        if self.aside:
            out["aside"] = format_cards(self.aside)
        return out


def _check_dealer(variant: Variant, dealer: object) -> None:
    if not (isinstance(dealer, int) and not isinstance(dealer, bool)
            and 0 <= dealer < variant.players):
        raise HandError(f"dealer seat {brief(repr(dealer), 40)} outside "
                        f"0..{variant.players - 1}", code="bad_deal")


def deck(variant: VariantLike) -> list[int]:
    """Every card of the variant's deck, as indices in a fixed order. ``variant``: a
    :class:`Variant` or a name (:func:`~zipai_rules.variant.as_variant`)."""
    variant = as_variant(variant)
    return [i for i in range(20) for _ in range(variant.deck.copies)] + [KING] * variant.deck.kings


def shuffled_deal(variant: VariantLike, seed: int, dealer: int = 0) -> Deal:
    """Shuffle the deck with ``random.Random(seed)`` and deal in seat order from the dealer;
    the wall follows, and the last ``deal.set_aside`` cards are set aside unseen.
    Raises :class:`HandError` (``bad_seed``) unless ``seed`` is a valid seed (see
    :mod:`~zipai_rules.engine.seeds`) and (``bad_deal``) for a dealer that is not a seat,
    :class:`~zipai_rules.errors.VariantError` for a bad ``variant``."""
    variant = as_variant(variant)
    _check_dealer(variant, dealer)
    cards = deck(variant)
    random.Random(check_seed(seed)).shuffle(cards)
    return deal_in_order(variant, cards, dealer)


def deal_in_order(variant: Variant, cards: Sequence[int], dealer: int = 0) -> Deal:
    """Deal a whole deck in the order of ``cards`` (card indices) as :func:`shuffled_deal`
    deals its shuffle: each hand in seat order from the ``dealer``, then the wall, the last
    ``deal.set_aside`` cards set aside. The cards are not checked here; ``Game(variant,
    deal=...)`` checks them (:func:`check_deal`)."""
    cards = list(cards)
    hands: list[tuple[int, ...]] = [()] * variant.players
    pos = 0
    for k in range(variant.players):
        s = (dealer + k) % variant.players
        size = variant.deal.hand_size(s, dealer)
        hands[s] = tuple(cards[pos:pos + size])
        pos += size
    end = len(cards) - variant.deal.set_aside
    return Deal(tuple(hands), tuple(cards[pos:end]), dealer, tuple(cards[end:]))


def check_deal(variant: Variant, deal: Deal) -> None:
    """Raise :class:`HandError` (code ``bad_deal``) if the deal does not fit the variant: seat
    count, dealer seat, hand sizes, wall size, cards set aside; :class:`CardError` for bad
    cards or copies. A dealer that is not a seat is reported alone (the hand sizes depend on
    who deals)."""
    for cards in (*deal.hands, deal.wall, deal.aside):
        for c in cards:
            if type(c) is not int or not 0 <= c < N_KINDS:
                card_index(c)
    _dealer(deal, None, deal.dealer)
    if not 0 <= deal.dealer < variant.players:
        raise HandError(f"bad deal: dealer seat {deal.dealer} outside 0..{variant.players - 1}",
                        code="bad_deal")
    problems = []
    if len(deal.hands) != variant.players:
        problems.append(f"{len(deal.hands)} hands for {variant.players} players")
    for s, h in enumerate(deal.hands):
        want = variant.deal.hand_size(s, deal.dealer)
        if len(h) != want:
            problems.append(f"seat {s} holds {len(h)} cards, the variant deals {want}")
    if len(deal.wall) != variant.deal.wall:
        problems.append(f"the wall holds {len(deal.wall)} cards, the variant has "
                        f"{variant.deal.wall}")
    if len(deal.aside) != variant.deal.set_aside:
        problems.append(f"{len(deal.aside)} cards set aside, the variant sets aside "
                        f"{variant.deal.set_aside}")
    if problems:
        raise HandError("bad deal: " + "; ".join(problems), code="bad_deal")
    check_copies([i for h in deal.hands for i in h] + list(deal.wall) + list(deal.aside),
                 variant.deck.copies, variant.deck.kings)


class Game:
    """One hand. ``state`` is the current frozen :class:`GameState`; ``actions`` and
    ``events`` the history. Build with ``Game(variant, seed=7)`` or ``Game(variant, deal=...)``.

    ``seed``: a non-negative ``int`` (:class:`HandError` ``bad_seed`` otherwise); without a
    seed or a deal, a secret 128-bit seed is drawn from :mod:`secrets`. ``self.seed`` is the
    seed that shuffled the deal (``None`` for a deal given without one). ``commit=True`` also
    sets ``self.commitment`` to a :class:`~zipai_rules.engine.seeds.ShuffleCommitment` of the
    seed (publish its ``digest`` before the deal; the game record reveals seed and nonce).

    ``windows=True``: every exposed card opens a claim window that every seat answers at once
    (:mod:`~zipai_rules.engine.window`; :meth:`awaiting`, :meth:`options`,
    :meth:`close_window`), as a table server needs; by default (``False``) the seats are asked
    one at a time, as bots, simulations and the CLI play. For the same answers a hand ends
    the same either way.
    """

    def __init__(self, variant: VariantLike, *, seed: int | None = None, deal: Deal | None = None,
                 dealer: int = 0, commit: bool = False, windows: bool = False) -> None:
        variant = as_variant(variant)
        self.variant = variant
        self.windows = of_type(windows, bool, "windows", "a bool")
        if seed is not None:
            seed = check_seed(seed)
        if deal is None:
            _check_dealer(variant, dealer)
            if seed is None:
                seed = fresh_seed()
            self.deal = shuffled_deal(variant, seed, dealer)
        else:
            self.deal = of_type(deal, Deal, "deal", "a Deal")
        self.seed = seed
        self.commitment: ShuffleCommitment | None = None
        if of_type(commit, bool, "commit", "a bool"):
            if seed is None:
                raise HandError("a shuffle commitment needs a seed, not only a deal",
                                code="bad_commitment")
            self.commitment = commit_seed(seed)
        if deal is not None:  # a deal shuffled here fits the variant by construction
            check_deal(variant, self.deal)
        if deal is not None and seed is not None and \
                shuffled_deal(variant, seed, deal.dealer) != deal:
            raise HandError(f"the deal is not the deal seed {seed} shuffles: give the seed or "
                            "the deal, or both when they agree", code="bad_deal")
        state, events = start(variant, self.deal.hands, self.deal.wall, self.deal.dealer,
                              windows=self.windows)
        self._states: list[GameState] = [state]
        self._events: list[list[Event]] = [events]
        self.actions: list[Action] = []

    def __repr__(self) -> str:
        """``Game(hunan, seed=7, turn 3, seat 1 to act)``; ``dealt`` for a deal given without
        a seed, and ``over: hu by seat 2`` (or ``over: huangzhuang``) once the hand ends."""
        shuffle = "dealt" if self.seed is None else f"seed={self.seed}"
        st = self.state
        if st.result is not None:
            r = st.result
            now = f"over: {r.kind}" + ("" if r.winner is None else f" by seat {r.winner}")
        else:
            now = f"seat {st.actor} to act"
        return f"Game({self.variant.id}, {shuffle}, turn {st.turn}, {now})"

    def _repr_svg_(self) -> str:
        """The table with every card open (:mod:`zipai_rules.svg`), for Jupyter."""
        return self.state._repr_svg_()

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def events(self) -> list[Event]:
        return [e for batch in self._events for e in batch]

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def result(self) -> Result | None:
        return self.state.result

    @property
    def actor(self) -> int | None:
        """The seat to act, or ``None`` when the hand is over."""
        return self.state.actor

    def events_for(self, seat: int) -> tuple[Event, ...]:
        """The events ``seat`` was shown so far: its own whole, the others' redacted by the
        variant's display rules, their declined options left out
        (:func:`~zipai_rules.engine.observation.events_for`). Raises :class:`SeatError`."""
        return events_for(self.variant, self.events, seat)

    def observe(self, seat: int) -> Observation:
        """What ``seat`` sees now, its visible history included
        (:func:`~zipai_rules.engine.observation.observe`). Raises :class:`SeatError`."""
        return observe(self.state, seat, self.events)

    def views(self, seat: int) -> tuple[Observation, ...]:
        """Every observation ``seat`` was shown so far, in order
        (:func:`~zipai_rules.engine.observation.timeline`). Raises :class:`SeatError`."""
        return timeline(self._states, self._events, seat)

    def legal_actions(self) -> tuple[Action, ...]:
        """The actor's legal actions (empty when the hand is over); in a claim window those
        of the first seat, in turn order, that has not answered (:meth:`options` gives any
        seat's)."""
        return self.state.options

    def awaiting(self) -> tuple[int, ...]:
        """The seats whose decision the hand waits for now: in a claim window every seat
        that has not answered, else the seat to act; empty once the hand is over. The host's
        to know: a seat is shown only its own decision."""
        return self.state.awaiting

    def options(self, seat: int) -> tuple[Action, ...]:
        """``seat``'s legal actions now, empty when it has no decision to make. Raises
        :class:`~zipai_rules.errors.SeatError` for a bad seat."""
        return self.state.options_for(check_seat(self.variant, seat))

    def decision(self, seat: int) -> int | None:
        """The id of the decision ``seat`` is asked now (``Observation.decision``), or
        ``None``. Raises :class:`~zipai_rules.errors.SeatError` for a bad seat."""
        return self.state.decision(check_seat(self.variant, seat))

    def check(self, action: Action, by: int | None = None, decision: int | None = None
              ) -> Refusal | None:
        """``None`` if ``action`` is legal now, else why not: a
        :class:`~zipai_rules.engine.refusals.Refusal` with a ``code`` (``not_your_turn``,
        ``not_held``, ``card_locked``, ``chou``, ``nothing_on_offer``, ``claim_not_allowed``,
        ``outranked``, ``no_win`` with the analysis ``reason``, ``bad_plan`` …) and a
        ``message``; ``str(refusal)`` is the message.

        ``by``: the seat that sent the action (a host binds each connection to its seat):
        an action for another seat is refused (``not_your_seat``). ``decision``: the id of
        the decision the action answers (``Observation.decision``): an answer to any other
        than the seat's current one is refused (``stale_decision``). A refusal tells the
        seat nothing its own view does not show."""
        bound = _bound(self.state, action, by, decision)
        return bound if bound is not None else refusal(self.state, action)

    def apply(self, action: Action, by: int | None = None, decision: int | None = None
              ) -> list[Event]:
        """Apply a legal action and the forced moves that follow; return the new events (in
        a claim window, none until the answers decide it). ``by`` and ``decision`` as
        :meth:`check`.

        Raises :class:`IllegalActionError` (the game unchanged) if the action is not legal,
        its ``code`` and message those of :meth:`check`'s refusal.
        """
        state = self._states[-1]
        problem = _bound(state, action, by, decision) if by is not None or \
            decision is not None else None
        if problem is None:
            problem = refusal(state, action)
        if problem is not None:
            raise IllegalActionError(problem.message, code=problem.code)
        state, events = step(state, action)
        self._states.append(state)
        self._events.append(events)
        self.actions.append(action)
        return events

    def close_window(self) -> list[Event]:
        """Close the open claim window at its deadline: every seat that has not answered
        answers its default (:func:`~zipai_rules.engine.window.default_answer`: ``pass``, or
        the 胡 it may not pass); return the events. Raises :class:`IllegalActionError`
        (``no_window``) when no claim window is open."""
        window = self.state.window
        if window is None:
            raise IllegalActionError("no claim window is open", code="no_window")
        events: list[Event] = []
        for s in window.awaiting:
            if self.state.window is None:
                break  # an answer decided it
            events += self.apply(default_answer(self.state.options_for(s)), by=s)
        return events

    def undo(self) -> Action:
        """Take back the last action; returns it. Raises :class:`IllegalActionError` at the
        start of the hand."""
        if not self.actions:
            raise IllegalActionError("nothing to undo", code="nothing_to_undo")
        self._states.pop()
        self._events.pop()
        return self.actions.pop()

    def clone(self) -> Game:
        """An independent copy sharing the immutable history."""
        other = Game.__new__(Game)
        other.variant, other.seed, other.deal = self.variant, self.seed, self.deal
        other.windows = self.windows
        other.commitment = self.commitment
        other._states = list(self._states)
        other._events = list(self._events)
        other.actions = list(self.actions)
        return other


def _bound(state: GameState, action: object, by: object, decision: object) -> Refusal | None:
    """The refusal of an action sent ``by`` a seat for another seat, or answering a
    ``decision`` that is not the seat's current one; ``None`` when neither is given or both
    fit. Raises :class:`~zipai_rules.errors.SeatError` for a ``by`` that is no seat and
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a ``decision`` that is no
    ``int``."""
    if by is None and decision is None:
        return None
    if by is not None:
        check_seat(state.variant, by)
    if decision is not None and type(decision) is not int:
        raise ZipaiError(f"decision: {brief(repr(decision), 40)} is not a decision id (an "
                         f"int), but a {type(decision).__name__}", code="bad_argument")
    if not isinstance(action, Action) or type(action.seat) is not int:
        return None  # refusal() names what is wrong with it
    if by is not None and action.seat != by:
        return Refusal(code="not_your_seat", message=f"seat {by} may not act for seat "
                       f"{action.seat}")
    if decision is not None:
        now = state.decision(action.seat) if 0 <= action.seat < len(state.seats) else None
        if now != decision:
            current = "none" if now is None else str(now)
            return Refusal(code="stale_decision", message=f"decision {decision} is not seat "
                           f"{action.seat}'s decision now ({current})")
    return None


def replay(variant: VariantLike, deal: Deal, actions: Sequence[Action], windows: bool = False
           ) -> Game:
    """Re-play ``actions`` from ``deal`` (a game of claim windows with ``windows``); raises
    :class:`IllegalActionError` naming the first step (1-based) that is not legal,
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a ``deal`` that is no
    :class:`Deal` or ``actions`` that are not a list of :class:`Action` values (naming the
    first that is not)."""
    of_type(deal, Deal, "deal", "a Deal")
    actions = items_of(actions, Action, "actions", "an Action")
    game = Game(variant, deal=deal, windows=windows)
    for k, action in enumerate(actions, 1):
        problem = game.check(action)
        if problem is not None:
            raise IllegalActionError(f"step {k}: {problem}", code="replay_diverged")
        game.apply(action)
    return game
