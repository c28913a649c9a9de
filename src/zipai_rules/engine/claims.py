"""Who may take an exposed card, and how: 胡, 跑, 碰 and 吃 with its whole 比 plan.

Claim tiers come from the variant (``claims.priority``, default 胡 > 跑/碰 > 吃:
``001_5964eea38dea0018.txt`` "当有人胡牌时，不胡才能碰或吃，当有碰牌时，不碰才能吃"); within a tier
seats are asked in turn order starting from the seat that exposed the card ("如果是自己摸的牌，
则自己优先胡牌;如果是其他两家要胡牌，则下家优先可以胡", ``003_5cd7634dfd57d897.txt``).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterator
from itertools import compress
from typing import Final

from ..analysis import Analysis, ready, win_verdict
from ..cards import KING
from ..melds import Meld, MeldKind, chi_meld, chi_shapes_with
from ..variant import Variant
from ..vocab import Label, ResultKind, Source
from ..worth import Occasion
from .actions import MAX_PLAN_KINGS, Action, ActionKind, option
from .chou import chou_reason
from .state import PaoTarget, Plan, Result, SeatState, WinContext

#: the enum members read here, bound once (docs/benchmarks.md, "Enum members bound once")
_ACTION_CHI: Final = ActionKind.CHI
_ACTION_DISCARD: Final = ActionKind.DISCARD
_ACTION_HU: Final = ActionKind.HU
_ACTION_PAO: Final = ActionKind.PAO
_ACTION_PASS: Final = ActionKind.PASS
_ACTION_PENG: Final = ActionKind.PENG
_LABEL_DIHU: Final = Label.DIHU
_LABEL_JUSHOU: Final = Label.JUSHOU
_LABEL_ZIMO: Final = Label.ZIMO
_MELD_CHOU_WEI: Final = MeldKind.CHOU_WEI
_MELD_PENG: Final = MeldKind.PENG
_MELD_WEI: Final = MeldKind.WEI
_RESULT_HU: Final = ResultKind.HU
_SOURCE_DISCARD: Final = Source.DISCARD
_SOURCE_DRAW: Final = Source.DRAW
_SOURCE_SELF: Final = Source.SELF

WEI_KINDS = frozenset({_MELD_WEI, _MELD_CHOU_WEI})

#: values a candidate win in units (:func:`win_units` bound to a seat, card and table)
WinWorth = Callable[[Analysis], int]
PENG_KINDS = frozenset({_MELD_PENG})


def locked(variant: Variant, hand: tuple[int, ...] | list[int]) -> set[int]:
    """Card kinds that may not leave the hand by 吃/比/discard: every 坎 (it stays whole,
    "一坎牌不能拆散与其他牌组合") and the wild king."""
    out = {i for i in range(20) if hand[i] >= 3}
    if hand[KING]:
        out.add(KING)
    return out


def chi_plans(variant: Variant, hand: tuple[int, ...], card: int,
              table: tuple[Meld, ...] = ()) -> list[tuple[Meld, ...]]:
    """Every complete 吃 plan for ``card`` from a concealed ``hand`` (21 counts).

    A plan is the 吃 meld (``claimed=card``) followed by the 比 melds that lay down every
    remaining copy of ``card`` in the hand ("吃牌时,如果你手中有同样的牌,必须比",
    ``000_cdb63c032605c9a1.txt §跑胡子玩牌规则``). When the 比 cannot be completed there is no plan
    ("如果玩家符合吃牌的条件但达不到比牌的条件 … 则不允许吃牌", ``003_5cd7634dfd57d897.txt``).
    Cards of a 坎 are never used; under ``claims.kan_blocks_chi`` a 坎 of ``card`` itself
    leaves no plan at all (郴州: Riversteel6/Aizipai ``chenzhou_zipai_ai/engine/chi_rules.py``
    ``enumerate_chi_plans``).

    With ``chi`` in ``deck.king_rules.claims`` a 王 may stand for a hand card of the 吃 meld
    that the hand lacks ("王霸可以代替任何牌进行游戏", ``000_cdb63c032605c9a1.txt
    §永州双王扯胡子规则``): at most ``chi_kings`` in one meld, at most two in a plan; with
    ``bi_kings`` also in a 比 meld, for a card other than ``card``. Real cards come first: a
    王 fills only a card the hand does not hold, and the 比 counts real copies only. A 王 is
    never a fifth copy of a card among the player's own cards (``hand``, its ``table`` melds
    and the claimed card).
    """
    if card < KING and hand[card] >= 3 and variant.claims.kan_blocks_chi:
        return []  # a 坎 of the card blocks its 吃
    if hand[KING] and "chi" in variant.deck.king_rules.claims:
        return _king_chi_plans(variant, hand, card, table)
    # without a 王 a plan uses only the cards of the chi shapes holding ``card``: the same
    # nearby counts (a 坎 counted 0) give the same plans
    if card >= KING:
        return []  # a 王 is in no chi shape
    counts = _NEAR_COUNTS[card](hand)
    if 3 in counts:
        counts = tuple(n if n < 3 else 0 for n in counts)
    for need in _PARTNERS[card]:  # a shape whose other cards the hand holds free, or none
        for j, k in need:
            if counts[j] <= k:
                break
        else:
            return list(_chi_plans_near(card, counts))
    return []


def _near(card: int) -> tuple[int, ...]:
    """The card kinds of every chi shape holding ``card``."""
    return tuple(sorted({i for shape in chi_shapes_with(card) for i in shape}))


def _partners(card: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each chi shape holding ``card``, the other cards it needs from the hand: pairs of a
    position in :func:`_near` ``card`` and the count that the hand must hold more than there
    (outside a 坎)."""
    near = _near(card)
    out = []
    for shape in chi_shapes_with(card):
        need = list(shape)
        need.remove(card)
        out.append(tuple((near.index(i), need.count(i) - 1) for i in sorted(set(need))))
    return tuple(out)


