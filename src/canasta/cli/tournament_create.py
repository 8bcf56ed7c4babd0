"""``canasta tournament create``: a duplicate tournament on a server's database, its seat links printed.

The organiser on the server's machine makes the tournament the way ``POST /api/tournaments`` does
(docs/tournament.md, "On the server"): the tables and the tournament go into the database, each table
dealt board 1, and a running server (or the next one started) plays them.  The links are printed once:
the database keeps only their hashes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from .args import UsageError, load_json, numbers_per_board


def body_of(args: argparse.Namespace) -> dict[str, Any]:
    """The ``POST /api/tournaments`` body the flags (or ``--file``) give."""
    from ..rules import Rules

    if args.file:
        given = load_json(args.file)
        if not isinstance(given, dict):
            raise UsageError(f"{args.file}: a tournament request is a JSON object")
        return given
    if args.tables is None or args.boards is None:
        raise UsageError("give --tables and --boards (or --file)")
    rules = Rules.from_preset(args.preset)
    lists = list(args.seats) if args.seats else [",".join(["expert"] * rules.players)]
    if len(lists) > args.tables:
        raise UsageError(f"{len(lists)} --seats lists for {args.tables} tables")
    tables = []
    for text in lists:
        words = [w.strip() for w in text.split(",")]
        if len(words) != rules.players or not all(words):
            raise UsageError(f"--seats {text!r}: give {rules.players} seats separated by commas (a computer "
                             "player, human:NAME, or open)")
        tables.append([None if w == "open" else w for w in words])
    tables += [tables[-1]] * (args.tables - len(tables))
    body: dict[str, Any] = {"preset": args.preset, "boards": args.boards, "tables": tables, "public": args.public,
                            "away_minutes": args.away_minutes, "round_minutes": args.round_minutes,
                            "rounds": args.rounds}
    if args.name:
        body["name"] = args.name
    if args.minimum:
        body["minimums"] = [list(m) if isinstance(m, tuple) else m
                            for m in numbers_per_board(args.minimum, "--minimum", rules.sides)]
    return body


async def create(db: str, body: dict[str, Any]) -> dict[str, Any]:
    """Make the tournament in ``db`` and close the storage again; the organiser's answer."""
    from ..web.service import TableService
    from ..web.storage import AsyncStorage, open_storage
    from ..web.tournaments.service import TournamentService, parse_request

    request = parse_request(body)
    storage = AsyncStorage(open_storage(db))
    service = TableService(storage)
    try:
        service.changed = lambda table: None  # type: ignore[method-assign]  # the server plays the tables
        return await TournamentService(service).create(request)
    finally:
        await service.close()
        await storage.close()


def cmd_create(args: argparse.Namespace) -> int:
    from ..errors import CanastaError

    body = body_of(args)
    try:
        answer = asyncio.run(create(args.db, body))
    except CanastaError as exc:
        raise UsageError(str(exc)) from None
    base = args.url.rstrip("/")
    if args.json:
        print(json.dumps(answer, indent=1))
        return 0
    print(f"tournament: {base}{answer['link']}")
    for table in answer["tables"]:
        for seat in table["seats"]:
            if seat["link"]:
                print(f"table {table['table'] + 1}, seat {seat['seat'] + 1} ({seat['name']}): {base}{seat['link']}")
    return 0


def register(actions: Any) -> None:
    """Add ``create`` to ``canasta tournament``."""
    from ..rules import PRESETS
    from .engine import at_least

    c = actions.add_parser(
        "create", help="create a tournament on a server's database; print its page and seat links",
        description="Create a duplicate tournament on the server's database, as a signed-in organiser does on the "
                    "web (docs/tournament.md, \"On the server\"): the tables are made and board 1 dealt; the "
                    "running server plays them.  Prints the tournament's page and every person's seat link (once: "
                    "the database keeps only their hashes).")
    c.add_argument("--db", required=True, help="the server's database (a SQLite path or a postgresql:// URL)")
    c.add_argument("--file", help="the request as JSON (the body of POST /api/tournaments) instead of the flags")
    c.add_argument("--tables", type=at_least(2), metavar="N", help="tables (2 or more)")
    c.add_argument("--boards", type=at_least(1), metavar="B", help="boards (deals), one hand each")
    c.add_argument("--seats", action="append", metavar="SEATS",
                   help='a table\'s seats, e.g. "human:Ann,expert,open,expert" (open: a person still to come); '
                        "repeat it for the first tables in turn, the last list seats the rest (default: expert)")
    c.add_argument("--minimum", metavar="M,...", help="each board's first-meld minimum, used in turn (e.g. 50,90)")
    c.add_argument("--preset", default="classic", choices=sorted(PRESETS), metavar="PRESET", help="the game")
    c.add_argument("--away-minutes", type=float, default=5.0, metavar="MIN",
                   help="minutes a person's seat may be empty before the computer plays it (default 5; 0: never)")
    c.add_argument("--rounds", type=at_least(1), default=1, metavar="R",
                   help="rounds: the boards split evenly into them, each with its own round time (default 1)")
    c.add_argument("--round-minutes", type=float, default=0.0, metavar="MIN",
                   help="minutes for each round; a board of the round a table has not played by then is scored "
                        "40%% for it (default 0: no limit)")
    c.add_argument("--name", default="", help="the tournament's name, as its page and the room show it")
    c.add_argument("--public", action="store_true", help="a public tournament (default: by invite)")
    c.add_argument("--url", default="", help="the server's address, put before the printed links")
    c.add_argument("--json", action="store_true", help="print the answer of POST /api/tournaments")
    c.set_defaults(func=cmd_create)
