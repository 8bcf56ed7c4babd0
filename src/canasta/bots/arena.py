"""The duplicate arena: two bots play the same deals from every side (``canasta arena``).

Every deal is played once per *replay* with the same cards (the same deck order and the
same dealer); the bots change sides between replays, and partners on a side are the same
bot.  With two sides there are two replays: A plays side 0 then side 1.  With three sides
(three-player, six-player) there are three: in replay ``r`` A plays side ``r`` and B every
other side, so each bot holds each seat set equally often.

Chance is seeded per deal, never per worker, by the one seeding scheme of
:mod:`canasta.match`: deal ``i`` is hand ``i`` of the match with this seed
(``deal_deck(rules, seed, i)``, dealer ``i % players``) and the bot at ``seat`` plays it with
``bot_random(seed, i, seat)`` in every replay; duplicate match ``m`` is the match with seed
``f"{seed}:match{m}"`` (its hand ``j``: ``deal_deck(rules, f"{seed}:match{m}", j)``).  So deal 0
is the first hand ``canasta play --seed S`` deals, and a seed gives the same result on one
worker, on several processes and on Ray.  Bots see only ``state.view(seat)`` and the legal moves.
This is the one duplicate runner: ``canasta arena`` plays one pair, ``canasta ladder``
(:mod:`canasta.bots.ladder`) every pair of several bots, through :func:`run_jobs`.

A hand's point difference is A's side total minus B's (the mean over B's sides when B
holds several).  Its mean comes with a 95% confidence interval over independent units
(a deal with all its replays, or a duplicate match), so the luck of the cards cancels.

A long run keeps a journal (:mod:`canasta.bots.journal`, ``canasta arena ... --journal FILE``):
each unit is appended to it as one JSON line as soon as it is played, and the same command run
again reads those back and plays only the missing ones, so a run cut short by a timeout or
Ctrl-C resumes to the report an uninterrupted run prints (only the times differ); a larger
``--deals`` extends it.  Without a terminal, a line on standard error every tenth of the units
(``arena: 50/500 deals, +87.2 points/hand so far``) shows the progress in a log.

>>> rules = Rules.from_preset("classic")
>>> [s.seats for s in seatings(rules)]
[('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
>>> [s.a_side for s in seatings(Rules.from_preset("three-player"))]
[0, 1, 2]
>>> run_arena("basic", "random", rules, seed=1, deals=2)["hands"]
4
"""

from __future__ import annotations

import logging
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..errors import CanastaError
from ..match import bot_random, deal_deck
from ..rules import Rules
from ..scoring import match_winner
from ..state import GameState
from . import Bot, make_bot
from .journal import open_journal
from .rating import mean_ci, percentile, wilson

BotSpec = str | Callable[[random.Random], Bot]
"""A bot by name (``expert``, ``search:16``), or a function making one from its random source
(in-process only: a function does not travel to other processes)."""
MAX_MATCH_HANDS = 500
"""A match still undecided after this many hands counts as won by nobody."""

BACKENDS = ("local", "ray")


class ArenaError(CanastaError):
    """An arena that cannot run: an unknown bot, a count out of range, a missing backend."""


# -- seating and seeds -----------------------------------------------------------------------


@dataclass(frozen=True)
class Seating:
    """Who plays where in one replay: ``seats[s]`` is ``"a"`` or ``"b"``."""

    replay: int
    a_side: int
    seats: tuple[str, ...]


def seatings(rules: Rules) -> list[Seating]:
    """The replays of every deal: A plays side ``r`` in replay ``r``, B every other side."""
    return [
        Seating(r, r, tuple("a" if seat % rules.sides == r else "b" for seat in range(rules.players)))
        for r in range(rules.sides)
    ]


