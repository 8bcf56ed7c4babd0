"""``canasta sheets``: write the rule sheet and the score sheet of a game as one-page PDFs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..cli.args import PRESET_HELP, SET_HELP
from ..rules import PRESETS
from .content import PAPERS


def register(sub: Any) -> None:
    """Add the ``sheets`` subcommand to ``canasta``'s subparsers."""
    p: argparse.ArgumentParser = sub.add_parser(
        "sheets", help="write a one-page rule sheet and a score sheet (PDF; needs the sheets extra)",
        description="Write rules.pdf (the whole game on one page) and scoresheet.pdf (a column group per side "
                    "and a row per hand) for a table playing with real cards, both drawn from the engine's "
                    "own rules (needs the sheets extra: pip install 'canasta[sheets]').")
    p.add_argument("--preset", default="classic", choices=sorted(PRESETS), metavar="PRESET", help=PRESET_HELP)
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help=SET_HELP)
    p.add_argument("--paper", default="letter", choices=sorted(PAPERS), help="paper size (default letter)")
    p.add_argument("--sides", type=int, choices=(2, 3), help="columns of the score sheet (default: the game's)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write rules.pdf and scoresheet.pdf to")
    p.set_defaults(func=cmd_sheets)


def cmd_sheets(args: argparse.Namespace) -> int:
    """Write both sheets and name them."""
    from ..cli.args import UsageError, rules_from_args
    from . import SheetsUnavailable, write_sheets

    rules = rules_from_args(args.preset, args.set)
    if Path(args.out).exists() and not Path(args.out).is_dir():
        raise UsageError(f"--out {args.out} is a file: give a folder to write the sheets to")
    try:
        paths = write_sheets(rules, args.out, args.paper, args.sides)
    except (SheetsUnavailable, ValueError) as exc:  # no fpdf2; a sheet that cannot fit one page
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write to {args.out}: {exc.strerror}") from None
    print(f"wrote {' and '.join(str(p) for p in paths)} ({args.paper}, one page each)")
    return 0
