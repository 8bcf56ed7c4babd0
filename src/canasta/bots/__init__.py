"""Computer players.  A bot sees one seat's :class:`~canasta.views.View` and the legal moves, never the state.

>>> sorted(BOTS)
['basic', 'random']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from ..moves import Move
from ..views import View
from .basic import BasicBot
from .randombot import RandomBot


class Bot(Protocol):
    """Chooses a move for its seat from what that seat may know."""

    name: str

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """One of ``moves``."""
        ...


BOTS: dict[str, Callable[[random.Random], Bot]] = {
    "random": RandomBot,
    "basic": BasicBot,
}


def make_bot(name: str, rng: random.Random | None = None) -> Bot:
    """A bot by its registered name."""
    factory = BOTS.get(name)
    if factory is None:
        raise ValueError(f"unknown computer player {name!r} (known: {', '.join(sorted(BOTS))})")
    return factory(rng if rng is not None else random.Random())


__all__ = ["BOTS", "BasicBot", "Bot", "RandomBot", "make_bot"]