#: per card, the reader of a hand's counts of the kinds :func:`_near` it
_NEAR = [_near(card) for card in range(20)]
_NEAR_COUNTS = [operator.itemgetter(*near) for near in _NEAR]
_PARTNERS = [_partners(card) for card in range(20)]


def _shapes(card: int) -> tuple[tuple[tuple[int, ...], list[int]], ...]:
    """Each chi shape holding ``card`` with the other cards it needs (``card`` once out)."""
    out = []
    for shape in chi_shapes_with(card):
        need = list(shape)
        need.remove(card)
        out.append((shape, need))
    return tuple(out)


#: :func:`_shapes` of every card (the 王 none)
_SHAPES = [_shapes(card) for card in range(20)] + [()]


@functools.lru_cache(maxsize=32768)  # every nearby count of every card: about 27,000
def _chi_plans_near(card: int, counts: tuple[int, ...]) -> tuple[tuple[Meld, ...], ...]:
    """:func:`chi_plans` with no 王, from the free ``counts`` of the kinds :func:`_near`
    ``card`` (a 坎 counted 0)."""
    avail = [0] * (KING + 21)  # the hand's free cards; from index 21 on no room for a 王
    for i, n in zip(_NEAR[card], counts, strict=True):
        avail[i] = n
    plans: set[tuple[Meld, ...]] = set()
    for shape, need in _SHAPES[card]:
        rest = list(avail)
        if _take_or_stand(rest, need, 0) is None:
            continue
        chi = _chi_meld(shape, card, False, ())
        for bis in _bi(rest, card):
            plans.add((chi,) + tuple(sorted(bis, key=lambda m: m.cards)))
    return tuple(sorted(plans, key=lambda p: [m.cards for m in p]))


def _king_chi_plans(variant: Variant, hand: tuple[int, ...], card: int,
                    table: tuple[Meld, ...]) -> list[tuple[Meld, ...]]:
    """:func:`chi_plans` of a hand holding a 王 that may stand in a 吃."""
    rules = variant.deck.king_rules
    kings = min(hand[KING], MAX_PLAN_KINGS)
    per_meld = min(kings, rules.chi_kings)
    avail = list(hand)
    for i in locked(variant, hand):
        avail[i] = 0
    room = [variant.deck.copies - hand[i] - (i == card) for i in range(20)]
    for m in table:
        for i in m.cards:
            room[i] -= 1
    plans: set[tuple[Meld, ...]] = set()
    for shape, need in _SHAPES[card]:
        rest = list(avail) + room
        stand = _take_or_stand(rest, need, per_meld)
        if stand is None:
            continue
        chi = _chi_meld(shape, card, False, stand)
        left = kings - len(stand) if rules.bi_kings else 0
        for bis in _bi(rest, card, per_meld, left):
            plans.add((chi,) + tuple(sorted(bis, key=lambda m: (m.cards, m.kings))))
    return sorted(plans, key=lambda p: [(m.cards, m.kings) for m in p])


