"""The ``canasta`` command line: play, serve, rules, scenario, legal, bench, soak, arena.

Bad input of any kind ends in one line on standard error and exit status 2, never a
traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from .errors import CanastaError
from .jsonfile import read_json
from .rules import OPTION_NAMES, PRESETS, Rules
from .score_command import register as register_score
from .sheets.command import register as register_sheets
from .tui.command import register as register_tui


class UsageError(Exception):
    """A command line that cannot run; printed as one line."""


def _load_json(path: str) -> Any:
    return read_json(path, UsageError)


def _parse_value(text: str) -> object:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(text.replace(",", "").replace("_", ""))
    except ValueError:
        return text


def rules_from_args(preset: str, settings: Sequence[str], target: int | None = None) -> Rules:
    """Rules from ``--preset`` and ``--set OPTION=VALUE`` arguments."""
    options: dict[str, object] = {}
    for item in settings:
        name, eq, value = item.partition("=")
        if not eq:
            raise UsageError(f"--set takes OPTION=VALUE, not {item!r} (options: {', '.join(OPTION_NAMES)})")
        options[name.strip()] = _parse_value(value.strip())
    if target is not None:
        options["target"] = target
    return Rules.from_preset(preset, **options)


# -- commands ------------------------------------------------------------------------------


def cmd_scenario(args: argparse.Namespace) -> int:
    from .scenario import run_scenario

    data = _load_json(args.file)
    out = run_scenario(data)
    print(json.dumps(out, indent=1 if args.pretty else None))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    from .position import from_position

    state = from_position(_load_json(args.file))
    for move in state.legal_moves():
        print(move)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import copy_cost, random_hands

    rules = rules_from_args(args.preset, args.set)
    if args.hands <= 0:
        raise UsageError("--hands must be positive")
    result = random_hands(args.hands, args.seed, rules)
    if args.copies:
        result["copy_us"] = copy_cost(args.copies, args.seed)["copy_us"]
    if args.json:
        print(json.dumps({k: result[k] for k in ("hands", "decisions", "seconds", "decisions_per_s",
                                                  "hands_per_s")} | ({"copy_us": result["copy_us"]}
                                                                    if "copy_us" in result else {})))
    else:
        print(f"{result['preset']}: {result['hands']} hands, {result['decisions']} decisions in "
              f"{result['seconds']:.2f} s: {result['decisions_per_s']:,} decisions/s, "
              f"{result['hands_per_s']:,} hands/s")
        if "copy_us" in result:
            print(f"GameState.copy(): {result['copy_us']} µs")
    return 0


def cmd_soak(args: argparse.Namespace) -> int:
    from .soak import soak

    rules = rules_from_args(args.preset, args.set)
    report = soak(args.decisions, args.seed, rules, progress=not args.quiet)
    print(json.dumps(report))
    return 0 if report["failures"] == 0 else 1


def cmd_rules(args: argparse.Namespace) -> int:
    from .rulebook import rules_text

    print(rules_text(rules_from_args(args.preset, args.set)), end="")
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    from .arena import progress_bar, run_arena

    rules = rules_from_args(args.preset, args.set)
    unit = "matches" if args.matches is not None else "deals"
    report = run_arena(args.a, args.b, rules, args.seed, deals=args.deals, matches=args.matches,
                       workers=args.workers, backend=args.backend, address=args.address,
                       progress=None if args.quiet else lambda done, total: progress_bar(done, total, unit))
    if args.json:
        print(json.dumps(report))
        return 0
    a, b = report["a"], report["b"]
    count = f"{report['matches']} duplicate matches" if unit == "matches" else f"{report['deals']} deals"
    print(f"{a} (A) vs {b} (B), {report['preset']}, seed {report['seed']}: {count}, "
          f"{report['replays']} replays each, {report['hands']} hands")
    ci = report["point_diff_ci95"]
    ci_text = f" (95% CI {ci[0]:+.1f} to {ci[1]:+.1f})" if ci is not None else ""
    print(f"point difference A-B per hand: {report['point_diff_mean']:+.1f}{ci_text}")
    print(f"hands won: {a} (A) {report['hands_won_a']}, {b} (B) {report['hands_won_b']}, "
          f"tied {report['hands_tied']}")
    if unit == "matches":
        lo, hi = report["match_win_rate_ci95"]
        print(f"matches won: {a} (A) {report['matches_won_a']}, {b} (B) {report['matches_won_b']}, "
              f"undecided {report['matches_undecided']} of {report['matches_played']}; "
              f"A's win rate {report['match_win_rate_a']:.3f} (95% CI {lo:.3f} to {hi:.3f})")
    print(f"{report['decisions']:,} decisions in {report['seconds']:.2f} s: {report['decisions_per_s']:,} decisions/s")
    for who, name in (("a", a), ("b", b)):
        if f"{who}_searched_moves" in report:
            print(f"{name} searched {report[f'{who}_searched_moves']:,} moves, "
                  f"{report[f'{who}_samples_per_move']} sampled deals per move")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .web.server import serve
        from .web.storage import StorageError
    except ImportError as exc:
        raise UsageError(f"the web server needs the web extra ({exc.name} is missing): "
                         "pip install 'canasta[web]'") from None
    if args.bot_delay < 0:
        raise UsageError("--bot-delay must be 0 or more seconds")
    if args.follow < 0:
        raise UsageError("--follow must be 0 (never) or more seconds")
    if not args.max_search > 0:
        raise UsageError("--max-search must be more than 0 seconds")
    if not args.expire_days >= 0:
        raise UsageError("--expire-days must be 0 (never) or more days")
    try:
        serve(args.host, args.port, args.db, args.bot_delay, open_browser=args.open, quiet=args.quiet,
              follow=args.follow, max_search=args.max_search, expire_days=args.expire_days,
              trusted=tuple(args.trusted))
    except StorageError as exc:
        raise UsageError(str(exc)) from None
    return 0


def _arena_parser_error(message: str) -> NoReturn:
    print(f"canasta arena: {message}", file=sys.stderr)
    sys.exit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="canasta", description="Canasta: play, check rules, measure.")
    sub = parser.add_subparsers(dest="command", required=True)

    def rules_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("--preset", default="classic", choices=sorted(PRESETS), help="the game to play")
        p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                       help="change one rules option (repeatable)")

    register_tui(sub)  # play (full screen, or --plain) and replay

    p = sub.add_parser("serve", help="serve the browser game (needs the web extra)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="canasta.sqlite3",
                   help="a SQLite file (default canasta.sqlite3) or a postgresql:// URL")
    p.add_argument("--bot-delay", type=float, default=0.7, help="seconds a computer player waits before moving")
    p.add_argument("--open", action="store_true", help="open a browser where there is a screen")
    p.add_argument("--quiet", action="store_true", help="no request log")
    p.add_argument("--follow", type=float, default=0.5, metavar="SECONDS",
                   help="how often to look for moves other server processes made on the same database "
                        "(default 0.5; 0: never)")
    p.add_argument("--max-search", type=float, default=2.0, metavar="SECONDS",
                   help="most seconds a search computer player may think per move (default 2)")
    p.add_argument("--expire-days", type=float, default=30.0, metavar="DAYS",
                   help="days after its last move that a table leaves the database (default 30; "
                        "finished tables: a quarter of it; 0: never)")
    p.add_argument("--trusted", action="append", default=[], metavar="ADDRESS",
                   help="a client address no rate limit applies to (repeatable; e.g. a load tester)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("scenario", help="run a scenario file and print the runner's JSON")
    p.add_argument("file")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.set_defaults(func=cmd_scenario)

    p = sub.add_parser("legal", help="list the canonical legal moves of a position file")
    p.add_argument("file")
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("bench", help="random playouts: decisions per second")
    rules_args(p)
    p.add_argument("--hands", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--copies", type=int, default=0, help="also time this many GameState.copy() calls")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("soak", help="random playouts checking every invariant at every step")
    rules_args(p)
    p.add_argument("--decisions", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=cmd_soak)

    p = sub.add_parser("rules", help="print the complete rules of a game in plain English")
    p.add_argument("preset", nargs="?", default="classic", help="the preset (default classic)")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                   help="change one rules option (repeatable)")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("arena", help="duplicate games between two bots: points, hands and matches won")
    p.error = _arena_parser_error  # type: ignore[method-assign]  # one-line errors, exit 2
    p.add_argument("a", help="bot A")
    p.add_argument("b", help="bot B")
    p.add_argument("--preset", default="classic", help="the game to play")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                   help="change one rules option (repeatable)")
    count = p.add_mutually_exclusive_group()
    count.add_argument("--deals", type=int, help="deals, each played once per replay (default 100)")
    count.add_argument("--matches", type=int, help="duplicate matches played to the target")
    p.add_argument("--seed", type=int, required=True, help="seed of every deck and bot")
    p.add_argument("--workers", type=int, default=1, help="processes (or a hint for Ray)")
    p.add_argument("--backend", default="local", help="local (processes) or ray")
    p.add_argument("--address", help="the Ray cluster to join (default: a local Ray instance)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_arena)

    register_sheets(sub)
    register_score(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``canasta`` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except (UsageError, CanastaError) as exc:
        print(f"canasta: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
