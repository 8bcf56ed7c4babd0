"""A tournament's results and their scores against the field, kept up to date as boards finish.

A server records each table's result of a board as it ends (:meth:`Scoreboard.record`), or an
artificial score where a board could not be played (:meth:`Scoreboard.adjust`), or a side's withdrawal
(:meth:`Scoreboard.withdraw`); :meth:`Scoreboard.board_scores` and :meth:`Scoreboard.standings` score
whatever is recorded so far (docs/tournament.md, "Scoring"):

- a side's result on a board is its *net*: its hand score minus the mean of the other sides' at its table;
- it earns 2 matchpoints for each side of the same direction with a lower net, 1 for each with the same;
- a board played by fewer tables than the most that played any board (the *field*) is factored by
  Neuberg's formula; a board that could not be played scores 60%, 50% or 40% of the top as the
  director rules (average-plus, average, average-minus), the sides still at a table where another
  side withdrew get average-plus, and a withdrawn side gets nothing more;
- the *difference* is a side's net minus the board's average net in its direction;
- only boards that some table has recorded count, so live standings never score a board ahead of play;
- a side's result is its matchpoints as a percentage of the tops of the boards it has a score on.

>>> from canasta.rules import Rules
>>> t = Tournament(Rules(), [["basic"] * 4] * 3, boards=1, seed=1)
>>> board = Scoreboard(t)
>>> for table, totals in enumerate([(500, 100), (300, 300), (-50, 350)]):
...     board.record(BoardResult(0, table, totals))
>>> [(s.entry.label, str(s.net), str(s.matchpoints), str(s.difference)) for s in board.board_scores(0)[:3]]
[('1A', '400', '4', '400'), ('1B', '-400', '0', '-400'), ('2A', '0', '2', '0')]
>>> [(s.entry.label, s.percent_text) for s in board.standings()]
[('1A', '100.00'), ('3B', '100.00'), ('2A', '50.00'), ('2B', '50.00'), ('1B', '0.00'), ('3A', '0.00')]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .matchpoints import ADJUSTED, AVERAGE_PLUS, adjusted_points, matchpoints, nets, neuberg, top
from .spec import Entry, Tournament, TournamentError


@dataclass(frozen=True)
class BoardResult:
    """What one table did on one board: each side's hand score, or an artificial score per side.

    ``totals`` are the hand's scores by direction (the side numbers at the table); ``adjusted`` instead
    gives each side's artificial score in percent (60, 50 or 40) for a board that could not be played."""

    board: int
    table: int
    totals: tuple[int, ...] | None = None
    adjusted: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if (self.totals is None) == (self.adjusted is None):
            raise TournamentError(f"board {self.board + 1} at table {self.table + 1}: give the scores or the "
                                  "artificial scores, one of the two")
        if self.totals is not None:
            object.__setattr__(self, "totals", tuple(self.totals))
        if self.adjusted is not None:
            object.__setattr__(self, "adjusted", tuple(self.adjusted))
            wrong = [p for p in self.adjusted if p not in ADJUSTED]
            if wrong:
                raise TournamentError(f"board {self.board + 1} at table {self.table + 1}: an artificial score is "
                                      f"{', '.join(map(str, ADJUSTED))} percent, not {wrong[0]}")

    @property
    def played(self) -> bool:
        """True for a board played to its end (not an artificial score)."""
        return self.totals is not None

    def to_json(self) -> dict[str, Any]:
        """The result as one JSON object, boards and tables from 0."""
        data: dict[str, Any] = {"board": self.board, "table": self.table}
        if self.totals is not None:
            data["totals"] = list(self.totals)
        if self.adjusted is not None:
            data["adjusted"] = list(self.adjusted)
        return data

    @classmethod
    def from_json(cls, data: object) -> BoardResult:
        """The result :meth:`to_json` wrote; a :class:`TournamentError` for anything else."""
        if not isinstance(data, Mapping):
            raise TournamentError("a board result is a JSON object")
        board, table = data.get("board"), data.get("table")
        totals, adjusted = data.get("totals"), data.get("adjusted")
        if not isinstance(board, int) or not isinstance(table, int):
            raise TournamentError("a board result names its board and table (numbers from 0)")
        for part in (totals, adjusted):
            if part is not None and (not isinstance(part, list)
                                     or not all(isinstance(n, int) and not isinstance(n, bool) for n in part)):
                raise TournamentError("a board result's totals (or artificial scores) are whole numbers per side")
        return cls(board, table, None if totals is None else tuple(totals),
                   None if adjusted is None else tuple(adjusted))


