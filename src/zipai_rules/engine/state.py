"""Frozen game state: seats, wall, whose turn it is and what they may do."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from ..analysis import Analysis, Decomposition
from ..cards import indices_of, token
from ..errors import IllegalActionError, ZipaiError
from ..frozen import NO_VALIDATOR, slot_setters
from ..melds import QUADS, Meld, MeldKind
from ..variant import Variant
from ..vocab import Label, Phase, ResultKind, Source
from .actions import Action
from .display import display

if TYPE_CHECKING:
    from ..drawing import TablePicture


@attrs.frozen(slots=True, init=False)
class SeatState:
    """One seat: concealed ``hand`` (21 counts), table ``melds``, ``discards`` (card indices
    in its discard area, unclaimed own draws included), and its 臭 sets:

    * ``chou_chi_cards`` / ``chou_peng_cards``: card kinds it may no longer 吃 / 碰;
    * ``own_chou``: card kinds it discarded (or drew and left) itself, never 吃'd or 碰'd by it
      on any source ("任何人也不能吃自己曾经打出过的牌", 000 §衡阳十胡抢牌型规则), whatever
      ``chou.blocks_on`` says about declined cards;
    * ``chou_hu_marks``: ``(card, table 胡息)`` pairs of wins it declined (臭胡);
    * ``dead``: it owed a discard and had no card it may discard (死手, digest G10);
    * ``early_discard``: dealt two or more 提 under ``discard.dealt_double_quad: skip_second``,
      it still owes the discard it makes before skipping one ("起手2提及以上时，需打一张牌");
      under ``skip_when_ready``, it still discards as usual until a take leaves it 听牌 and
      it skips that discard ("照常打牌，在听牌的时候不打", 004 第五条7);
    * ``first_take``: the turn of its first take (吃, 碰, 偎, 提 or 跑 after the deal), ``None``
      before it: what 举手胡 (``win.jushou``) reads;
    * ``declined_units``: the most units of a win it declined (``None``: none declined), read
      under ``win.declined_must_be_beaten``;
    * ``fang_pao``: under ``claims.fang_pao_stops_takes``, another seat 跑'd a card it
      discarded from hand onto a table 偎/碰: it may no longer 吃 or 碰 (放跑之后不能再进张);
    * ``lianzhang_offer``: the dealer's 亮张 while it is still to be offered, or on offer, to
      the others for 地胡 (``win.dihu: lianzhang``), else ``None``;
    * ``held_ti``: the card of its single dealt 提 while it stays in the hand, unseen by the
      others (``deal.single_dealt_ti: hand``), else ``None``; it lies among ``melds`` all the
      same and counts as a 提 for every rule;
    * ``own_chi``: positions in ``melds`` of the melds of its 吃 of its own draws (the 比
      included), which ``display.chi_own_draw`` may show face down;
    * ``wei_run``: 偎 made in a row on its own draws, and ``wei_runs``: the runs of
      ``win.wei_run_as_ti`` 偎 it completed, each counting as a 提 for ``two_ti`` (kept only
      where that option is set).
    """

    hand: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    discards: tuple[int, ...] = ()
    chou_chi_cards: frozenset[int] = frozenset()
    chou_peng_cards: frozenset[int] = frozenset()
    chou_hu_marks: tuple[tuple[int, int], ...] = ()
    own_chou: frozenset[int] = frozenset()
    dead: bool = False
    early_discard: bool = False
    first_take: int | None = None
    declined_units: int | None = None
    fang_pao: bool = False
    lianzhang_offer: int | None = None
    held_ti: int | None = None
    own_chi: tuple[int, ...] = ()
    wei_run: int = 0
    wei_runs: int = 0

    def __init__(self, hand: tuple[int, ...], melds: tuple[Meld, ...] = (),
                 discards: tuple[int, ...] = (), chou_chi_cards: frozenset[int] = frozenset(),
                 chou_peng_cards: frozenset[int] = frozenset(),
                 chou_hu_marks: tuple[tuple[int, int], ...] = (),
                 own_chou: frozenset[int] = frozenset(), dead: bool = False,
                 early_discard: bool = False, first_take: int | None = None,
                 declined_units: int | None = None, fang_pao: bool = False,
                 lianzhang_offer: int | None = None, held_ti: int | None = None,
                 own_chi: tuple[int, ...] = (), wei_run: int = 0, wei_runs: int = 0) -> None:
        s = _SEAT_SLOTS
        s[0](self, hand)
        s[1](self, melds)
        s[2](self, discards)
        s[3](self, chou_chi_cards)
        s[4](self, chou_peng_cards)
        s[5](self, chou_hu_marks)
        s[6](self, own_chou)
        s[7](self, dead)
        s[8](self, early_discard)
        s[9](self, first_take)
        s[10](self, declined_units)
        s[11](self, fang_pao)
        s[12](self, lianzhang_offer)
        s[13](self, held_ti)
        s[14](self, own_chi)
        s[15](self, wei_run)
        s[16](self, wei_runs)

    @property
    def quads(self) -> int:
        n = 0
        for m in self.melds:
            if m.kind in QUADS:
                n += 1
        return n

    @property
    def held(self) -> int:
        """Cards held: concealed plus table."""
        n = sum(self.hand)
        for m in self.melds:
            n += len(m.cards)
        return n

    def table_meld(self, card: int, kinds: frozenset[MeldKind]) -> int | None:
        """Position of the table meld of ``kinds`` made of ``card``, if any."""
        for k, m in enumerate(self.melds):
            if m.kind in kinds and m.cards[0] == card:
                return k
        return None


_SEAT_SLOTS = slot_setters(SeatState)


@attrs.frozen(slots=True, init=False)
class WinContext:
    """What a win's labels and worth read of the table besides the winner's seat: the
    ``dealer``, the cards left in the ``wall``, the wall's top card (``flipped``, ``None`` when
    the wall is empty: 海底), the ``turn`` in which a take counts as just made, and whether the
    dealer's 亮张 is on offer for 地胡 (``lianzhang``, ``win.dihu: lianzhang``)."""

    dealer: int
    wall: int
    flipped: int | None
    turn: int
    lianzhang: bool = False

    def __init__(self, dealer: int, wall: int, flipped: int | None, turn: int,
                 lianzhang: bool = False) -> None:
        s = _CONTEXT_SLOTS
        s[0](self, dealer)
        s[1](self, wall)
        s[2](self, flipped)
        s[3](self, turn)
        s[4](self, lianzhang)


