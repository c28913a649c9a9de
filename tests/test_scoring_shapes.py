"""Scoring as data, second round: group facts with ``where``, hand facts, card-dependent 胡息
(``huxi.extra``), ``per.add_multiplier``, caps, ``set_huxi`` and a 自摸 that charges nobody
(``payment.zimo: winner_only``). Every value is worked by hand in the test; the 胡息 of random
hands under ``huxi.extra`` is checked against a plain enumeration written here."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference as ref
from helpers import verdict
from test_analysis_reference import _table_meld, built_hands, dense_hands
from zipai_rules.analysis import Decomposition, Group, analyze
from zipai_rules.bots import make_bots
from zipai_rules.cards import parse_card
from zipai_rules.cli import main
from zipai_rules.drawing import seen_huxi
from zipai_rules.engine import Game, Result
from zipai_rules.errors import VariantError
from zipai_rules.invariants import payments_balance
from zipai_rules.loader import build_variant
from zipai_rules.melds import Meld, MeldKind
from zipai_rules.mingtang import filtered_facts, measure
from zipai_rules.play import play_out
from zipai_rules.presets import raw_preset
from zipai_rules.records import game_record, replay_record
from zipai_rules.settlement import settle


def c(token):
    return parse_card(token).index


def group(kind, tokens, place="hand"):
    return Group(Meld(MeldKind(kind), tuple(c(t) for t in tokens.split())), 0, place)


def hand(*groups, huxi=30):
    return Decomposition(tuple(group(*g) for g in groups), huxi)


#: a win on a discard too (Hunan wins only on draws)
DISCARD = {"sources": ["self", "draw", "discard"]}


def variant(mingtang=None, parent="hunan", huxi=None, win=None, **scoring):
    raw = {"id": "shapes", "name": "shapes", "extends": parent,
           "scoring": {**scoring, **({"mingtang": mingtang} if mingtang else {})},
           **({"huxi": huxi} if huxi else {}), **({"win": win} if win else {})}
    return build_variant(raw, raw_preset, "<test>")


def win(dec, source="draw", labels=(), card=None, discarder=None):
    return Result("hu", 0, card, source, dec.huxi, dec, tuple(labels), discarder=discarder,
                  flipped=c("x5"))


# Hunan (the parent of every test variant): units = (胡息 − 12) // 3, at least 1; three
# players; a win on a draw: both losers pay; on a discard the discarder pays for both.

# two red 坎 (x2, d7) and a red 碰 (x10) on the table; two 顺 are black, d6 d7 d8 mixed
SHUANG = hand(("kan", "x2 x2 x2"), ("kan", "d7 d7 d7"), ("peng", "x10 x10 x10", "table"),
              ("shun", "d3 d4 d5"), ("shun", "x3 x4 x5"), ("shun", "d6 d7 d8"),
              ("jiang", "x9 x9"))
ONE_RED = hand(("kan", "x2 x2 x2"), ("kan", "d8 d8 d8"), ("peng", "x9 x9 x9", "table"),
               ("shun", "d3 d4 d5"), ("shun", "x3 x4 x5"), ("shun", "d6 d7 d8"),
               ("jiang", "x6 x6"))
PIAO = {"name": "shuang_piao", "term": "双飘", "add_units": 2,
        "when": {"fact": "groups", "where": {"kind": ["kan", "wei", "peng"], "color": "red"},
                 "at_least": 2}}


def test_group_facts_with_where_count_red_sets():
    s = settle(variant({"patterns": [PIAO]}), win(SHUANG))
    # 30 胡息 → (30 − 12) // 3 = 6 囤, +2 for 双飘 (three red sets ≥ 2): 8 from each loser
    assert (s.units, list(s.payments)) == (8, [16, -8, -8])
    assert [(x.term, x.value) for x in s.lines if x.item == "bonus"] == [("双飘", 2)]
    s = settle(variant({"patterns": [PIAO]}), win(ONE_RED))
    assert (s.units, list(s.payments)) == (6, [12, -6, -6])  # one red set: no 双飘


def test_where_filters_by_color_size_and_cards():
    conds = [{"fact": "groups", "where": {"color": "black"}, "at_least": 1},
             {"fact": "groups", "where": {"color": "mixed"}, "at_least": 1},
             {"fact": "sequences", "where": {"cards": "big"}, "at_least": 1},
             {"fact": "sets", "where": {"size": 3, "color": "red"}, "at_least": 1},
             {"fact": "melds_kan", "where": {"color": "red"}, "at_least": 1},
             {"fact": "hand_groups", "where": {"kind": ["peng"]}, "at_least": 1}]
    v = variant({"patterns": [{"name": f"p{k}", "when": w, "add_units": 1}
                              for k, w in enumerate(conds)]})
    facts = measure(win(SHUANG), "as_stood_for", filtered_facts(v.scoring.patterns))
    got = [facts[key] for key in ("groups[color=black]", "groups[color=mixed]",
                                  "sequences[cards=big]", "sets[color=red;size=3]",
                                  "melds_kan[color=red]", "hand_groups[kind=peng]")]
    # black: x3 x4 x5, d3 d4 d5, x9 x9; mixed: d6 d7 d8; big 顺: d3 d4 d5, d6 d7 d8;
    # red sets of 3: x2, d7, x10; red 坎: x2, d7; a 碰 in the hand: none (it is on the table)
    assert got == [3, 1, 2, 3, 2, 0]


def test_where_counts_a_king_as_the_policy_says():
    g = Group(Meld(MeldKind.KAN, (c("x2"),) * 3), 0, "hand", (c("x2"),))  # x2 x2 + 王 as x2
    dec = Decomposition((g,), 0)
    red = (("groups", filtered_facts(variant({"patterns": [
        {"name": "a", "when": {"fact": "groups", "where": {"color": "red"}, "at_least": 1},
         "add_units": 1}]}).scoring.patterns)[0][1]),)
    key = "groups[color=red]"
    assert measure(win(dec), "as_stood_for", red)[key] == 1
    assert measure(win(dec), "red", red)[key] == 1
    assert measure(win(dec), "neither", red)[key] == 0  # the 王 counts as no colour: mixed
    assert measure(win(dec), "black", red)[key] == 0


# 耍猴: every meld on the table, one card in the hand, won by pairing it on a discard
SHUAHOU_TABLE = ["pao=x1 x1 x1 x1", "peng=d10 d10 d10", "peng=d7 d7 d7", "peng=x2 x2 x2",
                 "peng=d2 d2 d2", "peng=d5 d5 d5"]


def test_hand_facts_see_the_hand_held_only_the_jiang():
    v = variant({"patterns": [{"name": "shua_hou", "term": "耍猴", "add_units": 1,
                               "when": [{"fact": "hand_cards", "equals": 2},
                                        {"fact": "hand_groups", "equals": 1}]}]}, win=DISCARD)
    a = analyze(v, "d1", SHUAHOU_TABLE, "d1", "discard")
    # 胡息: 跑 x1 6, 碰 d10 d7 d2 d5 3 each, 碰 x2 1: 19
    assert a.win and a.huxi == 19
    facts = measure(win(a.best))
    assert (facts["hand_cards"], facts["hand_groups"]) == (2, 1)
    r = Result("hu", 0, c("d1"), "discard", a.huxi, a.best, (), discarder=1, flipped=c("x5"))
    s = settle(v, r)
    # (19 − 12) // 3 = 2, +1 耍猴 = 3; the discarder pays for both losers: 6
    assert (s.units, list(s.payments)) == (3, [6, -6, 0])
    # a 跑 made of a 坎 in the hand by the won card stays in the hand: 8 cards there
    b = analyze(v, "d1 d1 d2 d3 d4 x5 x6 x7 x10 x10 x10",
                ["peng=d7 d7 d7", "peng=d10 d10 d10", "peng=x2 x2 x2"], "x10", "discard")
    assert measure(win(b.best))["hand_cards"] == 4 + 3 + 2 + 3


HEC_EXTRA = {"extra": [{"kind": ["pao", "ti"], "ranks": [2, 7, 10], "add": 3}]}


def test_huxi_extra_adds_to_a_red_pao_everywhere():
    v = variant(huxi=HEC_EXTRA)
    pao = Meld(MeldKind.PAO, (c("x2"),) * 4)
    # Hunan 跑 6 small / 9 big, 提 9 / 12; a 跑 or 提 of 二/七/十 counts 3 more
    assert [v.meld_huxi(m) for m in (pao, Meld(MeldKind.PAO, (c("x3"),) * 4),
                                     Meld(MeldKind.TI, (c("d10"),) * 4),
                                     Meld(MeldKind.KAN, (c("x2"),) * 3))] == [9, 6, 15, 3]
    assert seen_huxi(v, MeldKind.PAO, [c("x2")] * 4, 0) == 9
    assert seen_huxi(v, MeldKind.PAO, [c("x2")], 3) == 9  # one card shown: still a 跑 of x2
    cards = ("d1 d1 d2 d3 d4 x5 x6 x7 d7 d7 d7",
             ["peng=x10 x10 x10", "peng=d10 d10 d10", "peng=x2 x2 x2"], "x10", "draw")
    plain, extra = analyze("hunan", *cards), analyze(v, *cards)
    # x10 on the table 碰 makes a 跑 of x10: 6 in Hunan, 9 here; the rest the same
    assert (plain.huxi, extra.huxi) == (16, 19)
    assert [g.huxi for g in extra.best.groups if g.meld.kind == MeldKind.PAO] == [9]
    s = settle(v, win(extra.best))
    assert s.huxi == 19 and [x.value for x in s.lines if x.item == "meld"].count(9) == 1


def test_huxi_extra_by_size_of_the_cards():
    v = variant(huxi={"extra": [{"kind": ["kan", "wei"], "cards": "big", "add": 1},
                                {"kind": ["kan"], "ranks": [5], "add": 2}]})
    kan = lambda t: Meld(MeldKind.KAN, (c(t),) * 3)  # noqa: E731
    # 坎 3 small / 6 big: d5 6 + 1 + 2, x5 3 + 2, d4 6 + 1, x4 3
    assert [v.meld_huxi(kan(t)) for t in ("d5", "x5", "d4", "x4")] == [9, 5, 7, 3]


# The plain enumeration: the reference decomposer's splits, each valued here on its own
EXTRAS = [{"kind": ["pao", "ti", "kan", "peng", "wei"], "ranks": [2, 7, 10], "add": 3},
          {"kind": ["er_qi_shi", "yi_er_san"], "cards": "big", "add": 2},
          {"kind": ["shun"], "ranks": [3, 4, 5, 6], "add": 1},
          {"kind": ["jiang"], "ranks": [10], "add": 2},
          {"kind": ["jiao"], "ranks": [1, 7], "add": 4}]


def plain_huxi(kind, cards):
    """胡息 of a meld with :data:`EXTRAS`, from the reference table and the cards' ranks."""
    value = ref.HUXI[kind][1 if sum(x >= 10 for x in cards) * 2 > len(cards) else 0]
    for e in EXTRAS:
        ranks = [x % 10 + 1 for x in cards]
        if kind in e["kind"] and all(r in e.get("ranks", range(1, 11)) for r in ranks) and (
                "cards" not in e or all((x >= 10) == (e["cards"] == "big") for x in cards)):
            value += e["add"]
    return value


