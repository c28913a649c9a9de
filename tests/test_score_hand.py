"""``zipai analyze --score`` and :func:`zipai_rules.scored.score_hand`: what a chosen winning
hand scores, from the settlement's own valuation. Worked values: 衡阳红黑 H2 and H3
(docs/regional-sources.md §1.5, §1.6; tests/test_regional_presets.py works the same hands
by hand-built results)."""

from __future__ import annotations

import json

import pytest

from zipai_rules.cli import main
from zipai_rules.errors import ZipaiError
from zipai_rules.presets import load_preset
from zipai_rules.scored import score_hand

HENGYANG = load_preset("hengyang_honghei")
H3_HAND = "d2 d7 d10 x2 x7 x10 d4 d6"
H3_TABLE = ["peng=d7 d7 d7", "peng=x10 x10 x10", "peng=x2 x2 x2", "peng=x9 x9 x9"]
H3_ARGS = ["analyze", "--variant", "hengyang_honghei", "--hand", H3_HAND,
           *(x for m in H3_TABLE for x in ("--meld", m)), "--card", "d5", "--from", "discard",
           "--score"]


def test_h3_da_hong_on_a_discard():
    """15 胡, +3 for the one d5 (胡牌敦), red 15 → 大红加敦 +3 × 2: 24 胡 → (24 − 6) // 3 = 6 敦;
    大红 ×5 → 30; the discarder pays 3 × 30 alone."""
    s = score_hand(HENGYANG, H3_HAND, H3_TABLE, "d5", "discard").settlement
    assert (s.huxi, s.units, s.payments) == (24, 30, (90, -90, 0))
    named = [(x.item, x.term, x.value) for x in s.lines if x.item != "meld"]
    assert named == [("huxi", "胡息", 15), ("huxi_bonus", "胡牌敦", 3),
                     ("huxi_bonus", "大红加敦", 6), ("conversion", "敦", 6),
                     ("unit_multiplier", "大红", 30), ("payment", "放炮", -90),
                     ("payment", "敦", 90)]


def test_h2_quan_hei_zimo():
    """10 胡 counts as 15 (+5), +3 for the x6 → 18 → 4 敦; 全黑 ×5, 自摸 ×2 → 40 from each."""
    scored = score_hand(HENGYANG, "d8 d8 d8 x3 x4 x5 d3 d4 d5 d4 d5 d6 x4 x5",
                        ["wei=x9 x9 x9", "peng=x1 x1 x1"], "x6", "self")
    assert scored.result.labels == ("zimo",)
    s = scored.settlement
    assert (s.units, s.payments) == (40, (80, -40, -40))
    assert [x.term for x in s.lines if x.item == "unit_multiplier"] == ["全黑", "自摸"]


def test_a_given_label_is_scored():
    """The same H3 hand as 地胡 (×2): 60 from the discarder, 180 in all."""
    s = score_hand(HENGYANG, H3_HAND, H3_TABLE, "d5", "discard", labels=["dihu"]).settlement
    assert (s.units, s.payments) == (60, (180, -180, 0))


def test_a_hand_that_does_not_win_is_refused():
    with pytest.raises(ZipaiError) as info:
        score_hand(HENGYANG, H3_HAND, H3_TABLE, "x3", "discard")
    assert info.value.code == "no_win"
    with pytest.raises(ZipaiError) as info:
        score_hand(HENGYANG, H3_HAND, H3_TABLE, "d5", "discard", labels=["zimo"])
    assert info.value.code == "bad_argument"
    with pytest.raises(ZipaiError):
        score_hand(HENGYANG, H3_HAND, H3_TABLE, "d5", "self", haidi=True, flipped="x1")


def test_cli_score(capsys):
    assert main(H3_ARGS) == 0
    out = capsys.readouterr().out
    assert "score: seat 0 wins; seat 1 discarded; labels: none" in out
    assert "大红 ×5" in out and "payments (敦): seat 0 +90, seat 1 -90, seat 2 +0" in out
    assert out.rstrip().endswith("units: 30 敦 from each loser (before a discarder's share)")
    assert main([*H3_ARGS, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["score"]["settlement"]["payments"] == [90, -90, 0]


def test_cli_score_needs_a_winning_card(capsys):
    assert main(["analyze", "--variant", "hengyang_honghei", "--hand", H3_HAND, "--score"]) == 2
    assert "--score needs the winning card" in capsys.readouterr().err
    assert main([*H3_ARGS[:-1], "--haidi"]) == 2
    assert "go with --score" in capsys.readouterr().err


E7 = ("x1 x2 x3 x7 x8 x9 d7 d8 d9 x10", ["peng=d3 d3 d3", "chi=d1 d2 d3", "pao=x6 x6 x6 x6"],
      "x10", "draw")


def test_guilin_xing_by_default_gives_none_and_a_flipped_card_counts():
    """桂林: 18 胡 → 18 // 5 − 1 = 2 舵; turned d2, 上醒 d1 (held once, in the 吃) and 下醒 d3
    (held four times: the 碰 and the 吃) add 5 → 7 舵."""
    v = load_preset("guilin")
    assert score_hand(v, *E7).settlement.units == 2
    assert score_hand(v, *E7, flipped="d2").settlement.units == 7


def test_the_unit_word_is_shown_where_units_are(tmp_path):
    """``scoring.unit_word`` names the unit (分) in the settlement; the unit stays ``point``."""
    from zipai_rules.variant_file import load_variant_file

    path = tmp_path / "fen.yaml"
    path.write_text("id: fen\nname: Fen\nextends: hunan\nscoring: {unit: point, unit_word: 分}\n"
                    "citations: {scoring.unit: my club}\n", "utf-8")
    v = load_variant_file(path)
    s = score_hand(v, *E7).settlement
    assert s.unit == "point" and v.term("point") == "分"
    conversion = next(x for x in s.lines if x.item == "conversion")
    assert (conversion.term, conversion.text) == ("分", "18 胡息 → 2 分 [(18 − 12) // 3]")


def test_labels_and_cards_a_win_cannot_have_are_refused():
    import pytest

    from zipai_rules.errors import ZipaiError
    from zipai_rules.scored import score_hand
    hand = "d7 d7 d7 d2 d2 d2 d1 d1 d1 x1 x2 x9 x9"
    table = ("ti=d8 d8 d8 d8", "peng=d10 d10 d10")
    cases = [
        ("xiangxiang", dict(labels=["tianhu"], source="discard"),
         "a 天胡 is the dealer's win on its dealt hand"),
        ("hunan", dict(haidi=True, source="discard"),
         "海底 is a win on the last card drawn from the wall"),
        ("guilin", dict(flipped="K", source="draw"), "has no 王 to turn"),
        ("hunan", dict(labels=["dihu"], dealer=True, source="draw"), "a 地胡 is a non-dealer's"),
    ]
    for variant, options, words in cases:
        source = options.pop("source")
        with pytest.raises(ZipaiError) as err:
            score_hand(variant, hand, list(table), "x3", source,
                       **options)
        assert err.value.code == "bad_argument" and words in str(err.value), (variant, err)
