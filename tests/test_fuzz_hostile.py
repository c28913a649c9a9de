"""Hostile fuzzing: variant files and records with floats, huge integers, booleans, lone
surrogates, aliases and duplicate keys in random places.

Every run of ``zipai validate`` / ``zipai replay`` must end cleanly (exit 0 or 2 with
``error:``, no traceback) within a time bound, and whatever is accepted must be exactly what
was meant: an accepted variant holds a true ``int`` wherever its preset does, and an accepted
record is value for value and type for type the record it was made from.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import calls
from zipai_rules import load_preset, preset_ids
from zipai_rules.bots import make_bots, play_out
from zipai_rules.cli import main
from zipai_rules.engine import Game
from zipai_rules.frozen import thaw
from zipai_rules.records import game_record
from zipai_rules.settlement import settle
from zipai_rules.variant_file import load_variant_file

PRESETS = preset_ids()
N = max(20, settings.default.max_examples // 2)
#: the calls one run of the command line may make (tests/bounds.py): a refusal makes far
#: fewer, the replay of a whole good record about 1 000 000
CALLS = 4_000_000

# hostile scalars, as YAML / JSON source text
TOKENS = st.sampled_from([
    "3.0", "4.0", "1e1", "1.1e1", "-0", "-1", "0", "true", "false", "null", "1e999", "-1e999",
    "9" * 79, "9" * 81, "9" * 5000, '"\\ud800"', '"\\udfff x"', '"\\u001b[31m"', '"x"', '""',
    "[]", "{}", "[1, 2.0]", '{"a": 1, "a": 2}', "[[[[[[[[[[1]]]]]]]]]]",
])
YAML_ONLY = st.sampled_from([".nan", ".inf", "-.inf", "0x10", "0o17", "1_000", "2020-01-01",
                             "!!binary aGk=", "&a [1, *a]", "on", "yes", "~"])
#: YAML 1.1 forms that a YAML 1.2 reader reads otherwise (octal, base 60, hex, binary,
#: underscores, yes/no/on/off): refused wherever they stand
YAML_11 = ["010", "-07", "00", "1:30", "190:20:30", "1:30.5", "0x1F", "+0x1", "0b101", "1_0",
           "1_0.5", "yes", "No", "OFF", "on"]


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with calls(CALLS), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def with_file(text: str, suffix: str, fn):  # type: ignore[no-untyped-def]
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, f"fuzz{suffix}")
    try:
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(text)
        return fn(path)
    finally:
        os.unlink(path)
        os.rmdir(folder)


def assert_clean(code: int, out: str, err: str) -> None:
    assert code in (0, 2), (code, err)
    if code == 2:
        assert err.startswith("error:") and "Traceback" not in err
    assert "\x1b" not in out + err


def leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of every scalar in a JSON-like tree."""
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in leaves(v, (*path, k))]
    if isinstance(node, list):
        return [p for k, v in enumerate(node) for p in leaves(v, (*path, k))]
    return [path]


