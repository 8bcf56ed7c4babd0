"""Evidence that the review's numbers mean something (issue 29): the levels ordered by points lost per decision.

Run (the compiled build; resumable: run the same command again to go on where it stopped)::

    PYTHONPATH=build/compiled/lib python benchmarks/review_evidence.py --hands 200 --workers 2 --seed 1 \\
        --rollouts 32 --candidates 4 --out benchmarks/results/review_evidence.jsonl --markdown

Each classic hand ``h`` (deck seed ``seed * 100000 + h``) is played once per level (``random``,
``basic``, ``club``, ``expert``, ``master``) with the level at seat ``h mod 4`` and the ``expert``
at the other three seats, so every level decides in the same deals at the same table, and the
level's seat is reviewed (:func:`canasta.bots.review.review_match`) at a budget cheaper than the
default (``--rollouts``, ``--candidates``).  Then:

* per level, the mean expected points lost (EPL) per scored decision, with a 95% interval from a
  bootstrap over hands (the hand is the unit resampled: a hand's decisions are not independent),
  and the difference between neighbouring levels, paired by hand (the same deck);
* at every decision of the ``expert``, the ``master``'s move (``--master``, a number of rollouts so
  the run is reproducible): the mean EPL of the expert's decisions where the master plays another
  move, and where it plays the same; likewise each level below against the next one up (``basic`` at
  ``random``'s decisions, ``club`` at ``basic``'s, ``expert`` at ``club``'s), asked once the hands are
  reviewed by playing them again (the same moves: the bots are seeded);
* a move equal to the best scores 0: every decision whose move played is the best found has loss 0
  and the label ``best``; and, for the first ``--zero-hands`` expert hands, every decision that lost
  points is reviewed again with the best move found as the move played (same seed): how many score 0;
* seed agreement: the ``expert`` seat of the first ``--agree-hands`` hands reviewed at the default
  budget (``--agree-rollouts``, five candidates) with ``--agree-seeds`` analysis seeds: the share
  of decisions whose label is the same in every review, in each pair of reviews, and within one step.

Every finished piece of work (a level's hand, or one seed's review of a hand) is one line of the
``--out`` journal (JSON lines, the settings on the first); ``--report`` prints the figures from it
without playing, ``--markdown`` as the tables of docs/review.md.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from canasta.bots import make_bot
from canasta.bots.review import (
    LABELS,
    Decision,
    ReviewSettings,
    decision_tasks,
    move_key,
    review_decision,
    review_match,
)
from canasta.bots.search import Budget, SearchBot
from canasta.match import Match, bot_random
from canasta.moves import Move
from canasta.views import View

LEVELS = ("random", "basic", "club", "expert", "master")
"""The levels, weakest first (``canasta.bots.levels``: Beginner is ``basic``, Club ``expert:risk_weight=0``)."""
MASTER = "search:160"
"""The master as a number of rollouts: ``search:100ms`` bought 70 to 390 rollouts a move (median about 170)
on this machine; a count keeps the run reproducible."""
OPPONENT = "expert"
"""Who sits at the other three seats."""
BOOTSTRAP = 2000
"""Resamples of the hands for each interval."""


def spec_of(level: str, master: str) -> str:
    return master if level == "master" else level


Judge = Callable[[int, View, list[Move], Move, Move], None]
"""Called at each of the level's decisions where the stronger bot would play another move: the move number, the
seat's view, the legal moves, the move played and the stronger bot's."""


def play_hand(seed: int, hand: int, level: str, master: str, stronger: str | None = None,
              judge: Judge | None = None, known: dict[int, str] | None = None) -> tuple[Match, int, dict[int, str]]:
    """Hand ``hand``: the level at seat ``hand % 4``, the expert at the others, played out; the level's seat; and,
    with ``stronger`` (a bot's spec), that bot's move at each of the level's decisions (by move number; taken from
    ``known`` where it holds them), which ``judge`` is shown where it differs from the move played."""
    seat = hand % 4
    players = [OPPONENT] * 4
    players[seat] = spec_of(level, master)
    match = Match(seed=seed * 100000 + hand, players=players)
    bots = [make_bot(name, bot_random(match.seed or 0, 0, s)) for s, name in enumerate(players)]
    other = None if stronger is None else make_bot(stronger, bot_random(match.seed or 0, 1, seat))
    asked: dict[int, str] = {}
    state = match.state
    while not state.is_over:
        moves = list(state.legal_moves())
        to_act = state.to_act
        number = len(match.hands[0]["moves"])
        wanted = None
        if other is not None and to_act == seat and len(moves) > 1:
            wanted = (Move.parse(known[number]) if known is not None and number in known
                      else other.choose(state.view(to_act), moves))
            asked[number] = str(wanted)
        move = moves[0] if len(moves) == 1 else bots[to_act].choose(state.view(to_act), moves)
        if judge is not None and wanted is not None and not same_move(str(wanted), str(move)):
            judge(number, state.view(to_act), moves, move, wanted)
        match.play(move)
    return match, seat, asked


def same_move(a: str, b: str) -> bool:
    """Two moves in the notation that are one choice (they differ in suits at most)."""
    return move_key(Move.parse(a)) == move_key(Move.parse(b))


def row_of(d: Decision) -> dict[str, Any]:
    return {"index": d.index, "phase": d.phase, "played": d.played, "best": d.best, "loss": round(d.loss, 2),
            "low": None if d.low is None else round(d.low, 2), "label": d.label, "deals": d.deals}


def level_unit(args: dict[str, Any], level: str, hand: int) -> dict[str, Any]:
    """Play one hand for a level, review its seat; for the expert, the master's moves and the zero check."""
    started = time.perf_counter()
    match, seat, _ = play_hand(args["seed"], hand, level, args["master"])
    settings = ReviewSettings(rollouts=args["rollouts"], candidates=args["candidates"], seed=0)
    review = review_match(match, [seat], [0], settings)
    rows = [row_of(d) for d in review.decisions]
    forced = review.seats[0].forced
    if level == "expert":
        tasks = {t.index: t for t in decision_tasks(match, [seat], [0], settings)[0]}
        for row in rows:
            task = tasks[row["index"]]
            master = make_bot(args["master"], random.Random(f"{args['seed']}:{hand}:master:{row['index']}"))
            move = master.choose(task.view, list(task.moves))
            row["master"] = str(move)
            row["differs"] = not same_move(str(move), str(task.played))
            if hand < args["zero_hands"] and row["loss"] > 0.0:
                again = review_decision(task.view, task.moves, Move.parse(row["best"]), settings, 0, row["index"])
                row["best_again"] = {"loss": round(again.loss, 2), "label": again.label}
    return {"unit": ["level", level, hand], "seat": seat, "moves": len(match.hands[0]["moves"]), "forced": forced,
            "score": match.results[0].totals[seat % 2] - match.results[0].totals[1 - seat % 2]
            if match.results else None,
            "decisions": rows, "seconds": round(time.perf_counter() - started, 2)}


