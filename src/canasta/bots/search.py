"""The ``search`` bot: determinized rollouts on top of the expert, weighted by what the table has shown.

For each decision that matters (yes or no; draw or take the pile; go out or play on; which
card to discard; a meld, against holding its cards or the next best meld) the expert ranks
the legal moves and its best few are kept.  Then, round after round until the budget is spent, the hidden
cards are dealt anew (:class:`canasta.resample.Resampler`, so the bot still knows only its
view), each kept move is played in that same deal, and the rest of the hand is played out
by the expert for every seat, with the same random seed for each move.  A rollout scores
the side's hand total less the best other side's.

The deals are weighted by what the table has shown (:class:`canasta.bots.belief.Belief`:
a seat that passed a pile it could have taken with a pair holds no pair of it, a seat
that discarded a kind kept no pair of it).  Each round deals ``TRIES`` hidden hands at
random, keeps one with chance proportional to its weight and carries their mean weight
(sampling-importance-resampling, which stays properly weighted); the means and the test
below are weighted by it.  ``search:…:uniform`` deals uniformly, as before.

Since every round plays all the kept moves in the same deal, each is compared with the
expert's choice round by round, and replaces it only when its (weighted) mean gain is more
than ``confidence`` (1.5) standard errors above zero, the errors counted with the effective
number of rounds: with few rollouts the search defers to the expert rather than to noise.

Measured on the classic game on duplicate deals (the duel that :mod:`canasta.bots.arena`
replaced): ``search:32`` (uniform, 32 rollouts a decision, about 0.15 s) against ``expert``
scores +96 points per hand, 95% interval +49 to +144, over 240 duplicate deals (480 hands,
seeds 21 to 24).  Without the test, taking the best mean, it scored -55 (-117 to +7) over
120 of those deals.  Searching the melds too (since issue 16) gained about 75 points a hand
at 64 rollouts a decision.  The figures, with the commands that made them, are in
``docs/search.md``.

The budget comes from the bot's name: ``search`` (the default, 300 ms a decision),
``search:100ms``, ``search:2s`` (time per decision) or ``search:200`` (rollouts per
decision, all candidates together).  Options follow, each after a colon: ``2p`` (rollouts
in two processes, kept warm; local tools only), ``uniform`` (no weights), ``c6`` (six
candidates; above four, more of the next best melds too), ``nomelds`` (melds follow the
expert, as before issue 16's meld search).  A search weighs four candidates, or eight with
a time of a second or more (``search:1s`` is ``search:1s:c8``): at a second a move, more
rounds over the same four moves bought nothing, and eight moves gained.

>>> parse_budget("search:250ms"), parse_budget("search:2s"), parse_budget("search:40")
(Budget(seconds=0.25, rollouts=None), Budget(seconds=2.0, rollouts=None), Budget(seconds=None, rollouts=40))
>>> parse_search("search:1s:2p:uniform:c6")
(Budget(seconds=1.0, rollouts=None), 2, False, 6, True)
"""

from __future__ import annotations

import atexit
import multiprocessing
import random
import re
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Final

from ..errors import UnknownBotError
from ..moves import DISCARD, MELD, Move, Phase
from ..resample import Resampler
from ..state import GameState
from ..views import View, make_view
from .basic import BasicBot
from .belief import Belief
from .expert import OUT_BAND, REFUSE, ExpertBot, ExpertParams

TRIES: Final = 8
"""Hidden deals drawn for each round of a weighted search; one is kept by its weight."""
MAX_WORKERS: Final = 16
"""The most processes one search may use."""


@dataclass(frozen=True)
class Budget:
    """How long a decision may take: seconds of search, or a number of rollouts."""

    seconds: float | None = 0.3
    rollouts: int | None = None

    def __reduce__(self) -> tuple[type[Budget], tuple[float | None, int | None]]:
        return Budget, (self.seconds, self.rollouts)  # pickles when compiled too


def parse_budget(name: str) -> Budget:
    """The budget in a bot name: ``search``, ``search:100ms``, ``search:1s``, ``search:200`` (options may follow)."""
    return parse_search(name)[0]


CANDIDATES: Final = 4
"""Candidate moves a search weighs unless its name says (``c6``) or its budget is :data:`LONG` or more."""
LONG: Final = 1.0
"""Seconds from which a search weighs :data:`LONG_CANDIDATES`: more rounds pay only over more moves."""
LONG_CANDIDATES: Final = 8


