"""Generate ``docs/variants.md`` and ``docs/variants/<id>.md`` from the preset files.

Run ``python -m zipai_rules.variant_docs DOCS_DIR``; a test checks the committed pages are up
to date. Each page lists every rule of a preset with its value and its source, marking values
inherited through ``extends``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .frozen import thaw
from .presets import load_preset, preset_ids, raw_preset
from .variant import Variant

_SOURCES = {"self": "own draw", "draw": "others' draws", "discard": "discards"}


def _wall(v: Variant) -> str:
    """The wall size, and the cards set aside each hand when any."""
    return f"{v.deal.wall} (+{v.deal.set_aside} aside)" if v.deal.set_aside else str(v.deal.wall)


def _flat(doc: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in doc.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and key not in ("terminology", "citations", "huxi"):
            out.update(_flat(value, path + "."))
        else:
            out[path] = value
    return out


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_fmt(v) for v in value) if value else "—"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_fmt(v)}" for k, v in value.items())
    return str(value)


def comparison_table() -> str:
    """The Markdown table comparing every preset."""
    head = ("| id | name | players (seats) | deck | hands (dealer/others) | wall | min 胡息 "
            "| wins on | forced win | 碰 → 跑 by | a declined 吃/碰 is 臭 for | special |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    rows = []
    for pid in preset_ids():
        v = load_preset(pid)
        seats = f"{v.players}" + (f" ({v.seats}, {v.sitting_out})" if v.seats != v.players else "")
        deck = f"{v.deck.size}" + (f" ({v.deck.kings} 王)" if v.deck.kings else "")
        order = ("self", "draw", "discard")
        wins = ", ".join(_SOURCES[s] for s in order if s in v.win.sources)
        forced = ", ".join(_SOURCES[s] for s in order if s in v.win.forced_sources) or "—"
        upgrade = ", ".join(_SOURCES[s] for s in order if s in v.claims.pao_on_peng) or "—"
        special = ", ".join(v.win.special) or "—"
        chou = "吃 and 碰" if v.chou.both else "the kind declined"
        rows.append(f"| [`{v.id}`](variants/{v.id}.md) | {v.name} | {seats} | {deck} | "
                    f"{v.deal.dealer_hand}/{v.deal.other_hand} | {_wall(v)} | "
                    f"{v.win.min_huxi} | {wins} | "
                    f"{forced} | {upgrade} | {chou} | {special} |")
    return head + "\n".join(rows) + "\n"


NOTES = "notes"
"""The folder, under ``docs/variants/``, of the hand-written notes of the preset pages."""


def page_notes(docs_dir: Path, pid: str) -> str:
    """The hand-written notes of preset ``pid``'s page (``docs/variants/notes/<id>.md``), or
    ``""`` when it has none."""
    path = docs_dir / "variants" / NOTES / f"{pid}.md"
    return path.read_text("utf-8") if path.exists() else ""


def variant_page(v: Variant, notes: str = "") -> str:
    """One preset's page: its rules, values and sources, then its hand-written ``notes``
    (:func:`page_notes`) when it has any."""
    own = thaw(raw_preset(v.id))
    own_flat = _flat(own)
    parent = own.get("extends")
    doc = thaw(v.doc)
    lines = [f"# {v.name} (`{v.id}`)", ""]
    if own.get("description"):
        lines += [own["description"].strip(), ""]
    if v.aliases:
        lines += ["Also found as: " + ", ".join(v.aliases) + ".", ""]
    if parent:
        lines += [f"Extends [`{parent}`]({parent}.md): values marked *inherited* come from it, "
                  "with its sources.", ""]
    lines += ["| rule | value | source |", "|---|---|---|"]
    citations = doc.get("citations", {})
    flat = _flat({k: v2 for k, v2 in doc.items()
                  if k not in ("id", "name", "aliases", "description", "terminology",
                               "citations")})
    for path, value in flat.items():
        source = next((citations[p] for p in _prefixes(path) if p in citations), "")
        inherited = parent and path not in own_flat and not any(
            p in own_flat for p in _prefixes(path))
        mark = " *(inherited)*" if inherited else ""
        lines.append(f"| `{path}` | {_fmt(value)}{mark} | {source.replace('|', '/')} |")
    lines += ["", "## 胡息 table", "", "| meld | small | big |", "|---|---|---|"]
    for kind, (small, big) in v.huxi_table.items():
        lines.append(f"| {kind.value} ({v.term(kind.value)}) | {small} | {big} |")
    for e in v.huxi_table.extra:  # huxi.extra: 胡息 that depends on the cards
        ranks = ", ".join(map(str, sorted(e.ranks))) or "any"
        size = f" {e.cards} cards" if e.cards else ""
        kinds = ", ".join(sorted(k.value for k in e.kind))
        lines.append(f"| +{e.add} for {kinds} of ranks {ranks}{size} | | |")
    lines += ["", "## Terminology", "", "| canonical | this variant |", "|---|---|"]
    lines += [f"| `{k}` | {w} |" for k, w in sorted(v.terminology.items())]
    if notes.strip():
        lines += ["", notes.strip()]
    return "\n".join(lines) + "\n"


def _prefixes(path: str) -> list[str]:
    parts = path.split(".")
    return [".".join(parts[:k]) for k in range(len(parts), 0, -1)]


MARKER = "## Presets\n"


def index_page(current: str) -> str:
    """``docs/variants.md``: its hand-written part up to ``## Presets``, then the generated
    comparison table."""
    head = current.split(MARKER)[0].rstrip() + "\n\n" if MARKER in current else current
    return head + MARKER + "\n(Generated from `variants/*.yaml` by `python -m " \
        "zipai_rules.variant_docs docs`.)\n\n" + comparison_table()


def write(docs_dir: Path) -> list[Path]:
    """Rewrite the generated parts; returns the paths written."""
    index = docs_dir / "variants.md"
    index.write_text(index_page(index.read_text("utf-8") if index.exists() else ""), "utf-8")
    written = [index]
    (docs_dir / "variants").mkdir(exist_ok=True)
    for pid in preset_ids():
        path = docs_dir / "variants" / f"{pid}.md"
        path.write_text(variant_page(load_preset(pid), page_notes(docs_dir, pid)), "utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")):
        print(p)
