"""The part of a variant document that passes its schema, so that the semantic checks can run
on a document that fails it and ``zipai validate`` reports every problem of a file at once.

:func:`passing_part` cuts each value the schema refuses (an unknown key, a value of the wrong
type or range, a list item that is not of its shape); the defaults of
:func:`~zipai_rules.variant.normalise` then stand in for what was cut, and a required key
cut takes the value of the library's base preset (``hunan``). The cuts repeat
(a list item that lost a required key is cut in turn) until the rest passes. A semantic
problem is kept only where no cut can have caused it (:func:`unsure`): a cut in a section
leaves out the problems of the sections whose checks read it (a cut in ``deal`` all of them,
one in ``win`` those of ``win``, ``claims``, ``scoring`` and ``match``), a cut in one 名堂
pattern only those of that pattern and of the whole ``scoring`` section. List indices are the
file's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from .frozen import thaw
from .inputs import shipped_validator, yaml_path

Path = tuple[str | int, ...]

#: rounds of cutting before the rest is given up on (each round cuts every value refused)
MAX_ROUNDS = 6

#: values refused in one round beyond which the rest is given up on (a hostile document
#: holding thousands of wrong values is reported by its schema errors alone)
MAX_CUTS = 200

_TOKEN = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")


def _cuts(doc: Mapping[str, Any], standin: Mapping[str, Any]
          ) -> tuple[list[Path], list[Path], dict[Path, Any]] | None:
    """The paths the schema refuses in ``doc`` (unknown keys apart: no check reads them), its
    unknown keys, and the required keys a section lacks with the value of ``standin`` that
    takes their place (all empty: it passes); ``None`` when nothing can take a refused
    value's place (the document itself, a required key ``standin`` lacks) or more than
    :data:`MAX_CUTS` values are refused."""
    out: list[Path] = []
    unknown: list[Path] = []
    fill: dict[Path, Any] = {}
    for e in shipped_validator("variant").iter_errors(thaw(doc)):
        if len(out) + len(unknown) + len(fill) > MAX_CUTS:
            return None
        at: Path = tuple(e.absolute_path)
        schema = e.schema if isinstance(e.schema, Mapping) else {}
        if e.validator == "additionalProperties" and isinstance(e.instance, Mapping):
            known, patterns = schema.get("properties", {}), schema.get("patternProperties", {})
            extra = [k for k in e.instance if k not in known
                     and not any(re.search(p, str(k)) for p in patterns)]
            if extra:
                unknown += [(*at, str(k)) for k in extra]
                continue
        if (e.validator == "required" and isinstance(e.instance, Mapping)
                and not any(isinstance(p, int) for p in at)):
            for key in e.validator_value if isinstance(e.validator_value, list) else ():
                if key not in e.instance:
                    value = _lookup(standin, (*at, key))
                    if value is _MISSING:
                        return None
                    fill[(*at, key)] = value
            continue
        if not at:
            return None
        out.append(at)
    return out, unknown, fill


_MISSING = object()


def _lookup(doc: Any, path: Path) -> Any:
    for key in path:
        if not isinstance(doc, Mapping) or key not in doc:
            return _MISSING
        doc = doc[key]
    return doc


def _without(node: Any, cuts: set[Path], at: Path, here: Path,
             index: dict[str, list[int]]) -> Any:
    """A copy of ``node`` (found at ``at``, placed at ``here`` in the copy) without the values
    at ``cuts``; ``index`` gets, per list (by its YAML path in the copy), the original index
    of each item kept."""
    if isinstance(node, Mapping):
        return {k: _without(v, cuts, (*at, k), (*here, k), index) for k, v in node.items()
                if (*at, k) not in cuts}
    if isinstance(node, list):
        kept = [k for k in range(len(node)) if (*at, k) not in cuts]
        if len(kept) < len(node):
            index[yaml_path(here)] = kept
        return [_without(node[k], cuts, (*at, k), (*here, j), index)
                for j, k in enumerate(kept)]
    return node


def _remapper(index: Mapping[str, list[int]]) -> Callable[[str], str]:
    """A function taking a YAML path of the cut copy to the same place in the document it
    was cut from (list indices of the original)."""
    def back(path: str) -> str:
        seen: list[str | int] = []  # the path so far in the copy's terms
        out: list[str | int] = []   # and in the original's
        for number, key in _TOKEN.findall(path):
            if key:
                seen.append(key)
                out.append(key)
                continue
            kept = index.get(yaml_path(seen))
            k = int(number)
            seen.append(k)
            out.append(kept[k] if kept is not None and k < len(kept) else k)
        return yaml_path(out)
    return back


def passing_part(doc: Mapping[str, Any], standin: Mapping[str, Any]
                 ) -> tuple[dict[str, Any], list[str], Callable[[str], str]] | None:
    """``(part, cut, back)``: ``doc`` less every value its schema refuses, each required key
    of a section it then lacks taken from ``standin`` (a resolved variant that passes), the
    YAML paths cut (unknown keys apart) or stood in for (in ``doc``'s terms) and a function
    taking a YAML path of ``part`` to ``doc``'s. ``None`` when no part passes within
    :data:`MAX_ROUNDS` rounds or a required key is refused that ``standin`` lacks."""
    part: dict[str, Any] = thaw(doc)
    cut: list[str] = []
    maps: list[Callable[[str], str]] = []

    def back(path: str) -> str:
        for m in reversed(maps):
            path = m(path)
        return path

    for _ in range(MAX_ROUNDS):
        found = _cuts(part, standin)
        if found is None:
            return None
        cuts, unknown, fill = found
        if not cuts and not unknown and not fill:
            return part, cut, back
        cut += [p for c in (*cuts, *fill) if (p := back(yaml_path(c))) not in cut]
        index: dict[str, list[int]] = {}
        part = _without(part, {*cuts, *unknown}, (), (), index)
        for path, value in fill.items():
            node: Any = part
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = thaw(value)
        maps.append(_remapper(index))
    return None


#: the sections whose semantic checks read a section (a section not named: only its own)
_READ_BY = {"win": ("win", "claims", "scoring", "match"), "claims": ("claims", "win"),
            "scoring": ("scoring", "match"),
            "huxi": ("huxi", "win", "scoring"), "sitting_out": ("seats", "sitting_out"),
            **{k: ("",) for k in ("players", "seats", "deck", "deal", "id", "name")}}

#: lists whose items are checked one by one: a cut in one leaves the others' problems
_ITEMS = ("scoring.mingtang.patterns[", "scoring.bonuses[")


def _scope(cut: str) -> tuple[tuple[str, bool], ...]:
    """The YAML paths whose problems a cut at ``cut`` can cause, each with whether the paths
    under it are meant too (``""``: every path)."""
    for items in _ITEMS:
        if cut.startswith(items):
            return ((cut[:cut.index("]", len(items)) + 1], True), ("scoring", False),
                    ("scoring.conversion", True))
    section = re.split(r"[.\[]", cut, maxsplit=1)[0]
    return tuple((s, True) for s in _READ_BY.get(section, (section,)))


def unsure(path: str, cut: list[str]) -> bool:
    """Whether a semantic problem found at the YAML ``path`` of a document's passing part
    may come from a value cut at one of ``cut`` (:func:`_scope`); the problems of a citation
    are read at the parameter it cites."""
    path = path.removeprefix("citations.")

    def under(a: str, b: str) -> bool:
        return a == b or a.startswith(b + ".") or a.startswith(b + "[")
    return any(not s or path == s or (subtree and under(path, s))
               for c in cut for s, subtree in _scope(c))