def parse_search(name: str) -> tuple[Budget, int, bool, int, bool]:
    """A search bot's name: its budget, processes, weighted deals or not, candidates, melds searched or not.

    Without a ``cN`` option a search weighs :data:`CANDIDATES` moves, or :data:`LONG_CANDIDATES`
    with a time of :data:`LONG` seconds or more (docs/search.md: at a second a move, eight
    candidates beat four, and four gain nothing over 100 ms).
    """
    _, _, suffix = name.partition(":")
    budget = Budget()
    workers, weighted, candidates, melds = 1, True, 0, True
    for i, part in enumerate(suffix.strip().lower().split(":") if suffix.strip() else []):
        option = re.fullmatch(r"(\d+)p|c(\d+)|uniform|nomelds", part)
        if option is not None:
            if option.group(1) is not None:
                workers = int(option.group(1))
                if not 1 <= workers <= MAX_WORKERS:
                    raise UnknownBotError(f"a search runs in 1 to {MAX_WORKERS} processes: {name!r}")
            elif option.group(2) is not None:
                candidates = int(option.group(2))
                if not 2 <= candidates <= 12:
                    raise UnknownBotError(f"a search weighs 2 to 12 candidate moves: {name!r}")
            elif part == "nomelds":
                melds = False
            else:
                weighted = False
            continue
        match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s)?", part)
        if match is None or i > 0:
            raise UnknownBotError(f"a search budget is a time like 100ms or 1s, or a number of rollouts, "
                                  f"then options like 2p, uniform, c6 or nomelds: {name!r}")
        number, unit = match.groups()
        if unit == "ms":
            budget = Budget(seconds=float(number) / 1000.0)
        elif unit == "s":
            budget = Budget(seconds=float(number))
        elif "." in number or int(number) < 1:
            raise UnknownBotError(f"a number of rollouts is a whole number from 1: {name!r}")
        else:
            budget = Budget(seconds=None, rollouts=int(number))
    if not candidates:
        long = budget.seconds is not None and budget.seconds >= LONG
        candidates = LONG_CANDIDATES if long else CANDIDATES
    return budget, workers, weighted, candidates, melds


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
        workers: int = 1,
        weighted: bool = True,
        melds: bool = True,
    ) -> None:
        self.rng = rng
        self.budget = budget if budget is not None else Budget()
        if self.budget.seconds is None and self.budget.rollouts is None:
            raise UnknownBotError("a search budget needs a time or a number of rollouts")
        self.candidates = candidates
        self.params = params
        self.expert = ExpertBot(rng, params)
        self.rollout = rollout
        self.rollout_bot: ExpertBot | BasicBot = ExpertBot(rng, params) if rollout == "expert" else BasicBot(rng)
        self.margin = margin  # points a move must gain over the expert's choice to replace it
        self.confidence = confidence  # ... and standard errors of that gain
        self.workers = workers
        self.weighted = weighted
        self.melds = melds  # also weigh a meld against holding its cards
        self.last: list[tuple[Move, float, int]] = []  # the last decision: move, mean, rollouts

    def __reduce__(self) -> tuple[object, ...]:  # compiled by mypyc too: made by __init__, then its state
        return SearchBot, (self.rng,), self.__getstate__()

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """The expert's choice, or a candidate whose rollouts beat it clearly."""
        self.last = []
        if len(moves) == 1:
            return moves[0]
        kept = self.candidates_of(view, moves)
        if len(kept) == 1:
            return kept[0]
        try:
            rounds = self._search(view, kept)
        except ValueError:  # no hidden deal fits the view (should not happen): trust the expert
            return kept[0]
        weights = [w for w, _ in rounds]
        total = squares = 0.0
        for w in weights:  # plain float loops: sum() of floats is not a float to mypyc
            total += w
            squares += w * w
        if not rounds or total <= 0.0:
            return kept[0]
        means = [_weighted_mean(weights, [r[i] for _, r in rounds], total) for i in range(len(kept))]
        self.last = [(m, means[i], len(rounds)) for i, m in enumerate(kept)]
        # Each round played every candidate in the same deal, so compare them with the
        # expert's choice round by round, and leave it only for a clear gain.
        effective = total * total / squares
        best, gain = 0, 0.0
        for i in range(1, len(kept)):
            diffs = [r[i] - r[0] for _, r in rounds]
            mean = _weighted_mean(weights, diffs, total)
            if effective > 1.0 + 1e-9:
                var = _weighted_mean(weights, [(d - mean) ** 2 for d in diffs], total)
                spread = (var * effective / (effective - 1.0)) ** 0.5
            else:
                spread = float("inf")
            if mean > self.margin and mean > self.confidence * spread / effective ** 0.5 and mean > gain:
                best, gain = i, mean
        return kept[best]

    def _search(self, view: View, kept: list[Move]) -> list[tuple[float, list[float]]]:
        """For each round (one deal of the hidden cards): its weight and the rollout result of each kept move."""
        budget = self.budget
        workers = self.workers
        rounds = None if budget.rollouts is None else max(1, budget.rollouts // len(kept))
        seeds = [self.rng.randrange(2**31) for _ in range(workers)]
        if workers == 1:
            return self.run_rounds(view, kept, seeds[0], rounds, budget.seconds)
        shares = [None if rounds is None else rounds // workers + (1 if i < rounds % workers else 0)
                  for i in range(workers)]
        pool = _pool(workers)
        jobs = [pool.submit(_worker_rounds, view, kept, seeds[i], shares[i], budget.seconds, self.weighted,
                            self.params, self.rollout)
                for i in range(workers) if shares[i] != 0]
        results: list[tuple[float, list[float]]] = []
        for job in jobs:
            results.extend(job.result())
        return results

    def run_rounds(self, view: View, kept: list[Move], seed: int, rounds: int | None,
                   seconds: float | None) -> list[tuple[float, list[float]]]:
        """``rounds`` rounds (or as many as ``seconds`` allow, at least one) from ``seed``: weight and results."""
        deadline = time.perf_counter() + seconds if seconds is not None and rounds is None else None
        rng = random.Random(seed)
        sampler = Resampler(view)
        belief = Belief(view) if self.weighted else None
        results: list[tuple[float, list[float]]] = []
        while True:
            if rounds is not None and len(results) >= rounds:
                break
            if deadline is not None and results and time.perf_counter() >= deadline:
                break
            weight, state = draw_deal(sampler, belief, rng)
            play_seed = rng.randrange(2**31)
            row = []
            for move in kept:
                s = state.copy()
                s.push(move)
                row.append(self.play_out(s, view.seat, play_seed))
            results.append((weight, row))
        return results

    def candidates_of(self, view: View, moves: Sequence[Move]) -> list[Move]:
        """The moves worth a search, the expert's choice first.

        The choices that decide a hand: yes or no; draw or take the pile; go out or play on;
        which card to discard; a meld, or holding its cards (the expert's best discard), or
        the next best meld (the next ``candidates - 3`` when more than four, unless ``melds`` is off).
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
        elif best.action == MELD and self.melds:
            # meld now, or hold the cards (the expert's best discard ends the turn), or its next best
            # meld (more of them when more candidates are asked for than the four by default)
            kept.extend([m for m, _, _ in ranked if m.action == DISCARD][:1])
            kept.extend([m for m, _, _ in ranked[1:] if m.action == MELD][:1 + max(0, self.candidates - 4)])
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


def _weighted_mean(weights: list[float], values: list[float], total: float) -> float:
    acc = 0.0
    for w, v in zip(weights, values):
        acc += w * v
    return acc / total


def draw_deal(sampler: Resampler, belief: Belief | None, rng: random.Random) -> tuple[float, GameState]:
    """One deal of the hidden cards and its weight: uniform (weight 1), or one of ``TRIES`` kept by its weight.

    Keeping one of several deals with chance proportional to its likelihood, and giving it
    their mean likelihood, is sampling-importance-resampling: the weighted rounds estimate
    the means under the belief.
    """
    if belief is None or not belief.evidence:
        return 1.0, sampler.sample(rng)
    states = [sampler.sample(rng) for _ in range(TRIES)]
    weights = [belief.weight(s) for s in states]
    total = 0.0
    for w in weights:
        total += w
    pick = rng.random() * total
    chosen = len(states) - 1
    for i, w in enumerate(weights):
        pick -= w
        if pick < 0.0:
            chosen = i
            break
    return total / len(states), states[chosen]


def _worker_rounds(view: View, kept: list[Move], seed: int, rounds: int | None, seconds: float | None,
                   weighted: bool, params: ExpertParams | None, rollout: str) -> list[tuple[float, list[float]]]:
    """The rounds of one process of a search split across processes (it gets the view, never the state)."""
    bot = SearchBot(random.Random(seed), Budget(seconds, rounds), params=params, rollout=rollout, weighted=weighted)
    return bot.run_rounds(view, kept, seed, rounds, seconds)


_POOLS: dict[int, ProcessPoolExecutor] = {}
"""Worker processes by count, started on first use and kept warm for the next decision."""


def _pool(workers: int) -> ProcessPoolExecutor:
    pool = _POOLS.get(workers)
    if pool is None:
        # spawn, not fork: the table driver may run a search in a thread of a threaded program
        pool = _POOLS[workers] = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    return pool


def shutdown_pools() -> None:
    """Stop the worker processes of searches split across processes."""
    for pool in _POOLS.values():
        pool.shutdown(wait=True, cancel_futures=True)
    _POOLS.clear()


atexit.register(shutdown_pools)


def rollout_view(state: GameState) -> View:
    """The view of the seat to act in a sampled state, without the history (cheaper, for rollouts)."""
    return make_view(state, state.to_act, history=False)


__all__ = ["Budget", "SearchBot", "draw_deal", "parse_budget", "parse_search", "shutdown_pools"]
