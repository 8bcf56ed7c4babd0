"""The review of a finished hand in the browser, and a table's game record to download (docs/protocol.md).

Every route takes the seat's secret token in the ``X-Canasta-Token`` header (never in the address,
which logs keep), the table's id and a hand number from 1:

- ``GET /api/tables/{id}/record``: the game record of the hands that are over, written for the seat
  (:func:`.replay.seat_record`), to save and read with ``canasta review FILE``;
- ``GET /api/tables/{id}/hands/{n}/replay``: the hand, once over, as the seat saw it (a spectator: every
  hand face up), :func:`.replay.replay_hand`;
- ``POST /api/tables/{id}/hands/{n}/review``: the review of the seat's decisions in that hand, computed once
  (in :mod:`.analysis`'s worker process) and kept with the table: ``200`` with ``{"status": "done",
  "review"}`` when stored, else ``202`` with ``{"status": "running", "done", "total"}`` (the work starts, or
  goes on); ``GET`` the same address asks how it goes without starting anything.

A review is expensive: one address and one table have one under way at a time and start at most
:attr:`~.limits.Limits.reviews_per_hour` (after a burst), and the server runs at most
:attr:`~.limits.Limits.reviews_waiting`; a stored review is given again without counting.  Every refusal
is ``{"error", "message"}`` with one sentence, and changes nothing: ``review_busy`` (429) says to ask again
once the review under way is done, ``rate_limited`` (429) that the address or table has used its reviews.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..bots.review import ReviewSettings
from .analysis import ReviewRunner, review_settings
from .limits import Limits, Quota, RateLimiter, client_key, retry_after
from .replay import ReplayRefused, check_hand, replay_hand, seat_record
from .security import escape, token_hash
from .served import ServedTable
from .service import TableService

log = logging.getLogger("canasta.web")
router = APIRouter()
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
TOKEN_HEADER = "X-Canasta-Token"
REPLAYS_KEPT = 64
"""Replays kept made (a finished hand never changes), the oldest forgotten first."""
FAILED_KEPT = 200
"""Failed reviews remembered (their sentence is told to whoever asks again)."""

Key = tuple[str, int, int, int]
"""A review: table id, the table's match number, the hand (from 0), the seat."""


@dataclass
class Running:
    """A review under way: decisions judged of ``total`` (None until counted)."""

    address: str
    done: int = 0
    total: int | None = None


class ReviewDesk:
    """The server's reviews: the worker processes, the reviews under way, and the limits they meet."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.runner = ReviewRunner(limits.review_workers)
        self.settings: ReviewSettings = review_settings()
        """The budget of each review (tests set a small one)."""
        self.running: dict[Key, Running] = {}
        self.failed: dict[Key, str] = {}
        self.replays: dict[Key, str] = {}
        """Replays as JSON text, by table, match, hand and seat (-1: the spectator)."""
        rate = limits.reviews_per_hour / 3600
        self.by_address = RateLimiter(rate, limits.reviews_burst)
        self.by_table = RateLimiter(rate, limits.reviews_burst)
        self.address_quota = Quota(1)
        self.table_quota = Quota(1)
        self.tasks: set[asyncio.Task[None]] = set()
        self.computed = 0
        """Reviews computed since the server started (stored ones given again are not counted)."""

    def refusal(self, table_id: str, address: str) -> tuple[int, str, str] | None:
        """Why a new review may not start now (status, name, sentence); None: it may (and is counted)."""
        if len(self.running) >= self.limits.reviews_waiting:
            return 503, "busy", "the server is reviewing many hands now; try again in a minute"
        trusted = address in self.limits.trusted
        if not trusted and any(r.address == address for r in self.running.values()):
            return 429, "review_busy", "a review you asked for is still being worked out; wait for it"
        if any(key[0] == table_id for key in self.running):
            return 429, "review_busy", "a review of this table is still being worked out; wait for it"
        if not trusted and (wait := self.by_address.take(address)):
            return 429, "rate_limited", f"too many reviews from your address; try again in {retry_after(wait)}s"
        if (wait := self.by_table.take(table_id)):
            return 429, "rate_limited", f"too many reviews at this table; try again in {retry_after(wait)}s"
        return None

    async def work(self, svc: TableService, key: Key, record: dict[str, Any]) -> None:
        """Compute one review in a worker process and store it with the table."""
        running = self.running[key]

        def progress(done: int, total: int) -> None:
            running.done, running.total = done, total

        try:
            data = await self.runner.run(record, key[2], key[3], self.settings, progress)
            await svc.storage.save_review(*key, json.dumps(data, separators=(",", ":")))
            self.computed += 1
        except Exception as exc:  # the review, the worker or storage failed: say so once, log no card
            log.error("table %s: a review failed (%s)", escape(key[0][:40]), type(exc).__name__)
            self.failed[key] = "the review could not be worked out; try again later"
            while len(self.failed) > FAILED_KEPT:
                del self.failed[next(iter(self.failed))]
        finally:
            del self.running[key]

    def close(self) -> None:
        """Stop the worker processes and the reviews under way."""
        for task in list(self.tasks):
            task.cancel()
        self.runner.close()


def desk(request: Request) -> ReviewDesk:
    """The application's review desk (made at the first review route asked)."""
    state = request.app.state
    found: ReviewDesk | None = getattr(state, "reviews", None)
    if found is None:
        found = state.reviews = ReviewDesk(getattr(state, "limits", None) or Limits())
    return found