def agree_unit(args: dict[str, Any], hand: int, seed: int) -> dict[str, Any]:
    """Review the expert's seat of one hand at the agreement budget with analysis seed ``seed``."""
    started = time.perf_counter()
    match, seat, _ = play_hand(args["seed"], hand, "expert", args["master"])
    settings = ReviewSettings(rollouts=args["agree_rollouts"], seed=seed)
    review = review_match(match, [seat], [0], settings)
    return {"unit": ["agree", seed, hand], "decisions": [row_of(d) for d in review.decisions],
            "seconds": round(time.perf_counter() - started, 2)}


def compare_unit(args: dict[str, Any], level: str, hand: int) -> dict[str, Any]:
    """Play a level's hand again (the same moves) and ask the next level up for its move at each decision."""
    started = time.perf_counter()
    stronger = spec_of(STRONGER[level], args["master"])
    match, _, asked = play_hand(args["seed"], hand, level, args["master"], stronger)
    moves = match.hands[0]["moves"]
    return {"unit": ["compare", level, hand], "stronger": stronger,
            "decisions": [{"index": i, "stronger": m, "played": moves[i],
                           "differs": not same_move(m, moves[i])}
                          for i, m in sorted(asked.items())],
            "seconds": round(time.perf_counter() - started, 2)}


