"""Hostile input, round 3: names that impersonate, numbers that lie, files that validate but
cannot be played, recorded or replayed, ``extends`` edge cases and command-line integers.

The refused variant files are in tests/data/hostile/ (expected.json, run by test_hostile.py)
and tests/data/bad_variants/ (test_variant_loading.py); here are the values that must still be
accepted, the largest scores a valid variant may give played end to end, and the units
(Unicode, YAML forms, CLI arguments) one at a time.
"""

from __future__ import annotations

import json
import unicodedata
from fractions import Fraction
from pathlib import Path

import pytest

from zipai_rules.bots import make_bots, play_out
from zipai_rules.cli import main
from zipai_rules.engine import Game
from zipai_rules.engine.actions import ActionKind
from zipai_rules.errors import ReplayError, VariantError
from zipai_rules.frozen import thaw
from zipai_rules.inputs import MAX_SCORE, is_default_ignorable, name_key, text_problem
from zipai_rules.loader import content_hash, read_yaml
from zipai_rules.presets import find_variant, load_preset
from zipai_rules.records import game_record, replay_file, replay_record, write_record
from zipai_rules.schemas import shipped_schema
from zipai_rules.settlement import settle
from zipai_rules.simulate import run_games, summarize
from zipai_rules.stats import _distribution, _num
from zipai_rules.variant_file import load_variant_file, variant_file_warnings
from zipai_rules.vocab import ACTION_KINDS


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, "utf-8")
    return path


def always(n: int, effect: str) -> str:
    """``n`` 名堂 that apply to every win (a win has at least 0 groups), each with ``effect``."""
    return "scoring:\n  mingtang:\n    patterns:\n" + "".join(
        f"      - {{name: p{k}, when: {{fact: groups, at_least: 0}}, {effect}}}\n"
        for k in range(n))


# --- 1. what validates plays, simulates, records and replays ------------------------------------

def test_every_integer_of_the_variant_schema_is_bounded():
    found = []

    def walk(node, path):
        if isinstance(node, dict):
            if node.get("type") == "integer":
                found.append(path)
                assert "minimum" in node and "maximum" in node, path
            for k, v in node.items():
                walk(v, f"{path}/{k}")
        elif isinstance(node, list):
            for k, v in enumerate(node):
                walk(v, f"{path}[{k}]")
    walk(shipped_schema("variant"), "")
    assert len(found) > 60


def test_a_record_holds_every_score_within_max_score():
    score = shipped_schema("record")["$defs"]["score"]
    assert (score["minimum"], score["maximum"]) == (-MAX_SCORE, MAX_SCORE) == (-2**53 + 1,
                                                                              2**53 - 1)


