"""The reusable stateful test: :class:`ZipaiMachine` and :func:`machine_for` (see
:mod:`zipai_rules.testing`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from ..cards import KING
from ..engine.actions import Action, ActionKind, Event, EventKind
from ..engine.claims import hu_allowed, tier_options
from ..engine.game import Deal, Game, replay
from ..engine.observation import display, observe
from ..engine.seeds import check_seed
from ..engine.state import GameState, PaoTarget
from ..errors import ERROR_CODES, IllegalActionError, ZipaiError
from ..invariants import game_problem, payments_balance
from ..variant import Variant, VariantLike
from .strategies import StrategyArgumentError, deals
from .strategies import _variant as _strategy_variant


def _same_offer(a: GameState, b: GameState) -> bool:
    p, q = a.pending, b.pending
    return p is not None and q is not None and (p.card, p.source, p.by) == (q.card, q.source,
                                                                             q.by)


_TAKES = frozenset({EventKind.CHI, EventKind.PENG, EventKind.PAO, EventKind.HU})


def _taker(card: int, events: Sequence[Event]) -> int | None:
    """The seat that took the ``card`` on offer among the ``events`` of one action, ``None``
    when it went to a discard area (or the hand went on with it still on offer)."""
    for e in events:
        if e.card == card:
            if e.kind == EventKind.TO_DISCARDS:
                return None
            if e.kind in _TAKES:
                return e.seat
    return None


_PICKS = st.lists(st.integers(0, 31), min_size=1, max_size=16)
_SIMPLEST = {ActionKind.HU: 0, ActionKind.PASS: 1}


def _simplest_first(options: Sequence[Action]) -> list[Action]:
    """The legal actions in the order the machine's picks index them: a 胡 first, then a
    pass, then the engine's order; so picks of 0 play the simplest hand (a win when one is on
    offer, otherwise every card let go) and a shrunk run keeps only the claims its failure
    needs."""
    return sorted(options, key=lambda a: _SIMPLEST.get(a.kind, 2))


class ZipaiMachine(RuleBasedStateMachine):
    """A stateful test of hands of one variant: random legal actions, illegal ones, undo and
    clone, with the engine's invariants checked after every action.

    Rules: ``first_deal`` (an ``@initialize()`` rule: every run plays the one hand it deals),
    ``actions`` (one to sixteen legal actions, :meth:`act`, each a small index into the legal
    actions, a 胡 first, then a pass: 0 is what it shrinks towards; nothing once the hand is
    over),
    ``illegal`` (an action that is not legal must raise
    :class:`~zipai_rules.errors.IllegalActionError` with code ``illegal_action`` and change
    nothing) and ``undo_or_clone`` (:meth:`undo_redo` or :meth:`clone_is_independent`).

    Invariants, after every action: every card of the deck is somewhere, exactly once, and
    no concealed hand holds four of a kind; exactly one seat acts and it has at least one
    legal action until the hand is over; discards are of held cards (no 坎 card or 王
    unless the variant allows); no 吃 or 碰 of a card in the claimant's 臭 sets (``own_chou``,
    ``chou_peng``, and ``chou_chi`` on the sources in ``chou.blocks_on``), nor of a card it
    declined on an earlier offer as the machine itself remembers it (``chou.scope``: under
    ``both`` a declined 吃 or 碰 blocks both, under ``separate`` the kind declined; a seat that
    declined one kind and then took the card, the declined kind only); a declined 胡/碰/吃
    and one's own discard are marked 臭 as the variant says (under ``both`` for both kinds
    once the card is gone), and the 臭 sets only grow; no claim of a lower tier is offered
    while a seat that could claim in a higher tier (or earlier in the same tier) has not
    passed; a win offered on the hand as it stands is
    a win; each seat's observation shows its own hand and options, and every other seat's
    turn only as ``wait``; every 25 actions and at the end the actions replay to the same
    state; at the end each seat was shown its own events whole and no other seat's ``pass``,
    ``chou`` or card of a face-down meld; at the end
    a 荒庄 has an empty wall, the settlement's payments sum to zero and (``check_records``)
    the game record replays to the same state and settlement.

    Subclass and set ``variant`` (a :class:`~zipai_rules.variant.Variant`); override
    :meth:`check_external` to compare your own code's view with ``self.game``; set
    ``seed_strategy`` (e.g. ``st.just(7)``) to deal from seeds instead. By default a deal is
    drawn with :func:`~zipai_rules.testing.deals`, the deal of seed 0 with a few swaps that
    hypothesis drops, and picks of 0 win where they can and otherwise let every card go: a
    failing run shrinks to few actions, most of them passes, on a deal a swap or two from
    that one (printed as a
    :func:`~zipai_rules.testing.swapped_deal` call). Run it with
    ``MyMachine.TestCase`` (pytest or unittest) and bound it with
    ``MyMachine.TestCase.settings = settings(max_examples=…, stateful_step_count=…)``.
    To drive it by hand, call :meth:`start` and then the rules (``act([pick, …])``,
    ``undo_redo()``, ``clone_is_independent()``) on an instance. No rule has a precondition,
    so hypothesis never gives up a run for want of an enabled rule.
    """

    variant: Variant | None = None
    seed_strategy: st.SearchStrategy[int] | None = None
    check_records: bool = True

    def __init__(self) -> None:
        super().__init__()
        if self.variant is None:
            raise StrategyArgumentError("set ZipaiMachine.variant in a subclass (a Variant or "
                                        "a preset id, name or alias, or a variant file's path)")
        self._variant: Variant = _strategy_variant(self.variant)  # by name too, as machine_for
        self.game: Game | None = None
        self._states: list[GameState] = []
        self._passes: set[tuple[int, int]] = set()
        self._ended: int | None = None
        # 臭 as the machine sees it: (seat, card, "chi" | "peng") blocked by a decline on an
        # earlier offer, and the declines of the offer now open: (seat, card, kinds declined)
        self._blocked: set[tuple[int, int, str]] = set()
        self._open_declines: list[tuple[int, int, frozenset[str]]] = []

    # -- hooks ---------------------------------------------------------------------------------
    def check_external(self, game: Game) -> None:
        """Called after the deal and after every applied action (``game.state`` is the new
        state, ``game.actions[-1]`` the action, ``game.events`` the history); compare your
        own view of the game here and raise ``AssertionError`` on a difference. It must be
        deterministic (no clock, no unseeded randomness, no state kept across hands that the
        game does not explain): hypothesis replays each failing run and reports
        ``FlakyStrategyDefinition`` or ``Flaky`` when the same steps pass once and fail once."""

    # -- rules ---------------------------------------------------------------------------------
    def _draw_deal(self, data: st.DataObject) -> Deal | int:
        if self.seed_strategy is not None:
            return data.draw(self.seed_strategy, label="seed")
        return data.draw(deals(self._variant), label="deal")

    @initialize(data=st.data())
    def first_deal(self, data: st.DataObject) -> None:
        self.start(self._draw_deal(data))

    def start(self, deal: Deal | int) -> Game:
        """Begin a new hand from a :class:`~zipai_rules.engine.Deal` or the shuffle seed
        ``deal`` (seat 0 deals), check it and return it: what the deal rules do, for driving
        the machine by hand. Anything else (``None``, a bool, a float, a negative number)
        raises :class:`~zipai_rules.testing.strategies.StrategyArgumentError`."""
        if not isinstance(deal, Deal):
            try:
                check_seed(deal)
            except ZipaiError as exc:
                raise StrategyArgumentError(f"start: a Deal or a shuffle seed: {exc}") from None
        if isinstance(deal, Deal):
            self.game = Game(self._variant, deal=deal)
        else:
            self.game = Game(self._variant, seed=deal)
        self._states = [self.game.state]
        self._passes = set()
        self._ended = None
        self._blocked = set()
        self._open_declines = []
        self.check_game(self.game)
        self.check_external(self.game)
        return self.game

    # Hypothesis orders the rules by their number of arguments, then by name, and its simplest
    # run repeats the first: every rule takes one argument, so that rule is ``actions``.
    @rule(data=st.data())
    def actions(self, data: st.DataObject) -> None:
        """One to sixteen legal actions, each a small index into the legal actions (shrinking
        towards 0: a 胡 where there is one, else a pass, else the first); nothing once the
        hand is over (no rule waits on a precondition). A run plays one hand, the one
        ``first_deal`` dealt, so a failing run shrinks with its deal: a later hand's deal
        could not shrink into the first."""
        if self.game is not None and not self.game.is_over:
            self.act(data.draw(_PICKS, label="picks"))

    @rule(undo=st.booleans())
    def undo_or_clone(self, undo: bool) -> None:
        """:meth:`undo_redo` or :meth:`clone_is_independent`."""
        if undo:
            self.undo_redo()
        else:
            self.clone_is_independent()

    def act(self, picks: list[int]) -> None:
        """Apply ``picks``: each the index (modulo their number) of a legal action, a 胡 first,
        then a pass, then in the order of ``game.legal_actions()``, until the hand is over;
        the invariants and :meth:`check_external` after each. Raises
        :class:`~zipai_rules.testing.strategies.StrategyArgumentError` before :meth:`start`,
        or for ``picks`` that are not a list of ints (bools, floats and strings are none)."""
        game = self.game
        if game is None:
            raise StrategyArgumentError("start() a hand before acting in it")
        if isinstance(picks, (str, bytes, bytearray, Mapping)) or not isinstance(picks, Iterable):
            raise StrategyArgumentError(f"picks is a list of ints, not {picks!r:.40}")
        picks = list(picks)
        for pick in picks:
            if isinstance(pick, bool) or not isinstance(pick, int):
                raise StrategyArgumentError(f"a pick is an int (an index into the legal "
                                            f"actions), not {pick!r:.40}")
        for pick in picks:
            if game.is_over:
                break
            before, n_events = game.state, len(game.events)
            options = _simplest_first(game.legal_actions())
            action = options[pick % len(options)]
            game.apply(action)
            self._track(before, action, game.state, game.events[n_events:])
            self._states.append(game.state)
            self.check_game(game)
            self.check_external(game)

    @rule(data=st.data())
    def illegal(self, data: st.DataObject) -> None:
        game = self.game
        assert game is not None
        legal = game.legal_actions()
        seats = st.integers(0, self._variant.players)
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
        refused = game.check(action)
        assert refused, f"{action} passes Game.check but is not legal"
        try:
            game.apply(action)
        except IllegalActionError as exc:  # the refusal's code, a registered one
            assert exc.code == refused.code and exc.code in ERROR_CODES, exc.code
        else:
            raise AssertionError(f"{action} was accepted but is not among the legal actions")
        assert game.state == before and len(game.actions) == n_actions
        assert len(game.events) == n_events

    def undo_redo(self) -> None:
        """Undo the last action and apply it again: the previous state comes back, then the
        same state and events."""
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

    def clone_is_independent(self) -> None:
        """A clone is equal to the game and moving it leaves the game unchanged."""
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
        """Every invariant of the current state (see the class docstring), for any ``game``:
        a bot author can call it on a game the bot is playing,
        ``machine_for(variant)().check_game(game)``. Raises ``AssertionError`` naming the
        broken invariant."""
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
        v, seat = state.variant, state.seats[state.acting_seat]
        for a in state.options:
            assert a.kind == ActionKind.DISCARD and a.card is not None, str(a)
            assert seat.hand[a.card] >= 1, f"{a}: card not held"
            if a.card == KING:
                assert v.deck.king_rules.discardable, f"{a}: a 王 may not be discarded"
            elif seat.hand[a.card] == 3:
                assert v.discard.kan_discardable, f"{a}: a 坎 card may not be discarded"

    def _check_hu(self, state: GameState) -> None:
        seat = state.seats[state.acting_seat]
        kinds = [a.kind for a in state.options]
        assert ActionKind.HU in kinds and set(kinds) <= {ActionKind.HU, ActionKind.PASS}
        kept = state.pending.card if state.pending is not None else None  # own_draw kept
        assert hu_allowed(state.variant, seat, kept, "self") is not None, "a win is offered " \
            "on a hand that does not win"

    @staticmethod
    def _check_king_chi(v: Variant, hand: tuple[int, ...], a: Action) -> None:
        """A 吃 with 王: the option allows it, the hand holds the 王, each stands for a card
        the hand lacks, the claimed card is real, and a 比 holds one only with ``bi_kings``."""
        rules, chi = v.deck.king_rules, a.melds[0]
        kings = [k for m in a.melds for k in m.kings]
        assert "chi" in rules.claims, f"{a}: a 王 in a 吃"
        assert len(kings) <= min(2, hand[KING]), f"{a}: more 王 than held"
        assert all(len(m.kings) <= rules.chi_kings for m in a.melds), f"{a}: chi_kings"
        assert rules.bi_kings or not any(m.kings for m in a.melds[1:]), f"{a}: 王 in a 比"
        assert a.card is not None and chi.cards.count(a.card) > chi.kings.count(a.card), \
            f"{a}: the claimed card is real"
        assert all(a.card not in m.kings for m in a.melds[1:]), f"{a}: a 比 lays real copies"
        real = [i for m in a.melds for i in m.physical if i != KING]
        real.remove(a.card)
        assert all(hand[k] >= 3 or real.count(k) == hand[k] for k in kings), \
            f"{a}: a 王 stands for a card the hand holds"

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
                assert a.card is not None and a.card != KING, f"{a}: a 王 is never claimed"
                if seat.hand[a.card] != 2:  # a 王 stands for the second card of the pair
                    assert seat.hand[a.card] == 1 and seat.hand[KING] \
                        and "peng" in v.deck.king_rules.claims, f"{a}: a 碰 without a pair"
            target = state.plan(a) if a.kind == ActionKind.PAO else None
            if isinstance(target, PaoTarget) and target.king:  # a pair and a 王: a choice
                assert a.card is not None and seat.hand[a.card] == 2 and seat.hand[KING] \
                    and "pao" in v.deck.king_rules.claims and actor != p.by, f"{a}: 王 跑"
                assert ActionKind.PASS in {o.kind for o in state.options} \
                    or state.options[0].kind == ActionKind.HU, f"{a}: a forced 王 跑"
            if a.kind == ActionKind.CHI and any(m.kings for m in a.melds):
                self._check_king_chi(v, seat.hand, a)
            if a.kind == ActionKind.CHI and p.source in v.chou.blocks_on:
                assert a.card not in seat.chou_chi_cards, f"{a}: a declined 吃 (臭)"
                assert (actor, a.card, "chi") not in self._blocked, \
                    f"{a}: declined before ({v.chou.scope}: blocks 吃)"
            if a.kind == ActionKind.PENG:
                assert (actor, a.card, "peng") not in self._blocked, \
                    f"{a}: declined before ({v.chou.scope}: blocks 碰)"
        # claim order: every seat that can claim in a higher tier, or earlier in this tier,
        # has passed this card; the actor's options are exactly its options in this tier
        for t in range(p.tier + 1):
            cands = tier_options(v, state.seats, v.claims.priority[t], p.card, p.source, p.by,
                                 state.win_context())
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

    def _track(self, before: GameState, action: Action, after: GameState,
               events: Sequence[Event] = ()) -> None:
        """Remember who passed the card now on offer; check that a declined 胡/碰/吃 and
        one's own discard are marked 臭 as the variant says, and that 臭 sets only grow.
        ``events``: what the action made happen (who took the card, a forced 跑 included)."""
        v, s = before.variant, action.seat
        offer = before.pending if before.phase == "respond" else None
        if offer is not None and action.kind == ActionKind.PASS \
                and after.phase == "respond" and _same_offer(before, after):
            self._passes.add((s, offer.tier))
        else:
            self._passes = set()
        seat = after.seats[s]
        if offer is not None and action.kind == ActionKind.PASS:
            card = offer.card
            declined = {a.kind for a in before.options}
            if ActionKind.PENG in declined and v.chou.peng:
                assert card in seat.chou_peng_cards, f"seat {s} declined 碰 {card}: not marked 臭"
            if ActionKind.CHI in declined and v.chou.chi:
                assert card in seat.chou_chi_cards, f"seat {s} declined 吃 {card}: not marked 臭"
            if ActionKind.HU in declined and v.win.chou_hu:
                assert any(c == card for c, _ in seat.chou_hu_marks), \
                    f"seat {s} declined 胡 on {card}: not marked 臭胡"
            marked = {k.value for k, on in ((ActionKind.CHI, v.chou.chi),
                                            (ActionKind.PENG, v.chou.peng))
                      if on and k in declined}
            if marked:
                self._open_declines.append((s, card, frozenset(marked)))
        if offer is not None and not _same_offer(before, after):
            self._card_gone(after, _taker(offer.card, events))
        if action.kind == ActionKind.DISCARD and v.chou.own_discards:
            assert action.card in seat.own_chou, f"seat {s} discarded {action.card}: not 臭"
        for s, (a, b) in enumerate(zip(before.seats, after.seats, strict=True)):
            for name in ("chou_chi_cards", "chou_peng_cards", "own_chou"):
                assert getattr(a, name) <= getattr(b, name), f"seat {s} {name} shrank"
            assert set(a.chou_hu_marks) <= set(b.chou_hu_marks), f"seat {s} chou_hu shrank"

    def _card_gone(self, after: GameState, taker: int | None) -> None:
        """The card on offer is gone (to ``taker``, or nobody): each seat that declined a 吃
        or 碰 of it is blocked for the kind declined, and under ``chou.scope: both`` (003
        "玩家可以吃、碰却选择不吃、不碰时，这张牌就成了该玩家的臭牌 … 不得再吃或者碰"), unless it
        took the card, for both, which its 臭 sets show."""
        both = after.variant.chou.scope == "both"
        for s, card, kinds in self._open_declines:
            blocked = {"chi", "peng"} if both and s != taker else set(kinds)
            self._blocked |= {(s, card, k) for k in blocked}
            if after.phase == "over":
                continue
            seat = after.seats[s]
            if "chi" in blocked:
                assert card in seat.chou_chi_cards, f"seat {s} let {card} go: not 臭 for 吃"
            if "peng" in blocked:
                assert card in seat.chou_peng_cards, f"seat {s} let {card} go: not 臭 for 碰"
        self._open_declines = []

    def _check_end(self, game: Game) -> None:
        if self._ended == len(game.actions):
            return
        from ..settlement import settle

        v, state = game.variant, game.state
        result = state.result
        assert result is not None and result.kind in ("hu", "tianhu", "huangzhuang")
        if result.kind == "huangzhuang":
            assert not state.wall and result.winner is None
        else:
            assert result.winner in range(v.players)
        settlement = settle(v, state.result, events=game.events)
        problem = payments_balance(settlement)
        assert problem is None, problem
        if self.check_records:
            from ..records import game_record, replay_record

            record = json.loads(json.dumps(game_record(game, settlement)))
            again, resettled = replay_record(record)
            assert again.state == state and resettled == settlement
        self._ended = len(game.actions)


def machine_for(variant: VariantLike, check: Callable[[Game], None] | None = None, *,
                seed_strategy: st.SearchStrategy[int] | None = None,
                check_records: bool = True) -> type[ZipaiMachine]:
    """A :class:`ZipaiMachine` subclass bound to ``variant``, with an optional ``check``
    called as :meth:`ZipaiMachine.check_external` (it must be deterministic: a function of
    the game alone), the ``seed_strategy`` its deals draw from (default: none, the deal is
    drawn by :func:`~zipai_rules.testing.deals`) and ``check_records`` (default True: the
    record round trip at the end of each hand); run it with its ``TestCase`` attribute
    (pytest or unittest). ``variant``: a :class:`~zipai_rules.variant.Variant` or anything
    :func:`~zipai_rules.variant.as_variant` reads (a preset id, name or alias, a variant
    file's path). A ``check`` that is not callable, a ``seed_strategy`` that is no strategy
    or a ``check_records`` that is not a bool raise
    :class:`~zipai_rules.testing.strategies.StrategyArgumentError` at once."""
    variant = _strategy_variant(variant)  # a Variant, or a preset id, name or alias, or a file
    if check is not None and not callable(check):
        raise StrategyArgumentError(f"check is a function check(game) or None, not {check!r}")
    if seed_strategy is not None and not isinstance(seed_strategy, st.SearchStrategy):
        raise StrategyArgumentError(f"seed_strategy is a hypothesis strategy of seeds or None, "
                                    f"not {seed_strategy!r}")
    if not isinstance(check_records, bool):
        raise StrategyArgumentError(f"check_records is True or False, not {check_records!r}")
    attrs_: dict[str, Any] = {"variant": variant, "check_records": check_records}
    if seed_strategy is not None:
        attrs_["seed_strategy"] = seed_strategy
    if check is not None:
        attrs_["check_external"] = lambda self, game: check(game)
    return type(f"ZipaiMachine_{variant.id}", (ZipaiMachine,), attrs_)


__all__ = ["ZipaiMachine", "machine_for"]
