"""Matchpoints, the way duplicate bridge scores a board (docs/tournament.md, "Scoring").

Each result on a board is compared with every other result of the same direction (the sides that
held the same cards in the same seats): 2 matchpoints for each one it beats, 1 for each tie.  A board
played by fewer tables than the field is factored up by Neuberg's formula; a board that could not be
played at a table scores an artificial percentage (average-plus 60%, average 50%, average-minus 40%).
Everything is exact (:class:`fractions.Fraction`), so ties stay ties.

>>> matchpoints([120, 80, 80, -40])
[6, 3, 3, 0]
>>> neuberg(6, played=4, field=5)
Fraction(31, 4)
>>> [str(n) for n in nets((350, -120))], [str(n) for n in nets((300, 100, -100))]
(['470', '-470'], ['300', '0', '-300'])
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

AVERAGE_PLUS = 60
"""The artificial score, in percent of the board's top, of a side in no way at fault (bridge's Law 12C2)."""
AVERAGE = 50
"""The artificial score of a side partly at fault (or when nobody can say)."""
AVERAGE_MINUS = 40
"""The artificial score of a side directly at fault."""
ADJUSTED = (AVERAGE_PLUS, AVERAGE, AVERAGE_MINUS)
"""The artificial scores a board may get at a table where it could not be played."""

Number = int | Fraction


def nets(totals: Sequence[int]) -> tuple[Fraction, ...]:
    """Each side's result at a table: its hand score minus the mean of the other sides' scores.

    With two sides that is the difference of the two scores (one side's net is the other's, negated);
    with three, a side's score minus the mean of the other two.  The nets of a table add up to 0.
    """
    total = sum(totals)
    others = len(totals) - 1
    return tuple(Fraction(own) - Fraction(total - own, others) for own in totals)


def matchpoints(results: Sequence[Number]) -> list[int]:
    """Each result's matchpoints against the others: 2 for each one it beats, 1 for each tie.

    The matchpoints of ``n`` results add up to ``n * (n - 1)``, two for each of the ``n * (n - 1) / 2``
    comparisons; the top is ``2 * (n - 1)``.

    >>> matchpoints([5]), matchpoints([7, 7]), matchpoints([3, 9, 3])
    ([0], [1, 1], [1, 4, 1])
    """
    return [sum(2 if mine > other else 1 if mine == other else 0 for other in results) - 1 for mine in results]


def neuberg(points: Number, played: int, field: int) -> Fraction:
    """Matchpoints on a board played ``played`` times, factored to a field of ``field`` results (Neuberg).

    On the 2-per-side-beaten scale: ``(points + 1) * field / played - 1``.  The average of the board
    (``played - 1``) becomes the field's average (``field - 1``); a board played by the whole field is
    unchanged.

    >>> neuberg(2, 3, 3), neuberg(0, 1, 4), neuberg(4, 3, 4)
    (Fraction(2, 1), Fraction(3, 1), Fraction(17, 3))
    """
    if not 1 <= played <= field:
        raise ValueError(f"a board played {played} times cannot be factored to a field of {field}")
    return (Fraction(points) + 1) * field / played - 1


def top(field: int) -> int:
    """The most matchpoints a result can earn in a field of ``field`` results: 2 for each other one."""
    return 2 * (field - 1)


def adjusted_points(percent: int, field: int) -> Fraction:
    """The matchpoints of an artificial score (``percent`` of the top)."""
    return Fraction(percent * top(field), 100)
