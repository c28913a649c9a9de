"""The observation arrays and action masks of the RL environments (:mod:`zipai_rules.rl`,
:mod:`zipai_rules.rl_vector`, :mod:`zipai_rules.rl_parallel`), kept up to date as a hand goes
on: :class:`TableEncoder`, and the layout of the array, :func:`observation_layout`.

The array of a seat is its view (``Game.observe``, docs/observations.md) encoded by the
layout; :func:`zipai_rules.rl.encode_observation` encodes a view from scratch. The encoder
gives the same array without building the view: it keeps each seat's array and, at each
observation, re-encodes only the blocks whose part of the game state changed. The states are
immutable and a step rebuilds only what it changes, so an unchanged part is the same object
as at the last observation (compared by identity, ``is``; a part rebuilt equal is encoded
again, never skipped wrongly). The ``memory`` blocks read the events a seat was shown, which
the encoder redacts once each (:class:`~zipai_rules.engine.observation.Redactor`), not the
whole history at every step. A mask marks the codes of the seat's legal actions in a fresh
zeroed array. Arrays are ``bytearray`` values (every entry lies in 0..:data:`HIGH`), which
the environments wrap as ``int8`` NumPy arrays; this module needs no NumPy.
"""

from __future__ import annotations

from collections.abc import Iterable

from .arguments import int_arg, of_type
from .cards import N_KINDS
from .engine.actions import Action, Event, EventKind
from .engine.encoding import decode_action, encode_action, num_distinct_actions
from .engine.game import Game
from .engine.observation import Redactor, seen_meld_by_others
from .engine.state import GameState, SeatState
from .melds import Meld, MeldKind
from .variant import Variant
from .vocab import Phase, Source

__all__ = ["HIGH", "RECENT", "TableEncoder", "observation_layout", "observation_size"]

_KINDS = tuple(MeldKind)
_SOURCES = tuple(Source)
_PHASES = tuple(Phase)
_EVENTS = tuple(EventKind)
#: the events of the ``memory`` blocks, most recent first
RECENT = 8
#: the largest value of an observation entry (a count of cards, the wall, a one-hot 1)
HIGH = 127


def observation_layout(players: int, seat_views: bool = True, memory: bool = False
                       ) -> tuple[tuple[str, int], ...]:
    """The blocks of the observation array, in order, as ``(name, length)``; ``seat r`` is
    the seat ``r`` places after the observing one (``seat 0`` is the observer itself).
    ``memory`` appends what the seat remembers (docs/rl.md): the turn, the 亮张, its own
    臭胡 marks, the cards each seat declined where it saw them, and the last
    :data:`RECENT` events it was shown, most recent first. Raises
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for ``players`` that is not
    an int in 2..4 or a ``seat_views`` or ``memory`` that is not a bool."""
    int_arg(players, "players", 2, 4)
    of_type(seat_views, bool, "seat_views", "a bool")
    of_type(memory, bool, "memory", "a bool")
    blocks = [("hand", N_KINDS)]
    for r in range(players):
        blocks += [(f"seat {r} meld cards", N_KINDS), (f"seat {r} meld hidden", 1),
                   (f"seat {r} meld kinds", len(_KINDS) + 1),
                   (f"seat {r} discards", N_KINDS), (f"seat {r} concealed", 1)]
    blocks += [("wall", 1), ("pending card", N_KINDS), ("pending source", len(_SOURCES)),
               ("pending by", players), ("phase", len(_PHASES)), ("chou chi", N_KINDS),
               ("chou peng", N_KINDS), ("own seat", players)]
    if not seat_views:
        blocks += [(f"seat {r} hand", N_KINDS) for r in range(1, players)]
    if memory:
        blocks += [("turn", 1), ("lianzhang", N_KINDS), ("chou hu", N_KINDS)]
        blocks += [(f"seat {r} declined", N_KINDS) for r in range(players)]
        blocks += [(f"event {k}", len(_EVENTS) + players + N_KINDS) for k in range(RECENT)]
    return tuple(blocks)


