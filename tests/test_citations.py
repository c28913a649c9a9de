"""Every preset's ``citations`` quote their sources exactly.

A citation names its source (a seed file such as ``000_cdb63c032605c9a1.txt``, the rules
``digest``, or a source of docs/regional-sources.md such as ``duanly/hzy``) and may quote it
("…" or “…”, a ``…`` inside a quote leaving words out). Each quoted phrase must occur in the
source named last before it, whitespace ignored, and inside the ``§`` section named last
before it in that file; a named ``§`` section must exist, and so must a digest entry (``G2``,
``C6``, ``E28``, ``§1.4.6``).

The seeds and the digest are not part of the project: the checks run when they sit beside it
(``../shared/seeds/``, ``../shared/rules/digest.md``) and are skipped with a reason elsewhere.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from zipai_rules import find_variant, preset_ids

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
DIGEST = ROOT.parent / "shared" / "rules" / "digest.md"
REGIONAL = ("duanly/hzy", "Riversteel6/Aizipai", "billee1011/repository")
"""Sources of docs/regional-sources.md: named, not checked here."""

_SOURCE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt|digest|" + "|".join(map(re.escape, REGIONAL)))
_SECTION = re.compile(r"§\s*([^\s\"“”()（）;,:：]+)")
_QUOTE = re.compile(r'"([^"]*)"|“([^“”]*)”')
_CODE = re.compile(r"\b([GCE]\d+)\b")
_BLANK = re.compile(r"\s+")


def _flat(text: str) -> str:
    return _BLANK.sub("", text)


def _heading(line: str) -> bool:
    """A section title of a seed page: a short line without sentence punctuation."""
    s = line.strip()
    return 0 < len(s) <= 20 and not re.search(r"[，。：:,.!！？?（）()“”\"\d]", s)


@cache
def _sections(name: str) -> dict[str, str]:
    """The ``§`` sections of a seed file: title → its text (repeated titles joined)."""
    out: dict[str, str] = {}
    title = ""
    for line in (SEEDS / name).read_text("utf-8", errors="replace").splitlines():
        if _heading(line) and not line.startswith((" ", "\u3000")):
            title = line.strip()
        out[title] = out.get(title, "") + "\n" + line
    return out


@cache
def _text(name: str) -> str:
    path = DIGEST if name == "digest" else SEEDS / name
    return _flat(path.read_text("utf-8", errors="replace"))


def _digest_has(ref: str) -> bool:
    raw = DIGEST.read_text("utf-8")
    if ref[0] in "GCE":
        return bool(re.search(rf"^\| {ref} \||\*\*{ref}\.", raw, re.M))
    return bool(re.search(rf"^#+ {re.escape(ref)} ", raw, re.M))


def problems(citation: str) -> list[str]:
    """What is wrong with one citation; empty when every quote and section is found."""
    out: list[str] = []
    events: list[tuple[int, str, str]] = []  # (position, kind, value), in order
    events += [(m.start(), "source", m.group(0)) for m in _SOURCE.finditer(citation)]
    events += [(m.start(), "section", m.group(1)) for m in _SECTION.finditer(citation)]
    events += [(m.start(), "quote", m.group(1) if m.group(1) is not None else m.group(2))
               for m in _QUOTE.finditer(citation)]
    events += [(m.start(), "code", m.group(1)) for m in _CODE.finditer(citation)]
    if not any(kind == "source" for _, kind, _ in events):
        out.append("names no source (a seed file, the digest or a regional source)")
    source: str | None = None
    section: str | None = None
    for _, kind, value in sorted(events):
        if kind == "source":
            source, section = value, None
        elif kind == "code":
            if source == "digest" and not _digest_has(value):
                out.append(f"digest has no entry {value}")
        elif kind == "section":
            if source == "digest":
                if not _digest_has(value):
                    out.append(f"digest has no section §{value}")
            elif source is None or source in REGIONAL:
                out.append(f"§{value} names no seed file before it")
            elif value not in _sections(source):
                out.append(f"{source} has no section §{value}")
            else:
                section = value
        elif source is None:
            out.append(f"quote {value!r} names no source before it")
        elif source not in REGIONAL:
            where = (_flat(_sections(source)[section]) if section is not None
                     else _text(source))
            for part in value.split("…"):
                if _flat(part) and _flat(part) not in where:
                    at = f" §{section}" if section is not None else ""
                    out.append(f"{source}{at} does not contain {part.strip()!r}")
    return out


def _citations() -> list[tuple[str, str, str]]:
    return [(pid, key, text) for pid in preset_ids()
            for key, text in find_variant(pid).doc.get("citations", {}).items()]


needs_sources = pytest.mark.skipif(
    not (SEEDS.is_dir() and DIGEST.is_file()),
    reason=f"the seed documents are not beside the project ({SEEDS}, {DIGEST})")


@needs_sources
@pytest.mark.parametrize(("pid", "key", "text"), _citations(),
                         ids=lambda x: x if isinstance(x, str) and len(x) < 40 else "")
def test_citation_quotes_its_source(pid, key, text):
    assert problems(text) == [], f"{pid} citations.{key}: {text}"


@needs_sources
def test_the_check_finds_what_a_source_does_not_say():
    seed = "000_cdb63c032605c9a1.txt"
    assert problems(f'{seed} §碰胡规则 "不用数信，手上的牌能胡就胡"') == []
    # whitespace inside a quote is ignored; … leaves words out
    assert problems(f'{seed} §永州双王扯胡子规则 "王霸不能打出 … 只能代替牌"') == []
    # a phrase of another section of the same file
    assert problems(f'{seed} §碰胡规则 "吊子只能一对"') == [
        f"{seed} §碰胡规则 does not contain '吊子只能一对'"]
    assert problems(f'{seed} §没有这一节 "吊子只能一对"') == [f"{seed} has no section §没有这一节"]
    assert problems('003_5cd7634dfd57d897.txt "一坎牌不能拆散与其他牌组合"') == [
        "003_5cd7634dfd57d897.txt does not contain '一坎牌不能拆散与其他牌组合'"]
    assert problems('"一坎牌"') == ["names no source (a seed file, the digest or a regional "
                                    "source)", "quote '一坎牌' names no source before it"]
    assert problems("default (digest G99)") == ["digest has no entry G99"]
    assert problems("default (digest G2, §1.5)") == []
    assert problems("duanly/hzy docs/RULES.md \"anything\"") == []


def test_every_preset_has_citations():
    assert all(find_variant(pid).doc.get("citations") for pid in preset_ids())
