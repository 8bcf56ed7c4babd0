"""Scoring a hand, itemised (RULES.md 13-15; the score sheet of seed 000).

:func:`side_score` is the one place the bonuses are added up: the engine's
:func:`score_hand` and the scorekeeper both call it.  :func:`canasta_kind` is the one
definition of what a canasta is called.

>>> canasta_kind(5, 2), canasta_kind(0, 7), canasta_kind(6, 0)
('mixed', 'wild', None)
>>> s = SideScore(natural_canastas=1, mixed_canastas=1, canasta_bonus=800, red_threes=2,
...               red_three_points=200, going_out=100, melded=250, in_hand=35)
>>> s.bonuses, s.cards, s.total
(1100, 215, 1315)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import mul
from typing import TYPE_CHECKING, Any, Literal

from .cards import BLACK_THREE, CANASTA_SIZE, VALUE, WILD_MELD

if TYPE_CHECKING:
    from .rules import Rules
    from .state import GameState

NATURAL_CANASTA = 500
MIXED_CANASTA = 300
GOING_OUT = 100
GOING_OUT_CONCEALED = 200
"""Bonuses (RULES.md 4, 12; seed 000's score sheet)."""

CanastaKind = Literal["natural", "mixed", "wild"]
"""What a canasta is called: no wild card, some wild cards, or wild cards only."""

OutKind = Literal["", "out", "concealed"]
"""How a side went out: not at all, out, or out concealed (RULES.md 12)."""


def canasta_kind(naturals: int, wilds: int) -> CanastaKind | None:
    """The kind of canasta a meld of ``naturals`` and ``wilds`` is, or None if it is none yet.

    A meld of seven or more cards is a canasta: natural without wild cards, mixed with
    some, and wild when it holds wild cards only (a meld of wild cards, ``wild_card_melds``).
    """
    if naturals + wilds < CANASTA_SIZE:
        return None
    if not wilds:
        return "natural"
    return "mixed" if naturals else "wild"


@dataclass(frozen=True, slots=True)
class SideScore:
    """One side's score for a hand, item by item."""

    natural_canastas: int = 0
    mixed_canastas: int = 0
    wild_canastas: int = 0  # canastas of wild cards only (wild_card_melds)
    canasta_bonus: int = 0  # every canasta's bonus, less any penalty for an unfinished meld of wild cards
    red_threes: int = 0
    red_three_points: int = 0  # negative when they count against a side with no meld
    going_out: int = 0
    melded: int = 0  # points of the side's melded cards
    in_hand: int = 0  # points of the cards left in its players' hands (subtracted)
    wild_bonus: int = 0  # the part of canasta_bonus earned by canastas of wild cards
    wild_penalty: int = 0  # the penalty for an unfinished meld of wild cards (taken off canasta_bonus)

    def __reduce__(self) -> tuple[type[SideScore], tuple[int, ...]]:
        return SideScore, tuple(getattr(self, f.name) for f in fields(self))  # pickles when compiled too

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
                "wild_bonus": self.wild_bonus,
                "wild_penalty": -self.wild_penalty,
            },
        }


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One row of a hand's score sheet: what it counts, and each side's cell as text and as points."""

    label: str
    cells: tuple[str, ...]
    values: tuple[int, ...]
    style: str = ""  # "subtotal" (the bonuses), "total" (the hand's total), "" for an item

    def to_json(self) -> dict[str, Any]:
        """The row as the browser page renders it."""
        return {"label": self.label, "cells": list(self.cells), "values": list(self.values), "style": self.style}


def _points(n: int) -> str:
    return f"{n:,}"


def _times(n: int, each: int) -> str:
    return f"{n} × {_points(each)} = {_points(n * each)}" if n else "–"


def _red_threes(side: SideScore) -> str:
    """A side's red threes on the sheet as the other items read: ``2 × 100 = 200``, ``4 × 200 = 800`` (all four
    of two decks, worth double), ``2 × -100 = -200`` against a side that made no meld.

    >>> _red_threes(SideScore(red_threes=4, red_three_points=800)), _red_threes(SideScore())
    ('4 × 200 = 800', '–')
    """
    n, points = side.red_threes, side.red_three_points
    if not n:
        return "–"
    if points % n:  # never by the rules' values; said plainly all the same
        return f"{n}: {_points(points)}"
    return f"{n} × {_points(points // n)} = {_points(points)}"


def sheet_rows(result: HandResult, rules: Rules) -> tuple[SheetRow, ...]:
    """The score sheet of a hand, one row per item (seed 000's sheet): the one place its rows are built.

    Canastas by kind, with the wild card canastas' bonus and the unfinished wild card meld's
    penalty on rows of their own when a side has them; red threes, going out, the bonuses,
    melded cards, cards left in hand and the hand's total.  A dash is an item worth nothing.

    >>> from canasta.rules import Rules
    >>> ours = SideScore(natural_canastas=1, mixed_canastas=1, canasta_bonus=800, red_threes=2,
    ...                  red_three_points=200, going_out=100, melded=250, in_hand=35)
    >>> rows = sheet_rows(HandResult((ours, SideScore(in_hand=80)), 0, False), Rules())
    >>> [(r.label, r.cells) for r in rows[:2]]
    [('Natural canastas', ('1 × 500 = 500', '–')), ('Mixed canastas', ('1 × 300 = 300', '–'))]
    >>> rows[-1].label, rows[-1].values
    ('Hand total', (1315, -80))
    """
    sides = result.sides
    out_side = None if result.went_out is None else result.went_out % len(sides)

    def row(label: str, cells: list[str], values: list[int], style: str = "") -> SheetRow:
        return SheetRow(label, tuple(cells), tuple(values), style)

    rows = [
        row("Natural canastas", [_times(s.natural_canastas, NATURAL_CANASTA) for s in sides],
            [NATURAL_CANASTA * s.natural_canastas for s in sides]),
        row("Mixed canastas", [_times(s.mixed_canastas, MIXED_CANASTA) for s in sides],
            [MIXED_CANASTA * s.mixed_canastas for s in sides]),
    ]
    if any(s.wild_canastas or s.wild_bonus for s in sides):
        rows.append(row("Wild card canastas",
                        [_times(s.wild_canastas, rules.wild_canasta_bonus) for s in sides],
                        [s.wild_bonus for s in sides]))
    if any(s.wild_penalty for s in sides):
        rows.append(row("Unfinished wild card meld", [_points(-s.wild_penalty) if s.wild_penalty else "–"
                                                      for s in sides], [-s.wild_penalty for s in sides]))
    rows += [
        row("Red threes", [_red_threes(s) for s in sides], [s.red_three_points for s in sides]),
        row("Going out", [_points(s.going_out) + (" (concealed)" if result.concealed and i == out_side else "")
                          if s.going_out else "–" for i, s in enumerate(sides)],
            [s.going_out for s in sides]),
        row("Bonuses", [_points(s.bonuses) for s in sides], [s.bonuses for s in sides], "subtotal"),
        row("Melded cards", [_points(s.melded) for s in sides], [s.melded for s in sides]),
        row("Cards left in hand", [_points(-s.in_hand) for s in sides], [-s.in_hand for s in sides]),
        row("Hand total", [_points(s.total) for s in sides], [s.total for s in sides], "total"),
    ]
    return tuple(rows)


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what each side scored."""

    sides: tuple[SideScore, ...]
    went_out: int | None
    concealed: bool

    def __reduce__(self) -> tuple[type[HandResult], tuple[object, ...]]:
        return HandResult, (self.sides, self.went_out, self.concealed)  # pickles when compiled too

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


def side_score(
    rules: Rules,
    *,
    natural: int = 0,
    mixed: int = 0,
    wild: int = 0,
    unfinished_wild: bool = False,
    red_threes: int = 0,
    has_melded: bool,
    out: OutKind = "",
    melded: int = 0,
    in_hand: int = 0,
) -> SideScore:
    """One side's score from its items: the only place the bonuses are added up (RULES.md 13-14).

    Red threes count against a side that has not melded; ``out`` is ``"out"`` or
    ``"concealed"`` for the side that went out (concealed earns more only under
    ``concealed_bonus``).

    >>> from canasta.rules import Rules
    >>> side_score(Rules.parse("classic"), natural=1, red_threes=1, has_melded=True, out="out",
    ...            melded=200, in_hand=15).total
    885
    """
    red = rules.red_three_points(red_threes)
    going_out = 0
    if out:
        going_out = GOING_OUT_CONCEALED if out == "concealed" and rules.concealed_bonus else GOING_OUT
    wild_bonus = rules.wild_canasta_bonus * wild
    penalty = rules.unfinished_wild_meld_penalty if unfinished_wild else 0
    return SideScore(
        natural_canastas=natural,
        mixed_canastas=mixed,
        wild_canastas=wild,
        canasta_bonus=NATURAL_CANASTA * natural + MIXED_CANASTA * mixed + wild_bonus - penalty,
        red_threes=red_threes,
        red_three_points=red if has_melded else -red,
        going_out=going_out,
        melded=melded,
        in_hand=in_hand,
        wild_bonus=wild_bonus,
        wild_penalty=penalty,
    )


def score_hand(state: GameState, went_out: int | None, concealed: bool) -> HandResult:
    """Score every side of a finished hand, item by item (RULES.md 13-14)."""
    rules = state.rules
    sides = []
    concealed = concealed and rules.concealed_bonus
    value = VALUE.__getitem__
    for side in range(state.sides):
        kinds = {"natural": 0, "mixed": 0, "wild": 0}
        melded_points = 0
        unfinished_wild = False
        mwild = state.meld_wilds[side]
        for rank, meld in enumerate(state.melds[side]):
            if meld is None:
                continue
            melded_points += sum(map(value, meld))
            if rank == BLACK_THREE:
                continue
            kind = canasta_kind(len(meld) - mwild[rank], mwild[rank])
            if kind is not None:
                kinds[kind] += 1
            elif rank == WILD_MELD:
                unfinished_wild = True
        in_hand = sum([sum(map(mul, VALUE, state.hand_counts[seat]))
                       for seat in range(side, state.players, state.sides)])
        out: OutKind = ""
        if went_out is not None and went_out % state.sides == side:
            out = "concealed" if concealed else "out"
        sides.append(side_score(
            rules, natural=kinds["natural"], mixed=kinds["mixed"], wild=kinds["wild"],
            unfinished_wild=unfinished_wild, red_threes=len(state.red_threes[side]),
            has_melded=state.meld_count[side] > 0, out=out, melded=melded_points, in_hand=in_hand,
        ))
    return HandResult(tuple(sides), went_out, concealed)


def match_winner(scores: tuple[int, ...] | list[int], target: int) -> int | None:
    """The side that has won at ``scores``: the highest of those at the target, if alone there."""
    reached = [s for s in scores if s >= target]
    if not reached:
        return None
    best = max(reached)
    if list(scores).count(best) > 1:
        return None
    return list(scores).index(best)


__all__ = ["GOING_OUT", "GOING_OUT_CONCEALED", "MIXED_CANASTA", "NATURAL_CANASTA", "CanastaKind", "HandResult",
           "OutKind", "SideScore", "canasta_kind", "match_winner", "score_hand", "side_score"]