@dataclass(frozen=True)
class Score:
    """One side's score on one board: its net and difference (None for an artificial score) and matchpoints."""

    board: int
    table: int
    entry: Entry
    totals: tuple[int, ...] | None
    net: Fraction | None
    matchpoints: Fraction
    top: int
    difference: Fraction | None
    adjusted: int | None = None
    """The artificial score in percent, for a board not played at this table."""

    @property
    def percent(self) -> Fraction | None:
        """The matchpoints as a percentage of the top (None when nothing is compared yet)."""
        return Fraction(100) * self.matchpoints / self.top if self.top else None

    def to_json(self) -> dict[str, Any]:
        """The score as one JSON object (numbers rounded to 2 decimals; boards and tables from 0)."""
        return {"board": self.board, "table": self.table, **self.entry.to_json(),
                "totals": None if self.totals is None else list(self.totals),
                "net": rounded(self.net), "matchpoints": rounded(self.matchpoints), "top": self.top,
                "percent": rounded(self.percent), "difference": rounded(self.difference), "adjusted": self.adjusted}


@dataclass(frozen=True)
class Standing:
    """An entry's tournament result: matchpoints over the tops of its boards, and its points difference."""

    rank: int | None
    """From 1, shared by equal percentages; None for a withdrawn entry or one with nothing compared yet."""
    tied: bool
    entry: Entry
    boards: int
    matchpoints: Fraction
    top: int
    difference: Fraction
    withdrawn: bool = False

    @property
    def percent(self) -> Fraction | None:
        """Matchpoints as a percentage of the top (None before anything is compared)."""
        return Fraction(100) * self.matchpoints / self.top if self.top else None

    @property
    def percent_text(self) -> str:
        """The percentage to two decimals, or ``-``."""
        percent = self.percent
        return "-" if percent is None else f"{float(percent):.2f}"

    @property
    def rank_text(self) -> str:
        """``1``, ``=2`` for a shared rank, ``-`` for none."""
        return "-" if self.rank is None else f"{'=' if self.tied else ''}{self.rank}"

    def to_json(self) -> dict[str, Any]:
        """The standing as one JSON object: ``players``, ``matchpoints`` and ``percent`` among the rest."""
        return {"rank": self.rank, "tied": self.tied, **self.entry.to_json(), "boards": self.boards,
                "matchpoints": rounded(self.matchpoints), "top": self.top, "percent": rounded(self.percent),
                "difference": rounded(self.difference), "withdrawn": self.withdrawn}


def rounded(value: Fraction | None) -> float | None:
    """A number for JSON: two decimals."""
    return None if value is None else round(float(value), 2)


