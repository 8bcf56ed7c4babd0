"""Duplicate duels between computer players: each deck is played once per side, the bots swapped.

Playing every deal both ways cancels most of the luck of the cards, so a few hundred deals
tell two bots apart.  Hands are single hands from the start of a match (scores 0); the
figure is the mean, over deals, of the first bot's side total minus the second's, per hand.

>>> r = duel("basic", "random", deals=2, seed=1)
>>> r.deals, r.hands
(2, 4)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from ..cards import shuffled_deck
from ..rules import Rules
from ..state import GameState
from . import Bot, make_bot

BotSpec = str | Callable[[random.Random], Bot]


@dataclass(frozen=True)
class DuelResult:
    """Per-hand points of the first bot's side less the second's, averaged over deals."""

    deals: int
    hands: int
    mean: float
    stderr: float
    first_mean: float  # the first bot's side total per hand
    second_mean: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% confidence interval of the mean."""
        return (self.mean - 1.96 * self.stderr, self.mean + 1.96 * self.stderr)

    def __str__(self) -> str:
        lo, hi = self.interval
        return (f"{self.mean:+.0f} points/hand (95% CI {lo:+.0f} to {hi:+.0f}; {self.deals} deals, "
                f"{self.hands} hands; {self.first_mean:.0f} vs {self.second_mean:.0f})")


def _factory(spec: BotSpec) -> Callable[[random.Random], Bot]:
    if isinstance(spec, str):
        name = spec
        return lambda rng: make_bot(name, rng, files=True)
    return spec


def play_hand(state: GameState, bots: list[Bot], max_moves: int = 5000) -> GameState:
    """Play a hand to its end, each seat's bot choosing from that seat's view."""
    moves_made = 0
    while not state.is_over:
        seat = state.to_act
        moves = list(state.legal_moves())
        state.push(bots[seat].choose(state.view(seat), moves))
        moves_made += 1
        if moves_made > max_moves:
            raise RuntimeError("the hand did not end")
    return state


def duel(first: BotSpec, second: BotSpec, deals: int = 100, seed: int = 0,
         rules: Rules | str = "classic") -> DuelResult:
    """Play ``deals`` decks once per side, ``first`` on each side in turn (the other sides: ``second``)."""
    r = rules if isinstance(rules, Rules) else Rules.parse(rules)
    make_first, make_second = _factory(first), _factory(second)
    diffs: list[float] = []
    firsts: list[float] = []
    seconds: list[float] = []
    for deal in range(deals):
        rng = random.Random(seed * 1_000_003 + deal)
        deck = shuffled_deck(rng, r.decks)
        dealer = deal % r.players
        seat_seeds = [rng.randrange(2**31) for _ in range(r.players)]
        total = 0.0
        for first_side in range(r.sides):
            bots = [
                (make_first if seat % r.sides == first_side else make_second)(random.Random(seat_seeds[seat]))
                for seat in range(r.players)
            ]
            sitting_out = 2 * (deal % 3) if r.sit_out else None
            state = play_hand(GameState.deal(r, dealer, deck=deck, sitting_out=sitting_out), bots)
            assert state.result is not None
            totals = state.result.totals
            mine = totals[first_side]
            others = [t for s, t in enumerate(totals) if s != first_side]
            theirs = sum(others) / len(others)
            total += mine - theirs
            firsts.append(mine)
            seconds.append(theirs)
        diffs.append(total / r.sides)
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return DuelResult(n, r.sides * n, mean, math.sqrt(var / n), sum(firsts) / len(firsts), sum(seconds) / len(seconds))


__all__ = ["DuelResult", "duel", "play_hand"]
