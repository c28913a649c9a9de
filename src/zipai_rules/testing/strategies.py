"""Hypothesis strategies that draw legal cards, hands, melds, situations, winning hands, games,
game states with a given offer, observations, action sequences, variants and variant documents
for any variant (see :mod:`zipai_rules.testing`).

Every strategy checks its arguments when it is built (:class:`StrategyArgumentError`, code
``bad_argument``), prints its examples in the game's card notation (a game as its variant,
seed and actions), and shrinks towards short games, few melds and low cards.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple, TypeVar

from hypothesis import assume
from hypothesis import strategies as st

from ..analysis import SOURCES, Analysis, analyze
from ..cards import KING, deck_size, format_cards
from ..engine.actions import Action, ActionKind
from ..engine.game import Deal, Game, deal_in_order, deck
from ..engine.observation import Observation
from ..errors import VariantError, ZipaiError
from ..frozen import thaw
from ..melds import CHI_SHAPES, Meld, MeldKind, chi_meld, chi_shape, chi_shapes_with
from ..presets import load_preset, preset_ids, raw_preset
from ..variant import Variant, VariantLike, as_variant

T = TypeVar("T")


class StrategyArgumentError(ZipaiError, ValueError):
    """A strategy built with arguments that can draw nothing, or that contradict each other
    (code ``bad_argument``): raised when the strategy is built, not when it draws."""

    code = "bad_argument"


def _named(name: str, fn: Callable[..., T]) -> Callable[..., st.SearchStrategy[T]]:
    """``st.composite(fn)`` printed as ``name(arguments)`` in hypothesis' reports."""
    fn.__name__ = fn.__qualname__ = name
    return st.composite(fn)


class _Short:
    """Pretty printers (hypothesis' reports, IPython) show the short ``repr``."""

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def _table_text(table: tuple[Meld, ...] | list[Meld]) -> str:
    return "[" + ", ".join(m.describe() for m in table) + "]"


class Situation(NamedTuple):
    """One player's cards as a game can reach them: the concealed ``hand`` (sorted card
    indices), the ``table`` melds, and an incoming ``card`` with its ``source`` (or ``None``
    for both), in the order :func:`~zipai_rules.analysis.analyze` takes them:
    ``analyze(variant, *situation)``. Printed in card notation."""

    hand: list[int]
    table: list[Meld]
    card: int | None
    source: str | None

    def __repr__(self) -> str:
        incoming = "" if self.card is None else (
            f", card={format_cards([self.card])}, source={self.source!r}")
        return (f"Situation(hand='{format_cards(self.hand)}', "
                f"table={_table_text(self.table)}{incoming})")

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


class WinningHand(NamedTuple):
    """A complete hand that wins as it stands: ``hand``, ``table`` and the
    :class:`~zipai_rules.analysis.Analysis` of ``analyze(variant, hand, table)``. Printed in
    card notation with its 胡息."""

    hand: list[int]
    table: list[Meld]
    analysis: Analysis

    def __repr__(self) -> str:
        return (f"WinningHand(hand='{format_cards(self.hand)}', "
                f"table={_table_text(self.table)}, huxi={self.analysis.huxi})")

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


class DrawnGame(_Short, Game):
    """A :class:`~zipai_rules.engine.Game` drawn by a strategy; it prints as what replays it:
    the variant, the seed and the actions, ``replay(variant, shuffled_deal(variant, seed),
    actions)`` (a game of a chosen deal prints the deal: ``replay(variant, deal, actions)``)."""

    def __repr__(self) -> str:
        acts = "; ".join(a.describe() for a in self.actions)
        dealt = f"seed={self.seed}" if self.seed is not None else f"deal={self.deal!r}"
        return (f"DrawnGame({self.variant.id}, {dealt}, "
                f"{len(self.actions)} actions: [{acts}], {super().__repr__()})")


def _variant(variant: VariantLike) -> Variant:
    """The variant a strategy is given: a :class:`~zipai_rules.variant.Variant`, or a preset
    id, name or alias, or a variant file's path (:func:`~zipai_rules.variant.as_variant`);
    anything else raises :class:`StrategyArgumentError`."""
    try:
        return as_variant(variant)
    except ZipaiError as exc:
        raise StrategyArgumentError(f"variant: {exc}") from None


def _kinds(kinds: Any) -> frozenset[MeldKind] | None:
    """Meld kinds given as :class:`~zipai_rules.melds.MeldKind` members or their names
    (``{"peng", "wei"}``)."""
    if kinds is None:
        return None
    if isinstance(kinds, (str, MeldKind)):
        kinds = [kinds]
    if isinstance(kinds, (bytes, bytearray, Mapping)) or not isinstance(kinds, Iterable):
        raise StrategyArgumentError(f"kinds is None, a meld kind or a set of them, not "
                                    f"{kinds!r}")
    out = set()
    for k in kinds:
        try:
            out.add(MeldKind(k))
        except ValueError:
            raise StrategyArgumentError(f"unknown meld kind {k!r}; known: "
                                        + ", ".join(m.value for m in MeldKind)) from None
    return frozenset(out)


def _check_steps(max_steps: int, name: str = "max_steps") -> None:
    _check_int(max_steps, name, 0)


def _check_int(value: object, name: str, low: int | None = None) -> None:
    """Refuse anything but an ``int`` (a bool is none) of at least ``low``, at build time."""
    if isinstance(value, bool) or not isinstance(value, int) or (low is not None
                                                                  and value < low):
        bound = "" if low is None else f" ≥ {low}"
        raise StrategyArgumentError(f"{name} is an int{bound}, not {value!r}")


def _check_flag(value: object, name: str) -> None:
    """Refuse anything but ``True`` or ``False`` (a flag given ``"no"`` would read as true)."""
    if not isinstance(value, bool):
        raise StrategyArgumentError(f"{name} is True or False, not {value!r}")


def cards(variant: VariantLike) -> st.SearchStrategy[int]:
    """One card index of the variant's deck: ``0..19``, plus the 王 (``20``) only where the
    deck has one. Shrinks towards ``x1`` (index 0)."""
    variant = _variant(variant)
    kinds = list(range(20)) + ([KING] if variant.deck.kings else [])
    return st.sampled_from(kinds)


