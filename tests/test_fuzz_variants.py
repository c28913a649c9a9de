"""Variant fuzzing: odd variant documents, random bytes and broken YAML.

* Schema-valid documents from ``variant_documents()`` either build and then play 20 seeded
  games cleanly (``simulate_check``), or are rejected with a ``VariantError`` that lists its
  problems.
* ``zipai validate FILE`` on random bytes, on every preset truncated at random points and on
  presets with a random stretch overwritten never prints a traceback: it exits 0 (a valid
  variant) or 2 with ``error:`` first on stderr.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zipai_rules import preset_ids
from zipai_rules.cli import main
from zipai_rules.errors import VariantError
from zipai_rules.loader import build_variant
from zipai_rules.presets import raw_preset, variants_dir
from zipai_rules.simulate import simulate_check
from zipai_rules.testing import variant_documents

PRESETS = preset_ids()
FEW = max(5, settings.default.max_examples // 12)   # each built document plays 20 games
MANY = settings.default.max_examples


def validate(content: bytes, name: str = "fuzz.yaml") -> tuple[int, str, str]:
    """``zipai validate`` on a file holding ``content``: (exit code, stdout, stderr)."""
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, name)
    try:
        with open(path, "wb") as f:
            f.write(content)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["validate", path])
        return code, out.getvalue(), err.getvalue()
    finally:
        os.unlink(path)
        os.rmdir(folder)


def assert_clean(code: int, out: str, err: str) -> None:
    assert code in (0, 2), code
    if code == 0:
        assert "valid variant" in out
        assert all(line.startswith("warning: ") for line in err.splitlines()), err
    else:
        assert err.startswith("error:") and "Traceback" not in err


@pytest.mark.parametrize("preset", PRESETS)
@settings(settings.default, max_examples=FEW)
@given(data=st.data())
def test_fuzzed_documents_build_and_play_or_are_rejected(preset, data):
    doc = data.draw(variant_documents(preset))
    try:
        variant = build_variant(doc, raw_preset, "fuzz")
    except VariantError as exc:
        assert exc.code in ("schema", "semantic") and exc.problems
        return
    assert simulate_check(variant, 20) is None


@settings(settings.default, max_examples=MANY)
@given(content=st.binary(max_size=300))
def test_random_bytes(content):
    assert_clean(*validate(content))


PRESET_TEXT = {p: (variants_dir() / f"{p}.yaml").read_bytes() for p in PRESETS}


@settings(settings.default, max_examples=MANY)
@given(preset=st.sampled_from(PRESETS), data=st.data())
def test_truncated_presets(preset, data):
    text = PRESET_TEXT[preset]
    cut = data.draw(st.integers(0, len(text)))
    code, out, err = validate(text[:cut])
    assert_clean(code, out, err)
    if cut == len(text):
        assert code == 0  # the whole file is the preset


YAML_BITS = st.sampled_from(["", " ", "\n", ":", "- ", "[", "]", "{", "}", "'", '"', "&a ", "*a",
                             "!!", "? ", "1: ", "[1]: ", "on: ", "\t", "#", "|", ">", "\\", "null",
                             "1e999", "-1", "x" * 40, "\xff", "王", "010", "1:30", "0x1F",
                             "yes", "\u200b", "\u202e", "\ufeff", "ｈ", "-1000000"])


@settings(settings.default, max_examples=MANY)
@given(preset=st.sampled_from(PRESETS), data=st.data())
def test_overwritten_presets(preset, data):
    text = PRESET_TEXT[preset].decode("utf-8")
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 40)))
    junk = "".join(data.draw(st.lists(YAML_BITS, max_size=6)))
    assert_clean(*validate((text[:start] + junk + text[end:]).encode("utf-8", "surrogatepass")))


@pytest.mark.parametrize("content, expected", [
    (b"? [1]\n: 2\n", "a list is used as a mapping key"),
    (b"{[1]: 2}\n", "a list is used as a mapping key"),
    (b"? {a: 1}\n: 2\n", "a mapping is used as a mapping key"),
    (b"extends: hunan\ncitations: {1: x}\n", "mapping key 1 is not text"),
    (b"extends: hunan\nterminology: {2: x}\n", "mapping key 2 is not text"),
    (b"extends: hunan\nwin: {on: 3}\n", "mapping key on is not text"),
    # "nested too deeply" (pure-Python parser) or "exceeded maximum nesting depth" (libyaml)
    (b"[" * 5000 + b"]" * 5000, "nest"),
])
def test_yaml_that_used_to_crash(content, expected):
    """Regression: these printed tracebacks (TypeError for an unhashable key, AttributeError or
    TypeError for a non-text key under citations / terminology, RecursionError)."""
    code, out, err = validate(content)
    assert code == 2 and err.startswith("error:") and expected in err, err


def test_non_string_keys_in_a_mapping_are_schema_problems():
    """The same documents built from Python mappings (no YAML): a problem, not a crash."""
    for key in ("citations", "terminology"):
        with pytest.raises(VariantError) as exc:
            build_variant({"extends": "hunan", key: {1: "x"}}, raw_preset, "doc")
        assert exc.value.code == "schema"
        assert exc.value.problems == [(f"{key}.1", "key 1 is not a string")]


# --- scoring numbers anywhere in the schema's range ----------------------------------------------

def _effects() -> st.SearchStrategy[dict[str, object]]:
    """A 名堂's effects drawn across the schema's whole range (small values most often)."""
    def num(lo: int, hi: int, common: list[int]) -> st.SearchStrategy[int]:
        return st.one_of(st.sampled_from(common), st.integers(lo, hi))
    return st.fixed_dictionaries({}, optional={
        "multiply_huxi": num(1, 100, [1, 2, 100]), "add_huxi": num(-1000, 1000, [-3, 0, 6]),
        "multiply_units": num(1, 100, [1, 2, 100]), "add_units": num(-10000, 10000, [-1, 0, 1]),
    })


@settings(settings.default, max_examples=FEW)
@given(data=st.data())
def test_scoring_numbers_that_validate_play_record_and_replay(data, tmp_path_factory):
    """Patterns with any effect the schema allows, on every win or on 自摸: either refused with
    its problems, or every hand plays, settles within MAX_SCORE, is recorded and replays."""
    from zipai_rules.bots import make_bots, play_out
    from zipai_rules.engine import Game
    from zipai_rules.inputs import MAX_SCORE
    from zipai_rules.records import replay_file, write_record
    from zipai_rules.settlement import settle

    patterns = []
    for k in range(data.draw(st.integers(1, 12))):
        effects = data.draw(_effects()) or {"add_units": 1}
        when = data.draw(st.sampled_from([{"fact": "groups", "at_least": 0}, {"label": "zimo"}]))
        patterns.append({"name": f"p{k}", "when": when, **effects})
    doc = {"extends": data.draw(st.sampled_from(["hunan", "guilin", "shaoyang"])), "id": "fuzz",
           "name": "fuzz", "scoring": {"mingtang": {"patterns": patterns}}}
    try:
        variant = build_variant(doc, raw_preset, "fuzz")
    except VariantError as exc:
        assert exc.code in ("schema", "semantic") and exc.problems
        return
    folder = tmp_path_factory.mktemp("records")
    for seed in (1, 2):
        game = play_out(Game(variant, seed=seed), make_bots(["greedy"], seed, variant.players))
        s = settle(game)
        assert all(abs(x) <= MAX_SCORE for x in (s.huxi, s.units, *s.payments, s.sitting_out))
        if s.winner is not None:
            assert s.units >= 0  # no winner pays
        path = folder / f"{seed}.json"
        write_record(path, game, s)
        assert replay_file(path)[1] == s
