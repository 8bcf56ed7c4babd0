"""Reviewing a played hand: for each decision of chosen seats, the best move found and the points lost.

``canasta review FILE`` prints it; the browser and the terminal replay call :func:`review_hand`
(or :func:`review_match`) and read plain dataclasses, which :meth:`Review.to_json` writes as JSON
(the notation's cards, seats and hands from 0).

Each decision is judged from the seat's :class:`~canasta.views.View` at that moment, as the search
bot judges its own (:mod:`canasta.bots.search`): the hidden cards are dealt anew
(:class:`canasta.resample.Resampler`, weighted by :class:`canasta.bots.belief.Belief`), never from the
hands the record reveals; a worker gets the view, never the state.  The candidates are the move
played, the moves the search weighs (:meth:`SearchBot.candidates_of <canasta.bots.search.SearchBot.candidates_of>`:
the expert's choice and the alternatives that decide a hand, so the search's own choice is among
them) and, up to :attr:`ReviewSettings.candidates`, the expert's next best.  In each sampled deal every
candidate is played and the hand played out by the expert for every seat with the same random seed
(common random numbers), so candidates are compared deal by deal.  A move's value is the side's hand
result less the best other side's, in points.

The best of several noisy means is biased upward, and would pass noise off as a loss; so a decision
takes two rounds of deals.  A screening round (a quarter of the budget's deals) plays every candidate
and keeps the best other than the move played, the *challenger*; a measuring round of fresh deals
(``rollouts`` of them) plays the move played and the challenger.  The **expected points lost** (EPL)
is the challenger's mean gain over the move played in the measuring round, with a 95% interval from
the paired differences, or 0 when the move played did as well (then it is the best found, and the
interval's top says how much better the challenger could still be).  When the challenger scored the
same as the move played in every screening deal, as melds laid in another order do, the measuring
round is skipped.  A move differing from the move played only in suits is the same choice.  A forced
decision (one legal move) is not scored.  Each decision seeds its deals from the review's seed, the
hand and the move's number, so the same record, seed and budget give the same review, in one process
or many.  Labels: :data:`THRESHOLDS`; the figures behind them: docs/review.md.

>>> from canasta.match import Match
>>> match = Match(seed=4)
>>> _ = [match.play(m) for m in ("draw", "discard 4S")]
>>> review = review_hand(match, 0, [1], ReviewSettings(rollouts=4))
>>> [(d.index, d.seat, d.played, d.label in LABELS) for d in review.decisions]
[(1, 1, 'discard 4S', True)]
>>> review.seats[0].forced, review.seats[0].decisions
(1, 1)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..cards import KIND, parse_card
from ..errors import CanastaError
from ..match import Match
from ..moves import Move
from ..views import View
from .arena import ArenaError, run_calls
from .search import Budget, SearchBot

LABELS: Final = ("best", "good", "inaccuracy", "mistake", "blunder")
"""The labels of a decision, from the best move to the worst mistakes."""
THRESHOLDS: Final = (("good", 0.0), ("inaccuracy", 50.0), ("mistake", 100.0), ("blunder", 200.0))
"""Each label and the points lost from which it starts (a loss of 0 is ``best``, any loss above it ``good``);
``mistake`` and ``blunder`` also need a 95% interval above zero, or the label stays ``inaccuracy``.  Chosen from
the distribution that ``benchmarks/review_thresholds.py`` measured at the default budget (docs/review.md): 50 is
twice the spread of one decision's loss between two seeds (25 points), so a move as good as the best rarely
reads worse than ``good``; 100 is about the 95th percentile of every decision's loss, 200 the 98th."""
SURE: Final = ("mistake", "blunder")
"""The labels that need the loss's interval above zero."""
RATING_SCALE: Final = 0.2
"""The performance rating is the mean points lost per scored decision times this: in fives, the lowest card's
value (docs/review.md)."""

DEFAULT_ROLLOUTS: Final = 200
"""Sampled deals per decision unless told: a classic hand reviewed for one seat in under 30 s, compiled."""
CANDIDATES: Final = 5
"""Moves weighed per decision (the move played among them) unless told."""
Z95: Final = 1.96
"""Standard errors on either side of a mean for its 95% interval."""