def hands(variant: VariantLike, size: int | None = None, min_size: int = 0,
          max_size: int | None = None) -> st.SearchStrategy[list[int]]:
    """A sorted list of card indices dealt from one deck of the variant, so no card appears
    more often than the deck holds (``copies`` of each ordinary card, ``kings`` 王). ``size``
    fixes the length (then ``min_size`` and ``max_size`` must not be given); otherwise it lies
    in ``min_size..max_size`` (default: up to the dealer's hand). Any cards: four of a kind
    included. Shrinks towards fewer, lower cards. Sizes beyond the deck, negative ones and an
    empty range raise :class:`StrategyArgumentError`."""
    variant = _variant(variant)
    pool = deck(variant)
    for name, value in (("size", size), ("min_size", min_size), ("max_size", max_size)):
        if value is not None or name == "min_size":
            _check_int(value, name)
    if size is not None and (min_size != 0 or max_size is not None):
        raise StrategyArgumentError("give either size or min_size/max_size, not both")
    lo = size if size is not None else min_size
    hi = size if size is not None else (
        max_size if max_size is not None else variant.deal.dealer_hand)
    if not 0 <= lo <= hi <= len(pool):
        raise StrategyArgumentError(f"hand sizes {lo}..{hi}: need 0 ≤ min ≤ max ≤ "
                                    f"{len(pool)} (the deck)")
    picks = st.lists(st.integers(0, len(pool) - 1), unique=True, min_size=lo, max_size=hi)
    return picks.map(lambda ix: sorted(pool[i] for i in ix))


_SAME = {MeldKind.KAN: 3, MeldKind.PENG: 3, MeldKind.WEI: 3, MeldKind.CHOU_WEI: 3,
         MeldKind.TI: 4, MeldKind.PAO: 4, MeldKind.JIANG: 2}
_TABLE_SAME = frozenset({MeldKind.PENG, MeldKind.WEI, MeldKind.CHOU_WEI, MeldKind.TI,
                         MeldKind.PAO})
_QUADS = (MeldKind.TI, MeldKind.PAO)


def _draw_meld(draw: st.DrawFn, variant: Variant, kinds: tuple[MeldKind, ...]) -> Meld:
    shapes_of = _shapes(variant.deck.copies)
    kind = draw(st.sampled_from(kinds))
    if kind in _SAME:
        c = draw(st.integers(0, 19))
        return Meld(kind, (c,) * _SAME[kind])
    shape = draw(st.sampled_from(shapes_of[kind]))
    claimed = draw(st.sampled_from(sorted(set(shape)))) if draw(st.booleans()) else None
    return Meld(kind, shape, claimed=claimed)


_meld = _named("melds", _draw_meld)


def melds(variant: VariantLike, kinds: Any = None) -> st.SearchStrategy[Meld]:
    """A valid meld of one of ``kinds`` (``MeldKind`` members or their names, ``{"peng"}``;
    ``None``, the default: every kind) that the variant's
    deck can hold (no more than ``copies`` of a card). Chi-type melds are drawn from every
    three-card shape; a ``claimed`` card is marked on about half of them. No meld holds a 王.
    Shrinks towards the first kind in ``MeldKind`` value order, low cards and no claimed card.
    An empty ``kinds``, or kinds the deck cannot hold, raise :class:`StrategyArgumentError`."""
    variant = _variant(variant)
    kinds = _kinds(kinds)
    if kinds is not None and not kinds:
        raise StrategyArgumentError("kinds is empty: give None for every kind")
    allowed = sorted((k for k in (kinds if kinds is not None else frozenset(MeldKind))
                      if _SAME.get(k, 2) <= variant.deck.copies), key=lambda k: k.value)
    if not allowed:
        raise StrategyArgumentError(f"no meld of {sorted(k.value for k in kinds or ())} fits "
                                    f"a deck of {variant.deck.copies} copies")
    return _meld(variant, tuple(allowed))


@cache
def _shapes(copies: int) -> dict[MeldKind, list[tuple[int, ...]]]:
    return {k: sorted({s for c in range(20) for s in chi_shapes_with(c)
                       if chi_shape(s) == k and max(map(s.count, s)) <= copies})
            for k in CHI_SHAPES}


def _fits(counts: list[int], meld: Meld, variant: Variant) -> bool:
    need = [0] * 21
    for i in meld.cards:
        need[i] += 1
    return all(counts[i] + need[i] <= variant.deck.copies for i in range(20))


def _hand_melds() -> list[Meld]:
    """Every chi-type triple and every 坎, the melds a concealed hand is filled with."""
    out = {Meld(MeldKind.KAN, (i,) * 3) for i in range(20)}
    out |= {chi_meld(shape) for i in range(20) for shape in chi_shapes_with(i)}
    return sorted(out, key=lambda m: (m.kind.value, m.cards))


_HAND_MELDS = _hand_melds()


def situations(variant: VariantLike, complete: bool = False) -> st.SearchStrategy[Situation]:
    """A :class:`Situation` ``(hand, table, card, source)`` for one player, as a game can
    reach it (``analyze(variant, *situation)`` judges it).

    * ``table``: up to four table melds (碰/偎/臭偎/提/跑 and 吃 melds with their claimed
      card);
    * ``hand``: a sorted concealed hand made of chi-type triples and 坎 (the only concealed
      triples: a chi-type meld is added only when no card of the hand reaches three copies,
      a 坎 only of a card the hand does not hold yet), plus a pair when the table holds a
      提/跑, or (unless ``complete``) loose cards. It holds no card of a table
      碰/偎/臭偎/提/跑 and never four of a kind (those lie on the table as 提). For a variant with
      王, up to ``kings`` of them: with ``complete`` each replaces a card of a hand meld
      (the 王 can stand for it), otherwise they are loose cards;
    * ``card`` and ``source``: an incoming card and how it arrives (a 王 only as one's own
      draw, ``self``), or ``None`` for both; always ``None`` with ``complete``.

    Card counts are those of a real game (:func:`~zipai_rules.analysis.check_count`): with an
    incoming card, hand plus table hold the resting size (``other_hand``, plus one per 提/跑
    after the first: 八块); judged as it stands, the resting size or one more, and with
    ``complete`` exactly one more (every card in a meld, so the hand always decomposes; the
    win still depends on the threshold). Copies never exceed the deck, table and incoming card
    included. Shrinks towards fewer table melds and no incoming card. A variant that is none,
    or a ``complete`` that is not a bool, raises :class:`StrategyArgumentError` when the
    strategy is built.
    """
    variant = _variant(variant)
    _check_flag(complete, "complete")
    return _situation(variant, complete)


