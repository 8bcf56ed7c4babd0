"""A duplicate tournament's format: the game, the tables, the boards, the rounds and the movement.

Every table plays board 1, then board 2, ... from the same cards: board ``b`` (from 0) is hand ``b``
of the match with the tournament's seed (:func:`canasta.match.deal_deck`), dealt by seat
``b % players``; each board is one hand, played from the side totals of the tournament's score
schedule, which set each side's first-meld minimum (RULES.md 6).  A side keeps its seats' direction
(the side number at the table) for the whole tournament, so on every board it is compared with the
sides of the same direction at the other tables.  With several rounds, after each round the B sides
move one table up and the C sides (three-side games) one table down while the A sides stay (the
*mitchell* movement), so they meet other opponents; ``fixed`` keeps every table as it sat.
Computer players at table ``t`` play board ``b`` with ``bot_random(f"{seed}:table{t}", b, seat)``,
so tables of the same bots do not simply copy each other where the bots use chance.

>>> from canasta.rules import Rules
>>> t = Tournament(Rules(), (("expert",) * 4, ("basic",) * 4), boards=4, seed=1, rounds=2)
>>> [e.label for e in t.entries], t.entries[1].players
(['1A', '1B', '2A', '2B'], ('Expert 1.2', 'Expert 1.4'))
>>> [[e.label for e in t.seating(3, table)] for table in range(2)]  # round 2: the B sides have moved
[['1A', '2B'], ['2A', '1B']]
>>> t.board(2).minimums, Tournament.from_json(t.to_json()) == t
((50, 50), True)
"""

from __future__ import annotations

import random
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import CanastaError
from ...match import bot_random, deal_deck
from ...rules import Rules

MOVEMENTS = ("mitchell", "fixed")
"""How the sides move between rounds: side B one table up and side C one down after each round, or nobody."""
MOVES = (0, 1, -1)
"""The tables each direction moves up after a round in the mitchell movement (A stays, B up, C down)."""
HUMAN = "human"
"""The seat word of a person (``human:Ann``); ``None`` is an open seat, for a person still to come."""
MAX_TABLES = 500
MAX_BOARDS = 100_000


class TournamentError(CanastaError):
    """A tournament that cannot be: a table of the wrong size, a count out of range, a result that does not fit."""


@dataclass(frozen=True)
class Board:
    """One deal played at every table: its number (from 0), dealer, round and the totals it is played from."""

    number: int
    dealer: int
    round: int
    scores: tuple[int, ...]
    """Each side's match total the hand starts from (what its first-meld minimum follows)."""
    minimums: tuple[int, ...]
    """Each side's first-meld minimum on this board."""
    sitting_out: int | None = None
    """The seat that sits out (five-player), the same at every table."""


@dataclass(frozen=True)
class Entry:
    """A side that plays the tournament together (a pair, a team, or a player alone), named by its first table.

    ``number`` is ``table * sides + direction`` of the first round; ``players`` are the names at the side's
    seats in seat order (``None`` for an open seat)."""

    number: int
    table: int
    direction: int
    players: tuple[str | None, ...]
    seats: tuple[str | None, ...]
    """The seat words (``expert``, ``human:Ann``, ``None``) in the same order."""

    @property
    def label(self) -> str:
        """``3B``: table 3's side B (direction 2) in the first round."""
        return f"{self.table + 1}{string.ascii_uppercase[self.direction]}"

    def to_json(self) -> dict[str, Any]:
        """The entry as the standings show it (its direction from 0, like boards and tables)."""
        return {"entry": self.label, "direction": self.direction, "players": list(self.players)}


def player_name(word: str | None, table: int, seat: int) -> str | None:
    """The name shown for a seat: a person's own name (``human:Ann``), else the bot's kind, table and seat from 1.

    >>> player_name("expert", 0, 2), player_name("human:Ann", 4, 0), player_name("human", 1, 1), player_name(None, 0, 0)
    ('Expert 1.3', 'Ann', 'Player 2.2', None)
    """
    if word is None:
        return None
    kind, colon, name = word.partition(":")
    if kind.strip().lower() == HUMAN:
        return name.strip() if colon and name.strip() else f"Player {table + 1}.{seat + 1}"
    return f"{kind.strip().capitalize()} {table + 1}.{seat + 1}"


