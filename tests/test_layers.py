"""The import graph: layers point down only (docs/architecture.md).

``LAYERS`` is the order, bottom first, written once here; every module of the package must
belong to one layer and may import only modules of its own layer or of layers below it. The
hand analysis loads neither the engine nor the command line nor any input or output module.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import zipai_rules

PACKAGE = Path(zipai_rules.__file__).parent

#: the layers, bottom first: a module imports from its own layer or below. ``engine`` stands
#: for the package ``zipai_rules.engine`` and each of its modules, ``cli`` likewise.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "arguments", "frozen", "native", "schemas", "terminal", "vocab"),  # shared by
                                              # every layer; native: which modules are compiled
    ("cards",),
    ("melds",),
    ("hooks",),                               # the names of the code hooks
    ("mingtang",),                            # 名堂: facts, conditions, effects
    ("variant",),                             # the frozen rules model the analysis reads
    ("special",),                             # the special-win shapes the analysis judges
    ("worth",),                               # a win's worth, which chooses its split
    ("blocks",),                              # the block tables behind the search value
    ("kings",),                               # the 王 over the block tables
    ("drawing",),                             # the pictures drawn from plain data
    ("analysis",),
    # the variant's input: loading, presets; "" is the package itself, whose
    # __init__ re-exports the presets and the file loader (imported on first use)
    ("inputs", "partial", "loader", "presets", "variant_file", ""),
    ("engine", "play"),
    ("settlement", "invariants", "match", "scored"),
    ("records", "shards", "svg", "wording", "hints"),  # shards: many games' records in one
                                              # file; svg: pictures of tables, analyses,
                                              # settlements; wording: the words of play --zh
                                              # and the replay; hints: what a seat works out
                                              # from its view
    ("bots", "stats", "simulate", "manifest", "summary_table", "bench", "reference",
     "testing", "variant_docs", "rl_encoder", "rl", "rl_vector", "rl_parallel",
     "rl_opponents", "replay_html", "arena"),
    ("web",),                                 # zipai serve: the web table (web.app:
                                              # Starlette), the record store, its pages
    ("cli",),
)

#: the upward edges, bound late: ``variant.as_variant`` imports the variant file reader
#: inside the function, and only for a variant given by name or path, so that every function
#: taking a variant takes a name as ``--variant`` does (a loaded :class:`Variant` needs none);
#: the package re-exports the record readers, imported on first use (``__getattr__``; the
#: static import is for type checkers only); a state's and a view's ``_repr_svg_`` (Jupyter)
#: call the pictures' own ``svg.render``, imported when drawn, so both draw one picture
LATE_BOUND = {("zipai_rules.variant", "zipai_rules.variant_file"),
              ("zipai_rules.engine.state", "zipai_rules.svg"),
              ("zipai_rules.engine.observation", "zipai_rules.svg"),
              ("zipai_rules", "zipai_rules.records")}

#: modules that read or write files, or talk to a terminal: the hand analysis loads none
IO_MODULES = ("inputs", "loader", "presets", "variant_file", "records", "shards", "stats",
              "simulate", "manifest", "summary_table", "bench", "variant_docs", "terminal",
              "replay_html", "web")


def module_name(path: Path) -> str:
    """``zipai_rules.engine.game`` for ``engine/game.py``; ``zipai_rules`` for the package."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["zipai_rules", *parts])


def layer_of(module: str) -> int:
    """The index in ``LAYERS`` of a package module (by its first name below the package)."""
    top = module.removeprefix("zipai_rules").removeprefix(".").split(".")[0]
    for k, names in enumerate(LAYERS):
        if top in names:
            return k
    raise AssertionError(f"{module} belongs to no layer of tests/test_layers.py")