def _draw_situation(draw: st.DrawFn, variant: Variant, complete: bool) -> Situation:
    counts = [0] * 21
    table: list[Meld] = []

    def size(ms: list[Meld]) -> int:
        return sum(len(m.cards) for m in ms)

    def resting(ms: list[Meld]) -> int:
        return variant.resting_size(sum(1 for m in ms if m.kind in (MeldKind.TI, MeldKind.PAO)))

    for m in draw(st.lists(melds(variant, _TABLE_SAME | CHI_SHAPES), max_size=4)):
        if _fits(counts, m, variant) and size(table) + len(m.cards) <= resting(table + [m]):
            if m.kind in CHI_SHAPES and m.claimed is None:
                m = Meld(m.kind, m.cards, claimed=m.cards[0])
            table.append(m)
            for i in m.cards:
                counts[i] += 1
    blocked = {m.cards[0] for m in table if m.kind in _TABLE_SAME}
    quads = any(m.kind in (MeldKind.TI, MeldKind.PAO) for m in table)
    held = [0] * 21
    hand: list[int] = []
    with_card = not complete and draw(st.booleans())
    room = resting(table) - size(table) + (0 if with_card else 1)
    if not complete and not with_card and draw(st.booleans()):
        room -= 1  # at rest, before a card

    def take(cs: tuple[int, ...] | list[int]) -> None:
        for i in cs:
            hand.append(i)
            held[i] += 1
            counts[i] += 1

    def meld_fits(m: Meld) -> bool:
        if len(hand) + 3 > room or not _fits(counts, m, variant) or blocked & set(m.cards):
            return False
        if m.kind == MeldKind.KAN:
            return held[m.cards[0]] == 0
        return all(held[i] + m.cards.count(i) <= 2 for i in m.cards)

    pair = 2 if quads and complete else 0
    rng = random.Random(draw(st.integers(0, 2**16)))
    order = list(_HAND_MELDS)
    rng.shuffle(order)
    for m in draw(st.lists(melds(variant, CHI_SHAPES | {MeldKind.KAN}), max_size=7)) + order:
        if len(hand) + pair >= room:
            break
        if meld_fits(m) and (complete or len(hand) + 3 <= room - 2 or rng.random() < 0.5):
            take(m.cards)
    if complete and pair:
        free = [c for c in range(20) if counts[c] + 2 <= variant.deck.copies and held[c] == 0
                and c not in blocked]
        if free and len(hand) + 2 == room:
            take([free[rng.randrange(len(free))]] * 2)
    if not complete:
        kings = draw(st.integers(0, variant.deck.kings))
        for _ in range(kings):
            if len(hand) < room:
                take([KING])
        loose = [c for c in range(20) for _ in range(3)]
        rng.shuffle(loose)
        for c in loose:
            if len(hand) >= room:
                break
            if counts[c] < variant.deck.copies and held[c] < 3 and c not in blocked:
                take([c])
    assume(len(hand) == room)  # a deck or variant too tight to fill this table: rare
    if complete:
        for _ in range(draw(st.integers(0, variant.deck.kings))):
            k = draw(st.integers(0, len(hand) - 1))
            held[hand[k]] -= 1
            counts[hand[k]] -= 1
            hand[k] = KING
            held[KING] += 1
            counts[KING] += 1
    if not with_card:
        return Situation(sorted(hand), table, None, None)
    free = [c for c in range(20) if counts[c] < variant.deck.copies]
    if counts[KING] < variant.deck.kings:
        free.append(KING)
    card = draw(st.sampled_from(free))
    source = "self" if card == KING else draw(st.sampled_from(SOURCES))
    return Situation(sorted(hand), table, card, source)


_situation = _named("situations", _draw_situation)


# --- winning hands, built to a 胡息 target ---------------------------------------------------

def _table_candidates(copies: int) -> list[Meld]:
    out = [Meld(k, (c,) * _SAME[k]) for k in sorted(_TABLE_SAME, key=lambda k: k.value)
           for c in range(20) if _SAME[k] <= copies]
    out += [Meld(k, s, claimed=s[0]) for k, shapes in _shapes(copies).items() for s in shapes]
    return out


@cache
def _hits(rem: int, table: int, slots: int, table_w: tuple[int, ...], hand_w: tuple[int, ...]
          ) -> bool:
    """Whether ``rem`` 胡息 is made exactly by at most ``table`` table melds of the values
    ``table_w`` and hand melds of the values ``hand_w``, ``slots`` melds in all (card counts
    left aside: a guide for which meld to take first, not a promise)."""
    if rem <= 0 or slots <= 0:
        return rem == 0
    return any(_hits(rem - w, table - 1, slots - 1, table_w, hand_w) for w in table_w
               if table > 0 and w <= rem) or any(
        _hits(rem - w, table, slots - 1, table_w, hand_w) for w in hand_w if w <= rem)


