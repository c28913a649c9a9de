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
