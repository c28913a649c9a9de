"""``zipai play``: one hand (or a match of several) with built-in bots, printed as a log."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from ..bots import make_bots, seat_bot_names
from ..cards import format_cards
from ..engine import Action, Event, Game
from ..engine.observation import check_seat
from ..errors import ZipaiError
from ..match import Match, sitting_out_seat
from ..play import play_out
from ..records import check_writable, write_record
from ..settlement import Settlement, settle
from ..terminal import columns, pad
from ..variant import Variant
from .common import VARIANT_HELP, bot_names, count, variant_arg


def add_parser(sub: Any) -> None:
    """Register ``zipai play`` on an argparse subparsers object."""
    play = sub.add_parser("play", help="play one hand with built-in bots and print the log",
                          description="Play one seeded hand (or with --hands N a match) with "
                          "built-in bots and print every step, the result and the settlement.")
    play.add_argument("--variant", default="hunan", help=VARIANT_HELP)
    play.add_argument("--seed", type=count(0), default=1,
                      help="shuffle seed (same seed, same game; default 1)")
    play.add_argument("--bots", default=None,
                      help="comma-separated bot names per seat; a shorter list is repeated to "
                           "fill the table (greedy = greedy,greedy,greedy): greedy, random "
                           "(default greedy,random,greedy)")
    play.add_argument("--dealer", type=count(0), default=0,
                      help="dealer seat, a table seat where the variant has more seats than "
                           "players (default 0)")
    play.add_argument("--zh", action="store_true", help="print Chinese card names")
    play.add_argument("--hands", type=count(1), default=1,
                      help="play a match of N hands (dealer rotation, running scores)")
    play.add_argument("--json", action="store_true",
                      help="print the log as JSON: the deal, every step with its actor, action "
                           "and events, the result and the settlement")
    play.add_argument("--seat", type=count(0), default=None,
                      help="print the log as seat S sees it: its own hand, the events shown "
                           "to it")
    play.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE")
    play.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    variant = variant_arg(args.variant, args)
    if args.hands > 1:
        if args.record:
            raise ZipaiError("--record writes the record of one hand; it cannot be combined "
                             "with --hands", code="bad_option")
        if args.seat is not None:
            raise ZipaiError("--seat prints one hand as a seat sees it; it cannot be combined "
                             "with --hands", code="bad_option")
        return _play_match(args, variant)
    if args.seat is not None:
        check_seat(variant, args.seat)
    if args.record:
        check_writable(args.record)  # before the hand is played and printed
    bots = make_bots(bot_names(args, variant.players), args.seed, variant.players)
    dealer, seating = _table_dealer(variant, args.dealer)
    game = Game(variant, seed=args.seed, dealer=dealer)
    quiet = args.json or args.seat is not None
    zh = args.zh
    cards = (lambda cs: format_cards(cs, zh=True)) if zh else format_cards
    say = (lambda *a, **k: None) if quiet else print
    say(f"{variant.name} ({variant.id}), seed {args.seed}, dealer seat {game.deal.dealer}, "
        f"bots: {', '.join(type(b).__name__ for b in bots)}")
    if seating:
        say(f"  {seating}")
    for s, hand in enumerate(game.deal.hands):
        say(f"  seat {s} dealt {len(hand):2}: {cards(sorted(hand))}")
    aside = f", {len(game.deal.aside)} cards set aside unseen" if game.deal.aside else ""
    say(f"  wall {len(game.deal.wall)}{aside}")
    opening = list(game.events)
    for e in opening[len(game.deal.hands):]:
        say(f"      {e.describe(zh)}")
    steps: list[dict[str, Any]] = []

    def show(action: Action, events: Sequence[Event]) -> None:
        steps.append({"step": len(game.actions), "seat": action.seat,
                      "action": action.to_json(), "events": [e.to_json() for e in events]})
        say(f"{len(game.actions):4}. {action.describe(zh)}")
        if events and events[0].kind.value == action.kind.value and events[0].seat == action.seat:
            events = events[1:]  # the action itself, already printed
        for e in events:
            say(f"      {e.describe(zh)}")
    play_out(game, bots, after=show)
    settlement = settle(variant, game.result, events=game.events)
    if args.record:
        write_record(args.record, game, settlement,
                     bots=seat_bot_names(bot_names(args, variant.players), variant.players))
    if args.seat is not None:
        return _print_seat_log(game, settlement, args.seat, bots, args)
    if quiet:
        print(json.dumps({"variant": variant.id, "seed": args.seed, "dealer": game.deal.dealer,
                          "deal": game.deal.to_json(),
                          "opening": [e.to_json() for e in opening], "steps": steps,
                          "result": _result_json(game),
                          "settlement": settlement.to_json()}, ensure_ascii=False, indent=2))
        return 0
    _print_result(game, args.zh)
    _print_settlement(settlement, variant)
    return 0


def _print_seat_log(game: Game, settlement: Settlement, seat: int, bots: Sequence[object],
                    args: argparse.Namespace) -> int:
    """The log of a finished hand as ``seat`` was shown it (:meth:`Game.events_for`): its own
    dealt hand, the others' hand sizes, the events shown to it; then the result and the
    settlement, which the table sees."""
    variant, zh, deal = game.variant, args.zh, game.deal
    shown = game.events_for(seat)
    if args.json:
        print(json.dumps({"variant": variant.id, "seed": args.seed, "seat": seat,
                          "dealer": deal.dealer, "hand": format_cards(deal.hands[seat]).split(),
                          "hand_sizes": [len(h) for h in deal.hands], "wall": len(deal.wall),
                          "events": [e.to_json() for e in shown],
                          "result": _result_json(game),
                          "settlement": settlement.to_json()}, ensure_ascii=False, indent=2))
        return 0
    print(f"{variant.name} ({variant.id}), seed {args.seed}, dealer seat {deal.dealer}, "
          f"bots: {', '.join(type(b).__name__ for b in bots)}; as seat {seat} sees it")
    for s, hand in enumerate(deal.hands):
        held = format_cards(sorted(hand), zh=zh) if s == seat else "(hidden)"
        print(f"  seat {s} dealt {len(hand):2}: {held}")
    print(f"  wall {len(deal.wall)}")
    for e in shown[len(deal.hands):]:
        print(f"  {'>' if e.seat == seat else ' '}   {e.describe(zh)}")
    _print_result(game, zh)
    _print_settlement(settlement, variant)
    return 0


def _table_dealer(variant: Variant, dealer: int) -> tuple[int, str]:
    """The game seat that deals when ``--dealer`` names ``dealer``, and a line saying how the
    table seats sit ("" where every seat plays). Where the variant has more seats than
    players, ``dealer`` is a table seat (0 .. seats − 1) as in a match: the seat the variant
    names sits out and the others play as seats 0, 1, … in table order.

    Raises :class:`ZipaiError` (code ``bad_option``) for a dealer outside the table."""
    if variant.seats == variant.players:
        return dealer, ""  # the game checks the seat
    if not 0 <= dealer < variant.seats:
        raise ZipaiError(f"--dealer {dealer} is not a table seat: {variant.id} has seats "
                         f"0..{variant.seats - 1}", code="bad_option")
    out = sitting_out_seat(variant, dealer)
    playing = [t for t in range(variant.seats) if t != out]
    listed = ", ".join(f"table seat {t} as seat {g}" for g, t in enumerate(playing))
    return playing.index(dealer), (f"dealer table seat {dealer}, table seat {out} sits out "
                                   f"({variant.term('sit_out')}); {listed}")


def _result_json(game: Game) -> dict[str, Any]:
    r = game.state.final_result
    return {**r.to_json(),
            "groups": [g.to_json() for g in r.decomposition.groups] if r.decomposition else []}


def _print_settlement(settlement: Settlement, variant: Variant) -> None:
    print("settlement:")
    for text in columns([(line.term, line.item, line.text) for line in settlement.lines
                         if line.item != "meld"], "  "):  # melds: listed with the result
        print(text)
    pays = ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(settlement.payments))
    extra = f", sitting out {settlement.sitting_out:+d}" if settlement.sitting_out else ""
    print(f"  payments ({variant.term(settlement.unit)}): {pays}{extra}")


def _play_match(args: argparse.Namespace, variant: Variant) -> int:
    match = Match(variant, seed=args.seed, keep_hands=0)  # rows keep what the output needs
    bots = make_bots(bot_names(args, variant.seats), args.seed, variant.seats)
    unit = variant.term(variant.scoring.unit)
    rows = []
    if not args.json:
        print(f"{variant.name} ({variant.id}), match of {args.hands} hands, seed {args.seed}; "
              f"scores in {unit}")
    for _ in range(args.hands):
        h = match.play_hand(bots)
        r = h.game.state.final_result
        pays = h.table_payments(variant.seats)
        rows.append({"hand": h.number, "dealer": h.dealer, "sitting_out": h.sitting_out,
                     "result": r.kind, "winner": None if r.winner is None else h.seats[r.winner],
                     "huxi": r.huxi, "payments": pays, "scores": list(match.scores)})
        if not args.json:
            who = (variant.term("huangzhuang") if r.winner is None
                   else f"seat {h.seats[r.winner]} wins {r.huxi} {variant.term('huxi')}")
            out = "" if h.sitting_out is None else f", seat {h.sitting_out} out"
            print(f"  hand {h.number:3}: dealer seat {h.dealer}{out}: {pad(who, 22)}"
                  f"payments {pays}  scores {match.scores}")
    if args.json:
        print(json.dumps({"variant": variant.id, "seed": args.seed, "hands": rows,
                          "scores": match.scores}, ensure_ascii=False, indent=2))
    else:
        print("final scores: " + ", ".join(f"seat {t} {p:+d}" for t, p in enumerate(match.scores)))
    return 0


def _print_result(game: Game, zh: bool) -> None:
    r = game.state.final_result
    v = game.variant
    print("result:", end=" ")
    if r.kind == "huangzhuang":
        print(f"{v.term('huangzhuang')} (huangzhuang): the wall is empty and nobody won")
        return
    special = r.decomposition.special if r.decomposition else None
    how = {"self": "own draw (自摸)", "draw": "another player's draw",
           "discard": "a discard",
           None: f"its cards as they lie ({special}, a win at once)" if special
           else "the dealt hand"}[r.source]
    card = "" if r.card is None else f" on {format_cards([r.card], zh=zh)}"
    label = v.term("tianhu") + " (tianhu)" if r.kind == "tianhu" else v.term("hu") + " (hu)"
    print(f"seat {r.winner} wins, {label}{card} from {how}, {r.huxi} {v.term('huxi')}")
    groups = r.decomposition.groups if r.decomposition else ()
    for text in columns([(v.term(g.meld.kind.value), g.meld.kind.value,
                          g.describe(zh), f"{g.huxi:3}", g.place)
                         for g in groups], "  "):
        print(text)
    if r.decomposition and r.decomposition.leftover:
        print(f"  leftover {format_cards(r.decomposition.leftover, zh=zh)} (0, shape waived)")
    print(f"  total {r.huxi} {v.term('huxi')}")
