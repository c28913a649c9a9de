"""Loading variant files: YAML → ``extends`` merge → JSON Schema → semantic checks → Variant.

Every schema error is reported with its YAML path (``claims.priority[1]``); semantic errors
likewise. :class:`~zipai_rules.errors.VariantError` carries them all in ``problems``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .errors import VariantError
from .variant import Variant

Resolver = Callable[[str], Mapping[str, Any]]


@cache
def variant_schema() -> dict[str, Any]:
    """The variant JSON Schema (draft 2020-12) shipped in the package."""
    text = resources.files("zipai_rules").joinpath("schema/variant.schema.json").read_text("utf-8")
    return json.loads(text)


def yaml_path(parts: Any) -> str:
    """Render a jsonschema path deque as ``a.b[2].c`` (``<root>`` when empty)."""
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "<root>"


class _UniqueKeyLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that rejects a mapping with the same key twice, and keys that are
    not text (``1:``, ``[a]:``, ``on:`` read as a boolean): every variant key is a name."""

    def construct_mapping(self, node, deep=False):  # type: ignore[no-untyped-def]
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, str):
                what = (f"mapping key {key!r} is not text (quote it)"
                        if isinstance(key_node, yaml.ScalarNode)
                        else f"a {'list' if isinstance(key, list) else 'mapping'} is used as a "
                        "mapping key; keys are names")
                raise yaml.constructor.ConstructorError(None, None, what, key_node.start_mark)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def read_yaml(text: str, origin: str = "<string>") -> dict[str, Any]:
    """Parse YAML text safely (``yaml.SafeLoader``, duplicate keys rejected); the top level
    must be a mapping."""
    try:
        data = yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
    except RecursionError:
        raise VariantError(f"{origin}: not valid YAML: nested too deeply",
                           [("<root>", "nested too deeply")], code="yaml_syntax") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise VariantError(f"{origin}: not valid YAML: {where}{problem}",
                           [("<root>", f"{where}{problem}")], code="yaml_syntax") from None
    if not isinstance(data, dict):
        got = "an empty file" if data is None else f"a {type(data).__name__}"
        raise VariantError(f"{origin}: the top level must be a mapping of variant keys, got {got}",
                           [("<root>", "must be a mapping")], code="not_a_mapping")
    return data


def merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Deep merge: mappings merge key by key; lists and scalars of ``over`` replace."""
    out = copy.deepcopy(dict(base))
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def resolve(doc: Mapping[str, Any], resolver: Resolver, origin: str,
            _seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """Apply ``extends`` chains; ``resolver`` maps a parent name to its raw mapping."""
    parent = doc.get("extends")
    if parent is None:
        return dict(doc)
    if not isinstance(parent, str):
        raise VariantError(f"{origin}: extends must be a string", [("extends", "must be a string")],
                           code="schema")
    if parent in _seen:
        raise VariantError(f"{origin}: extends cycle {' → '.join(_seen + (parent,))}",
                           [("extends", "cycle")], code="extends_cycle")
    try:
        raw_parent = resolver(parent)
    except VariantError:
        raise
    except (KeyError, OSError) as exc:
        raise VariantError(f"{origin}: extends {parent!r}: no such variant ({exc})",
                           [("extends", f"unknown variant {parent!r}")],
                           code="unknown_parent") from None
    base = resolve(raw_parent, resolver, parent, _seen + (parent,))
    child = {k: v for k, v in doc.items() if k != "extends"}
    base.pop("aliases", None)
    base.pop("description", None)
    return merge(base, child)


def _key_problems(node: Any, path: list[Any], depth: int = 0) -> list[tuple[str, str]]:
    """Mapping keys that are not strings (a mapping built in Python, not read from YAML).
    The schema allows no deep nesting, so the search stops at a few levels (also for
    recursive YAML aliases)."""
    out: list[tuple[str, str]] = []
    if depth > 8:
        return out
    if isinstance(node, Mapping):
        for k, v in node.items():
            if not isinstance(k, str):
                out.append((yaml_path([*path, str(k)]), f"key {k!r} is not a string"))
            else:
                out += _key_problems(v, [*path, k], depth + 1)
    elif isinstance(node, (list, tuple)):
        for k, v in enumerate(node):
            out += _key_problems(v, [*path, k], depth + 1)
    return out


def schema_problems(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Every schema violation as ``(yaml path, message)``, sorted by path."""
    keys = _key_problems(doc, [])
    if keys:
        return sorted(keys)
    validator = jsonschema.Draft202012Validator(variant_schema())
    found = []
    for e in validator.iter_errors(doc):
        if e.validator == "additionalProperties" and isinstance(e.instance, Mapping):
            # point at each unexpected key itself (``win.min_hux``), not at its parent
            known = e.schema.get("properties", {})
            patterns = e.schema.get("patternProperties", {})
            extra = [k for k in e.instance if k not in known
                     and not any(re.search(p, str(k)) for p in patterns)]
            if extra:
                found += [(yaml_path([*e.absolute_path, str(k)]), f"unknown key {k!r}; "
                           f"allowed: {', '.join(sorted(known))}") for k in extra]
                continue
        found.append((yaml_path(e.absolute_path), e.message))
    return sorted(found)


