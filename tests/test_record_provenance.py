"""A host proving an uploaded record is one of its own hands: the deal's provenance
(committed, seeded, dealt), expect_digest, zipai replay --expect-digest, the strict text reader
loads_record, and the host's own fields in meta."""

import copy
import json

import pytest

import zipai_rules
from zipai_rules.bots import make_bots, play_out
from zipai_rules.cli import main
from zipai_rules.engine import Game
from zipai_rules.engine.seeds import commit_seed, verify_commitment
from zipai_rules.errors import RecordError, ReplayError, ZipaiError
from zipai_rules.records import (
    MAX_META_BYTES,
    PROVENANCES,
    dumps_record,
    game_record,
    loads_record,
    read_record,
    replay_record,
    replay_report,
    resume_game,
    save_game,
    validate_record,
    write_record,
)
from zipai_rules.settlement import settle

BOTS = ["greedy", "random", "greedy"]
#: the host's nonce for seed 7, and the digest it published before the deal (the value
#: tests/test_seeds.py pins: SHA-256 of the tag, the nonce and the seed)
HOST_NONCE = "0123456789abcdef0123456789abcdef"
HOST_DIGEST = "ae7d587b87698fbf5a52be9d80507d4d2da2f50e7bdc2f6ece06d6a0512dde00"
#: a seed of hunan whose deal is a 天胡 for the dealer: the game is over before any action
TIANHU_SEED = 2857


def finished(variant, seed=None, deal=None):
    game = play_out(Game(variant, seed=seed, deal=deal), make_bots(BOTS, 7, 3))
    return game, settle(game.state)


@pytest.fixture(scope="module")
def host_record(hunan):
    """Seed 7 dealt at the host's table under the commitment it published (15 actions)."""
    game, settlement = finished(hunan, 7)
    game.commitment = commit_seed(7, HOST_NONCE)
    record = game_record(game, settlement, bots=BOTS)
    assert record["commitment"] == {"digest": HOST_DIGEST, "nonce": HOST_NONCE}
    return record


@pytest.fixture(scope="module")
def home_record(hunan):
    """A 天胡 dealt at home: the player chose the seed and committed to it with a nonce of
    its own. Its commitment is sound, so on its own it replays as committed."""
    game = Game(hunan, seed=TIANHU_SEED)
    assert game.is_over and game.result.kind == "tianhu" and game.result.winner == 0
    game.commitment = commit_seed(TIANHU_SEED, "ab" * 16)
    return game_record(game, settle(game.state))


def refused(record, digest):
    with pytest.raises(RecordError) as info:
        replay_report(record, expect_digest=digest)
    return info.value


# --- provenance -------------------------------------------------------------------------------

def test_the_hosts_own_hand_is_committed_to_its_digest(host_record):
    report = replay_report(host_record)
    assert (report.provenance, report.digest, report.expected) == (
        "committed", HOST_DIGEST, False)
    assert len(report.game.actions) == 15 and report.settlement.payments == (4, -2, -2)
    checked = replay_report(host_record, expect_digest=HOST_DIGEST.upper())
    assert (checked.provenance, checked.digest, checked.expected) == (
        "committed", HOST_DIGEST, True)
    assert checked.provenance_text().startswith("committed, digest as expected")
    assert report.provenance_text().endswith("only if the host published this digest before "
                                             "the deal")
    assert PROVENANCES == ("committed", "seeded", "dealt")
    # the old call shape still unpacks, and takes the digest too
    game, settlement = replay_record(host_record, expect_digest=HOST_DIGEST)
    assert settlement.payments == (4, -2, -2)


def test_a_hand_dealt_at_home_is_refused_under_the_hosts_digest(home_record):
    own = home_record["commitment"]["digest"]
    assert own != HOST_DIGEST and verify_commitment(own, TIANHU_SEED, "ab" * 16)
    alone = replay_report(home_record)  # sound by itself: that is why the digest matters
    assert (alone.provenance, alone.digest, len(alone.game.actions)) == ("committed", own, 0)
    err = refused(home_record, HOST_DIGEST)
    assert (err.code, err.path) == ("digest_mismatch", "commitment.digest")
    assert str(err) == (f"<record>: commitment.digest: {own} is not the digest expected, "
                        f"{HOST_DIGEST}: the record is another hand")