def duel_unit(args: dict[str, Any], level: str, hand: int) -> dict[str, Any]:
    """Play a level's hand again and, at each decision where the next level up plays another move, play both
    moves out in the same ``--duel-rollouts`` deals of the hidden cards (the review's search, common random
    numbers): how many points the stronger move gains over the one played."""
    started = time.perf_counter()
    stronger = spec_of(STRONGER_OR_MASTER[level], args["master"])
    rows: list[dict[str, Any]] = []

    def judge(number: int, view: View, moves: list[Move], played: Move, wanted: Move) -> None:
        rng = random.Random(f"{args['seed']}:duel:{hand}:{number}")
        search = SearchBot(random.Random(rng.randrange(2**31)), Budget(None, args["duel_rollouts"]))
        rounds = search.run_rounds(view, [played, wanted], rng.randrange(2**31), args["duel_rollouts"], None)
        total = sum(w for w, _ in rounds)
        gain = sum(w * (row[1] - row[0]) for w, row in rounds) / total if total > 0.0 else 0.0
        rows.append({"index": number, "played": str(played), "stronger": str(wanted), "gain": round(gain, 2),
                     "deals": len(rounds)})

    play_hand(args["seed"], hand, level, args["master"], stronger, judge, args.get("known", {}).get(f"{level}:{hand}"))
    return {"unit": ["duel", level, hand], "stronger": stronger, "decisions": rows,
            "seconds": round(time.perf_counter() - started, 2)}


STRONGER = {"random": "basic", "basic": "club", "club": "expert"}
"""The next level up, asked at a level's decisions after the run (the master is asked during it, at the expert's)."""
STRONGER_OR_MASTER = {**STRONGER, "expert": "master"}
"""The next level up of every level but the master, for the duels."""


def run_unit(args: dict[str, Any], unit: tuple[Any, ...]) -> dict[str, Any]:
    if unit[0] == "level":
        return level_unit(args, unit[1], unit[2])
    if unit[0] == "compare":
        return compare_unit(args, unit[1], unit[2])
    if unit[0] == "duel":
        return duel_unit(args, unit[1], unit[2])
    return agree_unit(args, unit[2], unit[1])


