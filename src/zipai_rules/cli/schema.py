"""``zipai schema``: the JSON Schema of variant files as written, for an editor; ``--merged``
the schema of the resolved document; ``--path`` where the shipped file is installed."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..schemas import FILE_SCHEMA, file_schema_text, schema_path


def add_parser(sub: Any) -> None:
    """Register ``zipai schema`` on an argparse subparsers object."""
    sc = sub.add_parser("schema", help="print the JSON Schema of variant files (for an editor)",
                        description="Print the JSON Schema of a variant file as written: a "
                        "file that extends a preset gives only id, name and what it changes. "
                        "In a YAML editor (yaml-language-server) put on the file's first "
                        "line: # yaml-language-server: $schema=<the path zipai schema --path "
                        "prints>")
    sc.add_argument("--merged", action="store_true",
                    help="the schema of the resolved document instead (every rule present, "
                    "extends applied): what zipai validate checks")
    sc.add_argument("--path", action="store_true",
                    help="print where the schema file is installed instead of its text")
    sc.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    name = "variant" if args.merged else FILE_SCHEMA
    if args.path:
        print(schema_path(name))
    elif args.merged:
        print(Path(schema_path("variant")).read_text("utf-8"), end="")
    else:
        print(file_schema_text(), end="")
    return 0
