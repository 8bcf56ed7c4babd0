"""A bounded pool for the server's CPU-heavy work: search players' thinking, PDFs, score sheets.

The event loop only plays moves and talks to sockets; anything that may take longer runs here,
on at most ``workers`` threads.  Every job names a key (a table id, a client address): a key has
at most one job running or waiting for a thread, and waiting keys take the threads in turn, so six
tables of slow search players delay one another but never another table's players, a page or a ping
by more than one job each.

>>> import asyncio
>>> async def main() -> int:
...     pool = CpuPool(2)
...     try:
...         return await pool.run("table-1", sum, [1, 2, 3])
...     finally:
...         pool.close()
>>> asyncio.run(main())
6
"""

from __future__ import annotations

import asyncio
import functools
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

_T = TypeVar("_T")

charge_to: ContextVar[Callable[[float], None] | None] = ContextVar("charge_to", default=None)
"""Who pays for the jobs a task runs in the pool: when set, called with each job's CPU seconds (the worker
thread's own time, not its wait), so a client's share of the server can be counted (:class:`~.limits.Guards`)."""


@dataclass
class _Queue:
    """One event loop's view of the pool: free threads, and each key's place in line."""

    slots: asyncio.Semaphore
    keys: dict[str, asyncio.Lock] = field(default_factory=dict)
    users: dict[str, int] = field(default_factory=dict)


class CpuPool:
    """At most ``workers`` jobs at once, one per key, keys served first come first served."""

    def __init__(self, workers: int = 2) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.workers = workers
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="canasta-cpu")
        self._queues: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Queue] = weakref.WeakKeyDictionary()
        self.closed = False

    async def run(self, key: str, function: Callable[..., _T], *args: Any) -> _T:
        """``function(*args)`` on a worker thread, after the key's earlier job and a free thread."""
        if self.closed:
            raise RuntimeError("the server is stopping")
        loop = asyncio.get_running_loop()
        queue = self._queues.get(loop)
        if queue is None:  # one server, one loop; tests may run several
            queue = self._queues[loop] = _Queue(asyncio.Semaphore(self.workers))
        lock = queue.keys.setdefault(key, asyncio.Lock())
        queue.users[key] = queue.users.get(key, 0) + 1
        try:
            async with lock, queue.slots:
                if (payer := charge_to.get()) is None:
                    return await loop.run_in_executor(self._executor, functools.partial(function, *args))
                result, seconds = await loop.run_in_executor(self._executor, _timed, function, args)
                payer(seconds)
                return result
        finally:
            queue.users[key] -= 1
            if not queue.users[key]:
                del queue.users[key]
                queue.keys.pop(key, None)

    @property
    def waiting(self) -> int:
        """Jobs running or waiting, over every key."""
        return sum(sum(queue.users.values()) for queue in list(self._queues.values()))

    def close(self) -> None:
        """Drop the jobs not started; the running ones finish on their own (a bounded time)."""
        self.closed = True
        self._executor.shutdown(wait=False, cancel_futures=True)


def _timed(function: Callable[..., _T], args: tuple[Any, ...]) -> tuple[_T, float]:
    """``function(*args)`` and the CPU seconds this thread spent on it."""
    start = time.thread_time()
    result = function(*args)
    return result, time.thread_time() - start


_current: CpuPool | None = None


def current() -> CpuPool:
    """The pool of the running server (one with two workers when none was installed)."""
    global _current
    if _current is None or _current.closed:
        _current = CpuPool()
    return _current


def install(pool: CpuPool) -> None:
    """Make ``pool`` the one :func:`run_cpu` uses."""
    global _current
    _current = pool


async def run_cpu(key: str, function: Callable[..., _T], *args: Any) -> _T:
    """Run ``function(*args)`` in the server's pool, queued behind ``key``'s earlier job."""
    return await current().run(key, function, *args)
