"""Drawing the sheets' blocks with fpdf2: paragraphs, bullets, tables and headings in columns.

:func:`fit_columns` finds the largest type size at which every section fits the page's
columns, so a sheet with more options in force still prints on one page.  The text is
set in DejaVu Sans, shipped in ``fonts/`` (a Latin subset, see its LICENSE) and embedded
in every PDF, so a sheet prints and shows the same everywhere: no viewer substitutes
another font with other letter widths.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from .content import PAPERS, Block, Bullets, Grid, Para, Section

FONT = "dejavu-canasta"
FONT_FILES = {"": "DejaVuSansCanasta.ttf", "B": "DejaVuSansCanasta-Bold.ttf"}
"""The embedded fonts by fpdf2 style, in ``fonts/`` next to this module."""
FONT_DIR = Path(__file__).resolve().with_name("fonts")
GREEN = (24, 92, 52)
PALE = (226, 240, 230)
MARK = (255, 244, 204)
GRID = (160, 172, 166)
INK = (25, 25, 25)
GREY = (95, 100, 105)
WHITE = (255, 255, 255)
FIXED_DATE = dt.datetime(2024, 1, 1, tzinfo=dt.UTC)
"""Every PDF carries this date, so the same rules always give the same bytes."""
_NUMBER = re.compile(r"^[-+]?[\d,]+$")
ASCENT = 0.78
"""DejaVu Sans's cap height (0.73 em) and a little more, in em: where the baseline sits under a line's top."""


def new_pdf(paper: str, title: str) -> FPDF:
    """An empty one-page PDF of ``paper`` (``letter`` or ``a4``), measured in points."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be {' or '.join(PAPERS)}, not {paper!r}")
    pdf = FPDF(unit="pt", format=PAPERS[paper])
    for style, name in FONT_FILES.items():
        pdf.add_font(FONT, style, FONT_DIR / name)
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.c_margin = 0
    pdf.set_title(title)
    pdf.set_author("canasta")
    pdf.set_creator("canasta sheets")
    pdf.set_creation_date(FIXED_DATE)
    pdf.add_page()
    pdf.set_text_color(*INK)
    return pdf


@dataclass(frozen=True)
class Line:
    """One wrapped line: runs of text in one style each, and its width in points."""

    runs: tuple[tuple[str, bool], ...]
    width: float


_WIDTHS: dict[tuple[str, bool], float] = {}


def text_width(pdf: FPDF, text: str, bold: bool) -> float:
    """The width of ``text`` at a type size of 1 pt (regular or bold), cached."""
    key = (text, bold)
    if key not in _WIDTHS:
        pdf.set_font(FONT, "B" if bold else "", 100)
        _WIDTHS[key] = pdf.get_string_width(text) / 100
    return _WIDTHS[key]


def words(text: str, markdown: bool = True) -> list[list[tuple[str, bool]]]:
    """The words of ``text``, each a list of (piece, bold): ``**bold**`` switches the style.

    >>> words("a **b c**d")
    [[('a', False)], [('b', True)], [('c', True), ('d', False)]]
    """
    result: list[list[tuple[str, bool]]] = [[]]
    bold = False
    for part in re.split(r"(\*\*)", text) if markdown else [text]:
        if markdown and part == "**":
            bold = not bold
            continue
        for i, chunk in enumerate(part.split(" ")):
            if i:
                result.append([])
            if chunk:
                result[-1].append((chunk, bold))
    return [w for w in result if w]


def wrap(pdf: FPDF, text: str, width: float, size: float, bold: bool = False, markdown: bool = True) -> list[Line]:
    """``text`` broken into lines no wider than ``width`` at ``size`` (a longer word stands alone)."""
    lines: list[Line] = []
    runs: list[list[object]] = []  # [text, bold] of the line being filled
    used = 0.0
    for word in words(text, markdown):
        pieces = [(t, bold or b) for t, b in word]
        w = sum(text_width(pdf, t, b) for t, b in pieces) * size
        space = text_width(pdf, " ", runs[-1][1] is True) * size if runs else 0.0
        if runs and used + space + w > width:
            lines.append(_line(runs, used))
            runs, used, space = [], 0.0, 0.0
        if runs:
            runs[-1][0] = f"{runs[-1][0]} "
        for t, b in pieces:
            if runs and runs[-1][1] == b:
                runs[-1][0] = f"{runs[-1][0]}{t}"
            else:
                runs.append([t, b])
        used += space + w
    if runs:
        lines.append(_line(runs, used))
    return lines or [Line((), 0.0)]


