"""Hostile inputs: every one is refused cleanly, quickly and without a traceback.

The variant files are in tests/data/hostile/ with the error code each must give
(expected.json); the hostile records are made here from a real seeded record. Each case runs
through the API (a :class:`ZipaiError` with the right code) and through the command line
(exit status 2, one ``error:`` report, no traceback), within a bound on the work done (function
calls counted, tests/bounds.py), never on seconds.
"""

from __future__ import annotations

import copy
import json
import os
import pickle
from pathlib import Path

import pytest

from bounds import calls
from zipai_rules.bots import make_bots, play_out
from zipai_rules.cli import main
from zipai_rules.engine import Deal, Game
from zipai_rules.errors import RecordError, ReplayError, VariantError, ZipaiError
from zipai_rules.frozen import thaw
from zipai_rules.inputs import Limits
from zipai_rules.loader import build_variant, content_hash
from zipai_rules.presets import load_preset, raw_preset, variants_dir
from zipai_rules.records import game_record, replay_file, write_record
from zipai_rules.settlement import settle
from zipai_rules.terminal import escape
from zipai_rules.variant_file import load_variant_file

HOSTILE = Path(__file__).parent / "data" / "hostile"
EXPECTED: dict[str, str | list[str]] = json.loads((HOSTILE / "expected.json").read_text("utf-8"))
#: the calls one refusal may make (tests/bounds.py): the largest today makes some 200 000 (a
#: file of YAML aliases), the replay of a whole good record about 1 000 000
CALLS = 4_000_000
#: the heavy record's 3 million JSON values are counted (inputs.check_tree, some 13 calls a
#: value, the limits raised to allow them); a schema walk of each action would add 50 more
HEAVY_CALLS = 15 * 3_000_000


def cli(capsys, *args) -> tuple[int, str, str]:
    with calls(CALLS):
        code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(code: int, out: str, err: str) -> None:
    assert code == 2, (code, out, err)
    assert err.startswith("error: ") and "Traceback" not in err
    assert "\x1b" not in out + err


# --- variant files ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_variant_file_is_refused(name):
    with calls(CALLS), pytest.raises(VariantError) as info:
        load_variant_file(HOSTILE / name)
    codes = EXPECTED[name]  # a list where libyaml and the pure-Python parser differ
    assert info.value.code in (codes if isinstance(codes, list) else [codes]), str(info.value)
    assert info.value.problems and str(info.value).startswith(str(HOSTILE / name))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_variant_file_on_the_command_line(capsys, name):
    assert_refused(*cli(capsys, "validate", HOSTILE / name))


def test_every_corpus_file_is_listed():
    assert sorted(p.name for p in HOSTILE.glob("*.yaml")) == sorted(EXPECTED)


def test_alias_bomb_stops_at_the_node_limit_and_names_the_place():
    with pytest.raises(VariantError) as info:
        load_variant_file(HOSTILE / "alias_bomb_players.yaml")
    assert "more than 20000 values" in str(info.value)
    assert info.value.problems[0][0].startswith("players[9]")


def test_a_raised_limit_is_honoured(tmp_path):
    small = tmp_path / "small.yaml"
    small.write_text("extends: hunan\nid: small\nname: small\n", "utf-8")
    assert load_variant_file(small).id == "small"
    with pytest.raises(VariantError) as info:
        load_variant_file(small, limits=Limits(max_bytes=10))
    assert info.value.code == "too_large" and "10 bytes" in str(info.value)
    with pytest.raises(VariantError) as info:
        load_variant_file(small, limits=Limits(max_nodes=3))
    assert info.value.code == "too_large"


def test_limits_are_strict_positive_ints():
    for bad in (0, -1, 3.0, True, "9", 2 ** 40 + 1, 2 ** 63, 10 ** 30):
        with pytest.raises(ZipaiError) as info:
            Limits(max_bytes=bad)  # type: ignore[arg-type]
        assert info.value.code == "bad_limit"
    assert Limits(max_bytes=2 ** 40).max_bytes == 2 ** 40


