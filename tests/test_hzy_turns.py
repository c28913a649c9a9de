"""衡阳 / 耒阳 turn shapes (docs/regional-sources.md §1.3, §2.1) on explicit deals.

Each test plays a small child of the Hunan preset that also wins on discards
(``win.sources: [self, draw, discard]``) at 10 胡息, with one option switched on, and the same
deal with the option off. Seat 0 deals; seat s+1 is the 下家 of seat s. Sources:
hzy = duanly/hzy (docs/RULES.md, packages/engine/src/game.ts).
"""

from __future__ import annotations

from helpers import C, act, c, make_deal, meld, pass_all
from zipai_rules.analysis import win_verdict
from zipai_rules.engine import Action, ActionKind, EventKind, Game
from zipai_rules.errors import VariantError
from zipai_rules.loader import build_variant
from zipai_rules.presets import raw_preset

A = ActionKind
E = EventKind


def hzy(win=None, **sections):
    """Hunan, winning on discards too at 10 胡息, with ``win`` and other sections merged."""
    raw = {"extends": "hunan", "id": "hzy_test", "name": "hzy test", "terminology": {},
           "citations": {}, "win": {"sources": ["self", "draw", "discard"], "min_huxi": 10,
                                    **(win or {})}, **sections}
    return build_variant(raw, raw_preset, "test")


def after_deal(events):
    return [(e.kind, e.seat, e.card, e.note) for e in events if e.kind != E.DEAL
            or e.note.startswith("亮张 offered")]


# --- 地胡 on the 亮张 (win.dihu: lianzhang) ------------------------------------------------------

# digest H5: a non-dealer's 20 dealt cards that win on the dealer's 亮张 x8: 坎 d1 (6) +
# x1 x2 x3 (一二三, 3) + x8 x8 x8 (a 碰 with the won card, 1) = 10 胡息, the other groups 0
H5 = "d1 d1 d1 x1 x2 x3 x8 x8 x4 x5 x6 d4 d5 d6 d3 d3 x3 d7 d8 d9"


def h5_deal(dealer_hand=""):
    return make_deal(hands={0: dealer_hand, 1: H5}, liang="x8", avoid={0: "x8", 2: "x8"})


def test_lianzhang_offer_win_is_dihu_paid_by_the_dealer():
    """hzy game.ts start, offerDiHu: before the dealer's first discard the 亮张 is offered to
    the others for 胡 only; the win is a 地胡 on a card discarded by the dealer (digest H5)."""
    g = Game(hzy({"dihu": "lianzhang"}), deal=h5_deal())
    st = g.state
    assert (st.phase, st.actor) == ("respond", 1)
    assert st.options == (Action(A.HU, 1, c("x8")), Action(A.PASS, 1))
    assert (st.pending.card, st.pending.source, st.pending.by) == (c("x8"), "discard", 0)
    # the 亮张 is out of the dealer's hand while it is on offer: 20 cards, one on offer
    assert sum(st.seats[0].hand) == 20 and st.card_count() == 80
    assert after_deal(g.events) == [(E.DEAL, 0, c("x8"), "亮张 offered for 地胡")]
    act(g, A.HU, "x8")
    r = g.state.result
    assert (r.winner, r.card, r.source, r.discarder, r.huxi) == (1, c("x8"), "discard", 0, 10)
    assert r.labels == ("dihu",)


def test_lianzhang_offer_forced_where_discard_wins_are_forced():
    """衡阳 有胡必胡 (hzy rules.ts mustHu): with discard among win.forced_sources the seat that
    wins on the 亮张 is offered only the 胡."""
    v = hzy({"dihu": "lianzhang", "forced_sources": ["discard"]})
    g = Game(v, deal=h5_deal())
    assert g.state.options == (Action(A.HU, 1, c("x8")),)


