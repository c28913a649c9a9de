"""名堂 as data: facts, conditions, effects and combination, with values worked by hand."""

import pytest

from zipai_rules.analysis import Decomposition, Group
from zipai_rules.cards import parse_card
from zipai_rules.engine import Result
from zipai_rules.errors import VariantError
from zipai_rules.loader import build_variant
from zipai_rules.melds import Meld, MeldKind
from zipai_rules.mingtang import labels_of, measure
from zipai_rules.presets import raw_preset
from zipai_rules.settlement import settle


def c(token):
    return parse_card(token).index


def group(kind, tokens, place="hand"):
    return Group(Meld(MeldKind(kind), tuple(c(t) for t in tokens.split())), 0, place)


def hand(*groups):
    return Decomposition(tuple(group(*g) for g in groups), 30)


BLACK = [("shun", "d3 d4 d5"), ("jiang", "d1 d1")]
RED_14 = hand(("ti", "x2 x2 x2 x2", "table"), ("ti", "x7 x7 x7 x7", "table"),
              ("kan", "x10 x10 x10"), ("kan", "d2 d2 d2"), *BLACK)
RED_11 = hand(("ti", "x2 x2 x2 x2", "table"), ("ti", "x7 x7 x7 x7", "table"),
              ("kan", "x10 x10 x10"), ("kan", "d3 d3 d3"), *BLACK)
RED_0 = hand(("shun", "x3 x4 x5"), ("kan", "d1 d1 d1"), ("kan", "d3 d3 d3"),
             ("kan", "x9 x9 x9"), ("jiang", "x8 x8"))
RED_1 = hand(("yi_er_san", "x1 x2 x3"), ("kan", "d1 d1 d1"), ("kan", "d3 d3 d3"),
             ("kan", "x9 x9 x9"), ("jiang", "x8 x8"))

PATTERNS = [
    {"name": "da_hong", "term": "大红", "when": {"fact": "red", "at_least": 13},
     "multiply_huxi": 2, "group": "hong"},
    {"name": "xiao_hong", "term": "小红", "when": {"fact": "red", "at_least": 10},
     "add_units": 1, "group": "hong"},
    {"name": "hong_per", "when": {"fact": "red", "at_least": 11},
     "per": {"fact": "red", "above": 10, "add_units": 1}},
    {"name": "yi_dian_hong", "when": {"fact": "red", "equals": 1}, "multiply_units": 3},
    {"name": "quan_hei", "when": [{"fact": "red", "equals": 0}, {"fact": "big", "at_least": 1}],
     "add_huxi": 6},
]


def variant(mingtang=None, **scoring):
    raw = {"id": "mt_test", "name": "test", "extends": "hunan",
           "scoring": {**scoring, **({"mingtang": mingtang} if mingtang else {})}}
    return build_variant(raw, raw_preset, "<test>")


def win(dec, source="draw", labels=(), card=None, flipped="x5"):
    return Result("hu", 0, card, source, dec.huxi, dec, tuple(labels),
                  flipped=None if flipped is None else c(flipped))


def test_facts_of_a_red_hand():
    f = measure(win(RED_14))
    assert (f["red"], f["black"], f["small"], f["big"]) == (14, 5, 11, 8)
    assert (f["groups"], f["sequences"], f["sets"]) == (6, 1, 4)
    assert (f["melds_ti"], f["melds_kan"], f["melds_jiang"], f["huxi"]) == (2, 2, 1, 30)


# Hunan: units = (胡息 − 12) // 3, at least 1; 3 players, a draw win: both losers pay
@pytest.mark.parametrize("dec, huxi, units", [
    (RED_14, 60, 16 + 4),  # 大红 ×2 → 60 胡息 → 16; +1 per red above 10: +4; 小红 excluded
    (RED_11, 30, 6 + 1 + 1),  # 小红 +1, one red above 10 +1
    (RED_0, 36, 8),  # 全黑 +6 胡息 → 36 → 8
    (RED_1, 30, 18),  # 一点红 units ×3: 6 → 18
])
def test_patterns_score_by_hand(dec, huxi, units):
    s = settle(variant({"patterns": PATTERNS}), win(dec))
    assert (s.huxi, s.units, list(s.payments)) == (huxi, units, [2 * units, -units, -units])


