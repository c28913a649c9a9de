"""Loading variant files: YAML → ``extends`` merge → JSON Schema → semantic checks → Variant.

Every schema error is reported with its YAML path (``claims.priority[1]``); semantic errors
likewise. :class:`~zipai_rules.errors.VariantError` carries them (the first
``Limits.max_errors``) in ``problems``.

Variant files are untrusted (see :mod:`zipai_rules.inputs`): a file is read only if it is a
regular file within ``Limits.max_bytes``; the document, with every YAML alias expanded, may
hold at most ``Limits.max_nodes`` values; ``extends`` names a shipped preset, or a ``.yaml``
file relative to the file that names it and inside the folder of the top file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import jsonschema
import yaml

from . import hooks, mingtang
from .cards import deck_size
from .errors import VariantError
from .frozen import thaw
from .inputs import (
    MAX_INT_DIGITS,
    MAX_SCORE,
    VARIANT_LIMITS,
    Ambiguous,
    Limits,
    Refused,
    brief,
    check_tree,
    name_key,
    schema_message,
    shipped_validator,
    text_problem,
)
from .inputs import yaml_path as yaml_path
from .melds import every_meld
from .partial import passing_part, unsure
from .special import WU_HU_HUXI
from .variant import HUXI_OPTIONS, Conversion, HuxiExtra, Variant, normalise
from .variant import content_hash as content_hash
from .variant import variant_schema as variant_schema
from .vocab import ACTION_KINDS, zh_word

Resolver = Callable[[str], Mapping[str, Any]]

#: the preset whose values stand in for the required keys a file gives wrongly, so that the
#: rest of the file is checked (:func:`semantic_problems_of_part`): it extends no other
STANDIN = "hunan"

#: an ``extends`` chain may be at most this many parents long
MAX_EXTENDS = 8


if TYPE_CHECKING:
    _SafeLoader = yaml.SafeLoader
else:  # libyaml's loader when PyYAML was built with it
    _SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _UniqueKeyLoader(_SafeLoader):
    """The safe YAML loader (libyaml's when PyYAML has it) that rejects a mapping with the
    same key twice, keys that are not text (``1:``, ``[a]:``, ``on:`` read as a boolean):
    every variant key is a name), and integers of more than
    :data:`~zipai_rules.inputs.MAX_INT_DIGITS` digits. Integers are decimal only (YAML 1.2
    core): a YAML 1.1 octal ``010`` (8), sexagesimal ``1:30`` (90), ``0x1F``, ``0b11``,
    ``1_000``, floats with ``_`` or ``:``, and the booleans ``yes``/``no``/``on``/``off`` are
    read as :class:`~zipai_rules.inputs.Ambiguous`, which the tree check refuses at their
    YAML path."""

    def strict_int(self, node: yaml.ScalarNode) -> int | Ambiguous:
        text = str(node.value)
        digits = sum(ch.isdigit() for ch in text)
        if digits > MAX_INT_DIGITS:
            raise yaml.constructor.ConstructorError(
                None, None, f"an integer of {digits} digits (at most {MAX_INT_DIGITS})",
                node.start_mark)
        value: int = self.construct_yaml_int(node)
        if _DECIMAL.fullmatch(text):
            return value
        return Ambiguous(text, f"{brief(text, 40)} is a YAML 1.1 {_int_form(text)} integer "
                         f"(read as {value}): write integers in plain decimal digits, without "
                         "a leading 0, _, 0x, 0b or :, or quote it as text")

    def strict_float(self, node: yaml.ScalarNode) -> float | Ambiguous:
        text = str(node.value)
        if "_" in text or ":" in text:  # 1_0.5, 1:30.5: YAML 1.1 only
            return Ambiguous(text, f"{brief(text, 40)} is a YAML 1.1 number (with _ or :): "
                             "numbers are plain decimal digits only here (or quote it as text)")
        value: float = self.construct_yaml_float(node)
        return value

    def strict_bool(self, node: yaml.ScalarNode) -> bool | Ambiguous:
        text = str(node.value)
        if text.lower() not in ("true", "false"):  # yes, no, on, off: YAML 1.1 only
            return Ambiguous(text, f"{brief(text, 40)} is a YAML 1.1 boolean, read as "
                             f"{str(text.lower() in ('yes', 'on')).lower()}: write true or false "
                             "(or quote it as text)")
        value: bool = self.construct_yaml_bool(node)
        return value

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False
                          ) -> dict[Hashable, Any]:
        seen: set[str] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, str):
                what = (f"mapping key {key!r} is not text (quote it)"
                        if isinstance(key_node, yaml.ScalarNode)
                        else f"a {'list' if isinstance(key, list) else 'mapping'} is used as a "
                        "mapping key; keys are names")
                raise yaml.constructor.ConstructorError(None, None, what, key_node.start_mark)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor("tag:yaml.org,2002:int", _UniqueKeyLoader.strict_int)
_UniqueKeyLoader.add_constructor("tag:yaml.org,2002:float", _UniqueKeyLoader.strict_float)
_UniqueKeyLoader.add_constructor("tag:yaml.org,2002:bool", _UniqueKeyLoader.strict_bool)

#: an integer as YAML 1.2's core schema writes it in decimal (no leading zero, ``_`` or ``:``)
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")


def _int_form(text: str) -> str:
    """The YAML 1.1 form of the integer ``text``: binary, hexadecimal, sexagesimal, octal or
    underscored."""
    bare = text.lstrip("+-").lower()
    for prefix, name in (("0b", "binary"), ("0x", "hexadecimal")):
        if bare.startswith(prefix):
            return name
    if ":" in bare:
        return "sexagesimal (base 60)"
    return "octal" if bare.startswith("0") else "underscored"


def refused(origin: str, exc: Refused) -> VariantError:
    """The :class:`VariantError` of a document refused by an input guard."""
    where = "" if exc.path == "<root>" else f"{exc.path}: "
    return VariantError(f"{origin}: {where}{exc.message}", [(exc.path, exc.message)],
                        code=exc.code)


def read_yaml(text: str, origin: str = "<string>", limits: Limits = VARIANT_LIMITS
              ) -> dict[str, Any]:
    """Parse YAML text safely (``yaml.SafeLoader``, duplicate keys rejected); the top level
    must be a mapping. The text must be at most ``limits.max_bytes`` long (UTF-8) and the
    document, aliases expanded, within ``limits`` (:func:`~zipai_rules.inputs.check_tree`).

    Raises :class:`VariantError`: code ``yaml_syntax``, ``not_a_mapping``, ``too_large``,
    ``too_deep`` or ``schema``."""
    if len(text) > limits.max_bytes or len(text.encode("utf-8", "replace")) > limits.max_bytes:
        raise refused(origin, Refused("too_large", f"larger than the limit of "
                                      f"{limits.max_bytes} bytes (raise it with max_bytes)"))
    try:
        loader = _UniqueKeyLoader(text)
        try:
            data = loader.get_single_data()
        finally:
            loader.dispose()
        check_tree(data, limits)
    except Refused as exc:
        raise refused(origin, exc) from None
    except RecursionError:
        raise VariantError(f"{origin}: not valid YAML: nested too deeply",
                           [("<root>", "nested too deeply")], code="yaml_syntax") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise VariantError(f"{origin}: not valid YAML: {where}{problem}",
                           [("<root>", f"{where}{problem}")], code="yaml_syntax") from None
    if not isinstance(data, dict):
        got = "an empty file" if data is None else f"a {type(data).__name__}"
        raise VariantError(f"{origin}: the top level must be a mapping of variant keys, got {got}",
                           [("<root>", "must be a mapping")], code="not_a_mapping")
    return data


def merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Deep merge into a new plain tree: mappings merge key by key; lists and scalars of
    ``over`` replace."""
    out: dict[str, Any] = thaw(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge(out[key], value)
        else:
            out[key] = thaw(value)
    return out


def resolve(doc: Mapping[str, Any], resolver: Resolver, origin: str,
            _seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """Apply ``extends`` chains (at most :data:`MAX_EXTENDS` long); ``resolver`` maps a parent
    name to its raw mapping. A resolver with a ``child(name)`` method gives the resolver for
    that parent's own ``extends`` (file parents resolve relative to the file naming them).
    The parent's citations of ``aliases`` and ``description`` are not inherited, nor those of
    a parameter inside a path the child cites: a child citing ``scoring`` replaces every
    ``scoring.…`` citation of its parent. Returns a new plain tree."""
    parent = doc.get("extends")
    if parent is None:
        plain: dict[str, Any] = thaw(doc)
        return plain
    if not isinstance(parent, str):
        raise VariantError(f"{origin}: extends must be a string", [("extends", "must be a string")],
                           code="schema")
    bad = _extends_problem(parent)
    if bad:
        raise VariantError(f"{origin}: extends {brief(repr(parent), 80)}: {bad}",
                           [("extends", bad)], code="schema")
    if parent in _seen:
        raise VariantError(f"{origin}: extends cycle {' → '.join(_seen + (parent,))}",
                           [("extends", "cycle")], code="extends_cycle")
    if len(_seen) >= MAX_EXTENDS:
        raise VariantError(f"{origin}: extends chain longer than {MAX_EXTENDS}",
                           [("extends", "chain too long")], code="extends_cycle")
    try:
        raw_parent = resolver(parent)
    except VariantError as exc:
        if exc.code in ("parent_outside", "unknown_parent", "unreadable"):  # name the child
            raise VariantError(f"{origin}: {exc}", exc.problems, code=exc.code) from None
        raise
    except (KeyError, OSError, ValueError):
        raise VariantError(f"{origin}: extends {brief(repr(parent), 80)}: no such variant",
                           [("extends", f"unknown variant {parent!r}")],
                           code="unknown_parent") from None
    child_resolver = getattr(resolver, "child", None)
    base = resolve(raw_parent, child_resolver(parent) if child_resolver else resolver, parent,
                   _seen + (parent,))
    child = {k: v for k, v in doc.items() if k != "extends"}
    base.pop("aliases", None)
    base.pop("description", None)
    citations = base.get("citations")
    own = child.get("citations")
    cited = [str(k) for k in own] if isinstance(own, Mapping) else []
    if isinstance(citations, Mapping):  # the parent's words about itself are not inherited,
        base["citations"] = {k: v for k, v in citations.items()  # nor those inside a path
                             if k not in ("aliases", "description")  # the child cites
                             and not any(str(k).startswith(c + ".") for c in cited)}
    return merge(base, child)


#: the longest ``extends`` value (the schema's ``maxLength``, checked before any file is named)
MAX_EXTENDS_LENGTH = 256


def _extends_problem(parent: str) -> str | None:
    """Why the ``extends`` value ``parent`` names no parent at all (before any file system
    call): empty, longer than :data:`MAX_EXTENDS_LENGTH`, or holding a control character
    (a NUL byte ends a file name in the operating system); ``None`` when it may name one."""
    if not parent.strip():
        return "empty: name a preset id or a .yaml file"
    if len(parent) > MAX_EXTENDS_LENGTH:
        return f"{len(parent)} characters, more than the {MAX_EXTENDS_LENGTH} allowed"
    control = next((ch for ch in parent if ord(ch) < 0x20 or 0x7F <= ord(ch) <= 0x9F), None)
    if control is not None:
        return (f"holds the control character U+{ord(control):04X}"
                + (" (a NUL byte)" if control == "\0" else "") + ": no file or preset has it")
    return None


def schema_problems(doc: Mapping[str, Any], limits: Limits = VARIANT_LIMITS
                    ) -> list[tuple[str, str]]:
    """Schema violations as ``(yaml path, message)``, sorted by path: the first
    ``limits.max_errors`` found (integers must be ``int``: ``3.0`` and ``true`` are refused).

    A document whose shape no variant can have (:func:`~zipai_rules.inputs.check_tree`: keys
    that are not strings, too many values) gives that one problem."""
    try:
        check_tree(doc, limits)
    except Refused as exc:
        return [(exc.path, exc.message)]
    max_errors = limits.max_errors
    doc = thaw(doc)  # a frozen document (tuples, read-only mappings) as JSON types
    found: list[tuple[str, str]] = []
    for e in _branch_errors(shipped_validator("variant").iter_errors(doc)):
        if len(found) >= max_errors:
            break
        if (e.validator == "additionalProperties" and isinstance(e.instance, Mapping)
                and isinstance(e.schema, Mapping)):
            # point at each unexpected key itself (``win.min_hux``), not at its parent
            known = e.schema.get("properties", {})
            patterns = e.schema.get("patternProperties", {})
            extra = [k for k in e.instance if k not in known
                     and not any(re.search(p, str(k)) for p in patterns)]
            if extra:
                found += [(yaml_path([*e.absolute_path, str(k)]), f"unknown key {brief(repr(k))}; "
                           f"allowed: {', '.join(sorted(known))}")
                          for k in extra[:max_errors - len(found)]]
                continue
        path = yaml_path(e.absolute_path)
        found.append((path, schema_message(e) + (_HINTS.get(path, "") if e.validator == "enum"
                                                 else "")))
    return sorted(found)


#: what an author who gave a value outside an enumeration may have meant
_HINTS = {"scoring.unit": ": the unit's id; the region's own word (分, 子, 油) goes in "
          "scoring.unit_word (unit: point, unit_word: 分)"}


def _branch_errors(errors: Iterable[jsonschema.ValidationError]
                   ) -> Iterator[jsonschema.ValidationError]:
    """``errors`` with each ``oneOf`` / ``anyOf`` error whose value has the type of exactly
    one branch (a 名堂's ``when``: one condition, or a list of them) replaced by that branch's
    own errors, so that the author reads ``when.where.color: 'pink' is not one of red, black,
    mixed`` rather than "not valid under any of the given schemas"."""
    for e in errors:
        if e.validator not in ("oneOf", "anyOf") or not e.context:
            yield e
            continue
        branches: dict[Any, list[jsonschema.ValidationError]] = {}
        for sub in e.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        typed = [b for b in branches.values()
                 if not any(x.validator == "type" and not x.relative_path for x in b)]
        if len(typed) == 1:
            yield from _branch_errors(typed[0])
        else:
            yield e


def semantic_problems(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Checks the schema cannot express: sizes fit the deck, every claim kind is ranked once,
    citations name real parameters, the threshold can be reached. ``doc`` is a resolved
    mapping that passed the schema; its defaults are filled in first (:func:`normalise`), so
    a citation may name a parameter left at its default."""
    doc = normalise(doc)
    out: list[tuple[str, str]] = []
    deck = deck_size(doc["deck"]["copies"], doc["deck"]["kings"])
    deal = doc["deal"]
    dealt = deal["dealer_hand"] + deal["other_hand"] * (doc["players"] - 1)
    aside = deal["set_aside"]
    if dealt + deal["wall"] + aside != deck:
        more = f" and the {aside} set aside" if aside else ""
        out.append(("deal.wall", f"the deck holds {deck} cards but the hands ({dealt}) plus "
                    f"the wall ({deal['wall']}){more} make {dealt + deal['wall'] + aside}"))
    if deal["dealer_hand"] < deal["other_hand"]:
        out.append(("deal.dealer_hand",
                    "the dealer must hold at least as many cards as the others"))
    seats = doc["seats"]
    if seats < doc["players"]:
        out.append(("seats", f"{seats} seats cannot hold {doc['players']} players"))
    sitting = doc["sitting_out"]
    if (seats > doc["players"]) != (sitting != "none"):
        out.append(("sitting_out", "a seat sits out exactly when there are more seats than "
                    f"players (seats {seats}, players {doc['players']}, sitting_out {sitting})"))
    for k, name in enumerate(doc["win"]["special"]):
        if name not in hooks.SPECIAL_WINS:
            out.append((f"win.special[{k}]", f"unknown hook {name!r}; registered: "
                        + ", ".join(sorted(hooks.SPECIAL_WINS))))
    ranked = [k for tier in doc["claims"]["priority"] for k in tier]
    for kind in ("hu", "pao", "peng", "chi"):
        if ranked.count(kind) != 1:
            out.append(("claims.priority", f"claim kind {kind!r} must appear exactly once "
                        f"(found {ranked.count(kind)})"))
    if not set(doc["win"]["forced_sources"]) <= set(
            doc["win"]["sources"]):
        out.append(("win.forced_sources", "a forced win source must also be a win source"))
    if doc["win"]["dihu"] == "lianzhang" and not deal["lianzhang"]:
        out.append(("win.dihu", "lianzhang offers the dealer's 亮张 for 地胡: it needs "
                    "deal.lianzhang: true"))
    if doc["win"]["dihu"] == "lianzhang" and "discard" not in doc["win"]["sources"]:
        out.append(("win.dihu", "lianzhang offers the dealer's 亮张 as a discard: it needs "
                    "discard in win.sources, else no 地胡 can be won"))
    # the best concealed hand of other_hand + 1 cards: all big 提/坎/一二三-type melds
    best = _max_reachable_huxi(doc)
    if doc["win"]["min_huxi"] > best:
        out.append(("win.min_huxi", f"threshold {doc['win']['min_huxi']} is above the most "
                    f"胡息 any hand of this size can score ({best})"))
    out += mingtang.problems(doc)
    for path in doc["citations"]:
        if not _has_path(doc, path):
            out.append((f"citations.{path}", "cites a parameter that does not exist"))
    out += _text_problems(doc)
    out += _scoring_problems(doc["scoring"])
    out += _huxi_extra_problems(doc["huxi"])
    if doc["scoring"]["payment"].get("zimo") == "winner_only" and \
            "zimo" in mingtang.producible_labels(doc):
        out.append(("scoring.payment.zimo", "winner_only applies to a 自摸, which this variant "
                    "never gives: " + mingtang.producible_labels(doc)["zimo"]))
    out += _score_bound_problems(doc) or _inverted_win_problems(doc)
    out += _own_draw_problems(doc["win"], doc["claims"])
    out += _count_as_problems(doc)
    out += _match_problems(doc)
    pay = doc["scoring"]["payment"]
    for key in ("discarder_pays", "discarder_max", "discard_bonus.units"):
        head, _, sub = key.partition(".")
        if (pay.get(head, {}).get(sub) if sub else pay.get(key)) \
                and "discard" not in doc["win"]["sources"]:
            out.append((f"scoring.payment.{key}", "no win comes from a discard in this "
                        "variant (win.sources), so the discarder never pays"))
    if pay.get("draw") == "winner_only" and "draw" not in doc["win"]["sources"]:
        out.append(("scoring.payment.draw", "winner_only applies to a win on another seat's "
                    "draw, which this variant never gives (win.sources has no draw)"))
    return out


def _text_problems(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The names, aliases and terms people read must show what they are
    (:func:`~zipai_rules.inputs.text_problem`: no bidirectional control, something visible),
    and the actions a seat chooses among (:data:`~zipai_rules.vocab.ACTION_KINDS`) must have
    words that differ (their canonical ids, the variant's terms and the Chinese words of
    ``play --zh``, compared as :func:`~zipai_rules.inputs.name_key`)."""
    texts = [("name", doc["name"]), *((f"aliases[{k}]", a) for k, a in enumerate(doc["aliases"])),
             *((f"terminology.{k}", w) for k, w in doc["terminology"].items()),
             *((f"scoring.mingtang.patterns[{k}].term", p["term"]) for k, p
               in enumerate(doc["scoring"].get("mingtang", {}).get("patterns", []))
               if "term" in p),
             *((("scoring.unit_word", doc["scoring"]["unit_word"]),)
               if "unit_word" in doc["scoring"] else ())]
    out = [(path, bad) for path, text in texts if (bad := text_problem(text)) is not None]
    unit, word = doc["scoring"]["unit"], doc["scoring"].get("unit_word")
    if word is not None and doc["terminology"].get(unit, word) != word:
        out.append(("scoring.unit_word", f"{word!r}, but terminology.{unit} says "
                    f"{doc['terminology'][unit]!r}: give the unit's word once"))
    words = doc["terminology"]
    said: dict[str, str] = {}  # the name key of a word → the action it names
    for kind in ACTION_KINDS:
        for word in dict.fromkeys((kind, words.get(kind, kind), zh_word(kind, words.get(kind)))):
            other = said.setdefault(name_key(word), kind)
            if other != kind:
                out.append(("terminology", f"{word!r} names both {other} and {kind}: a "
                            "player could not tell the two actions apart"))
    return out


def _own_draw_problems(win: Mapping[str, Any], claims: Mapping[str, Any]
                       ) -> list[tuple[str, str]]:
    """``claims.own_draw: kept`` shows no draw and offers none, so a draw win, a claim of a
    shown draw or of one's own draw would never happen: refused, as is a kept draw that its
    drawer may not win on (no ``self`` in ``win.sources``). One problem per key, each saying
    the value to set (the key's list without what never applies)."""
    if claims["own_draw"] != "kept":
        return []

    def flow(values: list[str]) -> str:
        return f"[{', '.join(values)}]"

    out = []
    sources = list(win["sources"])
    if "self" not in sources or "draw" in sources:
        why = ("a drawer wins on the draw it keeps (self) and no one sees a draw to win on "
               "(draw)" if "self" not in sources and "draw" in sources else
               "a drawer wins on the draw it keeps" if "self" not in sources else
               "no one sees a draw to win on")
        fixed = [x for x in sources if x != "draw"]
        fixed = fixed if "self" in fixed else ["self", *fixed]
        out.append(("win.sources", f"claims.own_draw kept: {why}: set win.sources: "
                    f"{flow(fixed)} (now {flow(sources)})"))
    for key, dead, why in (
            ("peng_on", ("draw",), "no draw is shown to 碰"),
            ("pao_on_kan", ("draw",), "no draw is shown to 跑 on"),
            ("pao_on_wei", ("draw",), "no draw is shown to 跑 on"),
            ("pao_on_peng", ("draw", "self"), "no draw is shown to 跑 on, and one's own draw "
             "onto one's own 碰 is a forced 跑"),
            ("chi_by", ("self",), "the drawer keeps its draw in the hand, so it has no drawn "
             "card to 吃")):
        have = sorted(claims[key])
        if set(have) & set(dead):
            out.append((f"claims.{key}", f"claims.own_draw kept: {why}: set claims.{key}: "
                        f"{flow([x for x in have if x not in dead])} (now {flow(have)})"))
    return out


def _scoring_problems(scoring: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The conversion table ascends and has a tail only with a table; each 胡息 counts as one
    value; ``discarder_pays`` only where the discarder pays alone."""
    out: list[tuple[str, str]] = []
    conv, pay = scoring["conversion"], scoring["payment"]
    table = conv.get("table", [])
    for k in range(1, len(table)):
        if table[k][0] <= table[k - 1][0]:
            out.append((f"scoring.conversion.table[{k}]", f"胡息 {table[k][0]} must be above the "
                        f"row before ({table[k - 1][0]})"))
    if "then_per" in conv and not table:
        out.append(("scoring.conversion.then_per", "a tail needs a table"))
    if table and "fixed" in conv:
        out.append(("scoring.conversion.table", "a table and fixed units exclude each other"))
    seen = [at for at, _ in conv.get("count_as", [])]
    for k, at in enumerate(seen):
        if at in seen[:k]:
            out.append((f"scoring.conversion.count_as[{k}]", f"胡息 {at} already counts as "
                        "another value"))
    for key in ("discarder_pays", "discarder_max"):
        if pay.get(key) and pay["discard_win"] != "discarder_pays_all":
            out.append((f"scoring.payment.{key}", "only with discard_win: "
                        f"discarder_pays_all (not {pay['discard_win']})"))
    if conv.get("maximum"):
        least = conv.get("fixed", conv["minimum"])
        if conv["maximum"] < least:
            what = "fixed" if "fixed" in conv else "minimum"
            out.append(("scoring.conversion.maximum", f"{conv['maximum']} is below the "
                        f"conversion's {what} ({least}): every win would score the cap"))
    for key, win in (("zimo", "a 自摸"), ("draw", "a win on another seat's draw")):
        if pay.get(key) == "winner_only" and pay["sitting_out"] == "mirror":
            out.append((f"scoring.payment.{key}", f"winner_only charges nobody on {win}, so "
                        "the seat sitting out (sitting_out: mirror) would have no payer: set "
                        f"sitting_out: none or {key}: losers_pay"))
    if pay.get("credit", "per_loser") != "per_loser" and "winner_only" not in (
            pay.get("zimo"), pay.get("draw")):
        out.append(("scoring.payment.credit", "credit says what a win nobody pays credits, "
                    "and no win is unpaid here: set zimo or draw to winner_only"))
    bonus = pay.get("discard_bonus", {})
    if bonus.get("at_cap", "credited") == "others_pay":
        if not bonus.get("units"):
            out.append(("scoring.payment.discard_bonus.at_cap", "others_pay pays a bonus of "
                        "0 units: set discard_bonus.units"))
        if not pay.get("discarder_max"):
            out.append(("scoring.payment.discard_bonus.at_cap", "others_pay applies when the "
                        "discarder pays discarder_max, which is not set (0: no cap)"))
    return out


def _huxi_extra_problems(huxi: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Each ``huxi.extra`` entry must fit some meld: of one of its kinds, every card of one
    of its ranks and of its size (small or big)."""
    out: list[tuple[str, str]] = []
    for k, raw in enumerate(huxi.get("extra", [])):
        entry = HuxiExtra(**raw)
        if not any(entry.applies(m) for m in every_meld() if m.kind in entry.kind):
            ranks = ", ".join(map(str, sorted(entry.ranks))) or "any"
            out.append((f"huxi.extra[{k}]", f"no meld of kind {', '.join(sorted(raw['kind']))}"
                        f" has only cards of ranks {ranks}"
                        + (f" and {raw['cards']}" if "cards" in raw else "")
                        + ": the extra never applies"))
    return out


def _patterns_of(scoring: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """Every 名堂 of a normalised ``scoring`` section with its YAML path: the ``bonuses``
    (effects ``multiply_huxi`` and ``add_units``), then ``mingtang.patterns``."""
    return [*((f"scoring.bonuses[{k}]", b) for k, b in enumerate(scoring["bonuses"])),
            *((f"scoring.mingtang.patterns[{k}]", p) for k, p
              in enumerate(scoring.get("mingtang", {}).get("patterns", [])))]


def _per_times(p: Mapping[str, Any], most: Mapping[str, int], huxi: int) -> int:
    """The most times a pattern's ``per`` effect applies: its fact's :func:`mingtang.reach`
    (``huxi``: the bound ``huxi`` of a win before its patterns) less ``per.above``."""
    per = p.get("per")
    if per is None:
        return 0
    times: int = max(most.get(per["fact"], huxi) - per.get("above", 0), 0)
    return times


def _stacked(factors: list[int], stack: str, cap: int | None = None) -> int:
    """The largest multiplier ``factors`` make: their product, or under ``stack: sum`` the sum
    of those other than 1 (a per-count ``add_multiplier`` among them), at most ``cap``
    (``max_multiplier``; ``None``: no cap)."""
    if stack == "sum":
        out = max(1, sum(m for m in factors if m != 1))
    else:
        out = 1
        for m in factors:
            out *= max(m, 1)
    return out if cap is None else min(out, max(cap, 1))


def score_bound(doc: Mapping[str, Any]) -> int:
    """An upper bound on every score a hand of the normalised variant mapping ``doc`` can
    record, in either sign: the 胡息 after the 名堂, the units each loser owes, and every
    payment (what the winner gains from all losers or from the discarder, a seat sitting out,
    the instant 提 payments, the 荒庄 penalty per 王).

    A win's 胡息 before its patterns is at most ``groups × the largest huxi table value`` (or
    a fixed-value win's :data:`~zipai_rules.special.WU_HU_HUXI`, or a ``count_as`` value);
    every pattern is taken to apply at once, each ``add`` at its largest size and each
    ``per`` as many times as its fact can count (:func:`mingtang.reach`), every multiplier
    stacked (``scoring.mingtang.stack``); the conversion at that 胡息; 醒 for every card held;
    a payment up to ``max(players − 1, discarder_pays) + 1`` times the units, plus one 提 of
    every card kind."""
    sc, most = doc["scoring"], mingtang.reach(doc)
    cards = 2 * most["groups"] + 1
    top = max(max(v) for k, v in doc["huxi"].items() if k not in HUXI_OPTIONS) \
        + sum(e["add"] for e in doc["huxi"].get("extra", []))
    conv = sc["conversion"]
    counted_to = [to for _, to in conv.get("count_as", [])]
    patterns = [p for _, p in _patterns_of(sc)]
    huxi = max(most["groups"] * top, WU_HU_HUXI, doc["win"]["min_huxi"], *counted_to,
               *(p.get("set_huxi", 0) for p in patterns))
    stack = sc.get("mingtang", {}).get("stack", "product")
    cap = sc.get("mingtang", {}).get("max_multiplier") or None
    added = sum(abs(p.get("add_huxi", 0)) + abs(p.get("per", {}).get("add_huxi", 0))
                * _per_times(p, most, huxi) for p in patterns)
    after = (huxi + added) * _stacked([p.get("multiply_huxi", 1) for p in patterns], stack,
                                      cap)
    counted = max([after, *counted_to])
    if "fixed" in conv:
        units = conv["fixed"]
    elif conv.get("table"):
        units = (max(u for _, u in conv["table"]) + counted // conv.get("then_per", counted + 1)
                 + conv["minimum"])
    else:
        units = (counted + abs(conv["offset"])) // conv["step"] + abs(conv["base"]) \
            + conv["minimum"]
    factors = [p.get("multiply_units", 1) for p in patterns] + [
        p.get("per", {}).get("add_multiplier", 0) * _per_times(p, most, huxi) for p in patterns]
    units = (units * _stacked(factors, stack, cap)
             + sum(abs(p.get("add_units", 0)) + abs(p.get("per", {}).get("add_units", 0))
                   * _per_times(p, most, huxi) for p in patterns))
    units = min(units, conv.get("maximum") or units) + sc["xing"]["per_card"] * cards
    n = doc["players"]
    pay = sc["payment"]
    ti = max(pay["ti"]["big"], pay["ti"]["small"]) * (n - 1) * 20  # one 提 per card kind
    shares = max(n - 1, pay.get("discarder_pays", 0)) + 1  # + 1: a seat sitting out
    bonus = pay.get("discard_bonus", {}).get("units", 0) * n  # credited, or each other pays
    kings = (sc["huangzhuang"]["king_penalty"] * doc["deck"]["kings"] * n
             + sc["huangzhuang"].get("dealer_pays", 0))
    bound: int = max(after, units * shares + bonus + ti, kings + ti)
    return bound


def _score_bound_problems(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A variant whose scores could pass :data:`~zipai_rules.inputs.MAX_SCORE`
    (:func:`score_bound`): its hands could not be recorded and replayed."""
    bound = score_bound(doc)
    if bound <= MAX_SCORE:
        return []
    size = f"about 10^{len(str(bound)) - 1}" if bound > 10 ** 20 else str(bound)
    return [("scoring", f"a hand could score up to {size} (胡息, units or a payment), more "
             f"than the {MAX_SCORE} (2^53 − 1) a game record holds: lower the multipliers "
             "(multiply_huxi, multiply_units) or the values they multiply")]


def least_units(doc: Mapping[str, Any]) -> tuple[int, int, str | None]:
    """``(least, converted, where)``: a lower bound on the units a win of the normalised
    variant mapping ``doc`` can score after its 名堂, the least its conversion gives, and the
    path of the pattern taking most units away (``None`` when none takes units away).

    The least a win converts to is the conversion at ``win.min_huxi`` (and at each ``table``
    row and ``count_as`` 胡息 above it), or its ``minimum`` where a win can score below the
    threshold (a special win, a forced 天胡, a pattern taking 胡息 away); multipliers never
    lower it; every pattern taking units away (a negative ``add_units`` or ``per.add_units``)
    is taken to apply, the most of each exclusive group, each ``per`` as often as its fact
    can count."""
    sc, most, win = doc["scoring"], mingtang.reach(doc), doc["win"]
    patterns = _patterns_of(sc)
    bound = score_bound(doc)
    taken: dict[str, tuple[int, str]] = {}  # group (or the path of an ungrouped pattern) →
    for path, p in patterns:               # the most it takes away, and where
        away = min(p.get("add_units", 0), 0) + min(p.get("per", {}).get("add_units", 0), 0) \
            * _per_times(p, most, bound)
        if away < 0:
            key = p.get("group") or path
            if away < taken.get(key, (0, ""))[0]:
                taken[key] = (away, f"{path}.add_units" if p.get("add_units", 0) < 0
                              else f"{path}.per.add_units")
    conv = Conversion(**sc["conversion"])
    if scores_below(doc):
        converted = conv.fixed if conv.fixed is not None else conv.minimum
    else:
        start = win["min_huxi"]
        at = [start, *(h for h, _ in conv.table if h > start),
              *(h for h, _ in conv.count_as if h > start)]
        converted = min(conv.units(conv.counted(h)) for h in at)
    where = min(taken.values())[1] if taken else None
    return converted + sum(away for away, _ in taken.values()), converted, where


def scores_below(doc: Mapping[str, Any]) -> bool:
    """Whether a win of the normalised variant mapping ``doc`` may score below
    ``win.min_huxi``: a special win, a forced 天胡 of dealt 提 or 坎, or a pattern that takes
    胡息 away (``add_huxi`` or ``per.add_huxi`` below 0) or sets it below the threshold
    (``set_huxi``)."""
    win = doc["win"]
    return bool(win["special"] or win["tianhu"]["ti"] or win["tianhu"]["kan"]
                or any(p.get("add_huxi", 0) < 0 or p.get("per", {}).get("add_huxi", 0) < 0
                       or p.get("set_huxi", win["min_huxi"]) < win["min_huxi"]
                       for _, p in _patterns_of(doc["scoring"])))


def _inverted_win_problems(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A pattern's negative ``add_units`` (or ``per.add_units``) may take a win's units down
    to 0 (``zipai validate`` warns of it), never below (:func:`least_units`): the winner
    would pay the losers."""
    lowest, least, where = least_units(doc)
    if lowest >= 0 or where is None:
        return []
    return [(where, f"a win could score {lowest} units: its conversion gives at least {least} "
             f"and the patterns' negative add_units take away up to {least - lowest}, so the "
             "winner would pay the losers (a pattern may take units away down to 0, never "
             "below)")]


def _count_as_problems(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A ``count_as`` row that can never apply: its 胡息 is below ``win.min_huxi`` and no win
    scores below the threshold (none does unless the variant has a special win, a forced 天胡
    of dealt 提 or 坎, or a pattern that takes 胡息 away; the dealer's optional 天胡 meets the
    threshold), or it counts a win as less than ``win.min_huxi``."""
    least = doc["win"]["min_huxi"]
    below = scores_below(doc)
    out: list[tuple[str, str]] = []
    for k, (at, to) in enumerate(doc["scoring"]["conversion"].get("count_as", [])):
        where = f"scoring.conversion.count_as[{k}]"
        if at < least and not below:
            out.append((f"{where}[0]", f"no win scores {at} 胡息: win.min_huxi is {least} and "
                        "no special win, 天胡 or pattern scores below it"))
        if to < least:
            out.append((f"{where}[1]", f"counts a win as {to} 胡息, below win.min_huxi "
                        f"({least}): a win would count as less than the threshold"))
    return out


def _match_problems(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``match.datuo``: ``both`` from ``factor`` to ``factor`` × ``factor``; 打坨 scales each
    payment of a won hand between the winner and another seat, so it needs a settlement whose
    payments all are (:func:`zipai_rules.match.datuo_payments`): no instant 提 payments, no
    荒庄 penalty per 王, no seat sitting out that is paid."""
    datuo = doc.get("match", {}).get("datuo", {})
    if not datuo.get("allowed", False):
        return []
    out: list[tuple[str, str]] = []
    factor, both = datuo.get("factor", 2), datuo.get("both", 4)
    if not factor <= both <= factor * factor:
        out.append(("match.datuo.both", f"{both} is not from factor ({factor}) to factor × "
                    f"factor ({factor * factor}): two seats that both 打坨 pay at least what "
                    "one that does pays, and at most each side's doubling multiplied"))
    sc = doc["scoring"]
    others = [("scoring.payment.ti", sc["payment"]["ti"]["big"] or sc["payment"]["ti"]["small"]),
              ("scoring.huangzhuang.king_penalty", sc["huangzhuang"]["king_penalty"]),
              ("scoring.payment.sitting_out", sc["payment"]["sitting_out"] == "mirror")]
    out += [("match.datuo.allowed", f"打坨 scales the payments between the winner and each "
             f"other seat, and {path} pays between other seats: the two cannot be combined")
            for path, used in others if used]
    return out


def _max_reachable_huxi(doc: Mapping[str, Any]) -> int:
    """An upper bound on 胡息: every 3 cards in the most valuable 3-card meld, every 4 in a 提."""
    table = doc["huxi"]
    per3 = max(max(v) for k, v in table.items()
               if k not in ("ti", "pao", "jiang") and k not in HUXI_OPTIONS)
    per4 = max(max(table["ti"]), max(table["pao"]))
    extra = sum(e["add"] for e in table.get("extra", []))  # an upper bound: every extra at once
    per3, per4 = per3 + extra, per4 + extra
    cards = doc["deal"]["dealer_hand"] + 4
    best: int = max(per3 * (cards // 3), per4 * (cards // 4) + per3 * ((cards % 4) // 3))
    return best


def _has_path(doc: Mapping[str, Any], path: str) -> bool:
    node: Any = doc
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return False
        node = node[part]
    return True


def build_variant(raw: Mapping[str, Any], resolver: Resolver, origin: str, *,
                  limits: Limits = VARIANT_LIMITS) -> Variant:
    """Resolve, validate and freeze a raw variant mapping.

    Raises :class:`VariantError` (code ``schema`` or ``semantic``) listing the problems (at
    most ``limits.max_errors``) with their paths; code ``too_large`` or ``too_deep`` for a
    document outside ``limits``.
    """
    try:
        check_tree(raw, limits)
    except Refused as exc:
        raise refused(origin, exc) from None
    doc = resolve(raw, resolver, origin)
    problems = schema_problems(doc, limits)
    if problems:
        from .presets import raw_preset  # bound late: the presets are loaded by this module

        also = semantic_problems_of_part(doc, raw_preset(STANDIN))
        also = also[:max(limits.max_errors - len(problems), 0)]
        raise VariantError(_message(origin, problems, also, limits.max_errors),
                           problems + also, code="schema")
    problems = semantic_problems(doc)
    if problems:
        raise VariantError(_message(origin, [], problems), problems, code="semantic")
    return Variant.from_doc(doc)


def semantic_problems_of_part(doc: Mapping[str, Any], standin: Mapping[str, Any]
                              ) -> list[tuple[str, str]]:
    """The :func:`semantic_problems` of a resolved mapping that fails the schema, found on
    the part of it that passes (:func:`~zipai_rules.partial.passing_part`: each refused value
    cut, its default or the value of the resolved variant ``standin`` taking its place), at
    the file's paths; a problem a cut value may cause (:func:`~zipai_rules.partial.unsure`)
    is left out. ``[]`` when no part passes."""
    found = passing_part(doc, standin)
    if found is None:
        return []
    part, cut, back = found
    return [(where, msg) for path, msg in semantic_problems(part)
            if not unsure(where := back(path), cut)]


def _message(origin: str, schema: list[tuple[str, str]], semantic: list[tuple[str, str]],
             max_errors: int | None = None) -> str:
    stop = " (stopped there)" if len(schema) + len(semantic) == max_errors else ""
    counts = [f"{len(found)} {what} error(s)" for what, found
              in (("schema", schema), ("semantic", semantic)) if found]
    lines = [f"{origin}: {' and '.join(counts)}{stop}"]
    lines += [f"  {path}: {msg}" for path, msg in (*schema, *semantic)]
    return "\n".join(lines)
