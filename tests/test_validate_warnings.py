"""`zipai validate` warnings (a stale inherited citation, a win worth 0 units) and the errors of
a typo'd ``extends``."""

from __future__ import annotations

import pytest

from zipai_rules.cli import main
from zipai_rules.errors import VariantError
from zipai_rules.presets import preset_ids, variants_dir
from zipai_rules.variant_file import load_variant_file, variant_file_warnings

KNOWN = ", ".join(preset_ids())
HUNAN_CONVERSION = ("default (digest G3, low confidence): 囤 = (胡息 − 12) // 3, so 15 → 1 and "
                    "+1 per 3 胡息")


def write(folder, name, text):
    path = folder / name
    path.write_text(text, "utf-8")
    return path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_override_without_its_own_citation_warns(tmp_path):
    path = write(tmp_path, "mine.yaml", "id: mine\nname: Mine\nextends: hunan\n"
                 "scoring:\n  conversion: {offset: 9}\n")
    assert variant_file_warnings(path) == (
        "scoring.conversion.offset overrides hunan's value without a citation of its own: the "
        f"citation of scoring.conversion it keeps describes hunan's rule ({HUNAN_CONVERSION}); "
        "add citations.scoring.conversion",)


def test_rules_under_one_stale_citation_are_listed_together(tmp_path):
    path = write(tmp_path, "mine.yaml", "id: mine\nname: Mine\nextends: hunan\n"
                 "scoring:\n  conversion: {offset: 9, step: 2}\n")
    (warning,) = variant_file_warnings(path)
    assert warning.startswith("scoring.conversion.offset, scoring.conversion.step override "
                              "hunan's value")


@pytest.mark.parametrize("citation", ["scoring.conversion", "scoring", "scoring.conversion.offset"])
def test_own_citation_silences_the_warning(tmp_path, citation):
    path = write(tmp_path, "mine.yaml", "id: mine\nname: Mine\nextends: hunan\n"
                 f"scoring:\n  conversion: {{offset: 9}}\ncitations:\n  {citation}: my source\n")
    assert variant_file_warnings(path) == ()


def test_value_equal_to_the_parent_keeps_its_citation(tmp_path):
    path = write(tmp_path, "mine.yaml", "id: mine\nname: Mine\nextends: hunan\n"
                 "scoring:\n  conversion: {offset: 12, step: 3}\nterminology: {jiang: 对}\n")
    assert variant_file_warnings(path) == ()


def test_parent_file_citation_goes_stale_too(tmp_path):
    write(tmp_path, "base.yaml", "id: base\nname: Base\nextends: hunan\nwin: {min_huxi: 10}\n"
          "citations:\n  win.min_huxi: base source\n")
    path = write(tmp_path, "child.yaml", "id: child\nname: Child\nextends: base.yaml\n"
                 "win: {min_huxi: 12}\n")
    assert variant_file_warnings(path) == (
        "win.min_huxi overrides base.yaml's value without a citation of its own: the citation "
        "of win.min_huxi it keeps describes base.yaml's rule (base source); add "
        "citations.win.min_huxi",)


def test_shipped_presets_validate_without_warnings(capsys):
    """Every value a preset overrides carries its own citation (衡阳六胡抢's 14-card hands and
    its 胡息-as-score conversion, 碰胡's 14-card hands and its point), so `zipai validate`
    prints no warning for any of them."""
    for p in preset_ids():
        path = variants_dir() / f"{p}.yaml"
        assert variant_file_warnings(path) == (), p
        code, out, err = run(capsys, "validate", str(path))
        assert (code, err, out.count("\n")) == (0, "", 1), p
        assert out.startswith(f"{path}: valid variant {p} "), p


def test_win_worth_zero_units_warns(tmp_path):
    path = write(tmp_path, "zero.yaml", "id: zero\nname: Zero\nextends: hunan\n"
                 "scoring:\n  conversion: {offset: 30, minimum: 0}\n"
                 "citations:\n  scoring.conversion: mine\n")
    assert variant_file_warnings(path) == (
        "a win of 15 胡息 scores 0 囤 (win.min_huxi is 15): the losers pay nothing for it",)


def test_validate_prints_warnings_and_exits_0(capsys, tmp_path):
    path = write(tmp_path, "zero.yaml", "id: zero\nname: Zero\nextends: hunan\n"
                 "scoring:\n  conversion: {offset: 30, minimum: 0}\n")
    code, out, err = run(capsys, "validate", str(path))
    assert code == 0 and out.startswith(f"{path}: valid variant zero (Zero)")
    lines = err.splitlines()
    assert len(lines) == 2 and all(x.startswith(f"warning: {path}: ") for x in lines)
    assert lines[1].endswith("a win of 15 胡息 scores 0 囤 (win.min_huxi is 15): the losers "
                             "pay nothing for it")


def test_validate_clean_file_has_no_warning(capsys, tmp_path):
    path = write(tmp_path, "ok.yaml", "id: ok\nname: OK\nextends: hunan\nwin: {min_huxi: 18}\n"
                 "citations:\n  win.min_huxi: my table\n")
    code, _, err = run(capsys, "validate", str(path))
    assert (code, err) == (0, "")


def test_typo_in_extends_lists_the_known_presets(tmp_path):
    path = write(tmp_path, "mine.yaml", "id: mine\nname: Mine\nextends: hunna\n")
    with pytest.raises(VariantError) as info:
        load_variant_file(path)
    assert info.value.code == "unknown_parent"
    assert str(info.value) == (f"{path}: extends 'hunna': no such preset; known: {KNOWN} (a "
                               "parent file's name ends in .yaml or .yml)")


def test_missing_parent_file_says_where_it_was_looked_for(capsys, tmp_path):
    path = write(tmp_path, "mine.yaml", "id: mine\nname: Mine\nextends: base.yaml\n")
    code, out, err = run(capsys, "validate", str(path))
    assert code == 2 and not out
    assert err == (f"error: {path}: extends 'base.yaml': no file {tmp_path / 'base.yaml'} (a "
                   "parent file is named relative to the file that extends it)\n")


def test_the_guide_example_loads_without_warnings(tmp_path):
    from pathlib import Path

    guide = (Path(__file__).parent.parent / "docs" / "variants.md").read_text("utf-8")
    section = guide[guide.index("## Writing a variant"):]
    example = section[section.index("```yaml\n") + 8:section.index("```\n", 8)]
    path = write(tmp_path, "mine.yaml", example)
    variant = load_variant_file(path)
    assert (variant.id, variant.win.min_huxi) == ("my_variant", 10)
    assert variant_file_warnings(path, variant) == ()
