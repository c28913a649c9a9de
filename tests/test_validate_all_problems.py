"""`zipai validate` reports every problem of a file in one run: the schema errors and the
semantic ones of the part of the file that passes the schema (zipai_rules.partial)."""

from __future__ import annotations

import pytest

from helpers import write
from zipai_rules.cli import main
from zipai_rules.errors import VariantError
from zipai_rules.partial import passing_part, unsure
from zipai_rules.presets import raw_preset
from zipai_rules.variant_file import load_variant_file

BOTH = """\
id: both
name: Both
extends: hunan
deal: {wall: 30}
win: {bogus: 1}
claims: {priority: [[hu], [pao, peng], [chi], [chi]]}
scoring:
  mingtang:
    patterns:
      - {name: a, when: {fact: red, at_least: 2}, add_units: x}
      - {name: b, when: {fact: nosuch, at_least: 2}, add_units: 1}
      - {name: c, when: {fact: red, at_least: 99}, add_units: 1}
citations:
  win.nothing: x
"""


def problems_of(path):
    with pytest.raises(VariantError) as info:
        load_variant_file(path)
    return info.value


def test_schema_and_semantic_errors_come_together(tmp_path, capsys):
    exc = problems_of(write(tmp_path, "both.yaml", BOTH))
    assert exc.code == "schema"
    assert [p for p, _ in exc.problems] == [
        # the schema's, sorted by path
        "scoring.mingtang.patterns[0].add_units", "win.bogus",
        # the semantic checks of the rest: the deck holds 80 cards, 21 + 20 + 20 + 30 = 91;
        # 吃 ranked twice; a fact no hand has; 99 red cards of the 24 a deck of 4 copies
        # holds; a citation of no parameter
        "deal.wall", "claims.priority", "scoring.mingtang.patterns[1].when.fact",
        "scoring.mingtang.patterns[2].when.at_least", "citations.win.nothing"]
    assert str(exc).splitlines()[0].endswith(": 2 schema error(s) and 5 semantic error(s)")
    assert "the hands (61) plus the wall (30) make 91" in dict(exc.problems)["deal.wall"]
    assert main(["validate", str(tmp_path / "both.yaml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 8 and "claims.priority: claim kind 'chi'" in err


def test_a_cut_list_item_keeps_the_file_s_indices(tmp_path):
    """A pattern without ``when`` is cut whole; the one after it is still reported as the
    file's patterns[1]."""
    exc = problems_of(write(tmp_path, "cut.yaml", "id: cut\nname: Cut\nextends: hunan\n"
                            "scoring:\n  mingtang:\n    patterns:\n      - {name: a}\n"
                            "      - {name: c, when: {fact: red, at_least: 99}, add_units: 1}\n"))
    assert [p for p, _ in exc.problems] == ["scoring.mingtang.patterns[0]",
                                            "scoring.mingtang.patterns[1].when.at_least"]


def test_a_problem_a_cut_value_may_cause_is_left_out(tmp_path):
    """The wall given as text is cut, so the deal's sum is not checked (it would be against
    a stand-in); 吃 ranked twice is still reported."""
    exc = problems_of(write(tmp_path, "w.yaml", "id: w\nname: W\nextends: hunan\n"
                            "deal: {wall: many}\nclaims: {priority: [[hu], [pao, peng], [chi],"
                            " [chi]]}\n"))
    assert [p for p, _ in exc.problems] == ["deal.wall"]  # a cut in deal: every check reads it
    exc = problems_of(write(tmp_path, "m.yaml", "id: m\nname: M\nextends: hunan\n"
                            "win: {min_huxi: ten}\ndeal: {wall: 30}\n"
                            "claims: {priority: [[hu], [pao, peng], [chi], [chi]]}\n"))
    assert [p for p, _ in exc.problems] == ["win.min_huxi", "deal.wall"]


def test_a_required_key_given_wrongly_takes_the_base_preset_s_value():
    doc = {**raw_preset("hunan"), "win": {**raw_preset("hunan")["win"], "min_huxi": "ten"}}
    part, cut, back = passing_part(doc, raw_preset("hunan"))
    assert part["win"]["min_huxi"] == 15 and cut == ["win.min_huxi"]
    assert back("win.sources[0]") == "win.sources[0]"
    _, cut, _ = passing_part({**doc, "players": "three"}, raw_preset("hunan"))
    assert cut == ["players", "win.min_huxi"] and unsure("terminology", cut)
    assert passing_part({**doc, "players": "three"}, {}) is None  # nothing to stand in


def test_unsure_scopes():
    assert unsure("scoring", ["scoring.mingtang.patterns[3].add_units"])
    assert not unsure("scoring.mingtang.patterns[4].name", ["scoring.mingtang.patterns[3]"])
    assert unsure("claims.priority", ["win.sources"])
    assert unsure("terminology", ["deck.copies"])
    assert not unsure("deal.wall", ["terminology.chi"])
    assert unsure("citations.terminology.chi", ["terminology.chi"])


def test_a_file_with_only_semantic_errors_is_reported_as_before(tmp_path):
    exc = problems_of(write(tmp_path, "s.yaml", "id: s\nname: S\nextends: hunan\n"
                            "deal: {wall: 30}\n"))
    assert exc.code == "semantic" and str(exc).splitlines()[0].endswith(
        ": 1 semantic error(s)")


def test_a_missing_id_comes_with_the_other_problems(tmp_path):
    exc = problems_of(write(tmp_path, "n.yaml", "name: N\nextends: hunan\ndeal: {wall: 30}\n"
                            "win: {min_huxi: x}\n"))
    assert exc.code == "schema"
    assert [p for p, _ in exc.problems] == ["id", "win.min_huxi", "deal.wall"]
    assert problems_of(write(tmp_path, "m.yaml", "name: N\nextends: hunan\n")).problems[0][0] \
        == "id"


def test_a_document_of_many_wrong_values_is_given_up_on():
    from zipai_rules.partial import MAX_CUTS

    doc = {**raw_preset("hunan"), "terminology": {f"t{k}": 1 for k in range(MAX_CUTS + 1)}}
    assert passing_part(doc, raw_preset("hunan")) is None