@functools.lru_cache(maxsize=1024)
def _chi_meld(shape: tuple[int, ...], claimed: int | None, bi: bool,
              kings: tuple[int, ...]) -> Meld:
    """The 吃 or 比 meld of a chi shape with the cards its 王 stand for (a small set, each
    built once)."""
    return chi_meld(shape, claimed=claimed, bi=bi, kings=kings)


def _take_or_stand(counts: list[int], cards: list[int], kings: int) -> tuple[int, ...] | None:
    """Takes ``cards`` from ``counts`` (the free cards of the hand, then from index 21 on the
    room each kind has for a 王), a 王 standing for each card missing, at most ``kings`` of
    them: the cards the 王 stand for, or ``None`` when more are missing."""
    stand: list[int] = []
    for i in cards:
        if counts[i] > 0:
            counts[i] -= 1
        elif counts[KING + 1 + i] > 0:
            counts[KING + 1 + i] -= 1
            stand.append(i)
        else:
            return None
    return tuple(stand) if len(stand) <= kings else None


def _bi(rest: list[int], card: int, per_meld: int = 0, kings: int = 0
        ) -> Iterator[tuple[Meld, ...]]:
    """The 比 melds laying down every copy of ``card`` left in ``rest``, at most ``per_meld``
    王 standing in one and ``kings`` in all (never for ``card``: the 比 lays real copies)."""
    if rest[card] == 0:
        yield ()
        return
    for shape, need in _SHAPES[card]:
        r2 = list(rest)
        r2[card] -= 1  # the real copy the 比 lays down
        others = [i for i in need if i != card]
        r2[card] -= len(need) - len(others)
        if r2[card] < 0:
            continue
        stand = _take_or_stand(r2, others, min(per_meld, kings))
        if stand is None:
            continue
        meld = _chi_meld(shape, None, True, stand)
        for more in _bi(r2, card, per_meld, kings - len(stand)):
            yield (meld,) + more


def hand_after(hand: tuple[int, ...], melds: tuple[Meld, ...], card: int) -> list[int]:
    """The concealed counts after laying down ``melds`` (a 吃 plan: the 吃 meld and its 比
    melds) that contain the claimed ``card``: the one home of the removal of a plan. A 王
    standing in a meld leaves the hand as a 王."""
    out = list(hand)
    used = [i for m in melds for i in m.physical]
    used.remove(card)
    for i in used:
        out[i] -= 1
    return out


#: by a kind's count in a hand (0–4), whether one of it may be discarded: any held, or only
#: outside a 坎 or 提 (``discard.kan_discardable`` false)
_ANY_HELD = (False, True, True, True, True)
_FREE_HELD = (False, True, True, False, False)


def discardable(variant: Variant, hand: list[int] | tuple[int, ...]) -> list[int]:
    """Card kinds the player may discard: not a 坎 card unless the variant allows ("不能拆开作
    其它牌型，也不能打出去", ``004_4a6d8adec4e0ba73.txt`` 第五条4), never a 王 unless the variant
    allows ("王霸不能打出，只能代替牌", ``000_cdb63c032605c9a1.txt §永州双王扯胡子规则``)."""
    ok = _ANY_HELD if variant.discard.kan_discardable else _FREE_HELD
    out = list(compress(range(KING), map(ok.__getitem__, hand[:KING])))
    if hand[KING] and variant.deck.king_rules.discardable:
        out.append(KING)
    return out


def can_discard(variant: Variant, hand: list[int] | tuple[int, ...]) -> bool:
    """Whether the hand holds at least one card the variant lets a player discard
    (:func:`discardable` is not empty)."""
    counts = hand[:KING]
    if variant.discard.kan_discardable:
        if counts.count(0) != KING:
            return True
    elif 1 in counts or 2 in counts:
        return True
    return bool(hand[KING]) and variant.deck.king_rules.discardable


