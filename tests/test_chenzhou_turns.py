"""郴州 turn shapes (docs/regional-sources.md §3.2–3.5): the drawer keeps its draw unseen
(``claims.own_draw: kept``), one's own draw onto one's own 偎 makes 跑
(``claims.own_draw_on_wei: pao``) and a triple completed by another's card scores as a 坎
(``huxi.won_triple: kan``). Sources: Riversteel6/Aizipai
chenzhou_zipai_ai/ai/full_game_simulator.py ``_continue_play``, ``_apply_draw_auto_meld``;
chenzhou_zipai_ai/engine/hu_checker.py ``concealed_group_xi``.

The games run on children of hunan made here (threshold 9, no 亮张, wins on one's own draw and
on discards), so that only the options under test differ from the Hunan rules.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from helpers import act, c, make_deal, meld, pass_all, self_win_asked
from zipai_rules import analyze, find_variant, waits
from zipai_rules.engine import Action, ActionKind, Game
from zipai_rules.engine.actions import EventKind
from zipai_rules.engine.observation import observe
from zipai_rules.errors import VariantError
from zipai_rules.invariants import game_problem
from zipai_rules.loader import build_variant
from zipai_rules.presets import preset_ids, raw_preset

C1_HAND = "x1 x2 x3 x8 x8 x4 x5 x6 d4 d5 d6 d6 d7 d8 x10 x10 d10"
C5_HAND = "d2 d7 d10 x3 x4 x5 d3 d4 d5 x8 x9 x10 d8 d9 d10 x1 x1"


def child(claims: dict[str, Any] | None = None, huxi: dict[str, Any] | None = None,
          sources: tuple[str, ...] = ("self", "discard"), deck: dict[str, Any] | None = None,
          deal: dict[str, Any] | None = None):
    """A hunan child with a 9 胡息 threshold and no 亮张; ``claims`` / ``huxi`` / ``deck`` /
    ``deal`` overrides. A shown draw is offered to nobody's 碰/跑/吃 but the next seat's 吃
    (valid under kept)."""
    doc: dict[str, Any] = {
        "extends": "hunan", "id": "cz_test", "name": "cz test",
        "deal": {"lianzhang": False, "lianzhang_is_draw": False, **(deal or {})},
        "win": {"min_huxi": 9, "sources": list(sources)},
        "claims": {"chi_by": ["next"], "peng_on": ["discard"], "pao_on_kan": ["discard"],
                   "pao_on_wei": ["discard"], "pao_on_peng": ["discard"], **(claims or {})},
        "huxi": huxi or {}, "deck": deck or {}}
    return build_variant(doc, raw_preset, "test")


CZ = {"own_draw": "kept", "own_draw_on_wei": "pao"}


def cz():
    return child(CZ, {"won_triple": "kan"})


def groups(a) -> list[tuple[str, tuple[int, ...], int]]:
    """(kind, cards, 胡息) of each group of an analysis' best decomposition (or of a
    decomposition)."""
    d = getattr(a, "best", a)
    return sorted((g.meld.kind.value, g.meld.cards, g.huxi) for g in d.groups)


# --- defaults ----------------------------------------------------------------------------

@pytest.mark.parametrize("preset", preset_ids())
def test_presets_keep_the_defaults(preset):
    """Every preset but 郴州 keeps the defaults; 郴州 takes all three (regional-sources §3.2,
    §3.3)."""
    v = find_variant(preset)
    chenzhou = preset.startswith("chenzhou")
    assert (v.claims.own_draw, v.claims.own_draw_on_wei, v.won_triple) == (
        ("kept", "pao", "kan") if chenzhou else ("shown", "ti", "peng"))
    assert v.claims.kept is chenzhou


def test_default_own_draw_onto_own_wei_is_ti_and_won_triple_is_peng():
    """C5 under Hunan: the 提 x6 scores 9, total 15; C1 with the x8 triple as 碰 (1): 7."""
    a = analyze("hunan", C5_HAND, ["wei=x6 x6 x6"], "x6", "self")
    assert (a.win, a.huxi) == (True, 15)
    assert ("ti", (5, 5, 5, 5), 9) in groups(a)
    a = analyze(child(), C1_HAND, ["peng=d3 d3 d3"], "x8", "discard")
    assert (a.win, a.reason, a.huxi) == (False, "below_min_huxi", 7)
    assert ("peng", (7, 7, 7), 1) in groups(a)


# --- C1: won_triple kan ------------------------------------------------------------------------

def test_c1_discard_completed_triple_scores_as_kan():
    """C1: x1x2x3 3 + 碰 d3 3 + x8 triple as 坎 3 = 9, a win at 9 (7 with 碰)."""
    v = child(huxi={"won_triple": "kan"})
    a = analyze(v, C1_HAND, ["peng=d3 d3 d3"], "x8", "discard")
    assert (a.win, a.huxi) == (True, 9)
    assert ("kan", (7, 7, 7), 3) in groups(a)
    # d3 onto the 碰 is a 跑 (9 big), x8 x8 its pair: 9 + 3 = 12 either way
    assert [(w.card, w.huxi) for w in waits(v, C1_HAND, ["peng=d3 d3 d3"], "discard")] == \
        [(c("x8"), 9), (c("d3"), 12)]
    assert [(w.card, w.huxi) for w in waits(child(), C1_HAND, ["peng=d3 d3 d3"],
                                            "discard")] == [(c("d3"), 12)]


def c1_game(variant) -> Game:
    """Seat 1 holds the C1 hand with d3 d3 and d9: it 碰s the dealer's d3 and discards d9;
    seat 2 keeps its draw d1 and discards its x8."""
    deal = make_deal({0: "d3", 1: C1_HAND + " d3 d3 d9", 2: "x8"}, wall="d1",
                     avoid={0: "x8 d9 d1", 2: "d3 x8 d9 d1"})
    g = Game(variant, deal=deal)
    act(g, "discard", "d3")
    act(g, "peng", "d3")
    act(g, "discard", "d9")
    pass_all(g)
    assert (g.actor, g.state.phase) == (2, "discard")
    act(g, "discard", "x8")
    return g


def test_c1_through_the_engine():
    g = c1_game(cz())
    assert (g.actor, g.state.phase) == (1, "respond")
    act(g, "hu", "x8")
    r = g.result
    assert (r.winner, r.card, r.source, r.huxi, r.discarder) == (1, c("x8"), "discard", 9, 2)
    assert ("kan", (7, 7, 7), 3) in groups(r.decomposition)
    g = c1_game(child(CZ))  # won_triple peng: 7, no 胡 offered, the 碰 is
    assert g.actor == 1 and [a.kind for a in g.legal_actions()] == [ActionKind.PENG,
                                                                     ActionKind.PASS]


# --- C5: own_draw_on_wei pao ---------------------------------------------------------------------

@pytest.mark.parametrize("claims", [{"own_draw_on_wei": "pao"}, CZ])
def test_c5_own_draw_onto_own_wei_makes_pao(claims):
    """C5: 跑 x6 6 + d2d7d10 6 = 12 (提 would give 15), shown or kept."""
    a = analyze(child(claims), C5_HAND, ["wei=x6 x6 x6"], "x6", "self")
    assert (a.win, a.huxi) == (True, 12)
    assert ("pao", (5, 5, 5, 5), 6) in groups(a)


def c5_deal():
    return make_deal({0: "x2", 1: "x6 x6 d9 " + C5_HAND}, wall="x6 x7 x7 x6",
                     avoid={0: "x6 x7 x1 d9", 2: "x6 x7 x1 d9 x2"})


@pytest.mark.parametrize("claims, kind, huxi", [({}, EventKind.TI, 15),
                                                ({"own_draw_on_wei": "pao"}, EventKind.PAO, 12)])
def test_shown_own_draw_onto_own_wei_in_the_engine(claims, kind, huxi):
    """The draw shown (default): x6 onto x6 x6 is a forced 偎; the last x6 onto it a forced 提
    (default) or 跑, then the 自摸 check: C5's 15 or 12."""
    g = Game(child(claims), deal=c5_deal())
    act(g, "discard", "x2")
    pass_all(g)
    assert [e.kind for e in g.events[-2:]] == [EventKind.DRAW_HIDDEN, EventKind.WEI]
    act(g, "discard", "d9")
    pass_all(g)
    assert (g.actor, g.state.phase) == (1, "hu_check")
    assert (g.events[-1].kind, g.events[-1].card, g.events[-1].note) == (kind, c("x6"), "forced")
    assert g.state.plan(Action(ActionKind.HU, 1)).huxi == huxi


