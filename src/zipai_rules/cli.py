"""The ``zipai`` command line: play, analyze, variants, terms, validate, bench, replay,
simulate.

Every user error prints one ``error: …`` line (or a list of variant problems) to stderr and
exits with status 2; nothing prints a traceback for bad input. Everything printed passes
through :func:`~zipai_rules.terminal.escape`: names from variant files and records cannot
send control characters or ANSI escapes to the terminal.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import attrs

from .analysis import analyze, waits
from .cards import format_cards, parse_card, parse_indices
from .errors import VariantError, ZipaiError
from .inputs import VARIANT_LIMITS, Limits
from .melds import parse_meld
from .terminal import EscapingStream, pad, width
from .presets import find_variant, load_preset, preset_ids
from .variant import Variant


def _count(minimum: int):  # type: ignore[no-untyped-def]
    """argparse type: an integer of at least ``minimum``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below {minimum}")
        return value
    return parse


def _variant(name: str, args: argparse.Namespace | None = None) -> Variant:
    if name.endswith((".yaml", ".yml")):
        from .loader import load_variant_file

        return load_variant_file(name, limits=limits_from(args, VARIANT_LIMITS))
    return find_variant(name)


def limits_from(args: argparse.Namespace | None, default: Limits) -> Limits:
    """``default`` with the top-level ``--max-bytes`` / ``--max-nodes`` options applied."""
    changes = {k: getattr(args, k, None) for k in ("max_bytes", "max_nodes")}
    return attrs.evolve(default, **{k: v for k, v in changes.items() if v is not None})


# --- play -------------------------------------------------------------------------------------

def cmd_play(args: argparse.Namespace) -> int:
    from .bots import make_bots
    from .engine import Game
    from .settlement import settle

    variant = _variant(args.variant, args)
    if args.hands > 1:
        if args.record:
            raise ZipaiError("--record writes the record of one hand; it cannot be combined "
                             "with --hands", code="bad_option")
        return _play_match(args, variant)
    bots = make_bots(args.bots.split(","), args.seed, variant.players)
    game = Game(variant, seed=args.seed, dealer=args.dealer)
    settlement = None
    quiet = args.json
    zh = args.zh
    cards = (lambda cs: format_cards(cs, zh=True)) if zh else format_cards
    say = (lambda *a, **k: None) if quiet else print
    say(f"{variant.name} ({variant.id}), seed {args.seed}, dealer seat {game.deal.dealer}, "
        f"bots: {', '.join(type(b).__name__ for b in bots)}")
    for s, hand in enumerate(game.deal.hands):
        say(f"  seat {s} dealt {len(hand):2}: {cards(sorted(hand))}")
    say(f"  wall {len(game.deal.wall)}")
    for e in game.events[len(game.deal.hands):]:
        say(f"      {e.describe(zh)}")
    step = 0
    while not game.is_over:
        state = game.state
        action = bots[state.actor](state, state.options)  # type: ignore[index]
        events = game.apply(action)
        step += 1
        say(f"{step:4}. {action.describe(zh)}")
        if events and events[0].kind.value == action.kind.value and events[0].seat == action.seat:
            events = events[1:]  # the action itself, already printed
        for e in events:
            say(f"      {e.describe(zh)}")
    settlement = settle(game.state, variant.seats > variant.players)
    if args.record:
        from .bots import seat_bot_names
        from .records import write_record

        write_record(args.record, game, settlement,
                     bots=seat_bot_names(args.bots.split(","), variant.players))
    if quiet:
        print(json.dumps({"variant": variant.id, "seed": args.seed, "steps": step,
                          "result": _result_json(game),
                          "settlement": settlement.to_json()}, ensure_ascii=False, indent=2))
        return 0
    _print_result(game, zh)
    _print_settlement(settlement, variant)
    return 0


def _result_json(game) -> dict:  # type: ignore[no-untyped-def]
    r = game.result
    return {**r.to_json(),
            "groups": [g.to_json() for g in r.decomposition.groups] if r.decomposition else []}