def without_commitment(record):
    bare = copy.deepcopy(record)
    del bare["commitment"]
    return bare


def unproven(record, provenance):
    """The report of a record that replays but proves nothing of its dealer, after checking
    that the host's digest refuses it."""
    report = replay_report(record)
    assert (report.provenance, report.digest) == (provenance, None)
    assert "not proof that the host dealt it" in report.provenance_text()
    err = refused(record, HOST_DIGEST)
    assert (err.code, err.path) == ("digest_mismatch", "commitment")
    assert f"holds no shuffle commitment (deal: {provenance}), so it is not the hand of " \
        f"digest {HOST_DIGEST}" in str(err)
    return report


def test_a_seeded_tianhu_without_commitment_proves_nothing(home_record):
    assert unproven(without_commitment(home_record), "seeded").game.result.kind == "tianhu"


def test_a_deleted_commitment_is_seeded_and_refused(host_record):
    assert unproven(without_commitment(host_record), "seeded").settlement.payments == (4, -2, -2)


def test_an_explicit_deal_is_dealt(hunan):
    game, settlement = finished(hunan, deal=Game(hunan, seed=7).deal)
    record = game_record(game, settlement)
    assert record["seed"] is None
    assert "checked against no shuffle" in unproven(record, "dealt").provenance_text()


def test_a_matching_digest_still_needs_the_right_nonce(host_record):
    forged = copy.deepcopy(host_record)
    forged["commitment"]["nonce"] = "f" * 32
    with pytest.raises(ReplayError) as info:
        replay_report(forged, expect_digest=HOST_DIGEST)
    assert (info.value.step, info.value.code) == (0, "bad_commitment")


@pytest.mark.parametrize("bad", ["xyz", HOST_DIGEST[:-1], HOST_DIGEST + "0",
                                 "g" * 64, "٣" * 64, 7, b"0" * 64])
def test_a_malformed_expected_digest_is_a_bad_argument(host_record, bad):
    with pytest.raises(ZipaiError) as info:
        replay_report(host_record, expect_digest=bad)
    assert info.value.code == "bad_argument"
    assert str(info.value).startswith("expect_digest: ")


# --- zipai replay -----------------------------------------------------------------------------

def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_prints_the_provenance_and_the_digest(capsys, tmp_path, host_record,
                                                     home_record):
    host, home = tmp_path / "host.json", tmp_path / "home.json"
    host.write_text(dumps_record(host_record), "utf-8")
    home.write_text(dumps_record(home_record), "utf-8")
    code, out, err = run(capsys, "replay", host)
    assert (code, err) == (0, "")
    first, second = out.splitlines()
    assert first.endswith("result and settlement confirmed; deal: committed: the seed and "
                          "nonce match the record's shuffle commitment; proof that the host "
                          "dealt it only if the host published this digest before the deal")
    assert second == f"digest: {HOST_DIGEST}"
    code, out, err = run(capsys, "replay", "--expect-digest", HOST_DIGEST.upper(), host)
    assert code == 0 and "deal: committed, digest as expected" in out
    code, out, err = run(capsys, "replay", "--expect-digest", HOST_DIGEST, home)
    assert (code, out) == (2, "")
    assert err == (f"error: {home}: commitment.digest: {home_record['commitment']['digest']} "
                   f"is not the digest expected, {HOST_DIGEST}: the record is another hand\n")


def test_replay_expect_digest_refusals(capsys, tmp_path, host_record):
    bare = without_commitment(host_record)
    path = tmp_path / "bare.json"
    path.write_text(dumps_record(bare), "utf-8")
    code, out, err = run(capsys, "replay", path)
    assert code == 0 and out.splitlines()[1] == "digest: none (no shuffle commitment)"
    assert "deal: seeded, no commitment: not proof that the host dealt it" in out
    code, out, err = run(capsys, "replay", "--expect-digest", HOST_DIGEST, path)
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {path}: commitment: the record holds no shuffle commitment")
    code, out, err = run(capsys, "replay", "--expect-digest", "abc", path)
    assert (code, out) == (2, "")
    assert err == ("error: --expect-digest: str 'abc' is not a shuffle commitment digest "
                   "(64 hex digits)\n")
    code, out, err = run(capsys, "replay", "--expect-digest", HOST_DIGEST, path, path)
    assert (code, out) == (2, "")
    assert err == "error: --expect-digest is the digest of one hand: give one FILE\n"


