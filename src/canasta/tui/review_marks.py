"""The review in the terminal (``canasta replay FILE --review``, the table's "review this hand"): pure, no Textual.

A :class:`Marks` puts a :class:`~canasta.bots.review.Review` on a :class:`~canasta.tui.replay.Replay`:
each scored decision is marked on the move it made (``✗ blunder −240 (−310 to −170)``), with the
better move in words as a hint says it (:func:`canasta.bots.hints.hint_sentence`, the reason read
from that seat's view only) and the points it would have kept.  A replay that shows one seat's view
marks only that seat's decisions: another seat's better move would name cards of a hidden hand.

>>> MARKS["blunder"][0], points(-240.0), interval(Decision(0, 3, 0, "play", "discard KC", "discard 7H",
...     240.0, 170.0, 310.0, "blunder", 200))
('✗', '−240', ' (−310 to −170)')
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from ..bots.expert import ExpertBot
from ..bots.hints import doing, explain, move_words
from ..bots.review import Decision, Progress, Review, ReviewError, ReviewSettings, move_key, review_match
from ..errors import CanastaError
from ..jsonfile import read_json
from ..moves import Move
from .replay import Frame, Replay
from .session import SessionError
from .table import Line

MARKS: Final[Mapping[str, tuple[str, str]]] = {
    "best": ("✓", "bold green"), "good": ("✓", "green"), "inaccuracy": ("?!", "bold yellow"),
    "mistake": ("?", "bold #ff8700"), "blunder": ("✗", "bold #ff5f5f"),
}
"""Each label's mark and style, as chess marks its moves."""
MARKED: Final = ("inaccuracy", "mistake", "blunder")
"""The labels ``[`` and ``]`` jump between."""
LEGEND: Final = "✓ best or good · ?! inaccuracy · ? mistake · ✗ blunder; points lost, 95% interval in brackets"


def points(value: float) -> str:
    """Points with their sign, a true minus: ``−240``, ``+16``, ``0``."""
    text = f"{value:+.0f}"
    return "0" if text in ("+0", "-0") else text.replace("-", "−")


def interval(d: Decision) -> str:
    """The 95% interval of the points a decision lost, as points (negative: lost), or ''."""
    if d.low is None or d.high is None:
        return ""
    return f" ({points(-d.high)} to {points(-d.low)})"


def mark(d: Decision) -> str:
    """The mark of a decision: ``✗ blunder −240 (−310 to −170)``, ``✓ best``."""
    if d.loss <= 0.0:
        return f"{MARKS[d.label][0]} {d.label}"
    return f"{MARKS[d.label][0]} {d.label} {points(-d.loss)}{interval(d)}"


