"""The one win decision (``analysis.win_verdict``) on the cases where ``analyze`` and the engine
used to disagree, through the API and the command line: 破跑胡 on one's own 坎 or 偎, 王
holders, situations no game reaches, and bonuses that exclude each other."""

from __future__ import annotations

import json

import pytest

from zipai_rules import HandError, analyze, find_variant, preset_ids, waits
from zipai_rules.cards import parse_indices
from zipai_rules.cli import main

TWENTY = [p for p in preset_ids() if find_variant(p).deal.other_hand == 20]
FOURTEEN = [p for p in preset_ids() if find_variant(p).deal.other_hand == 14]

# 破跑胡 (003_5cd7634dfd57d897.txt
# "当玩家自己或其他玩家跑牌时，正好这只牌是自己要胡的，可以胡，称为破跑胡 （即胡牌优先于跑牌）"; 000
# Yongzhou 撇跑胡): another seat's x6 would make the 坎 x6 a 跑, which strands x5 x7; kept whole,
# the 坎 scores 3 and x6 joins [x5 x6 x7].
PO_HAND = "x6 x6 x6 x5 x7 d4 d5 d6 x1 x2 x3"
PO_TABLE = ["chi=d1 d2 d3", "peng=d10 d10 d10", "chi=x2 x7 x10"]


def test_every_preset_is_covered():
    assert sorted(TWENTY + FOURTEEN) == sorted(preset_ids())


@pytest.mark.parametrize("preset", TWENTY)
@pytest.mark.parametrize("source", ["draw", "discard"])
def test_po_pao_hu_on_a_concealed_kan(preset, source):
    """坎 x6 3 + 一二三 3 + 五六七 0 + 肆伍陆 0 + table (壹贰叁 6, 碰 拾 3, 二七十 3) = 18."""
    v = find_variant(preset)
    a = analyze(v, PO_HAND, PO_TABLE, "x6", source)
    if source not in v.win.sources:
        assert (a.win, a.reason, a.huxi) == (False, f"{source}_win_not_allowed", 18)
        return
    assert (a.win, a.reason, a.huxi) == (True, None, 18)
    groups = {(g.meld.kind.value, g.meld.cards, g.place) for g in a.best.groups}
    assert ("kan", tuple(parse_indices("x6 x6 x6")), "hand") in groups
    assert ("shun", tuple(parse_indices("x5 x6 x7")), "hand") in groups


@pytest.mark.parametrize("preset", TWENTY)
def test_po_pao_hu_on_a_table_wei_agrees_with_the_kan(preset):
    """The same cards with the triple as a 偎 on the table: the same verdict (偎 x6 3 胡息)."""
    v = find_variant(preset)
    src = "draw" if "draw" in v.win.sources else "discard"  # 郴州: drawn cards are not won on
    kan = analyze(v, PO_HAND, PO_TABLE, "x6", src)
    wei = analyze(v, "x5 x7 d4 d5 d6 x1 x2 x3", PO_TABLE + ["wei=x6 x6 x6"], "x6", src)
    assert (wei.win, wei.huxi) == (kan.win, kan.huxi) == (True, 18)


@pytest.mark.parametrize("preset", FOURTEEN)
def test_po_pao_hu_in_the_fourteen_card_games(preset):
    """坎 x6 3 + 一二三 3 + 0 + 0 + table 偎 拾 6 = 12 (≥ 6, 10 and 碰胡's none)."""
    a = analyze(find_variant(preset), PO_HAND, ["wei=d10 d10 d10"], "x6", "draw")
    assert (a.win, a.huxi) == (True, 12)


def test_po_pao_hu_option_off():
    from zipai_rules.loader import build_variant
    from zipai_rules.presets import raw_preset

    v = build_variant({"extends": "hunan", "id": "no_po", "name": "no 破跑胡",
                       "claims": {"po_pao_hu": False}, "terminology": {}, "citations": {}},
                      raw_preset, "<test>")
    a = analyze(v, PO_HAND, PO_TABLE, "x6", "draw")
    assert (a.win, a.reason) == (False, "incomplete")


# 王 holders win only by 自摸 ("手中有王霸的玩家，只能自摸", 000 §永州双王扯胡子规则)
K_HAND = "K x7 x8 d8 d8 d8 x9 x9 d9 d2 d7"
K_TABLE = ["peng=x4 x4 x4", "chi=x1 x2 x3", "wei=x5 x5 x5"]


