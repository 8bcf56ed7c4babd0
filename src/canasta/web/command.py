"""The ``serve`` subcommand; importing it imports neither FastAPI nor the server."""

from __future__ import annotations

import argparse
import ipaddress
import socket
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
    if args.follow is not None and args.follow < 0:
        raise UsageError("--follow must be 0 (never) or more seconds")
    if not args.max_search > 0:
        raise UsageError("--max-search must be more than 0 seconds")
    if not args.drain_seconds >= 0:
        raise UsageError("--drain-seconds must be 0 or more seconds")
    if not args.expire_days >= 0:
        raise UsageError("--expire-days must be 0 (never) or more days")
    for address in args.trusted:
        try:
            ipaddress.ip_address(address)
        except ValueError:
            raise UsageError(f"--trusted takes a client's IP address, like 127.0.0.1, not {address!r}") from None
    check_listen(args.host, args.port)
    try:
        serve(args.host, args.port, args.db, args.bot_delay, open_browser=args.open, quiet=args.quiet,
              follow=args.follow, max_search=args.max_search, expire_days=args.expire_days,
              trusted=tuple(args.trusted), log_format=args.log_format, drain_seconds=args.drain_seconds)
    except StorageError as exc:
        raise UsageError(str(exc)) from None
    return 0


def check_listen(host: str, port: int) -> None:
    """Refuse, in one line, a port out of range or an address this machine cannot listen on."""
    if not 1 <= port <= 65535:
        raise UsageError(f"--port must be from 1 to 65535, not {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise UsageError(f"--host {host!r} is not an address of this machine ({exc})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise UsageError(f"cannot listen on {host} port {port}: {reason.lower()}") from None


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
    p.add_argument("--follow", type=float, default=None, metavar="SECONDS",
                   help="how often to look for moves other server processes made on the same database "
                        "(default 0.5 on SQLite; on PostgreSQL they are heard at once, and this look, every 5 s "
                        "by default, is a last resort; 0: never)")
    p.add_argument("--max-search", type=float, default=2.0, metavar="SECONDS",
                   help="most seconds a search computer player may think per move (default 2)")
    p.add_argument("--expire-days", type=float, default=30.0, metavar="DAYS",
                   help="days after its last move that a table leaves the database (default 30; "
                        "finished tables: a quarter of it; 0: never)")
    p.add_argument("--trusted", action="append", default=[], metavar="ADDRESS",
                   help="a client address no rate limit applies to (repeatable; e.g. a load tester)")
    p.add_argument("--log-format", choices=("text", "json"), default="text",
                   help="the log's lines: text, or one JSON object each with the table and request id (default text)")
    p.add_argument("--drain-seconds", type=float, default=10.0, metavar="SECONDS",
                   help="on SIGTERM, the most seconds to finish the moves being answered before every connection "
                        "is told to reconnect (default 10; docs/deploy.md)")
    p.set_defaults(func=cmd_serve)
