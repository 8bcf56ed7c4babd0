"""One live table in memory: :class:`ServedTable`, the table driver replayed from the table's events, with
who is connected (here and, through storage, to other server processes) and the turn clock.

It changes only by :meth:`ServedTable.apply`, one committed event at a time; checking an event
before it is committed is the driver's (:meth:`canasta.play.table.Table.judge`) and the
service's (:mod:`.service`).  :mod:`.protocol` reads a served table to build the messages.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..cards import card_text
from ..match import OLD_SEEDING, Match
from ..moves import DRAW, PILE, Move
from ..outcome import Outcome
from ..play import Seat, Table
from ..rules import Rules
from .messages import ChatLine, Status
from .storage import Event

CHAT_KEPT = 50
"""Chat lines a table keeps in memory, sent to a connection when it says hello (storage blanks older ones)."""


class Connection(Protocol):
    """One websocket as the table sees it: its seat (None for a spectator) and a queue to send to."""

    seat: int | None

    def send(self, text: str) -> None:
        """Queue a message (JSON text); never blocks."""
        ...


@dataclass(frozen=True)
class SeatLabel:
    """A seat as the room shows it at the table: the person's name (None: the seat's own), and a rating in the
    game's family (a person's, provisional or not, or a computer level's fixed one; None: none known)."""

    name: str | None = None
    rating: float | None = None
    provisional: bool = False