def _build_winning(variant: Variant, target: int, pick: Callable[[int], int],
                   with_table: bool = True) -> tuple[list[int], list[Meld]] | None:
    """A complete hand and table (the card counts of ``situations(complete=True)``) whose
    melds add up to at least ``target`` 胡息 where the deck allows it: table melds first, then
    concealed melds of positive 胡息, then melds of none and a pair where one is needed.
    ``pick(n)`` chooses among ``n`` candidates, index 0 the heaviest that still lets the melds
    add up to exactly ``target`` (a table 碰 of 1 where the hand's melds of 3 and 6 cannot make
    it), so a shrinking chooser gives few melds and lands on the target, not above it.
    ``None`` when the variant's sizes leave no complete hand. ``with_table`` False:
    concealed melds only (a dealt hand)."""
    copies = variant.deck.copies
    counts, held = [0] * 21, [0] * 21
    table: list[Meld] = []
    hand: list[int] = []
    total = 0

    def weight(m: Meld) -> int:
        return variant.meld_huxi(m)

    def quads(ms: list[Meld]) -> int:
        return sum(1 for m in ms if m.kind in _QUADS)

    def room(ms: list[Meld]) -> int:
        return variant.resting_size(quads(ms)) + 1 - sum(len(m.cards) for m in ms)

    def pair_ok(ms: list[Meld]) -> bool:
        return variant.win.max_jiang >= 1 and (quads(ms) > 0
                                               or not variant.win.jiang_requires_quad)

    def fillable(ms: list[Meld]) -> bool:
        r = room(ms)
        return r >= 0 and (r % 3 == 0 or (r % 3 == 2 and pair_ok(ms)))

    blocked: set[int] = set()
    best_triple = max(weight(m) for m in _HAND_MELDS)
    best_quad = max(weight(m) for m in _table_candidates(copies))
    table_w = tuple(sorted({weight(m) for m in _table_candidates(copies)} - {0}))
    hand_w = tuple(sorted({weight(m) for m in _HAND_MELDS} - {0}))

    def exact(got: int, ms: list[Meld], used: int = 0, open_: bool = True) -> bool:
        """Whether ``got`` 胡息 plus melds in the room left may make the target exactly."""
        return _hits(target - got, 4 - len(ms) if open_ else 0, (room(ms) - used) // 3,
                     table_w, hand_w)

    def can_reach(got: int, ms: list[Meld], used: int = 0, open_: bool = True) -> bool:
        """Whether ``got`` 胡息 plus the heaviest melds in the room left (table melds while
        the table is ``open_``: a 提 takes the room of a triple) may reach the target."""
        left = room(ms) - used
        k = min(4 - len(ms), left // 3) if open_ else 0
        return got + k * best_quad + (left - 3 * k) // 3 * best_triple >= target

    wanted = pick(5) if with_table else 0
    while with_table and len(table) < 4 and (len(table) < wanted
                                or not can_reach(total, table, 0, False)
                                or not exact(total, table, 0, False) and exact(total, table)):
        options = sorted((m for m in _table_candidates(copies)
                          if _fits(counts, m, variant) and m.cards[0] not in blocked
                          and fillable(table + [m])), key=lambda m: (-weight(m), m.cards))
        options = [m for m in options if can_reach(total + weight(m), table + [m])] or options
        options.sort(key=lambda m: not exact(total + weight(m), table + [m]))
        if not options:
            break
        m = options[pick(len(options))]
        table.append(m)
        total += weight(m)
        for i in m.cards:
            counts[i] += 1
        if m.kind in _TABLE_SAME:
            blocked.add(m.cards[0])
    if not fillable(table):
        return None
    left = room(table)
    need_pair = left % 3 == 2

    def hand_fits(m: Meld) -> bool:
        if len(hand) + 3 > left - (2 if need_pair else 0) or not _fits(counts, m, variant) \
                or blocked & set(m.cards):
            return False
        if m.kind == MeldKind.KAN:
            return held[m.cards[0]] == 0
        return all(held[i] + m.cards.count(i) <= 2 for i in m.cards)

    def take(cs: tuple[int, ...] | list[int]) -> None:
        for i in cs:
            hand.append(i)
            held[i] += 1
            counts[i] += 1

    while total < target:
        options = sorted((m for m in _HAND_MELDS if weight(m) > 0 and hand_fits(m)),
                         key=lambda m: (-weight(m), m.cards))
        options = [m for m in options
                   if can_reach(total + weight(m), table, len(hand) + 3, False)] or options
        options.sort(key=lambda m: not exact(total + weight(m), table, len(hand) + 3, False))
        if not options:
            break
        m = options[pick(len(options))]
        take(m.cards)
        total += weight(m)
    while len(hand) + (2 if need_pair else 0) < left:
        options = [m for m in _HAND_MELDS if weight(m) == 0 and hand_fits(m)]
        if not options:
            return None
        take(options[pick(len(options))].cards)
    if need_pair:
        free = [c for c in range(20) if counts[c] + 2 <= copies and held[c] == 0
                and c not in blocked]
        if not free:
            return None
        take([free[pick(len(free))]] * 2)
    return sorted(hand), table


def _first_then_heaviest(first: int) -> Callable[[int], int]:
    choices = iter([first])
    return lambda n: next(choices, 0)


@cache
def _reach(variant: Variant) -> int:
    """The most 胡息 a hand built by :func:`_build_winning` with its heaviest choices wins with
    (0 when none wins)."""
    best = 0
    for n_table in range(5):
        built = _build_winning(variant, 10**6, _first_then_heaviest(n_table))
        if built is not None:
            a = analyze(variant, *built)
            if a.win:
                best = max(best, a.huxi)
    return best


def _draw_winning(draw: st.DrawFn, variant: Variant, min_huxi: int, max_huxi: int
                  ) -> WinningHand:
    target = draw(st.integers(min_huxi, min(max_huxi, _reach(variant))), label="target 胡息")

    def pick(n: int) -> int:
        return draw(st.integers(0, n - 1)) if n > 1 else 0

    for _ in range(8):
        built = _build_winning(variant, target, pick)
        if built is None:
            continue
        hand, table = built
        for _ in range(draw(st.integers(0, variant.deck.kings))):  # a 王 stands for a card
            hand[pick(len(hand))] = KING
        hand.sort()
        a = analyze(variant, hand, table)
        if a.win and min_huxi <= a.huxi <= max_huxi:
            return WinningHand(hand, table, a)
    assume(False)  # the variant's own rules refused eight builds: rare
    raise AssertionError  # pragma: no cover


_winning = _named("winning_hands", _draw_winning)


def winning_hands(variant: VariantLike, min_huxi: int | None = None, max_huxi: int = 200
                  ) -> st.SearchStrategy[WinningHand]:
    """A :class:`WinningHand` ``(hand, table, analysis)``: a complete hand (hand plus table
    hold the resting size plus one, ``analysis.check_count``; a pair only where the 将 rules
    allow one) that wins as it stands, ``analysis`` its :func:`~zipai_rules.analysis.analyze`
    verdict, its 胡息 between ``min_huxi`` (default: the variant's threshold) and
    ``max_huxi``.

    Built to a 胡息 target drawn in the range, not filtered: table melds (提/跑/偎/碰/吃),
    then concealed melds of positive 胡息 (big 坎, 一二三, 二七十) until the target is
    reached, then plain 顺子 and mixed shapes, up to ``kings`` 王 standing for cards. So a high
    range is as quick to draw as a low one. Shrinks towards the low end of the range, fewer
    table melds and the heaviest melds first (few melds).

    Raises :class:`StrategyArgumentError` when it is built with ``min_huxi > max_huxi``, a
    ``max_huxi`` below the variant's threshold, a ``min_huxi`` above what a hand of the
    variant reaches, or a variant whose sizes leave no complete hand."""
    variant = _variant(variant)
    if min_huxi is not None:
        _check_int(min_huxi, "min_huxi")
    _check_int(max_huxi, "max_huxi")
    low = variant.win.min_huxi if min_huxi is None else min_huxi
    name = f"winning_hands({variant.id}, min_huxi={low}, max_huxi={max_huxi})"
    reach = _reach(variant)
    if reach == 0 and variant.win.min_huxi > 0 or reach < low:
        raise StrategyArgumentError(f"{name}: the most 胡息 a winning hand of the variant "
                                    f"reaches here is {reach}")
    if low > max_huxi:
        raise StrategyArgumentError(f"{name}: min_huxi > max_huxi")
    if max_huxi < variant.win.min_huxi:
        raise StrategyArgumentError(f"{name}: max_huxi is below the variant's threshold "
                                    f"{variant.win.min_huxi}: no hand of it wins")
    return _winning(variant, max(low, 0), max_huxi)


def _draw_winning_situation(draw: st.DrawFn, variant: Variant) -> Situation:
    hand, table, _ = draw(winning_hands(variant))
    sources = sorted(variant.win.sources)
    start = draw(st.integers(0, len(hand) - 1))
    first = draw(st.integers(0, len(sources) - 1))
    for k in range(len(hand)):
        card = hand[(start + k) % len(hand)]
        rest = list(hand)
        rest.remove(card)
        for j in range(len(sources)):
            source = sources[(first + j) % len(sources)]
            if card == KING and source != "self":
                continue
            if analyze(variant, rest, table, card, source).win:
                return Situation(rest, table, card, source)
    assume(False)  # no card of this hand wins as an incoming one: rare
    raise AssertionError  # pragma: no cover


_winning_situation = _named("winning_situations", _draw_winning_situation)


def winning_situations(variant: VariantLike) -> st.SearchStrategy[Situation]:
    """A :class:`Situation` whose incoming ``card`` wins: a :func:`winning_hands` hand with one
    of its cards taken out as the incoming card, arriving by one of the variant's
    ``win.sources`` (a 王 only as one's own draw), such that
    ``analyze(variant, *situation).win``. Its 胡息 may differ from the complete hand's (a
    claimed card makes a 碰 of a 坎, ``huxi.won_triple``)."""
    variant = _variant(variant)
    if not variant.win.sources:
        raise StrategyArgumentError(f"{variant.id}: win.sources is empty: no card wins")
    return _winning_situation(variant)


# --- games and game states ---------------------------------------------------------------------

def _check_dealer(variant: Variant, dealer: int) -> None:
    if isinstance(dealer, bool) or not isinstance(dealer, int) \
            or not 0 <= dealer < variant.players:
        raise StrategyArgumentError(f"dealer is a seat 0..{variant.players - 1}, not {dealer!r}")


def deals(variant: VariantLike, dealer: int = 0,
          max_swaps: int | None = None) -> st.SearchStrategy[Deal]:
    """A :class:`~zipai_rules.engine.Deal` of the variant: the deck in the order of the deal of
    seed 0 (``shuffled_deal(variant, 0, dealer)``, an ordinary hand: the deck in its fixed
    order would end most hands at the deal) with a few swaps, dealt as
    :func:`~zipai_rules.engine.shuffled_deal` deals a shuffle (each hand in seat order from
    ``dealer``, then the wall). A swap is a pair of positions in that order, two small
    integers (``(i, i)`` swaps nothing); up to ``max_swaps`` of them (default: the deck's
    size), most draws a handful. It prints in card notation. Shrinks by dropping swaps and
    lowering positions: zero swaps is the deal of seed 0, and hypothesis drops one swap per
    attempt, so a failing deal shrinks in a few dozen replays to a deal a swap or two from
    that one (a permutation of the deck drawn whole shrank card by card, 10–200 s). ``variant``
    by name or as a :class:`~zipai_rules.variant.Variant`. A ``dealer`` that is not a seat, or
    a ``max_swaps`` that is not an int ≥ 0, raises :class:`StrategyArgumentError`."""
    variant = _variant(variant)
    _check_dealer(variant, dealer)
    n = len(deck(variant))
    if max_swaps is None:
        max_swaps = n
    _check_steps(max_swaps, "max_swaps")
    position = st.integers(0, n - 1)
    swaps = st.lists(st.tuples(position, position), max_size=max_swaps)
    return st.builds(swapped_deal, st.just(variant), swaps, st.just(dealer))


def swapped_deal(variant: VariantLike, swaps: Sequence[tuple[int, int]] = (),
                 dealer: int = 0) -> Deal:
    """The deal :func:`deals` draws: the deck in the order of ``shuffled_deal(variant, 0,
    dealer)`` with the positions of each pair of ``swaps`` (positions ``0..`` deck size − 1 in
    that order: the dealer's hand first, then each seat's in turn, the wall, the cards set
    aside) exchanged in turn, dealt as :func:`~zipai_rules.engine.deal_in_order` deals.
    ``swapped_deal(variant)`` is the deal of seed 0. A failing run of the stateful machine
    prints its deal as this call, to paste into a test. Raises
    :class:`StrategyArgumentError` for a swap that is not a pair of positions in the deck,
    a dealer that is not a seat or an unknown variant."""
    variant = _variant(variant)
    _check_dealer(variant, dealer)
    cards = deck(variant)
    random.Random(0).shuffle(cards)  # the order shuffled_deal(variant, 0) deals
    n = len(cards)
    for pair in swaps:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and all(
                isinstance(k, int) and not isinstance(k, bool) and 0 <= k < n for k in pair)):
            raise StrategyArgumentError(f"a swap is a pair of positions 0..{n - 1}, "
                                        f"not {pair!r}")
        i, j = pair
        cards[i], cards[j] = cards[j], cards[i]
    return deal_in_order(variant, cards, dealer)


