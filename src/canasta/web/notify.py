"""Several server processes on one PostgreSQL database hear each other's commits at once: LISTEN/NOTIFY.

Every commit of events sends, in its own transaction, ``move <table> <count>`` on the schema's channel
(:attr:`~.storage.PostgresStorage.channel`), so a notification exists exactly when the events do; a renewed
link sends ``renew <table> <seat> <process>`` and a connection that opens or closes ``presence <table>
<process>``.  Each process holds one more connection that only listens (:class:`Listener`): a move catches up
the table from storage (:meth:`~.service.TableService.follow_table`) and pushes it to this process's
connections (a move announced while the table is being loaded waits for the load); a renewal closes the seat's
connections whose token no longer opens it; a presence change reads the table's presence rows again.  A lost
connection is opened again with backoff, and on every (re)start the process catches up all its tables, since
notifications sent while nobody listened are gone; a slow poll
(``--follow``, 5 s by default on PostgreSQL) stays as the last resort.  Why NOTIFY: it comes with the database
the processes already share (no broker to run), it is transactional (sent at commit, never for a rolled-back
move) and it arrives in about a millisecond; its payload is small, so it names the table and the reader reads
the events.  SQLite has none: its processes poll (docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from .protocol import ProtocolError, dumps
from .storage import StorageError

if TYPE_CHECKING:
    from .service import TableService

log = logging.getLogger("canasta.web")

RETRY_FIRST, RETRY_MOST = 0.2, 5.0
"""Seconds before the listening connection is opened again after a loss, doubling up to the most."""
KEEPALIVE = 10.0
"""Seconds without a notification after which the listening connection is checked with a query (a silent loss)."""


class Listener:
    """The listening connection of one server process: what other processes commit reaches it at once."""

    def __init__(self, service: TableService, url: str, channel: str) -> None:
        self.service = service
        self.url = url
        self.channel = channel
        self.listening = asyncio.Event()
        """Set while the connection listens (readiness, tests)."""
        self.received = 0
        """Notifications read, every kind (metrics)."""
        self.reconnects = 0
        """Times the connection was lost, or could not be opened, and was tried again."""
        self.backend_pid: int | None = None
        """The listening connection's server process (``pg_stat_activity.pid``)."""
        self._wanted: dict[str, int] = {}
        self._catching: dict[str, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False

    async def run(self) -> None:
        """Listen until cancelled, opening the connection again after each loss."""
        import psycopg
        from psycopg import sql

        failures = 0
        while not self._stopping:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True, connect_timeout=10)
                async with conn:
                    await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self.backend_pid = conn.info.backend_pid
                    self.listening.set()
                    if failures or self.reconnects:
                        log.info("listening to the other server processes again")
                    failures = 0
                    await self.service.follow()  # what was committed while nobody here listened
                    while True:
                        async for note in conn.notifies(timeout=KEEPALIVE):  # psycopg 3.2
                            self.handle(note.payload)
                        await conn.execute("SELECT 1")  # a quiet while: is the connection still there?
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                self.reconnects += 1
                wait = min(RETRY_FIRST * 2 ** (failures - 1), RETRY_MOST)
                log.warning("listening to the other server processes failed (%s); again in %.1fs",
                            type(exc).__name__, wait)
                await asyncio.sleep(wait)
            finally:
                self.listening.clear()

    def handle(self, payload: str) -> None:
        """Act on one notification (unknown or malformed ones are ignored: a newer process may send more)."""
        self.received += 1
        words = payload.split()
        try:
            if words[0] == "move" and len(words) == 3:
                self._moved(words[1], int(words[2]))
            elif words[0] == "renew" and len(words) == 4 and words[3] != self.service.presence.process:
                self._spawn(self._renewed(words[1], int(words[2])))
            elif words[0] == "presence" and len(words) == 3 and words[2] != self.service.presence.process:
                if (table := self.service.tables.get(words[1])) is not None:
                    self._spawn(self.service.read_presence([table]))
        except (IndexError, ValueError):
            log.info("an unknown notification was ignored")

    def _moved(self, table_id: str, count: int) -> None:
        """Catch the table up in a task of its own; notifications arriving meanwhile only raise the count wanted."""
        table = self.service.tables.get(table_id)
        if table is None and not self.service.is_loading(table_id):  # not held here
            return
        if table is not None and count <= table.seq:  # this process's own move
            return
        self._wanted[table_id] = max(count, self._wanted.get(table_id, 0))
        if table_id not in self._catching:
            task = asyncio.get_running_loop().create_task(self._catch_up(table_id))
            self._catching[table_id] = task

    async def _catch_up(self, table_id: str) -> None:
        try:
            if table_id not in self.service.tables:  # being loaded: the events it read may end before this move
                await self.service.get(table_id)
            while (count := self._wanted.pop(table_id, None)) is not None:
                try:
                    await self.service.follow_table(table_id, count)
                except StorageError as exc:  # the slow poll or the next notification catches it up
                    log.info("table %s: catching up a move made elsewhere failed (%s)", table_id, type(exc).__name__)
        finally:
            del self._catching[table_id]

    async def _renewed(self, table_id: str, seat: int) -> None:
        """Another process renewed a seat's link: close this process's connections of the seat whose token no
        longer opens it (one that came with the new token meanwhile stays)."""
        table = self.service.tables.get(table_id)
        if table is None:
            return
        refusal = dumps(ProtocolError("bad_token", "this seat's link was renewed; ask its player for the new one")
                        .to_message())
        closed = False
        for conn in [c for c in table.connections if c.seat == seat]:
            held = getattr(conn, "token_hash", None)
            try:
                if held is not None and (await self.service.storage.token_seat(table_id, held))[0]:
                    continue
            except StorageError as exc:  # unknown: the connection is closed (its page says hello again)
                log.info("table %s: a renewed link was not checked (%s)", table_id, type(exc).__name__)
            table.connections.discard(conn)
            conn.send(refusal)
            if (close := getattr(conn, "send_close", None)) is not None:
                close()
            closed = True
        if closed:
            table.connection_changed(seat)
            self.service.broadcast(table)
            await self.service.presence_changed(table, seat)

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Stop the catching up under way."""
        self._stopping = True
        tasks = [*self._catching.values(), *self._tasks]
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks, return_exceptions=True)


def channel_of(storage: object) -> str | None:
    """The notification channel of a storage (a :class:`~.storage.PostgresStorage`'s); None for SQLite."""
    channel = getattr(storage, "channel", None)
    return channel if isinstance(channel, str) else None
