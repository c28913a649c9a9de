"""The statistics of a run, stored so that they merge: ``zipai stats merge``.

A :class:`Tally` holds exact counts (wins per seat, result kinds, ``{value: how many}`` for
胡息, units, the winner's gain and the game length) and the game numbers counted, as ranges.
Its JSON form (:meth:`Tally.to_json`, format :data:`TALLY_FORMAT`) travels inside the
statistics of :func:`tally_stats` (key ``tally``), so the statistics of two runs of the same
variant, engine and bots merge (:func:`merge_stats`) into exactly the statistics of one run
over the union of their games: every figure, quartiles and means included, is computed from
the counts. Only ``timing`` differs (a merged file's seconds are the sum of its parts').

Game ``n`` of a run with seed ``S`` is the game of seed ``S + n - 1``; statistics of runs
with different seeds merge with their numbers taken from the smallest seed, so that
``--seed 1 --games 100`` and ``--seed 101 --games 100`` merge into ``--seed 1 --games 200``.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import accumulate
from pathlib import Path
from typing import Any, Protocol, cast

from . import __version__
from .bots import seat_bot_names
from .engine.seeds import MAX_SEED_BITS
from .errors import ZipaiError, brief
from .inputs import MAX_SCORE, Limits, Refused, check_tree, loads_json, read_text
from .terminal import pad
from .variant import Variant
from .vocab import ResultKind

#: the ``format`` of a tally's JSON form
TALLY_FORMAT = "zipai-tally/1"

#: the value distributions a tally counts, in the order the statistics list them
VALUES = ("huxi", "units", "gain", "length")

#: bounds on a tally read from JSON: seats, distinct values per distribution, ranges of game
#: numbers, result kinds, and the largest game number or count
MAX_PLAYERS = 8
MAX_DISTINCT = 100_000
MAX_RANGES = 100_000
MAX_KINDS = 16
MAX_COUNT = 2 ** 63 - 1

#: bounds on a statistics file read by :func:`read_stats` (a tally at its bounds is larger:
#: raise ``max_bytes``/``max_nodes`` for such a file)
STATS_LIMITS = Limits(max_bytes=16 * 1024 * 1024, max_nodes=1_000_000, max_depth=8)

#: the result kinds a game may end in (a tally's ``kinds`` keys)
KINDS = frozenset(k.value for k in ResultKind)
_INT = re.compile(r"-?(0|[1-9][0-9]{0,15})")

__all__ = ["KINDS", "MAX_COUNT", "STATS_LIMITS", "TALLY_FORMAT", "VALUES", "Summary", "Tally",
           "check_stats", "format_stats", "merge_stats", "read_stats", "summarize",
           "tally_stats"]


class Summary(Protocol):
    """What a tally reads of one game (:class:`~zipai_rules.simulate.GameSummary`)."""

    @property
    def number(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def huxi(self) -> int: ...
    @property
    def units(self) -> int: ...
    @property
    def gain(self) -> int: ...
    @property
    def actions(self) -> int: ...


def _refuse(message: str) -> ZipaiError:
    return ZipaiError(message, code="cannot_merge")


class Tally:
    """Running statistics of a run: exact counts per seat, result kind and value, and the
    game numbers counted (as ranges), so memory is bounded by the number of distinct values
    (胡息, units, game lengths) and of gaps between numbers, not of games.

    ``players``: the seats (an int from 1 to :data:`MAX_PLAYERS`). Raises
    :class:`~zipai_rules.errors.ZipaiError` (``bad_argument``) otherwise."""

    def __init__(self, players: int) -> None:
        if type(players) is not int or not 1 <= players <= MAX_PLAYERS:
            raise ZipaiError(f"players {players!r} is not an int from 1 to {MAX_PLAYERS}",
                             code="bad_argument")
        self.players = players
        self.games = 0
        self.wins = [0] * players
        self.huangzhuang = 0
        self.kinds: Counter[str] = Counter()
        self.values: dict[str, Counter[int]] = {k: Counter() for k in VALUES}
        self._starts: list[int] = []  # the game numbers: ranges _starts[i] .. _ends[i]
        self._ends: list[int] = []

    @property
    def numbers(self) -> list[tuple[int, int]]:
        """The game numbers counted, as sorted inclusive ranges ``[(first, last), …]``,
        neither overlapping nor touching (``[(1, 222), (251, 275)]``)."""
        return list(zip(self._starts, self._ends, strict=True))

    def add(self, g: Summary) -> None:
        """Count one game. Raises :class:`~zipai_rules.errors.ZipaiError`
        (``cannot_merge``) when its number is already counted, ``bad_argument`` for a
        number that is not a positive int, a winner that is not a seat, a kind that is not
        a :class:`~zipai_rules.vocab.ResultKind`, a winner given for a 荒庄 (or none for
        a win), or a 胡息, units, gain or length that is not an int within
        ±:data:`~zipai_rules.inputs.MAX_SCORE`; the tally is then unchanged."""
        n = g.number
        if type(n) is not int or not 1 <= n <= MAX_COUNT:
            raise ZipaiError(f"game number {n!r} is not an int from 1 to 2**63-1",
                             code="bad_argument")
        if g.winner is not None and (type(g.winner) is not int
                                     or not 0 <= g.winner < self.players):
            raise ZipaiError(f"game {n}: winner {g.winner!r} is not a seat of "
                             f"{self.players}", code="bad_argument")
        if not isinstance(g.kind, str) or g.kind not in KINDS:
            raise ZipaiError(f"game {n}: kind {g.kind!r} is not a result kind "
                             f"({', '.join(sorted(KINDS))})", code="bad_argument")
        if (g.winner is None) != (g.kind == ResultKind.HUANGZHUANG):
            raise ZipaiError(f"game {n}: a {g.kind} with winner {g.winner!r} (a game has a "
                             "winner unless it is huangzhuang)", code="bad_argument")
        kind = str.__str__(g.kind)  # the text of a ResultKind, as JSON writes it
        for name, value in (("huxi", g.huxi), ("units", g.units), ("gain", g.gain),
                            ("actions", g.actions)):
            if type(value) is not int or abs(value) > MAX_SCORE:
                raise ZipaiError(f"game {n}: {name} {value!r} is not an int within "
                                 "±(2**53-1)", code="bad_argument")
        i = bisect_right(self._starts, n)  # ranges before i start at or below n
        if i and self._ends[i - 1] >= n:
            raise _refuse(f"game {n} is counted twice")
        joins_left = i > 0 and self._ends[i - 1] == n - 1
        joins_right = i < len(self._starts) and self._starts[i] == n + 1
        if joins_left and joins_right:
            self._ends[i - 1] = self._ends[i]
            del self._starts[i], self._ends[i]
        elif joins_left:
            self._ends[i - 1] = n
        elif joins_right:
            self._starts[i] = n
        else:
            self._starts.insert(i, n)
            self._ends.insert(i, n)
        self.games += 1
        self.kinds[kind] += 1
        self.values["length"][g.actions] += 1
        if g.winner is None:
            self.huangzhuang += 1
            return
        self.wins[g.winner] += 1
        self.values["huxi"][g.huxi] += 1
        self.values["units"][g.units] += 1
        self.values["gain"][g.gain] += 1

    def merge(self, other: Tally) -> None:
        """Add the counts of ``other`` to this tally, in place: afterwards it is the tally of
        the union of both runs' games. Raises :class:`~zipai_rules.errors.ZipaiError`
        (``cannot_merge``), leaving this tally unchanged, when the two differ in players or
        hold a common game number (the message names the first), ``bad_argument`` when
        ``other`` is not a Tally."""
        if not isinstance(other, Tally):
            raise ZipaiError(f"cannot merge {type(other).__name__} into a Tally",
                             code="bad_argument")
        if other.players != self.players:
            raise _refuse(f"a tally of {other.players} players cannot merge into one of "
                          f"{self.players}")
        starts, ends = _union(self.numbers, other.numbers)
        self._starts, self._ends = starts, ends
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.huangzhuang += other.huangzhuang
        self.kinds.update(other.kinds)
        for name in VALUES:
            self.values[name].update(other.values[name])

    def shifted(self, offset: int) -> Tally:
        """A copy whose game numbers are ``offset`` higher (the same games numbered from a
        seed ``offset`` lower). Raises ``bad_argument`` when a number would leave 1 ..
        2**63-1."""
        copy = Tally(self.players)
        copy.merge(self)
        if self._starts and not (1 <= self._starts[0] + offset
                                 and self._ends[-1] + offset <= MAX_COUNT):
            raise ZipaiError(f"game numbers shifted by {brief(str(offset), 24)} leave 1 .. "
                             "2**63-1",
                             code="bad_argument")
        copy._starts = [a + offset for a in self._starts]
        copy._ends = [b + offset for b in self._ends]
        return copy

    def to_json(self) -> dict[str, Any]:
        """The tally as a JSON-ready dict of exact counts: ``format`` (:data:`TALLY_FORMAT`),
        ``players``, ``games``, ``numbers`` (``[[first, last], …]``), ``wins`` per seat,
        ``huangzhuang``, ``kinds`` (``{kind: games}``) and ``values``: for each of
        :data:`VALUES` a ``{"value": games}`` object, keys in increasing value. Equal tallies
        give equal dicts, whatever order their games were added in."""
        return {"format": TALLY_FORMAT, "players": self.players, "games": self.games,
                "numbers": [[a, b] for a, b in self.numbers], "wins": list(self.wins),
                "huangzhuang": self.huangzhuang,
                "kinds": {k: c for k, c in sorted(self.kinds.items()) if c},
                "values": {name: {str(v): c for v, c in sorted(counts.items()) if c}
                           for name, counts in self.values.items()}}

    @classmethod
    def from_json(cls, obj: object, where: str = "tally") -> Tally:
        """The tally of a :meth:`to_json` dict, read strictly: exact keys and types (an int
        is an ``int``, not a bool or float), counts within 0 .. :data:`MAX_COUNT`, values
        within ±:data:`~zipai_rules.inputs.MAX_SCORE`, at most :data:`MAX_RANGES` ranges,
        :data:`MAX_DISTINCT` values per distribution and :data:`MAX_KINDS` kinds, ranges
        sorted and apart, and every total consistent (games = numbers = kinds = lengths =
        wins + 荒庄; 荒庄 = the huangzhuang kind; wins = each won-game distribution). Raises
        :class:`~zipai_rules.errors.ZipaiError` (``schema``) naming the path of the first
        bad value, ``where`` being the path of ``obj`` itself."""
        doc = _mapping(obj, where, ("format", "players", "games", "numbers", "wins",
                                    "huangzhuang", "kinds", "values"))
        if doc["format"] != TALLY_FORMAT:
            raise _schema(f"{where}.format", f"is not {TALLY_FORMAT!r}")
        players = _int(doc["players"], f"{where}.players", 1, MAX_PLAYERS)
        tally = cls(players)
        games = _int(doc["games"], f"{where}.games")
        tally.games = games
        tally._starts, tally._ends = _ranges(doc["numbers"], f"{where}.numbers")
        held = sum(b - a + 1 for a, b in tally.numbers)
        if held != games:
            raise _schema(f"{where}.numbers", f"hold {held} games, not {games}")
        wins = _list(doc["wins"], f"{where}.wins", MAX_PLAYERS)
        if len(wins) != players:
            raise _schema(f"{where}.wins", f"has {len(wins)} seats, not {players}")
        tally.wins = [_int(w, f"{where}.wins[{s}]") for s, w in enumerate(wins)]
        tally.huangzhuang = _int(doc["huangzhuang"], f"{where}.huangzhuang")
        if sum(tally.wins) + tally.huangzhuang != games:
            raise _schema(f"{where}.wins", f"and huangzhuang add up to "
                          f"{sum(tally.wins) + tally.huangzhuang} games, not {games}")
        kinds = _mapping(doc["kinds"], f"{where}.kinds", None, MAX_KINDS)
        for kind, c in kinds.items():
            if kind not in KINDS:
                raise _schema(f"{where}.kinds", f"kind {kind[:40]!r} is not a result kind "
                              f"({', '.join(sorted(KINDS))})")
            tally.kinds[kind] = _int(c, f"{where}.kinds.{kind}", 1)
        if sum(tally.kinds.values()) != games:
            raise _schema(f"{where}.kinds", f"add up to {sum(tally.kinds.values())} games, "
                          f"not {games}")
        if tally.kinds["huangzhuang"] != tally.huangzhuang:
            raise _schema(f"{where}.kinds", f"count {tally.kinds['huangzhuang']} huangzhuang, "
                          f"not {tally.huangzhuang}")
        values = _mapping(doc["values"], f"{where}.values", VALUES)
        for name in VALUES:
            counts = _mapping(values[name], f"{where}.values.{name}", None, MAX_DISTINCT)
            for key, c in counts.items():
                path = f"{where}.values.{name}"
                if not _INT.fullmatch(key) or key == "-0" or abs(int(key)) > MAX_SCORE:
                    raise _schema(path, f"key {key[:40]!r} is not an integer written plainly "
                                  "within ±(2**53-1)")
                tally.values[name][int(key)] = _int(c, f"{path}.{key}", 1)
            total = sum(tally.values[name].values())
            should = games if name == "length" else sum(tally.wins)
            if total != should:
                raise _schema(f"{where}.values.{name}", f"count {total} games, not {should}")
        return tally

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tally) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Tally(players={self.players}, games={self.games}, numbers={self.numbers})"


def _union(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The ranges of ``a`` and ``b`` together (both sorted, apart), joined where they touch.
    Raises ``cannot_merge`` naming the first number both hold."""
    starts: list[int] = []
    ends: list[int] = []
    i = j = 0
    while i < len(a) or j < len(b):
        if j == len(b) or (i < len(a) and a[i][0] < b[j][0]):
            lo, hi = a[i]
            i += 1
        else:
            lo, hi = b[j]
            j += 1
        if ends and lo <= ends[-1]:
            raise _refuse(f"game {_first_common(a, b)} is in both tallies")
        if ends and lo == ends[-1] + 1:
            ends[-1] = hi
        else:
            starts.append(lo)
            ends.append(hi)
    return starts, ends


