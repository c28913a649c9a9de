"""The JSON Schema of variant files as written (schema/variant-file.schema.json), for an
editor: every shipped preset file and a file that only extends one (plus a tweak) give no
error under it, a wrong key still does; ``zipai schema`` prints it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from zipai_rules.cli import main
from zipai_rules.presets import preset_ids, variants_dir
from zipai_rules.schemas import FILE_SCHEMA, file_schema_text, schema_path, shipped_schema

DOCS = Path(__file__).parent.parent / "docs"


def errors(text: str) -> list[str]:
    """The messages of yaml-language-server's kind of check: the YAML as written, validated
    against the as-written schema by plain jsonschema."""
    schema = json.loads(Path(schema_path(FILE_SCHEMA)).read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    return [e.message for e in validator.iter_errors(yaml.safe_load(text))]


def test_the_shipped_file_is_up_to_date():
    assert Path(schema_path(FILE_SCHEMA)).read_text("utf-8") == file_schema_text(), \
        'run: zipai schema > "$(zipai schema --path)"'
    jsonschema.Draft202012Validator.check_schema(shipped_schema(FILE_SCHEMA))


@pytest.mark.parametrize("pid", preset_ids())
def test_every_preset_file_has_no_error(pid):
    assert errors((variants_dir() / f"{pid}.yaml").read_text("utf-8")) == []


def test_a_file_that_only_extends_a_preset_has_no_error():
    assert errors("id: mine\nname: Mine\nextends: hengyang_honghei\n") == []
    assert errors("id: mine\nname: Mine\nextends: hunan\nwin: {min_huxi: 18}\n"
                  "scoring:\n  conversion: {step: 2}\n  mingtang:\n    patterns:\n"
                  "      - {name: da_hong, when: {fact: red, at_least: 13}, add_units: 2}\n"
                  "citations:\n  win.min_huxi: my table\n") == []


@pytest.mark.parametrize("text, message", [
    ("id: m\nname: M\nextends: hunan\nwin: {min_hux: 18}\n",
     "Additional properties are not allowed ('min_hux' was unexpected)"),
    ("id: m\nname: M\nextends: hunan\nplayer: 4\n",
     "Additional properties are not allowed ('player' was unexpected)"),
    ("id: m\nname: M\nextends: hunan\nwin: {min_huxi: ten}\n", "'ten' is not of type 'integer'"),
    ("id: m\nname: M\nextends: hunan\nscoring:\n  mingtang:\n    patterns:\n      - {name: x}\n",
     "'when' is a required property"),  # a list replaces its parent's whole: items complete
    ("name: M\nextends: hunan\n", "'id' is a required property"),
    ("id: m\nname: M\nplayers: 3\n", "'deck' is a required property"),  # no extends: all
])
def test_a_wrong_file_still_fails(text, message):
    assert message in errors(text)


def test_zipai_schema_prints_the_schemas_and_their_paths(capsys):
    assert main(["schema"]) == 0
    assert capsys.readouterr().out == file_schema_text()
    assert main(["schema", "--path"]) == 0
    assert capsys.readouterr().out == schema_path(FILE_SCHEMA) + "\n"
    assert main(["schema", "--merged"]) == 0
    assert json.loads(capsys.readouterr().out) == shipped_schema("variant")
    assert main(["schema", "--merged", "--path"]) == 0
    assert capsys.readouterr().out.strip().endswith("variant.schema.json")


def test_the_guide_gives_the_modeline():
    guide = (DOCS / "variants.md").read_text("utf-8")
    assert "# yaml-language-server: $schema=" in guide and "zipai schema --path" in guide
