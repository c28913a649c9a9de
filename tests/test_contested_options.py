"""The contested rules of digest §3: for each option, the same situation under both settings,
showing that the knob changes what the engine (or the analysis) does.

Each test flips one knob of the Hunan preset with
``build_variant({"extends": "hunan", ..., **override}, raw_preset, "test")`` (Yongzhou and 六胡抢
for their own knobs), and where a preset settles the question the other way it is run too.
Engine tests use explicit deals (``tests/helpers.py``); seat 0 deals, seat s+1 is the 下家 of
seat s. Expected values are worked out by hand from the digest.
"""

from __future__ import annotations

import pytest

from helpers import C, c, drive_to, make_deal
from zipai_rules import analyze, find_variant
from zipai_rules.cards import KING
from zipai_rules.engine import Action, ActionKind, EventKind, Game
from zipai_rules.loader import build_variant
from zipai_rules.melds import MeldKind
from zipai_rules.presets import raw_preset

A = ActionKind
E = EventKind


def knob(override=None, base="hunan"):
    """The ``base`` preset with one knob flipped (``override`` merges key by key)."""
    raw = {"extends": base, "id": "x", "name": "x", "terminology": {}, "citations": {},
           **(override or {})}
    return build_variant(raw, raw_preset, "test")


def kinds_of(options):
    return [a.kind for a in options]


def events(game, kind, seat=None, card=None):
    idx = c(card) if isinstance(card, str) else card
    return [e for e in game.events if e.kind == kind and (seat is None or e.seat == seat)
            and (card is None or e.card == idx)]


def option(st, kind, seat=None):
    return next((a for a in st.options if a.kind == kind and (seat is None or a.seat == seat)),
                None)


# --- C2: which card upgrades a table 碰 to 跑 -----------------------------------------------------

def _peng_then_drawn_fourth(variant):
    """Seat 1 碰s the dealer's x6, discards d1; seat 2 then draws the 4th x6."""
    deal = make_deal(hands={1: "x6 x6 d1"}, wall="x6", liang="x6", avoid={2: "d1"})
    g = Game(variant, deal=deal)
    g.apply(Action(A.DISCARD, 0, c("x6")))
    assert g.state.actor == 1
    g.apply(option(g.state, A.PENG, 1))
    assert (g.state.phase, g.state.actor) == ("discard", 1)
    g.apply(Action(A.DISCARD, 1, c("d1")))
    drive_to(g, lambda g: bool(events(g, E.DRAW, 2)) or bool(events(g, E.PAO)))
    assert events(g, E.DRAW, 2, "x6")
    return g


def test_C2_peng_upgraded_by_another_players_draw_hunan():
    """C2 / E28 (b) (000_cdb63c032605c9a1.txt §跑胡子玩牌规则
    "第4张牌如果是摸出来的牌还可以跑桌面上碰的牌"): under Hunan (pao_on_peng: self, draw) seat 2's
    drawn x6 goes onto seat 1's 碰 as a forced 跑."""
    g = _peng_then_drawn_fourth(find_variant("hunan"))
    assert [(e.seat, e.card) for e in events(g, E.PAO)] == [(1, c("x6"))]
    assert g.state.seats[1].melds[-1].kind == MeldKind.PAO
    assert (g.state.phase, g.state.actor) == ("discard", 1)  # the first 跑 owes a discard


@pytest.mark.parametrize("variant", [knob({"claims": {"pao_on_peng": ["self"]}}),
                                     find_variant("guilin")], ids=["knob", "guilin"])
def test_C2_peng_not_upgraded_by_another_players_draw_guilin(variant):
    """C2 / E28 (b) (004_4a6d8adec4e0ba73.txt 第四条7
    "‘碰’牌后自己摸起相同的1牌，碰的牌必须得开舵"): with pao_on_peng [self] (Guilin) another
    player's drawn x6 leaves seat 1's 碰 as it is."""
    g = _peng_then_drawn_fourth(variant)
    drive_to(g, lambda g: len(g.state.wall) < 18)
    assert not events(g, E.PAO)
    assert [m.kind for m in g.state.seats[1].melds] == [MeldKind.PENG]


# --- C3: the 六胡抢 threshold --------------------------------------------------------------------

