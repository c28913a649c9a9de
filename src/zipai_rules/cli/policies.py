"""Policies named on the command line (``zipai arena``): ``SOURCE:NAME``, a callable
``NAME(observation, mask) -> code`` (the RL environment's arrays, as
:mod:`zipai_rules.rl_opponents` defines a policy) found in ``SOURCE``:

* a file whose name ends in ``.py`` (``my_agent.py:policy``, ``agents/best.py:Agent.act``):
  that file and no other is loaded (its own imports are its business);
* or a module by its dotted name (``zipai_rules.rl_opponents:...``, an installed package's),
  imported from ``sys.path`` without the current directory, so that no file lying there is
  imported unasked in its place.

Every spec is untrusted text: printable ASCII identifiers only (no ``__`` names, no control
characters), a file that is a regular file of at most :data:`MAX_POLICY_BYTES`, a name that is
callable and not a class. Each refusal, and any failure of the loaded code (on import, or
when it plays: an exception, or a code that is not an int the mask allows), is a
:class:`~zipai_rules.errors.ZipaiError` (code ``bad_policy``): ``error: …``, exit status 2.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..arena import Policy
from ..errors import ZipaiError

#: the largest policy file loaded
MAX_POLICY_BYTES = 1 << 20

_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")
_FILE = re.compile(r"[A-Za-z0-9_./ -]+\.py\Z")


def _bad(spec: str, why: str) -> ZipaiError:
    shown = spec if spec.isascii() and spec.isprintable() else ascii(spec)
    return ZipaiError(f"policy {shown[:80]}: {why}", code="bad_policy")


def is_policy_spec(item: str) -> bool:
    """Whether a player item names a policy (``SOURCE:NAME``) rather than a bot."""
    return ":" in item


def _module(spec: str, source: str) -> Any:
    if not _DOTTED.match(source) or "__" in source:
        raise _bad(spec, "the source is a file ending in .py or a dotted module name")
    here = {"", ".", os.getcwd()}
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if p not in here and os.path.abspath(p) not in here]
    try:
        return importlib.import_module(source)
    finally:
        sys.path[:] = saved


def _file(spec: str, source: str) -> Any:
    if not _FILE.match(source):
        raise _bad(spec, "a policy file's name is letters, digits, _ . / - and ends in .py")
    path = Path(source)
    try:
        info = path.stat()
    except OSError as exc:
        raise _bad(spec, f"cannot read {source}: {exc.strerror or exc}") from None
    if not path.is_file():
        raise _bad(spec, f"{source} is not a regular file")
    if info.st_size > MAX_POLICY_BYTES:
        raise _bad(spec, f"{source} is larger than {MAX_POLICY_BYTES} bytes")
    name = "zipai_policy_" + re.sub(r"\W", "_", path.stem)
    loader = importlib.util.spec_from_file_location(name, path)
    if loader is None or loader.loader is None:
        raise _bad(spec, f"{source} cannot be loaded as Python")
    module = importlib.util.module_from_spec(loader)
    sys.modules[name] = module  # for the module's own dataclasses and pickles
    try:
        loader.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def load_policy(spec: str) -> Policy:
    """The :class:`~zipai_rules.arena.Policy` a ``SOURCE:NAME`` spec names (module
    docstring), named ``NAME`` in the report and checked as it plays. Raises
    :class:`~zipai_rules.errors.ZipaiError` (code ``bad_policy``)."""
    if not spec.isascii() or not spec.isprintable():
        raise _bad(spec, "a policy is named in printable ASCII")
    source, _, attr = spec.rpartition(":")
    if not source or not _DOTTED.match(attr) or "__" in attr:
        raise _bad(spec, "give SOURCE:NAME, NAME a Python name (no __ names), SOURCE a file "
                   "ending in .py or a dotted module name")
    try:
        module = _file(spec, source) if source.endswith(".py") else _module(spec, source)
        obj: Any = module
        for part in attr.split("."):
            obj = getattr(obj, part)
    except ZipaiError:
        raise
    except (Exception, SystemExit) as exc:  # the caller's code failed to load
        raise _bad(spec, f"cannot load it: {type(exc).__name__}: {exc}"[:300]) from None
    if isinstance(obj, type) or not callable(obj):
        raise _bad(spec, f"{attr} is not a policy: name a function or an object called as "
                   "policy(observation, mask) -> code")
    return Policy(_checked(spec, obj), attr)


def _checked(spec: str, act: Callable[[Any, Any], Any]) -> Callable[[Any, Any], int]:
    """``act`` whose failures and illegal answers are :class:`ZipaiError`, not tracebacks."""
    def play(observation: Any, mask: Any) -> int:
        try:
            code = act(observation, mask)
        except Exception as exc:
            raise _bad(spec, f"raised {type(exc).__name__}: {exc}"[:300]) from None
        value = getattr(code, "item", lambda: code)() if hasattr(code, "dtype") else code
        if isinstance(value, bool) or not isinstance(value, int) \
                or not 0 <= value < len(mask) or not mask[value]:
            raise _bad(spec, f"returned {value!r:.40}, not an action code the mask allows")
        return value
    return play


__all__ = ["MAX_POLICY_BYTES", "is_policy_spec", "load_policy"]
