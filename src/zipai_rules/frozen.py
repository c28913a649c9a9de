"""Read-only copies of JSON-like trees, and plain copies back.

A resolved variant document is handed out as :func:`freeze` makes it: mappings become
read-only ``MappingProxyType`` views of private dicts and lists become tuples, all the way
down, so no caller can change a preset that later loads share. :func:`thaw` makes an
independent plain copy (dicts and lists) for JSON, hashing, merging or pickling.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


def freeze(value: Any) -> Any:
    """A deep read-only copy: mappings → ``MappingProxyType``, lists and tuples → tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A deep plain copy: mappings → dicts (keys as text), lists and tuples → lists."""
    if isinstance(value, Mapping):
        return {str(k): thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value