HENGYANG_SIZES = (15, 14, 37)
# Seat 1 (14 cards): 坎 x9 3 + [x1 x2 x3] 3 + [x2 x7 x10] 3 + [d6 d7 d8] 0 + x4 x5 waiting on x6
# → 9 胡息 (the E33 total, all concealed).
LIUHU_HAND = "x9 x9 x9 x1 x2 x3 x2 x7 x10 d6 d7 d8 x4 x5"


def _liuhu_seat1_offered_hu(variant):
    deal = make_deal(hands={1: LIUHU_HAND}, wall="d1 x6", liang="d10",
                     avoid={0: "x6 d10", 2: "x6"}, sizes=HENGYANG_SIZES)
    g = Game(variant, deal=deal)
    seen = drive_to(g, lambda g: len(g.state.wall) < 35 or g.is_over, discard={0: "d10"})
    return [st for st in seen if option(st, A.HU, 1)]


@pytest.mark.parametrize("min_huxi, win", [(6, True), (15, False)])
def test_C3_liuhuqiang_threshold(min_huxi, win):
    """C3 / E33 (000_cdb63c032605c9a1.txt §衡阳六胡抢字牌规则介绍 "六胡就可胡牌" vs
    "达到15息或以上"): 9 胡息 wins at 6 and not at 15, in the analysis and in the engine (seat 2
    draws the x6)."""
    v = knob({"win": {"min_huxi": min_huxi}}, base="hengyang_liuhu")
    a = analyze(v, "x1 x2 x3 d6 d7 d8 x4 x5", ["peng=d4 d4 d4", "wei=x9 x9 x9"], "x6", "draw")
    assert (a.win, a.huxi) == (win, 9)
    assert analyze(v, LIUHU_HAND, (), "x6", "draw").huxi == 9
    offered = _liuhu_seat1_offered_hu(v)
    assert bool(offered) == win
    if win:
        assert offered[0].pending.card == c("x6") and offered[0].pending.by == 2


# --- C5: winning on a discard -----------------------------------------------------------------

# Seat 1: 壹贰叁 6 + 二七十 3 + 一二三 3 + 坎 d4 6 + [x4 x5 x6] 0 + [d5 d6 d7] 0 + d8 d9 waiting on
# d10 → 18 胡息. The dealer's first discard is d10.
DISCARD_WAIT = "d1 d2 d3 x2 x7 x10 x1 x2 x3 d4 d4 d4 x4 x5 x6 d5 d6 d7 d8 d9"


def _on_dealer_discard(variant):
    deal = make_deal(hands={1: DISCARD_WAIT}, liang="d10", avoid={0: "d10", 2: "d10"})
    g = Game(variant, deal=deal)
    g.apply(Action(A.DISCARD, 0, c("d10")))
    return g


def test_C5_hunan_no_win_on_a_discard():
    """C5 (003_5cd7634dfd57d897.txt "任何人打出的牌都不能胡"): Hunan offers seat 1 no 胡 on the d10
    discard (only 吃)."""
    g = _on_dealer_discard(find_variant("hunan"))
    assert g.state.actor == 1 and A.HU not in kinds_of(g.legal_actions())
    assert A.CHI in kinds_of(g.legal_actions())


def test_C5_discard_win_allowed_but_optional():
    """C5 (碰胡 "也能胡任何人打出的牌"): with discard among the win sources but not forced, seat 1
    is offered 胡 and may pass."""
    g = _on_dealer_discard(knob({"win": {"sources": ["self", "draw", "discard"]}}))
    assert g.state.actor == 1 and set(kinds_of(g.legal_actions())) == {A.HU, A.PASS}


@pytest.mark.parametrize("variant", [
    knob({"win": {"sources": ["self", "draw", "discard"], "forced_sources": ["discard"]}}),
    find_variant("guilin")], ids=["knob", "guilin"])
def test_C5_discard_win_forced(variant):
    """C5 (004_4a6d8adec4e0ba73.txt 第五条6 "放炮必胡：有人打出的牌能胡，则必须胡牌"): the only
    option is 胡, no PASS; the win is 18 胡息 on a discard. Under Guilin it is also 地胡 (the
    dealer's first discard, G13)."""
    g = _on_dealer_discard(variant)
    assert g.state.actor == 1
    assert kinds_of(g.legal_actions()) == [A.HU]
    g.apply(g.legal_actions()[0])
    r = g.result
    assert (r.winner, r.source, r.huxi) == (1, "discard", 18)
    assert ("dihu" in r.labels) == (variant.id == "guilin")


# --- C8: where a 臭 card blocks 吃 ---------------------------------------------------------------

