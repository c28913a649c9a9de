"""Every script in examples/ runs and prints what its docstring promises."""

import runpy
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("script", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.name)
def test_example_runs(script, capsys, monkeypatch):
    monkeypatch.setenv("ZIPAI_EXAMPLE_GAMES", "40")  # examples that play many hands play 40
    runpy.run_path(str(script), run_name="__main__")
    assert capsys.readouterr().out.strip()


def test_analyze_hand_example_output(capsys):
    runpy.run_path(str(EXAMPLES / "analyze_hand.py"), run_name="__main__")
    assert capsys.readouterr().out.splitlines()[0] == "win 18"