def test_lianzhang_offer_passed_marks_no_chou_and_the_dealer_discards():
    """Nobody wins: the card stays in the dealer's hand and the dealer discards as usual
    (hzy game.ts resolveClaims); the pass marks no 臭 (Hunan has 臭胡: win.chou_hu)."""
    g = Game(hzy({"dihu": "lianzhang"}), deal=h5_deal())
    events = g.apply(Action(A.PASS, 1))
    assert [(e.kind, e.seat, e.card) for e in events] == [(E.PASS, 1, c("x8"))]
    st = g.state
    assert (st.phase, st.actor, st.pending) == ("discard", 0, None)
    assert sum(st.seats[0].hand) == 21 and st.seats[0].hand[c("x8")] == 1
    assert st.seats[1].chou_hu_marks == () and st.seats[1].chou_peng_cards == frozenset()
    assert st.seats[0].lianzhang_offer is None
    # the dealer now discards the x8 itself: seat 1 wins on it, an ordinary discard win
    act(g, A.DISCARD, "x8")
    act(g, A.HU, "x8")
    r = g.state.result
    assert (r.winner, r.discarder, r.labels) == (1, 0, ())


def test_lianzhang_nobody_wins_no_one_is_asked():
    """A 亮张 that nobody wins on: the offer is shown, nobody is asked, the dealer discards."""
    g = Game(hzy({"dihu": "lianzhang"}), deal=make_deal(liang="x8", avoid={1: "x8", 2: "x8"}))
    assert (g.state.phase, g.state.actor) == ("discard", 0)
    assert after_deal(g.events) == [(E.DEAL, 0, c("x8"), "亮张 offered for 地胡")]
    assert sum(g.state.seats[0].hand) == 21


def test_lianzhang_only_hu_is_offered_and_other_claims_are_refused():
    """The 亮张 is offered for 胡 only: seat 1 holds a pair of x8 (a 碰 on any discard) but is
    asked only about the 胡; a 碰 is refused."""
    g = Game(hzy({"dihu": "lianzhang"}), deal=h5_deal())
    assert [a.kind for a in g.legal_actions()] == [A.HU, A.PASS]
    refusal = g.check(Action(A.PENG, 1, c("x8")))
    assert refusal.code == "claim_not_allowed" and "胡 only" in refusal.message
    # seat 2, not asked, gets the same answer for a 吃 (not "not your turn")
    assert g.check(Action(A.CHI, 2, c("x8"))).code == "claim_not_allowed"


def test_lianzhang_offer_follows_the_dealer_optional_tianhu():
    """The dealer's optional 天胡 comes first (win.tianhu.optional_dealer_win); passed, the
    亮张 is offered. Dealer: 坎 d2, 坎 d10, x2 x7 x10, x4 x5 x6, x7 x8(亮张) x9, x1 x2 x3,
    d5 d6 d7 = 6 + 6 + 3 + 3 = 18 胡息."""
    g = Game(hzy({"dihu": "lianzhang"}),
             deal=h5_deal("d2 d2 d2 d10 d10 d10 x2 x7 x10 x4 x5 x6 x7 x9 x1 x2 x3 d5 d6 d7"))
    st = g.state
    assert (st.phase, st.actor) == ("hu_check", 0)
    assert after_deal(g.events) == []
    events = g.apply(Action(A.PASS, 0))
    assert [(e.kind, e.seat, e.card, e.note) for e in events] == [
        (E.PASS, 0, None, ""), (E.DEAL, 0, c("x8"), "亮张 offered for 地胡")]
    assert g.state.options == (Action(A.HU, 1, c("x8")), Action(A.PASS, 1))
    act(g, A.HU, "x8")
    assert g.state.result.labels == ("dihu",) and g.state.result.discarder == 0


def test_lianzhang_off_keeps_the_first_discard():
    """win.dihu: none (the default): the 亮张 is not offered; the dealer discards first."""
    g = Game(hzy(), deal=h5_deal())
    assert (g.state.phase, g.state.actor) == ("discard", 0)
    assert after_deal(g.events) == []
    act(g, A.DISCARD, "x8")
    act(g, A.HU, "x8")
    assert g.state.result.labels == () and g.state.result.discarder == 0


