"""A match: several hands with the dealer rotation and running scores per table seat.

* First dealer by the variant's ``dealer.first``: ``random`` (000 §字牌规则说明 "每新局开始随机
  决定一个玩家成为庄家"), ``highest_card`` (001 "每人拿一张字牌，谁的数字大谁打庄，数字相同的情况下
  大写>小写，一样的字从左到右，谁先抓到，谁打庄") or ``seat0``.
* The winner deals next ("上局胡牌的玩家成为庄家"); on 荒庄 the dealer deals again, and after
  ``dealer.huangzhuang_streak`` (3) in a row the next seat deals
  ("连续3次荒庄，则由庄家的下家做庄").
* With more seats than players (数醒), one seat sits out each hand: the seat opposite the dealer
  (``opposite_dealer``, 000 §碰胡规则) or the dealer's 上家 (``rotate``, an assumption for 大冶).
* The variant's ``match`` section (:class:`~zipai_rules.variant.MatchRules`): the match ends
  after ``end.hands`` hands or after the hand at whose end a seat's running total reaches
  ``end.score_at_least``, whichever comes first (湘乡 "满百结算": the public Java game server
  ``billee1011/repository``, ``xy-games/game-logic/trunk/src/main/java/com/cai/game/hh/handler/
  xxphz/XiangXiangHHTable.java``, ``on_room_game_finish`` ends the room once a seat's
  ``game_score >= 100``, the unrounded total); the final totals are rounded to a multiple of
  ``round_to``, each on its own and a half away from zero (:func:`round_total`, as
  ``XiangXiangHHTable.round``); before each hand a seat may 打坨 (:func:`datuo_payments`;
  ``XiangXiangHHTable.getGameScore``: ×2 for one 坨, ×4 or ×3 for both under
  ``GAME_RULE_TUO_4`` / ``GAME_RULE_TUO_3``; the Java class
  ``com.sy599.game.qipai.xxpaohuzi.command.action.TuoAction``: "一家选择打坨一家选择不打坨，结算积分
  *2。情况3：两家都选择打坨，结算积分*3" or "*4").
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Collection, Sequence

import attrs

from .arguments import int_arg, items_of, of_type, refuse
from .cards import is_big, rank_of
from .engine.game import Game, deck
from .engine.seeds import check_seed, fresh_seed, hand_seed
from .errors import ZipaiError
from .play import Bot, check_bots, play_out
from .settlement import Settlement, settle
from .variant import Datuo, Variant, VariantLike, as_variant

#: The most hands a match plays when only ``match.end.score_at_least`` ends it
#: (:meth:`Match.play`): a bound, so that a match of 荒庄 after 荒庄 still stops.
MAX_MATCH_HANDS = 100_000

DatuoPolicy = Callable[["Match", int], bool]
"""Whether table seat ``seat`` 打坨 the match's next hand: called as ``policy(match, seat)``
before each hand for every seat that plays it and may 打坨 (``match.datuo``); it reads the
match (``played``, ``dealer``, ``scores``) and returns ``True`` or ``False``."""


@attrs.frozen(slots=True)
class HandSummary:
    """One hand of a match: its ``number`` (1-based), the table ``dealer``, the table seat
    ``sitting_out`` (or ``None``), ``seats`` mapping game seat → table seat, the hand's
    ``seed``, the finished ``game`` and its ``settlement`` (payments per game seat)."""

    number: int
    dealer: int
    sitting_out: int | None
    seats: tuple[int, ...]
    seed: int
    game: Game = attrs.field(eq=False, repr=False)
    settlement: Settlement
    #: the table seats that 打坨 this hand, ascending (``match.datuo``)
    datuo: tuple[int, ...] = ()

    @property
    def winner(self) -> int | None:
        """The table seat that won the hand, or ``None`` (荒庄)."""
        w = self.settlement.winner
        return None if w is None else self.seats[w]

    def table_payments(self, table_seats: int) -> list[int]:
        """Payments per table seat, the seat sitting out included, scaled by the hand's 打坨
        (:func:`datuo_payments`): what the hand adds to the match's running totals."""
        out = [0] * table_seats
        for g, t in enumerate(self.seats):
            out[t] += self.settlement.payments[g]
        if self.sitting_out is not None:
            out[self.sitting_out] += self.settlement.sitting_out
        if not self.datuo:
            return out
        return datuo_payments(self.game.variant.match.datuo, out, self.winner, self.datuo)


