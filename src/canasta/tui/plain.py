"""A plain-prompt match in the terminal against computer players (``canasta play``).

The table is drawn from the human seat's view only; moves go in through
:class:`canasta.play.table.Table`, which deals and seeds the computer players as every front
end does.  Type moves in the project's notation; ``?`` lists the legal moves, ``hint`` asks the
expert bot (with its reason), ``quit`` leaves.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence

from ..bots.hints import hint
from ..errors import CanastaError
from ..moves import Phase
from ..play import HOUSE, Table, parse_seats
from ..rules import Rules
from ..scoring import HandResult, sheet_rows
from ..text.labels import card_label, cards_label, hand_label, meld_label
from ..views import PublicView, View


def table_text(view: PublicView, names: Sequence[str]) -> str:
    """The table as one seat sees it (a seat's view adds its hand)."""
    rules = view.rules
    lines = []
    for side in range(rules.sides):
        seats = [s for s in range(rules.players) if s % rules.sides == side]
        who = " & ".join(f"{names[s]}({view.hand_sizes[s]})" for s in seats)
        canastas = view.canastas[side]
        melds = [meld_label(rank, cards, canastas.get(rank)) for rank, cards in sorted(view.melds[side].items())]
        reds = cards_label(view.red_threes[side])
        lines.append(f"Side {side} [{who}] score {view.scores[side]:,}, first meld {view.minimums[side]}"
                     + (f", red threes {reds}" if reds else ""))
        lines.extend(f"    {m}" for m in melds or ["(no melds)"])
    top = card_label(view.pile[-1]) if view.pile else "empty"
    state = []
    if view.pile_frozen:
        state.append("frozen")
    if view.pile_blocked:
        state.append("blocked")
    lines.append(f"Pile: {top} ({len(view.pile)} cards{', ' + ', '.join(state) if state else ''})"
                 f"   Stock: {view.stock_size}")
    if isinstance(view, View):
        lines.append(f"Your hand: {hand_label(view.hand)}")
    return "\n".join(lines)


def result_text(result: HandResult, names: Sequence[str], rules: Rules) -> str:
    """An itemised score for a finished hand, as on the score sheet (:func:`canasta.scoring.sheet_rows`).

    One line per side: every item it scored (items worth nothing left out), then its total.
    """
    lines = []
    if result.went_out is None:
        lines.append("The hand ends without anyone going out.")
    else:
        lines.append(f"{names[result.went_out]} goes out{' concealed' if result.concealed else ''}.")
    rows = sheet_rows(result, rules)
    for side in range(len(result.sides)):
        items = [f"{row.label.lower()} {row.cells[side]}" for row in rows[:-1] if row.values[side]]
        lines.append(f"Side {side}: {', '.join(items) or 'nothing'}: total {rows[-1].cells[side]}")
    return "\n".join(lines)


def play_in_terminal(
    rules: Rules,
    seats: Sequence[str] | None,
    seed: int,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    """Play a match through a :class:`~canasta.play.table.Table` (seats: :mod:`canasta.play.seats`).

    Bad seats raise :class:`~canasta.errors.SeatError` before anything is shown.
    """
    table = Table(rules, parse_seats(seats, rules, files=True), seed, files=True)
    labels = table.names
    match = table.match
    write(f"Canasta ({rules.preset}) to {rules.target:,}. Seed {seed}. Type ? for your moves, quit to leave.")
    while True:
        state = match.state
        while not state.is_over:
            if table.run_bots(lambda seat, move: write(f"  {labels[seat]}: {move}")):
                continue
            seat = state.to_act
            moves = list(state.legal_moves())
            view = state.view(seat)
            write("")
            write(table_text(view, labels))
            prompt = "Your partner asks: may I go out? (yes/no) " if state.phase is Phase.ANSWER else \
                f"{labels[seat]} ({state.phase}) > "
            try:
                line = read(prompt).strip()
            except EOFError:
                write("\nGoodbye.")
                return 0
            if line in ("quit", "exit", "q"):
                write("Goodbye.")
                return 0
            if line in ("?", "help", "moves"):
                write("Legal moves: " + " | ".join(str(m) for m in moves))
                continue
            if line == "hint":
                move, reason = hint(view, moves)
                write(f"Hint: {move} ({reason})")
                continue
            try:
                table.submit(seat, line, table.state_id)
            except CanastaError as exc:
                write(f"Not allowed: {exc}")
        assert state.result is not None
        write("")
        write(result_text(state.result, labels, rules))
        write("Match: " + ", ".join(f"side {i} {s:,}" for i, s in enumerate(match.scores)))
        if match.is_over:
            write(f"Side {match.winner} wins the match.")
            return 0
        try:
            read("Press Enter for the next hand. ")
        except EOFError:
            return 0
        table.submit(HOUSE, None, table.state_id)


if __name__ == "__main__":
    sys.exit(play_in_terminal(Rules(), None, random.randrange(2**31)))
