"""Stopping a server process gracefully (SIGTERM): it drains, and its players go on at another process.

Draining, in order: ``/readyz`` answers 503 and no new table is made here (a load balancer stops sending
players); a message read from now on is not answered but the connection is told to reconnect; the messages
being answered finish (each move's commit, its ``ack`` queued); then every connection is sent ``reconnect``
after what it was queued and closed with 1012 (service restart).  The page connects again by itself (a second
later) and, with a shared database, another process loads the table from storage: every acknowledged move was
committed before its ``ack`` was sent, so none is lost.  Then uvicorn stops, the computer players stop and
storage finishes the commits queued.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from .messages import Reconnect
from .protocol import dumps

log = logging.getLogger("canasta.web")

RESTART_CODE = 1012
"""The websocket close code of a server restarting (RFC 6455, IANA registry): the client connects again."""
RECONNECT: Reconnect = {"type": "reconnect", "message": "this server is restarting; connecting again"}


class Drain:
    """One process's draining state: whether it drains, and the client messages being answered."""

    def __init__(self) -> None:
        self.draining = False
        self.answering = 0
        """Client messages being answered now (a move committing, a hint thinking)."""
        self._idle = asyncio.Event()
        self._idle.set()

    def start(self) -> None:
        """One message is being answered (call :meth:`end` after)."""
        self.answering += 1
        self._idle.clear()

    def end(self) -> None:
        self.answering -= 1
        if not self.answering:
            self._idle.set()

    async def run(self, service: Any, wait: float = 10.0) -> int:
        """Drain (see the module): the number of connections told to reconnect.  ``wait``: the most seconds
        the messages being answered may take."""
        self.draining = True
        started = time.monotonic()
        try:
            await asyncio.wait_for(self._idle.wait(), wait)
        except TimeoutError:
            log.warning("draining: %d messages were still being answered after %gs", self.answering, wait)
        text, told = dumps(RECONNECT), 0
        for table in list(service.tables.values()):
            for conn in list(table.connections):
                tell(conn, text)
                told += 1
        log.info("draining: %d connections told to reconnect (%.2fs)", told, time.monotonic() - started)
        return told


def tell(conn: Any, text: str = dumps(RECONNECT)) -> None:
    """Send one connection ``reconnect`` after what is queued for it, then close it with 1012."""
    conn.send(text)
    if (close := getattr(conn, "send_close", None)) is not None:
        close(RESTART_CODE)
