"""Hypothesis strategies and a reusable stateful test for code built on zipai_rules.

Import needs the optional ``hypothesis`` dependency (``pip install "zipai-rules[testing]"``);
nothing else in the package imports this module.

Strategies (each takes the :class:`~zipai_rules.variant.Variant` whose rules it respects):

* :func:`cards`, :func:`hands`, :func:`melds`, :func:`winning_hands`, :func:`situations`;
* :func:`games` (legal mid-game states reached by seeded play), :func:`action_sequences`;
* :func:`variant_documents` (schema-valid variant mappings, for fuzzing tooling).

:class:`ZipaiMachine` is a ``RuleBasedStateMachine`` over one variant; subclass it and set
``variant`` (and optionally override :meth:`ZipaiMachine.check_external` to compare your own
view of the game, e.g. a server's, after every step).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from .analysis import Analysis, analyze
from .cards import KING
from .engine.actions import Action, ActionKind
from .engine.claims import _shapes_with
from .engine.game import Game, deck, replay
from .errors import IllegalActionError
from .melds import CHI_SHAPES, Meld, MeldKind, chi_shape
from .presets import raw_preset
from .variant import Variant

SOURCES = ("self", "draw", "discard")


def cards(variant: Variant) -> st.SearchStrategy[int]:
    """One card index of the variant's deck (the 王 only where the deck has one). Shrinks
    towards ``x1``."""
    kinds = list(range(20)) + ([KING] if variant.kings else [])
    return st.sampled_from(kinds)


def hands(variant: Variant, size: int | None = None, min_size: int = 0,
          max_size: int | None = None) -> st.SearchStrategy[list[int]]:
    """A sorted list of card indices drawn from one deck, so no card appears more often than
    the deck holds (王 included). ``size`` fixes the length; otherwise it lies in
    ``min_size..max_size`` (default: up to the dealer's hand). Shrinks towards fewer, lower
    cards."""
    pool = deck(variant)
    lo = size if size is not None else min_size
    hi = size if size is not None else (max_size if max_size is not None else variant.dealer_hand)
    picks = st.lists(st.integers(0, len(pool) - 1), unique=True, min_size=lo, max_size=hi)
    return picks.map(lambda ix: sorted(pool[i] for i in ix))


_SAME = {MeldKind.KAN: 3, MeldKind.PENG: 3, MeldKind.WEI: 3, MeldKind.CHOU_WEI: 3,
         MeldKind.TI: 4, MeldKind.PAO: 4, MeldKind.JIANG: 2}


def melds(variant: Variant, kinds: frozenset[MeldKind] | None = None
          ) -> st.SearchStrategy[Meld]:
    """A valid meld of one of ``kinds`` (default: every kind). Chi-type melds are drawn from
    every three-card shape; a ``claimed`` card is marked on about half of them. Shrinks towards
    small, low melds."""
    allowed = kinds or frozenset(MeldKind)

    @st.composite
    def draw(data: Any) -> Meld:
        kind = data(st.sampled_from(sorted(allowed, key=lambda k: k.value)))
        if kind in _SAME:
            c = data(st.integers(0, 19))
            return Meld(kind, (c,) * _SAME[kind])
        shapes = sorted({s for c in range(20) for s in _shapes_with(c) if chi_shape(s) == kind})
        shape = data(st.sampled_from(shapes))
        claimed = data(st.sampled_from((None,) + tuple(sorted(set(shape)))))
        return Meld(kind, shape, claimed=claimed)
    return draw()


def _fits(counts: list[int], meld: Meld, variant: Variant) -> bool:
    need = [0] * 21
    for i in meld.cards:
        need[i] += 1
    return all(counts[i] + need[i] <= variant.copies for i in range(20))


@st.composite
def situations(draw: Any, variant: Variant, complete: bool = False) -> tuple[
        list[Meld], list[int], int | None, str | None]:
    """``(table, hand, card, source)``: table melds (碰/偎/臭偎/提/跑 and 吃), a concealed hand
    (chi-type triples, 坎 and loose cards) and an incoming card with its source, or ``None``
    for both. With ``complete`` the hand is built only from melds plus, after a quad, a pair.
    Copies never exceed the deck. Shrinks towards fewer table melds and smaller hands."""
    counts = [0] * 21
    table: list[Meld] = []
    for m in draw(st.lists(melds(variant, frozenset({MeldKind.PENG, MeldKind.WEI, MeldKind.TI,
                                                      MeldKind.PAO}) | CHI_SHAPES), max_size=4)):
        if _fits(counts, m, variant) and len(table) < 4:
            if m.kind in CHI_SHAPES and m.claimed is None:
                m = Meld(m.kind, m.cards, claimed=m.cards[0])
            table.append(m)
            for i in m.cards:
                counts[i] += 1
    hand: list[int] = []
    room = variant.other_hand - sum(len(m.cards) for m in table)
    for m in draw(st.lists(melds(variant, CHI_SHAPES | {MeldKind.KAN}), max_size=7)):
        if len(hand) + 3 <= room and _fits(counts, m, variant):
            hand.extend(m.cards)
            for i in m.cards:
                counts[i] += 1
    if any(m.kind in (MeldKind.TI, MeldKind.PAO) for m in table) and len(hand) + 2 <= room:
        c = draw(st.integers(0, 19))
        if counts[c] + 2 <= variant.copies:
            hand += [c, c]
            counts[c] += 2
    if not complete:
        for c in draw(st.lists(st.integers(0, 19), max_size=3)):
            if counts[c] < variant.copies and len(hand) < room:
                hand.append(c)
                counts[c] += 1
    counts_hand = [hand.count(i) for i in range(20)]
    if 4 in counts_hand:  # a concealed four is always a 提 on the table
        c = counts_hand.index(4)
        hand = [i for i in hand if i != c]
    if complete or not draw(st.booleans()):
        return table, sorted(hand), None, None
    free = [c for c in range(20) if counts[c] < variant.copies]
    if not free:
        return table, sorted(hand), None, None
    card = draw(st.sampled_from(free))
    source = draw(st.sampled_from(SOURCES))
    return table, sorted(hand), card, source


def winning_hands(variant: Variant, min_huxi: int | None = None, max_huxi: int = 200
                  ) -> st.SearchStrategy[tuple[list[Meld], list[int], Analysis]]:
    """``(table, hand, analysis)`` for concealed hands that win as they stand under the
    variant, with ``min_huxi`` (default: the threshold) ≤ 胡息 ≤ ``max_huxi``. Built from
    valid melds and filtered, so tight ranges are slow to find. Shrinks like
    :func:`situations`."""
    low = variant.min_huxi if min_huxi is None else min_huxi

    def judged(sit: tuple[list[Meld], list[int], Any, Any]) -> tuple[list[Meld], list[int],
                                                                      Analysis]:
        table, hand, _, _ = sit
        return table, hand, analyze(variant, hand, table)
    return situations(variant, complete=True).map(judged).filter(
        lambda t: t[2].win and low <= t[2].huxi <= max_huxi)


def games(variant: Variant, max_steps: int = 120) -> st.SearchStrategy[Game]:
    """A legal mid-game (or finished) :class:`Game`: a seeded shuffle, then up to
    ``max_steps`` random legal actions. Shrinks towards seed 0 and fewer steps."""
    @st.composite
    def draw(data: Any) -> Game:
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
    """``(seed, actions)``: a shuffle seed and a legal sequence of actions from the deal, as
    played by a random chooser (to the end of the hand or ``max_steps``)."""
    @st.composite
    def draw(data: Any) -> tuple[int, list[Action]]:
        seed = data(st.integers(0, 2**31 - 1))
        rng = random.Random(data(st.integers(0, 2**31 - 1)))
        game = Game(variant, seed=seed)
        while not game.is_over and len(game.actions) < max_steps:
            game.apply(rng.choice(game.legal_actions()))
        return seed, list(game.actions)
    return draw()


def variant_documents(base: str = "hunan") -> st.SearchStrategy[dict[str, Any]]:
    """Schema-valid variant mappings (``extends`` resolved): the ``base`` preset with rule
    values redrawn — thresholds, win sources, claim priorities, 跑 sources, 臭 rules, hand
    sizes — including combinations that are odd or semantically invalid (for fuzzing tools
    that read variant files). Shrinks towards the base preset."""
    from .loader import resolve

    doc = resolve(raw_preset(base), raw_preset, base)
    subsets = lambda items: st.lists(st.sampled_from(items), unique=True)  # noqa: E731

    @st.composite
    def draw(data: Any) -> dict[str, Any]:
        d = copy.deepcopy(doc)
        d["id"] = "fuzz"
        d["win"]["min_huxi"] = data(st.integers(0, 40))
        d["win"]["sources"] = data(subsets(list(SOURCES)).filter(bool))
        d["win"]["forced_sources"] = data(subsets(d["win"]["sources"]))
        d["win"]["chou_hu"] = data(st.booleans())
        tiers = data(st.permutations(["hu", "pao", "peng", "chi"]))
        cut = data(st.integers(1, 4))
        d["claims"]["priority"] = [list(tiers[:cut])] + ([list(tiers[cut:])] if cut < 4 else [])
        for key in ("peng_on", "pao_on_kan", "pao_on_wei"):
            d["claims"][key] = data(subsets(["draw", "discard"]))
        d["claims"]["pao_on_peng"] = data(subsets(list(SOURCES)))
        d["claims"]["pao_forced"] = data(st.booleans())
        d["claims"]["skip_pao_to_win"] = data(st.booleans())
        d["claims"]["chi_by"] = data(subsets(["self", "next"]))
        for key in ("chi", "peng", "own_discards", "chou_wei_after_declined_peng"):
            d["chou"][key] = data(st.booleans())
        d["discard"]["dealt_double_quad"] = data(st.sampled_from(["skip_first", "skip_second"]))
        d["discard"]["kan_discardable"] = data(st.booleans())
        other = data(st.integers(8, 20))
        d["deal"]["other_hand"] = other
        d["deal"]["dealer_hand"] = other + 1
        d["deal"]["wall"] = 80 - (other + 1) - 2 * other + data(st.sampled_from([0, 0, 0, 1, -1]))
        return d
    return draw()


class ZipaiMachine(RuleBasedStateMachine):
    """A stateful test of one hand: random legal actions, illegal ones, undo and clone, with
    the engine's invariants checked after every step.

    Subclass and set ``variant`` (a :class:`Variant`); override :meth:`check_external` to
    compare your own code's view with ``self.game`` after each step. ``seed`` may be fixed.
    """

    variant: Variant | None = None
    seed_strategy = st.integers(0, 2**31 - 1)

    def __init__(self) -> None:
        super().__init__()
        if self.variant is None:
            raise TypeError("set ZipaiMachine.variant in a subclass")
        self.game: Game | None = None

    # -- hooks ---------------------------------------------------------------------------------
    def check_external(self, game: Game) -> None:
        """Called after every applied action; compare your own view of the game here."""

    # -- rules ---------------------------------------------------------------------------------
    @precondition(lambda self: self.game is None)
    @rule(seed=st.integers(0, 2**31 - 1))
    def deal(self, seed: int) -> None:
        self.game = Game(self.variant, seed=seed)  # type: ignore[arg-type]

    @precondition(lambda self: self.game is not None and not self.game.is_over)
    @rule(pick=st.integers(0, 10_000))
    def act(self, pick: int) -> None:
        game = self.game
        assert game is not None
        options = game.legal_actions()
        game.apply(options[pick % len(options)])
        self.check_external(game)

    @precondition(lambda self: self.game is not None)
    @rule(card=st.integers(0, 20), seat=st.integers(0, 3), kind=st.sampled_from(list(ActionKind)))
    def illegal(self, card: int, seat: int, kind: ActionKind) -> None:
        game = self.game
        assert game is not None
        action = Action(kind, seat, card if kind != ActionKind.PASS else None)
        if action in game.legal_actions():
            return
        before, n = game.state, len(game.actions)
        try:
            game.apply(action)
        except IllegalActionError as exc:
            assert exc.code == "illegal_action"
        else:
            raise AssertionError(f"{action} was accepted but is not among the legal actions")
        assert game.state == before and len(game.actions) == n

    @precondition(lambda self: self.game is not None and bool(self.game.actions))
    @rule()
    def undo_redo(self) -> None:
        game = self.game
        assert game is not None
        after = game.state
        action = game.undo()
        game.apply(action)
        assert game.state == after

    @precondition(lambda self: self.game is not None)
    @rule()
    def clone_is_independent(self) -> None:
        game = self.game
        assert game is not None
        other = game.clone()
        assert other.state == game.state
        if not other.is_over:
            other.apply(other.legal_actions()[0])
            assert len(game.actions) == len(other.actions) - 1

    # -- invariants ----------------------------------------------------------------------------
    @invariant()
    def cards_conserved(self) -> None:
        if self.game is not None:
            assert self.game.state.card_count() == self.variant.deck_size  # type: ignore[union-attr]

    @invariant()
    def one_actor_or_over(self) -> None:
        game = self.game
        if game is None:
            return
        if game.is_over:
            assert game.actor is None and not game.legal_actions()
        else:
            options = game.legal_actions()
            assert options and all(a.seat == game.actor for a in options)

    @invariant()
    def no_chou_claims(self) -> None:
        game = self.game
        if game is None or game.is_over:
            return
        st_ = game.state
        seat = st_.seats[st_.actor]  # type: ignore[index]
        for a in game.legal_actions():
            if a.kind == ActionKind.PENG:
                assert a.card not in seat.chou_peng
            if a.kind == ActionKind.CHI:
                assert a.card not in seat.own_chou

    @invariant()
    def replays(self) -> None:
        game = self.game
        if game is not None and (game.is_over or len(game.actions) % 25 == 0):
            again = replay(game.variant, game.deal, game.actions)
            assert again.state == game.state


def machine_for(variant: Variant, check: Callable[[Game], None] | None = None
                ) -> type[ZipaiMachine]:
    """A :class:`ZipaiMachine` subclass bound to ``variant`` (and an optional per-step
    ``check`` of your own); use its ``TestCase`` attribute with pytest or unittest."""
    attrs_: dict[str, Any] = {"variant": variant}
    if check is not None:
        attrs_["check_external"] = lambda self, game: check(game)
    return type(f"ZipaiMachine_{variant.id}", (ZipaiMachine,), attrs_)


__all__ = ["ZipaiMachine", "action_sequences", "cards", "games", "hands",
           "machine_for", "melds", "situations", "variant_documents", "winning_hands"]