def round_total(total: int, multiple: int) -> int:
    """``total`` rounded to a multiple of ``multiple`` (≥ 1), a half away from zero: with 10,
    44 → 40, 45 → 50, 47 → 50, −45 → −50, −44 → −40 (``match.round_to``; 湘乡:
    ``XiangXiangHHTable.round`` of ``billee1011/repository``, which keeps the tens toward zero
    when the rest is below 5 and goes 10 further from zero otherwise)."""
    q, r = divmod(abs(total), multiple)
    rounded = (q + (2 * r >= multiple)) * multiple
    return rounded if total >= 0 else -rounded


def datuo_payments(rules: Datuo, payments: Sequence[int], winner: int | None,
                   doubled: Collection[int]) -> list[int]:
    """A hand's ``payments`` per table seat (in score units) after 打坨 by the table seats in
    ``doubled``: every payment of a won hand is between the ``winner`` and another seat
    (each loser's, or the discarder's, payment goes to the winner), so each other seat's
    payment is multiplied by :meth:`Datuo.multiplier` of the pair (1 when neither 打坨,
    ``factor`` when one does, ``both`` when both do) and the winner gains what they pay; a
    credit that no seat pays (the payments do not sum to zero) is multiplied by the winner's
    own ``factor`` when it 打坨s.

    Example (``factor`` 2, ``both`` 4), seat 0 wins 3 from each of seats 1 and 2,
    ``[6, -3, -3]``: seat 1 打坨 → ``[9, -6, -3]``; seats 0 and 1 → ``[18, -12, -6]``.

    A 荒庄 (``winner`` ``None``) pays nothing to scale, but for one seat's charge that no
    seat receives (``scoring.huangzhuang.dealer_pays``), multiplied by that seat's own
    ``factor`` when it 打坨s; one paying between seats (a 王 penalty, an instant 提 payment,
    which the loader refuses with 打坨) raises :class:`~zipai_rules.errors.ZipaiError`
    (``bad_option``)."""
    if winner is None:
        charged = [seat for seat, paid in enumerate(payments) if paid]
        if len(charged) > 1:
            raise ZipaiError("打坨 scales the payments between a hand's winner and the others; "
                             "this 荒庄 pays between other seats", code="bad_option")
        return [paid * (rules.factor if seat in doubled else 1)
                for seat, paid in enumerate(payments)]
    out = [0] * len(payments)
    for seat, paid in enumerate(payments):
        if seat != winner:
            out[seat] = paid * rules.multiplier(seat in doubled, winner in doubled)
    unpaid = sum(payments)  # 0 for a zero-sum settlement
    out[winner] = -sum(out) + unpaid * (rules.factor if winner in doubled else 1)
    return out


