"""Game records: one hand as a versioned JSON document (``"format": "zipai-log/1"``) that
replays exactly.

A record holds the variant (``id``, ``content_hash`` and, for a variant that is not a shipped
preset, the full resolved ``doc``), the ``seed`` that shuffled the deal (``null`` for a deal
given explicitly), the explicit ``deal`` (dealer, hands and wall as ASCII card strings), every
seat decision in ``actions`` (the :meth:`Action.to_json` shape), the ``result`` and the
``settlement`` (:meth:`Settlement.to_json`), and optionally the host's own fields in ``meta``
(never part of what a replay confirms). The schema is
``zipai_rules/schema/record.schema.json`` (JSON Schema draft 2020-12); docs/records.md
describes the format.

:func:`replay_record` is strict: the variant must still hash to the recorded content hash,
every action must be legal when its turn comes, and the replayed result and settlement must
equal the recorded ones. Every failure is a :class:`~zipai_rules.errors.ReplayError` naming
the 1-based step. :func:`replay_report` also says how the deal was established (its
:data:`PROVENANCES`) and, given the digest a host published, refuses any other hand.

Records are untrusted input (see :mod:`zipai_rules.inputs`): a record file is read only if it
is a regular file of at most ``RECORD_LIMITS.max_bytes`` bytes, and :func:`loads_record` reads
text or bytes within the same bounds; JSON with duplicate keys, ``NaN`` or integers of more
than 320 digits is refused; integers must be JSON integers (``11.0`` and ``true`` are not); a
record's embedded variant may extend shipped presets only and may not take a preset's id or
name with other rules.
"""

from __future__ import annotations

import itertools
import json
import os
import stat
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import attrs

from .arguments import int_arg, items_of, mapping_arg, of_type, path_arg, refuse
from .cards import parse_indices
from .engine.actions import Action
from .engine.game import Deal, Game, shuffled_deal
from .engine.seeds import ShuffleCommitment, verify_commitment
from .engine.state import Result
from .errors import RecordError, ReplayError, VariantError, ZipaiError
from .frozen import thaw
from .inputs import (
    RECORD_LIMITS,
    Limits,
    Refused,
    brief,
    check_tree,
    json_type,
    loads_json,
    read_text,
    schema_message,
    shipped_schema,
    shipped_validator,
)
from .loader import build_variant, content_hash, yaml_path
from .presets import check_not_impersonating, load_preset, preset_ids, raw_preset
from .settlement import Settlement, comparable, settle
from .variant import Variant

RECORD_FORMAT = "zipai-log/1"

__all__ = ["MAX_META_BYTES", "PROVENANCES", "RECORD_FORMAT", "Provenance", "ReplayReport",
           "action_from_json", "check_digest", "deal_from_json", "dumps_record",
           "game_record", "is_preset", "loads_record", "read_record", "record_schema",
           "record_variant", "replay_file", "replay_file_report", "replay_record",
           "replay_report", "result_json", "resume_game", "rules_used", "save_game",
           "validate_record", "write_record"]

#: the most bytes a record's ``meta`` may take as compact JSON (UTF-8, sorted keys, no spaces);
#: its other bounds (64 keys of at most 64 characters, values nested at most 3 levels below
#: ``meta``, strings of at most 1024 characters, integers within ±(2**53 − 1), no fractions)
#: are in the record schema
MAX_META_BYTES = 4096

#: how a replayed deal was established (:attr:`ReplayReport.provenance`)
Provenance = Literal["committed", "seeded", "dealt"]
#: every :data:`Provenance`, the strongest first
PROVENANCES: tuple[Provenance, ...] = ("committed", "seeded", "dealt")


def record_schema() -> dict[str, Any]:
    """The record JSON Schema (draft 2020-12) shipped in the package."""
    return shipped_schema("record")


# --- writing ----------------------------------------------------------------------------------

def is_preset(variant: Variant) -> bool:
    """Whether ``variant`` is a shipped preset exactly (same id and same content hash)."""
    return variant.id in preset_ids() and load_preset(variant.id).content_hash == \
        variant.content_hash


def result_json(result: Result) -> dict[str, Any]:
    """``{kind, winner, card, source, huxi, labels, decomposition}`` of a result; the card as
    its token. ``decomposition`` is the winning split as
    :meth:`~zipai_rules.analysis.Decomposition.to_json` (``huxi`` and the ``groups``, each with
    its ``kind``, ``cards``, ``huxi``, ``place`` and the card each 王 stands for in
    ``kings``), or ``None`` for a hand without a win."""
    dec = result.decomposition
    return {**result.to_json(), "decomposition": None if dec is None else dec.to_json()}


