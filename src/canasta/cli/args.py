"""Argument helpers shared by every subcommand: a leaf that imports only the engine.

>>> rules_from_args("classic", ["target=7,500", "wild_card_melds=true"]).target
7500
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from ..errors import CanastaError
from ..jsonfile import read_json
from ..rules import OPTION_NAMES, PRESETS, Rules, rules_from_settings

SET_HELP = "change one rules option (repeatable); canasta rules --options lists them"
"""The help of every ``--set OPTION=VALUE``."""
PRESET_HELP = f"the game (default classic): {', '.join(PRESETS)}"
"""The help of every ``--preset``."""


class UsageError(CanastaError):
    """A command line that cannot run; printed as one line."""


def load_json(path: str) -> Any:
    """A JSON file's content, or a UsageError in one line."""
    return read_json(path, UsageError)


def rules_from_args(preset: str, settings: Sequence[str], target: int | None = None) -> Rules:
    """Rules from ``--preset`` and ``--set OPTION=VALUE`` arguments."""
    for item in settings:
        if "=" not in item:
            raise UsageError(f"--set takes OPTION=VALUE, not {item!r} (options: {', '.join(OPTION_NAMES)})")
    return rules_from_settings(preset, settings, target)


def rules_args(parser: argparse.ArgumentParser) -> None:
    """Add ``--preset`` and ``--set OPTION=VALUE`` to a subcommand."""
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS), metavar="PRESET",
                        help=PRESET_HELP)
    parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help=SET_HELP)


def numbers_per_board(text: str, flag: str, sides: int) -> list[int | tuple[int, ...]]:
    """``50,90`` (one number per board, used in turn) or ``90/50,50`` (one per side of a board)."""
    out: list[int | tuple[int, ...]] = []
    for item in text.split(","):
        try:
            parts = [int(p.strip().replace("_", "")) for p in item.split("/")]
        except ValueError:
            raise UsageError(f"{flag} takes whole numbers separated by commas (a/b per side), not {text!r}") from None
        if len(parts) == 1:
            out.append(parts[0])
        elif len(parts) == sides:
            out.append(tuple(parts))
        else:
            raise UsageError(f"{flag}: {item!r} gives {len(parts)} sides' numbers, not {sides}")
    return out
