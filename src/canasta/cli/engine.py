"""The engine's subcommands: scenario, legal, bench, soak, rules and arena."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ..rules import PRESETS
from .args import PRESET_HELP, SET_HELP, UsageError, load_json, rules_args, rules_from_args

# -- commands ------------------------------------------------------------------------------


def cmd_scenario(args: argparse.Namespace) -> int:
    from ..testing.scenario import run_scenario

    data = load_json(args.file)
    out = run_scenario(data)
    print(json.dumps(out, indent=1 if args.pretty else None))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    from ..position import from_position

    state = from_position(load_json(args.file))
    for move in state.legal_moves():
        print(move)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from ..buildinfo import build
    from ..testing.bench import copy_cost, random_hands

    rules = rules_from_args(args.preset, args.set)
    result = random_hands(args.hands, args.seed, rules)
    if args.copies:
        result["copy_us"] = copy_cost(args.copies, args.seed)["copy_us"]
    if args.json:
        print(json.dumps({k: result[k] for k in ("hands", "decisions", "seconds", "decisions_per_s",
                                                  "hands_per_s")} | ({"copy_us": result["copy_us"]}
                                                                    if "copy_us" in result else {})
                         | {"build": build()}))
    else:
        print(f"{result['preset']}: {result['hands']} hands, {result['decisions']} decisions in "
              f"{result['seconds']:.2f} s: {result['decisions_per_s']:,} decisions/s, "
              f"{result['hands_per_s']:,} hands/s ({build()})")
        if "copy_us" in result:
            print(f"GameState.copy(): {result['copy_us']} µs")
    return 0


def cmd_soak(args: argparse.Namespace) -> int:
    from ..testing.soak import soak

    rules = rules_from_args(args.preset, args.set)
    report = soak(args.decisions, args.seed, rules, progress=not args.quiet and sys.stderr.isatty())
    print(json.dumps(report))
    return 0 if report["failures"] == 0 else 1


def cmd_rules(args: argparse.Namespace) -> int:
    from ..text.options import options_help
    from ..text.rulebook import rules_text

    if args.options:
        if args.set:
            raise UsageError("--options lists the options: drop --set")
        print(options_help(), end="")
        return 0
    print(rules_text(rules_from_args(args.preset, args.set)), end="")
    return 0


def check_ray_address(address: str, timeout: float = 5.0) -> None:
    """Refuse in one line a Ray cluster address where nothing answers (Ray itself would retry for minutes,
    writing warnings); ``auto``, ``local`` and addresses without a port are left to Ray.

    >>> check_ray_address("auto")
    >>> check_ray_address("127.0.0.1:1", timeout=1)
    Traceback (most recent call last):
    canasta.cli.args.UsageError: --address 127.0.0.1:1: no Ray cluster answers there (Connection refused)
    """
    import socket

    host, colon, port = address.split("://", 1)[-1].rpartition(":")
    if not colon or not port.isdigit() or address in ("auto", "local"):
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except (OSError, ValueError, OverflowError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise UsageError(f"--address {address}: no Ray cluster answers there ({reason})") from None


def cmd_arena(args: argparse.Namespace) -> int:
    from ..bots.arena import progress_bar, run_arena

    rules = rules_from_args(args.preset, args.set)
    if args.address is not None and args.backend == "ray":
        check_ray_address(args.address)
    unit = "matches" if args.matches is not None else "deals"
    terminal = sys.stderr.isatty()
    report = run_arena(args.a, args.b, rules, args.seed, deals=args.deals, matches=args.matches,
                       workers=args.workers, backend=args.backend, address=args.address,
                       progress=None if args.quiet or not terminal
                       else lambda done, total: progress_bar(done, total, unit),
                       journal=args.journal, log=log_lines(args.quiet or terminal or args.journal is None))
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
    ms = report["decision_ms"]
    print(f"ms per decision, median and p95: {a} (A) {ms['a']['median']:g} and {ms['a']['p95']:g}, "
          f"{b} (B) {ms['b']['median']:g} and {ms['b']['p95']:g}")
    for who, name in (("a", a), ("b", b)):
        if f"{who}_searched_moves" in report:
            print(f"{name} searched {report[f'{who}_searched_moves']:,} moves, "
                  f"{report[f'{who}_samples_per_move']} sampled deals per move")
    return 0


def log_lines(silent: bool) -> Callable[[str], None] | None:
    """Where a long run's progress lines go: standard error (a log, where no bar can be redrawn), or nowhere."""
    if silent:
        return None
    return lambda line: print(line, file=sys.stderr, flush=True)


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number, ``low`` or more (``--hands 0`` is refused in one line)."""

    def whole(text: str) -> int:
        try:
            value = int(text.replace(",", "").replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be {low} or more, not {value}")
        return value

    return whole


def register(sub: Any) -> None:
    """Add the engine's subcommands to the ``canasta`` parser."""
    p = sub.add_parser(
        "scenario", help="run a scenario file and print the runner's JSON",
        description="Play the moves of a scenario file (a position or a deal, and move lines) and print one "
                    "JSON object: the moves applied, the first illegal one and why, the position reached and "
                    "the score when the hand ends (NOTATION.md, \"The runner\").")
    p.add_argument("file", metavar="FILE.json", help="the scenario: {\"position\" or \"deal\", \"moves\"}")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.set_defaults(func=cmd_scenario)

    p = sub.add_parser(
        "legal", help="list the canonical legal moves of a position file",
        description="Print the legal moves of the player to act in a position file, one move a line, in the "
                    "notation of NOTATION.md (moves that differ only in suits appear once).")
    p.add_argument("file", metavar="POSITION.json", help="a position, one JSON object")
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser(
        "bench", help="random playouts: decisions per second",
        description="Play whole hands with every player choosing at random among the legal moves, and print "
                    "how many decisions and hands the engine plays per second.")
    rules_args(p)
    p.add_argument("--hands", type=at_least(1), default=1000, metavar="N", help="hands to play (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the shuffles and the random choices (default 1)")
    p.add_argument("--copies", type=at_least(0), default=0, metavar="N",
                   help="also time this many GameState.copy() calls")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser(
        "soak", help="random playouts checking every invariant at every step",
        description="Play random moves for a long time and check every invariant at every step: cards "
                    "conserved, legal moves accepted and others refused, text round trips, views that leak "
                    "nothing. Prints one JSON report; exit status 1 when a check failed.")
    rules_args(p)
    p.add_argument("--decisions", type=at_least(1), default=1_000_000, metavar="N",
                   help="decisions to play (default 1000000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the shuffles and the random choices (default 1)")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error (there is none "
                                                          "unless standard error is a terminal)")
    p.set_defaults(func=cmd_soak)

    p = sub.add_parser(
        "rules", help="print the complete rules of a game in plain English",
        description="Print the complete rules of one game, written out from the engine's own rules, so the "
                    "page can never disagree with the game; --options lists every option of --set.")
    p.add_argument("preset", nargs="?", default="classic",
                   help=f"the preset (default classic): {', '.join(PRESETS)}")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help=SET_HELP)
    p.add_argument("--options", action="store_true",
                   help="list every option of --set: its meaning, its values and its default")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser(
        "arena", help="duplicate games between two bots: points, hands and matches won",
        description="Measure computer player A against B in the duplicate format: every deal is played once "
                    "per side with the same cards, the bots swapping sides, so the luck of the cards cancels.")
    p.add_argument("a", help="bot A: random, basic, expert, search[:BUDGET], neural, policy:FILE or q:FILE")
    p.add_argument("b", help="bot B, named the same way")
    p.add_argument("--preset", default="classic", metavar="PRESET", help=PRESET_HELP)
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help=SET_HELP)
    count = p.add_mutually_exclusive_group()
    count.add_argument("--deals", type=int, metavar="N", help="deals, each played once per replay (default 100)")
    count.add_argument("--matches", type=int, metavar="N", help="duplicate matches played to the target")
    p.add_argument("--seed", type=int, required=True, help="seed of every deck and bot")
    p.add_argument("--workers", type=int, default=1, metavar="K", help="processes (or a hint for Ray)")
    p.add_argument("--backend", default="local", help="local (processes) or ray")
    p.add_argument("--address", help="the Ray cluster to join (default: a local Ray instance)")
    p.add_argument("--journal", metavar="FILE",
                   help="append every finished deal (or match) to FILE, one JSON line each; run the same command "
                        "again to resume: what FILE holds is read back, only the rest is played (a larger --deals "
                        "extends it). Without a terminal, a progress line on standard error every tenth")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none unless standard error "
                                                          "is a terminal) and no progress lines (--journal)")
    p.set_defaults(func=cmd_arena)