def _declined_chi_then_own_draw(variant):
    """Seat 1 declines to 吃 the dealer's x3 (with x1 x2), then draws an x3 itself."""
    deal = make_deal(hands={1: "x1 x2"}, wall="x3", liang="x3",
                     avoid={0: "x3", 1: "x3", 2: "x3"})
    g = Game(variant, deal=deal)
    g.apply(Action(A.DISCARD, 0, c("x3")))
    assert g.state.actor == 1 and A.CHI in kinds_of(g.legal_actions())
    g.apply(Action(A.PASS, 1))
    assert c("x3") in g.state.seats[1].chou_chi_cards
    seen = drive_to(g, lambda g: bool(events(g, E.DRAW, 1)))
    assert events(g, E.DRAW, 1, "x3")
    seen += drive_to(g, lambda g: len(g.state.wall) < 18)
    return [st for st in seen if st.pending is not None and st.pending.source == "draw"
            and st.pending.card == c("x3") and option(st, A.CHI, 1)]


def test_C8_chou_blocks_a_drawn_card_hunan():
    """C8 (003_5cd7634dfd57d897.txt
    "这张牌就成了该玩家的臭牌，第二次牌桌上再出现同张牌时，该玩家不得再吃或者碰"): under Hunan
    (blocks_on: draw, discard) seat 1 may not 吃 its own later draw of x3."""
    assert _declined_chi_then_own_draw(find_variant("hunan")) == []


def test_C8_chou_blocks_only_discards_shihuqiang():
    """C8 (000_cdb63c032605c9a1.txt §衡阳十胡抢牌型规则 "本人想吃而未吃 …
    第二次他家再打出同张牌时，本人不得再吃"): with blocks_on [discard] the declined x3 can still be
    吃'd when it is drawn."""
    offered = _declined_chi_then_own_draw(knob({"chou": {"blocks_on": ["discard"]}}))
    assert offered and offered[0].pending.by == 1


def _declined_peng_then_drawn(variant, sizes=(21, 20, 19)):
    """Seat 2 declines to 碰 the dealer's x6, then seat 1 draws the last x6 and shows it."""
    deal = make_deal(hands={2: "x6 x6"}, wall="x6", liang="x6", sizes=sizes)
    g = Game(variant, deal=deal)
    g.apply(Action(A.DISCARD, 0, c("x6")))
    seen = drive_to(g, lambda g: bool(events(g, E.DRAW, 1)) or len(g.state.wall) < sizes[2] - 1)
    assert any(option(st, A.PENG, 2) for st in seen)  # the declined 碰 on the discard
    assert c("x6") in g.state.seats[2].chou_peng_cards
    assert events(g, E.DRAW, 1, "x6")
    seen = drive_to(g, lambda g: len(g.state.wall) < sizes[2] - 1)
    return [st for st in seen if option(st, A.PENG, 2)]


@pytest.mark.parametrize("variant, sizes", [
    (find_variant("hunan"), (21, 20, 19)),
    (knob({"chou": {"blocks_on": ["discard"]}}), (21, 20, 19)),
    (find_variant("hengyang_shihu"), (15, 14, 37))], ids=["hunan", "knob", "hengyang_shihu"])
def test_C8_declined_peng_is_permanent(variant, sizes):
    """C8 (000_cdb63c032605c9a1.txt §衡阳十胡抢牌型规则 "本人能碰而未碰，即使别人再打也不能碰了";
    digest C8 "a declined 碰 blocks 碰 permanently"; 001_5964eea38dea0018.txt
    "你选择了不碰，则另外一张你也不能碰"): limiting 臭 to discards (十胡抢) frees a declined 吃,
    never a declined 碰: seat 2 may not 碰 the x6 that seat 1 later draws. (Regression: the engine
    used to apply ``chou.blocks_on`` to 碰 as well.)"""
    assert _declined_peng_then_drawn(variant, sizes) == []


