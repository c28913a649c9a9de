"""郴州 at the win (docs/regional-sources.md §3.3; Riversteel6/Aizipai): one's own kept draw
onto a pair is no locked 坎 (it is checked for the win before its forced 偎,
``chenzhou_zipai_ai/ai/full_game_simulator.py`` ``_continue_play``); a 坎 may be split at the
win (``win.split_kan``: ``chenzhou_zipai_ai/engine/hu_checker.py`` ``_solve_grouping_counts``
tries every split of all the cards); a 坎 of a card blocks its 吃 (``claims.kan_blocks_chi``:
``chenzhou_zipai_ai/engine/chi_rules.py`` ``enumerate_chi_plans``).

The oracle below enumerates the splits of a hand by its own meld shapes and 胡息 (郴州:
一二三 and 二七十 3/6, a three of a kind 3/6, other groups 0; no 一五十), sharing no code with
the library.
"""

from __future__ import annotations

import functools
import json
import random

import pytest

from helpers import act, c, make_deal, pass_all, self_win_asked
from zipai_rules import analyze, find_variant
from zipai_rules.cards import parse_indices
from zipai_rules.cli import main
from zipai_rules.engine import ActionKind, Game
from zipai_rules.engine.actions import EventKind
from zipai_rules.engine.claims import chi_plans
from zipai_rules.loader import build_variant
from zipai_rules.presets import raw_preset

CZ = find_variant("chenzhou")
HUNAN = find_variant("hunan")

#: item 3: the kept draw x5 onto the pair x5 x5; the three x5 spread over x3 x4 x5, x5 x6 x7
#: and x5 d5 d5. Table: 一二三 big 6 + 二七十 big 6 + 二七十 small 3 + 一二三 small 3 = 18.
KEPT_HAND = "x3 x4 x6 x7 x5 x5 d5 d5"
KEPT_TABLE = ["chi=d1 d2 d3", "chi=d2 d7 d10", "chi=x2 x7 x10", "chi=x1 x2 x3"]

#: item 5: the 坎 x5 x5 x5 spread as above, the same four groups concealed, x3 the 21st card:
#: x1 x2 x3 3 + x2 x7 x10 3 + d1 d2 d3 6 + d2 d7 d10 6 + three groups of 0 = 18. With the 坎
#: whole, x6 lies in no group (no x5 free, no x8): no split.
SPLIT_HAND = "x3 x4 x5 x5 x5 x6 x7 d5 d5 d1 d2 d3 d2 d7 d10 x2 x7 x10 x1 x2"


def kept_lock_child():
    """郴州's kept draw on a hunan child whose 坎 stay whole (win.split_kan false)."""
    return build_variant({"extends": "chenzhou", "id": "cz_lock", "name": "cz lock",
                          "win": {"split_kan": False}}, raw_preset, "test")


# --- item 3: the kept draw onto a pair ----------------------------------------------------

@pytest.mark.parametrize("variant", [CZ, kept_lock_child()], ids=["chenzhou", "locked"])
def test_kept_draw_onto_a_pair_may_spread(variant):
    a = analyze(variant, KEPT_HAND, KEPT_TABLE, "x5", "self")
    assert (a.win, a.reason, a.huxi) == (True, None, 18)
    hand = sorted((g.meld.kind.value, g.meld.cards) for g in a.best.groups if g.place == "hand")
    assert hand == sorted([("shun", (2, 3, 4)), ("shun", (4, 5, 6)), ("jiao", (4, 14, 14))])
    d = analyze(variant, KEPT_HAND, KEPT_TABLE, "x5", "discard")
    assert (d.win, d.huxi) == (True, 18)