# -- playing ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    """One hand played: A's side, every side's total and the decisions made."""

    a_side: int
    totals: tuple[int, ...]
    decisions: int
    searched: tuple[int, int, int, int] = (0, 0, 0, 0)
    """For searching bots: A's searched decisions and samples, then B's."""
    times: tuple[tuple[float, ...], tuple[float, ...]] = field(default=((), ()), compare=False)
    """The seconds each of A's decisions took, then B's (wall-clock: not part of the result)."""

    @property
    def diff(self) -> float:
        """A's total minus B's (the mean of B's sides when several)."""
        others = [t for s, t in enumerate(self.totals) if s != self.a_side]
        return self.totals[self.a_side] - sum(others) / len(others)

    @property
    def winner(self) -> str | None:
        """``"a"``, ``"b"`` (B's best side beat A) or None for a tie."""
        mine = self.totals[self.a_side]
        best = max(t for s, t in enumerate(self.totals) if s != self.a_side)
        return "a" if mine > best else "b" if best > mine else None

    def to_json(self) -> dict[str, Any]:
        """The hand as one JSON object (a journal line's part), times included (to a tenth of a microsecond)."""
        return {"a_side": self.a_side, "totals": list(self.totals), "decisions": self.decisions,
                "searched": list(self.searched), "times": [[round(t, 7) for t in times] for times in self.times]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Hand:
        """The hand :meth:`to_json` wrote; ``KeyError``, ``TypeError`` or ``ValueError`` for anything else."""
        searched = tuple(int(n) for n in data["searched"])
        a_times, b_times = (tuple(float(t) for t in times) for times in data["times"])
        if len(searched) != 4:
            raise ValueError(f"searched has {len(searched)} numbers, not 4")
        return cls(int(data["a_side"]), tuple(int(t) for t in data["totals"]), int(data["decisions"]),
                   (searched[0], searched[1], searched[2], searched[3]), (a_times, b_times))


@dataclass(frozen=True)
class MatchPlay:
    """One replay of a duplicate match: its hands and the winning side's bot, if any."""

    hands: tuple[Hand, ...]
    winner: str | None

    def to_json(self) -> dict[str, Any]:
        """The replay as one JSON object: its hands and winner."""
        return {"hands": [h.to_json() for h in self.hands], "winner": self.winner}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchPlay:
        """The replay :meth:`to_json` wrote; ``KeyError``, ``TypeError`` or ``ValueError`` for anything else."""
        winner = data["winner"]
        if winner not in ("a", "b", None):
            raise ValueError(f"winner {winner!r} is not a, b or null")
        return cls(tuple(Hand.from_json(h) for h in data["hands"]), winner)


def unit_to_json(unit: Sequence[Hand] | Sequence[MatchPlay]) -> list[dict[str, Any]]:
    """A unit (a deal's hands, one per replay, or a duplicate match's replays) as JSON."""
    return [part.to_json() for part in unit]


def unit_from_json(kind: str, data: Sequence[dict[str, Any]]) -> tuple[Any, ...]:
    """The unit :func:`unit_to_json` wrote, as :func:`play_deal` or :func:`play_match` returns it."""
    if not isinstance(data, list):
        raise TypeError("a unit is a list")
    part = Hand.from_json if kind == "deals" else MatchPlay.from_json
    return tuple(part(item) for item in data)


Watch = Callable[[Seating, GameState], None]


def spec_name(spec: BotSpec) -> str:
    """A bot spec's name for reports: the name itself, or the name of the bot a function makes."""
    if isinstance(spec, str):
        return spec
    return str(getattr(spec(random.Random(0)), "name", "custom"))


def new_bot(spec: BotSpec, rng: random.Random) -> Bot:
    """The bot of a spec: by name (``policy:FILE`` included), or made by the function."""
    return make_bot(spec, rng, files=True) if isinstance(spec, str) else spec(rng)


def play_hand(
    a: BotSpec,
    b: BotSpec,
    rules: Rules,
    seating: Seating,
    deck: Sequence[int],
    dealer: int,
    rng_key: tuple[int | str, int],
    scores: Sequence[int] | None = None,
    sitting_out: int | None = None,
    watch: Watch | None = None,
) -> Hand:
    """Play one hand to its end; ``rng_key`` is the match seed and hand number the bots are seeded by."""
    state = GameState.deal(rules, dealer, scores, deck, sitting_out=sitting_out)
    if watch is not None:
        watch(seating, state.copy())
    bots = [new_bot(a if who == "a" else b, bot_random(rng_key[0], rng_key[1], seat))
            for seat, who in enumerate(seating.seats)]
    decisions = 0
    searched = [0, 0, 0, 0]
    times: tuple[list[float], list[float]] = ([], [])
    clock = time.perf_counter
    while not state.is_over:
        seat = state.to_act
        moves = list(state.legal_moves())
        bot = bots[seat]
        view = state.view(seat)
        began = clock()
        move = bot.choose(view, moves)
        times[0 if seating.seats[seat] == "a" else 1].append(clock() - began)
        last = getattr(bot, "last", None)  # a searching bot's last decision: (move, mean, samples)
        if last:
            at = 0 if seating.seats[seat] == "a" else 2
            searched[at] += 1
            searched[at + 1] += last[0][2]
        if move in moves:
            state.push(move)
        else:  # an equal move the bot built itself; check it
            state.play(move)
        decisions += 1
    assert state.result is not None
    return Hand(seating.a_side, state.result.totals, decisions, (searched[0], searched[1], searched[2], searched[3]),
                (tuple(times[0]), tuple(times[1])))


def play_deal(a: BotSpec, b: BotSpec, rules: Rules, seed: int, index: int,
              watch: Watch | None = None) -> tuple[Hand, ...]:
    """Deal ``index``: the same deck and dealer once per replay."""
    deck = deal_deck(rules, seed, index)
    dealer = index % rules.players
    return tuple(play_hand(a, b, rules, s, deck, dealer, (seed, index), watch=watch) for s in seatings(rules))


def play_match(a: BotSpec, b: BotSpec, rules: Rules, seed: int, index: int) -> tuple[MatchPlay, ...]:
    """Duplicate match ``index``: hands to the target, once per replay, hand ``j`` always the same deal."""
    plays = []
    for s in seatings(rules):
        scores = [0] * rules.sides
        hands: list[Hand] = []
        winner: int | None = None
        key = f"{seed}:match{index}"
        for j in range(MAX_MATCH_HANDS):
            sitting_out = 2 * (j % 3) if rules.sit_out else None  # as Match: side 0's seats in turn
            hand = play_hand(a, b, rules, s, deal_deck(rules, key, j), j % rules.players, (key, j),
                             scores, sitting_out)
            hands.append(hand)
            scores = [x + t for x, t in zip(scores, hand.totals)]
            winner = match_winner(scores, rules.target)
            if winner is not None:
                break
        who = None if winner is None else "a" if winner == s.a_side else "b"
        plays.append(MatchPlay(tuple(hands), who))
    return tuple(plays)


def play_chunk(kind: str, a: BotSpec, b: BotSpec, rules: Rules, seed: int, start: int, stop: int) -> list[Any]:
    """Deals (``kind="deals"``) or duplicate matches ``start`` to ``stop - 1``, in order."""
    play = play_deal if kind == "deals" else play_match
    return [play(a, b, rules, seed, i) for i in range(start, stop)]


# -- the report ------------------------------------------------------------------------------


def decision_ms(times: Sequence[float]) -> dict[str, float]:
    """The median and 95th percentile of decision times, in milliseconds (wall-clock)."""
    if not times:
        return {"median": 0.0, "p95": 0.0}
    return {"median": round(statistics.median(times) * 1000, 3), "p95": round(percentile(times, 95) * 1000, 3)}


def deal_winner(hands: Sequence[Hand]) -> str | None:
    """The bot ahead over a deal's replays (its point differences summed), None for a tie."""
    total = sum(h.diff for h in hands)
    return "a" if total > 0 else "b" if total < 0 else None


def summarize(a: str, b: str, rules: Rules, seed: int, kind: str, results: Sequence[Any],
              seconds: float) -> dict[str, Any]:
    """The report: per-hand point difference, hands, deals or matches won, decision times."""
    units: list[tuple[float, int]] = []
    hands: list[Hand] = []
    plays: list[MatchPlay] = []
    for result in results:
        unit = list(result) if kind == "deals" else [h for p in result for h in p.hands]
        if kind == "matches":
            plays.extend(result)
        hands.extend(unit)
        units.append((sum(h.diff for h in unit), len(unit)))
    mean, ci = mean_ci(units)
    decisions = sum(h.decisions for h in hands)
    winners = [h.winner for h in hands]
    report: dict[str, Any] = {
        "a": a, "b": b, "preset": rules.preset, "rules": rules.to_json(), "seed": seed,
        "replays": rules.sides,
    }
    if kind == "deals":
        report["deals"] = len(results)
    report |= {
        "hands": len(hands),
        "point_diff_mean": round(mean, 2),
        "point_diff_ci95": None if ci is None else [round(ci[0], 2), round(ci[1], 2)],
        "hands_won_a": winners.count("a"),
        "hands_won_b": winners.count("b"),
        "hands_tied": winners.count(None),
        "decisions": decisions,
        "seconds": round(seconds, 3),
        "decisions_per_s": round(decisions / seconds) if seconds > 0 else 0,
        "decision_ms": {who: decision_ms([t for h in hands for t in h.times[at]]) for at, who in enumerate("ab")},
    }
    for who, at in (("a", 0), ("b", 2)):
        moves = sum(h.searched[at] for h in hands)
        if moves:
            report[f"{who}_searched_moves"] = moves
            report[f"{who}_samples_per_move"] = round(sum(h.searched[at + 1] for h in hands) / moves, 1)
    if kind == "deals":
        won = [deal_winner(result) for result in results]
        report |= {
            "deals_won_a": won.count("a"),
            "deals_won_b": won.count("b"),
            "deals_tied": won.count(None),
            "deal_win_rate_a": round((won.count("a") + won.count(None) / 2) / len(won), 4),
            "deal_win_rate_ci95": list(wilson(won.count("a") + won.count(None) / 2, len(won))),
        }
    else:
        won = [p.winner for p in plays]
        report |= {
            "matches": len(results),
            "matches_played": len(plays),
            "matches_won_a": won.count("a"),
            "matches_won_b": won.count("b"),
            "matches_undecided": won.count(None),
            "match_win_rate_a": round(won.count("a") / len(plays), 4),
            "match_win_rate_ci95": list(wilson(won.count("a"), len(plays))),
        }
    return report


# -- running ---------------------------------------------------------------------------------


Progress = Callable[[int, int], None]
Job = tuple[str, BotSpec, BotSpec, Rules, int, int, int]
"""Units ``start`` to ``stop - 1`` of one pair: (``"deals"`` or ``"matches"``, A, B, rules, seed, start, stop)."""


def progress_bar(done: int, total: int, unit: str = "deals", width: int = 30) -> None:
    """A plain-text progress bar on standard error, redrawn in place with ``\\r``."""
    filled = width * done // total
    print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {unit}", end="", file=sys.stderr,
          flush=True)
    if done == total:
        print("\r" + " " * (width + 2 * len(str(total)) + len(unit) + 5) + "\r", end="", file=sys.stderr,
              flush=True)


