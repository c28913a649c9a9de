"""A settlement oracle: the payments of a finished hand read again from the variant's scoring
data, sharing no code with ``settlement.py``, ``mingtang.py``, ``worth.py`` or the scoring
methods of :class:`~zipai_rules.variant.Variant` (see :mod:`zipai_rules.testing`).

It reads the variant's normalised mapping (its YAML with the schema's defaults,
:func:`~zipai_rules.variant.normalise`) and the hand's result (the winner, the winning split's
groups, labels, source, discarder, flipped card, 王 held) as docs/settlement.md and
docs/variants.md word the keys, each step written out plainly:

1. 胡息: each group of the winning split valued from ``huxi`` (``[small, big]`` per meld kind,
   by the cards it holds, a 王 as the card it stands for, plus every ``huxi.extra`` entry it
   fits); a 无胡 win (``win.special: [wu_hu]``) counts 21.
2. What applies: the ``scoring.bonuses`` by label (``unless`` excluding), then the 名堂
   patterns whose conditions hold (labels; the facts ``red``, ``black``, ``small``, ``big``,
   ``kings``, ``huxi``, ``groups``, ``sequences``, ``sets``, ``melds_<kind>``,
   ``winning_kind`` of the split, a group fact through its ``where`` filter, a 王 counted by
   ``mingtang.kings``), of one ``group`` the first listed. Then ``set_huxi`` (the first that
   sets), ``add_huxi`` and ``per`` 胡息, the ``multiply_huxi`` multiplier,
   ``conversion.count_as`` once, the conversion (``fixed``; a ``table`` with ``then_per``;
   ``(胡息 − offset) // step + base``; at least ``minimum``), the ``multiply_units``
   multiplier (a product, or under ``stack: sum`` the sum of the 番, 1 when none),
   ``add_units`` and ``per`` units, at most ``conversion.maximum``, plus 醒 (``xing.per_card``
   per 上醒 and 下醒 card of the split, the flipped card's neighbours of its case, 一 ↔ 十
   wrapping: 004_4a6d8adec4e0ba73.txt 第四条10 "这牌的上一就是上醒，下一就是下醒").
3. Who pays (``scoring.payment``): each loser its share (``max_units`` capping it), or the
   discarder for all (004 第六条3 "就要负担两个输家的币") or ``discarder_pays`` times alone,
   capped by ``discarder_max``; a 自摸 or another's draw nobody pays (``winner_only``,
   credited per loser or ``once``); ``discard_bonus``; the seat out's mirror; instant 提
   payments from the hand's ``ti`` events; on 荒庄 the 王 penalty (000 "一张王霸赔付赌注5倍")
   and the dealer's charge.

What it refuses (:class:`OracleRefusal`, code ``oracle_refuses``), each named in the message:
a capped multiplier (``mingtang.max_multiplier``), the facts ``hand_cards`` and
``hand_groups``, a ``per.add_multiplier`` (no preset has them), and a special win other than
无胡 whose conversion is not ``fixed`` (碰胡's 2 提蛇 and 小七对 score one point whatever their
胡息, so those are covered). :func:`covers` tells beforehand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from numbers import Real
from typing import Any, NamedTuple

from ..arguments import items_of, of_type
from ..cards import KING
from ..engine.actions import Event, EventKind
from ..engine.game import Game
from ..engine.state import Result
from ..errors import ZipaiError
from ..variant import Variant, VariantLike, as_variant, normalise
from .strategies import StrategyArgumentError

#: the 胡息 a 无胡 win counts (docs/settlement.md "A fixed-value shape": 0 胡息, no pair, no
#: leftover wins as 21 胡息)
WU_HU_HUXI = 21


class OracleRefusal(ZipaiError):
    """A hand whose scoring the oracle does not model (code ``oracle_refuses``): the message
    names the scoring shape."""

    code = "oracle_refuses"


class ExpectedSettlement(NamedTuple):
    """What a finished hand pays by the oracle's reading: ``huxi`` (the split's 胡息 after the
    bonus multipliers), ``units`` (each loser's units before ``payment.max_units``, 醒
    included), ``payments`` per player (a tuple of ints), ``sitting_out`` (the units the seat
    out gains) and ``credited`` (units credited without a payer less those charged without
    a payee), so that ``sum(payments) + sitting_out == credited``."""

    huxi: int
    units: int
    payments: tuple[int, ...]
    sitting_out: int = 0
    credited: int = 0


def _scoring(v: Variant) -> tuple[dict[str, Any], dict[str, Any]]:
    doc = normalise(v.doc)
    return doc, doc["scoring"]


#: the 名堂 facts the oracle counts (docs/variants.md "名堂: hand patterns as data")
FACTS = frozenset({"red", "black", "small", "big", "kings", "huxi", "groups", "sequences",
                   "sets", "winning_kind"})
_SETS = frozenset({"kan", "peng", "wei", "chou_wei", "ti", "pao"})
_SEQUENCES = frozenset({"shun", "jiao", "yi_er_san", "er_qi_shi"})
_RED_RANKS = (2, 7, 10)


def _conditions(pattern: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    when = pattern.get("when", [])
    return list(when) if isinstance(when, list) else [when]


def refusal(variant: VariantLike) -> str | None:
    """Why the oracle refuses every hand of ``variant`` (a text), or ``None`` when it models
    its scoring (a hand may still be refused: a special win's 胡息, a 王 in a split whose
    size is counted)."""
    _, sc = _scoring(as_variant(variant))
    mt = sc.get("mingtang") or {}
    if mt.get("max_multiplier"):
        return "a capped multiplier (scoring.mingtang.max_multiplier)"
    for k, pattern in enumerate(mt.get("patterns") or ()):
        for cond in _conditions(pattern):
            fact = cond.get("fact")
            if fact is not None and not (fact in FACTS or fact.startswith("melds_")):
                return f"the 名堂 fact {fact} (scoring.mingtang.patterns[{k}])"
        per = pattern.get("per") or {}
        if per.get("add_multiplier") or (per and per.get("fact") not in FACTS):
            return f"the 名堂 per effect of scoring.mingtang.patterns[{k}]"
    return None


def covers(variant: VariantLike) -> bool:
    """Whether the oracle models the scoring of ``variant``'s hands (:func:`refusal`)."""
    return refusal(variant) is None