def test_the_largest_multipliers_a_variant_may_give_play_record_and_replay(tmp_path):
    """Six 名堂 ×100 units on every win: each loser owes the converted units × 10**12. Hunan's
    scores are bounded by 183 units (7 groups × 12 胡息 …), so 183 × 10**12 × 3 payers fits
    2**53 − 1 (9.007 × 10**15); a seventh ×100 does not and is refused."""
    path = write(tmp_path, "big.yaml", "extends: hunan\nid: big\nname: big\n"
                 + always(6, "multiply_units: 100"))
    v = load_variant_file(path)
    wins = 0
    for seed in range(1, 30):
        game = Game(v, seed=seed)
        play_out(game, make_bots(["greedy"], seed, v.players))
        s = settle(game)
        if s.winner is None:
            continue
        wins += 1
        converted = max((s.huxi - 12) // 3, 1)  # Hunan: 囤 = (胡息 − 12) // 3, at least 1
        assert s.units == converted * 100 ** 6
        record = tmp_path / f"hand{seed}.json"
        write_record(record, game, s)
        again_game, again = replay_file(record)
        assert again == s and again_game.state.result == game.state.result
        if wins == 2:
            break
    assert wins == 2
    stats = summarize(v, run_games(v, 6, seed=1), seed=1, bots=["greedy"])
    json.dumps(stats)  # plain numbers, no overflow
    assert stats["units"]["max"] is None or stats["units"]["max"] % 100 ** 6 == 0
    assert main(["validate", "--simulate", "3", str(path)]) == 0

    seven = write(tmp_path, "bigger.yaml", "extends: hunan\nid: bigger\nname: bigger\n"
                  + always(7, "multiply_units: 100"))
    with pytest.raises(VariantError) as info:
        load_variant_file(seven)
    assert info.value.code == "semantic" and info.value.problems[0][0] == "scoring"
    assert "2^53" in str(info.value)


def test_statistics_of_the_largest_scores_are_exact():
    counts = {MAX_SCORE: 2, -MAX_SCORE: 1, 7: 4}
    d = _distribution(counts)
    assert d["mean"] == round(float(Fraction(MAX_SCORE + 28, 7)), 3)
    assert (d["min"], d["max"]) == (-MAX_SCORE, MAX_SCORE)
    json.dumps(d)
    assert _num(2e12) == "2000000000000" and _num(1.5) == "1.50"  # the table keeps every digit


# --- 2. names and terms as people see them ------------------------------------------------------

@pytest.mark.parametrize("shown, key", [
    ("湖南\u200b跑胡子", "湖南跑胡子"), ("湖南\u200c跑胡子", "湖南跑胡子"),
    ("湖南\u200d跑胡子", "湖南跑胡子"), ("湖南\u2060跑胡子", "湖南跑胡子"),
    ("\ufeff湖南跑胡子", "湖南跑胡子"), ("湖南跑胡子\ufe0f", "湖南跑胡子"),
    ("湖南跑胡子\U000e0100", "湖南跑胡子"), ("湖南\u00ad跑胡子", "湖南跑胡子"),
    ("湖南\u034f跑胡子", "湖南跑胡子"), ("湖南\u180e跑胡子", "湖南跑胡子"),
    ("湖南\U000e0041跑胡子", "湖南跑胡子"), ("湖南\u3000跑胡子", "湖南跑胡子"),
    ("ｈｕｎａｎ", "hunan"), ("HUNAN", "hunan"), ("ℌunan", "hunan"), ("ﬁve", "five"),
])
def test_names_compare_as_they_show(shown, key):
    assert name_key(shown) == key


def test_default_ignorables_are_the_unicode_property():
    """Spot values of DerivedCoreProperties.txt Default_Ignorable_Code_Point (Unicode 15)."""
    ignorable = [0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180E, 0x180F,
                 0x200B, 0x200F, 0x202A, 0x202E, 0x2060, 0x2064, 0x2066, 0x206F, 0x3164, 0xFE00,
                 0xFE0F, 0xFEFF, 0xFFA0, 0x1BCA0, 0x1D173, 0xE0001, 0xE007F, 0xE0100, 0xE0FFF]
    shown = [0x0020, 0x0041, 0x00A0, 0x0600, 0x06DD, 0x070F, 0x110BD, 0xFFF9, 0xFFFB, 0x13430,
             0x2800, 0x3000, 0x738B, 0x0301]
    assert all(is_default_ignorable(chr(c)) for c in ignorable)
    assert not any(is_default_ignorable(chr(c)) for c in shown)


@pytest.mark.parametrize("text", ["\u202e胡", "a\u202ab", "a\u202db", "\u2066x\u2069",
                                  "\u2067x", "\u2068x", "x\u200e", "x\u200f", "x\u061c"])
def test_bidi_controls_are_refused(text):
    assert "bidirectional control" in (text_problem(text) or "")


@pytest.mark.parametrize("text", ["", " ", "\u3000", "\u200b", "\u200b\u200d\ufeff", "\u2800",
                                  "\u3164", "\ufe0f", "\t \n", "\u00ad", "\U000e0020"])
def test_invisible_text_is_refused(text):
    assert "shows nothing" in (text_problem(text) or "")


@pytest.mark.parametrize("text", ["mine", "王", "👨\u200d👩", "क्\u200dष", "a b", "x\u0301"])
def test_visible_text_is_accepted(text):
    assert text_problem(text) is None


def test_a_name_with_a_joiner_inside_is_its_own_name(tmp_path):
    path = write(tmp_path, "mine.yaml", "extends: hunan\nid: mine\nname: \"我的\u200d字牌\"\n")
    assert load_variant_file(path).name == "我的\u200d字牌"


def test_presets_are_found_by_the_name_they_show():
    assert find_variant("ｈｕｎａｎ") is load_preset("hunan")
    assert find_variant("湖南\u200b跑胡子") is load_preset("hunan")


@pytest.mark.parametrize("name", ["湖南\u200b跑胡子", "\ufeff湖南跑胡子", "ｈｕｎａｎ"])
def test_a_record_whose_variant_takes_a_preset_name_invisibly_is_refused(tmp_path, name):
    v = load_variant_file(write(tmp_path, "mine.yaml", "extends: hunan\nid: mine\nname: mine\n"
                                "win: {min_huxi: 12}\n"))
    game = play_out(Game(v, seed=3), make_bots(["greedy"], 3, v.players))
    record = game_record(game, settle(game))
    doc = {**thaw(record["variant"]["doc"]), "name": name}
    record["variant"] = {**record["variant"], "doc": doc, "content_hash": content_hash(doc)}
    with pytest.raises(ReplayError) as info:
        replay_record(record)
    assert info.value.code == "reserved_name" and info.value.step == 0


def test_action_kinds_of_the_vocabulary_are_the_engines():
    assert ACTION_KINDS == tuple(k.value for k in ActionKind)


def test_presets_keep_their_words_for_one_thing_in_two_roles():
    """Guilin calls 胡 and 胡息 both 胡, and 臭 and 过 both 过; Yongzhou a shun and an 二七十
    both 一句话: words of things that are no actions may repeat."""
    g = load_preset("guilin")
    assert g.term("hu") == g.term("huxi") == "胡" and g.term("chou") == g.term("pass") == "过"
    y = load_preset("yongzhou")
    assert y.term("shun") == y.term("er_qi_shi") == "一句话"


# --- 3. YAML numbers -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, path, meant", [
    ("a: 010", "a", "8"), ("a: -010", "a", "-8"), ("a: 00", "a", "0"), ("a: 0_7", "a", "7"),
    ("a: 1:30", "a", "90"), ("a: 190:20:30", "a", "685230"), ("a: [1, 1:30]", "a[1]", "90"),
    ("a: 0x1F", "a", "31"), ("a: 0b11", "a", "3"), ("a: 1_000", "a", "1000"),
    ("a: {b: +0x10}", "a.b", "16"), ("a: !!int 010", "a", "8"),
])
def test_yaml_11_integers_are_refused_at_their_path(text, path, meant):
    with pytest.raises(VariantError) as info:
        read_yaml(text)
    assert info.value.code == "schema"
    (where, message), = info.value.problems
    assert where == path and f"read as {meant}" in message


