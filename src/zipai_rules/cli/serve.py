"""``zipai serve``: a web table on this machine or the LAN, people against the bots or each
other in their browsers (:mod:`zipai_rules.web`, docs/play.md "A table in the browser").

Needs the ``serve`` extra (Starlette, uvicorn, websockets); without it: ``error:`` and exit
status 2. Binds 127.0.0.1 unless ``--host`` says otherwise (``--host 0.0.0.0`` for a LAN).
"""

from __future__ import annotations

import argparse
import math
import socket
from typing import Any

from ..errors import ZipaiError, install_hint
from .common import VARIANT_HELP, count, variant_arg

#: the words when the extra is missing (zipai_rules is not on the package index: the hint
#: installs from a checkout or a wheel, errors.install_hint)
MISSING = "zipai serve needs the serve extra: " + install_hint("serve")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of seconds") from None
    if not math.isfinite(value) or not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text[:20]}: seconds, more than 0 and at most 3600")
    return value


def _pace(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of seconds") from None
    if not math.isfinite(value) or not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"{text[:20]}: seconds from 0 to 10")
    return value


def _port(text: str) -> int:
    value = count(1)(text)  # not 0: the address printed must be the one served
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{value}: a port from 1 to 65535")
    return value


def add_parser(sub: Any) -> None:
    """Register ``zipai serve`` on an argparse subparsers object."""
    p = sub.add_parser("serve", help="play in the browser: a web table against the bots or "
                       "each other",
                       description="Serve a web table (Starlette and uvicorn, the serve "
                       "extra): open http://HOST:PORT/ in a browser per player. Every seat "
                       "gets its options at once, with a timer; each browser is sent only "
                       "its own seat's view. Finished hands are kept in an SQLite file "
                       "(--db) and can be replayed from the page.")
    p.add_argument("--variant", default="hunan", help=VARIANT_HELP)
    p.add_argument("--humans", type=count(1), default=1, metavar="N",
                   help="seats for people (default 1); the others are the default bots")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to bind (default 127.0.0.1; 0.0.0.0 for the LAN)")
    p.add_argument("--port", type=_port, default=8000, help="the port (default 8000)")
    p.add_argument("--window-seconds", type=_seconds, default=20.0, metavar="S",
                   help="the deadline of each claim window and each own turn (default 20)")
    p.add_argument("--pace", type=_pace, default=0.0, metavar="S",
                   help="seconds between two bot moves shown (default 0: at once; at most 10)")
    p.add_argument("--db", default="zipai-records.sqlite", metavar="FILE",
                   help="the SQLite file of finished hands (default zipai-records.sqlite)")
    p.add_argument("--ascii", action="store_true",
                   help="cards as x1/d10 and pinyin words instead of Chinese")
    p.add_argument("--seed", type=count(0), default=None, metavar="N",
                   help="deal from a known seed (for testing only: the shuffle is no secret)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; exit status 2 when the extra is missing or an argument is
    refused."""
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.store import RecordStore
    except ImportError:
        raise ZipaiError(MISSING, code="missing_extra") from None
    variant = variant_arg(args.variant, args)
    if args.humans > variant.players:
        raise ZipaiError(f"--humans {args.humans}: {variant.id} has {variant.players} "
                         "players", code="bad_option")
    _check_address(args.host, args.port)
    store = RecordStore(args.db)  # not_a_store, store_version: error, status 2
    app = create_app(variant, humans=args.humans, window_seconds=args.window_seconds,
                     store=store, seed=args.seed, ascii=args.ascii, pace=args.pace)
    print(f"zipai serve: http://{args.host}:{args.port}/ ({variant.id}, {args.humans} "
          f"player{'s' if args.humans > 1 else ''}; Ctrl-C stops)")
    print(f"zipai serve: finished hands are kept in {args.db} (/records)")
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                ws_max_size=2 * 64 * 1024)
    return 0


def _check_address(host: str, port: int) -> None:
    """Refuse (``bad_option``) an address this machine cannot listen on: a host name that
    does not resolve, an address of another machine, a port in use or not allowed."""
    try:
        family, kind, proto, _, where = socket.getaddrinfo(host, port,
                                                           type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(where)
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise ZipaiError(f"--host {host[:60]} --port {port}: cannot listen there ({reason})",
                         code="bad_option") from None