def _print_settlement(settlement, variant: Variant) -> None:  # type: ignore[no-untyped-def]
    print("settlement:")
    for line in settlement.lines:
        if line.item == "meld":
            continue  # already listed with the result
        print(f"  {pad(line.term, 10)}{pad(line.item, 11)}{line.text}")
    pays = ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(settlement.payments))
    extra = f", sitting out {settlement.sitting_out:+d}" if settlement.sitting_out else ""
    print(f"  payments ({variant.term(settlement.unit)}): {pays}{extra}")


def _play_match(args: argparse.Namespace, variant: Variant) -> int:
    from .bots import make_bots
    from .match import Match

    match = Match(variant, seed=args.seed, keep_hands=0)  # rows keep what the output needs
    bots = make_bots(args.bots.split(","), args.seed, variant.seats)
    unit = variant.term(variant.scoring.unit)
    rows = []
    if not args.json:
        print(f"{variant.name} ({variant.id}), match of {args.hands} hands, seed {args.seed}; "
              f"scores in {unit}")
    for _ in range(args.hands):
        h = match.play_hand(bots)
        r = h.game.result
        pays = h.table_payments(variant.seats)
        rows.append({"hand": h.number, "dealer": h.dealer, "sitting_out": h.sitting_out,
                     "result": r.kind, "winner": None if r.winner is None else h.seats[r.winner],
                     "huxi": r.huxi, "payments": pays, "scores": list(match.scores)})
        if not args.json:
            who = "荒庄" if r.winner is None else f"seat {h.seats[r.winner]} wins {r.huxi} 胡息"
            out = "" if h.sitting_out is None else f", seat {h.sitting_out} out"
            print(f"  hand {h.number:3}: dealer seat {h.dealer}{out}: {who:22} "
                  f"payments {pays}  scores {match.scores}")
    if args.json:
        print(json.dumps({"variant": variant.id, "seed": args.seed, "hands": rows,
                          "scores": match.scores}, ensure_ascii=False, indent=2))
    else:
        print("final scores: " + ", ".join(f"seat {t} {p:+d}" for t, p in enumerate(match.scores)))
    return 0


def _print_result(game, zh: bool) -> None:  # type: ignore[no-untyped-def]
    r = game.result
    v = game.variant
    print("result:", end=" ")
    if r.kind == "huangzhuang":
        print(f"{v.term('huangzhuang')} (huangzhuang): the wall is empty and nobody won")
        return
    how = {"self": "own draw (自摸)", "draw": "another player's draw",
           "discard": "a discard", None: "the dealt hand"}[r.source]
    card = "" if r.card is None else f" on {format_cards([r.card], zh=zh)}"
    label = v.term("tianhu") + " (tianhu)" if r.kind == "tianhu" else v.term("hu") + " (hu)"
    print(f"seat {r.winner} wins, {label}{card} from {how}, {r.huxi} {v.term('huxi')}")
    for g in r.decomposition.groups:
        print(f"  {pad(v.term(g.meld.kind.value), 8)}{pad(g.meld.kind.value, 11)}"
              f"{pad(format_cards(g.meld.cards, zh=zh), 16)}{g.huxi:3}  {g.place}")
    if r.decomposition.leftover:
        print(f"  leftover {format_cards(r.decomposition.leftover, zh=zh)} (0, shape waived)")
    print(f"  total {r.huxi} {v.term('huxi')}")


# --- analyze ----------------------------------------------------------------------------------

def cmd_analyze(args: argparse.Namespace) -> int:
    variant = _variant(args.variant, args)
    hand = parse_indices(args.hand)
    table = [parse_meld(m) for m in args.meld]
    if args.card is not None and not args.card.strip():
        raise ZipaiError("--card is empty", code="unknown_card")
    card = parse_card(args.card).index if args.card else None
    if card is not None and args.source is None:
        raise ZipaiError("--card needs --from self|draw|discard", code="bad_source")
    if card is None and args.source is not None:
        raise ZipaiError("--from needs --card", code="bad_source")
    result = analyze(variant, hand, table, card, args.source, all_decompositions=args.all)
    out = result.to_json()
    if card is None:
        out["waits"] = [dict(w.to_json(), source=src) for src in ("self", "draw", "discard")
                        if src in variant.win.sources for w in waits(variant, hand, table, src)]
    if args.all:
        out["decompositions"] = [{"huxi": d.huxi, "groups": [g.to_json() for g in d.groups]}
                                 for d in result.decompositions]
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    zh = args.zh
    verdict = "WIN" if result.win else f"no win ({result.reason})"
    print(f"{variant.name}: {verdict}; best {result.huxi} {variant.term('huxi')}")
    if result.best:
        for g in result.best.groups:
            print(f"  {g.meld.kind.value:10} {format_cards(g.meld.cards, zh=zh):16} {g.huxi:3}  {g.place}")
    for d in result.decompositions[1:]:
        print(f"  alternative ({d.huxi}): " + " ".join(g.meld.describe(zh) for g in d.groups))
    if card is None:
        if out["waits"]:
            print("waits (听牌):")
            for w in out["waits"]:
                print(f"  {w['card']:4} from {w['source']:7} → {w['huxi']} {variant.term('huxi')}")
        else:
            print("waits (听牌): none")
    return 0