def _first_common(a: Sequence[tuple[int, int]], b: Sequence[tuple[int, int]]) -> int | None:
    """The smallest number in both ``a`` and ``b`` (sorted ranges), or ``None``."""
    i = j = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo <= hi:
            return lo
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return None


# --- strict reading ---------------------------------------------------------------------------

def _schema(path: str, message: str) -> ZipaiError:
    return ZipaiError(f"{path}: {message}", code="schema")


def _kind_of(value: object) -> str:
    return type(value).__name__


def _mapping(value: object, path: str, keys: Sequence[str] | None,
             most: int | None = None) -> dict[str, Any]:
    """``value`` as a dict with exactly ``keys`` (any string keys, at most ``most``, when
    ``keys`` is None)."""
    if type(value) is not dict:
        raise _schema(path, f"is {_kind_of(value)}, not an object")
    if most is not None and len(value) > most:
        raise _schema(path, f"has {len(value)} entries, more than {most}")
    if any(type(k) is not str for k in value):
        raise _schema(path, "has a key that is not a string")
    if keys is not None:
        extra = [k for k in value if k not in keys]
        if extra:
            raise _schema(path, f"unknown key {extra[0][:40]!r}")
        missing = [k for k in keys if k not in value]
        if missing:
            raise _schema(path, f"missing key {missing[0]!r}")
    return cast(dict[str, Any], value)


