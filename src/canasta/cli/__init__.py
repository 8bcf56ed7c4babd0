"""The ``canasta`` command line: play, serve, admin, rules, scenario, legal, bench, soak, arena, ladder, bots, review,
tournament, sheets, score.

Each front end registers its own subcommands (``register(sub)``); they import only
:mod:`canasta.cli.args` from here, never this module, so the command line has no import circle.
Bad input of any kind ends in one line on standard error and exit status 2, never a traceback;
``canasta`` alone prints the help and exits 0, as ``pip``, ``cargo`` and ``docker`` do.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import textwrap
from collections.abc import Sequence
from typing import Any, NoReturn

from ..errors import CanastaError
from .args import UsageError, rules_from_args

COMMANDS = (
    "canasta.tui.command",  # play (full screen, or --plain) and replay
    "canasta.web.command",  # serve
    "canasta.cli.admin",  # admin (the server's players)
    "canasta.cli.engine",  # scenario, legal, bench, soak, rules, arena
    "canasta.cli.ladder",  # ladder, bots
    "canasta.cli.review",  # review
    "canasta.cli.tournament",  # tournament run
    "canasta.sheets.command",  # sheets
    "canasta.scorekeeper.command",  # score
)
"""The modules whose ``register(sub)`` adds subcommands, in the order ``--help`` lists them."""

DESCRIPTION = """\
Canasta, complete: play it at the terminal or in the browser, print the rules of any
variant and their sheets, keep the score of a real game, review the decisions of a
played match, and measure the engine and its computer players."""
EPILOG = """\
Rules: --preset (classic, two-player, three-player, five-player, six-player, ...) and
--set OPTION=VALUE; `canasta rules --options` lists every option. `canasta COMMAND --help`
tells more about each command."""


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, wrapped without breaking a name at its hyphens (``two-player-draw-one``)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class DescriptionFormatter(argparse.RawDescriptionHelpFormatter, HelpFormatter):
    """The top level's help: the description and epilog as written, the arguments wrapped."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: what is wrong, and where the help is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def version() -> str:
    """The installed package's version (``importlib.metadata``), else the source tree's."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("canasta")
    except PackageNotFoundError:
        from .. import __version__

        return __version__


def build() -> str:
    """Which build runs: ``interpreted`` or ``compiled (mypyc)`` (see :mod:`canasta.buildinfo`)."""
    from ..buildinfo import build as which

    return which()


def build_parser() -> argparse.ArgumentParser:
    """The ``canasta`` parser with every subcommand."""
    parser = Parser(prog="canasta", description=DESCRIPTION, epilog=EPILOG,
                    formatter_class=DescriptionFormatter)
    parser.add_argument("--version", action="version", version=f"canasta {version()}, {build()}",
                        help="print the version of canasta and its build (interpreted or compiled), and exit")
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``canasta`` command: its exit status (0 done, 1 a check failed, 2 bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error already printed in one line
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        parser.print_help()
        return 0
    try:
        code: int = args.func(args)
        return code
    except CanastaError as exc:
        print(f"canasta: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # canasta rules | head
        return 0
    except OSError as exc:  # a file or folder the command could not use, named by the system
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"canasta: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130


__all__ = ["COMMANDS", "Parser", "UsageError", "build_parser", "main", "rules_from_args", "version"]