class ServedTable:
    """One table in memory: its :class:`~canasta.play.table.Table` replayed from its events, and who is connected.

    Besides deals and moves the log holds the table's own events, which change no card:
    ``ready`` (a person dismissed the hand's result, or asked for a rematch at the match end),
    ``chat``, ``leave`` and ``back`` (a seat left to the computer and taken back) and
    ``rematch`` (a new match at the same seats; its text is the new seed).  :attr:`seq`
    counts every event (storage's sequence numbers); the **state id** counts deals, moves
    and rematches only, so a chat line never makes a move stale.
    """

    def __init__(self, table_id: str, spec: Mapping[str, Any], clock: Callable[[], float] = time.time) -> None:
        self.id = table_id
        self.clock = clock
        """Wall-clock seconds (``time.time``; several processes compare them): when seats were last seen."""
        self.spec = spec
        self.rules = Rules.parse(spec["rules"])
        self.seats = [Seat(i, s["kind"], s["name"]) for i, s in enumerate(spec["seats"])]
        self.seed_announced = bool(spec.get("seed_chosen", False))
        """True when the creator chose the seed: every seat is told it (``table.seed``)."""
        seed, seeding = int(spec["seed"]), spec.get("seeding", OLD_SEEDING)  # old tables deal as they did
        if "tournament" in spec:  # a duplicate tournament's table: hand i is board i (:mod:`.tournaments`)
            from .tournaments.boards import BoardTable, board_match
            match: Match = board_match(spec["tournament"], [s.name for s in self.seats])
            self.driver: Table = BoardTable(self.rules, self.seats, seed, match=match, deal=False)
        else:
            match = Match(self.rules, [s.name for s in self.seats], seed=seed, deal=False, seeding=seeding)
            self.driver = Table(self.rules, self.seats, seed, match=match, deal=False)
        """The table driver: the match, its seats and stand-ins, the state id, and every check of a move."""
        self.seq = 0
        """Events applied (every kind)."""
        self.ready: set[int] = set()
        """People's seats that dismissed the result of the hand (or asked for a rematch) since the last deal."""
        self.chat: deque[ChatLine] = deque(maxlen=CHAT_KEPT)
        self.chat_seqs: deque[int] = deque(maxlen=CHAT_KEPT)
        """The events of the lines in :attr:`chat` (storage forgets the lines before the first)."""
        self._facts_of: list[Outcome] | None = None
        self._facts: list[dict[str, Any]] = []
        self._draws: dict[int, tuple[int, list[str]]] = {}
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.last_active = time.monotonic()
        self.away_minutes = float(spec.get("away_minutes", 0))
        """Minutes without a connection, the game waiting on the seat, before an expert stands in (0: never)."""
        self.turn_seconds = float(spec.get("turn_seconds", 0))
        """Seconds a person has for a turn before the expert makes its moves (0: no timer)."""
        self.away: set[int] = set()
        """People's seats an expert took over because nobody was there (a ``hello`` takes them back)."""
        now = time.monotonic()
        loaded = clock()
        self.gone_since: dict[int, float] = {s.index: loaded for s in self.seats if s.is_human}
        """Since when each person's seat has had no connection to this process (:attr:`clock`; from the
        table's loading)."""
        self.elsewhere: set[int] = set()
        """People's seats that another server process on the same database holds a connection of (its
        heartbeat is fresh); read by :meth:`.service.TableService.heartbeat`."""
        self.seen_elsewhere: dict[int, float] = {}
        """When another server process last saw each person's seat connected (:attr:`clock`)."""
        self.turn: tuple[int, int] | None = None
        self.turn_since = now
        """The seat to act (with the hand) and since when (monotonic): the turn timer's start."""
        self.labels: dict[int, SeatLabel] | None = None
        """Who the room says sits at each seat, as the table page shows it (:mod:`.room.seating`: a signed-in
        player's or a lobby taker's name, ratings); None until the room has read them."""

    @property
    def match(self) -> Match:
        """The match in play (the latest, after a rematch)."""
        return self.driver.match

    @property
    def state_id(self) -> int:
        """The deals, moves and rematches applied (the driver's :attr:`~canasta.play.table.Table.state_id`)."""
        return self.driver.state_id

    @property
    def seed(self) -> int:
        """The seed of the match in play."""
        return self.driver.seed

    @property
    def matches(self) -> int:
        """The matches played at this table, this one included."""
        return self.driver.matches

    @property
    def status(self) -> Status:
        """``playing``, ``hand_over`` (waiting for the next deal) or ``over`` (the match is won)."""
        if self.match.is_over:
            return "over"
        if self.match.state.is_over:
            return "hand_over"
        return "playing"

    @property
    def has_humans(self) -> bool:
        """True when some seat is played through an invite link."""
        return any(s.is_human for s in self.seats)

    @property
    def has_bots(self) -> bool:
        """True when some seat is a computer player (or a person left theirs to the computer)."""
        return not all(s.is_human for s in self.seats) or bool(self.driver.stand_ins)

    def connected(self, seat: int) -> bool:
        """True when some connection holds this seat, to this server process or another (computer players
        always are)."""
        return self.driver.is_bot(seat) or seat in self.elsewhere or any(c.seat == seat for c in self.connections)

    def last_seen(self, seat: int) -> float:
        """Since when the person's seat has had no connection to any server process (:attr:`clock`); never
        before this process loaded the table."""
        return max(self.gone_since.get(seat, self.clock()), self.seen_elsewhere.get(seat, float("-inf")))

    def waiting(self) -> list[int]:
        """The people still to say ``ready`` (or ``rematch``): seated, connected (to any server process), not
        left to the computer."""
        if self.status == "playing":
            return []
        here = {c.seat for c in self.connections} | self.elsewhere
        return [h for h in self.driver.humans if h in here and h not in self.driver.stand_ins and h not in self.ready]

    @property
    def all_ready(self) -> bool:
        """True when the hand is over (or the match) and every person at the table said ready: a
        person with no connection, or who left the seat to the computer, counts as ready, but at
        least one must have said it (nobody there: the table waits)."""
        return self.status != "playing" and bool(self.ready) and not self.waiting()

    def apply(self, event: Event) -> None:
        """Apply a committed event (it was checked before it was committed)."""
        if event.seq != self.seq:
            raise RuntimeError(f"table {self.id}: event {event.seq} applied at event {self.seq}")
        kind, seat = event.kind, event.seat
        if kind == "deal":
            self.driver.apply(None)
            self.ready.clear()
        elif kind == "move":
            self.driver.apply(Move.parse(event.text))
        elif kind == "ready" and seat is not None:
            self.ready.add(seat)
        elif kind == "chat" and seat is not None:
            if event.text:  # a line storage forgot (:meth:`.service.TableService.say`) is blank
                self.chat.append({"seat": seat, "name": self.seats[seat].name, "text": event.text, "at": event.at})
                self.chat_seqs.append(event.seq)
        elif kind == "leave" and seat is not None:
            self.driver.stand_in(seat)
        elif kind == "back" and seat is not None:
            self.driver.stand_in(seat, computer=False)
        elif kind == "rematch":
            self.driver.rematch(int(event.text))  # the state id goes on counting; the stand-ins stay
            self.seed_announced = False
            self.ready.clear()
        elif kind == "away" and seat is not None:
            self.driver.stand_in(seat)
            self.away.add(seat)
        else:
            raise RuntimeError(f"table {self.id}: unknown event {kind!r}")
        if kind in ("leave", "back"):
            self.away.discard(seat if seat is not None else -1)
        if kind in ("leave", "back", "away"):
            self.turn = None  # a person taking a seat back gets a whole turn
        self.seq += 1
        self.last_active = time.monotonic()
        self._turn_clock()

    @property
    def facts(self) -> list[dict[str, Any]]:
        """Per move of this hand, what the move's notation leaves out but the table showed everybody (the
        log in words and the page's motion need them, after a reload too): the engine's public outcome
        (:mod:`canasta.outcome`) less its seat and move: ``took`` and ``top`` of a pile taken, the ranks
        ``melded`` anew and ``added`` to, the red threes laid out (``reds``), ``hand_over``.  Each move's
        facts are made once."""
        outcomes = self.match.outcomes
        if self._facts_of is not outcomes:  # a new hand (or match)
            self._facts_of, self._facts, self._draws = outcomes, [], {}
        for index in range(len(self._facts), len(outcomes)):
            outcome = outcomes[index]
            self._facts.append({key: value for key, value in outcome.public().to_json().items()
                                if key not in ("seat", "move")})
            if outcome.move.action in (DRAW, PILE):
                self._draws[index] = (outcome.seat, [card_text(c) for c in outcome.drew])
        return self._facts

    @property
    def draws(self) -> dict[int, tuple[int, list[str]]]:
        """Per draw or pile taken this hand (its index in the log): the seat and the cards new in its hand,
        which only that seat is told (``drawn`` in its state messages)."""
        _ = self.facts  # brought up to date together
        return self._draws

    def _turn_clock(self) -> None:
        """Start the turn timer when another seat (or a new hand) is to act."""
        turn = (len(self.match.hands), self.match.state.to_act) if self.status == "playing" else None
        if turn != self.turn:
            self.turn, self.turn_since = turn, time.monotonic()

    def person_to_act(self) -> int | None:
        """The person's seat the game waits on: its turn, nobody standing in for it."""
        if self.status != "playing":
            return None
        seat = self.match.state.to_act
        return None if self.driver.is_bot(seat) else seat

    def turn_left(self, now: float | None = None) -> float | None:
        """Seconds left for the person to act (None: no timer, or no person to act)."""
        if self.turn_seconds <= 0 or self.person_to_act() is None:
            return None
        now = time.monotonic() if now is None else now
        return max(0.0, self.turn_seconds - (now - self.turn_since))

    def connection_changed(self, seat: int | None) -> None:
        """Note when a person's seat lost its last connection (or got one)."""
        if seat is None or not 0 <= seat < len(self.seats) or not self.seats[seat].is_human:
            return
        if any(c.seat == seat for c in self.connections):
            self.gone_since.pop(seat, None)
        else:
            self.gone_since.setdefault(seat, self.clock())

    @property
    def idle(self) -> bool:
        """True when nobody is connected and no computer player is moving."""
        return not self.connections and (self.bot_task is None or self.bot_task.done())
