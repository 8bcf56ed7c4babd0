"""Scoring a hand, itemised (RULES.md 13-15; the score sheet of seed 000).

>>> s = SideScore(natural_canastas=1, mixed_canastas=1, canasta_bonus=800, red_threes=2,
...               red_three_points=200, going_out=100, melded=250, in_hand=35)
>>> s.bonuses, s.cards, s.total
(1100, 215, 1315)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

NATURAL_CANASTA = 500
MIXED_CANASTA = 300
GOING_OUT = 100
GOING_OUT_CONCEALED = 200
"""Bonuses (RULES.md 4, 12; seed 000's score sheet)."""


@dataclass(frozen=True, slots=True)
class SideScore:
    """One side's score for a hand, item by item."""

    natural_canastas: int = 0
    mixed_canastas: int = 0
    wild_canastas: int = 0  # canastas of wild cards only (wild_card_melds)
    canasta_bonus: int = 0  # less any penalty for an unfinished meld of wild cards
    red_threes: int = 0
    red_three_points: int = 0  # negative when they count against a side with no meld
    going_out: int = 0
    melded: int = 0  # points of the side's melded cards
    in_hand: int = 0  # points of the cards left in its players' hands (subtracted)

    @property
    def bonuses(self) -> int:
        """Canastas, red threes and going out."""
        return self.canasta_bonus + self.red_three_points + self.going_out

    @property
    def cards(self) -> int:
        """Melded cards less the cards left in hand."""
        return self.melded - self.in_hand

    @property
    def total(self) -> int:
        """The side's score for the hand."""
        return self.bonuses + self.cards

    def to_json(self) -> dict[str, Any]:
        """The runner's form: bonuses, cards, total, and the items."""
        return {
            "bonuses": self.bonuses,
            "cards": self.cards,
            "total": self.total,
            "items": {
                "natural_canastas": self.natural_canastas,
                "mixed_canastas": self.mixed_canastas,
                "wild_canastas": self.wild_canastas,
                "canasta_bonus": self.canasta_bonus,
                "red_threes": self.red_threes,
                "red_three_points": self.red_three_points,
                "going_out": self.going_out,
                "melded": self.melded,
                "in_hand": -self.in_hand,
            },
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what each side scored."""

    sides: tuple[SideScore, ...]
    went_out: int | None
    concealed: bool

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's total for the hand."""
        return tuple(s.total for s in self.sides)

    def to_json(self) -> dict[str, Any]:
        """The runner's ``result`` object."""
        return {
            "sides": [s.to_json() for s in self.sides],
            "went_out": self.went_out,
            "concealed": self.concealed,
        }


def match_winner(scores: tuple[int, ...] | list[int], target: int) -> int | None:
    """The side that has won at ``scores``: the highest of those at the target, if alone there."""
    reached = [s for s in scores if s >= target]
    if not reached:
        return None
    best = max(reached)
    if list(scores).count(best) > 1:
        return None
    return list(scores).index(best)
