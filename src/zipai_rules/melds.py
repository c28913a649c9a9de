"""Melds (牌型 / 方门子) and their shapes.

Canonical kinds (digest §1.2; ``003_5cd7634dfd57d897.txt``
"一句话、一绞牌、一碰牌、一偎牌、一臭偎牌、 一跑牌、一提牌各称为一方门子"):

====================  =====================================================  =============
kind                  shape                                                   how it arises
====================  =====================================================  =============
``shun``              three consecutive ranks of one case (顺子 / 一句话)      hand, 吃, 比
``yi_er_san``         一二三 or 壹贰叁                                          hand, 吃, 比
``er_qi_shi``         二七十 or 贰柒拾                                          hand, 吃, 比
``jiao``              two of one case and one of the other, same rank (绞)     hand, 吃, 比
``kan``               three identical dealt cards (坎)                         deal
``peng``              a pair plus another player's card (碰)                   claim
``wei``               a pair plus one's own draw (偎)                          forced
``chou_wei``          a 偎 of a card one declined to 碰 (臭偎)                  forced
``ti``                four identical, the 4th one's own (提)                   deal / forced
``pao``               four identical, the 4th another player's (跑)            claim / forced
``jiang``             a pair (将 / 吊子), only with a 提 or 跑                   hand
====================  =====================================================  =============

A meld's 胡息 is not a property of the meld: it comes from the variant's table
(:meth:`zipai_rules.variant.Variant.meld_huxi`).
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs

from .arguments import text_arg
from .cards import INDEX_CARDS, KING, Card, format_cards, is_big, parse_indices, rank_of
from .errors import MeldError
from .frozen import NO_VALIDATOR


class MeldKind(enum.StrEnum):
    """Canonical meld kinds; the value is the pinyin identifier used in YAML and JSON."""

    SHUN = "shun"
    YI_ER_SAN = "yi_er_san"
    ER_QI_SHI = "er_qi_shi"
    JIAO = "jiao"
    KAN = "kan"
    PENG = "peng"
    WEI = "wei"
    CHOU_WEI = "chou_wei"
    TI = "ti"
    PAO = "pao"
    JIANG = "jiang"


CHI_SHAPES = frozenset({MeldKind.SHUN, MeldKind.YI_ER_SAN, MeldKind.ER_QI_SHI, MeldKind.JIAO})
TRIPLES = frozenset({MeldKind.KAN, MeldKind.PENG, MeldKind.WEI, MeldKind.CHOU_WEI})
QUADS = frozenset({MeldKind.TI, MeldKind.PAO})


def chi_shapes_with(card: int) -> Iterator[tuple[int, ...]]:
    """Every chi-type triple (as sorted indices) that contains the card index ``card``
    (none for the 王)."""
    if card == KING:
        return
    r, base = rank_of(card), (10 if card >= 10 else 0)
    for start in (r - 2, r - 1, r):
        if 1 <= start and start + 2 <= 10:
            yield tuple(base + s - 1 for s in (start, start + 1, start + 2))
    if r in (2, 7, 10):
        yield (base + 1, base + 6, base + 9)
    other = card + 10 if card < 10 else card - 10
    yield tuple(sorted((card, card, other)))
    yield tuple(sorted((card, other, other)))


def chi_shape(indices: Sequence[int]) -> MeldKind | None:
    """The chi-type shape of three card indices, or ``None`` if they form none."""
    if len(indices) != 3 or KING in indices:
        return None
    a, b, c = sorted(indices)
    ra, rb, rc = rank_of(a), rank_of(b), rank_of(c)
    if is_big(a) == is_big(b) == is_big(c):
        if (ra, rb, rc) == (2, 7, 10):
            return MeldKind.ER_QI_SHI
        if rb == ra + 1 and rc == rb + 1:
            return MeldKind.YI_ER_SAN if ra == 1 else MeldKind.SHUN
        return None
    if ra == rb == rc and len({a, b, c}) == 2:
        return MeldKind.JIAO
    return None


def _same(indices: Sequence[int], n: int) -> bool:
    return len(indices) == n and len(set(indices)) == 1 and indices[0] != KING


def _chi_kinds_unnamed(indices: Sequence[int]) -> set[MeldKind | None]:
    """The chi-type kinds three card indices can have when each 王 (index 20) among them
    stands for a card not named."""
    real = [i for i in indices if i != KING]
    if len(indices) != 3 or not real:
        return set()
    return {chi_shape(t) for t in chi_shapes_with(real[0])
            if all(t.count(i) >= real.count(i) for i in real)}


_SHAPE_CHECK = {
    MeldKind.KAN: lambda ix: _same(ix, 3),
    MeldKind.PENG: lambda ix: _same(ix, 3),
    MeldKind.WEI: lambda ix: _same(ix, 3),
    MeldKind.CHOU_WEI: lambda ix: _same(ix, 3),
    MeldKind.TI: lambda ix: _same(ix, 4),
    MeldKind.PAO: lambda ix: _same(ix, 4),
    MeldKind.JIANG: lambda ix: _same(ix, 2),
}


def _kind(value: MeldKind | str) -> MeldKind:
    try:
        return MeldKind(value)
    except ValueError:
        raise MeldError(f"unknown meld kind {value!r}; accepted: "
                        + ", ".join(k.value for k in MeldKind)) from None


_SHAPE_HELP = {
    MeldKind.SHUN: "three consecutive ranks of one case, not starting at 1",
    MeldKind.YI_ER_SAN: "x1 x2 x3 or d1 d2 d3",
    MeldKind.ER_QI_SHI: "x2 x7 x10 or d2 d7 d10",
    MeldKind.JIAO: "two of one case and one of the other, same rank",
    MeldKind.KAN: "three identical cards", MeldKind.PENG: "three identical cards",
    MeldKind.WEI: "three identical cards", MeldKind.CHOU_WEI: "three identical cards",
    MeldKind.TI: "four identical cards", MeldKind.PAO: "four identical cards",
    MeldKind.JIANG: "two identical cards",
}


def _sorted_cards(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(cards))


@attrs.frozen(slots=True)
class Meld:
    """A meld: its ``kind``, its ``cards`` (indices, sorted) and, for a 吃 meld on the table,
    the ``claimed`` card index taken from another player or the wall (``None`` otherwise).

    ``bi`` marks a chi-shape meld laid down as 比 together with a 吃. ``kings``: the cards of
    ``cards`` that a 王 stands for on the table (``deck.king_rules.claims``); the meld holds
    those 王 cards, not the cards they stand for (:attr:`physical`). A chi-type meld as the
    other seats are shown it holds its 王 in ``cards`` (index 20, ``x5 x6 K``) with no
    ``kings``: the card each stands for is not named (:meth:`unnamed`); such a meld is for
    display, not for counting 胡息. Raises
    :class:`MeldError` if the cards do not have the kind's shape or a 王 stands for a card
    the meld does not hold.
    """

    kind: MeldKind = attrs.field(converter=_kind)
    cards: tuple[int, ...] = attrs.field(converter=_sorted_cards, validator=NO_VALIDATOR)
    claimed: int | None = None
    bi: bool = False
    kings: tuple[int, ...] = attrs.field(default=(), converter=_sorted_cards,
                                         validator=NO_VALIDATOR)
    big: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        # big (大字) for 胡息: all cards big, or (绞) two of three
        object.__setattr__(self, "big", sum(1 for i in self.cards if 10 <= i < 20) * 2
                           > len(self.cards))
        check = _SHAPE_CHECK.get(self.kind)
        if check:
            ok = check(self.cards)
        elif KING in self.cards:  # a chi-type meld as the other seats see it
            ok = not self.kings and self.kind in _chi_kinds_unnamed(self.cards)
        else:
            ok = chi_shape(self.cards) == self.kind
        if not ok:
            raise MeldError(f"{format_cards(self.cards)} is not a {self.kind.value} meld "
                            f"({_SHAPE_HELP[self.kind]})")
        if self.claimed is not None and self.claimed not in self.cards:
            raise MeldError(f"claimed card {INDEX_CARDS[self.claimed]} is not in "
                            f"{format_cards(self.cards)}")
        if self.kings and (any(self.kings.count(c) > self.cards.count(c) for c in self.kings)
                           or len(self.kings) >= len(self.cards)):
            raise MeldError(f"王 standing for {format_cards(self.kings)} in "
                            f"{format_cards(self.cards)}: a 王 stands for a card of the meld, "
                            "and a meld holds at least one real card")

    @property
    def physical(self) -> tuple[int, ...]:
        """The cards the meld holds: :attr:`cards` with each card a 王 stands for replaced by
        the 王 (index 20)."""
        if not self.kings:
            return self.cards
        out = list(self.cards)
        for c in self.kings:
            out.remove(c)
        return tuple(out) + (KING,) * len(self.kings)

    def unnamed(self) -> Meld:
        """The meld as the other seats see it: a chi-type meld (吃 or 比) with its 王 laid as
        王, not naming the cards they stand for (``x5 x6 K``); any other meld unchanged (a 王
        in a 碰, 偎 or 跑 stands for the meld's own card)."""
        if not self.kings or self.kind in _SHAPE_CHECK:
            return self
        return Meld(self.kind, self.physical, claimed=self.claimed, bi=self.bi)

    @property
    def card_objects(self) -> tuple[Card, ...]:
        return tuple(INDEX_CARDS[i] for i in self.cards)

    @property
    def is_quad(self) -> bool:
        return self.kind in QUADS

    @property
    def is_chi(self) -> bool:
        """A chi-shape meld taken with a claimed card."""
        return self.claimed is not None

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        """``Meld(peng d4 d4 d4)``, ``Meld(shun x1 x2 x3, claimed=x2)``, ``Meld(bi jiao x8 d8
        d8)``: the meld in the game's notation."""
        claimed = "" if self.claimed is None else f", claimed={INDEX_CARDS[self.claimed]}"
        kings = f", kings={format_cards(self.kings)}" if self.kings else ""
        bi = "bi " if self.bi else ""
        return f"Meld({bi}{self.kind.value} {format_cards(self.cards)}{claimed}{kings})"

    def describe(self, zh: bool = False) -> str:
        """``kind(cards)``, with Chinese card names when ``zh``."""
        return _described(self.kind, self.cards, self.kings, self.bi, bool(zh))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "cards": format_cards(self.cards).split()}
        if self.claimed is not None:
            out["claimed"] = INDEX_CARDS[self.claimed].__str__()
        if self.bi:
            out["bi"] = True
        if self.kings:
            out["kings"] = format_cards(self.kings).split()
        return out