def _own_discard_then_drawn(variant):
    """Seat 1 吃s the dealer's d5 and discards its x3 (keeping x1 x2); three draws later it draws
    an x3 itself."""
    deal = make_deal(hands={1: "d6 d7 x1 x2 x3"}, wall="d9 d9 x3", liang="d5",
                     avoid={0: "x3 d5 d6 d7 d9", 1: "x3 d9", 2: "x3 d5 d9"})
    g = Game(variant, deal=deal)
    g.apply(Action(A.DISCARD, 0, c("d5")))
    g.apply(next(a for a in g.legal_actions() if a.kind == A.CHI
                 and a.melds[0].cards == tuple(C("d5 d6 d7"))))
    g.apply(Action(A.DISCARD, 1, c("x3")))
    seen = drive_to(g, lambda g: len(g.state.wall) < 16)
    assert [(e.seat, e.card) for e in events(g, E.DRAW)][:3] == [(2, c("d9")), (0, c("d9")),
                                                                (1, c("x3"))]
    return [st for st in seen if st.pending is not None and st.pending.card == c("x3")
            and option(st, A.CHI, 1)]


@pytest.mark.parametrize("variant", [
    find_variant("hunan"), knob({"chou": {"blocks_on": ["discard"]}})], ids=["hunan", "knob"])
def test_C8_never_chi_a_card_one_discarded(variant):
    """C8 / §1.4.5 (000_cdb63c032605c9a1.txt §衡阳十胡抢牌型规则 "任何人也不能吃自己曾经打出过的牌";
    digest "cannot 吃 or 碰 their own discard, even later"): limiting the 吃 block of a *declined*
    card to discards (十胡抢) does not let a player 吃 a kind it discarded itself when that kind is
    later drawn. (Regression: own discards shared the declined-吃 set and its ``blocks_on``.)"""
    assert _own_discard_then_drawn(variant) == []


# --- C9: is 跑 forced? ---------------------------------------------------------------------------

def _kan_and_discarded_fourth(variant):
    g = Game(variant, deal=make_deal(hands={1: "x5 x5 x5"}, liang="x5"))
    g.apply(Action(A.DISCARD, 0, c("x5")))
    return g


def test_C9_pao_forced_hunan():
    """C9 (000_cdb63c032605c9a1.txt §跑胡子玩牌规则 "比、偎、提、跑是强制规则,不能选择放弃"): the
    discarded 4th x5 goes onto seat 1's 坎 at once, with no decision; seat 1 then owes a discard."""
    g = _kan_and_discarded_fourth(find_variant("hunan"))
    assert [(e.seat, e.card, e.note) for e in events(g, E.PAO)] == [(1, c("x5"), "forced")]
    assert (g.state.phase, g.state.actor) == ("discard", 1)


@pytest.mark.parametrize("variant", [knob({"claims": {"pao_forced": False}}),
                                     find_variant("loudi_fangpaofa")], ids=["knob", "loudi"])
def test_C9_pao_optional_loudi(variant):
    """C9 (000_cdb63c032605c9a1.txt §跑胡子、放炮罚游戏规则
    "当自己手中有三张同牌，别人再次打出此张牌时，可跑牌"): seat 1 is offered 跑 or 过; passing keeps
    the 坎 in hand."""
    g = _kan_and_discarded_fourth(variant)
    assert not events(g, E.PAO)
    assert g.state.actor == 1 and {A.PAO, A.PASS} <= set(kinds_of(g.legal_actions()))
    g.apply(Action(A.PASS, 1))
    assert not events(g, E.PAO) and g.state.seats[1].hand[c("x5")] == 3


# --- C9: skipping the 跑 to win -------------------------------------------------------------------

# Seat 1: 坎 x5 3 + x3 x4 + 壹贰叁 6 + 坎 d4 6 + [d6 d7 d8] 0 + [x8 x9 x10] 0 + 贰柒拾 6. An x5
# from seat 2's draw completes [x3 x4 x5] if the 坎 is kept: 21. As a 跑 (which would allow one
# 将) x3 x4 are stranded: no x2, one x3, and the d4 are a 坎 that stays whole.
KEEP_KAN = "x5 x5 x5 x3 x4 d1 d2 d3 d4 d4 d4 d6 d7 d8 x8 x9 x10 d2 d7 d10"


def _kan_and_drawn_fourth(variant):
    deal = make_deal(hands={1: KEEP_KAN}, wall="d9 x5", liang="x1",
                     avoid={0: "d9 x1 x2", 2: "d9 x2"})
    g = Game(variant, deal=deal)
    drive_to(g, lambda g: bool(events(g, E.DRAW, 2)) or bool(events(g, E.PAO)),
             discard={0: "x1"})
    return g


