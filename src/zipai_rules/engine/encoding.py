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
84..        ``chi``: one code per (card, 吃 shape, multiset of 比 shapes), in a fixed order
==========  =====================================================================

The seat is not encoded: only the actor has legal actions.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

from ..errors import IllegalActionError
from ..melds import chi_meld, chi_shapes_with
from .actions import Action, ActionKind

PENG0, PAO0, HU0, HU_NONE, PASS, CHI0 = 21, 41, 61, 82, 83, 84


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


def num_distinct_actions() -> int:
    """Size of the action code space."""
    return CHI0 + len(_chi_table()[0])


def encode_action(action: Action) -> int:
    """The integer code of an action. Raises :class:`IllegalActionError` for an action the
    encoding cannot hold (e.g. a malformed 吃 plan)."""
    k, c = action.kind, action.card
    if k == ActionKind.DISCARD and c is not None:
        return c
    if k == ActionKind.PENG and c is not None and c < 20:
        return PENG0 + c
    if k == ActionKind.PAO and c is not None and c < 20:
        return PAO0 + c
    if k == ActionKind.HU:
        return HU_NONE if c is None else HU0 + c
    if k == ActionKind.PASS:
        return PASS
    if k == ActionKind.CHI and c is not None and action.melds:
        key = (c, action.melds[0].cards, tuple(sorted(m.cards for m in action.melds[1:])))
        code = _chi_table()[1].get(key)
        if code is not None:
            return code
    raise IllegalActionError(f"{action} has no action code", code="unencodable_action")


def decode_action(code: int, seat: int) -> Action:
    """The action of ``seat`` with this code. Raises :class:`IllegalActionError` for a code
    outside ``0..num_distinct_actions() - 1``."""
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
    card, chi, bis = _chi_table()[0][code - CHI0]
    melds = (chi_meld(chi, claimed=card),) + tuple(chi_meld(b, bi=True) for b in bis)
    return Action(ActionKind.CHI, seat, card, melds)


def legal_mask(options: Sequence[Action]) -> list[bool]:
    """A ``num_distinct_actions()``-long mask, True at the codes of ``options``."""
    mask = [False] * num_distinct_actions()
    for a in options:
        mask[encode_action(a)] = True
    return mask
