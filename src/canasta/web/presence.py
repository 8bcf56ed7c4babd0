"""Who is connected to any server process on the same database: this process's presence rows in storage.

Each row says how many connections one process holds for one person's seat and when it last
saw one (docs/protocol.md, "Storage and several server processes").  A process writes its row
when a seat's connection opens or closes there and, every :data:`PRESENCE_EVERY` seconds,
refreshes its rows and reads the others' (:meth:`canasta.web.service.TableService.heartbeat`);
a row whose heartbeat is older than :data:`PRESENCE_STALE` no longer counts (its process died).
What it reads lands in each :class:`~.served.ServedTable`'s ``elsewhere`` and ``seen_elsewhere``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable

from .served import ServedTable
from .storage import AsyncStorage

PRESENCE_EVERY = 5.0
"""Seconds between two heartbeats of a server process: it tells storage whose connections it holds and
reads what the other processes on the same database hold."""
PRESENCE_STALE = 3 * PRESENCE_EVERY
"""Seconds after which a process's word that it holds a connection no longer counts (the process died)."""


class Presence:
    """This server process's presence rows: what it tells storage, and what it reads of the other processes'."""

    def __init__(self, storage: AsyncStorage, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.clock = clock
        """Wall-clock seconds (``time.time``; several processes compare them)."""
        self.process = secrets.token_hex(8)
        """This server process's name in the presence rows of storage."""
        self._reported: set[tuple[str, int]] = set()
        """(table, seat) this process last told storage it holds connections of."""

    def row(self, table: ServedTable, seat: int) -> list[tuple[str, int, int]]:
        """The row to write for a person's seat (none when this process never held it): the connections held."""
        key = (table.id, seat)
        held = sum(1 for c in table.connections if c.seat == seat)
        if not held and key not in self._reported:
            return []  # never held here: nothing to say (a row would claim the seat was seen now)
        if held:
            self._reported.add(key)
        else:
            self._reported.discard(key)
        return [(table.id, seat, held)]

    async def store(self, tables: Iterable[ServedTable]) -> None:
        """Write the rows of every person's seat at these tables (the heartbeat); ``StorageError`` when it fails."""
        rows = [row for table in tables for seat in table.driver.humans for row in self.row(table, seat)]
        await self.storage.set_presence(self.process, rows, self.clock())

    async def store_seat(self, table: ServedTable, seat: int) -> None:
        """Write the row of one person's seat (a connection opened or closed); ``StorageError`` when it fails."""
        await self.storage.set_presence(self.process, self.row(table, seat), self.clock())

    async def read(self, tables: list[ServedTable]) -> list[ServedTable]:
        """Read which seats of these tables other processes hold connections of (a fresh heartbeat) and when they
        last saw each, into each table; the tables where the seats held elsewhere changed."""
        if not tables:
            return []
        now = self.clock()
        found: dict[str, tuple[set[int], dict[int, float]]] = {t.id: (set(), {}) for t in tables}
        for table_id, seat, process, connections, seen in await self.storage.presence(list(found)):
            if process == self.process or table_id not in found:
                continue
            here, seen_at = found[table_id]
            if connections > 0 and now - seen < PRESENCE_STALE:
                here.add(seat)
                seen = now
            seen_at[seat] = max(seen, seen_at.get(seat, float("-inf")))
        changed = []
        for table in tables:
            here, seen_at = found[table.id]
            if here != table.elsewhere:
                table.elsewhere = here
                changed.append(table)
            table.seen_elsewhere = seen_at
        return changed
