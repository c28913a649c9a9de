"""The zipai command line: play, analyze, variants, terms, validate, and bad input."""

import json
import subprocess
import sys

import pytest

from zipai_rules.cli import main

E16_TABLE = ["--meld", "wei=d7 d7 d7", "--meld", "peng=d2 d2 d2", "--meld", "chi=x1 x2 x3"]
E16_HAND = "x4 x5 x6 x2 x7 x10 x8 x9 x10 d9 d10"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_play_prints_log_and_result(capsys):
    code, out, err = run(capsys, "play", "--variant", "hunan", "--seed", "7")
    assert code == 0 and err == ""
    assert out.startswith("湖南跑胡子 (hunan), seed 7")
    assert "亮张" in out
    assert "result:" in out


def test_play_same_seed_same_log(capsys):
    first = run(capsys, "play", "--seed", "11")[1]
    second = run(capsys, "play", "--seed", "11")[1]
    assert first == second
    assert run(capsys, "play", "--seed", "12")[1] != first


def test_play_zh_prints_chinese_cards(capsys):
    out = run(capsys, "play", "--seed", "7", "--zh")[1]
    dealt = out.splitlines()[1]
    assert dealt == "  0号位 起手 21 张：一三四五六七八八八九十十壹叁陆陆陆柒玖玖拾"


def test_play_zh_speaks_the_variants_words(capsys):
    """The --zh log of seed 7 line by line against the English one: seats as 号位, the
    actions, events, melds and notes in Hunan's words (偎, 一句话, 强制, 八块), the result's
    groups and the settlement."""
    english = run(capsys, "play", "--seed", "7")[1].splitlines()
    lines = run(capsys, "play", "--seed", "7", "--zh")[1].splitlines()
    assert len(lines) == len(english)
    pairs = {e: z for e, z in zip(english, lines, strict=True)}
    assert pairs["   1. seat 0 discard d7"] == "   1. 0号位 打 柒"
    assert pairs["      seat 0 to_discards d7"] == "      0号位 入弃牌 柒"
    assert pairs["      seat 1 draw_hidden"] == "      1号位 暗摸"
    assert pairs["      seat 1 wei x9 wei(x9 x9 x9) (forced)"] == \
        "      1号位 偎 九 偎(九 九 九) (强制)"
    assert pairs["   6. seat 1 chi x3 shun(x3 x4 x5)"] == "   6. 1号位 吃 三 一句话(三 四 五)"
    assert pairs["      seat 0 pao d6 pao(d6 d6 d6 d6) (forced, 八块)"] == \
        "      0号位 跑 陆 跑(陆 陆 陆 陆) (强制，八块)"
    assert pairs["  15. seat 0 hu x3"] == "  15. 0号位 胡 三"
    assert pairs["result: seat 0 wins, 胡 (hu) on x3 from another player's draw, 18 胡息"] == \
        "结果：0号位 胡 三（他家摸出的牌），18 胡息"
    assert "  一句话  四 五 六       0  手中" in lines
    assert "  合计 18 胡息" in lines
    assert lines[lines.index("结算："):] == [
        "结算：", "  胡息  合计 18", "  囤    18 胡息 → 2 囤 [(18 − 12) // 3]",
        "  囤    1号位 付 2", "  囤    2号位 付 2", "  囤    0号位 得 4",
        "  输赢（囤）：0号位 +4，1号位 -2，2号位 -2"]
    assert not any(w in line for line in lines for w in ("seat", "discard", "draw", "total"))


def test_play_every_seed_1_to_200_finishes(capsys):
    """Issue acceptance: `zipai play --variant hunan --seed N` ends without error for 1..200."""
    for seed in range(1, 201):
        code, out, err = run(capsys, "play", "--variant", "hunan", "--seed", str(seed))
        assert code == 0, (seed, err)
        assert "\nresult: " in out, seed