def test_lianzhang_needs_a_shown_lianzhang_and_a_discard_win():
    """Load-time checks: the offer needs deal.lianzhang; a dihu label needs discard wins."""
    try:
        hzy({"dihu": "lianzhang"}, deal={"lianzhang": False})
    except VariantError as exc:
        assert [p for p, _ in exc.problems] == ["win.dihu"]
    else:
        raise AssertionError("accepted win.dihu: lianzhang without deal.lianzhang")
    try:
        hzy({"dihu": "lianzhang", "sources": ["self", "draw"]},
            scoring={"bonuses": [{"label": "dihu", "multiply_huxi": 2}]})
    except VariantError as exc:
        assert [p for p, _ in exc.problems] == ["win.dihu", "scoring.bonuses[0].label"]
    else:
        raise AssertionError("accepted a dihu bonus that can never apply")


# --- 放跑之后不能再进张 (claims.fang_pao_stops_takes) -----------------------------------------

def fang_pao_game(on: bool) -> Game:
    """Seat 0 discards x10 (nobody takes it); seat 1 draws x9 (left); seat 2 draws d5 onto its
    pair d5 d5 (a forced 偎) and is to discard."""
    v = hzy(claims={"fang_pao_stops_takes": on})
    deal = make_deal(hands={0: "x10 d5 d9 d9 x4 x4", 2: "d5 d5 d9 x4"}, wall="x9 d5",
                     avoid={1: "x10 x9 d9 x4 d5", 2: "x10 x9"}, liang="d1")
    g = Game(v, deal=deal)
    act(g, A.DISCARD, "x10")
    pass_all(g)
    assert (g.state.phase, g.state.actor) == ("discard", 2)
    assert g.state.seats[2].melds == (meld("wei", "d5 d5 d5"),)
    return g


def test_fang_pao_stops_chi_and_peng_of_the_discarder():
    """hzy docs/RULES.md 放跑之后不能再进张; game.ts execClaim (case pao): seat 2 discards d9,
    seat 0 碰s it and discards d5, which seat 2 must 跑 onto its table 偎: seat 0 may no longer
    碰 (nor 吃); the 跑 event says why. Seat 2 then discards x4, a 碰 for seat 0's x4 x4:
    nobody is asked and the x4 goes to seat 2's discards."""
    g = fang_pao_game(on=True)
    act(g, A.DISCARD, "d9")
    act(g, A.PENG, "d9")
    events = act(g, A.DISCARD, "d5")
    assert [(e.seat, e.card, e.note) for e in events if e.kind == E.PAO] == [
        (2, c("d5"), "forced, 放跑: seat 0 may no longer 吃/碰")]
    assert g.state.seats[0].fang_pao and not g.state.seats[2].fang_pao
    assert g.state.seats[2].melds == (meld("pao", "d5 d5 d5 d5"),)
    # seat 2's first 跑 leaves it owing a discard
    assert (g.state.phase, g.state.actor) == ("discard", 2)
    events = act(g, A.DISCARD, "x4")
    assert [(e.kind, e.seat, e.card) for e in events[:2]] == [
        (E.DISCARD, 2, c("x4")), (E.TO_DISCARDS, 2, c("x4"))]
    assert events[2].kind in (E.DRAW, E.DRAW_HIDDEN) and events[2].seat == 0
    refusal = g.check(Action(A.PENG, 0, c("x4")))
    assert refusal.code == "fang_pao" and "放跑之后不能再进张" in refusal.message


def test_fang_pao_off_keeps_the_peng():
    """claims.fang_pao_stops_takes: false (the default): the same x4 is offered to seat 0."""
    g = fang_pao_game(on=False)
    act(g, A.DISCARD, "d9")
    act(g, A.PENG, "d9")
    events = act(g, A.DISCARD, "d5")
    assert [e.note for e in events if e.kind == E.PAO] == ["forced"]
    assert not g.state.seats[0].fang_pao
    act(g, A.DISCARD, "x4")
    assert g.state.actor == 0 and Action(A.PENG, 0, c("x4")) in g.state.options


