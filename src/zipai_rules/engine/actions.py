"""Player decisions (:class:`Action`) and what happened (:class:`Event`).

Both are frozen values. An action is what a seat chooses when it is its turn to act; an event
is a record of one step of the game, forced moves (提/偎/跑, 臭 marks) included.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from ..cards import N_KINDS, Card, card_index, format_cards, parse_indices, token
from ..errors import IllegalActionError, MeldError, RecordError, ZipaiError, brief, type_phrase
from ..frozen import NO_VALIDATOR, slot_setters
from ..melds import Meld, MeldKind

if TYPE_CHECKING:
    from ..variant import Variant

#: the most 王 one 吃 plan lays down: the 吃 plans offer no more (``claims.chi_plans``) and
#: the action codes hold no more (``encoding``)
MAX_PLAN_KINGS = 2


class ActionKind(enum.StrEnum):
    """What a seat may do: discard a card, take an exposed card (吃/碰/跑/胡) or pass."""

    DISCARD = "discard"
    CHI = "chi"
    PENG = "peng"
    PAO = "pao"
    HU = "hu"
    PASS = "pass"


def _action_kind(value: ActionKind | str) -> ActionKind:
    if type(value) is ActionKind:  # the engine's own: no lookup
        return value
    try:
        return ActionKind(value)
    except ValueError:
        raise IllegalActionError(f"unknown action kind {value!r}; known: "
                                 + ", ".join(k.value for k in ActionKind)) from None


def _optional_card(card: int | str | Card | None) -> int | None:
    if card is None or type(card) is int and 0 <= card < N_KINDS:  # as card_index answers
        return card
    return card_index(card)


def _melds(melds: Iterable[Meld]) -> tuple[Meld, ...]:
    return melds if type(melds) is tuple else tuple(melds)


@attrs.frozen(slots=True)
class Action:
    """A seat's decision.

    ``card``: the discarded or claimed card index (``None`` for ``pass`` and a 胡 that needs no
    card). ``melds``: for ``chi``, the whole plan — the 吃 meld first (its ``claimed`` card
    marked), then every 比 meld; for other kinds, empty.
    """

    kind: ActionKind = attrs.field(converter=_action_kind)
    seat: int
    card: int | None = attrs.field(default=None, converter=_optional_card)
    melds: tuple[Meld, ...] = attrs.field(default=(), converter=_melds, validator=NO_VALIDATOR)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        """``Action(seat 0 chi x8 shun(x6 x7 x8))``: :meth:`describe` in the game's
        notation."""
        return f"Action({self.describe()})"

    def describe(self, zh: bool = False) -> str:
        """``seat N kind card melds``, with Chinese card names when ``zh``."""
        text = f"seat {self.seat} {self.kind.value}"
        if self.card is not None:
            text += " " + format_cards([self.card], zh=zh)
        if self.melds:
            text += " " + " ".join(m.describe(zh) for m in self.melds)
        return text

    def to_text(self, words: Variant | Mapping[str, str] | None = None) -> str:
        """The action in the wire notation (docs/actions.md), one line without the seat:
        ``discard x5``, ``pass``, ``hu``, ``hu x4``, ``peng x4``, ``pao x4``, ``chi x4: x4
        x5 x6`` and, for a 吃 with 比, every meld of the plan after ``/``: ``chi x4: x4 x5
        x6 / x4 x4 d4``; a 王 standing for a card is ``K(x5)``. With ``words`` (a
        :class:`~zipai_rules.variant.Variant`, or a terminology mapping of canonical ids to
        words) the kind is the variant's word (falling back on
        :data:`~zipai_rules.vocab.ZH_WORDS`) and the cards are Chinese: ``打 五``, ``过``,
        ``吃 四: 四 五 六 / 四 四 肆``, ``开舵 四`` (桂林's 跑).
        :func:`~zipai_rules.engine.notation.parse_action` reads either back to this very
        action. Raises :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for
        ``words`` of another type."""
        from .notation import action_text  # the notation reads actions: bound late

        return action_text(self, words)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "action") -> Action:
        """The action of one :meth:`to_json` dict (``kind``, ``seat``, optional ``card`` and
        ``melds`` with ``kind``/``cards``/``claimed``/``bi``/``kings``): the one decoder of
        actions, which game records and observations use too. ``where`` names the dict in
        messages.

        Every input is untrusted: anything but such a dict raises
        :class:`~zipai_rules.errors.RecordError` (code ``bad_action``, ``path`` the field)
        naming the field and what it holds: ``action.card: 5 (int) is not a card token``,
        ``action.kind: missing``, ``action.melds[0]: x2 x7 x10 is not a shun meld …``."""
        record = _object(data, where, "an action object (kind, seat, card, melds)",
                         _ACTION_KEYS)
        kind = _choice(record, where, "kind", ActionKind, "an action kind")
        seat = _seat(record, where)
        assert seat is not None  # required
        return cls(kind, seat, card_from_json(record.get("card"), f"{where}.card"),
                   melds_from_json(record.get("melds", ()), f"{where}.melds"))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat}
        if self.card is not None:
            out["card"] = token(self.card)
        if self.melds:
            out["melds"] = [m.to_json() for m in self.melds]
        return out


@functools.lru_cache(maxsize=4096)
def option(kind: ActionKind, seat: int, card: int | None = None, melds: tuple[Meld, ...] = ()
           ) -> Action:
    """The action of ``kind`` by ``seat`` on ``card`` (and a 吃's ``melds``): one shared value
    per choice, as the engine offers the same ones again and again."""
    return Action(kind, seat, card, melds)


def _show(value: object) -> str:
    """A short, safe quote of an untrusted value: a string or a small number as written,
    anything else by its type (a huge int by its size), never its ``repr`` (which may be
    long, deep or refused)."""
    if isinstance(value, str):
        return brief(repr(value), 60)
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return repr(value) if abs(value) < 10 ** 12 else f"an int of {value.bit_length()} bits"
    if isinstance(value, float):
        return f"{value!r} (float)"
    return type_phrase(value)


def _wrong(field: str, value: object, wanted: str) -> RecordError:
    """The ``bad_action`` error of ``field`` holding ``value`` instead of ``wanted``."""
    shown = _show(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10 ** 12:
        shown += " (int)"
    return RecordError(f"{field}: {shown} is not {wanted}", field, code="bad_action")


def _object(data: object, field: str, wanted: str, keys: frozenset[str]) -> Mapping[str, Any]:
    """``data`` if it is a mapping of only the ``keys`` it may hold; else a
    :class:`RecordError` (``bad_action``) naming ``field`` (or the unknown key)."""
    if not isinstance(data, Mapping):
        raise _wrong(field, data, wanted)
    for key in data:
        if key not in keys:
            shown = brief(repr(key), 40) if isinstance(key, str) else \
                f"(a key of type {type(key).__name__})"
            raise RecordError(f"{field}: unknown field {shown}; the fields are "
                              f"{', '.join(sorted(keys))}", field, code="bad_action")
    return data


_ACTION_KEYS = frozenset({"kind", "seat", "card", "melds"})
_EVENT_KEYS = frozenset({"kind", "seat", "card", "melds", "note"})
_MELD_KEYS = frozenset({"kind", "cards", "claimed", "bi", "kings"})


def _choice(data: Mapping[str, Any], where: str, key: str, choices: type[enum.Enum],
            wanted: str) -> Any:
    """The member of ``choices`` named by ``data[key]`` (required)."""
    if key not in data:
        raise RecordError(f"{where}.{key}: missing", f"{where}.{key}", code="bad_action")
    value = data[key]
    if isinstance(value, str):
        for member in choices:
            if member.value == value:
                return member
    known = ", ".join(str(m.value) for m in choices)
    raise _wrong(f"{where}.{key}", value, f"{wanted} ({known})")


def _seat(data: Mapping[str, Any], where: str, required: bool = True) -> int | None:
    if "seat" not in data or (not required and data["seat"] is None):
        if required:
            raise RecordError(f"{where}.seat: missing", f"{where}.seat", code="bad_action")
        return None
    seat = data["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_SEAT:
        raise _wrong(f"{where}.seat", seat, f"a seat (an int in 0..{MAX_SEAT - 1})")
    return seat


#: the seats a decoded action or event may name: the engine's own check (``bad_seat``, or
#: ``not_your_turn``) says which of them the game has
MAX_SEAT = 64


def card_from_json(text: object, field: str = "card") -> int | None:
    """The card index of one card token (``"x5"``, ``"d10"``, ``"K"``; a Chinese numeral is
    read too), ``None`` for ``None``. Raises :class:`~zipai_rules.errors.RecordError`
    (``bad_action``) naming ``field`` unless ``text`` is one token:
    ``action.card: 5 (int) is not a card token``."""
    if text is None:
        return None
    if isinstance(text, str) and len(text) <= 8:
        try:
            found = parse_indices(text)
        except ZipaiError:
            found = []
        if len(found) == 1:
            return found[0]
    raise _wrong(field, text, _A_TOKEN)


_A_TOKEN = "a card token (x1..x10, d1..d10, K)"


def _tokens(value: object, field: str) -> tuple[int, ...]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, list | tuple):
        raise _wrong(field, value, "a list of card tokens")
    out = []
    for k, text in enumerate(value):
        card = None if text is None else card_from_json(text, f"{field}[{k}]")
        if card is None:
            raise _wrong(f"{field}[{k}]", text, _A_TOKEN)
        out.append(card)
    return tuple(out)


def melds_from_json(data: object, field: str = "melds") -> tuple[Meld, ...]:
    """The melds of a list of :meth:`Meld.to_json` dicts (``kind``, ``cards``, optional
    ``claimed``, ``bi`` and ``kings``). Raises :class:`~zipai_rules.errors.RecordError`
    (``bad_action``) naming the field (``melds[1].cards[2]``) for a value of the wrong type
    and the meld (``melds[0]``) for cards of the wrong shape."""
    if isinstance(data, (str, bytes, Mapping)) or not isinstance(data, list | tuple):
        raise _wrong(field, data, "a list of meld objects")
    out = []
    for k, item in enumerate(data):
        where = f"{field}[{k}]"
        meld = _object(item, where, "a meld object (kind, cards, claimed, bi, kings)",
                       _MELD_KEYS)
        kind = _choice(meld, where, "kind", MeldKind, "a meld kind")
        if "cards" not in meld:
            raise RecordError(f"{where}.cards: missing", f"{where}.cards", code="bad_action")
        cards = _tokens(meld["cards"], f"{where}.cards")
        bi = meld.get("bi", False)
        if not isinstance(bi, bool):
            raise _wrong(f"{where}.bi", bi, "true or false")
        try:
            out.append(Meld(kind, cards, claimed=card_from_json(meld.get("claimed"),
                                                                f"{where}.claimed"),
                            bi=bi, kings=_tokens(meld.get("kings", []), f"{where}.kings")))
        except MeldError as exc:
            raise RecordError(f"{where}: {exc}", where, code="bad_action") from None
    return tuple(out)


class EventKind(str, enum.Enum):  # noqa: UP042 (str() is 'EventKind.DRAW'; StrEnum's is 'draw')
    """Kinds of recorded steps."""

    DEAL = "deal"
    TI = "ti"
    WEI = "wei"
    CHOU_WEI = "chou_wei"
    DRAW = "draw"            # a wall card drawn and shown to all
    DRAW_HIDDEN = "draw_hidden"  # a wall card drawn and used at once for a forced 提/偎
    DISCARD = "discard"
    CHI = "chi"
    PENG = "peng"
    PAO = "pao"
    PASS = "pass"
    CHOU = "chou"            # a card became 臭 for a seat
    TO_DISCARDS = "to_discards"  # an unclaimed card goes to a discard area
    NO_DISCARD = "no_discard"    # a discard was owed but no card may be discarded
    HU = "hu"
    TIANHU = "tianhu"
    HUANGZHUANG = "huangzhuang"


@attrs.frozen(slots=True, init=False)
class Event:
    """One recorded step: ``kind``, the ``seat`` concerned, the ``card`` and ``melds``
    involved, and a short ``note`` (e.g. ``forced``, ``八块``)."""

    kind: EventKind
    seat: int | None = None
    card: int | None = None
    melds: tuple[Meld, ...] = ()
    note: str = ""

    def __init__(self, kind: EventKind, seat: int | None = None, card: int | None = None,
                 melds: tuple[Meld, ...] = (), note: str = "") -> None:
        s = _EVENT_SLOTS
        s[0](self, kind)
        s[1](self, seat)
        s[2](self, card)
        s[3](self, melds)
        s[4](self, note)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        """``Event(seat 1 peng d4 peng(d4 d4 d4))``: :meth:`describe` in the game's notation."""
        return f"Event({self.describe()})"

    def describe(self, zh: bool = False) -> str:
        """Human-readable text, with Chinese card names when ``zh``."""
        parts = [self.kind.value]
        if self.seat is not None:
            parts.insert(0, f"seat {self.seat}")
        if self.card is not None:
            parts.append(format_cards([self.card], zh=zh))
        if self.melds:
            parts.append(" ".join(m.describe(zh) for m in self.melds))
        if self.note:
            parts.append(f"({self.note})")
        return " ".join(parts)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str = "event") -> Event:
        """The event of one :meth:`to_json` dict. Raises
        :class:`~zipai_rules.errors.RecordError` (``bad_action``) naming the field for a
        malformed one (``event.note: 3 (int) is not a string``), as
        :meth:`Action.from_json` does."""
        record = _object(data, where, "an event object (kind, seat, card, melds, note)",
                         _EVENT_KEYS)
        kind = _choice(record, where, "kind", EventKind, "an event kind")
        note = record.get("note", "")
        if not isinstance(note, str):
            raise _wrong(f"{where}.note", note, "a string")
        return cls(kind, _seat(record, where, required=False),
                   card_from_json(record.get("card"), f"{where}.card"),
                   melds_from_json(record.get("melds", ()), f"{where}.melds"), note)

    def to_json(self) -> dict[str, Any]:
        """``{kind, seat, card, melds, note}`` with the card as its ASCII token; absent
        fields are left out."""
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.card is not None:
            out["card"] = token(self.card)
        if self.melds:
            out["melds"] = [m.to_json() for m in self.melds]
        if self.note:
            out["note"] = self.note
        return out


_EVENT_SLOTS = slot_setters(Event)