def test_huge_cli_limit_is_a_clean_error(tmp_path, capsys):
    from zipai_rules.cli import main

    ok = tmp_path / "ok.yaml"
    ok.write_text("extends: hunan\nid: ok\nname: ok\n", "utf-8")
    assert main(["--max-bytes", "9223372036854775807", "validate", str(ok)]) == 2
    assert capsys.readouterr().err.startswith("error: Limits.max_bytes must be an int")


def test_too_large_file_is_not_read_past_the_limit(tmp_path, capsys):
    big = tmp_path / "big.yaml"
    big.write_text("extends: hunan\nid: big\nname: big\ndescription: '" + "x" * 200_000 + "'\n",
                   "utf-8")
    code, out, err = cli(capsys, "validate", big)
    assert_refused(code, out, err)
    assert "larger than the limit of 131072 bytes" in err
    code, out, err = cli(capsys, "--max-bytes", 400_000, "validate", big)
    assert_refused(code, out, err)  # now read: the schema bounds the description
    assert "description: 200000 characters, more than the 4000 allowed" in err


def test_fifty_thousand_mixed_aliases_are_refused_in_bounded_work(tmp_path):
    # jsonschema's own uniqueItems compares such items pairwise (140 s); ours is linear and
    # the schema bounds the list anyway
    doc = {"extends": "hunan", "id": "m", "name": "m",
           "aliases": ["a", 1, [1], {"a": 1}] * 12_500}
    # linear work, some 45 calls an item (2.3 million); a pairwise comparison would make
    # 1.25e9 calls, and the budget of 100 an item stops it early
    with calls(100 * 50_000), pytest.raises(VariantError) as info:
        build_variant(doc, raw_preset, "doc", limits=Limits(max_nodes=200_000))
    assert info.value.problems == [("aliases", '"a" appears more than once'),
                                   ("aliases", "50000 items, more than the 32 allowed")]
    doc["aliases"] = [f"a{k}" for k in range(50_000)]
    with calls(100 * 50_000), pytest.raises(VariantError) as info:
        build_variant(doc, raw_preset, "doc", limits=Limits(max_nodes=200_000))
    assert info.value.problems == [("aliases", "50000 items, more than the 32 allowed")]


def test_schema_errors_stop_after_max_errors():
    with pytest.raises(VariantError) as info:
        load_variant_file(HOSTILE / "many_unknown_keys.yaml")
    assert len(info.value.problems) == 50 and "(stopped there)" in str(info.value)


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE") != "dev", reason="heavy: dev profile")
def test_heavy_inputs_with_raised_limits_stay_bounded(tmp_path, record):
    # a 30 MB record of a million actions, read only because the caller raised the limits:
    # refused by the schema's maxItems without walking the actions (was 60 s / 4 GB)
    path = tmp_path / "huge.json"
    path.write_text(_mutate(record, lambda x: x.update(
        actions=[{"kind": "pass", "seat": 0}] * 1_000_000)), "utf-8")
    with calls(HEAVY_CALLS), pytest.raises(RecordError) as info:
        replay_file(path, Limits(max_bytes=100_000_000, max_nodes=10_000_000))
    assert "1000000 items, more than the 2000 allowed" in str(info.value)
    # a 34 MB variant file is refused before it is parsed
    big = tmp_path / "big.yaml"
    big.write_text("extends: hunan\nid: big\nname: big\naliases:\n"
                   + "".join(f"  - a{i}\n" for i in range(3_000_000)), "utf-8")
    with calls(10_000), pytest.raises(VariantError) as vinfo:  # not parsed: 79 calls
        load_variant_file(big)
    assert vinfo.value.code == "too_large"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_and_devices_are_refused_without_blocking(tmp_path, capsys):
    fifo = tmp_path / "rules.yaml"
    os.mkfifo(fifo)
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    for path in (fifo, link, Path("/dev/zero"), tmp_path):
        code, out, err = cli(capsys, "validate", path)
        assert_refused(code, out, err)
        assert "not a regular file" in err
        code, out, err = cli(capsys, "play", "--variant", path) if str(path).endswith(
            ".yaml") else cli(capsys, "replay", path)
        assert_refused(code, out, err)