def score_for_minimum(rules: Rules, minimum: int) -> int:
    """The lowest match total from which a side's first-meld minimum is ``minimum`` (RULES.md 6).

    >>> [score_for_minimum(Rules(), m) for m in (15, 50, 90, 120)]
    [-1, 0, 1500, 3000]
    """
    starts = [-1, *(start for start, _ in rules.minimums)]
    for start in starts:
        if rules.minimum(start) == minimum:
            return start
    known = ", ".join(str(rules.minimum(s)) for s in starts)
    raise TournamentError(f"a first-meld minimum of {minimum} is not in the rules ({rules.preset}: {known})")


def schedule_of_minimums(rules: Rules, minimums: Sequence[int | Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """A score schedule from first-meld minimums: one per board (for every side) or one per side of a board.

    >>> schedule_of_minimums(Rules(), [50, (90, 120)])
    ((0, 0), (1500, 3000))
    """
    out = []
    for item in minimums:
        per_side = [item] * rules.sides if isinstance(item, int) else list(item)
        out.append(tuple(score_for_minimum(rules, m) for m in per_side))
    return tuple(out)


@dataclass(frozen=True)
class Tournament:
    """A duplicate tournament's format; it plays nothing itself (:func:`canasta.bots.tournament.run_tournament`).

    ``tables`` holds every table's seat words in the first round, in seat order: a computer player's
    name (``expert``, ``basic``, ``search:200``...), ``human`` or ``human:NAME``, or ``None`` for an open
    seat.  ``schedule`` is the side totals each board starts from, used in turn (board ``b`` takes
    ``schedule[b % len(schedule)]``); the default, zero for every side, gives the minimum of a match's
    first hand (50 in the classic game)."""

    rules: Rules
    tables: Sequence[Sequence[str | None]]
    """Kept as tuples (so is ``schedule``): a tournament is a frozen value, equal to another with the same format."""
    boards: int
    seed: int | str
    rounds: int = 1
    movement: str = "mitchell"
    schedule: Sequence[Sequence[int]] = ()
    entries: tuple[Entry, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        rules = self.rules
        object.__setattr__(self, "tables", tuple(tuple(table) for table in self.tables))
        object.__setattr__(self, "schedule", tuple(tuple(s) for s in self.schedule) or ((0,) * rules.sides,))
        if not 2 <= len(self.tables) <= MAX_TABLES:
            raise TournamentError(f"a tournament needs 2 to {MAX_TABLES} tables to compare, not {len(self.tables)}")
        for number, table in enumerate(self.tables):
            if len(table) != rules.players:
                raise TournamentError(f"table {number + 1} has {len(table)} seats: {rules.preset} seats "
                                      f"{rules.players} players")
            for seat, word in enumerate(table):
                if word is not None and (not isinstance(word, str) or not word.strip()):
                    raise TournamentError(f"table {number + 1}, seat {seat + 1}: a seat is a player's word or open "
                                          f"(null), not {word!r}")
        if not 1 <= self.boards <= MAX_BOARDS:
            raise TournamentError(f"the boards must number 1 to {MAX_BOARDS:,}, not {self.boards}")
        if not 1 <= self.rounds <= self.boards or self.boards % self.rounds:
            raise TournamentError(f"{self.boards} boards do not split into {self.rounds} rounds of equal size")
        if self.movement not in MOVEMENTS:
            raise TournamentError(f"unknown movement {self.movement!r} (movements: {', '.join(MOVEMENTS)})")
        for scores in self.schedule:
            if len(scores) != rules.sides or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
                raise TournamentError(f"each board of the schedule gives {rules.sides} side totals, not {list(scores)}")
        entries = []
        for number, table in enumerate(self.tables):
            for direction in range(rules.sides):
                seats = [s for s in range(rules.players) if s % rules.sides == direction]
                entries.append(Entry(number * rules.sides + direction, number, direction,
                                     tuple(player_name(table[s], number, s) for s in seats),
                                     tuple(table[s] for s in seats)))
        object.__setattr__(self, "entries", tuple(entries))

    # -- boards and seats --------------------------------------------------------------------

    @property
    def boards_per_round(self) -> int:
        """Boards played in each round."""
        return self.boards // self.rounds

    def board(self, number: int) -> Board:
        """Board ``number`` (from 0): its dealer, round, the side totals it starts from and their minimums."""
        self.check_board(number)
        scores = tuple(self.schedule[number % len(self.schedule)])
        return Board(number, number % self.rules.players, number // self.boards_per_round, scores,
                     tuple(self.rules.minimum(s) for s in scores),
                     2 * (number % 3) if self.rules.sit_out else None)

    def deck(self, number: int) -> list[int]:
        """The cards of board ``number``, top first: hand ``number`` of the match with the tournament's seed."""
        self.check_board(number)
        return deal_deck(self.rules, self.seed, number)

    def bot_random(self, board: int, table: int, seat: int) -> random.Random:
        """The random source of the computer player at ``seat`` of ``table`` on ``board``."""
        return bot_random(f"{self.seed}:table{table}", board, seat)

    def check_board(self, number: int) -> None:
        """A :class:`TournamentError` for a board number out of range."""
        if not 0 <= number < self.boards:
            raise TournamentError(f"there is no board {number + 1}: the boards are 1 to {self.boards}")

    def check_table(self, table: int) -> None:
        """A :class:`TournamentError` for a table number out of range."""
        if not 0 <= table < len(self.tables):
            raise TournamentError(f"there is no table {table + 1}: the tables are 1 to {len(self.tables)}")

    def step(self, direction: int, round: int) -> int:
        """How many tables up the sides of a direction have moved by a round (mitchell: A 0, B +1, C -1 a round)."""
        return MOVES[direction] * round if self.movement == "mitchell" else 0

    def table_of(self, entry: Entry, round: int) -> int:
        """The table an entry sits at in a round (from 0)."""
        return (entry.table + self.step(entry.direction, round)) % len(self.tables)

    def seating(self, board: int, table: int) -> tuple[Entry, ...]:
        """The entries at ``table`` on ``board``, one per direction."""
        self.check_table(table)
        round = self.board(board).round
        sides = self.rules.sides
        out = []
        for direction in range(sides):
            home = (table - self.step(direction, round)) % len(self.tables)
            out.append(self.entries[home * sides + direction])
        return tuple(out)

    def seats(self, board: int, table: int) -> tuple[str | None, ...]:
        """The seat words at ``table`` on ``board``, in seat order."""
        sides = self.rules.sides
        entries = self.seating(board, table)
        return tuple(entries[s % sides].seats[s // sides] for s in range(self.rules.players))

    def players(self, board: int, table: int) -> tuple[str | None, ...]:
        """The names at ``table`` on ``board``, in seat order."""
        sides = self.rules.sides
        entries = self.seating(board, table)
        return tuple(entries[s % sides].players[s // sides] for s in range(self.rules.players))

    # -- text ----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The format as one JSON object (:meth:`from_json` reads it back)."""
        return {"rules": self.rules.to_json(), "tables": [list(t) for t in self.tables], "boards": self.boards,
                "rounds": self.rounds, "movement": self.movement, "seed": self.seed,
                "schedule": [list(s) for s in self.schedule]}

    @classmethod
    def from_json(cls, data: object) -> Tournament:
        """The tournament :meth:`to_json` wrote; a :class:`TournamentError` (or ``RulesError``) in one sentence."""
        if not isinstance(data, Mapping):
            raise TournamentError("a tournament is a JSON object")
        try:
            tables = data["tables"]
            if not isinstance(tables, list) or not all(isinstance(t, list) for t in tables):
                raise TournamentError("tables are a list of seat lists")
            seed = data["seed"]
            if not isinstance(seed, (int, str)) or isinstance(seed, bool):
                raise TournamentError(f"the seed is a number or a word, not {seed!r}")
            numbers = {}
            for name in ("boards", "rounds"):
                value = data.get(name, 1)
                if not isinstance(value, int) or isinstance(value, bool):
                    raise TournamentError(f"{name} is a whole number, not {value!r}")
                numbers[name] = value
            schedule = data.get("schedule", [])
            if not isinstance(schedule, list) or not all(isinstance(s, list) for s in schedule):
                raise TournamentError("the schedule is a list of side totals per board")
            return cls(Rules.parse(data.get("rules", "classic")), tuple(tuple(t) for t in tables), numbers["boards"],
                       seed, numbers["rounds"], str(data.get("movement", "mitchell")),
                       tuple(tuple(s) for s in schedule))
        except KeyError as exc:
            raise TournamentError(f"a tournament needs {exc.args[0]!r}") from None