def discard_options(variant: Variant, seat: int, hand: tuple[int, ...]) -> tuple[Action, ...]:
    """One discard action per distinct discardable card kind (:func:`discardable`)."""
    made = _discards(seat)
    ok = _ANY_HELD if variant.discard.kan_discardable else _FREE_HELD
    out = tuple(compress(made, map(ok.__getitem__, hand[:KING])))
    if hand[KING] and variant.deck.king_rules.discardable:
        out += (made[KING],)
    return out


@functools.lru_cache(maxsize=16)
def _discards(seat: int) -> tuple[Action, ...]:
    """The discard action of ``seat`` for each card kind (the 王 last)."""
    return tuple(option(_ACTION_DISCARD, seat, i) for i in range(KING + 1))


def owes_discard(variant: Variant, seat: SeatState, extra_cards: int = 0, extra_quads: int = 0
                 ) -> bool:
    """Whether a player holding ``seat`` plus the given extras owes a discard (digest §1.4.0):
    more cards than the resting size, or, while the discard the ``skip_second`` rule for two
    or more dealt 提 makes first is still to be made, more than a player without 提 holds
    (the n − 1 skipped discards of n dealt 提 come after it: hzy docs/RULES.md 起手多条龙).
    Under ``skip_when_ready``, while the skip is still to come, the resting size itself: the
    discard is owed unless the player is 听牌 then (:func:`ready_skip`, which this does not
    judge: the answer for a take still to be made)."""
    held = seat.held + extra_cards
    resting = variant.resting_size(seat.quads + extra_quads)
    if held > resting or not seat.early_discard:
        return held > resting
    if variant.discard.dealt_double_quad == "skip_when_ready":
        return held >= resting
    return held > variant.deal.other_hand


def discard_left(variant: Variant, seat: SeatState, after: list[int] | tuple[int, ...]
                 ) -> bool:
    """Whether a 吃 or 碰 leaving the seat's concealed hand as ``after`` (21 counts) is
    allowed by the discard it then owes: it owes none (:func:`owes_discard`, the take
    counted), or ``after`` holds a card it may discard (:func:`can_discard`): a take that
    would leave only locked cards (坎, 王) is not offered."""
    return not owes_discard(variant, seat, 1) or can_discard(variant, after)


def ready_skip(variant: Variant, seat: SeatState) -> bool:
    """Whether the seat, dealt two or more 提 under ``discard.dealt_double_quad:
    skip_when_ready`` and not yet past the discard it skips, holds the resting size after a
    take and is 听牌 with those cards (:func:`~zipai_rules.analysis.ready`): then it does not
    discard. Guilin 004_4a6d8adec4e0ba73.txt 第五条7 "如果是起手就有两个4同牌的情况，照常打牌，在听
    牌的时候不打": two dealt 4同牌 need a card more to win (8 + 3k + 2), so one discard is
    skipped, and it is skipped when the player is ready."""
    return (seat.early_discard and variant.discard.dealt_double_quad == "skip_when_ready"
            and seat.held == variant.resting_size(seat.quads)
            and ready(variant, seat.hand, seat.melds))


def table_huxi(variant: Variant, seat: SeatState) -> int:
    """胡息 of the seat's table melds: the 当前胡息数 that 臭胡 compares."""
    return sum(variant.meld_huxi(m) for m in seat.melds)


def win_labels(variant: Variant, ctx: WinContext, s: int, seat: SeatState,
               source: Source | None, by: int | None, fresh: bool = False
               ) -> tuple[Label, ...]:
    """The labels of a win by seat ``s`` on a card from ``source`` exposed by ``by``:
    ``zimo`` for one's own draw; ``dihu`` per ``win.dihu``; ``jushou`` (举手胡, ``win.jushou``)
    for a non-dealer who had taken no card, the take that made the win not counted when
    ``fresh`` (a win checked right after one's own forced 偎/提/跑): "举手胡" (``duanly/hzy``
    ``docs/RULES.md`` 耒阳提龙; ``packages/engine/src/game.ts`` ``computeHu``)."""
    v = variant
    labels: tuple[Label, ...] = (_LABEL_ZIMO,) if source == _SOURCE_SELF else ()
    if v.win.dihu == "lianzhang":  # won on the 亮张 offered (hzy game.ts offerDiHu)
        if s != ctx.dealer and source == _SOURCE_DISCARD and by == ctx.dealer and ctx.lianzhang:
            labels += (_LABEL_DIHU,)
    elif v.win.dihu != "none" and s != ctx.dealer:
        first_draw = source in (_SOURCE_SELF, _SOURCE_DRAW) and ctx.wall == v.deal.wall - 1
        first_discard = (source == _SOURCE_DISCARD and by == ctx.dealer
                         and ctx.wall == v.deal.wall
                         and v.win.dihu == "first_discard_or_wall_card")
        if first_draw or first_discard:
            labels += (_LABEL_DIHU,)
    if v.win.jushou and s != ctx.dealer and (
            seat.first_take is None or (fresh and seat.first_take == ctx.turn)):
        labels += (_LABEL_JUSHOU,)
    return labels