def close_reviews(app: Any) -> None:
    """Stop the application's review workers, if any started (at shutdown)."""
    found: ReviewDesk | None = getattr(app.state, "reviews", None)
    if found is not None:
        found.close()


def _error(status: int, name: str, message: str) -> JSONResponse:
    return JSONResponse({"error": name, "message": message}, status_code=status)


async def _seat(request: Request, table_id: str) -> tuple[ServedTable, int | None]:
    """The table and the seat (None: the spectator) the request's token opens there."""
    svc: TableService = request.app.state.service
    table = await svc.get(table_id) if _TABLE_ID.fullmatch(table_id) else None
    if table is None:
        raise ReplayRefused(404, "no_table", "there is no table here; ask for a new link")
    token = request.headers.get(TOKEN_HEADER, "")
    if not token or len(token) > 100:
        raise ReplayRefused(403, "bad_token", f"say which seat you are: its token in the {TOKEN_HEADER} header")
    found, seat = await svc.storage.token_seat(table.id, token_hash(token))
    if not found:
        raise ReplayRefused(403, "bad_token", "this link does not open a seat at this table")
    return table, seat


@router.get("/api/tables/{table_id}/record")
async def table_record(request: Request, table_id: str) -> Response:
    """The game record of the hands that are over, written for the seat, as a file to save."""
    try:
        table, seat = await _seat(request, table_id)
        seats = [{"kind": s.kind, "name": s.name} for s in table.seats]
        record = seat_record(table.match, seat, seats)
    except ReplayRefused as exc:
        return _error(exc.status, exc.name, str(exc))
    name = f"canasta-{table.id}-match{table.matches}" + ("" if seat is None else f"-seat{seat + 1}") + ".json"
    return Response(json.dumps(record, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/api/tables/{table_id}/hands/{hand}/replay")
async def hand_replay(request: Request, table_id: str, hand: str) -> Response:
    """A finished hand as the seat saw it (a spectator: every hand face up)."""
    try:
        table, seat = await _seat(request, table_id)
        number = check_hand(table.match, _number(hand))
    except ReplayRefused as exc:
        return _error(exc.status, exc.name, str(exc))
    reviews = desk(request)
    key: Key = (table.id, table.matches, number, -1 if seat is None else seat)
    text = reviews.replays.get(key)
    if text is None:  # a few tens of milliseconds of the event loop: made once, kept for the next asks
        data = replay_hand(table.match, number, seat)
        data["match"] = table.matches
        text = reviews.replays[key] = json.dumps(data, separators=(",", ":"))
        while len(reviews.replays) > REPLAYS_KEPT:
            del reviews.replays[next(iter(reviews.replays))]
    return Response(text, media_type="application/json")


def _number(text: str) -> int:
    """A hand number from the address (from 1)."""
    if not text.isdigit() or len(text) > 4:
        raise ReplayRefused(404, "no_hand", f"{text[:20]!r} is not a hand number (hands count from 1)")
    return int(text)


async def _review(request: Request, table_id: str, text: str, start: bool) -> Response:
    try:
        table, seat = await _seat(request, table_id)
        if seat is None:
            raise ReplayRefused(403, "bad_token", "a spectator replays the hand; a review judges a seat's "
                                "decisions and is its player's to ask for")
        hand = _number(text)
        number = check_hand(table.match, hand)
    except ReplayRefused as exc:
        return _error(exc.status, exc.name, str(exc))
    svc: TableService = request.app.state.service
    reviews = desk(request)
    key: Key = (table.id, table.matches, number, seat)
    stored = await svc.storage.review(*key)
    if stored is not None:
        return JSONResponse({"status": "done", "hand": hand, "review": json.loads(stored)})
    running = reviews.running.get(key)
    if running is None and not start:
        if key in reviews.failed:
            return JSONResponse({"status": "failed", "hand": hand, "message": reviews.failed[key]})
        return JSONResponse({"status": "none", "hand": hand})
    if running is None:
        address = client_key(request)
        if (refused := reviews.refusal(table.id, address)) is not None:
            return _error(*refused)
        reviews.failed.pop(key, None)
        running = reviews.running[key] = Running(address)
        job = asyncio.get_running_loop().create_task(reviews.work(svc, key, table.match.to_record()))
        reviews.tasks.add(job)
        job.add_done_callback(reviews.tasks.discard)
    return JSONResponse({"status": "running", "hand": hand, "done": running.done, "total": running.total},
                        status_code=202)


@router.post("/api/tables/{table_id}/hands/{hand}/review")
async def start_review(request: Request, table_id: str, hand: str) -> Response:
    """The seat's review of a finished hand: stored, or started (or under way) with its progress."""
    return await _review(request, table_id, hand, start=True)


@router.get("/api/tables/{table_id}/hands/{hand}/review")
async def review_status(request: Request, table_id: str, hand: str) -> Response:
    """How the seat's review of a hand goes: done (with it), running, failed or none; starts nothing."""
    return await _review(request, table_id, hand, start=False)


__all__ = ["TOKEN_HEADER", "ReviewDesk", "close_reviews", "desk", "router"]