def units(args: dict[str, Any]) -> Iterator[tuple[Any, ...]]:
    """The work in order: each hand for every level, one agreement hand (every seed) after each tenth hand; then
    the duels, then the next level up asked at the lower levels' decisions."""
    agree_seeds = range(1, args["agree_seeds"] + 1)
    for hand in range(args["hands"]):
        for level in args["levels"]:
            yield ("level", level, hand)
        if hand % 10 == 9 and hand // 10 < args["agree_hands"]:
            for seed in agree_seeds:
                yield ("agree", seed, hand // 10)
    for k in range(args["hands"] // 10, args["agree_hands"]):
        for seed in agree_seeds:
            yield ("agree", seed, k)
    for hand in range(args["hands"]):
        for level in args["duel"]:
            yield ("duel", level, hand)
    for hand in range(args["hands"]):
        for level in args["levels"]:
            if level in STRONGER and STRONGER[level] in args["levels"]:
                yield ("compare", level, hand)


SETTINGS = ("seed", "rollouts", "candidates", "master", "agree_rollouts")
"""The settings a journal must share with the command to go on with it."""


def load(path: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    if not os.path.exists(path):
        return None, []
    header: dict[str, Any] | None = None
    lines: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as f:
        for text in f:
            if not text.strip():
                continue
            try:
                item = json.loads(text)
            except json.JSONDecodeError:  # a line cut short when the run was stopped
                continue
            if "settings" in item:
                header = item["settings"]
            else:
                lines.append(item)
    return header, lines


def collect(args: dict[str, Any]) -> list[dict[str, Any]]:
    """Run the work not yet in the journal, appending each piece as it ends; every piece done."""
    header, lines = load(args["out"])
    if header is not None:
        for key in SETTINGS:
            if header.get(key) != args[key]:
                sys.exit(f"{args['out']} was made with {key}={header.get(key)!r}, not {args[key]!r}: "
                         "use another --out or the same settings")
    done = {tuple(line["unit"]) for line in lines}
    # The master's moves at the expert's decisions, asked while its hands were reviewed: the duels reuse them.
    args["known"] = {f"expert:{line['unit'][2]}": {r["index"]: r["master"] for r in line["decisions"] if "master" in r}
                     for line in lines if line["unit"][:2] == ["level", "expert"]}
    todo = [u for u in units(args) if u not in done]
    print(f"{len(done)} pieces done, {len(todo)} to go", file=sys.stderr, flush=True)
    with open(args["out"], "a", encoding="utf-8") as out:
        if header is None:
            out.write(json.dumps({"settings": {k: args[k] for k in SETTINGS}}) + "\n")
            out.flush()

        def keep(result: dict[str, Any]) -> None:
            lines.append(result)
            out.write(json.dumps(result) + "\n")
            out.flush()
            print(f"{len(lines)}: {result['unit']} {len(result['decisions'])} decisions "
                  f"{result['seconds']:.1f} s", file=sys.stderr, flush=True)

        if args["workers"] == 1:
            for unit in todo:
                keep(run_unit(args, unit))
            return lines
        with ProcessPoolExecutor(max_workers=args["workers"]) as pool:
            queue = iter(todo)
            pending: set[Future[dict[str, Any]]] = set()
            for unit in itertools.islice(queue, 2 * args["workers"]):
                pending.add(pool.submit(run_unit, args, unit))
            while pending:
                ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in ready:
                    keep(future.result())
                    following = next(queue, None)
                    if following is not None:
                        pending.add(pool.submit(run_unit, args, following))
    return lines


# -- the figures ----------------------------------------------------------------------------------


def ratio_interval(per_hand: dict[int, tuple[float, int]], rng: random.Random) -> tuple[float, float, float]:
    """Points lost per decision over the hands (total over total) and its 95% bootstrap interval over hands."""
    hands = sorted(per_hand)
    values = [per_hand[h] for h in hands]

    def ratio(sample: Sequence[tuple[float, int]]) -> float:
        count = sum(n for _, n in sample)
        return sum(x for x, _ in sample) / count if count else 0.0

    boot = sorted(ratio([values[rng.randrange(len(values))] for _ in values]) for _ in range(BOOTSTRAP))
    return ratio(values), boot[int(0.025 * BOOTSTRAP)], boot[int(0.975 * BOOTSTRAP) - 1]


def diff_interval(a: dict[int, tuple[float, int]], b: dict[int, tuple[float, int]],
                  rng: random.Random) -> tuple[float, float, float, int]:
    """Level A's points lost per decision less level B's, over the hands both played (paired by deck), with a
    95% bootstrap interval resampling those hands."""
    hands = sorted(set(a) & set(b))

    def gap(sample: Sequence[int]) -> float:
        na = sum(a[h][1] for h in sample)
        nb = sum(b[h][1] for h in sample)
        return (sum(a[h][0] for h in sample) / na if na else 0.0) - (sum(b[h][0] for h in sample) / nb if nb else 0.0)

    boot = sorted(gap([hands[rng.randrange(len(hands))] for _ in hands]) for _ in range(BOOTSTRAP))
    return gap(hands), boot[int(0.025 * BOOTSTRAP)], boot[int(0.975 * BOOTSTRAP) - 1], len(hands)


def per_hand(rows: list[tuple[int, dict[str, Any]]]) -> dict[int, tuple[float, int]]:
    out: dict[int, tuple[float, int]] = {}
    for hand, r in rows:
        loss, count = out.get(hand, (0.0, 0))
        out[hand] = (loss + r["loss"], count + 1)
    return out


def describe(args: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, Any]:
    rng = random.Random(12345)
    level_lines = [line for line in lines if line["unit"][0] == "level"]
    # Only the hands every level finished, so that the levels are compared on the same deals.
    finished = [set(line["unit"][2] for line in level_lines if line["unit"][1] == level) for level in args["levels"]]
    common = set.intersection(*finished) if finished else set()
    report: dict[str, Any] = {"settings": {k: args[k] for k in (*SETTINGS, "levels")}, "hands": len(common),
                              "levels": {}, "gaps": [], "stronger": []}
    rows: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for level in args["levels"]:
        mine = [line for line in level_lines if line["unit"][1] == level and line["unit"][2] in common]
        rows[level] = [(line["unit"][2], r) for line in mine for r in line["decisions"]]
        if not rows[level]:
            continue
        mean, low, high = ratio_interval(per_hand(rows[level]), rng)
        seconds = [line["seconds"] for line in mine]
        report["levels"][level] = {
            "hands": len(mine), "decisions": len(rows[level]), "forced": sum(line["forced"] for line in mine),
            "mean_loss": mean, "low": low, "high": high,
            "labels": {label: sum(1 for _, r in rows[level] if r["label"] == label) / len(rows[level])
                       for label in LABELS},
            "side_score_per_hand": statistics.fmean(line["score"] for line in mine if line["score"] is not None),
            "seconds_per_hand": statistics.fmean(seconds), "seconds": sum(seconds)}
    present = [level for level in args["levels"] if rows.get(level)]
    for weaker, stronger in itertools.pairwise(present):
        gap, low, high, n = diff_interval(per_hand(rows[weaker]), per_hand(rows[stronger]), rng)
        report["gaps"].append({"weaker": weaker, "stronger": stronger, "gap": gap, "low": low, "high": high,
                               "hands": n})
    expert = rows.get("expert", [])
    asked: dict[tuple[str, int, int], dict[str, Any]] = {
        (line["unit"][1], line["unit"][2], r["index"]): r for line in lines if line["unit"][0] == "compare"
        for r in line["decisions"]}
    for level in present:
        marked = [(h, r, r["master"], r["differs"]) if "differs" in r else
                  (h, r, asked[level, h, r["index"]]["stronger"], asked[level, h, r["index"]]["differs"])
                  for h, r in rows[level] if "differs" in r or (level, h, r["index"]) in asked]
        replayed = [asked[level, h, r["index"]]["played"] for h, r in rows[level] if (level, h, r["index"]) in asked]
        assert replayed == [r["played"] for h, r in rows[level] if (level, h, r["index"]) in asked], \
            f"{level}: playing the hands again did not give the same moves"
        if not marked or len(marked) < len(rows[level]):
            continue  # the next level up was not asked at every decision (yet)
        entry: dict[str, Any] = {"level": level, "stronger": "master" if level == "expert" else STRONGER[level],
                                 "decisions": len(marked)}
        for name, keep in (("differs", True), ("same", False)):
            chosen = [(h, r, m) for h, r, m, differs in marked if differs == keep]
            if chosen:
                mean, low, high = ratio_interval(per_hand([(h, r) for h, r, _ in chosen]), rng)
                entry[name] = {"decisions": len(chosen), "hands": len({h for h, _, _ in chosen}), "mean_loss": mean,
                               "low": low, "high": high,
                               "positive": sum(1 for _, r, _ in chosen if r["loss"] > 0) / len(chosen),
                               "review_best_is_stronger": sum(1 for _, r, m in chosen if same_move(r["best"], m))
                               / len(chosen)}
        report["stronger"].append(entry)
    report["duels"] = duels(lines, rows, rng)
    everything = [r for level in present for _, r in rows[level]]
    played_best = [r for r in everything if r["played"] == r["best"]]
    report["zero"] = {
        "decisions": len(everything), "played_is_best": len(played_best),
        "played_is_best_with_loss_0_and_label_best": sum(1 for r in played_best
                                                          if r["loss"] == 0.0 and r["label"] == "best"),
        "loss_0_with_played_best": sum(1 for r in everything if r["loss"] == 0.0 and r["played"] == r["best"]),
        "loss_0": sum(1 for r in everything if r["loss"] == 0.0)}
    again = [r["best_again"] for _, r in expert if "best_again" in r]
    if again:
        report["zero"]["best_replayed"] = {
            "decisions": len(again), "loss_0": sum(1 for a in again if a["loss"] == 0.0),
            "best_or_good": sum(1 for a in again if a["label"] in ("best", "good")),
            "mean_loss": statistics.fmean(a["loss"] for a in again),
            "original_mean_loss": statistics.fmean(r["loss"] for _, r in expert if "best_again" in r)}
    report["agreement"] = agreement(lines)
    report["seconds"] = sum(line["seconds"] for line in lines)
    return report


def duels(lines: list[dict[str, Any]], rows: dict[str, list[tuple[int, dict[str, Any]]]],
           rng: random.Random) -> list[dict[str, Any]]:
    """Per level dueled: the points the next level up's move gains where the two differ, per such decision and
    per scored decision of the level (all its decisions in the hands dueled), with 95% intervals over hands."""
    out = []
    for level in dict.fromkeys(line["unit"][1] for line in lines if line["unit"][0] == "duel"):
        mine = {line["unit"][2]: line for line in lines if line["unit"][0] == "duel" and line["unit"][1] == level}
        hands = sorted(mine)
        gains = {h: (sum(r["gain"] for r in mine[h]["decisions"]), len(mine[h]["decisions"])) for h in hands}
        scored = per_hand([(h, r) for h, r in rows.get(level, []) if h in mine])
        differing, low, high = ratio_interval({h: g for h, g in gains.items() if g[1]}, rng)
        entry = {"level": level, "stronger": mine[hands[0]]["stronger"], "hands": len(hands),
                 "decisions": sum(n for _, n in gains.values()), "gain": differing, "low": low, "high": high,
                 "deals": max((r["deals"] for line in mine.values() for r in line["decisions"]), default=0),
                 "better": sum(1 for line in mine.values() for r in line["decisions"] if r["gain"] > 0)}
        if scored:
            per = {h: (gains[h][0], scored[h][1]) for h in hands if h in scored}
            entry["per_decision"], entry["per_low"], entry["per_high"] = ratio_interval(per, rng)
            entry["scored"] = sum(n for _, n in per.values())
        out.append(entry)
    return out


def agreement(lines: list[dict[str, Any]]) -> dict[str, Any] | None:
    """How often reviews of the same decisions with different analysis seeds give the same label."""
    reviews: dict[int, dict[int, dict[int, dict[str, Any]]]] = {}
    for line in lines:
        if line["unit"][0] == "agree":
            _, seed, hand = line["unit"]
            reviews.setdefault(hand, {})[seed] = {r["index"]: r for r in line["decisions"]}
    seeds = sorted({s for by_seed in reviews.values() for s in by_seed})
    full = {h: by_seed for h, by_seed in reviews.items() if sorted(by_seed) == seeds}
    if len(seeds) < 2 or not full:
        return None
    labels: list[list[int]] = []
    losses: list[list[float]] = []
    for by_seed in full.values():
        for index in by_seed[seeds[0]]:
            if all(index in by_seed[s] for s in seeds):
                labels.append([LABELS.index(by_seed[s][index]["label"]) for s in seeds])
                losses.append([by_seed[s][index]["loss"] for s in seeds])
    pairs = list(itertools.combinations(range(len(seeds)), 2))
    n = len(labels)
    return {
        "seeds": seeds, "hands": len(full), "decisions": n,
        "all_same": sum(1 for ls in labels if len(set(ls)) == 1) / n,
        "pairs_same": statistics.fmean(sum(1 for ls in labels if ls[i] == ls[j]) / n for i, j in pairs),
        "all_within_one": sum(1 for ls in labels if max(ls) - min(ls) <= 1) / n,
        "all_best": sum(1 for ls in labels if max(ls) == 0) / n,
        "mistake_against_best_or_good": sum(1 for ls in labels if max(ls) >= 3 and min(ls) <= 1) / n,
        "majority": sum(1 for ls in labels if max(ls.count(x) for x in ls) * 2 > len(ls)) / n,
        "loss_sd": statistics.fmean(statistics.pstdev(x) for x in losses) if len(seeds) > 1 else 0.0,
        "labels": {label: sum(ls.count(i) for ls in labels) / (n * len(seeds)) for i, label in enumerate(LABELS)},
        "seconds_per_review": statistics.fmean(line["seconds"] for line in lines if line["unit"][0] == "agree"
                                               and line["unit"][2] in full)}


def text(report: dict[str, Any]) -> str:
    s = report["settings"]
    out = [f"{report['hands']} hands every level played (deck seed {s['seed']}), the level at one seat and "
           f"{OPPONENT} at three; reviewed at {s['rollouts']} rollouts, {s['candidates']} candidates; "
           f"master = {s['master']}"]
    for level, r in report["levels"].items():
        out.append(f"{level:>7}: {r['hands']} hands, {r['decisions']} decisions ({r['forced']} forced), "
                   f"EPL per decision {r['mean_loss']:.1f} [{r['low']:.1f}, {r['high']:.1f}]; labels "
                   + " ".join(f"{k} {v:.1%}" for k, v in r["labels"].items())
                   + f"; side's score {r['side_score_per_hand']:+.0f} a hand; {r['seconds_per_hand']:.1f} s a hand")
    for g in report["gaps"]:
        out.append(f"{g['weaker']} - {g['stronger']}: {g['gap']:+.1f} [{g['low']:+.1f}, {g['high']:+.1f}] "
                   f"over {g['hands']} hands")
    for e in report["stronger"]:
        for name in ("differs", "same"):
            if name in e:
                m = e[name]
                which = "another" if name == "differs" else "the same"
                out.append(f"{e['level']}'s decisions where {e['stronger']} plays {which} move: {m['decisions']} in "
                           f"{m['hands']} hands, EPL {m['mean_loss']:.1f} [{m['low']:.1f}, {m['high']:.1f}], "
                           f"{m['positive']:.0%} with a loss; the review's best is {e['stronger']}'s move in "
                           f"{m['review_best_is_stronger']:.0%}")
    for d in report.get("duels", []):
        line = (f"duel {d['level']} against {d['stronger']} ({d['deals']} deals each): {d['decisions']} decisions "
                f"differ in {d['hands']} hands; the stronger move gains {d['gain']:+.1f} [{d['low']:+.1f}, "
                f"{d['high']:+.1f}] points where they differ, better in {d['better']}")
        if "per_decision" in d:
            line += (f"; {d['per_decision']:+.1f} [{d['per_low']:+.1f}, {d['per_high']:+.1f}] per scored decision "
                     f"of {d['level']} ({d['scored']})")
        out.append(line)
    z = report["zero"]
    out.append(f"played = best: {z['played_is_best']} of {z['decisions']} decisions, all with loss 0 and label best: "
               f"{z['played_is_best_with_loss_0_and_label_best']}; loss 0: {z['loss_0']}, of which played = best "
               f"{z['loss_0_with_played_best']}")
    if "best_replayed" in z:
        b = z["best_replayed"]
        out.append(f"the best move found reviewed as the move played: {b['decisions']} decisions (mean loss "
                   f"{b['original_mean_loss']:.1f}): loss 0 in {b['loss_0']}, best or good in {b['best_or_good']}, "
                   f"mean loss {b['mean_loss']:.1f}")
    a = report["agreement"]
    if a:
        out.append(f"seeds {a['seeds']}, {a['decisions']} decisions of {a['hands']} hands: the same label in every "
                   f"review {a['all_same']:.0%}, in a pair of reviews {a['pairs_same']:.0%}, a majority label "
                   f"{a['majority']:.0%}, all within one step {a['all_within_one']:.0%}, best in all "
                   f"{a['all_best']:.0%}, mistake or blunder against best or good "
                   f"{a['mistake_against_best_or_good']:.1%}; loss sd {a['loss_sd']:.1f}; "
                   f"{a['seconds_per_review']:.1f} s a review of one hand")
    out.append(f"{report['seconds'] / 3600:.2f} hours of work in all")
    return "\n".join(out)


def markdown(report: dict[str, Any]) -> str:
    levels = report["levels"]
    out = ["| level | hands | scored decisions | EPL per decision, 95% interval | best | good | inaccuracy | "
           "mistake | blunder | side's score a hand |", "| --- |" + " ---: |" * 9]
    for level, r in levels.items():
        out.append(f"| `{level}` | {r['hands']} | {r['decisions']} | **{r['mean_loss']:.1f}** ({r['low']:.1f} to "
                   f"{r['high']:.1f}) | " + " | ".join(f"{r['labels'][k]:.1%}" for k in LABELS)
                   + f" | {r['side_score_per_hand']:+.0f} |")
    out += ["", "| levels | difference in EPL per decision, 95% interval | hands |", "| --- | ---: | ---: |"]
    for g in report["gaps"]:
        out.append(f"| `{g['weaker']}` − `{g['stronger']}` | {g['gap']:+.1f} ({g['low']:+.1f} to {g['high']:+.1f}) "
                   f"| {g['hands']} |")
    if report.get("duels"):
        out += ["", "| decisions of | against | hands | decisions that differ | points the stronger move gains where "
                "they differ, 95% interval | better in | per scored decision of the level |",
                "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
        for d in report["duels"]:
            per = (f"{d['per_decision']:+.1f} ({d['per_low']:+.1f} to {d['per_high']:+.1f})"
                   if "per_decision" in d else "")
            out.append(f"| `{d['level']}` | `{d['stronger']}` | {d['hands']} | {d['decisions']} | **{d['gain']:+.1f}** "
                       f"({d['low']:+.1f} to {d['high']:+.1f}) | {d['better'] / max(1, d['decisions']):.0%} | {per} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=32)
    parser.add_argument("--candidates", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--master", default=MASTER, help="the master's spec (a number of rollouts: reproducible)")
    parser.add_argument("--zero-hands", type=int, default=50, help="expert hands whose best moves are reviewed again")
    parser.add_argument("--agree-hands", type=int, default=16)
    parser.add_argument("--agree-seeds", type=int, default=3)
    parser.add_argument("--agree-rollouts", type=int, default=200)
    parser.add_argument("--duel", default="", help="levels (comma-separated) whose decisions are played out against "
                        "the next level up's where the two differ")
    parser.add_argument("--duel-rollouts", type=int, default=64)
    parser.add_argument("--out", default="benchmarks/results/review_evidence.jsonl")
    parser.add_argument("--report", action="store_true", help="print the figures from --out without playing")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json", action="store_true")
    ns = parser.parse_args()
    args = {**vars(ns), "levels": ns.levels.split(","), "duel": [x for x in ns.duel.split(",") if x]}
    unknown = [x for x in args["duel"] if x not in STRONGER_OR_MASTER]
    if unknown:
        parser.error(f"--duel: no level above {', '.join(unknown)} (choose from {', '.join(STRONGER_OR_MASTER)})")
    if ns.report:
        header, lines = load(ns.out)
        if header is not None:
            args.update(header)
    else:
        lines = collect(args)
    report = describe(args, lines)
    if ns.json:
        print(json.dumps(report, indent=1))
    else:
        print(text(report))
        if ns.markdown:
            print()
            print(markdown(report))


if __name__ == "__main__":
    main()