def _list(value: object, path: str, most: int) -> list[Any]:
    if type(value) is not list:
        raise _schema(path, f"is {_kind_of(value)}, not a list")
    if len(value) > most:
        raise _schema(path, f"has {len(value)} items, more than {most}")
    return value


def _int(value: object, path: str, low: int = 0, high: int = MAX_COUNT) -> int:
    if type(value) is not int:
        raise _schema(path, f"is {_kind_of(value)}, not an integer")
    if not low <= value <= high:
        raise _schema(path, f"{value if abs(value) < 10 ** 30 else 'a huge number'} is not "
                      f"from {low} to {high if high < 10 ** 30 else f'2^{high.bit_length()}-1'}")
    return value


def _text(value: object, path: str, most: int = 256) -> str:
    if type(value) is not str:
        raise _schema(path, f"is {_kind_of(value)}, not a string")
    if len(value) > most:
        raise _schema(path, f"is longer than {most} characters")
    return value


def _ranges(value: object, path: str) -> tuple[list[int], list[int]]:
    starts: list[int] = []
    ends: list[int] = []
    for k, pair in enumerate(_list(value, path, MAX_RANGES)):
        at = f"{path}[{k}]"
        if type(pair) is not list or len(pair) != 2:
            raise _schema(at, "is not a pair [first, last]")
        lo, hi = _int(pair[0], f"{at}[0]", 1), _int(pair[1], f"{at}[1]", 1)
        if hi < lo:
            raise _schema(at, f"ends at {hi}, before it starts at {lo}")
        if ends and lo <= ends[-1] + 1:
            raise _schema(at, f"starts at {lo}, not after the range before it (which ends at "
                          f"{ends[-1]}) with a gap")
        starts.append(lo)
        ends.append(hi)
    return starts, ends


