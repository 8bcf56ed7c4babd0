"""The one-page score sheet: a column group per side, a row per hand, and the reference tables under it.

Each side's group has Bonuses, Cards, Hand (bonuses plus cards), Total (the running
total) and Min (the first-meld minimum that total sets for the next deal), as on seed
000's score sheet.  The start row, the minimum table, the bonuses and the card values
are printed from the rules.
"""

from __future__ import annotations

from fpdf import FPDF

from ..rules import Rules
from ..text.rulebook import has_partners
from .content import (
    Block,
    Grid,
    Para,
    Section,
    bonus_rows,
    card_value_table,
    example_score,
    first_meld_table,
    sheet_command,
)
from .layout import FONT, GREEN, GREY, INK, MARK, PALE, Renderer, new_pdf, wrap

MARGIN = 28.0
TITLE_SIZE = 17.0
ROW_H = 19.0
HAND_W = 38.0
REFERENCE_SIZE = 7.4
LEGEND_SIZE = 6.5
FOOTER_SIZE = 6.0
"""The smallest type on the sheet."""
LABEL_SIZE = 7.5
SUBCOLUMNS = (("Bonuses", "canastas, red threes, going out", 1.0), ("Cards", "melded minus left in hand", 1.0),
              ("Hand", "bonuses + cards", 1.0), ("Total", "the running total", 1.15),
              ("Min", "the first-meld minimum that total sets for the next hand", 0.8))
"""Each side's columns: name, what it holds (the legend above the grid), relative width."""


def legend() -> str:
    """What each column holds, in one line above the grid."""
    return " · ".join(f"**{label}:** {hint}" for label, hint, _ in SUBCOLUMNS) + "."


def _label_size(pdf: FPDF, width: float) -> float:
    """The column names' type size: LABEL_SIZE, or smaller (never under 6 pt) so the widest fits ``width``."""
    pdf.set_font(FONT, "B", 100)
    widest = max(pdf.get_string_width(label) / 100 for label, _, _ in SUBCOLUMNS)
    return max(6.0, min(LABEL_SIZE, width / widest))


def footer(pdf: FPDF, text: str, x: float, width: float, bottom: float) -> float:
    """Draw ``text`` in FOOTER_SIZE lines that end at ``bottom``; returns their top."""
    lines = wrap(pdf, text, width, FOOTER_SIZE, markdown=False)
    top = bottom - len(lines) * FOOTER_SIZE * 1.2
    pdf.set_font(FONT, "", FOOTER_SIZE)
    pdf.set_text_color(*GREY)
    for i, line in enumerate(lines):
        pdf.set_xy(x, top + i * FOOTER_SIZE * 1.2)
        pdf.cell(width, FOOTER_SIZE * 1.2, "".join(run for run, _ in line.runs))
    pdf.set_text_color(*INK)
    return top


def side_word(rules: Rules) -> str:
    """``Side`` for partners (the word of the rules, the table and the scorekeeper), ``Player`` for players alone."""
    return "Side" if has_partners(rules) else "Player"


def reference_sections(rules: Rules) -> list[Section]:
    """The tables printed under the rows: first-meld minimums, bonuses, card values and the sum."""
    bonuses = bonus_rows(rules)
    example = example_score(rules)
    how: list[Block] = [
        card_value_table(),
        Para(f"**Hand** = bonuses + cards melded - cards left in hand; **Total** = last total + hand. "
             f"Example: {example.bonuses:,} + {example.cards:,} = {example.total:,}."),
    ]
    return [
        Section("First meld minimum", (first_meld_table(rules),
                                       Para("Set by the side's total before the deal. Card values only."))),
        Section("Bonuses", (Grid((("Bonus", "Points"), *bonuses), (0.55, 0.45)),
                            Para("No meld at all: the red threes count minus."))),
        Section("Card values", tuple(how)),
    ]


def _reference(pdf: FPDF, rules: Rules, x: float, width: float, bottom: float) -> float:
    """Draw the reference boxes above ``bottom``; returns their top."""
    renderer = Renderer(pdf, REFERENCE_SIZE)
    sections = reference_sections(rules)
    gutter = 12.0
    col_w = (width - gutter * (len(sections) - 1)) / len(sections)

    def height(section: Section) -> float:
        return renderer.heading_height() + sum(renderer.height(b, col_w) for b in section.blocks) \
            + renderer.gap * (len(section.blocks) - 1)

    top = bottom - max(height(s) for s in sections)
    for i, section in enumerate(sections):
        cx = x + i * (col_w + gutter)
        y = top + renderer.heading(section.title, cx, top, col_w)
        for j, block in enumerate(section.blocks):
            y += renderer.gap if j else 0.0
            y += renderer.draw(block, cx, y, col_w)
    return top


