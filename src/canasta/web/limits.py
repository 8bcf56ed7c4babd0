"""What one client may ask of the server: sizes, rates, rule options and search budgets (docs/security.md).

Every limit has a default in :class:`Limits`; ``canasta serve`` sets some of them from its flags.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import Request

from ..rules import PRESETS

KIB = 1024


@dataclass(frozen=True)
class Limits:
    """The server's limits; the defaults are what ``canasta serve`` uses."""

    table_body: int = 16 * KIB
    """Bytes of a ``POST /api/tables`` body."""
    score_body: int = 256 * KIB
    """Bytes of a ``POST /api/score`` or ``/api/score/entry`` body (the largest body any route reads)."""
    score_hands: int = 200
    """Hands one score sheet may hold (a real game to 10,000 has a few dozen)."""
    max_search: float = 2.0
    """Seconds a ``search`` computer player may think per decision (``search:Ns`` above it is refused)."""
    max_rollouts: int = 2000
    """Rollouts a ``search:N`` computer player may take per decision."""
    cpu_workers: int = 2
    """Threads of the pool that runs search players, PDFs and score sheets (one job per table or client)."""
    tables_per_minute: float = 20.0
    """Tables one client (address) may create a minute, after a burst of :attr:`tables_burst`."""
    tables_burst: int = 10
    requests_per_second: float = 50.0
    """HTTP requests one client (address) may make a second, after a burst of :attr:`requests_burst`
    (a page and its files are about twenty); more are refused with 429 before any route runs."""
    requests_burst: int = 200
    messages_per_second: float = 20.0
    """Messages of any kind one connection may send a second, after a burst of :attr:`messages_burst`;
    a connection that sends faster is told ``rate_limited`` and closed: a person never does, and a
    flood costs the server one refusal instead of an answer per message."""
    messages_burst: int = 60
    hints_per_second: float = 2.0
    """Hints one connection may ask a second, after a burst of :attr:`hints_burst`."""
    hints_burst: int = 10
    resolves_per_second: float = 5.0
    """``resolve`` requests (the moves a selection of cards can mean) one connection may make a second,
    after a burst of :attr:`resolves_burst`."""
    resolves_burst: int = 20
    work_per_second: float = 10.0
    """Hints and ``resolve`` requests one address may make a second, over all its connections and tables,
    after a burst of :attr:`work_burst`."""
    work_burst: int = 40
    work_seconds_per_second: float = 0.25
    """CPU seconds of hints and ``resolve`` one address may use a second (a quarter of one core), after saving
    up :attr:`work_seconds_burst`: a hint is about 0.2 s, a selection a few ms (0.1 s with many wild cards)."""
    work_seconds_burst: float = 3.0
    work_per_seat: int = 1
    """Hints and ``resolve`` requests of one seat (over all its connections) under way at once."""
    work_per_address: int = 2
    """Hints and ``resolve`` requests of one address under way at once; its work takes one CPU thread at a time."""
    chats_per_second: float = 1.0
    """Chat lines one seat may write a second (over all its connections), after a burst of :attr:`chats_burst`."""
    chats_burst: int = 5
    chats_per_address_per_second: float = 2.0
    """Chat lines one address may write a second (over all its seats and tables), after a burst."""
    chats_per_address_burst: int = 10
    pdfs_per_second: float = 1.0
    """PDFs one client may ask a second, after a burst of :attr:`pdfs_burst`."""
    pdfs_burst: int = 8
    scores_per_second: float = 10.0
    """Score requests (``/api/score``, ``/api/score/entry``) one client may make a second, after a burst."""
    scores_burst: int = 40
    pending_sockets: int = 1000
    """Websockets that have not said ``hello`` yet; more are refused with ``busy``."""
    pending_per_client: int = 20
    """Websockets of one address that have not said ``hello`` yet; more are refused with ``busy``.  When
    :attr:`pending_sockets` are waiting, a new one takes the place of the oldest of the address that has the
    most waiting (when that is more than the newcomer's own address has): many addresses with a few idle
    sockets each never keep out a player."""
    trusted: tuple[str, ...] = ()
    """Addresses no rate or per-address limit applies to (a load tester; a proxy that limits itself)."""
    hello_timeout: float = 10.0
    """Seconds a websocket has to say a successful ``hello`` before it is closed."""
    expire_idle: float = 30 * 86400.0
    """Seconds after its last move that an unfinished table leaves storage (0: never)."""
    expire_over: float = 7.5 * 86400.0
    """Seconds after its last move that a finished table leaves storage (0: never)."""
    expire_every: float = 3600.0
    """Seconds between two sweeps of storage for expired tables."""
    review_workers: int = 1
    """Processes that review hands (:mod:`.analysis`); the reviews asked meanwhile wait their turn."""
    reviews_waiting: int = 8
    """Reviews running or waiting at once over the whole server; more are refused with 503 ``busy``."""
    reviews_per_hour: float = 30.0
    """Reviews one address may start an hour, and one table, after a burst of :attr:`reviews_burst` (a stored
    review is given again without counting)."""
    reviews_burst: int = 15