def win_result(variant: Variant, win: Analysis, s: int, card: int | None,
               source: Source | None, labels: tuple[Label, ...], ctx: WinContext,
               kind: ResultKind = _RESULT_HU, discarder: int | None = None) -> Result:
    """The :class:`Result` of seat ``s`` winning with ``win``, taken with the split paid most
    on this occasion (:meth:`~zipai_rules.analysis.Analysis.taken`: its labels, the card, 海底
    when the wall is empty); the labels completed with the name of a fixed-value special win
    (``wu_hu``) that decided it."""
    win = win.taken(Occasion(labels, card, ctx.flipped is None))
    special = win.best.special if win.best is not None else None
    if special is not None and special not in labels:
        labels += (Label(special),)
    return Result(kind, s, card, source, win.huxi, win.best, labels, discarder=discarder,
                  flipped=ctx.flipped)


def win_units(variant: Variant, win: Analysis, s: int, card: int | None,
              source: Source | None, labels: tuple[Label, ...], ctx: WinContext) -> int:
    """Units each loser would owe for this win (before 醒 and the discarder's share): the
    valuation settlement makes (:meth:`~zipai_rules.variant.Scoring.value`)."""
    result = win_result(variant, win, s, card, source, labels, ctx)
    return variant.scoring.value(result).units


def hu_allowed(variant: Variant, seat: SeatState, card: int | None, source: str,
               worth: WinWorth | None = None) -> Analysis | None:
    """The winning analysis if the seat may win on this card now, else ``None``: the seat's
    state handed to :func:`~zipai_rules.analysis.win_verdict`, the one win decision.

    Under ``win.declined_must_be_beaten`` a seat that declined a win is offered one only when
    it is worth more units than any it declined ("耒阳：可以放弃胡", ``duanly/hzy``
    ``docs/RULES.md``; ``packages/engine/src/game.ts`` ``declineHu``, ``huOption``): ``worth``
    values the win (:func:`win_units` with the table's context); without it the rule is not
    applied (the bare win decision)."""
    a = win_verdict(variant, seat.hand, seat.melds, card, source, chou_hu=seat.chou_hu_marks,
                    explain=False)
    if not a.win:
        return None
    if worth is not None and seat.declined_units is not None \
            and variant.win.declined_must_be_beaten and worth(a) <= seat.declined_units:
        return None
    return a


def seat_worth(variant: Variant, ctx: WinContext, s: int, seat: SeatState, card: int | None,
               source: Source, by: int | None, fresh: bool = False) -> WinWorth:
    """A seat's candidate wins on ``card`` valued in units (:func:`win_units` with the
    labels :func:`win_labels` gives), worked out only when a win is valued (a seat that
    declined one under ``win.declined_must_be_beaten``): nothing on the claim path else."""
    return lambda win: win_units(variant, win, s, card, source,
                                 win_labels(variant, ctx, s, seat, source, by, fresh), ctx)


def peng_kings(variant: Variant, hand: tuple[int, ...], card: int) -> int | None:
    """How many 王 a 碰 of ``card`` from this concealed ``hand`` lays down: 0 with a real pair,
    1 when a 王 stands for the missing second card (``deck.king_rules.claims`` has ``peng``:
    "王霸可以代替任何牌进行游戏", ``000_cdb63c032605c9a1.txt §永州双王扯胡子规则``); ``None`` when
    the hand cannot 碰 it. Real cards come first: a 王 fills only what is missing."""
    if card == KING:
        return None
    if hand[card] == 2:
        return 0
    if hand[card] == 1 and hand[KING] and "peng" in variant.deck.king_rules.claims:
        return 1
    return None


