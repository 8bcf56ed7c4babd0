"""Live tables: a :class:`canasta.play.table.Table` with the web's own parts: a lock, storage, connections.

A table's history is a list of events (``deal`` and ``move``) in storage; the state id is
their number.  Every move is judged by the table driver (the protocol's order, its named
errors), committed, and only then applied and shown, so a server killed at any moment
restarts from the last acknowledged move.  Computer players move after ``bot_delay``, slow
ones (``search``) in a thread; a failed storage write is retried with backoff, so they go on
by themselves once storage is back; a table of computer players only plays to the match end.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..bots import BOTS, LEVELS, find_level
from ..bots.hints import hint, hint_sentence
from ..cards import MELD_RANK_CHARS, card_text, parse_cards
from ..errors import CardError, IllegalMoveError, MatchOver, MoveSyntaxError, NotYourTurn, SeatError, StaleState
from ..match import OLD_SEEDING, SEEDING, Match
from ..moves import DRAW, PILE, Move
from ..outcome import Outcome
from ..play import HOUSE, HUMAN, Seat, parse_seats
from ..play import Table as Driver
from ..play.seats import HUMAN_WORDS
from ..rules import Rules
from ..selection import choices as resolve_selection
from ..state import GameState
from .pool import run_cpu
from .protocol import CHAT_SENT as CHAT_KEPT
from .protocol import MAX_RESOLVED, ProtocolError, dumps, rules_from_request, state_message, table_json, view_json
from .storage import AsyncStorage, Event, StorageError

log = logging.getLogger("canasta.web")

NAMED_ERRORS: dict[type[Exception], str] = {
    MatchOver: "table_over",
    NotYourTurn: "not_your_turn",
    StaleState: "stale_state",
    MoveSyntaxError: "bad_move",
    IllegalMoveError: "illegal_move",
}
"""The table driver's errors by their protocol names (docs/protocol.md, "Errors")."""

AWAY_MINUTES = 5.0
"""Minutes a person's seat may have no connection, while the game waits on it, before an expert stands in
(the default at a table of several people; at a table of one person nobody else waits, so never)."""
MAX_AWAY_MINUTES, MAX_TURN_SECONDS = 24 * 60.0, 3600.0
CLOCK_TICK = 0.5
"""Seconds between two looks at the tables' clocks (seats away, turn timers)."""
PRESENCE_EVERY = 5.0
"""Seconds between two heartbeats of a server process: it tells storage whose connections it holds and
reads what the other processes on the same database hold (:meth:`TableService.heartbeat`)."""
PRESENCE_STALE = 3 * PRESENCE_EVERY
"""Seconds after which a process's word that it holds a connection no longer counts (the process died)."""

RETRY_FIRST, RETRY_MOST = 0.2, 10.0
"""Seconds before a computer player's move is tried again after a storage failure, doubling up to the most."""


class SeedRefused(ValueError):
    """A seed chosen by the creator of a table with more than one person: it would show them every hand."""


