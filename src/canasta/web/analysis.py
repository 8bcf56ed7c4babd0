"""The server's hand reviews (:func:`canasta.bots.review.review_hand`), run in a separate process.

A review is pure-Python CPU work for 10 to 30 seconds.  In a thread of the server's pool
(:mod:`.pool`) it would hold the GIL and slow every table's event loop, so it runs in a small
process pool of its own (:class:`ReviewRunner`, ``workers`` processes, one by default, started when
the first review is asked and kept warm, at a lower priority than the server: :data:`WORKER_NICE`).
Each worker reports its progress (decisions done, of how many) through a queue that a thread of the
server reads and hands to the event loop.  A job is one seat's decisions in one finished hand; the
jobs wait their turn for a worker.

The worker adds what the page shows at a decision that lost points: the move played and the better
move in words (:func:`canasta.bots.hints.move_words`) and the reason for the better move, in the hint's
sentence (:func:`canasta.bots.hints.hint_sentence`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
import os
import random
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Final

from ..bots.review import ReviewSettings

ROLLOUTS_ENV: Final = "CANASTA_REVIEW_ROLLOUTS"
"""When this environment variable holds a whole number N of 2 or more (or ``N:K``), the server's reviews take N
sampled deals a decision (and weigh K moves) instead of the default budget: tests, a small server."""

Progress = Callable[[int, int], None]
PROGRESS_WAITS: Final = 100
"""Hundredths of a second a finished review waits for its last progress report before it says it itself."""

_queue: Any = None
"""In a worker process: the queue its progress goes to (set by :func:`_start_worker`)."""


def review_settings() -> ReviewSettings:
    """The budget of the server's reviews: :class:`ReviewSettings`' defaults (a classic hand for one seat in
    under 30 s compiled), or ``$CANASTA_REVIEW_ROLLOUTS`` deals a decision."""
    rollouts, _, candidates = os.environ.get(ROLLOUTS_ENV, "").strip().partition(":")
    if rollouts.isdigit() and int(rollouts) >= 2:
        if candidates.isdigit() and 2 <= int(candidates) <= 12:
            return ReviewSettings(rollouts=int(rollouts), candidates=int(candidates))
        return ReviewSettings(rollouts=int(rollouts))
    return ReviewSettings()


WORKER_NICE: Final = 5
"""How much lower a review process's priority is than the server's: the tables' moves come first."""


def _start_worker(queue: Any) -> None:
    """A worker process starts: its progress queue, and a lower priority."""
    global _queue
    _queue = queue
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICE)


def analyse(job: int, record: dict[str, Any], hand: int, seat: int, settings: dict[str, Any]) -> dict[str, Any]:
    """Review ``seat``'s decisions in hand ``hand`` (from 0) of the match of ``record`` (a worker's job): the
    review's JSON, each decision with ``played_words``, ``best_words`` and, when it lost points, ``reason``."""
    from ..bots.expert import ExpertBot
    from ..bots.hints import explain, hint_sentence, move_words
    from ..bots.review import decision_tasks, review_hand
    from ..match import Match
    from ..moves import Move

    match = Match.from_record(record)
    budget = ReviewSettings(**settings)

    def progress(done: int, total: int) -> None:
        if _queue is not None:
            _queue.put((job, done, total))

    tasks, _ = decision_tasks(match, [seat], [hand], budget)
    if _queue is not None:
        _queue.put((job, 0, len(tasks)))
    review = review_hand(match, hand, [seat], budget, progress=progress)
    views = {(t.hand, t.index): t for t in tasks}
    data = review.to_json()
    for entry, decision in zip(data["decisions"], review.decisions, strict=True):
        played, best = Move.parse(decision.played), Move.parse(decision.best)
        entry["played_words"], entry["best_words"] = move_words(played), move_words(best)
        task = views.get((decision.hand, decision.index))
        if task is None or decision.best == decision.played:
            continue
        ranked = ExpertBot(random.Random(0)).ranked(task.view, task.moves)
        notes = {m: note for m, _, note in ranked}
        chosen = next((m for m in task.moves if m == best), best)
        reason = explain(task.view, task.moves, chosen, notes.get(chosen, ("?",)), best=chosen == ranked[0][0])
        entry["reason"] = hint_sentence(chosen, reason)
    return data


@dataclass
class Job:
    """A review under way: decisions done of ``total`` (None until the worker counted them), and its answer."""

    number: int
    done: int = 0
    total: int | None = None
    listeners: list[Progress] = field(default_factory=list)


class ReviewRunner:
    """At most ``workers`` reviews at once, each in a worker process; the rest wait their turn."""

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError("reviews need at least one worker process")
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._queue: Any = None
        self._reader: threading.Thread | None = None
        self._jobs: dict[int, Job] = {}
        self._numbers = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closed = False

    @property
    def running(self) -> int:
        """Reviews under way or waiting for a worker."""
        return len(self._jobs)

    def _start(self) -> ProcessPoolExecutor:
        """The worker processes, started at the first review (and again after one died), with the progress
        queue and the thread that reads it (started once)."""
        context = multiprocessing.get_context("spawn")  # never fork a process with threads
        if self._queue is None:
            self._queue = context.Queue()
            self._loop = asyncio.get_running_loop()
            self._reader = threading.Thread(target=self._read, name="canasta-review-progress", daemon=True)
            self._reader.start()
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker,
                                                 initargs=(self._queue,))
        return self._executor

    def _read(self) -> None:
        """The progress thread: each (job, done, total) from the workers, handed to the event loop."""
        while True:
            try:
                item = self._queue.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            loop = self._loop
            if loop is None or loop.is_closed():
                return
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._progress, *item)

    def _progress(self, number: int, done: int, total: int) -> None:
        job = self._jobs.get(number)
        if job is None:
            return
        job.done, job.total = done, total
        for listener in list(job.listeners):
            listener(done, total)

    async def run(self, record: dict[str, Any], hand: int, seat: int, settings: ReviewSettings,
                  progress: Progress | None = None) -> dict[str, Any]:
        """Review ``seat`` in hand ``hand`` (from 0) of the record's match in a worker; ``progress`` is told
        (done, total) as decisions are judged."""
        if self.closed:
            raise RuntimeError("the server is stopping")
        executor = self._start()
        number = next(self._numbers)
        job = Job(number)
        if progress is not None:
            job.listeners.append(progress)
        self._jobs[number] = job
        try:
            data = await asyncio.wrap_future(executor.submit(analyse, number, record, hand, seat, settings.to_json()))
            total = len(data["decisions"])
            for _ in range(PROGRESS_WAITS):  # the answer may come before the worker's last progress: let it in
                if (job.done, job.total) == (total, total):
                    break
                await asyncio.sleep(0.01)
            else:
                self._progress(number, total, total)
            return data
        except BrokenProcessPool:  # a worker died (killed, out of memory): the next review starts new ones
            if self._executor is executor:
                self._executor = None
            raise
        finally:
            self._jobs.pop(number, None)

    def close(self) -> None:
        """Stop the workers: the jobs waiting are dropped, the running ones end with their process."""
        self.closed = True
        if self._queue is not None:
            with contextlib.suppress(Exception):
                self._queue.put(None)  # the progress thread ends
        if self._executor is not None:
            processes = list(getattr(self._executor, "_processes", {}).values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:  # a review under way is not waited for
                with contextlib.suppress(Exception):
                    process.terminate()


__all__ = ["ROLLOUTS_ENV", "ReviewRunner", "analyse", "review_settings"]
