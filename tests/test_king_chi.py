"""王霸 in a 吃 (``deck.king_rules.claims`` ``chi``, ``chi_kings``, ``bi_kings``).

Yongzhou: "王霸可以代替任何牌进行游戏" (000_cdb63c032605c9a1.txt §永州双王扯胡子规则); its 下火
lays down the held copies of the claimed card "根据某种组合". The deals are explicit: the
dealer (seat 0) discards x5 first; seat 1, the next seat, holds the cards named and no other
card of a chi shape with x5 (x3, x4, x5, x6, x7, d5); seat 2 holds no x5.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import c, make_deal
from zipai_rules import load_preset
from zipai_rules.analysis import win_verdict
from zipai_rules.cards import KING
from zipai_rules.engine import Action, ActionKind, Game
from zipai_rules.engine.encoding import decode_action, encode_action, num_distinct_actions
from zipai_rules.engine.observation import observe
from zipai_rules.invariants import game_problem, kind_counts
from zipai_rules.loader import build_variant
from zipai_rules.melds import Meld, MeldKind, chi_meld
from zipai_rules.presets import raw_preset
from zipai_rules.records import action_from_json
from zipai_rules.testing import machine_for

A = ActionKind
X3, X4, X5, X6, X7, D5 = (c(t) for t in ("x3", "x4", "x5", "x6", "x7", "d5"))


def yongzhou(**king_rules):
    """The yongzhou preset, or a copy with ``deck.king_rules`` fields set."""
    if not king_rules:
        return load_preset("yongzhou")
    raw = {"extends": "yongzhou", "id": "x", "name": "x", "terminology": {}, "citations": {},
           "deck": {"king_rules": king_rules}}
    return build_variant(raw, raw_preset, "test")


def to_chi_tier(variant, seat1, dealer="K"):
    """The dealer discards x5; every other claim is passed until seat 1 may 吃 it."""
    deal = make_deal(hands={0: f"{dealer} x5", 1: seat1}, sizes=(21, 20, 21),
                     avoid={0: "x5", 1: "x3 x4 x5 x6 x7 d5", 2: "x5"})
    g = Game(variant, deal=deal)
    g.apply(Action(A.DISCARD, 0, X5))
    while g.state.phase == "respond" and not any(a.kind == A.CHI for a in g.legal_actions()) \
            and g.state.pending is not None and g.state.pending.card == X5:
        g.apply(Action(A.PASS, g.state.actor))
    return g


def chis(g):
    return [a.melds for a in g.legal_actions() if a.kind == A.CHI]


def shun(cards, kings=(), claimed=None, bi=False):
    return chi_meld([c(t) for t in cards.split()], claimed=claimed, bi=bi,
                    kings=[c(t) for t in kings.split()] if kings else ())


def test_yongzhou_and_defaults():
    assert yongzhou().deck.king_rules.claims == ("peng", "pao", "chi")
    rules = load_preset("hunan").deck.king_rules
    assert (rules.claims, rules.chi_kings, rules.bi_kings) == ((), 1, False)
    assert (yongzhou().deck.king_rules.chi_kings, yongzhou().deck.king_rules.bi_kings) == (
        1, False)


def test_one_card_and_a_king_chi():
    """Seat 1 holds x4 and a K: x5 makes x3 x4 x5 with the K for x3, or x4 x5 x6 with the K for
    x6; x5 x6 x7, x5 x5 d5 and x5 d5 d5 would need two K."""
    g = to_chi_tier(yongzhou(), "K x4")
    assert g.state.actor == 1
    assert chis(g) == [(shun("x3 x4 x5", "x3", X5),), (shun("x4 x5 x6", "x6", X5),)]
    events = g.apply(Action(A.CHI, 1, X5, (shun("x3 x4 x5", "x3", X5),)))
    seat = g.state.seats[1]
    meld = shun("x3 x4 x5", "x3", X5)
    assert seat.melds == (meld,) and events[0].melds == (meld,)
    assert meld.physical == (X4, X5, KING)
    assert (seat.hand[X4], seat.hand[KING], sum(seat.hand)) == (0, 0, 18)
    assert (g.state.phase, g.state.actor) == ("discard", 1)
    counts = kind_counts(g.state)
    assert (counts[X3], counts[KING], sum(counts)) == (4, 2, 82)
    # public: the others see the K in the 吃; its owner sees what it stands for
    assert observe(g.state, 0).melds[1][0].cards == (X4, X5, KING)
    assert observe(g.state, 1).melds[1][0].cards == (X3, X4, X5)
    assert meld.describe() == "shun(K(x3) x4 x5)"
    assert meld.to_json()["kings"] == ["x3"]
    action = Action(A.CHI, 1, X5, (meld,))
    assert action_from_json(action.to_json()) == action
    assert game_problem(g) is None


def test_chi_with_a_king_needs_the_option():
    """With the option off, seat 1 (x4 x6 and both K) is offered only the real x4 x5 x6, and a
    plan with a K is refused with the reason."""
    g = to_chi_tier(yongzhou(claims=["peng", "pao"]), "K K x4 x6", dealer="")
    assert g.state.actor == 1
    assert chis(g) == [(shun("x4 x5 x6", claimed=X5),)]
    refusal = g.check(Action(A.CHI, 1, X5, (shun("x3 x4 x5", "x3", X5),)))
    assert refusal is not None and refusal.code == "bad_plan"
    assert "a 王 does not stand in a 吃" in refusal.message


def test_real_cards_first():
    """x4 x6 and a K: the real x4 x5 x6 only; the K fills x3 of x3 x4 x5 or x7 of x5 x6 x7,
    never a card the hand holds."""
    g = to_chi_tier(yongzhou(), "K x4 x6")
    assert chis(g) == [(shun("x3 x4 x5", "x3", X5),), (shun("x4 x5 x6", claimed=X5),),
                       (shun("x5 x6 x7", "x7", X5),)]


BI_HAND = "K K x4 x5 x6"


def test_bi_plans_by_option():
    """Seat 1 holds x4 x5 x6 and both K. The x5 it keeps must go down as 比 (下火).

    * default: x3 x4 x5 K(x3) leaves x5 x6 with no real 比; x4 x5 x6 leaves x5 and nothing;
      x5 x6 x7 K(x7) leaves x4 x5; only x5 x5 d5 with K(d5) lays the held x5 itself.
    * bi_kings: the two runs above each get a 比 with one K: 4 more plans.
    * chi_kings 2: x5 d5 d5 with both K leaves x4 x5 x6, its own real 比.
    """
    jiao = (Meld(MeldKind.JIAO, (X5, X5, D5), claimed=X5, kings=(D5,)),)
    g = to_chi_tier(yongzhou(), BI_HAND, dealer="")
    assert chis(g) == [jiao]
    g = to_chi_tier(yongzhou(claims=["chi"], bi_kings=True), BI_HAND, dealer="")
    assert chis(g) == [
        (shun("x3 x4 x5", "x3", X5), shun("x4 x5 x6", "x4", bi=True)),
        (shun("x3 x4 x5", "x3", X5), shun("x5 x6 x7", "x7", bi=True)),
        jiao,
        (shun("x5 x6 x7", "x7", X5), shun("x3 x4 x5", "x3", bi=True)),
        (shun("x5 x6 x7", "x7", X5), shun("x4 x5 x6", "x6", bi=True)),
    ]
    g = to_chi_tier(yongzhou(claims=["chi"], chi_kings=2), BI_HAND, dealer="")
    double = Meld(MeldKind.JIAO, (X5, D5, D5), claimed=X5, kings=(D5, D5))
    assert chis(g) == [jiao, (double, shun("x4 x5 x6", bi=True))]
    plan = (double, shun("x4 x5 x6", bi=True))
    g.apply(Action(A.CHI, 1, X5, plan))
    seat = g.state.seats[1]
    assert (seat.hand[X4], seat.hand[X5], seat.hand[X6], seat.hand[KING], sum(seat.hand)) == (
        0, 0, 0, 0, 15)
    assert observe(g.state, 2).melds[1][0].cards == (X5, KING, KING)
    assert game_problem(g) is None


def test_win_counts_a_table_chi_with_a_king():
    """Table 吃 x1 x2 x3 with a K for x2 is a small 一二三 (3 胡息) and 跑 d2 (9); hand
    x2 x7 x10 (3), d4 d5 d6, x8 x9 and x5 x5, the own draw x7 → x7 x8 x9: 3 + 9 + 3 = 15, the
    threshold. Were the K's 吃 not counted as 一二三 the hand would fall short at 12."""
    v = yongzhou()
    hand = [0] * 21
    for card in "x2 x7 x10 d4 d5 d6 x8 x9 x5 x5".split():
        hand[c(card)] += 1
    table = (shun("x1 x2 x3", "x2", c("x1")), Meld(MeldKind.PAO, (c("d2"),) * 4))
    a = win_verdict(v, hand, table, c("x7"), "self")
    assert (a.win, a.huxi) == (True, 15)
    assert a.best is not None
    groups = [(g.place, g.huxi, g.kings) for g in a.best.groups
              if g.meld.kind == MeldKind.YI_ER_SAN]
    assert groups == [("table", 3, (c("x2"),))]