@pytest.mark.parametrize("text", ["a: 1:30.5", "a: 1_0.5", "a: yes", "a: No", "a: on",
                                  "a: OFF"])
def test_yaml_11_floats_and_booleans_are_refused(text):
    with pytest.raises(VariantError) as info:
        read_yaml(text)
    assert info.value.code == "schema" and info.value.problems[0][0] == "a"


@pytest.mark.parametrize("text, value", [
    ("a: 10", 10), ("a: 0", 0), ("a: -3", -3), ("a: +5", 5), ("a: -0", 0), ("a: true", True),
    ("a: False", False), ("a: '010'", "010"), ("a: 0o17", "0o17"), ("a: 012345678", "012345678"),
    ("a: 1e3", "1e3"), ("a: \"1:30\"", "1:30"), ("a: 1.5", 1.5),
])
def test_yaml_12_values_are_read_as_written(text, value):
    got = read_yaml(text)["a"]
    assert got == value and type(got) is type(value)


# --- 4. a win that scores less than nothing, a pattern that never applies -----------------------

def test_a_pattern_may_take_a_win_down_to_zero_units(tmp_path):
    """Hunan converts its least win (15 胡息) to 1 囤: −1 leaves 0, allowed with a warning."""
    path = write(tmp_path, "zero.yaml", "extends: hunan\nid: zero\nname: zero\n"
                 + always(1, "add_units: -1"))
    v = load_variant_file(path)
    assert any("can score 0" in w for w in variant_file_warnings(path, v))
    two = write(tmp_path, "two.yaml", "extends: hunan\nid: two\nname: two\n"
                + always(1, "add_units: -2"))
    with pytest.raises(VariantError) as info:
        load_variant_file(two)
    assert "a win could score -1 units" in str(info.value)


