"""The one-page printable rule sheet (seeds 000 and 002), drawn from a :class:`Rules` object."""

from __future__ import annotations

from ..rules import Rules
from .content import rule_sheet_sections, rule_sheet_title
from .layout import FONT, GREEN, GREY, Box, Fit, draw_placed, fit_columns, new_pdf

MARGIN = 28.0
COLUMNS = 3
GUTTER = 12.0
TITLE_SIZE = 17.0
SUBTITLE_SIZE = 8.5
FOOTER_SIZE = 6.0
SMALLEST_SIZE = 7.0
"""The smallest body type size tried: small print (0.88 of it) stays above 6 pt."""


def rule_sheet_fit(rules: Rules, paper: str = "letter", sides: int | None = None) -> tuple[bytes, Fit]:
    """The rule sheet's PDF and how it was fitted (type size, fullness)."""
    title, subtitle = rule_sheet_title(rules)
    pdf = new_pdf(paper, f"{title} ({rules.preset})")
    width, height = pdf.w, pdf.h

    pdf.set_text_color(*GREEN)
    pdf.set_font(FONT, "B", TITLE_SIZE)
    pdf.set_xy(MARGIN, MARGIN)
    pdf.cell(width - 2 * MARGIN, TITLE_SIZE * 1.1, title)
    pdf.set_text_color(*GREY)
    pdf.set_font(FONT, "", SUBTITLE_SIZE)
    pdf.set_xy(MARGIN, MARGIN + TITLE_SIZE * 1.2)
    pdf.cell(width - 2 * MARGIN, SUBTITLE_SIZE * 1.2, subtitle)
    rule_y = MARGIN + TITLE_SIZE * 1.2 + SUBTITLE_SIZE * 1.5
    pdf.set_draw_color(*GREEN)
    pdf.set_line_width(1.2)
    pdf.line(MARGIN, rule_y, width - MARGIN, rule_y)

    footer_y = height - MARGIN + 4
    pdf.set_font(FONT, "", FOOTER_SIZE)
    pdf.set_xy(MARGIN, footer_y)
    pdf.cell(width - 2 * MARGIN, FOOTER_SIZE * 1.2,
             "Printed by canasta sheets from the canasta engine's own rules, so this sheet and the game agree. "
             "Score sheet: scoresheet.pdf; scorekeeper: canasta score, or /score in the browser game.")

    top = rule_y + 8
    column_w = (width - 2 * MARGIN - (COLUMNS - 1) * GUTTER) / COLUMNS
    columns = [Box(MARGIN + i * (column_w + GUTTER), top, column_w, footer_y - 6 - top) for i in range(COLUMNS)]
    pdf.set_text_color(25, 25, 25)
    fit = fit_columns(pdf, rule_sheet_sections(rules, paper, sides), columns, smallest=SMALLEST_SIZE)
    draw_placed(pdf, fit)
    return bytes(pdf.output()), fit


def rule_sheet(rules: Rules, paper: str = "letter", sides: int | None = None) -> bytes:
    """The one-page rule sheet of ``rules`` as PDF bytes, on ``letter`` or ``a4`` paper."""
    return rule_sheet_fit(rules, paper, sides)[0]