def _rank(card: int) -> int:
    return card % 10 + 1


def _group_huxi(doc: Mapping[str, Any], kind: str, cards: Sequence[int]) -> int:
    """A group's 胡息 from the ``huxi`` table: ``[small, big]`` by the size of its cards, plus
    each ``extra`` entry whose kinds, ranks and size it fits."""
    table = doc["huxi"]
    small, big = table.get(kind, [0, 0])
    is_big = all(c >= 10 for c in cards)
    value = int(big if is_big else small)
    for extra in table.get("extra", ()):
        if kind not in extra.get("kind", ()):
            continue
        ranks = extra.get("ranks")
        if ranks and not all(_rank(c) in ranks for c in cards):
            continue
        size = extra.get("cards")
        if size == "big" and not is_big or size == "small" and any(c >= 10 for c in cards):
            continue
        value += int(extra.get("add", 0))
    return value


def _split_huxi(doc: Mapping[str, Any], r: Result) -> int:
    dec = r.decomposition
    if dec is None:
        return 0
    if dec.special == "wu_hu":
        return WU_HU_HUXI
    # a group's cards hold the card each 王 stands for: it scores as the meld it imitates
    return sum(_group_huxi(doc, g.meld.kind.value, g.meld.cards) for g in dec.groups)


def _facts(sc: Mapping[str, Any], r: Result, huxi: int) -> dict[str, int]:
    """The 名堂 facts of the winning split (hand plus table at the win): cards by colour and
    size (a 王 by ``mingtang.kings``: as the card it stands for, ``red``, ``black`` or
    ``neither``), 王, groups by kind, the winning card's kind, the split's 胡息."""
    mode = (sc.get("mingtang") or {}).get("kings", "as_stood_for")
    dec = r.decomposition
    groups = dec.groups if dec is not None else ()
    cards: list[int] = []  # a group's cards hold the card each 王 stands for (Group.kings)
    real: list[int] = []   # the same without those stand-ins
    for g in groups:
        cards += g.meld.cards
        mine = list(g.meld.cards)
        for c in g.kings:
            mine.remove(c)
        real += mine
    left = list(dec.leftover) if dec is not None else []
    cards += left
    real += [c for c in left if c != KING]
    kings = len(cards) - len(real)
    if mode == "as_stood_for":
        real = [c for c in cards if c != KING]
    red = sum(1 for c in real if _rank(c) in _RED_RANKS)
    black = len(real) - red
    if mode != "as_stood_for":
        red, black = red + (kings if mode == "red" else 0), black + (kings if mode == "black"
                                                                   else 0)
    out = {"red": red, "black": black,
           "small": sum(1 for c in real if c < 10), "big": sum(1 for c in real if c >= 10),
           "kings": kings, "huxi": huxi, "groups": len(groups),
           "sequences": sum(1 for g in groups if g.meld.kind.value in _SEQUENCES),
           "sets": sum(1 for g in groups if g.meld.kind.value in _SETS),
           "winning_kind": cards.count(r.card) if r.card is not None else 0}
    for g in groups:
        key = "melds_" + g.meld.kind.value
        out[key] = out.get(key, 0) + 1
    return out


