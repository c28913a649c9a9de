"""Loading a variant from a YAML file the caller names: the file and its ``extends`` parents
(shipped presets, or files inside the folder of the top file) are read within the
:class:`~zipai_rules.inputs.Limits`, then built by :func:`~zipai_rules.loader.build_variant`;
a file may not take a shipped preset's name with other rules."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .arguments import path_arg
from .errors import VariantError
from .inputs import VARIANT_LIMITS, Limits, Refused, brief, read_text
from .loader import Resolver, build_variant, least_units, read_yaml, resolve
from .mingtang import never_applying
from .presets import check_not_impersonating, find_variant, preset_ids, raw_preset
from .variant import Variant, normalise

__all__ = ["load_variant_file", "variant_file_warnings", "variant_named"]

#: top-level keys that name or describe a variant rather than set a rule
_NOT_RULES = frozenset({"extends", "id", "name", "aliases", "description", "citations",
                        "terminology"})


def load_variant_file(path: str | Path, resolver: Resolver | None = None, *,
                      limits: Limits = VARIANT_LIMITS, root: str | Path | None = None
                      ) -> Variant:
    """Load a variant from a YAML file.

    ``extends`` names a shipped preset (``hunan``), or a file ending in ``.yaml``/``.yml``,
    resolved relative to the file that names it and only inside ``root`` (by default the
    folder of ``path``); absolute paths and parents outside ``root`` (also through symbolic
    links) are refused without being read. ``limits`` bound each file read
    (:class:`~zipai_rules.inputs.Limits`). A file may not take a shipped preset's id, name
    or alias unless it is that preset (same content hash), and must give its own ``id``
    (code ``schema``, with the file's other schema and semantic problems), not take its
    parent's.

    Raises :class:`VariantError`: codes ``unreadable``, ``too_large``, ``too_deep``,
    ``yaml_syntax``, ``unknown_parent``, ``parent_outside``, ``schema``,
    ``semantic``, ``reserved_name``; :class:`~zipai_rules.errors.ZipaiError`
    (``bad_argument``) for a ``path`` or ``root`` that is no path."""
    path = Path(path_arg(path, "path"))
    if root is not None:
        path_arg(root, "root")
    text = _read_file(path, limits)
    top = _FileResolver(path.parent, Path(root) if root is not None else path.parent, limits)
    doc = read_yaml(text, str(path), limits)
    if isinstance(doc, Mapping) and "id" not in doc:
        msg = ("missing: a variant file gives its own id (and name), not the one of its "
               f"parent {str(doc.get('extends', ''))!r}")
        try:  # the file's other problems are reported with it
            build_variant(doc, resolver or top, str(path), limits=limits)
        except VariantError as exc:
            if exc.code not in ("schema", "semantic"):
                raise
            raise VariantError(f"{path}: id: {msg}\n{exc}", [("id", msg), *exc.problems],
                               code="schema") from None
        raise VariantError(f"{path}: id: {msg}", [("id", msg)], code="schema")
    variant = build_variant(doc, resolver or top, str(path), limits=limits)
    check_not_impersonating(variant, str(path))
    return variant


def variant_named(name: str | os.PathLike[str], *, limits: Limits = VARIANT_LIMITS,
                  argument: str = "variant") -> Variant:
    """The variant ``name`` names, as ``zipai --variant`` reads it: a path (a
    :class:`os.PathLike`, or text ending in ``.yaml``/``.yml``) is a variant file loaded
    within ``limits`` (:func:`load_variant_file`); other text is a preset id, Chinese name or
    alias (:func:`~zipai_rules.presets.find_variant`); for an unknown name that is a folder
    or has another file suffix, the message says what a variant file's name ends in.

    Raises :class:`VariantError`: ``unknown_variant`` for an unknown name or a value that is
    neither text nor a path (the message names ``argument``), and :func:`load_variant_file`'s
    codes for a file."""
    if isinstance(name, os.PathLike) or (isinstance(name, str)
                                         and name.endswith((".yaml", ".yml"))):
        return load_variant_file(Path(name), limits=limits)
    if not isinstance(name, str):
        raise VariantError(f"{argument}: {brief(repr(name), 60)} (type {type(name).__name__}) is "
                           "not a variant: give a Variant, a preset id, name or alias, or the "
                           "path of a .yaml variant file", code="unknown_variant")
    try:
        return find_variant(name)
    except VariantError as exc:
        path = Path(name)
        if path.is_dir():
            hint = "it is a folder; name a variant file (.yaml or .yml) in it"
        elif path.exists() or path.suffix:
            hint = "a variant file's name ends in .yaml or .yml"
        else:
            raise
        raise VariantError(f"{exc}; {hint}", code=exc.code) from None


def variant_file_warnings(path: str | Path, variant: Variant | None = None, *,
                          limits: Limits = VARIANT_LIMITS) -> tuple[str, ...]:
    """What looks wrong in a variant file that loads (``zipai validate`` prints each as
    ``warning: …``), as sentences in the file's terms:

    * a rule the file overrides (a parameter path such as ``win.min_huxi``, whose value differs
      from its parent's) while a citation of its parent covers it (the same path or an
      enclosing one, ``scoring`` for ``scoring.conversion.step``) and the file gives none of its
      own: the inherited citation now describes another value;
    * a 名堂 of an exclusive group that never applies, as a pattern listed before it in the
      group holds whenever it does (:func:`~zipai_rules.mingtang.never_applying`: a weaker
      pattern listed before a stronger one);
    * a win that can score 0 units or fewer: the smallest winning 胡息 (``win.min_huxi``) and
      those above it converted by the variant's scoring, or a win its 名堂 can take down to 0
      units (:func:`~zipai_rules.loader.least_units`; below 0 is refused).

    ``variant``: the file's variant when already loaded (else it is loaded). Raises what
    :func:`load_variant_file` raises."""
    path = Path(path)
    v = variant if variant is not None else load_variant_file(path, limits=limits)
    out: list[str] = []
    doc = read_yaml(_read_file(path, limits), str(path), limits)
    parent = doc.get("extends") if isinstance(doc, Mapping) else None
    if isinstance(parent, str):
        top = _FileResolver(path.parent, path.parent, limits)
        base = resolve({"extends": parent}, top, str(path))
        inherited: Mapping[str, Any] = base.get("citations") or {}
        own = [str(k) for k in doc.get("citations") or {}]
        stale: dict[str, list[str]] = {}  # inherited citation → the rules it no longer fits
        for rule, value in _leaves({k: x for k, x in doc.items() if k not in _NOT_RULES}):
            if _lookup(base, rule) == value or any(_covers(k, rule) for k in own):
                continue
            cited = next((str(k) for k in inherited if _covers(str(k), rule)), None)
            if cited is not None:
                stale.setdefault(cited, []).append(rule)
        for cited, rules in stale.items():
            out.append(f"{', '.join(rules)} {'overrides' if len(rules) == 1 else 'override'} "
                       f"{parent}'s value without a citation of its own: the citation of "
                       f"{cited} it keeps describes {parent}'s rule ({inherited[cited]}); "
                       f"add citations.{cited}")
    patterns = v.scoring.mingtang.patterns
    for later, first in never_applying(patterns):
        a, b = patterns[first], patterns[later]
        out.append(f"scoring.mingtang.patterns[{later}] ({b.name}) never applies: "
                   f"patterns[{first}] ({a.name}), listed before it in the group {b.group}, "
                   "holds whenever it does, and only the first listed pattern of a group "
                   f"applies; list {b.name} first if it is to win over {a.name}")
    lowest, _, where = least_units(normalise(v.doc))
    if where is not None and lowest == 0:
        out.append(f"{where}: a win can score 0 {v.term(v.scoring.unit)} once its 名堂 take "
                   "their units away: the losers pay nothing for it")
    zero = next((h for h in range(v.win.min_huxi, v.win.min_huxi + 100)
                 if v.scoring.units(h) <= 0), None)
    if zero is not None:
        out.append(f"a win of {zero} {v.term('huxi')} scores {v.scoring.units(zero)} "
                   f"{v.term(v.scoring.unit)} (win.min_huxi is {v.win.min_huxi}): the losers "
                   "pay nothing for it")
    return tuple(out)


def _leaves(doc: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """``(dotted path, value)`` of every non-mapping value under ``doc``."""
    out: list[tuple[str, Any]] = []
    for key, value in doc.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            out.extend(_leaves(value, path + "."))
        else:
            out.append((path, value))
    return out


def _lookup(doc: Any, path: str) -> Any:
    """The value at a dotted ``path`` of ``doc``, or ``None``."""
    for key in path.split("."):
        if not isinstance(doc, Mapping) or key not in doc:
            return None
        doc = doc[key]
    return doc


def _covers(cited: str, rule: str) -> bool:
    """Whether a citation of ``cited`` speaks of the parameter ``rule``: the same path, one
    enclosing it, or one inside it."""
    return cited == rule or rule.startswith(cited + ".") or cited.startswith(rule + ".")


def _read_file(path: Path, limits: Limits) -> str:
    try:
        return read_text(path, limits.max_bytes)
    except Refused as exc:
        raise VariantError(exc.message, [("<root>", exc.message)], code=exc.code) from None


class _FileResolver:
    """Parents of a variant file: shipped presets by id, ``.yaml`` files relative to
    ``folder`` and inside ``root``."""

    def __init__(self, folder: Path, root: Path, limits: Limits) -> None:
        self.folder, self.root, self.limits = folder, root, limits

    def _file(self, name: str) -> Path:
        candidate = Path(name)
        try:
            where = (self.folder / candidate).resolve()
            root = self.root.resolve()
        except (OSError, RuntimeError, ValueError) as exc:  # a symbolic link loop (ELOOP)
            why = "a loop of symbolic links" if isinstance(exc, RuntimeError) else (
                exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc))
            msg = f"extends {brief(repr(name), 80)}: cannot read: {why}"
            raise VariantError(msg, [("extends", msg)], code="unreadable") from None
        if candidate.is_absolute() or not where.is_relative_to(root):
            raise VariantError(f"extends {brief(repr(name), 80)}: a parent file must be inside "
                               f"{self.root} (the folder of the file loaded); it was not read",
                               [("extends", f"parent {name!r} outside {self.root}")],
                               code="parent_outside")
        return self.folder / candidate

    def __call__(self, name: str) -> Mapping[str, Any]:
        if not name.endswith((".yaml", ".yml")):
            try:
                return raw_preset(name)
            except KeyError:
                raise VariantError(
                    f"extends {brief(repr(name), 80)}: no such preset; known: "
                    f"{', '.join(preset_ids())} (a parent file's name ends in .yaml or .yml)",
                    [("extends", f"unknown variant {name!r}")], code="unknown_parent") from None
        path = self._file(name)
        if not path.is_file():
            raise VariantError(f"extends {brief(repr(name), 80)}: no file {brief(str(path), 120)} "
                               "(a parent file is named "
                               "relative to the file that extends it)",
                               [("extends", f"unknown variant {name!r}")], code="unknown_parent")
        return read_yaml(_read_file(path, self.limits), str(path), self.limits)

    def child(self, name: str) -> Resolver:
        """The resolver for the parent ``name``'s own ``extends``."""
        if not name.endswith((".yaml", ".yml")):
            return self
        return _FileResolver(self._file(name).parent, self.root, self.limits)
