"""臭牌: whether a seat may still 吃 or 碰 a card kind, and what a declined take marks.

:func:`chou_reason` is the one decision of whether a card is 臭 for a 吃 or a 碰: the claim
options (:func:`~zipai_rules.engine.claims.tier_plans`), the refusals and the 臭偎 (a 偎 of a
card 臭 for 碰, ``chou.chou_wei_after_declined_peng``) ask it; the testing kit's machine checks
the options against its own record of the passes. :func:`decline_marks` says what a pass
leaves; the engine makes the marks (``engine/transition.py``) and keeps them in the seat's sets
(``SeatState.chou_chi_cards``, ``chou_peng_cards``, ``own_chou``), which a seat's view shows to
that seat only.

The variant's ``chou`` section (digest C8):

* ``chi`` / ``peng``: a declined 吃 / 碰 makes the card 臭;
* ``scope``: for what. ``both``: "玩家可以吃、碰却选择不吃、不碰时，这张牌就成了该玩家的臭牌，
  第二次牌桌上再出现同张牌时，该玩家不得再吃或者碰" (``003_5cd7634dfd57d897.txt``; likewise
  ``004_4a6d8adec4e0ba73.txt`` 第四条8, ``001_5964eea38dea0018.txt``, ``000`` §永州双王扯胡子规则):
  the card is 臭 for 吃 and 碰 alike, whichever was on offer. ``separate``: "本人想吃而未吃 …
  本人不得再吃 … 本人能碰而未碰，即使别人再打也不能碰了" (``000_cdb63c032605c9a1.txt``
  §衡阳十胡抢牌型规则): a declined 吃 blocks 吃, a declined 碰 blocks 碰;
* ``blocks_on``: the sources on which a card 臭 for 吃 by a decline may not be 吃'd; a card 臭
  for 碰 is never 碰'd, on any source;
* ``own_discards``: a card kind one discarded (or drew and left) oneself is never 吃'd or 碰'd
  again, on any source ("任何人也不能吃或者碰自己曾经打出过的牌", 003).

Under ``both`` the mark for the kind not on offer is made once the card is gone (taken by
another seat, or gone to a discard area): the seats are asked tier by tier (胡, 跑/碰, 吃), and
a seat that passes a 碰 may still 吃 the same card in the 吃 tier ("当有碰牌时，不碰才能吃",
001); the block is for the card's "第二次 … 再出现". A seat that takes the card is not marked.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from ..variant import Variant
from .actions import ActionKind
from .state import SeatState

#: the enum members read here, bound once (docs/benchmarks.md, "Enum members bound once")
_ACTION_CHI: Final = ActionKind.CHI
_ACTION_PENG: Final = ActionKind.PENG

#: :func:`chou_reason`: a card kind the seat let go itself (``chou.own_discards``)
OWN = "own"
#: :func:`chou_reason`: a card kind the seat declined to take before
DECLINED = "declined"


def chou_reason(variant: Variant, seat: SeatState, card: int, kind: str,
                source: str) -> str | None:
    """Why ``card`` (a card index) is 臭 for ``seat``'s ``kind`` of take (``chi`` or
    ``peng``; any other kind is never 臭) of a card from ``source`` (``draw``, a card shown
    from the wall, the seat's own draw included; ``discard``): :data:`OWN`, it discarded (or
    drew and left) this kind itself, never taken again on any source; :data:`DECLINED`, it
    declined a take of this kind before (a 碰 on any source, a 吃 on the sources of
    ``chou.blocks_on``); ``None``: not 臭. Raises nothing."""
    if kind == _ACTION_PENG:
        if card in seat.chou_peng_cards:
            return OWN if card in seat.own_chou else DECLINED
        return None
    if kind != _ACTION_CHI:
        return None
    if card in seat.own_chou:
        return OWN
    if card in seat.chou_chi_cards and source in variant.chou.blocks_on:
        return DECLINED
    return None


def decline_marks(variant: Variant, kinds: Collection[str]) -> tuple[bool, bool, bool]:
    """What a seat's pass of an offer holding the option ``kinds`` marks: ``(chi, peng,
    later)``, the card 臭 for 吃 now, for 碰 now, and (``scope: both``) for both once the
    card is gone. A pass of the 亮张 or of a 胡 alone marks none of these (臭胡 is
    ``win.chou_hu``)."""
    rules = variant.chou
    chi = rules.chi and _ACTION_CHI in kinds
    peng = rules.peng and _ACTION_PENG in kinds
    return chi, peng, rules.both and (chi or peng)
