"""A match at one screen: a :class:`~canasta.play.table.Table`, and its save files.

Seats are in the one seat language of :mod:`canasta.play.seats`: ``human`` (a person at this
screen; ``human:Ann`` names them; ``you`` still reads as ``human``) or a computer player by
name (``random``, ``basic``, ``expert``, ``search``, ``search:200``, ``policy:FILE``).  Hand
``i`` of a match with seed ``S`` is dealt by ``canasta.match.deal_deck`` from
``random.Random(f"{S}:{i}")``, as in the arena and the browser, so a resumed match deals the
same hands as one played without a break.  A save file is the match's full game record
(NOTATION.md, "Game records", decks included) with the seat list under ``seats``; save files
written before ``seeding`` existed were dealt this way already, and load so.

>>> s = Session.new(Rules(), ["you", "basic", "basic", "basic"], seed=3)
>>> s.names, s.humans
(['You', 'Basic 2', 'Basic 3', 'Basic 4'], [0])
>>> again = Session.from_record(s.to_record())
>>> again.state.hand(0) == s.state.hand(0) and again.seats == s.seats
True
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..bots import Bot
from ..errors import CanastaError, SeatError
from ..jsonfile import read_json
from ..match import OLD_SEEDING, SEEDING, Match
from ..moves import Move
from ..play import HOUSE, HUMAN, Seat, Table, parse_seats
from ..play.seats import default_seats
from ..rules import Rules
from ..state import GameState


class SessionError(CanastaError):
    """A bad seat list or save file: one line for the person who gave it."""


def check_seats(seats: Sequence[str] | None, rules: Rules) -> list[Seat]:
    """The seats of a match at this screen (None: a person and ``expert`` players); :class:`SessionError`."""
    try:
        return parse_seats(None if seats is None else [s.strip() for s in seats], rules, files=True)
    except SeatError as exc:
        raise SessionError(str(exc)) from None


def default_save_path(seed: int) -> str:
    """``canasta-SEED.canasta.json``."""
    return f"canasta-{seed}.canasta.json"


class Session:
    """A match at this screen: its :class:`~canasta.play.table.Table` and the seat words it was given.

    ``seats`` are the words as given (``you``, ``human:Ann``, ``expert``), kept for the save file.
    """

    def __init__(self, table: Table, seats: Sequence[str]) -> None:
        self.table = table
        self.seats = list(seats)

    @classmethod
    def new(cls, rules: Rules, seats: Sequence[str] | None, seed: int) -> Session:
        """A new match: the first hand dealt."""
        words = [s.strip() for s in seats] if seats is not None else default_seats(rules)
        return cls(Table(rules, check_seats(words, rules), seed, files=True), words)

    # -- facts --------------------------------------------------------------------------

    @property
    def match(self) -> Match:
        """The match."""
        return self.table.match

    @property
    def seed(self) -> int:
        """The seed of the deals and of the computer players."""
        return self.table.seed

    @property
    def state(self) -> GameState:
        """The hand in play (or just finished)."""
        return self.table.state

    @property
    def names(self) -> list[str]:
        """Each seat's name at the table."""
        return self.table.names

    @property
    def humans(self) -> list[int]:
        """The seats of the people at this screen."""
        return self.table.humans

    @property
    def bots(self) -> dict[int, Bot]:
        """The computer players of this hand, by seat."""
        return self.table.bots

    @property
    def hand_number(self) -> int:
        """The current hand, from 1."""
        return self.table.hand_number

    def bot_to_act(self) -> int | None:
        """The computer player's seat that moves next, or None."""
        return self.table.bot_to_act()

    # -- play ---------------------------------------------------------------------------

    def play(self, move: Move | str) -> Move:
        """Check and apply a move of the seat to act; raises the engine's error with its reason."""
        applied = self.table.submit(self.state.to_act, move)
        assert applied is not None
        return applied

    def bot_choice(self) -> Move:
        """The move the computer player to act chooses, from its seat's view only."""
        return self.table.bot_move()[1]

    def deal_next(self) -> GameState:
        """Deal the next hand; raises when the hand is not over or the match is won."""
        self.table.judge(HOUSE, None)
        return self.table.deal()

    # -- records ------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The full game record (decks included), its seeding and the seats."""
        record = self.match.to_record()
        record["seed"] = self.seed
        record["seeding"] = self.match.seeding
        record["seats"] = list(self.seats)
        return record

    @classmethod
    def from_record(cls, record: object) -> Session:
        """Rebuild a session from a save file's record; raises :class:`SessionError`.

        A save file (it has ``seats``) that names no ``seeding`` was dealt hand by hand, as
        now; a bare game record without it was dealt by the older scheme, and goes on so.
        """
        if not isinstance(record, Mapping):
            raise SessionError("a saved match is a JSON object")
        match = match_from_record(record, "a saved match", SEEDING if "seats" in record else OLD_SEEDING)
        seats = record.get("seats")
        if seats is None:
            seats = default_seats(match.rules)
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise SessionError(f"seats must be a list of words like \"{HUMAN}\" or \"expert\"")
        parsed = check_seats(seats, match.rules)
        if record.get("players") is None:
            match.players = [seat.name for seat in parsed]
        parsed = [Seat(seat.index, seat.kind, match.players[seat.index]) for seat in parsed]
        seed = record.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            seed = random.randrange(2**31)
        if match.seed is None:  # a record without a seed goes on with one, dealt hand by hand
            match.seed, match.seeding = seed, SEEDING
        return cls(Table(match.rules, parsed, seed, match=match, files=True), seats)

    def save(self, path: str) -> None:
        """Write the save file (through a temporary file, so a failed write leaves no half file)."""
        text = json.dumps(self.to_record(), indent=1)
        tmp = f"{path}.tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(text + "\n")
            os.replace(tmp, path)
        except OSError as exc:
            raise SessionError(f"cannot write {path}: {exc.strerror or exc}") from None

    def autosave(self, path: str | os.PathLike[str]) -> str | None:
        """Keep the match in ``path`` (its folder made as needed), or remove the file once the match is won.

        Returns None, or the one-line reason the file could not be written.
        """
        try:
            if self.match.is_over:
                os.remove(path)
            else:
                os.makedirs(os.path.dirname(os.fspath(path)) or ".", exist_ok=True)
                self.save(os.fspath(path))
        except FileNotFoundError:
            pass
        except (OSError, SessionError) as exc:
            return f"autosave failed: {exc}"
        return None

    def summary(self) -> str:
        """One line about the match: hand, and each side's score (for the "continue?" question)."""
        rules = self.match.rules
        sides = []
        for side in range(rules.sides):
            who = " & ".join(self.names[s] for s in range(rules.players) if s % rules.sides == side)
            sides.append(f"{who} {self.match.scores[side]:,}")
        return f"{rules.preset}, hand {self.hand_number}: " + " · ".join(sides)

    @classmethod
    def load(cls, path: str) -> Session:
        """Read a save file; every problem is one :class:`SessionError` line naming the file."""
        record = read_record(path)
        try:
            return cls.from_record(record)
        except SessionError as exc:
            raise SessionError(f"{path}: {exc}") from None


def match_from_record(record: object, what: str, seeding: str = OLD_SEEDING) -> Match:
    """``Match.from_record`` with every failure as one :class:`SessionError` line (``what``: the file's kind)."""
    if not isinstance(record, Mapping):
        raise SessionError(f"{what} is a JSON object")
    try:
        return Match.from_record(record, seeding)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise SessionError(str(exc) or type(exc).__name__) from None


def read_record(path: str) -> object:
    """The JSON of a save file or game record; raises :class:`SessionError` with one line."""
    return read_json(path, SessionError)
