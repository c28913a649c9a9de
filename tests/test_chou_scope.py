"""``chou.scope`` (digest C8): what a declined 吃 or 碰 makes 臭, on explicit deals.

* ``both``: "玩家可以吃、碰却选择不吃、不碰时，这张牌就成了该玩家的臭牌，第二次牌桌上再出现
  同张牌时，该玩家不得再吃或者碰" (003_5cd7634dfd57d897.txt); "可吃碰的牌没有吃碰，则这牌就成
  臭牌。再次打出或摸起同牌时，不能进行吃碰操作" (004_4a6d8adec4e0ba73.txt 第四条8); "可吃碰而
  未吃碰，则这张牌就成臭牌，第二次再出现同张牌时，不能再吃碰" (001_5964eea38dea0018.txt).
* ``separate``: "本人想吃而未吃 … 第二次他家再打出同张牌时，本人不得再吃 … 本人能碰而未碰，
  即使别人再打也不能碰了" (000_cdb63c032605c9a1.txt §衡阳十胡抢牌型规则).

The situation (seat 0 deals; seat s+1 is the 下家 of seat s, so seat 1 is seat 2's 上家): seat 2
holds 003's 一、二、二、三、贰 (x1 x2 x2 x3 d2), and 坎 of x4, x7 and x10. Seat 0 draws an x2:
seat 2 may 碰 it but not 吃 it (seat 0 is not its 上家) and passes. Then seat 1, its 上家, draws
the last x2: seat 2 could 吃 it (x1 x2 x3 with the 比 x2 x2 d2, or x2 x2 d2 with the 比 x1 x2
x3) and, holding the pair, 碰 it. Under ``both`` it is offered neither; under ``separate`` the
吃 but not the 碰.
"""

from __future__ import annotations

import pytest

from helpers import c, make_deal
from zipai_rules import find_variant
from zipai_rules.engine import Action, ActionKind, EventKind, Game
from zipai_rules.loader import build_variant
from zipai_rules.presets import raw_preset

A = ActionKind
E = EventKind
X2 = c("x2")
#: the card kinds that make a 吃 with x2 (and x2 itself): kept from seats 0 and 1
X2_PARTNERS = "x1 x2 x3 x4 x7 x10 d2"
#: seat 2 holds the other partner kinds as 坎, which a 吃 never uses ("一坎牌不能拆散")
KANS = "x4 x4 x4 x7 x7 x7 x10 x10 x10"


def knob(chou, base="hunan"):
    """The ``base`` preset with its ``chou`` section changed by ``chou``."""
    raw = {"extends": base, "id": "x", "name": "x", "terminology": {}, "citations": {},
           "chou": chou}
    return build_variant(raw, raw_preset, "test")


def passed_peng_then_upper_draw(variant, sizes=(21, 20, 19)):
    """Play the module's situation up to seat 1's draw of the last x2; return the game and every
    state in which seat 2 was asked about an x2."""
    kans = KANS if sizes[1] == 20 else KANS.split(" x7")[0]  # 14 cards: one 坎, no full hand
    deal = make_deal(hands={2: "x1 x2 x2 x3 d2 " + kans}, wall="d5 d6 x2 x2", sizes=sizes,
                     avoid={0: X2_PARTNERS, 1: X2_PARTNERS + " d5",
                            2: "x1 x3 x4 x7 x10 d2 d6"})
    g = Game(variant, deal=deal)
    asked = []
    for _ in range(40):
        st = g.state
        if st.pending is not None and st.pending.card == X2 and st.actor == 2:
            asked.append(st)
        if st.phase == "discard":
            g.apply(st.options[0])
        else:
            g.apply(Action(A.PASS, st.actor))
        drawn = [e for e in g.events if e.kind == E.DRAW and e.card == X2]
        if len(drawn) == 2 and not (g.state.pending and g.state.pending.card == X2):
            break
    draws = [(e.seat, e.card) for e in g.events if e.kind == E.DRAW]
    assert draws[:4] == [(1, c("d5")), (2, c("d6")), (0, X2), (1, X2)], draws
    return g, asked


def kinds_of(state):
    return [a.kind for a in state.options]


def refused_peng(variant, g, state):
    """The message with which seat 2's 碰 of x2 is refused as 臭 (code ``chou``) in ``state``,
    one of the states of game ``g``, replayed from its deal."""
    again = Game(variant, deal=g.deal)
    for action in g.actions:
        if again.state == state:
            break
        again.apply(action)
    assert again.state == state
    refused = again.check(Action(A.PENG, 2, X2))
    assert refused is not None and refused.code == "chou"
    return refused.message


@pytest.mark.parametrize("pid", ["hunan", "shaoyang", "guilin", "loudi_fangpaofa",
                                 "liuzhou_bayi"])