# --- loads_record -----------------------------------------------------------------------------

def test_loads_record_is_the_reader_of_read_record(tmp_path, host_record):
    text = dumps_record(host_record)
    path = tmp_path / "r.json"
    path.write_bytes(text.encode("utf-8"))
    assert loads_record(text) == loads_record(text.encode("utf-8")) == read_record(path) \
        == host_record
    assert loads_record(bytearray(text.encode("utf-8"))) == host_record
    assert zipai_rules.loads_record is loads_record and zipai_rules.read_record is read_record
    assert resume_game(text.encode("utf-8")).actions == replay_record(host_record)[0].actions


def test_loads_record_refuses_a_duplicate_key(tmp_path, host_record):
    # plain json.loads would keep the last seed silently
    text = dumps_record(host_record)[:-2] + ',\n  "seed": 8\n}\n'
    assert json.loads(text)["seed"] == 8
    with pytest.raises(RecordError) as info:
        loads_record(text.encode("utf-8"))
    assert info.value.code == "duplicate_key"
    assert str(info.value) == "<record>: duplicate key 'seed' in a JSON object"
    path = tmp_path / "dup.json"
    path.write_text(text, "utf-8")
    with pytest.raises(RecordError) as info:
        read_record(path)
    assert str(info.value) == f"{path}: duplicate key 'seed' in a JSON object"


def test_loads_record_refuses_oversized_and_foreign_input(host_record):
    import attrs

    from zipai_rules.inputs import RECORD_LIMITS

    text = dumps_record(host_record)
    small = attrs.evolve(RECORD_LIMITS, max_bytes=len(text.encode("utf-8")) - 1)
    for data in (text, text.encode("utf-8")):
        with pytest.raises(RecordError) as info:
            loads_record(data, small)
        assert info.value.code == "too_large"
        assert str(info.value).startswith(f"<record>: larger than the limit of "
                                          f"{small.max_bytes} bytes")
    assert loads_record(text, attrs.evolve(small, max_bytes=small.max_bytes + 1))
    # a multi-byte character counts its UTF-8 bytes: 2 characters, 6 bytes
    with pytest.raises(RecordError) as info:
        loads_record('"王王"', attrs.evolve(RECORD_LIMITS, max_bytes=5))
    assert info.value.code == "too_large"
    cases = [(b'{"format": "zipai-log/1"\xff}', "unreadable", "not UTF-8 text (byte 24)"),
             ("[1, 2]", "bad_format", "not a game record: expected a JSON object, got an "
                                      "array"),
             ('{"seed": NaN}', "bad_json", "NaN is not a JSON number"),
             ("[" * 40 + "]" * 40, "too_deep", "nested more than 32 levels"),
             (7, "bad_argument", "expected the record's JSON text (a str or UTF-8 bytes), "
                                 "got int"),
             (host_record, "bad_argument", "got dict")]
    for data, code, words in cases:
        with pytest.raises(RecordError) as info:
            loads_record(data, origin="upload 12")
        assert info.value.code == code and words in str(info.value), str(info.value)
        assert str(info.value).startswith("upload 12: ")


# --- meta -------------------------------------------------------------------------------------

META = {"table": "t-0042", "players": [{"id": 1001, "seat": 0}, {"id": 1002, "seat": 1},
                                       {"id": 1003, "seat": 2}],
        "started": "2024-05-01T20:15:00Z", "stake": 5, "ranked": True, "note": None}


