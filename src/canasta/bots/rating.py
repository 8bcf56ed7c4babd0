"""Ratings on one scale from duplicate results: Bradley-Terry (Elo) on wins, least squares on points.

Standard library only.  Two fits, both anchored at one player rated 0, both with 95% intervals
from the fit's covariance (the inverse of its information matrix):

- :func:`elo_ratings`: the Bradley-Terry model, P(i beats j) = 1 / (1 + 10**((r_j - r_i) / 400)),
  fitted by maximum likelihood to wins (a tie is half a win each).  ``prior`` adds that many
  games per pair split evenly, so a player who won every game still gets a finite rating.
- :func:`points_ratings`: ratings r such that r_i - r_j fits each pair's mean points per hand,
  weighted least squares with weights 1 / stderr**2 (the generalised "strength in points").

With two players both are the textbook figures:

>>> [round(r.value, 1) for r in elo_ratings(["a", "b"], [Games(0, 1, 75, 25)], anchor=1, prior=0)]
[190.8, 0.0]
>>> a, b = points_ratings(["a", "b"], [PairPoints(0, 1, 40.0, 10.0)], anchor=1)
>>> a.value, a.interval
(40.0, (20.4, 59.6))
>>> wilson(5, 10)
(0.2366, 0.7634)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""
ELO = 400.0 / math.log(10.0)
"""Elo points per unit of the logistic scale."""


class RatingError(ValueError):
    """Results that fix no rating: a player who met nobody, players in separate groups, no games."""


@dataclass(frozen=True)
class Games:
    """Games between players ``i`` and ``j``: wins of each (a tie counts half to both)."""

    i: int
    j: int
    wins_i: float
    wins_j: float


@dataclass(frozen=True)
class PairPoints:
    """Player ``i``'s mean points per hand over player ``j`` and the standard error of that mean."""

    i: int
    j: int
    mean: float
    stderr: float


@dataclass(frozen=True)
class Rating:
    """A player's rating and its standard error (0 for the anchor)."""

    name: str
    value: float
    stderr: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval, rounded to 0.1."""
        half = Z95 * self.stderr
        return round(self.value - half, 1), round(self.value + half, 1)


# -- the two fits -----------------------------------------------------------------------------


def elo_ratings(names: Sequence[str], games: Sequence[Games], anchor: int = 0, prior: float = 1.0,
                iterations: int = 100) -> list[Rating]:
    """Bradley-Terry ratings in Elo points (``anchor`` at 0) by Newton's method on the log-likelihood."""
    k = len(names)
    _check(k, [(g.i, g.j) for g in games if g.wins_i + g.wins_j + prior > 0], anchor)
    free = [p for p in range(k) if p != anchor]
    at = {p: n for n, p in enumerate(free)}
    wins = [[0.0] * k for _ in range(k)]
    for g in games:
        wins[g.i][g.j] += g.wins_i
        wins[g.j][g.i] += g.wins_j
    if prior > 0:
        met = {(min(g.i, g.j), max(g.i, g.j)) for g in games}
        for i, j in met:
            wins[i][j] += prior / 2
            wins[j][i] += prior / 2
    for p in range(k):
        if sum(wins[p]) == 0 or sum(wins[q][p] for q in range(k)) == 0:
            raise RatingError(f"{names[p]} won or lost every game: add prior games (prior > 0) to rate it")
    beta = [0.0] * k
    info: list[list[float]] = []
    for _ in range(iterations):
        grad = [0.0] * len(free)
        info = [[0.0] * len(free) for _ in free]
        for i in range(k):
            for j in range(i + 1, k):
                n = wins[i][j] + wins[j][i]
                if n == 0:
                    continue
                chance = 1.0 / (1.0 + math.exp(beta[j] - beta[i]))
                slope, w = wins[i][j] - n * chance, n * chance * (1.0 - chance)
                for a, b, sign in ((i, j, 1.0), (j, i, -1.0)):
                    if a in at:
                        grad[at[a]] += sign * slope
                        info[at[a]][at[a]] += w
                        if b in at:
                            info[at[a]][at[b]] -= w
        step = _solve(info, grad)
        biggest = max((abs(s) for s in step), default=0.0)
        if biggest > 2.0:  # damped: a long step on extreme results could overshoot
            step = [s * 2.0 / biggest for s in step]
        for p, s in zip(free, step):
            beta[p] += s
        if max((abs(s) for s in step), default=0.0) < 1e-12:
            break
    cov = _inverse(info)
    return [Rating(names[p], ELO * beta[p], 0.0 if p == anchor else ELO * math.sqrt(cov[at[p]][at[p]]))
            for p in range(k)]