#: the offers :func:`game_states` can stop at, and how each is recognised
OFFERS: dict[str, Callable[[Game], bool]] = {
    "claim": lambda g: g.state.phase == "respond" and any(
        a.kind != ActionKind.PASS for a in g.state.options),
    "hu": lambda g: any(a.kind == ActionKind.HU for a in g.state.options),
    "hu_check": lambda g: g.state.phase == "hu_check",
    "peng": lambda g: any(a.kind == ActionKind.PENG for a in g.state.options),
    "bi": lambda g: any(a.kind == ActionKind.CHI and len(a.melds) > 1
                        for a in g.state.options),
    "forced": lambda g: len(g.state.options) == 1,
    # rule histories (臭): the card on offer comes round again to a seat that let it go
    "peng_again": lambda g: g.state.phase == "respond" and g.state.pending is not None and any(
        g.state.pending.card in seat.chou_peng_cards and seat.hand[g.state.pending.card] == 2
        for seat in g.state.seats),
    "own_again": lambda g: g.state.phase == "respond" and g.state.pending is not None and any(
        s != g.state.pending.by and g.state.pending.card in seat.own_chou
        for s, seat in enumerate(g.state.seats)),
}


_TAKES = frozenset({ActionKind.PAO, ActionKind.PENG, ActionKind.CHI})