def semantic_problems(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Checks the schema cannot express: sizes fit the deck, every claim kind is ranked once,
    citations name real parameters, the threshold can be reached."""
    out: list[tuple[str, str]] = []
    deck = 20 * doc["deck"]["copies"] + doc["deck"]["kings"]
    deal = doc["deal"]
    dealt = deal["dealer_hand"] + deal["other_hand"] * (doc["players"] - 1)
    if dealt + deal["wall"] != deck:
        out.append(("deal.wall", f"the deck holds {deck} cards but the hands ({dealt}) plus "
                    f"the wall ({deal['wall']}) make {dealt + deal['wall']}"))
    if deal["dealer_hand"] < deal["other_hand"]:
        out.append(("deal.dealer_hand", "the dealer must hold at least as many cards as the others"))
    seats = doc.get("seats", doc["players"])
    if seats < doc["players"]:
        out.append(("seats", f"{seats} seats cannot hold {doc['players']} players"))
    sitting = doc.get("sitting_out", "none")
    if (seats > doc["players"]) != (sitting != "none"):
        out.append(("sitting_out", "a seat sits out exactly when there are more seats than "
                    f"players (seats {seats}, players {doc['players']}, sitting_out {sitting})"))
    from .special import SPECIAL_WINS

    for k, name in enumerate(doc["win"].get("special", [])):
        if name not in SPECIAL_WINS:
            out.append((f"win.special[{k}]", f"unknown hook {name!r}; registered: "
                        + ", ".join(sorted(SPECIAL_WINS))))
    ranked = [k for tier in doc["claims"]["priority"] for k in tier]
    for kind in ("hu", "pao", "peng", "chi"):
        if ranked.count(kind) != 1:
            out.append(("claims.priority", f"claim kind {kind!r} must appear exactly once "
                        f"(found {ranked.count(kind)})"))
    if doc["win"].get("forced_sources") and not set(doc["win"]["forced_sources"]) <= set(
            doc["win"]["sources"]):
        out.append(("win.forced_sources", "a forced win source must also be a win source"))
    # the best concealed hand of other_hand + 1 cards: all big 提/坎/一二三-type melds
    best = _max_reachable_huxi(doc)
    if doc["win"]["min_huxi"] > best:
        out.append(("win.min_huxi", f"threshold {doc['win']['min_huxi']} is above the most "
                    f"胡息 any hand of this size can score ({best})"))
    for path in doc.get("citations", {}):
        if not _has_path(doc, path):
            out.append((f"citations.{path}", "cites a parameter that does not exist"))
    return out


def _max_reachable_huxi(doc: Mapping[str, Any]) -> int:
    """An upper bound on 胡息: every 3 cards in the most valuable 3-card meld, every 4 in a 提."""
    table = doc["huxi"]
    per3 = max(max(v) for k, v in table.items() if k not in ("ti", "pao", "jiang"))
    per4 = max(max(table["ti"]), max(table["pao"]))
    cards = doc["deal"]["dealer_hand"] + 4
    return max(per3 * (cards // 3), per4 * (cards // 4) + per3 * ((cards % 4) // 3))


def _has_path(doc: Mapping[str, Any], path: str) -> bool:
    node: Any = doc
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def content_hash(doc: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of a resolved variant mapping."""
    canon = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


def build_variant(raw: Mapping[str, Any], resolver: Resolver, origin: str) -> Variant:
    """Resolve, validate and freeze a raw variant mapping.

    Raises :class:`VariantError` (code ``schema`` or ``semantic``) listing every problem with
    its path.
    """
    doc = resolve(raw, resolver, origin)
    problems = schema_problems(doc)
    if problems:
        raise VariantError(_message(origin, "schema", problems), problems, code="schema")
    problems = semantic_problems(doc)
    if problems:
        raise VariantError(_message(origin, "semantic", problems), problems, code="semantic")
    return Variant.from_doc(doc, content_hash(doc))


def _message(origin: str, what: str, problems: list[tuple[str, str]]) -> str:
    lines = [f"{origin}: {len(problems)} {what} error(s)"]
    lines += [f"  {path}: {msg}" for path, msg in problems]
    return "\n".join(lines)


def load_variant_file(path: str | Path, resolver: Resolver | None = None) -> Variant:
    """Load a variant from a YAML file; ``extends`` names a preset id or a path relative to
    the file. Raises :class:`VariantError` for unreadable files and invalid content."""
    from .presets import raw_preset

    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise VariantError(f"{path}: cannot read: {exc}", [("<root>", str(exc))],
                           code="unreadable") from None

    def default_resolver(name: str) -> Mapping[str, Any]:
        candidate = path.parent / name
        if candidate.suffix in (".yaml", ".yml") and candidate.is_file():
            return read_yaml(candidate.read_text("utf-8"), str(candidate))
        return raw_preset(name)

    return build_variant(read_yaml(text, str(path)), resolver or default_resolver, str(path))