# -- rule options of tables made through the web -------------------------------------------

HAND_CAPS: dict[str, int] = {
    "classic": 15, "two-player": 21, "two-player-draw-one": 21, "three-player": 17,
    "five-player": 13, "six-player": 15, "six-player-two-teams": 15,
}
"""Largest ``hand_size`` per preset: measured by ``benchmarks/legal_worst.py`` to keep every
``legal_moves`` under 50 ms (the generator's time grows steeply with the hand dealt: two-player
with 40 cards takes half a second, with 45 ten seconds)."""
MAX_DECKS: dict[str, int] = {name: max(3, rules.decks) for name, rules in PRESETS.items()}
"""Most decks per preset: one more than two-deck presets use; six-player games keep their three.
:func:`canasta.web.requests.check_web_rules` refuses more, and ``HAND_CAPS``' larger hands."""


# -- bodies ------------------------------------------------------------------------------


class BodyTooLarge(Exception):
    """A request body over its limit (answered 413 ``too_large``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"a request may hold at most {limit} bytes")
        self.limit = limit


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, read in chunks; :class:`BodyTooLarge` as soon as it passes ``limit`` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(limit)
        chunks.append(chunk)
    return b"".join(chunks)


# -- rates -------------------------------------------------------------------------------


class RateLimiter:
    """Token buckets by key (a client address, a connection): ``rate`` a second, ``burst`` at once.

    :meth:`take` spends one token on a request; :meth:`wait` and :meth:`spend` meter work whose cost is known
    only when it ends (CPU seconds): it may start while the key has any token left, and what it used is
    spent afterwards (a debt is repaid before the next)."""

    def __init__(self, rate: float, burst: float, keys: int = 10000) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.keys = keys
        self._buckets: dict[Any, tuple[float, float]] = {}

    def _tokens(self, key: Any, now: float) -> float:
        tokens, last = self._buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - last) * self.rate)

    def _until(self, tokens: float, needed: float) -> float:
        return (needed - tokens) / self.rate if self.rate > 0 else math.inf

    def take(self, key: Any, now: float | None = None) -> float:
        """0 when ``key`` may go on (a token is taken), else the seconds until it may."""
        now = time.monotonic() if now is None else now
        tokens = self._tokens(key, now)
        if tokens >= 1:
            self._set(key, tokens - 1, now)
            return 0.0
        self._set(key, tokens, now)
        return self._until(tokens, 1)

    def wait(self, key: Any, now: float | None = None) -> float:
        """0 while ``key`` has any token left (work may start), else the seconds until it has."""
        now = time.monotonic() if now is None else now
        tokens = self._tokens(key, now)
        return 0.0 if tokens > 0 else self._until(tokens, 0.001)

    def spend(self, key: Any, amount: float, now: float | None = None) -> None:
        """Take ``amount`` tokens from ``key`` (it may go into debt)."""
        now = time.monotonic() if now is None else now
        self._set(key, self._tokens(key, now) - amount, now)

    def _set(self, key: Any, tokens: float, now: float) -> None:
        self._buckets[key] = (tokens, now)
        if len(self._buckets) > self.keys:
            self._prune(now)

    def _prune(self, now: float) -> None:
        """Forget the buckets that are full again (they hold no debt)."""
        full = [k for k, (tokens, last) in self._buckets.items() if tokens + (now - last) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]
        while len(self._buckets) > self.keys:  # all in debt: forget the oldest (forgiving, never growing)
            del self._buckets[next(iter(self._buckets))]


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` header value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


def client_key(request: Request) -> str:
    """Whom a request is counted against: its peer address."""
    return request.client.host if request.client is not None else "unknown"


class Quota:
    """Work under way per key (a seat, an address): at most ``most`` at once for each key."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.under_way: dict[Any, int] = {}

    def enter(self, key: Any) -> bool:
        """True (and counted) when ``key`` may start one more; False when it has ``most`` under way."""
        held = self.under_way.get(key, 0)
        if held >= self.most:
            return False
        self.under_way[key] = held + 1
        return True

    def leave(self, key: Any) -> None:
        """One of ``key``'s jobs ended."""
        left = self.under_way.get(key, 0) - 1
        if left > 0:
            self.under_way[key] = left
        else:
            self.under_way.pop(key, None)