@pytest.fixture(scope="module")
def extra_variant():
    return variant(huxi={"extra": EXTRAS})


@given(st.one_of(built_hands(), dense_hands()))
def test_best_huxi_with_extras_is_the_plain_enumerations(extra_variant, case):
    hand_cards, table = case
    a = verdict(extra_variant, hand_cards, [_table_meld(k, cs) for k, cs in table])
    splits = [list(table) + ms for _, ms in ref.all_decompositions(hand_cards, table)]
    best = max((sum(plain_huxi(k, cs) for k, cs in ms) for ms in splits), default=None)
    assert a.huxi == (0 if best is None else best)
    if best is not None:
        assert sum(g.huxi for g in a.best.groups) == best


# 宁乡 加红: 红胡 (10 or more red) is 2 番, each red card above 13 one more; 番 add up
RED_17 = hand(("ti", "x2 x2 x2 x2", "table"), ("ti", "x7 x7 x7 x7", "table"),
              ("kan", "x10 x10 x10"), ("kan", "d2 d2 d2"), ("er_qi_shi", "d2 d7 d10"),
              ("jiang", "d1 d1"))
HONG = {"name": "hong_hu", "term": "红胡", "when": {"fact": "red", "at_least": 10},
        "multiply_units": 2, "per": {"fact": "red", "above": 13, "add_multiplier": 1}}