def test_both_a_passed_peng_blocks_the_chi_of_the_next_copy(pid):
    """Under ``both`` (each preset's citation ``chou.scope``) seat 2 is asked once, about the
    碰 of seat 0's x2, and passes; the x2 its 上家 then draws is offered to nobody: 臭 for 碰
    and for 吃 alike ("第二次牌桌上再出现同张牌时，该玩家不得再吃或者碰")."""
    v = find_variant(pid)
    assert v.chou.scope == "both"
    g, asked = passed_peng_then_upper_draw(v)
    assert [(st.pending.by, kinds_of(st)) for st in asked] == [(0, [A.PENG, A.PASS])]
    seat = g.state.seats[2]
    assert X2 in seat.chou_peng_cards and X2 in seat.chou_chi_cards
    # the 碰 is marked at the pass, the 吃 once the card is gone (to seat 0's discards)
    told = [(e.kind, e.seat, e.card, e.note) for e in g.events
            if e.card == X2 and e.kind in (E.PASS, E.CHOU, E.TO_DISCARDS)]
    assert told[:4] == [(E.PASS, 2, X2, ""), (E.CHOU, 2, X2, "peng"), (E.CHOU, 2, X2, "chi"),
                        (E.TO_DISCARDS, 0, X2, "")]
    assert told[4:] == [(E.TO_DISCARDS, 1, X2, "")]
    # the 臭 marks are seat 2's own information (docs/observations.md)
    for s in range(3):
        shown = [e for e in g.events_for(s) if e.kind == E.CHOU]
        assert shown == [e for e in g.events if e.kind == E.CHOU and e.seat == s]


@pytest.mark.parametrize("variant, sizes", [
    (knob({"scope": "separate"}), (21, 20, 19)),
    (find_variant("hengyang_shihu"), (15, 14, 37))], ids=["knob", "hengyang_shihu"])
def test_separate_a_passed_peng_leaves_the_chi_open(variant, sizes):
    """Under ``separate`` (十胡抢 states the 吃 and the 碰 rule apart) the passed 碰 blocks only
    碰: seat 2 is offered the 吃 of its 上家's x2, with its 比, and no 碰; a 碰 is refused as
    臭."""
    assert variant.chou.scope == "separate"
    g, asked = passed_peng_then_upper_draw(variant, sizes)
    assert [(st.pending.by, kinds_of(st)[0]) for st in asked] == [(0, A.PENG), (1, A.CHI)]
    chis = asked[1].options
    assert A.PENG not in kinds_of(asked[1]) and kinds_of(asked[1])[-1] == A.PASS
    assert {tuple(str(m) for m in a.melds) for a in chis if a.kind == A.CHI} == {
        ("yi_er_san(x1 x2 x3)", "bi:jiao(x2 x2 d2)"),
        ("jiao(x2 x2 d2)", "bi:yi_er_san(x1 x2 x3)")}
    seat = asked[1].seats[2]
    assert X2 in seat.chou_peng_cards and X2 not in seat.chou_chi_cards
    assert refused_peng(variant, g, asked[1]) == "x2 is 臭 for seat 2: it declined to 碰 it before"


def test_both_with_blocks_on_discard_a_passed_peng_still_blocks_peng():
    """``scope: both`` composes with ``blocks_on``: with 吃 blocks limited to discards, the x2
    seat 2's 上家 draws may be 吃'd, but the 碰 stays 臭 on every source, and is refused with
    the scope's reason."""
    v = knob({"scope": "both", "blocks_on": ["discard"]})
    g, asked = passed_peng_then_upper_draw(v)
    assert [(st.pending.by, kinds_of(st)[0]) for st in asked] == [(0, A.PENG), (1, A.CHI)]
    seat = asked[1].seats[2]
    assert X2 in seat.chou_peng_cards and X2 in seat.chou_chi_cards
    assert refused_peng(v, g, asked[1]) == ("x2 is 臭 for seat 2: it declined to 吃 or 碰 it "
                                            "before, which in x blocks both")


@pytest.mark.parametrize("chou, asked_about", [
    ({"scope": "both", "peng": False}, [(0, A.PENG), (1, A.PENG), (1, A.CHI)]),
    ({"scope": "both", "chi": False}, [(0, A.PENG)])], ids=["peng_false", "chi_false"])
def test_chi_and_peng_say_which_declines_count(chou, asked_about):
    """``chou.peng: false``: a declined 碰 marks nothing, so seat 2 is asked about the 碰 of its
    上家's x2 and then about the 吃; ``chou.chi: false`` with ``both``: the declined 碰 still makes
    the card 臭 for both, and seat 2 is not asked again."""
    _, asked = passed_peng_then_upper_draw(knob(chou))
    assert [(st.pending.by, kinds_of(st)[0]) for st in asked] == asked_about


@pytest.mark.parametrize("scope", ["both", "separate"])
def test_a_passed_peng_leaves_the_chi_of_the_same_card(scope):
    """003's worked example, "玩家有“一、二、二、三、贰”等牌，上家打出“二”": seat 1 passes the 碰
    of its 上家's x2 and is then asked about the 吃 of the same x2 ("当有碰牌时，不碰才能吃",
    001): the 臭 is for the card's "第二次" appearance. It takes the 吃: the card is not 臭 for 吃
    (it did not let it go), the passed 碰 stays 臭."""
    v = knob({"scope": scope})
    deal = make_deal(hands={0: "x2", 1: "x1 x2 x2 x3 d2"},
                     avoid={1: "x4 x7 x10 d1 d3", 2: "x2"})
    g = Game(v, deal=deal)
    g.apply(Action(A.DISCARD, 0, X2))
    assert (g.state.actor, kinds_of(g.state)) == (1, [A.PENG, A.PASS])
    g.apply(Action(A.PASS, 1))
    assert g.state.actor == 1 and A.CHI in kinds_of(g.state)
    g.apply(next(a for a in g.state.options if a.kind == A.CHI))
    seat = g.state.seats[1]
    assert X2 in seat.chou_peng_cards and X2 not in seat.chou_chi_cards
    assert [(e.seat, e.note) for e in g.events if e.kind == E.CHOU] == [(1, "peng")]