_SET_SIZES = {MeldKind.KAN: 3, MeldKind.PENG: 3, MeldKind.WEI: 3, MeldKind.CHOU_WEI: 3,
              MeldKind.TI: 4, MeldKind.PAO: 4, MeldKind.JIANG: 2}


def every_meld() -> list[Meld]:
    """Every meld of real cards, each once: each kind of set (and the 将) of each of the 20
    card kinds, and every 吃 shape."""
    out = [Meld(kind, (c,) * size) for kind, size in _SET_SIZES.items() for c in range(20)]
    shapes = {t for c in range(20) for t in chi_shapes_with(c)}
    out += [Meld(kind, t) for t in sorted(shapes) if (kind := chi_shape(t)) is not None]
    return out


@functools.lru_cache(maxsize=4096)
def _described(kind: MeldKind, cards: tuple[int, ...], kings: tuple[int, ...], bi: bool,
               zh: bool) -> str:
    """:meth:`Meld.describe` of a meld's fields (checked when the meld was made), kept for the
    melds met most: a hand's settlement describes each of its melds."""
    text = f"{kind.value}({stand_in_text(cards, kings, zh)})"
    return "bi:" + text if bi else text


def stand_in_text(cards: Sequence[int], kings: Sequence[int], zh: bool = False) -> str:
    """The cards, each 王 shown with the card it stands for after the real copies:
    ``x7 x7 K(x7)``."""
    stand_ins = list(kings)
    shown = []
    for c in reversed(cards):
        text = format_cards([c], zh=zh)
        if c in stand_ins:
            stand_ins.remove(c)
            text = f"{format_cards([KING], zh=zh)}({text})"
        shown.append(text)
    return " ".join(reversed(shown))


