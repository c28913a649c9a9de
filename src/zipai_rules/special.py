"""Special wins that variant data cannot express, registered by name.

A variant lists the names it uses under ``win.special``; the loader rejects names missing from
:data:`zipai_rules.hooks.SPECIAL_WINS`, the list this module fills (one function per name).
Each hook looks at one seat (concealed counts, table melds, whether it deals) and returns the
:class:`SpecialShape` of its win or ``None``; :func:`zipai_rules.analysis.instant_win` turns it
into the verdict that the engine (after the deal and after every forced 提/偎 of that seat) and
``analyze`` share. Hooks never run user-supplied code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from .cards import indices_of
from .hooks import SPECIAL_WINS as HOOK_NAMES
from .melds import Meld, MeldKind
from .variant import Variant


@attrs.frozen(slots=True)
class SpecialShape:
    """A special win's shape: its ``label`` (the hook's name), the concealed ``hand_melds`` it
    names and the ``leftover`` cards it waives; the table melds count as they lie."""

    label: str
    hand_melds: tuple[Meld, ...] = ()
    leftover: tuple[int, ...] = ()


SpecialWin = Callable[[Variant, Sequence[int], Sequence[Meld], bool], SpecialShape | None]


def _win(variant: Variant, melds: Sequence[Meld], hand_melds: Sequence[Meld],
         leftover: Sequence[int], label: str) -> SpecialShape:
    return SpecialShape(label, tuple(hand_melds), tuple(leftover))


def two_ti(variant: Variant, hand: Sequence[int], melds: Sequence[Meld], dealer: bool
           ) -> SpecialShape | None:
    """碰胡 2 提蛇: two 提 on the table win at once, whatever the other cards
    ("如果摸上来有2双提蛇的牌 … 一定要放在桌面上，并视为胡牌", ``000_cdb63c032605c9a1.txt
    §碰胡规则``). The other cards are leftovers."""
    if sum(1 for m in melds if m.kind == MeldKind.TI) < 2:
        return None
    return _win(variant, melds, (), indices_of(hand), "two_ti")


def xiao_qi_dui(variant: Variant, hand: Sequence[int], melds: Sequence[Meld], dealer: bool
                ) -> SpecialShape | None:
    """碰胡 小七对: a concealed hand of 7 pairs (a non-dealer's 14 cards) wins at once; the dealer
    "必须带一个扫": 6 pairs plus one 扫 (偎) or 坎 (``000_cdb63c032605c9a1.txt §碰胡规则``
    "摸到7对牌 … 庄家摸到7对牌，必须带一个扫"; the dealer's shape is the digest's reading [D,
    weak])."""
    pairs = [i for i in range(20) if hand[i] == 2]
    triples = [i for i in range(20) if hand[i] == 3]
    wei = [m for m in melds if m.kind in (MeldKind.WEI, MeldKind.KAN)]
    if any(hand[i] not in (0, 2, 3) for i in range(20)) or hand[20]:
        return None
    if not dealer and len(pairs) == 7 and not triples and not melds:
        hand_melds = [Meld(MeldKind.JIANG, (i, i)) for i in pairs]
        return _win(variant, (), hand_melds, (), "xiao_qi_dui")
    if dealer and len(pairs) == 6 and len(triples) + len(wei) == 1 and len(melds) == len(wei):
        hand_melds = [Meld(MeldKind.JIANG, (i, i)) for i in pairs]
        hand_melds += [Meld(MeldKind.KAN, (i,) * 3) for i in triples]
        return _win(variant, melds, hand_melds, (), "xiao_qi_dui")
    return None


SPECIAL_WINS: dict[str, SpecialWin] = {name: globals()[name] for name in HOOK_NAMES}


def special_win(variant: Variant, hand: Sequence[int], melds: Sequence[Meld], dealer: bool
                ) -> SpecialShape | None:
    """The first of the variant's special wins this seat has, or ``None``."""
    for name in variant.win.special:
        found = SPECIAL_WINS[name](variant, hand, melds, dealer)
        if found is not None:
            return found
    return None
