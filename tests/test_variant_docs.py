"""The variant pages in docs/ are generated from the presets and up to date, and every rule of
every preset cites its source."""

from pathlib import Path

import pytest

from zipai_rules.presets import load_preset, preset_ids
from zipai_rules.variant_docs import _flat, _prefixes, index_page, page_notes, variant_page

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_comparison_table_up_to_date():
    current = (DOCS / "variants.md").read_text("utf-8")
    assert index_page(current) == current, "run: python -m zipai_rules.variant_docs docs"


@pytest.mark.parametrize("pid", preset_ids())
def test_variant_page_up_to_date(pid):
    page = (DOCS / "variants" / f"{pid}.md").read_text("utf-8")
    assert variant_page(load_preset(pid), page_notes(DOCS, pid)) == page, \
        "run: python -m zipai_rules.variant_docs docs"


def test_page_notes_follow_the_generated_rules(tmp_path):
    """A preset's notes file is appended after its terminology table; without one the page
    is the generated rules alone."""
    v = load_preset("hunan")
    assert page_notes(tmp_path, "hunan") == ""
    bare = variant_page(v)
    assert variant_page(v, page_notes(tmp_path, "hunan")) == bare
    (tmp_path / "variants" / "notes").mkdir(parents=True)
    (tmp_path / "variants" / "notes" / "hunan.md").write_text("## A note\n\nText.\n", "utf-8")
    page = variant_page(v, page_notes(tmp_path, "hunan"))
    assert page == bare + "\n## A note\n\nText.\n"
    assert page.index("## Terminology") < page.index("## A note")


def test_yongzhou_page_carries_the_king_notes():
    page = (DOCS / "variants" / "yongzhou.md").read_text("utf-8")
    assert "## 王霸 in play" in page
    assert "| `deck.king_rules.claims` | peng, pao, chi |" in page
    assert "| `deck.king_rules.chi_kings` | 1 |" in page
    assert "| `deck.king_rules.bi_kings` | no |" in page
    assert "a 王 in a 吃" not in page  # no longer listed as not modelled


@pytest.mark.parametrize("pid", preset_ids())
def test_every_rule_cites_a_source(pid):
    doc = dict(load_preset(pid).doc)
    citations = doc["citations"]
    meta = ("id", "name", "aliases", "description", "terminology", "citations")
    rules = _flat({k: v for k, v in doc.items() if k not in meta})
    uncited = [p for p in rules if not any(q in citations for q in _prefixes(p))]
    assert uncited == []
    assert all(c.strip() for c in citations.values())


def test_table_lists_every_preset_once():
    table = index_page("")
    for pid in preset_ids():
        assert table.count(f"[`{pid}`]") == 1
