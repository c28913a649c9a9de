"""Checks of the arguments of the public functions: a value of the wrong type is refused with
a :class:`~zipai_rules.errors.ZipaiError` (code ``bad_argument``) that names the argument and
quotes the value, never a bare ``AttributeError``, ``TypeError`` or ``KeyError`` from deep
inside (issue 24, kind 8).

Each check returns the value it accepted (a list argument as a tuple), so that a function reads
``events = items_of(events, Event, "events", "an Event")`` once at its top.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from .errors import ZipaiError, brief

__all__ = ["int_arg", "items_of", "mapping_arg", "of_type", "path_arg", "refuse", "text_arg"]

T = TypeVar("T")


def refuse(argument: str, value: object, wanted: str) -> ZipaiError:
    """The ``bad_argument`` error for ``argument`` given ``value`` instead of ``wanted``:
    ``events[2]: object <object …> is not an Event``."""
    return ZipaiError(f"{argument}: {type(value).__name__} {brief(repr(value), 40)} is not "
                      f"{wanted}", code="bad_argument")


def of_type(value: object, cls: type[T] | tuple[type[Any], ...], argument: str,
            wanted: str) -> T:
    """``value`` if it is an instance of ``cls``, else :func:`refuse`."""
    if not isinstance(value, cls):
        raise refuse(argument, value, wanted)
    return value


def items_of(value: object, cls: type[T] | tuple[type[Any], ...], argument: str,
             wanted: str) -> tuple[T, ...]:
    """The items of ``value``, an iterable (not a string, bytes or a mapping) whose every
    item is an instance of ``cls``; refused naming ``argument`` or ``argument[k]``."""
    if isinstance(value, (str, bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        raise refuse(argument, value, f"a list of {wanted.removeprefix('an ').removeprefix('a ')}"
                                      " values")
    items = tuple(value)
    for k, item in enumerate(items):
        if not isinstance(item, cls):
            raise refuse(f"{argument}[{k}]", item, wanted)
    return items


def text_arg(value: object, argument: str, wanted: str = "a string") -> str:
    """``value`` if it is a ``str``, else :func:`refuse`."""
    return of_type(value, str, argument, wanted)


def int_arg(value: object, argument: str, low: int | None = None, high: int | None = None
            ) -> int:
    """``value`` if it is an ``int`` (not a bool) within ``low..high`` (either end open when
    ``None``), else :func:`refuse`."""
    bounds = ("" if low is None and high is None else
              f" in {'' if low is None else low}..{'' if high is None else high}")
    if isinstance(value, bool) or not isinstance(value, int) or (
            low is not None and value < low) or (high is not None and value > high):
        raise refuse(argument, value, f"an int{bounds}")
    return value


def path_arg(value: object, argument: str) -> str | os.PathLike[str]:
    """``value`` if it is a path (``str`` or ``os.PathLike``, not bytes), else
    :func:`refuse`."""
    if isinstance(value, bytes) or not isinstance(value, str | os.PathLike):
        raise refuse(argument, value, "a path (a str or a pathlib.Path)")
    return value


def mapping_arg(value: object, argument: str, wanted: str = "a mapping (a JSON object)"
                ) -> Mapping[str, Any]:
    """``value`` if it is a mapping, else :func:`refuse`."""
    return of_type(value, Mapping, argument, wanted)
