"""``canasta replay`` without a terminal (or with ``--plain``): the whole record in words, hand by hand.

What the full-screen replay shows move by move, printed once: each hand's deal (every hand face
up, or only the hand of the seat asked for), its moves numbered as the table's log says them
(:class:`~canasta.tui.words.Narrator`; the seat asked for is told what it drew), the
hand's score as ``canasta play --plain`` itemises it, and the match's totals; with a review
(``--review``, :class:`~canasta.tui.review_marks.Marks`), each decision's mark and better move under
its move, and the points lost after each hand.  Pure, no Textual.

>>> from canasta.rules import Rules
>>> from canasta.tui.replay import Replay
>>> from canasta.tui.session import Session
>>> s = Session.new(Rules(), ["basic"] * 4, seed=2)
>>> for _ in range(3):
...     _ = s.play(s.bot_choice())
>>> lines = replay_words(Replay.from_record(s.to_record()), None, 100)
>>> lines[0]
'Replay: classic to 5,000, seed 2, 1 hand. Basic 1 & Basic 3 against Basic 2 & Basic 4.'
>>> [line for line in lines if line.startswith("  1. ")]
['  1. Basic 2 drew from the stock']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..moves import DRAW
from ..text.labels import hand_label
from .plain import fit, result_text, side_names
from .replay import Frame, Replay
from .words import Narrator, new_cards_words, numbered

if TYPE_CHECKING:
    from .review_marks import Marks


def _dealt(replay: Replay, frame: Frame, seats: list[int]) -> list[str]:
    names = replay.match.players
    return [f"  {names[s]}: {hand_label(sorted(frame.state.hand(s))) or 'no cards'}" for s in seats]


def _told(replay: Replay, frames: list[Frame], seat: int | None) -> list[tuple[int, str]]:
    """One hand's log in words; ``seat``'s own draws say the cards it drew, as it saw them."""
    names = replay.match.players
    narrator = Narrator(names, replay.match.rules.sides)
    told: list[tuple[int, str]] = []
    for frame in frames:
        shown, outcomes = replay.match.told(frame.hand)
        new = narrator.follow(frame.hand + 1, shown, outcomes[:frame.index], frame.state.result)
        if frame.index == 0:
            told = list(new)
        elif frame.outcome is not None and frame.outcome.seat == seat and new and frame.outcome.move.action == DRAW:
            told += [(new[0][0], new_cards_words(names[seat], frame.outcome)), *new[1:]]
        else:
            told += new
    return told


def _marked(told: list[tuple[int, str]], marks: Marks, hand: int) -> list[tuple[int, str]]:
    """The log with each reviewed decision's mark and better move under its move (:class:`Marks`)."""
    out: list[tuple[int, str]] = []
    for n, (i, text) in enumerate(told):
        out.append((i, text))
        last = n + 1 == len(told) or told[n + 1][0] != i
        d = marks.decisions.get((hand, i))
        if last and d is not None:
            out += [(i, f"  {line}") for line in marks.told(d)]
    return out


def replay_words(replay: Replay, seat: int | None, width: int, marks: Marks | None = None) -> list[str]:
    """Every hand of the record in words, wrapped to ``width`` columns; ``seat`` (from 0): only its hand shown;
    ``marks``: the review's mark under each decision reviewed, a summary after each hand and at the end."""
    match = replay.match
    rules = match.rules
    names = match.players
    sides = side_names(names, rules)
    hands = replay.frames[-1].hand + 1
    seen = f" As {names[seat]} saw it." if seat is not None else ""
    lines = [f"Replay: {rules.preset} to {rules.target:,}, seed {match.seed}, {hands} hand{'s' if hands > 1 else ''}. "
             f"{' against '.join(sides)}.{seen}"]
    if marks is not None:
        from .review_marks import LEGEND

        lines.append(f"Reviewed: {', '.join(names[s.seat] for s in marks.seats) or 'no seat shown'}. {LEGEND}.")
    for hand in range(hands):
        frames = [f for f in replay.frames if f.hand == hand]
        first, last = frames[0], frames[-1]
        dealer = names[first.state.dealer]
        lines += ["", f"Hand {hand + 1}, dealt by {dealer}:"]
        lines += _dealt(replay, first, [seat] if seat is not None else list(range(rules.players)))
        told = _told(replay, frames, seat)
        lines += numbered(_marked(told, marks, hand) if marks is not None else told)
        result = last.state.result
        if result is None:
            lines.append(f"The record ends here, after move {last.index} of hand {hand + 1}.")
        else:
            lines += result_text(result, names, rules).split("\n")
            totals = replay.scores_before(hand + 1)
            lines.append("Match: " + ", ".join(f"{sides[i]} {t:,}" for i, t in enumerate(totals)))
        if marks is not None:
            lines += [f"Review of hand {hand + 1}: {line}" for line in marks.hand_summary(hand)]
    if match.is_over and match.winner is not None:
        won = sides[match.winner]
        lines.append(f"{won} win{'s' if ' & ' not in won else ''} the match.")
    if marks is not None:
        lines += ["", "Review:", *(f"  {line}" for line in marks.summary())]
    return fit("\n".join(lines), width).split("\n")
