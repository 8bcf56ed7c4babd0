"""``canasta tournament run``, ``score`` and ``create``: a duplicate tournament of computer players, recorded results
scored against the field, or a tournament on a server (:mod:`.tournament_create`).

Every table plays the same boards (the same cards, dealer and first-meld minimums); each side's net
score on a board is matchpointed against the sides of the same direction at the other tables, and the
standings rank the sides by their matchpoint percentage (docs/tournament.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from .args import PRESET_HELP, SET_HELP, UsageError, load_json, numbers_per_board, rules_from_args


def tables_of(seats: Sequence[str] | None, tables: int, players: int) -> list[tuple[str, ...]]:
    """Each table's seats from the ``--seats`` lists: one list seats every table; several seat the first tables
    in turn, the last one every table after them (default: expert in every seat)."""
    lists = list(seats) if seats else [",".join(["expert"] * players)]
    if len(lists) > tables:
        raise UsageError(f"{len(lists)} --seats lists for {tables} tables")
    out = []
    for text in lists:
        words = tuple(w.strip() for w in text.split(","))
        if len(words) != players or not all(words):
            raise UsageError(f"--seats {text!r}: give {players} computer players separated by commas, "
                             f"like {','.join(['expert'] * players)}")
        out.append(words)
    return out + [out[-1]] * (tables - len(out))


def cmd_run(args: argparse.Namespace) -> int:
    from ..bots.arena import progress_bar
    from ..bots.tournament import Tournament, report, run_tournament, schedule_of_minimums
    from .engine import check_ray_address

    rules = rules_from_args(args.preset, args.set)
    schedule: Any = ()
    if args.minimum is not None:
        schedule = schedule_of_minimums(rules, numbers_per_board(args.minimum, "--minimum", rules.sides))
    elif args.schedule is not None:
        schedule = tuple(n if isinstance(n, tuple) else (n,) * rules.sides
                         for n in numbers_per_board(args.schedule, "--schedule", rules.sides))
    tournament = Tournament(rules, tuple(tables_of(args.seats, args.tables, rules.players)), args.boards, args.seed,
                            args.rounds, args.movement, schedule)
    if args.address is not None and args.backend == "ray":
        check_ray_address(args.address)
    terminal = sys.stderr.isatty() and not args.quiet
    board, seconds = run_tournament(tournament, args.workers, args.backend, args.address,
                                    progress=(lambda done, total: progress_bar(done, total, "hands"))
                                    if terminal else None)
    data = report(board, seconds)
    if args.json:
        print(json.dumps(data))
        return 0
    print("\n".join(text_report(data, args.board_scores)))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from ..bots.tournament import Scoreboard, report

    data = load_json(args.file)
    board = Scoreboard.from_json(data)
    scored = report(board)
    if args.json:
        print(json.dumps(scored))
        return 0
    print("\n".join(text_report(scored, args.board_scores)))
    return 0


def text_report(data: dict[str, Any], board_scores: bool = False) -> list[str]:
    """The report of :func:`canasta.bots.tournament.report` as lines of text: the format, then the standings."""
    spec = data["tournament"]
    rounds = spec["rounds"]
    schedule = spec["schedule"]
    movement = f" ({spec['movement']} movement)" if rounds > 1 else ""
    minimums = ", then ".join(f"{'/'.join(map(str, m))} (side totals {'/'.join(map(str, s))})"
                              for m, s in zip(data["minimums"], schedule))
    lines = [f"Duplicate tournament: {data['preset']}, {data['tables']} tables, {data['boards']} boards in "
             f"{rounds} round{'s' if rounds > 1 else ''}{movement}, seed {spec['seed']}",
             f"first-meld minimum {minimums}{'' if len(schedule) == 1 else ', board by board in turn'}",
             f"{len(data['results'])} results"
             + (f" played in {data['seconds']:.2f} s" if "seconds" in data else "")
             + f"; each result compared with {data['field'] - 1} others of its direction "
               f"(top {2 * (data['field'] - 1)} a board)", ""]
    header = ["rank", "entry", "players", "boards", "matchpoints", "top", "percent", "points"]
    rows = [["-" if s["rank"] is None else f"{'=' if s['tied'] else ''}{s['rank']}", s["entry"],
             ", ".join(p or "(open)" for p in s["players"]) + (" (withdrawn)" if s["withdrawn"] else ""),
             str(s["boards"]), f"{s['matchpoints']:.2f}", str(s["top"]),
             "-" if s["percent"] is None else f"{s['percent']:.2f}", f"{s['difference']:+.0f}"]
            for s in data["standings"]]
    lines += table(header, rows, left={1, 2})
    if board_scores:
        for number, scores in enumerate(data["board_scores"]):
            lines += ["", f"board {number + 1}"]
            lines += table(["table", "entry", "totals", "net", "matchpoints", "percent", "difference"],
                           [[str(s["table"] + 1), s["entry"],
                             "/".join(map(str, s["totals"])) if s["totals"] else f"adjusted {s['adjusted']}%",
                             "" if s["net"] is None else signed(s["net"]), f"{s['matchpoints']:.2f}",
                             "-" if s["percent"] is None else f"{s['percent']:.2f}",
                             "" if s["difference"] is None else signed(s["difference"])] for s in scores],
                           left={1, 2})
    return lines


def signed(number: float) -> str:
    """A number with its sign and at most two decimals: ``+735``, ``-323.33``, ``0``."""
    return f"{number:+.2f}".rstrip("0").rstrip(".") if number else "0"


def table(header: list[str], rows: list[list[str]], left: set[int]) -> list[str]:
    """Columns as wide as their longest cell: those in ``left`` flush left, the rest flush right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return ["  ".join(cell.ljust(w) if i in left else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths)))
            .rstrip() for r in [header, *rows]]


