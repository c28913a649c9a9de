"""Loading a variant from a YAML file the caller names: the file and its ``extends`` parents
(shipped presets, or files inside the folder of the top file) are read within the
:class:`~zipai_rules.inputs.Limits`, then built by :func:`~zipai_rules.loader.build_variant`;
a file may not take a shipped preset's name with other rules."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import VariantError
from .inputs import VARIANT_LIMITS, Limits, Refused, brief, read_text
from .loader import Resolver, build_variant, read_yaml
from .presets import check_not_impersonating, find_variant, raw_preset
from .variant import Variant

__all__ = ["load_variant_file", "variant_named"]


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
    (code ``schema``), not take its parent's.

    Raises :class:`VariantError`: codes ``unreadable``, ``too_large``, ``too_deep``,
    ``yaml_syntax``, ``unknown_parent``, ``parent_outside``, ``schema``,
    ``semantic``, ``reserved_name``."""
    path = Path(path)
    text = _read_file(path, limits)
    top = _FileResolver(path.parent, Path(root) if root is not None else path.parent, limits)
    doc = read_yaml(text, str(path), limits)
    if isinstance(doc, Mapping) and "id" not in doc:
        msg = ("missing: a variant file gives its own id (and name), not the one of its "
               f"parent {str(doc.get('extends', ''))!r}")
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
        where = (self.folder / candidate).resolve()
        root = self.root.resolve()
        if candidate.is_absolute() or not where.is_relative_to(root):
            raise VariantError(f"extends {name!r}: a parent file must be inside {self.root} "
                               "(the folder of the file loaded); it was not read",
                               [("extends", f"parent {name!r} outside {self.root}")],
                               code="parent_outside")
        return self.folder / candidate

    def __call__(self, name: str) -> Mapping[str, Any]:
        if not name.endswith((".yaml", ".yml")):
            return raw_preset(name)
        path = self._file(name)
        return read_yaml(_read_file(path, self.limits), str(path), self.limits)

    def child(self, name: str) -> Resolver:
        """The resolver for the parent ``name``'s own ``extends``."""
        if not name.endswith((".yaml", ".yml")):
            return self
        return _FileResolver(self._file(name).parent, self.root, self.limits)