def test_exclusive_group_keeps_the_first_listed():
    s = settle(variant({"patterns": PATTERNS}), win(RED_14))
    assert [x.term for x in s.lines if x.item in ("multiplier", "bonus")] == ["大红", "hong_per"]
    assert [x.value for x in s.lines if x.term == "hong_per"] == [4]


@pytest.mark.parametrize("stack, huxi", [("product", 180), ("sum", 150)])
def test_multipliers_stack_by_product_or_sum(stack, huxi):
    pats = [{"name": "zimo_x2", "when": {"label": "zimo"}, "multiply_huxi": 2},
            {"name": "hong_x3", "when": {"fact": "red", "at_least": 13}, "multiply_huxi": 3}]
    s = settle(variant({"stack": stack, "patterns": pats}), win(RED_14, "self", ["zimo"]))
    assert s.huxi == huxi  # 30 × 2 × 3 = 180; 30 × (2 + 3) = 150


def test_unless_excludes_by_label():
    pats = [{"name": "zimo", "when": {"label": "zimo"}, "multiply_units": 2,
             "unless": ["tianhu"]}]
    v = variant({"patterns": pats})
    assert settle(v, win(RED_0, "self", ["zimo"])).units == 12  # 30 → 6, ×2
    assert settle(v, win(RED_0, "self", ["zimo", "tianhu"])).units == 6


def test_measured_labels():
    pao = hand(("pao", "x2 x2 x2 x2", "table"), *BLACK)
    assert labels_of(win(pao, card=c("x2"))) == {"won_on_pao"}
    assert labels_of(win(pao, "self", ["zimo"], flipped=None)) == {"zimo", "haidi"}
    assert labels_of(win(pao, "discard", flipped=None)) == frozenset()
    # a 跑 made of a 坎 in the hand holds the won card too
    kan_pao = hand(("pao", "x2 x2 x2 x2", "hand"), *BLACK)
    assert labels_of(win(kan_pao, "discard", card=c("x2"))) == {"won_on_pao"}
    # a 偎 holds the won card only when it was made of one's own draw: a discarded x3 used in
    # a run beside a table 偎 of x3 kept whole is no 偎起胡
    wei = hand(("wei", "x3 x3 x3", "table"), ("shun", "x3 x4 x5", "hand"), *BLACK)
    assert labels_of(win(wei, "discard", card=c("x3"))) == frozenset()
    own = hand(("wei", "x3 x3 x3", "table"), *BLACK)
    assert labels_of(win(own, "self", ["zimo"], card=c("x3"))) == {"zimo", "won_on_wei"}


def test_king_policy():
    g = Group(Meld(MeldKind.KAN, (c("x2"),) * 3), 0, "hand", (c("x2"),))
    dec = Decomposition((g,), 0)
    assert measure(win(dec))["red"] == 3
    assert (measure(win(dec), "neither")["red"], measure(win(dec), "black")["black"]) == (2, 1)