def register(sub: Any) -> None:
    """Add ``tournament`` (with ``run`` and ``score``) to the ``canasta`` parser."""
    from ..bots.tournament import MOVEMENTS
    from ..rules import PRESETS
    from .engine import at_least

    p = sub.add_parser(
        "tournament", help="duplicate tournaments: every table plays the same boards, scored against the field",
        description="Duplicate tournaments: every table plays board 1, then board 2, ... from the same cards, and "
                    "each side is matchpointed against the sides that held the same cards at the other tables.")
    actions = p.add_subparsers(dest="action", title="actions", metavar="ACTION", required=True,
                               help="run: computer players play a whole tournament; score: the standings of "
                                    "recorded results; create: a tournament on a server's database")
    r = actions.add_parser(
        "run", help="computer players play a whole tournament; print the standings",
        description="Computer players play every board at every table; the standings rank each side (a pair, "
                    "or a player alone) by its matchpoint percentage: 2 matchpoints for each side of its direction "
                    "whose net score on a board it beats, 1 for each tie (docs/tournament.md).")
    r.add_argument("--tables", type=at_least(2), required=True, metavar="N", help="tables (2 or more)")
    r.add_argument("--boards", type=at_least(1), required=True, metavar="B", help="boards (deals), one hand each")
    r.add_argument("--seats", action="append", metavar="SEATS",
                   help='the seats of every table, as canasta play --seats, e.g. "basic,expert,basic,expert"; '
                        "repeat it to seat the first tables differently (the last list seats the rest; default: "
                        "expert everywhere)")
    r.add_argument("--seed", type=int, required=True, help="seed of every board's cards and every bot")
    r.add_argument("--rounds", type=at_least(1), default=1, metavar="R",
                   help="rounds (they split the boards evenly); the sides move between rounds (default 1)")
    r.add_argument("--movement", default="mitchell", choices=MOVEMENTS,
                   help="mitchell (default): after each round the B sides move one table up, the C sides one "
                        "down; fixed: nobody moves")
    minimum = r.add_mutually_exclusive_group()
    minimum.add_argument("--minimum", metavar="M,...",
                         help="each board's first-meld minimum, used in turn (e.g. 50 or 50,90,120; 90/50 gives "
                              "each side its own); default: a match's first hand (50 in the classic game)")
    minimum.add_argument("--schedule", metavar="S,...",
                         help="the side totals each board is played from, used in turn (e.g. 0,1500,3000): the "
                              "minimums follow the rules")
    r.add_argument("--preset", default="classic", choices=sorted(PRESETS), metavar="PRESET", help=PRESET_HELP)
    r.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help=SET_HELP)
    r.add_argument("--workers", type=at_least(1), default=1, metavar="K", help="processes (or a hint for Ray)")
    r.add_argument("--backend", default="local", choices=("local", "ray"), help="local (processes) or ray")
    r.add_argument("--address", help="the Ray cluster to join (default: a local Ray instance)")
    r.add_argument("--json", action="store_true",
                   help="print one JSON object: the tournament, the standings (each side's players, matchpoints and "
                        "percent), every board's scores and results")
    r.add_argument("--board-scores", action="store_true", help="also print every board's scores, table by table")
    r.add_argument("--quiet", action="store_true", help="no progress bar (there is none unless standard error "
                                                        "is a terminal)")
    r.set_defaults(func=cmd_run)

    c = actions.add_parser(
        "score", help="score recorded results: the standings of a tournament played anywhere",
        description="Score a tournament's results against the field: FILE is the JSON that tournament run --json "
                    "prints, or a scoreboard (the tournament, its results, artificial scores and withdrawals; "
                    "docs/tournament.md), typed in by hand for a tournament played with real cards.")
    c.add_argument("file", metavar="FILE", help="the tournament and its results, as JSON")
    c.add_argument("--json", action="store_true", help="print one JSON object, as tournament run --json does")
    c.add_argument("--board-scores", action="store_true", help="also print every board's scores, table by table")
    c.set_defaults(func=cmd_score)

    from .tournament_create import register as register_create

    register_create(actions)  # create: a tournament on a server's database