def test_king_chi_codes_are_appended():
    """The codes of the plain actions keep their values (0..1979); a 吃 with a K gets a code
    after them, in tiers: one K in the 吃 meld, two K in it, a K in a 比 meld. The first:
    x1's first shape x1 x1 d1 with its hand x1 a K (the stand-ins of a shape's hand cards
    in order: none, x1, d1, both; none holds no K)."""
    assert num_distinct_actions() == 17278
    first = Action(A.CHI, 0, c("x1"), (shun("x1 x1 d1", "x1", claimed=c("x1")),))
    assert encode_action(first) == 1980
    assert decode_action(1980, 0) == first
    one_k, two_k, bi_k = decode_action(4369, 0), decode_action(4370, 0), decode_action(5812, 0)
    assert len(one_k.melds[0].kings) == 1 and not any(m.kings for m in one_k.melds[1:])
    assert len(two_k.melds[0].kings) == 2 and not any(m.kings for m in two_k.melds[1:])
    assert any(m.kings for m in bi_k.melds[1:])
    assert not any(m.kings for m in decode_action(5811, 0).melds[1:])
    # a variant's actions use a prefix of the table: the tiers its king_rules allow
    assert num_distinct_actions(yongzhou()) == 4370
    assert num_distinct_actions(yongzhou(claims=["peng", "pao", "chi"], chi_kings=2)) == 5812
    assert num_distinct_actions(BROAD[1]) == 17278
    assert num_distinct_actions(load_preset("hunan")) == 1980
    plain = Action(A.CHI, 0, c("x1"), (shun("x1 x1 d1", claimed=c("x1")),))
    assert encode_action(plain) == 84
    mine = Action(A.CHI, 1, X5, (shun("x3 x4 x5", "x3", X5),))
    assert 1980 <= encode_action(mine) < num_distinct_actions()
    assert decode_action(encode_action(mine), 1) == mine
    assert encode_action(mine) != encode_action(
        Action(A.CHI, 1, X5, (shun("x3 x4 x5", "x4", X5),)))