def test_po_pao_hu_off_must_pao():
    """C9 with ``claims.po_pao_hu: false`` (a 跑 that is compulsory and never yields to a
    win): seat 2's x5 goes onto seat 1's 坎 as 跑 and seat 1 is never offered 胡."""
    g = _kan_and_drawn_fourth(knob({"claims": {"po_pao_hu": False}}))
    assert [(e.seat, e.card) for e in events(g, E.PAO)] == [(1, c("x5"))]
    assert not g.is_over


@pytest.mark.parametrize("variant", [find_variant("hunan"), find_variant("guilin")],
                         ids=["hunan", "guilin"])
def test_po_pao_hu_keeps_the_kan(variant):
    """破跑胡 (003_5cd7634dfd57d897.txt
    "当玩家自己或其他玩家跑牌时，正好这只牌是自己要胡的，可以胡"; Guilin 004_4a6d8adec4e0ba73.txt
    第五条5 "胡牌时可以不开舵"): seat 1 is offered 胡 on seat 2's x5 before its compulsory 跑 and
    wins with 21: 坎 x5 kept, [x3 x4 x5] a run."""
    g = _kan_and_drawn_fourth(variant)
    assert not events(g, E.PAO)
    assert g.state.actor == 1 and A.HU in kinds_of(g.legal_actions())
    g.apply(option(g.state, A.HU, 1))
    r = g.result
    assert (r.winner, r.source, r.huxi) == (1, "draw", 21)
    groups = {(gr.meld.kind, gr.meld.cards) for gr in r.decomposition.groups}
    assert (MeldKind.KAN, tuple(C("x5 x5 x5"))) in groups
    assert (MeldKind.SHUN, tuple(C("x3 x4 x5"))) in groups


def test_po_pao_hu_declined_win_then_forced_pao():
    """Declining the 破跑胡 win leaves the compulsory 跑 (Hunan "跑是强制规则"): seat 1 passes
    and its 坎 takes the x5 as 跑."""
    g = _kan_and_drawn_fourth(find_variant("hunan"))
    g.apply(option(g.state, A.PASS, 1))
    assert [(e.seat, e.card, e.note) for e in events(g, E.PAO)] == [(1, c("x5"), "forced")]


# --- C10: two dealt 提 ----------------------------------------------------------------------------

def _double_ti_dealer(variant):
    """The dealer is dealt 提 x1 and 提 d5 and a pair of d8; seat 1's first draw is a d8."""
    deal = make_deal(hands={0: "x1 x1 x1 x1 d5 d5 d5 d5 d8 d8"}, wall="d8", liang="x9",
                     avoid={0: "d8 x9", 1: "d8 x9", 2: "d8 x9"})
    return Game(variant, deal=deal)


def _peng_the_d8(g):
    drive_to(g, lambda g: option(g.state, A.PENG, 0) is not None, discard={0: "x9"})
    assert g.state.pending.card == c("d8") and g.state.pending.by == 1
    g.apply(option(g.state, A.PENG, 0))


def test_C10_skip_first_hunan():
    """C10 (000_cdb63c032605c9a1.txt §字牌规则说明, 003 "第一次进牌后不用出牌"): skip_first: the
    dealer with two dealt 提 does not discard; seat 1 draws. At the dealer's next take (碰 d8) it
    discards as usual."""
    g = _double_ti_dealer(find_variant("hunan"))
    assert not events(g, E.DISCARD)
    assert events(g, E.DRAW, 1, "d8")
    _peng_the_d8(g)
    assert (g.state.phase, g.state.actor) == ("discard", 0)


def test_C10_skip_second_hengyang():
    """C10 (000_cdb63c032605c9a1.txt §衡阳六胡抢字牌规则介绍
    "起手2提及以上时，需打一张牌，再碰或再吃时，跳过出牌直接进入摸牌阶段"):
    skip_second: the dealer discards first; after its next take (碰 d8) it skips the discard and
    seat 1 draws next. (Guilin's "照常打牌，在听牌的时候不打", ``skip_when_ready``:
    tests/test_guilin_seed_rules.py.)"""
    g = _double_ti_dealer(knob({"discard": {"dealt_double_quad": "skip_second"}}))
    assert (g.state.phase, g.state.actor) == ("discard", 0)
    _peng_the_d8(g)
    assert not (g.state.phase == "discard" and g.state.actor == 0)
    after_peng = g.events[[e.kind for e in g.events].index(E.PENG):]
    assert not [e for e in after_peng if e.kind == E.DISCARD and e.seat == 0]
    assert [e.seat for e in after_peng if e.kind in (E.DRAW, E.DRAW_HIDDEN)][:1] == [1]
    assert g.state.seats[0].held == 21  # 20 + (2 − 1): the resting size with two quads


