"""The computer players' subcommands: ``ladder`` (a round robin, rated) and ``bots`` (levels and bots).

``canasta ladder --all-presets --markdown`` writes ``docs/strength.md``: the command that made it
at its top, then per preset the ratings, the decision times and the pairwise table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from typing import Any

from ..rules import PRESETS
from .args import PRESET_HELP, SET_HELP, UsageError, rules_from_args

DEFAULT_BOTS = "random,basic,expert"


def cmd_ladder(args: argparse.Namespace) -> int:
    from ..bots.arena import ArenaError, check_bot
    from ..bots.ladder import is_slow, run_ladder
    from .engine import log_lines

    presets = list(PRESETS) if args.all_presets else [args.preset]
    bots = _names(args.bots)
    slow_vs = _names(args.slow_vs) if args.slow_vs is not None else None
    rules = [rules_from_args(p or "classic", args.set) for p in presets]  # every bad option before any play
    slow_presets = _names(args.slow_presets) if args.slow_presets is not None else None
    for name in slow_presets or ():
        if name not in PRESETS:
            raise UsageError(f"--slow-presets: unknown preset {name!r} (presets: {', '.join(PRESETS)})")
    for bot in bots:
        check_bot(bot)
    for name in slow_vs or ():
        if name not in bots:
            raise ArenaError(f"--slow-vs names {name!r}, which is not in --bots")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    started = time.perf_counter()
    reports = []
    for r in rules:
        here = [b for b in bots if slow_presets is None or r.preset in slow_presets or not is_slow(b)]
        vs = None if slow_vs is None else [b for b in slow_vs if b in here]
        progress = None
        if not args.quiet and sys.stderr.isatty():
            from ..bots.arena import progress_bar

            def progress(done: int, total: int, name: str = r.preset) -> None:
                progress_bar(done, total, f"pair-deals ({name})")
        reports.append(run_ladder(here, r, args.seed, deals=args.deals, matches=args.matches,
                                  slow_deals=args.slow_deals, slow_vs=vs, anchor=args.anchor,
                                  workers=args.workers, backend=args.backend, address=args.address,
                                  progress=progress, journal=args.journal,
                                  log=log_lines(args.quiet or sys.stderr.isatty() or args.journal is None)))
    if args.json:
        print(json.dumps(reports[0] if len(reports) == 1 else {"ladders": reports}))
    elif args.markdown:
        print(markdown(reports, command_line(args), load, time.perf_counter() - started), end="")
    else:
        print("\n\n".join(text(report) for report in reports))
    return 0


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def cmd_bots(args: argparse.Namespace) -> int:
    from importlib.metadata import entry_points

    from ..bots import BOTS, PLUGIN_BOTS
    from ..bots.levels import BOT_TEXT, LEVELS

    columns = listing_width()
    print(wrapped("Levels (a name works wherever a computer player's does: canasta play --seats "
                  "human,club,club,club):", columns))
    width = max(len(level.name) for level in LEVELS)
    for level in LEVELS:
        print(wrapped(f"{level.bot}: {level.strength}", columns, f"  {level.name:<{width}}  "))
    print("Computer players:")
    names = [*BOTS, *(point.name for point in entry_points(group=PLUGIN_BOTS))]
    width = max(len(name) for name in names)
    for name in names:
        print(wrapped(BOT_TEXT.get(name, ""), columns, f"  {name:<{width}}  "))
    print(wrapped("Strength measured on duplicate deals: docs/strength.md (canasta ladder).", columns))
    return 0


def listing_width() -> int:
    """The columns a listing fits: the terminal's, 80 at most (and when output is not a terminal), 40 at least."""
    import shutil

    return max(40, min(80, shutil.get_terminal_size((80, 24)).columns))


