"""The position notation: one :class:`~zipai_rules.engine.state.GameState` as one line of text,
in the spirit of chess' FEN, to paste into a test or a bug report.

``state.to_position()`` writes it; :func:`position` reads it back under the same variant, and
``position(variant, state.to_position()) == state`` for every state a game reaches (claim
windows included). The line is ``zipai-position/1 `` followed by one compact JSON object
whose cards are card tokens (``"x1 x1 d5"``):

* ``variant`` (the id), ``dealer``, ``turn``, ``phase``, ``actor``, ``wall`` (top first),
  ``options`` (the actor's legal actions, as :meth:`Action.to_json`), ``prompts``;
  a position written by hand may leave ``options`` (and ``pending.queue`` and
  ``pending.tier``) out: they are then worked out by the engine's rules (the discards the
  hand allows, 胡/过 on one's own cards, the claims of the card on offer in its tier, the
  first tier with a claim: what the engine would offer);
* ``seats``: one object per seat: ``hand`` and every :class:`SeatState` field that is not
  its default (``melds`` as :meth:`Meld.to_json`, card sets as tokens, ``chou_hu_marks`` as
  ``[card, 胡息]`` pairs);
* ``pending`` (the card on offer: ``card``, ``source``, ``by``, ``tier``, ``queue``,
  ``declined``, ``window``), ``result`` (with its decomposition), ``drawn``, ``windows``,
  each only when set.

What is not written: ``plans``, what each offered 胡 and 跑 decided when it was offered. They
are rebuilt from the rest: a 胡's winning analysis by the one win decision
(:func:`~zipai_rules.engine.claims.hu_allowed` on the seat's cards and the card on offer),
a 跑's target by :func:`~zipai_rules.engine.claims.pao_source`, exactly as the engine worked
them out (its seat has not changed since). An analysis is rebuilt as a new value (the
``Analysis`` of a win compares by identity), with the same 胡息 and best split.

Every text is untrusted: :func:`position` reads at most :data:`MAX_POSITION` characters and
refuses anything else with a :class:`PositionError` whose ``code`` names the part at fault
(``position_too_long``, ``bad_position`` for text that is not a position at all,
``position_variant``, ``bad_position_seats``, ``bad_position_wall``, ``bad_position_turn``
(phase, actor, options, prompts, turn, drawn), ``bad_position_pending``,
``bad_position_result``, ``bad_position_cards`` (more copies of a card than the deck holds,
or not the deck's number of cards)) and whose ``field`` is the exact path
(``seats[1].hand``). It checks the shape and the card counts, not that a game reaches the
position.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from typing import Any, TypeVar

import attrs

from ..analysis import Decomposition, Group
from ..cards import KING, counts_of, format_cards, indices_of, parse_indices, token
from ..errors import ZipaiError
from ..inputs import Limits, Refused, check_tree, loads_json
from ..melds import Meld
from ..variant import Variant
from ..vocab import Label, Phase, ResultKind, Source
from .actions import Action, ActionKind, melds_from_json
from .claims import discard_options, hu_allowed, pao_source, tier_options
from .state import ClaimWindow, GameState, Pending, Plan, Result, SeatState

#: the first word of every position
POSITION_FORMAT = "zipai-position/1"
#: the most characters :func:`position` reads (a long Hunan hand writes under 6,000)
MAX_POSITION = 64 * 1024
_LIMITS = Limits(max_bytes=MAX_POSITION, max_nodes=20_000, max_depth=12)

E = TypeVar("E", bound=enum.Enum)


class PositionError(ZipaiError, ValueError):
    """A position text that cannot be read. ``code`` names the part at fault (see
    :mod:`zipai_rules.engine.position`), ``field`` the exact path (``seats[0].hand``,
    ``<text>``)."""

    code = "bad_position"

    def __init__(self, message: str, field: str = "<text>", *, code: str | None = None) -> None:
        super().__init__(f"position: {field}: {message}", code=code)
        self.field = field


# --- writing ---------------------------------------------------------------------------------

def _tokens(cards: Any) -> str:
    return format_cards(list(cards))


def _card(card: int | None) -> str | None:
    return None if card is None else token(card)


def _offers(offers: tuple[tuple[int, tuple[Action, ...]], ...]) -> list[Any]:
    return [[s, [a.to_json() for a in opts]] for s, opts in offers]


_SEAT_DEFAULTS = {f.name: f.default for f in attrs.fields(SeatState) if f.name != "hand"}
_CARD_SETS = ("chou_chi_cards", "chou_peng_cards", "own_chou")
_OPTIONAL_CARDS = ("lianzhang_offer", "held_ti")


def _seat_json(seat: SeatState) -> dict[str, Any]:
    out: dict[str, Any] = {"hand": _tokens(indices_of(seat.hand))}
    for name, default in _SEAT_DEFAULTS.items():
        value = getattr(seat, name)
        if value == default:
            continue
        if name == "melds":
            out[name] = [m.to_json() for m in value]
        elif name == "discards":
            out[name] = _tokens(value)
        elif name in _CARD_SETS:
            out[name] = _tokens(sorted(value))
        elif name == "chou_hu_marks":
            out[name] = [[token(c), h] for c, h in value]
        elif name in _OPTIONAL_CARDS:
            out[name] = token(value)
        elif name == "own_chi":
            out[name] = list(value)
        else:
            out[name] = value
    return out


def _window_json(w: ClaimWindow) -> dict[str, Any]:
    out: dict[str, Any] = {"seats": list(w.seats), "offers": _offers(w.offers),
                           "asks": _offers(w.asks)}
    if w.forced is not None:
        out["forced"] = w.forced
    if w.answers:
        out["answers"] = [[s, a.to_json()] for s, a in w.answers]
    return out


def _pending_json(p: Pending) -> dict[str, Any]:
    out: dict[str, Any] = {"card": token(p.card), "source": str(p.source), "by": p.by,
                           "tier": p.tier}
    if p.queue:
        out["queue"] = _offers(p.queue)
    if p.declined:
        out["declined"] = list(p.declined)
    if p.window is not None:
        out["window"] = _window_json(p.window)
    return out


def _group_json(g: Group) -> dict[str, Any]:
    out: dict[str, Any] = {"meld": g.meld.to_json(), "huxi": g.huxi, "place": g.place}
    if g.kings:
        out["kings"] = _tokens(g.kings)
    return out


def _result_json(r: Result) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": str(r.kind), "winner": r.winner, "card": _card(r.card),
                           "source": None if r.source is None else str(r.source),
                           "huxi": r.huxi, "labels": [str(x) for x in r.labels],
                           "discarder": r.discarder, "flipped": _card(r.flipped),
                           "kings": list(r.kings), "sitting_out": r.sitting_out,
                           "dealer": r.dealer}
    d = r.decomposition
    if d is not None:
        dj: dict[str, Any] = {"groups": [_group_json(g) for g in d.groups], "huxi": d.huxi}
        if d.leftover:
            dj["leftover"] = _tokens(d.leftover)
        if d.special is not None:
            dj["special"] = d.special
        out["decomposition"] = dj
    return out


def to_position(state: GameState) -> str:
    """``state`` as one line of position text (see the module's documentation); every field
    but ``plans``, which :func:`position` rebuilds."""
    doc: dict[str, Any] = {
        "variant": state.variant.id, "dealer": state.dealer, "turn": state.turn,
        "phase": str(state.phase), "actor": state.actor, "wall": _tokens(state.wall),
        "seats": [_seat_json(s) for s in state.seats],
        "options": [a.to_json() for a in state.options], "prompts": list(state.prompts)}
    if state.pending is not None:
        doc["pending"] = _pending_json(state.pending)
    if state.result is not None:
        doc["result"] = _result_json(state.result)
    if state.drawn is not None:
        doc["drawn"] = token(state.drawn)
    if state.windows:
        doc["windows"] = True
    return POSITION_FORMAT + " " + json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


# --- reading ---------------------------------------------------------------------------------

class _Reader:
    """Reads one parsed position document, each value checked where it is read."""

    def __init__(self, variant: Variant) -> None:
        self.v = variant
        self.n = len(_seat_range(variant))

    @staticmethod
    def fail(field: str, why: str, code: str) -> PositionError:
        return PositionError(why, field, code=code)

    def obj(self, data: object, field: str, keys: frozenset[str], code: str,
            required: frozenset[str] = frozenset()) -> Mapping[str, Any]:
        if not isinstance(data, Mapping):
            raise self.fail(field, f"expected an object, got {type(data).__name__}", code)
        for key in data:
            if key not in keys:
                raise self.fail(field, f"unknown field {str(key)[:40]!r}; the fields are "
                                f"{', '.join(sorted(keys))}", code)
        for key in sorted(required):
            if key not in data:
                raise self.fail(f"{field}.{key}", "missing", code)
        return data

    def int_(self, value: object, field: str, code: str, lo: int = 0, hi: int = 10_000,
             optional: bool = False) -> Any:
        if optional and value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            shown = str(value)[:40] if isinstance(value, int) else type(value).__name__
            raise self.fail(field, f"expected an int in {lo}..{hi}, got {shown}", code)
        return value

    def seat(self, value: object, field: str, code: str, optional: bool = False) -> Any:
        return self.int_(value, field, code, 0, self.n - 1, optional)

    def bool_(self, value: object, field: str, code: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(field, f"expected true or false, got {type(value).__name__}", code)
        return value

    def enum_(self, value: object, field: str, code: str, kinds: type[E],
              optional: bool = False) -> Any:
        if optional and value is None:
            return None
        for k in kinds:
            if k.value == value:
                return k
        known = ", ".join(str(k.value) for k in kinds)
        raise self.fail(field, f"expected one of {known}", code)

    def cards(self, value: object, field: str, code: str, limit: int = 200) -> list[int]:
        if not isinstance(value, str) or len(value) > 4 * limit:
            raise self.fail(field, "expected a string of card tokens", code)
        try:
            out = parse_indices(value) if value.strip() else []
        except ZipaiError as exc:
            raise self.fail(field, str(exc)[:160], code) from None
        if len(out) > limit:
            raise self.fail(field, f"more than {limit} cards", code)
        return out

    def card(self, value: object, field: str, code: str, optional: bool = False) -> Any:
        if optional and value is None:
            return None
        found = self.cards(value, field, code, 1)
        if len(found) != 1:
            raise self.fail(field, "expected one card token", code)
        return found[0]

    def list_(self, value: object, field: str, code: str, limit: int = 400) -> list[Any]:
        if not isinstance(value, list) or len(value) > limit:
            raise self.fail(field, f"expected a list of at most {limit} items", code)
        return value

    def melds(self, value: object, field: str, code: str) -> tuple[Meld, ...]:
        try:
            return melds_from_json(self.list_(value, field, code, 40), field)
        except PositionError:
            raise
        except ZipaiError as exc:
            raise self.fail(field, str(exc)[:200], code) from None

    def action(self, value: object, field: str, code: str) -> Action:
        try:
            action = Action.from_json(value, field)  # type: ignore[arg-type]
        except ZipaiError as exc:
            raise self.fail(field, str(exc)[:200], code) from None
        self.seat(action.seat, f"{field}.seat", code)
        return action

    def actions(self, value: object, field: str, code: str, seat: int | None = None
                ) -> tuple[Action, ...]:
        out = tuple(self.action(a, f"{field}[{k}]", code)
                    for k, a in enumerate(self.list_(value, field, code, 200)))
        if seat is not None and any(a.seat != seat for a in out):
            raise self.fail(field, f"an action of another seat than {seat}", code)
        if len(set(out)) != len(out):
            raise self.fail(field, "an action offered twice", code)
        return out

    def offers(self, value: object, field: str, code: str
               ) -> tuple[tuple[int, tuple[Action, ...]], ...]:
        out = []
        for k, item in enumerate(self.list_(value, field, code, 40)):
            where = f"{field}[{k}]"
            pair = self.list_(item, where, code, 2)
            if len(pair) != 2:
                raise self.fail(where, "expected [seat, [actions]]", code)
            s = self.seat(pair[0], f"{where}[0]", code)
            out.append((s, self.actions(pair[1], f"{where}[1]", code, s)))
        return tuple(out)

    def seats_list(self, value: object, field: str, code: str) -> tuple[int, ...]:
        return tuple(self.seat(s, f"{field}[{k}]", code)
                     for k, s in enumerate(self.list_(value, field, code, 16)))


def _seat_range(variant: Variant) -> range:
    return range(variant.players)


_SEAT_KEYS = frozenset({"hand", *_SEAT_DEFAULTS})


def _read_seat(r: _Reader, data: object, field: str) -> SeatState:
    code = "bad_position_seats"
    d = r.obj(data, field, _SEAT_KEYS, code, frozenset({"hand"}))
    hand = r.cards(d["hand"], f"{field}.hand", code, 40)
    values: dict[str, Any] = {"hand": counts_of(hand)}
    for name in _SEAT_DEFAULTS:
        if name not in d:
            continue
        value, where = d[name], f"{field}.{name}"
        if name == "melds":
            values[name] = r.melds(value, where, code)
        elif name == "discards":
            values[name] = tuple(r.cards(value, where, code, 100))
        elif name in _CARD_SETS:
            values[name] = frozenset(r.cards(value, where, code, 21))
        elif name == "chou_hu_marks":
            marks = []
            for k, item in enumerate(r.list_(value, where, code, 100)):
                pair = r.list_(item, f"{where}[{k}]", code, 2)
                if len(pair) != 2:
                    raise r.fail(f"{where}[{k}]", "expected [card, 胡息]", code)
                marks.append((r.card(pair[0], f"{where}[{k}][0]", code),
                              r.int_(pair[1], f"{where}[{k}][1]", code)))
            values[name] = tuple(marks)
        elif name in _OPTIONAL_CARDS:
            values[name] = r.card(value, where, code, optional=True)
        elif name == "own_chi":
            values[name] = tuple(r.int_(x, f"{where}[{k}]", code, 0, 39)
                                 for k, x in enumerate(r.list_(value, where, code, 40)))
        elif isinstance(_SEAT_DEFAULTS[name], bool):
            values[name] = r.bool_(value, where, code)
        else:
            values[name] = r.int_(value, where, code, 0, 10**6,
                                  optional=_SEAT_DEFAULTS[name] is None)
    return SeatState(**values)


_WINDOW_KEYS = frozenset({"seats", "offers", "asks", "forced", "answers"})
_PENDING_KEYS = frozenset({"card", "source", "by", "tier", "queue", "declined", "window"})


def _read_pending(r: _Reader, data: object) -> Pending:
    code, field = "bad_position_pending", "pending"
    d = r.obj(data, field, _PENDING_KEYS, code, frozenset({"card", "source", "by"}))
    window = None
    if d.get("window") is not None:
        w = r.obj(d["window"], "pending.window", _WINDOW_KEYS, code,
                  frozenset({"seats", "offers", "asks"}))
        answers = []
        for k, item in enumerate(r.list_(w.get("answers", []), "pending.window.answers", code,
                                         16)):
            where = f"pending.window.answers[{k}]"
            pair = r.list_(item, where, code, 2)
            if len(pair) != 2:
                raise r.fail(where, "expected [seat, action]", code)
            answers.append((r.seat(pair[0], f"{where}[0]", code),
                            r.action(pair[1], f"{where}[1]", code)))
        window = ClaimWindow(r.seats_list(w["seats"], "pending.window.seats", code),
                             r.offers(w["offers"], "pending.window.offers", code),
                             r.offers(w["asks"], "pending.window.asks", code),
                             r.seat(w.get("forced"), "pending.window.forced", code, True),
                             tuple(answers))
    return Pending(r.card(d["card"], "pending.card", code),
                   r.enum_(d["source"], "pending.source", code, Source),
                   r.seat(d["by"], "pending.by", code),
                   r.int_(d.get("tier", 0), "pending.tier", code, 0, 16),
                   r.offers(d.get("queue", []), "pending.queue", code),
                   r.seats_list(d.get("declined", []), "pending.declined", code), window)


_RESULT_KEYS = frozenset({"kind", "winner", "card", "source", "huxi", "labels", "discarder",
                          "flipped", "kings", "sitting_out", "dealer", "decomposition"})
_GROUP_KEYS = frozenset({"meld", "huxi", "place", "kings"})


def _read_decomposition(r: _Reader, data: object) -> Decomposition:
    code, field = "bad_position_result", "result.decomposition"
    d = r.obj(data, field, frozenset({"groups", "huxi", "leftover", "special"}), code,
              frozenset({"groups", "huxi"}))
    groups = []
    for k, item in enumerate(r.list_(d["groups"], f"{field}.groups", code, 40)):
        where = f"{field}.groups[{k}]"
        g = r.obj(item, where, _GROUP_KEYS, code, frozenset({"meld", "huxi", "place"}))
        meld = r.melds([g["meld"]], f"{where}.meld", code)[0]
        place = g["place"]
        if place not in ("hand", "table"):
            raise r.fail(f"{where}.place", "expected hand or table", code)
        groups.append(Group(meld, r.int_(g["huxi"], f"{where}.huxi", code, -1000, 1000),
                            place, tuple(r.cards(g.get("kings", ""), f"{where}.kings", code, 4))))
    special = d.get("special")
    if special is not None and (not isinstance(special, str) or len(special) > 40):
        raise r.fail(f"{field}.special", "expected a short name", code)
    return Decomposition(tuple(groups), r.int_(d["huxi"], f"{field}.huxi", code, -1000, 10**6),
                         tuple(r.cards(d.get("leftover", ""), f"{field}.leftover", code, 40)),
                         special)


def _read_result(r: _Reader, data: object) -> Result:
    code, f = "bad_position_result", "result"
    d = r.obj(data, f, _RESULT_KEYS, code, frozenset({"kind"}))
    labels = tuple(r.enum_(x, f"{f}.labels[{k}]", code, Label)
                   for k, x in enumerate(r.list_(d.get("labels", []), f"{f}.labels", code, 16)))
    kings = tuple(r.int_(x, f"{f}.kings[{k}]", code, 0, 8)
                  for k, x in enumerate(r.list_(d.get("kings", []), f"{f}.kings", code, 16)))
    deco = d.get("decomposition")
    return Result(r.enum_(d["kind"], f"{f}.kind", code, ResultKind),
                  r.seat(d.get("winner"), f"{f}.winner", code, True),
                  r.card(d.get("card"), f"{f}.card", code, True),
                  r.enum_(d.get("source"), f"{f}.source", code, Source, True),
                  r.int_(d.get("huxi", 0), f"{f}.huxi", code, -1000, 10**6),
                  None if deco is None else _read_decomposition(r, deco), labels,
                  r.seat(d.get("discarder"), f"{f}.discarder", code, True),
                  r.card(d.get("flipped"), f"{f}.flipped", code, True), kings,
                  r.bool_(d.get("sitting_out", False), f"{f}.sitting_out", code),
                  r.seat(d.get("dealer"), f"{f}.dealer", code, True))


_TOP_KEYS = frozenset({"variant", "dealer", "turn", "phase", "actor", "wall", "seats",
                       "options", "prompts", "pending", "result", "drawn", "windows"})


def _parse(text: object) -> Mapping[str, Any]:
    if not isinstance(text, str):
        raise PositionError(f"expected position text, got {type(text).__name__}",
                            code="bad_position")
    if len(text) > MAX_POSITION:
        raise PositionError(f"{len(text)} characters, more than {MAX_POSITION}",
                            code="position_too_long")
    head, _, body = text.strip().partition(" ")
    if head != POSITION_FORMAT:
        raise PositionError(f"does not start with {POSITION_FORMAT!r}", code="bad_position")
    if "\n" in body or "\r" in body:
        raise PositionError("a position is one line", code="bad_position")
    try:
        doc = loads_json(body)
        check_tree(doc, _LIMITS)
    except Refused as exc:
        raise PositionError(str(exc)[:200], code="bad_position") from None
    if not isinstance(doc, Mapping):
        raise PositionError("expected a JSON object after the format word",
                            code="bad_position")
    return doc


def position(variant: Variant, text: str) -> GameState:
    """The :class:`GameState` that ``text`` (a :meth:`GameState.to_position` line) writes,
    under ``variant`` (which must be the variant the position names), its ``plans``
    rebuilt. Raises :class:`PositionError` (see the module's documentation for the codes)."""
    if not isinstance(variant, Variant):
        raise PositionError(f"variant: expected a Variant, got {type(variant).__name__}",
                            "variant", code="position_variant")
    doc = _parse(text)
    r = _Reader(variant)
    d = r.obj(doc, "<position>", _TOP_KEYS, "bad_position",
              frozenset({"variant", "dealer", "phase", "wall", "seats"}))
    if d["variant"] != variant.id:
        raise PositionError(f"a position of {str(d['variant'])[:40]!r}, read under "
                            f"{variant.id!r}", "variant", code="position_variant")
    seats_data = r.list_(d["seats"], "seats", "bad_position_seats", 16)
    if len(seats_data) != r.n:
        raise PositionError(f"{len(seats_data)} seats; {variant.id} seats {r.n}", "seats",
                            code="bad_position_seats")
    seats = tuple(_read_seat(r, s, f"seats[{k}]") for k, s in enumerate(seats_data))
    turn_code = "bad_position_turn"
    phase = r.enum_(d["phase"], "phase", turn_code, Phase)
    actor = r.seat(d.get("actor"), "actor", turn_code, True)
    options = r.actions(d.get("options", []), "options", turn_code, actor)
    derive = "options" not in d and phase != Phase.OVER
    prompts = tuple(r.int_(x, f"prompts[{k}]", turn_code, 0, 10**6)
                    for k, x in enumerate(r.list_(d.get("prompts", []), "prompts", turn_code,
                                                  16)))
    pending = None if d.get("pending") is None else _read_pending(r, d["pending"])
    result = None if d.get("result") is None else _read_result(r, d["result"])
    state = GameState(variant, r.seat(d["dealer"], "dealer", "bad_position"), seats,
                      tuple(r.cards(d["wall"], "wall", code="bad_position_wall", limit=200)), phase,
                      actor, options, pending, result,
                      r.int_(d.get("turn", 0), "turn", turn_code, 0, 10**6), (),
                      r.card(d.get("drawn"), "drawn", turn_code, True),
                      r.bool_(d.get("windows", False), "windows", turn_code), prompts)
    if derive:  # the rules run on the cards only once the cards are checked
        _check(state, options=False)
        written = d.get("pending", {})
        state = _derive_options(state, "queue" not in written, "tier" not in written)
    _check(state)
    return attrs.evolve(state, plans=tuple(rebuild_plans(state).items()))


def _derive_options(state: GameState, queue: bool, tier: bool) -> GameState:
    """``state`` with the actor's options (and, ``queue``, the seats still to ask in the
    tier; ``tier``, the tier itself: the first with a claim, as the engine asks them)
    worked out by the engine's own rules, for a position written without them: the
    discards a hand allows, 胡 (and 过 unless forced) on one's own cards, or the claims of
    the card on offer in ``pending.tier``."""
    v, s, p = state.variant, state.actor, state.pending
    if s is None:
        raise PositionError("no actor to derive options for", "actor", code="bad_position_turn")
    if state.phase == Phase.DISCARD:
        return attrs.evolve(state, options=discard_options(v, s, state.seats[s].hand))
    if state.phase == Phase.HU_CHECK:
        hu = (Action(ActionKind.HU, s),)
        return attrs.evolve(state, options=hu if Source.SELF in v.win.forced_sources
                            else hu + (Action(ActionKind.PASS, s),))
    if p is None:
        raise PositionError("the respond phase needs a card on offer", "pending",
                            code="bad_position_pending")
    if p.window is not None:
        raise PositionError("options are derived only for a card on offer without a claim "
                            "window", "options", code="bad_position_turn")
    lianzhang = state.seats[p.by].lianzhang_offer is not None
    tiers = (("hu",),) if lianzhang else v.claims.priority
    if p.tier >= len(tiers):
        raise PositionError(f"tier {p.tier}: {v.id} has {len(tiers)}", "pending.tier",
                            code="bad_position_pending")
    ctx = state.win_context() if v.win.declined_must_be_beaten and not lianzhang else None
    cands = tier_options(v, state.seats, tiers[p.tier], p.card, p.source, p.by, ctx)
    while tier and not cands and p.tier + 1 < len(tiers):
        p = attrs.evolve(p, tier=p.tier + 1)
        cands = tier_options(v, state.seats, tiers[p.tier], p.card, p.source, p.by, ctx)
    at = next((k for k, (seat, _) in enumerate(cands) if seat == s), None)
    if at is None:
        raise PositionError(f"seat {s} has no claim on {token(p.card)} in tier {p.tier}",
                            "actor", code="bad_position_turn")
    if queue:
        p = attrs.evolve(p, queue=tuple(cands[at + 1:]))
    return attrs.evolve(state, options=cands[at][1], pending=p)


def _check(state: GameState, options: bool = True) -> None:
    """The consistency a position must have beyond its shape: the deck's cards, a phase that
    fits the actor, the result and the card on offer; the actor's options too unless
    ``options`` is false (a position whose options are still to be derived)."""
    v = state.variant
    turn = "bad_position_turn"
    if len(state.prompts) not in (0, len(state.seats)):
        raise PositionError(f"{len(state.prompts)} prompts for {len(state.seats)} seats",
                            "prompts", code=turn)
    over = state.phase == Phase.OVER
    if over != (state.result is not None):
        raise PositionError("a result exactly when the phase is over", "result",
                            code="bad_position_result")
    if over != (state.actor is None) or options and over == bool(state.options):
        raise PositionError("an actor with options exactly while the hand goes on", "actor",
                            code=turn)
    if state.drawn is not None and state.phase != Phase.HU_CHECK:
        raise PositionError("a drawn card only in the hu_check phase", "drawn", code=turn)
    if state.phase == Phase.RESPOND and state.pending is None:
        raise PositionError("the respond phase needs a card on offer", "pending",
                            code="bad_position_pending")
    if state.pending is not None and state.pending.window is not None and not state.windows:
        raise PositionError("a claim window in a game without windows", "pending.window",
                            code="bad_position_pending")
    for k, s in enumerate(state.seats):
        if any(n >= 4 for n in s.hand[:KING]):
            raise PositionError("four of a kind in a concealed hand (a 提 lies on the table)",
                                f"seats[{k}].hand", code="bad_position_seats")
        if s.held > v.resting_size(s.quads) + 1:
            raise PositionError(f"{s.held} cards held; at most {v.resting_size(s.quads) + 1}",
                                f"seats[{k}].hand", code="bad_position_seats")
    shown = [*state.wall, *(i for s in state.seats for i in s.discards),
             *(i for s in state.seats for m in s.melds for i in m.physical),
             *(() if state.pending is None else (state.pending.card,))]
    counts = [a + sum(s.hand[i] for s in state.seats) for i, a in enumerate(counts_of(shown))]
    for i, n in enumerate(counts):
        most = v.deck.kings if i == KING else v.deck.copies
        if n > most:
            raise PositionError(f"{n} copies of {token(i)}; the deck holds {most}", "seats",
                                code="bad_position_cards")
    want = v.deal.dealer_hand + v.deal.other_hand * (v.players - 1) + v.deal.wall
    if state.card_count() != want:
        raise PositionError(f"{state.card_count()} cards; {v.id} deals {want}", "seats",
                            code="bad_position_cards")


def _plan_of(state: GameState, action: Action) -> Plan | None:
    """What the offered ``action`` decided when the engine offered it, worked out again."""
    v, p = state.variant, state.pending
    seat = state.seats[action.seat]
    if action.kind == ActionKind.HU:
        if state.phase == Phase.HU_CHECK:  # one's own cards, or a kept draw
            return hu_allowed(v, seat, None if p is None else p.card, Source.SELF)
        if p is None:
            return None
        own = action.seat == p.by
        return hu_allowed(v, seat, p.card, Source.SELF if own else p.source)
    if action.kind == ActionKind.PAO and p is not None:
        return pao_source(v, seat, p.card, p.source, action.seat == p.by)
    return None


def rebuild_plans(state: GameState) -> dict[Action, Plan]:
    """``state.plans`` worked out again from the rest of the state: for each 胡 and 跑 on
    offer (the actor's, the queued seats', every seat's in an open claim window) what it
    decided (every seat's cards are as they were when it was offered). Raises
    :class:`PositionError` (``bad_position_turn``) for a 胡 or 跑 offered
    where the seat's cards allow none. A hand that is over has none."""
    if state.phase == Phase.OVER:
        return {}
    offered: list[Action] = list(state.options)
    p = state.pending
    if p is not None:
        offered += [a for _, opts in p.queue for a in opts]
        if p.window is not None:
            offered += [a for _, opts in p.window.offers for a in opts]
    plans: dict[Action, Plan] = {}
    for a in offered:
        if a.kind in (ActionKind.HU, ActionKind.PAO) and a not in plans:
            plan = _plan_of(state, a)
            if plan is None:
                raise PositionError(f"{a} is offered but the seat's cards allow none",
                                    "options", code="bad_position_turn")
            plans[a] = plan
    return plans


__all__ = ["MAX_POSITION", "POSITION_FORMAT", "PositionError", "position", "rebuild_plans",
           "to_position"]