# --- C6 / C7: display --------------------------------------------------------------------------

def test_C6_C7_display_values():
    """C6 (偎: "碰亮偎不亮" Hunan, "偎亮一张底牌" Shaoyang) and C7 (提: "盖三张亮一张" Hunan,
    "4需全盖" Guilin, "4张全亮" 碰胡). Display is data for a front end; the engine's rules do not
    depend on it, so flipping the knob changes the variant (and its hash) but no legal action."""
    assert find_variant("hunan").display.wei == "hidden"
    assert find_variant("shaoyang").display.wei == "one_up"
    assert find_variant("hunan").display.ti == "one_up"
    assert find_variant("guilin").display.ti == "hidden"
    assert find_variant("penghu").display.ti == "all_up"
    for value in ("hidden", "one_up", "all_up"):
        v = knob({"display": {"wei": value, "ti": value}})
        assert (v.display.wei, v.display.ti) == (value, value)
    assert knob({"display": {"wei": "one_up"}}).content_hash != \
        knob({"display": {"wei": "hidden"}}).content_hash
    # the same deal plays identically under both 偎 displays
    deal = make_deal(hands={1: "x6 x6"}, wall="x6", liang="x1", avoid={0: "x1"})
    games = [Game(knob({"display": {"wei": w}}), deal=deal) for w in ("hidden", "one_up")]
    for g in games:
        drive_to(g, lambda g: len(g.state.wall) < 15, discard={0: "x1"})
    assert [e.describe() for e in games[0].events] == [e.describe() for e in games[1].events]


# --- C11: 天胡 ------------------------------------------------------------------------------------

THREE_TI = "x1 x1 x1 x1 d5 d5 d5 d5 x10 x10 x10 x10"


def test_C11_hunan_three_ti_is_tianhu():
    """C11 / E18 (003_5cd7634dfd57d897.txt "当砌完牌后，玩家手中有3提或5坎，称为天胡 … 必须天胡"):
    seat 1 dealt three 提 wins at once: 提 x1 9 + 提 d5 12 + 提 x10 9 = 30."""
    g = Game(find_variant("hunan"),
             deal=make_deal(hands={1: THREE_TI + " x2 x4 x6 x8 d2 d4 d7 d9"}))
    r = g.result
    assert (r.kind, r.winner, r.huxi) == ("tianhu", 1, 30) and "tianhu" in r.labels


def test_C11_without_the_tianhu_rule_play_goes_on():
    """C11: with tianhu ti/kan set to 0 (no 三提五坎 天胡) the same deal is played on."""
    g = Game(knob({"win": {"tianhu": {"ti": 0, "kan": 0}}}),
             deal=make_deal(hands={1: THREE_TI + " x2 x4 x6 x8 d2 d4 d7 d9"}))
    assert not g.is_over and len(g.state.seats[1].melds) == 3


@pytest.mark.parametrize("ti_counts, tianhu", [(True, True), (False, False)])
def test_C11_ti_counts_as_kan(ti_counts, tianhu):
    """C11 / E19 (003_5cd7634dfd57d897.txt "提牌可以当坎牌算"): 2 提 + 3 坎 is 5 门 only when a 提
    counts as a 坎."""
    v = knob({"win": {"tianhu": {"ti_counts_as_kan": ti_counts}}})
    g = Game(v, deal=make_deal(
        hands={1: "x3 x3 x3 x3 d7 d7 d7 d7 x9 x9 x9 d1 d1 d1 d10 d10 d10 x5 d4 x7"}))
    assert (g.is_over and g.result.kind == "tianhu") == tianhu
    if tianhu:
        assert g.result.huxi == 9 + 12 + 3 + 6 + 6  # 36, digest E19


def test_C11_penghu_two_ti_is_a_special_win_not_tianhu():
    """C11 (000_cdb63c032605c9a1.txt §碰胡规则 "如果摸上来有2双提蛇的牌 … 视为胡牌"; no 三提五坎 in
    the 碰胡 text): three dealt 提 in 碰胡 end the hand as a two_ti win, not as 天胡; two 提 in
    Hunan do not end it."""
    g = Game(find_variant("penghu"),
             deal=make_deal(hands={1: THREE_TI + " x2 x4"}, sizes=(15, 14, 37)))
    r = g.result
    assert (r.kind, r.winner, r.labels) == ("hu", 1, ("two_ti",))
    h = Game(find_variant("hunan"), deal=make_deal(hands={1: "x1 x1 x1 x1 d5 d5 d5 d5"}))
    assert not h.is_over


