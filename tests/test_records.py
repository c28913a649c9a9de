"""Game records (zipai-log/1): writing, reading, strict replay, tampering, zipai replay."""

import copy
import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import C
from zipai_rules.bots import make_bots, play_out, seat_bot_names
from zipai_rules.cli import main
from zipai_rules.engine import Action, ActionKind, Game
from zipai_rules.errors import RecordError, ReplayError, ZipaiError
from zipai_rules.melds import Meld, MeldKind
from zipai_rules.presets import load_preset, preset_ids, variants_dir
from zipai_rules.records import (
    RECORD_FORMAT,
    action_from_json,
    dumps_record,
    game_record,
    read_record,
    record_schema,
    replay_record,
    validate_record,
    write_record,
)
from zipai_rules.settlement import settle
from zipai_rules.variant_file import load_variant_file

BOTS = ["greedy", "random", "greedy"]


def played(variant, seed, bots=BOTS):
    game = play_out(Game(variant, seed=seed),
                    make_bots(seat_bot_names(bots, variant.players), seed, variant.players))
    return game, settle(game, variant.seats > variant.players)


@pytest.fixture(scope="module")
def seven():
    """Hunan, seed 7, bots greedy/random/greedy: 15 actions, seat 0 wins 18 胡息 on a drawn
    x3 (the game `zipai play --seed 7` shows)."""
    game, settlement = played(load_preset("hunan"), 7)
    return game_record(game, settlement, bots=BOTS)


def replay_error(record) -> ReplayError:
    with pytest.raises(ReplayError) as info:
        replay_record(record)
    return info.value


# --- the record -----------------------------------------------------------------------------

def test_record_holds_the_game(seven):
    assert seven["format"] == "zipai-log/1" == RECORD_FORMAT
    assert seven["variant"] == {"id": "hunan",
                                "content_hash": load_preset("hunan").content_hash}
    assert seven["seed"] == 7 and seven["sitting_out"] is False
    assert seven["bots"] == BOTS
    assert seven["deal"]["dealer"] == 0
    assert [len(h.split()) for h in seven["deal"]["hands"]] == [21, 20, 20]
    assert len(seven["deal"]["wall"].split()) == 19
    assert len(seven["actions"]) == 15
    assert seven["actions"][0] == {"kind": "discard", "seat": 0, "card": "d7"}
    assert seven["actions"][2] == {"kind": "chi", "seat": 2, "card": "x2", "melds": [
        {"kind": "er_qi_shi", "cards": ["x2", "x7", "x10"], "claimed": "x2"}]}
    result = dict(seven["result"])
    decomposition = result.pop("decomposition")
    assert result == {"kind": "hu", "winner": 0, "card": "x3", "source": "draw",
                      "huxi": 18, "labels": []}
    assert decomposition["huxi"] == 18
    assert decomposition["groups"][:4] == [
        {"kind": "ti", "cards": ["x8", "x8", "x8", "x8"], "huxi": 9, "place": "table"},
        {"kind": "pao", "cards": ["d6", "d6", "d6", "d6"], "huxi": 9, "place": "table"},
        {"kind": "jiao", "cards": ["x1", "d1", "d1"], "huxi": 0, "place": "table"},
        {"kind": "jiang", "cards": ["x3", "x3"], "huxi": 0, "place": "hand"}]
    assert seven["settlement"]["payments"] == [4, -2, -2]
    assert seven["settlement"]["units"] == 2 and seven["settlement"]["unit"] == "tun"
    validate_record(seven)


def test_schema_is_draft_2020_12():
    schema = record_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["properties"]["format"] == {"const": "zipai-log/1"}


def test_action_from_json_round_trip():
    actions = [Action(ActionKind.DISCARD, 0, C("d7")[0]), Action(ActionKind.PASS, 2),
               Action(ActionKind.HU, 1), Action(ActionKind.PENG, 1, C("x1")[0]),
               Action(ActionKind.CHI, 2, C("x2")[0], (
                   Meld(MeldKind.ER_QI_SHI, tuple(C("x2 x7 x10")), claimed=C("x2")[0]),
                   Meld(MeldKind.YI_ER_SAN, tuple(C("x1 x2 x3")), bi=True)))]
    for a in actions:
        assert action_from_json(json.loads(json.dumps(a.to_json()))) == a
    assert action_from_json({"kind": "discard", "seat": 0, "card": "K"}).card == 20


