"""Variant presets, lookup by name, content hashes, and the errors of broken variant files."""

from pathlib import Path

import pytest

from zipai_rules import VariantError, find_variant, load_preset, load_variant_file, preset_ids
from zipai_rules.loader import build_variant, content_hash, schema_problems, semantic_problems
from zipai_rules.melds import MeldKind
from zipai_rules.presets import raw_preset, variants_dir

BAD = Path(__file__).parent / "data" / "bad_variants"


# --- the Hunan preset ---------------------------------------------------------------------------

def test_hunan_loads(hunan):
    """Digest §2.1: 3 players, 80 cards, 21 / 20, wall 19, threshold 15, wins on shown draws only,
    碰 → 跑 on a drawn card only, 胡 > 跑/碰 > 吃."""
    assert hunan.id == "hunan" and hunan.name == "湖南跑胡子"
    assert (hunan.players, hunan.copies, hunan.kings) == (3, 4, 0)
    assert hunan.deck_size == 80
    assert (hunan.dealer_hand, hunan.other_hand, hunan.wall) == (21, 20, 19)
    assert hunan.min_huxi == 15
    assert hunan.win_sources == {"self", "draw"}
    assert hunan.jiang_requires_quad and hunan.max_jiang == 1
    assert hunan.pao_on_peng == {"self", "draw"}
    assert hunan.pao_on_wei == {"draw", "discard"}
    assert hunan.pao_on_kan == {"draw", "discard"}
    assert hunan.priority == (("hu",), ("pao", "peng"), ("chi",))
    assert (hunan.tianhu_ti, hunan.tianhu_kan, hunan.tianhu_ti_counts_as_kan) == (3, 5, True)
    assert hunan.huxi(MeldKind.TI, True) == 12 and hunan.huxi(MeldKind.PENG, False) == 1
    assert hunan.term("wei") == "偎" and hunan.term("nonexistent") == "nonexistent"


def test_hunan_preset_passes_schema_and_semantics():
    doc = dict(load_preset("hunan").doc)
    assert schema_problems(doc) == []
    assert semantic_problems(doc) == []
    assert "hunan" in preset_ids()
    assert (variants_dir() / "hunan.yaml").is_file()


def test_every_preset_loads():
    for pid in preset_ids():
        v = load_preset(pid)
        assert v.id == pid
        assert 20 * v.copies + v.kings == v.dealer_hand + v.other_hand * (v.players - 1) + v.wall


@pytest.mark.parametrize("name", ["hunan", "湖南跑胡子", "跑胡子", "PAOHUZI", "paohuzi",
                                  " hunan ", "HUNAN"])
def test_find_variant_names(name):
    v = find_variant(name)
    assert v.id == "hunan"
    assert v is find_variant("hunan")


@pytest.mark.parametrize("name", ["guilin_nonexistent", "", "湖南"])
def test_find_variant_unknown(name):
    with pytest.raises(VariantError) as info:
        find_variant(name)
    assert info.value.code == "unknown_variant"
    assert "hunan" in str(info.value)  # lists the known ids


# --- content hash -------------------------------------------------------------------------------

def test_content_hash_stable(hunan):
    h = hunan.content_hash
    assert len(h) == 64 and all(ch in "0123456789abcdef" for ch in h)
    again = build_variant(raw_preset("hunan"), raw_preset, "elsewhere")
    assert again.content_hash == h
    from_file = load_variant_file(variants_dir() / "hunan.yaml")
    assert from_file.content_hash == h
    assert content_hash(dict(hunan.doc)) == h
    # key order does not matter
    reordered = dict(reversed(list(raw_preset("hunan").items())))
    assert build_variant(reordered, raw_preset, "reordered").content_hash == h


def test_content_hash_changes_with_rules(hunan):
    child = build_variant({"extends": "hunan", "win": {"min_huxi": 16}}, raw_preset, "child")
    assert child.min_huxi == 16
    assert child.content_hash != hunan.content_hash


# --- good child files ---------------------------------------------------------------------------

def test_child_file_inherits(tmp_path, hunan):
    path = tmp_path / "child.yaml"
    path.write_text("extends: hunan\nid: child\nname: 子\nwin:\n  min_huxi: 10\n"
                    "  sources: [self, draw, discard]\n", "utf-8")
    v = load_variant_file(path)
    assert (v.id, v.name, v.min_huxi) == ("child", "子", 10)
    assert v.win_sources == {"self", "draw", "discard"}
    # mappings merge key by key: the rest of win and everything else come from hunan
    assert v.max_jiang == hunan.max_jiang and v.tianhu_kan == hunan.tianhu_kan
    assert v.huxi_table == hunan.huxi_table and v.wall == 19
    assert v.aliases == ()  # a child does not inherit its parent's names


def test_child_of_child_file(tmp_path):
    (tmp_path / "base.yaml").write_text(
        "extends: hunan\nid: base\nname: base\nwin:\n  min_huxi: 10\n", "utf-8")
    (tmp_path / "leaf.yaml").write_text("extends: base.yaml\nid: leaf\n", "utf-8")
    v = load_variant_file(tmp_path / "leaf.yaml")
    assert (v.id, v.min_huxi) == ("leaf", 10)