class Scoreboard:
    """The results recorded so far and their scores; record results in any order, score at any time."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.results: dict[tuple[int, int], BoardResult] = {}
        """Every result by (board, table)."""
        self.withdrawn: dict[int, int] = {}
        """Withdrawn entries by number: the first board they do not play."""

    # -- recording -----------------------------------------------------------------------------

    def record(self, result: BoardResult, replace: bool = False) -> None:
        """Add a table's result of a board (``replace``: a director's correction of one already there); a
        :class:`TournamentError` if it does not fit, or is there already and ``replace`` is not given."""
        t = self.tournament
        t.check_board(result.board)
        t.check_table(result.table)
        given = result.totals if result.totals is not None else result.adjusted
        assert given is not None
        if len(given) != t.rules.sides:
            raise TournamentError(f"board {result.board + 1} at table {result.table + 1}: {t.rules.sides} sides "
                                  f"score, not {len(given)}")
        key = (result.board, result.table)
        if key in self.results and not replace:
            raise TournamentError(f"board {result.board + 1} at table {result.table + 1} is already recorded")
        self.results[key] = result

    def adjust(self, board: int, table: int, percents: Sequence[int]) -> None:
        """Record artificial scores (60, 50 or 40 percent per side) for a board that could not be played."""
        self.record(BoardResult(board, table, adjusted=tuple(percents)))

    def withdraw(self, entry: int, from_board: int) -> None:
        """An entry leaves before board ``from_board``: its later boards score nothing for it, and the sides
        left at its table get average-plus on them (unless a result is recorded there)."""
        self.tournament.check_board(from_board)
        if not 0 <= entry < len(self.tournament.entries):
            raise TournamentError(f"there is no entry {entry}")
        self.withdrawn[entry] = min(from_board, self.withdrawn.get(entry, from_board))

    # -- scoring -------------------------------------------------------------------------------

    def field(self) -> int:
        """The number of results a board is compared among: the most tables that played any board (at least 1)."""
        counts: dict[int, int] = {}
        for (board, _), result in self.results.items():
            if result.played:
                counts[board] = counts.get(board, 0) + 1
        return max(counts.values(), default=1)

    def pending(self, board: int) -> list[int]:
        """The tables (from 0) still to record a board: no result there, and nobody there has withdrawn."""
        t = self.tournament
        t.check_board(board)
        return [table for table in range(len(t.tables)) if (board, table) not in self.results
                and not any(self.is_gone(e, board) for e in t.seating(board, table))]

    def is_gone(self, entry: Entry, board: int) -> bool:
        """True when the entry has withdrawn before this board."""
        return self.withdrawn.get(entry.number, self.tournament.boards) <= board

    def board_scores(self, board: int, field: int | None = None) -> list[Score]:
        """Every side's score on a board, table by table (direction by direction at each)."""
        t = self.tournament
        t.check_board(board)
        field = self.field() if field is None else field
        best = top(field)
        played = [(table, r) for (b, table), r in sorted(self.results.items()) if b == board and r.played]
        table_nets = {table: nets(r.totals) for table, r in played if r.totals is not None}
        scores: list[Score] = []
        per_direction: list[tuple[list[int], list[Fraction], list[Fraction]]] = []
        for direction in range(t.rules.sides):
            results = [table_nets[table][direction] for table, _ in played]
            points = [neuberg(p, len(results), field) for p in matchpoints(results)] if results else []
            average = sum(results, Fraction(0)) / len(results) if results else Fraction(0)
            per_direction.append(([table for table, _ in played], points, [r - average for r in results]))
        for table in range(len(t.tables)):
            seating = t.seating(board, table)
            result = self.results.get((board, table))
            for direction, entry in enumerate(seating):
                if result is not None and result.totals is not None:
                    tables, points, differences = per_direction[direction]
                    at = tables.index(table)
                    scores.append(Score(board, table, entry, result.totals, table_nets[table][direction],
                                        points[at], best, differences[at]))
                elif result is not None and result.adjusted is not None:
                    percent = result.adjusted[direction]
                    scores.append(Score(board, table, entry, None, None, adjusted_points(percent, field), best,
                                        None, percent))
                elif (not self.is_gone(entry, board)
                      and any(self.is_gone(other, board) for other in seating if other is not entry)):
                    scores.append(Score(board, table, entry, None, None, adjusted_points(AVERAGE_PLUS, field), best,
                                        None, AVERAGE_PLUS))
        return [s for s in scores if not self.is_gone(s.entry, board)]

    def standings(self) -> list[Standing]:
        """Every entry's result so far, best first; equal percentages share a rank, withdrawn entries come last."""
        t = self.tournament
        field = self.field()
        scores: dict[int, list[Score]] = {e.number: [] for e in t.entries}
        for board in sorted({b for b, _ in self.results}):  # a board under way or done (withdrawals included)
            for score in self.board_scores(board, field):
                scores[score.entry.number].append(score)
        rows = [Standing(None, False, e, len(mine), sum((s.matchpoints for s in mine), Fraction(0)),
                         sum(s.top for s in mine), sum((s.difference or Fraction(0) for s in mine), Fraction(0)),
                         e.number in self.withdrawn)
                for e, mine in ((e, scores[e.number]) for e in t.entries)]
        ranked = sorted((r for r in rows if not r.withdrawn and r.percent is not None),
                        key=lambda r: (-(r.percent or 0), r.entry.number))
        others = [r for r in rows if r.withdrawn or r.percent is None]
        out: list[Standing] = []
        for row in ranked:
            first = next(i for i, r in enumerate(ranked) if r.percent == row.percent)
            tied = sum(1 for r in ranked if r.percent == row.percent) > 1
            out.append(dataclasses.replace(row, rank=first + 1, tied=tied))
        return out + sorted(others, key=lambda r: (r.percent is None, -(r.percent or 0), r.entry.number))

    # -- text ----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The tournament, every result and withdrawal (boards, tables and entries from 0)."""
        return {"tournament": self.tournament.to_json(),
                "results": [r.to_json() for _, r in sorted(self.results.items())],
                "withdrawn": [{"entry": e, "from_board": b} for e, b in sorted(self.withdrawn.items())]}

    @classmethod
    def from_json(cls, data: object) -> Scoreboard:
        """The scoreboard :meth:`to_json` wrote; a :class:`TournamentError` for anything else."""
        if not isinstance(data, Mapping):
            raise TournamentError("a scoreboard is a JSON object")
        board = cls(Tournament.from_json(data.get("tournament")))
        results = data.get("results", [])
        withdrawn = data.get("withdrawn", [])
        if not isinstance(results, list) or not isinstance(withdrawn, list):
            raise TournamentError("a scoreboard's results and withdrawals are lists")
        for item in results:
            board.record(BoardResult.from_json(item))
        for item in withdrawn:
            if not isinstance(item, Mapping) or not isinstance(item.get("entry"), int) \
                    or not isinstance(item.get("from_board"), int):
                raise TournamentError("a withdrawal names its entry and first board missed (numbers from 0)")
            board.withdraw(item["entry"], item["from_board"])
        return board
