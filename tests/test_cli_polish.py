"""The command line says what it takes: help texts, hints for variant names and files, seats,
table dealers, and the variant's own words in a match summary."""


import json

import pytest

from zipai_rules.cli import main
from zipai_rules.errors import VariantError
from zipai_rules.presets import load_preset
from zipai_rules.settlement import formula
from zipai_rules.terminal import columns
from zipai_rules.variant_file import load_variant_file


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def help_text(capsys, *argv):
    with pytest.raises(SystemExit):
        main([*argv, "-h"])
    return capsys.readouterr().out


@pytest.mark.parametrize("command", ["play", "analyze", "bench", "simulate", "serve"])
def test_variant_option_has_help_with_its_default(capsys, command):
    text = " ".join(help_text(capsys, command).split())
    assert "--variant VARIANT preset id, Chinese name or alias (see `zipai variants`)" in text
    assert "(default: hunan)" in text


def test_play_help_has_a_description_and_defaults(capsys):
    text = " ".join(help_text(capsys, "play").split())
    assert "Play one seeded hand (or with --hands N a match) with built-in bots" in text
    assert "without it a secret 128-bit seed is drawn and printed" in text  # the seed
    assert "a shorter list is repeated to fill the table" in text


def test_analyze_help_says_what_the_sources_mean(capsys):
    text = " ".join(help_text(capsys, "analyze").split())
    assert "self = the player draws it (自摸)" in text
    assert "draw = another player draws it" in text
    assert "discard = another player discards it" in text


def test_terms_and_validate_arguments_have_help(capsys):
    assert "see `zipai variants`" in " ".join(help_text(capsys, "terms").split())
    assert "a variant file ending in .yaml/.yml" in " ".join(help_text(capsys, "validate").split())


def test_variant_file_with_another_suffix_gets_a_hint(capsys, tmp_path):
    f = tmp_path / "myvar.txt"
    f.write_text("id: mine\nname: 我的\nextends: hunan\n", "utf-8")
    code, _, err = run(capsys, "play", "--variant", str(f))
    assert code == 2
    assert err.startswith(f"error: unknown variant '{f}'")
    assert err.rstrip().endswith("a variant file's name ends in .yaml or .yml")


def test_variant_folder_gets_a_hint(capsys, tmp_path):
    code, _, err = run(capsys, "analyze", "--variant", str(tmp_path), "--hand", "x1 x2 x3")
    assert code == 2
    assert err.rstrip().endswith("it is a folder; name a variant file (.yaml or .yml) in it")


def test_unknown_name_keeps_the_plain_message(capsys):
    _, _, err = run(capsys, "play", "--variant", "nonesuch")
    assert err.rstrip().endswith("shaoyang, xiangxiang, yongzhou")


def test_validate_a_preset_name_hints_that_it_takes_files(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "validate", "hunan")
    assert code == 2
    assert "validate checks a variant file ending in .yaml/.yml" in err
    assert "`zipai variants` lists the shipped presets" in err


def test_variant_file_without_an_id_is_refused(capsys, tmp_path):
    f = tmp_path / "noid.yaml"
    f.write_text("extends: hunan\nwin:\n  min_huxi: 10\n", "utf-8")
    with pytest.raises(VariantError) as caught:
        load_variant_file(f)
    assert caught.value.code == "schema"
    assert caught.value.problems == [
        ("id", "missing: a variant file gives its own id (and name), not the one of its "
               "parent 'hunan'")]
    code, out, err = run(capsys, "play", "--variant", str(f))
    assert code == 2 and out == "" and "id: missing" in err


def test_variants_lists_seats(capsys):
    out = run(capsys, "variants")[1].splitlines()
    assert out[0].split()[:4] == ["id", "name", "players", "seats"]
    rows = {line.split()[0]: line.split() for line in out[1:]}
    assert rows["penghu"][2:4] == ["3", "4"]
    assert rows["daye"][2:4] == ["3", "4"]
    assert rows["hunan"][2:4] == ["3", "3"]


@pytest.mark.parametrize(("dealer", "game_dealer", "out"), [(0, 0, 2), (1, 1, 3), (2, 1, 0),
                                                            (3, 2, 1)])
def test_play_dealer_is_a_table_seat_where_a_seat_sits_out(capsys, dealer, game_dealer, out):
    code, text, err = run(capsys, "play", "--variant", "penghu", "--dealer", str(dealer))
    assert code == 0 and err == ""
    lines = text.splitlines()
    assert f"dealer seat {game_dealer}," in lines[0]
    assert lines[1].startswith(f"  dealer table seat {dealer}, table seat {out} sits out (数醒)")