def pao_source(variant: Variant, seat: SeatState, card: int, source: str, own: bool
               ) -> PaoTarget | None:
    """If this seat's 坎/偎/碰 takes the card as 跑, where (:class:`PaoTarget`: the concealed
    坎 or the table position of the 偎/碰 it upgrades); else ``None``. Where
    ``deck.king_rules.claims`` has ``pao``, a concealed pair and a 王 standing for the third
    card take another player's card as a 跑 the way a 坎 does (``PaoTarget.king``)."""
    if card == KING:
        return None
    if not own and seat.hand[card] == 3 and source in variant.claims.pao_on_kan:
        return PaoTarget()
    k = seat.table_meld(card, WEI_KINDS)
    if k is not None and not own and source in variant.claims.pao_on_wei:
        return PaoTarget(k)
    k = seat.table_meld(card, PENG_KINDS)
    if k is not None and (_SOURCE_SELF if own else source) in variant.claims.pao_on_peng:
        return PaoTarget(k)
    if not own and seat.hand[card] == 2 and seat.hand[KING] \
            and "pao" in variant.deck.king_rules.claims and source in variant.claims.pao_on_kan:
        return PaoTarget(king=True)
    return None


#: each source by its value (a claim's ``source`` may come as either)
_SOURCE: dict[str, Source] = {src.value: src for src in Source}


_TierRules = tuple[bool, Source, bool, bool, bool, bool, bool, bool, frozenset[str]]
_TIER_RULES: dict[tuple[int, tuple[str, ...], str], tuple[Variant, _TierRules]] = {}
#: the most entries of :data:`_TIER_RULES` before it is emptied
TIER_RULES_LIMIT = 256


def _tier_rules(variant: Variant, kinds: tuple[str, ...], source: str) -> _TierRules:
    """What :func:`tier_plans` reads of the variant for one claim tier (``kinds``) and a card
    from ``source``, worked out once per variant object, tier and source: whether the card
    was discarded; its source; whether the exposer and the others are asked about a 胡 (a
    win on another seat's card where ``win.sources`` omit that source is refused before
    anything else, :func:`~zipai_rules.analysis.win_verdict`'s first rules, no special win
    coming but with one's own draw); whether 跑 and 碰 are asked; whether the exposer (its own
    draw) and the next seat may 吃; the sources of forced wins."""
    key = (id(variant), kinds, source)
    found = _TIER_RULES.get(key)
    if found is not None and found[0] is variant:
        return found[1]
    hu, chi = _ACTION_HU in kinds, _ACTION_CHI in kinds
    rules = variant.claims
    from_discard = source == _SOURCE_DISCARD
    other_source = _SOURCE[source]
    made = (from_discard, other_source, hu and not from_discard,
            hu and other_source in variant.win.sources, _ACTION_PAO in kinds,
            _ACTION_PENG in kinds and source in rules.peng_on,
            chi and _SOURCE_SELF in rules.chi_by, chi and "next" in rules.chi_by,
            variant.win.forced_sources if hu else frozenset())
    if len(_TIER_RULES) >= TIER_RULES_LIMIT:
        _TIER_RULES.clear()
    _TIER_RULES[key] = (variant, made)  # the variant kept: its id is not reused meanwhile
    return made


@functools.lru_cache(maxsize=64)
def _turn_order(n: int, by: int, skip_by: bool) -> tuple[int, ...]:
    """The seats of an ``n``-seat table in turn order from seat ``by`` (``by`` left out when
    ``skip_by``)."""
    return tuple((by + step) % n for step in range(1 if skip_by else 0, n))


def _on_table(melds: tuple[Meld, ...], card: int) -> bool:
    """Whether a table meld is made of ``card`` (its first card)."""
    for m in melds:
        if m.cards[0] == card:
            return True
    return False


def tier_options(variant: Variant, seats: tuple[SeatState, ...], kinds: tuple[str, ...],
                 card: int, source: str, by: int, ctx: WinContext | None = None
                 ) -> list[tuple[int, tuple[Action, ...]]]:
    """For one claim tier, each seat (in turn order from ``by``) with its options."""
    return tier_plans(variant, seats, kinds, card, source, by, ctx)[0]


