"""Built-in players for simulations and demos: a random legal player and a simple greedy one.

A bot is any callable ``(state, options) -> Action`` choosing one of ``options``
(:data:`zipai_rules.play.Bot`); :func:`zipai_rules.play.play_out` lets bots play a hand out.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import cast

from .analysis import encode, searcher
from .engine.actions import Action, ActionKind
from .engine.state import GameState
from .errors import ZipaiError
from .play import Bot, play_out
from .variant import Variant

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "leftover_measure", "make_bots", "play_out",
           "seat_bot_names"]


class RandomBot:
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: GameState, options: Sequence[Action]) -> Action:
        return self.rng.choice(list(options))


_RANK = {ActionKind.HU: 0, ActionKind.PAO: 1, ActionKind.PENG: 2, ActionKind.CHI: 3,
         ActionKind.PASS: 4}


#: one card of each kind as a search pool (:func:`~zipai_rules.analysis.encode`)
_UNIT = tuple(encode([int(i == j) for j in range(20)]) for i in range(20))
_BITS = _UNIT[1].bit_length() - 1   # bits of one kind's field in a pool
_GUARD = encode([1 << (_BITS - 1)] * 20)  # the top bit of every field
_FIELD = (1 << _BITS) - 1
#: bounds of the leftover measures kept: memo entries per variant (50,000 are about 5 MB),
#: and variants
MEMO_LIMIT = 50_000
MEASURE_LIMIT = 8


class _Leftover:
    """What GreedyBot reads of the best partial cover of a pool, ``searcher(v).best(x, jiang,
    partial=True)``: its 胡息 and how many cards it leaves out, worked out by the same search
    in the same order (so the same cover on ties) without building its melds.

    :meth:`measure` gives ``huxi << 8 | leftover`` (胡息 values are never negative, so every
    cover is worth at least 0 and one always exists); the memo is emptied past
    :data:`MEMO_LIMIT` entries."""

    def __init__(self, variant: Variant) -> None:
        search = searcher(variant)
        self.cands = [tuple((d, h) for d, h, _ in cs) for cs in search.cands]
        self.pairs = [(d, h) for d, h, _ in search.pairs]
        # what the search tries first at a pool's lowest card, in its order: the melds
        # starting there, then its pair (as ``(delta, 胡息, pairs used)``)
        self.moves = [tuple((d, h, 0) for d, h in self.cands[i]) + (self.pairs[i] + (1,),)
                      for i in range(20)]
        # the melds and pairs worth 胡息 whose lowest card is ``low`` or above: what a pool
        # whose lowest card is ``low`` may still score (:meth:`_bound`)
        self.worth = [tuple((d, h) for j in range(low, 20) for d, h in self.cands[j] if h)
                      for low in range(20)]
        self.worth_pairs = [tuple((d, h) for d, h in self.pairs[low:] if h) for low in range(20)]
        # every meld holding each kind (as pool deltas)
        self.holding = [tuple(d for cs in self.cands for d, _ in cs if (d >> (_BITS * i)) & _FIELD)
                        for i in range(20)]
        self.memo: dict[int, int] = {}

    def alone(self, x: int) -> int:
        """The single cards of pool ``x`` that no meld of ``x`` holds (as a pool). Every cover
        of ``x``, and of any pool within it that holds them, leaves them out, and the search
        meets them only to leave them out: it finds the same cover without them, so the
        measure of such a pool is that of the pool without them, each one more card out."""
        out = 0
        guarded = x | _GUARD
        for i in range(20):
            if (x >> (_BITS * i)) & _FIELD == 1 and all(
                    (guarded - d) & _GUARD != _GUARD for d in self.holding[i]):
                out += _UNIT[i]
        return out

    def measure(self, x: int, jiang: int) -> int:
        """``huxi << 8 | leftover`` of pool ``x`` with at most ``jiang`` (0–7) pairs."""
        memo = self.memo
        if len(memo) > MEMO_LIMIT or not memo:
            memo.clear()
            memo.update(dict.fromkeys(range(8), 0))  # the empty pool, any pairs allowed
        found = memo.get(x << 3 | jiang)
        if found is None:
            found = self._solve(x, jiang)
        return found

    def _bound(self, x: int, jiang: int, low: int) -> int:
        """The most 胡息 any cover of pool ``x`` (lowest card ``low``) may score: each meld
        and pair worth 胡息 counted as often as it fits alone."""
        bound = 0
        guarded = x | _GUARD
        for delta, huxi in self.worth[low]:
            y = guarded - delta
            while y & _GUARD == _GUARD:
                bound += huxi
                y -= delta
        if jiang:
            for delta, huxi in self.worth_pairs[low]:
                y, n = guarded - delta, 0
                while y & _GUARD == _GUARD and n < jiang:
                    bound += huxi
                    y, n = y - delta, n + 1
        return bound

    def _solve(self, x: int, jiang: int) -> int:
        """:meth:`measure` of a pool not in the memo, kept there. A choice is tried only
        while the best so far is under :meth:`_bound`: the search keeps the first best, so
        a choice that can only tie changes nothing."""
        memo = self.memo
        low = ((x & -x).bit_length() - 1) // _BITS
        bound = self._bound(x, jiang, low)
        if not bound:
            return self._first(x, jiang)
        res = res_h = -1
        guarded = x | _GUARD
        for delta, huxi, pairs in self.moves[low]:
            y = guarded - delta
            if pairs <= jiang and y & _GUARD == _GUARD:
                y ^= _GUARD
                sub = memo.get(y << 3 | jiang - pairs)
                if sub is None:
                    sub = self._solve(y, jiang - pairs)
                if (sub >> 8) + huxi > res_h:
                    res_h = (sub >> 8) + huxi
                    res = res_h << 8 | (sub & 255)
                    if res_h >= bound:
                        memo[x << 3 | jiang] = res
                        return res
        y = x - _UNIT[low]
        sub = memo.get(y << 3 | jiang)
        if sub is None:
            sub = self._solve(y, jiang)
        if sub >> 8 > res_h:
            res = sub + 1  # the low card left out
        memo[x << 3 | jiang] = res
        return res

    def _first(self, x: int, jiang: int) -> int:
        """:meth:`_solve` of a pool no cover of which is worth 胡息: every step takes the
        first thing the search tries (a meld, else the pair, else leaving the card out),
        which wins every tie; each pool on the way is kept in the memo."""
        memo = self.memo
        path: list[tuple[int, int]] = []  # (memo key, cards left out before it)
        left = 0
        while True:
            key = x << 3 | jiang
            found = memo.get(key)
            if found is not None:
                break
            path.append((key, left))
            low = ((x & -x).bit_length() - 1) // _BITS
            guarded = x | _GUARD
            for delta, _, pairs in self.moves[low]:
                y = guarded - delta
                if pairs <= jiang and y & _GUARD == _GUARD:
                    x, jiang = y ^ _GUARD, jiang - pairs
                    break
            else:
                x -= _UNIT[low]
                left += 1
        for k, before in path:
            memo[k] = found + left - before
        return found + left - path[0][1]


_MEASURES: dict[str, _Leftover] = {}


def leftover_measure(variant: Variant) -> None:
    """Build GreedyBot's discard measure of ``variant`` now (kept for the process)."""
    _leftover(variant)


