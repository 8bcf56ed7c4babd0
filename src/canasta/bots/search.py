"""The ``search`` bot: determinized rollouts on top of the expert.

For each decision that matters (yes or no; draw or take the pile; go out or play on; which
card to discard) the expert ranks the legal moves and its best few are kept; melds within
a turn follow the expert.  Then, round after round until the budget is spent, the hidden
cards are dealt anew at random (:class:`canasta.resample.Resampler`, so the bot still knows
only its view), each kept move is played in that same deal, and the rest of the hand is
played out by the expert for every seat, with the same random seed for each move.  A
rollout scores the side's hand total less the best other side's.  Since every round plays
all the kept moves in the same deal, each is compared with the expert's choice round by
round, and replaces it only when its mean gain is more than ``confidence`` (1.5) standard
errors above zero: with few rollouts the search defers to the expert rather than to noise.

Measured on the classic game on duplicate deals (the duel that :mod:`canasta.bots.arena` replaced): ``search:32``
(32 rollouts a decision, about 0.15 s) against ``expert`` scores +96 points per hand, 95%
interval +49 to +144, over 240 duplicate deals (480 hands, seeds 21 to 24).  Without the
test, taking the best mean, it scored -55 (-117 to +7) over 120 of those deals.

The budget comes from the bot's name: ``search`` (the default, 300 ms a decision),
``search:100ms``, ``search:2s`` (time per decision) or ``search:200`` (rollouts per
decision, all candidates together).

>>> parse_budget("search:250ms"), parse_budget("search:2s"), parse_budget("search:40")
(Budget(seconds=0.25, rollouts=None), Budget(seconds=2.0, rollouts=None), Budget(seconds=None, rollouts=40))
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import UnknownBotError
from ..moves import DISCARD, Move, Phase
from ..resample import Resampler
from ..state import GameState
from ..views import View, make_view
from .basic import BasicBot
from .expert import OUT_BAND, REFUSE, ExpertBot, ExpertParams


@dataclass(frozen=True)
class Budget:
    """How long a decision may take: seconds of search, or a number of rollouts."""

    seconds: float | None = 0.3
    rollouts: int | None = None

    def __reduce__(self) -> tuple[type[Budget], tuple[float | None, int | None]]:
        return Budget, (self.seconds, self.rollouts)  # pickles when compiled too


def parse_budget(name: str) -> Budget:
    """The budget in a bot name: ``search``, ``search:100ms``, ``search:1s``, ``search:200``."""
    _, _, suffix = name.partition(":")
    suffix = suffix.strip().lower()
    if not suffix:
        return Budget()
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s)?", suffix)
    if match is None:
        raise UnknownBotError(f"a search budget is a time like 100ms or 1s, or a number of rollouts: {name!r}")
    number, unit = match.groups()
    if unit == "ms":
        return Budget(seconds=float(number) / 1000.0)
    if unit == "s":
        return Budget(seconds=float(number))
    if "." in number or int(number) < 1:
        raise UnknownBotError(f"a number of rollouts is a whole number from 1: {name!r}")
    return Budget(seconds=None, rollouts=int(number))


class SearchBot:
    """Determinized rollouts over the expert's best few moves."""

    name = "search"
    slow = True
    """It searches for a time or a number of rollouts: front ends let it think in a thread."""

    def __init__(
        self,
        rng: random.Random,
        budget: Budget | None = None,
        candidates: int = 4,
        rollout: str = "expert",
        params: ExpertParams | None = None,
        margin: float = 0.0,
        confidence: float = 1.5,
    ) -> None:
        self.rng = rng
        self.budget = budget if budget is not None else Budget()
        if self.budget.seconds is None and self.budget.rollouts is None:
            raise UnknownBotError("a search budget needs a time or a number of rollouts")
        self.candidates = candidates
        self.expert = ExpertBot(rng, params)
        self.rollout_bot: ExpertBot | BasicBot = ExpertBot(rng, params) if rollout == "expert" else BasicBot(rng)
        self.margin = margin  # points a move must gain over the expert's choice to replace it
        self.confidence = confidence  # ... and standard errors of that gain
        self.last: list[tuple[Move, float, int]] = []  # the last decision: move, mean, rollouts

    def __reduce__(self) -> tuple[object, ...]:  # compiled by mypyc too: made by __init__, then its state
        return SearchBot, (self.rng,), self.__getstate__()

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """The candidate with the best mean rollout result."""
        self.last = []
        if len(moves) == 1:
            return moves[0]
        kept = self.candidates_of(view, moves)
        if len(kept) == 1:
            return kept[0]
        try:
            sampler = Resampler(view)
            results = self._search(view, sampler, kept)
        except ValueError:  # no hidden deal fits the view (should not happen): trust the expert
            return kept[0]
        rounds = len(results)
        means = [sum(r[i] for r in results) / rounds for i in range(len(kept))]
        self.last = [(m, means[i], rounds) for i, m in enumerate(kept)]
        # Each round played every candidate in the same deal, so compare them with the
        # expert's choice round by round, and leave it only for a clear gain.
        best, gain = 0, 0.0
        for i in range(1, len(kept)):
            diffs = [r[i] - r[0] for r in results]
            mean = sum(diffs) / rounds
            spread = (sum((d - mean) ** 2 for d in diffs) / (rounds - 1)) ** 0.5 if rounds > 1 else float("inf")
            if mean > self.margin and mean > self.confidence * spread / rounds ** 0.5 and mean > gain:
                best, gain = i, mean
        return kept[best]

    def _search(self, view: View, sampler: Resampler, kept: list[Move]) -> list[list[float]]:
        """For each round (one deal of the hidden cards), the rollout result of each kept move."""
        results: list[list[float]] = []
        runs = 0
        budget = self.budget
        deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else None
        while True:
            if budget.rollouts is not None and runs + len(kept) > max(budget.rollouts, len(kept)):
                break
            if deadline is not None and runs and time.perf_counter() >= deadline:
                break
            state = sampler.sample(self.rng)
            seed = self.rng.randrange(2**31)
            row = []
            for move in kept:
                s = state.copy()
                s.push(move)
                row.append(self.play_out(s, view.seat, seed))
            results.append(row)
            runs += len(kept)
        return results

    def candidates_of(self, view: View, moves: Sequence[Move]) -> list[Move]:
        """The moves worth a search, the expert's choice first.

        The choices that decide a hand: yes or no; draw or take the pile; go out or play on;
        which card to discard.  Melds within a turn follow the expert.
        """
        ranked = self.expert.ranked(view, moves)
        best, top, _ = ranked[0]
        kept = [best]
        if view.phase == Phase.ANSWER or view.phase == Phase.DRAW:
            kept.extend(m for m, _, _ in ranked[1:])
        elif top >= OUT_BAND:
            stay = [m for m, s, _ in ranked if REFUSE / 2 < s < OUT_BAND]
            kept.extend(m for m, s, _ in ranked[1:] if s >= OUT_BAND and m.action != best.action)
            kept.extend(stay[:1])
        elif best.action == DISCARD:
            kept.extend(m for m, _, _ in ranked[1:] if m.action == DISCARD)
        return kept[: self.candidates]

    def play_out(self, state: GameState, seat: int, seed: int) -> float:
        """Play the hand to its end with the rollout policy; the seat's side less the best other side."""
        bot = self.rollout_bot
        bot.rng = random.Random(seed)
        steps = 0
        while state.phase != Phase.OVER and steps < 2000:
            moves = list(state.legal_moves())
            state.push(moves[0] if len(moves) == 1 else bot.choose(rollout_view(state), moves))
            steps += 1
        result = state.result
        if result is None:
            return 0.0
        totals = result.totals
        side = seat % state.sides
        others = [t for s, t in enumerate(totals) if s != side]
        return float(totals[side] - max(others))


def rollout_view(state: GameState) -> View:
    """The view of the seat to act in a sampled state, without the history (cheaper, for rollouts)."""
    return make_view(state, state.to_act, history=False)


__all__ = ["Budget", "SearchBot", "parse_budget"]
