"""Built-in players for simulations and demos: a random legal player and a simple greedy one.

A bot is any callable ``(state, options) -> Action`` choosing one of ``options``
(:data:`zipai_rules.play.Bot`); :func:`zipai_rules.play.play_out` lets bots play a hand out.

The compiled build compiles this module (:data:`zipai_rules.native.MODULES`): its public
functions take their arguments as any value and check them themselves, so that a wrong one is
a :class:`~zipai_rules.errors.ZipaiError` there too, not the ``TypeError`` of a compiled
function's declared parameter types. (Compiled, the bots' classes are native classes: a bot
of one's own is any callable, not a subclass of them.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from operator import getitem
from typing import Final

from .analysis import encode, searcher
from .arguments import int_arg, items_of
from .engine.actions import Action, ActionKind
from .engine.seeds import check_seed
from .engine.state import GameState
from .errors import ZipaiError
from .play import Bot, play_out
from .variant import Variant

#: the enum members read here, bound once (docs/benchmarks.md, "Enum members bound once")
_ACTION_CHI: Final = ActionKind.CHI
_ACTION_DISCARD: Final = ActionKind.DISCARD
_ACTION_HU: Final = ActionKind.HU
_ACTION_PAO: Final = ActionKind.PAO
_ACTION_PASS: Final = ActionKind.PASS
_ACTION_PENG: Final = ActionKind.PENG

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "check_bot_name", "leftover_measure",
           "make_bots", "play_out", "seat_bot_names"]


class RandomBot:
    """Chooses uniformly among the legal actions, from its own seeded generator (``seed``:
    any seed :class:`random.Random` takes)."""

    def __init__(self, seed: object = None) -> None:
        self.rng = random.Random(seed)  # type: ignore[arg-type]  # Random checks it

    def __call__(self, state: GameState, options: Sequence[Action]) -> Action:
        return self.choose(state.variant, state.seats[state.acting_seat].hand, options)

    def choose(self, variant: Variant, hand: Sequence[int], options: Sequence[Action]
               ) -> Action:
        """A uniform choice among ``options`` (``variant`` and ``hand``, the acting seat's 21
        counts, are not used: the signature of :meth:`GreedyBot.choose`)."""
        return self.rng.choice(list(options))


_RANK = {_ACTION_HU: 0, _ACTION_PAO: 1, _ACTION_PENG: 2, _ACTION_CHI: 3,
         _ACTION_PASS: 4}


#: one card of each kind as a search pool (:func:`~zipai_rules.analysis.encode`)
_UNIT = tuple(encode([int(i == j) for j in range(20)]) for i in range(20))
_BITS = _UNIT[1].bit_length() - 1   # bits of one kind's field in a pool
_GUARD = encode([1 << (_BITS - 1)] * 20)  # the top bit of every field
_FIELD = (1 << _BITS) - 1
_ONES = encode([1] * 20)  # the lowest bit of every field
_TWOS = _ONES << 1  # the middle bit of every field
#: what a count of each kind in a hand adds to the pool GreedyBot measures: none for a 坎 or a
#: 提 (they stay whole), ``n`` cards of the kind otherwise
_KEPT = tuple((0, u, 2 * u, 0, 0) for u in _UNIT)
#: bounds of the leftover measures kept: memo entries per variant (50,000 are about 5 MB),
#: and variants
MEMO_LIMIT = 50_000
MEASURE_LIMIT = 8
#: the kinds where GreedyBot's walk looks its pool up in the memo (:meth:`_Leftover._walk`):
#: the first big card, where the pool left is of big cards alone and often met again
_STOPS = (10,)
_NEXT_STOP = [min((s for s in _STOPS if s > low), default=99) for low in range(20)]
#: the bits of a memo entry that hold the measure (``huxi << 8 | leftover``; 胡息 under 2**16)
_MEASURED = (1 << 24) - 1


#: one kind's choices at its lowest card in :class:`_Leftover`: ``(delta, 胡息, pairs used,
#: whether it may change the most 胡息 of the rest)`` each
_Choices = tuple[tuple[int, int, int, bool], ...]


def _over_two(x: int) -> int:
    """Not 0 where pool (or meld delta) ``x`` holds some kind three times or more."""
    return (x & x >> 1 | x >> 2) & _ONES


def _worth_mask(choices: Sequence[Sequence[tuple[int, int]]]) -> int:
    """The pool fields of the kinds held by the ``(delta, 胡息)`` choices worth 胡息."""
    return sum(_FIELD * _UNIT[i] for i in range(20) if any(
        h and (d >> (_BITS * i)) & _FIELD for cs in choices for d, h in cs))


def _fewest_left(x: int, jiang: int) -> int:
    """A floor on the cards any cover of pool ``x`` with at most ``jiang`` pairs leaves out,
    from the pool's number of cards ``n`` alone: a cover with ``p`` pairs leaves out ``n - 2p``
    cards modulo 3."""
    n = (x & _ONES).bit_count() + 2 * (x & _TWOS).bit_count()
    if jiang == 0:
        return n % 3
    return 1 if jiang == 1 and n % 3 == 1 else 0


class _Leftover:
    """What GreedyBot reads of the best partial cover of a pool, ``searcher(v).best(x, jiang,
    partial=True)``: its 胡息 and how many cards it leaves out, worked out as the same search
    finds them (the first best cover in its order) without building its melds.

    The search takes, at a pool's lowest card, the first of its melds, then its pair, then
    leaving the card out, that leads to the most 胡息 of the pool, and goes on from there.
    The most 胡息 of a pool is that of its melds and pairs worth 胡息 alone (the others only
    fill it), worked out on the pool's cards of those kinds (:meth:`most`, kept in
    :attr:`most_memo`): so the search walks one path, down the first choice that keeps the
    most, instead of trying each.

    :meth:`measure` gives ``huxi << 8 | leftover`` (胡息 values are never negative, so every
    cover is worth at least 0 and one always exists). The memo keeps with it, from bit 24 up,
    the kinds the cover leaves cards of out (a bit each; GreedyBot reads a discard of such a
    card from it). Each memo is emptied past :data:`MEMO_LIMIT` entries."""

    def __init__(self, variant: Variant) -> None:
        search = searcher(variant)
        cands = [tuple((d, h) for d, h, _ in cs) for cs in search.cands]
        pairs = [(d, h) for d, h, _ in search.pairs]
        #: whether a pair may be worth 胡息 (then the most 胡息 depends on the pairs allowed)
        self.pair_worth = any(h for _, h in pairs)
        #: the pool fields of the kinds in a meld or pair worth 胡息
        self.mask = _worth_mask([*cands, pairs])
        #: the same for a pool holding each kind at most twice, as GreedyBot's do: a meld of
        #: three cards of a kind (a 坎 the search may split, ``win.split_kan``) fits none, so
        #: only the kinds of the others count (in 郴州 the mask would hold every kind)
        self.mask_two = _worth_mask([[(d, h) for d, h in cs if not _over_two(d)]
                                     for cs in [*cands, pairs]])
        # what the search tries at a pool's lowest card, in its order, as ``(delta, 胡息,
        # pairs used, whether it may change the most 胡息 of the rest)``: the melds starting
        # there, then its pair; ``melds`` is the same without the pair, for a pool with no
        # pair left to take; each for a pool of any counts and (``_two``) for one of at most 2
        self.melds, self.moves = self._choices(cands, pairs, self.mask)
        self.melds_two, self.moves_two = self._choices(cands, pairs, self.mask_two)
        # the melds and pairs worth 胡息 whose lowest card is each kind
        self.worth = [tuple((d, h) for d, h in cands[i] if h) for i in range(20)]
        self.worth_pairs = [tuple((d, h) for d, h in pairs[i:i + 1] if h) for i in range(20)]
        # each meld shape as ``(the lowest bit of each kind's field where it may start, its
        # places as (bits from its lowest kind, cards there), its places as one card each)``
        starts: dict[int, int] = {}
        for i in range(20):
            for d, _ in cands[i]:
                starts[d >> (_BITS * i)] = starts.get(d >> (_BITS * i), 0) | _UNIT[i]
        self.shapes = [(at, tuple((_BITS * j, (shape >> (_BITS * j)) & _FIELD)
                                  for j in range(20) if (shape >> (_BITS * j)) & _FIELD),
                        (shape | shape >> 1) & _ONES)
                       for shape, at in starts.items()]
        self.memo: dict[int, int] = {}
        self.most_memo: dict[int, int] = {}

    def _choices(self, cands: list[tuple[tuple[int, int], ...]], pairs: list[tuple[int, int]],
                 mask: int) -> tuple[list[_Choices], list[_Choices]]:
        """(melds, moves) of :meth:`__init__`, each choice marked as may change the most 胡息
        where it holds a kind of ``mask``."""
        melds = [tuple((d, h, 0, bool(d & mask)) for d, h in cands[i]) for i in range(20)]
        moves = [melds[i] + ((pairs[i][0], pairs[i][1], 1,
                              self.pair_worth or bool(pairs[i][0] & mask)),)
                 for i in range(20)]
        return melds, moves

    def mask_for(self, x: int) -> int:
        """:attr:`mask_two` for a pool ``x`` holding each kind at most twice, :attr:`mask`
        else: the pool cut to it holds all that its :meth:`most` depends on."""
        return self.mask if _over_two(x) else self.mask_two

    def alone(self, x: int) -> int:
        """The single cards of pool ``x`` that no meld of ``x`` holds (as a pool). Every cover
        of ``x``, and of any pool within it that holds them, leaves them out, and the search
        meets them only to leave them out: it finds the same cover without them, so the
        measure of such a pool is that of the pool without them, each one more card out.

        Worked out for all kinds at once: for each meld shape, the kinds where it fits are
        those (of the kinds where it may start) with enough cards at each of its places; times
        the shape's places (a bit each) they mark every kind such a meld holds (each field
        then counts the places of the shape that land on it, at most 3, so no field carries
        into the next)."""
        ones = _ONES
        # the lowest bit of each kind's field where it holds at least 1, 2, 3 cards
        at_least = (0, (x | x >> 1) & ones, x >> 1 & ones, x & x >> 1 & ones)
        held = 0  # each kind's field not 0 where a meld of ``x`` holds it
        for starts, needs, places in self.shapes:
            fits = starts
            for shift, n in needs:
                fits &= at_least[n] >> shift
            held |= fits * places
        return x & ~(x >> 1) & ones & ~(held | held >> 1)  # kinds holding exactly 1, not held

    def measure(self, x: int, jiang: int) -> int:
        """``huxi << 8 | leftover`` of pool ``x`` with at most ``jiang`` (0–7) pairs."""
        found = self.memo_for_use().get(x << 3 | jiang)
        if found is None:
            found = self._walk(x, jiang, self.most(x & self.mask_for(x), jiang))
        return found & _MEASURED

    def memo_for_use(self) -> dict[int, int]:
        """The memo of measures, emptied first if past :data:`MEMO_LIMIT` entries (it then
        holds the empty pool's)."""
        memo = self.memo
        if len(memo) > MEMO_LIMIT or not memo:
            memo.clear()
            memo.update(dict.fromkeys(range(8), 0))  # the empty pool, any pairs allowed
        return memo

    def most(self, x: int, jiang: int) -> int:
        """The most 胡息 of any partial cover of pool ``x`` with at most ``jiang`` pairs, for
        a pool holding only cards of :attr:`mask` (cut a pool to it first)."""
        memo = self.most_memo
        key = x << 3 | jiang if self.pair_worth else x
        found = memo.get(key)
        if found is not None:
            return found
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        found = 0
        if x:
            low = ((x & -x).bit_length() - 1) // _BITS
            found = self.most(x - _UNIT[low], jiang)  # a card of the lowest kind left out
            guarded = x | _GUARD
            for delta, huxi in self.worth[low]:
                y = guarded - delta
                if y & _GUARD == _GUARD:
                    found = max(found, huxi + self.most(y ^ _GUARD, jiang))
            if jiang:
                for delta, huxi in self.worth_pairs[low]:
                    y = guarded - delta
                    if y & _GUARD == _GUARD:
                        found = max(found, huxi + self.most(y ^ _GUARD, jiang - 1))
        memo[key] = found
        return found

    def _walk(self, x: int, jiang: int, target: int, most_left: int = 255) -> int:
        """:meth:`measure` of a pool not in the memo, with the kinds its cover leaves cards of
        out (a bit each) in the bits from 24 up, as kept in the memo: the search's path from
        it, step by step. On reaching each kind of :data:`_STOPS`, the pool left is looked up
        in the memo (and kept there) like any pool. ``target`` is the pool's :meth:`most`; if
        more than ``most_left`` cards are left out on the way, the walk stops there and gives
        -1 (and keeps nothing)."""
        memo, most = self.memo, self.most
        if _over_two(x):
            mask, moves, melds = self.mask, self.moves, self.melds
        else:  # so is every pool on the way
            mask, moves, melds = self.mask_two, self.moves_two, self.melds_two
        guard, unit, bits, stops = _GUARD, _UNIT, _BITS, _NEXT_STOP  # read once
        met = [(x << 3 | jiang, 0, 0)]  # (memo key, gain before, kind) of each pool looked up
        stop = stops[((x & -x).bit_length() - 1) // bits]
        gain = 0  # ``huxi << 8 | cards left out`` on the way
        lost = 0  # the kinds of the cards left out, a bit each
        while x:
            low = ((x & -x).bit_length() - 1) // bits
            if low >= stop:
                key = x << 3 | jiang
                found = memo.get(key)
                if found is not None:
                    gain += found & _MEASURED
                    lost |= found >> 24
                    break
                met.append((key, gain, low))
                stop = stops[low]
            guarded = x | guard
            for delta, huxi, pairs, worth in (moves if jiang else melds)[low]:
                y = guarded - delta
                if y & guard == guard:
                    y ^= guard
                    if worth and target:
                        rest = most(y & mask, jiang - pairs)
                        if rest + huxi < target:
                            continue  # this choice cannot keep the most
                        target = rest
                    x, jiang, gain = y, jiang - pairs, gain + (huxi << 8)
                    break
            else:
                x -= unit[low]  # the low card left out: the most 胡息 stays
                gain += 1
                lost |= 1 << low
                if gain & 255 > most_left:
                    return -1
        for key, before, low in met:
            memo[key] = (lost >> low << low) << 24 | (gain - before)
        return lost << 24 | gain


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

    def __init__(self, seed: object = None) -> None:
        self.rng = random.Random(seed)  # type: ignore[arg-type]  # Random checks it

    def __call__(self, state: GameState, options: Sequence[Action]) -> Action:
        return self.choose(state.variant, state.seats[state.acting_seat].hand, options)

    def choose(self, variant: Variant, hand: Sequence[int], options: Sequence[Action]
               ) -> Action:
        """The choice from what the acting seat sees: the ``variant``, its concealed ``hand``
        (21 counts) and its ``options`` (so a policy that has only the seat's observation
        plays as the bot: :mod:`zipai_rules.rl_opponents`)."""
        opts = list(options)
        first = opts[0].kind
        if first == _ACTION_DISCARD:
            return self._discard(variant, hand, opts)
        if first == _ACTION_HU:
            return opts[0]  # the least value below, and no 吃 to pass at random
        v = variant
        def value(a: Action) -> tuple[int, int]:
            gain = sum(v.meld_huxi(m) for m in a.melds) if a.kind == _ACTION_CHI else 0
            return (_RANK[a.kind], -gain)
        best = min(opts, key=value)
        if best.kind == _ACTION_CHI and not any(
                v.meld_huxi(m) for m in best.melds) and self.rng.random() < 0.5:
            return next((o for o in opts if o.kind == _ACTION_PASS), best)
        return best

    def _discard(self, variant: Variant, hand: Sequence[int], opts: list[Action]) -> Action:
        leftover = _leftover(variant)
        # the pool of the concealed cards a discard may leave in melds: every 坎 stays whole
        # (and the 王 out of the search); the pool after each discard is this one minus a card,
        # measured without the single cards no meld can hold (:meth:`_Leftover.alone`)
        x = sum(map(getitem, _KEPT, hand))
        alone = leftover.alone(x)
        n_alone = bin(alone).count("1")
        x -= alone
        memo, mask, most = leftover.memo_for_use(), leftover.mask_two, leftover.most
        # the pool's own measure (``huxi << 8 | leftover``) and the kinds its cover leaves
        # cards of out: a discard that leaves the pool as it is (a lone card, a 王) has this
        # measure, and so, with one card fewer out, has a discard of a card the cover leaves
        # out (the search finds the same cover without it: every choice before it still fits
        # and keeps the most, and leaving it out is all it did with it)
        found = memo.get(x << 3 | 1)
        if found is None:
            found = leftover._walk(x, 1, most(x & mask, 1))
        lost, found = found >> 24, found & _MEASURED
        # a discard's key, the least best: the cards left out, then the most 胡息, then the
        # highest card, then the first option, as ``left << 32 - huxi << 16 - card << 8 + k``
        # (胡息 under 2**16, cards and options under 256)
        chosen, chosen_key, chosen_left = 0, 1 << 62, 255
        broken: list[tuple[int, int, int]] = []  # the other discards: (pool, card, option)
        for k, a in enumerate(opts):
            c = a.card or 0  # every discard names its card
            if c >= 20:
                left = (found & 255) + n_alone  # the 王 is not in the pool
            elif alone & _UNIT[c]:
                left = (found & 255) + n_alone - 1
            elif lost >> c & 1:
                left = (found & 255) - 1 + n_alone
            else:
                broken.append((x - _UNIT[c] if hand[c] < 3 else  # a card of a 坎 breaks it
                               x + (hand[c] - 1) * _UNIT[c], c, k))
                continue
            key = (left << 32) - ((found >> 8) << 16) - (c << 8) + k
            if key < chosen_key:
                chosen, chosen_key, chosen_left = k, key, left
        for y, c, k in broken:
            found = memo.get(y << 3 | 1)
            if found is None:
                huxi = most(y & mask, 1)
                # the most cards it may leave out and still be chosen: as many as the one
                # chosen so far if it is worth more 胡息 or a higher card, one fewer else
                tie = (chosen_left << 32) - (huxi << 16) - (c << 8) + k
                most_left = chosen_left - n_alone - (tie > chosen_key)
                if most_left < 0 or most_left == 0 and _fewest_left(y, 1):
                    continue  # it leaves out more
                found = leftover._walk(y, 1, huxi, most_left)
                if found < 0:
                    continue  # it left out more
            left = (found & 255) + n_alone
            key = (left << 32) - (((found & _MEASURED) >> 8) << 16) - (c << 8) + k
            if key < chosen_key:
                chosen, chosen_key, chosen_left = k, key, left
        return opts[chosen]


#: the built-in bots by name; each has ``choose(variant, hand, options)``, the decision from
#: what the acting seat sees (:class:`~zipai_rules.rl_opponents.BotPolicy` plays with it)
BOTS: dict[str, Callable[[object], RandomBot | GreedyBot]] = {"random": RandomBot,
                                                                  "greedy": GreedyBot}


def check_bot_name(name: object) -> str:
    """``name`` if it names a built-in bot (:data:`BOTS`), else
    :class:`~zipai_rules.errors.ZipaiError` (``unknown_bot``) listing the known ones."""
    if not isinstance(name, str) or name not in BOTS:
        raise ZipaiError(f"unknown bot name {name!r}; known: " + ", ".join(BOTS),
                         code="unknown_bot")
    return name


def make_bots(names: object, seed: object, players: object) -> list[Bot]:
    """One bot per seat from a list of names (``random``, ``greedy``), repeated to fill the
    table; each seeded from ``seed`` and its seat. Raises
    :class:`~zipai_rules.errors.ZipaiError`: ``unknown_bot`` for an unknown name, no name or
    more names than players; ``bad_argument`` for ``names`` that are not a list of strings or
    ``players`` that is not an int in 1..8; :class:`~zipai_rules.errors.HandError`
    (``bad_seed``) for a ``seed`` that is neither ``None`` nor a seed."""
    given = [n.strip().lower() for n in items_of(names, str, "names", "a bot name (a string)")]
    count = int_arg(players, "players", 1, 8)
    base = 0 if seed is None else check_seed(seed)
    if not given:
        raise ZipaiError("unknown bot name ''; known: " + ", ".join(BOTS), code="unknown_bot")
    for n in given:
        check_bot_name(n)
    if len(given) > count:
        raise ZipaiError(f"{len(given)} bots named for {count} players", code="unknown_bot")
    # typed as any Bot, not BOTS' own two classes: a registered bot of another class is
    # returned as it is (the compiled build would refuse it by declared type)
    makers: list[Callable[[object], Bot]] = [BOTS[n] for n in given]
    return [makers[s % len(given)](base * 31 + s) for s in range(count)]


def seat_bot_names(names: object, players: object) -> list[str]:
    """The bot name of each seat, as :func:`make_bots` assigns them (repeated to fill the
    table); refused as :func:`make_bots` refuses them."""
    given = [n.strip().lower() for n in items_of(names, str, "names", "a bot name (a string)")]
    count = int_arg(players, "players", 1, 8)
    if not given:
        raise ZipaiError("no bot name given", code="unknown_bot")
    return [given[s % len(given)] for s in range(count)]
