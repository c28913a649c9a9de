"""A win is taken with the split worth the most (``zipai_rules.worth``, docs/settlement.md
"Which split a win is taken with"): "一张牌有几种胡法时，按分数最高的那条走" (duanly/hzy
docs/RULES.md 违规罚分; packages/engine/src/game.ts execClaim case hu, which plays a claimed card
as a 跑 when winning after it pays more). The engine, ``analyze`` (with or without every
decomposition), the verdict, the waits and settlement all read the one choice; variants whose
worth grows with the 胡息 keep the split of the most 胡息.

The oracle of 衡阳红黑's worth is regional-sources §1.5 written out here, sharing no code with
the product's 名堂 and conversion."""

from __future__ import annotations

import random

import pytest

from helpers import act, c, make_deal
from zipai_rules import analyze, load_preset
from zipai_rules.analysis import by_worth, searcher, verdict, waits, win_verdict
from zipai_rules.cards import counts_of, parse_indices
from zipai_rules.cli import main
from zipai_rules.engine import ActionKind, Game, Result
from zipai_rules.melds import Meld, MeldKind
from zipai_rules.presets import preset_ids
from zipai_rules.settlement import settle
from zipai_rules.worth import BY_HUXI, ON_HUXI, ON_SPLIT, Occasion, reading

HENGYANG = load_preset("hengyang_honghei")
LEIYANG = load_preset("leiyang_tilong")

# The worked example (衡阳红黑, rules of regional-sources §1.5). Table: 碰 x10 x10 x10. Hand:
# 坎 d2 d2 d2 · x4 x5 x5 x6 x6 x7 · d6 d7 d7 d8 d8 d9 · d10 d10; another seat discards d2.
# Red cards: x7, d2 × 4, d7 × 2, d10 × 2, x10 × 3 = 12 (小红 ×3, 2 above 10: +2 敦);
# winning kind d2: 4 cards (+4 敦). Two ways to win:
#   坎 kept, d2 in d2 d7 d10: 碰 x10 1 + 坎 d2 6 + d2 d7 d10 6 + x4 x5 x6 + x5 x6 x7 + d6 d7 d8
#     + d8 d9 d10 (0 each) = 13 胡息 (the most) → (13 − 6) // 3 = 2 敦, + 4 + 2 = 8, ×3 = 24,
#     the discarder pays 3 × 24 = 72;
#   跑 d2 (the 坎 and the card): 碰 x10 1 + 跑 d2 9 + x4 x5 x6 + x5 x6 x7 + d6 d7 d8 + d7 d8 d9
#     + 将 d10 d10 (0 each) = 10 胡息, which counts as 15 → 3 敦, + 4 + 2 = 9, ×3 = 27, the
#     discarder pays 3 × 27 = 81. The win is taken with the 跑: 10 胡息, paid 81.
HAND = "x4 x5 x5 x6 x6 x7 d2 d2 d2 d6 d7 d7 d8 d8 d9 d10 d10"
TABLE = ["peng=x10 x10 x10"]


def kinds(decomposition):
    return sorted(g.meld.kind.value for g in decomposition.groups)


def paid(variant, decomposition, card, source, discarder=None, labels=()):
    """The settlement of seat 0's win with ``decomposition``."""
    r = Result("hu", 0, c(card), source, decomposition.huxi, decomposition, labels,
               discarder=discarder)
    return settle(variant, r)


def test_the_pao_route_pays_more_than_the_kan_kept():
    a = analyze(HENGYANG, HAND, TABLE, "d2", "discard")
    assert (a.win, a.reason, a.huxi) == (True, None, 10)
    assert "pao" in kinds(a.best) and "kan" not in kinds(a.best)
    assert paid(HENGYANG, a.best, "d2", "discard", 1).payments == (81, -81, 0)
    every = analyze(HENGYANG, HAND, TABLE, "d2", "discard", all_decompositions=True)
    assert (every.huxi, every.best) == (10, a.best)  # the same choice, shown first
    assert [d.huxi for d in every.decompositions] == [10, 13]
    kept = every.decompositions[1]
    assert "kan" in kinds(kept) and "er_qi_shi" in kinds(kept)
    s = paid(HENGYANG, kept, "d2", "discard", 1)
    assert (s.units, s.payments) == (24, (72, -72, 0))


def test_the_verdict_and_the_engine_decision_read_the_same_choice():
    counts = counts_of(parse_indices(HAND))
    table = (Meld(MeldKind.PENG, (c("x10"),) * 3),)
    assert verdict(HENGYANG, counts, table, c("d2"), "discard") == (True, None, 10)
    quick = win_verdict(HENGYANG, counts, table, c("d2"), "discard", explain=False)
    assert (quick.huxi, kinds(quick.best)) == (10, kinds(analyze(HENGYANG, HAND, TABLE, "d2",
                                                                  "discard").best))


