"""The registry of shipped variant presets, with aliases.

The YAML files live once, in the repository's top-level ``variants/`` folder; a built wheel
carries them as ``zipai_rules/variants/`` (see ``pyproject.toml``). In a source checkout the
package finds them beside ``src/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from .errors import VariantError, brief
from .frozen import freeze
from .inputs import name_key
from .loader import build_variant, read_yaml
from .variant import Variant


@cache
def variants_dir() -> Path:
    """The folder holding the preset YAML files."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "variants", here.parent.parent / "variants"):
        if candidate.is_dir():
            return candidate
    raise VariantError("the variant presets are missing from this installation",
                       code="no_presets")


@cache
def preset_ids() -> tuple[str, ...]:
    """Ids of every shipped preset, sorted."""
    return tuple(sorted(p.stem for p in variants_dir().glob("*.yaml")))


@cache
def raw_preset(preset_id: str) -> Mapping[str, Any]:
    """The unresolved mapping of one preset file, read-only. Raises KeyError for anything
    but the id of a shipped preset (never a path)."""
    if preset_id not in preset_ids():
        raise KeyError(preset_id)
    path = variants_dir() / f"{preset_id}.yaml"
    frozen: Mapping[str, Any] = freeze(read_yaml(path.read_text("utf-8"),
                                                 f"variants/{preset_id}.yaml"))
    return frozen


def load_preset(preset_id: str) -> Variant:
    """The resolved preset with this exact id (never a name, an alias or a path:
    :func:`find_variant` takes those). Raises :class:`VariantError` (``unknown_variant``)
    naming ``preset_id`` and listing the known ids for anything else, ``None``, a path such
    as ``"../variants/hunan"`` or a value that is not a string."""
    if not isinstance(preset_id, str) or preset_id not in preset_ids():
        shown = brief(repr(preset_id), 60)
        kind = "" if isinstance(preset_id, str) else f" (type {type(preset_id).__name__})"
        raise VariantError(f"preset_id: {shown}{kind} is not the id of a shipped preset; "
                           f"known: {', '.join(preset_ids())}", code="unknown_variant")
    return _load_preset(preset_id)


@cache
def _load_preset(preset_id: str) -> Variant:
    return build_variant(raw_preset(preset_id), raw_preset, f"variants/{preset_id}.yaml")


@cache
def _alias_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for pid in preset_ids():
        raw = raw_preset(pid)
        for name in [pid, raw.get("name", ""), *raw.get("aliases", [])]:
            if name:
                index.setdefault(name_key(str(name)), pid)
    return index


def reserved_names() -> Mapping[str, str]:
    """Every shipped preset's id, name and aliases (each as its
    :func:`~zipai_rules.inputs.name_key`) → the preset id."""
    return _alias_index()


def check_not_impersonating(variant: Variant, origin: str) -> None:
    """Refuse a variant from outside that takes a shipped preset's id, name or alias without
    being that preset (the same content hash). Names are compared as their
    :func:`~zipai_rules.inputs.name_key`: after NFKC, case folding and the removal of
    default-ignorable characters and white space, so ``湖南\u200b跑胡子`` (a zero-width space),
    ``湖南 跑胡子`` and a fullwidth ``ｈｕｎａｎ`` are the names they show as.

    Raises :class:`VariantError` (code ``reserved_name``) listing each name that clashes
    (its field: ``id``, ``name`` or ``aliases[k]``), the preset it belongs to, and what to
    change: only the fields that clash."""
    problems: list[tuple[str, str]] = []
    for field, name in (("id", variant.id), ("name", variant.name),
                        *((f"aliases[{k}]", a) for k, a in enumerate(variant.aliases))):
        pid = _alias_index().get(name_key(name))
        if pid is None or load_preset(pid).content_hash == variant.content_hash:
            continue
        what = ("give the variant an alias of its own or remove this one"
                if field.startswith("aliases") else f"give the variant its own {field}")
        problems.append((field, f"{name!r} is reserved for the shipped preset {pid!r}, and "
                         f"these rules differ from it (content hash "
                         f"{variant.content_hash[:16]}, the preset's "
                         f"{load_preset(pid).content_hash[:16]}); {what}"))
    if len(problems) == 1:
        (field, msg), = problems
        raise VariantError(f"{origin}: {field}: {msg}", problems, code="reserved_name")
    if problems:
        lines = [f"{origin}: {len(problems)} names reserved for shipped presets",
                 *(f"  {field}: {msg}" for field, msg in problems)]
        raise VariantError("\n".join(lines), problems, code="reserved_name")


def find_variant(name: str) -> Variant:
    """A preset by id, Chinese name or alias (``hunan``, ``湖南跑胡子``, ``跑胡子``), compared
    as :func:`~zipai_rules.inputs.name_key` (case, width and invisible characters aside).

    Raises :class:`VariantError` (code ``unknown_variant``) listing the known ids.
    """
    if not isinstance(name, str):
        raise VariantError(f"a variant name must be a string, got {name!r}", code="unknown_variant")
    pid = _alias_index().get(name_key(name))
    if pid is None:
        raise VariantError(f"unknown variant {name!r}; known: {', '.join(preset_ids())}",
                           code="unknown_variant")
    return load_preset(pid)