def test_extends_cycle(tmp_path):
    (tmp_path / "a.yaml").write_text("extends: b.yaml\nid: a\n", "utf-8")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\nid: b\n", "utf-8")
    with pytest.raises(VariantError) as info:
        load_variant_file(tmp_path / "a.yaml")
    assert info.value.code == "extends_cycle"
    assert "extends" in [p for p, _ in info.value.problems]


def test_missing_file(tmp_path):
    with pytest.raises(VariantError) as info:
        load_variant_file(tmp_path / "absent.yaml")
    assert info.value.code == "unreadable"


# --- broken files -------------------------------------------------------------------------------

BROKEN = [
    ("players_wrong_type.yaml", "schema", "players"),
    ("unknown_key.yaml", "schema", "win.min_hux"),
    ("unknown_top_key.yaml", "schema", "colour"),
    ("wall_mismatch.yaml", "semantic", "deal.wall"),
    ("priority_missing_chi.yaml", "semantic", "claims.priority"),
    ("threshold_unreachable.yaml", "semantic", "win.min_huxi"),
    ("citation_nonexistent.yaml", "semantic", "citations.win.max_pairs"),
    ("not_a_mapping.yaml", "not_a_mapping", "<root>"),
    ("yaml_syntax.yaml", "yaml_syntax", "<root>"),
    ("unknown_parent.yaml", "unknown_parent", "extends"),
    ("unknown_special_hook.yaml", "semantic", "win.special[0]"),
    ("seats_fewer_than_players.yaml", "semantic", "seats"),
    ("sitting_out_without_extra_seat.yaml", "semantic", "sitting_out"),
    ("extra_seat_without_sitting_out.yaml", "semantic", "sitting_out"),
    ("win_sources_empty.yaml", "schema", "win.sources"),
    ("duplicate_key.yaml", "yaml_syntax", "<root>"),
]


def test_every_broken_file_is_listed():
    assert sorted(p.name for p in BAD.glob("*.yaml")) == sorted(name for name, _, _ in BROKEN)


@pytest.mark.parametrize("name, code, path", BROKEN)
def test_broken_variant(name, code, path):
    with pytest.raises(VariantError) as info:
        load_variant_file(BAD / name)
    err = info.value
    assert err.code == code
    paths = [p for p, _ in err.problems]
    assert path in paths
    msg = str(err)
    assert name in msg            # names the file
    if path != "<root>":
        assert path in msg        # and the YAML path


def test_broken_files_break_one_thing_each():
    """Each broken file differs from a loadable child of hunan by one thing: exactly one problem."""
    for name, _, _ in BROKEN:
        with pytest.raises(VariantError) as info:
            load_variant_file(BAD / name)
        assert len(info.value.problems) == 1, (name, info.value.problems)


def test_semantic_messages_explain(hunan):
    with pytest.raises(VariantError) as info:
        load_variant_file(BAD / "wall_mismatch.yaml")
    assert "80" in str(info.value) and "81" in str(info.value)
    with pytest.raises(VariantError) as info:
        load_variant_file(BAD / "priority_missing_chi.yaml")
    assert "'chi'" in str(info.value)


def test_all_problems_reported_at_once():
    raw = {"extends": "hunan", "players": "three", "deck": {"copies": 9}}
    with pytest.raises(VariantError) as info:
        build_variant(raw, raw_preset, "two problems")
    assert info.value.code == "schema"
    assert {"players", "deck.copies"} <= {p for p, _ in info.value.problems}


def test_messages_of_the_new_broken_files():
    """The unknown hook names the registered ones; the duplicate key names the key and its line;
    the seat checks give the numbers."""
    def message(name):
        with pytest.raises(VariantError) as info:
            load_variant_file(BAD / name)
        return str(info.value)

    msg = message("unknown_special_hook.yaml")
    assert "'nope'" in msg and "two_ti" in msg and "xiao_qi_dui" in msg
    msg = message("duplicate_key.yaml")
    assert "duplicate key 'min_huxi'" in msg and "line 6" in msg
    assert "2 seats cannot hold 3 players" in message("seats_fewer_than_players.yaml")
    assert "seats 3, players 3" in message("sitting_out_without_extra_seat.yaml")


# --- zipai validate -------------------------------------------------------------------------------

@pytest.mark.parametrize("pid", sorted(p.stem for p in variants_dir().glob("*.yaml")))
def test_cli_validate_accepts_every_preset(pid, capsys):
    from zipai_rules.cli import main

    code = main(["validate", str(variants_dir() / f"{pid}.yaml")])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"valid variant {pid}" in out and err == ""


@pytest.mark.parametrize("name, code, path", BROKEN)
def test_cli_validate_rejects_every_broken_file(name, code, path, capsys):
    """Exit 2, nothing on stdout, and stderr names the file and the YAML path of the problem."""
    from zipai_rules.cli import main

    status = main(["validate", str(BAD / name)])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err.startswith("error: ") and "Traceback" not in err
    assert name in err
    if path != "<root>":
        assert path in err
