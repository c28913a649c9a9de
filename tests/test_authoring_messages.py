"""What a new author is told: a kept own draw names the value to set for each rule it
contradicts, a reserved name names only the field that clashes, and citing a section as a
whole replaces the parent's citations inside it."""

from __future__ import annotations

import pytest

from helpers import write
from zipai_rules.errors import VariantError
from zipai_rules.loader import build_variant
from zipai_rules.presets import load_preset, raw_preset
from zipai_rules.variant_file import load_variant_file, variant_file_warnings


def test_kept_own_draw_says_what_to_set(tmp_path):
    """hunan: win on self and draw, 碰/跑 on draw and discard, 吃 by self and next."""
    with pytest.raises(VariantError) as info:
        load_variant_file(write(tmp_path, "k.yaml", "id: k\nname: K\nextends: hunan\n"
                                "claims: {own_draw: kept}\n"))
    sets = {path: msg.split(": set ")[1].split(" (now")[0] for path, msg in info.value.problems}
    assert sets == {"win.sources": "win.sources: [self]",
                    "claims.peng_on": "claims.peng_on: [discard]",
                    "claims.pao_on_kan": "claims.pao_on_kan: [discard]",
                    "claims.pao_on_wei": "claims.pao_on_wei: [discard]",
                    "claims.pao_on_peng": "claims.pao_on_peng: []",
                    "claims.chi_by": "claims.chi_by: [next]"}
    # setting what they say makes a valid variant
    fixed = load_variant_file(write(
        tmp_path, "k2.yaml", "id: k\nname: K\nextends: hunan\nwin: {sources: [self]}\n"
        "claims: {own_draw: kept, peng_on: [discard], pao_on_kan: [discard], "
        "pao_on_wei: [discard], pao_on_peng: [], chi_by: [next]}\n"))
    assert fixed.claims.own_draw == "kept"


def test_kept_own_draw_without_self_adds_it():
    doc = {"extends": "hunan", "id": "k", "name": "K", "win": {"sources": ["discard"]},
           "claims": {"own_draw": "kept", "chi_by": ["next"], "peng_on": ["discard"],
                      "pao_on_kan": ["discard"], "pao_on_wei": ["discard"],
                      "pao_on_peng": ["discard"]}}
    with pytest.raises(VariantError) as info:
        build_variant(doc, raw_preset, "test")
    assert info.value.problems == [("win.sources", "claims.own_draw kept: a drawer wins on the "
                                    "draw it keeps: set win.sources: [self, discard] (now "
                                    "[discard])")]


def test_a_reserved_alias_names_only_the_alias(tmp_path):
    path = write(tmp_path, "a.yaml", "extends: hunan\nid: mine\nname: mine\n"
                 "aliases: [my own, 跑胡子]\n")
    with pytest.raises(VariantError) as info:
        load_variant_file(path)
    assert info.value.code == "reserved_name"
    ((field, msg),) = info.value.problems
    assert field == "aliases[1]" and msg.startswith("'跑胡子' is reserved for the shipped preset "
                                                    "'hunan'")
    assert msg.endswith("; give the variant an alias of its own or remove this one")
    assert "id" not in msg.split(";")[-1] and "name" not in msg.split(";")[-1]


def test_every_reserved_name_is_listed_with_its_own_fix(tmp_path):
    path = write(tmp_path, "b.yaml", "extends: hunan\nid: hunan\nname: 湖南跑胡子\n"
                 "win: {min_huxi: 18}\n")
    with pytest.raises(VariantError) as info:
        load_variant_file(path)
    assert [(f, m.rsplit("; ", 1)[1]) for f, m in info.value.problems] == [
        ("id", "give the variant its own id"), ("name", "give the variant its own name")]
    assert str(info.value).splitlines()[0] == f"{path}: 2 names reserved for shipped presets"


def test_citing_a_section_replaces_the_parent_s_citations_inside_it(tmp_path):
    """hunan cites scoring.conversion as (胡息 − 12) // 3; a child citing ``scoring`` as a
    whole for its own conversion keeps no word of it."""
    assert "scoring.conversion" in load_preset("hunan").citations
    path = write(tmp_path, "c.yaml", "id: c\nname: C\nextends: hunan\n"
                 "scoring:\n  conversion: {offset: 9, step: 2}\n"
                 "citations:\n  scoring: my table of 2 胡息 a unit above 9\n")
    v = load_variant_file(path)
    assert v.citations["scoring"] == "my table of 2 胡息 a unit above 9"
    assert not [k for k in v.citations if k.startswith("scoring.")]
    assert v.citations["win.min_huxi"] == load_preset("hunan").citations["win.min_huxi"]
    assert variant_file_warnings(path, v) == ()


def test_the_shipped_child_presets_cite_their_own_sections():
    """郴州 cites ``deal`` as a whole (from Aizipai): hunan's seed phrases for its deal sizes
    are no longer shown as 郴州's."""
    cited = load_preset("chenzhou").citations
    assert "deal" in cited and "deal.wall" in load_preset("hunan").citations
    assert not {"deal.wall", "deal.dealer_hand", "deal.other_hand"} & set(cited)


def test_validate_warns_of_xiao_hong_listed_before_da_hong(tmp_path, capsys):
    """The issue's case: 小红 ``red ≥ 10`` listed before 大红 ``red ≥ 13`` in one exclusive
    group takes every hand 大红 would (13 red cards are at least 10), so 大红 never applies."""
    from zipai_rules.cli import main

    path = write(tmp_path, "hong.yaml", "id: hong\nname: Hong\nextends: hunan\n"
                 "scoring:\n  mingtang:\n    patterns:\n"
                 "      - {name: xiao_hong, when: {fact: red, at_least: 10}, add_units: 1,"
                 " group: hong}\n"
                 "      - {name: da_hong, when: {fact: red, at_least: 13}, add_units: 3,"
                 " group: hong}\n"
                 "      - {name: pay_back, when: {label: zimo}, add_units: -1}\n"
                 "citations:\n  scoring.mingtang: my club\n")
    assert main(["validate", str(path)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"warning: {path}: scoring.mingtang.patterns[1] (da_hong) never applies: patterns[0] "
        "(xiao_hong), listed before it in the group hong, holds whenever it does, and only the "
        "first listed pattern of a group applies; list da_hong first if it is to win over "
        "xiao_hong",
        # hunan's least win converts to 1 囤; 自摸 −1 leaves 0: the losers pay nothing
        f"warning: {path}: scoring.mingtang.patterns[2].add_units: a win can score 0 囤 once "
        "its 名堂 take their units away: the losers pay nothing for it"]
    # one unit more taken would make the winner pay: refused
    path.write_text(path.read_text("utf-8").replace("add_units: -1", "add_units: -2"), "utf-8")
    with pytest.raises(VariantError) as info:
        load_variant_file(path)
    assert info.value.problems[0][0] == "scoring.mingtang.patterns[2].add_units"
    assert "so the winner would pay the losers" in info.value.problems[0][1]