def test_analyze_json_e16_drawn_win(capsys):
    """Digest E16 (b): d8 drawn by another player and shown → win with 15 胡息 (003)."""
    code, out, _ = run(capsys, "analyze", "--hand", E16_HAND, *E16_TABLE,
                       "--card", "d8", "--from", "draw", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["win"] is True and data["reason"] is None and data["huxi"] == 15
    kinds = sorted((g["kind"], tuple(g["cards"])) for g in data["groups"])
    assert kinds == sorted([("wei", ("d7", "d7", "d7")), ("peng", ("d2", "d2", "d2")),
                            ("yi_er_san", ("x1", "x2", "x3")), ("er_qi_shi", ("x2", "x7", "x10")),
                            ("shun", ("x4", "x5", "x6")), ("shun", ("x8", "x9", "x10")),
                            ("shun", ("d8", "d9", "d10"))])
    assert sum(g["huxi"] for g in data["groups"]) == 15


def test_analyze_json_e16_discard_not_allowed(capsys):
    """Digest E16 (a): a discarded d8 cannot be won on in Hunan ("任何人打出的牌都不能胡", 003)."""
    data = json.loads(run(capsys, "analyze", "--hand", E16_HAND, *E16_TABLE, "--card", "d8",
                          "--from", "discard", "--json")[1])
    assert data["win"] is False and data["reason"] == "discard_win_not_allowed"
    assert data["huxi"] == 15


def test_analyze_waits_without_card(capsys):
    data = json.loads(run(capsys, "analyze", "--hand", E16_HAND, *E16_TABLE, "--json")[1])
    assert data["win"] is False and data["reason"] == "incomplete"
    assert sorted((w["card"], w["source"], w["huxi"]) for w in data["waits"]) == [
        ("d8", "draw", 15), ("d8", "self", 15)]


def test_analyze_chinese_input_matches_ascii(capsys):
    ascii_out = run(capsys, "analyze", "--hand", "x1 x2 x3 d4 d5 d6", "--json")[1]
    zh_out = run(capsys, "analyze", "--hand", "一二三肆伍陆", "--json")[1]
    assert ascii_out == zh_out


@pytest.mark.parametrize("argv, needle", [
    (["analyze", "--hand", "x1 y2"], "unknown card token 'y2'"),
    (["analyze", "--hand", "x1 x1 x1 x1 x1"], "5 copies of x1"),
    (["analyze", "--hand", "x1", "--meld", "peng d4"], "KIND=CARDS"),
    (["analyze", "--hand", "x1", "--meld", "pong=d4 d4 d4"], "unknown meld kind 'pong'"),
    (["analyze", "--hand", "x1", "--meld", "peng=d4 d4 d5"], "is not a peng meld"),
    (["analyze", "--hand", "x1", "--card", "x2"], "--from"),
    (["analyze", "--hand", "x3 x3 x3 x3"], "must be laid down as 提"),
    (["play", "--variant", "mars"], "unknown variant 'mars'"),
])
def test_bad_input_is_one_error_line(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("error: ") and needle in err
    assert "Traceback" not in err


def test_validate_bad_yaml_type_names_path(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: hunan\nid: bad\nname: 坏\nplayers: three\n", encoding="utf-8")
    code, out, err = run(capsys, "validate", str(bad))
    assert code == 2
    assert "players: 'three' is not of type 'integer'" in err


def test_validate_preset_with_simulation(capsys):
    from zipai_rules.presets import variants_dir

    code, out, err = run(capsys, "validate", str(variants_dir() / "hunan.yaml"), "--simulate", "5")
    assert code == 0, err
    assert "valid variant hunan" in out and "simulated 5 games" in out


def test_variants_and_terms(capsys):
    out = run(capsys, "variants")[1]
    assert "hunan" in out and "湖南跑胡子" in out and "21/20" in out
    out = run(capsys, "terms", "跑胡子")[1]
    assert "repeat_quad" in out and "八块" in out


def test_terms_lists_the_patterns_own_terms(capsys, tmp_path):
    """A pattern's own ``term`` is listed after the terminology, in the patterns' order; a
    pattern without one (``hong_per``) is named through the terminology and not listed."""
    path = tmp_path / "mt.yaml"
    path.write_text(
        "id: mt_terms\nname: 名堂词\nextends: hunan\nscoring:\n  mingtang:\n    patterns:\n"
        "      - {name: xiao_hong, term: 小红, when: {fact: red, at_least: 10}, add_units: 1}\n"
        "      - {name: hong_per, when: {fact: red, at_least: 11}, per: {fact: red, above: 10,"
        " add_units: 1}}\n"
        "      - {name: da_hong, term: 大红, when: {fact: red, at_least: 13}, multiply_huxi: 2}\n",
        "utf-8")
    code, out, err = run(capsys, "terms", str(path))
    assert code == 0, err
    tail = out.split("  zimo           自摸\n", 1)[1]
    assert tail == ("名堂 (scoring.mingtang.patterns, their own term)\n"
                    "  xiao_hong      小红\n  da_hong        大红\n")
    assert "名堂" not in run(capsys, "terms", "hunan")[1]


def test_console_script_no_traceback_on_bad_card():
    """The installed entry point exits non-zero with one error line."""
    proc = subprocess.run([sys.executable, "-m", "zipai_rules.cli", "analyze", "--hand", "q9"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: unknown card token 'q9'")
    assert "Traceback" not in proc.stderr
