"""A match: several hands with the dealer rotation and running scores per table seat.

* First dealer by the variant's ``dealer.first``: ``random`` (000 §字牌规则说明 "每新局开始随机
  决定一个玩家成为庄家"), ``highest_card`` (001 "每人拿一张字牌，谁的数字大谁打庄，数字相同的情况下
  大写>小写，一样的字从左到右，谁先抓到，谁打庄") or ``seat0``.
* The winner deals next ("上局胡牌的玩家成为庄家"); on 荒庄 the dealer deals again, and after
  ``dealer.huangzhuang_streak`` (3) in a row the next seat deals
  ("连续3次荒庄，则由庄家的下家做庄").
* With more seats than players (数醒), one seat sits out each hand: the seat opposite the dealer
  (``opposite_dealer``, 000 §碰胡规则) or the dealer's 上家 (``rotate``, an assumption for 大冶).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

import attrs

from .cards import is_big, rank_of
from .engine.game import Game, deck
from .engine.seeds import check_seed, fresh_seed, hand_seed
from .errors import ZipaiError
from .play import Bot, check_bots, play_out
from .settlement import Settlement, settle
from .variant import Variant, VariantLike, as_variant


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

    def table_payments(self, table_seats: int) -> list[int]:
        """Payments per table seat, the seat sitting out included."""
        out = [0] * table_seats
        for g, t in enumerate(self.seats):
            out[t] += self.settlement.payments[g]
        if self.sitting_out is not None:
            out[self.sitting_out] += self.settlement.sitting_out
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
    seat (in score units); ``played`` the number of hands played; ``hands`` the summaries of
    the last ``keep_hands`` of them (all when ``None``; each holds its whole game, so a long
    match should keep few).

    ``seed``: a non-negative ``int``; without one a secret 128-bit seed is drawn from
    :mod:`secrets`. Hand ``n`` is shuffled with ``hand_seed(seed, n)`` (SHA-256, see
    :mod:`~zipai_rules.engine.seeds`). Raises :class:`~zipai_rules.errors.HandError`
    (``bad_seed``) for a bad seed, :class:`~zipai_rules.errors.ZipaiError` (``bad_option``)
    for a bad ``keep_hands``.
    """

    def __init__(self, variant: VariantLike, seed: int | None = None, *,
                 keep_hands: int | None = None) -> None:
        variant = as_variant(variant)
        if keep_hands is not None and (isinstance(keep_hands, bool)
                                       or not isinstance(keep_hands, int) or keep_hands < 0):
            raise ZipaiError(f"keep_hands {keep_hands!r} is not a non-negative integer",
                             code="bad_option")
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

    def play_hand(self, bots: Sequence[Bot]) -> HandSummary:
        """Play the next hand with one bot per table seat (``variant.seats`` of them, two for
        a 2-player variant); update scores and the dealer. Raises
        :class:`~zipai_rules.errors.ZipaiError` (``unknown_bot``) for another number of bots,
        ``bad_argument`` for a value that is not a list of bots (:func:`check_bots`)."""
        bots = check_bots(bots, self.variant.seats, "table seat", "a match ")
        seats = self.seating()
        number = self.played + 1
        seed = hand_seed(self.seed, number)
        game = play_out(Game(self.variant, seed=seed, dealer=0), [bots[t] for t in seats])
        settlement = settle(game.variant, game.result, events=game.events)
        summary = HandSummary(number, self.dealer, self.sitting_out(), seats, seed, game,
                              settlement)
        for t, amount in enumerate(summary.table_payments(self.variant.seats)):
            self.scores[t] += amount
        self.hands.append(summary)
        self.played = number
        result = game.result
        self.advance(None if result is None or result.winner is None else seats[result.winner])
        return summary

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
