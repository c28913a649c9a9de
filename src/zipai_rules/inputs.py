"""Reading untrusted input: variant files and game records come from users.

One home for the guards every outside document passes before it is looked at:

* :func:`read_text` reads at most ``max_bytes`` from a *regular* file (a FIFO, a device such
  as ``/dev/zero`` or a link to one is refused at once, without blocking) and decodes UTF-8;
* :func:`loads_json` parses JSON strictly: duplicate keys, ``NaN``/``Infinity`` and integers
  longer than :data:`MAX_INT_DIGITS` digits are refused;
* :func:`check_tree` walks a parsed document (following YAML aliases as they would be
  expanded) and refuses it past ``max_nodes`` values or ``max_depth`` levels, a lone UTF-16
  surrogate in a string, a key that is not text, or a value that is not a JSON type;
* :func:`name_key` is the form in which names are compared (NFKC, case-folded, without
  default-ignorable characters or white space), and :func:`text_problem` says why a name, term
  or alias cannot be shown honestly (a bidirectional control, nothing visible);
* :func:`strict_validator` is a JSON Schema (2020-12) validator class in which ``integer``
  means a Python ``int`` (``3.0`` and ``true`` are not integers), ``uniqueItems`` takes
  linear time and the items of a list longer than its ``maxItems`` are not looked at;
  :func:`shipped_validator` is that validator for a schema shipped in the package.

Each guard raises :class:`Refused` (``code``, ``message``, ``path``); the loader and the record
reader turn it into their own :class:`~zipai_rules.errors.ZipaiError` subclass.
"""

from __future__ import annotations

import json
import os
import stat
import unicodedata
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import jsonschema

from .errors import ZipaiError
from .errors import brief as brief  # re-exported: the inputs quote what they refuse
from .schemas import shipped_schema as shipped_schema

#: integers in a JSON record may have at most this many digits (a 256-bit seed has 78)
MAX_INT_DIGITS = 320  # a seed of 1024 bits has 309

#: the largest score (胡息, units, a payment) of one hand, in either sign: 2**53 − 1, the
#: largest integer every JSON reader holds exactly (a browser's numbers are doubles). A
#: record's settlement may hold no larger (record.schema.json), and the loader refuses a
#: variant whose scoring could reach beyond it.
MAX_SCORE = 2 ** 53 - 1


@attrs.frozen(slots=True)
class Limits:
    """Bounds on one outside document. ``max_bytes``: bytes read from a file; ``max_nodes``:
    values in the document with every YAML alias expanded (mappings, lists and scalars each
    count one); ``max_depth``: nesting levels; ``max_errors``: schema problems collected
    before the report stops. All must be positive integers."""

    max_bytes: int = 128 * 1024
    max_nodes: int = 20_000
    max_depth: int = 32
    max_errors: int = 50

    #: the largest value a limit may take (1 TiB of bytes; a count beyond it is no limit)
    CEILING = 2 ** 40

    def __attrs_post_init__(self) -> None:
        for field in attrs.fields(type(self)):
            value = getattr(self, field.name)
            if type(value) is not int or not 1 <= value <= self.CEILING:
                raise ZipaiError(f"Limits.{field.name} must be an int from 1 to 2**40, got "
                                 f"{brief(value)}", code="bad_limit")


#: defaults for variant YAML files (the largest shipped preset is under 8 KiB, 600 values)
VARIANT_LIMITS = Limits()
#: defaults for game records (a long hand is under 40 KiB, 3,000 values)
RECORD_LIMITS = Limits(max_bytes=1024 * 1024, max_nodes=100_000)


@attrs.frozen(slots=True, repr=False)
class Ambiguous:
    """A scalar a reader may take for another value (a YAML 1.1 ``010``, read as 8 by
    PyYAML and as 10 by a YAML 1.2 reader), kept in the parsed document so that
    :func:`check_tree` refuses it with its path: ``text`` as written, ``message`` why."""

    text: str
    message: str

    def __repr__(self) -> str:
        return self.text


class Refused(ZipaiError):
    """An outside document refused by a guard: a stable ``code``, a message naming the
    offending value, and the ``path`` of the place (``<root>`` for the whole document).
    The loader and the record reader re-raise it as their own error class."""

    def __init__(self, code: str, message: str, path: str = "<root>") -> None:
        super().__init__(message, code=code)
        self.message = message
        self.path = path