def tier_plans(variant: Variant, seats: tuple[SeatState, ...], kinds: tuple[str, ...],
               card: int, source: str, by: int, ctx: WinContext | None = None
               ) -> tuple[list[tuple[int, tuple[Action, ...]]], dict[Action, Plan]]:
    """:func:`tier_options`, and what each offered 胡 and 跑 decided: the winning analysis of
    a 胡, the :class:`PaoTarget` of a 跑, so that taking the option never works them out
    again. ``ctx``: the table, which a win's worth reads (``win.declined_must_be_beaten``;
    ``None``: that rule is not applied)."""
    n = len(seats)
    plans: dict[Action, Plan] = {}
    (from_discard, other_source, hu_own, hu_other, pao, peng_on, chi_own, chi_next_on,
     forced) = _tier_rules(variant, kinds, source)
    peng_here = peng_on and card != KING
    if not (hu_own or hu_other or pao or peng_here or chi_own or chi_next_on):
        return [], plans  # no seat is asked anything in this tier
    chi_next = (by + 1) % n
    # the seats in turn order from the exposer (who is not asked about its own discard), and
    # each seat's options in the order 胡, 跑, 碰, 吃
    out: list[tuple[int, tuple[Action, ...]]] = []
    for s in _turn_order(n, by, from_discard):
        own = s == by
        seat = seats[s]
        opts: list[Action] = []
        if hu_own if own else hu_other:
            src = _SOURCE_SELF if own else other_source
            worth = None if ctx is None else seat_worth(variant, ctx, s, seat, card, src, by)
            win = hu_allowed(variant, seat, card, src, worth)
            if win is not None:
                hu = option(_ACTION_HU, s, card)
                opts.append(hu)
                plans[hu] = win
        if pao or peng_here:
            hand = seat.hand
            # a 跑 needs two copies in hand at least (a 坎, or a pair and a 王) or a table meld
            if pao and (hand[card] >= 2 or _on_table(seat.melds, card)):
                target = pao_source(variant, seat, card, source, own)
                if target is not None:
                    action = option(_ACTION_PAO, s, card)
                    opts.append(action)
                    plans[action] = target
            # 臭 (engine/chou.py): a card 臭 for 碰 is never 碰'd, on any source
            if peng_here and not own and hand[card] and not seat.dead and not seat.fang_pao:
                kings = peng_kings(variant, hand, card)
                if kings is not None \
                        and chou_reason(variant, seat, card, _ACTION_PENG, source) is None:
                    after = list(hand)
                    after[card] -= 2 - kings
                    after[KING] -= kings
                    if discard_left(variant, seat, after):
                        opts.append(option(_ACTION_PENG, s, card))
        # the seats that may 吃: the exposer on its own draw, the next seat
        if (chi_own if own else chi_next_on and s == chi_next) \
                and not seat.dead and not seat.fang_pao \
                and chou_reason(variant, seat, card, _ACTION_CHI, source) is None:
            chis = chi_plans(variant, seat.hand, card, seat.melds)
            owes = bool(chis) and owes_discard(variant, seat, 1)
            for plan in chis:
                if not owes or can_discard(variant, hand_after(seat.hand, plan, card)):
                    opts.append(option(_ACTION_CHI, s, card, plan))
        if opts:
            if not (opts[0].kind == _ACTION_HU and
                    (_SOURCE_SELF if own else source) in forced):
                opts.append(option(_ACTION_PASS, s))
            out.append((s, tuple(opts)))
    return out, plans


def forced_pao(variant: Variant, cands: list[tuple[int, tuple[Action, ...]]],
               plans: dict[Action, Plan]) -> tuple[int, Action, PaoTarget] | None:
    """The 跑 of one claim tier's candidates (:func:`tier_plans`) that is made at once,
    ``(seat, action, target)``, else ``None``: under ``claims.pao_forced``, where no 胡 of
    the card is offered in the tier (a forced 跑 waits for every win on the card to be
    declined: 破跑胡, 胡 > 跑); a 王 is never forced out of the hand, so a 跑 with a 王
    standing for the third card stays a choice."""
    if not cands or not variant.claims.pao_forced:
        return None
    if any(o.kind == _ACTION_HU for _, opts in cands for o in opts):
        return None
    for s, opts in cands:
        for o in opts:
            if o.kind == _ACTION_PAO:
                target = plans[o]
                if isinstance(target, PaoTarget) and not target.king:
                    return s, o, target
    return None
