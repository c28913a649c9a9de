"""A stable integer encoding of actions, for bots and reinforcement-learning frameworks.

Layout (the same for every variant; ``num_distinct_actions`` is its size):

==========  =====================================================================
codes       action
==========  =====================================================================
0..20       ``discard`` of card index 0..20
21..40      ``peng`` of card 0..19
41..60      ``pao`` of card 0..19
61..81      ``hu`` on card 0..20; 82: ``hu`` with no incoming card
83          ``pass``
84..1979    ``chi``: one code per (card, 吃 shape, multiset of 比 shapes), in a fixed order
1980..      ``chi`` with 王 (``deck.king_rules.claims`` ``chi``): one code per (card, 吃 shape
            and the cards its 王 stand for, multiset of 比 shapes each with the cards its 王
            stand for) with one or two 王 in all, in a fixed order, in three tiers: one 王
            in the 吃 meld only (1980..4369), two 王 in the 吃 meld only (``chi_kings`` 2:
            4370..5811), a 王 in a 比 meld (``bi_kings``: 5812..17277)
==========  =====================================================================

The seat is not encoded: only the actor has legal actions. The layout is one for every
variant, and a variant uses a prefix of it: ``num_distinct_actions(variant)`` is 1980 where a
王 never joins a 吃, and ends after the last tier the variant's ``deck.king_rules`` allows, so
a policy for a variant without 王 in 比 melds needs 4370 or 5812 outputs, not 17278.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

from ..arguments import int_arg, items_of, of_type
from ..errors import IllegalActionError
from ..melds import Meld, chi_meld, chi_shapes_with
from ..variant import Variant, VariantLike, as_variant
from .actions import MAX_PLAN_KINGS, Action, ActionKind

PENG0, PAO0, HU0, HU_NONE, PASS, CHI0 = 21, 41, 61, 82, 83, 84

#: a chi-type meld of a plan: its sorted cards and the sorted cards its 王 stand for
_Shape = tuple[tuple[int, ...], tuple[int, ...]]
_KingKey = tuple[int, _Shape, tuple[_Shape, ...]]


@cache
def _chi_table() -> tuple[tuple[tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]], ...],
                          dict[tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...]], int]]:
    """Every (card, chi shape, sorted 比 shapes) a plan can have: at most two 比 melds, since
    a hand holding three more copies would hold a 坎 and 跑 instead."""
    keys = []
    for card in range(20):
        shapes = sorted(set(chi_shapes_with(card)))
        for chi in shapes:
            for n in range(3):
                for bis in itertools.combinations_with_replacement(shapes, n):
                    keys.append((card, chi, tuple(sorted(bis))))
    return tuple(keys), {k: CHI0 + i for i, k in enumerate(keys)}


def _stand_ins(cards: list[int]) -> list[tuple[int, ...]]:
    """The sorted multisets of ``cards`` (the hand cards of a chi shape) a 王 may stand for,
    the empty one first."""
    out: set[tuple[int, ...]] = {()} | {(i,) for i in cards}
    if len(cards) == 2:
        out.add(tuple(sorted(cards)))
    return sorted(out, key=lambda k: (len(k), k))


@cache
def _king_chi_table() -> tuple[tuple[_KingKey, ...], dict[_KingKey, int]]:
    """Every (card, 吃 shape with its 王, sorted 比 shapes with their 王) with one or two 王 in
    all: in a 吃 meld a 王 stands for either hand card or both; in a 比 meld for cards other
    than the claimed card's kind. The plan holds at most three real copies of the claimed
    card (it and the two a hand may hold outside a 坎). Codes follow :func:`_chi_table`'s."""
    keys = []
    for card in range(20):
        shapes = sorted(set(chi_shapes_with(card)))
        chis, bis = [], []
        for shape in shapes:
            hand = list(shape)
            hand.remove(card)
            chis += [(shape, k) for k in _stand_ins(hand)]
            bis += [(shape, k) for k in _stand_ins([i for i in hand if i != card])]
        for chi in chis:
            for n in range(3):
                for bi in itertools.combinations_with_replacement(bis, n):
                    if 1 <= len(chi[1]) + sum(len(k) for _, k in bi) <= MAX_PLAN_KINGS \
                            and _real(card, chi) + sum(_real(card, b) for b in bi) <= 3:
                        keys.append((card, chi, tuple(sorted(bi))))
    keys.sort(key=_tier)  # stable: the order above within each tier
    start = CHI0 + len(_chi_table()[0])
    return tuple(keys), {k: start + i for i, k in enumerate(keys)}


def _tier(key: _KingKey) -> int:
    """0: one 王, in the 吃 meld; 1: two 王, both in the 吃 meld; 2: a 王 in a 比 meld."""
    _, (_, kings), bis = key
    return 2 if any(k for _, k in bis) else len(kings) - 1


@cache
def _tier_ends() -> tuple[int, int, int]:
    """The code after the last of each tier of :func:`_king_chi_table`."""
    keys, codes = _king_chi_table()
    start = CHI0 + len(_chi_table()[0])
    ends = [start, start, start]
    for key in keys:
        ends[_tier(key)] = codes[key] + 1
    return ends[0], max(ends[0], ends[1]), max(ends[0], ends[1], ends[2])