def _line(runs: list[list[object]], used: float) -> Line:
    return Line(tuple((str(t), bool(b)) for t, b in runs), used)


@dataclass(frozen=True)
class Box:
    """A rectangle on the page, in points."""

    x: float
    y: float
    w: float
    h: float


class Renderer:
    """Measures and draws blocks at one type size."""

    def __init__(self, pdf: FPDF, size: float) -> None:
        self.pdf = pdf
        self.size = size
        self.line = size * 1.2
        self.gap = size * 0.45
        self.section_gap = size * 0.9
        self._wrapped: dict[tuple[str, float, float, bool, bool], list[Line]] = {}

    def _font(self, style: str = "", scale: float = 1.0) -> None:
        self.pdf.set_font(FONT, style, self.size * scale)

    def _lines(self, text: str, width: float, scale: float, bold: bool, markdown: bool) -> list[Line]:
        key = (text, width, scale, bold, markdown)
        if key not in self._wrapped:
            self._wrapped[key] = wrap(self.pdf, text, width, self.size * scale, bold, markdown)
        return self._wrapped[key]

    def _text_height(self, text: str, width: float, scale: float = 1.0, style: str = "",
                     markdown: bool = True) -> float:
        return len(self._lines(text, width, scale, style == "B", markdown)) * self.line * scale

    def _text(self, text: str, x: float, y: float, width: float, scale: float = 1.0, style: str = "",
              align: str = "L", markdown: bool = True) -> None:
        size = self.size * scale
        for i, line in enumerate(self._lines(text, width, scale, style == "B", markdown)):
            cx = x + width - line.width if align == "R" else x
            baseline = y + i * self.line * scale + (self.line * scale - size) / 2 + ASCENT * size
            for run, bold in line.runs:
                self.pdf.set_font(FONT, "B" if bold else "", size)
                self.pdf.text(cx, baseline, run)
                cx += text_width(self.pdf, run, bold) * size

    # -- headings ------------------------------------------------------------------------

    def heading_height(self) -> float:
        """The green band of a section title, and the space under it."""
        return self.size * 1.6 + self.size * 0.35

    def heading(self, title: str, x: float, y: float, width: float) -> float:
        """Draw a section title; returns its height."""
        pdf = self.pdf
        pdf.set_fill_color(*GREEN)
        pdf.set_text_color(*WHITE)
        self._font("B", 1.08)
        pdf.set_xy(x, y)
        pdf.c_margin = self.size * 0.4
        pdf.cell(width, self.size * 1.6, title, fill=True)
        pdf.c_margin = 0
        pdf.set_text_color(*INK)
        return self.heading_height()

    # -- blocks ------------------------------------------------------------------------------

    def height(self, block: Block, width: float) -> float:
        """The height ``block`` takes at ``width``."""
        return self._block(block, 0, 0, width, draw=False)

    def draw(self, block: Block, x: float, y: float, width: float) -> float:
        """Draw ``block``; returns its height."""
        return self._block(block, x, y, width, draw=True)

    def _block(self, block: Block, x: float, y: float, width: float, draw: bool) -> float:
        if isinstance(block, Para):
            scale = 0.88 if block.small else 1.0
            if draw:
                self._text(block.text, x, y, width, scale, markdown=not block.plain)
            return self._text_height(block.text, width, scale, markdown=not block.plain)
        if isinstance(block, Bullets):
            return self._bullets(block, x, y, width, draw)
        return self._table(block, x, y, width, draw)

    def _bullets(self, block: Bullets, x: float, y: float, width: float, draw: bool) -> float:
        indent = self.size * 0.85
        top = y
        for i, item in enumerate(block.items):
            if i:
                y += self.size * 0.2
            if draw:
                self._font()
                self.pdf.set_text_color(*GREEN)
                self.pdf.set_xy(x, y)
                self.pdf.cell(indent, self.line, "•")
                self.pdf.set_text_color(*INK)
                self._text(item, x + indent, y, width - indent)
            y += self._text_height(item, width - indent)
        return y - top

    def _table(self, table: Grid, x: float, y: float, width: float, draw: bool) -> float:
        pdf = self.pdf
        pad_x, pad_y = self.size * 0.35, self.size * 0.16
        widths = [width * f for f in table.widths]
        numeric = [all(_NUMBER.match(row[c]) for row in table.rows[1 if table.header else 0:])
                   for c in range(len(widths))]
        styles = [["B" if (table.header and r == 0) or c == 0 else "" for c in range(len(row))]
                  for r, row in enumerate(table.rows)]
        heights = [max(self._text_height(cell, w - 2 * pad_x, style=st)
                       for cell, w, st in zip(row, widths, row_styles, strict=True)) + 2 * pad_y
                   for row, row_styles in zip(table.rows, styles, strict=True)]
        if draw:
            tops = [y + sum(heights[:r]) for r in range(len(heights))]
            for r, (row, top, h) in enumerate(zip(table.rows, tops, heights, strict=True)):
                cx = x
                for c, (cell, w) in enumerate(zip(row, widths, strict=True)):
                    fill = PALE if table.header and r == 0 else MARK if table.mark == c else None
                    if fill is not None:
                        pdf.set_fill_color(*fill)
                        pdf.rect(cx, top, w, h, style="F")
                    self._text(cell, cx + pad_x, top + pad_y, w - 2 * pad_x, style=styles[r][c],
                               align="R" if numeric[c] and c > 0 else "L")
                    cx += w
            pdf.set_draw_color(*GRID)
            pdf.set_line_width(0.4)
            for line_y in (*tops, y + sum(heights)):
                pdf.line(x, line_y, x + width, line_y)
        return sum(heights)