def c5_game(variant) -> Game:
    """Seat 1 holds x6 x6, d9 and the C5 hand; it keeps x6 (偎, discards d9); seats 2 and 0
    keep x7 and discard it; seat 1 keeps the last x6, onto its 偎."""
    g = Game(variant, deal=c5_deal())
    act(g, "discard", "x2")
    pass_all(g)
    assert (g.actor, g.state.phase) == (1, "discard")  # x6 kept, no win: 偎 laid, discard owed
    assert [e.kind for e in g.events[-2:]] == [EventKind.DRAW_HIDDEN, EventKind.WEI]
    for seat, card in ((1, "d9"), (2, "x7"), (0, "x7")):
        assert (g.actor, g.state.phase) == (seat, "discard")
        act(g, "discard", card)
        pass_all(g)
    return g


def test_kept_draw_onto_own_wei_offers_the_win_then_lays_pao():
    g = c5_game(cz())
    # seat 1 keeps x6: (a) the win, the x6 in its forced 跑 (C5: 12)
    r, declined = self_win_asked(g, 1)
    assert (r.winner, r.card, r.source, r.huxi) == (1, c("x6"), "self", 12)
    assert ("pao", (5, 5, 5, 5), 6) in groups(r.decomposition)
    # declined: the 跑 is laid; a first 提/跑 owes a discard, so no second check (step 3)
    assert declined.events[-1].kind == EventKind.PAO
    assert declined.events[-1].melds == (meld("pao", "x6 x6 x6 x6"),)
    assert (declined.actor, declined.state.phase) == (1, "discard")
    assert game_problem(declined) is None