def token_hash(token: str) -> str:
    """What storage keeps of a secret token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Connection(Protocol):
    """One websocket as the table sees it: its seat (None for a spectator) and a queue to send to."""

    seat: int | None

    def send(self, text: str) -> None:
        """Queue a message (JSON text); never blocks."""
        ...


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
        self.seed = int(spec["seed"])
        self.seed_announced = bool(spec.get("seed_chosen", False))
        """True when the creator chose the seed: every seat is told it (``table.seed``)."""
        self.driver = self._driver(self.seed, spec.get("seeding", OLD_SEEDING))  # old tables deal as they did
        self.seq = 0
        """Events applied (every kind)."""
        self.base = 0
        """State ids used by the matches before this one (a rematch goes on counting)."""
        self.matches = 1
        self.ready: set[int] = set()
        """People's seats that dismissed the result of the hand (or asked for a rematch) since the last deal."""
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
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
        heartbeat is fresh); read by :meth:`TableService.heartbeat`."""
        self.seen_elsewhere: dict[int, float] = {}
        """When another server process last saw each person's seat connected (:attr:`clock`)."""
        self.turn: tuple[int, int] | None = None
        self.turn_since = now
        """The seat to act (with the hand) and since when (monotonic): the turn timer's start."""

    def _driver(self, seed: int, seeding: str) -> Driver:
        match = Match(self.rules, [s.name for s in self.seats], seed=seed, deal=False, seeding=seeding)
        return Driver(self.rules, self.seats, seed, match=match, deal=False)

    @property
    def match(self) -> Match:
        """The match."""
        return self.driver.match

    @property
    def state_id(self) -> int:
        """The deals, moves and rematches applied."""
        return self.base + self.driver.state_id

    @property
    def status(self) -> str:
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
            if event.text:  # a line storage forgot (:meth:`TableService.say`) is blank
                self.chat.append({"seat": seat, "name": self.seats[seat].name, "text": event.text, "at": event.at})
                self.chat_seqs.append(event.seq)
        elif kind == "leave" and seat is not None:
            self.driver.stand_ins.add(seat)
        elif kind == "back" and seat is not None:
            self.driver.stand_ins.discard(seat)
        elif kind == "rematch":
            stand_ins = set(self.driver.stand_ins)
            self.base = self.state_id + 1
            self.seed = int(event.text)
            self.seed_announced = False
            self.driver = self._driver(self.seed, SEEDING)
            self.driver.stand_ins |= stand_ins
            self.matches += 1
            self.ready.clear()
        elif kind == "away" and seat is not None:
            self.driver.stand_ins.add(seat)
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