def test_per_count_adds_to_a_summed_multiplier():
    s = settle(variant({"stack": "sum", "patterns": [HONG]}), win(RED_17))
    # 17 red: 2 番 + (17 − 13) × 1 = 6 番; 30 胡息 → 6 囤 × 6 = 36
    assert s.units == 36
    assert [(x.text, x.value) for x in s.lines if x.item == "unit_multiplier"] == [
        ("红胡 +×2 (×2 in all)", 12), ("红胡 +1 × 4 (×6 in all)", 36)]


def test_max_multiplier_caps_the_fan():
    s = settle(variant({"stack": "sum", "max_multiplier": 5, "patterns": [HONG]}), win(RED_17))
    assert s.units == 30  # ×6 capped at ×5: 6 × 5
    assert [(x.item, x.text, x.value) for x in s.lines if x.item == "cap"] == [
        ("cap", "×6 capped at ×5", 30)]
    product = variant({"max_multiplier": 4, "patterns": [
        {"name": "a", "when": {"fact": "red", "at_least": 1}, "multiply_huxi": 3},
        {"name": "b", "when": {"fact": "red", "at_least": 1}, "multiply_huxi": 2}]})
    s = settle(product, win(RED_17))
    assert s.huxi == 120  # ×3 × ×2 = ×6, capped at ×4: 30 × 4