def chunks(n: int, workers: int) -> list[tuple[int, int]]:
    """Split ``range(n)`` into consecutive chunks, a few per worker (one unit each on one worker)."""
    return spans(range(n), workers)


def spans(units: Sequence[int], workers: int) -> list[tuple[int, int]]:
    """Split rising unit numbers into chunks of consecutive ones, a few per worker (one unit each on one worker).

    >>> spans([0, 1, 2, 3, 4, 7, 8], 2)
    [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (7, 8), (8, 9)]
    >>> spans([0, 1, 2, 3, 4, 7, 8, 9, 10], 1), spans([0, 1, 2, 3, 4, 7, 8, 9, 10], 2)[:2]
    ([(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (7, 8), (8, 9), (9, 10), (10, 11)], [(0, 2), (2, 4)])
    """
    size = 1 if workers == 1 else max(1, math.ceil(len(units) / (workers * 4)))
    out: list[tuple[int, int]] = []
    for unit in units:
        lo, hi = out[-1] if out else (-1, -1)
        if unit == hi and hi - lo < size:
            out[-1] = (lo, hi + 1)
        else:
            out.append((unit, unit + 1))
    return out


def check_bot(spec: BotSpec) -> None:
    """An :class:`ArenaError` for a name no bot answers to (or a bad option after it)."""
    if isinstance(spec, str):
        try:
            make_bot(spec, random.Random(0), files=True)
        except ValueError as exc:
            raise ArenaError(str(exc)) from None


