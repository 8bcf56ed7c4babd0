"""The ladder's rating maths (bots/rating.py): known results give known ratings and intervals."""

from __future__ import annotations

import math

import pytest

from canasta.bots.rating import (
    ELO,
    Z95,
    Games,
    PairPoints,
    RatingError,
    elo_ratings,
    mean_ci,
    percentile,
    points_ratings,
    wilson,
)


def expected_games(elo: list[float], n: float = 1000.0) -> list[Games]:
    """Every pair's expected wins out of ``n`` games under the Bradley-Terry model with these ratings."""
    games = []
    for i in range(len(elo)):
        for j in range(i + 1, len(elo)):
            p = 1.0 / (1.0 + 10 ** ((elo[j] - elo[i]) / 400))
            games.append(Games(i, j, n * p, n * (1 - p)))
    return games


# -- Bradley-Terry (Elo) ----------------------------------------------------------------------


def test_two_players_three_to_one_is_190_elo_with_the_textbook_interval() -> None:
    a, b = elo_ratings(["a", "b"], [Games(0, 1, 75, 25)], anchor=1, prior=0)
    assert a.value == pytest.approx(400 * math.log10(3))  # 190.85
    # The logit's standard error is 1 / sqrt(n p (1 - p)): 0.2309 here.
    assert a.stderr == pytest.approx(ELO / math.sqrt(100 * 0.75 * 0.25))
    assert a.interval == (round(a.value - Z95 * a.stderr, 1), round(a.value + Z95 * a.stderr, 1))
    assert a.interval == pytest.approx((112.2, 269.5), abs=0.1)
    assert (b.value, b.stderr, b.interval) == (0.0, 0.0, (0.0, 0.0))


def test_expected_results_give_back_the_ratings_they_came_from() -> None:
    truth = [0.0, 120.0, -250.0, 400.0]
    fitted = elo_ratings(["w", "x", "y", "z"], expected_games(truth), anchor=0, prior=0)
    assert [r.value for r in fitted] == pytest.approx(truth, abs=1e-6)
    # The anchor moves the scale, never the differences.
    moved = elo_ratings(["w", "x", "y", "z"], expected_games(truth), anchor=2, prior=0)
    assert [r.value for r in moved] == pytest.approx([t + 250.0 for t in truth], abs=1e-6)
    assert fitted[1].stderr < fitted[3].stderr  # 120 is better known than 400: closer games tell more


def test_more_games_narrow_the_interval_by_the_square_root() -> None:
    few = elo_ratings(["a", "b"], [Games(0, 1, 30, 10)], anchor=1, prior=0)[0]
    many = elo_ratings(["a", "b"], [Games(0, 1, 300, 100)], anchor=1, prior=0)[0]
    assert few.value == pytest.approx(many.value)
    assert few.stderr == pytest.approx(many.stderr * math.sqrt(10))


def test_a_clean_sweep_needs_the_prior_and_then_gets_a_finite_rating() -> None:
    with pytest.raises(RatingError, match="won or lost every game"):
        elo_ratings(["a", "b"], [Games(0, 1, 20, 0)], anchor=1, prior=0)
    a, _ = elo_ratings(["a", "b"], [Games(0, 1, 20, 0)], anchor=1, prior=1.0)
    assert a.value == pytest.approx(400 * math.log10(20.5 / 0.5))  # one drawn game: 20.5 to 0.5
    strong = elo_ratings(["a", "b", "c"], [Games(0, 1, 50, 0), Games(1, 2, 30, 20), Games(0, 2, 49, 1)],
                         anchor=2, prior=1.0)
    assert strong[0].value > strong[1].value > strong[2].value == 0.0


def test_ties_count_half() -> None:
    assert elo_ratings(["a", "b"], [Games(0, 1, 10, 10)], anchor=1, prior=0)[0].value == pytest.approx(0.0)


# -- least squares on points per hand -----------------------------------------------------------


def test_consistent_pairs_give_their_differences() -> None:
    pairs = [PairPoints(0, 1, 50.0, 10.0), PairPoints(1, 2, 30.0, 10.0), PairPoints(0, 2, 80.0, 10.0)]
    a, b, c = points_ratings(["a", "b", "c"], pairs, anchor=2)
    assert (a.value, b.value, c.value) == pytest.approx((80.0, 30.0, 0.0))
    # Three equal errors s, anchored at c: the covariance is s^2 / 3 [[2, 1], [1, 2]].
    assert a.stderr == pytest.approx(10.0 * math.sqrt(2 / 3)) and b.stderr == pytest.approx(a.stderr)


def test_an_inconsistent_triangle_is_split_by_its_weights() -> None:
    # a-b = 60, b-c = 30, a-c = 60 with equal weights: the least-squares answer is a = 70, b = 20.
    pairs = [PairPoints(0, 1, 60.0, 5.0), PairPoints(1, 2, 30.0, 5.0), PairPoints(0, 2, 60.0, 5.0)]
    a, b, _ = points_ratings(["a", "b", "c"], pairs, anchor=2)
    assert (a.value, b.value) == pytest.approx((70.0, 20.0))
    # A far more precise a-c pins a to 60.
    precise = [PairPoints(0, 1, 60.0, 5.0), PairPoints(1, 2, 30.0, 5.0), PairPoints(0, 2, 60.0, 0.01)]
    assert points_ratings(["a", "b", "c"], precise, anchor=2)[0].value == pytest.approx(60.0, abs=0.01)


def test_two_players_interval_is_the_pairs_own() -> None:
    a, _ = points_ratings(["a", "b"], [PairPoints(1, 0, -40.0, 10.0)], anchor=1)
    assert a.value == pytest.approx(40.0) and a.interval == (20.4, 59.6)


def test_results_that_fix_no_rating_are_refused() -> None:
    with pytest.raises(RatingError, match="meet"):
        points_ratings(["a", "b", "c"], [PairPoints(0, 1, 5.0, 1.0)], anchor=0)
    with pytest.raises(RatingError, match="meet"):
        elo_ratings(["a", "b", "c", "d"], [Games(0, 1, 5, 5), Games(2, 3, 5, 5)], anchor=0)
    with pytest.raises(RatingError, match="spread"):
        points_ratings(["a", "b"], [PairPoints(0, 1, 5.0, 0.0)], anchor=0)
    with pytest.raises(RatingError, match="anchor"):
        points_ratings(["a", "b"], [PairPoints(0, 1, 5.0, 1.0)], anchor=2)


# -- one pair's intervals, percentiles ------------------------------------------------------------


def test_mean_interval_and_wilson() -> None:
    mean, ci = mean_ci([(d, 2) for d in (100.0, -40.0, 60.0, 20.0)])
    assert mean == 17.5 and ci is not None
    spread = math.sqrt(sum((d / 2 - 17.5) ** 2 for d in (100.0, -40.0, 60.0, 20.0)) / 3)
    assert ci == pytest.approx((17.5 - Z95 * spread / 2, 17.5 + Z95 * spread / 2))
    assert mean_ci([(50.0, 2)]) == (25.0, None)
    assert wilson(5, 10) == (0.2366, 0.7634)
    assert wilson(0, 4)[0] == 0.0 and wilson(4, 4)[1] == 1.0
    low, high = wilson(2.5, 5)  # half wins (ties) are allowed
    assert low < 0.5 < high and (low, high) != wilson(5, 10)


def test_percentile_is_nearest_rank() -> None:
    assert percentile([3.0], 95) == 3.0
    assert percentile(list(range(1, 21)), 95) == 19 and percentile(list(range(1, 21)), 50) == 10
    with pytest.raises(ValueError):
        percentile([], 50)
