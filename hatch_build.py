"""The wheel's build hook: the optional compiled build (docs/benchmarks.md).

``ZIPAI_COMPILE=1 pip install .`` compiles the modules named in ``zipai_rules.native.MODULES``
with mypyc (mypy's compiler for typed Python) into C extension modules, built beside the
``.py`` files in a platform wheel; without it (the plain install) this hook does nothing and
the wheel is pure Python. ``ZIPAI_COMPILE_JOBS`` caps the C compiler's parallel jobs (1 to 64; the
machine's CPU count by default). mypyc, setuptools (its C build) and what the type check
reads are asked for by :meth:`CompileHook.dependencies`, so that a build with isolation gets
them; an editable install (``pip install -e``) stays pure Python.
"""

from __future__ import annotations

import ast
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: the compiler the compiled build is checked with (tests/record_hashes.py, the suite)
MYPY = "mypy==2.4.1"
ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "zipai_rules"


def wanted() -> bool:
    """Whether the compiled build is asked for: ``ZIPAI_COMPILE`` set and not ``0``."""
    return os.environ.get("ZIPAI_COMPILE", "0").strip() not in ("", "0")


def modules() -> tuple[str, ...]:
    """``MODULES`` of ``src/zipai_rules/native.py``, read from the file (the package may not
    import in the build environment)."""
    tree = ast.parse((PACKAGE / "native.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "MODULES" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise RuntimeError("src/zipai_rules/native.py defines no MODULES")


class CompileHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        if not wanted():
            return []
        return [MYPY, "setuptools>=61", "attrs>=23.1", "types-PyYAML>=6.0",
                "types-jsonschema>=4.18"]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or not wanted():
            return
        work = Path(tempfile.mkdtemp(prefix="zipai-mypyc-"))
        try:
            built = compile_modules(work)
            for path in built:
                target = path.relative_to(work / "lib").as_posix()
                final = ROOT / "build" / "mypyc" / target  # outlives the temporary folder
                final.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, final)
                build_data["force_include"][str(final)] = target
        finally:
            shutil.rmtree(work, ignore_errors=True)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True


def compile_modules(work: Path) -> list[Path]:
    """Compile :func:`modules` with mypyc into ``work/lib`` (the package's layout: the
    extension of each module, and ``zipai_rules__mypyc``, the library they share); their
    paths."""
    from mypyc.build import mypycify  # only in the build environment of a compiled build
    from setuptools import Distribution

    here = os.getcwd()
    os.chdir(ROOT)  # mypy names the modules from their paths below src/
    try:
        paths = [f"src/zipai_rules/{m}" for m in modules()]
        # one group (one shared library), named: separate=[...] also turns off mypyc's
        # whole-program view of subclasses, under which == between two values of one attrs
        # class compiles to identity (the class's __eq__, made by attrs at run time, unseen)
        extensions = mypycify([f"--cache-dir={work / 'mypy-cache'}", *paths],
                              opt_level="3",
                              separate=[(paths, "zipai_rules")],
                              target_dir=str(work / "c"))
        dist = Distribution({"name": "zipai-rules-compiled", "ext_modules": extensions})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib = str(work / "lib")  # type: ignore[attr-defined]
        cmd.build_temp = str(work / "temp")  # type: ignore[attr-defined]
        jobs = os.environ.get("ZIPAI_COMPILE_JOBS", "")
        # at most 64 jobs, at least 1, whatever the variable says
        cap = min(int(jobs[:3]), 64) if jobs.isdecimal() and jobs.isascii() else os.cpu_count()
        cmd.parallel = max(1, cap or 1)  # type: ignore[attr-defined]
        dist.run_command("build_ext")
    finally:
        os.chdir(here)
    return sorted(p for p in (work / "lib").rglob("*") if p.is_file())