def test_king_holder_wins_only_on_own_draw():
    v = find_variant("yongzhou")
    own = analyze(v, K_HAND, K_TABLE, "d10", "self")
    assert (own.win, own.huxi) == (True, 19)
    other = analyze(v, K_HAND, K_TABLE, "d10", "draw")
    assert (other.win, other.reason, other.huxi) == (False, "king_not_claimable", 19)
    assert waits(v, K_HAND, K_TABLE, "draw") == []
    assert waits(v, K_HAND, K_TABLE, "discard") == []
    assert [(w.card, w.huxi) for w in waits(v, K_HAND, K_TABLE, "self")] == [
        (parse_indices(t)[0], 19) for t in ("x6", "d9", "d10")]


def test_cli_king_holder(capsys):
    code = main(["analyze", "--variant", "yongzhou", "--hand", K_HAND,
                 *[x for m in K_TABLE for x in ("--meld", m)], "--card", "d10", "--from", "draw",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and (out["win"], out["reason"]) == (False, "king_not_claimable")
    main(["analyze", "--variant", "yongzhou", "--hand", K_HAND,
          *[x for m in K_TABLE for x in ("--meld", m)]])
    text = capsys.readouterr().out
    assert "from self" in text and "from draw" not in text


def test_cli_po_pao_hu(capsys):
    code = main(["analyze", "--variant", "hunan", "--hand", PO_HAND,
                 *[x for m in PO_TABLE for x in ("--meld", m)], "--card", "x6", "--from", "draw",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and (out["win"], out["reason"], out["huxi"]) == (True, None, 18)


# situations no game reaches: every win uses every card (7 方门子, 21 cards)
@pytest.mark.parametrize("hand, table, card, code", [
    ("d1 d2", ["wei=d5 d5 d5"], "d3", "impossible_count"),
    # 22 cards with one 提 and no 将: a player with a 提 holds 20 before a card
    ("x1 x2 x3 x4 x5 x6 x7 x8 x9 d1 d2 d3 d4 d5 d6 d7 d8", ["ti=x10 x10 x10 x10"], "d9",
     "too_many_cards"),
    ("x1 x2 x3 x4 x5 x6 x7 x8 x9 d1 d2 d3 d4 d5 d6", ["ti=x10 x10 x10 x10"], "d7",
     "impossible_count"),
    ("x1 x2 x3", [], None, "impossible_count"),
    ("x1 x2 x3 x4 x5 x6 x7 x8 x9 d1 d2 d3 d4 d5 d6 d7 d8 d9 x1 x2 x3", [], "x4",
     "too_many_cards"),
])
def test_impossible_situations_are_errors(hand, table, card, code):
    with pytest.raises(HandError) as err:
        analyze(find_variant("guilin"), hand, table, card, None if card is None else "discard")
    assert err.value.code == code


def test_cli_impossible_situation(capsys):
    code = main(["analyze", "--variant", "guilin", "--hand", "d1 d2", "--meld", "wei=d5 d5 d5",
                 "--card", "d3", "--from", "discard"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: 5 cards in hand and table") and "holds 20" in err


def test_waits_of_an_impossible_hand_are_an_error():
    with pytest.raises(HandError) as err:
        waits(find_variant("hunan"), "x1 x2 x3 x4", [], "draw")
    assert err.value.code == "impossible_count"


def test_every_legal_count_is_accepted():
    """Resting size before a card; that or one more as it stands (the dealer's 21)."""
    v = find_variant("hunan")
    twenty = "x1 x2 x3 x4 x5 x6 x7 x8 x9 d1 d2 d3 d4 d5 d6 d7 d8 d9 x1 x2"
    assert analyze(v, twenty, [], "x3", "draw").reason is not None
    assert analyze(v, twenty).reason is not None
    assert analyze(v, twenty + " x3").win is False  # 21 as it stands: judged, not refused
    # two 提: the resting size is 21 (八块)
    two_ti = ["ti=x10 x10 x10 x10", "ti=d10 d10 d10 d10"]
    assert analyze(v, "x1 x2 x3 x4 x5 x6 x7 x8 x9 d1 d2 d3 d4", two_ti, "d4", "draw").win


def test_a_quad_needs_its_jiang():
    """"当有跑牌或提牌后，必须有且只能有一对牌做为一方门子" (003): the 22 cards above decompose into
    melds only, which is no win, whatever the count check says."""
    from helpers import verdict

    a = verdict(find_variant("guilin"), "x1 x2 x3 x4 x5 x6 x7 x8 x9 d1 d2 d3 d4 d5 d6 d7 d8",
                ["ti=x10 x10 x10 x10"], "d9", "discard")
    assert (a.win, a.reason) == (False, "incomplete")


# wins with no card and no choice: 天胡 and the special wins, judged by the same function
# (analysis.instant_win) in the engine and in analyze
@pytest.mark.parametrize("preset, seed", [("hunan", 2857), ("penghu", 12484)])
def test_a_win_at_the_deal_is_the_win_analyze_sees(preset, seed):
    """hunan seed 2857: a forced 天胡 of 30 胡息 (five 坎, "三提五坎 … 必须天胡", 003);
    penghu seed 12484: two dealt 提蛇 (21 胡息, "2双提蛇 … 视为胡牌", 000 §碰胡规则)."""
    from zipai_rules.engine import Game

    v = find_variant(preset)
    g = Game(v, seed=seed)
    r = g.result
    assert r is not None and r.winner is not None
    seat = g.state.seats[r.winner]
    hand = [i for i, n in enumerate(seat.hand) for _ in range(n)]
    a = analyze(v, hand, seat.melds, dealt=True, dealer=r.winner == g.state.dealer)
    assert (a.win, a.huxi) == (True, r.huxi) == (True, {"hunan": 30, "penghu": 21}[preset])
    later = analyze(v, hand, seat.melds, dealer=r.winner == g.state.dealer)
    assert later.win == (preset == "penghu")  # 2 提蛇 wins whenever; 天胡 only as dealt


def test_a_special_win_after_ones_own_forced_ti():
    """penghu: seat 1's own draw of d9 makes its 坎 d9 a second 提 (2 提蛇): a win at once."""
    v = find_variant("penghu")
    a = analyze(v, "d9 d9 d9 d8", ["ti=x7 x7 x7 x7", "chi=d2 d7 d10", "chi=x3 x4 x5"],
                "d9", "self")
    assert (a.win, a.huxi, a.best.special) == (True, 27, "two_ti")
    assert analyze(v, "d9 d9 d9 d8", ["ti=x7 x7 x7 x7", "chi=d2 d7 d10", "chi=x3 x4 x5"],
                   "d9", "draw").win is False


def test_a_dealt_hand_of_a_non_dealer_waits_for_a_card():
    v = find_variant("hunan")
    hand = "x1 x2 x3 x4 x5 x6 x7 x8 x9 d1 d2 d3 d4 d5 d6 d7 d8 d9 x10 x10"
    a = analyze(v, hand, dealt=True)
    assert (a.win, a.reason) == (False, "dealt_hand")


def test_cli_dealt_tianhu(capsys):
    code = main(["analyze", "--variant", "hunan", "--dealt", "--dealer", "--hand",
                 "x5 x5 x5 x6 x10 x10 x10 d1 d2 d3 d4 d4 d4 d8 d8 d8 d9 d9 d9 d10 d10", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and (out["win"], out["huxi"], out["leftover"]) == (True, 30,
                                                                       ["x6", "d10", "d10"])
    assert out["waits"] is None


def test_cli_waits_only_for_a_hand_at_rest(capsys):
    """A hand that owes a discard (21 cards with a 提) has no waits, and no error."""
    code = main(["analyze", "--variant", "hunan", "--hand",
                 "x1 x1 x1 x2 x3 x4 x5 x6 x7 d3 d4 d6 d8 d9", "--meld", "ti=d10 d10 d10 d10",
                 "--meld", "chi=x7 x8 x9", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["waits"] is None and out["win"] is False


@pytest.mark.parametrize("bad", [1, "yes", None, 0.0])
def test_dealer_and_dealt_are_booleans(bad):
    v = find_variant("hunan")
    hand = "x1 x2 x3 x4 x5 x6 x7 x8 x9 d1 d2 d3 d4 d5 d6 d7 d8 d9 x10 x10"
    for flag in ("dealer", "dealt"):
        with pytest.raises(HandError) as info:
            analyze(v, hand, **{flag: bad})
        assert info.value.code == "bad_hand" and flag in str(info.value)