def sitting_out_seat(variant: Variant, dealer: int) -> int | None:
    """The table seat that sits out a hand dealt by table seat ``dealer`` (0 ≤ dealer <
    ``variant.seats``), or ``None`` where every seat plays."""
    v = variant
    if v.seats == v.players:
        return None
    if v.sitting_out == "opposite_dealer":
        return (dealer + v.seats // 2) % v.seats
    return (dealer - 1) % v.seats


def first_dealer(variant: Variant, rng: random.Random) -> int:
    """The first dealer's table seat under ``dealer.first``."""
    if variant.dealer.first == "seat0":
        return 0
    if variant.dealer.first == "highest_card":
        cards = deck(variant)
        rng.shuffle(cards)
        drawn = cards[:variant.seats]  # seat order: the first to draw wins a full tie

        def strength(c: int) -> tuple[int, int]:
            return (rank_of(c), 1 if is_big(c) else 0)
        best = max(strength(c) for c in drawn)
        return next(s for s, c in enumerate(drawn) if strength(c) == best)
    return rng.randrange(variant.seats)


class Match:
    """Several hands of one variant, seeded. ``scores`` holds the running total per table
    seat (in score units, 打坨 included, unrounded); ``played`` the number of hands played;
    ``hands`` the summaries of the last ``keep_hands`` of them (all when ``None``; each holds
    its whole game, so a long match should keep few). The variant's ``match`` section says
    when the match is :attr:`over`, how :meth:`final_scores` round and whether a seat may
    打坨; :meth:`play` plays to the end.

    ``seed``: a non-negative ``int``; without one a secret 128-bit seed is drawn from
    :mod:`secrets`. Hand ``n`` is shuffled with ``hand_seed(seed, n)`` (SHA-256, see
    :mod:`~zipai_rules.engine.seeds`). ``datuo``: a :data:`DatuoPolicy` asked before each hand
    for each seat that may 打坨 (default: nobody does). Raises
    :class:`~zipai_rules.errors.HandError` (``bad_seed``) for a bad seed,
    :class:`~zipai_rules.errors.ZipaiError` (``bad_option``) for a bad ``keep_hands``,
    ``bad_argument`` for a ``datuo`` that is not callable.
    """

    def __init__(self, variant: VariantLike, seed: int | None = None, *,
                 keep_hands: int | None = None, datuo: DatuoPolicy | None = None) -> None:
        variant = as_variant(variant)
        if keep_hands is not None and (isinstance(keep_hands, bool)
                                       or not isinstance(keep_hands, int) or keep_hands < 0):
            raise ZipaiError(f"keep_hands {keep_hands!r} is not a non-negative integer",
                             code="bad_option")
        if datuo is not None and not callable(datuo):
            raise refuse("datuo", datuo, "a policy (a callable: match, table seat -> bool)")
        self.datuo = datuo
        self.variant = variant
        self.seed = fresh_seed() if seed is None else check_seed(seed)
        self.rng = random.Random(self.seed)
        self.dealer = first_dealer(variant, self.rng)
        self.streak = 0
        self.scores = [0] * variant.seats
        self.played = 0
        self.hands: deque[HandSummary] = deque(maxlen=keep_hands)

    def sitting_out(self) -> int | None:
        """The table seat sitting out the next hand, if any."""
        return sitting_out_seat(self.variant, self.dealer)

    def seating(self) -> tuple[int, ...]:
        """Table seats of the next hand's players in turn order, the dealer first."""
        out = self.sitting_out()
        order = [(self.dealer + k) % self.variant.seats for k in range(self.variant.seats)]
        return tuple(t for t in order if t != out)

    @property
    def over(self) -> bool:
        """Whether the match has ended by the variant's ``match.end``: ``end.hands`` hands
        played, or a seat's running total at least ``end.score_at_least`` (whichever comes
        first); never for a variant whose match has no end of its own."""
        end = self.variant.match.end
        return (end.hands is not None and self.played >= end.hands) or (
            end.score_at_least is not None and max(self.scores) >= end.score_at_least)

    def final_scores(self) -> list[int]:
        """The running totals per table seat rounded to ``match.round_to`` (:func:`round_total`,
        each on its own, a half away from zero): they need not sum to zero."""
        return [round_total(s, self.variant.match.round_to) for s in self.scores]

    def datuo_seats(self) -> tuple[int, ...]:
        """The table seats that 打坨 the next hand: those that play it and may
        (``match.datuo``), asked in table order, for which the ``datuo`` policy says ``True``.
        Raises :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) for an answer that
        is not a bool, and whatever the policy raises."""
        rules = self.variant.match.datuo
        if self.datuo is None or not rules.allowed:
            return ()
        out = []
        for seat in sorted(self.seating()):
            if not rules.may(seat, self.dealer):
                continue
            choice = self.datuo(self, seat)
            if not isinstance(choice, bool):
                raise refuse(f"datuo(match, {seat})", choice, "a bool")
            if choice:
                out.append(seat)
        return tuple(out)

    def play_hand(self, bots: Sequence[Bot]) -> HandSummary:
        """Play the next hand with one bot per table seat (``variant.seats`` of them, two for
        a 2-player variant), after asking the ``datuo`` policy (:meth:`datuo_seats`); update
        scores and the dealer (:meth:`next_game`, then :meth:`add_hand`). Raises
        :class:`~zipai_rules.errors.ZipaiError` (``match_over``) once the match is
        :attr:`over`, ``unknown_bot`` for another number of bots, ``bad_argument`` for a value
        that is not a list of bots (:func:`check_bots`)."""
        self._not_over()
        bots = check_bots(bots, self.variant.seats, "table seat", "a match ")
        doubled = self.datuo_seats()
        game = play_out(self.next_game(), [bots[t] for t in self.seating()])
        return self.add_hand(game, doubled)

    def next_game(self, *, windows: bool = False, commit: bool = False) -> Game:
        """The next hand of the match, to be played here or at a table: shuffled with
        ``hand_seed(seed, played + 1)``, dealt by game seat 0, game seat ``g`` being table
        seat ``seating()[g]``; with claim windows and a shuffle commitment as asked
        (``Game(..., windows=, commit=)``: a table of people wants both). Hand it back with
        :meth:`add_hand` once it is over. Raises :class:`~zipai_rules.errors.ZipaiError`
        (``match_over``) once the match is :attr:`over`."""
        self._not_over()
        return Game(self.variant, seed=hand_seed(self.seed, self.played + 1), dealer=0,
                    windows=windows, commit=commit)

    def add_hand(self, game: Game, datuo: Sequence[int] = ()) -> HandSummary:
        """Count the finished ``game`` of :meth:`next_game` as the match's next hand: its
        settlement (the seat sitting out included) summed into the scores per table seat,
        with the table seats that 打坨'd (``datuo``, as :meth:`datuo_seats` gives them or the
        players chose), then the deal moved on (:meth:`advance`). Raises
        :class:`~zipai_rules.errors.ZipaiError`: ``match_over`` once the match is over,
        ``hand_not_over`` for a game still being played, ``bad_argument`` for a game that is
        not the match's next hand (another variant or seed) or ``datuo`` seats that are not
        table seats playing it."""
        self._not_over()
        game = of_type(game, Game, "game", "a Game")
        seed = hand_seed(self.seed, self.played + 1)
        if game.variant != self.variant or game.seed != seed or game.deal.dealer != 0:
            raise ZipaiError("game: not the next hand of this match (Match.next_game deals "
                             "it)", code="bad_argument")
        if game.result is None:
            raise ZipaiError("game: the hand is still being played", code="hand_not_over")
        seats = self.seating()
        doubled = tuple(items_of(datuo, int, "datuo", "a table seat"))
        if any(t not in seats or type(t) is not int for t in doubled):
            raise ZipaiError(f"datuo: {doubled} are not all table seats playing this hand "
                             f"{seats}", code="bad_argument")
        settlement = settle(game.variant, game.result, events=game.events)  # 数醒 as played
        summary = HandSummary(self.played + 1, self.dealer, self.sitting_out(), seats, seed,
                              game, settlement, tuple(sorted(set(doubled))))
        for t, amount in enumerate(summary.table_payments(self.variant.seats)):
            self.scores[t] += amount
        self.hands.append(summary)
        self.played = summary.number
        self.advance(summary.winner)
        return summary

    def _not_over(self) -> None:
        if self.over:
            raise ZipaiError(f"the match is over after {self.played} hands (match.end of "
                             f"{self.variant.id})", code="match_over")

    def play(self, bots: Sequence[Bot], *, max_hands: int | None = None) -> list[int]:
        """Play hands (:meth:`play_hand`) until the match is :attr:`over`, or ``max_hands``
        more have been played; return the :meth:`final_scores`. Without ``max_hands`` the
        variant's ``match.end`` must end the match (a match ended by score alone stops after
        :data:`MAX_MATCH_HANDS` at the latest). Raises :class:`~zipai_rules.errors.ZipaiError`
        (``bad_option``) for a match with no end and no ``max_hands``, ``bad_argument`` for a
        ``max_hands`` that is not an int of 0 or more."""
        end = self.variant.match.end
        if max_hands is None:
            if end.hands is None and end.score_at_least is None:
                raise ZipaiError(f"the match of {self.variant.id} has no end of its own "
                                 "(match.end): give max_hands", code="bad_option")
            max_hands = MAX_MATCH_HANDS
        for _ in range(int_arg(max_hands, "max_hands", 0)):
            if self.over:
                break
            self.play_hand(bots)
        return self.final_scores()

    def advance(self, winner: int | None) -> None:
        """Move the deal after a hand won by table seat ``winner`` (``None``: 荒庄)."""
        if winner is not None:
            self.streak = 0
            self.dealer = winner
            return
        self.streak += 1
        if self.streak >= self.variant.dealer.huangzhuang_streak:
            self.streak = 0
            self.dealer = (self.dealer + 1) % self.variant.seats
