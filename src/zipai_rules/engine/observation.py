"""What one seat may see: its own hand, every shown meld and discard, counts of hidden cards,
the events the rules show it, and its own decisions, never another seat's.

Meld display follows the variant (``display``): a hidden 偎 shows the others only its kind and
three face-down cards; ``one_up`` shows one card; a 提 may be hidden, one up, or all up. The
seat always sees its own melds in full. The same rule redacts events (:class:`Redactor`): the
others learn that a seat made a face-down 偎, not of which card. Under
``display.chi_own_draw: hidden`` a 吃 of one's own draw lies face down (neither kind nor cards);
under ``deal.single_dealt_ti: hand`` a single dealt 提 is not seen at all, its cards counted
among the seat's concealed ones, until the seat's next 提 or 跑 lays it down. A declined
option (``pass``, a 臭 mark) is told to no other seat, and neither is whose decision the
table is waiting for: another seat's turn shows as ``phase == "wait"``. What a seat can still
infer from the rules themselves is listed in ``docs/observations.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..arguments import items_of, of_type
from ..cards import format_cards, indices_of, parse_indices
from ..errors import RecordError, SeatError, ZipaiError
from ..melds import Meld, MeldKind
from ..variant import Variant, VariantLike, as_variant
from ..vocab import Phase, ResultKind, Source
from .actions import Action, Event, EventKind, card_from_json
from .display import DISPLAYED
from .display import display as display  # how the other seats see a meld, re-exported
from .state import GameState, Result, SeatState

if TYPE_CHECKING:
    from ..drawing import TablePicture

# a declined claim or win (and the 臭 it leaves) is known only to the seat that declined it
_PRIVATE_EVENTS = frozenset({EventKind.PASS, EventKind.CHOU})

WAIT = Phase.WAIT
_TI = MeldKind.TI  # read once: an enum member read from its class costs more than the test


@attrs.frozen(slots=True)
class SeenMeld:
    """A table meld as a seat sees it: ``kind`` (``None`` when even the kind is hidden),
    the face-up ``cards`` and the number of ``hidden`` cards."""

    kind: MeldKind | None
    cards: tuple[int, ...]
    hidden: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"kind": None if self.kind is None else self.kind.value,
                "cards": format_cards(self.cards).split(), "hidden": self.hidden}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeenMeld:
        """The seen meld of one :meth:`to_json` dict."""
        kind = data["kind"]
        return cls(None if kind is None else MeldKind(kind), _cards(data["cards"]),
                   int(data["hidden"]))


def _cards(tokens: Iterable[str]) -> tuple[int, ...]:
    return tuple(parse_indices(" ".join(tokens)))


def _tokens(cards: Iterable[int]) -> list[str]:
    return format_cards(cards).split()


@attrs.frozen(slots=True)
class ShownResult:
    """How a hand ended, as every seat and spectator is shown it: ``kind`` (``hu``,
    ``tianhu``, ``huangzhuang``), the ``winner`` seat, the winning ``card`` and its ``source``,
    the ``huxi`` (胡息), the ``labels`` (``zimo``, ``dihu``, …) and the ``discarder`` (点炮),
    each ``None``/empty where it does not apply."""

    kind: ResultKind
    winner: int | None = None
    card: int | None = None
    source: Source | None = None
    huxi: int = 0
    labels: tuple[str, ...] = ()
    discarder: int | None = None

    @classmethod
    def of(cls, result: Result) -> ShownResult:
        return cls(result.kind, result.winner, result.card, result.source, result.huxi,
                   tuple(str(x) for x in result.labels), result.discarder)

    def to_json(self) -> dict[str, Any]:
        return {"kind": str(self.kind), "winner": self.winner,
                "card": None if self.card is None else _tokens([self.card])[0],
                "source": None if self.source is None else str(self.source),
                "huxi": self.huxi, "labels": list(self.labels), "discarder": self.discarder}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ShownResult:
        source = data["source"]
        return cls(ResultKind(data["kind"]), data["winner"], card_from_json(data["card"]),
                   None if source is None else Source(source), int(data["huxi"]),
                   tuple(data["labels"]), data["discarder"])


def _pending_json(pending: tuple[int, Source, int] | None) -> dict[str, Any] | None:
    if pending is None:
        return None
    return {"card": _tokens([pending[0]])[0], "source": str(pending[1]), "by": pending[2]}


def _pending(data: Mapping[str, Any] | None) -> tuple[int, Source, int] | None:
    if data is None:
        return None
    card = card_from_json(data["card"])
    assert card is not None
    return card, Source(data["source"]), int(data["by"])


def _public_json(view: Observation | TableView) -> dict[str, Any]:
    """The JSON of what every seat sees of the table, shared by both views."""
    return {"melds": [[m.to_json() for m in ms] for ms in view.melds],
            "discards": [_tokens(d) for d in view.discards],
            "hidden_cards": list(view.hidden_cards), "wall": view.wall,
            "pending": _pending_json(view.pending), "phase": str(view.phase),
            "history": [e.to_json() for e in view.history],
            "result": None if view.result is None else view.result.to_json()}


def _public(data: Mapping[str, Any]) -> dict[str, Any]:
    """The fields :func:`_public_json` wrote, read back."""
    result = data["result"]
    return {"melds": tuple(tuple(SeenMeld.from_json(m) for m in ms) for ms in data["melds"]),
            "discards": tuple(_cards(d) for d in data["discards"]),
            "hidden_cards": tuple(int(n) for n in data["hidden_cards"]),
            "wall": int(data["wall"]), "pending": _pending(data["pending"]),
            "phase": Phase(data["phase"]),
            "history": tuple(Event.from_json(e) for e in data["history"]),
            "result": None if result is None else ShownResult.from_json(result)}


def _variant_id(data: Mapping[str, Any]) -> str | None:
    """The ``variant`` of a view's JSON: a string, or absent or ``null`` (older JSON)."""
    value = data.get("variant")
    if value is not None and not isinstance(value, str):
        raise TypeError(f"variant {value!r:.40} is not a string")
    return value