class Guards:
    """The limits that one seat or one address meets over all its connections: chat lines, and the CPU work
    of hints and ``resolve`` (a person with two tabs, or a script with twenty connections, counts once)."""

    def __init__(self, limits: Limits) -> None:
        self.chats = RateLimiter(limits.chats_per_second, limits.chats_burst)
        """Chat lines per seat, keyed ``(table id, seat)``."""
        self.chats_by_address = RateLimiter(limits.chats_per_address_per_second, limits.chats_per_address_burst)
        self.work = RateLimiter(limits.work_per_second, limits.work_burst)
        """Hints and ``resolve`` requests per address."""
        self.seat_work = Quota(limits.work_per_seat)
        self.address_work = Quota(limits.work_per_address)
        self.cpu = RateLimiter(limits.work_seconds_per_second, limits.work_seconds_burst)
        """CPU seconds of hints and ``resolve`` per address (spent through :data:`~.pool.charge_to`)."""

    def chat(self, table_id: str, seat: int | None, address: str) -> float:
        """0 when the seat and its address may write a line now, else the seconds to wait."""
        return max(self.chats.take((table_id, seat)), self.chats_by_address.take(address))

    def start_work(self, table_id: str, seat: int | None, address: str) -> str | None:
        """Why a hint or ``resolve`` may not start now (None: it may; call :meth:`end_work` after it)."""
        if (wait := self.cpu.wait(address)):
            return f"your address has used its share of the server's time; ask again in {retry_after(wait)}s"
        if (wait := self.work.take(address)):
            return f"too many hints and selections from your address; ask again in {retry_after(wait)}s"
        if not self.seat_work.enter((table_id, seat)):
            return "your last hint or selection is still being worked out; wait for its answer"
        if not self.address_work.enter(address):
            self.seat_work.leave((table_id, seat))
            return "your address has hints or selections being worked out; wait for their answers"
        return None

    def end_work(self, table_id: str, seat: int | None, address: str) -> None:
        """A hint or ``resolve`` started with :meth:`start_work` ended."""
        self.seat_work.leave((table_id, seat))
        self.address_work.leave(address)


class Waiting:
    """Websockets that have not said ``hello`` yet (:attr:`Limits.pending_per_client`,
    :attr:`Limits.pending_sockets`): each holds a place until it says hello or closes."""

    def __init__(self, limits: Limits) -> None:
        self.per_address = limits.pending_per_client
        self.total = limits.pending_sockets
        self.trusted = limits.trusted
        self.places: dict[str, dict[int, Callable[[], None]]] = {}
        """Per address, its waiting sockets (oldest first) and how to close each."""
        self.count = 0
        self._next = 0

    def enter(self, address: str, evict: Callable[[], None]) -> int | None:
        """A place for a new socket of ``address`` (its ticket), or None when it is refused.

        ``evict`` closes this socket if a newcomer later takes its place."""
        mine = self.places.get(address, {})
        if address not in self.trusted and len(mine) >= self.per_address:
            return None
        if self.count >= self.total:
            fullest = max(self.places, key=lambda a: len(self.places[a]))
            if len(self.places[fullest]) <= len(mine):
                return None
            oldest = next(iter(self.places[fullest]))
            self.places[fullest][oldest]()
            self.leave(fullest, oldest)
        self._next += 1
        self.places.setdefault(address, {})[self._next] = evict
        self.count += 1
        return self._next

    def leave(self, address: str, ticket: int) -> None:
        """The socket said hello, was closed or evicted (again is harmless)."""
        mine = self.places.get(address)
        if mine is None or mine.pop(ticket, None) is None:
            return
        self.count -= 1
        if not mine:
            del self.places[address]
