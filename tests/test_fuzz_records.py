"""Record fuzzing: real game records, mutated, fed to ``zipai replay``.

Mutations: drop, duplicate or swap actions, change an action's card, seat or kind, cut the
action list short, change the content hash, the variant, the seed, the deal, the result or a
payment, or truncate the JSON text. ``zipai replay`` must exit 2 with ``error: step K`` for
the right K (``error: … not valid JSON`` for truncated text), never crash, and accept only a
record that really replays: the expected step comes from an oracle that replays the mutated
actions with the engine (``Game.check`` at every step, then the result and settlement).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import tempfile
from functools import cache

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from zipai_rules import load_preset, preset_ids
from zipai_rules.bots import make_bots, play_out
from zipai_rules.cards import parse_indices, token
from zipai_rules.cli import main
from zipai_rules.engine import Action, Game
from zipai_rules.errors import ZipaiError
from zipai_rules.melds import Meld
from zipai_rules.records import deal_from_json, game_record
from zipai_rules.settlement import settle
from zipai_rules.simulate import default_bots

PRESETS = preset_ids()
TOKENS = [token(i) for i in range(21)]
KINDS = ["discard", "chi", "peng", "pao", "hu", "pass"]
N = max(15, settings.default.max_examples // 2)


@cache
def real_record(preset: str) -> str:
    """The JSON text of a seeded hand of ``preset`` played by the built-in bots."""
    v = load_preset(preset)
    game = play_out(Game(v, seed=11), make_bots(default_bots(v.players), 11, v.players))
    return json.dumps(game_record(game, settle(game, v.seats > v.players)))


def run_replay(text: str) -> tuple[int, str, str]:
    """``zipai replay`` on a file holding ``text``: (exit code, stdout, stderr)."""
    fd, path = tempfile.mkstemp(suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["replay", path])
        return code, out.getvalue(), err.getvalue()
    finally:
        os.unlink(path)


# --- the oracle -------------------------------------------------------------------------------

def _action(data) -> Action:
    melds = tuple(Meld(m["kind"], tuple(parse_indices(" ".join(m["cards"]))),
                       claimed=parse_indices(m["claimed"])[0] if "claimed" in m else None,
                       bi=m.get("bi", False)) for m in data.get("melds", ()))
    card = data.get("card")
    return Action(data["kind"], data["seat"], None if card is None else parse_indices(card)[0],
                  melds)


def expected_step(record) -> int | None:
    """The step at which a strict replay of the record's actions must fail (the header being
    unchanged), or ``None`` when the record is a legal hand with its recorded result."""
    v = load_preset(record["variant"]["id"])
    deal = deal_from_json(record["deal"])
    game = Game(v, deal=deal)
    actions = record["actions"]
    for k, data in enumerate(actions, 1):
        try:
            action = _action(data)
        except ZipaiError:
            return k
        if game.check(action) is not None:
            return k
        game.apply(action)
    if not game.is_over:
        return len(actions) + 1
    r = game.result
    result = {"kind": r.kind, "winner": r.winner,
              "card": None if r.card is None else token(r.card), "source": r.source,
              "huxi": r.huxi, "labels": list(r.labels),
              "decomposition": None if r.decomposition is None else r.decomposition.to_json()}
    settlement = settle(game, record["sitting_out"]).to_json()
    if result != record["result"] or settlement != record["settlement"]:
        return len(actions)
    return None


# --- mutations --------------------------------------------------------------------------------

ACTION_MUTATIONS = ["drop", "duplicate", "swap", "card", "seat", "kind", "cut"]
HEADER_MUTATIONS = ["hash", "variant", "seed", "deal"]
TAIL_MUTATIONS = ["result", "payment"]


def mutate_actions(data, record, how):
    actions = record["actions"]
    n = len(actions)
    k = data.draw(st.integers(0, n - 1), label="k")
    a = actions[k]
    if how == "drop":
        del actions[k]
    elif how == "duplicate":
        actions.insert(k, copy.deepcopy(a))
    elif how == "swap":
        assume(n > 1)
        k = min(k, n - 2)
        actions[k], actions[k + 1] = actions[k + 1], actions[k]
    elif how == "card":
        a["card"] = data.draw(st.sampled_from([t for t in TOKENS if t != a.get("card")]))
    elif how == "seat":
        a["seat"] = data.draw(st.sampled_from([s for s in range(5) if s != a["seat"]]))
    elif how == "kind":
        a["kind"] = data.draw(st.sampled_from([x for x in KINDS if x != a["kind"]]))
    else:  # cut the hand short
        del actions[k:]


@pytest.mark.parametrize("preset", PRESETS)
@settings(settings.default, max_examples=N)
@given(data=st.data(), how=st.sampled_from(ACTION_MUTATIONS))
def test_mutated_actions(preset, data, how):
    original = json.loads(real_record(preset))
    record = copy.deepcopy(original)
    mutate_actions(data, record, how)
    assume(record != original)
    want = expected_step(record)
    code, out, err = run_replay(json.dumps(record))
    if want is None:  # the mutation happens to describe another legal hand, same result
        assert code == 0 and "result and settlement confirmed" in out
    else:
        assert code == 2 and err.startswith("error: ")
        assert err.startswith(f"error: step {want}: "), (want, err)


@pytest.mark.parametrize("preset", ["hunan", "yongzhou", "penghu"])
@settings(settings.default, max_examples=N)
@given(data=st.data(), how=st.sampled_from(HEADER_MUTATIONS + TAIL_MUTATIONS))
def test_mutated_header_and_result(preset, data, how):
    record = json.loads(real_record(preset))
    n = len(record["actions"])
    if how == "hash":
        h = record["variant"]["content_hash"]
        record["variant"]["content_hash"] = data.draw(
            st.text("0123456789abcdef", min_size=64, max_size=64).filter(lambda x: x != h))
    elif how == "variant":
        record["variant"]["id"] = data.draw(st.sampled_from([p for p in PRESETS if p != preset]))
    elif how == "seed":
        record["seed"] += data.draw(st.integers(1, 1000))
    elif how == "deal":  # one card of the dealer's hand exchanged with a wall card
        hand, wall = record["deal"]["hands"][0].split(), record["deal"]["wall"].split()
        i, j = data.draw(st.integers(0, len(hand) - 1)), data.draw(st.integers(0, len(wall) - 1))
        assume(hand[i] != wall[j])
        hand[i], wall[j] = wall[j], hand[i]
        record["deal"]["hands"][0], record["deal"]["wall"] = " ".join(hand), " ".join(wall)
    elif how == "result":
        record["result"]["huxi"] += data.draw(st.integers(1, 30))
    else:
        s = data.draw(st.integers(0, len(record["settlement"]["payments"]) - 1))
        record["settlement"]["payments"][s] += data.draw(st.integers(-5, 5).filter(bool))
    code, _, err = run_replay(json.dumps(record))
    step = 0 if how in HEADER_MUTATIONS else n
    assert code == 2 and err.startswith(f"error: step {step}: "), err


@settings(settings.default, max_examples=N)
@given(preset=st.sampled_from(PRESETS), data=st.data())
def test_truncated_json(preset, data):
    text = real_record(preset)
    cut = data.draw(st.integers(0, text.rindex("}") - 1))  # never the closing brace
    code, out, err = run_replay(text[:cut])
    assert code == 2 and err.startswith("error: ") and "not valid JSON" in err
    assert "Traceback" not in err and not out


def test_the_real_records_replay():
    for preset in PRESETS:
        assert expected_step(json.loads(real_record(preset))) is None
        code, out, err = run_replay(real_record(preset))
        assert code == 0 and "replayed" in out and not err


def test_deeply_nested_json_is_an_error_not_a_crash(tmp_path, capsys):
    """Regression: 100,000 opening brackets used to raise RecursionError from json.loads."""
    from zipai_rules.cli import main

    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