Progress = Callable[[int, int], None]
"""Told the decisions reviewed so far and how many there are."""
BACKENDS: Final = ("local", "ray")


class ReviewError(CanastaError):
    """A review that cannot run: a seat or hand not in the match, a bad budget, a missing backend."""


@dataclass(frozen=True)
class ReviewSettings:
    """The budget of each decision: ``rollouts`` sampled deals (every candidate played in each), or
    ``seconds`` of them; ``candidates`` moves weighed; ``seed`` of every deal; ``weighted`` deals
    weighted by what the table showed (:mod:`canasta.bots.belief`)."""

    rollouts: int | None = DEFAULT_ROLLOUTS
    seconds: float | None = None
    candidates: int = CANDIDATES
    seed: int = 0
    weighted: bool = True

    def __post_init__(self) -> None:
        if (self.rollouts is None) == (self.seconds is None):
            raise ReviewError("a review's budget is a number of rollouts or a time per decision, one of the two")
        if self.rollouts is not None and self.rollouts < 2:
            raise ReviewError(f"a review needs at least 2 rollouts a decision, not {self.rollouts}")
        if self.seconds is not None and not self.seconds > 0:
            raise ReviewError(f"a review's time per decision is positive, not {self.seconds}")
        if not 2 <= self.candidates <= 12:
            raise ReviewError(f"a review weighs 2 to 12 moves a decision, not {self.candidates}")

    def to_json(self) -> dict[str, Any]:
        return {"rollouts": self.rollouts, "seconds": self.seconds, "candidates": self.candidates,
                "seed": self.seed, "weighted": self.weighted}


@dataclass(frozen=True)
class Candidate:
    """A move weighed at a decision and its value: the side's mean hand result over the best other side's."""

    move: str
    value: float

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "value": round(self.value, 1)}


