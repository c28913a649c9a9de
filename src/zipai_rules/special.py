"""Special wins that variant data cannot express, registered by name.

A variant lists the names it uses under ``win.special``; the loader rejects names missing from
:data:`zipai_rules.hooks.SPECIAL_WINS`, the list this module fills (one function per name).
Each hook looks at one seat (concealed counts, table melds, whether it deals) and returns the
:class:`SpecialShape` of its win or ``None``; :func:`zipai_rules.analysis.instant_win` turns it
into the verdict that the engine (after the deal and after every forced 提/偎 of that seat) and
``analyze`` share. A fixed-value shape (:data:`zipai_rules.hooks.FIXED_VALUE_WINS`, e.g.
``wu_hu``) is judged instead on the best decomposition of a complete hand that falls short of
the threshold, by :func:`zipai_rules.analysis.win_verdict`, and gives the 胡息 it scores as.
Hooks never run user-supplied code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

import attrs

from .cards import indices_of
from .hooks import FIXED_VALUE_WINS as FIXED_NAMES
from .hooks import SPECIAL_WINS as HOOK_NAMES
from .melds import Meld, MeldKind
from .variant import Variant

#: the enum members read here, bound once (docs/benchmarks.md, "Enum members bound once")
_MELD_JIANG: Final = MeldKind.JIANG
_MELD_KAN: Final = MeldKind.KAN
_MELD_TI: Final = MeldKind.TI
_MELD_WEI: Final = MeldKind.WEI


@attrs.frozen(slots=True)
class SpecialShape:
    """A special win's shape: its ``label`` (the hook's name), the concealed ``hand_melds`` it
    names and the ``leftover`` cards it waives; the table melds count as they lie."""

    label: str
    hand_melds: tuple[Meld, ...] = ()
    leftover: tuple[int, ...] = ()


SpecialWin = Callable[[Variant, Sequence[int], Sequence[Meld], bool, int], SpecialShape | None]
"""A special-win hook: (variant, concealed counts, table melds, whether the seat deals, runs of
偎 that count as 提: ``win.wei_run_as_ti``) → its shape or ``None``."""


def _win(variant: Variant, melds: Sequence[Meld], hand_melds: Sequence[Meld],
         leftover: Sequence[int], label: str) -> SpecialShape:
    return SpecialShape(label, tuple(hand_melds), tuple(leftover))


def two_ti(variant: Variant, hand: Sequence[int], melds: Sequence[Meld], dealer: bool,
           runs: int = 0) -> SpecialShape | None:
    """碰胡 2 提蛇: two 提 on the table win at once, whatever the other cards
    ("如果摸上来有2双提蛇的牌 … 一定要放在桌面上，并视为胡牌", ``000_cdb63c032605c9a1.txt
    §碰胡规则``). The other cards are leftovers. Each of the seat's ``runs`` (``win.wei_run_as_ti``
    偎 in a row on its own draws: "摸上来的牌连扫三次也叫提蛇") counts as one more 提."""
    if sum(1 for m in melds if m.kind == _MELD_TI) + runs < 2:
        return None
    return _win(variant, melds, (), indices_of(hand), "two_ti")


def xiao_qi_dui(variant: Variant, hand: Sequence[int], melds: Sequence[Meld], dealer: bool,
                runs: int = 0) -> SpecialShape | None:
    """碰胡 小七对: a concealed hand of 7 pairs (a non-dealer's 14 cards) wins at once; the dealer
    "必须带一个扫": 6 pairs plus one 扫 (偎) or 坎 (``000_cdb63c032605c9a1.txt §碰胡规则``
    "摸到7对牌 … 庄家摸到7对牌，必须带一个扫"; the dealer's shape is the digest's reading [D,
    weak])."""
    pairs = [i for i in range(20) if hand[i] == 2]
    triples = [i for i in range(20) if hand[i] == 3]
    wei = [m for m in melds if m.kind in (_MELD_WEI, _MELD_KAN)]
    if any(hand[i] not in (0, 2, 3) for i in range(20)) or hand[20]:
        return None
    if not dealer and len(pairs) == 7 and not triples and not melds:
        hand_melds = [Meld(_MELD_JIANG, (i, i)) for i in pairs]
        return _win(variant, (), hand_melds, (), "xiao_qi_dui")
    if dealer and len(pairs) == 6 and len(triples) + len(wei) == 1 and len(melds) == len(wei):
        hand_melds = [Meld(_MELD_JIANG, (i, i)) for i in pairs]
        hand_melds += [Meld(_MELD_KAN, (i,) * 3) for i in triples]
        return _win(variant, melds, hand_melds, (), "xiao_qi_dui")
    return None


#: 耒阳 无胡's value: the 胡息 a complete hand with none scores as
WU_HU_HUXI = 21


def wu_hu(variant: Variant, melds: Sequence[Meld], huxi: int, leftover: Sequence[int]
          ) -> int | None:
    """耒阳 无胡: a complete hand (no ``leftover``) whose ``melds`` (table and hand) total 0
    ``huxi`` with no pair (将) scores as :data:`WU_HU_HUXI` (21) 胡息; ``None`` otherwise."""
    if huxi or leftover or any(m.kind == _MELD_JIANG for m in melds):
        return None
    return WU_HU_HUXI


#: a fixed-value shape: (variant, the decomposition's melds, its 胡息, its leftover cards) →
#: the 胡息 the hand scores as, or ``None``
FixedValueWin = Callable[[Variant, Sequence[Meld], int, Sequence[int]], int | None]

SPECIAL_WINS: dict[str, SpecialWin] = {name: globals()[name] for name in HOOK_NAMES
                                       if name not in FIXED_NAMES}
FIXED_VALUE_WINS: dict[str, FixedValueWin] = {name: globals()[name] for name in FIXED_NAMES}


def special_win(variant: Variant, hand: Sequence[int], melds: Sequence[Meld], dealer: bool,
                runs: int = 0) -> SpecialShape | None:
    """The first of the variant's special wins this seat has, or ``None``; ``runs``: its runs
    of 偎 that count as 提 (``win.wei_run_as_ti``)."""
    for name in variant.win.special:
        if name not in SPECIAL_WINS:
            continue  # a fixed-value shape: see fixed_value_win
        found = SPECIAL_WINS[name](variant, hand, melds, dealer, runs)
        if found is not None:
            return found
    return None


def fixed_value_win(variant: Variant, melds: Sequence[Meld], huxi: int,
                    leftover: Sequence[int]) -> tuple[str, int] | None:
    """The first of the variant's fixed-value shapes a complete hand of ``melds`` (table and
    hand) worth ``huxi`` with ``leftover`` cards has, as ``(name, 胡息 it scores as)``, or
    ``None``."""
    for name in variant.win.special:
        hook = FIXED_VALUE_WINS.get(name)
        value = None if hook is None else hook(variant, melds, huxi, leftover)
        if value is not None:
            return name, value
    return None
