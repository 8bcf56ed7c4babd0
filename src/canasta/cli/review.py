"""``canasta review FILE``: every decision of chosen seats judged by rollouts, as text, JSON or Markdown.

FILE is a game record (``Match.to_record``, NOTATION.md "Game records", decks included), a save
file of the terminal game (the record with its ``seats``), or a web table's history: the game page's
"Download the game record" (``GET /api/tables/{id}/record``, :mod:`canasta.web.reviews`) saves the
hands that are over, written for the player's seat, with the table's ``seats``.  By default the
seats of the people (a save file's ``human`` seats; every seat of a bare record) and every hand are
reviewed.  What the labels mean, the figures behind them and the performance rating:
docs/review.md.  Seats, hands and moves count from 1 here, as people count; the JSON keeps the
notation's seats, hands and move numbers from 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .args import UsageError, load_json

if TYPE_CHECKING:
    from ..bots.review import Decision, Review
    from ..match import Match


def cmd_review(args: argparse.Namespace) -> int:
    from ..bots.review import ReviewSettings, review_match
    from .engine import check_ray_address

    record = load_json(args.file)
    match = load_match(record, args.file)
    players = match.rules.players
    if args.all:
        seats = list(range(players))
    elif args.seat:
        for seat in args.seat:
            if not 1 <= seat <= players:
                raise UsageError(f"--seat {seat} is not at this table (seats 1 to {players})")
        seats = sorted({seat - 1 for seat in args.seat})
    else:
        seats = people(record, players)
    hands = None
    if args.hand:
        for number in args.hand:
            if not 1 <= number <= len(match.hands):
                raise UsageError(f"--hand {number} is not in {args.file} (hands 1 to {len(match.hands)})")
        hands = sorted({number - 1 for number in args.hand})
    settings = ReviewSettings(rollouts=None if args.time is not None else args.rollouts, seconds=args.time,
                              candidates=args.candidates, seed=args.seed)
    if args.address is not None and args.backend == "ray":
        check_ray_address(args.address)
    progress = None if args.quiet else stderr_progress()
    review = review_match(match, seats, hands, settings, workers=args.workers, backend=args.backend,
                          address=args.address, progress=progress)
    if args.json:
        print(json.dumps(review.to_json()))
    elif args.markdown:
        print(markdown(review, args.file, command_line(args)), end="")
    else:
        print(text(review, args.file))
    return 0


def stderr_progress() -> Callable[[int, int], None]:
    """The review's progress on standard error: a bar on a terminal, else a line every tenth."""
    from ..bots.arena import progress_bar

    if sys.stderr.isatty():
        def progress(done: int, total: int) -> None:
            progress_bar(done, total, "decisions")
    else:
        def progress(done: int, total: int) -> None:
            if total >= 10 and (done * 10 // total != (done - 1) * 10 // total):
                print(f"review: {done}/{total} decisions", file=sys.stderr, flush=True)
    return progress


def load_match(record: Any, path: str) -> Match:
    """The match of a game record or save file, every problem in one line naming the file."""
    from ..match import OLD_SEEDING, SEEDING, Match

    if not isinstance(record, Mapping) or "hands" not in record:
        raise UsageError(f"{path} is not a game record or save file (a JSON object with its hands)")
    hands = record["hands"]
    if isinstance(hands, list) and any(isinstance(h, Mapping) and h.get("deck") is None for h in hands):
        raise UsageError(f"{path} keeps no decks (a record written for one seat while the match went on): "
                         "a review replays every hand from its deck")
    try:
        return Match.from_record(record, SEEDING if "seats" in record else OLD_SEEDING)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise UsageError(f"{path}: {exc or type(exc).__name__}") from None


def people(record: Mapping[str, Any], players: int) -> list[int]:
    """The seats of people: a save file's ``human`` (or ``you``) seats, as words or lobby objects; every seat
    of a record that names none (and of a save file without a person)."""
    from ..play.seats import HUMAN_WORDS

    seats = record.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        return list(range(players))
    found = []
    for index, spec in enumerate(seats):
        kind = spec.get("kind") if isinstance(spec, Mapping) else spec
        if isinstance(kind, str) and kind.partition(":")[0].strip().lower() in HUMAN_WORDS:
            found.append(index)
    return found or list(range(players))


# -- the reports ------------------------------------------------------------------------------


def _seats(seats: Sequence[int]) -> str:
    numbers = [str(s + 1) for s in seats]
    if len(numbers) == 1:
        return f"seat {numbers[0]}"
    return f"seats {', '.join(numbers[:-1])} and {numbers[-1]}"


def _hands(review: Review) -> str:
    return f"hand{'s' if len(review.hands) > 1 else ''} {', '.join(str(h + 1) for h in review.hands)}"


def _budget(review: Review) -> str:
    s = review.settings
    budget = f"{s.rollouts} rollouts" if s.rollouts is not None else f"{s.seconds:g} s"
    return f"{budget} a decision (seed {s.seed}), {s.candidates} moves weighed"


def _interval(d: Decision) -> str:
    return "" if d.low is None or d.high is None else f" ({d.low:.0f} to {d.high:.0f})"


def _where(d: Decision, players: Sequence[str]) -> str:
    return f"hand {d.hand + 1}, move {d.index + 1}, {_player(d.seat, players)}"


def _player(seat: int, players: Sequence[str]) -> str:
    name = players[seat] if seat < len(players) else ""
    return f"seat {seat + 1}" + (f" ({name})" if name and name != f"seat {seat}" else "")


def text(review: Review, path: str) -> str:
    """The review for a terminal: a summary per seat, its costliest moments, then every decision scored."""
    lines = [f"review of {path}: {review.preset}, {_hands(review)}, "
             f"{_seats([s.seat for s in review.seats])}; {_budget(review)}; {review.seconds:.1f} s"]
    for s in review.seats:
        lines.append(f"{_player(s.seat, review.players)}: {s.decisions} decisions scored ({s.forced} forced); "
                     f"lost {s.total_loss:.0f} points, {s.mean_loss:.1f} a decision; rating {s.rating:.1f}")
        lines.append("  " + ", ".join(f"{label} {s.counts.get(label, 0)}" for label in _labels()))
        if len(review.hands) > 1:
            lines.append("  lost per hand: " + ", ".join(f"hand {h + 1} {loss:.0f}" for h, _, loss in s.hands))
        for d in s.costliest:
            lines.append(f"  costliest: hand {d.hand + 1}, move {d.index + 1}: {d.played}, best {d.best}, "
                         f"lost {d.loss:.0f}{_interval(d)}, {d.label}")
    lines.append("decisions (points lost, 95% interval):")
    for d in review.decisions:
        best = "the best found" if d.loss == 0.0 else f"best {d.best}"
        lines.append(f"  {_where(d, review.players)}: {d.played}; {best}; lost {d.loss:.0f}{_interval(d)}: "
                     f"{d.label}")
    return "\n".join(lines)


def _labels() -> tuple[str, ...]:
    from ..bots.review import LABELS

    return LABELS


def markdown(review: Review, path: str, command: str) -> str:
    """The review as a Markdown document: how it was made, the seats' table, the costliest moments, every decision."""
    out = [f"# Review of `{path}`", "", "Made by:", "", "```", command, "```", "",
           f"{review.preset}, {_hands(review)}; {_budget(review)}; "
           f"{review.seconds:.1f} s. Points lost are the side's hand result lost against the best move the "
           "analysis found (docs/review.md).", "",
           "| seat | decisions | forced | points lost | per decision | rating | "
           + " | ".join(_labels()) + " |",
           "| --- | ---: | ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in _labels()) + " |"]
    for s in review.seats:
        out.append(f"| {_player(s.seat, review.players)} | {s.decisions} | {s.forced} | {s.total_loss:.0f} | "
                   f"{s.mean_loss:.1f} | {s.rating:.1f} | "
                   + " | ".join(str(s.counts.get(label, 0)) for label in _labels()) + " |")
    head = ["| seat | hand | move | played | best | points lost | 95% interval | label |",
            "| --- | ---: | ---: | --- | --- | ---: | --- | --- |"]
    out += ["", "## Costliest moments", "", *head]
    for s in review.seats:
        for d in s.costliest:
            out.append(_row(d, review.players))
    out += ["", "## Decisions", "", *head]
    out += [_row(d, review.players) for d in review.decisions]
    out.append("")
    return "\n".join(out)


def _row(d: Decision, players: Sequence[str]) -> str:
    interval = "" if d.low is None or d.high is None else f"{d.low:.0f} to {d.high:.0f}"
    return (f"| {_player(d.seat, players)} | {d.hand + 1} | {d.index + 1} | `{d.played}` | `{d.best}` | "
            f"{d.loss:.0f} | {interval} | {d.label} |")


def command_line(args: argparse.Namespace) -> str:
    """The ``canasta review`` command that makes this review again."""
    parts = ["canasta review", args.file]
    if args.all:
        parts.append("--all")
    parts += [f"--seat {seat}" for seat in args.seat or ()]
    parts += [f"--hand {number}" for number in args.hand or ()]
    parts.append(f"--time {args.time:g}" if args.time is not None else f"--rollouts {args.rollouts}")
    parts.append(f"--candidates {args.candidates} --seed {args.seed}")
    if args.workers != 1:
        parts.append(f"--workers {args.workers}")
    parts.append("--markdown")
    return " ".join(parts)


def _seconds(value: str) -> float:
    try:
        seconds = float(value.removesuffix("s"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a time in seconds: {value!r}") from None
    if not 0.0 < seconds <= 3600.0:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 3600 seconds, not {value}")
    return seconds


def register(sub: Any) -> None:
    """Add ``review`` to the ``canasta`` parser."""
    from ..bots.review import CANDIDATES, DEFAULT_ROLLOUTS
    from .engine import at_least

    p = sub.add_parser(
        "review", help="judge every decision of a played match: the best move, the points lost, a label",
        description="Review a game record or a save file: for every decision of the chosen seats, the move "
                    "played, the best move the analysis found, the expected points lost (with a 95% interval) "
                    "and a label (best, good, inaccuracy, mistake, blunder); per seat the points lost, the "
                    "count of each label, the costliest moments and a performance rating. Each decision is "
                    "judged from what that seat knew then: the hidden cards are dealt anew, every move weighed "
                    "is played out in the same deals. docs/review.md tells what the figures mean.")
    p.add_argument("file", help="a game record or a save file (with its decks)")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--seat", type=at_least(1), action="append", metavar="N",
                     help="review this seat, from 1 (repeatable; default: the seats of people, every seat of a "
                          "record that names none)")
    who.add_argument("--all", action="store_true", help="review every seat")
    p.add_argument("--hand", type=at_least(1), action="append", metavar="N",
                   help="review this hand, from 1 (repeatable; default: every hand)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--rollouts", type=at_least(2), default=DEFAULT_ROLLOUTS, metavar="N",
                        help=f"sampled deals that measure a decision's loss: the move played and its best rival "
                             f"played out in each, after a quarter as many screened every move weighed (default "
                             f"{DEFAULT_ROLLOUTS}; the same file, seed and rollouts give the same review)")
    budget.add_argument("--time", type=_seconds, metavar="SECONDS",
                        help="seconds a decision instead of a number of rollouts (not reproducible)")
    p.add_argument("--candidates", type=at_least(2), default=CANDIDATES, metavar="K",
                   help=f"moves weighed a decision, the move played among them (default {CANDIDATES})")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampled deals (default 0)")
    p.add_argument("--workers", type=at_least(1), default=1, metavar="K", help="processes (or a hint for Ray)")
    p.add_argument("--backend", default="local", choices=("local", "ray"), help="local (processes) or ray")
    p.add_argument("--address", help="the Ray cluster to join (default: a local Ray instance)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON object (seats, hands and moves from 0)")
    out.add_argument("--markdown", action="store_true", help="print a Markdown document")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    p.set_defaults(func=cmd_review)
