"""Settlement: a finished hand's score, explained line by line, and the payments.

Units: 胡息 for meld values; the variant's score unit (囤, 舵, …) after conversion. Every line
carries the variant's own word for what it counts. Payments are per player (game seat) and,
with a seat sitting out (数醒), for that seat too; they sum to zero, but for the payments of
湘乡 (billee1011/repository XiangXiangHHTable.process_chi_hu_player_score_phz): a win nobody
pays (``scoring.payment.zimo`` / ``draw: winner_only``, credited ``per_loser`` or ``once``), a
discard win's ``discard_bonus`` credited without a payer, and the 荒庄 charge of the dealer
(``scoring.huangzhuang.dealer_pays``, PHZHandlerDispatchCard_XiangXiang.exe): the settlement
then says so (``zero_sum`` false, ``credited`` the units no seat paid less those no seat
received).

Rules (each cited in the variant files under ``scoring``): the 胡息 → unit conversion
(Guilin "10－14胡为1舵，15-19胡为2舵", ``004_4a6d8adec4e0ba73.txt`` 第七条二)); bonuses by result
label (Guilin 自摸/天胡/地胡 +1 舵; Shaoyang 天胡/地胡 "胡数*以2", 自摸 +1 囤); Guilin 醒
(第四条10); who pays (点炮 "就要负担两个输家的币", 第六条3); Yongzhou's 黄庄 penalty per 王霸.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from .cards import KING, format_cards, is_big, rank_of, token
from .engine.actions import Event, EventKind
from .engine.game import Game
from .engine.state import GameState, Result
from .errors import ZipaiError
from .variant import Conversion, Variant, VariantLike, as_variant
from .vocab import Label, ResultKind, Source


@attrs.frozen(slots=True)
class Line:
    """One explained item: ``item`` (canonical: ``meld``, ``huxi``, ``huxi_set``,
    ``huxi_bonus``, ``multiplier``, ``conversion``, ``unit_multiplier``, ``bonus``, ``cap``
    (a cap that decides: ``max_multiplier``, ``conversion.maximum``, ``payment.max_units``,
    ``payment.discarder_max``; value what remains), ``xing``, ``payment``),
    ``term`` (the variant's word), ``text`` and its ``value`` (胡息 for melds, totals and
    ``huxi_bonus``; units otherwise)."""

    item: str
    term: str
    text: str
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"item": self.item, "term": self.term, "text": self.text, "value": self.value}


@attrs.frozen(slots=True)
class Settlement:
    """The score of one hand: the winner (or ``None`` on 荒庄), the winning 胡息 after
    multipliers, the ``units`` won from each paying loser (before ``payment.max_units`` caps
    a share), the explained ``lines``, and the
    ``payments`` per player plus ``sitting_out``, the units gained by a seat out of the hand
    (0 when none; a record's header ``sitting_out`` is the flag whether a seat sat out), and
    ``credited``: units credited to the winner that no seat paid (``payment.zimo`` /
    ``draw: winner_only``, ``payment.discard_bonus``) less units charged that no seat
    received (``huangzhuang.dealer_pays``: negative on such a 荒庄), so that
    ``sum(payments) + sitting_out == credited``; 0 when the hand is zero-sum."""

    variant_id: str
    winner: int | None
    huxi: int
    units: int
    unit: str
    lines: tuple[Line, ...]
    payments: tuple[int, ...]
    sitting_out: int = 0
    credited: int = 0

    @property
    def zero_sum(self) -> bool:
        """Whether the payments (the seat sitting out included) sum to zero."""
        return self.credited == 0

    def to_json(self) -> dict[str, Any]:
        """The settlement as JSON; a hand that is not zero-sum adds ``"zero_sum": false`` and
        ``credited``."""
        out = {"winner": self.winner, "huxi": self.huxi, "units": self.units,
               "unit": self.unit, "lines": [x.to_json() for x in self.lines],
               "payments": list(self.payments), "sitting_out": self.sitting_out}
        if self.credited:
            out |= {"zero_sum": False, "credited": self.credited}
        return out

    def _repr_html_(self) -> str:
        """The itemised lines and payments as an HTML table (:mod:`zipai_rules.svg`)."""
        from .drawing import settlement_table  # the drawing only when drawn
        return settlement_table(self.variant_id, self.winner, self.huxi, self.units, self.unit,
                                [(x.item, x.term, x.text, x.value) for x in self.lines])


def formula(conversion: Conversion, huxi: int) -> str:
    """The 胡息 → unit conversion of ``huxi`` written out without its no-op parts:
    ``(18 − 12) // 3`` for Hunan, ``14 // 5 − 1`` for Guilin, ``, at least 1`` where the
    minimum decides."""
    c = conversion
    if c.table:
        return _table_formula(c, huxi)
    text = f"({huxi} − {c.offset})" if c.offset else str(huxi)
    if c.step != 1:
        text += f" // {c.step}"
    if c.base:
        text += f" {'−' if c.base < 0 else '+'} {abs(c.base)}"
    if (huxi - c.offset) // c.step + c.base < c.minimum:
        text += f", at least {c.minimum}"
    return text


def _table_formula(c: Conversion, huxi: int) -> str:
    """``table 16 → 2``; past the last row ``table 21 → 3 + (24 − 21) // 3``; under the
    minimum ``…, at least 1``."""
    reached = [row for row in c.table if row[0] <= huxi]
    if not reached:
        return f"below the table, at least {c.minimum}"
    at, units = reached[-1]
    text = f"table {at} → {units}"
    if c.then_per is not None and reached[-1] == c.table[-1] and huxi > at:
        text += f" + ({huxi} − {at}) // {c.then_per}"
    if c.table_units(huxi) < c.minimum:
        text += f", at least {c.minimum}"
    return text


#: line items whose text only words what the variant and the line's value already fix (the
#: conversion formula, the 醒 count and units)
REWORDED = frozenset({"conversion", "xing"})


def comparable(settlement: Mapping[str, Any]) -> dict[str, Any]:
    """A settlement's JSON (:meth:`Settlement.to_json`) without the text of its
    :data:`REWORDED` lines: what a replay compares, so that a record written before those
    lines were reworded still replays. Every number, item and term, and every other line's
    text (a meld's cards, who pays), stays."""
    lines = settlement.get("lines")
    if not isinstance(lines, list):
        return dict(settlement)
    return {**settlement, "lines": [
        {k: v for k, v in line.items() if k != "text"}
        if isinstance(line, dict) and line.get("item") in REWORDED else line for line in lines]}


def xing_cards(flipped: int) -> tuple[int, int] | None:
    """The 上醒 and 下醒 cards for a flipped wall card: rank − 1 and rank + 1 of the same
    case, wrapping 一 ↔ 十 (digest G6); ``None`` for a 王."""
    if flipped == KING:
        return None
    base = 10 if is_big(flipped) else 0
    r = rank_of(flipped)
    up = base + (r - 2) % 10
    down = base + r % 10
    return up, down


def _sits(played: Result, given: object, has_sitting_out: bool | None) -> bool:
    """Whether a seat sat out the hand settled: as given (``has_sitting_out``, or the older
    positional ``settle(state, True)``), else as the engine's result ``played`` says."""
    if has_sitting_out is not None:
        return has_sitting_out
    return played.sitting_out if given is None else bool(given)


def settle(variant: VariantLike | GameState | Game, result: Result | bool | None = None,
           has_sitting_out: bool | None = None, *, events: Sequence[Event] = ()
           ) -> Settlement:
    """Settle a finished hand: ``settle(variant, result)``, a pure function of the variant (a
    :class:`~zipai_rules.variant.Variant` or a name, as :func:`~zipai_rules.variant.as_variant`
    takes it) and the hand's :class:`~zipai_rules.engine.state.Result` (its winner, source,
    discarder, flipped card, 王 held per seat, labels, and whether a seat sat out).

    ``settle(game)`` and ``settle(state)`` settle the result of a finished
    :class:`~zipai_rules.engine.game.Game` or :class:`~zipai_rules.engine.state.GameState`,
    with ``sitting_out`` as given (``settle(state, True)``); by default as the hand had it
    (the engine's result says whether a seat sat out: where the variant seats more than play,
    数醒), so that ``game_record(game, settle(game))`` replays.

    ``events``: the hand's events (:attr:`Game.events <zipai_rules.engine.game.Game.events>`,
    passed by ``settle(game)`` itself), read only for a variant with instant 提 payments
    (``scoring.payment.ti``): each ``ti`` event adds its payment to ``payments``, win or 荒庄.

    Raises :class:`~zipai_rules.errors.ZipaiError` (code ``hand_not_over``) when there is no
    result: the hand is not over; code ``bad_argument`` for a ``result`` that is neither a
    :class:`~zipai_rules.engine.state.Result` nor ``None``.
    """
    if isinstance(variant, Game):
        game = variant
        if game.state.result is None:
            raise ZipaiError("the hand is not over", code="hand_not_over")
        sits = _sits(game.state.result, result, has_sitting_out)
        return settle(game.variant, attrs.evolve(game.state.result, sitting_out=sits),
                      events=game.events)
    if isinstance(variant, GameState):  # the older form: settle(state, has_sitting_out)
        state = variant
        if state.result is None:
            raise ZipaiError("the hand is not over", code="hand_not_over")
        sits = _sits(state.result, result, has_sitting_out)
        ti = state.variant.scoring.payment.ti
        if ti.big or ti.small:
            raise ZipaiError(f"settle: {state.variant.name} pays each 提 at once "
                             "(scoring.payment.ti), which a GameState does not record: settle "
                             "the Game, or pass events=game.events", code="bad_argument")
        return settle(state.variant, attrs.evolve(state.result, sitting_out=sits))
    v = as_variant(variant)
    if result is None:
        raise ZipaiError("the hand is not over", code="hand_not_over")
    if not isinstance(result, Result):
        raise ZipaiError(f"settle: result must be a Result, got {type(result).__name__} "
                         f"{result!r:.60}", code="bad_argument")
    r = result
    _check_result(v, r)
    sc = v.scoring
    n = v.players
    unit_word = v.term(sc.unit)
    if r.kind == ResultKind.HUANGZHUANG:
        return _huangzhuang(v, r, events)
    lines: list[Line] = []
    dec = r.decomposition
    if dec is not None:
        for g in dec.groups:
            lines.append(Line("meld", v.term(g.meld.kind.value),
                              f"{g.meld} ({g.place})", g.huxi))
    huxi = r.huxi
    lines.append(Line("huxi", v.term("huxi"), f"total {huxi}", huxi))
    worth = sc.value(r, v.term)
    lines += [Line(x.item, x.term, x.text, x.value) for x in worth.huxi_steps]
    huxi, counted = worth.huxi, worth.counted
    how = "per win" if sc.conversion.fixed is not None else (
        formula(sc.conversion, counted) if sc.unit != "huxi" else "胡息")
    text = f"{huxi} {v.term('huxi')}" + (f" counts as {counted}" if counted != huxi else "")
    lines.append(Line("conversion", unit_word,
                      f"{text} → {worth.converted} {unit_word} [{how}]", worth.converted))
    lines += [Line(x.item, x.term, x.text, x.value) for x in worth.unit_steps]
    units = worth.units
    if sc.xing.per_card and r.flipped is not None:
        units += _xing(v, r, r.flipped, lines)
    payments = [0] * n
    winner = r.winner if r.winner is not None else 0
    losers = [s for s in range(n) if s != winner]
    discarder = r.discarder if r.source == Source.DISCARD else None
    pay = sc.payment
    share = pay.share(units)
    if share < units:
        lines.append(Line("cap", v.term("fengding"), f"each loser's share {units} capped at "
                          f"{share}", share))
    gain = share * len(losers)
    credited = 0
    paid = 0  # what a discarder paying alone pays
    if pay.uncharged(r.labels, r.source):
        once = pay.credit == "once"
        gain = share if once else gain
        credited = gain
        term = v.term("zimo") if Label.ZIMO in r.labels else unit_word
        how = "once" if once else f"{share} per loser"
        lines.append(Line("payment", term, f"seat {winner} is credited {gain} ({how}) and "
                          "nobody is charged: not zero-sum", 0))
    elif discarder is not None and pay.discard_win == "discarder_pays_all":
        times = pay.discarder_pays
        gain = share * (len(losers) if times is None else times)
        alone = "for all losers" if times is None else f"alone, {times} × {share}"
        if pay.discarder_max and gain > pay.discarder_max:
            lines.append(Line("cap", v.term("fengding"), f"the discarder's {gain} capped at "
                              f"{pay.discarder_max}", pay.discarder_max))
            gain, alone = pay.discarder_max, "at most"
        paid = gain
        payments[discarder] -= gain
        lines.append(Line("payment", v.term("dianpao"), f"seat {discarder} pays {gain} {alone}",
                          -gain))
    else:
        for s in losers:
            payments[s] -= share
            lines.append(Line("payment", unit_word, f"seat {s} pays {share}", -share))
    if discarder is not None and pay.discard_bonus.units:
        gain, unpaid = _discard_bonus(v, (winner, discarder), gain, paid, payments, lines)
        credited += unpaid
    payments[winner] += gain
    sitting = 0
    if r.sitting_out and pay.sitting_out == "mirror":
        extra = share
        for s in losers:
            payments[s] -= extra
        sitting = extra * len(losers)
        lines.append(Line("payment", v.term("sit_out"), f"the seat sitting out gains {sitting}, "
                          f"each loser paying {extra}", sitting))
    lines.append(Line("payment", unit_word, f"seat {winner} gains {gain}", gain))
    _ti_payments(v, events, payments, lines)
    return Settlement(v.id, winner, huxi, units, sc.unit, tuple(lines), tuple(payments), sitting,
                      credited)


def _discard_bonus(v: Variant, seats: tuple[int, int], gain: int, paid: int,
                   payments: list[int], lines: list[Line]) -> tuple[int, int]:
    """``scoring.payment.discard_bonus`` on a discard win (``seats``: the winner and the
    discarder) whose winner is to ``gain`` what the losers paid: the winner's gain with the
    bonus, and the units of it no seat paid. With
    ``at_cap: others_pay`` and the discarder paying ``discarder_max`` (``paid``), each loser
    other than the discarder pays the bonus (湘乡: 100 + 10 from the third seat); else the
    bonus is credited without a payer (湘乡: the winner gains 10 more than the discarder
    pays)."""
    pay = v.scoring.payment
    bonus = pay.discard_bonus.units
    winner, discarder = seats
    others = [s for s in range(v.players) if s not in (winner, discarder)]
    if pay.discard_bonus.at_cap == "others_pay" and others and pay.discarder_max \
            and paid == pay.discarder_max:
        for s in others:
            payments[s] -= bonus
            lines.append(Line("payment", v.term("fengding"), f"seat {s} pays {bonus} more: the "
                              f"discarder pays the cap {paid}", -bonus))
        return gain + bonus * len(others), 0
    lines.append(Line("payment", v.term("dianpao"), f"seat {winner} gains {bonus} more than is "
                      "paid, from nobody: not zero-sum", bonus))
    return gain + bonus, bonus


def _check_result(v: Variant, r: Result) -> None:
    """Refuse (``bad_argument``) a :class:`Result` whose fields no hand of ``v`` can end with:
    a result built by hand rather than by the engine."""
    def bad(what: str) -> None:
        raise ZipaiError(f"settle: result {what}", code="bad_argument")

    def seat(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < v.players

    if not isinstance(r.kind, str) or r.kind not in set(ResultKind):
        bad(f"kind {r.kind!r} is not one of {', '.join(k.value for k in ResultKind)}")
    if r.dealer is not None and not seat(r.dealer):
        bad(f"dealer {r.dealer!r} is not a seat 0..{v.players - 1} (or None)")
    if r.kind == ResultKind.HUANGZHUANG:
        return
    if not seat(r.winner):
        bad(f"winner {r.winner!r} is not a seat 0..{v.players - 1}")
    if r.card is not None and not (type(r.card) is int and 0 <= r.card <= KING):
        bad(f"card {r.card!r} is not a card index 0..{KING} (or None)")
    if r.source is not None and (not isinstance(r.source, str)
                                 or r.source not in set(Source)):
        bad(f"source {r.source!r} is not one of {', '.join(x.value for x in Source)}")
    if type(r.huxi) is not int or r.huxi < 0:
        bad(f"huxi {r.huxi!r} is not a whole number of 胡息 ≥ 0")
    if r.discarder is not None and (not seat(r.discarder) or r.discarder == r.winner):
        bad(f"discarder {r.discarder!r} is not a seat other than the winner")


def _xing(v: Variant, r: Result, flipped: int, lines: list[Line]) -> int:
    """醒: units for the winner's cards next to the ``flipped`` wall card (上醒/下醒)."""
    pair = xing_cards(flipped)
    if pair is None:
        return 0
    dec = r.decomposition
    if dec is None:
        return 0
    held = [i for g in dec.groups for i in g.meld.cards] + list(dec.leftover)
    up, down = pair
    n_up, n_down = held.count(up), held.count(down)
    per = v.scoring.xing.per_card
    unit = v.term(v.scoring.unit)
    lines.append(Line("xing", v.term("shang_xing"), f"flipped {token(flipped)}: 上醒 {token(up)} "
                      f"× {n_up}: +{n_up * per} {unit}", n_up * per))
    lines.append(Line("xing", v.term("xia_xing"), f"flipped {token(flipped)}: 下醒 {token(down)} "
                      f"× {n_down}: +{n_down * per} {unit}", n_down * per))
    return (n_up + n_down) * per


def _ti_payments(v: Variant, events: Sequence[Event], payments: list[int],
                 lines: list[Line]) -> None:
    """Instant 提 payments (``scoring.payment.ti``): for each ``ti`` event, dealt ones included,
    each other player pays the seat ``big`` or ``small`` units at once; one line per 提."""
    each = v.scoring.payment.ti
    if not each.big and not each.small:
        return
    n = v.players
    for e in events:
        if e.kind != EventKind.TI or e.seat is None or e.card is None:
            continue
        amount = each.big if is_big(e.card) else each.small
        if not amount:
            continue
        for t in range(n):
            payments[t] += amount * (n - 1) if t == e.seat else -amount
        lines.append(Line("payment", v.term("ti"), f"seat {e.seat} {v.term('ti')} "
                          f"{token(e.card)}: each other player pays {amount}", amount * (n - 1)))


def _huangzhuang(v: Variant, r: Result, events: Sequence[Event] = ()) -> Settlement:
    n = v.players
    payments = [0] * n
    lines = [Line("huangzhuang", v.term("huangzhuang"), "the wall is empty and nobody won", 0)]
    per = v.scoring.huangzhuang.king_penalty
    if per:
        kings = r.kings or (0,) * n
        for s in range(n):
            if not kings[s]:
                continue
            for t in range(n):
                if kings[t]:
                    continue
                amount = per * kings[s]
                payments[s] -= amount
                payments[t] += amount
                lines.append(Line("payment", v.term("king"), f"seat {s} holds {kings[s]} "
                                  f"{format_cards([KING] * kings[s])}: pays seat {t} {amount}",
                                  amount))
    due = v.scoring.huangzhuang.dealer_pays
    if due:
        if r.dealer is None:
            raise ZipaiError(f"settle: {v.name} charges the dealer on a 荒庄 "
                             "(scoring.huangzhuang.dealer_pays) and the result names no dealer",
                             code="bad_argument")
        payments[r.dealer] -= due
        lines.append(Line("payment", v.term("huangzhuang"), f"seat {r.dealer} (the dealer) "
                          f"pays {due} to nobody: not zero-sum", -due))
    _ti_payments(v, events, payments, lines)
    return Settlement(v.id, None, 0, 0, v.scoring.unit, tuple(lines), tuple(payments),
                      credited=-due)