def test_fang_pao_onto_a_concealed_kan_does_not_count():
    """A 跑 onto a concealed 坎 is not 放跑 (hzy docs/RULES.md 放跑之后不能再进张: a visible 偎
    or 碰 only): seat 0's first discard d5 is 跑'd onto seat 1's 坎 d5 d5 d5."""
    v = hzy(claims={"fang_pao_stops_takes": True})
    g = Game(v, deal=make_deal(hands={0: "d5", 1: "d5 d5 d5"}, liang="d1"))
    events = act(g, A.DISCARD, "d5")
    assert [(e.seat, e.note) for e in events if e.kind == E.PAO] == [(1, "forced")]
    assert not g.state.seats[0].fang_pao


# --- dealt quads: n dealt 提 give n − 1 free discards ---------------------------------------------

# seat 1 is dealt three 提 (x1, x2, x3) and the pairs d7 d8 d9; it 碰s the dealer's d7 and then
# seat 2's draws d8 and d9. 天胡 on dealt 提 is switched off (Hunan: 3 提 is a forced 天胡).
QUADS = "x1 x1 x1 x1 x2 x2 x2 x2 x3 x3 x3 x3 d7 d7 d8 d8 d9 d9 x9 d1"


def quads_game(rule: str) -> Game:
    v = hzy({"tianhu": {"ti": 0, "kan": 0}}, discard={"dealt_double_quad": rule})
    deal = make_deal(hands={0: "d7", 1: QUADS}, wall="d8 d9 x10", liang="x10",
                     avoid={0: "d1 d8 d9", 2: "d1 d2 d3 d7 d8 d9 x10"})
    g = Game(v, deal=deal)
    assert [e.card for e in g.events if e.kind == E.TI] == C("x1 x2 x3")
    assert (g.state.phase, g.state.actor) == ("discard", 0)
    act(g, A.DISCARD, "d7")
    return g


def peng(g: Game, card: str):
    """Seat 1 碰s ``card``; the kinds of the events that follow, the seat 1 card count."""
    events = act(g, A.PENG, card)
    return [(e.kind, e.seat) for e in events[1:]], g.state.seats[1].held


def test_three_dealt_ti_skip_first_two_takes_without_a_discard():
    """hzy docs/RULES.md 起手多条龙 (game.ts start, freeDiscards): three dealt 龙 give two free
    discards. The resting size 20 + (3 − 1) = 22 already says so: after the 1st and 2nd 碰
    (21, 22 cards) the next seat draws, after the 3rd (23) seat 1 discards."""
    g = quads_game("skip_first")
    assert peng(g, "d7") == ([(E.DRAW, 2)], 21)
    assert peng(g, "d8") == ([(E.DRAW, 2)], 22)
    assert peng(g, "d9") == ([], 23)
    assert (g.state.phase, g.state.actor) == ("discard", 1)


def test_three_dealt_ti_skip_second_discards_first_then_skips_two():
    """skip_second (衡阳, 桂林: "起手2提及以上时，需打一张牌"): the first take is followed by a
    discard as usual, then the two free discards: the 2nd and 3rd 碰 (21, 22 cards) owe none."""
    g = quads_game("skip_second")
    assert peng(g, "d7") == ([], 21)
    assert (g.state.phase, g.state.actor) == ("discard", 1)
    events = act(g, A.DISCARD, "d1")
    assert [(e.kind, e.seat, e.card) for e in events[:3]] == [
        (E.DISCARD, 1, c("d1")), (E.TO_DISCARDS, 1, c("d1")), (E.DRAW, 2, c("d8"))]
    assert peng(g, "d8") == ([(E.DRAW, 2)], 21)
    assert peng(g, "d9") == ([(E.DRAW, 2)], 22)


