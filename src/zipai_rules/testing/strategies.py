"""Hypothesis strategies that draw legal cards, hands, melds, situations, winning hands, games,
action sequences and variant documents for any variant (see :mod:`zipai_rules.testing`)."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from ..analysis import SOURCES, Analysis, analyze
from ..cards import KING, deck_size
from ..engine.actions import Action
from ..engine.game import Game, deck
from ..melds import CHI_SHAPES, Meld, MeldKind, chi_meld, chi_shape, chi_shapes_with
from ..presets import raw_preset
from ..variant import Variant


def cards(variant: Variant) -> st.SearchStrategy[int]:
    """One card index of the variant's deck: ``0..19``, plus the 王 (``20``) only where the
    deck has one. Shrinks towards ``x1`` (index 0)."""
    kinds = list(range(20)) + ([KING] if variant.deck.kings else [])
    return st.sampled_from(kinds)


def hands(variant: Variant, size: int | None = None, min_size: int = 0,
          max_size: int | None = None) -> st.SearchStrategy[list[int]]:
    """A sorted list of card indices dealt from one deck of the variant, so no card appears
    more often than the deck holds (``copies`` of each ordinary card, ``kings`` 王). ``size``
    fixes the length; otherwise it lies in ``min_size..max_size`` (default: up to the dealer's
    hand). Any cards: four of a kind included. Shrinks towards fewer, lower cards."""
    pool = deck(variant)
    lo = size if size is not None else min_size
    hi = size if size is not None else (
        max_size if max_size is not None else variant.deal.dealer_hand)
    picks = st.lists(st.integers(0, len(pool) - 1), unique=True, min_size=lo, max_size=hi)
    return picks.map(lambda ix: sorted(pool[i] for i in ix))


_SAME = {MeldKind.KAN: 3, MeldKind.PENG: 3, MeldKind.WEI: 3, MeldKind.CHOU_WEI: 3,
         MeldKind.TI: 4, MeldKind.PAO: 4, MeldKind.JIANG: 2}
_TABLE_SAME = frozenset({MeldKind.PENG, MeldKind.WEI, MeldKind.CHOU_WEI, MeldKind.TI,
                         MeldKind.PAO})


def melds(variant: Variant, kinds: frozenset[MeldKind] | None = None
          ) -> st.SearchStrategy[Meld]:
    """A valid meld of one of ``kinds`` (default: every kind) that the variant's deck can
    hold (no more than ``copies`` of a card). Chi-type melds are drawn from every three-card
    shape; a ``claimed`` card is marked on about half of them. No meld holds a 王. Shrinks
    towards the first kind in ``MeldKind`` value order, low cards and no claimed card."""
    allowed = sorted((k for k in (kinds or frozenset(MeldKind))
                      if _SAME.get(k, 2) <= variant.deck.copies), key=lambda k: k.value)
    shapes_of = {k: sorted({s for c in range(20) for s in chi_shapes_with(c)
                            if chi_shape(s) == k and max(map(s.count, s)) <= variant.deck.copies})
                 for k in CHI_SHAPES}

    @st.composite
    def draw(data: st.DrawFn) -> Meld:
        kind = data(st.sampled_from(allowed))
        if kind in _SAME:
            c = data(st.integers(0, 19))
            return Meld(kind, (c,) * _SAME[kind])
        shape = data(st.sampled_from(shapes_of[kind]))
        claimed = data(st.sampled_from(sorted(set(shape)))) if data(st.booleans()) else None
        return Meld(kind, shape, claimed=claimed)
    return draw()


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


@st.composite
def situations(draw: st.DrawFn, variant: Variant, complete: bool = False) -> tuple[
        list[Meld], list[int], int | None, str | None]:
    """``(table, hand, card, source)`` for one player, as a game can reach it.

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
    included. Shrinks towards fewer table melds and no incoming card.
    """
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
        return table, sorted(hand), None, None
    free = [c for c in range(20) if counts[c] < variant.deck.copies]
    if counts[KING] < variant.deck.kings:
        free.append(KING)
    card = draw(st.sampled_from(free))
    source = "self" if card == KING else draw(st.sampled_from(SOURCES))
    return table, sorted(hand), card, source


def winning_hands(variant: Variant, min_huxi: int | None = None, max_huxi: int = 200
                  ) -> st.SearchStrategy[tuple[list[Meld], list[int], Analysis]]:
    """``(table, hand, analysis)``: a complete :func:`situations` hand that wins as it
    stands under the variant (``analysis`` is its :func:`~zipai_rules.analysis.analyze`
    verdict), with ``min_huxi`` (default: the variant's threshold) ≤ 胡息 ≤ ``max_huxi``.
    Filtered, so a tight range is slow to find. Shrinks like :func:`situations`."""
    low = variant.win.min_huxi if min_huxi is None else min_huxi

    def judged(sit: tuple[list[Meld], list[int], Any, Any]) -> tuple[list[Meld], list[int],
                                                                      Analysis]:
        table, hand, _, _ = sit
        return table, hand, analyze(variant, hand, table)
    return situations(variant, complete=True).map(judged).filter(
        lambda t: t[2].win and low <= t[2].huxi <= max_huxi)


def games(variant: Variant, max_steps: int = 120) -> st.SearchStrategy[Game]:
    """A legal mid-game (or finished) :class:`~zipai_rules.engine.Game`: a shuffle seed
    (seat 0 deals), then up to ``max_steps`` actions, each chosen uniformly among the legal
    ones by a ``random.Random`` seeded from a drawn integer (winning included, so many games
    end early). Shrinks towards seed 0, fewer steps and chooser seed 0."""
    @st.composite
    def draw(data: st.DrawFn) -> Game:
        seed = data(st.integers(0, 2**31 - 1))
        steps = data(st.integers(0, max_steps))
        rng = random.Random(data(st.integers(0, 2**31 - 1)))
        game = Game(variant, seed=seed)
        for _ in range(steps):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        return game
    return draw()


def action_sequences(variant: Variant, max_steps: int = 400
                     ) -> st.SearchStrategy[tuple[int, list[Action]]]:
    """``(seed, actions)``: a shuffle seed and the legal actions of one hand from the deal
    ``Game(variant, seed=seed)`` (seat 0 deals), each chosen uniformly among the legal ones
    by a ``random.Random`` seeded from a drawn integer, to the end of the hand or
    ``max_steps`` actions. ``replay(variant, shuffled_deal(variant, seed), actions)``
    plays them again. Shrinks towards seed 0 and chooser seed 0."""
    @st.composite
    def draw(data: st.DrawFn) -> tuple[int, list[Action]]:
        seed = data(st.integers(0, 2**31 - 1))
        rng = random.Random(data(st.integers(0, 2**31 - 1)))
        game = Game(variant, seed=seed)
        while not game.is_over and len(game.actions) < max_steps:
            game.apply(rng.choice(game.legal_actions()))
        return seed, list(game.actions)
    return draw()


def variant_documents(base: str = "hunan") -> st.SearchStrategy[dict[str, Any]]:
    """Schema-valid variant mappings (``extends`` resolved, ``id`` ``fuzz``): the ``base``
    preset with rule values redrawn: players and 王 count, hand sizes (the wall then fills
    the deck, or misses it by one card), threshold, win sources and forced sources, 将 rules,
    天胡 counts, 地胡 (the preset's or ``lianzhang``), claim priorities, who may 吃, 碰 and 跑
    sources, 放跑 and 跑-before-胡 switches, 臭 rules, discard rules, meld display, the kept
    draw, one's own draw onto a 偎 and the won triple. The combinations include odd ones and
    semantically invalid ones (a wall that does not fill the deck, seats fewer than players,
    an unreachable threshold), for fuzzing tools that read variant files. Shrinks towards
    small values and the first choices, not towards the base preset itself."""
    from ..loader import resolve

    doc = resolve(raw_preset(base), raw_preset, base)

    def subsets(items: list[str]) -> st.SearchStrategy[list[str]]:
        return st.lists(st.sampled_from(items), unique=True)

    shows = ["hidden", "one_up", "all_up"]

    @st.composite
    def draw(data: st.DrawFn) -> dict[str, Any]:
        d = copy.deepcopy(doc)
        d["id"] = "fuzz"
        d["players"] = data(st.sampled_from([doc["players"]] * 3 + [2, 4]))
        d["deck"]["kings"] = data(st.sampled_from([doc["deck"]["kings"]] * 3 + [0, 1, 2]))
        if d["deck"]["kings"]:
            d["deck"]["king_rules"] = {"discardable": data(st.booleans()),
                                       "holder_wins_only_self": data(st.booleans()),
                                       "claims": data(subsets(["peng", "pao"]))}
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
        d["chou"]["blocks_on"] = data(subsets(["draw", "discard"]))
        d["discard"]["dealt_double_quad"] = data(st.sampled_from(["skip_first", "skip_second"]))
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
    return draw()


def _keep_draws(d: dict[str, Any]) -> None:
    """Drop from a variant mapping what ``claims.own_draw: kept`` refuses: wins and claims
    on a shown draw, claims of one's own draw; the drawer may win on its draw."""
    win, claims = d["win"], d["claims"]
    win["sources"] = sorted(set(win["sources"]) - {"draw"} | {"self"})
    win["forced_sources"] = [x for x in win["forced_sources"] if x != "draw"]
    for key in ("peng_on", "pao_on_kan", "pao_on_wei", "pao_on_peng", "chi_by"):
        claims[key] = [x for x in claims[key] if x not in ("draw", "self")]


__all__ = ["action_sequences", "cards", "games", "hands", "melds", "situations",
           "variant_documents", "winning_hands"]
