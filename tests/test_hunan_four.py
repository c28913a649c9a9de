"""湖南跑胡子 at a table of four (``hunan_four``): "跑胡子可以四人玩，（其中一人轮流数醒）"
(000_cdb63c032605c9a1.txt §跑胡子游戏方法和比赛规则), the seat sitting out earning "在高手胡牌的时候
因为你在数醒而进钱" (§湖南字牌技巧; the amount: digest G16). Which seat: the one opposite the
dealer ("在高手的对面数醒的位置", §湖南字牌技巧; 碰胡 "以后谁胡牌谁就是庄家，对家闲家", §碰胡规则);
"轮流" is that role going round with the deal, which the winner takes, not a fixed rotation."""

from zipai_rules import analyze, find_variant
from zipai_rules.bots import make_bots
from zipai_rules.cards import parse_card
from zipai_rules.engine import Result
from zipai_rules.match import Match, sitting_out_seat
from zipai_rules.settlement import settle


def _win(v):
    """Seat 1 wins on seat 2's draw of x10 (a pair of x10 as 将 beside a 跑): 一二三 x1 x2 x3 3,
    碰 d3 3, 吃 d1 d2 d3 6, 跑 x6 6: 18 胡息."""
    a = analyze(v, "x1 x2 x3 x7 x8 x9 d7 d8 d9 x10",
                ["peng=d3 d3 d3", "chi=d1 d2 d3", "pao=x6 x6 x6 x6"], "x10", "draw")
    assert a.win and a.huxi == 18
    return Result("hu", 1, parse_card("x10").index, "draw", a.huxi, a.best, (),
                  sitting_out=True)


def test_the_preset_is_hunan_at_four_seats():
    v = find_variant("hunan_four")
    assert v is find_variant("湖南四人跑胡子") is find_variant("湖南跑胡子（四人数醒）")
    assert (v.players, v.seats, v.sitting_out) == (3, 4, "opposite_dealer")
    assert v.scoring.payment.sitting_out == "mirror"
    hunan = find_variant("hunan")
    for section in ("deck", "deal", "win", "huxi", "claims", "chou", "discard"):
        assert v.doc[section] == hunan.doc[section], section
    assert v.scoring.conversion == hunan.scoring.conversion


def test_the_seat_sitting_out_gains_what_the_winner_gains():
    """18 胡息 → (18 − 12) // 3 = 2 囤. Each loser pays the winner 2 and the seat sitting out 2:
    winner +4, seat out +4, each loser −4. In three-player Hunan the losers pay 2 each."""
    v = find_variant("hunan_four")
    s = settle(v, _win(v))
    assert (s.huxi, s.units) == (18, 2)
    assert list(s.payments) == [-4, 4, -4] and s.sitting_out == 4
    assert any(line.term == "数醒" and line.value == 4 for line in s.lines)
    three = settle(find_variant("hunan"), _win(find_variant("hunan")))
    assert list(three.payments) == [-2, 4, -2] and three.sitting_out == 0


def test_the_seat_opposite_the_dealer_sits_out_and_moves_with_the_deal():
    m = Match(find_variant("hunan_four"), seed=5)
    m.dealer = 2
    assert m.sitting_out() == 0 and m.seating() == (2, 3, 1)
    m.advance(3)  # the winner deals next
    assert m.sitting_out() == 1 and m.seating() == (3, 0, 2)


def test_a_match_pays_the_seat_sitting_out():
    m = Match(find_variant("hunan_four"), seed=11)
    bots = make_bots(["greedy"] * 4, 11, 4)
    for _ in range(12):
        hand = m.play_hand(bots)
        table = hand.table_payments(4)
        assert sum(table) == 0
        assert table[hand.sitting_out] == hand.settlement.sitting_out
        r = hand.game.result
        if r.winner is not None:  # mirror: the seat out gains exactly what the winner gains
            assert hand.settlement.sitting_out == hand.settlement.payments[r.winner]
    assert sum(m.scores) == 0


def test_hunan_four_sits_out_the_seat_opposite_each_hands_dealer():
    """At a table of four the seat opposite the dealer sits out: dealer 0 → seat 2, dealer 1 →
    seat 3, dealer 3 → seat 1. The role follows the deal, which the winner takes ("上局胡牌的玩家
    成为庄家", 000 §字牌规则说明): table seat 1 winning twice deals twice, and seat 3 sits out both
    hands (not each seat by turns); on 荒庄 the dealer deals again, three in a row pass the deal
    to its 下家 ("连续3次荒庄，则由庄家的下家做庄")."""
    v = find_variant("hunan_four")
    assert [sitting_out_seat(v, d) for d in range(4)] == [2, 3, 0, 1]
    m = Match(v, seed=5)
    m.dealer = 0
    seen = []
    for winner in (1, 1, None, 2, None, None, None):
        m.advance(winner)
        seen.append((m.dealer, m.sitting_out(), m.seating()))
    assert seen == [(1, 3, (1, 2, 0)), (1, 3, (1, 2, 0)), (1, 3, (1, 2, 0)),
                    (2, 0, (2, 3, 1)), (2, 0, (2, 3, 1)), (2, 0, (2, 3, 1)),
                    (3, 1, (3, 0, 2))]