def game_record(game: Game, settlement: Settlement, *, sitting_out: bool | None = None,
                bots: Sequence[str] | None = None,
                meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The record of a finished hand as a JSON-ready dict (see the module docstring).

    ``sitting_out``: whether a seat sat out the hand (数醒), as passed to
    :func:`~zipai_rules.settlement.settle`; by default, whether the variant has more seats
    than players. ``bots``: optional names of the players, stored for information.
    ``meta``: optional host fields (table id, player ids, times …) stored as ``meta``, a plain
    copy, within the bounds of the record schema and :data:`MAX_META_BYTES`; nothing that
    confirms the hand reads them. The ``seed`` is stored only when it is the seed that
    shuffled this deal.

    Raises :class:`~zipai_rules.errors.ZipaiError` (code ``hand_not_over``) for a hand that
    has not ended (:func:`save_game` saves one), ``bad_argument`` for a ``game`` that is no
    :class:`Game`, a ``settlement`` that is no :class:`Settlement` or not of this game's
    players, ``bots`` that are not a list of strings, a ``meta`` that is no mapping;
    :class:`RecordError` naming the path (``meta.table: …``) for a ``meta`` outside the
    bounds, as :func:`validate_record` refuses it.
    """
    of_type(game, Game, "game", "a Game")
    if game.result is None:
        raise ZipaiError("only a finished hand can be recorded; this one is still being played",
                         code="hand_not_over")
    of_type(settlement, Settlement, "settlement", "a Settlement (settlement.settle)")
    if len(settlement.payments) != game.variant.players:
        raise ZipaiError(f"settlement: {len(settlement.payments)} payments, but "
                         f"{game.variant.id} has {game.variant.players} players",
                         code="bad_argument")
    if bots is not None:
        items_of(bots, str, "bots", "a bot name (a string)")
    return _record(game, settlement, sitting_out, bots, meta)


def save_game(game: Game, *, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A game at any point, finished or not, as a record (JSON-ready dict) that
    :func:`resume_game` turns back into the same game: the variant, the ``seed`` and
    ``commitment`` (the nonce included: keep a saved game as secret as its seed), the
    ``deal`` and every action so far. ``result`` and ``settlement`` are ``null`` while the
    hand is being played; the save of a finished hand is its full record (the settlement
    with the variant's default ``sitting_out``), which :func:`replay_record` confirms.
    ``meta``: the host's fields, as for :func:`game_record` (a :class:`Game` holds none: to
    keep them across a resume, save again with ``meta=saved.get("meta")``).
    Raises :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for a ``game`` that is
    no :class:`Game` or a ``meta`` that is no mapping, :class:`RecordError` for a ``meta``
    outside the bounds."""
    v, result = of_type(game, Game, "game", "a Game").variant, game.result
    sits = v.seats > v.players
    settlement = None if result is None else settle(
        v, attrs.evolve(result, sitting_out=sits), events=game.events)
    return _record(game, settlement, sits, None, meta)


def _record(game: Game, settlement: Settlement | None, sitting_out: bool | None,
            bots: Sequence[str] | None, meta: Mapping[str, Any] | None) -> dict[str, Any]:
    v = game.variant
    variant: dict[str, Any] = {"id": v.id, "content_hash": v.content_hash}
    if not is_preset(v):
        variant["doc"] = thaw(v.doc)
    seed = game.seed
    if seed is not None and shuffled_deal(v, seed, game.deal.dealer) != game.deal:
        seed = None
    if sitting_out is None:
        sitting_out = v.seats > v.players
    record: dict[str, Any] = {
        "format": RECORD_FORMAT, "variant": variant, "seed": seed,
        "sitting_out": bool(sitting_out), "deal": game.deal.to_json(),
        "actions": [a.to_json() for a in game.actions],
        "result": None if game.result is None else result_json(game.result),
        "settlement": None if settlement is None else settlement.to_json(),
    }
    if game.windows:
        record["windows"] = True  # the actions are claim-window answers (engine/window.py)
    if bots is not None:
        record["bots"] = [str(b) for b in bots]
    if seed is not None and game.commitment is not None:
        record["commitment"] = game.commitment.to_json()
    if meta is not None:
        record["meta"] = _plain(mapping_arg(meta, "meta"))
        validate_record(record)  # the one check of meta: the schema and its size
    return record


def _plain(value: Any, depth: int = 0) -> Any:
    """A plain copy of a JSON-like tree (mappings → dicts, keys kept as they are, so that a key
    that is no string is refused; lists and tuples → lists), at most 8 levels deep."""
    if depth > 8:
        raise RecordError("<record>: meta: nested more than 8 levels", "meta", code="too_deep")
    if isinstance(value, Mapping):
        return {k: _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    return value


def dumps_record(record: Mapping[str, Any], width: int = 100) -> str:
    """The record as JSON text: keys sorted, one line per action, settlement line and other
    object in a list, other values on one line when they fit in ``width`` columns, and a
    final newline. Same record, same bytes. Raises :class:`~zipai_rules.errors.ZipaiError`
    (``bad_argument``) for a ``record`` that is no mapping or holds a value JSON cannot
    write, or a ``width`` that is not an int from 1."""
    mapping_arg(record, "record")
    int_arg(width, "width", 1)
    try:
        return _dump(record, 0, width) + "\n"
    except (TypeError, ValueError) as exc:  # a value json cannot write
        raise ZipaiError(f"record: not JSON: {brief(str(exc), 100)}",
                         code="bad_argument") from None


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def _dump(value: Any, indent: int, width: int) -> str:
    compact = _compact(value)
    if not isinstance(value, (Mapping, list, tuple)) or not value \
            or indent + len(compact) <= width:
        return compact
    pad = " " * (indent + 2)
    if isinstance(value, Mapping):
        items = [f"{pad}{json.dumps(str(k), ensure_ascii=False)}: "
                 f"{_dump(value[k], indent + 2, width)}" for k in sorted(value)]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + (_compact(v) if isinstance(v, Mapping) else _dump(v, indent + 2, width))
             for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def write_record(path: str | Path, game: Game, settlement: Settlement, **options: Any) -> None:
    """Write the record of a finished hand to ``path`` (UTF-8, :func:`dumps_record`);
    ``options`` go to :func:`game_record`. The text goes to a temporary file in the same
    folder, renamed to ``path`` once complete: a reader never sees a partial record.

    Raises :class:`RecordError` (code ``unwritable``) if the file cannot be written or
    ``path`` is a symbolic link (never written through); errors of :func:`game_record` for
    the other arguments, and ``bad_argument`` for a ``path`` that is no path."""
    path_arg(path, "path")
    write_text_atomic(path, dumps_record(game_record(game, settlement, **options)))


def check_writable(path: str | Path, what: str = "the record") -> None:
    """Check before any work that a record can be written to ``path``: not a symbolic link,
    not a folder, not another file that is not a regular one (a device such as /dev/null, a
    FIFO, a socket: the write replaces the file, which would remove the device), in a folder
    that exists and can be written. Raises :class:`RecordError` (code ``unwritable``)."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    problem = ("is a symbolic link (never written through)" if path.is_symlink()
               else "is a folder" if path.is_dir()
               else f"is in {folder}, which is not a folder" if not folder.is_dir()
               else f"is in {folder}, which cannot be written" if not os.access(folder, os.W_OK)
               else _special(path))
    if problem:
        raise RecordError(f"{path}: cannot write {what} there: it {problem}",
                          code="unwritable")


def _special(path: Path) -> str | None:
    """Why an existing ``path`` that is not a regular file (nor a folder or a symbolic link,
    refused apart) cannot be replaced by a record, or ``None``."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None  # nothing there yet (or not reachable: the write will say so)
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode):
        return None
    what = ("a character device" if stat.S_ISCHR(mode) else "a block device"
            if stat.S_ISBLK(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    return f"is {what}, not a regular file (leave the option out to write nothing)"


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same folder and a
    rename. Raises :class:`RecordError` (code ``unwritable``) for a symbolic link at ``path``
    or a folder that cannot be written; nothing is left behind on failure."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` as :func:`write_text_atomic` writes text (a temporary file
    in the same folder, then a rename); raises as it does."""
    path = Path(path)
    if path.is_symlink():
        raise RecordError(f"{path}: refusing to write through a symbolic link",
                          code="unwritable")
    special = _special(path)
    if special:
        raise RecordError(f"{path}: refusing to replace it: it {special}", code="unwritable")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                   dir=path.parent if str(path.parent) else ".")
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o644)
            f.write(data)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise RecordError(f"{path}: cannot write: {exc.strerror or exc}",
                          code="unwritable") from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


# --- reading ----------------------------------------------------------------------------------

def validate_record(data: Any, origin: str = "<record>", limits: Limits = RECORD_LIMITS
                    ) -> dict[str, Any]:
    """Check a parsed document against the record schema; returns it.

    Raises :class:`RecordError` (code ``bad_format`` for a missing or other ``format``;
    ``too_large`` or ``too_deep`` for a document outside ``limits``, and ``too_large`` for a
    ``meta`` of more than :data:`MAX_META_BYTES`; ``schema`` otherwise, also for a lone
    surrogate in a string) whose message and ``path`` name the offending JSON path, e.g.
    ``actions[3].card`` or ``meta.table``. At most ``limits.max_errors`` schema problems are
    looked at.
    """
    try:
        check_tree(data, limits)
    except Refused as exc:
        raise RecordError(f"{origin}: {exc.path}: {exc.message}", exc.path,
                          code=exc.code) from None
    if not isinstance(data, dict):
        raise RecordError(f"{origin}: <root>: not a game record: expected a JSON object, got "
                          f"{json_type(data)}", code="bad_format")
    fmt = data.get("format")
    if fmt != RECORD_FORMAT:
        got = "no format" if "format" not in data else f"format {brief(repr(fmt))}"
        raise RecordError(f"{origin}: format: not a {RECORD_FORMAT} game record ({got})",
                          "format", code="bad_format")
    found = shipped_validator("record").iter_errors(data)
    errors = sorted(itertools.islice(found, limits.max_errors),
                    key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        # report the deepest error first: it names the field itself, not its container
        e = max(errors, key=lambda e: len(e.absolute_path))
        path = yaml_path(e.absolute_path)
        same = [x for x in errors if x.validator == e.validator
                and list(x.absolute_path) == list(e.absolute_path)]
        if e.validator == "required":
            missing = sorted({m for x in same if isinstance(x.validator_value, list)
                              for m in x.validator_value
                              if isinstance(x.instance, dict) and m not in x.instance})
            text = (f"missing required key{'s' if len(missing) > 1 else ''} "
                    + ", ".join(repr(m) for m in missing))
        else:
            same = [e]
            text = schema_message(e)
        rest = len(errors) - len(same)
        plus = "+" if len(errors) >= limits.max_errors else ""
        more = f" (and {rest}{plus} more problem{'s' if rest > 1 else ''})" if rest else ""
        raise RecordError(f"{origin}: {path}: {text}{more}", path, code="schema")
    if "meta" in data:
        size = len(json.dumps(data["meta"], ensure_ascii=False, sort_keys=True,
                              separators=(",", ":")).encode("utf-8"))
        if size > MAX_META_BYTES:
            raise RecordError(f"{origin}: meta: {size} bytes as compact JSON, more than the "
                              f"{MAX_META_BYTES} allowed", "meta", code="too_large")
    return data


def read_record(path: str | Path, limits: Limits = RECORD_LIMITS) -> dict[str, Any]:
    """Read and validate a record file (a regular file of at most ``limits.max_bytes``): the
    file's text through :func:`loads_record`, every message naming the file.

    Raises :class:`RecordError`: code ``unreadable`` (missing, not a regular file, not
    UTF-8), ``too_large``, ``bad_json`` (with line and column; also ``NaN`` and integers of
    more than 320 digits), ``duplicate_key``, ``bad_format``, ``schema`` (with the JSON
    path) or ``too_deep``, and :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``)
    for a ``path`` that is no path or ``limits`` that are no :class:`Limits`.
    """
    path_arg(path, "path")
    of_type(limits, Limits, "limits", "a Limits (zipai_rules.inputs)")
    try:
        text = read_text(path, limits.max_bytes)
    except Refused as exc:  # its message names the file
        raise RecordError(exc.message, code=exc.code) from None
    return _loads(text, str(path), limits)


def loads_record(data: str | bytes | bytearray, limits: Limits = RECORD_LIMITS, *,
                 origin: str = "<record>") -> dict[str, Any]:
    """Parse and validate a record given as JSON text or as its UTF-8 bytes (an upload, a
    database column): the reader of :func:`read_record`, as strict, within the same
    ``limits``. ``origin`` names the document in every message (``<record>: actions[3].card:
    …``).

    Raises :class:`RecordError`: code ``too_large`` (over ``limits.max_bytes`` bytes as
    UTF-8, or over ``limits.max_nodes`` values), ``unreadable`` (bytes that are not UTF-8),
    ``bad_json`` (with line and column; also ``NaN``/``Infinity`` and integers of more than
    320 digits), ``duplicate_key`` (a key twice in one object: never the last one silently
    winning), ``too_deep``, ``bad_format`` or ``schema`` (with the JSON path), and
    ``bad_argument`` for ``data`` that is neither text nor bytes; :class:`ZipaiError`
    (``bad_argument``) for ``limits`` that are no :class:`Limits`.
    """
    of_type(limits, Limits, "limits", "a Limits (zipai_rules.inputs)")
    if not isinstance(origin, str):
        raise refuse("origin", origin, "a string")
    if isinstance(data, (bytes, bytearray)):
        size = len(data)
    elif isinstance(data, str):
        size = len(data) if len(data) > limits.max_bytes else \
            len(data.encode("utf-8", "surrogatepass"))
    else:
        raise RecordError(f"{origin}: expected the record's JSON text (a str or UTF-8 bytes), "
                          f"got {type(data).__name__}", code="bad_argument")
    if size > limits.max_bytes:
        raise RecordError(f"{origin}: larger than the limit of {limits.max_bytes} bytes "
                          "(raise it with Limits(max_bytes=…))", code="too_large")
    if not isinstance(data, str):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{origin}: not UTF-8 text (byte {exc.start})",
                              code="unreadable") from None
    return _loads(data, origin, limits)


def _loads(text: str, origin: str, limits: Limits) -> dict[str, Any]:
    """The one parse of a record's text: strict JSON, then :func:`validate_record`."""
    try:
        data = loads_json(text)
    except Refused as exc:
        raise RecordError(f"{origin}: {exc.message}", code=exc.code) from None
    return validate_record(data, origin, limits)


def action_from_json(data: Mapping[str, Any]) -> Action:
    """The :class:`Action` of one ``Action.to_json()`` dict: :meth:`Action.from_json`, the
    one decoder, kept here under its record name."""
    return Action.from_json(data)


def deal_from_json(data: Mapping[str, Any]) -> Deal:
    """The :class:`Deal` of a ``Deal.to_json()`` dict. Raises
    :class:`~zipai_rules.errors.CardError` for bad tokens (the deal's fit to a variant is
    checked when a :class:`Game` is built from it)."""
    return Deal(tuple(tuple(parse_indices(h)) for h in data["hands"]),
                tuple(parse_indices(data["wall"])), data["dealer"],
                tuple(parse_indices(data.get("aside", ""))))


# --- replaying --------------------------------------------------------------------------------

_DOC_VARIANTS: dict[str, Variant] = {}


def record_variant(record: Mapping[str, Any]) -> Variant:
    """The variant a record was made with: built from its embedded document, or else the
    shipped preset of that id. Raises :class:`RecordError` for a ``record`` that fails the
    record schema (:func:`validate_record`: ``bad_format`` for one that is no record at all,
    ``None`` or a list), :class:`ReplayError` at step 0: code ``unknown_variant``, or
    ``variant_changed`` when the content hash differs."""
    return _record_variant(validate_record(dict(record) if isinstance(record, Mapping)
                                           else record))


def _record_variant(record: Mapping[str, Any]) -> Variant:
    """:func:`record_variant` of a record already validated."""
    info = record["variant"]
    vid, want = info["id"], info["content_hash"]
    doc = info.get("doc")
    if doc is not None:
        if doc.get("id") != vid:
            raise ReplayError(f"variant changed: the record names {vid!r} but its variant "
                              f"document is {doc.get('id')!r}", 0, code="variant_changed")
        key = content_hash(doc)
        variant = _DOC_VARIANTS.get(key)
        if variant is None:
            origin = f"the variant document of {brief(repr(vid))}"
            try:
                variant = build_variant(doc, raw_preset, origin)
                check_not_impersonating(variant, origin)
            except VariantError as exc:
                if exc.code == "reserved_name":
                    raise ReplayError(f"the recorded variant impersonates a shipped preset: "
                                      f"{exc}", 0, code="reserved_name") from None
                raise ReplayError(f"the recorded variant document no longer loads: {exc}", 0,
                                  code="variant_changed") from None
            if len(_DOC_VARIANTS) < 64:
                _DOC_VARIANTS[key] = variant
    elif vid in preset_ids():
        variant = load_preset(vid)
    else:
        raise ReplayError(f"unknown variant {vid!r}: not a shipped preset, and the record "
                          f"holds no variant document; presets: {', '.join(preset_ids())}",
                          0, code="unknown_variant")
    if variant.content_hash != want:
        raise ReplayError(f"variant changed: {vid} now has content hash "
                          f"{variant.content_hash[:16]}…, the record was made under "
                          f"{want[:16]}…", 0, code="variant_changed")
    return variant


@attrs.frozen(slots=True, eq=False)
class ReplayReport:
    """What a strict replay confirmed (:func:`replay_report`): the finished ``game`` and its
    ``settlement`` (the result and settlement equal the recorded ones), and how the deal was
    established, which is all that ties the hand to a table:

    * ``provenance`` ``"committed"``: the seed and nonce match the record's shuffle
      commitment, whose ``digest`` (64 lowercase hex digits) is given. It proves the hand is
      one the host dealt only if the host published that digest before the deal: a player can
      pick a seed and commit to it at home as well;
    * ``"seeded"``: the deal is the one ``seed`` shuffles, with no commitment (``digest``
      ``None``): anyone could have chosen the seed, e.g. one that deals a 天胡;
    * ``"dealt"``: the deal was given explicitly (``seed: null``): it is checked against no
      shuffle at all, only against the variant.

    ``expected``: whether ``digest`` was checked against the one the caller expected
    (``expect_digest``). ``meta``: the record's ``meta``, an independent plain copy (dicts
    and lists, ready for :func:`json.dumps`; ``None`` when absent): the host's own fields,
    never checked by the replay. Compared by identity."""

    game: Game
    settlement: Settlement
    provenance: Provenance
    digest: str | None
    expected: bool = False
    meta: dict[str, Any] | None = None

    def provenance_text(self) -> str:
        """One clause saying what the deal's provenance proves and does not, as ``zipai
        replay`` prints it after ``deal:``."""
        if self.provenance == "committed":
            if self.expected:
                return ("committed, digest as expected: the seed and nonce are those of the "
                        "commitment the host published")
            return ("committed: the seed and nonce match the record's shuffle commitment; "
                    "proof that the host dealt it only if the host published this digest "
                    "before the deal")
        if self.provenance == "seeded":
            return ("seeded, no commitment: not proof that the host dealt it (anyone can "
                    "choose a seed)")
        return ("dealt, no seed: the deal was given explicitly and is checked against no "
                "shuffle: not proof that the host dealt it")


def replay_file(path: str | Path, limits: Limits = RECORD_LIMITS, *,
                expect_digest: str | None = None) -> tuple[Game, Settlement]:
    """Read a record file and replay it (:func:`read_record` then :func:`replay_record`,
    validating once); ``expect_digest`` as for :func:`replay_report`. Raises
    :class:`RecordError` and :class:`ReplayError` as they do."""
    report = replay_file_report(path, limits, expect_digest)
    return report.game, report.settlement


def replay_file_report(path: str | Path, limits: Limits = RECORD_LIMITS,
                       expect_digest: str | None = None) -> ReplayReport:
    """:func:`replay_report` of a record file (read by :func:`read_record`, validated once;
    every :class:`RecordError` names the file)."""
    want = _expected_digest(expect_digest)
    return _report(read_record(path, limits), want, str(path))


def replay_report(record: Mapping[str, Any], expect_digest: str | None = None
                  ) -> ReplayReport:
    """Replay a record strictly (:func:`replay_record`) and say how its deal was established:
    a :class:`ReplayReport` (game, settlement, ``provenance`` ``committed``/``seeded``/
    ``dealt``, the commitment ``digest``, ``meta``).

    ``expect_digest``: the shuffle commitment digest the host published before the deal it
    dealt (64 hex digits, either case). The record must then carry a commitment of that very
    digest, checked before anything is replayed; the replay then checks it against the seed
    and nonce (``bad_commitment``) and the seed against the deal (``bad_deal``). Raises, on
    top of what :func:`replay_record` raises, :class:`RecordError` code
    ``digest_mismatch`` (path ``commitment``: no commitment, the deal ``seeded`` or
    ``dealt``; path ``commitment.digest``: another digest: a hand dealt elsewhere, e.g.
    from a seed and commitment of the player's own), and
    :class:`~zipai_rules.errors.ZipaiError` ``bad_argument`` for an ``expect_digest`` that
    is not 64 hex digits.
    """
    want = _expected_digest(expect_digest)
    return _report(validate_record(dict(record) if isinstance(record, Mapping) else record),
                   want, "<record>")


def replay_record(record: Mapping[str, Any], *, expect_digest: str | None = None
                  ) -> tuple[Game, Settlement]:
    """Replay a record strictly; returns the finished game and its settlement
    (:func:`replay_report` says, besides, how the deal was established). ``expect_digest``:
    refuse a record that is not the hand of that published commitment digest, as
    :func:`replay_report` does.

    The record is validated against the schema (:class:`RecordError`), the variant found and
    its content hash compared, the deal rebuilt (and, when a seed is given, compared with the
    deal that seed shuffles), then every action is checked with :meth:`Game.check` before it
    is applied. Raises :class:`ReplayError` with ``step``:

    * 0, ``unknown_variant`` / ``variant_changed`` / ``bad_deal``: the header;
    * k, ``replay_diverged``: action k is malformed or refused (the message names the action
      and the reason);
    * ``len(actions) + 1``, ``record_incomplete``: the actions end before the hand does;
    * ``len(actions)``, ``result_differs``: the replayed result or settlement is not the
      recorded one (the message names the first differing field).

    ``meta`` is never compared: it is the host's, not the hand's.
    """
    report = replay_report(record, expect_digest)
    return report.game, report.settlement


def check_digest(value: object, argument: str = "expect_digest") -> str:
    """A shuffle commitment digest as a host gives it (64 hex digits, either case), in
    lowercase, the form records hold. Raises :class:`~zipai_rules.errors.ZipaiError`
    (``bad_argument``, naming ``argument``) for anything else."""
    if not isinstance(value, str) or len(value) != 64 \
            or any(c not in "0123456789abcdefABCDEF" for c in value):
        raise refuse(argument, value, "a shuffle commitment digest (64 hex digits)")
    return value.lower()


def _expected_digest(value: object) -> str | None:
    return None if value is None else check_digest(value)


def _report(record: dict[str, Any], want: str | None, origin: str) -> ReplayReport:
    """:func:`replay_report` of a record that has passed the schema; ``want`` the expected
    digest in lowercase."""
    commitment = record.get("commitment")
    provenance: Provenance = ("committed" if commitment is not None
                              else "seeded" if record["seed"] is not None else "dealt")
    if want is not None:
        if commitment is None:
            raise RecordError(f"{origin}: commitment: the record holds no shuffle commitment "
                              f"(deal: {provenance}), so it is not the hand of digest {want}",
                              "commitment", code="digest_mismatch")
        if commitment["digest"] != want:
            raise RecordError(f"{origin}: commitment.digest: {commitment['digest']} is not "
                              f"the digest expected, {want}: the record is another hand",
                              "commitment.digest", code="digest_mismatch")
    game, settlement = _replay(record)
    meta = record.get("meta")
    return ReplayReport(game, settlement, provenance,
                        None if commitment is None else commitment["digest"],
                        want is not None, None if meta is None else thaw(meta))


def resume_game(data: Mapping[str, Any] | str | bytes | bytearray, variant: Variant | None = None,
                limits: Limits = RECORD_LIMITS) -> Game:
    """The game a :func:`save_game` record (or any game record) describes, at the point it was
    saved: same state, same legal actions, same events, same seed and commitment.

    ``data``: the parsed record, or its JSON text or UTF-8 bytes (read by
    :func:`loads_record`, within ``limits``). Every input
    is untrusted: the record is checked as :func:`replay_record` checks one (schema, variant
    and its content hash, deal against seed and commitment, every action legal when its turn
    comes), but the hand need not be over and no result is compared. ``variant``: the rules
    to resume under, instead of the recorded ones; its content hash must be the recorded one.

    Raises :class:`RecordError` (the JSON text or the schema) and :class:`ReplayError`
    (``step`` 0 for the header, ``variant_changed`` for a ``variant`` of other rules; k,
    ``replay_diverged``, for a refused action k). The record's ``meta`` is not part of the
    game: keep ``data["meta"]`` and pass it to :func:`save_game` again.
    """
    if isinstance(data, (str, bytes, bytearray)):
        record = loads_record(data, limits)
    else:
        record = validate_record(dict(data) if isinstance(data, Mapping) else data,
                                 limits=limits)
    if variant is not None:
        if not isinstance(variant, Variant):
            raise ZipaiError(f"variant: expected a Variant, got {type(variant).__name__}",
                             code="bad_variant")
        want = record["variant"]["content_hash"]
        if variant.content_hash != want:
            raise ReplayError(f"variant changed: {variant.id} has content hash "
                              f"{variant.content_hash[:16]}…, the record was made under "
                              f"{want[:16]}…", 0, code="variant_changed")
    return _resume(record, variant or _record_variant(record))


def _resume(record: dict[str, Any], variant: Variant) -> Game:
    """The game of a record that has passed the schema, its actions replayed strictly."""
    if record.get("sitting_out") and variant.seats <= variant.players:
        raise ReplayError(f"sitting_out is true but {variant.id} seats {variant.seats} for "
                          f"{variant.players} players: nobody sits out", 0, code="bad_header")
    try:
        deal = deal_from_json(record["deal"])
        seed = record["seed"]
        # refuses a deal the seed does not shuffle
        game = Game(variant, seed=seed, deal=deal, windows=record.get("windows", False))
        commitment = record.get("commitment")
        _check_commitment(commitment, seed)
    except ReplayError:
        raise
    except ZipaiError as exc:
        text = str(exc)
        raise ReplayError(text if text.startswith("bad deal: ") else f"bad deal: {text}", 0,
                          code="bad_deal") from None
    if commitment is not None:
        game.commitment = ShuffleCommitment(commitment["digest"], commitment["nonce"])
    for k, data in enumerate(record["actions"], 1):
        try:
            action = action_from_json(data)
        except ZipaiError as exc:
            raise ReplayError(f"malformed action {_brief(data)}: {exc}", k) from None
        refused = game.check(action)
        if refused is not None:
            problem = str(refused)
            said = problem if problem.startswith(str(action)) else f"{action} refused: {problem}"
            raise ReplayError(said, k)
        game.apply(action)
    return game


def _replay(record: dict[str, Any]) -> tuple[Game, Settlement]:
    """:func:`replay_record` of a record that has passed the schema."""
    game = _resume(record, _record_variant(record))
    actions = record["actions"]
    if not game.is_over:
        state = game.state
        raise ReplayError(f"the record ends after {len(actions)} actions but the hand is not "
                          f"over: seat {state.actor} is to act", len(actions) + 1,
                          code="record_incomplete")
    played = game.state.final_result
    result = played
    if "sitting_out" in record:
        result = attrs.evolve(result, sitting_out=bool(record["sitting_out"]))
    settlement = settle(game.variant, result, events=game.events)
    for name in ("result", "settlement"):
        if record[name] is None:  # a saved hand's header: the hand it records is over
            raise ReplayError(f"result differs: {name} recorded null (a hand still being "
                              f"played), replayed a finished hand", len(actions),
                              code="result_differs")
    got_result = result_json(played)
    if "decomposition" not in record["result"]:  # written before records carried it
        del got_result["decomposition"]
    for name, stored, got in (("result", record["result"], got_result),
                              ("settlement", comparable(record["settlement"]),
                               comparable(settlement.to_json()))):
        where = _first_difference(stored, got)
        if where is not None:
            path, stored, replayed = where
            raise ReplayError(f"result differs: {name}{path} recorded {stored}, replayed "
                              f"{replayed}", len(actions), code="result_differs")
    return game, settlement


def _check_commitment(commitment: Any, seed: int | None) -> None:
    """A record's shuffle commitment must commit to its seed (ReplayError ``bad_commitment``)."""
    if commitment is None:
        return
    if seed is None or not verify_commitment(commitment["digest"], seed, commitment["nonce"]):
        raise ReplayError(f"the shuffle commitment {commitment['digest']} is not the commitment "
                          f"of seed {seed} with nonce {commitment['nonce']}", 0,
                          code="bad_commitment")


def _brief(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def _first_difference(stored: Any, got: Any, path: str = "") -> tuple[str, str, str] | None:
    """``(path, stored, replayed)`` of the first place two JSON values differ, or None."""
    if isinstance(stored, dict) and isinstance(got, dict):
        for key in sorted(set(stored) | set(got)):
            if key not in stored or key not in got:
                return (f"{path}.{key}", _brief(stored.get(key, "(missing)")),
                        _brief(got.get(key, "(missing)")))
            found = _first_difference(stored[key], got[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(got, list):
        for k, (a, b) in enumerate(zip(stored, got, strict=False)):
            found = _first_difference(a, b, f"{path}[{k}]")
            if found:
                return found
        if len(stored) != len(got):
            return (path, f"{len(stored)} entries", f"{len(got)} entries")
        return None
    if stored != got or type(stored) is not type(got):
        return (path, _brief(stored), _brief(got))
    return None


def rules_used(variant: Variant) -> str:
    """Which rules a replay used: ``preset hunan (content hash 712af017ad40…)`` for a shipped
    preset, ``custom rules 'mine' (content hash …)`` for any other variant."""
    what = f"preset {variant.id}" if is_preset(variant) else f"custom rules {variant.id!r}"
    return f"{what} (content hash {variant.content_hash[:16]}…)"