def test_conversion_maximum_and_payment_caps():
    big = hand(("kan", "d3 d3 d3"), huxi=90)
    s = settle(variant(conversion={"offset": 12, "step": 3, "maximum": 20}), win(big))
    # (90 − 12) // 3 = 26, capped at 20 a hand
    assert (s.units, list(s.payments)) == (20, [40, -20, -20])
    assert [(x.text, x.value) for x in s.lines if x.item == "cap"] == [("26 capped at 20", 20)]
    s = settle(variant(payment={"max_units": 4}), win(SHUANG))
    # 30 胡息 → 6 囤, each loser pays at most 4
    assert (s.units, list(s.payments)) == (6, [8, -4, -4])
    assert [(x.text, x.value) for x in s.lines if x.item == "cap"] == [
        ("each loser's share 6 capped at 4", 4)]
    s = settle(variant(payment={"discarder_max": 10}, win=DISCARD),
               win(SHUANG, "discard", discarder=2))
    # the discarder would pay 6 for each of two losers, 12: at most 10
    assert list(s.payments) == [10, 0, -10]
    assert [x.text for x in s.lines if x.item in ("cap", "payment")] == [
        "the discarder's 12 capped at 10", "seat 2 pays 10 at most", "seat 0 gains 10"]


def test_set_huxi_counts_the_hand_as_100():
    v = variant({"patterns": [
        {"name": "bai_hu", "term": "百胡", "when": {"fact": "red", "at_least": 13},
         "set_huxi": 100},
        {"name": "plus", "when": {"fact": "red", "at_least": 1}, "add_huxi": 6}]})
    s = settle(v, win(RED_17))
    # 100 胡息, +6 → 106 → (106 − 12) // 3 = 31
    assert (s.huxi, s.units) == (106, 31)
    assert [(x.item, x.text, x.value) for x in s.lines if x.item == "huxi_set"] == [
        ("huxi_set", "百胡: counts as 100", 100)]
    s = settle(v, win(ONE_RED))
    assert (s.huxi, s.units) == (36, 8)  # no 百胡: 30 + 6 = 36 → 8


def test_winner_only_zimo_is_not_zero_sum():
    v = variant(payment={"zimo": "winner_only"})
    s = settle(v, win(SHUANG, "self", ["zimo"]))
    # 6 囤 from each of two losers, credited; nobody is charged
    assert (list(s.payments), s.credited, s.zero_sum) == ([12, 0, 0], 12, False)
    assert s.to_json()["zero_sum"] is False and s.to_json()["credited"] == 12
    assert "nobody is charged: not zero-sum" in " ".join(x.text for x in s.lines)
    assert payments_balance(s) is None
    s = settle(v, win(SHUANG))  # a draw win is no 自摸: zero-sum
    assert (list(s.payments), s.zero_sum) == ([12, -6, -6], True)
    assert "zero_sum" not in s.to_json()