@pytest.mark.parametrize("scoring, path", [
    ({"bonuses": [{"label": "zi_mo", "add_units": 1}]}, "scoring.bonuses[0].label"),
    ({"bonuses": [{"label": "dihu", "add_units": 1}]}, "scoring.bonuses[0].label"),
    ({"bonuses": [{"label": "zimo", "unless": ["da_hong"]}]}, "scoring.bonuses[0].unless[0]"),
    ({"mingtang": {"patterns": [{"name": "a", "when": {"fact": "reds", "at_least": 1}}]}},
     "scoring.mingtang.patterns[0].when.fact"),
    ({"mingtang": {"patterns": [{"name": "a", "when": [{"label": "xiao_qi_dui"}]}]}},
     "scoring.mingtang.patterns[0].when[0].label"),
    ({"mingtang": {"patterns": [{"name": "a", "when": {"fact": "red"}}]}},
     "scoring.mingtang.patterns[0].when"),
    ({"mingtang": {"patterns": [{"name": "a", "when": {"fact": "red", "at_least": 3,
                                                       "at_most": 2}}]}},
     "scoring.mingtang.patterns[0].when"),
    ({"mingtang": {"patterns": [{"name": "a", "when": {"label": "zimo"},
                                 "per": {"fact": "hong", "add_units": 1}}]}},
     "scoring.mingtang.patterns[0].per.fact"),
])
def test_unknown_or_impossible_names_are_errors(scoring, path):
    with pytest.raises(VariantError) as e:
        variant(**scoring)
    assert e.value.code == "semantic"
    assert path in [p for p, _ in e.value.problems]


def test_unknown_effect_is_a_schema_error():
    with pytest.raises(VariantError) as e:
        variant({"patterns": [{"name": "a", "when": {"label": "zimo"}, "times_huxi": 2}]})
    assert e.value.code == "schema"
    assert any("times_huxi" in p for p, _ in e.value.problems)


def test_dead_rules_are_refused():
    """A pattern with no effect, a per-count with nothing to add, a discarder payment where no
    discard wins, a 王 count in a deck without 王: each can never change a score."""
    from zipai_rules.errors import VariantError
    from zipai_rules.loader import build_variant
    from zipai_rules.presets import raw_preset

    def problem(extra):
        doc = {"extends": "hunan", "id": "dead", "name": "dead", "terminology": {},
               "citations": {}, **extra}
        with pytest.raises(VariantError) as info:
            build_variant(doc, raw_preset, "<dead>")
        return str(info.value)

    zimo = {"label": "zimo"}
    assert "has no effect" in problem(
        {"scoring": {"mingtang": {"patterns": [{"name": "a", "when": zimo}]}}})
    assert "needs add_units or add_huxi" in problem({"scoring": {"mingtang": {"patterns": [
        {"name": "a", "when": zimo, "per": {"fact": "red", "above": 1}}]}}})
    assert "the discarder never pays" in problem({"scoring": {"payment": {
        "discard_win": "discarder_pays_all", "discarder_pays": 3}}})
    assert "without 王" in problem({"scoring": {"mingtang": {"patterns": [
        {"name": "a", "when": {"fact": "kings", "at_least": 1}, "add_units": 1}]}}})


def test_reach_of_a_21_card_deal():
    """Hunan: a player holds at most 21 + 1 cards counting a 提 as three, so 22 + 22 // 3 = 29
    in hand plus table; the deck caps red at 6 kinds × 4 = 24 and winning_kind at 4."""
    from zipai_rules.mingtang import reach

    most = reach({"deal": {"dealer_hand": 21, "other_hand": 20},
                  "deck": {"copies": 4, "kings": 0}})
    assert (most["red"], most["black"], most["small"], most["kings"]) == (24, 29, 29, 0)
    assert (most["groups"], most["sets"], most["melds_ti"], most["melds_jiang"]) == (14, 9, 7, 14)
    assert most["winning_kind"] == 4 and "huxi" not in most
    with_kings = reach({"deal": {"dealer_hand": 15, "other_hand": 14},
                        "deck": {"copies": 4, "kings": 2}})
    assert (with_kings["red"], with_kings["kings"], with_kings["winning_kind"]) == (21, 2, 6)


