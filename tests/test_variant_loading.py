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
    assert (hunan.players, hunan.deck.copies, hunan.deck.kings) == (3, 4, 0)
    assert hunan.deck.size == 80
    assert (hunan.deal.dealer_hand, hunan.deal.other_hand, hunan.deal.wall) == (21, 20, 19)
    assert hunan.win.min_huxi == 15
    assert hunan.win.sources == {"self", "draw"}
    assert hunan.win.jiang_requires_quad and hunan.win.max_jiang == 1
    assert hunan.claims.pao_on_peng == {"self", "draw"}
    assert hunan.claims.pao_on_wei == {"draw", "discard"}
    assert hunan.claims.pao_on_kan == {"draw", "discard"}
    assert hunan.claims.priority == (("hu",), ("pao", "peng"), ("chi",))
    tianhu = hunan.win.tianhu
    assert (tianhu.ti, tianhu.kan, tianhu.ti_counts_as_kan) == (3, 5, True)
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
        dealt = v.deal.dealer_hand + v.deal.other_hand * (v.players - 1)
        assert 20 * v.deck.copies + v.deck.kings == dealt + v.deal.wall + v.deal.set_aside


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
    assert child.win.min_huxi == 16
    assert child.content_hash != hunan.content_hash


# --- good child files ---------------------------------------------------------------------------

def test_child_file_inherits(tmp_path, hunan):
    path = tmp_path / "child.yaml"
    path.write_text("extends: hunan\nid: child\nname: 子\nwin:\n  min_huxi: 10\n"
                    "  sources: [self, draw, discard]\n", "utf-8")
    v = load_variant_file(path)
    assert (v.id, v.name, v.win.min_huxi) == ("child", "子", 10)
    assert v.win.sources == {"self", "draw", "discard"}
    # mappings merge key by key: the rest of win and everything else come from hunan
    assert v.win.max_jiang == hunan.win.max_jiang and v.win.tianhu.kan == hunan.win.tianhu.kan
    assert v.huxi_table == hunan.huxi_table and v.deal.wall == 19
    assert v.aliases == ()  # a child does not inherit its parent's names


def test_child_of_child_file(tmp_path):
    (tmp_path / "base.yaml").write_text(
        "extends: hunan\nid: base\nname: base\nwin:\n  min_huxi: 10\n", "utf-8")
    (tmp_path / "leaf.yaml").write_text("extends: base.yaml\nid: leaf\n", "utf-8")
    v = load_variant_file(tmp_path / "leaf.yaml")
    assert (v.id, v.win.min_huxi) == ("leaf", 10)


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
    ("octal_threshold.yaml", "schema", "win.min_huxi"),
    ("score_beyond_record.yaml", "semantic", "scoring"),
    ("winner_pays.yaml", "semantic", "scoring.mingtang.patterns[0].add_units"),
    ("action_words_clash.yaml", "semantic", "terminology"),
    ("bidi_alias.yaml", "semantic", "aliases[0]"),
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
    assert f"valid variant {pid}" in out
    # stale citations in two presets warn (tests/test_validate_warnings.py lists them)
    assert all(line.startswith("warning: ") for line in err.splitlines()), err


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


# --- defaults: declared once in the schema, filled in before hashing ----------------------------

def _section_classes():
    """(schema node, attrs class, fields that are not schema keys) for every section of the
    model, walking the Variant's nested sections."""
    import attrs

    from zipai_rules.loader import variant_schema
    from zipai_rules.variant import Variant

    out = []

    def walk(cls, schema, extra=frozenset()):
        out.append((schema, cls, extra))
        for f in attrs.fields(cls):
            sub = f.metadata.get("section")
            if sub is not None:
                node = schema["properties"][f.name]
                walk(sub, node["items"] if f.metadata["items"] else node)

    walk(Variant, variant_schema(), frozenset({"huxi_table", "won_triple", "doc",
                                               "content_hash"}))
    return out


def test_the_model_mirrors_the_schema_sections():
    """Every section of the Variant holds exactly the keys of its schema object (the ``huxi``
    table as ``huxi_table`` and its option as ``won_triple``; ``description`` and ``extends``
    are not rules)."""
    import attrs

    checked = set()
    for schema, cls, extra in _section_classes():
        keys = set(schema["properties"]) - {"description", "extends", "huxi"}
        fields = {f.name for f in attrs.fields(cls) if f.init} - extra
        assert fields == keys, cls.__name__
        checked.add(cls.__name__)
    assert {"Deck", "KingRules", "Deal", "Win", "Tianhu", "Claims", "Chou", "Discard", "Dealer",
            "Display", "Scoring", "Conversion", "Bonus", "Xing", "Payment",
            "Huangzhuang"} <= checked


def test_every_optional_key_has_its_default_in_the_schema():
    """An optional key either declares a ``default`` or is one of the few whose absence means
    something (``description``, ``extends``, ``seats`` = players, a fixed conversion, a
    conversion table's tail, the discarder's multiple, no 名堂, no match section (so that the
    content hash of a variant without one stays as it was), no end of a match by hands or by
    score, the unit's word taken from the terminology)."""
    meaningful_absence = {"description", "extends", "seats", "fixed", "then_per",
                          "discarder_pays", "mingtang", "match", "hands", "score_at_least",
                          "unit_word"}
    for schema, cls, _ in _section_classes():
        for key, sub in schema["properties"].items():
            if key not in schema.get("required", ()) and key not in meaningful_absence:
                assert "default" in sub, (cls.__name__, key)


def _full_hunan(vid="mine"):
    from zipai_rules.frozen import thaw

    doc = thaw(raw_preset("hunan"))
    doc.update(id=vid, name="我的")
    del doc["aliases"]
    return doc