def wrapped(text: str, columns: int, head: str = "") -> str:
    """``head`` then ``text``, wrapped between words to ``columns``, going on under the text's first word.

    >>> print(wrapped("a beginner: melds what it can, takes the pile", 30, "  basic  "))
      basic  a beginner: melds
             what it can, takes
             the pile
    """
    import textwrap

    indent = " " * len(head) if head else "  "
    return "\n".join(textwrap.wrap(text, columns, initial_indent=head, subsequent_indent=indent,
                                    break_long_words=False, break_on_hyphens=False)) or head.rstrip()


# -- the reports ------------------------------------------------------------------------------


def _ms(value: float) -> str:
    """Milliseconds to three figures or so: 0.045, 38.8, 329."""
    return f"{value:.3f}" if value < 1 else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _ci(pair: Sequence[float] | None, digits: int = 0) -> str:
    return "" if pair is None else f"{pair[0]:+.{digits}f} to {pair[1]:+.{digits}f}"


def _count(report: dict[str, Any]) -> str:
    unit = report["unit"]
    n, slow = report[unit], report[f"slow_{unit}"]
    against = f" against {', '.join(report['slow_vs'])}" if report["slow_vs"] else ""
    searching = any(r["slow"] for r in report["ratings"])
    slow_text = f"; bots that search: {slow}{against}" if searching and (slow != n or against) else ""
    return f"{n} {unit} per pair{slow_text}"


def text(report: dict[str, Any]) -> str:
    """The ladder for a terminal: ratings with intervals, decision times, then every pair."""
    unit = report["unit"]
    lines = [f"ladder: {report['preset']}, seed {report['seed']}, {_count(report)}; "
             f"{report['anchor']} = 0; {report['seconds']:.1f} s"]
    width = max(len(r["bot"]) for r in report["ratings"])
    lines.append(f"{'bot':<{width}}  {'points/hand (95% CI)':<26}  {'Elo (95% CI)':<24}  {'ms/move median':>14}  "
                 f"{'p95':>8}")
    for r in report["ratings"]:
        anchored = r["bot"] == report["anchor"]
        pts = "0 (anchor)" if anchored else f"{r['points']:+.0f} ({_ci(r['points_ci95'])})"
        elo = "0 (anchor)" if anchored else f"{r['elo']:+.0f} ({_ci(r['elo_ci95'])})"
        ms = r["decision_ms"]
        lines.append(f"{r['bot']:<{width}}  {pts:<26}  {elo:<24}  {_ms(ms['median']):>14}  {_ms(ms['p95']):>8}")
    lines.append(f"pairs (A vs B): A's points/hand over B (95% CI); {unit} won by A (95% CI)")
    won = "deal_win_rate" if unit == "deals" else "match_win_rate"
    for p in report["pairs"]:
        count = p.get("deals", p.get("matches"))
        lines.append(f"  {p['a']} vs {p['b']}: {p['point_diff_mean']:+.1f} ({_ci(p['point_diff_ci95'], 1)}); "
                     f"{p[f'{won}_a']:.0%} ({p[f'{won}_ci95'][0]:.0%} to {p[f'{won}_ci95'][1]:.0%}); {count} {unit}")
    return "\n".join(lines)