def _leftover(variant: Variant) -> _Leftover:
    key = variant.content_hash or variant.id
    m = _MEASURES.get(key)
    if m is None:
        m = _MEASURES[key] = _Leftover(variant)
        while len(_MEASURES) > MEASURE_LIMIT:  # the variant measured first goes
            del _MEASURES[next(iter(_MEASURES))]
    return m


class GreedyBot:
    """Always wins when it can, takes 跑/碰 and the 吃 plan worth the most 胡息, and discards
    the card whose loss keeps the most of the hand in partial melds (ties: the highest card).
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: GameState, options: Sequence[Action]) -> Action:
        opts = list(options)
        if opts[0].kind == ActionKind.DISCARD:
            return self._discard(state, opts)
        v = state.variant
        def value(a: Action) -> tuple[int, int]:
            gain = sum(v.meld_huxi(m) for m in a.melds) if a.kind == ActionKind.CHI else 0
            return (_RANK[a.kind], -gain)
        best = min(opts, key=value)
        if best.kind == ActionKind.CHI and not any(
                v.meld_huxi(m) for m in best.melds) and self.rng.random() < 0.5:
            return next((o for o in opts if o.kind == ActionKind.PASS), best)
        return best

    def _discard(self, state: GameState, opts: list[Action]) -> Action:
        hand = state.seats[state.acting_seat].hand
        leftover = _leftover(state.variant)
        # the pool of the concealed cards a discard may leave in melds: every 坎 stays whole
        # (and the 王 out of the search); the pool after each discard is this one minus a card,
        # measured without the single cards no meld can hold (:meth:`_Leftover.alone`)
        x = encode([n if n < 3 else 0 for n in hand[:20]])
        alone = leftover.alone(x)
        n_alone = bin(alone).count("1")
        chosen, chosen_key = opts[0], (0, 0, 0)
        for k, a in enumerate(opts):
            c = cast(int, a.card)  # every discard names its card
            out = n_alone
            if c >= 20:
                y = x - alone  # the 王 is not in the pool
            elif alone & _UNIT[c]:
                y, out = x - alone, n_alone - 1
            elif hand[c] < 3:
                y = x - _UNIT[c] - alone
            else:  # a card of a 坎 (where the variant lets one be discarded): it is broken
                y = x + (hand[c] - 1) * _UNIT[c] - alone
            found = leftover.measure(y, 1)  # cards the best cover leaves out, then its 胡息
            key = ((found & 255) + out, -(found >> 8), -c)
            if k == 0 or key < chosen_key:
                chosen, chosen_key = a, key
        return chosen


BOTS: dict[str, Callable[[int | None], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bots(names: Sequence[str], seed: int | None, players: int) -> list[Bot]:
    """One bot per seat from a list of names (``random``, ``greedy``), repeated to fill the
    table; each seeded from ``seed`` and its seat."""
    names = [n.strip().lower() for n in names]
    unknown = [n for n in names if n not in BOTS]
    if not names or unknown:
        raise ZipaiError(f"unknown bot name {unknown[0] if unknown else ''!r}; known: "
                         + ", ".join(BOTS), code="unknown_bot")
    if len(names) > players:
        raise ZipaiError(f"{len(names)} bots named for {players} players", code="unknown_bot")
    base = 0 if seed is None else seed
    return [BOTS[names[s % len(names)]](base * 31 + s) for s in range(players)]


def seat_bot_names(names: Sequence[str], players: int) -> list[str]:
    """The bot name of each seat, as :func:`make_bots` assigns them (repeated to fill the
    table)."""
    names = [n.strip().lower() for n in names]
    return [names[s % len(names)] for s in range(players)]
