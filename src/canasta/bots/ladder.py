"""The ladder: a round robin of duplicate games between several bots, rated on one scale (``canasta ladder``).

Every pair of bots plays the arena's duplicate format (:mod:`canasta.bots.arena`, the one
runner): the same deals, each once per replay, so every pair meets the same cards (deal ``i``
of seed ``S`` is one deck whoever plays it).  A slow bot (one that searches) may play fewer
deals (``slow_deals``) and only some opponents (``slow_vs``): the fits below need every bot
joined to the others, not every pair.  Two ratings, each anchored at one bot rated 0
(:mod:`canasta.bots.rating`):

- **points**: points per hand over the anchor, a weighted least-squares fit of every pair's
  mean point difference per hand;
- **Elo**: a Bradley-Terry fit of the games won: a deal is won by the bot whose sides scored
  more over its replays (a tie is half to each), a match (``matches``) by the side that reached
  the target first.

Each bot's decision times (median and 95th percentile per move, wall-clock) come with it.
With a ``journal`` folder (``--journal DIR``) each pair keeps its own journal there
(:func:`journal_name`) and a ladder cut short resumes where it stopped.
A pair needs two deals (or matches) for an interval; a pair whose every deal ended alike (two
bots that play the same moves) counts as known to :data:`MIN_STDERR` points.

>>> report = run_ladder(["random", "basic", "expert"], Rules.from_preset("classic"), seed=1, deals=3)
>>> [r["bot"] for r in report["ratings"]], report["anchor"]
(['expert', 'basic', 'random'], 'expert')
>>> len(report["pairs"]), report["pairs"][0]["deals"]
(3, 3)
"""

from __future__ import annotations

import hashlib
import os
import random
import re
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from ..rules import Rules
from . import make_bot
from .arena import ArenaError, Hand, Log, MatchPlay, Progress, check_run, decision_ms, run_pairs, summarize
from .rating import Z95, Games, PairPoints, RatingError, elo_ratings, mean_ci, points_ratings

DEFAULT_DEALS = 100
"""Deals per pair when none are given."""
MIN_STDERR = 0.5
"""The least standard error of a pair's mean points per hand in the fit (a pair without spread)."""


def is_slow(name: str) -> bool:
    """True for a bot that thinks for a budget (``search``): it may play fewer deals."""
    return bool(make_bot(name, random.Random(0), files=True).slow)


def journal_name(rules: Rules, a: str, b: str) -> str:
    """The file name of a pair's journal in a ladder's folder: the preset and the bots, in safe characters.

    >>> journal_name(Rules.from_preset("classic"), "search:300ms", "policy:runs/best.npz")
    'classic-search_300ms-vs-policy_runs_best.npz.jsonl'
    """
    name = "-".join(re.sub(r"[^A-Za-z0-9._+=-]", "_", part) for part in (rules.preset, a, "vs", b))
    if len(name) > 200:  # a long policy path: cut, and keep the names apart by a digest of them
        name = name[:180] + "-" + hashlib.sha256(f"{a}\0{b}".encode()).hexdigest()[:12]
    return name + ".jsonl"


def pairings(bots: Sequence[str], slow_vs: Sequence[str] | None = None) -> list[tuple[int, int]]:
    """The pairs (A, B) that meet: every pair, except that a slow bot meets only the bots in ``slow_vs``
    (two slow bots meet when either is in it).  A slow bot is A against a quick one: with three
    sides A holds one side per replay and B two, so the slow bot plays the fewest seats.

    >>> pairings(["basic", "expert", "search:4", "search:9"], slow_vs=["expert"])
    [(0, 1), (2, 1), (3, 1)]
    """
    slow = [is_slow(b) for b in bots]
    keep = set(bots if slow_vs is None else slow_vs)
    pairs = []
    for i, j in combinations(range(len(bots)), 2):
        if slow[i] and slow[j]:
            played = bots[i] in keep or bots[j] in keep
        else:
            played = (not slow[i] or bots[j] in keep) and (not slow[j] or bots[i] in keep)
        if played:
            pairs.append((j, i) if slow[j] and not slow[i] else (i, j))
    return pairs