def observation_size(players: int, seat_views: bool = True, memory: bool = False) -> int:
    """The length of the observation array (:func:`observation_layout`)."""
    return sum(n for _, n in observation_layout(players, seat_views, memory))


def _offsets(players: int, seat_views: bool, memory: bool) -> dict[str, int]:
    """Where each block of :func:`observation_layout` starts."""
    at, where = 0, {}
    for name, n in observation_layout(players, seat_views, memory):
        where[name] = at
        at += n
    return where


_MELDS = N_KINDS + 1 + len(_KINDS) + 1  # a seat's meld cards, meld hidden and meld kinds
_EVENT = len(_EVENTS) + N_KINDS         # an event block's width, without its seat one-hot
# enum members looked up once (reading one from its class costs more than the test); the
# caches are keyed by an enum's value, a str, whose hash Python keeps
_SELF, _WAIT, _OVER = Source.SELF, Phase.WAIT, Phase.OVER
_DEAL, _PASS = EventKind.DEAL, EventKind.PASS
_KIND_OF = {k.value: i for i, k in enumerate(_KINDS)}
_EVENT_OF = {e.value: i for i, e in enumerate(_EVENTS)}


def _counts(cards: Iterable[int], n: int = N_KINDS) -> bytearray:
    """``n`` entries: how many of each card ``cards`` hold."""
    out = bytearray(n)
    for c in cards:
        out[c] += 1
    return out


class _Memory:
    """What one seat remembers of a hand (the ``memory`` blocks that events fill): its
    redactor, how many of the hand's events it has read and the last of them (to tell a
    hand undone past it), the 亮张 block, the cards each seat declined, the last
    :data:`RECENT` events it was shown and their block."""

    __slots__ = ("declined", "events", "events_at", "last_event", "lianzhang", "recent",
                 "redactor")

    def __init__(self, variant: Variant, seat: int) -> None:
        self.redactor = Redactor(variant, seat)
        self.events_at = 0
        self.last_event: Event | None = None
        self.lianzhang = bytearray(N_KINDS)
        self.declined = bytearray(N_KINDS * variant.players)
        self.recent: list[Event] = []
        self.events = bytes(RECENT * (_EVENT + variant.players))


#: one meld's part of a meld block: the meld, whether its index is in ``own_chi``, the
#: entries of the block it adds 1 to (an entry as often as it adds) and the cards it adds
#: to the concealed count (a single dealt 提 kept in the hand)
_MeldPart = tuple[Meld, bool, tuple[int, ...], int]
#: a seat's meld block as one viewpoint sees it: the melds, ``held_ti`` and ``own_chi`` it
#: was made from, the block (meld cards, hidden, kinds), the cards the viewpoint counts
#: among the concealed ones beyond the hand, and each meld's part
_MeldBlock = tuple[tuple[Meld, ...], int | None, tuple[int, ...], bytes, int,
                   tuple[_MeldPart, ...]]


class _Seen:
    """One seat's array and what it was last encoded from: each seat's
    :class:`~zipai_rules.engine.state.SeatState` (absolute seats), the pending card's
    block and the phase."""

    __slots__ = ("buf", "pending", "phase", "seats")

    def __init__(self, size: int, players: int) -> None:
        self.buf = bytearray(size)
        self.seats: list[SeatState | None] = [None] * players
        self.pending: bytes | None = None
        self.phase: Phase | None = None