def get(node: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        node = node[p]
    return node


# --- variant files ------------------------------------------------------------------------------

@cache
def preset_doc(preset: str) -> dict[str, Any]:
    return thaw(load_preset(preset).doc)


def nested_yaml(path: tuple[Any, ...], value: str) -> str:
    """A flow-style YAML override setting ``path`` (mapping keys only) to ``value``."""
    text = value
    for key in reversed(path):
        text = f"{{{key}: {text}}}"
    return text


@settings(settings.default, max_examples=N)
@given(preset=st.sampled_from(PRESETS), data=st.data())
def test_hostile_values_in_variant_files(preset, data):
    doc = preset_doc(preset)
    paths = [p for p in leaves(doc) if all(isinstance(k, str) for k in p) and p[0] not in
             ("id", "name", "description", "citations", "aliases")]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(st.one_of(TOKENS, YAML_ONLY, st.sampled_from(YAML_11)))
    lines = [f"extends: {preset}", "id: fuzz", "name: fuzz",
             f"{path[0]}: {nested_yaml(path[1:], value)}"]
    if data.draw(st.booleans()):
        lines.append(lines[-1] if data.draw(st.booleans()) else "anchor_holder: &h [1, 2]")
    text = "\n".join(lines) + "\n"

    def check(file: str) -> None:
        code, out, err = run("validate", file)
        assert_clean(code, out, err)
        assert code == 2 or value not in YAML_11, (path, value)
        if code == 0:
            loaded = thaw(load_variant_file(file).doc)
            for p in leaves(doc):
                if type(get(doc, p)) is int and p[:len(path)] != path:
                    assert type(get(loaded, p)) is int, p
            got = get(loaded, path) if _has(loaded, path) else None
            assert type(got) is type(get(doc, path)) or got is None, (path, value, got)
    with_file(text, ".yaml", check)


def _has(node: Any, path: tuple[Any, ...]) -> bool:
    try:
        get(node, path)
        return True
    except (KeyError, IndexError, TypeError):
        return False


# --- records ------------------------------------------------------------------------------------

@cache
def record(preset: str) -> dict[str, Any]:
    v = load_preset(preset)
    game = play_out(Game(v, seed=5), make_bots(["greedy", "random"], 5, v.players))
    return game_record(game, settle(game, v.seats > v.players))


MARK = "__HOSTILE_VALUE__"


@settings(settings.default, max_examples=N)
@given(preset=st.sampled_from(PRESETS), data=st.data())
def test_hostile_values_in_records(preset, data):
    original = record(preset)
    path = data.draw(st.sampled_from(leaves(original)))
    token = data.draw(TOKENS)
    changed = json.loads(json.dumps(original))
    parent = get(changed, path[:-1])
    parent[path[-1]] = MARK
    text = json.dumps(changed, ensure_ascii=False).replace(json.dumps(MARK), token)
    if data.draw(st.booleans()):  # a duplicate key in front of the real one
        key = data.draw(st.sampled_from(sorted(original)))
        text = "{" + json.dumps(key) + ": " + json.dumps(original[key]) + ", " + text[1:]

    def check(file: str) -> None:
        code, out, err = run("replay", file)
        assert_clean(code, out, err)
        if code == 0:  # only a record that means exactly the original may pass
            accepted = json.loads(text)
            assert json.dumps(accepted, sort_keys=True) == json.dumps(original, sort_keys=True)
    with_file(text, ".json", check)


@pytest.mark.parametrize("preset", ["hunan", "guilin"])
def test_an_unchanged_fuzz_record_replays(preset):
    text = json.dumps(record(preset))
    assert with_file(text, ".json", lambda f: run("replay", f))[0] == 0


# --- names that impersonate ---------------------------------------------------------------------

#: characters that show as nothing or as the same letter (written out here, not taken from the
#: library's own table): zero-width space, non-joiner and joiner, word joiner, BOM, soft
#: hyphen, combining grapheme joiner, Mongolian vowel separator, variation selectors 1 and
#: 16, a supplementary variation selector, a tag letter, the invisible times; and spaces
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\u180e",
             "\ufe00", "\ufe0f", "\U000e0100", "\U000e0061", "\u2062", " ", "\u3000", "\u00a0"]


def fullwidth(text: str) -> str:
    """``text`` with its ASCII letters and digits in their fullwidth forms (U+FF01..U+FF5E)."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@settings(settings.default, max_examples=N)
@given(preset=st.sampled_from(PRESETS), data=st.data())
def test_a_preset_name_with_invisible_characters_is_reserved(preset, data):
    """A preset's id, name or alias with invisible characters put in, or written in fullwidth
    letters, is still that name: a file with other rules may not take it."""
    raw = load_preset(preset)
    name = data.draw(st.sampled_from([raw.id, raw.name, *raw.aliases]))
    if data.draw(st.booleans()):
        name = fullwidth(name)
    chars = list(name)
    for _ in range(data.draw(st.integers(0 if name != raw.name else 1, 4))):
        at = data.draw(st.integers(0, len(chars)))
        chars.insert(at, data.draw(st.sampled_from(INVISIBLE)))
    shown = "".join(chars)
    field = data.draw(st.sampled_from(["name", "aliases"]))
    quoted = '"' + "".join(c if c.isascii() and c.isprintable() and c not in '"\\'
                           else f"\\U{ord(c):08x}" for c in shown) + '"'  # YAML escapes
    value = quoted if field == "name" else f"[{quoted}]"
    text = (f"extends: {preset}\nid: fuzz\n" + ("name: fuzz\n" if field == "aliases" else "")
            + f"{field}: {value}\nwin: {{min_huxi: {raw.win.min_huxi + 1}}}\n")

    def check(file: str) -> None:
        code, out, err = run("validate", file)
        assert code == 2 and err.startswith("error:"), (shown, err)
        assert "reserved for the shipped preset" in err or "shows nothing" in err, err
    with_file(text, ".yaml", check)