def check_run(specs: Sequence[BotSpec], workers: int, backend: str, address: str | None) -> None:
    """An :class:`ArenaError` for bots, workers or a backend that cannot run."""
    for spec in specs:
        check_bot(spec)
    if workers <= 0:
        raise ArenaError(f"--workers must be positive, not {workers}")
    if backend not in BACKENDS:
        raise ArenaError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if address is not None and backend != "ray":
        raise ArenaError("--address goes with --backend ray")
    if (workers > 1 or backend == "ray") and not all(isinstance(s, str) for s in specs):
        raise ArenaError("a bot given as a function plays on one worker only: name it to use more")


def run_jobs(jobs: Sequence[Job], workers: int = 1, backend: str = "local", address: str | None = None,
             progress: Progress | None = None,
             record: Callable[[int, list[Any]], None] | None = None) -> tuple[list[list[Any]], float]:
    """Every job's units in order, played here, in processes or on Ray, and the seconds of play; ``record``
    hears each job's number and units as soon as they are played (a chunk at a time, in any order)."""
    results: list[list[Any] | None] = [None] * len(jobs)
    total = sum(job[6] - job[5] for job in jobs)
    done = 0

    def finished(index: int, chunk: list[Any]) -> None:
        nonlocal done
        results[index] = chunk
        done += len(chunk)
        if record is not None:
            record(index, chunk)
        if progress is not None:
            progress(done, total)

    if backend == "ray":
        seconds = _run_ray(jobs, workers, address, finished)
    else:
        seconds = _run_local(jobs, workers, finished)
    assert all(r is not None for r in results)
    return [r for r in results if r is not None], seconds