# --- variants, terms, validate ---------------------------------------------------------------

def cmd_variants(args: argparse.Namespace) -> int:
    rows = [("id", "name", "players", "deck", "hands (dealer/others)", "wall", "min 胡息")]
    for pid in preset_ids():
        v = load_preset(pid)
        rows.append((v.id, v.name, str(v.players), str(v.deck.size),
                     f"{v.deal.dealer_hand}/{v.deal.other_hand}", str(v.deal.wall),
                     str(v.win.min_huxi)))
    widths = [max(width(r[k]) for r in rows) for k in range(len(rows[0]))]
    for r in rows:
        print("  ".join(cell + " " * (w - width(cell)) for cell, w in zip(r, widths)))
    return 0


def cmd_terms(args: argparse.Namespace) -> int:
    v = _variant(args.variant, args)
    print(f"{v.name} ({v.id})")
    for canonical, word in sorted(v.terminology.items()):
        print(f"  {canonical:14} {word}")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from .loader import load_variant_file

    v = load_variant_file(args.file, limits=limits_from(args, VARIANT_LIMITS))
    print(f"{args.file}: valid variant {v.id} ({v.name}), content hash {v.content_hash[:16]}")
    if args.simulate:
        problem = simulate_check(v, args.simulate)
        if problem:
            print(f"error: {args.file}: {problem}", file=sys.stderr)
            return 1
        print(f"simulated {args.simulate} games with every built-in bot: every card "
              "conserved, every offered action legal, every game ended")
    return 0


def simulate_check(variant: Variant, games: int, max_steps: int = 2000) -> str | None:
    """Play ``games`` seeded games checking the invariants; the first problem or None.

    Every built-in bot plays in every game (seat ``s`` of game ``seed`` is played by bot
    ``(seed + s) mod len(BOTS)``), so a variant that a bot cannot play is found here; a bot
    that fails is reported as a problem."""
    from .bots import BOTS, make_bots
    from .engine import Game

    total = variant.deck.size
    kinds = sorted(BOTS)
    for seed in range(1, games + 1):
        game = Game(variant, seed=seed)
        names = [kinds[(seed + s) % len(kinds)] for s in range(variant.players)]
        bots = make_bots(names, seed, variant.players)
        for step in range(max_steps):
            if game.is_over:
                break
            st = game.state
            if not st.options:
                return f"seed {seed} step {step}: no legal action and the hand is not over"
            bad = next((a for a in st.options if game.check(a) is not None), None)
            if bad is not None:
                return f"seed {seed} step {step}: offered action {bad} is refused"
            try:
                action = bots[st.actor](st, st.options)  # type: ignore[index]
            except Exception as exc:  # noqa: BLE001 - reported: finding such faults is the point
                who = names[st.actor]  # type: ignore[index]
                return (f"seed {seed} step {step}: the {who} bot failed: "
                        f"{type(exc).__name__}: {exc}")
            game.apply(action)
            if game.state.card_count() != total:
                return f"seed {seed} step {step}: {game.state.card_count()} cards, not {total}"
        else:
            return f"seed {seed}: the hand did not end within {max_steps} steps"
    return None