@dataclass(frozen=True)
class Decision:
    """One scored decision: hand and move number (from 0, as in the record), the seat, the phase, the move
    played, the best found, the points lost with its 95% interval (``low``, ``high``; None when too few
    deals to tell), the label, the deals the loss was measured on, and every candidate's value in the
    screening round, best first (in the measuring round when only two moves were weighed)."""

    hand: int
    index: int
    seat: int
    phase: str
    played: str
    best: str
    loss: float
    low: float | None
    high: float | None
    label: str
    deals: int
    candidates: tuple[Candidate, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "index": self.index, "seat": self.seat, "phase": self.phase,
                "played": self.played, "best": self.best, "loss": round(self.loss, 1),
                "low": None if self.low is None else round(self.low, 1),
                "high": None if self.high is None else round(self.high, 1),
                "label": self.label, "deals": self.deals,
                "candidates": [c.to_json() for c in self.candidates]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        return cls(hand=int(data["hand"]), index=int(data["index"]), seat=int(data["seat"]),
                   phase=str(data.get("phase", "")), played=str(data["played"]), best=str(data["best"]),
                   loss=float(data["loss"]), low=_number(data.get("low")), high=_number(data.get("high")),
                   label=str(data["label"]), deals=int(data.get("deals", 0)),
                   candidates=tuple(Candidate(str(c["move"]), float(c["value"]))
                                    for c in data.get("candidates", ())))


def _number(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]


@dataclass(frozen=True)
class SeatReview:
    """One seat's summary: scored and forced decisions, points lost in all and per scored decision, the
    performance rating, the count of each label, the loss per hand (hand, decisions, loss) and the
    costliest decisions (at most three, the costliest first)."""

    seat: int
    decisions: int
    forced: int
    total_loss: float
    mean_loss: float
    rating: float
    counts: dict[str, int]
    hands: tuple[tuple[int, int, float], ...]
    costliest: tuple[Decision, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "forced": self.forced,
                "mean_loss": round(self.mean_loss, 2), "total_loss": round(self.total_loss, 1),
                "rating": round(self.rating, 2), **{label: self.counts.get(label, 0) for label in LABELS},
                "hands": [{"hand": h, "decisions": n, "total_loss": round(loss, 1)} for h, n, loss in self.hands],
                "costliest": [{"hand": d.hand, "index": d.index, "played": d.played, "best": d.best,
                               "loss": round(d.loss, 1), "label": d.label} for d in self.costliest]}

    @classmethod
    def from_json(cls, data: dict[str, Any], decisions: Sequence[Decision] = ()) -> SeatReview:
        """The summary :meth:`to_json` wrote; its costliest decisions are found among ``decisions``."""
        found = {(d.hand, d.index): d for d in decisions}
        return cls(seat=int(data["seat"]), decisions=int(data["decisions"]), forced=int(data.get("forced", 0)),
                   total_loss=float(data["total_loss"]), mean_loss=float(data["mean_loss"]),
                   rating=float(data["rating"]), counts={label: int(data.get(label, 0)) for label in LABELS},
                   hands=tuple((int(h["hand"]), int(h["decisions"]), float(h["total_loss"]))
                               for h in data.get("hands", ())),
                   costliest=tuple(found[key] for c in data.get("costliest", ())
                                   if (key := (int(c["hand"]), int(c["index"]))) in found))


@dataclass(frozen=True)
class Review:
    """A review: the game, the players, the hands and seats reviewed, the settings, a summary per seat,
    every scored decision in the order played, and the seconds it took."""

    preset: str
    players: tuple[str, ...]
    hands: tuple[int, ...]
    settings: ReviewSettings
    seats: tuple[SeatReview, ...]
    decisions: tuple[Decision, ...]
    seconds: float = 0.0
    thresholds: tuple[tuple[str, float], ...] = field(default=THRESHOLDS)

    def to_json(self) -> dict[str, Any]:
        """The review as JSON-ready data: cards in the notation, seats and hands from 0."""
        return {"preset": self.preset, "players": list(self.players), "hands": list(self.hands),
                "settings": self.settings.to_json(), "thresholds": dict(self.thresholds),
                "rating_scale": RATING_SCALE, "seconds": round(self.seconds, 2),
                "seats": [s.to_json() for s in self.seats], "decisions": [d.to_json() for d in self.decisions]}

    @classmethod
    def from_json(cls, data: object) -> Review:
        """The review :meth:`to_json` wrote (``canasta review --json``); :class:`ReviewError` in one line if not one."""
        if not isinstance(data, dict):
            raise ReviewError("not a review written by canasta review --json (not a JSON object)")
        try:
            decisions = tuple(Decision.from_json(d) for d in data["decisions"])
            given = data.get("settings") or {}
            settings = ReviewSettings(rollouts=given.get("rollouts"), seconds=given.get("seconds"),
                                      candidates=int(given.get("candidates", CANDIDATES)),
                                      seed=int(given.get("seed", 0)), weighted=bool(given.get("weighted", True)))
            return cls(preset=str(data["preset"]), players=tuple(str(p) for p in data["players"]),
                       hands=tuple(int(h) for h in data["hands"]), settings=settings,
                       seats=tuple(SeatReview.from_json(s, decisions) for s in data["seats"]),
                       decisions=decisions, seconds=float(data.get("seconds", 0.0)))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            why = f"no {exc}" if isinstance(exc, KeyError) else str(exc) or type(exc).__name__
            raise ReviewError(f"not a review written by canasta review --json ({why})") from None


# -- one decision ---------------------------------------------------------------------------------


def label_of(loss: float, low: float | None = 1.0) -> str:
    """The label of a decision that lost ``loss`` points, ``low`` the bottom of its interval (:data:`THRESHOLDS`).

    >>> [label_of(x) for x in (0.0, 3.0, 50.0, 120.0, 250.0)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder']
    >>> label_of(250.0, low=-10.0), label_of(250.0, low=None)
    ('inaccuracy', 'inaccuracy')
    """
    label = "best"
    for name, start in THRESHOLDS:
        if loss > start or (start > 0.0 and loss >= start):
            label = name
    if label in SURE and (low is None or low <= 0.0):
        return "inaccuracy"
    return label


def move_key(move: Move) -> tuple[object, ...]:
    """A move by card kinds: moves that differ only in suits are one choice.

    >>> move_key(Move.parse("discard 7H")) == move_key(Move.parse("discard 7C"))
    True
    >>> move_key(Move.parse("meld KS KD 2C")) == move_key(Move.parse("meld KH KC JK"))
    False
    """
    if move.card is not None:
        return move.action, KIND[move.card]
    return move.action, tuple(sorted((g.rank, tuple(sorted(KIND[c] for c in g.cards))) for g in move.groups))


def candidates_for(view: View, moves: Sequence[Move], played: Move, count: int) -> list[Move]:
    """The moves weighed at a decision, the move played first: the search's candidates (the expert's choice
    and the alternatives that decide a hand), then the expert's next best, ``count`` in all."""
    search = SearchBot(random.Random(0), Budget(None, 1), candidates=count)
    chosen = [played]
    keys = {move_key(played)}
    ranked = [m for m, _, _ in search.expert.ranked(view, moves)]
    for move in [*search.candidates_of(view, moves), *ranked]:
        if len(chosen) >= count:
            break
        key = move_key(move)
        if key not in keys:
            keys.add(key)
            chosen.append(move)
    return chosen


def review_decision(view: View, moves: Sequence[Move], played: Move, settings: ReviewSettings,
                    hand: int = 0, index: int = 0) -> Decision:
    """Judge one decision from the seat's view: ``moves`` are the legal moves (two or more), ``played`` the
    move made; the deals are seeded by the settings' seed, ``hand`` and ``index``.

    Two rounds of deals, so that the best of several noisy means does not pass for a loss: the
    candidates are screened on :func:`screen_rounds` deals and the best other than the move played (the
    challenger) is kept; then the move played and the challenger are played in ``settings.rollouts``
    fresh deals, and their paired difference is the loss (0 when the move played did as well)."""
    kept = candidates_for(view, moves, played, settings.candidates)
    rng = random.Random(f"{settings.seed}:review:{hand}:{index}")
    search = SearchBot(random.Random(rng.randrange(2**31)), Budget(settings.seconds, settings.rollouts),
                       candidates=settings.candidates, weighted=settings.weighted)
    screened: list[float] | None = None
    challenger = 1
    screen_seed, seed = rng.randrange(2**31), rng.randrange(2**31)
    if len(kept) > 2:
        seconds = None if settings.seconds is None else settings.seconds * SCREEN_SHARE
        rounds = search.run_rounds(view, kept, screen_seed, screen_rounds(settings), seconds)
        screened = _means(rounds, len(kept))
        if not screened:
            raise ReviewError(f"hand {hand + 1}, move {index + 1}: no deal of the hidden cards fits the view")
        challenger = max(range(1, len(kept)), key=lambda i: (screened[i], -i))
        if all(row[challenger] == row[0] for _, row in rounds):  # the same result in every deal: a transposition
            order = sorted(range(len(kept)), key=lambda i: -screened[i])
            return Decision(hand=hand, index=index, seat=view.seat, phase=str(view.phase), played=str(played),
                            best=str(played), loss=0.0, low=0.0, high=0.0, label="best", deals=len(rounds),
                            candidates=tuple(Candidate(str(kept[i]), screened[i]) for i in order))
    seconds = None if settings.seconds is None else settings.seconds * (1.0 - SCREEN_SHARE if screened else 1.0)
    pair = [played, kept[challenger]]
    rounds = search.run_rounds(view, pair, seed, settings.rollouts, seconds)
    means = _means(rounds, 2)
    if not means:
        raise ReviewError(f"hand {hand + 1}, move {index + 1}: no deal of the hidden cards fits the view")
    gain = means[1] - means[0]
    bounds = _interval(rounds, gain)
    if gain > 0.0:
        best, loss = kept[challenger], gain
        low, high = (None, None) if bounds is None else bounds
    else:  # the move played did as well as the challenger: lost nothing, by at most the interval's top
        best, loss = played, 0.0
        low, high = (None, None) if bounds is None else (0.0, max(0.0, bounds[1]))
    values = screened if screened is not None else means
    order = sorted(range(len(values)), key=lambda i: -values[i])
    return Decision(hand=hand, index=index, seat=view.seat, phase=str(view.phase), played=str(played),
                    best=str(best), loss=loss, low=low, high=high, label=label_of(loss, low), deals=len(rounds),
                    candidates=tuple(Candidate(str(kept[i]), values[i]) for i in order))


def screen_rounds(settings: ReviewSettings) -> int | None:
    """Deals of the screening round: a quarter of the measuring round's, 8 at least (None: by time)."""
    return None if settings.rollouts is None else max(8, settings.rollouts // 4)


SCREEN_SHARE: Final = 0.3
"""The share of a decision's time spent screening its candidates, with a time budget."""


def _means(rounds: list[tuple[float, list[float]]], count: int) -> list[float]:
    """Each candidate's weighted mean over the rounds (empty when no round has weight)."""
    total = sum(w for w, _ in rounds)
    if total <= 0.0:
        return []
    return [sum(w * row[i] for w, row in rounds) / total for i in range(count)]


def _interval(rounds: list[tuple[float, list[float]]], gain: float) -> tuple[float, float] | None:
    """The 95% interval of the second move's gain over the first, from the paired (weighted) differences,
    the error counted with the effective number of deals; None with fewer than two of them."""
    weights = [w for w, _ in rounds]
    total = sum(weights)
    effective = total * total / sum(w * w for w in weights)
    if effective <= 1.0 + 1e-9:
        return None
    var = sum(w * (row[1] - row[0] - gain) ** 2 for w, row in rounds) / total
    spread = Z95 * math.sqrt(var / (effective - 1.0))
    return gain - spread, gain + spread


# -- a match --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """One decision to judge: where it is, the seat's view, the legal moves and the move played."""

    hand: int
    index: int
    view: View
    moves: tuple[Move, ...]
    played: Move
    settings: ReviewSettings


def run_task(task: Task) -> Decision:
    """Judge one decision (in this process or a worker: a task carries the seat's view, never the state)."""
    try:
        return review_decision(task.view, task.moves, task.played, task.settings, task.hand, task.index)
    except ReviewError:
        raise
    except CanastaError as exc:  # no deal of the hidden cards fits the view (should not happen)
        raise ReviewError(f"hand {task.hand + 1}, move {task.index + 1}: {exc}") from None


def decision_tasks(match: Match, seats: Collection[int], hands: Collection[int],
                   settings: ReviewSettings) -> tuple[list[Task], dict[tuple[int, int], int]]:
    """The decisions of ``seats`` in ``hands`` with two or more legal moves, and the forced ones per (seat, hand)."""
    replay = Match(match.rules, match.players, seed=match.seed, dealer=match.hands[0]["dealer"],
                   scores=match.start_scores, deal=False, seeding=match.seeding)
    tasks: list[Task] = []
    forced: dict[tuple[int, int], int] = {}
    if not hands or not seats:
        return tasks, forced
    for number, hand in enumerate(match.hands):
        if number > max(hands):
            break
        replay.new_hand([parse_card(c) for c in hand["deck"]])
        for index, text in enumerate(hand["moves"]):
            state = replay.state
            seat = state.to_act
            if number in hands and seat in seats:
                moves = tuple(state.legal_moves())
                if len(moves) > 1:
                    tasks.append(Task(number, index, state.view(seat), moves, Move.parse(text), settings))
                else:
                    forced[seat, number] = forced.get((seat, number), 0) + 1
            replay.play(text)
    return tasks, forced


def review_match(match: Match, seats: Collection[int] | None = None, hands: Collection[int] | None = None,
                 settings: ReviewSettings | None = None, *, workers: int = 1, backend: str = "local",
                 address: str | None = None, progress: Progress | None = None) -> Review:
    """Review the decisions of ``seats`` (default every seat) in ``hands`` (numbers from 0, default every
    hand) of a match with its decks (a game record's, or one being played); in processes or on Ray."""
    settings = settings if settings is not None else ReviewSettings()
    players = match.rules.players
    seats = sorted(set(range(players) if seats is None else seats))
    hands = sorted(set(range(len(match.hands)) if hands is None else hands))
    for seat in seats:
        if not 0 <= seat < players:
            raise ReviewError(f"seat {seat + 1} is not at this table (seats 1 to {players})")
    for number in hands:
        if not 0 <= number < len(match.hands):
            raise ReviewError(f"hand {number + 1} is not in the match (hands 1 to {len(match.hands)})")
    if not seats or not hands:
        raise ReviewError("nothing to review: no seat or no hand")
    if workers < 1:
        raise ReviewError(f"a review runs in 1 process or more, not {workers}")
    if backend not in BACKENDS:
        raise ReviewError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    started = time.perf_counter()
    tasks, forced = decision_tasks(match, seats, hands, settings)
    decisions = run_tasks(tasks, workers, backend, address, progress)
    return Review(preset=match.rules.preset, players=tuple(match.players), hands=tuple(hands), settings=settings,
                  seats=tuple(summarize(seat, hands, decisions, forced) for seat in seats),
                  decisions=tuple(decisions), seconds=time.perf_counter() - started)


def review_hand(match: Match, hand: int, seats: Collection[int] | None = None,
                settings: ReviewSettings | None = None, *, workers: int = 1, backend: str = "local",
                address: str | None = None, progress: Progress | None = None) -> Review:
    """Review one hand (its number from 0) of a match for ``seats`` (default every seat): :func:`review_match`."""
    return review_match(match, seats, [hand], settings, workers=workers, backend=backend, address=address,
                        progress=progress)


def summarize(seat: int, hands: Sequence[int], decisions: Sequence[Decision],
              forced: dict[tuple[int, int], int]) -> SeatReview:
    """One seat's summary of its scored decisions (:class:`SeatReview`)."""
    own = [d for d in decisions if d.seat == seat]
    total = sum(d.loss for d in own)
    mean = total / len(own) if own else 0.0
    counts = {label: sum(1 for d in own if d.label == label) for label in LABELS}
    per_hand = tuple((h, sum(1 for d in own if d.hand == h), sum(d.loss for d in own if d.hand == h))
                     for h in hands)
    costly = sorted((d for d in own if d.loss > 0.0), key=lambda d: (-d.loss, d.hand, d.index))[:3]
    return SeatReview(seat=seat, decisions=len(own), forced=sum(n for (s, _), n in forced.items() if s == seat),
                      total_loss=total, mean_loss=mean, rating=RATING_SCALE * mean, counts=counts,
                      hands=per_hand, costliest=tuple(costly))


# -- running the decisions ------------------------------------------------------------------------


def run_tasks(tasks: Sequence[Task], workers: int = 1, backend: str = "local", address: str | None = None,
              progress: Progress | None = None) -> list[Decision]:
    """Judge every task, here, in ``workers`` processes or on Ray; the decisions in the order of the tasks."""
    results: list[Decision | None] = [None] * len(tasks)
    done = 0

    def finished(index: int, decision: Decision) -> None:
        nonlocal done
        results[index] = decision
        done += 1
        if progress is not None:
            progress(done, len(tasks))

    try:  # the arena's runner: here, in processes or on Ray
        run_calls(_judged, [(task,) for task in tasks], min(workers, max(1, len(tasks))), backend, address,
                  lambda index, chunk: finished(index, chunk[0]))
    except ArenaError as exc:  # Ray missing or not started: said as the review's own error
        raise ReviewError(str(exc)) from None
    return [d for d in results if d is not None]


def _judged(task: Task) -> list[Decision]:
    """One task judged, as the list :func:`~.arena.run_calls` hands back."""
    return [run_task(task)]


__all__ = ["CANDIDATES", "DEFAULT_ROLLOUTS", "LABELS", "RATING_SCALE", "SURE", "THRESHOLDS", "Candidate", "Decision",
           "Review", "ReviewError", "ReviewSettings", "SeatReview", "Task", "candidates_for", "decision_tasks",
           "label_of", "move_key", "review_decision", "review_hand", "review_match", "run_task", "run_tasks",
           "summarize"]
