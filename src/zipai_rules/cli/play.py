"""``zipai play``: one hand (or a match of several) with built-in bots, printed as a log; with
``--human`` some seats played at the terminal (:mod:`.human`), with ``--zh`` in the variant's
Chinese words (:mod:`zipai_rules.wording`)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from ..bots import make_bots, seat_bot_names
from ..cards import format_cards
from ..engine import Action, Event, Game
from ..engine.observation import check_seat
from ..engine.seeds import fresh_seed
from ..errors import ZipaiError
from ..inputs import brief
from ..match import MAX_MATCH_HANDS, Match, sitting_out_seat
from ..play import play_out
from ..records import check_writable, write_record
from ..settlement import Settlement, settle
from ..terminal import pad
from ..variant import Variant
from ..wording import Words
from .common import VARIANT_HELP, bot_list, bot_names, count, items, variant_arg
from .human import MAX_PACE, play_human
from .log import deal_lines, header, print_result, print_settlement


def add_parser(sub: Any) -> None:
    """Register ``zipai play`` on an argparse subparsers object."""
    play = sub.add_parser("play", help="play one hand with built-in bots and print the log",
                          description="Play one seeded hand (or with --hands N a match) with "
                          "built-in bots and print every step, the result and the settlement.")
    play.add_argument("--variant", default="hunan", help=VARIANT_HELP)
    play.add_argument("--seed", type=count(0), default=None,
                      help="shuffle seed (same seed, same game); without it a secret 128-bit "
                           "seed is drawn and printed (with --human once the hand is over) "
                           "so that the hand can be replayed")
    play.add_argument("--bots", type=bot_list, default=None,
                      help="comma-separated bot names per seat; a shorter list is repeated to "
                           "fill the table (greedy = greedy,greedy,greedy): greedy, random "
                           "(default greedy,random,greedy)")
    play.add_argument("--dealer", type=count(0), default=0,
                      help="dealer seat, a table seat where the variant has more seats than "
                           "players (default 0)")
    play.add_argument("--zh", action="store_true",
                      help="print the whole log in the variant's own Chinese words: cards, "
                           "actions, melds, events, the result and the settlement")
    play.add_argument("--human", type=seat_list, default=None, metavar="SEATS",
                      help="play these seats yourself (comma-separated game seats, e.g. 0 or "
                           "0,2) against the bots in the terminal: your hand, the table and "
                           "your numbered options at each decision. End of input or `quit` "
                           "leaves with status 3, Ctrl-C with status 130 (no record is "
                           "written then). Several seats take turns at one screen: each "
                           "seat's hand is printed in the same scrollback. At each "
                           "decision: every seat's table 胡息, yours and your hand's, your "
                           "waits (听牌) with their 胡息 and the dead ones marked, the unseen "
                           "count of each card; type help for the commands, undo to take "
                           "back your last decision (against bots only)")
    play.add_argument("--pace", type=pace_arg, default=0.0, metavar="SECONDS",
                      help="with --human, pause SECONDS (0 to 10, a decimal such as 0.5) "
                           "after each bot move shown (default 0)")
    play.add_argument("--hands", type=count(1), default=None,
                      help="play a match of N hands (dealer rotation, running scores), fewer "
                           "where the variant's match ends sooner (match.end)")
    play.add_argument("--match", action="store_true",
                      help="play a match to the variant's own end (match.end: a number of "
                           "hands or a seat's total), at most --hands N when given; the final "
                           "scores rounded as the variant says (match.round_to)")
    play.add_argument("--datuo", type=seat_list, default=None, metavar="SEATS",
                      help="in a match, these table seats (comma-separated) 打坨 every hand "
                           "they may (match.datuo: their payments that hand are multiplied)")
    play.add_argument("--json", action="store_true",
                      help="print the log as JSON: the deal, every step with its actor, action "
                           "and events, the result and the settlement")
    play.add_argument("--seat", type=count(0), default=None,
                      help="print the log as seat S sees it: its own hand, the events shown "
                           "to it")
    play.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE")
    play.set_defaults(func=run)


def pace_arg(text: str) -> float:
    """argparse type of ``--pace``: seconds, a plain decimal from 0 to
    :data:`~zipai_rules.cli.human.MAX_PACE` (``0.5``; no sign, exponent, ``inf`` or ``nan``)."""
    plain = text.isascii() and len(text) <= 12 and text.replace(".", "", 1).isdigit()
    value = float(text) if plain else None
    if value is None or not 0 <= value <= MAX_PACE:
        raise argparse.ArgumentTypeError(f"{brief(repr(text), 40)} is not a number of seconds "
                                         f"from 0 to {MAX_PACE:g} (such as 0.5)")
    return value


def seat_list(text: str) -> tuple[int, ...]:
    """argparse type: comma-separated seat numbers (0, 1, …), each once."""
    seats = tuple(count(0)(part) for part in items(text, 8, "seats"))
    if len(set(seats)) != len(seats):
        raise argparse.ArgumentTypeError(f"{brief(repr(text), 40)}: give each seat once, "
                                         "at most 8")
    return seats


def run(args: argparse.Namespace) -> int:
    variant = variant_arg(args.variant, args)
    in_match = args.match or (args.hands or 1) > 1
    if args.match and args.hands is None:
        end = variant.match.end
        if end.hands is None and end.score_at_least is None:
            raise ZipaiError(f"--match plays {variant.id}'s match to its end, and it has none "
                             "(match.end): give --hands N", code="bad_option")
    if args.datuo is not None:
        _check_datuo(variant, args.datuo, in_match)
    args.hands = args.hands or 1
    drawn = args.seed is None
    if drawn:  # unseeded: no seat can guess or search the shuffle (engine.seeds)
        args.seed = fresh_seed()
    if args.pace and args.human is None:
        raise ZipaiError("--pace paces the bots' moves between your decisions: give --human "
                         "SEATS", code="bad_option")
    if args.human is not None:
        for flag, used in (("--json", args.json), ("--seat", args.seat is not None),
                           ("--hands", args.hands > 1), ("--match", args.match)):
            if used:
                raise ZipaiError(f"--human plays one hand at the terminal; it cannot be "
                                 f"combined with {flag}", code="bad_option")
        for seat in args.human:
            check_seat(variant, seat)
    if in_match:
        flag = "--match" if args.match else "--hands"
        if args.record:
            raise ZipaiError("--record writes the record of one hand; it cannot be combined "
                             f"with {flag}", code="bad_option")
        if args.seat is not None:
            raise ZipaiError("--seat prints one hand as a seat sees it; it cannot be combined "
                             f"with {flag}", code="bad_option")
        return _play_match(args, variant)
    if args.seat is not None:
        check_seat(variant, args.seat)
    if args.record:
        check_writable(args.record)  # before the hand is played and printed
    bots = make_bots(bot_names(args, variant.players), args.seed, variant.players)
    dealer, seating = _table_dealer(variant, args.dealer, args.zh)
    game = Game(variant, seed=args.seed, dealer=dealer)
    words = Words(variant, args.zh)
    if args.human is not None:
        return play_human(game, args.human, bots, words, seating=seating,
                          record=args.record, bot_names=bot_names(args, variant.players),
                          seed_secret=drawn, pace=args.pace)
    quiet = args.json or args.seat is not None
    lost: list[OSError] = []  # the output failed (a closed pipe, a full disk): the hand and
    # its record still go on

    def say(*parts: Any) -> None:
        if quiet or lost:
            return
        try:
            print(*parts)
        except OSError as exc:
            lost.append(exc)
    say(header(game, bots, words))
    if seating:
        say(f"  {seating}")
    for line in deal_lines(game, words):
        say(line)
    opening = list(game.events)
    for e in opening[len(game.deal.hands):]:
        say(f"      {words.event(e)}")
    steps: list[dict[str, Any]] = []

    def show(action: Action, events: Sequence[Event]) -> None:
        steps.append({"step": len(game.actions), "seat": action.seat,
                      "action": action.to_json(), "events": [e.to_json() for e in events]})
        say(f"{len(game.actions):4}. {words.action(action)}")
        if events and events[0].kind.value == action.kind.value and events[0].seat == action.seat:
            events = events[1:]  # the action itself, already printed
        for e in events:
            say(f"      {words.event(e)}")
    play_out(game, bots, after=show)
    settlement = settle(variant, game.result, events=game.events)
    if args.record:
        write_record(args.record, game, settlement,
                     bots=seat_bot_names(bot_names(args, variant.players), variant.players))
    if lost:
        raise lost[0]  # after the record: BrokenPipeError ends quietly, others as an error
    if args.seat is not None:
        return _print_seat_log(game, settlement, args.seat, bots, args)
    if quiet:
        print(json.dumps({"variant": variant.id, "seed": args.seed, "dealer": game.deal.dealer,
                          "deal": game.deal.to_json(),
                          "opening": [e.to_json() for e in opening], "steps": steps,
                          "result": _result_json(game),
                          "settlement": settlement.to_json()}, ensure_ascii=False, indent=2))
        return 0
    print_result(game, words)
    print_settlement(settlement, words)
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
    words = Words(variant, zh)
    print(header(game, bots, words, seat))
    lines = deal_lines(game, words, seat)
    print("\n".join(lines if zh else lines[:-1] + [f"  wall {len(deal.wall)}"]))
    for e in shown[len(deal.hands):]:
        print(f"  {'>' if e.seat == seat else ' '}   {words.event(e)}")
    print_result(game, words)
    print_settlement(settlement, words)
    return 0


def _table_dealer(variant: Variant, dealer: int, zh: bool = False) -> tuple[int, str]:
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
    if zh:
        listed = "，".join(f"桌位 {t} 为 {g}号位" for g, t in enumerate(playing))
        return playing.index(dealer), (f"庄家 桌位 {dealer}，桌位 {out} 轮空"
                                       f"（{Words(variant, True).word('sit_out')}）；{listed}")
    listed = ", ".join(f"table seat {t} as seat {g}" for g, t in enumerate(playing))
    return playing.index(dealer), (f"dealer table seat {dealer}, table seat {out} sits out "
                                   f"({variant.term('sit_out')}); {listed}")


def _result_json(game: Game) -> dict[str, Any]:
    r = game.state.final_result
    return {**r.to_json(),
            "groups": [g.to_json() for g in r.decomposition.groups] if r.decomposition else []}


def _check_datuo(variant: Variant, seats: Sequence[int], in_match: bool) -> None:
    """``--datuo``: only in a match, of a variant that allows 打坨, naming table seats."""
    if not in_match:
        raise ZipaiError("--datuo is chosen before each hand of a match: give --hands N or "
                         "--match", code="bad_option")
    if not variant.match.datuo.allowed:
        raise ZipaiError(f"{variant.id} has no 打坨 (match.datuo.allowed is false)",
                         code="bad_option")
    for seat in seats:
        if seat >= variant.seats:
            raise ZipaiError(f"--datuo {seat} is not a table seat: {variant.id} has seats "
                             f"0..{variant.seats - 1}", code="bad_option")


def _play_match(args: argparse.Namespace, variant: Variant) -> int:
    doubling = frozenset(args.datuo or ())
    match = Match(variant, seed=args.seed, keep_hands=0,  # rows keep what the output needs
                  datuo=(lambda m, seat: seat in doubling) if doubling else None)
    bots = make_bots(bot_names(args, variant.seats), args.seed, variant.seats)
    rows = []
    zh, say = args.zh, (lambda *a: None) if args.json else print
    word = Words(variant, True).word if zh else variant.term
    unit = word(variant.scoring.unit)
    limit = args.hands if args.hands > 1 or not args.match else MAX_MATCH_HANDS
    ends = _end_words(variant, zh)
    if zh:
        size = f"{args.hands} 手比赛" if not args.match else "比赛" + (
            f"（至多 {args.hands} 手）" if args.hands > 1 else "")
        say(f"{variant.name} ({variant.id})，{size}{ends}，种子 {args.seed}；计分单位 {unit}")
    else:
        size = f"match of {args.hands} hands" if not args.match else "match" + (
            f" of at most {args.hands} hands" if args.hands > 1 else "")
        say(f"{variant.name} ({variant.id}), {size}{ends}, seed {args.seed}; scores in {unit}")
    for _ in range(limit):
        if match.over:
            break
        h = match.play_hand(bots)
        r = h.game.state.final_result
        pays = h.table_payments(variant.seats)
        rows.append({"hand": h.number, "dealer": h.dealer, "sitting_out": h.sitting_out,
                     "datuo": list(h.datuo), "result": r.kind, "winner": h.winner,
                     "huxi": r.huxi, "payments": pays, "scores": list(match.scores)})
        if zh:
            who = (word("huangzhuang") if r.winner is None
                   else f"{h.seats[r.winner]}号位 胡 {r.huxi} {word('huxi')}")
            out = "" if h.sitting_out is None else f"，{h.sitting_out}号位轮空"
            out += "".join(f"，{t}号位打坨" for t in h.datuo)
            say(f"  第 {h.number:3} 手：庄家 {h.dealer}号位{out}：{pad(who, 22)}"
                f"输赢 {pays}  累计 {match.scores}")
        else:
            who = (variant.term("huangzhuang") if r.winner is None
                   else f"seat {h.seats[r.winner]} wins {r.huxi} {variant.term('huxi')}")
            out = "" if h.sitting_out is None else f", seat {h.sitting_out} out"
            out += "".join(f", seat {t} 打坨" for t in h.datuo)
            say(f"  hand {h.number:3}: dealer seat {h.dealer}{out}: {pad(who, 22)}"
                f"payments {pays}  scores {match.scores}")
    final, step = match.final_scores(), variant.match.round_to
    if args.json:
        print(json.dumps({"variant": variant.id, "seed": args.seed, "hands": rows,
                          "scores": match.scores, "over": match.over, "final": final},
                         ensure_ascii=False, indent=2))
        return 0
    if match.over:
        print(f"比赛结束：{match.played} 手" if zh else f"match over after {match.played} hands")
    if zh:
        rounded = f"（取整到 {step}，原为 {match.scores}）" if step > 1 else ""
        print("最终得分：" + "，".join(f"{t}号位 {p:+d}" for t, p in enumerate(final)) + rounded)
    else:
        rounded = f" (rounded to {step} from {match.scores})" if step > 1 else ""
        print("final scores: " + ", ".join(f"seat {t} {p:+d}" for t, p in enumerate(final))
              + rounded)
    return 0


def _end_words(variant: Variant, zh: bool) -> str:
    """How the variant's match ends (``match.end``), for the header line: "" when it has no
    end of its own."""
    end = variant.match.end
    parts = ([] if end.hands is None else [f"{end.hands} 手" if zh else f"{end.hands} hands"]) + (
        [] if end.score_at_least is None else
        [f"一家累计达 {end.score_at_least}" if zh else f"a seat at {end.score_at_least}"])
    if not parts:
        return ""
    return (f"（{'或'.join(parts)}即结束）" if zh
            else f" (the variant's match ends at {' or '.join(parts)}, whichever comes first)")