Pair = tuple[BotSpec, BotSpec, int]
"""One pair's share of a run: A, B and how many units (deals or matches ``0`` to ``n - 1``) they play."""
Log = Callable[[str], None]
"""Where a progress line goes (standard error, for a log file)."""


def journal_header(a: BotSpec, b: BotSpec, rules: Rules, seed: int, kind: str) -> dict[str, Any]:
    """What a journal's first line names: a unit recorded under it is the same whenever it is played."""
    return {"a": spec_name(a), "b": spec_name(b), "rules": rules.to_json(), "seed": seed, "kind": kind}


def run_pairs(kind: str, pairs: Sequence[Pair], rules: Rules, seed: int, workers: int = 1, backend: str = "local",
              address: str | None = None, progress: Progress | None = None,
              journals: Sequence[str | os.PathLike[str] | None] | None = None, log: Log | None = None,
              name: str = "arena") -> tuple[list[list[Any]], float]:
    """Every pair's units in order and the seconds of play (the journals' earlier time included).

    The units a pair's journal holds are read back; the others are played through :func:`run_jobs` (the
    longest pairs first) and appended to it as they finish.  ``log`` gets a line at every tenth of the
    units (``arena: 50/500 deals, +87.2 points/hand so far``; the mean with one pair only)."""
    with ExitStack() as stack:
        books = [None if path is None else stack.enter_context(
            open_journal(path, journal_header(a, b, rules, seed, kind), partial(unit_from_json, kind), ArenaError))
            for (a, b, _), path in zip(pairs, journals or [None] * len(pairs))]
        results: list[dict[int, Any]] = [{} for _ in pairs]
        earlier = 0.0
        for (_, _, n), book, known in zip(pairs, books, results):
            for index, (result, seconds) in (book.units if book is not None else {}).items():
                if index < n:
                    known[index] = result
                    earlier += seconds
        jobs: list[Job] = []
        owner: list[int] = []
        for p in sorted(range(len(pairs)), key=lambda p: -pairs[p][2]):  # the long pairs start first
            a, b, n = pairs[p]
            missing = [i for i in range(n) if i not in results[p]]
            for lo, hi in spans(missing, max(2, workers) if backend == "ray" else workers):
                jobs.append((kind, a, b, rules, seed, lo, hi))
                owner.append(p)
        total = sum(n for _, _, n in pairs)
        before = sum(len(known) for known in results)
        tally = _Tally(name, kind, total, log, len(pairs))
        tally.read_back([result for known in results for result in known.values()])
        last = time.perf_counter()

        def record(job: int, chunk: list[Any]) -> None:
            nonlocal last
            now = time.perf_counter()
            p, lo = owner[job], jobs[job][5]
            book = books[p]
            for offset, result in enumerate(chunk):
                results[p][lo + offset] = result
                if book is not None:
                    book.append(lo + offset, unit_to_json(result), now - last if offset == 0 else 0.0)
            last = now
            tally.add(chunk)

        seconds = 0.0
        if jobs:
            seconds = run_jobs(jobs, workers, backend, address,
                               None if progress is None else lambda done, _: progress(before + done, total),
                               record)[1]
    return [[known[i] for i in range(n)] for (_, _, n), known in zip(pairs, results)], earlier + seconds


