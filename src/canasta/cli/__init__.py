"""The ``canasta`` command line: play, serve, rules, scenario, legal, bench, soak, arena, sheets, score.

Each front end registers its own subcommands (``register(sub)``); they import only
:mod:`canasta.cli.args` from here, never this module, so the command line has no import circle.
Bad input of any kind ends in one line on standard error and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ..errors import CanastaError
from .args import UsageError, rules_from_args

COMMANDS = (
    "canasta.tui.command",  # play (full screen, or --plain) and replay
    "canasta.web.command",  # serve
    "canasta.cli.engine",  # scenario, legal, bench, soak, rules, arena
    "canasta.sheets.command",  # sheets
    "canasta.scorekeeper.command",  # score
)
"""The modules whose ``register(sub)`` adds subcommands, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The ``canasta`` parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="canasta", description="Canasta: play, check rules, measure.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``canasta`` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
        return code
    except CanastaError as exc:
        print(f"canasta: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


__all__ = ["COMMANDS", "UsageError", "build_parser", "main", "rules_from_args"]