def test_parents_resolve_relative_to_the_file_naming_them(tmp_path):
    sub = tmp_path / "sub"
    sub.mkdir()
    (tmp_path / "base.yaml").write_text("extends: hunan\nid: top_base\nname: top base\n"
                                        "win: {min_huxi: 12}\n", "utf-8")
    (sub / "base.yaml").write_text("extends: hunan\nid: sub_base\nname: sub base\n"
                                   "win: {min_huxi: 9}\n", "utf-8")
    (sub / "mid.yaml").write_text("extends: base.yaml\nid: mid\nname: mid\n", "utf-8")
    (tmp_path / "top.yaml").write_text("extends: sub/mid.yaml\nid: top\nname: top\n", "utf-8")
    v = load_variant_file(tmp_path / "top.yaml")
    assert (v.id, v.win.min_huxi) == ("top", 9)  # sub/base.yaml, not the top file's base.yaml


def test_parents_outside_the_folder_are_not_read(tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("extends: hunan\nid: secret\nname: TOP-SECRET-VALUE\n", "utf-8")
    inner = tmp_path / "inner"
    inner.mkdir()
    (inner / "link.yaml").symlink_to(secret)
    for parent in ("../secret.yaml", str(secret), "link.yaml"):
        (inner / "top.yaml").write_text(f"extends: {parent}\nid: top\nname: top\n", "utf-8")
        with pytest.raises(VariantError) as info:
            load_variant_file(inner / "top.yaml")
        assert info.value.code == "parent_outside"
        assert "TOP-SECRET-VALUE" not in str(info.value)
    # the caller may name a wider root
    (inner / "top.yaml").write_text("extends: ../secret.yaml\nid: top\nname: top\n", "utf-8")
    assert load_variant_file(inner / "top.yaml", root=tmp_path).name == "top"


def test_preset_names_never_become_paths():
    for name in ("../variants/hunan", "hunan.yaml", "/etc/passwd", "", "HUNAN"):
        with pytest.raises(KeyError):
            raw_preset(name)


def test_an_exact_copy_of_a_preset_may_keep_its_names(tmp_path):
    copy_ = tmp_path / "hunan.yaml"
    copy_.write_bytes((variants_dir() / "hunan.yaml").read_bytes())
    assert load_variant_file(copy_).content_hash == load_preset("hunan").content_hash


# --- frozen values ------------------------------------------------------------------------------

def test_preset_documents_are_read_only_all_the_way_down():
    hunan = load_preset("hunan")
    with pytest.raises(TypeError):
        hunan.doc["win"]["min_huxi"] = 0  # type: ignore[index]
    with pytest.raises((TypeError, AttributeError)):
        hunan.doc["claims"]["priority"].append(["chi"])  # type: ignore[index]
    with pytest.raises(TypeError):
        raw_preset("hunan")["win"]["min_huxi"] = 0  # type: ignore[index]
    child = build_variant({"extends": "hunan", "id": "c", "name": "c"}, raw_preset, "c")
    assert child.win.min_huxi == hunan.win.min_huxi == 15


def test_variant_and_game_pickle_and_deep_copy():
    v = load_preset("yongzhou")
    for again in (pickle.loads(pickle.dumps(v)), copy.deepcopy(v)):
        assert again == v and again.content_hash == v.content_hash
        assert thaw(again.doc) == thaw(v.doc)
    game = Game(v, seed=5)
    game.apply(game.legal_actions()[0])
    for again in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert again.state == game.state and again.actions == game.actions
        again.apply(again.legal_actions()[0])
        assert len(again.actions) == len(game.actions) + 1


def test_deal_keeps_no_reference_to_the_callers_lists():
    hands, wall = [[1, 2], [3]], [4, 5]
    deal = Deal(hands, wall, 0)  # type: ignore[arg-type]
    hands[0].append(9)
    wall.clear()
    assert deal.hands == ((1, 2), (3,)) and deal.wall == (4, 5)


# --- records ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def record() -> dict:
    v = load_preset("hunan")
    game = play_out(Game(v, seed=11), make_bots(["greedy", "random", "greedy"], 11, 3))
    return game_record(game, settle(game.state, False))


def _altered_hunan() -> dict:
    doc = thaw(load_preset("hunan").doc)
    doc["scoring"]["conversion"]["base"] = 100
    return doc


def _mutate(record: dict, change) -> str:
    r = copy.deepcopy(record)
    change(r)
    return json.dumps(r, ensure_ascii=False)


HOSTILE_RECORDS = {
    # name: (how to make the text from the record, error class, code)
    "seed_negative": (lambda r: _mutate(r, lambda x: x.update(seed=-11)), RecordError, "schema"),
    "seed_float": (lambda r: _mutate(r, lambda x: x.update(seed=11.0)), RecordError, "schema"),
    "seed_exponent": (lambda r: _mutate(r, lambda x: x.update(seed=0)).replace(
        '"seed": 0', '"seed": 1.1e1'), RecordError, "schema"),
    "seed_true": (lambda r: _mutate(r, lambda x: x.update(seed=True)), RecordError, "schema"),
    "seed_5000_digits": (lambda r: _mutate(r, lambda x: x.update(seed=0)).replace(
        '"seed": 0', '"seed": ' + "1" * 5000), RecordError, "bad_json"),
    "seed_too_big": (lambda r: _mutate(r, lambda x: x.update(seed=2 ** 1024)), RecordError,
                     "schema"),
    "seed_nan": (lambda r: _mutate(r, lambda x: x.update(seed=0)).replace(
        '"seed": 0', '"seed": NaN'), RecordError, "bad_json"),
    "sitting_out_nobody": (lambda r: _mutate(r, lambda x: x.update(sitting_out=True)),
                           ReplayError, "bad_header"),
    "duplicate_result": (lambda r: '{"result": {}, ' + _mutate(r, lambda x: None)[1:],
                         RecordError, "duplicate_key"),
    "float_seat": (lambda r: _mutate(r, lambda x: x["actions"][0].update(seat=0.0)),
                   RecordError, "schema"),
    "float_dealer": (lambda r: _mutate(r, lambda x: x["deal"].update(dealer=0.0)),
                     RecordError, "schema"),
    "bool_dealer": (lambda r: _mutate(r, lambda x: x["deal"].update(dealer=False)),
                    RecordError, "schema"),
    "surrogate_bot": (lambda r: _mutate(r, lambda x: x.update(bots=["a"])).replace(
        '["a"]', '["\\ud800"]'), RecordError, "schema"),
    "too_many_actions": (lambda r: _mutate(r, lambda x: x.update(
        actions=[{"kind": "pass", "seat": 0}] * 3000)), RecordError, "schema"),
    "too_large": (lambda r: _mutate(r, lambda x: x.update(bots=["x" * 2_000_000])),
                  RecordError, "too_large"),
    "deeply_nested": (lambda r: _mutate(r, lambda x: x.update(bots=[])).replace(
        '"bots": []', '"bots": ' + "[" * 50 + "]" * 50), RecordError, "too_deep"),
    "impersonated_preset": (lambda r: _mutate(r, lambda x: x["variant"].update(
        doc=_altered_hunan(), content_hash=content_hash(_altered_hunan()))),
        ReplayError, "reserved_name"),
    "variant_reads_a_file": (lambda r: _mutate(r, lambda x: x["variant"].update(
        doc={"extends": "../../../../tests/data/hostile/secret", "id": "hunan"})),
        ReplayError, "variant_changed"),
    "ansi_variant_id": (lambda r: _mutate(r, lambda x: x["variant"].update(id="\x1b[31mx")),
                        ReplayError, "unknown_variant"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_RECORDS))
def test_hostile_record_is_refused(tmp_path, capsys, record, name):
    make, error, code = HOSTILE_RECORDS[name]
    path = tmp_path / f"{name}.json"
    path.write_text(make(record), "utf-8", errors="surrogatepass")
    with calls(CALLS), pytest.raises(error) as info:
        replay_file(path)
    assert info.value.code == code, str(info.value)
    assert_refused(*cli(capsys, "replay", path))


def test_the_unaltered_record_replays_and_names_its_rules(tmp_path, capsys, record):
    path = tmp_path / "good.json"
    path.write_text(json.dumps(record), "utf-8")
    code, out, err = cli(capsys, "replay", path)
    assert code == 0 and err == ""
    assert f"under preset hunan (content hash {load_preset('hunan').content_hash[:16]}…)" in out


def test_custom_rules_are_named_as_such(tmp_path, capsys):
    mine = tmp_path / "mine.yaml"
    mine.write_text("extends: hunan\nid: mine\nname: mine\nwin: {min_huxi: 12}\n", "utf-8")
    out_path = tmp_path / "mine.json"
    assert cli(capsys, "play", "--variant", mine, "--seed", 3, "--record", out_path)[0] == 0
    code, out, _ = cli(capsys, "replay", out_path)
    assert code == 0 and "under custom rules 'mine' (content hash " in out


# --- writing ------------------------------------------------------------------------------------

def test_write_record_refuses_symbolic_links(tmp_path, capsys):
    target = tmp_path / "precious.txt"
    target.write_text("keep me", "utf-8")
    link = tmp_path / "game.json"
    link.symlink_to(target)
    assert_refused(*cli(capsys, "play", "--seed", 2, "--record", link))
    assert target.read_text("utf-8") == "keep me" and link.is_symlink()


def test_write_record_refuses_devices_and_fifos(tmp_path, capsys):
    """A record or page replaces its target through a rename: a FIFO, a socket or a device
    (``--record /dev/null``) would be removed and replaced by a regular file, so it is
    refused, before any game is played, and left as it was."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _, err = cli(capsys, "play", "--seed", 2, "--record", fifo)
    assert code == 2 and "is a FIFO, not a regular file" in err
    assert fifo.is_fifo()
    record = tmp_path / "g.json"
    assert cli(capsys, "play", "--seed", 2, "--record", record)[0] == 0
    code, _, err = cli(capsys, "view", record, "-o", fifo)
    assert code == 2 and "is a FIFO" in err and fifo.is_fifo()
    if Path("/dev/null").is_char_device():
        code, _, err = cli(capsys, "view", record, "-o", "/dev/null")
        assert code == 2 and "/dev/null" in err and "is a character device" in err
        assert Path("/dev/null").is_char_device()
    game = play_out(Game(load_preset("hunan"), seed=4), make_bots(["greedy"], 4, 3))
    with pytest.raises(RecordError) as info:
        write_record(fifo, game, settle(game.state, False))
    assert info.value.code == "unwritable" and fifo.is_fifo()


def test_write_record_replaces_atomically_and_leaves_no_temporary(tmp_path, record):
    v = load_preset("hunan")
    game = play_out(Game(v, seed=4), make_bots(["greedy"], 4, 3))
    path = tmp_path / "g.json"
    path.write_text("old", "utf-8")
    write_record(path, game, settle(game.state, False))
    assert json.loads(path.read_text("utf-8"))["seed"] == 4
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]
    with pytest.raises(RecordError) as info:
        write_record(tmp_path / "missing" / "g.json", game, settle(game.state, False))
    assert info.value.code == "unwritable"


# --- a valid variant every bot can play ---------------------------------------------------------

def test_kan_discardable_variant_plays_with_every_bot(tmp_path, capsys):
    path = tmp_path / "kan.yaml"
    path.write_text("extends: hunan\nid: kan\nname: kan\ndiscard: {kan_discardable: true}\n",
                    "utf-8")
    code, out, err = cli(capsys, "validate", path, "--simulate", 4)
    assert code == 0 and "with every built-in bot" in out, err
    for seed in (1, 2, 3):
        assert cli(capsys, "play", "--variant", path, "--seed", seed, "--bots", "greedy")[0] == 0


def test_validate_simulate_reports_a_failing_bot(monkeypatch):
    from zipai_rules import bots, simulate

    class Broken:
        def __init__(self, seed):
            pass

        def __call__(self, state, options):
            raise IndexError("boom")

    monkeypatch.setitem(bots.BOTS, "broken", Broken)
    problem = simulate.simulate_check(load_preset("hunan"), 1)
    assert problem is not None and "the broken bot failed: IndexError: boom" in problem


# --- the terminal -------------------------------------------------------------------------------

def test_escape_keeps_text_and_json_meaning():
    text = "a\x1b[31m\r\x85\u202e\U000e0001 湖\n"
    shown = escape(text)
    assert shown == "a\\u001b[31m\\u000d\\u0085\\u202e\\udb40\\udc01 湖\n"
    assert json.loads(json.dumps(shown).replace("\\\\", "\\")) == text
    assert escape("湖南 x1 d10\n") == "湖南 x1 d10\n"


def test_control_characters_never_reach_the_terminal(tmp_path, capsys):
    # a name with an escape is refused by the schema; a message quoting one is escaped
    path = tmp_path / "\x1b[2Jclear.yaml"
    path.write_text("extends: hunan\nid: e\nname: e\n", "utf-8")
    code, out, err = cli(capsys, "validate", path)
    assert code == 0 and "\x1b" not in out and "\\u001b[2Jclear.yaml" in out



def test_record_path_is_checked_before_the_hand_is_played(tmp_path, capsys):
    from zipai_rules.cli import main

    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "target.json")
    for bad in (link, tmp_path, tmp_path / "missing" / "r.json"):
        assert main(["play", "--seed", "3", "--record", str(bad)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("error: ") and "cannot write the record" in err
    assert not (tmp_path / "target.json").exists()


def test_two_player_variant_plays_with_the_default_bots(tmp_path, capsys):
    from zipai_rules.cli import main

    two = tmp_path / "two.yaml"
    two.write_text("extends: hunan\nid: two_players\nname: two players\nplayers: 2\n"
                   "deal: {wall: 39}\n", "utf-8")
    assert main(["play", "--variant", str(two), "--seed", "4"]) == 0
    assert "result:" in capsys.readouterr().out
    assert main(["simulate", "--variant", str(two), "--games", "3", "--seed", "4"]) == 0
    assert main(["play", "--variant", str(two), "--bots", "greedy,random,greedy"]) == 2


def test_seed_and_deal_must_agree():
    from zipai_rules import HandError, find_variant
    from zipai_rules.engine import Game
    from zipai_rules.engine.game import shuffled_deal

    v = find_variant("hunan")
    assert Game(v, seed=7, deal=shuffled_deal(v, 7)).seed == 7
    with pytest.raises(HandError) as info:
        Game(v, seed=8, deal=shuffled_deal(v, 7))
    assert info.value.code == "bad_deal"


def test_a_record_of_any_seed_game_accepts_replays(tmp_path, capsys):
    """Records take every seed ``Game`` takes (up to 1024 bits)."""
    from zipai_rules.cli import main

    path = tmp_path / "big.json"
    seed = str(2 ** 1024 - 1)
    assert main(["play", "--seed", seed, "--record", str(path), "--json"]) == 0
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert "confirmed" in capsys.readouterr().out


def test_replay_says_when_a_deal_was_not_checked_against_a_shuffle(tmp_path, capsys):
    import json as _json

    from zipai_rules.cli import main

    path = tmp_path / "r.json"
    assert main(["play", "--seed", "5", "--record", str(path), "--json"]) == 0
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "deal: seeded, no commitment" in out and "checked against no shuffle" not in out
    record = _json.loads(path.read_text("utf-8"))
    record["seed"] = None
    path.write_text(_json.dumps(record), "utf-8")
    assert main(["replay", str(path)]) == 0
    assert "deal: dealt, no seed: the deal was given explicitly and is checked against no " \
        "shuffle: not proof that the host dealt it" in capsys.readouterr().out