# --- 地胡 -----------------------------------------------------------------------------------------

E29_HAND = "d10 d10 d10 x8 x8 x8 x1 x2 x3 d1 d2 d3 x4 x5 x6 d4 d5 x2 x7 x10"


def _e29_win(variant, seat, wall):
    """Seat ``seat`` holds the E29 hand (21 胡息 with d6) and takes the d6 from the wall."""
    deal = make_deal(hands={seat: E29_HAND}, wall=wall, liang="x9",
                     avoid={s: ("d6 x9" if s == 0 else "d6") for s in range(3) if s != seat})
    g = Game(variant, deal=deal)
    drive_to(g, lambda g: option(g.state, A.HU, seat) is not None, discard={0: "x9"})
    g.apply(option(g.state, A.HU, seat))
    return g.result


@pytest.mark.parametrize("variant", [knob({"win": {"dihu": "first_wall_card"}}),
                                     find_variant("shaoyang")], ids=["knob", "shaoyang"])
def test_dihu_first_wall_card(variant):
    """C17 (001_5964eea38dea0018.txt "地胡：闲家要牌之前揭底牌的第一张牌正好是闲家所要胡的牌"): a
    non-dealer winning on the first wall card gets 'dihu'; winning on its own later draw does
    not."""
    r = _e29_win(variant, 1, "d6")
    assert (r.winner, r.source, r.huxi) == (1, "self", 21)
    assert "dihu" in r.labels and "zimo" in r.labels
    r = _e29_win(variant, 2, "d9 d6")  # seat 2's own draw is the second wall card
    assert (r.winner, r.source, r.huxi) == (2, "self", 21)
    assert "dihu" not in r.labels


def test_dihu_none_hunan():
    """C17: Hunan has no 地胡 (not in the Hunan sources); the same first-card win is a plain
    自摸."""
    r = _e29_win(find_variant("hunan"), 1, "d6")
    assert (r.winner, r.huxi) == (1, 21) and r.labels == ("zimo",)


# --- king_rules ---------------------------------------------------------------------------------

KING_HAND = "d1 d2 d3 x2 x7 x10 d10 d10 K x4 x5 x6 d6 d7 d8 d4 d5 d6 x1 x2"


def _king_game(variant):
    deal = make_deal(hands={0: "K", 1: KING_HAND}, wall="x9 x3", liang="x8",
                     avoid={0: "x3 x9 x8", 2: "x3 x9"}, sizes=(21, 20, 21))
    return Game(variant, deal=deal)


@pytest.mark.parametrize("only_self", [True, False])
def test_king_holder_wins_only_self(only_self):
    """Yongzhou (000_cdb63c032605c9a1.txt §永州双王扯胡子规则 "手中有王霸的玩家，只能自摸"): seat 1
    holds a K and waits on x3 (坎 d10 with the K: 18); seat 2 draws the x3. Seat 1 is offered 胡
    only when the rule is off."""
    v = knob({"deck": {"king_rules": {"holder_wins_only_self": only_self}}}, base="yongzhou")
    g = _king_game(v)
    seen = drive_to(g, lambda g: len(g.state.wall) < 19, discard={0: "x8"})
    offered = [st for st in seen if option(st, A.HU, 1)]
    assert bool(offered) != only_self
    if offered:
        assert (offered[0].pending.card, offered[0].pending.by) == (c("x3"), 2)
        g2 = _king_game(v)
        drive_to(g2, lambda g: option(g.state, A.HU, 1) is not None, discard={0: "x8"})
        g2.apply(option(g2.state, A.HU, 1))
        assert (g2.result.source, g2.result.huxi) == ("draw", 18)


@pytest.mark.parametrize("discardable", [False, True])
def test_king_discardable(discardable):
    """Yongzhou ("王霸不能打出，只能代替牌"): the dealer's K is among its discard options only when
    the knob allows it."""
    v = knob({"deck": {"king_rules": {"discardable": discardable}}}, base="yongzhou")
    g = _king_game(v)
    assert g.state.phase == "discard" and g.state.actor == 0
    assert any(a.card == KING for a in g.legal_actions()) == discardable