def _group_kind(fact: str, kind: str) -> bool:
    """Whether a group of ``kind`` counts in the group fact ``fact``."""
    if fact == "sequences":
        return kind in _SEQUENCES
    if fact == "sets":
        return kind in _SETS
    return fact == "groups" or fact == "melds_" + kind


def _passes(where: Mapping[str, Any], g: Any, mode: str) -> bool:
    """A group through a ``where`` filter (docs/settlement.md "Group facts with where"):
    ``kind``, ``color`` (``red`` every card red, ``black`` none, ``mixed`` neither, or a 王
    of no colour), ``size``, ``cards`` (``small``/``big``: every card so)."""
    cards = list(g.meld.cards)
    if "kind" in where and g.meld.kind.value not in where["kind"]:
        return False
    if "size" in where and len(cards) != where["size"]:
        return False
    if where.get("cards") == "small" and any(c >= 10 for c in cards) or \
            where.get("cards") == "big" and any(c < 10 for c in cards):
        return False
    if "color" in where:
        real = list(cards)
        if mode != "as_stood_for":
            for c in g.kings:
                real.remove(c)
        kings = len(cards) - len(real)
        red = sum(1 for c in real if _rank(c) in _RED_RANKS) + (kings if mode == "red" else 0)
        black = len(real) - red + (kings if mode == "black" else 0)
        color = "red" if red == len(cards) else "black" if black == len(cards) else "mixed"
        return bool(color == where["color"])
    return True


def _holds(cond: Mapping[str, Any], facts: Mapping[str, int], labels: set[str],
           r: Result | None = None, mode: str = "as_stood_for") -> bool:
    if "label" in cond:
        return bool(cond["label"] in labels)
    value = facts.get(cond["fact"], 0)
    if "where" in cond and r is not None and r.decomposition is not None:
        value = sum(1 for g in r.decomposition.groups
                    if _group_kind(cond["fact"], g.meld.kind.value)
                    and _passes(cond["where"], g, mode))
    return bool(value >= cond.get("at_least", value) and value <= cond.get("at_most", value)
            and value == cond.get("equals", value))


def _applying(sc: Mapping[str, Any], facts: Mapping[str, int], labels: set[str], r: Result
              ) -> list[Mapping[str, Any]]:
    """The bonuses (each a pattern whose condition is its label) and then the 名堂 patterns
    that apply, in order: of the patterns of one ``group``, the first listed that holds."""
    out: list[Mapping[str, Any]] = [
        b for b in sc.get("bonuses", ())
        if b["label"] in labels and not labels & set(b.get("unless", ()))]
    taken: set[str] = set()
    for pattern in (sc.get("mingtang") or {}).get("patterns") or ():
        if labels & set(pattern.get("unless", ())) or pattern.get("group") in taken:
            continue
        mode = (sc.get("mingtang") or {}).get("kings", "as_stood_for")
        if all(_holds(c, facts, labels, r, mode) for c in _conditions(pattern)):
            out.append(pattern)
            if pattern.get("group"):
                taken.add(pattern["group"])
    return out


def _per(effect: Mapping[str, Any], facts: Mapping[str, int], what: str) -> int:
    per = effect.get("per") or {}
    if not per.get(what):
        return 0
    return int(per[what]) * max(0, facts.get(per["fact"], 0) - int(per.get("above", 0)))


def _multiplier(factors: list[int], summed: bool) -> int:
    """The stacked multiplier: the product of ``factors``, or under ``stack: sum`` their sum
    (番 added up; the factors of 1, patterns that multiply nothing, left out; none: 1)."""
    if summed:
        return sum(f for f in factors if f != 1) or 1
    out = 1
    for f in factors:
        out *= f
    return out


