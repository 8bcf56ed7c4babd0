"""The distribution of expected points lost that ``canasta review`` finds, for choosing its labels' thresholds.

Run::

    python benchmarks/review_thresholds.py [--hands 12] [--seed 1] [--rollouts 200] [--workers 2]
        [--noise 4] [--pairing N] [--save FILE] [--load FILE] [--json]

Plays ``--hands`` classic hands, ``expert`` at two seats and ``basic`` at the other two (swapped
every other hand, so each bot holds every seat), and reviews every decision of every seat with
:func:`canasta.bots.review.review_match` at the given budget.  Prints, per bot, the decisions
scored, the share judged best, the percentiles of the points lost, how many fall in each band of
:data:`~canasta.bots.review.THRESHOLDS` and how many of those have an interval above zero; and,
for the first ``--noise`` hands reviewed again with another seed, how far a decision's loss moves
and how often its label stays.  ``--pairing N`` also measures, over N decisions of the first hand, how
much playing two moves in the same deals narrows their difference.  ``--save`` keeps every decision
(JSON), ``--load`` reads them back instead of playing.  docs/review.md holds the figures and the
thresholds chosen from them.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
import time
from typing import Any

from canasta.bots import make_bot
from canasta.bots.rating import percentile
from canasta.bots.review import (
    LABELS,
    RATING_SCALE,
    THRESHOLDS,
    ReviewSettings,
    candidates_for,
    decision_tasks,
    label_of,
    review_match,
)
from canasta.bots.search import Budget, SearchBot
from canasta.match import Match, bot_random

BANDS = [0.0, 5.0, 15.0, 25.0, 40.0, 60.0, 100.0, 150.0, 250.0, math.inf]
"""Edges of the histogram of positive losses."""


def play_hand(seed: int, number: int) -> tuple[Match, list[str]]:
    """Hand ``number``: expert and basic at alternate seats (expert first on even hands), played out."""
    kinds = ["expert", "basic"] * 2 if number % 2 == 0 else ["basic", "expert"] * 2
    match = Match(seed=seed * 1000 + number, players=kinds)
    bots = [make_bot(kind, bot_random(match.seed or 0, 0, seat)) for seat, kind in enumerate(kinds)]
    state = match.state
    while not state.is_over:
        moves = list(state.legal_moves())
        seat = state.to_act
        match.play(moves[0] if len(moves) == 1 else bots[seat].choose(state.view(seat), moves))
    return match, kinds


def progress(done: int, total: int) -> None:
    print(f"\r  {done}/{total} decisions", end="" if done < total else "\n", file=sys.stderr, flush=True)


def collect(args: argparse.Namespace) -> dict[str, Any]:
    """Play and review the hands; every decision with its bot, and the seconds per hand and seat."""
    settings = ReviewSettings(rollouts=args.rollouts, seed=0)
    rows: list[dict[str, Any]] = []
    again: list[dict[str, Any]] = []
    seconds: list[float] = []
    for number in range(args.hands):
        match, kinds = play_hand(args.seed, number)
        print(f"hand {number + 1}/{args.hands}: {len(match.hands[0]['moves'])} moves", file=sys.stderr)
        review = review_match(match, settings=settings, workers=args.workers, progress=progress)
        seconds.append(review.seconds / match.rules.players)
        rows += [{**d.to_json(), "bot": kinds[d.seat], "match": number} for d in review.decisions]
        if number < args.noise:
            other = review_match(match, settings=ReviewSettings(rollouts=args.rollouts, seed=1),
                                 workers=args.workers, progress=progress)
            again += [{**d.to_json(), "bot": kinds[d.seat], "match": number} for d in other.decisions]
    return {"hands": args.hands, "seed": args.seed, "rollouts": args.rollouts, "workers": args.workers,
            "decisions": rows, "again": again, "seconds_per_hand_and_seat": seconds}


def pairing(args: argparse.Namespace) -> dict[str, Any]:
    """How much the common deals help: over the first ``--pairing`` decisions of the first hand with two moves
    or more to weigh, the spread of the move played's value and of its paired difference with the expert's
    best other move, and the share of deals where the two ended the same."""
    match, _ = play_hand(args.seed, 0)
    tasks, _ = decision_tasks(match, range(match.rules.players), [0], ReviewSettings(rollouts=args.rollouts))
    values: list[float] = []
    diffs: list[float] = []
    same: list[float] = []
    for task in tasks:
        kept = candidates_for(task.view, task.moves, task.played, 2)
        if len(kept) < 2 or len(values) >= args.pairing:
            continue
        search = SearchBot(random.Random(task.index), Budget(None, args.rollouts))
        rounds = search.run_rounds(task.view, kept, task.index, args.rollouts, None)
        values.append(statistics.pstdev(row[0] for _, row in rounds))
        diffs.append(statistics.pstdev(row[1] - row[0] for _, row in rounds))
        same.append(sum(1 for _, row in rounds if row[1] == row[0]) / len(rounds))
    return {"decisions": len(values), "value_sd_median": statistics.median(values),
            "difference_sd_median": statistics.median(diffs), "same_result_median": statistics.median(same)}


def describe(data: dict[str, Any]) -> dict[str, Any]:
    """Per bot: the loss distribution and bands; then the noise between the two seeds."""
    report: dict[str, Any] = {"rollouts": data["rollouts"], "hands": data["hands"], "bots": {}}
    for bot in ("expert", "basic", "all"):
        rows = [r for r in data["decisions"] if bot == "all" or r["bot"] == bot]
        losses = sorted(r["loss"] for r in rows)
        if not losses:
            continue
        bands = []
        for lo, hi in itertools.pairwise(BANDS):
            inside = [r for r in rows if lo < r["loss"] <= hi or (lo == 0.0 and 0.0 < r["loss"] <= hi)]
            sure = [r for r in inside if r["low"] is not None and r["low"] > 0.0]
            bands.append({"from": lo, "to": hi, "decisions": len(inside), "interval_above_zero": len(sure)})
        report["bots"][bot] = {
            "decisions": len(rows),
            "best": sum(1 for x in losses if x == 0.0) / len(losses),
            "mean_loss": statistics.fmean(losses),
            "percentiles": {p: percentile(losses, p) for p in (50, 75, 90, 95, 98, 99)},
            "bands": bands,
            "labels": {label: sum(1 for r in rows if label_of(r["loss"], r["low"]) == label) for label in LABELS},
            "sure_from_100": [sum(1 for r in rows if r["loss"] >= 100.0 and r["low"] is not None and r["low"] > 0.0),
                              sum(1 for r in rows if r["loss"] >= 100.0)],
            "rating": RATING_SCALE * statistics.fmean(losses),
            "rating_per_hand_and_seat": _spread([RATING_SCALE * statistics.fmean(v) for v in _per_seat(rows).values()]),
            "half_width_median": statistics.median([(r["high"] - r["low"]) / 2 for r in rows if r["loss"] > 0.0
                                                    and r["low"] is not None and r["high"] is not None] or [0.0]),
        }
    first = {(r["match"], r["index"]): r for r in data["decisions"]}
    pairs = [(first[key], r) for r in data["again"] if (key := (r["match"], r["index"])) in first]
    if pairs:
        diffs = [a["loss"] - b["loss"] for a, b in pairs]
        steps = [(LABELS.index(label_of(a["loss"], a["low"])), LABELS.index(label_of(b["loss"], b["low"])))
                 for a, b in pairs]
        report["noise"] = {
            "decisions": len(pairs),
            "loss_difference_sd": statistics.pstdev(diffs),
            "one_review_sd": statistics.pstdev(diffs) / math.sqrt(2.0),
            "loss_difference_p90": percentile(sorted(abs(d) for d in diffs), 90),
            "same_label": sum(1 for a, b in steps if a == b) / len(pairs),
            "both_zero": sum(1 for a, b in pairs if a["loss"] == 0.0 and b["loss"] == 0.0) / len(pairs),
            "label_within_one": sum(1 for a, b in steps if abs(a - b) <= 1) / len(pairs),
            "mistake_against_good": sum(1 for a, b in steps if max(a, b) >= 3 and min(a, b) <= 1) / len(pairs),
        }
    sides: dict[tuple[int, str], float] = {}
    for r in data["decisions"]:
        sides[r["match"], r["bot"]] = sides.get((r["match"], r["bot"]), 0.0) + r["loss"]
    gaps = [sides.get((m, "basic"), 0.0) - sides.get((m, "expert"), 0.0) for m in {m for m, _ in sides}]
    report["basic_side_minus_expert_side_per_hand"] = {"mean": statistics.fmean(gaps), "sd": statistics.pstdev(gaps),
                                                       "hands": len(gaps)}
    if "pairing" in data:
        report["pairing"] = data["pairing"]
    seconds = data.get("seconds_per_hand_and_seat", [])
    if seconds:
        report["seconds_per_hand_and_seat"] = {"median": statistics.median(seconds), "max": max(seconds),
                                               "workers": data.get("workers")}
    return report


def _per_seat(rows: list[dict[str, Any]]) -> dict[tuple[int, int], list[float]]:
    """The losses of each seat of each hand."""
    per: dict[tuple[int, int], list[float]] = {}
    for r in rows:
        per.setdefault((r["match"], r["seat"]), []).append(r["loss"])
    return per


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def text(report: dict[str, Any]) -> str:
    lines = [f"{report['hands']} classic hands, expert and basic, {report['rollouts']} rollouts a decision; "
             f"thresholds {', '.join(f'{name} from {start:g}' for name, start in THRESHOLDS)}"]
    for bot, r in report["bots"].items():
        p = r["percentiles"]
        per = r["rating_per_hand_and_seat"]
        lines.append(f"{bot}: {r['decisions']} decisions, {r['best']:.0%} best, mean loss {r['mean_loss']:.1f} "
                     f"(rating {r['rating']:.1f}; per hand and seat median {per['median']:.1f}, {per['min']:.1f} to "
                     f"{per['max']:.1f}); loss percentiles 50/75/90/95/98/99: "
                     + " ".join(f"{p[q]:.0f}" for q in (50, 75, 90, 95, 98, 99))
                     + f"; median half-width of a loss's 95% interval {r['half_width_median']:.0f}")
        lines.append("  losses in (from, to]: " + "; ".join(
            f"{b['from']:g}-{b['to']:g}: {b['decisions']} ({b['interval_above_zero']} sure)" for b in r["bands"])
            + f"; losses of 100 or more with the interval above 0: {r['sure_from_100'][0]} of "
              f"{r['sure_from_100'][1]}")
        lines.append("  labels: " + ", ".join(f"{k} {v} ({v / r['decisions']:.1%})" for k, v in r["labels"].items()))
    if "noise" in report:
        n = report["noise"]
        lines.append(f"again with another seed, {n['decisions']} decisions: sd of the loss difference "
                     f"{n['loss_difference_sd']:.1f} (one review {n['one_review_sd']:.1f}), 90% within "
                     f"{n['loss_difference_p90']:.0f}; same label {n['same_label']:.0%}, within one label "
                     f"{n['label_within_one']:.0%}, both best {n['both_zero']:.0%}, mistake or worse against best or "
                     f"good {n['mistake_against_good']:.1%}")
    g = report["basic_side_minus_expert_side_per_hand"]
    lines.append(f"basic's side lost {g['mean']:.0f} points a hand more than the expert's (sd {g['sd']:.0f}, "
                 f"{g['hands']} hands)")
    if "pairing" in report:
        p = report["pairing"]
        lines.append(f"common deals, {p['decisions']} decisions: median spread of the move played's value "
                     f"{p['value_sd_median']:.0f}, of its paired difference with another move "
                     f"{p['difference_sd_median']:.0f}; both ended the same in {p['same_result_median']:.0%} "
                     "of the deals")
    if "seconds_per_hand_and_seat" in report:
        s = report["seconds_per_hand_and_seat"]
        lines.append(f"seconds per hand and seat: median {s['median']:.1f}, most {s['max']:.1f} "
                     f"({s['workers']} workers)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--noise", type=int, default=4, help="hands reviewed again with another seed")
    parser.add_argument("--save", help="keep every decision in this JSON file")
    parser.add_argument("--load", help="read the decisions from this file instead of playing")
    parser.add_argument("--pairing", type=int, default=0,
                        help="also measure how much the common deals help, over this many decisions")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.load:
        with open(args.load, encoding="utf-8") as f:
            data = json.load(f)
    else:
        started = time.perf_counter()
        data = collect(args)
        data["seconds"] = time.perf_counter() - started
        if args.save:
            with open(args.save, "w", encoding="utf-8") as f:
                json.dump(data, f)
    if args.pairing:
        data["pairing"] = pairing(args)
    report = describe(data)
    print(json.dumps(report, indent=1) if args.json else text(report))


if __name__ == "__main__":
    main()