# --- the statistics ---------------------------------------------------------------------------

def _distribution(counts: Mapping[int, int]) -> dict[str, Any]:
    """count, mean, min, quartiles, max and histogram buckets of integer values given as
    ``{value: how many}``; the same figures as :mod:`statistics` (``fmean``, inclusive
    ``quantiles``) on the expanded list."""
    n = sum(counts.values())
    if not n:
        return {"count": 0, "mean": None, "min": None, "q1": None, "median": None,
                "q3": None, "max": None, "histogram": []}
    keys = sorted(k for k, c in counts.items() if c)
    ends = list(accumulate(counts[k] for k in keys))  # ends[i]: values up to keys[i]

    def nth(i: int) -> int:  # the i-th smallest value, 0-based
        return keys[bisect_right(ends, i)]
    if n > 1:
        q1, median, q3 = (_quartile(nth, n, i) for i in (1, 2, 3))
    else:
        q1 = median = q3 = float(keys[0])
    total = sum(k * c for k, c in counts.items())
    # int / int is the correctly rounded quotient (float(total) first would round twice)
    return {"count": n, "mean": round(total / n, 3),
            "min": keys[0], "q1": round(q1, 3), "median": round(median, 3),
            "q3": round(q3, 3), "max": keys[-1], "histogram": _histogram(counts)}