def plural(n: int, word: str) -> str:
    """``1 mistake``, ``2 inaccuracies``."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def counts_words(decisions: Sequence[Decision]) -> str:
    """How many of each label, worst first: ``1 blunder, 2 inaccuracies, 9 best or good``."""
    said = [plural(sum(1 for d in decisions if d.label == label), label) for label in reversed(MARKED)
            if any(d.label == label for d in decisions)]
    fine = sum(1 for d in decisions if d.label not in MARKED)
    return ", ".join([*said, f"{fine} best or good"] if fine else said) or "no decision scored"


# -- reading a review, and checking it belongs to the record ---------------------------------------------


def load_review(path: str) -> Review:
    """A review written by ``canasta review --json``; :class:`SessionError` in one line naming the file."""
    data = read_json(path, SessionError)
    try:
        return Review.from_json(data)
    except ReviewError as exc:
        raise SessionError(f"{path}: {exc}") from None


def check_review(review: Review, replay: Replay, path: str) -> None:
    """Every decision of ``review`` is a move of the replayed record, by the seat to act; else :class:`SessionError`."""
    rules = replay.match.rules
    other = f"{path} is the review of another record"
    if review.preset != rules.preset:
        raise SessionError(f"{other}: a {review.preset} game, this one is {rules.preset}")
    hands = replay.frames[-1].hand + 1
    for d in review.decisions:
        if not 0 <= d.hand < hands or not 0 <= d.index < replay.moves_in_hand(d.hand):
            raise SessionError(f"{other}: hand {d.hand + 1} has no move {d.index + 1} here")
        frame = replay.frames[replay.hand_start(d.hand) + d.index + 1]
        assert frame.move is not None
        seat, text = frame.move
        try:
            played = str(Move.parse(d.played))
        except CanastaError:
            played = d.played
        if (seat, text) != (d.seat, played):
            raise SessionError(f"{other}: hand {d.hand + 1}, move {d.index + 1} is seat {d.seat + 1}'s "
                               f"{d.played!r} there, seat {seat + 1}'s {text!r} here")


# -- computing one, kept for the next replay ------------------------------------------------------------


def cache_path(record: Mapping[str, Any], seats: Sequence[int], settings: ReviewSettings) -> Path:
    """Where the review of ``seats`` of a record is kept (the per-user data folder's ``reviews``)."""
    from .saves import data_dir

    key = json.dumps({"record": {k: record.get(k) for k in ("rules", "players", "scores", "seed", "hands")},
                      "seats": list(seats), "settings": settings.to_json()}, sort_keys=True, default=str)
    return data_dir() / "reviews" / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.review.json"


def compute_review(record: Mapping[str, Any], replay: Replay, seats: Sequence[int],
                   settings: ReviewSettings | None = None, progress: Progress | None = None,
                   cache: bool = True) -> Review:
    """The review of ``seats`` in every hand of the replay, read from the cache when made before, else made
    (``progress`` told) and kept there (a cache that cannot be written is passed over)."""
    settings = settings if settings is not None else ReviewSettings()
    path = cache_path(record, seats, settings) if cache else None
    if path is not None and path.exists():
        try:
            return Review.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            pass
    review = Review.from_json(review_match(replay.match, seats, None, settings, progress=progress).to_json())
    if path is not None:  # rounded as kept, so that the next replay says the same
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(review.to_json()), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            pass
    return review


# -- the marks on a replay -------------------------------------------------------------------------------


class Marks:
    """A review as a replay shows it: the decisions of the seats shown (``seat``: that seat's only)."""

    def __init__(self, review: Review, replay: Replay, seat: int | None = None) -> None:
        self.review = review
        self.replay = replay
        self.seat = seat
        shown = [d for d in review.decisions if seat is None or d.seat == seat]
        self.decisions = {(d.hand, d.index): d for d in shown}
        self.hidden = [] if seat is None else sorted({d.seat for d in review.decisions} - {seat})
        self.seats = [s for s in review.seats if seat is None or s.seat == seat]
        self._better: dict[tuple[int, int], str] = {}

    def at(self, frame: Frame) -> Decision | None:
        """The decision the frame's move made, if reviewed and shown."""
        return None if frame.move is None else self.decisions.get((frame.hand, frame.index - 1))

    def frame_of(self, d: Decision) -> int:
        """The frame after the decision's move (where its mark shows)."""
        return self.replay.hand_start(d.hand) + d.index + 1

    def marked(self) -> list[int]:
        """The frames of the inaccuracies, mistakes and blunders, in order."""
        return sorted(self.frame_of(d) for d in self.decisions.values() if d.label in MARKED)

    def jump(self, at: int, by: int) -> int | None:
        """The next (``by`` 1) or previous (-1) marked frame from ``at``, or None."""
        frames = self.marked()
        found = [f for f in frames if f > at] if by > 0 else [f for f in reversed(frames) if f < at]
        return found[0] if found else None

    def name(self, seat: int) -> str:
        return self.replay.match.players[seat]

    def better(self, d: Decision) -> str:
        """The better move as a hint says it, with the points it keeps: ``Draw from the stock (+112): the pile…``.

        The reason is the expert's reading from the seat's view at that moment, never another hand."""
        key = (d.hand, d.index)
        if key not in self._better:
            self._better[key] = self._sentence(d)
        return self._better[key]

    def _sentence(self, d: Decision) -> str:
        gain = f" (+{d.loss:.0f})"
        try:
            best = Move.parse(d.best)
            state = self.replay.frames[self.frame_of(d) - 1].state
            view = state.view(d.seat)
            moves = list(state.legal_moves())
            move = next((m for m in moves if m == best), None) or next(
                (m for m in moves if move_key(m) == move_key(best)), best)
            ranked = ExpertBot(random.Random(0)).ranked(view, moves)
            notes = {m: note for m, _, note in ranked}
            reason = explain(view, moves, move, notes.get(move, ("?",)), best=move == ranked[0][0])
        except (CanastaError, IndexError):
            return f"{d.best}{gain}."
        _, colon, why = reason.partition(": ")
        return f"{move_words(move)}{gain}: {(why if colon else reason).rstrip('.')}."

    def played(self, d: Decision) -> str:
        """The move played, as an action: ``taking the pile with 9♦ 9♣``."""
        try:
            return doing(Move.parse(d.played))
        except CanastaError:
            return d.played

    def told(self, d: Decision) -> list[str]:
        """The mark, the move played and the better move, in plain words (``--plain``)."""
        if d.loss <= 0.0:
            return [f"{mark(d)}: no better move found"]
        return [f"{mark(d)} for {self.played(d)}", f"Better: {self.better(d)}"]

    def lines(self, d: Decision) -> list[Line]:
        """:meth:`told` styled for the replay's screen: the mark in its colour."""
        symbol, style = MARKS[d.label]
        head = f"{symbol} {d.label}"
        if d.loss <= 0.0:
            return [[(head, style), (f": no better move found than {self.played(d)}", "")]]
        loss = f" {points(-d.loss)}{interval(d)}"
        return [[(head, style), (loss, "bold"), (f" for {self.played(d)}", "")],
                [("Better: ", "bold"), (self.better(d), "")]]

    def summary(self) -> list[str]:
        """One line per seat shown: decisions scored, points lost, rating, labels."""
        lines = []
        for s in self.seats:
            own = [d for d in self.review.decisions if d.seat == s.seat]
            lines.append(f"{self.name(s.seat)}: lost {s.total_loss:.0f} points in {plural(s.decisions, 'decision')} "
                         f"({s.mean_loss:.1f} each), rating {s.rating:.1f}: {counts_words(own)}")
        if self.hidden:
            who = ", ".join(self.name(seat) for seat in self.hidden)
            lines.append(f"(the marks of {who} are not shown: this replay shows {self.name(self.seat or 0)}'s view)")
        return lines

    def hand_summary(self, hand: int) -> list[str]:
        """One line per seat shown for one hand: ``You lost 230 points in 14 decisions: 1 blunder, …``."""
        lines = []
        for s in self.seats:
            own = [d for d in self.decisions.values() if d.seat == s.seat and d.hand == hand]
            if own:
                lost = sum(d.loss for d in own)
                lines.append(f"{self.name(s.seat)} lost {lost:.0f} points in {plural(len(own), 'decision')}: "
                             f"{counts_words(own)}")
        return lines

    def page(self) -> list[str]:
        """Every decision shown, hand by hand, and the summary (the replay's ``v``)."""
        settings = self.review.settings
        budget = f"{settings.rollouts} rollouts" if settings.rollouts is not None else f"{settings.seconds:g} s"
        lines = [*self.summary(), "",
                 f"{budget} a decision, {settings.candidates} moves weighed, seed {settings.seed}.", LEGEND + "."]
        hand = -1
        for d in sorted(self.decisions.values(), key=lambda d: (d.hand, d.index)):
            if d.hand != hand:
                hand = d.hand
                lines += ["", f"Hand {hand + 1}"]
            lines.append(f"  move {d.index + 1}, {self.name(d.seat)}, {self.played(d)}: {mark(d)}")
            if d.loss > 0.0:
                lines.append(f"    Better: {self.better(d)}")
        return lines


__all__ = ["LEGEND", "MARKED", "MARKS", "Marks", "cache_path", "check_review", "compute_review", "counts_words",
           "interval", "load_review", "mark", "plural", "points"]