def test_action_from_json_errors():
    with pytest.raises(ZipaiError) as info:
        action_from_json({"kind": "fold", "seat": 0})
    assert "fold" in str(info.value)
    with pytest.raises(RecordError) as info:
        action_from_json({"seat": 0})
    assert info.value.code == "bad_action"
    with pytest.raises(ZipaiError):
        action_from_json({"kind": "chi", "seat": 0, "card": "x2",
                          "melds": [{"kind": "shun", "cards": ["x2", "x7", "x10"]}]})


def test_same_seed_same_bytes(tmp_path):
    v = load_preset("guilin")
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for p in paths:
        write_record(p, *played(v, 3))
    assert paths[0].read_bytes() == paths[1].read_bytes()
    text = paths[0].read_text("utf-8")
    assert text.endswith("}\n")
    assert json.loads(text) == json.loads(json.dumps(json.loads(text), sort_keys=True))
    assert list(json.loads(text)) == sorted(json.loads(text))


def test_unfinished_hand_cannot_be_recorded(hunan):
    game = Game(hunan, seed=7)
    with pytest.raises(ZipaiError) as info:
        game_record(game, None)
    assert info.value.code == "hand_not_over"


def test_explicit_deal_records_no_seed(hunan):
    shuffled = Game(hunan, seed=7).deal
    game = play_out(Game(hunan, deal=shuffled), make_bots(BOTS, 7, 3))
    record = game_record(game, settle(game.state))
    assert record["seed"] is None
    replayed, _ = replay_record(record)
    assert replayed.seed is None and replayed.deal == shuffled


# --- round trip for every preset ------------------------------------------------------------

@pytest.mark.parametrize("preset", preset_ids())
def test_round_trip_every_preset(preset, tmp_path):
    """play → write → read → replay gives the same final state and settlement (20 seeds)."""
    v = load_preset(preset)
    for seed in range(1, 21):
        game, settlement = played(v, seed)
        path = tmp_path / f"{seed}.json"
        write_record(path, game, settlement, bots=seat_bot_names(BOTS, v.players))
        record = read_record(path)
        assert record["variant"] == {"id": preset, "content_hash": v.content_hash}
        assert record["sitting_out"] is (v.seats > v.players)
        replayed, resettled = replay_record(record)
        assert replayed.state == game.state
        assert replayed.actions == game.actions
        assert replayed.result == game.result
        assert resettled == settlement
        # zero-sum but for what no seat paid or received (湘乡's payments: credited)
        assert sum(resettled.payments) + resettled.sitting_out == resettled.credited
        again = game_record(replayed, resettled, bots=seat_bot_names(BOTS, v.players))
        assert dumps_record(again) == path.read_text("utf-8")


