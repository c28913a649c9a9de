"""王 (wild) placement in the analysis agrees with the engine (digest G14)."""

import json

from helpers import verdict
from zipai_rules import analyze, find_variant
from zipai_rules.cards import format_cards
from zipai_rules.cli import main


def test_own_draw_onto_a_real_pair_is_a_forced_wei_without_the_king():
    """A drawn x5 onto x5 x5 makes a forced 偎 of real cards ("有偎必偎"); the 王 stays in the
    hand and cannot form a meld alone, so the hand is incomplete (not a 提 made with the 王)."""
    a = verdict(find_variant("yongzhou"), "x5 x5 K", [], "x5", "self")
    assert a.win is False and a.reason == "incomplete"


def test_king_completes_a_kan_with_a_pair_formed_by_an_own_draw():
    """x5 and a drawn x5 with a 王 are three concealed x5: a 坎 worth 3 (digest G14
    "K + pair = 坎")."""
    a = verdict(find_variant("yongzhou"), "x5 K", [], "x5", "self")
    assert [(g.meld.kind.value, g.meld.cards, g.huxi) for g in a.best.groups] == [
        ("kan", (4, 4, 4), 3)]


def test_king_in_the_won_triple_only_where_a_king_may_peng(tmp_path):
    """A discarded x5 onto x5 K: a triple holding the won card is a 碰, so a 王 makes it only
    where a 王 may 碰 (yongzhou's deck.king_rules.claims; the holder still wins only by 自摸);
    a variant whose 王 claims nothing keeps the 王 a concealed substitute (no 碰: here
    the 绞 x5 x5 K(d5))."""
    a = verdict(find_variant("yongzhou"), "x5 K", [], "x5", "discard")
    assert a.reason == "king_not_claimable"
    assert [(g.meld.kind.value, g.kings, g.huxi) for g in a.best.groups] == [
        ("peng", (4,), 1)]
    path = tmp_path / "no_king_claims.yaml"
    path.write_text("extends: yongzhou\nid: no_king_claims\nname: no king claims\n"
                    "deck: {king_rules: {claims: [], holder_wins_only_self: false}}\n",
                    encoding="utf-8")
    from zipai_rules.variant import as_variant
    b = verdict(as_variant(path), "x5 K", [], "x5", "discard")
    assert [(g.meld.kind.value, g.kings) for g in b.best.groups] == [("jiao", (14,))]  # K = d5


# --- 王 standing for a kind held elsewhere (issue 23, item 2): worked values -------------------

def _groups(a):
    return sorted((g.meld.kind.value, format_cards(g.meld.cards), format_cards(g.kings),
                   g.huxi) for g in a.best.groups)


YONGZHOU_HAND = "d7 d8 d9 d4 d5 d6 x1 x2 x3 d1 d2 d3 d2 d7 d10 d5 K"


def test_yongzhou_king_pairs_with_a_card_whose_other_copy_is_in_a_run():
    """永州 (000 §永州双王扯胡子规则 "王霸可以代替任何牌进行游戏"): 提 x9 (9) and a hand holding
    d5 twice, one in 肆伍陆: the 王 is the 将 with the other d5 (a 王 and a pair are no 坎
    when the cards are wanted elsewhere). 提 9 + 一二三 3 + 壹贰叁 6 + 贰柒拾 6 = 24."""
    a = analyze("yongzhou", YONGZHOU_HAND, ["ti=x9 x9 x9 x9"])
    assert (a.win, a.reason, a.huxi) == (True, None, 24)
    assert _groups(a) == sorted([
        ("ti", "x9 x9 x9 x9", "", 9), ("yi_er_san", "x1 x2 x3", "", 3),
        ("yi_er_san", "d1 d2 d3", "", 6), ("er_qi_shi", "d2 d7 d10", "", 6),
        ("shun", "d4 d5 d6", "", 0), ("jiang", "d5 d5", "d5", 0), ("shun", "d7 d8 d9", "", 0)])