def chi_meld(cards: Sequence[int], claimed: int | None = None, bi: bool = False,
             kings: Sequence[int] = ()) -> Meld:
    """The chi-type meld of three card indices, its kind given by :func:`chi_shape`, with
    ``claimed``, ``bi`` and ``kings`` as in :class:`Meld`. Raises :class:`MeldError` if the
    cards form no chi-type shape."""
    kind = chi_shape(cards)
    if kind is None:
        raise MeldError(f"{format_cards(cards)} is not a chi-type meld "
                        "(shun, yi_er_san, er_qi_shi or jiao)")
    return Meld(kind, cards, claimed=claimed, bi=bi, kings=tuple(kings))


_USER_KINDS = {k.value: k for k in MeldKind} | {"chi": None, "bi": None}
_STAND_IN = re.compile(r"(?:[Kk]|王)\(([^()]*)\)")
"""A 王 written with the card it stands for: ``K(x9)``, ``王(九)``."""


def read_stand_ins(text: str) -> list[tuple[int, int | None]]:
    """The cards of ``text`` (tokens as :func:`~zipai_rules.cards.parse_indices` reads them,
    and ``K(x9)`` or ``王(九)`` for a 王 standing for a card, as :func:`stand_in_text` writes
    it), in order: ``(card, None)`` for a card as it is (a bare ``K`` is ``(20, None)``),
    ``(20, card)`` for a 王 standing for ``card``. Raises
    :class:`~zipai_rules.errors.CardError` (``unknown_card``) for a bad token and
    :class:`MeldError` (``malformed_meld``) for a ``K(...)`` that names other than one card
    that is not a 王."""
    pieces = _STAND_IN.split(text)
    out: list[tuple[int, int | None]] = []
    for k, piece in enumerate(pieces):
        if k % 2 == 0:
            out += [(i, None) for i in parse_indices(piece)]
            continue
        named = parse_indices(piece)
        if len(named) != 1 or named[0] == KING:
            raise MeldError(f"K({piece}) in {text!r} must name the one card the 王 stands "
                            "for, e.g. K(x9)", code="malformed_meld")
        out.append((KING, named[0]))
    return out


