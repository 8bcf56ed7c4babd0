"""Live tables: a match, its seats and connections, replayed from storage and moved by events.

A table's history is a list of events (``deal`` and ``move``) in storage; the state id is
their number.  Every move is checked here against the engine, committed, and only then
applied and shown, so a server killed at any moment restarts from the last acknowledged move.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..bots import Bot, make_bot
from ..bots.hints import hint
from ..errors import CanastaError, IllegalMoveError
from ..match import Match
from ..moves import Move
from ..rules import Rules
from .pool import run_cpu
from .protocol import ProtocolError, dumps, rules_from_request, state_message, table_json
from .storage import AsyncStorage, Event

log = logging.getLogger("canasta.web")

HUMAN = "human"
MAX_NAME = 24


def token_hash(token: str) -> str:
    """What storage keeps of a secret token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Connection(Protocol):
    """One websocket as the table sees it: its seat (None for a spectator) and a queue to send to."""

    seat: int | None

    def send(self, text: str) -> None:
        """Queue a message (JSON text); never blocks."""
        ...


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: a human (by invite link) or a computer player."""

    seat: int
    kind: str
    name: str

    @property
    def is_human(self) -> bool:
        """True for a seat played through an invite link."""
        return self.kind == HUMAN


class Table:
    """One table in memory: the match replayed from its events, and who is connected."""

    def __init__(self, table_id: str, spec: Mapping[str, Any]) -> None:
        self.id = table_id
        self.rules = Rules.parse(spec["rules"])
        self.seats = [Seat(i, s["kind"], s["name"]) for i, s in enumerate(spec["seats"])]
        self.match = Match(self.rules, [s.name for s in self.seats], seed=int(spec["seed"]), deal=False)
        self.state_id = 0
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.bots: dict[int, Bot] = {
            s.seat: make_bot(s.kind, random.Random(secrets.randbits(64))) for s in self.seats if not s.is_human
        }
        self.bot_task: asyncio.Task[None] | None = None
        self.last_active = time.monotonic()

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

    def connected(self, seat: int) -> bool:
        """True when some connection holds this seat (computer players always are)."""
        return seat in self.bots or any(c.seat == seat for c in self.connections)

    def apply(self, event: Event) -> None:
        """Apply a committed event (it was checked before it was committed)."""
        if event.seq != self.state_id:
            raise RuntimeError(f"table {self.id}: event {event.seq} applied at state {self.state_id}")
        if event.kind == "deal":
            self.match.new_hand()
        else:
            self.match.play(event.text)
        self.state_id = event.seq + 1
        self.last_active = time.monotonic()

    @property
    def idle(self) -> bool:
        """True when nobody is connected and no computer player is moving."""
        return not self.connections and (self.bot_task is None or self.bot_task.done())


class TableService:
    """Every live table of this server process, its storage and its computer players."""

    def __init__(self, storage: AsyncStorage, bot_delay: float = 0.7) -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.moves_committed = 0

    # -- tables -------------------------------------------------------------------------

    async def create(self, body: object) -> dict[str, Any]:
        """Create a table from a request body; ``ValueError`` with one sentence when it is wrong."""
        if not isinstance(body, dict):
            raise ValueError("the request must be a JSON object")
        unknown = set(body) - {"preset", "options", "target", "seats", "seed"}
        if unknown:
            raise ValueError(f"unknown field {sorted(unknown)[0]!r} (preset, options, target, seats, seed)")
        rules = rules_from_request(body.get("preset", "classic"), body.get("options"), body.get("target"))
        seats = _parse_seats(body.get("seats"), rules)
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(63)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise ValueError("seed must be a whole number from 0 to 2**63 - 1")
        table_id = secrets.token_urlsafe(9)
        tokens: dict[str, int | None] = {}
        answer_seats = []
        for seat in seats:
            token = secrets.token_urlsafe(24) if seat.is_human else None
            if token is not None:
                tokens[token_hash(token)] = seat.seat
            answer_seats.append({"seat": seat.seat, "kind": seat.kind, "name": seat.name, "token": token,
                                 "link": f"/t/{table_id}#{token}" if token else None})
        spectator = secrets.token_urlsafe(24)
        tokens[token_hash(spectator)] = None
        spec = {"rules": rules.to_json(), "seats": [{"kind": s.kind, "name": s.name} for s in seats],
                "seed": seed, "created": time.time()}
        await self.storage.create_table(table_id, spec, tokens)
        table = Table(table_id, spec)
        first = Event(0, "deal", None, "", time.time())
        if not await self.storage.append(table_id, first):
            raise RuntimeError(f"table {table_id} was dealt twice")
        table.apply(first)
        self.tables[table_id] = table
        self.changed(table)
        return {"table": table_id, "seats": answer_seats,
                "spectator": {"token": spectator, "link": f"/t/{table_id}#{spectator}"}}

    async def get(self, table_id: str) -> Table | None:
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
                table = Table(table_id, spec)
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

    async def catch_up(self, table: Table) -> None:
        """Apply events another server process committed for this table."""
        for event in await self.storage.events(table.id, table.state_id):
            if event.seq == table.state_id:
                table.apply(event)

    async def follow(self) -> int:
        """Catch up the tables in memory that other server processes moved (one shared database).

        One query asks for every watched table's event count; a table that is behind reads
        the events it missed, tells its connections and lets its computer players move.
        Returns how many tables moved.
        """
        watched = [t.id for t in self.tables.values() if t.connections or t.bots]
        if not watched:
            return 0
        moved = 0
        for table_id, count in (await self.storage.event_counts(watched)).items():
            table = self.tables.get(table_id)
            if table is None or count <= table.state_id:
                continue
            async with table.lock:  # this process's own move may have been committing: then nothing is new
                before = table.state_id
                if count > before:
                    await self.catch_up(table)
            if table.state_id > before:
                self.changed(table)
                moved += 1
        return moved

    async def seat_of(self, table: Table, token: str) -> int | None:
        """The seat (None: spectator) a token opens; ``bad_token`` when it opens nothing."""
        found, seat = await self.storage.token_seat(table.id, token_hash(token))
        if not found:
            raise ProtocolError("bad_token", "this link does not open a seat at this table")
        return seat

    # -- moves --------------------------------------------------------------------------

    async def submit(self, table: Table, seat: int | None, text: str | None, state_id: int) -> tuple[int, str]:
        """Check, commit and apply a move (``text``) or the next deal (``None``); the new state id and move.

        The checks run in the protocol's order: table live, seat may act, state id
        current, move parses, move legal.  Nothing changes when one fails.
        """
        async with table.lock:
            if state_id > table.state_id:
                await self.catch_up(table)
            event = self._judge(table, seat, text, state_id)
            if not await self.storage.append(table.id, event):  # another server process moved first
                await self.catch_up(table)
                self.broadcast(table)
                raise ProtocolError("stale_state", "another move was made first; look at the table again")
            table.apply(event)
            self.moves_committed += 1
            if table.match.is_over:
                await self.storage.set_status(table.id, "over")
        return table.state_id, event.text or "next"

    def _judge(self, table: Table, seat: int | None, text: str | None, state_id: int) -> Event:
        state = table.match.state
        if table.match.is_over:
            raise ProtocolError("table_over", "the match is over")
        if seat is None:
            raise ProtocolError("not_your_turn", "spectators watch; they do not play")
        if text is None:
            if not state.is_over:
                raise ProtocolError("not_your_turn", "the hand is still being played")
        elif state.is_over:
            raise ProtocolError("not_your_turn", "the hand is over; deal the next one")
        elif state.to_act != seat:
            waiting = table.seats[state.to_act].name
            raise ProtocolError("not_your_turn", f"it is {waiting}'s turn, not yours")
        if state_id != table.state_id:
            raise ProtocolError("stale_state", f"the table has moved on (state {table.state_id}, not {state_id})")
        if text is None:
            return Event(table.state_id, "deal", None, "", time.time())
        try:
            move = Move.parse(text)
        except CanastaError as exc:
            raise ProtocolError("bad_move", str(exc)) from None
        try:
            state.check(move)
        except IllegalMoveError as exc:
            raise ProtocolError("illegal_move", str(exc)) from None
        return Event(table.state_id, "move", seat, str(move), time.time())

    def hint(self, table: Table, seat: int | None, state_id: int) -> tuple[str, str]:
        """The expert's move for the seat to act, and its reason."""
        state = table.match.state
        if seat is None or state.is_over or state.to_act != seat:
            raise ProtocolError("not_your_turn", "a hint is for the player whose turn it is")
        if state_id != table.state_id:
            raise ProtocolError("stale_state", f"the table has moved on (state {table.state_id}, not {state_id})")
        move, reason = hint(state.view(seat), list(state.legal_moves()))
        return str(move), reason

    # -- telling the table --------------------------------------------------------------

    def changed(self, table: Table) -> None:
        """Send every connection its new state and let the computer players move."""
        self.broadcast(table)
        if table.bot_task is None or table.bot_task.done():
            if self._bot_to_act(table) is not None:
                table.bot_task = asyncio.get_running_loop().create_task(self._play_bots(table))

    def broadcast(self, table: Table) -> None:
        """Send every connection the table as its seat may see it."""
        messages: dict[int | None, str] = {}
        public = table_json(table) if table.connections else None
        for conn in list(table.connections):
            if conn.seat not in messages:
                messages[conn.seat] = dumps(state_message(table, conn.seat, public))
            conn.send(messages[conn.seat])

    def _bot_to_act(self, table: Table) -> int | None:
        """The computer player to move (-1: the server deals the next hand of a table without humans)."""
        state = table.match.state
        if table.match.is_over or table.state_id == 0:
            return None
        if state.is_over:
            return None if table.has_humans else -1
        return state.to_act if state.to_act in table.bots else None

    async def _play_bots(self, table: Table) -> None:
        try:
            while (seat := self._bot_to_act(table)) is not None:
                state_id = table.state_id
                await asyncio.sleep(self.bot_delay)
                if table.state_id != state_id:
                    continue
                if seat < 0:
                    await self.submit(table, None, None, state_id)
                else:
                    state = table.match.state
                    bot = table.bots[seat]
                    view, moves = state.view(seat), list(state.legal_moves())
                    if bot.name.startswith("search"):
                        move = await run_cpu(table.id, bot.choose, view, moves)  # bounded, fair pool
                    else:
                        move = bot.choose(view, moves)
                    if table.state_id != state_id:
                        continue
                    await self.submit(table, seat, str(move), state_id)
                self.broadcast(table)
        except ProtocolError as exc:
            log.warning("table %s: a computer player's move was refused (%s)", table.id, exc.name)
        except Exception as exc:  # a bot must never take the server down; log no cards
            log.error("table %s: computer player stopped (%s)", table.id, type(exc).__name__)

    async def close(self) -> None:
        """Stop the computer players."""
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _parse_seats(raw: object, rules: Rules) -> list[Seat]:
    """The seats of a table being created (default: a human at seat 0, ``expert`` elsewhere)."""
    from ..bots import BOTS

    if raw is None:
        raw = [{"kind": HUMAN}] + [{"kind": "expert"}] * (rules.players - 1)
    if not isinstance(raw, list) or len(raw) != rules.players:
        raise ValueError(f"{rules.preset} needs a list of {rules.players} seats")
    seats = []
    for index, entry in enumerate(raw):
        if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
            raise ValueError(f"seat {index} must be an object with a kind (human or a computer player)")
        kind = entry["kind"]
        if kind != HUMAN and kind.partition(":")[0] not in BOTS:
            raise ValueError(f"seat {index}: unknown player kind {kind!r} (human, {', '.join(sorted(BOTS))})")
        if kind != HUMAN:
            make_bot(kind)  # a bad search budget is refused here, with its own sentence
        name = entry.get("name")
        if name is None or name == "":
            name = f"Player {index + 1}" if kind == HUMAN else f"{kind.capitalize()} {index + 1}"
        if not isinstance(name, str) or len(name) > MAX_NAME or not name.isprintable():
            raise ValueError(f"seat {index}: a name is printable text of at most {MAX_NAME} characters")
        seats.append(Seat(index, kind, name.strip() or f"Player {index + 1}"))
    return seats