def run_ladder(
    bots: Sequence[str],
    rules: Rules,
    seed: int,
    deals: int | None = None,
    matches: int | None = None,
    slow_deals: int | None = None,
    slow_vs: Sequence[str] | None = None,
    anchor: str | None = None,
    prior: float = 1.0,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    journal: str | os.PathLike[str] | None = None,
    log: Log | None = None,
) -> dict[str, Any]:
    """Play every pairing and rate the bots; the report is one JSON object (see the module's text).  With a
    ``journal`` folder, each pair keeps its journal there (:func:`journal_name`) and resumes from it."""
    bots = [b.strip() for b in bots]
    if len(bots) < 2:
        raise ArenaError("a ladder needs at least two bots, like --bots random,basic,expert")
    if len(set(bots)) != len(bots):
        raise ArenaError(f"a bot is named twice in {','.join(bots)}")
    check_run(bots, workers, backend, address)
    if deals is not None and matches is not None:
        raise ArenaError("give --deals or --matches, not both")
    kind = "matches" if matches is not None else "deals"
    n = matches if matches is not None else deals if deals is not None else DEFAULT_DEALS
    slow_n = n if slow_deals is None else slow_deals
    for what, count in ((kind, n), ("slow-deals", slow_n)):
        if count < 2:
            raise ArenaError(f"--{what} must be 2 or more (an interval needs two), not {count}")
    for name in slow_vs or ():
        if name not in bots:
            raise ArenaError(f"--slow-vs names {name!r}, which is not in --bots")
    anchor = anchor if anchor is not None else "expert" if "expert" in bots else bots[0]
    if anchor not in bots:
        raise ArenaError(f"the anchor {anchor!r} is not in --bots")
    slow = [is_slow(b) for b in bots]
    pairs = pairings(bots, slow_vs)
    counts = [slow_n if slow[i] or slow[j] else n for i, j in pairs]
    journals: list[Path | None] = [None] * len(pairs)
    if journal is not None:
        Path(journal).mkdir(parents=True, exist_ok=True)
        journals = [Path(journal) / journal_name(rules, bots[i], bots[j]) for i, j in pairs]
    results, seconds = run_pairs(kind, [(bots[i], bots[j], count) for (i, j), count in zip(pairs, counts)], rules,
                                 seed, workers, backend, address, progress, journals, log, f"ladder {rules.preset}")
    reports = [summarize(bots[i], bots[j], rules, seed, kind, results[p], seconds) for p, (i, j) in enumerate(pairs)]
    for report in reports:
        del report["seconds"], report["decisions_per_s"]  # the pairs played together: only the total counts
    try:
        ratings = _ratings(bots, pairs, kind, results, reports, bots.index(anchor), prior)
    except RatingError as exc:
        raise ArenaError(str(exc)) from None
    times = _times(len(bots), pairs, kind, results)
    rows = [{"bot": b, **ratings[k], "slow": slow[k], "decisions": len(times[k]), "decision_ms": decision_ms(times[k])}
            for k, b in enumerate(bots)]
    rows.sort(key=lambda r: -float(r["points"]))
    return {
        "preset": rules.preset, "rules": rules.to_json(), "seed": seed, "bots": list(bots), "anchor": anchor,
        "unit": kind, kind: n, f"slow_{kind}": slow_n, "slow_vs": None if slow_vs is None else list(slow_vs),
        "prior": prior, "ratings": rows, "pairs": reports, "seconds": round(seconds, 3),
    }


def _units(kind: str, result: Sequence[Any]) -> list[Hand]:
    """The hands of one deal (its replays) or one duplicate match (every replay's hands)."""
    if kind == "deals":
        return list(result)
    plays: Sequence[MatchPlay] = result
    return [h for p in plays for h in p.hands]


def _ratings(bots: Sequence[str], pairs: Sequence[tuple[int, int]], kind: str, results: Sequence[Sequence[Any]],
             reports: Sequence[dict[str, Any]], anchor: int, prior: float) -> list[dict[str, Any]]:
    """Each bot's points and Elo ratings with their 95% intervals."""
    points, games = [], []
    for (i, j), result, report in zip(pairs, results, reports):
        units = [_units(kind, r) for r in result]
        mean, ci = mean_ci([(sum(h.diff for h in u), len(u)) for u in units])
        stderr = (ci[1] - ci[0]) / (2 * Z95) if ci is not None else 0.0
        points.append(PairPoints(i, j, mean, max(stderr, MIN_STDERR)))
        won = ("deals_won_a", "deals_won_b", "deals_tied") if kind == "deals" else \
            ("matches_won_a", "matches_won_b", "matches_undecided")
        a, b, tied = (report[k] for k in won)
        games.append(Games(i, j, a + tied / 2, b + tied / 2))
    by_points = points_ratings(bots, points, anchor)
    by_wins = elo_ratings(bots, games, anchor, prior)
    return [{"points": round(p.value, 1), "points_ci95": list(p.interval),
             "elo": round(e.value, 1), "elo_ci95": list(e.interval)} for p, e in zip(by_points, by_wins)]


def _times(k: int, pairs: Sequence[tuple[int, int]], kind: str, results: Sequence[Sequence[Any]]) -> list[list[float]]:
    """Every decision time of each bot, over all its pairs."""
    times: list[list[float]] = [[] for _ in range(k)]
    for (i, j), result in zip(pairs, results):
        for r in result:
            for hand in _units(kind, r):
                times[i].extend(hand.times[0])
                times[j].extend(hand.times[1])
    return times


__all__ = ["DEFAULT_DEALS", "MIN_STDERR", "is_slow", "journal_name", "pairings", "run_ladder"]