_CONTEXT_SLOTS = slot_setters(WinContext)


@attrs.frozen(slots=True, init=False)
class Pending:
    """An exposed card being offered: ``card``, its ``source`` (``draw`` or ``discard``),
    the seat ``by`` which drew or discarded it, the claim ``tier`` now being asked, the
    ``queue`` of further seats to ask in that tier with their options, and the seats that
    ``declined`` a 吃 or 碰 of it so far, in the order they passed, whose 臭 for both kinds
    (``chou.scope: both``) is marked once the card is gone (engine/chou.py).

    In a game of claim windows (``GameState.windows``) the card opens one
    :class:`ClaimWindow`, ``window``, which every seat answers at once; ``None`` otherwise
    (and for a draw kept unseen)."""

    card: int
    source: Source
    by: int
    tier: int
    queue: tuple[tuple[int, tuple[Action, ...]], ...] = ()
    declined: tuple[int, ...] = ()
    window: ClaimWindow | None = None

    def __init__(self, card: int, source: Source, by: int, tier: int,
                 queue: tuple[tuple[int, tuple[Action, ...]], ...] = (),
                 declined: tuple[int, ...] = (), window: ClaimWindow | None = None) -> None:
        s = _PENDING_SLOTS
        s[0](self, card)
        s[1](self, source)
        s[2](self, by)
        s[3](self, tier)
        s[4](self, queue)
        s[5](self, declined)
        s[6](self, window)


_PENDING_SLOTS = slot_setters(Pending)


@attrs.frozen(slots=True)
class ClaimWindow:
    """One claim window on an exposed card (engine/window.py): every seat of ``seats`` (each
    seat but the one that discarded it; all seats for a card shown from the wall) answers
    once, in any order, from its own ``offers`` (``(seat, options)``: every 胡, 跑, 碰 and 吃 it
    may make of the card across the claim tiers, and ``pass``; ``(pass,)`` alone for a seat
    with no claim, a forced 胡 alone where the 胡 is forced). ``asks`` are the claims in the
    order the variant's priority resolves them: ``(seat, options)`` per claim tier, each
    tier's seats in turn order from ``by``, as the one-seat-at-a-time engine asks them; a
    forced 跑 ends them (``forced``: the seat whose 跑 is forced once every 胡 before it is
    declined, else ``None``). ``answers`` are the answers given so far, ``(seat, action)``
    in the order they came."""

    seats: tuple[int, ...]
    offers: tuple[tuple[int, tuple[Action, ...]], ...]
    asks: tuple[tuple[int, tuple[Action, ...]], ...]
    forced: int | None = None
    answers: tuple[tuple[int, Action], ...] = ()

    def answer(self, seat: int) -> Action | None:
        """The answer ``seat`` gave, or ``None``."""
        return next((a for s, a in self.answers if s == seat), None)

    def offer(self, seat: int) -> tuple[Action, ...]:
        """``seat``'s options in this window (empty for a seat not asked)."""
        return next((o for s, o in self.offers if s == seat), ())

    @property
    def awaiting(self) -> tuple[int, ...]:
        """The seats of ``seats`` that have not answered yet, in turn order."""
        done = {s for s, _ in self.answers}
        return tuple(s for s in self.seats if s not in done)