class _Player:
    """Plays hands with a ``random.Random`` seeded from the deal's seed: one integer fixes the
    whole game, so hypothesis shrinks a game by its seed and its length alone (a handful of
    cheap replays) and a game of ``n`` steps is the first ``n`` steps of every longer one of
    the same seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def step(self, game: Game, finish: bool, eager: bool = False, keep_sets: bool = False
             ) -> bool:
        """Apply one chosen legal action; with ``finish`` False never one that ends the hand
        (the next option is taken instead). False when every option would end it. ``eager``
        chooses among the 吃, 碰 and 跑 on offer whenever there is one: hands fill up and
        reach a 胡 about three times as often (29% of Hunan hands against 10%). ``keep_sets``
        discards a card the hand holds fewest of, keeping its pairs and 坎: a hand of 坎 and
        one loose card (a forced discard) comes in 55% of eager Hunan hands against 4%, a
        win on the hand as it stands after one's own 偎/提 five times as often."""
        options = list(game.legal_actions())
        if eager:
            options = [a for a in options if a.kind in _TAKES] or options
        if keep_sets and options[0].kind == ActionKind.DISCARD:
            hand = game.state.seats[game.state.acting_seat].hand
            fewest = min(hand[a.card] for a in options if a.card is not None)
            options = [a for a in options if a.card is not None and hand[a.card] == fewest]
        k = self.rng.randrange(len(options))
        for j in range(len(options)):
            game.apply(options[(k + j) % len(options)])
            if finish or not game.is_over:
                return True
            game.undo()
        return False


def _draw_game(draw: st.DrawFn, variant: Variant, max_steps: int, finished: bool
               ) -> DrawnGame:
    seed = draw(st.integers(0, 2**31 - 1), label="seed")
    steps = draw(st.integers(0, max_steps), label="steps")
    game, player = DrawnGame(variant, seed=seed), _Player(seed)
    for _ in range(steps):
        if game.is_over or not player.step(game, finished):
            break
    return game


_game = _named("games", _draw_game)


def games(variant: VariantLike, max_steps: int = 120, finished: bool = True
          ) -> st.SearchStrategy[DrawnGame]:
    """A legal :class:`DrawnGame`: a shuffle seed (seat 0 deals), then up to ``max_steps``
    legal actions, each chosen uniformly among the legal ones by a ``random.Random`` seeded
    with the same seed (winning included, so with ``finished`` many games end early;
    ``finished=False`` never takes an action that ends the hand: the returned game is always
    still being played). It prints as its variant, seed and actions. Shrinks towards fewer
    steps (the game of ``n`` steps is the start of every longer one of its seed, so a failure
    shrinks to the first state that shows it) and seed 0. A negative ``max_steps`` raises
    :class:`StrategyArgumentError`."""
    variant = _variant(variant)
    _check_steps(max_steps)
    _check_flag(finished, "finished")
    return _game(variant, max_steps, finished)


#: how :func:`game_states` plays towards an offer: ``keep_sets`` for the offers a hand of
#: 坎 and pairs brings, always ``lazy`` where a 碰 must have been declined
_KEEP_SETS = frozenset({"forced", "hu_check"})
_LAZY = frozenset({"peng_again"})
#: hands searched for a ``hu_check`` before the dealer is dealt a hand it may win with
_HU_CHECK_HANDS = 2


def _draw_state(draw: st.DrawFn, variant: Variant, offer: str, max_hands: int) -> DrawnGame:
    wanted = OFFERS[offer]
    seed = draw(st.integers(0, 2**31 - 1), label="seed")
    eager = not draw(st.booleans(), label="lazy")  # shrinks towards eager play
    eager = eager and offer not in _LAZY
    player, keep = _Player(seed), offer in _KEEP_SETS
    searched = min(max_hands, _HU_CHECK_HANDS) if offer == "hu_check" else max_hands
    for hand in range(max_hands):
        if hand == searched:
            dealt = _dealt_win(draw, variant, seed)
            if dealt is not None:
                return dealt
        game = DrawnGame(variant, seed=(seed + hand) % 2**31)
        while True:
            if not game.is_over and wanted(game):
                return game
            if game.is_over or not player.step(game, False, eager, keep):
                break
    assume(False)  # no such offer in max_hands hands of this variant
    raise AssertionError  # pragma: no cover


