"""Hypothesis strategies and a reusable stateful test for code built on zipai_rules.

Import needs the optional ``hypothesis`` dependency (``pip install "zipai-rules[testing]"``);
nothing else in the package imports this module. docs/testing.md is the guide.

Strategies (each takes the :class:`~zipai_rules.variant.Variant` whose rules it respects):

* :func:`cards`, :func:`hands`, :func:`melds`, :func:`situations`, :func:`winning_hands`;
* :func:`games` (legal mid-game states reached by seeded play), :func:`action_sequences`;
* :func:`variant_documents` (schema-valid variant mappings, for fuzzing tooling).

:class:`ZipaiMachine` is a ``RuleBasedStateMachine`` over one variant; subclass it and set
``variant`` (and optionally override :meth:`ZipaiMachine.check_external` to compare your own
view of the game, e.g. a server's, after every step), or build one with :func:`machine_for`.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from .analysis import SOURCES, Analysis, analyze
from .cards import KING, deck_size
from .engine.actions import Action, ActionKind, EventKind
from .engine.claims import hu_allowed, tier_options
from .engine.game import Game, deck, replay
from .engine.observation import display, observe
from .engine.state import GameState
from .errors import IllegalActionError
from .invariants import game_problem, payments_balance
from .melds import CHI_SHAPES, Meld, MeldKind, chi_shape, chi_shapes_with
from .presets import raw_preset
from .variant import Variant



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
    def draw(data: Any) -> Meld:
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
    out |= {Meld(chi_shape(shape), shape) for i in range(20) for shape in chi_shapes_with(i)}
    return sorted(out, key=lambda m: (m.kind.value, m.cards))


_HAND_MELDS = _hand_melds()


@st.composite
def situations(draw: Any, variant: Variant, complete: bool = False) -> tuple[
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
    """``(seed, actions)``: a shuffle seed and the legal actions of one hand from the deal
    ``Game(variant, seed=seed)`` (seat 0 deals), each chosen uniformly among the legal ones
    by a ``random.Random`` seeded from a drawn integer, to the end of the hand or
    ``max_steps`` actions. ``replay(variant, shuffled_deal(variant, seed), actions)``
    plays them again. Shrinks towards seed 0 and chooser seed 0."""
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
    """Schema-valid variant mappings (``extends`` resolved, ``id`` ``fuzz``): the ``base``
    preset with rule values redrawn: players and 王 count, hand sizes (the wall then fills
    the deck, or misses it by one card), threshold, win sources and forced sources, 将 rules,
    天胡 counts, claim priorities, who may 吃, 碰 and 跑 sources, 臭 rules, discard rules and
    meld display. The combinations include odd ones and semantically invalid ones (a wall
    that does not fill the deck, seats fewer than players, an unreachable threshold), for
    fuzzing tools that read variant files. Shrinks towards small values and the first
    choices, not towards the base preset itself."""
    from .loader import resolve

    doc = resolve(raw_preset(base), raw_preset, base)
    subsets = lambda items: st.lists(st.sampled_from(items), unique=True)  # noqa: E731
    shows = ["hidden", "one_up", "all_up"]

    @st.composite
    def draw(data: Any) -> dict[str, Any]:
        d = copy.deepcopy(doc)
        d["id"] = "fuzz"
        d["players"] = data(st.sampled_from([doc["players"]] * 3 + [2, 4]))
        d["deck"]["kings"] = data(st.sampled_from([doc["deck"]["kings"]] * 3 + [0, 1, 2]))
        if d["deck"]["kings"]:
            d["deck"]["king_rules"] = {"discardable": data(st.booleans()),
                                       "holder_wins_only_self": data(st.booleans())}
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
        wall = cards_ - (other + 1) - other * (d["players"] - 1)
        d["deal"]["wall"] = max(0, wall + data(st.sampled_from([0, 0, 0, 1, -1])))
        return d
    return draw()


# --- the stateful test ----------------------------------------------------------------------

def _same_offer(a: GameState, b: GameState) -> bool:
    p, q = a.pending, b.pending
    return p is not None and q is not None and (p.card, p.source, p.by) == (q.card, q.source,
                                                                             q.by)


class ZipaiMachine(RuleBasedStateMachine):
    """A stateful test of hands of one variant: random legal actions, illegal ones, undo and
    clone, with the engine's invariants checked after every action.

    Rules: ``deal`` (a new hand from a seed of ``seed_strategy``, again once a hand is over),
    ``act`` (one to eight legal actions), ``illegal`` (an action that is not legal must raise
    :class:`~zipai_rules.errors.IllegalActionError` with code ``illegal_action`` and change
    nothing), ``undo_redo`` and ``clone_is_independent``.

    Invariants, after every action: every card of the deck is somewhere, exactly once, and
    no concealed hand holds four of a kind; exactly one seat acts and it has at least one
    legal action until the hand is over; discards are of held cards (no 坎 card or 王
    unless the variant allows); no 吃 or 碰 of a card in the claimant's 臭 sets (``own_chou``,
    ``chou_peng``, and ``chou_chi`` on the sources in ``chou.blocks_on``); a declined
    胡/碰/吃 and one's own discard are marked 臭 as the variant says, and the 臭 sets only
    grow; no claim of a lower tier is offered while a seat that could claim in a higher tier
    (or earlier in the same tier) has not passed; a win offered on the hand as it stands is
    a win; each seat's observation shows its own hand and options, and every other seat's
    turn only as ``wait``; every 25 actions and at the end the actions replay to the same
    state; at the end each seat was shown its own events whole and no other seat's ``pass``,
    ``chou`` or card of a face-down meld; at the end
    a 荒庄 has an empty wall, the settlement's payments sum to zero and (``check_records``)
    the game record replays to the same state and settlement.

    Subclass and set ``variant`` (a :class:`~zipai_rules.variant.Variant`); override
    :meth:`check_external` to compare your own code's view with ``self.game``; set
    ``seed_strategy`` (e.g. ``st.just(7)``) to fix the deal. Run it with
    ``MyMachine.TestCase`` (pytest or unittest) and bound it with
    ``MyMachine.TestCase.settings = settings(max_examples=…, stateful_step_count=…)``.
    To drive it by hand, call :meth:`start` and then the rules (``act([pick, …])``,
    ``undo_redo()``, ``clone_is_independent()``) on an instance.
    """

    variant: Variant | None = None
    seed_strategy: st.SearchStrategy[int] = st.integers(0, 2**31 - 1)
    check_records: bool = True

    def __init__(self) -> None:
        super().__init__()
        if self.variant is None:
            raise TypeError("set ZipaiMachine.variant in a subclass")
        self.game: Game | None = None
        self._states: list[GameState] = []
        self._passes: set[tuple[int, int]] = set()
        self._ended: int | None = None

    # -- hooks ---------------------------------------------------------------------------------
    def check_external(self, game: Game) -> None:
        """Called after the deal and after every applied action (``game.state`` is the new
        state, ``game.actions[-1]`` the action, ``game.events`` the history); compare your
        own view of the game here and raise ``AssertionError`` on a difference."""

    # -- rules ---------------------------------------------------------------------------------
    @precondition(lambda self: self.game is None or self.game.is_over)
    @rule(data=st.data())
    def deal(self, data: st.DataObject) -> None:
        self.start(data.draw(self.seed_strategy, label="seed"))

    def start(self, seed: int) -> Game:
        """Begin a new hand from the shuffle ``seed`` (seat 0 deals), check it and return
        it: what the ``deal`` rule does, for driving the machine by hand."""
        self.game = Game(self.variant, seed=seed)  # type: ignore[arg-type]
        self._states = [self.game.state]
        self._passes = set()
        self._ended = None
        self.check_game(self.game)
        self.check_external(self.game)
        return self.game

    @precondition(lambda self: self.game is not None and not self.game.is_over)
    @rule(picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=8))
    def act(self, picks: list[int]) -> None:
        game = self.game
        assert game is not None
        for pick in picks:
            if game.is_over:
                break
            before = game.state
            options = game.legal_actions()
            action = options[pick % len(options)]
            game.apply(action)
            self._track(before, action, game.state)
            self._states.append(game.state)
            self.check_game(game)
            self.check_external(game)

    @precondition(lambda self: self.game is not None)
    @rule(data=st.data())
    def illegal(self, data: st.DataObject) -> None:
        game = self.game
        assert game is not None
        legal = game.legal_actions()
        seats = st.integers(0, self.variant.players)  # type: ignore[union-attr]
        anything = st.builds(Action, st.sampled_from(list(ActionKind)), seats,
                             st.none() | st.integers(0, 20))
        choices = [anything]
        if legal:
            pick = st.sampled_from(legal)
            choices.append(st.builds(lambda a, s: Action(a.kind, s, a.card, a.melds), pick, seats))
            choices.append(st.builds(lambda a, c: Action(a.kind, a.seat, c, a.melds), pick,
                                     st.none() | st.integers(0, 20)))
        action = data.draw(st.one_of(choices), label="action")
        if action in legal:
            return
        before, n_actions, n_events = game.state, len(game.actions), len(game.events)
        assert game.check(action), f"{action} passes Game.check but is not legal"
        try:
            game.apply(action)
        except IllegalActionError as exc:
            assert exc.code == "illegal_action", exc.code
        else:
            raise AssertionError(f"{action} was accepted but is not among the legal actions")
        assert game.state == before and len(game.actions) == n_actions
        assert len(game.events) == n_events

    @precondition(lambda self: self.game is not None)
    @rule()
    def undo_redo(self) -> None:
        game = self.game
        assert game is not None
        if not game.actions:
            before = game.state
            try:
                game.undo()
            except IllegalActionError as exc:
                assert exc.code == "nothing_to_undo", exc.code
            else:
                raise AssertionError("undo at the start of the hand did not raise")
            assert game.state == before
            return
        after, events = game.state, game.events
        action = game.undo()
        assert game.state == self._states[-2], "undo did not restore the previous state"
        game.apply(action)
        assert game.state == after and game.events == events
        self.check_external(game)

    @precondition(lambda self: self.game is not None)
    @rule()
    def clone_is_independent(self) -> None:
        game = self.game
        assert game is not None
        state, n = game.state, len(game.actions)
        other = game.clone()
        assert other.state == state and other.actions == game.actions
        assert other.events == game.events and other.deal == game.deal
        if not other.is_over:
            other.apply(other.legal_actions()[0])
            assert len(other.actions) == n + 1
        elif other.actions:
            other.undo()
        assert game.state == state and len(game.actions) == n

    # -- invariants ----------------------------------------------------------------------------
    @invariant()
    def engine_invariants(self) -> None:
        if self.game is not None:
            self.check_game(self.game)

    def check_game(self, game: Game) -> None:
        """Every invariant of the current state (see the class docstring)."""
        v = game.variant
        state = game.state
        problem = game_problem(game)
        assert problem is None, problem
        if game.is_over:
            self._check_end(game)
        else:
            check = {"discard": self._check_discard, "respond": self._check_respond,
                     "hu_check": self._check_hu}.get(state.phase)
            assert check is not None, f"unknown phase {state.phase!r}"
            check(state)
        self._check_views(game)
        if game.actions and (game.is_over or len(game.actions) % 25 == 0):
            again = replay(v, game.deal, game.actions)
            assert again.state == state and again.events == game.events

    def _check_views(self, game: Game) -> None:
        """Seat views (docs/observations.md): nothing of another seat's turn or secrets."""
        state = game.state
        for s in range(len(state.seats)):
            obs = observe(state, s)
            assert obs.hand == state.seats[s].hand
            if state.actor == s:
                assert (obs.phase, obs.options) == (state.phase, state.options)
            else:
                assert obs.options == () and obs.phase in ("wait", "over"), obs.phase
            if not game.is_over:
                continue
            shown = game.events_for(s)
            assert [e for e in shown if e.seat == s] == [e for e in game.events if e.seat == s]
            for e in shown:
                if e.seat is not None and e.seat != s:
                    assert e.kind not in (EventKind.PASS, EventKind.CHOU), f"seat {s} sees {e}"
                    if display(game.variant, e.kind) == "hidden":
                        assert e.card is None and not e.melds, f"seat {s} sees {e}"

    def _check_discard(self, state: GameState) -> None:
        v, seat = state.variant, state.seats[state.actor]  # type: ignore[index]
        for a in state.options:
            assert a.kind == ActionKind.DISCARD and a.card is not None, str(a)
            assert seat.hand[a.card] >= 1, f"{a}: card not held"
            if a.card == KING:
                assert v.deck.king_rules.discardable, f"{a}: a 王 may not be discarded"
            elif seat.hand[a.card] == 3:
                assert v.discard.kan_discardable, f"{a}: a 坎 card may not be discarded"

    def _check_hu(self, state: GameState) -> None:
        seat = state.seats[state.actor]  # type: ignore[index]
        kinds = [a.kind for a in state.options]
        assert ActionKind.HU in kinds and set(kinds) <= {ActionKind.HU, ActionKind.PASS}
        assert hu_allowed(state.variant, seat, None, "self") is not None, "a win is offered " \
            "on a hand that does not win"

    def _check_respond(self, state: GameState) -> None:
        v, p, actor = state.variant, state.pending, state.actor
        assert p is not None and actor is not None
        seat = state.seats[actor]
        for a in state.options:
            assert a.kind == ActionKind.PASS or a.card == p.card, f"{a} is not about {p.card}"
            if a.kind in (ActionKind.CHI, ActionKind.PENG):
                assert a.card not in seat.own_chou, f"{a}: a card it discarded itself (臭)"
            if a.kind == ActionKind.PENG:
                assert a.card not in seat.chou_peng_cards, f"{a}: a declined 碰 (臭)"
            if a.kind == ActionKind.CHI and p.source in v.chou.blocks_on:
                assert a.card not in seat.chou_chi_cards, f"{a}: a declined 吃 (臭)"
        # claim order: every seat that can claim in a higher tier, or earlier in this tier,
        # has passed this card; the actor's options are exactly its options in this tier
        for t in range(p.tier + 1):
            cands = tier_options(v, state.seats, v.claims.priority[t], p.card, p.source, p.by)
            seats = [s for s, _ in cands]
            if t == p.tier:
                assert actor in seats, f"seat {actor} is asked but has no claim in tier {t}"
                k = seats.index(actor)
                assert set(cands[k][1]) == set(state.options), "options differ from the tier's"
                assert tuple(cands[k + 1:]) == p.queue, "the queue differs from the tier's"
                cands = cands[:k]
            for s, opts in cands:
                assert (s, t) in self._passes, (
                    f"seat {actor} is asked in tier {p.tier} ({state.options}) while seat {s} "
                    f"has not answered {opts} in tier {t}")

    def _track(self, before: GameState, action: Action, after: GameState) -> None:
        """Remember who passed the card now on offer; check that a declined 胡/碰/吃 and
        one's own discard are marked 臭 as the variant says, and that 臭 sets only grow."""
        v, s = before.variant, action.seat
        if before.phase == "respond" and action.kind == ActionKind.PASS \
                and after.phase == "respond" and _same_offer(before, after):
            self._passes.add((s, before.pending.tier))  # type: ignore[union-attr]
        else:
            self._passes = set()
        seat = after.seats[s]
        if before.phase == "respond" and action.kind == ActionKind.PASS:
            card = before.pending.card  # type: ignore[union-attr]
            declined = {a.kind for a in before.options}
            if ActionKind.PENG in declined and v.chou.peng:
                assert card in seat.chou_peng_cards, f"seat {s} declined 碰 {card}: not marked 臭"
            if ActionKind.CHI in declined and v.chou.chi:
                assert card in seat.chou_chi_cards, f"seat {s} declined 吃 {card}: not marked 臭"
            if ActionKind.HU in declined and v.win.chou_hu:
                assert any(c == card for c, _ in seat.chou_hu_marks), \
                    f"seat {s} declined 胡 on {card}: not marked 臭胡"
        if action.kind == ActionKind.DISCARD and v.chou.own_discards:
            assert action.card in seat.own_chou, f"seat {s} discarded {action.card}: not 臭"
        for s, (a, b) in enumerate(zip(before.seats, after.seats)):
            for name in ("chou_chi_cards", "chou_peng_cards", "own_chou"):
                assert getattr(a, name) <= getattr(b, name), f"seat {s} {name} shrank"
            assert set(a.chou_hu_marks) <= set(b.chou_hu_marks), f"seat {s} chou_hu shrank"

    def _check_end(self, game: Game) -> None:
        if self._ended == len(game.actions):
            return
        from .settlement import settle

        v, state = game.variant, game.state
        result = state.result
        assert result is not None and result.kind in ("hu", "tianhu", "huangzhuang")
        if result.kind == "huangzhuang":
            assert not state.wall and result.winner is None
        else:
            assert result.winner in range(v.players)
        settlement = settle(state, v.seats > v.players)
        problem = payments_balance(settlement)
        assert problem is None, problem
        if self.check_records:
            from .records import game_record, replay_record

            record = json.loads(json.dumps(game_record(game, settlement)))
            again, resettled = replay_record(record)
            assert again.state == state and resettled == settlement
        self._ended = len(game.actions)


def machine_for(variant: Variant, check: Callable[[Game], None] | None = None
                ) -> type[ZipaiMachine]:
    """A :class:`ZipaiMachine` subclass bound to ``variant``, with an optional ``check``
    called as :meth:`ZipaiMachine.check_external`; run it with its ``TestCase`` attribute
    (pytest or unittest)."""
    attrs_: dict[str, Any] = {"variant": variant}
    if check is not None:
        attrs_["check_external"] = lambda self, game: check(game)
    return type(f"ZipaiMachine_{variant.id}", (ZipaiMachine,), attrs_)


__all__ = ["ZipaiMachine", "action_sequences", "cards", "games", "hands",
           "machine_for", "melds", "situations", "variant_documents", "winning_hands"]