def _count_list(text: str) -> list[int]:
    """argparse type: comma-separated positive integers, at most 20 of them."""
    parts = text.split(",")
    if len(parts) > 20:
        raise argparse.ArgumentTypeError(f"{len(parts)} numbers; at most 20")
    return [_count(1)(part.strip()) for part in parts]


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import run_bench, run_memory_bench

    if args.memory:
        from .simulate import max_jobs

        if max(args.memory_jobs) > max_jobs():
            raise ZipaiError(f"--memory-jobs {max(args.memory_jobs)} is above the number of "
                             f"CPUs ({max_jobs()})", code="bad_option")
        _variant(args.variant, args)  # refuse an unknown variant before starting
        run_memory_bench(args.variant, args.memory, args.memory_jobs)
        return 0
    run_bench(_variant(args.variant, args), hands=args.hands, games=args.games, seed=args.seed)
    return 0


# --- entry point ------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(prog="zipai", description="The rules of 字牌 (zipai / 跑胡子).")
    p.add_argument("--version", action="version", version=f"zipai_rules {__version__}")
    p.add_argument("--max-bytes", type=_count(1), metavar="N",
                   help="read at most N bytes from a variant file (default 131072) or a record "
                   "(default 1048576)")
    p.add_argument("--max-nodes", type=_count(1), metavar="N",
                   help="accept at most N values in a variant file (default 20000) or a record "
                   "(default 100000), YAML aliases expanded")
    sub = p.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play one hand with built-in bots and print the log")
    play.add_argument("--variant", default="hunan", help="preset id, Chinese name or alias, or a YAML file")
    play.add_argument("--seed", type=_count(0), default=1, help="shuffle seed (same seed, same game)")
    play.add_argument("--bots", default="greedy,random,greedy",
                      help="comma-separated bot names per seat: greedy, random")
    play.add_argument("--dealer", type=_count(0), default=0, help="dealer seat")
    play.add_argument("--zh", action="store_true", help="print Chinese card names")
    play.add_argument("--hands", type=_count(1), default=1,
                      help="play a match of N hands (dealer rotation, running scores)")
    play.add_argument("--json", action="store_true", help="print the result and settlement as JSON")
    play.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE")
    play.set_defaults(func=cmd_play)

    an = sub.add_parser("analyze", help="best 胡息 decomposition, win verdict and waits")
    an.add_argument("--variant", default="hunan")
    an.add_argument("--hand", required=True, help='concealed cards, e.g. "x1 x2 x3" or "一二三"')
    an.add_argument("--meld", action="append", default=[],
                    help='a table meld KIND=CARDS, e.g. "peng=d4 d4 d4" or "chi=x2 x7 x10" (repeatable)')
    an.add_argument("--card", help="the incoming card")
    an.add_argument("--from", dest="source", choices=["self", "draw", "discard"],
                    help="how the incoming card arrives")
    an.add_argument("--all", action="store_true", help="list every decomposition")
    an.add_argument("--json", action="store_true", help="print JSON")
    an.add_argument("--zh", action="store_true", help="print Chinese card names")
    an.set_defaults(func=cmd_analyze)

    vs = sub.add_parser("variants", help="list the shipped presets")
    vs.set_defaults(func=cmd_variants)

    tm = sub.add_parser("terms", help="print a variant's terminology map")
    tm.add_argument("variant")
    tm.set_defaults(func=cmd_terms)

    va = sub.add_parser("validate", help="check a variant YAML file")
    va.add_argument("file")
    va.add_argument("--simulate", type=_count(0), default=0, metavar="N",
                    help="then play N seeded random games with invariant checks")
    va.set_defaults(func=cmd_validate)

    be = sub.add_parser("bench", help="measure analyses per second and games per second")
    be.add_argument("--variant", default="hunan")
    be.add_argument("--hands", type=_count(1), default=20_000, help="random hands to analyse")
    be.add_argument("--games", type=_count(1), default=300, help="full games with random bots")
    be.add_argument("--seed", type=_count(0), default=1)
    be.add_argument("--memory", type=_count_list, metavar="N,N,...",
                    help="instead: peak memory of `zipai simulate` for these numbers of games "
                    "(Linux)")
    be.add_argument("--memory-jobs", type=_count_list, default=[1, 2], metavar="J,J,...",
                    help="with --memory: the --jobs values to measure (default 1,2)")
    be.set_defaults(func=cmd_bench)

    from .records import add_replay_parser
    from .simulate import add_simulate_parser

    add_replay_parser(sub)
    add_simulate_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = EscapingStream(out), EscapingStream(err)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = out, err


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except VariantError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ZipaiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
