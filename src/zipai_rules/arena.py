"""Bots and policies played against each other: ``zipai arena`` and :func:`arena`.

A run plays ``games`` deals (deal ``k`` is shuffled with seed ``seed + k - 1``, as ``zipai play
--seed``) and plays every deal once per seating: the lineup rotated one seat at a time, so that
each entrant plays each seat of every deal once (``players`` games a deal, a duplicate
format: the luck of the deal falls on every entrant alike). Entrants are compared by name
("player"): the entrants of one name are pooled (a built-in bot named twice, one bot object
given twice); two different players that would share a name are told apart as ``name#k``,
``k`` the later one's place in the lineup (1-based).

Statistics, per player, over the deals (the unit of independence: the games of one deal
share its cards): on each deal ``i``, ``w_i`` is the share of its games the player won (over
every seat it held) and ``u_i`` its mean payment (the settlement's ``payments``, in the
variant's unit). The report gives the means of ``w`` and ``u`` with a confidence interval from
the normal approximation, ``mean ± z * sd / sqrt(n)`` (``sd`` the sample standard deviation
over the ``n`` deals, ``z`` the normal quantile of the confidence level: 1.96 at 95%).

Significance, between two players: a paired test over the same deals, on the differences
``d_i = u_i(A) - u_i(B)`` (and likewise for ``w``): ``t = mean(d) / (sd(d) / sqrt(n))``, with a
two-sided p-value from the normal approximation ``p = erfc(|t| / sqrt 2)`` (a paired z-test:
close to Student's t from some 30 deals on; below that it is optimistic). The difference is
significant when ``p < 1 - confidence``.

Players: a built-in bot by name (``random``, ``greedy``: :data:`zipai_rules.bots.BOTS`, seeded
from the deal's seed and the entrant's place in the lineup), any bot callable ``(state,
options) -> Action`` (:data:`zipai_rules.play.Bot`), or a :class:`Policy`: a function of the
RL environment's ``(observation, action_mask)`` arrays to an action code, played through
:mod:`zipai_rules.rl` (extra ``[rl]``) and seeing only what that environment shows its seat.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from .arguments import int_arg, items_of, of_type, refuse
from .bots import BOTS, check_bot_name
from .engine.encoding import encode_action
from .engine.game import Game
from .engine.seeds import check_seed
from .errors import ZipaiError
from .play import Bot
from .settlement import settle
from .variant import Variant, VariantLike, as_variant

__all__ = ["MAX_GAMES", "ArenaResult", "Comparison", "Estimate", "Policy", "Standing",
           "arena", "format_arena", "normal_quantile"]

#: the most deals of one run (each played once per seat)
MAX_GAMES = 1_000_000


@attrs.frozen(slots=True)
class Policy:
    """A player from the RL environment's view alone: ``act(observation, action_mask)`` gives
    an action code the mask allows (NumPy ``int8`` arrays of :mod:`zipai_rules.rl`; the
    observation is the seat view, or the whole table with ``seat_views=False``). ``name``
    names it in the report. Needs the ``[rl]`` extra when played. Raises
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) when built with an ``act``
    that is not callable, a ``name`` that is not a non-empty string or a ``seat_views`` that
    is not a bool."""

    act: Callable[[Any, Any], Any] = attrs.field()
    name: str = attrs.field(default="policy")
    seat_views: bool = attrs.field(default=True)

    @act.validator
    def _check_act(self, attribute: Any, value: Any) -> None:
        if not callable(value):
            raise refuse("Policy.act", value, "a function act(observation, action_mask)")

    @name.validator
    def _check_name(self, attribute: Any, value: Any) -> None:
        if not isinstance(value, str) or not value.strip():
            raise refuse("Policy.name", value, "a non-empty string")

    @seat_views.validator
    def _check_views(self, attribute: Any, value: Any) -> None:
        of_type(value, bool, "Policy.seat_views", "True or False")


@attrs.frozen(slots=True)
class Estimate:
    """A mean over ``n`` deals with its confidence interval ``low..high`` (normal
    approximation: ``mean ± z * sd / sqrt(n)``, a win rate's cut to 0..1; ``low == high ==
    mean`` when ``n == 1``)."""

    mean: float
    low: float
    high: float
    n: int


@attrs.frozen(slots=True)
class Standing:
    """One player's results: its ``name``, the ``seats`` it holds in the lineup, the
    ``games`` it played (deals × seats), its ``wins``, its ``win_rate`` (share of its games
    won) and ``units`` (mean payment a game, in the variant's unit) as :class:`Estimate`."""

    name: str
    seats: int
    games: int
    wins: int
    win_rate: Estimate
    units: Estimate


@attrs.frozen(slots=True)
class Comparison:
    """Player ``a`` against player ``b``, paired over the same deals: the mean differences
    of win rate and units (a minus b) with their intervals, the paired z statistics and
    two-sided p-values, and whether each is ``significant`` at the run's confidence level."""

    a: str
    b: str
    win_rate: Estimate
    win_rate_z: float
    win_rate_p: float
    units: Estimate
    units_z: float
    units_p: float
    alpha: float

    @property
    def significant(self) -> bool:
        """Whether the difference in units or in win rate is significant (p below alpha)."""
        return self.units_p < self.alpha or self.win_rate_p < self.alpha


@attrs.frozen(slots=True)
class ArenaResult:
    """A run: the ``variant`` id, the ``lineup`` (a name per entrant, seat 0 first in the
    first seating), ``games`` deals from ``seed``, ``confidence`` level, the huangzhuang
    (荒庄) share of all games, each player's :class:`Standing` (lineup order) and a
    :class:`Comparison` of each pair of players (lineup order)."""

    variant: str
    lineup: tuple[str, ...]
    games: int
    seed: int
    confidence: float
    huangzhuang: float
    standings: tuple[Standing, ...]
    comparisons: tuple[Comparison, ...]

    def as_dict(self) -> dict[str, Any]:
        """The result as plain JSON data (``zipai arena --json``): an unbounded end of an
        interval (one deal) is ``null``, as strict JSON has no infinity."""
        return attrs.asdict(self, recurse=True, value_serializer=lambda _i, _a, v: (
            None if isinstance(v, float) and not math.isfinite(v) else v))


def normal_quantile(p: float) -> float:
    """The ``p`` quantile of the standard normal distribution (``0 < p < 1``), by bisection
    on ``erf`` (to 1e-12). Raises :class:`ZipaiError` (``bad_argument``) otherwise."""
    if not isinstance(p, float | int) or isinstance(p, bool) or not 0 < p < 1:
        raise refuse("p", p, "a probability strictly between 0 and 1")
    low, high = -40.0, 40.0
    while high - low > 1e-12:
        mid = (low + high) / 2
        if 0.5 * math.erfc(-mid / math.sqrt(2)) < p:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _estimate(values: Sequence[float], z: float, share: bool = False
              ) -> tuple[Estimate, float]:
    """The mean of ``values`` with its interval (cut to 0..1 for a ``share``), and its z
    statistic against 0 (``inf`` with the sign of the mean where every value of two or more is
    the same nonzero one, 0 where all are 0). One value tells no spread: its interval is
    unbounded (0..1 for a share) and its statistic 0, so that one deal is never significant
    (it was p = 0, an interval of no width)."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, 0.0 if share else -math.inf, 1.0 if share else math.inf, n), 0.0
    sd = statistics.stdev(values)
    half = z * sd / math.sqrt(n)
    if sd > 0:
        stat = mean / (sd / math.sqrt(n))
    else:
        stat = 0.0 if mean == 0 else math.copysign(math.inf, mean)
    low, high = mean - half, mean + half
    if share:
        low, high = max(low, 0.0), min(high, 1.0)
    return Estimate(mean, low, high, n), stat


def _p_value(stat: float) -> float:
    """The two-sided p-value of a z statistic."""
    return math.erfc(abs(stat) / math.sqrt(2))


def _name(player: object, k: int) -> str:
    if isinstance(player, str):
        return player.strip().lower()
    if isinstance(player, Policy):
        return player.name
    if callable(player):
        return str(getattr(player, "__name__", type(player).__name__))
    raise refuse(f"players[{k}]", player, "a bot name, a bot (state, options -> action) or a "
                 "Policy")


class _Table:
    """The players of one game: each entrant's bot (built-in ones fresh for the deal), and
    the RL environment through which policies see the game (only when one plays)."""

    def __init__(self, variant: Variant, players: Sequence[object], deal: int,
                 rotation: int) -> None:
        n = variant.players
        self.seat_player: list[object] = [None] * n
        for k, p in enumerate(players):
            seat = (k + rotation) % n
            self.seat_player[seat] = BOTS[p](deal * 31 + k) if isinstance(p, str) else p
        self.env: Any = None
        views = {p.seat_views for p in players if isinstance(p, Policy)}
        if len(views) > 1:
            raise ZipaiError("the policies of one run all see seat views or all the whole "
                             "table (seat_views)", code="bad_argument")
        if views:
            from . import rl  # the [rl] extra, only for policies

            self.env = rl.raw_env(variant, seat_views=views.pop())
            self.env.reset(seed=deal)
            self.game: Game = self.env.game
        else:
            self.game = Game(variant, seed=deal)

    def play(self, max_steps: int = 10_000) -> Game:
        game, env = self.game, self.env
        for _ in range(max_steps):
            if game.is_over:
                return game
            state = game.state
            seat = state.acting_seat
            player = self.seat_player[seat]
            if isinstance(player, Policy):
                obs = env.observe(f"seat_{seat}")
                env.step(player.act(obs["observation"], obs["action_mask"]))
                continue
            action = player(state, state.options)  # type: ignore[operator]
            if env is not None:
                env.step(encode_action(action))
            else:
                game.apply(action)
        if game.is_over:
            return game
        raise RuntimeError(f"game did not end within {max_steps} steps")


def arena(players: Sequence[str | Bot | Policy], variant: VariantLike = "hunan",
          games: int = 100, seed: int = 1, confidence: float = 0.95) -> ArenaResult:
    """Play ``games`` deals from ``seed`` (deal ``k`` seeded ``seed + k - 1``), each once per
    seating of ``players`` (a list of 1 to ``variant.players`` entrants, repeated to fill the
    table: ``["greedy", "random"]`` on three seats is greedy, random, greedy), and compare
    them as the module docstring says. Returns an :class:`ArenaResult`.

    Raises :class:`~zipai_rules.errors.ZipaiError`: ``unknown_bot`` for an unknown bot name
    or more entrants than seats; ``bad_argument`` for a player that is none of a name, a bot
    or a :class:`Policy`, ``games`` not an int in 1..:data:`MAX_GAMES`, a ``confidence``
    not strictly between 0.5 and 1; :class:`~zipai_rules.errors.HandError` (``bad_seed``)
    for a ``seed`` (or last deal's seed) that is no seed; whatever a bot or policy raises
    (an illegal choice: :class:`~zipai_rules.errors.IllegalActionError`)."""
    v = as_variant(variant)
    entrants = list(items_of(players, object, "players", "a player"))
    int_arg(games, "games", 1, MAX_GAMES)
    check_seed(seed)
    check_seed(seed + games - 1, "the last deal's seed")
    if isinstance(confidence, bool) or not isinstance(confidence, float | int) \
            or not 0.5 < confidence < 1:
        raise refuse("confidence", confidence, "a level strictly between 0.5 and 1")
    n = v.players
    if not entrants:
        raise ZipaiError("no player given", code="unknown_bot")
    if len(entrants) > n:
        raise ZipaiError(f"{len(entrants)} players for {n} seats", code="unknown_bot")
    names = [_name(p, k) for k, p in enumerate(entrants)]
    entrants = [nm if isinstance(p, str) else p for p, nm in zip(entrants, names, strict=True)]
    for k, p in enumerate(entrants):  # two different players of one name are told apart
        if any(names[j] == names[k] and entrants[j] is not p
               and not (isinstance(entrants[j], str) and isinstance(p, str))
               for j in range(k)):
            names[k] = f"{names[k]}#{k + 1}"
    for p in entrants:
        if isinstance(p, str):
            check_bot_name(p)
    lineup = [entrants[s % len(entrants)] for s in range(n)]
    lineup_names = tuple(names[s % len(names)] for s in range(n))
    distinct = list(dict.fromkeys(lineup_names))
    held = {nm: [k for k, x in enumerate(lineup_names) if x == nm] for nm in distinct}
    wins = {nm: [0.0] * games for nm in distinct}
    units = {nm: [0.0] * games for nm in distinct}
    won = dict.fromkeys(distinct, 0)
    huangzhuang = 0
    for i in range(games):
        deal = seed + i
        for r in range(n):
            game = _Table(v, lineup, deal, r).play()
            result = game.result
            assert result is not None
            payments = settle(v, result, events=game.events).payments
            huangzhuang += result.winner is None
            for nm in distinct:
                for k in held[nm]:
                    seat = (k + r) % n
                    units[nm][i] += payments[seat]
                    if result.winner == seat:
                        wins[nm][i] += 1
                        won[nm] += 1
        for nm in distinct:
            played = n * len(held[nm])
            wins[nm][i] /= played
            units[nm][i] /= played
    z = normal_quantile(0.5 + confidence / 2)
    standings = tuple(Standing(nm, len(held[nm]), games * n * len(held[nm]), won[nm],
                               _estimate(wins[nm], z, share=True)[0], _estimate(units[nm], z)[0])
                      for nm in distinct)
    comparisons = []
    for x, a in enumerate(distinct):
        for b in distinct[x + 1:]:
            dw, zw = _estimate([p - q for p, q in zip(wins[a], wins[b], strict=True)], z)
            du, zu = _estimate([p - q for p, q in zip(units[a], units[b], strict=True)], z)
            comparisons.append(Comparison(a, b, dw, zw, _p_value(zw), du, zu, _p_value(zu),
                                          round(1 - confidence, 12)))
    return ArenaResult(v.id, lineup_names, games, seed, float(confidence),
                       huangzhuang / (games * n), standings, tuple(comparisons))


def _interval(e: Estimate, scale: float = 1.0, digits: int = 2, sign: str = "+") -> str:
    return (f"{e.mean * scale:{sign}.{digits}f} [{e.low * scale:{sign}.{digits}f}, "
            f"{e.high * scale:{sign}.{digits}f}]")


def format_arena(result: ArenaResult) -> str:
    """The text report of ``zipai arena``."""
    of_type(result, ArenaResult, "result", "an ArenaResult")
    r = result
    seats = len(r.lineup)
    level = f"{r.confidence:.0%}" if round(r.confidence * 100, 6).is_integer() \
        else f"{r.confidence:.2%}"
    deals = f"{r.games} deal{'s' * (r.games != 1)}"
    lines = [f"arena: {r.variant}, {deals} (seeds {r.seed}–{r.seed + r.games - 1}) × "
             f"{seats} seatings = {r.games * seats} games; lineup {', '.join(r.lineup)}",
             f"荒庄 (no winner): {r.huangzhuang:.1%} of the games",
             f"{'player':<12} {'seats':>5} {'games':>7} {'wins':>6}  "
             f"win rate % ({level} CI)        units a game ({level} CI)"]
    for s in r.standings:
        lines.append(f"{s.name[:12]:<12} {s.seats:>5} {s.games:>7} {s.wins:>6}  "
                     f"{_interval(s.win_rate, 100, 1, ''):<28} {_interval(s.units, 1, 3)}")
    for c in r.comparisons:
        verdict = "significant" if c.significant else "not significant"
        lines.append(f"{c.a} − {c.b}: win rate {_interval(c.win_rate, 100, 1)} points, "
                     f"p = {c.win_rate_p:.2g}; units {_interval(c.units, 1, 3)}, "
                     f"p = {c.units_p:.2g}: {verdict} at {c.alpha:.2g}")
    lines.append(f"method: means over the {deals}, {level} normal-approximation "
                 "intervals; paired z-test over the same deals (two-sided)")
    return "\n".join(lines)
