"""Live tables: every :class:`~.served.ServedTable` of this server process, its storage and its computer players.

A table's history is a list of events (``deal`` and ``move``) in storage; the state id is
their number.  Every move is judged by the table driver (the protocol's order, its named
errors), committed, and only then applied and shown, so a server killed at any moment
restarts from the last acknowledged move.  Computer players move after ``bot_delay``, slow
ones (``search``) in a thread; a failed storage write is retried with backoff, so they go on
by themselves once storage is back; a table of computer players only plays to the match end.

The parts live beside it: :mod:`.served` (one table in memory), :mod:`.requests` (reading a new
table's request), :mod:`.presence` (who is connected to other server processes),
:mod:`.protocol` and :mod:`.messages` (what is sent), :mod:`.notify` (hearing at once what other processes on
one PostgreSQL commit).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ..bots.hints import hint, hint_sentence
from ..cards import MELD_RANK_CHARS, parse_cards
from ..errors import CardError
from ..match import SEEDING
from ..play import HOUSE
from ..selection import choices as resolve_selection
from ..state import GameState
from .messages import ChatLine, SeatLink, ServerMessage, TableCreated
from .pool import run_cpu
from .presence import Presence
from .protocol import MAX_RESOLVED, ProtocolError, dumps, named_errors, state_message, table_json, view_json
from .requests import TableRequest
from .security import token_hash
from .served import Connection, ServedTable
from .storage import AsyncStorage, Event, StorageError

log = logging.getLogger("canasta.web")

CLOCK_TICK = 0.5
"""Seconds between two looks at the tables' clocks (seats away, turn timers)."""
RETRY_FIRST, RETRY_MOST = 0.2, 10.0
"""Seconds before a computer player's move is tried again after a storage failure, doubling up to the most."""


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
        self.presence = Presence(storage, lambda: self.clock())
        """This process's presence rows in storage (:mod:`.presence`)."""
        self._presence_tasks: set[asyncio.Task[None]] = set()
        self.match_over: list[Callable[[ServedTable], Awaitable[object] | None]] = []
        """Called at once, in the event loop, when a move of this process ends a table's match (the room records
        it: :mod:`.room.history`); an awaitable it returns runs in a task of its own."""
        self._listening: set[asyncio.Future[object]] = set()
        self.table_created: list[Callable[[str, dict[str, Any], TableCreated], Awaitable[None]]] = []
        """Awaited when a table is made, before its creator is answered (the room lists a public one)."""
        self.seating: list[Callable[[ServedTable, int, Mapping[str, Any]], Awaitable[None]]] = []
        """Awaited at a person's hello to their seat (the table, the seat, the websocket's ASGI scope), before the
        welcome and the first state are built (the room seats a signed-in creator as their account: that state
        already shows the account's name); each must fail quietly."""

    # -- tables -------------------------------------------------------------------------

    async def create(self, body: object, extra: Mapping[str, Any] | None = None) -> TableCreated:
        """Create a table from a request: a :class:`~.requests.TableRequest` (read with the server's limits), or a
        request body read here without them (a :class:`~.requests.RequestError` or another
        :class:`~canasta.errors.CanastaError` with one sentence when it is wrong).  ``extra``: more of the
        table's spec (a tournament's table: ``{"tournament": ...}``, :mod:`.tournaments`)."""
        request = body if isinstance(body, TableRequest) else TableRequest.parse(body)
        seats, away, turn = request.seats, request.away_minutes, request.turn_seconds
        chosen = request.seed is not None
        seed = request.seed if request.seed is not None else self.new_seed()
        table_id = secrets.token_urlsafe(9)
        tokens: dict[str, int | None] = {}
        answer_seats: list[SeatLink] = []
        for seat in seats:
            token = secrets.token_urlsafe(24) if seat.is_human else None
            if token is not None:
                tokens[token_hash(token)] = seat.index
            answer_seats.append({"seat": seat.index, "kind": seat.kind, "name": seat.name, "token": token,
                                 "link": f"/t/{table_id}#{token}" if token else None})
        spectator = secrets.token_urlsafe(24)
        tokens[token_hash(spectator)] = None
        spec: dict[str, Any] = {"rules": request.rules.to_json(),
                                "seats": [{"kind": s.kind, "name": s.name} for s in seats], "seed": seed,
                                "seeding": SEEDING, "created": time.time(), "away_minutes": away,
                                "turn_seconds": turn}
        if chosen:
            spec["seed_chosen"] = True  # announced to every seat (``table.seed``)
        spec.update(extra or {})
        if request.public or request.rated:
            spec["room"] = {"public": request.public, "rated": request.rated}
        await self.storage.create_table(table_id, spec, tokens)
        table = ServedTable(table_id, spec, self.clock)
        try:
            await self._commit(table, "deal", None)
        except ProtocolError:
            raise RuntimeError(f"table {table_id} was dealt twice") from None
        self.tables[table_id] = table
        self.changed(table)
        answer: TableCreated = {"table": table_id, "seats": answer_seats, "away_minutes": away,
                                "turn_seconds": turn, "spectator": {"token": spectator,
                                                                    "link": f"/t/{table_id}#{spectator}"}}
        for listener in self.table_created:
            await listener(table_id, spec, answer)
        return answer

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

    def is_loading(self, table_id: str) -> bool:
        """True while :meth:`get` loads the table from storage (it is not in :attr:`tables` yet)."""
        lock = self._loading.get(table_id)
        return lock is not None and lock.locked() and table_id not in self.tables

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
            if await self.follow_table(table_id, count):
                moved += 1
        return moved

    async def follow_table(self, table_id: str, count: int) -> bool:
        """Catch up one table in memory that another server process moved to ``count`` events (a poll of
        :meth:`follow`, a notification of :mod:`.notify`): tell its connections, send them its new chat lines,
        let its computer players move.  True when it moved."""
        table = self.tables.get(table_id)
        if table is None or count <= table.seq:
            return False
        async with table.lock:  # this process's own move may have been committing: then nothing is new
            before, last_chat = table.seq, (table.chat_seqs[-1] if table.chat_seqs else -1)
            if count > before:
                await self.catch_up(table)
        if table.seq <= before:
            return False
        lines = [line for line, seq in zip(table.chat, table.chat_seqs, strict=True) if seq > last_chat]
        if lines:
            self.tell(table, {"type": "chat", "messages": lines})
        self.changed(table)
        return True

    async def renew(self, table: ServedTable, conn: Connection) -> str:
        """Give the connection's seat a new token: the old link stops opening it, and the seat's other
        connections (whoever else holds the old link) are told ``bad_token`` and closed.  The new token."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError("bad_token", "only a player's seat has a link to renew")
        token = secrets.token_urlsafe(24)
        if not await self.storage.renew_token(table.id, seat, token_hash(token)):
            raise ProtocolError("no_table", "this seat is no longer stored; ask for a new link")
        refusal = dumps(ProtocolError("bad_token", "this seat's link was renewed; ask its player for the new one")
                        .to_message())
        for other in list(table.connections):
            if other is not conn and other.seat == seat:
                table.connections.discard(other)
                other.send(refusal)
                close = getattr(other, "send_close", None)
                if close is not None:
                    close()
        self.broadcast(table)
        try:  # the seat's connections held by other server processes are closed there (:mod:`.notify`)
            await self.storage.notify(f"renew {table.id} {seat} {self.presence.process}")
        except StorageError as exc:
            log.warning("table %s: other server processes were not told of a renewed link (%s)", table.id,
                        type(exc).__name__)
        return token

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
            with named_errors():  # a seat left to the computer: its person's moves are refused, and a
                # computer's move is stale once the person took the seat back while it thought
                move = table.driver.judge(seat, text, state_id, computer=bot)
            if move is None:
                await self._commit(table, "deal", None)
            else:
                await self._commit(table, "move", seat, str(move))
            self.moves_committed += 1
            if table.match.is_over:
                await self.storage.set_status(table.id, "over")
                self._match_over(table)
        return table.state_id, "next" if move is None else str(move)

    def _match_over(self, table: ServedTable) -> None:
        """Tell :attr:`match_over`'s listeners; a failing one is logged by its kind, never stops the table."""
        for listener in self.match_over:
            try:
                work = listener(table)
            except Exception as exc:
                log.error("table %s: a listener of the match's end failed (%s)", table.id, type(exc).__name__)
                continue
            if work is not None:
                task = asyncio.ensure_future(work)
                self._listening.add(task)
                task.add_done_callback(self._listening.discard)

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
        with named_errors():
            return table.driver.require_person(seat, what)

    async def ready(self, table: ServedTable, seat: int | None, state_id: int) -> tuple[int, str]:
        """A person dismissed the result of the hand; the next hand is dealt once everybody did
        (:attr:`ServedTable.all_ready`).  Saying it twice changes nothing."""
        async with table.lock:
            if state_id > table.state_id:
                await self.catch_up(table)
            with named_errors():  # the deal's checks: the match over, a spectator, the hand going on, stale
                table.driver.require_turn(seat, state_id, deal=True)
            seat = self._seated(table, seat, "deal the next hand")
            if seat not in table.ready:
                await self._commit(table, "ready", seat)
            await self._deal_if_ready(table)
        return table.state_id, "ready"

    async def _deal_if_ready(self, table: ServedTable) -> bool:
        """Deal the next hand (or start the rematch) when every person is ready (the caller holds the lock)."""
        if not table.all_ready:
            return False
        if table.match.is_over:
            if "tournament" in table.spec:  # a tournament's table plays its boards once
                return False
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
            with named_errors():
                table.driver.require_rematch()
            if seat not in table.ready:
                await self._commit(table, "ready", seat)
            await self._deal_if_ready(table)
        return table.state_id, "rematch"

    async def say(self, table: ServedTable, seat: int | None, text: str) -> ChatLine:
        """Commit a chat line from a seated person (its text checked where it came in:
        :func:`~canasta.text.clean.clean_text`); the entry every connection is sent.  Storage keeps
        the table's last :data:`~.served.CHAT_KEPT` lines and blanks the older ones."""
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
        state = self._to_act(table, seat, state_id)
        return await run_cpu(key or table.id, _hint, state, seat)

    async def resolve(self, table: ServedTable, seat: int | None, cards: list[str], action: str,
                      state_id: int, key: str | None = None, onto: str | None = None) -> tuple[list[str], str | None]:
        """The legal moves of ``action`` that lay exactly ``cards`` from the seat's hand
        (:func:`canasta.selection.choices`, the terminal's too), at most :data:`~.protocol.MAX_RESOLVED`, and
        the engine's sentence when none fits; ``onto`` (a meld rank, ``K``) puts the wild cards on that meld.
        Only the asking connection is answered.

        The groupings are tried in the CPU pool on a copy of the state (a large hand with many wild
        cards takes a tenth of a second), queued behind ``key``'s other work (default the table's)."""
        state = self._to_act(table, seat, state_id)
        try:
            codes = parse_cards(cards)
        except CardError as exc:
            raise ProtocolError("bad_move", str(exc)[:200]) from None
        rank = None if onto is None else MELD_RANK_CHARS.index(onto)  # the protocol checked it
        return await run_cpu(key or table.id, _resolve, state, seat, codes, action, rank)

    @staticmethod
    def _to_act(table: ServedTable, seat: int | None, state_id: int) -> GameState:
        """A copy of the table's state when ``seat`` is to act in state ``state_id``; else the driver's named error
        (``table_over``, ``not_your_turn``, ``stale_state``: :meth:`~canasta.play.table.Table.require_turn`)."""
        with named_errors():
            table.driver.require_turn(seat, state_id)
        return table.match.state.copy()

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
        if table.away_minutes <= 0 or not table.gone_since.keys() - table.elsewhere:  # every person connected
            return False  # somewhere: decided at once, without the game's state (a tick looks at every table)
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
        if left is None or left > 0:
            return False
        seat = table.person_to_act()
        if seat is None:
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
        await self.presence.store(self.tables.values())
        return await self.read_presence([t for t in self.tables.values() if t.has_humans])

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
            await self.presence.store_seat(table, seat)
            await self.storage.notify(f"presence {table.id} {self.presence.process}")  # read at once elsewhere
        except StorageError as exc:
            log.info("table %s: presence not stored (%s)", table.id, type(exc).__name__)

    async def read_presence(self, tables: list[ServedTable]) -> int:
        """Read which seats of these tables other processes hold connections of (a fresh heartbeat) and
        when they last saw each; tell the tables where that changed.  Returns how many changed."""
        changed = await self.presence.read(tables)
        for table in changed:
            self.broadcast(table)  # the seat's "online" changes
            if table.all_ready:
                await self.settle(table)
        return len(changed)

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

    def tell(self, table: ServedTable, message: ServerMessage) -> None:
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
        await asyncio.gather(*tasks, *self._presence_tasks, *self._listening, return_exceptions=True)


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