def _decision(data: Mapping[str, Any]) -> int | None:
    """The ``decision`` of a view's JSON: an int, or absent or ``null`` (older JSON)."""
    value = data.get("decision")
    if value is not None and type(value) is not int:
        raise TypeError(f"decision {value!r:.40} is not an int")
    return value


def _decoding(kind: str) -> RecordError:
    return RecordError(f"malformed {kind}", code="bad_observation")


@attrs.frozen(slots=True)
class Observation:
    """One seat's view.

    * ``seat``; its concealed ``hand`` (21 counts) and its own 臭 sets ``chou_chi``,
      ``chou_peng``;
    * ``melds`` per seat as :class:`SeenMeld`; ``discards`` per seat (card indices);
      ``hidden_cards`` per seat (number of concealed cards); ``wall`` (cards left);
    * ``pending``: the exposed card on offer as ``(card, source, by)``, or ``None``;
    * ``phase``: ``discard``, ``respond`` or ``hu_check`` when this seat must decide,
      ``wait`` while any other seat (or nobody the seat may know of) decides, ``over`` at the
      end; ``options``: this seat's legal actions, empty unless it must decide;
    * ``history``: the events this seat was shown so far (:func:`events_for`), empty when the
      observation was made from a state alone;
    * ``dealer``: the dealer's seat; ``result``: at the end, how the hand ended
      (:class:`ShownResult`), else ``None``;
    * ``variant_id``: the id of the variant of the game (``None`` for a view made otherwise),
      so that a drawing under another variant's name is refused (:func:`zipai_rules.svg.render`);
    * ``decision``: while the seat must decide, the id of this decision (its number among
      the seat's decisions, from 1; :meth:`~zipai_rules.engine.state.GameState.decision`),
      which an answer may carry (``Game.apply(action, by=seat, decision=id)``) so that a late
      answer to an earlier prompt is refused as stale; else ``None``. In a claim window
      (``Game(..., windows=True)``) every seat that answers the card is asked, those with no
      claim with ``pass`` alone, so the view tells nothing of the others' options.

    :meth:`to_json` and :meth:`from_json` round-trip it losslessly (a server sends it as JSON).
    """

    seat: int
    hand: tuple[int, ...]
    melds: tuple[tuple[SeenMeld, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    hidden_cards: tuple[int, ...]
    wall: int
    pending: tuple[int, Source, int] | None
    phase: Phase
    chou_chi: frozenset[int]
    chou_peng: frozenset[int]
    options: tuple[Action, ...] = ()
    history: tuple[Event, ...] = ()
    dealer: int | None = None
    result: ShownResult | None = None
    variant_id: str | None = None
    decision: int | None = None

    @property
    def to_act(self) -> bool:
        """Whether this seat must decide now."""
        return bool(self.options)

    def _repr_svg_(self) -> str:
        """The table as this seat sees it (:func:`zipai_rules.svg.render`), for Jupyter."""
        from ..svg import render  # bound late: the pictures sit above the engine
        return render(self)

    def picture(self, variant: Variant | None = None) -> TablePicture:
        """What a picture of this view shows (:func:`zipai_rules.drawing.draw_table`): this
        seat's hand open, the other hands face down; ``variant`` (a view carries none) names
        the table and gives the 胡息 of the melds whose kind and size show."""
        return _picture(self, variant, self.seat, self.hand)

    def to_json(self) -> dict[str, Any]:
        """The observation as JSON: cards as ASCII tokens, ``options`` and ``history`` in the
        record format (``Action.to_json``, ``Event.to_json``), the 臭 sets as sorted token
        lists, ``result`` as :meth:`ShownResult.to_json` (``null`` while the hand goes on)."""
        return {"variant": self.variant_id, "seat": self.seat, "dealer": self.dealer,
                "hand": _tokens(i for i, n in enumerate(self.hand) for _ in range(n)),
                "chou_chi": _tokens(sorted(self.chou_chi)),
                "chou_peng": _tokens(sorted(self.chou_peng)),
                "options": [a.to_json() for a in self.options], "decision": self.decision,
                **_public_json(self)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Observation:
        """The observation of one :meth:`to_json` dict: ``Observation.from_json(o.to_json())
        == o``. Raises :class:`~zipai_rules.errors.RecordError` (``bad_observation``) for a
        missing key or a value of the wrong type, card and action errors for bad tokens."""
        if not isinstance(data, Mapping):
            raise _decoding(f"observation: {type(data).__name__} is not a JSON object")
        try:
            hand = [0] * 21
            for i in _cards(data["hand"]):
                hand[i] += 1
            return cls(seat=int(data["seat"]), hand=tuple(hand),
                       chou_chi=frozenset(_cards(data["chou_chi"])),
                       chou_peng=frozenset(_cards(data["chou_peng"])),
                       options=tuple(Action.from_json(a) for a in data["options"]),
                       dealer=data["dealer"], variant_id=_variant_id(data),
                       decision=_decision(data), **_public(data))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise _decoding(f"observation: {exc!r}") from None


@attrs.frozen(slots=True)
class TableView:
    """What anybody at the table sees who holds no cards in this hand: a spectator, or the
    seat that sits the hand out in a variant with more seats than players (``sitting_out``).

    ``dealer``; ``melds`` per seat as every other seat sees them (:func:`display`);
    ``discards``; ``hidden_cards`` per seat; ``wall``; the card on offer (``pending``; a draw
    kept unseen is not shown); ``phase`` (``wait`` while the hand goes on, ``over`` at the
    end); ``result`` at the end; ``history``: the events shown to a seat that is none of the
    players (no ``pass`` or ``chou``, face-down melds without their card); ``variant_id`` as
    :class:`Observation`'s. :meth:`to_json` and :meth:`from_json` round-trip it."""

    dealer: int
    melds: tuple[tuple[SeenMeld, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    hidden_cards: tuple[int, ...]
    wall: int
    pending: tuple[int, Source, int] | None
    phase: Phase
    result: ShownResult | None = None
    history: tuple[Event, ...] = ()
    sitting_out: bool = False
    variant_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant_id, "dealer": self.dealer,
                "sitting_out": self.sitting_out, **_public_json(self)}

    def _repr_svg_(self) -> str:
        """The table as a spectator sees it (:func:`zipai_rules.svg.render`), for Jupyter."""
        from ..svg import render  # bound late: the pictures sit above the engine
        return render(self)

    def picture(self, variant: Variant | None = None) -> TablePicture:
        """What a picture of this view shows (:func:`zipai_rules.drawing.draw_table`): every
        hand face down; ``variant`` as :meth:`Observation.picture`."""
        return _picture(self, variant)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableView:
        """The view of one :meth:`to_json` dict; errors as :meth:`Observation.from_json`."""
        if not isinstance(data, Mapping):
            raise _decoding(f"table view: {type(data).__name__} is not a JSON object")
        try:
            return cls(dealer=int(data["dealer"]), sitting_out=bool(data["sitting_out"]),
                       variant_id=_variant_id(data), **_public(data))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise _decoding(f"table view: {exc!r}") from None


def _picture(view: Observation | TableView, variant: Variant | None,
                 viewer: int | None = None, hand: Sequence[int] | None = None
                 ) -> TablePicture:
    """The table as ``view`` shows it: a seat's (``viewer`` and its ``hand``, 21 counts) or a
    spectator's; ``variant`` (a view carries none) names the title and gives the 胡息 of the
    melds whose kind and size show."""
    from ..drawing import Outcome, TableMeld, TablePicture, TableSeat, seen_huxi
    seats, r = [], view.result
    for s, melds in enumerate(view.melds):
        seats.append(TableSeat(
            tuple(indices_of(hand)) if hand is not None and s == viewer else None,
            view.hidden_cards[s],
            tuple(TableMeld(m.kind, m.cards, m.hidden,
                            seen_huxi(variant, m.kind, m.cards, m.hidden)) for m in melds),
            view.discards[s]))
    mine = viewer is not None and view.phase not in (Phase.WAIT, Phase.OVER)
    title = "" if variant is None else variant.name
    return TablePicture(title=title, mode="seat" if viewer is not None else "spectator",
                        viewer=viewer, seats=tuple(seats), dealer=view.dealer, wall=view.wall,
                        pending=view.pending, turn=(viewer if mine else None, view.phase),
                        result=None if r is None else Outcome(r.kind, r.winner, r.card, r.huxi),
                        variant=variant)


def check_seat(variant: Variant, seat: object) -> int:
    """``seat`` if it is a seat of a game of ``variant`` (an ``int`` in ``0..players-1``);
    else :class:`SeatError` (code ``bad_seat``) naming the value."""
    n = variant.players
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise SeatError(f"a seat is an int in 0..{n - 1}, not a {type(seat).__name__}")
    if not 0 <= seat < n:
        if abs(seat) < 10 ** 12:
            raise SeatError(f"seat {seat!r} outside 0..{n - 1}")
        raise SeatError(f"a seat number of {seat.bit_length()} bits is outside 0..{n - 1}")
    return seat


def seen(meld: Meld, display: str) -> SeenMeld:
    """A meld as the other seats see it under a display rule (``hidden``, ``one_up``,
    ``all_up``)."""
    cards = meld.physical  # a 王 laid in a meld is seen as a 王
    if display == "hidden":
        return SeenMeld(meld.kind, (), len(cards))
    if display == "one_up":
        return SeenMeld(meld.kind, cards[:1], len(cards) - 1)
    return SeenMeld(meld.kind, cards, 0)


class Redactor:
    """Shows one seat the events of a hand, in order: :meth:`show` gives an event as ``seat``
    is shown it, or ``None`` if it is not shown at all.

    A seat sees its own events whole. Of another seat's events it sees neither a ``pass`` nor
    a ``chou`` (a declined 胡/碰/吃 would tell that the seat held the cards for it), nor a dealt
    提 kept in the hand (note ``held in hand``), nor the card of a draw kept unseen
    (``draw_hidden`` with note ``kept unseen``, ``claims.own_draw: kept``); a 吃 of that
    seat's own shown draw under ``display.chi_own_draw: hidden`` is seen with its card but
    without its melds; a 吃 whose melds hold a 王 is seen with each 王 laid as a 王, not
    naming the card it stands for (:meth:`~zipai_rules.melds.Meld.unnamed`, as the table
    shows it: ``shun(x5 x6 K)``); and a 偎,
    臭偎, 提 or 跑 that the variant's ``display`` lays face down (``hidden``) without its card:
    ``Event(kind, seat, None, (), note)``. A 提 or 跑 made on one of the seat's face-down melds
    is seen to take that meld, as at the table: its note says ``on face-down meld N`` (the
    N-th of that seat's face-down melds, in the order they were laid). Everything else is shown
    as it happened. Feed it every event of the hand, from the deal on.
    """

    def __init__(self, variant: VariantLike, seat: int) -> None:
        self.variant = variant = as_variant(variant)
        self.seat = check_seat(variant, seat)
        self._face_down: dict[int, list[int]] = {}  # per other seat: cards, in table order
        self._drawn: tuple[int | None, int | None] = (None, None)  # the draw on offer: seat, card

    def show(self, event: Event) -> Event | None:
        return self._show(of_type(event, Event, "event", "an Event"))

    def _show(self, event: Event) -> Event | None:
        """:meth:`show` of an event already checked (the module's own loops)."""
        if event.kind in (EventKind.DRAW, EventKind.DRAW_HIDDEN, EventKind.DISCARD):
            self._drawn = (event.seat, event.card) if event.kind != EventKind.DISCARD else (
                None, None)
        if event.seat is None or event.seat == self.seat:
            return event
        if event.kind in _PRIVATE_EVENTS or event.note.endswith("held in hand"):
            return None
        if event.kind == EventKind.DRAW_HIDDEN and event.card is not None:
            return attrs.evolve(event, card=None)  # a draw kept unseen (claims.own_draw: kept)
        if event.kind == EventKind.CHI and self.variant.display.chi_own_draw == "hidden" \
                and self._drawn == (event.seat, event.card):
            return attrs.evolve(event, melds=())  # "自己摸到牌不用亮" (004 第四条1)
        if event.kind == EventKind.CHI and any(m.kings for m in event.melds):
            return attrs.evolve(event, melds=tuple(m.unnamed() for m in event.melds))
        if event.kind.value not in DISPLAYED:
            return event
        face_down = self._face_down.setdefault(event.seat, [])
        hidden, note = display(self.variant, event.kind) == "hidden", event.note
        if event.kind in (EventKind.TI, EventKind.PAO) and event.card in face_down:
            k = face_down.index(event.card)
            note = ", ".join(filter(None, (note, f"on face-down meld {k + 1}")))
            if not hidden:
                face_down.pop(k)
        elif hidden and event.card is not None:
            face_down.append(event.card)
        if hidden:
            return Event(event.kind, event.seat, None, (), note)
        return event if note == event.note else attrs.evolve(event, note=note)


def seen_by_others(variant: Variant, seat: SeatState) -> tuple[tuple[SeenMeld, ...], int]:
    """What anyone but the seat itself sees of ``seat`` (a player's state): its table melds as
    :class:`SeenMeld` and the number of its concealed cards. The one rule for every other
    player, a spectator and the seat sitting out alike, so that no view shows more of a
    seat than the other players are shown: each meld as :func:`seen_meld_by_others` shows
    it, the cards of one it does not show (a dealt 提 kept in the hand) counted as
    concealed."""
    shown, hidden = [], sum(seat.hand)
    for k, m in enumerate(seat.melds):
        one = seen_meld_by_others(variant, seat, k)
        if one is None:
            hidden += len(m.cards)
        else:
            shown.append(one)
    return tuple(shown), hidden


def seen_meld_by_others(variant: Variant, seat: SeatState, k: int) -> SeenMeld | None:
    """The meld ``seat.melds[k]`` as anyone but the seat itself sees it
    (:func:`seen_by_others`), ``None`` for a single dealt 提 kept in the hand
    (``deal.single_dealt_ti: hand``: no meld, its cards concealed); a 吃 of the seat's own
    draw under ``display.chi_own_draw: hidden`` shows neither kind nor cards; every other
    meld as the variant's ``display`` lays it (:func:`seen`). It reads only the meld,
    whether ``k`` is in ``seat.own_chi`` and ``seat.held_ti`` (what an incremental encoder
    may key on). ``k`` is an index of ``seat.melds`` (unchecked)."""
    m = seat.melds[k]
    if m.kind is _TI and m.cards[0] == seat.held_ti:
        return None  # a dealt 提 kept in the hand
    if k in seat.own_chi and variant.display.chi_own_draw == "hidden":
        return SeenMeld(None, (), len(m.cards))  # its kind would tell the cards
    return seen(m, display(variant, m.kind))


def events_for(variant: VariantLike, events: Iterable[Event], seat: int
               ) -> tuple[Event, ...]:
    """The events of a hand (all of them, from the deal on) that ``seat`` is shown, redacted
    by a :class:`Redactor`. Raises :class:`SeatError` for a bad seat,
    :class:`~zipai_rules.errors.VariantError` for a bad ``variant`` and
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for ``events`` that are not a
    list of :class:`Event` values (naming the first that is not)."""
    return _events_for(variant, items_of(events, Event, "events", "an Event"), seat)


def _events_for(variant: VariantLike, events: Iterable[Event], seat: int) -> tuple[Event, ...]:
    """:func:`events_for` of ``events`` already checked."""
    redactor = Redactor(variant, seat)
    return tuple(e for e in map(redactor._show, events) if e is not None)


def observe(state: GameState, seat: int, events: Iterable[Event] = ()) -> Observation:
    """The observation of ``seat`` (0-based) in ``state``; ``events`` is the hand's full event
    log up to ``state`` (``Game.events``), kept as the seat's redacted ``history``. A pending
    card drawn by a seat is shown to all, except a draw kept unseen (source ``self``,
    ``claims.own_draw: kept``), shown to its drawer only. Raises
    :class:`SeatError` for a bad seat, :class:`~zipai_rules.errors.ZipaiError`
    (``bad_argument``) for a ``state`` that is no :class:`GameState` or ``events`` that are
    not a list of :class:`Event` values."""
    v = of_type(state, GameState, "state", "a GameState (game.state)").variant
    check_seat(v, seat)
    events = items_of(events, Event, "events", "an Event")
    melds, hidden_cards = [], []
    for s, st in enumerate(state.seats):
        if s == seat:
            melds.append(tuple(SeenMeld(m.kind, m.cards) for m in st.melds))
            hidden_cards.append(sum(st.hand))
        else:
            shown, hidden = seen_by_others(v, st)
            melds.append(shown)
            hidden_cards.append(hidden)
    p = state.pending
    if p is not None and p.source == Source.SELF and p.by != seat:
        p = None  # a kept draw is the drawer's secret
    me = state.seats[seat]
    options = state.options_for(seat)
    phase = state.phase if options or state.is_over else WAIT
    return Observation(
        seat, me.hand, tuple(melds), tuple(st.discards for st in state.seats),
        tuple(hidden_cards), len(state.wall),
        None if p is None else (p.card, p.source, p.by), phase, me.chou_chi_cards,
        me.chou_peng_cards,
        options, _events_for(v, events, seat), state.dealer,
        None if state.result is None else ShownResult.of(state.result), v.id,
        state.decision(seat) if options else None)


class _NobodysRedactor(Redactor):
    """A :class:`Redactor` for a seat that plays no cards: every player is another seat."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.seat = -1
        self._face_down = {}


def spectate(state: GameState, events: Iterable[Event] = ()) -> TableView:
    """The :class:`TableView` of a spectator in ``state``: every seat's melds as the others
    see them (:func:`seen_by_others`: never more than every other player is shown, so no
    face-down 提 still held in the hand), no concealed card, no decision and no declined
    option of anybody; ``events`` is the hand's full event log (``Game.events``), kept
    redacted as ``history``. Raises :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``)
    as :func:`observe`."""
    v = of_type(state, GameState, "state", "a GameState (game.state)").variant
    events = items_of(events, Event, "events", "an Event")
    p = state.pending
    if p is not None and p.source == Source.SELF:
        p = None  # a kept draw is the drawer's secret
    redactor = _NobodysRedactor(v)
    seats = [seen_by_others(v, st) for st in state.seats]
    return TableView(
        state.dealer, tuple(melds for melds, _ in seats),
        tuple(st.discards for st in state.seats), tuple(hidden for _, hidden in seats),
        len(state.wall), None if p is None else (p.card, p.source, p.by),
        state.phase if state.is_over else WAIT,
        None if state.result is None else ShownResult.of(state.result),
        tuple(e for e in map(redactor._show, events) if e is not None), variant_id=v.id)


def sitting_out_view(state: GameState, events: Iterable[Event] = ()) -> TableView:
    """The view of the seat that sits this hand out (a variant with ``seats`` > ``players``):
    the spectator's view (:func:`spectate`), marked ``sitting_out``. Raises
    :class:`SeatError` for a variant where every seat plays; errors as :func:`spectate`."""
    v = of_type(state, GameState, "state", "a GameState (game.state)").variant
    if v.seats <= v.players:
        raise SeatError(f"{v.id}: all {v.seats} seats play, none sits out")
    return attrs.evolve(spectate(state, events), sitting_out=True)


def timeline(states: Sequence[GameState], batches: Sequence[Sequence[Event]], seat: int
             ) -> tuple[Observation, ...]:
    """The observations ``seat`` is sent over a hand: one at each of its own decisions, and
    the last state's (the end of the hand, or the table as it stands now). ``states[k]`` is
    the state after the events of ``batches[0..k]``.

    Between two of these the seat is sent only the events it is shown (:func:`events_for`).
    A view taken while other seats decide would tell that somebody had an option on the card
    on offer, so the seat gets none: how many seats were asked, and declined, does not show.
    Raises :class:`SeatError` for a bad seat, :class:`~zipai_rules.errors.ZipaiError`
    (``bad_argument``) for ``states`` that are not :class:`GameState` values of one variant or
    ``batches`` that are not lists of :class:`Event` values."""
    states = items_of(states, GameState, "states", "a GameState")
    batches = items_of(batches, (list, tuple), "batches", "a list of Event values")
    for k, batch in enumerate(batches):
        items_of(batch, Event, f"batches[{k}]", "an Event")
    if not states:
        return ()
    if any(st.variant is not states[0].variant and st.variant != states[0].variant
           for st in states):
        raise ZipaiError("states: not all of one variant", code="bad_argument")
    redactor = Redactor(states[0].variant, seat)
    history: list[Event] = []
    views: list[Observation] = []
    last = len(states) - 1
    asked = None  # the id of the seat's decision last sent
    for k, (state, batch) in enumerate(zip(states, batches, strict=False)):
        history.extend(e for e in map(redactor._show, batch) if e is not None)
        decision = state.decision(seat) if state.options_for(seat) else None
        if (decision is not None and decision != asked) or k == last:
            views.append(attrs.evolve(observe(state, seat), history=tuple(history)))
            asked = decision
    return tuple(views)