def test_meta_round_trips_and_confirms_nothing(tmp_path, hunan, host_record):
    game, settlement = replay_record(host_record)
    game.commitment = commit_seed(7, HOST_NONCE)
    path = tmp_path / "meta.json"
    write_record(path, game, settlement, bots=BOTS, meta=META)
    record = read_record(path)
    assert record["meta"] == META
    without = {k: v for k, v in record.items() if k != "meta"}
    assert without == host_record  # meta changes nothing else: variant hash, digest, result
    assert record["variant"]["content_hash"] == hunan.content_hash
    assert record["commitment"]["digest"] == HOST_DIGEST
    report = replay_report(record, expect_digest=HOST_DIGEST)
    assert report.meta == META and report.meta["players"][2] == {"id": 1003, "seat": 2}
    report.meta["table"] = "t-9"  # a copy: the record keeps its own
    assert record["meta"]["table"] == "t-0042"
    report = replay_report(record, expect_digest=HOST_DIGEST)
    # another meta, the same hand: the replay never compares it
    other = {**record, "meta": {"table": "t-9"}}
    assert replay_report(other, expect_digest=HOST_DIGEST).settlement == report.settlement
    again = game_record(report.game, report.settlement, bots=BOTS, meta=report.meta)
    assert dumps_record(again) == path.read_text("utf-8")


def test_meta_survives_save_and_resume(hunan):
    game = Game(hunan, seed=7)
    saved = save_game(game, meta={"table": "t-1"})
    assert saved["meta"] == {"table": "t-1"} and saved["result"] is None
    resumed = resume_game(json.dumps(saved))
    assert save_game(resumed, meta=saved["meta"]) == saved
    assert "meta" not in save_game(resumed)


@pytest.mark.parametrize("meta, code, path, words", [
    ({"table": 1.5}, "schema", "meta.table", "1.5 is not of type"),
    ({"t" * 65: 1}, "schema", "meta", "65 characters, more than the 64 allowed"),
    ({"": 1}, "schema", "meta", "should be non-empty"),
    ({f"k{n}": n for n in range(65)}, "schema", "meta", "65 keys, more than the 64 allowed"),
    ({"a": {"b": {"c": [1]}}}, "schema", "meta.a.b.c", "is not of type"),
    ({"a": [[1, [2]]]}, "schema", "meta.a[0][1]", "is not of type"),
    ({"n": 2 ** 53}, "schema", "meta.n", "is greater than the maximum"),
    ({"s": "x" * 1025}, "schema", "meta.s", "1025 characters, more than the 1024 allowed"),
    ({"big": ["x" * 1000] * 5}, "too_large", "meta", "more than the 4096 allowed"),
])
def test_bad_meta_is_refused_with_its_path(host_record, meta, code, path, words):
    for attempt in (lambda: validate_record({**host_record, "meta": meta}),
                    lambda: replay_record({**host_record, "meta": meta}),
                    lambda: loads_record(json.dumps({**host_record, "meta": meta}))):
        with pytest.raises(RecordError) as info:
            attempt()
        assert (info.value.code, info.value.path) == (code, path)
        assert str(info.value).startswith(f"<record>: {path}: ") and words in str(info.value)


def test_bad_meta_is_refused_when_writing(tmp_path, host_record):
    game, settlement = replay_record(host_record)
    for meta, path in (({"when": float("inf")}, "meta.when"), ({1: "x"}, "meta.1"),
                       ({"t": {"x", "y"}}, "meta.t")):
        with pytest.raises(RecordError) as info:
            write_record(tmp_path / "x.json", game, settlement, meta=meta)
        assert info.value.path == path, str(info.value)
    with pytest.raises(ZipaiError) as info:
        game_record(game, settlement, meta=["table"])
    assert info.value.code == "bad_argument" and str(info.value).startswith("meta: ")
    assert not (tmp_path / "x.json").exists()


def test_meta_at_its_bounds_is_kept(host_record):
    validate_record({**host_record, "meta": {f"k{n:02d}": n for n in range(64)}})
    # four strings of 1000 characters and one filling the rest: 4096 bytes exactly
    fill = {k: "x" * 1000 for k in "abcd"}
    fill["e"] = "x" * (MAX_META_BYTES - len(json.dumps({**fill, "e": ""}, separators=(",", ":"))))
    assert len(json.dumps(fill, separators=(",", ":"))) == MAX_META_BYTES
    validate_record({**host_record, "meta": fill})
    fill["e"] += "x"
    with pytest.raises(RecordError) as info:
        validate_record({**host_record, "meta": fill})
    assert str(info.value) == "<record>: meta: 4097 bytes as compact JSON, more than the 4096 " \
        "allowed"
    validate_record({**host_record, "meta": {"a": {"b": {"c": 1}}, "l": [[1, "2", None]]}})
