"""王霸 in play (``deck.king_rules.claims``): a 王 standing for a missing card of a 碰 or 跑.

Yongzhou: "王霸可以代替任何牌进行游戏 … 王霸不能打出，只能代替牌"
(000_cdb63c032605c9a1.txt §永州双王扯胡子规则). The deals are explicit: the dealer (seat 0) holds
a K and discards x9 first; seat 1, the next seat, holds one x9 (or a pair) and the other K.
"""

from __future__ import annotations

import pytest

from helpers import c, make_deal
from zipai_rules import load_preset
from zipai_rules.analysis import win_verdict
from zipai_rules.cards import KING
from zipai_rules.engine import Action, ActionKind, Game
from zipai_rules.engine.observation import observe, seen
from zipai_rules.errors import MeldError
from zipai_rules.invariants import kind_counts
from zipai_rules.loader import build_variant
from zipai_rules.melds import Meld, MeldKind
from zipai_rules.presets import raw_preset
from zipai_rules.records import action_from_json

A = ActionKind
X9 = c("x9")
PENG_K = Meld(MeldKind.PENG, (X9,) * 3, kings=(X9,))


def yongzhou(claims=None):
    """The yongzhou preset, or a copy with ``deck.king_rules.claims`` set."""
    if claims is None:
        return load_preset("yongzhou")
    raw = {"extends": "yongzhou", "id": "x", "name": "x", "terminology": {}, "citations": {},
           "deck": {"king_rules": {"claims": claims}}}
    return build_variant(raw, raw_preset, "test")


def game(variant, seat1, wall=""):
    """Seat 0 deals with a K and one x9; seat 1 holds ``seat1`` and no x8, x10 or d9 (so no
    吃 of x9); seat 2 holds no x9."""
    deal = make_deal(hands={0: "K x9", 1: seat1}, wall=wall,
                     avoid={1: "x9 x8 x10 d9", 2: "x9"}, sizes=(21, 20, 21))
    g = Game(variant, deal=deal)
    g.apply(Action(A.DISCARD, 0, X9))
    return g


def options(g):
    return sorted(str(a) for a in g.legal_actions())


def test_preset_lets_a_king_complete_peng_and_pao():
    assert yongzhou().deck.king_rules.claims == ("peng", "pao", "chi")
    assert load_preset("hunan").deck.king_rules.claims == ()


def test_peng_with_one_card_and_a_king():
    """Seat 1 holds one x9 and a K: the dealer's x9 is offered to it as 碰; taken, the 碰 lies
    on the table as x9 x9 K(x9), seat 1 holds no K and no x9, and owes a discard."""
    g = game(yongzhou(), "K x9")
    assert (g.state.phase, g.state.actor) == ("respond", 1)
    assert options(g) == ["seat 1 pass", "seat 1 peng x9"]
    hand = g.state.seats[1].hand
    assert (hand[X9], hand[KING], sum(hand)) == (1, 1, 20)
    events = g.apply(Action(A.PENG, 1, X9))
    seat = g.state.seats[1]
    assert seat.melds == (PENG_K,)
    assert events[0].melds == (PENG_K,)
    assert (seat.hand[X9], seat.hand[KING], sum(seat.hand)) == (0, 0, 18)
    assert (g.state.phase, g.state.actor) == ("discard", 1)
    counts = kind_counts(g.state)  # the K is still a K: 4 x9 and 2 K in the whole state
    assert (counts[X9], counts[KING], sum(counts)) == (4, 2, 82)
    # the others see the K in the 碰; its owner sees what it stands for
    assert observe(g.state, 0).melds[1][0].cards == (X9, X9, KING)
    assert observe(g.state, 1).melds[1][0].cards == (X9, X9, X9)


def test_peng_with_a_king_needs_the_option():
    g = game(yongzhou([]), "K x9")
    assert not any(a.kind == A.PENG for a in g.legal_actions())
    assert g.state.seats[1].melds == ()


def test_pao_with_a_pair_and_a_king_is_a_choice():
    """Seat 1 holds x9 x9 and a K: besides the 碰 of the pair it may 跑 the dealer's x9 with
    the K standing for the third x9. A 跑 onto a real 坎 is forced in yongzhou; this one is
    offered with a pass."""
    v = yongzhou()
    assert v.claims.pao_forced
    g = game(v, "K x9 x9")
    assert options(g) == ["seat 1 pao x9", "seat 1 pass", "seat 1 peng x9"]
    g.apply(Action(A.PAO, 1, X9))
    seat = g.state.seats[1]
    assert seat.melds == (Meld(MeldKind.PAO, (X9,) * 4, kings=(X9,)),)
    assert (seat.hand[X9], seat.hand[KING], sum(seat.hand)) == (0, 0, 17)
    assert seat.quads == 1
    assert kind_counts(g.state)[X9] == 4