def test_kept_draw_onto_a_pair_on_the_command_line(capsys):
    argv = ["analyze", "--variant", "chenzhou", "--hand", KEPT_HAND]
    for m in KEPT_TABLE:
        argv += ["--meld", m]
    assert main(argv + ["--card", "x5", "--from", "self", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["win"], data["reason"], data["huxi"]) == (True, None, 18)


def kept_game(variant) -> Game:
    """Seat 1 holds the 20 cards of SPLIT_HAND less a x5 plus x3 (the pair x5 x5); the dealer
    discards d9, which nobody takes; seat 1 keeps its draw x5."""
    hand = "x3 x4 x6 x7 x5 x5 d5 d5 d1 d2 d3 d2 d7 d10 x2 x7 x10 x1 x2 x3"
    deal = make_deal({0: "d9", 1: hand}, wall="x5", avoid={0: "x5 x4 x6 x3 x7 d5", 2: "x5"})
    g = Game(variant, deal=deal)
    act(g, "discard", "d9")
    pass_all(g)
    return g


@pytest.mark.parametrize("variant", [CZ, kept_lock_child()], ids=["chenzhou", "locked"])
def test_kept_draw_onto_a_pair_is_offered_the_win_before_the_wei(variant):
    g = kept_game(variant)
    assert (g.events[-1].kind, g.events[-1].card) == (EventKind.DRAW_HIDDEN, c("x5"))
    r, declined = self_win_asked(g, 1)
    assert (r.winner, r.card, r.source, r.huxi) == (1, c("x5"), "self", 18)
    assert declined.events[-1].kind == EventKind.WEI  # declined: the forced 偎, the discard
    assert (declined.actor, declined.state.phase) == (1, "discard")


# --- item 4: a 坎 of the card blocks its 吃 --------------------------------------------------

def test_kan_of_the_card_blocks_its_chi():
    hand = [0] * 21
    for i in parse_indices("x5 x5 x5 x4 x6 d9"):
        hand[i] += 1
    assert chi_plans(CZ, tuple(hand), c("x5")) == []
    plans = chi_plans(HUNAN, tuple(hand), c("x5"))
    assert [p[0].cards for p in plans] == [(3, 4, 5)]  # x4 x5 x6, the 坎 left whole
    free = build_variant({"extends": "chenzhou", "id": "cz_chi", "name": "cz chi",
                          "claims": {"kan_blocks_chi": False}}, raw_preset, "test")
    assert [p[0].cards for p in chi_plans(free, tuple(hand), c("x5"))] == [(3, 4, 5)]


@pytest.mark.parametrize("blocks", [True, False])
def test_kan_blocks_chi_in_the_engine(blocks):
    """The dealer discards x5; seat 1 (next) holds 坎 x5 and x4 x6: no 跑 on a 坎 in 郴州, no
    碰 of three; the 吃 is offered only where the 坎 does not block it."""
    variant = CZ if blocks else build_variant(
        {"extends": "chenzhou", "id": "cz_chi", "name": "cz chi",
         "claims": {"kan_blocks_chi": False}}, raw_preset, "test")
    deal = make_deal({0: "x5", 1: "x5 x5 x5 x4 x6"},
                     avoid={0: "x4 x6 x3 x7 d5", 1: "x3 x7 d5", 2: "x5 d5"})
    g = Game(variant, deal=deal)
    events = act(g, "discard", "x5")
    if blocks:  # nobody may take it: it goes to the dealer's discards, seat 1 draws
        assert [e.kind for e in events][1:3] == [EventKind.TO_DISCARDS, EventKind.DRAW_HIDDEN]
        assert not any(a.kind == ActionKind.CHI for a in g.legal_actions())
    else:
        chi = [a for a in g.legal_actions() if a.kind == ActionKind.CHI]
        assert (g.actor, g.state.phase) == (1, "respond")
        assert [a.melds[0].cards for a in chi] == [(3, 4, 5)]


# --- item 5: a 坎 split at the win ------------------------------------------------------------

def test_a_hand_wins_only_by_splitting_its_kan():
    a = analyze(CZ, SPLIT_HAND, (), "x3", "self")
    assert (a.win, a.huxi) == (True, 18)
    assert sorted((g.meld.kind.value, g.huxi) for g in a.best.groups) == sorted(
        [("yi_er_san", 3), ("er_qi_shi", 3), ("yi_er_san", 6), ("er_qi_shi", 6),
         ("shun", 0), ("shun", 0), ("jiao", 0)])
    assert analyze(CZ, SPLIT_HAND + " x3").huxi == 18  # as it stands
    h = analyze(HUNAN, SPLIT_HAND, (), "x3", "self")
    assert (h.win, h.reason) == (False, "incomplete")
    assert analyze(kept_lock_child(), SPLIT_HAND, (), "x3", "self").reason == "incomplete"


def test_a_kan_whole_still_scores_as_kan():
    """Under win.split_kan a 坎 that cannot spread (no x7 x8, no d9 beside it) is one group
    and scores as ever."""
    hand = "x9 x9 x9 x1 x2 x3 x4 x5 x6 d1 d2 d3 d4 d5 d6 d7 d8 d9 d2 d7 d10"
    a = analyze(CZ, hand)
    # whole: 坎 x9 3 + 一二三 3 + 一二三 big 6 + 二七十 big 6 = 18
    assert (a.win, a.huxi) == (True, 18)
    assert ("kan", (8, 8, 8)) in [(g.meld.kind.value, g.meld.cards) for g in a.best.groups]


# --- the oracle ------------------------------------------------------------------------------

def _groups() -> list[tuple[tuple[int, ...], int]]:
    """Every 3-card group of 郴州 with its 胡息, written out from the rules."""
    out = []
    for big in (0, 1):
        base, value = 10 * big, 3 + 3 * big
        for r in range(1, 11):
            i = base + r - 1
            out.append(((i, i, i), value))  # a three of a kind: a 坎's worth
            if r <= 8:
                out.append(((i, i + 1, i + 2), value if r == 1 else 0))
        out.append(((base + 1, base + 6, base + 9), value))  # 二七十
    for r in range(10):
        out.append(((r, r, r + 10), 0))  # 绞
        out.append(((r, r + 10, r + 10), 0))
    return out


GROUPS = _groups()


@functools.cache
def oracle(counts: tuple[int, ...]) -> int:
    """The most 胡息 of a split of every card into groups of three, -1 if none."""
    if not any(counts):
        return 0
    low = next(i for i, n in enumerate(counts) if n)
    best = -1
    for cards, value in GROUPS:
        if low not in cards:
            continue
        rest = list(counts)
        for x in cards:
            rest[x] -= 1
        if min(rest) < 0:
            continue
        sub = oracle(tuple(rest))
        if sub >= 0:
            best = max(best, sub + value)
    return best


def random_hand(rng: random.Random) -> list[int]:
    """21 cards of seven random groups (triples often), no kind four times, then sometimes
    one card changed (a hand that may not split)."""
    while True:
        counts = [0] * 20
        for cards, _ in rng.choices(GROUPS, k=7):
            for x in cards:
                counts[x] += 1
        if rng.random() < 0.4:
            out = rng.choice([i for i in range(20) if counts[i]])
            counts[out] -= 1
            counts[rng.randrange(20)] += 1
        if max(counts) <= 3:
            return counts


def test_split_kan_agrees_with_the_oracle():
    rng = random.Random(23)
    seen = {"win": 0, "split_only": 0}
    for _ in range(300):
        counts = random_hand(rng)
        hand = [i for i in range(20) for _ in range(counts[i])]
        want = oracle(tuple(counts))
        a = analyze(CZ, hand)
        assert (a.win, a.huxi if want >= 0 else -1) == (want >= 9, want), hand
        # one card as the incoming card, from one's own draw and from a discard
        card = hand[rng.randrange(21)]
        rest = list(hand)
        rest.remove(card)
        for source in ("self", "discard"):
            b = analyze(CZ, rest, (), card, source)
            assert b.win == (want >= 9) and (not b.win or b.huxi == want), (rest, card, source)
        seen["win"] += a.win
        seen["split_only"] += a.win and not analyze(kept_lock_child(), hand).win
    assert seen["win"] > 50 and seen["split_only"] > 5
