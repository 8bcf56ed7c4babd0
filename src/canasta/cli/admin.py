"""``canasta admin``: look after the players of a server's database (list, reset a password, bar a name).

It opens the database ``canasta serve`` uses (a SQLite file or a ``postgresql://`` URL), applying any
migration it lacks, and works while the server runs: every change is one transaction.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from typing import Any

from .args import UsageError


def _open(db: str) -> Any:
    try:
        from ..web.storage import StorageError, open_storage
    except ImportError as exc:
        raise UsageError(f"canasta admin needs the web extra ({exc.name} is missing): pip install 'canasta[web]'") \
            from None
    try:
        return open_storage(db)
    except StorageError as exc:
        raise UsageError(str(exc)) from None


def cmd_admin(args: argparse.Namespace) -> int:
    """Run one admin action on the database."""
    try:
        from ..web.room import accounts
    except ImportError as exc:
        raise UsageError(f"canasta admin needs the web extra ({exc.name} is missing): pip install 'canasta[web]'") \
            from None
    storage = _open(args.db)
    try:
        if args.action == "list":
            rows = accounts.list_accounts(storage)
            for row in rows:
                created = time.strftime("%Y-%m-%d", time.gmtime(row.account.created))
                state = "barred" if row.barred else f"{row.sessions} session{'s' * (row.sessions != 1)}"
                print(f"{row.account.name}\t{created}\t{state}")
            print(f"{len(rows)} player{'s' * (len(rows) != 1)}", file=sys.stderr)
            return 0
        if args.action == "reset":
            found = accounts.find_account(storage, args.name)
            if found is None:
                raise UsageError(f"no player is called {args.name!r}")
            if args.stdin:
                password = sys.stdin.readline().rstrip("\r\n")
                try:
                    accounts.check_password(password)
                except accounts.AccountError as exc:
                    raise UsageError(f"the password read from standard input: {exc}") from None
            else:
                password = secrets.token_urlsafe(12)
            accounts.set_password(storage, found.id, accounts.hash_password(password))
            if not args.stdin:
                print(password)
            print(f"{found.name}'s password is reset and every session of theirs ended", file=sys.stderr)
            return 0
        if args.action == "bar":
            barred = accounts.bar_name(storage, args.name, args.reason)
            who = f"{barred.name} cannot sign in" if barred is not None else "nobody holds it"
            print(f"the name {args.name!r} is barred: it cannot be registered; {who}", file=sys.stderr)
            return 0
        if not accounts.unbar_name(storage, args.name):
            raise UsageError(f"the name {args.name!r} is not barred")
        print(f"the name {args.name!r} is no longer barred", file=sys.stderr)
        return 0
    finally:
        storage.close()


def register(sub: Any) -> None:
    """Add ``admin`` to the ``canasta`` parser."""
    p = sub.add_parser(
        "admin", help="the server's players: list them, reset a password, bar a name (needs the web extra)",
        description="Look after the players of a server's database (the one canasta serve --db uses): list "
                    "them, reset a password (a temporary one is printed, or one is read from standard input), "
                    "bar a name (a barred player cannot sign in, and nobody can register the name) or lift a bar.")
    p.add_argument("--db", default="canasta.sqlite3",
                   help="a SQLite file (default canasta.sqlite3) or a postgresql:// URL")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION",
                               help="list, reset NAME, bar NAME or unbar NAME")
    actions.add_parser("list", help="every player: name, date joined, barred or live sessions")
    reset = actions.add_parser("reset", help="give a player a new password and end their sessions")
    reset.add_argument("name")
    reset.add_argument("--stdin", action="store_true",
                       help="read the new password from standard input's first line instead of printing one")
    bar = actions.add_parser("bar", help="bar a name: it cannot sign in or be registered")
    bar.add_argument("name")
    bar.add_argument("--reason", default="", help="why, for the record")
    unbar = actions.add_parser("unbar", help="lift a bar")
    unbar.add_argument("name")
    p.set_defaults(func=cmd_admin)