class TableService:
    """Every live table of this server process, its storage and its computer players."""

    def __init__(self, storage: AsyncStorage, bot_delay: float = 0.7, retry: tuple[float, float] = (
            RETRY_FIRST, RETRY_MOST)) -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.retry = retry
        """Seconds before a computer player's move is tried again after a storage failure, and the most."""
        self.new_seed: Callable[[], int] = lambda: secrets.randbits(63)
        """The server's own randomness for a table's seed (tests replace it to replay a table)."""
        self.tables: dict[str, ServedTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.moves_committed = 0
        self.clock: Callable[[], float] = time.time
        """Wall-clock seconds for presence (tests replace it): seats away, last seen, heartbeats."""
        self.process = secrets.token_hex(8)
        """This server process's name in the presence rows of storage."""
        self._reported: set[tuple[str, int]] = set()
        """(table, seat) this process last told storage it holds connections of."""
        self._presence_tasks: set[asyncio.Task[None]] = set()

    # -- tables -------------------------------------------------------------------------

    async def create(self, body: object) -> dict[str, Any]:
        """Create a table from a request body; ``ValueError`` with one sentence when it is wrong."""
        if not isinstance(body, dict):
            raise ValueError("the request must be a JSON object")
        unknown = set(body) - {"preset", "options", "target", "seats", "seed", "away_minutes", "turn_seconds"}
        if unknown:
            raise ValueError(f"unknown field {sorted(unknown)[0]!r} "
                             "(preset, options, target, seats, seed, away_minutes, turn_seconds)")
        rules = rules_from_request(body.get("preset", "classic"), body.get("options"), body.get("target"))
        seats = _parse_seats(body.get("seats"), rules)
        people = sum(s.is_human for s in seats)
        away = _number(body, "away_minutes", AWAY_MINUTES if people > 1 else 0.0, MAX_AWAY_MINUTES)
        turn = _number(body, "turn_seconds", 0.0, MAX_TURN_SECONDS)
        seed = body.get("seed")
        chosen = seed is not None
        if seed is None:
            seed = self.new_seed()
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise ValueError("seed must be a whole number from 0 to 2**63 - 1")
        elif sum(s.is_human for s in seats) > 1:
            raise SeedRefused("a seed chosen by a player would show them every hand and the stock: at a table with "
                              "more than one person the server shuffles; leave the seed out")
        table_id = secrets.token_urlsafe(9)
        tokens: dict[str, int | None] = {}
        answer_seats = []
        for seat in seats:
            token = secrets.token_urlsafe(24) if seat.is_human else None
            if token is not None:
                tokens[token_hash(token)] = seat.index
            answer_seats.append({"seat": seat.index, "kind": seat.kind, "name": seat.name, "token": token,
                                 "link": f"/t/{table_id}#{token}" if token else None})
        spectator = secrets.token_urlsafe(24)
        tokens[token_hash(spectator)] = None
        spec: dict[str, Any] = {"rules": rules.to_json(), "seats": [{"kind": s.kind, "name": s.name} for s in seats],
                                "seed": seed, "seeding": SEEDING, "created": time.time(),
                                "away_minutes": away, "turn_seconds": turn}
        if chosen:
            spec["seed_chosen"] = True  # announced to every seat (``table.seed``)
        await self.storage.create_table(table_id, spec, tokens)
        table = ServedTable(table_id, spec, self.clock)
        try:
            await self._commit(table, "deal", None)
        except ProtocolError:
            raise RuntimeError(f"table {table_id} was dealt twice") from None
        self.tables[table_id] = table
        self.changed(table)
        return {"table": table_id, "seats": answer_seats, "away_minutes": away, "turn_seconds": turn,
                "spectator": {"token": spectator, "link": f"/t/{table_id}#{spectator}"}}

    async def get(self, table_id: str) -> ServedTable | None:
        """A table, loaded from storage and replayed when this process has not seen it yet."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is None:
                spec = await self.storage.table_spec(table_id)
                if spec is None:
                    self._loading.pop(table_id, None)
                    return None
                table = ServedTable(table_id, spec, self.clock)
                for event in await self.storage.events(table_id):
                    table.apply(event)
                self.tables[table_id] = table
                self.changed(table)
        return table

    def evict_idle(self, idle_seconds: float) -> int:
        """Forget tables idle for ``idle_seconds`` (they are loaded again from storage when needed)."""
        now = time.monotonic()
        stale = [t.id for t in self.tables.values() if t.idle and now - t.last_active >= idle_seconds]
        for table_id in stale:
            del self.tables[table_id]
            self._loading.pop(table_id, None)
        return len(stale)

    async def catch_up(self, table: ServedTable) -> None:
        """Apply events another server process committed for this table."""
        for event in await self.storage.events(table.id, table.seq):
            if event.seq == table.seq:
                table.apply(event)

    async def follow(self) -> int:
        """Catch up the tables in memory that other server processes moved (one shared database).

        One query asks for every watched table's event count; a table that is behind reads
        the events it missed, tells its connections and lets its computer players move.
        Returns how many tables moved.
        """
        watched = [t.id for t in self.tables.values() if t.connections or t.has_bots]
        if not watched:
            return 0
        moved = 0
        for table_id, count in (await self.storage.event_counts(watched)).items():
            table = self.tables.get(table_id)
            if table is None or count <= table.seq:
                continue
            async with table.lock:  # this process's own move may have been committing: then nothing is new
                before = table.seq
                if count > before:
                    await self.catch_up(table)
            if table.seq > before:
                self.changed(table)
                moved += 1
        return moved

    async def seat_of(self, table: ServedTable, token: str) -> int | None:
        """The seat (None: spectator) a token opens; ``bad_token`` when it opens nothing."""
        found, seat = await self.storage.token_seat(table.id, token_hash(token))
        if not found:
            raise ProtocolError("bad_token", "this link does not open a seat at this table")
        return seat

    # -- moves --------------------------------------------------------------------------

    async def submit(self, table: ServedTable, seat: int | None, text: str | None, state_id: int,
                     bot: bool = False) -> tuple[int, str]:
        """Check, commit and apply a move (``text``) or the next deal (``None``); the new state id and move.

        ``seat`` is None for a spectator and :data:`~canasta.play.table.HOUSE` for the server
        dealing the next hand of a table of computer players; ``bot`` says a computer player
        moves for the seat.  A person's ``next`` (``text`` None) is :meth:`ready`.  The table
        driver judges in the protocol's order: table live, seat may act, state id current,
        move parses, move legal.  Nothing changes when one fails.
        """
        if text is None and seat != HOUSE:
            return await self.ready(table, seat, state_id)
        async with table.lock:
            if state_id > table.state_id:
                await self.catch_up(table)
            if seat is not None and seat >= 0 and bot != table.driver.is_bot(seat) and not table.match.is_over:
                if bot:  # the person took the seat back while the computer thought
                    raise ProtocolError("stale_state", "the seat was taken back")
                raise ProtocolError("not_your_turn", "you left your seat to the computer; take it back first")
            move = self._judge(table, seat, text, state_id)
            if move is None:
                await self._commit(table, "deal", None)
            else:
                await self._commit(table, "move", seat, str(move))
            self.moves_committed += 1
            if table.match.is_over:
                await self.storage.set_status(table.id, "over")
        return table.state_id, "next" if move is None else str(move)

    def _judge(self, table: ServedTable, seat: int | None, text: str | None, state_id: int) -> Move | None:
        """The driver's judgement, its errors by their protocol names (state ids counted over every match)."""
        try:
            return table.driver.judge(seat, text, state_id - table.base)
        except StaleState:
            raise ProtocolError("stale_state",
                                f"the table has moved on (state {table.state_id}, not {state_id})") from None
        except tuple(NAMED_ERRORS) as exc:
            name = next(name for kind, name in NAMED_ERRORS.items() if isinstance(exc, kind))
            raise ProtocolError(name, str(exc)) from None

    async def _commit(self, table: ServedTable, kind: str, seat: int | None, text: str = "") -> Event:
        """Append one event at the table's next sequence number and apply it (the caller holds the lock);
        ``stale_state`` when another server process wrote first."""
        event = Event(table.seq, kind, seat, text, time.time())
        if not await self.storage.append(table.id, event):  # another server process moved first
            await self.catch_up(table)
            self.broadcast(table)
            raise ProtocolError("stale_state", "another move was made first; look at the table again")
        table.apply(event)
        return event

    @staticmethod
    def _seated(table: ServedTable, seat: int | None, what: str) -> int:
        """The person's seat that may ``what``; ``not_your_turn`` for a spectator or a computer's seat."""
        if seat is None or not 0 <= seat < len(table.seats) or not table.seats[seat].is_human:
            raise ProtocolError("not_your_turn", f"only the people seated at the table {what}")
        return seat

    async def ready(self, table: ServedTable, seat: int | None, state_id: int) -> tuple[int, str]:
        """A person dismissed the result of the hand; the next hand is dealt once everybody did
        (:attr:`ServedTable.all_ready`).  Saying it twice changes nothing."""
        async with table.lock:
            if state_id > table.state_id:
                await self.catch_up(table)
            if table.match.is_over:
                raise ProtocolError("table_over", "the match is over; ask for a rematch")
            seat = self._seated(table, seat, "deal the next hand")
            if table.status != "hand_over":
                raise ProtocolError("not_your_turn", "the hand is still being played")
            if state_id != table.state_id:
                raise ProtocolError("stale_state", f"the table has moved on (state {table.state_id}, not {state_id})")
            if seat not in table.ready:
                await self._commit(table, "ready", seat)
            await self._deal_if_ready(table)
        return table.state_id, "ready"

    async def _deal_if_ready(self, table: ServedTable) -> bool:
        """Deal the next hand (or start the rematch) when every person is ready (the caller holds the lock)."""
        if not table.all_ready:
            return False
        if table.match.is_over:
            await self._commit(table, "rematch", None, str(self.new_seed()))
            await self.storage.set_status(table.id, "playing")
        await self._commit(table, "deal", None)
        self.moves_committed += 1
        return True

    async def settle(self, table: ServedTable) -> None:
        """Deal when the people still waited for went away (a closed connection, a seat left to the computer)."""
        try:
            async with table.lock:
                dealt = await self._deal_if_ready(table)
        except (ProtocolError, StorageError) as exc:
            log.warning("table %s: dealing after a departure failed (%s)", table.id, type(exc).__name__)
            return
        if dealt:
            self.changed(table)

    async def rematch(self, table: ServedTable, seat: int | None) -> tuple[int, str]:
        """A person asks for a new match at the same seats; it starts when every person at the
        table asked (the same rule as ``ready``), with a seed of the server's own randomness."""
        async with table.lock:
            seat = self._seated(table, seat, "ask for a rematch")
            if not table.match.is_over:
                raise ProtocolError("not_your_turn", "the match goes on; a rematch is for its end")
            if seat not in table.ready:
                await self._commit(table, "ready", seat)
            await self._deal_if_ready(table)
        return table.state_id, "rematch"

    async def say(self, table: ServedTable, seat: int | None, text: str) -> dict[str, Any]:
        """Commit a chat line from a seated person (its text checked where it came in:
        :func:`~canasta.text.clean.clean_text`); the entry every connection is sent.  Storage keeps
        the table's last :data:`~.protocol.CHAT_SENT` lines and blanks the older ones."""
        seat = self._seated(table, seat, "chat; spectators read")
        async with table.lock:
            await self._commit(table, "chat", seat, text)
            line = table.chat[-1]
            oldest = table.chat_seqs[0] if len(table.chat_seqs) == table.chat_seqs.maxlen else None
        if oldest is not None:
            try:
                await self.storage.forget_chat(table.id, oldest)
            except StorageError as exc:  # the next line forgets these too
                log.info("table %s: old chat lines not forgotten yet (%s)", table.id, type(exc).__name__)
        return line

    async def hand_over(self, table: ServedTable, seat: int | None, computer: bool) -> tuple[int, str]:
        """Leave the seat to the computer (an ``expert`` plays it) or take it back."""
        seat = self._seated(table, seat, "leave or take back a seat")
        async with table.lock:
            if computer != (seat in table.driver.stand_ins):
                await self._commit(table, "leave" if computer else "back", seat)
            if computer:
                await self._deal_if_ready(table)
        return table.state_id, "leave" if computer else "back"

    async def hint(self, table: ServedTable, seat: int | None, state_id: int, key: str | None = None
                   ) -> tuple[str, str]:
        """The hint's move for the seat to act, and its reason (:mod:`canasta.bots.hints`).

        A copy of the state is taken here; the seat's view, its legal moves and the search are
        worked out in the CPU pool (queued behind ``key``'s other work; default the table's), off the
        event loop."""
        state = self._to_act(table, seat, state_id, "a hint is for the player whose turn it is")
        return await run_cpu(key or table.id, _hint, state, seat)

    async def resolve(self, table: ServedTable, seat: int | None, cards: list[str], action: str,
                      state_id: int, key: str | None = None, onto: str | None = None) -> tuple[list[str], str | None]:
        """The legal moves of ``action`` that lay exactly ``cards`` from the seat's hand
        (:func:`canasta.selection.choices`, the terminal's too), at most :data:`~.protocol.MAX_RESOLVED`, and
        the engine's sentence when none fits; ``onto`` (a meld rank, ``K``) puts the wild cards on that meld.
        Only the asking connection is answered.

        The groupings are tried in the CPU pool on a copy of the state (a large hand with many wild
        cards takes a tenth of a second), queued behind ``key``'s other work (default the table's)."""
        state = self._to_act(table, seat, state_id, "only the player whose turn it is chooses cards to play")
        try:
            codes = parse_cards(cards)
        except CardError as exc:
            raise ProtocolError("bad_move", str(exc)[:200]) from None
        rank = None if onto is None else MELD_RANK_CHARS.index(onto)  # the protocol checked it
        return await run_cpu(key or table.id, _resolve, state, seat, codes, action, rank)

    @staticmethod
    def _to_act(table: ServedTable, seat: int | None, state_id: int, refusal: str) -> GameState:
        """A copy of the table's state when ``seat`` is to act in state ``state_id``; else the named error."""
        state = table.match.state
        if seat is None or state.is_over or state.to_act != seat:
            raise ProtocolError("not_your_turn", refusal)
        if state_id != table.state_id:
            raise ProtocolError("stale_state", f"the table has moved on (state {table.state_id}, not {state_id})")
        return state.copy()

    # -- clocks: seats away, turn timers ------------------------------------------------

    async def tick(self) -> int:
        """Look at every table's clocks once: an expert stands in for a person away too long while the
        game waits on them (an ``away`` event), and plays the turn of a person whose time ran out
        (normal ``move`` events).  Returns how many tables changed."""
        changed = 0
        for table in list(self.tables.values()):
            try:
                if await self._away(table) or await self._time_out(table):
                    changed += 1
            except (ProtocolError, StorageError) as exc:  # a move made meanwhile, storage down: next tick
                log.info("table %s: a clock's move was not made (%s)", table.id, type(exc).__name__)
        return changed

    async def _away(self, table: ServedTable) -> bool:
        seat = table.person_to_act()

        def gone_long() -> bool:
            return (seat is not None and seat in table.gone_since and seat not in table.elsewhere
                    and self.clock() - table.last_seen(seat) >= table.away_minutes * 60)

        if table.away_minutes <= 0 or not gone_long():
            return False
        await self.read_presence([table])  # what every process sees now, not at the last heartbeat
        if not gone_long():
            return False
        async with table.lock:
            if table.person_to_act() != seat or not gone_long():
                return False
            await self._commit(table, "away", seat)
        self.changed(table)
        return True

    async def _time_out(self, table: ServedTable) -> bool:
        left = table.turn_left()
        seat = table.person_to_act()
        if left is None or left > 0 or seat is None:
            return False
        made = False
        while table.person_to_act() == seat and (table.turn_left() or 0) <= 0:
            state = table.match.state
            move, _ = hint(state.view(seat), list(state.legal_moves()), bot="expert")  # at once, on the loop
            await self.submit(table, seat, str(move), table.state_id)
            made = True
            self.broadcast(table)
        self.changed(table)
        return made

    # -- presence: who is connected to any server process on the same database -------------

    async def heartbeat(self) -> int:
        """Tell storage the connections this process holds (and those it no longer holds), then read what
        the other processes hold for the tables here (:meth:`read_presence`).  Returns how many tables
        changed (a person's connection seen elsewhere came or went)."""
        rows = []
        for table in self.tables.values():
            for seat in table.driver.humans:
                rows.extend(self._presence_row(table, seat))
        await self.storage.set_presence(self.process, rows, self.clock())
        return await self.read_presence([t for t in self.tables.values() if t.has_humans])

    def _presence_row(self, table: ServedTable, seat: int) -> list[tuple[str, int, int]]:
        key = (table.id, seat)
        held = sum(1 for c in table.connections if c.seat == seat)
        if not held and key not in self._reported:
            return []  # never held here: nothing to say (a row would claim the seat was seen now)
        if held:
            self._reported.add(key)
        else:
            self._reported.discard(key)
        return [(table.id, seat, held)]

    def presence_soon(self, table: ServedTable, seat: int | None) -> None:
        """:meth:`presence_changed` in a task of its own: a hello or a closing connection never waits on
        storage (a connection cancelled meanwhile would be left half added or half removed)."""
        task = asyncio.get_running_loop().create_task(self.presence_changed(table, seat))
        self._presence_tasks.add(task)
        task.add_done_callback(self._presence_tasks.discard)

    async def presence_changed(self, table: ServedTable, seat: int | None) -> None:
        """A connection of a person's seat opened or closed here: storage knows at once (a failure waits
        for the next heartbeat)."""
        if seat is None or not 0 <= seat < len(table.seats) or not table.seats[seat].is_human:
            return
        try:
            await self.storage.set_presence(self.process, self._presence_row(table, seat), self.clock())
        except StorageError as exc:
            log.info("table %s: presence not stored (%s)", table.id, type(exc).__name__)

    async def read_presence(self, tables: list[ServedTable]) -> int:
        """Read which seats of these tables other processes hold connections of (a fresh heartbeat) and
        when they last saw each; tell the tables where that changed.  Returns how many changed."""
        if not tables:
            return 0
        now, stale = self.clock(), PRESENCE_STALE
        found: dict[str, tuple[set[int], dict[int, float]]] = {t.id: (set(), {}) for t in tables}
        for table_id, seat, process, connections, seen in await self.storage.presence(list(found)):
            if process == self.process or table_id not in found:
                continue
            here, seen_at = found[table_id]
            if connections > 0 and now - seen < stale:
                here.add(seat)
                seen = now
            seen_at[seat] = max(seen, seen_at.get(seat, float("-inf")))
        changed = 0
        for table in tables:
            here, seen_at = found[table.id]
            if here != table.elsewhere:
                changed += 1
                table.elsewhere = here
                self.broadcast(table)  # the seat's "online" changes
                if table.all_ready:
                    await self.settle(table)
            table.seen_elsewhere = seen_at
        return changed

    async def come_back(self, table: ServedTable, seat: int | None) -> None:
        """A person whose seat went to an expert while they were away is back: the seat is theirs again."""
        if seat is None:
            return
        async with table.lock:
            if seat in table.away:
                await self._commit(table, "back", seat)

    # -- telling the table --------------------------------------------------------------

    def changed(self, table: ServedTable) -> None:
        """Send every connection its new state and let the computer players move."""
        self.broadcast(table)
        if table.bot_task is None or table.bot_task.done():
            if table.driver.bot_to_act(deal=True) is not None and not table.match.is_over:
                table.bot_task = asyncio.get_running_loop().create_task(self._play_bots(table))

    def tell(self, table: ServedTable, message: dict[str, Any]) -> None:
        """Send every connection of the table the same public message (a chat line)."""
        text = dumps(message)
        for conn in list(table.connections):
            conn.send(text)

    def broadcast(self, table: ServedTable) -> None:
        """Send every connection the table as its seat may see it."""
        if not table.connections:
            return
        messages: dict[int | None, str] = {}
        public, seen_by_all = table_json(table), view_json(table, None)  # built once, shared by every seat
        for conn in list(table.connections):
            if conn.seat not in messages:
                messages[conn.seat] = dumps(state_message(table, conn.seat, public, seen_by_all))
            conn.send(messages[conn.seat])

    async def _play_bots(self, table: ServedTable) -> None:
        """The table's computer players, one move per ``bot_delay``, until a person is to act or the match ends.

        At a table without people the server deals each next hand itself.  Whatever fails (a
        storage failure: a full disk, a database restarting; a refused move; a bug) is logged by
        its kind and tried again with backoff, never a silent stop; the move is judged again each
        time, so nothing is lost or made twice.  A turn that is no longer the computer's (a move
        made meanwhile, the seat taken back) is looked at again after the delay.
        """
        failures = 0
        while (seat := table.driver.bot_to_act(deal=True)) is not None:
            state_id = table.state_id
            await asyncio.sleep(self.bot_delay if not failures else
                                min(self.retry[0] * 2 ** (failures - 1), self.retry[1]))
            if not _still_to_act(table, seat, state_id):
                continue
            try:
                if seat == HOUSE:
                    await self.submit(table, HOUSE, None, state_id)
                else:
                    turn = table.driver.bot_turn()
                    # Slow players (search) think in the bounded, fair CPU pool, off the event loop.
                    move = await run_cpu(table.id, turn.choose) if turn.slow else turn.choose()
                    if not _still_to_act(table, seat, state_id):
                        continue
                    await self.submit(table, seat, str(move), state_id, bot=True)
                self.broadcast(table)
            except ProtocolError as exc:
                if exc.name == "stale_state":  # another process moved first, the seat was taken back: look again
                    continue
                failures += 1
                log.warning("table %s: a computer player's move was refused (%s, try %d)", table.id, exc.name,
                            failures)
                continue
            except StorageError as exc:
                failures += 1
                log.warning("table %s: storage failed before a computer player's move (try %d): %s",
                            table.id, failures, exc)
                continue
            except Exception as exc:  # a bot must never take the server down, nor stop; log no cards
                failures += 1
                log.error("table %s: a computer player's turn failed (%s, try %d); trying again", table.id,
                          type(exc).__name__, failures)
                continue
            failures = 0

    async def close(self) -> None:
        """Stop the computer players (and let the presence writes under way finish)."""
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *self._presence_tasks, return_exceptions=True)


