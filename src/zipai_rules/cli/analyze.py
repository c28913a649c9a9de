"""``zipai analyze``: the best 胡息 decomposition of a hand, its win verdict and its waits."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..analysis import analyze, at_rest, waits
from ..cards import format_cards, parse_card, parse_indices
from ..errors import ZipaiError
from ..melds import parse_meld
from ..scored import GIVEN_LABELS, ScoredHand, score_hand
from ..terminal import columns
from ..wording import Words
from .common import VARIANT_HELP, variant_arg
from .log import print_settlement


def add_parser(sub: Any) -> None:
    """Register ``zipai analyze`` on an argparse subparsers object."""
    an = sub.add_parser("analyze", help="best 胡息 decomposition, win verdict and waits")
    an.add_argument("--variant", default="hunan", help=VARIANT_HELP)
    an.add_argument("--hand", required=True, help='concealed cards, e.g. "x1 x2 x3" or "一二三"')
    an.add_argument("--meld", action="append", default=[],
                    help='a table meld KIND=CARDS, e.g. "peng=d4 d4 d4" or "chi=x2 x7 x10"; '
                    'a K in a 碰/跑 is a 王 standing for its card, "peng=d4 d4 K"; K(card) '
                    'names the card a 王 stands for, "chi=x8 K(x9) x10" (repeatable)')
    an.add_argument("--card", help="the incoming card (with --from)")
    an.add_argument("--from", dest="source", choices=["self", "draw", "discard"],
                    help="how the incoming card arrives: self = the player draws it (自摸), "
                    "draw = another player draws it and shows it, discard = another player "
                    "discards it")
    an.add_argument("--all", action="store_true", help="list every decomposition")
    an.add_argument("--dealer", action="store_true",
                    help="the player deals (碰胡's 小七对 differs for the dealer)")
    an.add_argument("--dealt", action="store_true",
                    help="judge the freshly dealt hand (dealt 提 as --meld): 天胡 and special "
                         "wins included")
    an.add_argument("--score", action="store_true",
                    help="settle the win (with --card and --from, or --dealt): the 名堂, "
                    "multipliers and units it gets, as a game's settlement gives them; the "
                    "player is seat 0, a discard comes from seat 1")
    an.add_argument("--label", action="append", default=[], choices=[str(x) for x in GIVEN_LABELS],
                    help="with --score: the win also counts as this (repeatable; 自摸 is "
                    "--from self)")
    an.add_argument("--haidi", action="store_true",
                    help="with --score: won on the last wall card (海底; no card turned for 醒)")
    an.add_argument("--flipped", metavar="CARD",
                    help="with --score: the wall card turned for 醒 (default: one that gives "
                    "none)")
    an.add_argument("--json", action="store_true", help="print JSON")
    an.add_argument("--zh", action="store_true", help="print Chinese card names")
    an.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    variant = variant_arg(args.variant, args)
    if not args.hand.strip():
        raise ZipaiError("--hand is empty: give the concealed cards, e.g. --hand \"x1 x2 x3 …\"",
                         code="bad_hand")
    hand = parse_indices(args.hand)
    table = [parse_meld(m) for m in args.meld]
    if args.card is not None and not args.card.strip():
        raise ZipaiError("--card is empty", code="unknown_card")
    card = parse_card(args.card).index if args.card else None
    if card is not None and args.source is None:
        raise ZipaiError("--card needs --from self|draw|discard", code="bad_source")
    if card is None and args.source is not None:
        raise ZipaiError("--from needs --card", code="bad_source")
    if not args.score and (args.label or args.haidi or args.flipped):
        raise ZipaiError("--label, --haidi and --flipped go with --score", code="bad_argument")
    if args.score and card is None and not args.dealt:
        raise ZipaiError("--score needs the winning card (--card and --from) or --dealt",
                         code="bad_argument")
    result = analyze(variant, hand, table, card, args.source, all_decompositions=args.all,
                     dealer=args.dealer, dealt=args.dealt)
    scored = score_hand(variant, hand, table, card, args.source, labels=args.label,
                        haidi=args.haidi, flipped=args.flipped, dealer=args.dealer,
                        dealt=args.dealt) if args.score else None
    out = result.to_json()
    resting = card is None and not args.dealt and at_rest(variant, hand, table)
    if card is None:
        # waits only for a hand waiting for a card; one that owes a discard has none
        out["waits"] = [dict(w.to_json(), source=src) for src in ("self", "draw", "discard")
                        if src in variant.win.sources
                        for w in waits(variant, hand, table, src)] if resting else None
    if args.all:
        out["decompositions"] = [d.to_json() for d in result.decompositions]
    if scored is not None:
        out["score"] = scored.to_json()
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    zh = args.zh
    verdict = "WIN" if result.win else f"no win ({result.reason})"
    print(f"{variant.name}: {verdict}; best {result.huxi} {variant.term('huxi')}")
    if result.best:
        for text in columns([(g.meld.kind.value, g.describe(zh),
                              f"{g.huxi:3}", g.place) for g in result.best.groups], "  "):
            print(text)
    if result.best and result.best.leftover:
        print(f"  leftover   {format_cards(result.best.leftover, zh=zh)}"
              f"   ({result.best.special or 'tianhu'}: the shape is waived)")
    elif result.best and result.best.special:
        print(f"  special    {result.best.special} (a win of fixed value)")
    for d in result.decompositions[1:]:
        print(f"  alternative ({d.huxi}): " + " ".join(g.meld.describe(zh) for g in d.groups))
    if args.dealt:
        pass  # a dealt hand's waits are judged after its first discard
    elif card is None and out["waits"] is None:
        print("waits (听牌): none judged: a player holding these cards owes a discard")
    elif card is None:
        if out["waits"]:
            print("waits (听牌):")
            for w in out["waits"]:
                print(f"  {w['card']:4} from {w['source']:7} → {w['huxi']} {variant.term('huxi')}")
        else:
            print("waits (听牌): none")
    if scored is not None:
        _print_score(scored, Words(variant, zh))
    return 0


def _print_score(scored: ScoredHand, words: Words) -> None:
    """The split the win is taken with (when not the best 胡息's), its labels and the
    settlement's lines."""
    r, best = scored.result, scored.analysis.best
    if r.decomposition is not None and r.decomposition != best:
        print(f"taken with ({r.huxi}): " + " ".join(g.meld.describe(words.zh)
                                                     for g in r.decomposition.groups))
    labels = ", ".join(str(x) for x in r.labels) or "none"
    who = "; seat 1 discarded" if r.discarder is not None else ""
    print(f"score: seat 0 wins{who}; labels: {labels}")
    print_settlement(scored.settlement, words)
    s, v = scored.settlement, words.variant
    unit = words.word(v.scoring.unit) if words.zh else v.term(v.scoring.unit)
    print(f"units: {s.units} {unit} from each loser (before a discarder's share)")
