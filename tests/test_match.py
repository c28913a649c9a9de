"""Matches: first dealer, dealer rotation, 荒庄 streaks, the seat sitting out, running scores."""

import pytest

from zipai_rules import find_variant
from zipai_rules.bots import make_bots
from zipai_rules.cards import parse_indices
from zipai_rules.match import Match, first_dealer


class StackedDeck:
    """A stand-in for random.Random whose shuffle puts chosen cards on top."""

    def __init__(self, top):
        self.top = parse_indices(top)

    def shuffle(self, cards):
        rest = list(cards)
        for c in self.top:
            rest.remove(c)
        cards[:] = self.top + rest


@pytest.mark.parametrize("top, dealer", [
    ("x5 d5 x3", 1),    # same rank: 大写 > 小写 ("数字相同的情况下大写>小写")
    ("x2 d10 x10", 1),  # highest rank, big beats small
    ("x7 x7 x1", 0),    # identical cards: the first to draw ("一样的字从左到右，谁先抓到，谁打庄")
    ("x1 x2 x9", 2),    # "谁的数字大谁打庄"
])
def test_first_dealer_highest_card(top, dealer):
    """Shaoyang: 001_5964eea38dea0018.txt "每人拿一张字牌，谁的数字大谁打庄"."""
    assert first_dealer(find_variant("shaoyang"), StackedDeck(top)) == dealer


def test_winner_deals_next_and_three_huangzhuang_move_the_deal():
    """003_5cd7634dfd57d897.txt "如果荒庄，由庄家继续做庄，连续3次荒庄，则由庄家的下家做庄"."""
    m = Match(find_variant("hunan"), seed=1)
    m.dealer = 0
    m.advance(2)
    assert m.dealer == 2
    m.advance(None)
    m.advance(None)
    assert m.dealer == 2
    m.advance(None)
    assert m.dealer == 0 and m.streak == 0
    m.advance(None)
    m.advance(1)
    assert m.dealer == 1 and m.streak == 0


def test_seat_out_opposite_the_dealer_in_penghu():
    """000 §碰胡规则 "庄家的对家为闲家": with four seats the seat opposite the dealer sits out."""
    m = Match(find_variant("penghu"), seed=1)
    m.dealer = 3
    assert m.sitting_out() == 1
    assert m.seating() == (3, 0, 2)


def test_seat_out_rotates_in_daye():
    m = Match(find_variant("daye"), seed=1)
    m.dealer = 1
    assert m.sitting_out() == 0
    assert m.seating() == (1, 2, 3)


@pytest.mark.parametrize("pid", ["hunan", "guilin", "penghu", "yongzhou"])
def test_match_scores_sum_to_zero_and_follow_the_hands(pid):
    v = find_variant(pid)
    m = Match(v, seed=5)
    bots = make_bots(["greedy"], 5, v.seats)
    totals = [0] * v.seats
    for _ in range(6):
        h = m.play_hand(bots)
        for t, p in enumerate(h.table_payments(v.seats)):
            totals[t] += p
        assert sum(h.table_payments(v.seats)) == 0
        assert len(h.seats) == v.players and h.seats[0] == h.dealer
    assert m.scores == totals and sum(m.scores) == 0


def test_a_hand_played_elsewhere_is_counted_by_add_hand():
    from zipai_rules.bots import make_bots
    from zipai_rules.engine import Game
    from zipai_rules.errors import ZipaiError
    from zipai_rules.match import Match
    from zipai_rules.play import play_out
    bots, same = make_bots(["greedy"], 3, 3), make_bots(["greedy"], 3, 3)  # seeded alike
    here, there = Match("hunan", seed=3), Match("hunan", seed=3)
    for _ in range(3):
        expected = here.play_hand(same)
        game = there.next_game()
        with pytest.raises(ZipaiError) as err:
            there.add_hand(game)
        assert err.value.code == "hand_not_over"
        got = there.add_hand(play_out(game, [bots[t] for t in there.seating()]))
        assert (got.number, got.dealer, got.seats, got.winner, got.settlement) == \
            (expected.number, expected.dealer, expected.seats, expected.winner,
             expected.settlement)
    assert there.scores == here.scores and there.dealer == here.dealer
    table = there.next_game(windows=True, commit=True)
    assert table.windows and table.commitment is not None
    with pytest.raises(ZipaiError) as err:
        there.add_hand(Game("hunan", seed=3))
    assert err.value.code == "bad_argument"
    with pytest.raises(ZipaiError) as err:
        there.add_hand(play_out(there.next_game(), bots), datuo=(7,))
    assert err.value.code == "bad_argument"