def test_of_an_exclusive_group_only_the_most_negative_pattern_counts(tmp_path):
    path = write(tmp_path, "group.yaml", "extends: hunan\nid: group\nname: group\n"
                 "scoring:\n  mingtang:\n    patterns:\n"
                 "      - {name: a, when: {label: zimo}, add_units: -1, group: g}\n"
                 "      - {name: b, when: {label: haidi}, add_units: -1, group: g}\n")
    load_variant_file(path)  # at most one of a and b applies: 1 − 1 = 0


def test_a_weaker_pattern_listed_first_in_its_group_warns(tmp_path):
    path = write(tmp_path, "red.yaml", "extends: hunan\nid: red\nname: red\n"
                 "scoring:\n  mingtang:\n    patterns:\n"
                 "      - {name: hong_hu, when: {fact: red, at_least: 10}, add_units: 1,"
                 " group: h}\n"
                 "      - {name: da_hong, when: {fact: red, at_least: 13}, add_units: 3,"
                 " group: h}\n"
                 "      - {name: hei, when: {fact: red, equals: 0}, add_units: 2, group: h}\n")
    warnings = variant_file_warnings(path)
    assert [w for w in warnings if "never applies" in w] == [
        "scoring.mingtang.patterns[1] (da_hong) never applies: patterns[0] (hong_hu), listed "
        "before it in the group h, holds whenever it does, and only the first listed pattern "
        "of a group applies; list da_hong first if it is to win over hong_hu"]


def test_the_stronger_pattern_listed_first_does_not_warn(tmp_path):
    path = write(tmp_path, "red.yaml", "extends: hunan\nid: red\nname: red\n"
                 "scoring:\n  mingtang:\n    patterns:\n"
                 "      - {name: da_hong, when: {fact: red, at_least: 13}, add_units: 3,"
                 " group: h}\n"
                 "      - {name: hong_hu, when: {fact: red, at_least: 10}, add_units: 1,"
                 " group: h}\n"
                 "      - {name: zimo_hong, when: [{label: zimo}, {fact: red, at_least: 10}],"
                 " unless: [tianhu], add_units: 1}\n")
    assert not [w for w in variant_file_warnings(path) if "never applies" in w]


# --- 5. extends and file edge cases --------------------------------------------------------------

def test_a_symbolic_link_loop_as_the_parent_is_a_clean_error(tmp_path, capsys):
    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    path = write(tmp_path, "mine.yaml", "extends: a.yaml\nid: mine\nname: mine\n")
    with pytest.raises(VariantError) as info:
        load_variant_file(path)
    assert info.value.code == "unreadable" and str(info.value).startswith(str(path))
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_a_nul_byte_in_a_path_given_to_the_api_is_a_clean_error():
    for name in ("a\0b.yaml", Path("a\0b.yaml")):
        with pytest.raises(VariantError) as info:
            load_variant_file(name)
        assert info.value.code == "unreadable"


# --- 7. command-line integers --------------------------------------------------------------------

BAD_INTEGERS = ["١٢٣", "１２", "1_000", "+5", " 5", "5 ", "0x10", "1e3", "", "5.0", "²", "Ⅻ",
                "9" * 400]


