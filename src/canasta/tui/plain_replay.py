"""``canasta replay`` without a terminal (or with ``--plain``): the whole record in words, hand by hand.

What the full-screen replay shows move by move, printed once: each hand's deal (every hand face
up, or only the hand of the seat asked for), its moves numbered as the table's log says them
(:class:`~canasta.tui.words.Narrator`; the seat asked for is told what it drew), the
hand's score as ``canasta play --plain`` itemises it, and the match's totals.  Pure, no Textual.

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

from ..moves import DRAW
from ..text.labels import hand_label
from .plain import fit, result_text, side_names
from .replay import Frame, Replay
from .words import Narrator, new_cards_words, numbered


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


def replay_words(replay: Replay, seat: int | None, width: int) -> list[str]:
    """Every hand of the record in words, wrapped to ``width`` columns; ``seat`` (from 0): only its hand shown."""
    match = replay.match
    rules = match.rules
    names = match.players
    sides = side_names(names, rules)
    hands = replay.frames[-1].hand + 1
    seen = f" As {names[seat]} saw it." if seat is not None else ""
    lines = [f"Replay: {rules.preset} to {rules.target:,}, seed {match.seed}, {hands} hand{'s' if hands > 1 else ''}. "
             f"{' against '.join(sides)}.{seen}"]
    for hand in range(hands):
        frames = [f for f in replay.frames if f.hand == hand]
        first, last = frames[0], frames[-1]
        dealer = names[first.state.dealer]
        lines += ["", f"Hand {hand + 1}, dealt by {dealer}:"]
        lines += _dealt(replay, first, [seat] if seat is not None else list(range(rules.players)))
        lines += numbered(_told(replay, frames, seat))
        result = last.state.result
        if result is None:
            lines.append(f"The record ends here, after move {last.index} of hand {hand + 1}.")
            continue
        lines += result_text(result, names, rules).split("\n")
        totals = replay.scores_before(hand + 1)
        lines.append("Match: " + ", ".join(f"{sides[i]} {t:,}" for i, t in enumerate(totals)))
    if match.is_over and match.winner is not None:
        won = sides[match.winner]
        lines.append(f"{won} win{'s' if ' & ' not in won else ''} the match.")
    return fit("\n".join(lines), width).split("\n")
