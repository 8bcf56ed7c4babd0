"""The score sheet as plain text lines (the score sheet of seed 000).

One column per side, one row per item: the engine's rows (:func:`canasta.scoring.sheet_rows`:
canastas, red threes, going out, bonuses, melded cards, cards left in hand, the hand's total),
then the running total and the next first-meld minimum.

>>> from canasta.rules import Rules
>>> from canasta.scoring import HandResult, SideScore
>>> ours = SideScore(natural_canastas=1, mixed_canastas=1, canasta_bonus=800, red_threes=2,
...                  red_three_points=200, going_out=100, melded=250, in_hand=35)
>>> sheet = hand_sheet(HandResult((ours, SideScore(in_hand=80)), 0, False), ["Ann & Cat", "Bob & Dan"],
...                    [1315, -80], [90, 15], 1, ["Ann", "Bob", "Cat", "Dan"], rules=Rules())
>>> print("\\n".join(sheet[:4] + sheet[-3:]))
Hand 1: Ann goes out.
                    Ann & Cat        Bob & Dan
Natural canastas    1 × 500 = 500    –
Mixed canastas      1 × 300 = 300    –
Hand total          1,315            -80
Running total       1,315            -80
Next first meld     90               15
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from ..match import Match
from ..rules import Rules
from ..scoring import HandResult, sheet_rows
from .table import points

LABEL = 20


def _row(label: str, cells: Sequence[str], col: int) -> str:
    return (label.ljust(LABEL) + "".join(c[: col - 1].ljust(col) for c in cells)).rstrip()


def _name_lines(name: str, room: int) -> list[str]:
    """A side's name on lines of at most ``room`` cells, broken after an ``&`` where it can."""
    lines: list[str] = []
    for part in name.split(" & "):
        if lines and len(lines[-1]) + 3 + len(part) <= room:
            lines[-1] += " & " + part
            continue
        if lines:
            lines[-1] += " &"
        lines += textwrap.wrap(part, room, break_on_hyphens=False) or [""]
    return lines


def _head(label: str, names: Sequence[str], col: int) -> list[str]:
    """The sides' names over their columns, on as many lines as they need: never cut, never run together.

    >>> for line in _head("", ["Basic 1 & Basic 3 & Basic 5", "Basic 2 & Basic 4"], 18):
    ...     print(line)
                        Basic 1 &         Basic 2 &
                        Basic 3 &         Basic 4
                        Basic 5
    """
    wrapped = [_name_lines(name, col - 3) for name in names]
    return [_row(label if n == 0 else "", [w[n] if n < len(w) else "" for w in wrapped], col)
            for n in range(max(len(w) for w in wrapped))]


def hand_sheet(result: HandResult, side_names: Sequence[str], running: Sequence[int],
               minimums: Sequence[int] | None, number: int, players: Sequence[str], width: int = 78,
               *, rules: Rules) -> list[str]:
    """The itemised score of one hand (``rules``: the table's); ``minimums`` None once the match is over."""
    col = max(12, min(24, (width - LABEL) // max(1, len(side_names))))
    who = players[result.went_out] if result.went_out is not None else None
    verb = "go" if who == "You" else "goes"
    title = (f"Hand {number}: {who} {verb} out{' concealed' if result.concealed else ''}." if who is not None
             else f"Hand {number}: nobody went out; the stock ran out.")
    lines = [title, *_head("", side_names, col)]
    lines += [_row(row.label, row.cells, col) for row in sheet_rows(result, rules)]
    lines.append(_row("Running total", [points(v) for v in running], col))
    if minimums is not None:
        lines.append(_row("Next first meld", [str(m) for m in minimums], col))
    return lines


def side_names(match: Match) -> list[str]:
    """Each side's players: ``You & Basic 3``."""
    r = match.rules
    return [" & ".join(match.players[s] for s in range(r.players) if s % r.sides == side) for side in range(r.sides)]


def match_sheets(match: Match, width: int = 78) -> list[str]:
    """Every finished hand, newest first, each itemised; then the totals hand by hand."""
    names = side_names(match)
    running = list(match.start_scores)
    sheets: list[list[str]] = []
    summary = _head("Hand", names, max(12, min(24, (width - LABEL) // len(names))))
    for number, result in enumerate(match.results, 1):
        running = [a + b for a, b in zip(running, result.totals)]
        over = number == len(match.results) and match.is_over
        minimums = None if over else [match.rules.minimum(s) for s in running]
        sheets.append(hand_sheet(result, names, running, minimums, number, match.players, width, rules=match.rules))
        cells = [f"{points(t)} → {points(r)}" for t, r in zip(result.totals, running)]
        summary.append(_row(str(number), cells, max(12, min(24, (width - LABEL) // len(names)))))
    if not sheets:
        return ["No hand has finished yet.", "",
                "Scores: " + ", ".join(f"{n} {points(s)}" for n, s in zip(names, match.scores))]
    lines: list[str] = []
    if match.winner is not None:
        verb = "win" if " & " in names[match.winner] or names[match.winner] == "You" else "wins"
        lines += [f"{names[match.winner]} {verb} the match, {points(match.scores[match.winner])} "
                  f"to {' and '.join(points(s) for i, s in enumerate(match.scores) if i != match.winner)}.", ""]
    for sheet in reversed(sheets):
        lines += [*sheet, ""]
    return [*lines, "Totals hand by hand (hand total → running total):", *summary]