@attrs.frozen(slots=True)
class PaoTarget:
    """Where a 跑 takes the claimed card: onto the concealed 坎 (``table_index`` ``None``) or onto
    the 偎/碰 at ``table_index`` among the seat's table melds; ``king``: onto a concealed pair
    with a 王 standing for the third card (``deck.king_rules.claims``)."""

    table_index: int | None = None
    king: bool = False

    @property
    def from_hand(self) -> bool:
        return self.table_index is None


#: What an offered option decided when it was offered, used when it is taken: the winning
#: :class:`~zipai_rules.analysis.Analysis` of a 胡, the :class:`PaoTarget` of a 跑.
Plan = Analysis | PaoTarget


@attrs.frozen(slots=True)
class Result:
    """How a hand ended: ``kind`` is ``hu``, ``tianhu`` or ``huangzhuang`` (荒庄).

    For a win: the ``winner`` seat, the winning ``card`` and its ``source`` (``self``,
    ``draw``, ``discard``; ``None`` for a 天胡 or a win on the dealt hand), the total ``huxi``
    (胡息), the ``decomposition`` that explains it, and ``labels`` naming what the win counts
    as for scoring: ``zimo`` (自摸), ``tianhu``, ``dihu``, or a special win (``two_ti``, …).

    What settlement needs besides: the ``discarder`` (the seat whose discard was won on, 点炮;
    else ``None``), the ``flipped`` card (the wall's top card at the end, turned for 醒;
    ``None`` when the wall is empty), ``kings`` (王 held in hand per seat at the end),
    ``sitting_out`` (whether a seat of the table sat this hand out, 数醒) and the ``dealer``
    seat (``None`` in a result built without one; ``scoring.huangzhuang.dealer_pays`` needs
    it).
    """

    kind: ResultKind
    winner: int | None = None
    card: int | None = None
    source: Source | None = None
    huxi: int = 0
    decomposition: Decomposition | None = None
    labels: tuple[Label, ...] = ()
    discarder: int | None = None
    flipped: int | None = None
    kings: tuple[int, ...] = ()
    sitting_out: bool = False
    dealer: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``{kind, winner, card, source, huxi, labels}``; the card as its ASCII token."""
        return {"kind": str(self.kind), "winner": self.winner,
                "card": None if self.card is None else token(self.card),
                "source": None if self.source is None else str(self.source),
                "huxi": self.huxi, "labels": [str(x) for x in self.labels]}


@attrs.frozen(slots=True, init=False)
class GameState:
    """Everything about one hand at one moment. ``phase`` (:class:`~zipai_rules.vocab.Phase`)
    is ``discard`` (the actor must discard), ``respond`` (the actor answers an exposed card),
    ``hu_check`` (the actor may win with the hand as it stands) or ``over``. ``options`` are
    the actor's legal actions; ``plans`` pairs each offered 胡 and 跑 (the actor's and those of
    the seats queued in ``pending``) with what was decided when it was offered (:data:`Plan`,
    read with :meth:`plan`). ``drawn``: in ``hu_check``, the card the actor drew and took in
    (a forced 偎/提/跑, or a 王 kept), which a win now is won on (偎起胡, 提龙胡: the result's
    ``card``); else ``None``."""

    variant: Variant = attrs.field(eq=False, repr=False)
    dealer: int
    seats: tuple[SeatState, ...]
    wall: tuple[int, ...]
    phase: Phase
    actor: int | None
    options: tuple[Action, ...]
    pending: Pending | None = None
    result: Result | None = None
    turn: int = 0
    plans: tuple[tuple[Action, Plan], ...] = attrs.field(default=(), eq=False, repr=False,
                                                         validator=NO_VALIDATOR)
    drawn: int | None = None
    windows: bool = False
    prompts: tuple[int, ...] = ()

    def __init__(self, variant: Variant, dealer: int, seats: tuple[SeatState, ...],
                 wall: tuple[int, ...], phase: Phase, actor: int | None,
                 options: tuple[Action, ...], pending: Pending | None = None,
                 result: Result | None = None, turn: int = 0,
                 plans: tuple[tuple[Action, Plan], ...] = (), drawn: int | None = None,
                 windows: bool = False, prompts: tuple[int, ...] = ()) -> None:
        s = _GAME_SLOTS
        s[0](self, variant)
        s[1](self, dealer)
        s[2](self, seats)
        s[3](self, wall)
        s[4](self, phase)
        s[5](self, actor)
        s[6](self, options)
        s[7](self, pending)
        s[8](self, result)
        s[9](self, turn)
        s[10](self, plans)
        s[11](self, drawn)
        s[12](self, windows)
        s[13](self, prompts)

    @property
    def window(self) -> ClaimWindow | None:
        """The open claim window, or ``None``."""
        p = self.pending
        return None if p is None or self.phase != Phase.RESPOND else p.window

    @property
    def awaiting(self) -> tuple[int, ...]:
        """The seats whose decision the hand waits for: every seat of an open claim window
        that has not answered, else the seat to act (empty once the hand is over). This is
        the host's to know: no seat is shown who else is awaited."""
        w = self.window
        if w is not None:
            return w.awaiting
        return () if self.actor is None else (self.actor,)

    def options_for(self, seat: int) -> tuple[Action, ...]:
        """``seat``'s legal actions now (empty when it has no decision to make): its options
        in an open claim window, else ``options`` for the seat to act."""
        w = self.window
        if w is not None:
            return () if w.answer(seat) is not None else w.offer(seat)
        return self.options if seat == self.actor else ()

    def decision(self, seat: int) -> int | None:
        """The id of the decision ``seat`` is asked now (its number among the seat's
        decisions, from 1), or ``None`` when it has none: an answer carrying an older id is
        stale (``Game.apply(..., decision=)``)."""
        if seat not in self.awaiting or not 0 <= seat < len(self.prompts):
            return None
        return self.prompts[seat]

    def plan(self, action: Action) -> Plan | None:
        """What the offered ``action`` decided (see ``plans``), or ``None``."""
        for a, p in self.plans:
            if a is action or a == action:
                return p
        return None

    def to_position(self) -> str:
        """This state as one line of position text, which
        :func:`~zipai_rules.engine.position.position` reads back to an equal state (its
        ``plans`` rebuilt): see :mod:`zipai_rules.engine.position`."""
        from .position import to_position  # the notation reads states: bound late
        return to_position(self)

    def win_context(self) -> WinContext:
        """The table as a win's labels and worth read it (:class:`WinContext`)."""
        return WinContext(self.dealer, len(self.wall), self.wall[0] if self.wall else None,
                          self.turn, self.pending is not None
                          and self.seats[self.dealer].lianzhang_offer is not None)

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def acting_seat(self) -> int:
        """``actor``, the seat to act, while the hand goes on. Raises
        :class:`~zipai_rules.errors.IllegalActionError` once it is over (no seat acts)."""
        if self.actor is None:
            raise IllegalActionError("the hand is over: no seat is to act")
        return self.actor

    @property
    def final_result(self) -> Result:
        """``result`` of a finished hand. Raises :class:`~zipai_rules.errors.ZipaiError`
        (``hand_not_over``) for a hand still being played."""
        if self.result is None:
            raise ZipaiError("the hand is still being played", code="hand_not_over")
        return self.result

    def card_count(self) -> int:
        """All cards in hands, on tables, in discard areas, in the wall and on offer."""
        n = len(self.wall) + sum(s.held + len(s.discards) for s in self.seats)
        return n + (1 if self.pending is not None else 0)

    def _repr_svg_(self) -> str:
        """The table with every card open (:func:`zipai_rules.svg.render`), for Jupyter."""
        from ..svg import render  # bound late: the pictures sit above the engine
        return render(self)

    def picture(self) -> TablePicture:
        """What a picture of this table shows with every card open
        (:func:`zipai_rules.drawing.draw_table`); a meld the other seats see face down is
        marked ``facedown``."""
        from ..drawing import Outcome, TableMeld, TablePicture, TableSeat
        v = self.variant
        seats = []
        for st in self.seats:
            melds = tuple(TableMeld(m.kind, m.physical, 0, v.meld_huxi(m),
                                    display(v, m.kind) != "all_up" or k in st.own_chi
                                    and v.display.chi_own_draw == "hidden")
                          for k, m in enumerate(st.melds))
            seats.append(TableSeat(tuple(indices_of(st.hand)), 0, melds, st.discards))
        p, r = self.pending, self.result
        return TablePicture(title=v.name, mode="open", viewer=None, seats=tuple(seats),
                            dealer=self.dealer, wall=len(self.wall),
                            pending=None if p is None else (p.card, p.source, p.by),
                            turn=(self.actor, self.phase),
                            result=None if r is None else Outcome(r.kind, r.winner, r.card,
                                                                  r.huxi),
                            variant=v)


_GAME_SLOTS = slot_setters(GameState)
