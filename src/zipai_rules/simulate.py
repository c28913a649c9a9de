"""Many seeded hands with bots, summarised: ``zipai simulate``.

Game ``k`` (1-based) of a run with seed ``S`` is exactly ``zipai play --seed S+k-1`` with the
same bots: the deal shuffled from that seed, seat 0 dealing, the bots seeded from it. Its
record (``--out DIR``) is ``DIR/game-0000k.json`` and replays with ``zipai replay``.

With ``jobs > 1`` the games are spread over worker processes
(:class:`concurrent.futures.ProcessPoolExecutor`); every game depends only on its seed, so
the summaries are identical to a single-process run.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import attrs

from .bots import make_bots, play_out, seat_bot_names
from .engine.game import Game
from .settlement import settle
from .terminal import pad
from .variant import Variant

DEFAULT_BOTS = ("greedy", "random", "greedy")

__all__ = ["DEFAULT_BOTS", "GameSummary", "format_stats", "play_game", "simulate",
           "summarize"]


@attrs.frozen(slots=True)
class GameSummary:
    """One simulated hand: its ``number`` (1-based) and ``seed``, the result ``kind`` (``hu``,
    ``tianhu``, ``huangzhuang``), the ``winner`` seat (``None`` on 荒庄), the winning ``huxi``
    (胡息, 0 on 荒庄), the score ``units`` won from each paying loser and the winner's total
    ``gain`` (both in the variant's unit, 0 on 荒庄), and the number of seat decisions
    (``actions``)."""

    number: int
    seed: int
    kind: str
    winner: int | None
    huxi: int
    units: int
    gain: int
    actions: int


def play_game(variant: Variant, number: int, seed: int, bots: Sequence[str],
              out: str | Path | None = None) -> GameSummary:
    """Play game ``number`` with ``seed`` (as ``zipai play --seed``); write its record to
    ``out/game-NNNNN.json`` when ``out`` is given. Raises
    :class:`~zipai_rules.errors.ZipaiError` for unknown bot names."""
    names = seat_bot_names(bots, variant.players)
    game = play_out(Game(variant, seed=seed), make_bots(names, seed, variant.players))
    settlement = settle(game.state, variant.seats > variant.players)
    if out is not None:
        from .records import write_record

        write_record(Path(out) / f"game-{number:05d}.json", game, settlement, bots=names)
    r = game.result
    if r is None:  # play_out only returns finished games
        raise RuntimeError("internal error: a simulated game did not finish")
    won = r.winner is not None
    return GameSummary(number, seed, r.kind, r.winner, r.huxi if won else 0,
                       settlement.units if won else 0,
                       settlement.payments[r.winner] if won else 0,  # type: ignore[index]
                       len(game.actions))


# --- worker processes -------------------------------------------------------------------------

_WORKER_VARIANTS: dict[str, Variant] = {}


def _variant_spec(variant: Variant) -> tuple[str, Any]:
    """A picklable description of a variant: a preset id, or its resolved document."""
    from .records import _plain, is_preset

    if is_preset(variant):
        return ("preset", variant.id)
    return ("doc", _plain(variant.doc))


def _variant_from_spec(spec: tuple[str, Any]) -> Variant:
    from .loader import build_variant
    from .presets import load_preset, raw_preset

    kind, value = spec
    if kind == "preset":
        return load_preset(value)
    key = json.dumps(value, sort_keys=True)
    if key not in _WORKER_VARIANTS:
        _WORKER_VARIANTS[key] = build_variant(value, raw_preset, f"variant {value.get('id')}")
    return _WORKER_VARIANTS[key]


def _run_chunk(spec: tuple[str, Any], jobs: list[tuple[int, int]], bots: Sequence[str],
               out: str | None) -> list[GameSummary]:
    variant = _variant_from_spec(spec)
    return [play_game(variant, number, seed, bots, out) for number, seed in jobs]


def simulate(variant: Variant, games: int, seed: int = 1, bots: Sequence[str] = DEFAULT_BOTS,
             jobs: int = 1, out: str | Path | None = None,
             progress: Callable[[int, int], None] | None = None) -> list[GameSummary]:
    """Play ``games`` hands, game k with seed ``seed + k - 1``; returns their summaries in
    game order. ``jobs``: worker processes (1: this process). ``out``: a folder for the
    records (created if missing). ``progress(done, total)`` is called as games finish.

    Raises :class:`~zipai_rules.errors.ZipaiError` for unknown bot names and
    :class:`~zipai_rules.errors.RecordError` for an unwritable ``out``.
    """
    from .errors import RecordError

    make_bots(bots, seed, variant.players)  # unknown names fail here, before any work
    if out is not None:
        try:
            Path(out).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RecordError(f"{out}: cannot create the folder: {exc}",
                              code="unwritable") from None
    work = [(k, seed + k - 1) for k in range(1, games + 1)]
    done: list[GameSummary] = []
    if jobs <= 1 or games <= 1:
        for number, s in work:
            done.append(play_game(variant, number, s, bots, out))
            if progress:
                progress(len(done), games)
        return done
    spec = _variant_spec(variant)
    size = max(1, min(50, math.ceil(games / (jobs * 8))))
    chunks = [work[i:i + size] for i in range(0, games, size)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_run_chunk, spec, chunk, list(bots),
                               None if out is None else str(out)) for chunk in chunks]
        for f in as_completed(futures):
            done.extend(f.result())
            if progress:
                progress(len(done), games)
    return sorted(done, key=lambda g: g.number)


# --- statistics -------------------------------------------------------------------------------

def _distribution(values: Sequence[int]) -> dict[str, Any]:
    """count, mean, min, quartiles, max and histogram buckets of integer values."""
    if not values:
        return {"count": 0, "mean": None, "min": None, "q1": None, "median": None,
                "q3": None, "max": None, "histogram": []}
    if len(values) > 1:
        q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    else:
        q1 = median = q3 = float(values[0])
    return {"count": len(values), "mean": round(statistics.fmean(values), 3),
            "min": min(values), "q1": round(q1, 3), "median": round(median, 3),
            "q3": round(q3, 3), "max": max(values), "histogram": _histogram(values)}


def _histogram(values: Sequence[int], max_buckets: int = 10) -> list[dict[str, int]]:
    """Buckets of a round width (1, 2, 5, 10, 20, 50, …), at most ``max_buckets``."""
    lo, hi = min(values), max(values)
    width = 1
    while hi // width - lo // width + 1 > max_buckets:
        width = _next_round(width)
    start = (lo // width) * width
    buckets = []
    while start <= hi:
        count = sum(1 for v in values if start <= v < start + width)
        buckets.append({"from": start, "to": start + width - 1, "count": count})
        start += width
    return buckets


def _next_round(width: int) -> int:
    digits = 10 ** (len(str(width)) - 1)
    lead = width // digits
    return {1: 2, 2: 5, 5: 10}[lead] * digits


def summarize(variant: Variant, summaries: Sequence[GameSummary], *, seed: int,
              bots: Sequence[str], jobs: int = 1, seconds: float | None = None
              ) -> dict[str, Any]:
    """The statistics of a run as a JSON-ready dict: per-seat ``wins`` and ``win_rate``,
    ``huangzhuang`` count and rate (the win rates and it add up to 1), result ``kinds``, the
    distributions (count, mean, min, quartiles, max, histogram buckets ``from``/``to``/
    ``count``) of the winning ``huxi``, the ``units`` per loser, the winner's ``gain`` and
    the game ``length`` in actions, and ``timing`` (``jobs``, ``seconds``,
    ``games_per_second``: the only fields that vary between identical runs)."""
    n = len(summaries)
    wins = [sum(1 for g in summaries if g.winner == s) for s in range(variant.players)]
    hz = sum(1 for g in summaries if g.winner is None)
    kinds: dict[str, int] = {}
    for g in summaries:
        kinds[g.kind] = kinds.get(g.kind, 0) + 1
    won = [g for g in summaries if g.winner is not None]
    timing = {"jobs": jobs, "seconds": None if seconds is None else round(seconds, 3),
              "games_per_second": None if not seconds else round(n / seconds, 1)}
    return {
        "variant": variant.id, "content_hash": variant.content_hash, "games": n,
        "seed": seed, "bots": seat_bot_names(bots, variant.players),
        "unit": variant.scoring.unit,
        "wins": wins, "win_rate": [w / n if n else 0.0 for w in wins],
        "huangzhuang": hz, "huangzhuang_rate": hz / n if n else 0.0,
        "kinds": dict(sorted(kinds.items())),
        "huxi": _distribution([g.huxi for g in won]),
        "units": _distribution([g.units for g in won]),
        "gain": _distribution([g.gain for g in won]),
        "length": _distribution([g.actions for g in summaries]),
        "timing": timing,
    }


def format_stats(stats: dict[str, Any], variant: Variant) -> str:
    """The statistics as a plain-text table."""
    n = stats["games"]
    unit = variant.term(stats["unit"])
    lines = [f"{variant.name} ({variant.id}): {n} games, seeds {stats['seed']}.."
             f"{stats['seed'] + n - 1}, bots {','.join(stats['bots'])}, seat 0 deals"]
    lines.append("results")
    for s, (w, rate) in enumerate(zip(stats["wins"], stats["win_rate"])):
        lines.append(f"  {pad(f'seat {s} wins', 24)}{w:7}  {rate:7.1%}")
    hz_label = f"{variant.term('huangzhuang')} (huangzhuang)"
    lines.append(f"  {pad(hz_label, 24)}{stats['huangzhuang']:7}  "
                 f"{stats['huangzhuang_rate']:7.1%}")
    if "tianhu" in stats["kinds"]:
        lines.append(f"  {pad('of the wins, 天胡', 24)}{stats['kinds']['tianhu']:7}")
    rows = [(f"winning {variant.term('huxi')}", stats["huxi"]),
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
        lines.append(f"speed: {n} games in {t['seconds']:.2f} s with {t['jobs']} job"
                     f"{'s' if t['jobs'] != 1 else ''}: {t['games_per_second']:.1f} games/s")
    return "\n".join(lines)


def _num(x: float) -> str:
    return f"{x:g}" if x == int(x) else f"{x:.2f}"


# --- zipai simulate ---------------------------------------------------------------------------

class _ProgressBar:
    """A one-line progress bar redrawn on a terminal stream."""

    def __init__(self, stream: Any, width: int = 30) -> None:
        self.stream, self.width, self.shown = stream, width, -1

    def __call__(self, done: int, total: int) -> None:
        filled = self.width * done // total
        if filled == self.shown and done != total:
            return
        self.shown = filled
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} games")
        if done == total:
            self.stream.write("\r" + " " * (self.width + 30) + "\r")
        self.stream.flush()


def cmd_simulate(args: argparse.Namespace) -> int:
    """``zipai simulate``: play many seeded games and print their statistics."""
    from .cli import _variant

    variant = _variant(args.variant)
    bots = [b for b in args.bots.split(",")]
    progress = _ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    t0 = time.perf_counter()
    summaries = simulate(variant, args.games, args.seed, bots, args.jobs, args.out, progress)
    seconds = time.perf_counter() - t0
    stats = summarize(variant, summaries, seed=args.seed, bots=bots, jobs=args.jobs,
                      seconds=seconds)
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=2))
    else:
        print(format_stats(stats, variant))
        if args.out:
            print(f"records: {args.out}/game-00001.json .. game-{args.games:05d}.json")
    return 0


def add_simulate_parser(sub: Any) -> None:
    """Register ``zipai simulate`` on an argparse subparsers object."""
    from .cli import _count

    p = sub.add_parser("simulate", help="play many seeded games with bots and summarise them",
                       description="Play N games (game k uses seed S+k-1, as `zipai play "
                       "--seed`), then print win rates, 荒庄 rate, 胡息 and score "
                       "distributions, game length and speed.")
    p.add_argument("--variant", default="hunan",
                   help="preset id, Chinese name or alias, or a YAML file")
    p.add_argument("--games", type=_count(1), default=100, help="number of games")
    p.add_argument("--seed", type=_count(0), default=1, help="seed of the first game")
    p.add_argument("--jobs", type=_count(1), default=1, help="worker processes")
    p.add_argument("--out", metavar="DIR", help="write each game's record to DIR/game-NNNNN.json")
    p.add_argument("--bots", default=",".join(DEFAULT_BOTS),
                   help="comma-separated bot names per seat: greedy, random")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(func=cmd_simulate)
