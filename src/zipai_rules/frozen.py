"""Read-only copies of JSON-like trees, and plain copies back.

A resolved variant document is handed out as :func:`freeze` makes it: mappings become
read-only ``MappingProxyType`` views of private dicts and lists become tuples, all the way
down, so no caller can change a preset that later loads share. :func:`thaw` makes an
independent plain copy (dicts and lists) for JSON, hashing, merging or pickling.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

#: ``attrs.field(..., validator=NO_VALIDATOR)``: no validator, as when the argument is left out,
#: but typed ``Any``, so that mypy types the ``field(...)`` call ``Any`` rather than the field's
#: own type. A field with a ``converter`` (or a default) is typed so otherwise, and the mypyc
#: build (docs/benchmarks.md) checks the value of a class-body line against that type: the
#: ``attrs`` field marker is no ``tuple``, and the module would fail at import.
NO_VALIDATOR: Any = None

#: one slot's setter: ``setter(instance, value)``
SlotSetter = Callable[[Any, Any], None]


def derived() -> Any:
    """``attrs.field`` of a value a frozen class works out from its other fields when made
    (its ``__attrs_post_init__`` sets it with ``object.__setattr__``), read on a hot path in
    place of a property: not an argument, not compared, not in the repr (nor a YAML key)."""
    return attrs.field(init=False, eq=False, repr=False)


def slot_setters(cls: type) -> tuple[SlotSetter, ...]:
    """The setters of the slots of ``cls``, a frozen slotted attrs class, in the order of its
    fields: each the slot's member descriptor's ``__set__``, which stores a value past the
    class's refusing ``__setattr__``. A hand-written ``__init__`` (``init=False``) sets its
    fields with them one by one, ``setters[k](self, value)`` (in a loop, it would be slower
    interpreted); that costs a quarter less than ``object.__setattr__``, as the ``__init__``
    attrs writes sets them, in the compiled build, and an eighth less interpreted
    (docs/benchmarks.md)."""
    return tuple(cls.__dict__[f.name].__set__ for f in attrs.fields(cls))


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