def parse_meld(text: str) -> Meld:
    """Read a table meld written ``KIND=CARDS``, e.g. ``peng=d4 d4 d4`` or ``chi=x2 x7 x10``.

    ``chi`` (and ``bi``) take any chi-type shape and infer it; a chi's claimed card is taken to
    be its first real card. In a meld of one card a ``K`` is a 王 standing for that card
    (``peng=x9 x9 K``: :attr:`Meld.kings`); in any meld ``K(x9)`` (or ``王(九)``) is a 王
    standing for x9 (``chi=x8 K(x9) x10``, as :meth:`Meld.describe` writes it;
    :func:`read_stand_ins`). Raises :class:`MeldError` for
    a missing ``=``, an unknown kind or cards of the wrong shape, and
    :class:`~zipai_rules.errors.CardError` for bad card tokens,
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a ``text`` that is no
    string.
    """
    kind_text, sep, cards_text = text_arg(text, "text", "a meld written KIND=CARDS").partition(
        "=")
    kind_text = kind_text.strip().lower()
    if not sep:
        raise MeldError(f"meld {text!r} must be written KIND=CARDS, e.g. 'peng=d4 d4 d4'",
                        code="malformed_meld")
    if kind_text not in _USER_KINDS:
        raise MeldError(f"unknown meld kind {kind_text!r} in {text!r}; accepted: "
                        + ", ".join(sorted(_USER_KINDS)), code="malformed_meld")
    read = read_stand_ins(cards_text)  # each K(...) is one 王 for one card
    stand_for = [named for _, named in read if named is not None]
    cards = [card if named is None else named for card, named in read]
    if not cards:
        raise MeldError(f"meld {text!r} has no cards", code="malformed_meld")
    kind = _USER_KINDS[kind_text]
    if stand_for:
        first = list(cards)
        for i in stand_for:
            if i not in first:
                raise MeldError(f"a 王 in {text!r} stands for {INDEX_CARDS[i]}, which the meld "
                                "does not hold", code="malformed_meld")
            first.remove(i)
        if not first:
            raise MeldError(f"meld {text!r} holds no real card", code="malformed_meld")
        if kind is None:
            return chi_meld(cards, claimed=None if kind_text == "bi" else first[0],
                            bi=kind_text == "bi", kings=stand_for)
        return Meld(kind, cards, kings=tuple(stand_for))
    real = [i for i in cards if i != KING]
    if kind is not None and len(real) < len(cards) and len(set(real)) == 1:
        kings = (real[0],) * (len(cards) - len(real))  # each K stands for the meld's card
        return Meld(kind, real + list(kings), kings=kings)
    if kind is None:
        shape = chi_shape(cards)
        if shape is None:
            raise MeldError(f"{format_cards(cards)} in {text!r} is not a chi-type meld "
                            "(shun, yi_er_san, er_qi_shi or jiao)")
        if kind_text == "bi":
            return Meld(shape, cards, bi=True)
        return Meld(shape, cards, claimed=cards[0])
    return Meld(kind, cards)
