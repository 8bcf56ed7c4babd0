"""The log in words, like the browser's: ``West took the pile: 7 cards, top 9♠``.

A move's notation leaves out what the table saw happen (the pile's size and top card when
it is taken, red threes laid out, a player going out), so :func:`tell` reads it from the
public views before and after the move.  :func:`say_move` words a move from its notation
alone, for moves seen only in the history (a match resumed from a file).  Pure functions.

>>> say_move("West", "pile 9S 9H, K: JK")
'West took the pile with 9♠ 9♥, K: JK'
>>> say_move("East", "meld 8S 8H 2C")
'East melded 8♠ 8♥ 2♣'
>>> say_move("North", "discard 4C"), say_move("South", "ask")
('North discarded 4♣', 'South asked partner: may I go out?')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import IS_WILD, KIND
from ..errors import MoveSyntaxError
from ..moves import ASK, DISCARD, DRAW, MELD, NO, PILE, YES, Move
from ..text.labels import card_label, cards_label, rank_label
from ..views import PublicView


def _groups(move: Move) -> str:
    parts = []
    for group in move.groups:
        natural = any(KIND[c] == group.rank and not IS_WILD[c] for c in group.cards)
        cards = cards_label(group.cards)
        parts.append(cards if natural else f"{rank_label(group.rank)}: {cards}")
    return ", ".join(parts)


def say_move(who: str, text: str) -> str:
    """One move in words, from its notation alone (no card is told that the notation does not show)."""
    try:
        move = Move.parse(text)
    except MoveSyntaxError:
        return f"{who}: {text}"
    if move.action == DRAW:
        return f"{who} drew from the stock"
    if move.action == PILE:
        return f"{who} took the pile" + (f" with {_groups(move)}" if move.groups else "")
    if move.action == MELD:
        return f"{who} melded {_groups(move)}"
    if move.action == DISCARD and move.card is not None:
        return f"{who} discarded {card_label(move.card)}"
    if move.action == ASK:
        return f"{who} asked partner: may I go out?"
    if move.action in (YES, NO):
        return f"{who} answered {move.action}"
    return f"{who}: {text}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def tell(before: PublicView, after: PublicView, seat: int, text: str, names: Sequence[str]) -> list[str]:
    """What the table saw of ``seat``'s move ``text``, from the public views before and after it.

    The pile's size and top card when it is taken, red threes laid out (by the mover, or by the
    player whose turn begins), and going out.  Never a card from a hidden hand.
    """
    who = names[seat]
    said = say_move(who, text)
    action = text.split(" ", 1)[0]
    if action == PILE and before.pile:
        size, top = len(before.pile), before.pile[-1]
        said = f"{who} took the pile: {_plural(size, 'card')}, top {card_label(top)}"
        move = Move.parse(text)
        if move.groups:
            said += f", with {_groups(move)}"
    lines = [said]
    sides = before.rules.sides
    for side in range(sides):
        added = list((Counter(after.red_threes[side]) - Counter(before.red_threes[side])).elements())
        if added:
            layer = seat if seat % sides == side else after.turn
            what = "a red three" if len(added) == 1 else f"{len(added)} red threes"
            lines.append(f"{names[layer]} laid out {what}: {cards_label(added)}")
    if after.result is not None and before.result is None:
        out = after.result.went_out
        if out is not None:
            lines.append(f"{names[out]} went out" + (" concealed" if after.result.concealed else ""))
        else:
            lines.append("The stock ran out: the hand is over")
    return lines


def deal_words(view: PublicView, names: Sequence[str]) -> list[str]:
    """What the deal showed: the pile's first card and the red threes laid out at once."""
    lines = []
    if view.pile:
        lines.append(f"The pile starts with {cards_label(view.pile)}")
    sides = view.rules.sides
    for side in range(sides):
        if view.red_threes[side]:
            reds = view.red_threes[side]
            what = "a red three" if len(reds) == 1 else f"{len(reds)} red threes"
            lines.append(f"{' & '.join(names[s] for s in range(view.rules.players) if s % sides == side)} "
                         f"laid out {what}: {cards_label(reds)}")
    return lines
