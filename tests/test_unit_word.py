"""``scoring.unit_word``: the region's own word for the unit (分, 子, 油), the unit itself one
of the canonical ids its logic reads."""

from __future__ import annotations

import pytest

from zipai_rules.errors import VariantError
from zipai_rules.variant_file import load_variant_file


def load(tmp_path, scoring, extra=""):
    path = tmp_path / "u.yaml"
    path.write_text(f"id: u\nname: U\nextends: hunan\nscoring: {scoring}\n{extra}", "utf-8")
    return load_variant_file(path)


@pytest.mark.parametrize("word", ["分", "子", "油"])
def test_the_word_names_the_unit(tmp_path, word):
    v = load(tmp_path, f"{{unit: point, unit_word: {word}}}")
    assert (v.scoring.unit, v.term("point")) == ("point", word)


def test_the_word_of_hunan_s_tun(tmp_path):
    v = load(tmp_path, "{unit_word: 子}", "terminology: {tun: 子}\n")
    assert v.term(v.scoring.unit) == "子"


def test_a_word_for_the_unit_itself_says_where_it_goes(tmp_path):
    with pytest.raises(VariantError) as info:
        load(tmp_path, "{unit: 分}")
    ((path, msg),) = info.value.problems
    assert path == "scoring.unit" and msg.endswith(
        "the region's own word (分, 子, 油) goes in scoring.unit_word (unit: point, "
        "unit_word: 分)")


def test_two_words_for_the_unit_are_refused(tmp_path):
    with pytest.raises(VariantError) as info:
        load(tmp_path, "{unit_word: 分}")  # hunan's terminology says tun: 囤
    assert info.value.problems == [("scoring.unit_word", "'分', but terminology.tun says '囤': "
                                    "give the unit's word once")]


@pytest.mark.parametrize("word", ["", "\u202e分", "a" * 17])
def test_a_hostile_word_is_refused(tmp_path, word):
    with pytest.raises(VariantError):
        load(tmp_path, f"{{unit: point, unit_word: {word!r}}}".replace("'", '"'))
