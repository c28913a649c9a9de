"""Every ```python block of docs/testing.md runs as written.

Each block runs on its own (the page promises they can be copied one by one); then every
``test_*`` function it defines is called and every ``unittest.TestCase`` class it defines is
run, as pytest would collect them. A block may register and load hypothesis profiles, so the
suite's profile is restored afterwards.
"""

from __future__ import annotations

import os
import re
import unittest
from pathlib import Path

import pytest
from hypothesis import settings

DOC = Path(__file__).resolve().parent.parent / "docs" / "testing.md"
_TEXT = DOC.read_text("utf-8")
# each block padded with the page's lines before it, so that its line numbers are the page's
# (tracebacks, and hypothesis reading a test's source with inspect, find the right lines)
BLOCKS = [_TEXT[:m.start(1)].count("\n") * "\n" + m.group(1)
          for m in re.finditer(r"^```python\n(.*?)^```$", _TEXT, re.S | re.M)]


def test_the_page_has_blocks():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.strip().splitlines()[-1][:40])
def test_block_runs(block):
    namespace: dict = {"__name__": "docs_testing_block"}
    try:
        exec(compile(block, str(DOC), "exec"), namespace)  # noqa: S102 - our own docs
        for name, value in list(namespace.items()):
            if name.startswith("test_") and callable(value):
                value()
            elif name.startswith("Test") and isinstance(value, type) \
                    and issubclass(value, unittest.TestCase):
                result = unittest.TestResult()
                unittest.defaultTestLoader.loadTestsFromTestCase(value).run(result)
                assert result.wasSuccessful() and result.testsRun, (result.errors,
                                                                     result.failures)
    finally:
        settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def test_the_readme_library_block_runs(capsys):
    """The README's library example runs as written and prints what its comments say."""
    readme = DOC.parent.parent / "README.md"
    text = readme.read_text("utf-8")
    start = text.index("```python", text.index("## The library")) + len("```python\n")
    block = text[start:text.index("```", start)]
    exec(compile(block, str(readme), "exec"), {"__name__": "readme_block"})  # noqa: S102
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("True 15 wei(d7 d7 d7):6")
    assert out[1] == "[Wait(card=d8, huxi=15)]"
    assert out[3].startswith("card_locked - d10 is a 坎")
    assert out[4:6] == ["nothing_on_offer", "incomplete"]