BROAD = [yongzhou(), yongzhou(claims=["peng", "pao", "chi"], chi_kings=2, bi_kings=True)]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 2**32 - 1), broad=st.booleans())
def test_yongzhou_games_with_king_chi(seed, pick, broad):
    """Random yongzhou games, preferring a 吃 with a K when offered: every legal action
    applies, encodes and decodes, and the cards are conserved (the invariants hold)."""
    g, rng = Game(BROAD[broad], seed=seed), random.Random(pick)
    while not g.is_over:
        options = g.legal_actions()
        for a in options:
            assert decode_action(encode_action(a), a.seat) == a
        kings = [a for a in options if a.kind == A.CHI and any(m.kings for m in a.melds)]
        g.apply(rng.choice(kings if kings and rng.random() < 0.8 else options))
        assert game_problem(g) is None
        assert kind_counts(g.state)[KING] == 2


def test_machine_over_a_broad_king_variant():
    machine = machine_for(BROAD[1])
    machine.TestCase.settings = settings(max_examples=6, stateful_step_count=60, deadline=None)
    machine.TestCase().runTest()


def test_a_table_chi_with_a_king_is_written_and_analyzed():
    """``chi=x1 K(x2) x3`` is the 吃 of x1 with a K for x2 (``describe`` writes it so), and
    ``analyze`` reads it as in the win above, with d7 d8 d9 (0) added for a full hand:
    3 + 9 + 3 = 15 胡息."""
    from zipai_rules import analyze
    from zipai_rules.errors import MeldError
    from zipai_rules.melds import parse_meld

    meld = parse_meld("chi=x1 K(x2) x3")
    assert meld == shun("x1 x2 x3", "x2", c("x1"))
    assert meld.describe() == "yi_er_san(x1 K(x2) x3)"
    assert parse_meld("bi=x5 K(d5) K(d5)") == Meld(MeldKind.JIAO, (X5, D5, D5), bi=True,
                                                    kings=(D5, D5))
    assert parse_meld("peng=x9 x9 K(x9)") == parse_meld("peng=x9 x9 K")
    for bad in ("chi=K(x2) K(x2) K(x2)", "peng=x9 x9 K(x8)", "chi=x1 x3 K(x4)"):
        try:
            parse_meld(bad)
        except MeldError:
            continue
        raise AssertionError(bad)
    a = analyze(yongzhou(), "x2 x7 x10 d4 d5 d6 d7 d8 d9 x8 x9 x5 x5",
                ["chi=x1 K(x2) x3", "pao=d2 d2 d2 d2"], "x7", "self")
    assert (a.win, a.huxi) == (True, 15)