def test_play_dealer_outside_the_table_is_refused(capsys):
    code, out, err = run(capsys, "play", "--variant", "penghu", "--dealer", "4")
    assert code == 2 and out == ""
    assert err == "error: --dealer 4 is not a table seat: penghu has seats 0..3\n"
    assert run(capsys, "play", "--dealer", "3")[2] == "error: dealer seat 3 outside 0..2\n"


def test_play_dealer_1_of_penghu_plays_the_same_hand_as_before(capsys):
    from zipai_rules import find_variant
    from zipai_rules.engine import Game

    text = run(capsys, "play", "--variant", "penghu", "--dealer", "1", "--seed", "5")[1]
    deal = Game(find_variant("penghu"), seed=5, dealer=1).deal
    assert "seat 1 dealt 15" in text and f"wall {len(deal.wall)}" in text


def test_record_to_a_folder_or_missing_path_is_refused_before_the_hand(capsys, tmp_path):
    for target in (tmp_path, tmp_path / "missing" / "game.json"):
        code, out, err = run(capsys, "play", "--record", str(target))
        assert code == 2 and out == "" and "cannot write the record there" in err


def test_guilin_match_summary_uses_the_variants_word(capsys):
    out = run(capsys, "play", "--variant", "guilin", "--hands", "3", "--seed", "2")[1]
    hands = [line for line in out.splitlines() if line.startswith("  hand")]
    assert hands[0] == ("  hand   1: dealer seat 0: seat 0 wins 19 胡     payments [4, -2, -2]"
                        "  scores [4, -2, -2]")
    assert "胡息" not in "".join(hands)




@pytest.mark.parametrize(("huxi", "text"), [(18, "(18 − 12) // 3"), (14, "14 // 5 − 1"),
                                             (22, "(22 − 5) // 5 + 1"),
                                             (12, "(12 − 12) // 3, at least 1")])
def test_conversion_formula_has_no_noop_parts(huxi, text):
    conversion = {18: "hunan", 14: "guilin", 22: "shaoyang", 12: "hunan"}[huxi]
    assert formula(load_preset(conversion).scoring.conversion, huxi) == text


def test_guilin_settlement_lines_show_their_units_in_aligned_columns(capsys):
    out = run(capsys, "play", "--variant", "guilin", "--seed", "6")[1]
    result = out[out.index("result:"):].splitlines()
    assert result[1:3] == ["  特殊顺子[二七十]  er_qi_shi  d2 d7 d10    6  table",
                           "  普通顺子          shun       d5 d6 d7     0  table"]
    settlement = result[result.index("settlement:") + 1:]
    assert settlement[:4] == ["  胡    huxi        total 18",
                              "  舵    conversion  18 胡 → 2 舵 [18 // 5 − 1]",
                              "  上醒  xing        flipped x2: 上醒 x1 × 0: +0 舵",
                              "  下醒  xing        flipped x2: 下醒 x3 × 1: +1 舵"]


def test_variants_columns_align_with_chinese_names(capsys):
    out = run(capsys, "variants")[1].splitlines()
    assert out[0] == ("id                name            players  seats  deck  "
                      "hands (dealer/others)  wall  min 胡息")
    assert out[-1] == ("yongzhou          永州双王扯胡子  3        3      82    21/20"
                       "                  21    15")


def test_columns_pads_by_display_width():
    assert columns([("特殊顺子[二七十]", "a", "x"), ("碰", "bb", "y")], "  ") == [
        "  特殊顺子[二七十]  a   x", "  碰                bb  y"]
    assert columns([]) == []


def guilin_record(capsys, tmp_path, change):
    """A record of guilin seed 6 written now, then changed by ``change``."""
    f = tmp_path / "record.json"
    assert run(capsys, "play", "--variant", "guilin", "--seed", "6", "--record", str(f))[0] == 0
    doc = json.loads(f.read_text("utf-8"))
    change(doc["settlement"]["lines"])
    f.write_text(json.dumps(doc, ensure_ascii=False), "utf-8")
    return f


def test_record_with_the_former_wording_still_replays(capsys, tmp_path):
    def reword(lines):  # as zipai_rules wrote them before
        assert lines[8]["text"] == "18 胡 → 2 舵 [18 // 5 − 1]"
        lines[8]["text"] = "18 胡 → 2 舵 [(18 − 0) // 5 − 1]"
        lines[9]["text"] = "flipped x2: 上醒 x1 × 0"
    code, out, err = run(capsys, "replay", str(guilin_record(capsys, tmp_path, reword)))
    assert code == 0 and err == "" and "result and settlement confirmed" in out


def test_record_with_another_meld_text_is_still_refused(capsys, tmp_path):
    def change(lines):
        lines[0]["text"] = "peng(x1 x1 x1) (table)"
    code, _, err = run(capsys, "replay", str(guilin_record(capsys, tmp_path, change)))
    assert code == 2 and "result differs: settlement.lines[0].text" in err