def test_the_engine_wins_with_the_pao_on_a_drawn_card():
    """Seat 1 碰s the dealer's first discard x10, discards x1; seat 2 draws d2 and shows it:
    seat 1 must win (有胡必胡), with the 跑 route: 27 from each other seat, not 24."""
    deal = make_deal(hands={0: "x10", 1: HAND + " x10 x10 x1"}, wall="d2", wall_tail="x10",
                     liang="x3", avoid={0: "x1 d2 x10", 2: "x1 x2 x3 d1 x10"})
    g = Game(HENGYANG, deal=deal)
    act(g, ActionKind.DISCARD, "x10")
    act(g, ActionKind.PENG, "x10")
    act(g, ActionKind.DISCARD, "x1")
    assert (g.state.phase, g.state.actor, g.state.pending.card) == ("respond", 1, c("d2"))
    act(g, ActionKind.HU, "d2")
    r = g.state.result
    assert (r.winner, r.huxi, r.source) == (1, 10, "draw")
    assert "pao" in kinds(r.decomposition)
    s = settle(g)
    assert (s.units, s.payments) == (27, (-27, 54, -27))


def test_zipai_analyze_shows_the_split_taken(capsys):
    code = main(["analyze", "--variant", "hengyang_honghei", "--hand", HAND, "--meld", TABLE[0],
                 "--card", "d2", "--from", "discard", "--all"])
    out = capsys.readouterr().out
    assert code == 0
    assert "WIN; best 10 胡息" in out and "pao    d2 d2 d2 d2    9" in out
    assert "alternative (13)" in out


def test_waits_give_the_huxi_of_the_split_taken():
    """Before the card: d2 from a discard wins with 10 胡息 (the 跑), not 13."""
    got = {w.card: w.huxi for w in waits(HENGYANG, HAND, TABLE, "discard")}
    assert got[c("d2")] == 10


# 耒阳's 卡胡 table pays 10 胡 2 敦 and 11–15 胡 1 敦 (regional-sources §2.2): the same hand
# wins as 10 (跑, 2 敦) or 13 (坎 kept, 1 敦). Red 12: no 名堂; a drawn card: each other seat
# pays the units, 2 against 1.
def test_leiyang_ka_hu_pays_more_than_more_huxi():
    a = analyze(LEIYANG, HAND, TABLE, "d2", "draw")
    assert (a.win, a.huxi) == (True, 10)
    s = paid(LEIYANG, a.best, "d2", "draw")
    assert (s.units, s.payments) == (2, (4, -2, -2))
    every = analyze(LEIYANG, HAND, TABLE, "d2", "draw", all_decompositions=True)
    assert paid(LEIYANG, every.decompositions[1], "d2", "draw").units == 1


def test_which_presets_may_prefer_fewer_huxi():
    """Only where the scoring reads the split: 衡阳 10 counts as 15, 耒阳's table and 无胡 (by the
    胡息); 桂林/柳州's 天胡 名堂 on 提 and sets (on the split, and only for a 天胡); 宁乡 and 汉寿's
    碰碰胡/对对胡 (no 吃-shaped group) and 宁乡's 扁胡/双飘 (red groups); 湘乡's 30 胡 doubling
    and 100 胡息 hands (by the 胡息)."""
    marked = {p for p in preset_ids() if by_worth(load_preset(p))}
    assert marked == {"hengyang_honghei", "leiyang_tilong", "guilin", "liuzhou_bayi",
                      "ningxiang", "hanshou", "xiangxiang"}
    guilin = load_preset("guilin")
    assert reading(guilin, Occasion(("tianhu",))) == ON_SPLIT
    assert reading(guilin, Occasion(("zimo",))) == BY_HUXI
    assert reading(HENGYANG, Occasion()) == ON_HUXI
    assert reading(load_preset("hunan")) == BY_HUXI
    assert not searcher(load_preset("hunan")).by_worth


RED = {2, 7, 10}


def hengyang_units(huxi, cards, card, zimo):
    """regional-sources §1.5: base 敦 (h − 6) // 3 with 10 as 15; +1 per card of the winning
    kind; +1 per red above 10 (10–12 red) or above 13 (13 and more); 大红 ×5, 小红 ×3, 全黑 ×5,
    一点红 ×4; 自摸 ×2."""
    red = sum(1 for x in cards if x % 10 + 1 in RED)
    dun = ((15 if huxi == 10 else huxi) - 6) // 3 + cards.count(card)
    dun += red - 13 if red >= 13 else red - 10 if red >= 10 else 0
    times = 5 if red >= 13 else 3 if red >= 10 else 5 if red == 0 else 4 if red == 1 else 1
    return dun * times * (2 if zimo else 1)