def points_ratings(names: Sequence[str], pairs: Sequence[PairPoints], anchor: int = 0) -> list[Rating]:
    """Points per hand over ``anchor`` (at 0): weighted least squares on each pair's mean difference."""
    k = len(names)
    _check(k, [(p.i, p.j) for p in pairs], anchor)
    free = [p for p in range(k) if p != anchor]
    at = {p: n for n, p in enumerate(free)}
    normal = [[0.0] * len(free) for _ in free]
    rhs = [0.0] * len(free)
    for pair in pairs:
        if not pair.stderr > 0:
            raise RatingError(f"{names[pair.i]} vs {names[pair.j]}: no spread to weigh the mean by "
                              "(play at least two deals)")
        w = 1.0 / pair.stderr ** 2
        for a, b, sign in ((pair.i, pair.j, 1.0), (pair.j, pair.i, -1.0)):
            if a in at:
                rhs[at[a]] += sign * w * pair.mean
                normal[at[a]][at[a]] += w
                if b in at:
                    normal[at[a]][at[b]] -= w
    cov = _inverse(normal)
    value = [sum(cov[r][c] * rhs[c] for c in range(len(free))) for r in range(len(free))]
    return [Rating(names[p], 0.0 if p == anchor else value[at[p]],
                   0.0 if p == anchor else math.sqrt(cov[at[p]][at[p]])) for p in range(k)]


# -- intervals of one pair, percentiles ---------------------------------------------------------


def mean_ci(units: Sequence[tuple[float, int]]) -> tuple[float, tuple[float, float] | None]:
    """Mean per hand and its 95% interval from units of (sum of differences, hands).

    A ratio estimator over independent units; with equal units (a deal and its replays)
    it is the normal interval over the units' mean differences.  No interval below two units.
    """
    hands = sum(h for _, h in units)
    mean = sum(d for d, _ in units) / hands
    n = len(units)
    if n < 2:
        return mean, None
    spread = sum((d - mean * h) ** 2 for d, h in units) / (n - 1)
    half = Z95 * math.sqrt(spread / n) / (hands / n)
    return mean, (mean - half, mean + half)


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The Wilson 95% interval of a proportion ``wins / n``."""
    z2 = Z95 * Z95
    p = wins / n
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (0 < q <= 100) of ``values``.

    >>> percentile([5, 1, 4, 2, 3], 50), percentile(range(1, 101), 95)
    (3, 95)
    """
    if not values:
        raise ValueError("no values to take a percentile of")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


# -- linear algebra (a few players: Gauss-Jordan is plenty) --------------------------------------


def _check(k: int, met: Sequence[tuple[int, int]], anchor: int) -> None:
    """Every player joined to the anchor by games, or a :class:`RatingError`."""
    if not 0 <= anchor < k:
        raise RatingError(f"the anchor must be one of the {k} players")
    links: dict[int, set[int]] = {p: set() for p in range(k)}
    for i, j in met:
        links[i].add(j)
        links[j].add(i)
    seen, todo = {anchor}, [anchor]
    while todo:
        for q in links[todo.pop()] - seen:
            seen.add(q)
            todo.append(q)
    if len(seen) < k:
        raise RatingError("every player must meet the others, directly or through others")


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """The inverse of a symmetric positive definite matrix (Gauss-Jordan with partial pivoting)."""
    n = len(matrix)
    rows = [list(row) + [1.0 if c == r else 0.0 for c in range(n)] for r, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-300:
            raise RatingError("the results fix no rating (a singular system)")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0.0:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col])]
    return [row[n:] for row in rows]


def _solve(matrix: Sequence[Sequence[float]], rhs: Sequence[float]) -> list[float]:
    inverse = _inverse(matrix)
    return [sum(a * b for a, b in zip(row, rhs)) for row in inverse]


__all__ = ["ELO", "Z95", "Games", "PairPoints", "Rating", "RatingError", "elo_ratings", "mean_ci", "percentile",
           "points_ratings", "wilson"]