def markdown(reports: Sequence[dict[str, Any]], command: str, load: float | None, seconds: float) -> str:
    """``docs/strength.md``: how it was made, the levels, then per preset the ladder and its pairs."""
    from ..bots.levels import LEVELS

    first = reports[0]
    out = [
        "# The computer players' strength, measured",
        "",
        "Made by one command (the deals and seeds are in it):",
        "",
        "```",
        f"{command} > docs/strength.md",
        "```",
        "",
        "Every pair of bots plays the same duplicate deals (`canasta arena`: each deal once per side, the "
        "bots swapping sides), so the luck of the cards cancels. **Points** is a bot's mean points per hand "
        f"over `{first['anchor']}` (rated 0), a weighted least-squares fit of every pair's mean difference; "
        + ("**Elo** is a Bradley-Terry fit of the deals won (a deal is won by the bot whose sides scored more "
           "over its replays" if first["unit"] == "deals" else
           "**Elo** is a Bradley-Terry fit of the matches won (each replay's match, played to the target")
        + "; one drawn game per pair is added so that a bot that won every game still gets a "
        "finite rating). Both come with 95% intervals from the fit. **ms/move** is the wall-clock time of "
        "one decision, median and 95th percentile over every decision the bot made (a searching bot "
        "answers at once when one move is worth considering).",
        "",
        f"Machine: {_machine()}"
        + (f"; load average {load:.1f} when it started" if load is not None else "")
        + f". The whole document took {seconds / 60:.1f} minutes. Time budgets (`search:100ms`) and decision "
        "times depend on the machine and its load (the load average above; the workers share its cores), "
        "so a time budget buys fewer simulated deals on a slower or busier machine; rollout budgets "
        "(`search:16`) play the same whatever the machine.",
        "",
        "## Levels",
        "",
        "What the lobby and `canasta play --seats` offer; `canasta bots` prints each with its strength "
        "in words, taken from the classic table below:",
        "",
        "| level | bot |",
        "| --- | --- |",
        *[f"| {level.name} (`{level.kind}`) | `{level.bot}` |" for level in LEVELS],
        "",
    ]
    for report in reports:
        unit = report["unit"]
        won = "deal_win_rate" if unit == "deals" else "match_win_rate"
        out += [
            f"## {report['preset']}",
            "",
            f"Seed {report['seed']}, {_count(report)}, {report['pairs'][0]['replays']} replays each; "
            f"{report['seconds'] / 60:.1f} minutes.",
            "",
            "| bot | points/hand | 95% CI | Elo | 95% CI | ms/move median | p95 |",
            "| --- | ---: | --- | ---: | --- | ---: | ---: |",
        ]
        for r in report["ratings"]:
            ms = r["decision_ms"]
            anchored = r["bot"] == report["anchor"]
            pts = "0 | anchor" if anchored else f"{r['points']:+.0f} | {_ci(r['points_ci95'])}"
            elo = "0 | anchor" if anchored else f"{r['elo']:+.0f} | {_ci(r['elo_ci95'])}"
            out.append(f"| `{r['bot']}` | {pts} | {elo} | {_ms(ms['median'])} | {_ms(ms['p95'])} |")
        out += [
            "",
            f"| A | B | {unit} | A's points/hand over B | 95% CI | {unit} won by A | 95% CI |",
            "| --- | --- | ---: | ---: | --- | ---: | --- |",
        ]
        for p in report["pairs"]:
            lo, hi = p[f"{won}_ci95"]
            out.append(f"| `{p['a']}` | `{p['b']}` | {p.get('deals', p.get('matches'))} | "
                       f"{p['point_diff_mean']:+.0f} | {_ci(p['point_diff_ci95'])} | {p[f'{won}_a']:.0%} | "
                       f"{lo:.0%} to {hi:.0%} |")
        out.append("")
    return "\n".join(out)


def _machine() -> str:
    """The CPU, its count, Python and the build, in words."""
    from ..buildinfo import build

    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), model)
    except OSError:
        pass
    return (f"{model}, {os.cpu_count()} CPUs, {platform.system()}, Python {platform.python_version()}, "
            f"{build()} build")