def _dealt_win(draw: st.DrawFn, variant: Variant, seed: int) -> DrawnGame | None:
    """A game whose dealer may win with its dealt hand (``hu_check`` at the deal): a hand
    built as :func:`winning_hands` builds one, without table melds, dealt to seat 0, the rest
    of the deck shuffled by ``random.Random(seed)``; ``None`` when eight builds give none
    (a forced 天胡, a variant whose dealer may not win on the deal)."""
    low = max(variant.win.min_huxi, 0)

    def pick(n: int) -> int:
        return draw(st.integers(0, n - 1)) if n > 1 else 0

    for _ in range(8):
        target = draw(st.integers(low, low + 12), label="dealt 胡息")
        built = _build_winning(variant, target, pick, with_table=False)
        if built is None or built[1] or len(built[0]) != variant.deal.dealer_hand:
            continue
        rest = deck(variant)
        for c in built[0]:
            rest.remove(c)
        random.Random(seed).shuffle(rest)
        game = DrawnGame(variant, deal=deal_in_order(variant, built[0] + rest, 0))
        if not game.is_over and OFFERS["hu_check"](game):
            return game
    return None


_state = _named("game_states", _draw_state)


def game_states(variant: VariantLike, offer: str = "claim", max_hands: int = 20
                ) -> st.SearchStrategy[DrawnGame]:
    """A :class:`DrawnGame` still being played at the first state where ``offer`` is on
    offer (see :data:`OFFERS`): ``claim`` (the actor answers an exposed card with a 吃, 碰, 跑
    or 胡 among its options), ``hu`` (胡 among the options), ``hu_check`` (the actor may win
    with the hand as it stands), ``peng``, ``bi`` (a 吃 that takes 比 melds along),
    ``forced`` (exactly one legal action), and two rule histories for 臭 trackers:
    ``peng_again`` (the card on offer is one a seat holding its pair declined to 碰 before)
    and ``own_again`` (the card on offer is one another seat drew or discarded and let go
    before, in its ``own_chou``).

    Built by playing, not by filtering: a seeded hand is played by a ``random.Random`` of the
    same seed (eagerly, taking a 吃/碰/跑 whenever one is on offer, or not; for ``forced`` and
    ``hu_check`` discarding a card the hand holds fewest of; for ``peng_again`` never
    eagerly), never taking an action that ends the hand, and stops at the first such state; a
    hand that ends without one is followed by the next seed, up to ``max_hands`` hands. A
    ``hu_check`` not met in two hands is a deal instead: the dealer dealt a concealed winning
    hand it may win with as it stands (a game of no actions that prints as its deal).
    Shrinks towards seed 0 and eager play, in a few steps. An unknown ``offer`` or
    ``max_hands < 1`` raises :class:`StrategyArgumentError`."""
    variant = _variant(variant)
    if not isinstance(offer, str) or offer not in OFFERS:
        raise StrategyArgumentError(f"unknown offer {offer!r}; known: {', '.join(OFFERS)}")
    if isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1:
        raise StrategyArgumentError(f"max_hands is an int ≥ 1, not {max_hands!r}")
    return _state(variant, offer, max_hands)


def _draw_observation(draw: st.DrawFn, variant: Variant, max_steps: int) -> Observation:
    game = draw(games(variant, max_steps))
    return game.observe(draw(st.integers(0, variant.players - 1), label="seat"))


_observation = _named("observations", _draw_observation)


def observations(variant: VariantLike, max_steps: int = 120) -> st.SearchStrategy[Observation]:
    """The :class:`~zipai_rules.engine.observation.Observation` of a seat drawn among the
    players, in a :func:`games` game. Shrinks like :func:`games`, towards seat 0."""
    variant = _variant(variant)
    _check_steps(max_steps)
    return _observation(variant, max_steps)


def _draw_sequence(draw: st.DrawFn, variant: Variant, max_steps: int
                   ) -> tuple[int, list[Action]]:
    seed = draw(st.integers(0, 2**31 - 1), label="seed")
    rng = random.Random(draw(st.integers(0, 2**31 - 1), label="chooser"))
    game = Game(variant, seed=seed)
    while not game.is_over and len(game.actions) < max_steps:
        game.apply(rng.choice(game.legal_actions()))
    return seed, list(game.actions)


_sequence = _named("action_sequences", _draw_sequence)


def action_sequences(variant: VariantLike, max_steps: int = 400
                     ) -> st.SearchStrategy[tuple[int, list[Action]]]:
    """``(seed, actions)``: a shuffle seed and the legal actions of one hand from the deal
    ``Game(variant, seed=seed)`` (seat 0 deals), each chosen uniformly among the legal ones
    by a ``random.Random`` seeded from a drawn integer, to the end of the hand or
    ``max_steps`` actions. ``replay(variant, shuffled_deal(variant, seed), actions)``
    plays them again. Shrinks towards seed 0 and chooser seed 0. A negative ``max_steps``
    raises :class:`StrategyArgumentError`."""
    variant = _variant(variant)
    _check_steps(max_steps)
    return _sequence(variant, max_steps)


# --- variants ----------------------------------------------------------------------------------

def _build_or_base(base: str) -> Callable[[dict[str, Any]], Variant]:
    from ..loader import build_variant

    def build(doc: dict[str, Any]) -> Variant:
        try:
            return build_variant(doc, raw_preset, "fuzz")
        except VariantError:
            return load_preset(base)  # a document the loader refuses: its base preset
    return build


def variants(mutated: bool = True) -> st.SearchStrategy[Variant]:
    """A :class:`~zipai_rules.variant.Variant`: every shipped preset, and (with ``mutated``)
    variants built from :func:`variant_documents` of a preset (a document the loader refuses
    gives its base preset instead, so every draw is a valid variant). Shrinks towards the
    first preset."""
    _check_flag(mutated, "mutated")
    presets = st.sampled_from(list(preset_ids())).map(load_preset)
    if not mutated:
        return presets
    built = st.one_of([variant_documents(p).map(_build_or_base(p)) for p in preset_ids()])
    return st.one_of(presets, built)


