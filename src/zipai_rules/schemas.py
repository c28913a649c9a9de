"""The JSON Schemas shipped in the package (``zipai_rules/schema/<name>.schema.json``), read
once: the variant schema (every rule key, its type, meaning and default) and the game-record
schema. The one place that reads them; :mod:`zipai_rules.inputs` builds the validators."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def shipped_schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) ``zipai_rules/schema/<name>.schema.json`` shipped in
    the package (``name``: ``variant`` or ``record``), parsed. Raises :class:`OSError` for
    any other name."""
    path = resources.files("zipai_rules").joinpath(f"schema/{name}.schema.json")
    loaded: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return loaded


#: the schema of variant files as written (``extends`` a parent), made from the variant schema
#: by :func:`as_written` and shipped as ``schema/variant-file.schema.json`` (``zipai schema``
#: prints it; ``zipai schema > "$(zipai schema --path)"`` writes it after the variant schema
#: changed, and tests/test_file_schema.py checks that it was)
FILE_SCHEMA = "variant-file"


def schema_path(name: str) -> str:
    """Where the shipped schema ``name`` (``variant``, ``variant-file`` or ``record``) is
    installed: the path of ``zipai_rules/schema/<name>.schema.json`` (for an editor's
    ``$schema`` setting)."""
    return str(resources.files("zipai_rules").joinpath(f"schema/{name}.schema.json"))


def as_written(merged: dict[str, Any]) -> dict[str, Any]:
    """The schema of a variant file as written, from the schema ``merged`` of a resolved
    variant (:func:`shipped_schema` ``("variant")``): the same keys, types, bounds,
    descriptions and defaults, but a file that ``extends`` a parent must give only ``id``
    and ``name`` (the parent gives the rest; mappings merge key by key), while a file without
    ``extends`` must give every key the resolved schema requires. Items of a list (a 名堂
    pattern, a bonus) stay as required as they are: a list replaces its parent's whole."""
    def loose(node: Any, key: str | None = None) -> Any:
        if isinstance(node, dict):
            inside = {k: v if k in ("default", "examples", "enum", "const")
                      else loose(v, k) for k, v in node.items()}
            if key != "items" and isinstance(node.get("required"), list) \
                    and node.get("type") == "object":
                inside.pop("required")
            # the items of a list keep their own required keys
            if "items" in node and isinstance(node["items"], dict):
                inside["items"] = node["items"]
            return inside
        if isinstance(node, list):
            return [loose(v) for v in node]
        return node

    def needs(node: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if isinstance(node.get("required"), list):
            out["required"] = node["required"]
        sections = {k: n for k, v in node.get("properties", {}).items()
                    if isinstance(v, dict) and v.get("type") == "object" and (n := needs(v))}
        if sections:
            out["properties"] = sections
        return out

    top = {k: v for k, v in loose(merged).items()
           if k not in ("$schema", "$id", "title", "description")}
    return {
        "$schema": merged["$schema"],
        "$id": "https://zipai-rules.invalid/schema/variant-file.schema.json",
        "title": "zipai_rules variant file (as written)",
        "description": "A variant file as written, for an editor (yaml-language-server: "
                       "`# yaml-language-server: $schema=<zipai schema --path>`): a file "
                       "with `extends` gives only `id`, `name` and the keys it changes; one "
                       "without gives every rule. Made from variant.schema.json (the schema "
                       "of the merged document, which `zipai validate` checks) by `zipai "
                       "schema`.",
        **top,
        "if": {"required": ["extends"]},
        "then": {"required": ["id", "name"]},
        "else": needs(merged),
    }


def file_schema_text() -> str:
    """The text of ``schema/variant-file.schema.json`` as :func:`as_written` makes it."""
    return json.dumps(as_written(shipped_schema("variant")), ensure_ascii=False, indent=1) + "\n"

