"""Property tests of the turn state machine over seeded Hunan games with random choices.

Each example is a shuffle seed plus a derandomised ``random.Random`` that picks among the legal
actions (declining most wins, so that games run long). Invariants checked at every step:
card conservation, legality of every offered action, illegal actions rejected without a trace,
determinism, undo / clone / replay, termination, 臭牌 never offered, and 胡 > 吃 priority.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import total_counts
from zipai_rules.analysis import win_verdict
from zipai_rules.engine import Action, ActionKind, EventKind, Game, replay
from zipai_rules.engine.claims import can_discard, hu_allowed, locked, owes_discard, table_huxi
from zipai_rules.errors import IllegalActionError
from zipai_rules.invariants import conservation, one_actor

A = ActionKind

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
CHOOSERS = st.randoms(use_true_random=False)

# A loose bound on the number of decisions in one hand, from the rules: at most 61 discards
# (every discard leaves a concealed hand, 61 cards dealt), at most 30 吃/碰 (each takes two
# concealed cards), one 胡, at most 19 + 1 hu_check answers (one per hidden draw, one for the
# dealt hand), and for each of the <= 19 + 61 exposed cards at most 3 tiers x 3 seats answers.
MAX_STEPS = 61 + 30 + 1 + 20 + (19 + 61) * 9


def choose(rnd: random.Random, actions) -> Action:
    """Mostly decline a win (so games run on), otherwise any legal action uniformly."""
    if any(a.kind == A.HU for a in actions) and rnd.random() < 0.75:
        others = [a for a in actions if a.kind != A.HU]
        if others:
            return rnd.choice(others)
    return rnd.choice(actions)


def play(variant, seed: int, rnd: random.Random, check=None, max_steps: int = MAX_STEPS) -> Game:
    """Play one hand; call ``check(game)`` before every decision and at the end."""
    game = Game(variant, seed=seed)
    for _ in range(max_steps):
        if check is not None:
            check(game)
        if game.is_over:
            return game
        game.apply(choose(rnd, game.legal_actions()))
    raise AssertionError(f"seed {seed}: no end after {max_steps} decisions")


def conserved(game: Game) -> None:
    st_ = game.state
    assert st_.card_count() == 80
    problem = conservation(st_)  # 4 of each of the 20 cards, no 4th concealed copy (a 提)
    assert problem is None, problem


# --- conservation, legality ---------------------------------------------------------------------

@given(seed=SEEDS, rnd=CHOOSERS)
def test_card_conservation(hunan, seed, rnd):
    play(hunan, seed, rnd, conserved)


@given(seed=SEEDS, rnd=CHOOSERS)
def test_every_legal_action_applies(hunan, seed, rnd):
    def check(game):
        for action in game.legal_actions():
            assert game.check(action) is None
            other = game.clone()
            other.apply(action)
            assert other.state.card_count() == 80
    play(hunan, seed, rnd, check)


def illegal_candidates(game: Game, rnd: random.Random) -> list[Action]:
    """Actions that must be rejected now: a discard of a card not held or of a 坎, every legal
    action by another seat, a 吃 plan offered for another card, 碰 / 胡 / 跑 not offered, a pass
    where a discard is owed."""
    st_ = game.state
    legal = set(st_.options)
    out: list[Action] = []
    if st_.is_over:
        out += [Action(A.PASS, s) for s in range(3)] + [Action(A.DISCARD, 0, 0)]
        return out
    actor = st_.actor
    hand = st_.seats[actor].hand
    out += [Action(A.DISCARD, actor, i) for i in range(20) if hand[i] == 0]
    out += [Action(A.DISCARD, actor, i) for i in locked(game.variant, hand)]
    for a in legal:
        for s in range(3):
            if s != actor:
                out.append(Action(a.kind, s, a.card, a.melds))
        if a.kind == A.CHI:
            out.append(Action(A.CHI, actor, (a.card + 1) % 20, a.melds))
            # the plan without its last 比 meld (or with no meld at all)
            out.append(Action(A.CHI, actor, a.card, a.melds[:-1] if len(a.melds) > 1 else ()))
    card = st_.pending.card if st_.pending is not None else rnd.randrange(20)
    out += [Action(A.PENG, actor, card), Action(A.PAO, actor, card), Action(A.HU, actor, card),
            Action(A.HU, actor), Action(A.PASS, actor), Action(A.PENG, actor, (card + 3) % 20)]
    return [a for a in out if a not in legal]


@given(seed=SEEDS, rnd=CHOOSERS)
def test_illegal_actions_rejected_and_change_nothing(hunan, seed, rnd):
    def check(game):
        cands = illegal_candidates(game, rnd)
        assert cands
        for bad in rnd.sample(cands, min(4, len(cands))):
            before, n_actions, n_events = game.state, len(game.actions), len(game.events)
            assert game.check(bad) is not None
            with pytest.raises(IllegalActionError):
                game.apply(bad)
            assert game.state is before and game.state == before
            assert len(game.actions) == n_actions and len(game.events) == n_events
    play(hunan, seed, rnd, check)


@given(seed=SEEDS, rnd=CHOOSERS)
def test_options_non_empty_until_over(hunan, seed, rnd):
    def check(game):
        st_ = game.state
        problem = one_actor(st_)  # options until the end, all of one seat, none twice
        assert problem is None, problem
        if not st_.is_over:
            assert st_.actor in (0, 1, 2)
            assert st_.phase in ("discard", "respond", "hu_check")
            if st_.phase == "respond":
                assert st_.pending is not None
                assert any(a.kind == A.PASS for a in st_.options)  # no forced win in Hunan
            if st_.phase == "discard":
                assert all(a.kind == A.DISCARD for a in st_.options)
        else:
            assert st_.actor is None
    game = play(hunan, seed, rnd, check)
    assert game.result.kind in ("hu", "tianhu", "huangzhuang")
    if game.result.kind == "huangzhuang":
        assert game.state.wall == ()
    else:
        assert game.result.huxi >= (15 if game.result.kind == "hu" else 0)


@given(seed=SEEDS, rnd=CHOOSERS)
def test_card_count_invariant_and_discards_owed(hunan, seed, rnd):
    """Digest §1.4.0: a player with q 提/跑 rests at 20 + max(q - 1, 0) cards (hand plus table) and
    discards only when holding one more ("任何吃碰等动作后都要打牌,八块(即跑、提两次及以上)除外",
    000 §跑胡子玩牌规则). A non-dealer with two dealt 提 holds one fewer until its first take
    (003)."""
    def check(game):
        st_ = game.state
        for s, seat in enumerate(st_.seats):
            if seat.dead:
                continue
            resting = 20 + max(seat.quads - 1, 0)
            if st_.phase == "discard" and s == st_.actor:
                assert seat.held == resting + 1, (s, seat.held, seat.quads)
            elif st_.phase == "hu_check" and s == st_.actor:
                assert seat.held in (resting, resting + 1)
            elif st_.is_over and s == st_.result.winner:  # won after a forced 偎/提, say
                assert seat.held <= resting + 1, (s, seat.held, seat.quads)
            else:
                assert seat.held <= resting, (s, seat.held, seat.quads)
    play(hunan, seed, rnd, check)


@given(seed=SEEDS, rnd=CHOOSERS)
def test_every_pao_has_a_rule_source(hunan, seed, rnd):
    """000 §跑胡子玩牌规则: 坎 + another's discard or draw ("别家打出一张相同牌叫跑"); 偎 + any card
    another player discards or draws ("同桌无论谁打出第4张牌或者摸出第4张牌,偎的牌都必跑"); 碰 + a
    drawn card only ("桌面上碰的牌不能跑任何人手中打出的牌")."""
    game = Game(hunan, seed=seed)
    exposed = None
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        before = game.state
        # each seat's table meld kind per card, followed through the events of this step
        table = [{m.cards[0]: m.kind.value for m in seat.melds} for seat in before.seats]
        kan = [{i for i in range(20) if seat.hand[i] == 3} for seat in before.seats]
        batch = game.apply(choose(rnd, before.options))
        for k, e in enumerate(batch):
            if e.kind in (EventKind.DISCARD, EventKind.DRAW):
                exposed = (e.seat, e.kind, e.card)
            if e.kind == EventKind.PAO:
                by, how, card = exposed
                assert card == e.card
                prior = table[e.seat].get(card)
                if card in kan[e.seat] or prior in ("wei", "chou_wei"):
                    assert by != e.seat
                else:
                    assert prior == "peng" and how == EventKind.DRAW, (prior, how)
            if e.kind in (EventKind.TI, EventKind.WEI, EventKind.CHOU_WEI):
                # own draw only, and never shown first (000 §衡阳六胡抢
                # "除偎牌与提牌外，其它必须首先明示")
                assert k > 0 and batch[k - 1].kind == EventKind.DRAW_HIDDEN
                assert batch[k - 1].seat == e.seat
            if e.kind in (EventKind.TI, EventKind.WEI, EventKind.CHOU_WEI, EventKind.PENG,
                          EventKind.PAO):
                table[e.seat][e.card] = e.kind.value
                kan[e.seat].discard(e.card)
    assert game.is_over


# --- determinism, undo, clone, replay -------------------------------------------------------------

@given(seed=SEEDS, choice_seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_same_seed_same_choices_same_game(hunan, seed, choice_seed):
    a = play(hunan, seed, random.Random(choice_seed))
    b = play(hunan, seed, random.Random(choice_seed))
    assert a.actions == b.actions
    assert a.events == b.events
    assert a.state == b.state


@given(seed=SEEDS, rnd=CHOOSERS)
def test_undo_restores_previous_state(hunan, seed, rnd):
    def check(game):
        if game.is_over:
            return
        before, n_events = game.state, len(game.events)
        action = choose(rnd, game.legal_actions())
        game.apply(action)
        assert game.undo() == action
        assert game.state is before and game.state == before
        assert len(game.events) == n_events
    game = play(hunan, seed, rnd, check)
    n = len(game.actions)
    while game.actions:
        game.undo()
    assert game.state == Game(hunan, seed=seed).state
    with pytest.raises(IllegalActionError):
        game.undo()
    assert n > 0


@given(seed=SEEDS, rnd=CHOOSERS)
def test_clone_is_independent(hunan, seed, rnd):
    def check(game):
        if game.is_over:
            return
        before, n = game.state, len(game.actions)
        other = game.clone()
        other.apply(choose(rnd, other.legal_actions()))
        assert game.state is before and len(game.actions) == n
        assert len(other.actions) == n + 1 and other.actions[:n] == game.actions
        other.undo()
        assert game.state is before and other.state == before
    play(hunan, seed, rnd, check)


@given(seed=SEEDS, rnd=CHOOSERS)
def test_replay_reproduces_final_state(hunan, seed, rnd):
    game = play(hunan, seed, rnd)
    again = replay(hunan, game.deal, game.actions)
    assert again.state == game.state
    assert again.events == game.events
    if game.actions:  # a changed history diverges at a named step
        wrong = list(game.actions)
        wrong[-1] = Action(A.DISCARD, (wrong[-1].seat + 1) % 3, 19)
        with pytest.raises(IllegalActionError, match=f"step {len(wrong)}"):
            replay(hunan, game.deal, wrong)


# --- rules that must hold in every reachable state ------------------------------------------------

@given(seed=SEEDS, rnd=CHOOSERS)
def test_chou_cards_never_offered(hunan, seed, rnd):
    """003 "第二次牌桌上再出现同张牌时，该玩家不得再吃或者碰";
    "任何人也不能吃或者碰自己曾经打出过的牌"."""
    def check(game):
        st_ = game.state
        if st_.phase != "respond":
            return
        seat = st_.seats[st_.actor]
        for a in st_.options:
            assert a.card == st_.pending.card or a.kind == A.PASS
            if a.kind == A.CHI:
                assert a.card not in seat.chou_chi_cards
            if a.kind == A.PENG:
                assert a.card not in seat.chou_peng_cards
            if a.kind in (A.CHI, A.PENG):
                assert not (st_.pending.source == "discard" and st_.pending.by == st_.actor)
    play(hunan, seed, rnd, check)


@given(seed=SEEDS, rnd=CHOOSERS)
def test_chou_from_the_log(hunan, seed, rnd):
    """The same rule, tracked independently from the history: after a seat declined a 碰 (吃) of a
    card, or discarded it, or left its own draw of it, it is never offered 碰 (吃) of that card
    again (003 "第二次牌桌上再出现同张牌时，该玩家不得再吃或者碰";
    "任何人也不能吃或者碰自己曾经打出过的牌"; digest G21)."""
    game = Game(hunan, seed=seed)
    declined: dict[tuple[int, ActionKind, int], int] = {}  # → index of the exposing event
    own: set[tuple[int, int]] = set()
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        st_ = game.state
        here = _exposed_at(game) if st_.phase == "respond" else None
        for a in st_.options:
            if a.kind in (A.CHI, A.PENG):
                assert (a.seat, a.card) not in own, str(a)
                assert declined.get((a.seat, a.kind, a.card), here) == here, str(a)
        action = choose(rnd, st_.options)
        if action.kind == A.PASS and here is not None:
            for a in st_.options:
                if a.kind in (A.CHI, A.PENG):
                    declined.setdefault((a.seat, a.kind, a.card), here)
        for e in game.apply(action):
            if e.kind in (EventKind.DISCARD, EventKind.TO_DISCARDS):
                own.add((e.seat, e.card))
    assert game.is_over


def _exposed_at(game: Game) -> int:
    """Index in ``game.events`` of the event that exposed the pending card."""
    p = game.state.pending
    kind = EventKind.DRAW if p.source == "draw" else EventKind.DISCARD
    events = game.events
    for k in range(len(events) - 1, -1, -1):
        e = events[k]
        if e.kind == kind and e.seat == p.by and e.card == p.card:
            return k
    raise AssertionError("exposing event not found")


@given(seed=SEEDS, rnd=CHOOSERS)
def test_no_chi_while_a_win_is_unanswered(hunan, seed, rnd):
    """001 "当有人胡牌时，不胡才能碰或吃，当有碰牌时，不碰才能吃"; 003 破跑胡. Whenever a seat is
    asked about 吃 (or 碰), every seat that could win on the card has already declined it, no seat
    could still 跑 it (跑 is forced: 000 "比、偎、提、跑是强制规则"), and for 吃, every possible 碰
    was declined."""
    def check(game):
        st_ = game.state
        if st_.phase != "respond" or not any(a.kind in (A.CHI, A.PENG) for a in st_.options):
            return
        p = st_.pending
        since = game.events[_exposed_at(game):]
        for s, seat in enumerate(st_.seats):
            if s == p.by and p.source == "discard":
                continue
            src = "self" if (s == p.by and p.source == "draw") else p.source
            assert hu_allowed(hunan, seat, p.card, src) is None, (s, str(p))
            if src in hunan.win.sources \
                    and win_verdict(hunan, seat.hand, seat.melds, p.card, src).win:
                # it could win: it declined, now or on an earlier copy at the same 胡息 (臭胡)
                assert (p.card, table_huxi(hunan, seat)) in seat.chou_hu_marks, s
        for s, seat in enumerate(st_.seats):  # a 跑 is forced and outranks 碰 and 吃
            if s == p.by and p.source == "discard":
                continue
            own = s == p.by
            table = {(m.kind.value, m.cards[0]) for m in seat.melds}
            # 000 "手中有三张,别家打出一张相同牌叫跑";
            # "无论谁打出第4张牌或者摸出第4张牌,偎的牌都必跑"
            if not own:
                assert seat.hand[p.card] < 3, s
                assert ("wei", p.card) not in table and ("chou_wei", p.card) not in table, s
            if p.source == "draw":  # 000 "第4张牌如果是摸出来的牌还可以跑桌面上碰的牌"
                assert ("peng", p.card) not in table, s
        if any(a.kind == A.CHI for a in st_.options):  # and nobody may still 碰 it
            for s, seat in enumerate(st_.seats):
                if s == st_.actor or s == p.by:
                    continue
                after = list(seat.hand)
                after[p.card] -= 2
                could_peng = (seat.hand[p.card] == 2 and p.source in hunan.claims.peng_on
                              and p.card not in seat.chou_peng_cards and not seat.dead
                              and (not owes_discard(hunan, seat, 1) or can_discard(hunan, after)))
                if could_peng:
                    assert any(e.kind == EventKind.PASS and e.seat == s for e in since), s
    play(hunan, seed, rnd, check)


# --- many plain seeded games ----------------------------------------------------------------------

def test_200_seeded_games_finish_with_conservation(hunan):
    kinds: Counter = Counter()
    for seed in range(1, 201):
        game = play(hunan, seed, random.Random(seed), conserved)
        kinds[game.result.kind] += 1
        assert game.state.card_count() == 80
    assert sum(kinds.values()) == 200
    assert set(kinds) <= {"hu", "tianhu", "huangzhuang"}


# --- 吃 plans against a brute-force reference ----------------------------------------------------

def _all_chi_shapes() -> list[tuple[int, ...]]:
    """Every chi-type triple: runs and 二七十 of one case, and 绞 (two of one case, one of the
    other, same rank). Written out independently of the engine."""
    shapes = set()
    for base in (0, 10):
        for r in range(8):
            shapes.add((base + r, base + r + 1, base + r + 2))
        shapes.add((base + 1, base + 6, base + 9))
    for r in range(10):
        shapes.add((r, r, r + 10))
        shapes.add((r, r + 10, r + 10))
    return sorted(shapes)


CHI_SHAPES = _all_chi_shapes()


def reference_chi_plans(hand, card):
    """Brute force: every multiset of 1..3 chi-type triples, each holding the card, built from
    the non-坎 concealed cards plus the incoming card, that uses every copy of the card; any one
    of them may be the 吃 meld, the others are 比 melds (003 "吃牌时，如果玩家手上有吃进的那张牌 …
    必须一起扔出来，称之为比")."""
    from itertools import combinations_with_replacement

    from zipai_rules.melds import Meld, chi_shape

    pool = Counter({i: n for i, n in enumerate(hand[:20]) if 0 < n < 3})
    pool[card] += 1
    with_card = [s for s in CHI_SHAPES if card in s]
    plans = set()
    for k in (1, 2, 3):
        for combo in combinations_with_replacement(with_card, k):
            used = Counter(i for s in combo for i in s)
            if any(used[i] > pool[i] for i in used) or used[card] != pool[card]:
                continue
            for j, chi in enumerate(combo):
                if j and combo[j] == combo[j - 1]:
                    continue
                bis = sorted(combo[:j] + combo[j + 1:])
                plans.add((Meld(chi_shape(chi), chi, claimed=card),)
                          + tuple(Meld(chi_shape(b), b, bi=True) for b in bis))
    return plans


@st.composite
def chi_situations(draw):
    card = draw(st.integers(0, 19))
    near = sorted({card, (card + 10) % 20} | {card // 10 * 10 + r for r in range(10)
                                              if abs(r - card % 10) <= 2 or r in (1, 6, 9)})
    hand = [0] * 21
    for i in near:
        hand[i] = draw(st.integers(0, 3 if i != card else 2))
    for i in draw(st.lists(st.integers(0, 19), max_size=6)):
        hand[i] = min(3, hand[i] + 1) if i != card else min(2, hand[i] + 1)
    return tuple(hand), card


@given(chi_situations())
def test_chi_plans_match_brute_force(hunan, situation):
    from zipai_rules.engine.claims import chi_plans

    hand, card = situation
    got = chi_plans(hunan, hand, card)
    assert len(set(got)) == len(got)
    assert set(got) == reference_chi_plans(hand, card)


# --- every preset ---------------------------------------------------------------------------------

def _preset_ids():
    from zipai_rules import preset_ids

    return preset_ids()


@pytest.mark.parametrize("preset", _preset_ids())
def test_every_preset_plays_to_the_end_conserving_cards(preset):
    """The engine invariants hold under every preset, not only Hunan: all cards of the deck stay
    accounted for (王 included), an actor always has an option until the end, every hand ends,
    and replay reproduces it."""
    from zipai_rules import load_preset

    variant = load_preset(preset)
    want = Counter({i: variant.deck.copies for i in range(20)})
    if variant.deck.kings:
        want[20] = variant.deck.kings

    def check(game):
        st_ = game.state
        # the cards set aside (deal.set_aside) are out of play, and known to the deal only
        assert +total_counts(st_) + Counter(game.deal.aside) == want
        problem = conservation(st_) or one_actor(st_)
        assert problem is None, problem

    for seed in range(1, 11):
        game = play(variant, seed, random.Random(seed), check)
        assert game.result.kind in ("hu", "tianhu", "huangzhuang")
        assert replay(variant, game.deal, game.actions).state == game.state


def test_moving_a_card_on_offer_changes_only_the_fields_asked():
    """The transition moves a card on offer with a positional ``Pending(...)`` (no
    ``attrs.evolve`` in the hot path): it equals ``attrs.evolve`` of the fields it changes,
    so a new or reordered field of ``Pending`` is caught here."""
    import attrs

    from zipai_rules.engine.state import Pending
    from zipai_rules.engine.transition import _moved

    assert [f.name for f in attrs.fields(Pending)] == [
        "card", "source", "by", "tier", "queue", "declined", "window"]
    p = Pending(4, "discard", 1, 0, ((2, ()),), (0,), None)
    queue = ((0, ()),)
    assert _moved(p, 2, queue) == attrs.evolve(p, tier=2, queue=queue)
    assert _moved(p, 2, queue, (0, 2)) == attrs.evolve(p, tier=2, queue=queue, declined=(0, 2))
