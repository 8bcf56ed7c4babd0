"""The ``serve`` subcommand; importing it imports neither FastAPI nor the server."""

from __future__ import annotations

import argparse
from typing import Any

from ..cli.args import UsageError


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the browser game until interrupted."""
    try:
        from .server import serve
        from .storage import StorageError
    except ImportError as exc:
        raise UsageError(f"the web server needs the web extra ({exc.name} is missing): "
                         "pip install 'canasta[web]'") from None
    if args.bot_delay < 0:
        raise UsageError("--bot-delay must be 0 or more seconds")
    if args.follow < 0:
        raise UsageError("--follow must be 0 (never) or more seconds")
    try:
        serve(args.host, args.port, args.db, args.bot_delay, open_browser=args.open, quiet=args.quiet,
              follow=args.follow)
    except StorageError as exc:
        raise UsageError(str(exc)) from None
    return 0


def register(sub: Any) -> None:
    """Add ``serve`` to the ``canasta`` parser."""
    p = sub.add_parser(
        "serve", help="serve the browser game (needs the web extra)",
        description="Serve the browser game until Ctrl+C: tables against computer players or friends, the "
                    "scorekeeper at /score and the printable sheets (needs the web extra: "
                    "pip install 'canasta[web]').")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="canasta.sqlite3",
                   help="a SQLite file (default canasta.sqlite3) or a postgresql:// URL")
    p.add_argument("--bot-delay", type=float, default=0.7,
                   help="seconds a computer player waits before moving (default 0.7)")
    p.add_argument("--open", action="store_true", help="open a browser where there is a screen")
    p.add_argument("--quiet", action="store_true", help="no request log")
    p.add_argument("--follow", type=float, default=0.5, metavar="SECONDS",
                   help="how often to look for moves other server processes made on the same database "
                        "(default 0.5; 0: never)")
    p.set_defaults(func=cmd_serve)
