"""The optional compiled build: which modules it compiles, and whether this install runs them.

The compiled build is the same source compiled to C extension modules with mypyc, switched on
at build time (``ZIPAI_COMPILE=1 pip install .``: ``hatch_build.py``, docs/benchmarks.md);
a plain install is pure Python. Both play byte-identical records (tests/record_hashes.py).
Python imports a module's extension (``analysis.cpython-311-x86_64-linux-gnu.so``) before its
``.py`` file, so a module is compiled in this install when that file lies beside it.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

#: the modules the compiled build compiles, as paths below the package: the hand analysis,
#: the engine's hot path and the built-in bots (``hatch_build.py`` reads this tuple from the
#: file, without importing the package). Compiled, a function checks its arguments' declared
#: types first and raises ``TypeError``: so a compiled module's public functions take their
#: arguments as ``object`` and refuse a wrong one with a
#: :class:`~zipai_rules.errors.ZipaiError` themselves (``make_bots(names, "1", 3)``); the
#: modules not compiled (cards, melds) still declare theirs (``parse_card(3)``).
MODULES = (
    "special.py", "worth.py", "blocks.py", "kings.py", "analysis.py",
    "engine/actions.py", "engine/state.py", "engine/chou.py", "engine/claims.py",
    "engine/window.py", "engine/transition.py", "play.py", "bots.py",
)


def compiled_modules() -> tuple[str, ...]:
    """The modules of :data:`MODULES` (as ``zipai_rules.engine.claims``) that run compiled in
    this install: an extension module lies beside the source; ``()`` in the pure build."""
    here = Path(__file__).parent
    return tuple("zipai_rules." + m.removesuffix(".py").replace("/", ".") for m in MODULES
                 if any((here / m).with_suffix(s).is_file() for s in EXTENSION_SUFFIXES))


def compiled() -> bool:
    """Whether this install is the compiled build: every module of :data:`MODULES` compiled
    (``zipai_rules.compiled()``; ``zipai bench`` names the build it measured)."""
    return len(compiled_modules()) == len(MODULES)


def build_name() -> str:
    """The build in use, for people: ``compiled (mypyc, 13 modules)``, ``pure Python``, or
    ``partly compiled (k of n modules)``."""
    done = len(compiled_modules())
    if done == len(MODULES):
        return f"compiled (mypyc, {done} modules)"
    return "pure Python" if not done else f"partly compiled ({done} of {len(MODULES)} modules)"
