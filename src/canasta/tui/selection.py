"""The terminal's side of the selection service: what the selected cards can mean, as the table offers it.

The moves and reasons are :func:`canasta.selection.choices`' (the page asks the same function through
the server's ``resolve``), so both front ends offer the same moves; here only the chooser's title and
its lines.

>>> from canasta.position import from_position
>>> from canasta.cards import parse_cards
>>> s = from_position({"rules": "classic", "dealer": 3, "turn": 0, "stock": ["6C"], "pile": ["4D"],
...     "hands": [["9S", "9H", "9D", "JK", "5S", "7H"], ["4C"], ["4H"], ["4S"]],
...     "melds": [{"K": ["KS", "KD", "KC"]}, {}], "melded": [True, False, False, False]})
>>> _ = s.play("draw")
>>> found = offer(s, 0, parse_cards(["9S", "9H", "9D", "JK"]), "meld")
>>> found.title, found.labels
('How do the wild cards go?', ['meld 9♠ 9♥ 9♦ JK', 'meld K: JK, 9♠ 9♥ 9♦'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..moves import PILE, Move
from ..selection import Choice, choices
from ..text.labels import pretty_move

if TYPE_CHECKING:
    from ..state import GameState


@dataclass(frozen=True)
class Offer:
    """The moves a selection can mean (a chooser when several), or the engine's reason for none."""

    choice: Choice
    title: str
    labels: list[str]

    @property
    def moves(self) -> list[Move]:
        return list(self.choice.moves)

    @property
    def reason(self) -> str | None:
        return self.choice.reason


def offer(state: GameState, seat: int, cards: Sequence[int], action: str) -> Offer:
    """What ``cards`` selected by ``seat`` can mean for ``action`` (``meld``, ``pile``...), with the chooser's words."""
    found = choices(state, seat, cards, action)
    title = "Take the pile with:" if action == PILE else "How do the wild cards go?"
    labels = [pretty_move(str(m)) if m.groups or m.action != PILE else "pile (the top card onto your meld)"
              for m in found.moves]
    return Offer(found, title, labels)