def score_sheet_rows(rules: Rules, paper: str = "letter", sides: int | None = None) -> tuple[bytes, int]:
    """The score sheet's PDF and the number of hand rows it has."""
    count = sides or rules.sides
    if count not in (2, 3):
        raise ValueError(f"a score sheet has 2 or 3 sides, not {count}")
    pdf = new_pdf(paper, f"Canasta score sheet ({rules.preset})")
    width, height = pdf.w, pdf.h
    inner = width - 2 * MARGIN

    pdf.set_text_color(*GREEN)
    pdf.set_font(FONT, "B", TITLE_SIZE)
    pdf.set_xy(MARGIN, MARGIN)
    pdf.cell(inner, TITLE_SIZE * 1.1, "Canasta score sheet")
    pdf.set_text_color(*GREY)
    pdf.set_font(FONT, "", 8.5)
    pdf.set_xy(MARGIN, MARGIN + TITLE_SIZE * 1.25)
    pdf.cell(inner, 10, f"{rules.preset} · {count} sides · game to {rules.target:,} · "
                        f"first meld {rules.minimum(0)} at the start · Date ______________  Place ______________")
    top = MARGIN + TITLE_SIZE * 1.25 + 16
    pdf.set_draw_color(*GREEN)
    pdf.set_line_width(1.2)
    pdf.line(MARGIN, top - 3, width - MARGIN, top - 3)
    pdf.set_text_color(*GREY)
    top += 2 + Renderer(pdf, LEGEND_SIZE).draw(Para(legend()), MARGIN, top + 1, inner)
    pdf.set_text_color(*INK)

    footer_y = footer(pdf, f"Printed by {sheet_command(rules, paper, sides)}, from the canasta engine's own "
                           "rules. canasta score keeps the same sheet at the terminal; /score in the browser game.",
                      MARGIN, inner, height - MARGIN + 4 + FOOTER_SIZE * 1.2)
    ref_top = _reference(pdf, rules, MARGIN, inner, footer_y - 6)

    # -- the grid ------------------------------------------------------------------------
    group_w = (inner - HAND_W) / count
    unit = group_w / sum(w for _, _, w in SUBCOLUMNS)
    label_size = _label_size(pdf, min(w for _, _, w in SUBCOLUMNS[:-1]) * unit - 3)
    name_h, head_h = 16.0, 14.0
    rows = int((ref_top - 10 - top - name_h - head_h - 2 * ROW_H) // ROW_H)
    y = top + 2
    pdf.set_text_color(*INK)
    for side in range(count):
        gx = MARGIN + HAND_W + side * group_w
        pdf.set_fill_color(*PALE)
        pdf.rect(gx, y, group_w, name_h, style="F")
        pdf.set_font(FONT, "B", 8)
        pdf.set_text_color(*GREEN)
        pdf.set_xy(gx + 4, y)
        pdf.cell(group_w - 4, name_h, f"{side_word(rules)} {side + 1}")
        pdf.set_text_color(*INK)
        x = gx
        for label, _, w in SUBCOLUMNS:
            cw = w * unit
            pdf.set_font(FONT, "B", label_size)
            pdf.set_xy(x, y + name_h)
            pdf.cell(cw, head_h, label, align="C")
            x += cw
    pdf.set_font(FONT, "B", LABEL_SIZE)
    pdf.set_xy(MARGIN, y + name_h)
    pdf.cell(HAND_W, head_h, "Hand", align="C")

    body = y + name_h + head_h
    lines = [("Start", True), *((str(n), False) for n in range(1, rows + 1)), ("Winner", False)]
    for i, (label, start) in enumerate(lines):
        ry = body + i * ROW_H
        if i % 2 == 0 and label != "Winner":
            pdf.set_fill_color(247, 249, 247)
            pdf.rect(MARGIN, ry, inner, ROW_H, style="F")
        for side in range(count):
            gx = MARGIN + HAND_W + side * group_w
            total_x = gx + sum(w for _, _, w in SUBCOLUMNS[:3]) * unit
            if label != "Winner":
                pdf.set_fill_color(*MARK)
                pdf.rect(total_x, ry, SUBCOLUMNS[3][2] * unit, ROW_H, style="F")
            if start:
                pdf.set_font(FONT, "", 8.5)
                pdf.set_text_color(*GREY)
                pdf.set_xy(total_x, ry)
                pdf.cell(SUBCOLUMNS[3][2] * unit - 3, ROW_H, "0", align="R")
                pdf.set_xy(total_x + SUBCOLUMNS[3][2] * unit, ry)
                pdf.cell(SUBCOLUMNS[4][2] * unit - 3, ROW_H, str(rules.minimum(0)), align="R")
                pdf.set_text_color(*INK)
        pdf.set_font(FONT, "B" if label in ("Start", "Winner") else "", 7.5 if len(label) > 2 else 8.5)
        pdf.set_xy(MARGIN, ry)
        pdf.cell(HAND_W, ROW_H, label, align="C")
    bottom = body + len(lines) * ROW_H

    # grid lines: thin between rows and sub-columns, thick between sides
    pdf.set_draw_color(150, 160, 155)
    pdf.set_line_width(0.35)
    for i in range(len(lines) + 1):
        pdf.line(MARGIN, body + i * ROW_H, MARGIN + inner, body + i * ROW_H)
    for side in range(count):
        x = MARGIN + HAND_W + side * group_w
        for _, _, w in SUBCOLUMNS[:-1]:
            x += w * unit
            pdf.line(x, y + name_h, x, bottom - ROW_H)
    pdf.set_draw_color(*GREEN)
    pdf.set_line_width(1.1)
    for side in range(count + 1):
        x = MARGIN + HAND_W + side * group_w
        pdf.line(x, y, x, bottom)
    pdf.line(MARGIN, y, MARGIN, bottom)
    pdf.line(MARGIN, y, MARGIN + inner, y)
    pdf.line(MARGIN, body, MARGIN + inner, body)
    pdf.line(MARGIN, bottom, MARGIN + inner, bottom)
    pdf.line(MARGIN, bottom - ROW_H, MARGIN + inner, bottom - ROW_H)
    return bytes(pdf.output()), rows


def score_sheet(rules: Rules, paper: str = "letter", sides: int | None = None) -> bytes:
    """The one-page score sheet of ``rules`` as PDF bytes: 2 or 3 sides (default: the rules' sides)."""
    return score_sheet_rows(rules, paper, sides)[0]

