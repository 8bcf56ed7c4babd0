"""A plain-prompt match in the terminal against computer players (``canasta play``).

The table is drawn from the human seat's view only; moves go in through
:class:`canasta.play.table.Table`, which deals and seeds the computer players as every front
end does.  Every move is logged in words, as the full-screen table's log says it
(:class:`canasta.tui.words.Narrator`): ``West took the pile: 7 cards, top 9♠``.  Type moves in
the project's notation; ``?`` lists the legal moves, ``hint`` asks the expert bot (with its
reason), ``table`` shows the table again, ``save FILE`` saves, ``quit`` leaves.  With ``autosave``
the match is written after every move, for ``canasta play --plain --continue``.

The table is printed again only when it changed, every line is wrapped between words at the
terminal's width (:func:`fit`), and the ten is written ``10`` as on the table, in the moves
listed and the messages too (:func:`canasta.text.labels.with_tens`; ``T`` may still be typed).
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import textwrap
from collections.abc import Callable, Sequence

from ..bots.hints import hint, hint_sentence
from ..errors import CanastaError
from ..moves import DRAW, PILE, Phase
from ..play import HOUSE, Table, parse_seats
from ..play.seats import default_seats
from ..rules import Rules
from ..scoring import HandResult, sheet_rows
from ..text.labels import card_label, cards_label, hand_label, meld_label, play_words, with_tens
from ..views import PublicView, View
from .session import Session, SessionError, default_save_path
from .words import Narrator, new_cards_words


def table_text(view: PublicView, names: Sequence[str]) -> str:
    """The table as one seat sees it (a seat's view adds its hand)."""
    rules = view.rules
    lines = []
    for side in range(rules.sides):
        seats = [s for s in range(rules.players) if s % rules.sides == side]
        who = " & ".join(f"{names[s]} ({view.hand_sizes[s]} cards)" for s in seats)
        canastas = view.canastas[side]
        melds = [meld_label(rank, cards, canastas.get(rank)) for rank, cards in sorted(view.melds[side].items())]
        reds = cards_label(view.red_threes[side])
        lines.append(f"{who}: score {view.scores[side]:,}, first meld {view.minimums[side]}"
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
    sides = side_names(names, rules)
    for side in range(len(result.sides)):
        items = [f"{row.label.lower()} {row.cells[side]}" for row in rows[:-1] if row.values[side]]
        lines.append(f"{sides[side]}: {', '.join(items) or 'nothing'}: total {rows[-1].cells[side]}")
    return "\n".join(lines)


def side_names(names: Sequence[str], rules: Rules) -> list[str]:
    """Each side named by its players, as on the table and the score sheet: ``You & Basic 3``."""
    return [" & ".join(names[s] for s in range(rules.players) if s % rules.sides == side)
            for side in range(rules.sides)]


PLAIN_HELP = "Type ? for your moves, hint for a hint, table to see the table again, save FILE to save, quit to leave."

WIDTH = 80
"""The columns written for when the terminal's are not known (a file, a pipe)."""


def terminal_width() -> int:
    """The terminal's columns (``shutil.get_terminal_size``; 80 when output is not a terminal), 20 at least."""
    return max(20, shutil.get_terminal_size((WIDTH, 24)).columns)


def fit(text: str, width: int) -> str:
    """Every line of ``text`` wrapped between words to ``width`` columns, going on indented under itself.

    >>> print(fit("Your hand: K♠ K♦  9♣  2♥  JK", 18))
    Your hand: K♠ K♦
      9♣  2♥  JK
    >>> print(fit("    K: K♠ K♥ K♦ 2♣ JK", 14))
        K: K♠ K♥
          K♦ 2♣ JK
    """
    lines = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        lines.extend(textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                                   break_on_hyphens=False, drop_whitespace=True) or [line])
    return "\n".join(lines)


def moves_text(moves: Sequence[object], width: int) -> str:
    """``Legal moves: draw | pile 9S 9H | ...``, wrapped between moves (never inside one), tens as ``10``.

    >>> print(moves_text(["draw", "discard TC", "meld TS TH, T: JK"], 34))
    Legal moves: draw | discard 10C |
      meld 10S 10H, 10: JK
    """
    lines = ["Legal moves:"]
    texts = [with_tens(str(m)) for m in moves]
    for n, text in enumerate(texts):
        piece = text + (" |" if n < len(texts) - 1 else "")
        if len(lines[-1]) + 1 + len(piece) > width and lines[-1].strip():
            lines.append("  " + piece)
        else:
            lines[-1] += " " + piece
    return "\n".join(lines)


def play_in_terminal(
    rules: Rules,
    seats: Sequence[str] | None,
    seed: int,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    *,
    session: Session | None = None,
    autosave: str | os.PathLike[str] | None = None,
    width: int | None = None,
) -> int:
    """Play a match through a :class:`~canasta.play.table.Table` (seats: :mod:`canasta.play.seats`).

    ``session``: go on with a saved match (``rules``, ``seats`` and ``seed`` are then not used).
    ``autosave``: a file the match is written to after every move (removed when it is won).
    ``width``: the columns every line is wrapped to (default: the terminal's, :func:`terminal_width`).
    Bad seats raise :class:`~canasta.errors.SeatError` before anything is shown.
    """
    columns = terminal_width() if width is None else width

    def say(text: str) -> None:
        """Write ``text``, every line wrapped to the terminal's width."""
        write(fit(text, columns))

    if session is None:
        words = [s.strip() for s in seats] if seats is not None else default_seats(rules)
        session = Session(Table(rules, parse_seats(words, rules, files=True), seed, files=True), words)
    table = session.table
    rules = table.rules
    labels = table.names
    sides = side_names(labels, rules)
    match = table.match

    def keep() -> None:
        if autosave is not None and (problem := session.autosave(autosave)) is not None:
            say(problem)

    def leave() -> int:
        say("Goodbye." if autosave is None or match.is_over
            else "Goodbye. The match is kept: canasta play --plain --continue")
        return 0

    narrator = Narrator(labels, rules.sides)

    def log(*_args: object, mine: str | None = None) -> None:
        """The moves since the last look, in words (as the full-screen table's log says them).

        ``mine``: what the player alone saw of their own draw or take, said instead of its public words.
        """
        new = narrator.follow(session.hand_number, match.dealt, match.outcomes, match.state.result)
        for n, (_, line) in enumerate(new):
            say(f"  {mine if mine is not None and n == 0 else line}")

    resumed = f", hand {session.hand_number}" if session.hand_number > 1 or match.state.history else ""
    say(f"Canasta ({rules.preset}) to {rules.target:,}. Seed {table.seed}{resumed}. {PLAIN_HELP}")
    shown: str | None = None  # the table as last printed: printed again only when it changed
    while True:
        state = match.state
        log()
        while not state.is_over:
            if table.run_bots(log):
                keep()
                continue
            keep()
            seat = state.to_act
            moves = list(state.legal_moves())
            view = state.view(seat)
            now = table_text(view, labels)
            if now != shown:
                say("")
                say(now)
                shown = now
            prompt = "Your partner asks: may I go out? (yes/no) " if state.phase is Phase.ANSWER else \
                f"{labels[seat]} ({state.phase}) > "
            if state.phase is Phase.PLAY and state.answer is not None:  # the partner's answer decides the turn
                prompt = f"{labels[seat]}, {play_words(state.answer)} > "
            try:
                line = read(prompt).strip()
            except EOFError:
                say("")
                return leave()
            if line in ("quit", "exit", "q"):
                return leave()
            if line in ("?", "help", "moves"):
                write(moves_text(moves, columns))
                continue
            if line == "table":
                shown = None
                continue
            if line == "hint":
                move, reason = hint(view, moves)
                say(f"Hint: {hint_sentence(move, reason)}")
                continue
            if line == "save" or line.startswith("save "):
                path = line[4:].strip() or default_save_path(table.seed)
                try:
                    session.save(path)
                except SessionError as exc:
                    say(str(exc))
                else:
                    say(f"Saved to {path}. Resume with: canasta play --plain --resume {path}")
                continue
            try:
                applied = table.submit(seat, line, table.state_id)
            except CanastaError as exc:
                say(with_tens(f"Not allowed: {exc}"))
                continue
            mine = None
            if applied is not None and applied.action in (DRAW, PILE) and not state.is_over:
                mine = new_cards_words(labels[seat], table.match.outcomes[-1])  # what the engine says it did
            log(mine=mine)
        keep()
        assert state.result is not None
        say("")
        say(result_text(state.result, labels, rules))
        say("Match: " + ", ".join(f"{sides[i]} {s:,}" for i, s in enumerate(match.scores)))
        if match.is_over:
            assert match.winner is not None
            say(f"{sides[match.winner]} win{'s' if ' & ' not in sides[match.winner] else ''} the match.")
            return 0
        try:
            read("Press Enter for the next hand. ")
        except EOFError:
            return leave()
        table.submit(HOUSE, None, table.state_id)
        keep()


if __name__ == "__main__":
    sys.exit(play_in_terminal(Rules(), None, random.randrange(2**31)))
