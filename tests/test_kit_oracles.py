"""The differential oracles of zipai_rules.testing (issue 27) and the stateful machine's deal:
each shown to find a planted bug and to shrink it to a short example.

The planted bugs are "your code" of a user: a client that thinks only the seat asked may
claim the card on offer, an engine that never offers 胡 on a card, a server that breaks on the
first 碰 on offer."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, find, settings

from zipai_rules import find_variant
from zipai_rules.engine import ActionKind, Game, transition
from zipai_rules.testing import (
    OFFERS,
    StrategyArgumentError,
    deals,
    engine_options,
    game_states,
    machine_for,
    win_decision_problems,
)

HUNAN = find_variant("hunan")
SHRINK = settings(database=None, max_examples=200, derandomize=True, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow])
# rule-history states take about a second each to build: found, not shrunk (too slow for ci)
SEARCH = settings(database=None, max_examples=10, derandomize=True, phases=[Phase.generate])


def test_engine_options_of_the_seat_asked_are_its_legal_options():
    game = find(game_states(HUNAN, "claim"), lambda g: True, settings=SHRINK)
    st_ = game.state
    p = st_.pending
    mine = engine_options(st_, st_.actor, p.card, str(p.source))
    assert set(mine) == {a for a in game.legal_actions() if a.kind != ActionKind.PASS}
    with pytest.raises(StrategyArgumentError):
        engine_options(st_, 3, p.card, "discard")
    with pytest.raises(StrategyArgumentError):
        engine_options(st_, 0, p.card, "self")


def test_engine_options_find_a_claim_of_a_seat_not_asked_yet():
    """Planted: a client that works out who may claim the card on offer from the seat asked
    alone. Comparing every seat with ``engine_options`` finds a state where a seat not asked
    yet has a claim too (two seats may 吃 a shown draw: the drawer and the next seat), and
    shrinks it to a game of one action."""
    def client_claimants(game):  # the bug: only the seat asked is considered
        return {game.state.actor}

    def claimants(game):
        st_, p = game.state, game.state.pending
        return {s for s in range(HUNAN.players)
                if engine_options(st_, s, p.card, str(p.source))}

    game = find(game_states(HUNAN, "claim"), lambda g: claimants(g) != client_claimants(g),
                settings=SHRINK)
    assert len(game.actions) <= 3, game
    assert len(claimants(game)) >= 2 and game.state.actor in claimants(game)


def test_win_decision_problems_agree_on_the_real_engine():
    for seed in range(3):
        game = Game(HUNAN, seed=seed)
        while not game.is_over and len(game.actions) < 150:
            assert win_decision_problems(game) == []
            opts = game.legal_actions()
            game.apply(next((a for a in opts if a.kind == ActionKind.PASS), opts[0]))


def test_win_decision_problems_find_an_engine_that_never_offers_hu(monkeypatch):
    """Planted: the engine drops 胡 from its claim tiers; ``analyze`` still finds the win."""
    real = transition.tier_plans

    def no_hu(variant, seats, kinds, card, source, by, ctx=None):
        return real(variant, seats, tuple(k for k in kinds if k != "hu"), card, source, by, ctx)

    import zipai_rules.testing.oracles as oracles

    monkeypatch.setattr(oracles, "tier_options",
                        lambda *a, **k: no_hu(*a, **k)[0])
    game = find(game_states(HUNAN, "hu"), lambda g: bool(win_decision_problems(g)),
                settings=SHRINK)
    assert "analyze says win, the engine does not offer 胡" in \
        win_decision_problems(game)[0]


def test_deals_shrink_to_the_deal_of_seed_0():
    deal = find(deals(HUNAN), lambda d: True, settings=SHRINK)
    assert deal == Game(HUNAN, seed=0).deal
    with pytest.raises(StrategyArgumentError):
        deals(HUNAN, dealer=3)


def test_machine_never_gives_up_and_shrinks_a_planted_bug():
    """Planted: a server that breaks on the first 碰 on offer. The machine (deal as
    ``@initialize()`` from ``deals``, actions as small indices) finds it and shrinks it to a
    run of at most three rule steps."""
    def server(game):
        assert not any(a.kind == ActionKind.PENG for a in game.legal_actions()), "碰 on offer"

    machine = machine_for(HUNAN, server, check_records=False)
    machine.TestCase.settings = settings(SHRINK, max_examples=30, stateful_step_count=8,
                                         phases=[Phase.generate, Phase.shrink])
    with pytest.raises(AssertionError, match="碰 on offer") as info:
        machine.TestCase("runTest").runTest()
    steps = [line for note in getattr(info.value, "__notes__", []) for line in note.splitlines()
             if line.strip().startswith("state.") and "invariants" not in line]
    assert steps[0].strip().startswith("state.first_deal") and len(steps) <= 4, steps


@pytest.mark.parametrize("offer", ["peng_again", "own_again"])
def test_rule_history_offers_are_reached(offer):
    game = find(game_states(HUNAN, offer), lambda g: True, settings=SEARCH)
    p = game.state.pending
    assert game.state.phase == "respond" and OFFERS[offer](game)
    if offer == "peng_again":
        assert any(p.card in s.chou_peng_cards for s in game.state.seats)


def test_a_chou_tracker_that_forgets_a_declined_peng_is_found():
    """Planted: a 臭 tracker that lets a seat holding the pair 碰 the card whenever it comes
    (it forgets the declined 碰: 003 "玩家可以吃、碰却选择不吃、不碰时，这张牌就成了该玩家的臭牌 …
    不得再吃或者碰"). ``game_states(H, "peng_again")`` reaches the second offer at once and
    ``engine_options`` shows the engine refusing it."""
    def tracker_pengs(game):
        card = game.state.pending.card
        return {s for s, seat in enumerate(game.state.seats)
                if seat.hand[card] == 2 and s != game.state.pending.by}

    def engine_pengs(game):
        st_, p = game.state, game.state.pending
        return {s for s in range(HUNAN.players)
                if any(a.kind == ActionKind.PENG
                       for a in engine_options(st_, s, p.card, str(p.source)))}

    game = find(game_states(HUNAN, "peng_again"),
                lambda g: tracker_pengs(g) != engine_pengs(g), settings=SEARCH)
    p = game.state.pending
    wrong = tracker_pengs(game) - engine_pengs(game)
    assert any(p.card in game.state.seats[s].chou_peng_cards for s in wrong)