def test_yongzhou_king_pairs_via_the_command_line(capsys):
    code = main(["analyze", "--variant", "yongzhou", "--hand", YONGZHOU_HAND,
                 "--meld", "ti=x9 x9 x9 x9", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["win"] is True and data["huxi"] == 24
    assert {"kind": "jiang", "cards": ["d5", "d5"], "huxi": 0, "place": "hand",
            "kings": ["d5"]} in data["groups"]


def test_chenzhou_wang_king_is_the_fourth_copy_of_a_held_kan():
    """郴州带王: 坎 x5 held whole (3) and x4 x6 with a 王: the 王 is a fourth x5 (伍 in
    四五六). 坎 3 + 一二三 3 + 壹贰叁 6 + 贰柒拾 6 = 18 (≥ 9: a win); without the fourth copy
    the hand is incomplete."""
    a = analyze("chenzhou_wang", "x5 x5 x5 x4 x6 K x1 x2 x3 d1 d2 d3 d2 d7 d10 x7 x8 x9 "
                "d4 d5 d6")
    assert (a.win, a.huxi) == (True, 18)
    assert ("kan", "x5 x5 x5", "", 3) in _groups(a)
    assert ("shun", "x4 x5 x6", "x5", 0) in _groups(a)


def test_chenzhou_wang_single_won_discard_and_king_make_the_triple():
    """郴州带王: d8 held once and a 王; another player discards d8: d8 d8 K is the won triple,
    scored as a 坎 under won_triple kan (6, Riversteel6/Aizipai concealed_group_xi). 6 + 一二三
    3 + 壹贰叁 6 + 贰柒拾 6 = 21 (the 绞 d8 d8 x8 would give 15)."""
    a = analyze("chenzhou_wang", "d8 K x1 x2 x3 d1 d2 d3 d2 d7 d10 x4 x5 x6 x7 x8 x9 d4 d5 d6",
                card="d8", source="discard")
    assert (a.win, a.huxi) == (True, 21)
    assert ("kan", "d8 d8 d8", "d8", 6) in _groups(a)


def test_chenzhou_wang_king_beside_a_pair_better_not_their_kan():
    """郴州带王, 提 d4 (12), the hand holding x2 and x7 twice: the 王 beside x2 x2 could make
    their 坎 (3; 15 in all), but standing for a third x7 it makes two 二七十 (3 + 3): 18."""
    a = analyze("chenzhou_wang", "x1 x2 x2 x6 x6 x7 x7 x8 x10 x10 d1 d1 d6 d6 d7 d7 K",
                ["ti=d4 d4 d4 d4"], all_decompositions=True)
    assert (a.win, a.huxi) == (True, 18)
    assert [g[1] for g in _groups(a) if g[0] == "er_qi_shi"] == ["x2 x7 x10"] * 2
    assert [g[2] for g in _groups(a) if g[2]] == ["x7"]
    kan = [d for d in a.decompositions if any(
        g.meld.kind.value == "kan" and g.kings for g in d.groups)]
    assert kan and max(d.huxi for d in kan) == 15


def test_chenzhou_wang_spreads_a_held_kan_beside_a_king():
    """郴州带王 (win.split_kan): the 坎 x5 x5 x5 spread over x3 x4 x5, x5 x6 x7 and x5 d5 d5,
    a 王 standing for the x1 of 一二三 (or for x3 in 三四五). 一二三 3 + 二七十 3 + 壹贰叁 6 +
    贰柒拾 6 + three groups of 0 = 18; with the 坎 whole, x6 and x7 lie in no group."""
    a = analyze("chenzhou_wang", "x3 x4 x5 x5 x5 x6 x7 d5 d5 d1 d2 d3 d2 d7 d10 x2 x7 x10 K "
                "x2 x3")
    assert (a.win, a.huxi) == (True, 18)
    assert ("yi_er_san", "x1 x2 x3", "x1", 3) in _groups(a)
    assert not [g for g in _groups(a) if g[0] == "kan"]
    b = analyze("chenzhou_wang", "x3 x4 x5 x5 x5 x6 x7 d5 d5 d1 d2 d3 d2 d7 d10 x2 x7 x10 K "
                "x2 x1")
    assert (b.win, b.huxi) == (True, 18)
    assert ("shun", "x3 x4 x5", "x3", 0) in _groups(b)


def test_the_king_split_memo_lives_with_the_tables_it_read():
    """The quick refusal's memo of 王 splits is kept by the tables whose masks it read (a
    memo keyed by ``id(tables)`` could hand a freed table's answers to a new one at the same
    address); the pair-free view keeps its own, since its masks differ."""
    from zipai_rules.blocks import tables_for
    from zipai_rules.cards import parse_indices
    from zipai_rules.kings import may_split

    tables = tables_for(find_variant("yongzhou").meld_huxi)
    counts = [0] * 20
    for i in parse_indices("x1 x2 x4 x5 d7 d7"):  # x1 x2 K(x3), x4 x5 K(x6), d7 d7: a 将
        counts[i] += 1
    tables.kings_memo.clear()
    view = tables.without_pairs()
    view.kings_memo.clear()
    assert may_split(tables, counts, 2) is True
    assert may_split(view, counts, 2) is False  # no 将 allowed: d7 d7 is left over
    # the view's walk was remembered by the view, not by the tables beside it
    assert False in view.kings_memo.values() and False not in tables.kings_memo.values()
