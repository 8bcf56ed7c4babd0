"""What one seat may know: the only thing bots, front ends and logs ever see.

A view holds the seat's own hand, everything on the table (melds, red threes, the whole
pile, which every player saw discarded), the sizes of the other hands and of the stock,
the public history of moves, and the cards known to be in a hand because that player
took them with the pile and has not played them since.  Never another hand or the stock.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from .cards import MELD_RANK_CHARS, card_text, codes_from_counts
from .errors import SeatError
from .moves import Drew, Phase
from .rules import Rules
from .scoring import HandResult

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True)
class View:
    """One seat's knowledge of a hand in progress."""

    seat: int
    rules: Rules
    dealer: int
    turn: int
    to_act: int
    phase: Phase
    scores: tuple[int, ...]
    minimums: tuple[int, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile: tuple[int, ...]
    pile_frozen: bool
    melds: tuple[dict[int, tuple[int, ...]], ...]
    red_threes: tuple[tuple[int, ...], ...]
    melded: tuple[bool, ...]
    known: tuple[tuple[int, ...], ...]
    history: tuple[tuple[int, str], ...]
    drew: Drew | None
    asked: bool
    answer: bool | None
    result: HandResult | None
    sitting_out: int | None = None

    def __reduce__(self) -> tuple[type[View], tuple[object, ...]]:
        return View, tuple(getattr(self, f.name) for f in fields(self))  # pickles when compiled too

    @property
    def side(self) -> int:
        """The seat's side."""
        return self.seat % self.rules.sides

    @property
    def top(self) -> int | None:
        """The pile's top card, if any."""
        return self.pile[-1] if self.pile else None

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data in the project's notation."""
        return {
            "seat": self.seat,
            "rules": self.rules.to_json(),
            "dealer": self.dealer,
            "turn": self.turn,
            "to_act": self.to_act,
            "phase": self.phase,
            "scores": list(self.scores),
            "minimums": list(self.minimums),
            "hand": [card_text(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "pile": [card_text(c) for c in self.pile],
            "pile_frozen": self.pile_frozen,
            "melds": [
                {MELD_RANK_CHARS[r]: [card_text(c) for c in cards] for r, cards in side.items()}
                for side in self.melds
            ],
            "red_threes": [[card_text(c) for c in reds] for reds in self.red_threes],
            "melded": list(self.melded),
            "known": [[card_text(c) for c in cards] for cards in self.known],
            "history": [[seat, text] for seat, text in self.history],
            "drew": self.drew,
            "asked": self.asked,
            "answer": self.answer,
            "result": None if self.result is None else self.result.to_json(),
            "sitting_out": self.sitting_out,
        }


def make_view(state: GameState, seat: int, history: bool = True) -> View:
    """The view of ``state`` from ``seat`` (``history=False`` leaves the move history out: cheaper)."""
    if not 0 <= seat < state.players:
        raise SeatError(f"seat {seat} is not at this table (0 to {state.players - 1})")
    known = tuple(
        () if other == seat or not any(counts) else tuple(codes_from_counts(counts))
        for other, counts in enumerate(state.known)
    )
    return View(
        seat=seat,
        rules=state.rules,
        dealer=state.dealer,
        turn=state.turn,
        to_act=state.to_act,
        phase=state.phase,
        scores=tuple(state.scores),
        minimums=tuple(state.minimum(s) for s in range(state.sides)),
        hand=tuple(state.hand(seat)),
        hand_sizes=tuple(state.hsize),
        stock_size=len(state.stock),
        pile=tuple(state.pile),
        pile_frozen=state.pile_frozen(),
        melds=tuple(
            {r: tuple(m) for r, m in enumerate(side) if m is not None} for side in state.melds
        ),
        red_threes=tuple(tuple(r) for r in state.red3),
        melded=tuple(state.melded),
        known=known,
        history=state.history_text() if history else (),
        drew=state.drew,
        asked=state.asked,
        answer=state.answer,
        result=state.result,
        sitting_out=state.sitting_out,
    )