@dataclass(frozen=True)
class Placed:
    """A block (with its section's title when it is the first) at its place on the page."""

    title: str | None
    block: Block
    x: float
    y: float
    w: float


def place(renderer: Renderer, sections: Sequence[Section], columns: Sequence[Box]) -> list[Placed] | None:
    """Flow the sections down the columns in order; None when they do not fit."""
    placed: list[Placed] = []
    col, y = 0, columns[0].y
    for section in sections:
        box = columns[col]
        whole = renderer.heading_height() + sum(renderer.height(b, box.w) for b in section.blocks) \
            + renderer.gap * (len(section.blocks) - 1)
        if y > box.y and y + renderer.section_gap + whole > box.y + box.h and col + 1 < len(columns) \
                and whole <= columns[col + 1].h:
            col += 1  # a section that fits a column is not split
            y = columns[col].y
        for i, block in enumerate(section.blocks):
            title = section.title if i == 0 else None
            box = columns[col]
            need = renderer.height(block, box.w) + (renderer.heading_height() if title else 0)
            space = (renderer.section_gap if title else renderer.gap) if y > box.y else 0.0
            if y + space + need > box.y + box.h:
                col += 1
                if col == len(columns) or need > columns[col].h:
                    return None
                box, y, space = columns[col], columns[col].y, 0.0
            placed.append(Placed(title, block, box.x, y + space, box.w))
            y += space + need
    return placed


@dataclass(frozen=True)
class Fit:
    """The type size chosen, the blocks placed, and how full the columns are (0 to 1)."""

    size: float
    placed: list[Placed]
    fill: float


def fit_columns(pdf: FPDF, sections: Sequence[Section], columns: Sequence[Box],
                smallest: float = 5.0, largest: float = 11.0) -> Fit:
    """The largest type size (to 0.05 pt) at which the sections fit the columns."""
    best: tuple[float, list[Placed]] | None = None
    lo, hi = smallest, largest
    while hi - lo > 0.05:
        mid = (lo + hi) / 2
        placed = place(Renderer(pdf, mid), sections, columns)
        if placed is None:
            hi = mid
        else:
            lo, best = mid, (mid, placed)
    if best is None:
        placed = place(Renderer(pdf, smallest), sections, columns)
        if placed is None:
            raise ValueError("the sheet does not fit on one page even at the smallest type size")
        best = (smallest, placed)
    size, placed = best
    renderer = Renderer(pdf, size)
    used = 0.0
    for box in columns:
        ends = [p.y + renderer.height(p.block, p.w) + (renderer.heading_height() if p.title else 0)
                for p in placed if p.x == box.x]
        used += (max(ends) - box.y) if ends else 0.0
    return Fit(size, placed, used / sum(box.h for box in columns))


def draw_placed(pdf: FPDF, fit: Fit) -> None:
    """Draw every placed block at the fitted size."""
    renderer = Renderer(pdf, fit.size)
    for p in fit.placed:
        y = p.y
        if p.title:
            y += renderer.heading(p.title, p.x, y, p.w)
        renderer.draw(p.block, p.x, y, p.w)
