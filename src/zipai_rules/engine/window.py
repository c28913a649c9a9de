"""Claim windows: every seat answers an exposed card at once, and the variant's priority
decides.

A real table shows every seat its buttons (胡, 碰, 吃, 过) together, with one timer, and
resolves by priority: 胡 before 跑/碰 before 吃 (``claims.priority``, "当有人胡牌时，不胡才能
碰或吃，当有碰牌时，不碰才能吃", ``001_5964eea38dea0018.txt``), within a tier in turn order
from the seat that exposed the card ("如果是其他两家要胡牌，则下家优先可以胡",
``003_5cd7634dfd57d897.txt``).

In a game of claim windows (``Game(..., windows=True)``) every exposed card opens one
:class:`~zipai_rules.engine.state.ClaimWindow` (:func:`open_window`), whether or not anybody
may claim it: every seat but the discarder (every seat for a card shown from the wall) answers
once, from its own options, so that no seat learns from the window whether another seat could
claim. The answers are resolved (:func:`decided`) as the one-seat-at-a-time engine resolves
them: the asks in priority order, each seat's answer standing for each of its asks (its claim
where the ask offers it, else ``pass``): the same declines, 臭 marks, 臭胡 and forced 跑 as
when the seats are asked one at a time and answer the same.

When the outcome is known depends only on what is public: a 胡 ends the window once every seat
before its winner in turn order has answered (none of them can outrank it); any other claim,
and the card left unclaimed, once every seat of the window has answered. So the moment a
window closes tells nobody who could claim. A host that closes a window at a deadline answers
for every seat that did not with :func:`default_answer`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..variant import Variant
from .actions import Action, ActionKind
from .claims import forced_pao, tier_plans
from .state import ClaimWindow, Pending, Plan, SeatState, WinContext

#: the enum members read here, bound once (docs/benchmarks.md, "Enum members bound once")
_ACTION_HU: Final = ActionKind.HU
_ACTION_PASS: Final = ActionKind.PASS


def window_seats(n: int, p: Pending) -> tuple[int, ...]:
    """The seats that answer the window on ``p``, in turn order from the exposer: every seat
    for a card shown from the wall, every seat but the discarder for a discard (and for the
    dealer's 亮张 offered for 地胡)."""
    skip = 0 if p.source == "draw" else 1
    return tuple((p.by + k) % n for k in range(skip, n))


def open_window(variant: Variant, seats: Sequence[SeatState], p: Pending, tiers: Sequence[
        tuple[str, ...]], ctx: WinContext | None) -> tuple[ClaimWindow, dict[Action, Plan]]:
    """The window on the card of ``p``: the asks of every claim tier of ``tiers`` (the
    variant's ``claims.priority``; ``("hu",)`` alone for the 亮张), found by
    :func:`~zipai_rules.engine.claims.tier_plans` on the seats as they are now, up to a
    forced 跑 (:func:`~zipai_rules.engine.claims.forced_pao`), each seat's options, and what
    each offered 胡 and 跑 decided."""
    asks: list[tuple[int, tuple[Action, ...]]] = []
    offered: list[tuple[int, tuple[Action, ...]]] = []  # every seat's claims, all tiers
    plans: dict[Action, Plan] = {}
    forced = None
    for kinds in tiers:
        cands, found = tier_plans(variant, tuple(seats), kinds, p.card, p.source, p.by, ctx)
        plans.update(found)
        if forced is None:
            pao = forced_pao(variant, cands, found)
            if pao is None:
                asks.extend(cands)
            else:  # the asks end here; the 跑 is no choice of its seat's
                forced = pao[0]
                cands = [(s, opts) for s, opts in cands if s != forced]
        # a seat is offered its claims of the tiers past a forced 跑 too: what it may
        # claim is its own to see, and leaving them out would tell it that another seat
        # holds three of the card (the 跑 taken once the window closes outranks them)
        offered.extend(cands)
    members = window_seats(len(seats), p)
    offers = tuple((s, _offer(s, offered)) for s in members)
    return ClaimWindow(members, offers, tuple(asks), forced), plans


def _offer(seat: int, asks: Sequence[tuple[int, tuple[Action, ...]]]) -> tuple[Action, ...]:
    """One seat's options in the window: its claims of every ask in priority order and one
    ``pass``; up to its first ask that may not be passed (a forced 胡), which it must take."""
    out: list[Action] = []
    for s, options in asks:
        if s != seat:
            continue
        out.extend(o for o in options if o.kind != _ACTION_PASS and o not in out)
        if not any(o.kind == _ACTION_PASS for o in options):
            return tuple(out)
    return (*out, Action(_ACTION_PASS, seat))


def ask_answer(window: ClaimWindow, seat: int, options: tuple[Action, ...]) -> Action:
    """The answer ``seat`` gave to the window, for one of its asks (``options``): its claim
    where the ask offers it, else ``pass``. Raises ``RuntimeError`` for a seat that has not
    answered or an ask it has no answer for (an engine bug: the window was decided)."""
    answer = window.answer(seat)
    if answer is None:
        raise RuntimeError(f"internal error: seat {seat} has not answered the window")
    if answer in options:
        return answer
    passed = Action(_ACTION_PASS, seat)
    if passed not in options:
        raise RuntimeError(f"internal error: seat {seat}'s answer {answer} fits no ask")
    return passed


def decided(window: ClaimWindow) -> bool:
    """Whether the answers given decide the window: walking the asks in priority order,
    every ask up to the first claim taken is answered, and every seat that the claim's
    taker must publicly wait for has answered (a 胡: the seats before the winner in turn
    order; any other claim, a forced 跑 and no claim at all: every seat of the window)."""
    everyone = not window.awaiting
    for s, options in window.asks:
        answer = window.answer(s)
        if answer is None:
            return False
        if answer in options and answer.kind != _ACTION_PASS:
            if answer.kind != _ACTION_HU:
                return everyone
            before = window.seats[:window.seats.index(s)]
            return all(window.answer(x) is not None for x in before)
    return everyone


def default_answer(options: Sequence[Action]) -> Action:
    """What a seat that did not answer by the deadline answers: ``pass`` where it may pass,
    else the one claim it must take (a forced 胡, 有胡必胡)."""
    return next((o for o in options if o.kind == _ACTION_PASS), options[0])