def is_module(name: str) -> bool:
    """Whether ``name`` is a module or subpackage of the package."""
    where = PACKAGE.joinpath(*name.split(".")[1:])
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def imports_of(path: Path) -> set[str]:
    """Every package module ``path`` imports, at the top or inside a function."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("zipai_rules"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if not module.startswith("zipai_rules"):
                continue
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names
                         if is_module(f"{module}.{a.name}"))  # from . import hooks
    return found


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer():
    assert len(SOURCES) > 30
    for path in SOURCES:
        layer_of(module_name(path))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    name = module_name(path)
    own = layer_of(name)
    upward = sorted(m for m in imports_of(path)
                    if layer_of(m) > own and (name, m) not in LATE_BOUND)
    assert upward == [], f"{name} (layer {own}) imports from higher layers: {upward}"


def test_only_the_cli_imports_the_cli():
    for path in SOURCES:
        name = module_name(path)
        if name.startswith("zipai_rules.cli"):
            continue
        assert not any(m.startswith("zipai_rules.cli") for m in imports_of(path)), name


def test_the_layers_are_what_they_claim():
    """The import reader finds real edges: the engine imports the analysis, the CLI the
    records, ``from . import hooks`` names the module."""
    assert "zipai_rules.analysis" in imports_of(PACKAGE / "engine" / "claims.py")
    assert "zipai_rules.records" in imports_of(PACKAGE / "cli" / "play.py")
    assert "zipai_rules.hooks" in imports_of(PACKAGE / "loader.py")
    assert layer_of("zipai_rules.cli.play") > layer_of("zipai_rules.records") \
        > layer_of("zipai_rules.settlement") > layer_of("zipai_rules.engine.game") \
        > layer_of("zipai_rules.loader") > layer_of("zipai_rules.analysis") \
        > layer_of("zipai_rules.melds") > layer_of("zipai_rules.cards")


def loaded_by(module: str) -> list[str]:
    """The package modules a fresh interpreter has loaded after ``import module``."""
    code = (f"import json, sys, {module}; "
            "print(json.dumps(sorted(m for m in sys.modules if m == 'zipai_rules' "
            "or m.startswith('zipai_rules.'))))")  # not the compiled build's zipai_rules__mypyc
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


def test_the_analysis_loads_no_engine_cli_or_io_module():
    loaded = loaded_by("zipai_rules.analysis")
    assert loaded == ["zipai_rules", "zipai_rules.analysis", "zipai_rules.arguments",
                      "zipai_rules.blocks",
                      "zipai_rules.cards",
                      "zipai_rules.errors", "zipai_rules.frozen", "zipai_rules.hooks",
                      "zipai_rules.kings",
                      "zipai_rules.melds", "zipai_rules.mingtang", "zipai_rules.schemas",
                      "zipai_rules.special", "zipai_rules.variant", "zipai_rules.vocab",
                      "zipai_rules.worth"]
    for name in loaded:
        top = name.removeprefix("zipai_rules").removeprefix(".").split(".")[0]
        assert top not in ("engine", "cli", *IO_MODULES), name


def test_the_engine_loads_no_cli_records_or_bots():
    loaded = loaded_by("zipai_rules.engine")
    assert "zipai_rules.engine.game" in loaded
    assert not [m for m in loaded if m.startswith(("zipai_rules.cli", "zipai_rules.records",
                                                   "zipai_rules.bots", "zipai_rules.match"))]


def test_the_drawing_imports_none_of_what_it_draws():
    """The pictures are drawn from plain data: the drawing imports no analysis, engine or
    settlement, and no module imports the pictures' public face (svg) but the front ends (the CLI
    and the web table) and, bound late, the ``_repr_svg_`` of a state and a view."""
    assert imports_of(PACKAGE / "drawing.py") == {
        "zipai_rules.arguments", "zipai_rules.cards", "zipai_rules.melds", "zipai_rules.variant",
        "zipai_rules.vocab"}
    users = sorted(module_name(p) for p in SOURCES if "zipai_rules.svg" in imports_of(p))
    assert all(u.startswith(("zipai_rules.cli", "zipai_rules.web."))
               or (u, "zipai_rules.svg") in LATE_BOUND
               for u in users), users