@pytest.mark.parametrize(("pattern", "path", "message"), [
    ({"name": "a", "when": {"fact": "red", "at_least": 25}, "add_units": 1},
     "scoring.mingtang.patterns[0].when.at_least",
     "red 25 is above the most a winning hand can hold (24): it can never hold"),
    ({"name": "a", "when": [{"label": "zimo"}, {"fact": "black", "equals": 30}],
      "add_units": 1}, "scoring.mingtang.patterns[0].when[1].equals",
     "black 30 is above the most a winning hand can hold (29): it can never hold"),
    ({"name": "a", "when": {"fact": "winning_kind", "at_least": 5}, "add_units": 1},
     "scoring.mingtang.patterns[0].when.at_least",
     "winning_kind 5 is above the most a winning hand can hold (4): it can never hold"),
    ({"name": "a", "when": {"fact": "kings", "equals": 1}, "add_units": 1},
     "scoring.mingtang.patterns[0].when.equals",
     "counts 王 in a deck without 王: it can never hold"),
    ({"name": "a", "when": {"label": "zimo"}, "per": {"fact": "melds_ti", "above": 7,
                                                     "add_units": 1}},
     "scoring.mingtang.patterns[0].per.above",
     "melds_ti never exceeds 7 (a winning hand holds at most 7): the per-count never adds"),
])
def test_a_fact_bound_out_of_reach_is_refused(pattern, path, message):
    with pytest.raises(VariantError) as err:
        variant({"patterns": [pattern]})
    assert err.value.code == "semantic"
    assert (path, message) in err.value.problems


def test_a_fact_bound_at_its_reach_loads():
    v = variant({"patterns": [
        {"name": "a", "when": [{"fact": "red", "at_least": 24}, {"fact": "black", "equals": 29},
                               {"fact": "winning_kind", "at_least": 4}], "add_units": 1},
        {"name": "b", "when": {"label": "zimo"}, "per": {"fact": "melds_ti", "above": 6,
                                                         "add_units": 1}}]})
    assert [p.name for p in v.scoring.mingtang.patterns] == ["a", "b"]


def _count_as(base, count_as, **win):
    raw = {"id": "ca_test", "name": "test", "extends": base,
           "scoring": {"conversion": {"count_as": count_as}}}
    if win:
        raw["win"] = win
    return build_variant(raw, raw_preset, "<test>")


NO_TIANHU = {"tianhu": {"ti": 0, "kan": 0}}


def test_a_count_as_row_that_can_never_apply_is_refused():
    """衡阳十胡 (win.min_huxi 10) without its forced 天胡: no win scores 8 胡息, and counting 12
    as 9 puts a win below the threshold."""
    with pytest.raises(VariantError) as err:
        _count_as("hengyang_shihu", [[8, 15], [12, 9]], **NO_TIANHU)
    assert err.value.problems == [
        ("scoring.conversion.count_as[0][0]", "no win scores 8 胡息: win.min_huxi is 10 and no "
         "special win, 天胡 or pattern scores below it"),
        ("scoring.conversion.count_as[1][1]", "counts a win as 9 胡息, below win.min_huxi (10): "
         "a win would count as less than the threshold")]


def test_a_count_as_row_below_the_threshold_loads_where_a_win_scores_below_it():
    """A forced 天胡 (3 提 / 5 坎) wins whatever its 胡息, and so does a special win: 8 may
    apply."""
    assert _count_as("hengyang_shihu", [[8, 15]]).scoring.conversion.count_as == ((8, 15),)
    special = _count_as("hengyang_shihu", [[8, 15]], special=["two_ti"], **NO_TIANHU)
    assert special.scoring.conversion.count_as == ((8, 15),)
    assert _count_as("hengyang_shihu", [[10, 15]],
                     **NO_TIANHU).scoring.conversion.count_as == ((10, 15),)


def test_summed_multipliers_say_so():
    from zipai_rules.mingtang import Scoring

    scoring = Scoring((), {}, "sum", ("甲", "乙"))
    value, steps = scoring._multiply(21, "multiplier", [2, 3], [])
    assert value == 105
    assert [s.text for s in steps] == ["甲 +×2 (×2 in all)", "乙 +×3 (×5 in all)"]
