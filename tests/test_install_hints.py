"""Install hints that work: zipai_rules is not on the package index, so every hint of the
docs, the README and the messages installs from a checkout (``.``) or a built wheel, never a
name an index would be asked for (issue 24, kind 13). An import of an optional part without
its extra says which extra to install."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
#: where hints are written: the package, the docs, the README, the examples and CI
PLACES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
          *sorted((ROOT / "src").rglob("*.py")), *sorted((ROOT / "examples").rglob("*.py")),
          ROOT / ".ci" / "run"]
#: a ``pip install`` and what follows it on the line
PIP = re.compile(r"pip install\s+([^\n`]*)")
#: what an install may name: the checkout (``.``, ``-e .``), a built wheel, or pip itself
WORKS = re.compile(r"""^(-[qe] |--upgrade )*(["']?)(\.|\$\(ls dist/zipai_rules-\*\.whl\)|"""
                   r"""dist/zipai_rules-<version>-py3-none-any\.whl)(\[[\w{}]+\])?\2"""
                   r"""|^-q --upgrade pip""")


def hints() -> list[tuple[str, str]]:
    found = []
    for path in PLACES:
        if path.is_file():
            for m in PIP.finditer(path.read_text("utf-8")):
                found.append((str(path.relative_to(ROOT)), m[1].strip()))
    return found


def test_hints_are_found_at_all():
    places = {p for p, _ in hints()}
    assert {"README.md", "docs/testing.md", "docs/rl.md", "docs/cluster.md",
            "src/zipai_rules/errors.py"} <= places


@pytest.mark.parametrize("place, hint", hints())
def test_every_install_hint_installs_from_a_checkout_or_a_wheel(place, hint):
    assert "zipai-rules[" not in hint and "zipai_rules[" not in hint, (place, hint)
    assert WORKS.match(hint), (place, hint)


def run_without(module: str, code: str) -> str:
    """stderr then stdout of ``code`` run where ``module`` cannot be imported"""
    done = subprocess.run([sys.executable, "-c", f"import sys; sys.modules[{module!r}] = None\n"
                           + code], capture_output=True, text=True, timeout=120)
    return done.stderr + done.stdout


def test_rl_without_its_extra_names_the_extra():
    out = run_without("numpy", "try:\n    import zipai_rules.rl\n"
                               "except ModuleNotFoundError as e:\n    print(e.name, '|', e)\n")
    assert out.startswith("numpy | zipai_rules.rl needs numpy, which zipai_rules does not "
                          'install: install the [rl] extra'), out
    assert 'python3 -m pip install ".[rl]"' in out and "Traceback" not in out


def test_simulate_dask_without_its_extra_names_the_extra():
    out = run_without("distributed", "from zipai_rules.cli import main\n"
                      "print(main(['simulate', '--games', '1', '--dask', 'local']))\n")
    assert out.startswith("error: --dask needs dask.distributed: install the [dask] extra"), out
    assert 'python3 -m pip install ".[dask]"' in out and out.endswith("\n2\n"), out