def test_hengyang_wins_take_the_split_paid_most():
    """Seeded winning hands built of melds (a 坎 of the card's kind, a table 碰, four groups and
    a pair): the split taken is paid the most of all splits reaching 10 胡息 by the oracle,
    the most 胡息 among those paid as much, with or without every decomposition."""
    s = searcher(HENGYANG)
    groups = [m for cs in s.cands for _, _, m in cs]
    rng = random.Random(23)
    seen = differ = 0
    for _ in range(20000):
        kan, pk, pair = rng.randrange(20), rng.randrange(20), rng.randrange(20)
        counts = [0] * 21
        counts[kan] += 3
        for m in rng.sample(groups, 4):
            for x in m.cards:
                counts[x] += 1
        counts[pair] += 2
        if pk == kan or counts[pk] or max(counts[:20]) > 3 or \
                3 in [counts[i] for i in range(20) if i != kan]:
            continue
        card = rng.choice([kan, pair, rng.randrange(20)])
        source = rng.choice(["draw", "discard", "self"])
        hand = [i for i in range(20) for _ in range(counts[i])]
        if counts[card] + (card == pk) * 3 + 1 > 4:
            continue
        table = [f"peng={' '.join(['x' + str(pk + 1) if pk < 10 else 'd' + str(pk - 9)] * 3)}"]
        every = analyze(HENGYANG, hand, table, card, source, all_decompositions=True)
        if not every.win:
            continue
        seen += 1
        cards = hand + [pk] * 3 + [card]
        worth = [(hengyang_units(d.huxi, cards, card, source == "self"), d.huxi)
                 for d in every.decompositions if d.huxi >= 10]
        chosen = (hengyang_units(every.huxi, cards, card, source == "self"), every.huxi)
        assert chosen == max(worth)
        a = analyze(HENGYANG, hand, table, card, source)
        assert (a.huxi, a.best) == (every.huxi, every.best)
        differ += every.huxi != max(d.huxi for d in every.decompositions)
    assert seen >= 500 and differ >= 1  # 700 wins, one taken with fewer 胡息 (seed 23)


@pytest.mark.parametrize("preset", ["hunan", "yongzhou", "shaoyang"])
def test_plain_variants_keep_the_split_of_the_most_huxi(preset):
    """Where the worth grows with the 胡息 the split taken is the one of the most 胡息, as
    ever (seeded hands as they stand, each with every decomposition)."""
    v = load_preset(preset)
    rng = random.Random(5)
    deck = [i for i in range(20) for _ in range(4)] + [20] * v.deck.kings
    for _ in range(300):
        rng.shuffle(deck)
        hand = deck[:v.deal.other_hand]
        if 4 in counts_of(hand)[:20]:
            continue  # a 提 on the table, not a concealed hand
        a = analyze(v, hand, all_decompositions=True)
        if a.decompositions:
            assert a.huxi == a.best.huxi == max(d.huxi for d in a.decompositions)


def test_leiyang_wu_hu_pays_more_than_twelve():
    """耒阳 无胡 scores 21 (3 敦) where the same cards also split for 12 胡 (1 敦): x1 x1 d1 ·
    x2 x2 d2 · x3 x3 d3 (绞, 0) or x1 x2 x3 · x1 x2 x3 (3 + 3) · d1 d2 d3 (6); the rest x4 x5 x6
    · x7 x8 x9 · d4 d5 d6 · d7 d8 d9 (0), no pair; red 5, no 名堂. A drawn d9: 3 from each
    other seat, not 1. (hzy's huXiOf keeps the split of 12, game.ts; the rule to take the
    split paid most is its own RULES.md's.)"""
    hand = "x1 x1 d1 x2 x2 d2 x3 x3 d3 x4 x5 x6 x7 x8 x9 d4 d5 d6 d7 d8"
    a = analyze(LEIYANG, hand, (), "d9", "draw")
    assert (a.win, a.huxi, a.best.special) == (True, 21, "wu_hu")
    r = Result("hu", 0, c("d9"), "draw", a.huxi, a.best, ("wu_hu",))
    assert settle(LEIYANG, r).payments == (6, -3, -3)
    every = analyze(LEIYANG, hand, (), "d9", "draw", all_decompositions=True)
    assert [(d.huxi, d.special) for d in every.decompositions] == [(21, "wu_hu"), (12, None)]


def test_a_mingtang_on_the_cards_a_king_stands_for_reads_the_split():
    """With 王 counted as the card they stand for, a red 名堂 depends on the split."""
    from zipai_rules.loader import build_variant
    from zipai_rules.presets import raw_preset

    raw = {"extends": "yongzhou", "id": "hong_wang", "name": "红 with 王", "terminology": {},
           "citations": {}, "scoring": {"mingtang": {"patterns": [
               {"name": "hong_hu", "when": {"fact": "red", "at_least": 10}, "add_units": 2}]}}}
    v = build_variant(raw, raw_preset, "test")
    assert by_worth(v) and reading(v, Occasion()) == ON_SPLIT
    raw["scoring"]["mingtang"]["kings"] = "neither"  # a 王 is no red card: the same in all
    assert reading(build_variant(raw, raw_preset, "test"), Occasion()) == BY_HUXI