def variant_documents(base: VariantLike = "hunan") -> st.SearchStrategy[dict[str, Any]]:
    """Schema-valid variant mappings (``extends`` resolved, every default written out, ``id``
    ``fuzz``): the ``base`` variant (a preset id, name or alias, a variant file's path or a
    :class:`~zipai_rules.variant.Variant`; read as :func:`~zipai_rules.variant.as_variant`
    reads it) with rule values redrawn: players and 王 count, hand sizes (the wall then fills
    the deck, or misses it by one card), threshold, win sources and forced sources, 将 rules,
    天胡 counts, 地胡 (the preset's or ``lianzhang``), claim priorities, who may 吃, 碰 and 跑
    sources, 放跑 and 跑-before-胡 switches, 臭 rules, discard rules, meld display, the kept
    draw, one's own draw onto a 偎 and the won triple. The combinations include odd ones and
    semantically invalid ones (a wall that does not fill the deck, seats fewer than players,
    an unreachable threshold), for fuzzing tools that read variant files. Shrinks towards
    small values and the first choices, not towards the base preset itself."""
    from ..variant import normalise

    doc: dict[str, Any] = thaw(normalise(as_variant(base, "base").doc))

    def subsets(items: list[str]) -> st.SearchStrategy[list[str]]:
        return st.lists(st.sampled_from(items), unique=True)

    shows = ["hidden", "one_up", "all_up"]

    def draw(data: st.DrawFn) -> dict[str, Any]:
        d = copy.deepcopy(doc)
        d["id"] = "fuzz"
        d["players"] = data(st.sampled_from([doc["players"]] * 3 + [2, 4]))
        d["deck"]["kings"] = data(st.sampled_from([doc["deck"]["kings"]] * 3 + [0, 1, 2]))
        if d["deck"]["kings"]:
            d["deck"]["king_rules"] = {"discardable": data(st.booleans()),
                                       "holder_wins_only_self": data(st.booleans()),
                                       "claims": data(subsets(["peng", "pao", "chi"])),
                                       "chi_kings": data(st.integers(1, 2)),
                                       "bi_kings": data(st.booleans())}
        d["win"]["min_huxi"] = data(st.integers(0, 40))
        d["win"]["sources"] = data(subsets(list(SOURCES)).filter(bool))
        d["win"]["forced_sources"] = data(subsets(d["win"]["sources"]))
        d["win"]["chou_hu"] = data(st.booleans())
        d["win"]["jiang_requires_quad"] = data(st.booleans())
        d["win"]["max_jiang"] = data(st.integers(0, 2))
        d["win"]["tianhu"] = {"ti": data(st.integers(0, 4)), "kan": data(st.integers(0, 6)),
                              "ti_counts_as_kan": data(st.booleans()),
                              "optional_dealer_win": data(st.booleans())}
        tiers = data(st.permutations(["hu", "pao", "peng", "chi"]))
        cut = data(st.integers(1, 4))
        d["claims"]["priority"] = [list(tiers[:cut])] + ([list(tiers[cut:])] if cut < 4 else [])
        for key in ("peng_on", "pao_on_kan", "pao_on_wei"):
            d["claims"][key] = data(subsets(["draw", "discard"]))
        d["claims"]["pao_on_peng"] = data(subsets(list(SOURCES)))
        d["claims"]["pao_forced"] = data(st.booleans())
        d["claims"]["po_pao_hu"] = data(st.booleans())
        d["claims"]["chi_by"] = data(subsets(["self", "next"]))
        d["claims"]["own_draw_on_wei"] = data(st.sampled_from(["ti", "pao"]))
        d["huxi"]["won_triple"] = data(st.sampled_from(["peng", "kan"]))
        d["claims"]["own_draw"] = data(st.sampled_from(["shown", "kept"]))
        if d["claims"]["own_draw"] == "kept" and data(st.booleans()):
            _keep_draws(d)  # mostly a buildable kept variant, sometimes a refused one
        for key in ("chi", "peng", "own_discards", "chou_wei_after_declined_peng"):
            d["chou"][key] = data(st.booleans())
        d["chou"]["scope"] = data(st.sampled_from(["both", "separate"]))
        d["chou"]["blocks_on"] = data(subsets(["draw", "discard"]))
        d["discard"]["dealt_double_quad"] = data(st.sampled_from(["skip_first", "skip_second",
                                                                      "skip_when_ready"]))
        d["discard"]["kan_discardable"] = data(st.booleans())
        d["discard"]["repeat_quad_skips_discard"] = data(st.booleans())
        d["display"] = {k: data(st.sampled_from(shows)) for k in ("wei", "chou_wei", "ti", "pao")}
        other = data(st.integers(8, 20))
        d["deal"]["other_hand"] = other
        d["deal"]["dealer_hand"] = other + 1
        cards_ = deck_size(d["deck"]["copies"], d["deck"]["kings"])
        aside = d["deal"].get("set_aside", 0)
        wall = cards_ - (other + 1) - other * (d["players"] - 1) - aside
        d["deal"]["wall"] = max(0, wall + data(st.sampled_from([0, 0, 0, 1, -1])))
        d["win"]["dihu"] = data(st.sampled_from([doc["win"]["dihu"], "lianzhang"]))
        d["claims"]["fang_pao_stops_takes"] = data(st.booleans())
        d["claims"]["own_peng_pao_first"] = data(st.booleans())
        return d

    def drawn(data: st.DrawFn, base: str) -> dict[str, Any]:
        return draw(data)
    return _named("variant_documents", drawn)(doc["id"] if isinstance(base, Variant) else base)


def _keep_draws(d: dict[str, Any]) -> None:
    """Drop from a variant mapping what ``claims.own_draw: kept`` refuses: wins and claims
    on a shown draw, claims of one's own draw; the drawer may win on its draw."""
    win, claims = d["win"], d["claims"]
    win["sources"] = sorted(set(win["sources"]) - {"draw"} | {"self"})
    win["forced_sources"] = [x for x in win["forced_sources"] if x != "draw"]
    for key in ("peng_on", "pao_on_kan", "pao_on_wei", "pao_on_peng", "chi_by"):
        claims[key] = [x for x in claims[key] if x not in ("draw", "self")]


__all__ = ["OFFERS", "DrawnGame", "Situation", "StrategyArgumentError", "WinningHand",
           "action_sequences", "cards", "deals", "game_states", "games", "hands", "melds",
           "observations", "situations", "swapped_deal", "variant_documents", "variants",
           "winning_hands", "winning_situations"]