class _Tally:
    """The units finished so far, told to a log at every tenth of them."""

    def __init__(self, name: str, kind: str, total: int, log: Log | None, pairs: int) -> None:
        self.name, self.kind, self.total, self.log = name, kind, total, log
        self.unit = kind if pairs == 1 else f"pair-{kind}"
        self.with_mean = pairs == 1  # a mean over several pairs means nothing
        self.done = self.tenths = self.hands = 0
        self.points = 0.0

    def read_back(self, units: Sequence[Any]) -> None:
        """The units a journal held: one line saying how many."""
        self._count(units)
        if self.log is not None and units:
            self.log(self._line(" read back from the journal"))

    def add(self, units: Sequence[Any]) -> None:
        """Units just played: a line when they pass a tenth of the total."""
        tenths = self.tenths
        self._count(units)
        if self.log is not None and self.tenths > tenths:
            self.log(self._line())

    def _count(self, units: Sequence[Any]) -> None:
        for result in units:
            hands = list(result) if self.kind == "deals" else [h for p in result for h in p.hands]
            self.points += sum(h.diff for h in hands)
            self.hands += len(hands)
        self.done += len(units)
        self.tenths = 10 * self.done // self.total

    def _line(self, what: str = "") -> str:
        mean = f", {self.points / self.hands:+.1f} points/hand so far" if self.with_mean and self.hands else ""
        return f"{self.name}: {self.done}/{self.total} {self.unit}{what}{mean}"


def run_arena(
    a: BotSpec,
    b: BotSpec,
    rules: Rules,
    seed: int,
    deals: int | None = None,
    matches: int | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    journal: str | os.PathLike[str] | None = None,
    log: Log | None = None,
) -> dict[str, Any]:
    """Play the arena and return its report (see :func:`summarize`); with a ``journal`` file, every finished
    unit is appended to it and the units it already holds are not played again (see :func:`run_pairs`)."""
    check_run([a, b], workers, backend, address)
    if deals is not None and matches is not None:
        raise ArenaError("give --deals or --matches, not both")
    kind = "matches" if matches is not None else "deals"
    n = matches if matches is not None else deals if deals is not None else 100
    if n <= 0:
        raise ArenaError(f"--{kind} must be positive, not {n}")
    (combined,), seconds = run_pairs(kind, [(a, b, n)], rules, seed, workers, backend, address, progress,
                                     [journal], log)
    assert len(combined) == n
    return summarize(spec_name(a), spec_name(b), rules, seed, kind, combined, seconds)


def run_calls(play: Callable[..., list[Any]], calls: Sequence[tuple[Any, ...]], workers: int = 1,
              backend: str = "local", address: str | None = None,
              finished: Callable[[int, list[Any]], None] = lambda index, chunk: None) -> float:
    """Call ``play(*args)`` for every ``args`` of ``calls`` here, in processes or on Ray (as :func:`run_jobs`
    plays the arena's jobs); ``finished`` hears each call's number and list as soon as it ends.  The seconds."""
    if backend == "ray":
        return _run_ray(calls, workers, address, finished, play)
    return _run_local(calls, workers, finished, play)


def _run_local(jobs: Sequence[tuple[Any, ...]], workers: int, finished: Callable[[int, list[Any]], None],
               play: Callable[..., list[Any]] = play_chunk) -> float:
    """Play the jobs here (one worker) or in a pool of processes; the seconds of play."""
    start = time.perf_counter()
    if workers == 1:
        for index, job in enumerate(jobs):
            finished(index, play(*job))
        return time.perf_counter() - start
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures: dict[Future[list[Any]], int] = {pool.submit(play, *job): index for index, job in enumerate(jobs)}
        pending = set(futures)
        while pending:
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in ready:
                finished(futures[future], future.result())
    return time.perf_counter() - start


def _run_ray(jobs: Sequence[tuple[Any, ...]], workers: int, address: str | None,
             finished: Callable[[int, list[Any]], None], play: Callable[..., list[Any]] = play_chunk) -> float:
    """Play the jobs as Ray tasks on the cluster at ``address`` or a local instance; the seconds of play."""
    try:
        import ray
    except ImportError:
        raise ArenaError("the ray backend needs: pip install canasta[ray]") from None
    started = False
    if not ray.is_initialized():
        try:
            if address is not None:
                ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
            else:
                ray.init(num_cpus=max(2, workers), include_dashboard=False, logging_level=logging.WARNING,
                         log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            where = f"at {address}" if address is not None else "locally"
            raise ArenaError(f"cannot start Ray {where}: {str(exc).splitlines()[0] if str(exc) else exc!r}") from None
        started = True
    try:
        start = time.perf_counter()
        task = ray.remote(play)
        refs = {task.remote(*job): index for index, job in enumerate(jobs)}
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                finished(refs[ref], ray.get(ref))
        return time.perf_counter() - start
    finally:
        if started:
            ray.shutdown()