def _still_to_act(table: ServedTable, seat: int, state_id: int) -> bool:
    """True when the computer still acts for ``seat`` in state ``state_id`` (no move made, the seat not taken
    back meanwhile)."""
    return table.state_id == state_id and table.driver.bot_to_act(deal=True) == seat


def _hint(state: GameState, seat: int) -> tuple[str, str]:
    """A hint for ``seat`` from its own view of ``state`` (a copy: this runs off the event loop)."""
    move, reason = hint(state.view(seat), list(state.legal_moves()))
    return str(move), hint_sentence(move, reason)


def _resolve(state: GameState, seat: int, cards: list[int], action: str,
             onto: int | None = None) -> tuple[list[str], str | None]:
    """:func:`canasta.selection.choices` on a copy of the state, as move texts (off the event loop)."""
    found = resolve_selection(state, seat, cards, action, onto)
    return [str(m) for m in found.moves[:MAX_RESOLVED]], found.reason


def _number(body: dict[str, Any], field: str, default: float, most: float) -> float:
    """A table option in minutes or seconds: a number from 0 (never) to ``most``; fractions allowed."""
    value = body.get(field, default)
    if value is None:
        return default
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= most:
        raise ValueError(f"{field} must be a number from 0 (never) to {most:g}")
    return float(value)


def _parse_seats(raw: object, rules: Rules) -> list[Seat]:
    """The seats of a table being created, in the seat language (default: a person at seat 0, ``expert`` elsewhere).

    The lobby's sentences for a wrong list and an unknown kind; the rest is :func:`canasta.play.parse_seats`'s.
    No ``policy:FILE`` player: a server never loads a file named in a request.
    """
    if raw is not None:
        if not isinstance(raw, list) or len(raw) != rules.players:
            raise ValueError(f"{rules.preset} needs a list of {rules.players} seats")
        for index, entry in enumerate(raw):
            if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
                raise ValueError(f"seat {index} must be an object with a kind (human or a computer player)")
            kind = entry["kind"]
            if kind.strip().lower() not in HUMAN_WORDS and kind.partition(":")[0] not in BOTS and not find_level(kind):
                raise ValueError(f"seat {index}: unknown player kind {kind!r} ({HUMAN}, {', '.join(sorted(BOTS))}, "
                                 f"or a level: {', '.join(level.kind for level in LEVELS)})")
    try:
        return parse_seats(raw, rules, shared=True)
    except SeatError as exc:
        raise ValueError(str(exc)) from None