def test_pair_and_king_peng_uses_the_real_pair():
    """Real cards come first: the 碰 of a pair keeps the K in the hand."""
    g = game(yongzhou(), "K x9 x9")
    g.apply(Action(A.PENG, 1, X9))
    seat = g.state.seats[1]
    assert seat.melds == (Meld(MeldKind.PENG, (X9,) * 3),)
    assert (seat.hand[X9], seat.hand[KING]) == (0, 1)


def test_pao_refused_without_the_option_says_why():
    g = game(yongzhou(["peng"]), "K x9 x9")
    assert options(g) == ["seat 1 pass", "seat 1 peng x9"]
    refusal = g.check(Action(A.PAO, 1, X9))
    assert refusal is not None and refusal.code == "cannot_claim"
    assert "a 王 does not stand in for a claimed card" in refusal.message


def test_own_draw_onto_a_king_peng_is_a_pao_that_keeps_the_king():
    """After its K 碰, seat 1 draws the fourth x9: the forced 跑 onto the 碰 keeps the K."""
    g = game(yongzhou(), "K x9", wall="x1 d10 x9")
    g.apply(Action(A.PENG, 1, X9))
    g.apply(Action(A.DISCARD, 1, c("x1")))
    while g.state.seats[1].melds[0].kind == MeldKind.PENG:
        st = g.state
        g.apply(Action(A.PASS, st.actor) if st.phase == "respond" else st.options[0])
    pao = next(e for e in g.events if e.kind == "pao")
    assert (pao.seat, pao.card, pao.note) == (1, X9, "forced")
    assert g.state.seats[1].melds[0] == Meld(MeldKind.PAO, (X9,) * 4, kings=(X9,))
    assert kind_counts(g.state)[X9] == 4


def test_win_on_a_king_peng_table():
    """The win decision reads a 王 in a table meld: table 碰 x9 x9 K(x9) (1 胡息, small) and
    跑 d2 (9); hand x1 x2 x3 (一二三: 3), d4 d5 d6, x5 x5 and the own draw x9 upgrading the 碰 to
    跑 (6): 3 + 0 + 6 + 9 = 18, the 跑 still holding its K."""
    v = yongzhou()
    hand = [0] * 21
    for card in ("x1", "x2", "x3", "d4", "d5", "d6", "x5", "x5"):
        hand[c(card)] += 1
    table = (PENG_K, Meld(MeldKind.PAO, (c("d2"),) * 4))
    a = win_verdict(v, hand, table, X9, "self")
    assert (a.win, a.huxi) == (True, 18)
    assert a.best is not None
    pao = [g for g in a.best.groups if g.meld.kind == MeldKind.PAO and g.meld.cards[0] == X9]
    assert [(g.place, g.huxi, g.kings, g.meld.kings) for g in pao] == [
        ("table", 6, (X9,), (X9,))]


def test_king_meld_values():
    assert PENG_K.physical == (X9, X9, KING)
    assert PENG_K.to_json() == {"kind": "peng", "cards": ["x9", "x9", "x9"], "kings": ["x9"]}
    assert PENG_K.describe() == "peng(x9 x9 K(x9))"
    assert repr(PENG_K) == "Meld(peng x9 x9 x9, kings=x9)"
    assert Meld(MeldKind.PENG, (X9,) * 3).physical == (X9,) * 3
    assert seen(PENG_K, "one_up").cards == (X9,) and seen(PENG_K, "all_up").cards == (
        X9, X9, KING)
    action = Action(A.PENG, 1, X9, (PENG_K,))
    assert action_from_json(action.to_json()) == action


@pytest.mark.parametrize("kings", [(c("x8"),), (X9, X9, X9)])
def test_a_king_stands_for_a_card_of_the_meld(kings):
    with pytest.raises(MeldError):
        Meld(MeldKind.PENG, (X9,) * 3, kings=kings)


def test_a_table_meld_with_a_king_is_read_and_counted():
    """``peng=x9 x9 K`` is the 碰 with a 王 standing for an x9. With it on the table the hand
    may hold the other two x9 (four real x9 in all, not five), and the 碰 scores as any small
    碰: table 碰 (1) and 跑 d2 (9); hand x1 x2 x3 (3), x2 x7 x10 (3), x7 x8 x9, x8 x9 x10 and
    x5, with the drawn x5 as the 将 → 16."""
    from zipai_rules import analyze
    from zipai_rules.melds import parse_meld

    assert parse_meld("peng=x9 x9 K") == PENG_K
    assert parse_meld("pao=K x9 x9 x9") == Meld(MeldKind.PAO, (X9,) * 4, kings=(X9,))
    with pytest.raises(MeldError):
        parse_meld("chi=x8 K x10")  # a 吃 says what its 王 stands for: chi=x8 K(x9) x10
    a = analyze(yongzhou(), "x1 x2 x3 x2 x7 x10 x7 x8 x9 x8 x9 x10 x5",
                ["peng=x9 x9 K", "pao=d2 d2 d2 d2"], "x5", "self")
    assert (a.win, a.huxi) == (True, 16)