def test_kept_draw_is_invisible_to_the_other_seats():
    g = c5_game(cz())
    assert (g.state.pending.card, g.state.pending.source) == (c("x6"), "self")
    assert observe(g.state, 1).pending == (c("x6"), "self", 1)
    for seat in (0, 2):
        view = g.observe(seat)
        assert view.pending is None and view.options == ()
        draws = [e for e in g.events_for(seat) if e.kind in (EventKind.DRAW,
                                                            EventKind.DRAW_HIDDEN)]
        # every draw is kept unseen: the others' carry no card, the seat's own its card
        assert len(draws) == 4 and all(e.kind == EventKind.DRAW_HIDDEN for e in draws)
        assert all((e.card is None) == (e.seat != seat) for e in draws)
        refusal = g.check(Action(ActionKind.PENG, seat, c("x6")))
        assert refusal is not None and refusal.code == "not_your_turn"


SECOND_TI_HAND = "d1 d1 d1 d1 x6 x6 x6 x4 x5 x1 x2 x3 d2 d7 d10 d3 d4 d5 x9 x9"


def test_draw_onto_kan_may_win_in_hand_and_a_declined_second_ti_skips_the_discard():
    """Dealt 提 d1, 坎 x6, draw x6: (a) wins with the x6 free in x4 x5 x6 beside the 坎
    (提 d1 12 + 坎 x6 3 + x1x2x3 3 + d2d7d10 6 = 24); declined, the 提 x6 is laid, the second
    提: no discard, no win (no shape of two 提 and 13 cards), and seat 2 draws. The declined
    win on the kept x6 is 臭胡 where the variant has it (hunan does), as a declined own shown
    draw is."""
    deal = make_deal({0: "x7", 1: SECOND_TI_HAND}, wall="x6",
                     avoid={0: "x6 x9", 2: "x6 x9 x7"})
    g = Game(cz(), deal=deal)
    act(g, "discard", "x7")
    pass_all(g)
    assert (g.actor, g.state.phase) == (1, "hu_check")
    win = g.state.plan(Action(ActionKind.HU, 1))
    assert win.huxi == 24 and ("kan", (5, 5, 5), 3) in groups(win)
    assert ("shun", (3, 4, 5), 0) in groups(win)
    a = analyze(cz(), SECOND_TI_HAND.replace("d1 d1 d1 d1 ", ""), ["ti=d1 d1 d1 d1"], "x6",
                "self")
    assert (a.win, a.huxi) == (True, 24)
    g.apply(Action(ActionKind.PASS, 1))
    kinds = [e.kind for e in g.events]
    k = len(kinds) - 1 - kinds[::-1].index(EventKind.PASS)
    assert [(e.kind, e.seat, e.card, e.note) for e in g.events[k:k + 4]] == [
        (EventKind.PASS, 1, None, ""), (EventKind.CHOU, 1, c("x6"), "臭胡"),  # hunan's 臭胡
        (EventKind.TI, 1, c("x6"), "forced, 八块"),
        (EventKind.DRAW_HIDDEN, 2, g.deal.wall[1], "kept unseen")]
    assert g.state.seats[1].chou_hu_marks == ((c("x6"), 12),)  # the table then: 提 d1
    assert g.actor == 2


