"""Finished hands and their reviews at the smallest budget, for the tests of the review in the terminal."""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

from canasta.bots import make_bot
from canasta.bots.review import Decision, Review, ReviewSettings, review_match
from canasta.match import Match
from canasta.rules import Rules
from canasta.tui.review_marks import MARKED
from canasta.tui.session import Session

TINY = ReviewSettings(rollouts=8, candidates=3)
"""A budget that reviews a hand in a fraction of a second: the marks are noise, their places are not."""


def finished(seed: int = 7, target: int = 5000, seats: tuple[str, ...] = ("you", "basic", "basic", "basic")) -> Session:
    """One hand of a person (seat 1, "You") and three ``basic`` players, the person's moves played by ``basic`` too
    (a ``target`` the hand reaches: the match is over too; other ``seats`` may be given)."""
    session = Session.new(Rules.from_preset("classic", target=target), list(seats), seed=seed)
    bot = make_bot("basic", random.Random(0))
    while not session.state.is_over:
        state = session.state
        session.play(bot.choose(state.view(state.to_act), list(state.legal_moves())))
    return session


@cache
def _record(seed: int) -> dict[str, Any]:
    return finished(seed).to_record()


def record(seed: int = 7) -> dict[str, Any]:
    """:func:`finished`'s save record (a copy)."""
    return copy.deepcopy(_record(seed))


@cache
def review(seed: int = 7, seat: int = 0) -> Review:
    """The review of ``seat`` in :func:`record` at :data:`TINY`, as its JSON reads (figures rounded)."""
    return Review.from_json(review_match(Match.from_record(record(seed)), [seat], None, TINY).to_json())


def marked(found: Review) -> Decision:
    """The first inaccuracy, mistake or blunder of a review (the fixtures have one)."""
    return next(d for d in found.decisions if d.label in MARKED)