# --- 耒阳: one's own draw onto one's own 碰 is 跑'd before the win (claims.own_peng_pao_first)

# seat 1 碰s the dealer's d5 and discards x10; its 17 concealed cards then wait on d5 two ways:
# kept 碰 d5 (3) + d4 d5 d6 + 坎 d1 (6) + x1 x2 x3 (3) = 12 胡息, a win; or the 碰 made 跑 (9),
# which leaves d4 d6 unmatched: no win
PENG_WAIT = "d4 d6 d1 d1 d1 x1 x2 x3 x4 x5 x6 x7 x8 x9 d7 d8 d9"


def own_peng_game(on: bool) -> tuple[Game, list]:
    """Play until seat 1 draws the last d5 (seat 2 draws x10, seat 0 d2, seat 1 d5)."""
    v = hzy(claims={"own_peng_pao_first": on})
    deal = make_deal(hands={0: "d5", 1: "d5 d5 x10 " + PENG_WAIT}, wall="x10 d2 d5",
                     avoid={0: "x10 d2 d4 d6", 2: "x10 d2 d4 d6"}, liang="d3")
    g = Game(v, deal=deal)
    act(g, A.DISCARD, "d5")
    act(g, A.PENG, "d5")
    events = act(g, A.DISCARD, "x10")
    for _ in range(10):
        if any(e.kind in (E.DRAW, E.PAO) and e.seat == 1 for e in events):
            return g, events
        events = g.apply(Action(A.PASS, g.state.actor))
    raise AssertionError("seat 1 never drew")


def test_own_peng_pao_first_the_draw_is_paod_before_the_win():
    """hzy game.ts drawerOpts (paoFirst, 耒阳 "跑也排在胡前面"): seat 1's own d5 becomes a 跑
    on its 碰; the win with the 碰 kept is not offered, and the 跑 leaves no win."""
    g, events = own_peng_game(on=True)
    assert [(e.kind, e.seat, e.card, e.note) for e in events if e.seat == 1] == [
        (E.DRAW, 1, c("d5"), ""), (E.PAO, 1, c("d5"), "forced")]
    assert g.state.seats[1].melds == (meld("pao", "d5 d5 d5 d5"),)
    assert (g.state.phase, g.state.actor) == ("discard", 1)


def test_own_peng_pao_first_off_wins_with_the_peng_kept():
    """Today's rule (破跑胡, claims.po_pao_hu): the drawer is asked first and wins with the
    碰 kept and d4 d5 d6, 12 胡息, a 自摸."""
    g, events = own_peng_game(on=False)
    assert [(e.kind, e.seat, e.card) for e in events if e.seat == 1] == [(E.DRAW, 1, c("d5"))]
    assert g.state.options == (Action(A.HU, 1, c("d5")), Action(A.PASS, 1))
    act(g, A.HU, "d5")
    r = g.state.result
    assert (r.winner, r.huxi, r.labels) == (1, 12, ("zimo",))
    assert meld("peng", "d5 d5 d5") in [grp.meld for grp in r.decomposition.groups]


def test_own_peng_pao_first_wins_with_the_pao():
    """With the option the win is checked with the 跑 laid: 碰 d5 → 跑 (9) + 坎 d1 (6) +
    x1 x2 x3 (3) = 18 胡息 with the pair d10 d10 as 将 (the 跑 allows one)."""
    v = hzy(claims={"own_peng_pao_first": True})
    hand = [0] * 21
    for i in C("d1 d1 d1 x1 x2 x3 x4 x5 x6 x7 x8 x9 d7 d8 d9 d10 d10"):
        hand[i] += 1
    a = win_verdict(v, hand, (meld("peng", "d5 d5 d5"),), c("d5"), "self")
    assert a.win and a.huxi == 18
    assert meld("pao", "d5 d5 d5 d5") in [grp.meld for grp in a.best.groups]