def test_a_winner_only_record_replays():
    v = variant(payment={"zimo": "winner_only"})
    for seed in range(60):
        game = play_out(Game(v, seed=seed), make_bots(["greedy"], seed, v.players))
        s = settle(game)
        if not s.zero_sum:
            break
    else:
        pytest.fail("no 自摸 in 60 games")
    record = game_record(game, s)
    assert record["settlement"]["zero_sum"] is False
    assert sum(record["settlement"]["payments"]) == record["settlement"]["credited"] > 0
    replay_record(record)


SHAPES_YAML = """\
extends: hunan
id: all_shapes
name: 全部
win: {sources: [self, draw, discard]}
huxi:
  extra: [{kind: [pao, ti], ranks: [2, 7, 10], add: 3}]
scoring:
  conversion: {offset: 12, step: 3, maximum: 40}
  payment: {zimo: winner_only, max_units: 30, discarder_max: 50}
  mingtang:
    stack: sum
    max_multiplier: 8
    patterns:
      - {name: shuang_piao, add_units: 2,
         when: {fact: groups, where: {kind: [kan, wei, peng], color: red}, at_least: 2}}
      - {name: shua_hou, add_units: 1, when: {fact: hand_cards, equals: 2}}
      - {name: hong_hu, multiply_units: 2, when: {fact: red, at_least: 10},
         per: {fact: red, above: 13, add_multiplier: 1}}
      - {name: bai_hu, set_huxi: 100, when: {fact: red, at_least: 15}}
"""


def test_validate_accepts_every_shape(tmp_path, capsys):
    path = tmp_path / "shapes.yaml"
    path.write_text(SHAPES_YAML, encoding="utf-8")
    code = main(["validate", str(path), "--simulate", "5"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "valid variant all_shapes" in out


@pytest.mark.parametrize("doc, path, needle", [
    ({"scoring": {"mingtang": {"patterns": [{"name": "a", "add_units": 1, "when": {
        "fact": "groups", "where": {"color": "pink"}, "at_least": 1}}]}}},
     "scoring.mingtang.patterns[0].when.where.color", "'pink' is not one of red, black, mixed"),
    ({"scoring": {"mingtang": {"patterns": [{"name": "a", "add_units": 1, "when": [
        {"fact": "groups", "where": {"shape": 1}, "at_least": 1}]}]}}},
     "scoring.mingtang.patterns[0].when[0].where.shape", "unknown key"),
    ({"scoring": {"mingtang": {"patterns": [{"name": "a", "add_units": 1, "when": {
        "fact": "groups", "where": {"size": 5}, "at_least": 1}}]}}},
     "scoring.mingtang.patterns[0].when.where.size", "maximum of 4"),
    ({"scoring": {"mingtang": {"patterns": [{"name": "a", "add_units": 1, "when": {
        "fact": "red", "where": {"color": "red"}, "at_least": 1}}]}}},
     "scoring.mingtang.patterns[0].when.where", "not 'red'"),
    ({"scoring": {"mingtang": {"patterns": [{"name": "a", "add_units": 1, "when": {
        "fact": "sequences", "where": {"kind": ["kan"]}, "at_least": 1}}]}}},
     "scoring.mingtang.patterns[0].when.where", "always 0"),
    ({"scoring": {"mingtang": {"patterns": [{"name": "a", "add_units": 1, "when": {
        "fact": "hand_cards", "at_least": 99}}]}}},
     "scoring.mingtang.patterns[0].when.at_least", "can never hold"),
    ({"huxi": {"extra": [{"kind": ["pao"], "ranks": [11], "add": 3}]}},
     "huxi.extra[0].ranks[0]", "maximum of 10"),
    ({"huxi": {"extra": [{"kind": ["pao"], "add": 0}]}}, "huxi.extra[0].add", "minimum of 1"),
    ({"huxi": {"extra": [{"kind": ["yi_er_san"], "ranks": [5], "add": 1}]}},
     "huxi.extra[0]", "never applies"),
    ({"huxi": {"extra": [{"kind": ["jiao"], "cards": "big", "add": 1}]}},
     "huxi.extra[0]", "never applies"),
    ({"scoring": {"mingtang": {"patterns": [{"name": "a", "when": {"label": "zimo"},
                                             "per": {"fact": "red", "add_multiplier": 1}}]}}},
     "scoring.mingtang.patterns[0].per.add_multiplier", "stack: sum"),
    ({"scoring": {"mingtang": {"patterns": [{"name": "a", "when": {"label": "zimo"},
                                             "set_huxi": -1}]}}},
     "scoring.mingtang.patterns[0].set_huxi", "minimum of 0"),
    ({"scoring": {"mingtang": {"max_multiplier": -2}}}, "scoring.mingtang.max_multiplier",
     "minimum of 0"),
    ({"scoring": {"conversion": {"fixed": 3, "maximum": 2}}}, "scoring.conversion.maximum",
     "below the conversion's fixed"),
    ({"scoring": {"payment": {"discard_win": "each_loser", "discarder_max": 5}}},
     "scoring.payment.discarder_max", "only with discard_win"),
    ({"scoring": {"payment": {"max_units": 10 ** 9}}}, "scoring.payment.max_units",
     "maximum of 10000"),
    ({"scoring": {"payment": {"zimo": "nobody"}}}, "scoring.payment.zimo",
     "'nobody' is not one of losers_pay, winner_only"),
])
def test_hostile_shapes_are_refused_at_their_path(doc, path, needle):
    raw = {"id": "bad", "name": "bad", "extends": "hunan", **doc}
    with pytest.raises(VariantError) as info:
        build_variant(raw, raw_preset, "<bad>")
    assert any(p == path and needle in m for p, m in info.value.problems), info.value.problems


def test_winner_only_refuses_a_mirrored_seat_out():
    raw = {"id": "bad", "name": "bad", "extends": "penghu",
           "scoring": {"payment": {"zimo": "winner_only"}}}
    with pytest.raises(VariantError) as info:
        build_variant(raw, raw_preset, "<bad>")
    assert [p for p, _ in info.value.problems] == ["scoring.payment.zimo"]


_KINDS = [k.value for k in MeldKind]
_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 6, 10 ** 6),
                    st.sampled_from(["red", "pink", "small", "kan", "", "x" * 300]),
                    st.lists(st.one_of(st.integers(-3, 12), st.sampled_from(_KINDS + ["nope"])),
                             max_size=4))


