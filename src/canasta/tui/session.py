"""A match at one screen: who sits where, the deals, the computer players' moves and save files.

Seats are ``you`` (a person at this screen; ``you:Ann`` names them) or a computer player by
name (``random``, ``basic``, ``expert``, ``search``, ``search:200``).  Hand ``i`` of a match
with seed ``S`` is dealt from ``random.Random(f"{S}:{i}")``, as in the arena, so a resumed
match deals the same hands as one played without a break.  A save file is the match's full
game record (NOTATION.md, "Game records", decks included) with the seat list under ``seats``.

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

from ..bots import Bot, make_bot
from ..cards import shuffled_deck
from ..errors import CanastaError
from ..jsonfile import read_json
from ..match import Match
from ..moves import Move
from ..rules import Rules
from ..state import GameState

HUMAN = "you"


class SessionError(ValueError):
    """A bad seat list or save file: one line for the person who gave it."""


def is_human(spec: str) -> bool:
    """True for ``you`` and ``you:NAME``."""
    return spec.split(":", 1)[0].strip().lower() == HUMAN


def check_seats(seats: Sequence[str], players: int, preset: str) -> list[str]:
    """The seat list, checked: one entry per player, each ``you[:NAME]`` or a known computer player."""
    seats = [s.strip() for s in seats]
    if len(seats) != players:
        raise SessionError(f"{preset} seats {players} players: give --seats with {players} names, "
                           f"like {','.join([HUMAN] + ['expert'] * (players - 1))}")
    for spec in seats:
        if is_human(spec):
            if ":" in spec and not spec.split(":", 1)[1].strip():
                raise SessionError(f"seat {spec!r}: give a name after 'you:' or leave it out")
            continue
        try:
            make_bot(spec, random.Random(0), files=True)
        except ValueError as exc:
            raise SessionError(str(exc)) from None
    return seats


def seat_names(seats: Sequence[str]) -> list[str]:
    """Names for the table: ``You`` (or ``Player 1``... when several share the screen), ``Basic 2``."""
    several = sum(1 for s in seats if is_human(s)) > 1
    names = []
    for seat, spec in enumerate(seats):
        if is_human(spec):
            given = spec.split(":", 1)[1].strip() if ":" in spec else ""
            names.append(given or (f"Player {seat + 1}" if several else "You"))
        else:
            names.append(f"{spec.capitalize()} {seat + 1}")
    return names


def deal_deck(rules: Rules, seed: int, number: int) -> list[int]:
    """The deck (top card first) of hand ``number`` of the match with this seed."""
    return shuffled_deck(random.Random(f"{seed}:{number}"), rules.decks)


def default_save_path(seed: int) -> str:
    """``canasta-SEED.canasta.json``."""
    return f"canasta-{seed}.canasta.json"


class Session:
    """A match, its seats and its computer players."""

    def __init__(self, match: Match, seats: Sequence[str], seed: int) -> None:
        self.match = match
        self.seats = list(seats)
        self.seed = seed
        self.bots: dict[int, Bot] = {
            seat: make_bot(spec, random.Random(f"{seed}:bot:{seat}"), files=True)
            for seat, spec in enumerate(self.seats) if not is_human(spec)
        }

    @classmethod
    def new(cls, rules: Rules, seats: Sequence[str] | None, seed: int) -> Session:
        """A new match: the first hand dealt."""
        specs = check_seats(seats or [HUMAN] + ["expert"] * (rules.players - 1), rules.players, rules.preset)
        match = Match(rules, seat_names(specs), seed=seed, deal=False)
        session = cls(match, specs, seed)
        match.new_hand(deal_deck(rules, seed, 0))
        return session

    # -- facts --------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The hand in play (or just finished)."""
        return self.match.state

    @property
    def names(self) -> list[str]:
        """Each seat's name at the table."""
        return self.match.players

    @property
    def humans(self) -> list[int]:
        """The seats of the people at this screen."""
        return [s for s, spec in enumerate(self.seats) if is_human(spec)]

    @property
    def hand_number(self) -> int:
        """The current hand, from 1."""
        return len(self.match.hands)

    def bot_to_act(self) -> int | None:
        """The computer player's seat that moves next, or None."""
        state = self.state
        if state.is_over or state.to_act not in self.bots:
            return None
        return state.to_act

    # -- play ---------------------------------------------------------------------------

    def play(self, move: Move | str) -> Move:
        """Check and apply a move of the seat to act; raises the engine's error with its reason."""
        return self.match.play(move)

    def bot_choice(self) -> Move:
        """The move the computer player to act chooses, from its seat's view only."""
        seat = self.bot_to_act()
        if seat is None:
            raise CanastaError("no computer player is to move")
        state = self.state
        return self.bots[seat].choose(state.view(seat), list(state.legal_moves()))

    def deal_next(self) -> GameState:
        """Deal the next hand; raises when the hand is not over or the match is won."""
        return self.match.new_hand(deal_deck(self.match.rules, self.seed, len(self.match.hands)))

    # -- records ------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The full game record (decks included) and the seats."""
        record = self.match.to_record()
        record["seed"] = self.seed
        record["seats"] = list(self.seats)
        return record

    @classmethod
    def from_record(cls, record: object) -> Session:
        """Rebuild a session from a save file's record; raises :class:`SessionError`."""
        match = match_from_record(record, "a saved match")
        assert isinstance(record, Mapping)
        seats = record.get("seats")
        if seats is None:
            seats = [HUMAN] + ["expert"] * (match.rules.players - 1)
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise SessionError("seats must be a list of names like \"you\" or \"expert\"")
        seats = check_seats(seats, match.rules.players, match.rules.preset)
        if record.get("players") is None:
            match.players = seat_names(seats)
        seed = record.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            seed = random.randrange(2**31)
        return cls(match, seats, seed)

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

    @classmethod
    def load(cls, path: str) -> Session:
        """Read a save file; every problem is one :class:`SessionError` line naming the file."""
        record = read_record(path)
        try:
            return cls.from_record(record)
        except SessionError as exc:
            raise SessionError(f"{path}: {exc}") from None


def match_from_record(record: object, what: str) -> Match:
    """``Match.from_record`` with every failure as one :class:`SessionError` line (``what``: the file's kind)."""
    if not isinstance(record, Mapping):
        raise SessionError(f"{what} is a JSON object")
    try:
        return Match.from_record(record)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        raise SessionError(str(exc) or type(exc).__name__) from None


def read_record(path: str) -> object:
    """The JSON of a save file or game record; raises :class:`SessionError` with one line."""
    return read_json(path, SessionError)