def command_line(args: argparse.Namespace) -> str:
    """The ``canasta ladder`` command that makes these results again (with the compiled build when it ran)."""
    from ..buildinfo import build

    compiled = build() != "interpreted"
    parts = ["make compiled && PYTHONPATH=build/compiled/lib canasta ladder" if compiled else "canasta ladder",
             "--all-presets" if args.all_presets else f"--preset {args.preset or 'classic'}"]
    parts += [f"--set {s}" for s in args.set]
    parts.append(f"--bots {args.bots}")
    if args.matches is not None:
        parts.append(f"--matches {args.matches}")
    else:
        parts.append(f"--deals {args.deals if args.deals is not None else 100}")
    if args.slow_deals is not None:
        parts.append(f"--slow-deals {args.slow_deals}")
    if args.slow_vs is not None:
        parts.append(f"--slow-vs {args.slow_vs}")
    if args.slow_presets is not None:
        parts.append(f"--slow-presets {args.slow_presets}")
    if args.anchor is not None:
        parts.append(f"--anchor {args.anchor}")
    parts.append(f"--seed {args.seed} --workers {args.workers}")
    if args.backend != "local":
        parts.append(f"--backend {args.backend}")
    parts.append("--markdown")
    return " ".join(parts)


def register(sub: Any) -> None:
    """Add ``ladder`` and ``bots`` to the ``canasta`` parser."""
    from .engine import at_least

    p = sub.add_parser(
        "ladder", help="a round robin of duplicate games between bots, rated on one scale",
        description="Play every pair of computer players on the same duplicate deals (as canasta arena does) "
                    "and rate them on one scale: points per hand over an anchor bot (least squares on every "
                    "pair's mean) and Elo (Bradley-Terry on the deals or matches won), each with a 95% interval; "
                    "with each bot's decision times and the pairwise table. docs/strength.md is made by it.")
    p.add_argument("--bots", default=DEFAULT_BOTS, metavar="A,B,...",
                   help="the bots, comma-separated: random, basic, expert, expert:OPTION=VALUE, search[:BUDGET], "
                        "a level (beginner, club, expert, master), neural, policy:FILE or q:FILE "
                        "(default random,basic,expert)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--preset", default=None, metavar="PRESET", help=PRESET_HELP)
    where.add_argument("--all-presets", action="store_true", help="one ladder for every preset, one after another")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help=SET_HELP)
    count = p.add_mutually_exclusive_group()
    count.add_argument("--deals", type=at_least(1), metavar="N", help="deals per pair, each played once per replay "
                                                                      "(default 100)")
    count.add_argument("--matches", type=at_least(1), metavar="N", help="duplicate matches per pair, played to the "
                                                                        "target (Elo then rates matches won)")
    p.add_argument("--slow-deals", type=at_least(1), metavar="N",
                   help="deals (or matches) of a pair with a bot that searches (default: as many as the others)")
    p.add_argument("--slow-vs", metavar="A,B,...",
                   help="the only bots a searching bot meets (two searching bots meet when either is named; "
                        "default: every bot)")
    p.add_argument("--slow-presets", metavar="P,Q,...",
                   help="with --all-presets: the presets where searching bots play (default: every preset)")
    p.add_argument("--anchor", metavar="BOT", help="the bot rated 0 (default expert when playing, else the first)")
    p.add_argument("--seed", type=int, required=True, help="seed of every deck and bot")
    p.add_argument("--workers", type=at_least(1), default=1, metavar="K", help="processes (or a hint for Ray)")
    p.add_argument("--backend", default="local", choices=("local", "ray"), help="local (processes) or ray")
    p.add_argument("--address", help="the Ray cluster to join (default: a local Ray instance)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object (with --all-presets: {\"ladders\": "
                                                         "[...]})")
    out.add_argument("--markdown", action="store_true", help="print the document docs/strength.md holds")
    p.add_argument("--journal", metavar="DIR",
                   help="keep one journal per pair in DIR (made if missing): every finished deal (or match) is "
                        "appended as it is played; run the same command again to resume where it stopped. Without "
                        "a terminal, a progress line on standard error every tenth")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none unless standard error "
                                                          "is a terminal) and no progress lines (--journal)")
    p.set_defaults(func=cmd_ladder)

    p = sub.add_parser(
        "bots", help="list the levels and the computer players",
        description="List the named levels (Beginner, Club, Expert, Master) with the bot that plays each and "
                    "its measured strength, then every computer player by name.")
    p.set_defaults(func=cmd_bots)
