"""Game.check gives the reason an action is refused, with a registered code; apply raises
IllegalActionError with the same code. Positions come from seeded greedy games (seed and step
cited in each test)."""

from __future__ import annotations

import pytest

from zipai_rules.bots import make_bots
from zipai_rules.engine.actions import Action
from zipai_rules.engine.game import Game
from zipai_rules.engine.refusals import Refusal
from zipai_rules.errors import ERROR_CODES, IllegalActionError
from zipai_rules.vocab import Reason


def greedy(seed: int, steps: int, variant: str = "hunan") -> Game:
    """The hunan game ``seed`` after ``steps`` decisions of three greedy bots."""
    game = Game(variant, seed=seed)
    bots = make_bots(["greedy"] * 3, seed, 3)
    for _ in range(steps):
        state = game.state
        game.apply(bots[state.acting_seat](state, state.options))
    return game


def refused(game: Game, action: Action, code: str) -> Refusal:
    """The refusal of ``action``, checked to carry ``code``; ``apply`` raises with it and
    leaves the game unchanged."""
    got = game.check(action)
    assert isinstance(got, Refusal) and got.code == code, got
    assert code in ERROR_CODES
    before = game.state
    with pytest.raises(IllegalActionError) as err:
        game.apply(action)
    assert err.value.code == code and str(err.value) == got.message == str(got)
    assert game.state is before
    return got


def test_a_legal_action_has_no_refusal():
    game = greedy(1, 0)
    assert all(game.check(a) is None for a in game.legal_actions())


def test_discards_refused_by_seat_and_card():
    # seed 1: dealer seat 0 holds x1 x2 x2 x3 x5 x6 x7 x8 x10 d1 d2 d2 d3 d4 d7 d8 d8 d9 d10 d10
    # d10 and owes a discard
    game = greedy(1, 0)
    assert refused(game, Action("discard", 0, "d10"), "card_locked").message == (
        "d10 is a 坎 (three in the hand): a 坎 stays whole in 湖南跑胡子 and may not be discarded")
    assert str(refused(game, Action("discard", 0, "x4"), "not_held")) == "seat 0 holds no x4"
    assert str(refused(game, Action("discard", 1, "x1"), "not_your_turn")) == \
        "it is seat 0's turn, not seat 1's"
    assert str(refused(game, Action("pass", 0), "wrong_phase")) == \
        "seat 0 owes a discard: it cannot pass"


def test_claims_with_nothing_on_offer_and_a_hand_that_is_no_win():
    game = greedy(1, 0)
    assert str(refused(game, Action("peng", 0, "x3"), "nothing_on_offer")) == \
        "no card is on offer: seat 0 owes a discard"
    no_win = refused(game, Action("hu", 0), "no_win")
    assert no_win.reason == Reason.INCOMPLETE
    assert str(no_win) == ("seat 0 has no win with the hand as it stands: incomplete (the cards "
                           "do not all lie in melds)")


def test_claims_of_a_discard_refused_by_the_rule_they_break():
    # seed 1 step 1: seat 0 discarded d9, seat 1 is asked (it may 吃 with jiao x9 d9 d9)
    game = greedy(1, 1)
    assert game.state.pending is not None and game.state.pending.card == 18
    assert str(refused(game, Action("peng", 1, "d10"), "not_on_offer")) == \
        "the card on offer is d9, not d10"
    assert str(refused(game, Action("peng", 1, "d9"), "cannot_claim")) == \
        "a 碰 needs a pair of d9; seat 1 holds 1"
    no_win = refused(game, Action("hu", 1, "d9"), "no_win")
    assert no_win.reason == Reason.DISCARD_WIN_NOT_ALLOWED
    assert str(no_win).startswith("seat 1 has no win with d9 from a discard: "
                                  "discard_win_not_allowed")
    assert str(refused(game, Action("chi", 1, "d9"), "bad_plan")) == (
        "a 吃 names its whole plan (the 吃 meld and every 比 meld); the plans that fit: "
        "jiao(x9 d9 d9)")


def test_a_chi_plan_without_its_bi_does_not_fit():
    # seed 1 step 6: seat 0 may 吃 x8, and must lay down its other x8 cards as 比
    game = greedy(1, 6)
    chi = next(a for a in game.legal_actions() if a.kind == "chi" and len(a.melds) == 2)
    got = refused(game, Action("chi", 0, "x8", chi.melds[:1]), "bad_plan")
    assert str(got).startswith("the 吃 plan shun(x6 x7 x8) does not fit seat 0's hand; the "
                               "plans that fit: shun(x6 x7 x8) bi:jiao(x8 d8 d8) | ")


def test_a_claim_kind_not_allowed_from_this_source_or_seat():
    game = greedy(1, 2)  # seat 0 is asked about d2, a draw shown to all
    assert str(refused(game, Action("chi", 0, "d2"), "claim_not_allowed")) == (
        "in 湖南跑胡子 only the next seat and the seat that drew it may 吃 a card; seat 0 may "
        "not 吃 d2 from a draw")
    game = greedy(1, 18)  # seat 1's own draw of x1
    assert str(refused(game, Action("peng", 1, "x1"), "claim_not_allowed")) == (
        "a 碰 takes another player's discard or draw in 湖南跑胡子, not x1 from its own draw")


def test_a_card_that_is_chou_for_the_seat():
    # seed 40 step 12: seat 0 let d4 go itself earlier
    game = greedy(40, 12)
    assert str(refused(game, Action("chi", 0, "d4"), "chou")) == \
        "d4 is 臭 for seat 0: it let this card go itself and may never 吃 it"


def test_a_waiting_seats_claim_is_refused_without_telling_who_is_asked():
    # seed 59 step 16: seat 0 is asked about a 胡 on d1 before seat 2 may 碰 it; seat 2 is
    # told only that it does not act now, not that a 胡 is asked first (which would tell it
    # that seat 0 can win on d1, even if seat 0 then passes)
    game = greedy(59, 16)
    assert game.actor == 0 and game.state.pending.card == 10
    assert str(refused(game, Action("peng", 2, "d1"), "not_your_turn")) == \
        "seat 2 does not act now"
    # seed 57 step 29: seat 1 and seat 0 may both 胡 x1; seat 1 is asked first
    game = greedy(57, 29)
    assert str(refused(game, Action("hu", 0, "x1"), "not_your_turn")) == \
        "seat 0 does not act now"


def test_not_an_action_and_a_finished_hand():
    game = greedy(1, 0)
    assert refused(game, "discard x1", "not_an_action").message == \
        "'discard x1' is not an Action"  # type: ignore[arg-type]
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert game.check(Action("pass", 0)) == Refusal(code="hand_over", message="the hand is over")