def mostly(valid):
    """``valid`` three times in four, else a hostile value."""
    return st.integers(1, 4).flatmap(lambda k: valid if k < 4 else _VALUES)


_WHERE = mostly(st.fixed_dictionaries({
    "color": mostly(st.sampled_from(["red", "black", "mixed"]))}, optional={
    "kind": mostly(st.lists(st.sampled_from(_KINDS), min_size=1, max_size=4, unique=True)),
    "size": mostly(st.integers(2, 4)),
    "cards": mostly(st.sampled_from(["small", "big"]))}))
_EXTRA = mostly(st.fixed_dictionaries({
    "kind": st.lists(st.sampled_from(_KINDS), min_size=1, max_size=4, unique=True),
    "add": mostly(st.integers(1, 100))}, optional={
    "ranks": mostly(st.lists(st.integers(1, 10), min_size=1, max_size=4, unique=True)),
    "cards": mostly(st.sampled_from(["small", "big"]))}))
_CAP = mostly(st.integers(0, 10000))


@given(where=_WHERE, extra=_EXTRA, cap=_CAP,
       zimo=mostly(st.sampled_from(["losers_pay", "winner_only"])),
    fact=st.sampled_from(["groups", "sets", "hand_groups", "red", "hand_cards"]))
def test_random_shapes_load_or_are_refused(where, extra, fact, cap, zimo):
    raw = {"id": "fuzz", "name": "fuzz", "extends": "hunan", "huxi": {"extra": [extra]},
           "scoring": {"payment": {"zimo": zimo, "max_units": cap},
                       "mingtang": {"max_multiplier": cap, "patterns": [
                           {"name": "a", "add_units": 1,
                            "when": {"fact": fact, "where": where, "at_least": 1}}]}}}
    try:
        v = build_variant(raw, raw_preset, "<fuzz>")
    except VariantError as exc:
        assert exc.problems
        assert all(p.split(".")[0] in ("huxi", "scoring") for p, _ in exc.problems)
        return
    s = settle(v, win(SHUANG, "self", ["zimo"]))
    assert payments_balance(s) is None
    assert s.zero_sum == (zimo == "losers_pay")
    share = min(6, cap) if cap else 6  # 30 胡息 → 6 (or 7 with the pattern), each share capped
    assert s.payments[0] >= 2 * share
    assert v.meld_huxi(Meld(MeldKind.PAO, (c("x2"),) * 4)) >= 6  # a meld counts, extras on top