def test_a_king_is_never_a_fifth_copy_of_the_players_cards():
    """x4 and a K on x5, as above, but with a 跑 of x3 on the player's table: the K may not be
    a fifth x3, so only x4 x5 x6 with K(x6) is left. A 坎 of x6 in the hand (3 copies) leaves
    room for one K as x6: both plans, the 坎 untouched."""
    from zipai_rules.engine.claims import chi_plans

    v = yongzhou()
    hand = [0] * 21
    hand[X4], hand[KING] = 1, 1
    pao = (Meld(MeldKind.PAO, (X3,) * 4),)
    assert chi_plans(v, tuple(hand), X5, pao) == [(shun("x4 x5 x6", "x6", X5),)]
    hand[X6] = 3
    assert chi_plans(v, tuple(hand), X5) == [(shun("x3 x4 x5", "x3", X5),),
                                             (shun("x4 x5 x6", "x6", X5),)]
    hand[X6] = 0
    assert chi_plans(yongzhou(claims=["peng"]), tuple(hand), X5) == []


def test_one_king_in_each_of_two_bi():
    """x3 x4 x5 x5 x6 x6 and two K on x5 (bi_kings, chi_kings 1): the real 吃 x3 x4 x5 leaves
    x5 x5 x6 x6, laid as two 比 x5 x6 x7, each with one K for x7 (two K in the plan, one per
    meld). Without bi_kings that 吃 has no 比 and is not offered."""
    from zipai_rules.engine.claims import chi_plans

    hand = [0] * 21
    for card in "x3 x4 x5 x5 x6 x6".split():
        hand[c(card)] += 1
    hand[KING] = 2
    bi = shun("x5 x6 x7", "x7", bi=True)
    plan = (shun("x3 x4 x5", claimed=X5), bi, bi)
    assert plan in chi_plans(yongzhou(claims=["chi"], bi_kings=True), tuple(hand), X5)
    assert not any(p[0] == plan[0] for p in chi_plans(yongzhou(), tuple(hand), X5))
    action = Action(A.CHI, 1, X5, plan)
    assert decode_action(encode_action(action), 1) == action


def test_a_written_king_stands_for_one_card():
    """``K(x8x9)`` or ``K(x8,x9)`` would be one 王 written for two cards: refused
    (``malformed_meld``), where ``x8 K(x9) x10`` is the 吃 with one 王."""
    import pytest

    from zipai_rules.cards import parse_indices
    from zipai_rules.errors import MeldError
    from zipai_rules.melds import parse_meld

    for bad in ("chi=K(x8x9) x10", "chi=K(x8,x9) x10"):
        with pytest.raises(MeldError, match="must name the one card") as e:
            parse_meld(bad)
        assert e.value.code == "malformed_meld"
    assert parse_meld("chi=x8 K(x9) x10").kings == (parse_indices("x9")[0],)
