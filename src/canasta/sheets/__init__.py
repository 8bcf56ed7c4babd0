"""Printable sheets for a real table: the one-page rule sheet and the score sheet (PDF, via fpdf2).

Both are drawn from a :class:`canasta.rules.Rules` object, the engine's own, so the paper
can never disagree with the game.  fpdf2 is an optional extra (``pip install
'canasta[sheets]'``) and is imported only when a sheet is drawn.

>>> sorted(PAPERS)
['a4', 'letter']
"""

from __future__ import annotations

from pathlib import Path

from ..rules import Rules
from .content import PAPERS

RULES_PDF = "rules.pdf"
SCORE_PDF = "scoresheet.pdf"


class SheetsUnavailable(ImportError):
    """fpdf2, the PDF library, is not installed."""


def _need_fpdf() -> None:
    try:
        import fpdf  # noqa: F401
    except ImportError:
        raise SheetsUnavailable("the sheets need the sheets extra (fpdf2 is missing): "
                                "pip install 'canasta[sheets]'") from None


def rule_sheet(rules: Rules, paper: str = "letter", sides: int | None = None) -> bytes:
    """The one-page rule sheet as PDF bytes (``letter`` or ``a4``); ``sides`` only joins the command it names."""
    _need_fpdf()
    from .rulesheet import rule_sheet as draw

    return draw(rules, paper, sides)


def score_sheet(rules: Rules, paper: str = "letter", sides: int | None = None) -> bytes:
    """The one-page score sheet as PDF bytes: 2 or 3 sides (default: the rules' sides)."""
    _need_fpdf()
    from .scoresheet import score_sheet as draw

    return draw(rules, paper, sides)


def write_sheets(rules: Rules, out: str | Path, paper: str = "letter", sides: int | None = None) -> list[Path]:
    """Write ``rules.pdf`` and ``scoresheet.pdf`` into the folder ``out`` (made if missing)."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in ((RULES_PDF, rule_sheet(rules, paper, sides)), (SCORE_PDF, score_sheet(rules, paper, sides))):
        path = folder / name
        path.write_bytes(data)
        written.append(path)
    return written


__all__ = ["PAPERS", "RULES_PDF", "SCORE_PDF", "SheetsUnavailable", "rule_sheet", "score_sheet", "write_sheets"]