def _defaults_left_out(doc):
    """``doc`` with every value that equals its schema default left out, and ``seats`` (which
    defaults to ``players``) written out."""
    import copy

    doc = copy.deepcopy(doc)
    for section, key in [("deal", "lianzhang"), ("win", "max_jiang"),
                         ("win", "jiang_requires_quad"), ("claims", "po_pao_hu"),
                         ("chou", "chi"), ("chou", "blocks_on"),
                         ("discard", "dealt_double_quad"), ("discard", "kan_discardable")]:
        del doc[section][key]
    del doc["dealer"]
    del doc["display"]
    del doc["win"]["forced_sources"]
    del doc["scoring"]["conversion"]["base"]
    del doc["scoring"]["huangzhuang"]
    doc["seats"], doc["sitting_out"] = doc["players"], "none"
    return doc


def test_normalise_fills_every_default_and_is_idempotent():
    from zipai_rules.variant import normalise

    full = normalise(_full_hunan())
    assert normalise(full) == full
    short = normalise(_defaults_left_out(_full_hunan()))
    assert short == full
    assert full["display"] == {"wei": "hidden", "chou_wei": "one_up", "ti": "one_up",
                               "pao": "all_up", "chi_own_draw": "all_up"}
    assert (full["seats"], full["sitting_out"], full["deck"]["king_rules"]) == (
        3, "none", {"discardable": False, "holder_wins_only_self": False,
                    "claims": [], "chi_kings": 1, "bi_kings": False})
    assert normalise({"players": 4})["seats"] == 4


def test_two_spellings_of_the_same_rules_are_one_variant(tmp_path):
    """One file writes its defaults out, the other leaves them out: the same content hash,
    equal variants, and a record made with one replays against the other."""
    import yaml

    from zipai_rules.bots import make_bots, play_out
    from zipai_rules.engine import Game
    from zipai_rules.records import game_record, replay_record
    from zipai_rules.settlement import settle

    long_doc, short_doc = _full_hunan(), _defaults_left_out(_full_hunan())
    assert long_doc != short_doc
    (tmp_path / "long.yaml").write_text(yaml.safe_dump(long_doc, allow_unicode=True), "utf-8")
    (tmp_path / "short.yaml").write_text(yaml.safe_dump(short_doc, allow_unicode=True), "utf-8")
    long_v = load_variant_file(tmp_path / "long.yaml")
    short_v = load_variant_file(tmp_path / "short.yaml")
    assert long_v.content_hash == short_v.content_hash == content_hash(short_doc)
    assert long_v == short_v
    assert short_v.display.wei == "hidden" and short_v.dealer.huangzhuang_streak == 3

    game = play_out(Game(long_v, seed=7), make_bots(["greedy"], 7, long_v.players))
    record = game_record(game, settle(game.state, False))
    assert record["variant"]["doc"] == long_doc
    record["variant"]["doc"] = short_doc  # the other spelling, the hash recorded with the first
    replayed, settlement = replay_record(record)
    assert replayed.variant == long_v and replayed.result == game.result
    assert settlement.to_json() == record["settlement"]


def test_a_preset_spelled_with_its_defaults_is_the_preset(tmp_path, hunan):
    """Writing out hunan's defaults (``seats``, ``sitting_out``) keeps its hash: the file may
    keep hunan's id and names, and records of the preset accept it."""
    raw = raw_preset("hunan")
    text = (variants_dir() / "hunan.yaml").read_text("utf-8")
    (tmp_path / "hunan.yaml").write_text(text + "\nseats: 3\nsitting_out: none\n", "utf-8")
    spelled = load_variant_file(tmp_path / "hunan.yaml")
    assert "seats" not in raw and spelled.doc["seats"] == 3
    assert spelled == hunan and spelled.content_hash == hunan.content_hash


@pytest.mark.parametrize("parent", ["chenzhou", "chenzhou_wang", "hengyang_honghei",
                                    "leiyang_tilong"])
def test_a_child_of_a_preset_that_cites_its_description_loads(parent):
    """A preset's citation of its own description is not inherited with it."""
    from zipai_rules.loader import build_variant
    from zipai_rules.presets import raw_preset

    assert "description" in raw_preset(parent)["citations"]
    v = build_variant({"extends": parent, "id": "kid", "name": "kid"}, raw_preset, "kid")
    assert v.id == "kid" and "description" not in v.doc["citations"]


def test_derived_section_values_follow_their_fields():
    """The values a section works out from its fields when made (Deck.size, Claims.kept,
    Chou.both, Scoring.patterns: not YAML keys, not compared) follow a changed field."""
    import attrs

    from zipai_rules import find_variant

    hunan, chenzhou = find_variant("hunan"), find_variant("chenzhou")
    assert hunan.deck.size == 80 and attrs.evolve(hunan.deck, kings=2).size == 82
    assert not hunan.claims.kept and chenzhou.claims.kept
    assert attrs.evolve(hunan.claims, own_draw="kept").kept
    assert hunan.chou.both == (hunan.chou.scope == "both")
    assert attrs.evolve(hunan.chou, scope="separate").both is False
    assert attrs.evolve(hunan.chou, scope="both").both is True
    names = [p.name for p in hunan.scoring.patterns]
    assert names == [b.label for b in hunan.scoring.bonuses] + [
        p.name for p in hunan.scoring.mingtang.patterns]
    assert attrs.evolve(hunan.scoring, bonuses=()).patterns == hunan.scoring.mingtang.patterns
    assert "kept" not in repr(hunan.claims) and hunan.claims == attrs.evolve(hunan.claims)