def _quartile(nth: Callable[[int], int], n: int, i: int) -> float:
    """Quartile ``i`` (1..3) as ``statistics.quantiles(n=4, method="inclusive")``."""
    j, delta = divmod(i * (n - 1), 4)
    return (nth(j) * (4 - delta) + nth(j + 1) * delta) / 4


def _histogram(values: Mapping[int, int] | Iterable[int],
               max_buckets: int = 10) -> list[dict[str, int]]:
    """Buckets of a round width (1, 2, 5, 10, 20, 50, …), at most ``max_buckets``, of
    integer values (a list, or a mapping ``{value: how many}``)."""
    counts = values if isinstance(values, Mapping) else Counter(values)
    lo, hi = min(counts), max(counts)
    width = 1
    while hi // width - lo // width + 1 > max_buckets:
        width = _next_round(width)
    start = (lo // width) * width
    buckets = []
    while start <= hi:
        count = sum(c for v, c in counts.items() if start <= v < start + width)
        buckets.append({"from": start, "to": start + width - 1, "count": count})
        start += width
    return buckets


def _next_round(width: int) -> int:
    digits: int = 10 ** (len(str(width)) - 1)
    lead = width // digits
    return {1: 2, 2: 5, 5: 10}[lead] * digits


def summarize(variant: Variant, summaries: Iterable[Summary], *, seed: int,
              bots: Sequence[str], jobs: int = 1, seconds: float | None = None,
              setup_seconds: float | None = None) -> dict[str, Any]:
    """The statistics of a run as a JSON-ready dict: per-seat ``wins`` and ``win_rate``,
    ``huangzhuang`` count and rate (the win rates and it add up to 1), result ``kinds``, the
    distributions (count, mean, min, quartiles, max, histogram buckets ``from``/``to``/
    ``count``) of the winning ``huxi``, the ``units`` per loser, the winner's ``gain`` and
    the game ``length`` in actions, ``timing`` (``jobs``, ``seconds``,
    ``games_per_second``, and when the process's one-time setup was timed apart
    (``setup_seconds``, see :func:`~zipai_rules.simulate.prepare`) ``play_seconds`` and
    ``play_games_per_second`` without it, else ``None``: the only fields that vary between
    identical runs), the ``engine`` (zipai_rules version) and the ``tally`` of exact counts
    (:meth:`Tally.to_json`) from which everything else is computed and by which statistics
    merge (:func:`merge_stats`). ``summaries`` may be any iterable, in any order (e.g.
    :func:`~zipai_rules.simulate.run_games`): it is consumed once and nothing is kept."""
    tally = Tally(variant.players)
    for g in summaries:
        tally.add(g)
    return tally_stats(tally, variant, seed=seed, bots=bots, jobs=jobs, seconds=seconds,
                       setup_seconds=setup_seconds)


def tally_stats(tally: Tally, variant: Variant, *, seed: int, bots: Sequence[str],
                jobs: int = 1, seconds: float | None = None,
                setup_seconds: float | None = None) -> dict[str, Any]:
    """The statistics dict of :func:`summarize` from a :class:`Tally`. ``seconds``: the whole
    run; ``setup_seconds``: the part of it spent on
    :func:`~zipai_rules.simulate.prepare` (``None``: not timed)."""
    n = tally.games
    play = None if seconds is None or setup_seconds is None else seconds - setup_seconds
    timing = {"jobs": jobs, "seconds": None if seconds is None else round(seconds, 3),
              "games_per_second": None if not seconds else round(n / seconds, 1),
              "setup_seconds": None if play is None else round(cast(float, setup_seconds), 3),
              "play_seconds": None if play is None else round(play, 3),
              "play_games_per_second": None if not play else round(n / play, 1)}
    return _statistics(tally, {"variant": variant.id, "content_hash": variant.content_hash,
                               "engine": __version__, "seed": seed,
                               "bots": seat_bot_names(bots, variant.players),
                               "unit": variant.scoring.unit}, timing)


def _statistics(tally: Tally, header: Mapping[str, Any], timing: dict[str, Any]
                ) -> dict[str, Any]:
    """The statistics dict: ``header`` (variant, content_hash, engine, seed, bots, unit),
    the figures computed from ``tally``, ``timing`` and the tally itself."""
    n = tally.games
    return {
        "variant": header["variant"], "content_hash": header["content_hash"],
        "engine": header["engine"], "games": n, "seed": header["seed"],
        "bots": list(header["bots"]), "unit": header["unit"],
        "wins": list(tally.wins), "win_rate": [w / n if n else 0.0 for w in tally.wins],
        "huangzhuang": tally.huangzhuang,
        "huangzhuang_rate": tally.huangzhuang / n if n else 0.0,
        "kinds": dict(sorted(tally.kinds.items())),
        **{name: _distribution(tally.values[name]) for name in VALUES},
        "timing": timing,
        "tally": tally.to_json(),
    }


# --- statistics files: reading and merging ----------------------------------------------------

_TIMING = ("jobs", "seconds", "games_per_second", "setup_seconds", "play_seconds",
           "play_games_per_second")
#: the largest number a timing field of seconds may hold (10^12 s is over 30,000 years): a
#: merged sum stays a finite JSON number, and the speed line prints it in a few digits
MAX_TIMING = 10 ** 12


def read_stats(path: str | Path, limits: Limits = STATS_LIMITS) -> dict[str, Any]:
    """The statistics JSON file ``path`` (as ``zipai simulate --json`` prints it), read
    within ``limits`` and checked by :func:`check_stats`. Raises
    :class:`~zipai_rules.errors.ZipaiError`: ``unreadable``, ``too_large``, ``too_deep``,
    ``bad_json``, ``duplicate_key`` or ``schema``, the message naming the file and the path
    of the bad value."""
    try:
        doc = loads_json(read_text(path, limits.max_bytes))
        check_tree(doc, limits)
    except Refused as exc:
        where = "" if exc.path == "<root>" else f" at {exc.path}"
        prefix = "" if exc.message.startswith(f"{path}:") else f"{path}: "
        raise ZipaiError(f"{prefix}{exc.message}{where}", code=exc.code) from None
    try:
        check_stats(doc)
    except ZipaiError as exc:
        raise ZipaiError(f"{path}: {exc}", code=exc.code) from None
    return cast(dict[str, Any], doc)


def check_stats(doc: object) -> Tally:
    """Check a statistics dict (of :func:`tally_stats`, or parsed from its JSON) and return
    its tally: the header's types (``variant``, ``content_hash``, ``engine``, ``unit``:
    strings; ``seed``: an int; ``bots``: one name per seat of the tally), ``timing``'s keys
    and types, and every other figure equal to what the tally gives (statistics edited by
    hand, or written by another engine's formulas, are refused). Raises
    :class:`~zipai_rules.errors.ZipaiError` (``schema``) naming the first bad field."""
    if type(doc) is not dict:
        raise _schema("<root>", f"is {_kind_of(doc)}, not an object of statistics")
    if "tally" not in doc:
        raise _schema("<root>", "has no tally: not statistics of zipai simulate --json, or "
                      "written before statistics held their counts")
    for key in ("variant", "content_hash", "engine", "seed", "bots", "unit", "timing"):
        if key not in doc:
            raise _schema(key, "is missing")
    tally = Tally.from_json(doc["tally"])
    header: dict[str, Any] = {
        "variant": _text(doc.get("variant"), "variant"),
        "content_hash": _text(doc.get("content_hash"), "content_hash"),
        "engine": _text(doc.get("engine"), "engine", 64),
        "seed": _int(doc.get("seed"), "seed", 0, 2 ** MAX_SEED_BITS - 1),
        "bots": [_text(b, f"bots[{s}]", 64)
                 for s, b in enumerate(_list(doc.get("bots"), "bots", MAX_PLAYERS))],
        "unit": _text(doc.get("unit"), "unit", 64)}
    if len(header["bots"]) != tally.players:
        raise _schema("bots", f"names {len(header['bots'])} bots for {tally.players} seats")
    timing = _mapping(doc.get("timing"), "timing", _TIMING)
    for key in _TIMING:
        value = timing[key]
        if key == "jobs":
            if value is not None:
                _int(value, "timing.jobs", 1)
            continue
        high = MAX_TIMING if key.endswith("seconds") else math.inf
        if value is not None and (type(value) not in (int, float) or not math.isfinite(value)
                                  or not 0 <= value <= high):
            most = "" if high == math.inf else f" and at most {MAX_TIMING:.0e}"
            raise _schema(f"timing.{key}", f"is {brief(repr(value), 40)}, not a number of at "
                          f"least 0{most} or null")
    expected = _statistics(tally, header, timing)
    for key in doc:
        if key not in expected:
            raise _schema(key, "is not a field of the statistics")
    for key, value in expected.items():
        if doc.get(key) != value:
            raise _schema(key, "is not what the tally gives" if key in doc else "is missing")
    return tally


#: the header fields two statistics must share to merge
_SAME = ("variant", "content_hash", "engine", "bots", "unit")


def merge_stats(docs: Iterable[Mapping[str, Any]], names: Iterable[str] | None = None
                ) -> dict[str, Any]:
    """The statistics of the union of the runs of ``docs`` (statistics dicts, each checked
    by :func:`check_stats`; any iterable, consumed once, keeping only the merged counts, so
    a generator reading files one at a time merges any number of them): equal, timing
    aside, to the statistics of one run over all their games. The seed is the smallest of
    theirs, and the game numbers of a run with a larger seed are moved up by the difference
    (game ``n`` of seed ``S`` is game ``n + S - seed``). ``timing``: the sums of
    ``seconds``, ``setup_seconds`` and ``play_seconds`` (``None`` if any part lacks one),
    the rates from those sums, ``jobs`` the parts' common number (``None`` if they differ):
    a merged run's seconds are the time its parts took one after the other, not a
    wall-clock time. ``names`` (default ``docs[0]``, …) name the documents in messages, one
    per document.

    Raises :class:`~zipai_rules.errors.ZipaiError`: ``bad_argument`` for no document (or
    not one name per document), ``schema`` for a document that is not statistics,
    ``cannot_merge`` for documents of another variant (id or content hash), engine version,
    bots or seat count than the first, or that hold a common game (the message names the
    two documents and the game)."""
    pairs = (_enumerate_names(docs) if names is None else zip(names, docs, strict=True))
    first: tuple[str, Mapping[str, Any]] | None = None
    merged = Tally(1)
    seed = 0
    seeds: set[int] = set()
    done: list[tuple[str, list[tuple[int, int]], int]] = []  # each part's numbers, seed
    timings: list[Mapping[str, Any]] = []
    try:
        for label, doc in pairs:
            try:
                tally = check_stats(doc)
            except ZipaiError as exc:
                raise ZipaiError(f"{label}: {exc}", code=exc.code) from None
            if first is None:
                first, merged, seed = (label, doc), Tally(tally.players), doc["seed"]
            _check_same(first, label, doc, tally)
            try:
                if doc["seed"] < seed:  # number everything from the new, smaller seed
                    merged = merged.shifted(seed - doc["seed"])
                    seed = doc["seed"]
                moved = tally.shifted(doc["seed"] - seed)
            except ZipaiError as exc:
                raise _refuse(f"{label}: its seed {brief(str(doc['seed']), 24)} is too far "
                              f"from {first[0]}'s to number their games as one run ({exc})"
                              ) from None
            seeds.add(doc["seed"])
            game = _first_common(merged.numbers, moved.numbers)
            if game is not None:  # name the earlier document that holds it
                other = next(other for other, numbers, own in done if _first_common(
                    numbers, [(game + seed - own, game + seed - own)]) is not None)
                raise _refuse(f"{other} and {label} both hold game {game}" + (
                    "" if len(seeds) == 1 else f" (numbered from seed {seed})"))
            merged.merge(moved)
            done.append((label, tally.numbers, doc["seed"]))
            timings.append(doc["timing"])
    except ValueError as exc:  # zip(strict=True): not one name per document
        if isinstance(exc, ZipaiError):
            raise
        raise ZipaiError(f"names and docs differ in length: {exc}",
                         code="bad_argument") from None
    if first is None:
        raise ZipaiError("no statistics to merge", code="bad_argument")
    return _statistics(merged, {**first[1], "seed": seed}, _merged_timing(timings,
                                                                           merged.games))


def _enumerate_names(docs: Iterable[Mapping[str, Any]]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``("docs[0]", doc), ("docs[1]", doc), …``: the default names of :func:`merge_stats`."""
    for k, doc in enumerate(docs):
        yield f"docs[{k}]", doc


def _check_same(first: tuple[str, Mapping[str, Any]], label: str, doc: Mapping[str, Any],
                tally: Tally) -> None:
    """Refuse ``doc`` (``cannot_merge``) unless it shares the first document's variant,
    engine, bots, unit and seats."""
    first_label, first_doc = first
    seats = len(first_doc["bots"])
    if tally.players != seats:
        raise _refuse(f"{label} has {tally.players} seats, {first_label} {seats}")
    for key in _SAME:
        if doc[key] != first_doc[key]:
            raise _refuse(f"{label} is of {key} {_show(doc[key])}, {first_label} of "
                          f"{_show(first_doc[key])}")


def _merged_timing(timings: Sequence[Mapping[str, Any]], games: int) -> dict[str, Any]:
    def total(key: str) -> float | None:
        values = [t[key] for t in timings]
        if any(v is None for v in values):
            return None
        value: float = round(sum(values), 3)
        if value > MAX_TIMING:
            raise _refuse(f"the merged timing.{key}, {value:.3g} s, is above {MAX_TIMING:.0e} s")
        return value
    seconds, setup, play = total("seconds"), total("setup_seconds"), total("play_seconds")
    jobs = {t["jobs"] for t in timings}
    return {"jobs": jobs.pop() if len(jobs) == 1 else None, "seconds": seconds,
            "games_per_second": None if not seconds else round(games / seconds, 1),
            "setup_seconds": setup, "play_seconds": play,
            "play_games_per_second": None if not play else round(games / play, 1)}


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# --- the table --------------------------------------------------------------------------------

def _seeds(stats: Mapping[str, Any]) -> str:
    """``seeds 1..4``, or ``seeds 1..100, 201..300`` for a run with gaps."""
    seed = stats["seed"]
    tally = stats.get("tally")
    ranges = ([(a, b) for a, b in tally["numbers"]] if isinstance(tally, Mapping)
              else [(1, stats["games"])])
    if not ranges:
        return "no seeds"
    return "seeds " + ", ".join(f"{seed + a - 1}..{seed + b - 1}" for a, b in ranges)


def format_stats(stats: Mapping[str, Any], variant: Variant | None = None) -> str:
    """The statistics as a plain-text table, in the words of ``variant`` (its name and
    terms; without one, the variant's id and the canonical terms)."""
    def term(word: str) -> str:
        return word if variant is None else variant.term(word)
    n = stats["games"]
    unit = term(stats["unit"])
    title = stats["variant"] if variant is None else f"{variant.name} ({variant.id})"
    lines = [f"{title}: {n} games, {_seeds(stats)}, bots {','.join(stats['bots'])}, "
             "seat 0 deals"]
    lines.append("results")
    for s, (w, rate) in enumerate(zip(stats["wins"], stats["win_rate"], strict=True)):
        lines.append(f"  {pad(f'seat {s} wins', 24)}{w:7}  {rate:7.1%}")
    hz_label = f"{term('huangzhuang')} (huangzhuang)"
    lines.append(f"  {pad(hz_label, 24)}{stats['huangzhuang']:7}  "
                 f"{stats['huangzhuang_rate']:7.1%}")
    if "tianhu" in stats["kinds"]:
        lines.append(f"  {pad('of the wins, 天胡', 24)}{stats['kinds']['tianhu']:7}")
    rows = [(f"winning {term('huxi')}", stats["huxi"]),
            (f"{unit} per loser", stats["units"]),
            (f"winner's gain ({unit})", stats["gain"]),
            ("game length (actions)", stats["length"])]
    lines.append(f"{pad('distributions', 24)}  {'count':>7} {'mean':>8} {'min':>5} "
                 f"{'q1':>6} {'median':>6} {'q3':>6} {'max':>5}")
    for label, d in rows:
        if not d["count"]:
            lines.append(f"  {pad(label, 24)}{0:7}")
            continue
        lines.append(f"  {pad(label, 24)}{d['count']:7} {d['mean']:8.2f} {d['min']:5} "
                     f"{_num(d['q1']):>6} {_num(d['median']):>6} {_num(d['q3']):>6} "
                     f"{d['max']:5}")
    for label, d in rows:
        if not d["count"]:
            continue
        lines.append(f"histogram: {label}")
        top = max(b["count"] for b in d["histogram"])
        for b in d["histogram"]:
            span = str(b["from"]) if b["from"] == b["to"] else f"{b['from']}-{b['to']}"
            bar = "#" * (round(30 * b["count"] / top) if top else 0)
            lines.append(f"  {span:>9} {b['count']:7}  {bar}")
    t = stats["timing"]
    if t["seconds"] is not None:
        jobs = ("" if t["jobs"] is None else
                f" with {t['jobs']} job{'s' if t['jobs'] != 1 else ''}")
        rate = "" if t["games_per_second"] is None else f": {t['games_per_second']:.1f} games/s"
        lines.append(f"speed: {n} games in {t['seconds']:.2f} s{jobs}{rate}"
                     + ("" if not t.get("play_seconds") else
                        f" ({t['setup_seconds']:.2f} s of setup, then "
                        f"{t['play_games_per_second']:.1f} games/s)"))
    return "\n".join(lines)


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.2f}"  # every digit (:g writes 2e+12)