def _units(sc: Mapping[str, Any], r: Result, split: int, labels: set[str]) -> tuple[int, int]:
    """(胡息 after the effects, units before 醒) of a win whose split counts ``split`` 胡息:
    ``set_huxi`` (the first that sets), ``add_huxi`` and ``per`` 胡息, the ``multiply_huxi``
    product, ``count_as`` once, the conversion, the ``multiply_units`` product, ``add_units``
    and ``per`` units, at most ``conversion.maximum``."""
    facts = _facts(sc, r, split)
    effects = _applying(sc, facts, labels, r)
    huxi = next((e["set_huxi"] for e in effects if e.get("set_huxi") is not None), split)
    huxi += sum(e.get("add_huxi", 0) + _per(e, facts, "add_huxi") for e in effects)
    summed = (sc.get("mingtang") or {}).get("stack") == "sum"
    huxi *= _multiplier([e.get("multiply_huxi", 1) for e in effects], summed)
    conv = sc["conversion"]
    counted = next((b for a, b in conv.get("count_as", ()) if a == huxi), huxi)
    units = _convert(conv, counted)
    units *= _multiplier([e.get("multiply_units", 1) for e in effects], summed)
    units += sum(e.get("add_units", 0) + _per(e, facts, "add_units") for e in effects)
    if conv.get("maximum"):
        units = min(units, int(conv["maximum"]))
    return huxi, units