def num_distinct_actions(variant: VariantLike | None = None) -> int:
    """Size of the action code space (17278), or with a ``variant`` the prefix of it that the
    variant's actions use: 1980 where a 王 never joins a 吃 (``deck.king_rules.claims``
    without ``chi``), else the end of the last tier its ``chi_kings`` and ``bi_kings``
    allow (4370, 5812 or 17278). ``variant``: a :class:`Variant` or a name
    (:func:`~zipai_rules.variant.as_variant`; :class:`~zipai_rules.errors.VariantError` for
    neither)."""
    one, two, every = _tier_ends()
    if variant is None:
        return every
    rules = as_variant(variant).deck.king_rules
    if "chi" not in rules.claims:
        return CHI0 + len(_chi_table()[0])
    if rules.bi_kings:
        return every
    return two if rules.chi_kings >= 2 else one


# the kinds, looked up once (an enum member read from its class costs more than the test)
_DISCARD, _CHI, _PENG, _PAO, _HU, _PASS = (ActionKind.DISCARD, ActionKind.CHI, ActionKind.PENG,
                                           ActionKind.PAO, ActionKind.HU, ActionKind.PASS)


def encode_action(action: Action) -> int:
    """The integer code of an action. Raises :class:`IllegalActionError` for an action the
    encoding cannot hold (e.g. a malformed 吃 plan), :class:`~zipai_rules.errors.ZipaiError`
    (``bad_argument``) for a value that is no :class:`Action`."""
    if type(action) is not Action:  # the masks encode every legal action: the common case
        of_type(action, Action, "action", "an Action")
    k, c = action.kind, action.card
    if k is _DISCARD:
        if c is not None:
            return c
    elif k is _CHI:
        if c is not None and action.melds:
            code = _chi_code(c, action.melds)
            if code is not None:
                return code
    elif k is _PASS:
        return PASS
    elif k is _PENG or k is _PAO:
        if c is not None and c < 20:
            return (PENG0 if k is _PENG else PAO0) + c
    elif k is _HU:
        return HU_NONE if c is None else HU0 + c
    raise IllegalActionError(f"{action} has no action code", code="unencodable_action")


def _chi_code(card: int, melds: tuple[Meld, ...]) -> int | None:
    """The code of a 吃 of ``card`` with the plan ``melds``, ``None`` if the table has none."""
    first, rest = melds[0], melds[1:]
    if first.kings or any(m.kings for m in rest):
        return _king_chi_table()[1].get((card, _shape(first), tuple(sorted(map(_shape, rest)))))
    bis = () if not rest else (rest[0].cards,) if len(rest) == 1 else \
        tuple(sorted(m.cards for m in rest))
    return _chi_table()[1].get((card, first.cards, bis))


def decode_action(code: int, seat: int) -> Action:
    """The action of ``seat`` with this code. Raises :class:`IllegalActionError` for a code
    outside ``0..num_distinct_actions() - 1``, :class:`~zipai_rules.errors.ZipaiError`
    (``bad_argument``) for a code or seat that is not an ``int`` (a seat is also
    non-negative)."""
    int_arg(code, "code")
    int_arg(seat, "seat", 0)
    if not 0 <= code < num_distinct_actions():
        raise IllegalActionError(f"action code {code} outside 0..{num_distinct_actions() - 1}",
                                 code="unencodable_action")
    if code < PENG0:
        return Action(ActionKind.DISCARD, seat, code)
    if code < PAO0:
        return Action(ActionKind.PENG, seat, code - PENG0)
    if code < HU0:
        return Action(ActionKind.PAO, seat, code - PAO0)
    if code < HU_NONE:
        return Action(ActionKind.HU, seat, code - HU0)
    if code == HU_NONE:
        return Action(ActionKind.HU, seat)
    if code == PASS:
        return Action(ActionKind.PASS, seat)
    plain = _chi_table()[0]
    if code - CHI0 < len(plain):
        card, chi, bis = plain[code - CHI0]
        melds = (chi_meld(chi, claimed=card),) + tuple(chi_meld(b, bi=True) for b in bis)
        return Action(ActionKind.CHI, seat, card, melds)
    card, (cards, kings), king_bis = _king_chi_table()[0][code - CHI0 - len(plain)]
    melds = (chi_meld(cards, claimed=card, kings=kings),) + tuple(
        chi_meld(b, bi=True, kings=k) for b, k in king_bis)
    return Action(ActionKind.CHI, seat, card, melds)


def _real(card: int, shape: _Shape) -> int:
    """Real copies of ``card`` in a chi-type meld (a 王 standing for it is no copy)."""
    cards, kings = shape
    return cards.count(card) - kings.count(card)


def _shape(meld: Meld) -> _Shape:
    return meld.cards, meld.kings


def legal_mask(options: Sequence[Action], variant: Variant | None = None) -> list[bool]:
    """A ``num_distinct_actions(variant)``-long mask, True at the codes of ``options`` (the
    legal actions of a game of ``variant``, whose codes all lie in that prefix). Raises
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for ``options`` that are not a
    list of :class:`Action` values, :class:`IllegalActionError` for an action whose code lies
    outside the variant's prefix."""
    options = items_of(options, Action, "options", "an Action")
    mask = [False] * num_distinct_actions(variant)
    for a in options:
        code = encode_action(a)
        if code >= len(mask):
            raise IllegalActionError(f"options: {a} has code {code}, outside the "
                                     f"{len(mask)} codes of the variant's actions",
                                     code="unencodable_action")
        mask[code] = True
    return mask