def test_custom_variant_replays_without_its_file(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("extends: hunan\nid: mine\nname: 我的\nwin:\n  min_huxi: 10\n", "utf-8")
    v = load_variant_file(path)
    game, settlement = played(v, 5)
    write_record(tmp_path / "mine.json", game, settlement)
    path.unlink()
    record = read_record(tmp_path / "mine.json")
    assert record["variant"]["id"] == "mine"
    assert record["variant"]["doc"]["win"]["min_huxi"] == 10
    assert record["variant"]["content_hash"] == v.content_hash
    replayed, resettled = replay_record(record)
    assert replayed.variant.content_hash == v.content_hash
    assert replayed.state == game.state and resettled == settlement

    changed = copy.deepcopy(record)
    changed["variant"]["doc"]["win"]["min_huxi"] = 11
    err = replay_error(changed)
    assert (err.step, err.code) == (0, "variant_changed")
    renamed = copy.deepcopy(record)
    renamed["variant"]["doc"]["id"] = "yours"
    assert replay_error(renamed).code == "variant_changed"


def test_preset_identical_file_records_as_preset(tmp_path, hunan):
    path = tmp_path / "same.yaml"
    path.write_text((variants_dir() / "hunan.yaml").read_text("utf-8"), "utf-8")
    v = load_variant_file(path)
    assert v.content_hash == hunan.content_hash
    assert "doc" not in game_record(*played(v, 2))["variant"]


@settings(max_examples=40)
@given(preset=st.sampled_from(preset_ids()), seed=st.integers(0, 2**32),
       bots=st.sampled_from([BOTS, ["random"], ["greedy"]]))
def test_payments_sum_to_zero(preset, seed, bots):
    v = load_preset(preset)
    game, settlement = played(v, seed, bots)
    assert len(settlement.payments) == v.players
    # 湘乡, the one preset that is not zero-sum, says by how much (credited)
    assert sum(settlement.payments) + settlement.sitting_out == settlement.credited
    assert settlement.credited == 0 or preset == "xiangxiang"
    if game.result.winner is not None:
        assert settlement.payments[game.result.winner] > 0
    record = game_record(game, settlement)
    assert replay_record(json.loads(dumps_record(record)))[1] == settlement


# --- tampered records -----------------------------------------------------------------------

def tampered(record, change):
    out = copy.deepcopy(record)
    change(out)
    return out


def test_changed_card_in_an_action(seven):
    # seat 0 does not hold d2 at its second discard
    err = replay_error(tampered(seven, lambda r: r["actions"][4].update(card="d2")))
    assert (err.step, err.code) == (5, "replay_diverged")
    assert str(err) == "step 5: seat 0 discard d2 refused: seat 0 holds no d2"


def test_dropped_action(seven):
    err = replay_error(tampered(seven, lambda r: r["actions"].pop(7)))
    assert err.step == 8
    assert str(err) == ("step 8: seat 2 discard d6 refused: seat 2 does not discard now: x1 is "
                        "on offer: answer it (a claim or pass)")
    err = replay_error(tampered(seven, lambda r: r["actions"].pop(0)))
    assert str(err) == "step 1: seat 1 discard d3 refused: it is seat 0's turn, not seat 1's"


def test_dropped_last_action(seven):
    err = replay_error(tampered(seven, lambda r: r["actions"].pop()))
    assert (err.step, err.code) == (15, "record_incomplete")
    assert "ends after 14 actions but the hand is not over: seat 0 is to act" in str(err)


def test_extra_action(seven):
    err = replay_error(tampered(seven, lambda r: r["actions"].append({"kind": "pass",
                                                                      "seat": 1})))
    assert str(err) == "step 16: seat 1 pass refused: the hand is over"


def test_malformed_meld_in_an_action(seven):
    err = replay_error(tampered(
        seven, lambda r: r["actions"][2]["melds"][0].update(cards=["x2", "x7", "x9"])))
    assert err.step == 3 and "x2 x7 x9 is not a er_qi_shi meld" in str(err)


def test_other_variant_id(seven):
    err = replay_error(tampered(seven, lambda r: r["variant"].update(id="guilin")))
    assert (err.step, err.code) == (0, "variant_changed")
    assert str(err).startswith("step 0: variant changed: guilin now has content hash ")
    err = replay_error(tampered(seven, lambda r: r["variant"].update(id="nowhere")))
    assert (err.step, err.code) == (0, "unknown_variant")


def test_changed_content_hash(seven):
    err = replay_error(tampered(seven, lambda r: r["variant"].update(content_hash="0" * 64)))
    assert (err.step, err.code) == (0, "variant_changed")
    assert "the record was made under 0000000000000000" in str(err)


def test_changed_result_huxi(seven):
    err = replay_error(tampered(seven, lambda r: r["result"].update(huxi=19)))
    assert (err.step, err.code) == (15, "result_differs")
    assert str(err) == "step 15: result differs: result.huxi recorded 19, replayed 18"


def test_record_holds_the_kings_of_the_winning_split():
    """Yongzhou, seed 26: the winner has 27 胡息, with a 将 of x2 whose second x2 is a 王."""
    game, settlement = played(load_preset("yongzhou"), 26)
    record = game_record(game, settlement, bots=BOTS)
    groups = record["result"]["decomposition"]["groups"]
    assert [g for g in groups if "kings" in g] == [
        {"kind": "jiang", "cards": ["x2", "x2"], "huxi": 0, "place": "hand", "kings": ["x2"]}]
    assert sum(g["huxi"] for g in groups) == record["result"]["huxi"] == 27
    validate_record(record)
    replay_record(record)


def test_record_marks_a_bi_group():
    game, settlement = played(load_preset("hunan"), 6)
    groups = game_record(game, settlement)["result"]["decomposition"]["groups"]
    assert groups[:2] == [
        {"kind": "er_qi_shi", "cards": ["d2", "d7", "d10"], "huxi": 6, "place": "table"},
        {"kind": "shun", "cards": ["d5", "d6", "d7"], "huxi": 0, "place": "table", "bi": True}]


def test_drawn_hand_has_no_decomposition():
    for seed in range(1, 60):
        game, settlement = played(load_preset("hunan"), seed)
        if game.result.kind == "huangzhuang":
            assert game_record(game, settlement)["result"]["decomposition"] is None
            return
    pytest.fail("no 荒庄 in seeds 1..59")


def test_record_without_decomposition_still_replays(seven):
    old = tampered(seven, lambda r: r["result"].pop("decomposition"))
    validate_record(old)
    replay_record(old)


def test_changed_decomposition(seven):
    def swap(r):
        r["result"]["decomposition"]["groups"][3]["place"] = "table"
    err = replay_error(tampered(seven, swap))
    assert (err.step, err.code) == (15, "result_differs")
    assert str(err) == ('step 15: result differs: result.decomposition.groups[3].place '
                        'recorded "table", replayed "hand"')


def test_changed_payment(seven):
    err = replay_error(tampered(seven, lambda r: r["settlement"].update(payments=[6, -3, -3])))
    assert str(err) == ("step 15: result differs: settlement.payments[0] recorded 6, "
                        "replayed 4")


def test_changed_deal(seven):
    def swap(r):
        wall = r["deal"]["wall"].split()
        wall[0], wall[1] = wall[1], wall[0]
        r["deal"]["wall"] = " ".join(wall)
    err = replay_error(tampered(seven, swap))
    assert (err.step, err.code) == (0, "bad_deal")
    assert "not the deal seed 7 shuffles" in str(err)

    def swap_unseeded(r):
        swap(r)
        r["seed"] = None
    err = replay_error(tampered(seven, swap_unseeded))
    assert str(err) == "step 2: seat 1 discard d3 refused: seat 1 does not act now"

    def extra_copy(r):
        r["deal"]["wall"] = r["deal"]["wall"][:-2] + "x9"
        r["seed"] = None
    err = replay_error(tampered(seven, extra_copy))
    assert err.step == 0 and "5 copies of x9" in str(err)


def test_dealer_outside_the_table(seven):
    err = replay_error(tampered(seven, lambda r: r["deal"].update(dealer=5)))
    assert (err.step, err.code) == (0, "bad_deal")
    assert "dealer seat 5 outside 0..2" in str(err)


def test_replay_error_survives_pickling():
    err = pickle.loads(pickle.dumps(ReplayError("result differs: x", 15,
                                                code="result_differs")))
    assert (str(err), err.step, err.code) == ("step 15: result differs: x", 15,
                                              "result_differs")
    rec = pickle.loads(pickle.dumps(RecordError("bad", "actions[1]", code="schema")))
    assert (rec.path, rec.code) == ("actions[1]", "schema")


def test_wrong_format_string(seven):
    with pytest.raises(RecordError) as info:
        replay_record(tampered(seven, lambda r: r.update(format="zipai-log/2")))
    assert (info.value.code, info.value.path) == ("bad_format", "format")
    assert "not a zipai-log/1 game record (format 'zipai-log/2')" in str(info.value)


def test_schema_error_names_the_json_path(seven):
    with pytest.raises(RecordError) as info:
        validate_record(tampered(seven, lambda r: r["actions"][2].update(card="x11")))
    assert (info.value.code, info.value.path) == ("schema", "actions[2].card")
    with pytest.raises(RecordError) as info:
        validate_record(tampered(seven, lambda r: r.pop("deal")))
    assert info.value.path == "<root>"
    assert str(info.value) == "<record>: <root>: missing required key 'deal'"
    with pytest.raises(RecordError) as info:
        validate_record([seven])
    assert info.value.code == "bad_format"


def test_malformed_json(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "zipai-log/1", "actions": [', "utf-8")
    with pytest.raises(RecordError) as info:
        read_record(path)
    assert info.value.code == "bad_json"
    assert "not valid JSON: line 1, column 39" in str(info.value)


def test_missing_file(tmp_path):
    with pytest.raises(RecordError) as info:
        read_record(tmp_path / "absent.json")
    assert info.value.code == "unreadable"


# --- zipai replay and zipai play --record ---------------------------------------------------

def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


HUNAN_HASH = load_preset("hunan").content_hash[:16]


def test_play_record_then_replay(capsys, tmp_path, seven):
    path = tmp_path / "seven.json"
    code, _, _ = run(capsys, "play", "--seed", 7, "--record", path)
    assert code == 0
    assert json.loads(path.read_text("utf-8")) == seven
    assert run(capsys, "replay", path) == (
        0, f"replayed 15 actions under preset hunan (content hash {HUNAN_HASH}…): result and "
        "settlement confirmed; deal: seeded, no commitment: not proof that the host dealt it "
        "(anyone can choose a seed)\ndigest: none (no shuffle commitment)\n", "")


def test_replay_reports_the_step(capsys, tmp_path, seven):
    path = tmp_path / "bad.json"
    path.write_text(dumps_record(tampered(seven, lambda r: r["actions"][4].update(card="d2"))),
                    "utf-8")
    code, out, err = run(capsys, "replay", path)
    assert code == 2 and out == ""
    assert err.startswith("error: step 5: seat 0 discard d2 refused: seat 0 holds no d2")
    assert "Traceback" not in err


@pytest.mark.parametrize("content, expected", [
    ("{not json", "not valid JSON: line 1, column 2"),
    ("[1, 2]", "not a game record: expected a JSON object, got an array"),
    ('{"id": "hunan", "players": 3}', "not a zipai-log/1 game record (no format)"),
    ('{"format": "zipai-log/1"}', "<root>: missing required keys 'actions', 'deal', "
                                  "'result', 'seed', 'settlement', 'variant'"),
])
def test_replay_bad_files(capsys, tmp_path, content, expected):
    path = tmp_path / "x.json"
    path.write_text(content, "utf-8")
    code, out, err = run(capsys, "replay", path)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and expected in err and err.count("\n") == 1


def test_replay_missing_file(capsys, tmp_path):
    code, out, err = run(capsys, "replay", tmp_path / "absent.json")
    assert code == 2 and err.startswith("error: ") and "cannot read" in err


def test_replay_several_files(capsys, tmp_path, seven):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(dumps_record(seven), "utf-8")
    bad.write_text(dumps_record(tampered(seven, lambda r: r["result"].update(huxi=19))),
                   "utf-8")
    code, out, err = run(capsys, "replay", good, bad)
    assert code == 2
    assert out == (f"{good}: replayed 15 actions under preset hunan "
                   f"(content hash {HUNAN_HASH}…): result and settlement confirmed; deal: "
                   "seeded, no commitment: not proof that the host dealt it (anyone can "
                   f"choose a seed)\n{good}: digest: none (no shuffle commitment)\n"
                   "1 of 2 records confirmed\n")
    assert err == (f"error: {bad}: step 15: result differs: result.huxi recorded 19, "
                   "replayed 18\n")


def test_play_record_needs_one_hand(capsys, tmp_path):
    code, out, err = run(capsys, "play", "--hands", 3, "--record", tmp_path / "m.json")
    assert (code, out) == (2, "")
    assert err == "error: --record writes the record of one hand; it cannot be combined " \
                  "with --hands\n"
    assert not (tmp_path / "m.json").exists()


def test_a_record_with_a_null_result_or_settlement_is_refused_cleanly():
    from zipai_rules.bots import make_bots, play_out
    from zipai_rules.records import ReplayError, game_record, replay_record
    from zipai_rules.settlement import settle
    game = play_out(Game("hunan", seed=7), make_bots(["greedy"], 7, 3))
    record = game_record(game, settle(game))
    for name in ("result", "settlement"):
        bad = dict(record, **{name: None})
        with pytest.raises(ReplayError) as err:
            replay_record(bad)
        assert err.value.code == "result_differs"
        assert str(err.value).endswith(f"result differs: {name} recorded null (a hand still "
                                       "being played), replayed a finished hand")


def test_settle_game_keeps_the_seat_that_sat_out():
    """penghu seats four for three players: the seat out of the hand is paid 数醒, and
    ``settle(game)`` settles as the record says (``sitting_out: true``)."""
    from zipai_rules.bots import make_bots, play_out
    from zipai_rules.records import game_record, replay_record
    from zipai_rules.settlement import settle
    for seed in range(40):
        game = play_out(Game("penghu", seed=seed), make_bots(["greedy"], seed, 3))
        if game.result.winner is not None:
            break
    settled = settle(game)
    assert settled == settle(game, True) and settled.sitting_out != 0
    assert settle(game, False).sitting_out == 0
    again, replayed = replay_record(game_record(game, settled))
    assert replayed == settled
