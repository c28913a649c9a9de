"""A win checked right after one's own draw made a forced 偎/提 is won on that card: the
result's ``card`` is the drawn card, so 偎起胡 / 提龙胡 (``won_on_wei`` / ``won_on_ti``) and the
winning-kind count are measured through the engine (docs/regional-sources.md §1.5: "for 提龙胡
/ 开跑胡 / 偎起胡 it is the kind just laid down, so these add 4 / 4 / 3")."""

from __future__ import annotations

from helpers import act, c, make_deal, pass_all
from zipai_rules.engine import Game
from zipai_rules.loader import build_variant
from zipai_rules.mingtang import labels_of, measure
from zipai_rules.presets import raw_preset
from zipai_rules.settlement import settle

#: seat 1: pair x9 (a 偎 on the draw of the third), 坎 d1 (6), d2 d7 d10 (6) and four plain runs:
#: with 偎 x9 (3) 15 胡息, Hunan's threshold
SEAT1 = "x9 x9 d1 d1 d1 d2 d7 d10 x4 x5 x6 x6 x7 x8 d3 d4 d5 d4 d5 d6"


def variant():
    patterns = [{"name": "wei_qi_hu", "when": [{"label": "won_on_wei"}], "add_units": 5},
                {"name": "hu_card_dun", "when": [{"fact": "huxi", "at_least": 0}],
                 "per": {"fact": "winning_kind", "add_units": 1}}]
    return build_variant({"extends": "hunan", "scoring": {"mingtang": {"patterns": patterns}}},
                         raw_preset, "child")


def test_a_win_after_a_forced_wei_is_won_on_the_drawn_card():
    v = variant()
    g = Game(v, deal=make_deal(hands={0: "x1", 1: SEAT1}, wall="x9",
                               avoid={0: "x2 x3 d1", 2: "x1 x2 x3 x9 d1"}))
    act(g, "discard", "x1")
    pass_all(g)
    assert g.state.phase == "hu_check" and g.state.actor == 1 and g.state.drawn == c("x9")
    act(g, "hu")
    r = g.state.result
    assert (r.winner, r.card, r.source, r.huxi) == (1, c("x9"), "self", 15)
    assert "won_on_wei" in labels_of(r) and measure(r)["winning_kind"] == 3
    # 15 胡息 → (15 − 12) // 3 = 1 囤; +5 (偎起胡) and +3 (three x9): 9 from each loser
    assert settle(g).payments == (-9, 18, -9)
    assert g.events[-1].card == c("x9")
