"""The ``random`` bot: uniform over the legal moves."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..moves import Move
from ..views import View


class RandomBot:
    """Plays a uniformly random legal move."""

    name = "random"
    slow = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __reduce__(self) -> tuple[object, ...]:  # compiled by mypyc too: made by __init__, then its state
        return RandomBot, (self.rng,), self.__getstate__()

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """Any legal move, each as likely."""
        return moves[self.rng.randrange(len(moves))]