def test_kept_king_forms_nothing_and_joins_the_hand():
    """A kept 王 with x6 x6 in hand makes no 偎: it joins the hand; the drawer discards."""
    v = child(CZ, deck={"kings": 1}, deal={"wall": 20})
    g = Game(v, deal=make_deal({0: "x2", 1: "x6 x6 d9 " + C5_HAND}, wall="K",
                               avoid={2: "x2"}, sizes=(21, 20, 20)))
    act(g, "discard", "x2")
    pass_all(g)
    assert (g.actor, g.state.phase) == (1, "discard")
    assert g.events[-1].kind == EventKind.DRAW_HIDDEN and g.events[-1].card == c("K")
    assert all(e.card is None for e in g.events_for(0) if e.kind == EventKind.DRAW_HIDDEN
               and e.seat != 0)
    assert g.state.seats[1].hand[c("K")] == 1 and g.state.seats[1].melds == ()
    assert c("K") not in [a.card for a in g.legal_actions()]


def test_random_kept_games_show_no_draw_and_keep_every_card():
    v = cz()
    for seed in range(30):
        g = Game(v, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            p = g.state.pending
            if p is not None and p.source == "self":
                assert g.state.phase == "hu_check" and g.actor == p.by
                assert all(g.observe(s).pending is None for s in range(3) if s != p.by)
            g.apply(rng.choice(g.legal_actions()))
            assert game_problem(g) is None
        assert EventKind.DRAW not in [e.kind for e in g.events]


# --- validation -------------------------------------------------------------------------------

@pytest.mark.parametrize("sources, claims, path", [
    (("discard",), {}, "win.sources"),
    (("self", "draw"), {}, "win.sources"),
    (("self",), {"peng_on": ["draw", "discard"]}, "claims.peng_on"),
    (("self",), {"pao_on_peng": ["self"]}, "claims.pao_on_peng"),
    (("self",), {"chi_by": ["self", "next"]}, "claims.chi_by"),
])
def test_kept_refuses_dead_draw_rules(sources, claims, path):
    with pytest.raises(VariantError) as info:
        child({"own_draw": "kept", **claims}, sources=sources)
    assert info.value.code == "semantic"
    assert [p for p, _ in info.value.problems] == [path]


def test_the_same_draw_rules_build_when_shown():
    v = child({"peng_on": ["draw", "discard"], "pao_on_peng": ["self"],
               "chi_by": ["self", "next"]}, sources=("self", "draw"))
    assert (v.claims.own_draw, v.claims.peng_on) == ("shown", frozenset({"draw", "discard"}))