@pytest.mark.parametrize("argv", [
    ["play", "--seed"], ["play", "--dealer"], ["play", "--hands"], ["play", "--seat"],
    ["simulate", "--games"], ["simulate", "--seed"], ["simulate", "--jobs"],
    ["validate", "x.yaml", "--simulate"], ["bench", "--hands"], ["--max-bytes"],
    ["--max-nodes"],
])
@pytest.mark.parametrize("value", BAD_INTEGERS)
def test_integer_arguments_are_ascii_decimal_digits(capsys, argv, value):
    with pytest.raises(SystemExit) as exit_:
        main([*argv, value, *(["variants"] if argv[0].startswith("--") else [])])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "error: argument" in err and ("not an integer" in err or "digits" in err)


@pytest.mark.parametrize("argv", [["play", "--bots", ""], ["play", "--bots", ","],
                                  ["simulate", "--bots", "greedy,,random"],
                                  ["play", "--bots", "greedy,"], ["play", "--human", ""],
                                  ["play", "--human", "0,"], ["bench", "--memory", ""],
                                  ["bench", "--memory-jobs", "1,,2"],
                                  ["bench", "--memory", "1, ,2"]])
def test_an_empty_list_or_item_is_an_error(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and "empty" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["١", "1,٢", "1_0", "0x1", "1,+2"])
def test_integer_lists_are_ascii_decimal_digits(capsys, value):
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--memory", value])
    assert exit_.value.code == 2 and "not an integer" in capsys.readouterr().err


def test_a_plain_integer_and_bot_list_still_work(capsys):
    assert main(["play", "--seed", "0012", "--bots", " random , greedy ", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seed"] == 12


def test_a_unicode_digit_is_not_a_decimal_to_python_either():
    """The oracle: Python's int() takes these, so they had silently become numbers."""
    assert int("١٢٣") == 123 and int("1_000") == 1000 and unicodedata.digit("١") == 1


@pytest.mark.parametrize("table", [True, None, 1.5, 3, float("nan"), object(), b"peng=x1 x1 x1",
                                   {"peng": "x1 x1 x1"}])
def test_analyze_refuses_a_table_that_is_no_list_of_melds(table):
    """A table of ``None``, a number or an object was ``TypeError: 'int' object is not
    iterable``; now :class:`MeldError` naming the argument."""
    from zipai_rules import analyze
    from zipai_rules.errors import MeldError

    with pytest.raises(MeldError, match="is not a list of melds"):
        analyze("hunan", "x1 x2 x3", table)


def test_analyze_refuses_a_source_that_is_no_string():
    """An array as the source was NumPy's ``ValueError`` (an ambiguous truth value)."""
    np = pytest.importorskip("numpy")
    from zipai_rules import analyze
    from zipai_rules.errors import HandError

    for source in (np.zeros(3), ["draw"], 1):
        with pytest.raises(HandError) as refused:
            analyze("hunan", "x1 x2 x3", (), 4, source)
        assert refused.value.code == "bad_source"


def test_analyze_refuses_an_incoming_card_of_no_card_type():
    """A float, bytes or a list as the incoming card is a CardError in both builds (the
    compiled build checks a parameter's declared type first, so ``card`` is typed as any
    value and refused by ``card_index``)."""
    from zipai_rules import analyze
    from zipai_rules.errors import CardError

    for card in (4.0, b"x4", ["x4"]):
        with pytest.raises(CardError):
            analyze("hunan", "x1 x2 x3", (), card, "draw")


def test_observation_from_json_refuses_what_is_no_json_object():
    """A NumPy scalar or array given as the JSON was an ``IndexError``; now
    ``bad_observation``, as for any other malformed observation."""
    np = pytest.importorskip("numpy")
    from zipai_rules.engine.observation import Observation, TableView
    from zipai_rules.errors import RecordError

    for data in (np.int64(3), np.zeros(3), [1, 2], "hand", None):
        for cls in (Observation, TableView):
            with pytest.raises(RecordError) as refused:
                cls.from_json(data)
            assert refused.value.code == "bad_observation"
