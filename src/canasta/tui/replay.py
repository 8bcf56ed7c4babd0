"""Stepping through a game record move by move (``canasta replay``): pure, no Textual.

A :class:`Replay` holds the position after every move of every hand, so stepping back is
as cheap as stepping forward.

>>> from canasta.rules import Rules
>>> from canasta.tui.session import Session
>>> s = Session.new(Rules(), ["basic"] * 4, seed=2)
>>> for _ in range(5):
...     _ = s.play(s.bot_choice())
>>> r = Replay.from_record(s.to_record())
>>> len(r.frames), r.frames[-1].state.hand(1) == s.state.hand(1)
(6, True)
>>> r.seek(1).state.history[-1][1] == r.frames[1].state.history[-1][1]
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import parse_card
from ..match import Match
from ..outcome import Outcome
from ..state import GameState
from .session import match_from_record


@dataclass(frozen=True)
class Frame:
    """The table after ``index`` moves of hand ``hand`` (from 0); ``move`` is the one that led here."""

    hand: int
    index: int
    state: GameState
    move: tuple[int, str] | None
    outcome: Outcome | None = None
    """What that move did (:mod:`canasta.outcome`)."""


class Replay:
    """Every position of a recorded match, and a cursor over them."""

    def __init__(self, match: Match, frames: list[Frame]) -> None:
        self.match = match
        self.frames = frames
        self.at = 0

    @classmethod
    def from_record(cls, record: object) -> Replay:
        """Replay a game record (decks needed); raises :class:`SessionError` with one line."""
        done = match_from_record(record, "a game record")
        players = done.players
        if isinstance(record, dict) and record.get("players") is None:  # no names given: as people count, from 1
            players = [f"Player {seat + 1}" for seat in range(done.rules.players)]
        match = Match(done.rules, players, seed=done.seed, dealer=done.hands[0]["dealer"],
                      scores=done.start_scores, deal=False)
        frames: list[Frame] = []
        for number, hand in enumerate(done.hands):
            match.new_hand([parse_card(c) for c in hand["deck"]])
            frames.append(Frame(number, 0, match.state.copy(), None))
            for index, text in enumerate(hand["moves"], 1):
                outcome = match.apply(text)
                frames.append(Frame(number, index, match.state.copy(), (outcome.seat, text), outcome))
        return cls(match, frames)

    @property
    def frame(self) -> Frame:
        """The position shown now."""
        return self.frames[self.at]

    def seek(self, at: int) -> Frame:
        """Go to frame ``at`` (clamped)."""
        self.at = max(0, min(len(self.frames) - 1, at))
        return self.frame

    def step(self, by: int) -> Frame:
        """Move ``by`` frames forward (or back)."""
        return self.seek(self.at + by)

    def hand_start(self, hand: int) -> int:
        """The first frame of a hand (clamped to the record's hands)."""
        hand = max(0, min(self.frames[-1].hand, hand))
        return next(i for i, f in enumerate(self.frames) if f.hand == hand)

    def moves_in_hand(self, hand: int) -> int:
        """How many moves the hand holds."""
        return sum(1 for f in self.frames if f.hand == hand) - 1

    def scores_before(self, hand: int) -> list[int]:
        """Match totals before a hand."""
        scores = list(self.match.start_scores)
        for result in self.match.results[:hand]:
            scores = [a + b for a, b in zip(scores, result.totals)]
        return scores