class TableEncoder:
    """The observation arrays and masks of every seat of a hand of ``variant``, kept up to
    date incrementally (the module docstring): :meth:`observe` gives a seat's, equal to
    :func:`zipai_rules.rl.encode_observation` of the seat's view (with ``seat_views=False``
    the whole table; ``memory`` appends :func:`zipai_rules.rl.encode_memory`), and
    :meth:`action` the action a code stands for. ``size`` is the array's length
    (:func:`observation_size`), ``codes`` the action space's (``num_distinct_actions``).

    Each seat's array is kept, and a seat of the table whose state is the one it was last
    encoded from costs one identity test. A changed one is written from blocks kept per
    seat: its melds as it sees them and as the others see them (the same for every other
    seat, made once), by the melds they encode, and its discards."""

    def __init__(self, variant: Variant, seat_views: bool = True, memory: bool = False
                 ) -> None:
        self.variant = variant
        self.players = players = variant.players
        self.seat_views = seat_views
        self.memory = memory
        self.size = observation_size(players, seat_views, memory)
        self.codes = num_distinct_actions(variant)
        at = _offsets(players, seat_views, memory)
        self._order = [[(me + r) % players for r in range(players)] for me in range(players)]
        self._seat_at = [(at[f"seat {r} meld cards"], at[f"seat {r} discards"],
                          at[f"seat {r} concealed"], at.get(f"seat {r} hand", -1))
                         for r in range(players)]
        self._wall_at, self._pending_at = at["wall"], at["pending card"]
        self._phase_at, self._chou_at = at["phase"], at["chou chi"]
        self._own_seat_at = at["own seat"]
        self._memory_at = at.get("turn", self.size)
        self._seen: list[_Seen | None] = [None] * players
        # per viewpoint (itself, the others) and seat: its meld block; per seat: discards
        self._melds: list[list[_MeldBlock | None]] = [[None] * players, [None] * players]
        self._discards: list[tuple[tuple[int, ...], bytes] | None] = [None] * players
        width = N_KINDS + len(_SOURCES) + players
        self._no_pending = bytes(width)
        self._pending: dict[tuple[int, str, int], bytes] = {}
        for card in range(N_KINDS):
            for k, source in enumerate(_SOURCES):
                for r in range(players):
                    block = bytearray(width)
                    block[card] = block[N_KINDS + k] = block[N_KINDS + len(_SOURCES) + r] = 1
                    self._pending[card, source.value, r] = bytes(block)
        self._phase = {p.value: k for k, p in enumerate(_PHASES)}
        self._game: Game | None = None
        self._memories: list[_Memory | None] = [None] * players
        self._chou_hu: list[tuple[tuple[tuple[int, int], ...], bytes] | None] = [None] * players
        self._events: list[Event] = []
        self._events_of: GameState | None = None  # the state _events lead to
        self._options: tuple[Action, ...] | None = None  # the last options encoded
        self._option_codes: list[int] = []

    def observe(self, game: Game, seat: int) -> tuple[bytearray, bytearray]:
        """``seat``'s observation array and action mask now (new arrays, the caller's to
        keep): the mask has a 1 at the code of each of the seat's legal actions
        (``state.options_for(seat)``; all zeros when it has none). ``seat`` is a seat of
        the variant (unchecked: the environments name agents, not seats)."""
        state = game.state
        seen = self._seen[seat]
        if seen is None:
            seen = self._seen[seat] = _Seen(self.size, self.players)
            seen.buf[self._own_seat_at + seat] = 1
        buf, seats, last = seen.buf, state.seats, seen.seats
        for r, s in enumerate(self._order[seat]):
            st = seats[s]
            old = last[s]
            if st is not old:
                last[s] = st
                self._write_seat(buf, r, s, st, old)
        buf[self._wall_at] = len(state.wall)
        p = state.pending
        if p is None or self.seat_views and p.source is _SELF and p.by != seat:
            pending = self._no_pending  # a kept draw is the drawer's secret
        else:
            pending = self._pending[p.card, p.source._value_, (p.by - seat) % self.players]
        if pending is not seen.pending:
            buf[self._pending_at:self._pending_at + len(pending)] = pending
            seen.pending = pending
        options = state.options_for(seat)
        phase = state.phase if options or state.phase is _OVER else _WAIT
        if phase is not seen.phase:
            if seen.phase is not None:
                buf[self._phase_at + self._phase[seen.phase._value_]] = 0
            buf[self._phase_at + self._phase[phase._value_]] = 1
            seen.phase = phase
        if self.memory:
            at = self._memory_at
            buf[at:] = bytearray().join(self._remember(game, state, seat, seats[seat]))
        mask = bytearray(self.codes)
        for code in self._codes_of(options):
            mask[code] = 1
        return bytearray(buf), mask

    def _write_seat(self, buf: bytearray, r: int, s: int, st: SeatState,
                    old: SeatState | None) -> None:
        """Write seat ``s`` (``r`` places after the observer) into the observer's ``buf``,
        which was last written from ``old``."""
        melds_at, discards_at, concealed_at, hand_at = self._seat_at[r]
        other = r > 0
        melds = self._melds[other][s]
        if melds is None or melds[0] is not st.melds or melds[1] != st.held_ti \
                or melds[2] != st.own_chi:
            melds = self._melds[other][s] = self._meld_block(st, other, melds)
        if old is None or old.melds is not st.melds or old.held_ti != st.held_ti \
                or old.own_chi != st.own_chi:
            buf[melds_at:melds_at + _MELDS] = melds[3]
        if old is None or old.discards is not st.discards:
            discards = self._discards[s]
            if discards is None or discards[0] is not st.discards:
                discards = self._discards[s] = (st.discards, bytes(_counts(st.discards)))
            buf[discards_at:discards_at + N_KINDS] = discards[1]
        if old is None or old.hand is not st.hand:
            buf[concealed_at] = sum(st.hand) + melds[4]
            if not other:
                buf[0:N_KINDS] = st.hand
            elif hand_at >= 0:
                buf[hand_at:hand_at + N_KINDS] = st.hand
        elif old.melds is not st.melds or old.held_ti != st.held_ti:
            buf[concealed_at] = sum(st.hand) + melds[4]
        if not other and (old is None or old.chou_chi_cards != st.chou_chi_cards
                          or old.chou_peng_cards != st.chou_peng_cards):
            at = self._chou_at
            buf[at:at + 2 * N_KINDS] = _counts(st.chou_chi_cards) + _counts(st.chou_peng_cards)

    def _meld_block(self, st: SeatState, other: bool, old: _MeldBlock | None
                    ) -> _MeldBlock:
        """The meld block of ``st`` as it sees itself (every meld whole) or as the
        ``other`` seats see it (:func:`~zipai_rules.engine.observation.seen_meld_by_others`
        per meld; whole with ``seat_views=False``, the concealed count still theirs), from
        the ``old`` block of the seat: a meld's part is kept where the meld at its index is
        the same object, its index as much in ``own_chi`` and ``held_ti`` the same (what a
        meld's part depends on), else taken off and the new one's added."""
        melds, own_chi = st.melds, st.own_chi
        if old is not None and old[1] == st.held_ti:
            out, extra, before = bytearray(old[3]), old[4], old[5]
        else:
            out, extra, before = bytearray(_MELDS), 0, ()
        parts: list[_MeldPart] = []
        for k, m in enumerate(melds):
            own = k in own_chi
            if k < len(before):
                part = before[k]
                if part[0] is m and part[1] == own:
                    parts.append(part)
                    continue
                for i in part[2]:
                    out[i] -= 1
                extra -= part[3]
            part = self._meld_part(st, k, m, own, other)
            for i in part[2]:
                out[i] += 1
            extra += part[3]
            parts.append(part)
        for part in before[len(melds):]:
            for i in part[2]:
                out[i] -= 1
            extra -= part[3]
        return melds, st.held_ti, own_chi, bytes(out), extra, tuple(parts)

    def _meld_part(self, st: SeatState, k: int, m: Meld, own: bool, other: bool
                   ) -> _MeldPart:
        """The part of meld ``k`` (``m``) of ``st`` in its meld block (:meth:`_meld_block`)."""
        kinds = N_KINDS + 1
        concealed = 0
        if other:
            seen = seen_meld_by_others(self.variant, st, k)
            if seen is None:
                concealed = len(m.cards)  # not shown: its cards among the concealed ones
                if self.seat_views:
                    return m, own, (), concealed
            elif self.seat_views:
                entries = list(seen.cards)
                entries += [N_KINDS] * seen.hidden
                entries.append(kinds + (len(_KINDS) if seen.kind is None
                                        else _KIND_OF[seen.kind._value_]))
                return m, own, tuple(entries), concealed
        entries = list(m.cards)
        entries.append(kinds + _KIND_OF[m.kind._value_])
        return m, own, tuple(entries), concealed

    def _codes_of(self, options: tuple[Action, ...]) -> list[int]:
        """The codes of ``options`` (the last ones asked for are kept: a step's action is
        looked up among the options its observation showed)."""
        if options is not self._options:
            self._option_codes = [encode_action(a) for a in options]
            self._options = options
        return self._option_codes

    def action(self, game: Game, seat: int, code: int) -> Action:
        """The action of ``seat`` that ``code`` (a code of the space) stands for: the seat's
        legal action of that code (the game's own value), else the decoded code, which the
        game refuses with its own words (:func:`~zipai_rules.engine.encoding.decode_action`
        and :func:`~zipai_rules.engine.encoding.encode_action` are inverse on every legal
        action)."""
        options = game.state.options_for(seat)
        codes = self._codes_of(options)
        for k, c in enumerate(codes):
            if c == code:
                return options[k]
        return decode_action(code, seat)

    def _remember(self, game: Game, state: GameState, seat: int, mine: SeatState
                  ) -> list[bytes | bytearray]:
        """The ``memory`` blocks of ``seat``: the turn, the 亮张, its 臭胡 marks, the cards
        each seat declined and the last events, from the events of the hand it has not read
        yet, redacted as it is shown them."""
        if game is not self._game:
            self._game, self._memories = game, [None] * self.players
        if state is not self._events_of:
            self._events, self._events_of = game.events, state
        events = self._events
        mem = self._memories[seat]
        if mem is None or mem.events_at and (mem.events_at > len(events)
                                             or events[mem.events_at - 1] is not mem.last_event):
            mem = self._memories[seat] = _Memory(self.variant, seat)  # (again) from the deal
        if mem.events_at < len(events):
            self._read(mem, seat, events)
        hu = self._chou_hu[seat]
        if hu is None or hu[0] is not mine.chou_hu_marks:
            block = bytearray(N_KINDS)
            for card, _ in mine.chou_hu_marks:
                block[card] = 1
            hu = self._chou_hu[seat] = (mine.chou_hu_marks, bytes(block))
        return [bytes((min(state.turn, HIGH),)), mem.lianzhang, hu[1], mem.declined,
                mem.events]

    def _read(self, mem: _Memory, seat: int, events: list[Event]) -> None:
        """Read ``events`` past those ``mem`` has read, as ``seat`` is shown them."""
        players = self.players
        shown = 0
        for e in events[mem.events_at:]:
            seen = mem.redactor.show(e)
            if seen is None:
                continue
            shown += 1
            if seen.kind is _DEAL and seen.card is not None:
                mem.lianzhang[seen.card] = 1
            elif seen.kind is _PASS and seen.seat is not None and seen.card is not None:
                k = (seen.seat - seat) % players * N_KINDS + seen.card
                mem.declined[k] = min(mem.declined[k] + 1, HIGH)
            mem.recent.append(seen)
        mem.events_at = len(events)
        mem.last_event = events[-1]
        if shown:
            del mem.recent[:-RECENT]
            width = _EVENT + players
            block = bytearray(RECENT * width)
            k = 0
            for e in reversed(mem.recent):
                block[k + _EVENT_OF[e.kind._value_]] = 1
                if e.seat is not None:
                    block[k + len(_EVENTS) + (e.seat - seat) % players] = 1
                if e.card is not None:
                    block[k + len(_EVENTS) + players + e.card] = 1
                k += width
            mem.events = bytes(block)