def _convert(conv: Mapping[str, Any], huxi: int) -> int:
    """The conversion of docs/settlement.md, read from its keys."""
    if conv.get("fixed") is not None:
        units = int(conv["fixed"])
    elif conv.get("table"):
        units = int(conv.get("minimum", 0))
        rows = conv["table"]
        reached = [row for row in rows if huxi >= row[0]]
        if reached:
            at, units = reached[-1]
            if conv.get("then_per") and reached[-1] == rows[-1]:
                units += (huxi - at) // conv["then_per"]
            units = max(units, int(conv.get("minimum", 0)))
    else:
        units = max(int(conv["minimum"]),
                    (huxi - conv["offset"]) // conv["step"] + conv["base"])
    return units


def _xing(per: int, r: Result) -> int:
    """醒: ``per`` units for each card of the winner's split next to the flipped card."""
    if not per or r.flipped is None or r.flipped == KING or r.decomposition is None:
        return 0
    case, rank = (10 if r.flipped >= 10 else 0), _rank(r.flipped)
    up, down = case + (rank - 2) % 10, case + rank % 10
    held = [c for g in r.decomposition.groups for c in g.meld.cards]
    held += list(r.decomposition.leftover)
    return per * (held.count(up) + held.count(down))


def _ti(pay: Mapping[str, Any], n: int, events: Sequence[Event], out: list[int]) -> None:
    big, small = pay["ti"].get("big", 0), pay["ti"].get("small", 0)
    for e in events:
        if e.kind != EventKind.TI or e.seat is None or e.card is None:
            continue
        amount = big if e.card >= 10 else small
        for s in range(n):
            out[s] += amount * (n - 1) if s == e.seat else -amount


def _huangzhuang(sc: Mapping[str, Any], n: int, r: Result, events: Sequence[Event]
                 ) -> ExpectedSettlement:
    out = [0] * n
    per = sc["huangzhuang"].get("king_penalty", 0)
    kings = list(r.kings) or [0] * n
    for s in range(n):
        for t in range(n):
            if kings[s] and not kings[t]:
                out[s] -= per * kings[s]
                out[t] += per * kings[s]
    due = sc["huangzhuang"].get("dealer_pays", 0)
    if due:
        if r.dealer is None:
            raise OracleRefusal("a 荒庄 with a dealer charge and no dealer in the result")
        out[r.dealer] -= due
    _ti(sc["payment"], n, events, out)
    return ExpectedSettlement(0, 0, tuple(out), 0, -due)


def settlement_oracle(hand: Game | VariantLike, result: Result | None = None,
                      events: Sequence[Event] = ()) -> ExpectedSettlement:
    """The oracle's settlement of a finished hand: ``settlement_oracle(game)`` for a finished
    :class:`~zipai_rules.engine.Game` (its result and events), or ``settlement_oracle(variant,
    result, events=())`` for a result of your own. Returns :class:`ExpectedSettlement`.

    Raises :class:`OracleRefusal` (code ``oracle_refuses``) for scoring it does not model
    (module docstring; :func:`covers`), :class:`~zipai_rules.errors.ZipaiError` code
    ``hand_not_over`` for a hand without a result."""
    if isinstance(hand, Game):
        return settlement_oracle(hand.variant, hand.state.result, hand.events)
    v = as_variant(hand)
    if result is None:
        raise ZipaiError("the hand is not over", code="hand_not_over")
    of_type(result, Result, "result", "a Result (game.state.result)")
    events = items_of(events, Event, "events", "an Event")
    why = refusal(v)
    if why:
        raise OracleRefusal(f"{v.id}: the settlement oracle does not model {why}")
    doc, sc = _scoring(v)
    n, pay = v.players, sc["payment"]
    r = result
    if r.kind == "huangzhuang":
        return _huangzhuang(sc, n, r, events)
    special = r.decomposition.special if r.decomposition is not None else None
    if special not in (None, "wu_hu") and sc["conversion"].get("fixed") is None:
        raise OracleRefusal(f"{v.id}: the settlement oracle does not model the 胡息 of the "
                            f"special win {special}")
    labels = {str(x) for x in r.labels}
    huxi, units = _units(sc, r, _split_huxi(doc, r), labels)
    units += _xing(sc["xing"]["per_card"], r)
    winner = r.winner if r.winner is not None else 0
    losers = [s for s in range(n) if s != winner]
    share = min(units, pay["max_units"]) if pay.get("max_units") else units
    out = [0] * n
    credited = 0
    discarder = r.discarder if str(r.source) == "discard" else None
    if ("zimo" in labels and pay.get("zimo") == "winner_only") or (
            str(r.source) == "draw" and pay.get("draw") == "winner_only"):
        gain = share if pay.get("credit") == "once" else share * len(losers)
        out[winner] += gain
        credited = gain
    elif discarder is not None and pay["discard_win"] == "discarder_pays_all":
        amount = share * (pay.get("discarder_pays") or len(losers))
        if pay.get("discarder_max"):
            amount = min(amount, pay["discarder_max"])
        out[discarder] -= amount
        out[winner] += amount
        bonus = pay.get("discard_bonus", {})
        others = [s for s in losers if s != discarder]
        if bonus.get("units") and bonus.get("at_cap") == "others_pay" and others \
                and pay.get("discarder_max") and amount == pay["discarder_max"]:
            for s in others:
                out[s] -= bonus["units"]
                out[winner] += bonus["units"]
        elif bonus.get("units"):
            out[winner] += bonus["units"]
            credited = bonus["units"]
    else:
        for s in losers:
            out[s] -= share
            out[winner] += share
        if discarder is not None and pay.get("discard_bonus", {}).get("units"):
            out[winner] += pay["discard_bonus"]["units"]
            credited = pay["discard_bonus"]["units"]
    sitting = 0
    if r.sitting_out and pay.get("sitting_out") == "mirror":
        for s in losers:
            out[s] -= share
        sitting = share * len(losers)
    _ti(pay, n, events, out)
    return ExpectedSettlement(huxi, units, tuple(out), sitting, credited)


def settlement_problems(game: Game, payments: Callable[[Game], Any] | None = None
                        ) -> list[str]:
    """Your payment code against the oracle on one finished ``game``: ``payments(game)``
    returns the payments per player (a sequence of ints) or an object with ``payments`` (and
    optionally ``units``, ``sitting_out``, ``credited``, as
    :class:`~zipai_rules.settlement.Settlement` has); default: the library's own
    :func:`~zipai_rules.settlement.settle`. Returns one line per disagreement (empty when
    they agree, or when the oracle refuses the hand: check :func:`covers` to know); payments
    that are no list of numbers are one such line, and a payment agrees only when it equals
    the oracle's (2.5 is not 2). Raises what ``payments`` raises, and
    :class:`~zipai_rules.testing.strategies.StrategyArgumentError` for a ``payments`` that is
    not callable."""
    if payments is not None and not callable(payments):
        raise StrategyArgumentError(f"payments is a function payments(game) or None, not "
                                    f"{payments!r:.40}")
    try:
        want = settlement_oracle(game)
    except OracleRefusal:
        return []
    if payments is None:
        from ..settlement import settle  # the product under test, only when it is the one
        payments = settle
    got: Any = payments(game)
    problems = []
    paid: Any = getattr(got, "payments", got)
    numbers = not isinstance(paid, (str, bytes, bytearray, Mapping)) and isinstance(
        paid, Iterable)
    if numbers:
        paid = list(paid)
        numbers = all(isinstance(x, Real) and not isinstance(x, bool) for x in paid)
    if not numbers:
        problems.append(f"payments {paid!r:.60} are not a list of numbers; the oracle's "
                        f"{list(want.payments)}")
    elif len(paid) != len(want.payments) or any(x != y for x, y in zip(paid, want.payments,
                                                                          strict=False)):
        problems.append(f"payments {list(paid)}, the oracle's {list(want.payments)}")
    for name in ("units", "sitting_out", "credited"):
        if hasattr(got, name) and getattr(got, name) != getattr(want, name):
            problems.append(f"{name} {getattr(got, name)}, the oracle's {getattr(want, name)}")
    if problems:
        r = game.state.result
        problems.append(f"(hand: {game.variant.id} seed {game.seed}, {len(game.actions)} "
                        f"actions; result {r.to_json() if r is not None else None})")
    return problems


__all__ = ["ExpectedSettlement", "OracleRefusal", "covers", "refusal", "settlement_oracle",
           "settlement_problems"]
