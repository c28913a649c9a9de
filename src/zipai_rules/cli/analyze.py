"""``zipai analyze``: the best 胡息 decomposition of a hand, its win verdict and its waits."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..analysis import analyze, at_rest, waits
from ..cards import format_cards, parse_card, parse_indices
from ..errors import ZipaiError
from ..melds import parse_meld
from ..terminal import columns
from .common import VARIANT_HELP, variant_arg


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
    result = analyze(variant, hand, table, card, args.source, all_decompositions=args.all,
                     dealer=args.dealer, dealt=args.dealt)
    out = result.to_json()
    resting = card is None and not args.dealt and at_rest(variant, hand, table)
    if card is None:
        # waits only for a hand waiting for a card; one that owes a discard has none
        out["waits"] = [dict(w.to_json(), source=src) for src in ("self", "draw", "discard")
                        if src in variant.win.sources
                        for w in waits(variant, hand, table, src)] if resting else None
    if args.all:
        out["decompositions"] = [d.to_json() for d in result.decompositions]
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
    return 0
