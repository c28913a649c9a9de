"""Player decisions (:class:`Action`) and what happened (:class:`Event`).

Both are frozen values. An action is what a seat chooses when it is its turn to act; an event
is a record of one step of the game, forced moves (提/偎/跑, 臭 marks) included.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from ..cards import Card, card_index, format_cards, parse_indices, token
from ..errors import IllegalActionError, RecordError
from ..melds import Meld

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
    try:
        return ActionKind(value)
    except ValueError:
        raise IllegalActionError(f"unknown action kind {value!r}; known: "
                                 + ", ".join(k.value for k in ActionKind)) from None


def _optional_card(card: int | str | Card | None) -> int | None:
    return None if card is None else card_index(card)


def _melds(melds: Iterable[Meld]) -> tuple[Meld, ...]:
    return tuple(melds)


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
    melds: tuple[Meld, ...] = attrs.field(default=(), converter=_melds)

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

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        """The action of one :meth:`to_json` dict (``kind``, ``seat``, optional ``card`` and
        ``melds`` with ``kind``/``cards``/``claimed``/``bi``/``kings``): the one decoder of
        actions, which game records use too.

        Raises :class:`~zipai_rules.errors.ZipaiError` subclasses for unknown kinds, bad card
        tokens and melds of the wrong shape; :class:`~zipai_rules.errors.RecordError` (code
        ``bad_action``) for a missing key or a value of the wrong type."""
        try:
            return cls(data["kind"], data["seat"], card_from_json(data.get("card")),
                       melds_from_json(data.get("melds", ())))
        except (KeyError, TypeError, AttributeError) as exc:
            raise RecordError(f"malformed action {data!r}: {exc!r}",
                              code="bad_action") from None

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


def card_from_json(text: str | None) -> int | None:
    """The card index of one ASCII card token (``None`` for ``None``). Raises
    :class:`~zipai_rules.errors.RecordError` (``bad_action``) unless ``text`` is one token."""
    if text is None:
        return None
    found = parse_indices(text)
    if len(found) != 1:
        raise RecordError(f"expected one card token, got {text!r}", code="bad_action")
    return found[0]


def melds_from_json(data: Iterable[Mapping[str, Any]]) -> tuple[Meld, ...]:
    """The melds of a list of :meth:`Meld.to_json` dicts."""
    return tuple(Meld(m["kind"], tuple(parse_indices(" ".join(m["cards"]))),
                      claimed=card_from_json(m.get("claimed")), bi=bool(m.get("bi", False)),
                      kings=tuple(parse_indices(" ".join(m.get("kings", ())))))
                 for m in data)


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


@attrs.frozen(slots=True)
class Event:
    """One recorded step: ``kind``, the ``seat`` concerned, the ``card`` and ``melds``
    involved, and a short ``note`` (e.g. ``forced``, ``八块``)."""

    kind: EventKind
    seat: int | None = None
    card: int | None = None
    melds: tuple[Meld, ...] = ()
    note: str = ""

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
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """The event of one :meth:`to_json` dict. Raises
        :class:`~zipai_rules.errors.RecordError` (``bad_action``) for a malformed one."""
        try:
            return cls(EventKind(data["kind"]), data.get("seat"),
                       card_from_json(data.get("card")), melds_from_json(data.get("melds", ())),
                       str(data.get("note", "")))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"malformed event {data!r}: {exc!r}",
                              code="bad_action") from None

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