def read_text(path: str | Path, max_bytes: int) -> str:
    """The UTF-8 text of the regular file ``path``, of at most ``max_bytes`` bytes.

    Raises :class:`Refused` with code ``unreadable`` (missing, not a regular file, not UTF-8)
    or ``too_large``. Never blocks on a FIFO and never reads more than ``max_bytes + 1``
    bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as exc:
        raise Refused("unreadable", f"{path}: cannot read: {_reason(exc)}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise Refused("unreadable", f"{path}: cannot read: not a regular file "
                          f"({_file_kind(mode)})")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(max_bytes + 1)
    except OSError as exc:
        raise Refused("unreadable", f"{path}: cannot read: {_reason(exc)}") from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise Refused("too_large", f"{path}: larger than the limit of {max_bytes} bytes "
                      "(raise it with Limits(max_bytes=…), or on the command line before the "
                      "command: zipai --max-bytes N replay …)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Refused("unreadable", f"{path}: cannot read: not UTF-8 text (byte {exc.start})") \
            from None


def _reason(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def _file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


# --- JSON -------------------------------------------------------------------------------------

def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise Refused("duplicate_key", f"duplicate key {_show(key)} in a JSON object")
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise Refused("bad_json", f"{name} is not a JSON number")


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise Refused("bad_json", f"an integer of {len(text.lstrip('-'))} digits (at most "
                      f"{MAX_INT_DIGITS})")
    return int(text)


def loads_json(text: str) -> Any:
    """Parse JSON text strictly. Raises :class:`Refused` (code ``duplicate_key`` or
    ``bad_json``, the message giving line and column for a syntax error)."""
    try:
        return json.loads(text, object_pairs_hook=_object, parse_constant=_constant,
                          parse_int=_integer)
    except json.JSONDecodeError as exc:
        raise Refused("bad_json", f"not valid JSON: line {exc.lineno}, column {exc.colno}: "
                      f"{exc.msg}") from None
    except RecursionError:
        raise Refused("too_deep", "JSON nested too deeply") from None


# --- the shape of a parsed document -----------------------------------------------------------

_SCALARS = (str, int, float, bool, type(None))


#: the JSON name of what a value holds, for refusals that must not quote the value
_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
               int: "a number", float: "a number", type(None): "null"}


def json_type(value: Any) -> str:
    """What a parsed JSON ``value`` is, in JSON's words (``an object``, ``an array``,
    ``a string``, ``a number``, ``a boolean``, ``null``; ``?`` for anything else)."""
    return _JSON_TYPES.get(type(value), "?")


def check_tree(doc: Any, limits: Limits) -> None:
    """Refuse a parsed document whose shape no variant or record can have.

    Counts values as if every shared reference (a YAML alias) were expanded, stopping at
    ``limits.max_nodes``, so the walk itself is bounded; also refuses nesting deeper than
    ``limits.max_depth`` (and so recursive aliases), keys that are not text, strings holding a
    lone UTF-16 surrogate, values that are not JSON types (YAML dates, sets, binary) and
    :class:`Ambiguous` scalars (their message, at their path).
    Raises :class:`Refused` with code ``too_large``, ``too_deep`` or ``schema``."""
    count = 0
    stack: list[tuple[Any, tuple[Any, ...]]] = [(doc, ())]
    while stack:
        node, path = stack.pop()
        count += 1
        if count > limits.max_nodes:
            raise Refused("too_large", f"more than {limits.max_nodes} values (with every alias "
                          "expanded); raise it with max_nodes / --max-nodes if this document "
                          "is meant", yaml_path(path))
        if len(path) > limits.max_depth:
            raise Refused("too_deep", f"nested more than {limits.max_depth} levels",
                          yaml_path(path[:limits.max_depth]))
        if isinstance(node, Mapping):
            for key in node:
                if not isinstance(key, str):
                    raise Refused("schema", f"key {key!r} is not a string",
                                  yaml_path((*path, str(key))))
                _check_text(key, (*path, "<key>"))
            stack.extend((value, (*path, key)) for key, value in node.items())
        elif isinstance(node, (list, tuple)):
            stack.extend((value, (*path, k)) for k, value in enumerate(node))
        elif isinstance(node, str):
            _check_text(node, path)
        elif isinstance(node, Ambiguous):
            raise Refused("schema", node.message, yaml_path(path))
        elif not isinstance(node, _SCALARS):
            raise Refused("schema", f"a value of type {type(node).__name__} is not allowed "
                          "(only text, numbers, true/false, null, lists and mappings)",
                          yaml_path(path))


def _check_text(text: str, path: tuple[Any, ...]) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise Refused("schema", f"a lone UTF-16 surrogate "
                      f"U+{ord(text[exc.start]):04X} in text", yaml_path(path)) from None


def yaml_path(parts: Any) -> str:
    """Render a path (keys and list indices) as ``a.b[2].c`` (``<root>`` when empty)."""
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "<root>"


def _show(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


# --- names shown to people -------------------------------------------------------------------

#: bidirectional formatting characters (marks, embeddings, overrides, isolates): they reorder
#: the text around them on screen, so a name holding one may show as another
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")

#: Default_Ignorable_Code_Point (Unicode DerivedCoreProperties.txt) beyond the format
#: characters (category Cf): Other_Default_Ignorable_Code_Point and Variation_Selector
_IGNORABLE_RANGES = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180D),
                     (0x180F, 0x180F), (0x2065, 0x2065), (0x3164, 0x3164), (0xFE00, 0xFE0F),
                     (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0xE0000, 0xE0FFF))
#: format characters (Cf) that are not default-ignorable: the prepended concatenation marks,
#: the interlinear annotation characters and the Egyptian hieroglyph format controls
_VISIBLE_FORMAT = frozenset([*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2,
                             0x110BD, 0x110CD, *range(0xFFF9, 0xFFFC), *range(0x13430, 0x13440)])


def is_default_ignorable(ch: str) -> bool:
    """Whether the character ``ch`` is a Unicode Default_Ignorable_Code_Point: drawn as
    nothing (zero-width space and joiners U+200B..U+200D, U+2060 word joiner, U+FEFF BOM,
    soft hyphen, variation selectors, tags, Hangul fillers, bidirectional controls …)."""
    code = ord(ch)
    if unicodedata.category(ch) == "Cf":
        return code not in _VISIBLE_FORMAT
    return any(lo <= code <= hi for lo, hi in _IGNORABLE_RANGES)


def _bare(text: str) -> str:
    return "".join(ch for ch in text if not is_default_ignorable(ch) and not ch.isspace())


def name_key(text: str) -> str:
    """The form in which two names are the same name: NFKC-normalised (fullwidth ``ｈｕｎａｎ``
    is ``hunan``), case-folded, and without default-ignorable characters
    (:func:`is_default_ignorable`) or white space, so ``湖南\u200b跑胡子`` and ``湖南 跑胡子``
    are ``湖南跑胡子``."""
    folded = unicodedata.normalize("NFKC", _bare(text)).casefold()
    return _bare(unicodedata.normalize("NFKC", folded))


#: characters that draw as nothing although neither white space nor default-ignorable
_BLANK = frozenset("\u2800\u3164")


def text_problem(text: str) -> str | None:
    """Why ``text``, a name, term or alias shown to people, cannot be shown honestly: it holds
    a bidirectional control (:data:`BIDI_CONTROLS`), or nothing visible (only white space,
    default-ignorable characters or a blank such as U+2800); ``None`` when it can."""
    bidi = next((ch for ch in text if ch in BIDI_CONTROLS), None)
    if bidi is not None:
        return (f"holds the bidirectional control U+{ord(bidi):04X} "
                f"({unicodedata.name(bidi, 'unnamed')}), which reorders the text on screen")
    if not "".join(ch for ch in _bare(text) if ch not in _BLANK):
        shown = " ".join(f"U+{ord(ch):04X}" for ch in text[:8]) + (" …" if len(text) > 8 else "")
        return f"shows nothing: only white space or invisible characters ({shown})"
    return None


# --- JSON Schema --------------------------------------------------------------------------------

def _is_integer(checker: Any, instance: Any) -> bool:
    return type(instance) is int


def _unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not unique or not isinstance(instance, list):
        return
    seen: set[str] = set()
    for item in instance:
        key = json.dumps(item, sort_keys=True, default=repr)
        if key in seen:
            yield jsonschema.ValidationError(f"{brief(key, 60)} appears more than once")
            return
        seen.add(key)


def _items_within_bounds(validator: Any, items: Any, instance: Any, schema: Any) -> Iterator[Any]:
    # a list already refused by its schema's maxItems is not walked item by item
    if isinstance(instance, list) and len(instance) > schema.get("maxItems", len(instance)):
        return
    yield from jsonschema.Draft202012Validator.VALIDATORS["items"](validator, items, instance,
                                                                   schema)


def schema_message(error: jsonschema.ValidationError) -> str:
    """A short message for a schema error: list and text bounds by their sizes (not the
    whole value), others cut by :func:`brief`."""
    size = {"maxItems": "items", "maxLength": "characters", "maxProperties": "keys"}
    if error.validator in size and isinstance(error.instance, (list, str, Mapping)):
        return (f"{len(error.instance)} {size[error.validator]}, more than the "
                f"{error.validator_value} allowed")
    if error.validator == "enum" and isinstance(error.validator_value, list):
        return brief(f"{error.instance!r} is not one of "
                     + ", ".join(str(x) for x in error.validator_value))
    return brief(error.message)


def strict_validator(schema: Mapping[str, Any]) -> jsonschema.protocols.Validator:
    """A Draft 2020-12 validator for ``schema`` with strict integers, a linear
    ``uniqueItems``, and no walk through the items of a list that breaks its ``maxItems``."""
    base = jsonschema.Draft202012Validator
    # types-jsonschema leaves ``extend`` unannotated; it returns a validator class
    cls: type[jsonschema.protocols.Validator] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        base, validators={"uniqueItems": _unique_items, "items": _items_within_bounds},
        type_checker=base.TYPE_CHECKER.redefine("integer", _is_integer))
    return cls(schema)


@cache
def shipped_validator(name: str) -> jsonschema.protocols.Validator:
    """The :func:`strict_validator` of the shipped schema ``name``, its local ``$ref`` entries
    (``#/$defs/…``) inlined once: the same checks without reference lookups."""
    schema = shipped_schema(name)
    defs = schema.get("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            out = {k: inline(v) for k, v in node.items() if k != "$ref"}
            if ref.startswith("#/$defs/"):
                return {**inline(defs[ref.removeprefix("#/$defs/")]), **out}
            return out
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node
    return strict_validator(inline(schema))
