"""The room's lobby, quick match and history over HTTP (docs/room.md), and what the room does as tables end.

- ``GET /room``: the lobby page; ``GET /api/lobby``: the public tables (:func:`.lobby.open_tables`);
  ``POST /api/lobby/{table}/seats/{seat}`` ``{}``: take an open seat, answered with its link;
- ``POST /api/quick`` ``{game, rated}``: join the quick match, answered with a secret ticket;
  ``POST /api/quick/poll`` ``{ticket}``: waiting (seconds left) or seated (the link, once);
  ``POST /api/quick/leave`` ``{ticket}``;
- ``GET /api/history``: the signed-in player's finished matches (else this browser's) with totals;
  ``GET /match/{id}`` (page), ``GET /api/matches/{id}``, ``GET /api/matches/{id}/hands/{n}``: a finished match
  by its shareable link, and each hand's replay.

:func:`start` hooks the room into a running server: every match's end is recorded (:mod:`.history`), every
public or rated table is noted (:mod:`.lobby`), and the quick match's tables are made every second.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from ...errors import CanastaError
from ...rules import PRESETS
from ..limits import BodyTooLarge, read_body
from ..messages import TableCreated
from ..paths import STATIC
from ..requests import TARGETS, TableRequest
from ..served import ServedTable
from ..service import TableService
from ..storage import AsyncStorage, StorageError
from . import history, lobby, quickmatch, seating, sessions
from .accounts import remember_table
from .browser import SCOPE_KEY, browser_hash_of
from .routes import signed_in

log = logging.getLogger("canasta.web")
router = APIRouter()
GUEST = "Guest"
QUICK_WAIT, QUICK_TARGET = "CANASTA_QUICK_WAIT", "CANASTA_QUICK_TARGET"
QUICK_EVERY = 1.0
"""Seconds between two looks at the quick match's queue (each server process)."""
_people: contextvars.ContextVar[dict[int, tuple[str | None, str | None, str]] | None] = contextvars.ContextVar(
    "quick_people", default=None)
"""The people of the quick match's table being made (the lobby then lists no open seat at it)."""


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _storage(request: Request) -> AsyncStorage:
    storage: AsyncStorage = request.app.state.service.storage
    return storage


def _settings(app: Any) -> quickmatch.QuickSettings:
    settings: quickmatch.QuickSettings = getattr(app.state, "quick", None) or quickmatch.QuickSettings()
    return settings


def settings_from_env(environ: Mapping[str, str]) -> quickmatch.QuickSettings:
    """The quick match's settings from ``CANASTA_QUICK_WAIT`` (seconds, default 20) and ``CANASTA_QUICK_TARGET``
    (its tables' target, default the game's own; the browser tests use a low one); a bad value is ignored.

    >>> settings_from_env({"CANASTA_QUICK_WAIT": "2.5", "CANASTA_QUICK_TARGET": "1000"})
    QuickSettings(wait=2.5, target=1000)
    """
    default = quickmatch.QuickSettings()
    wait, target = environ.get(QUICK_WAIT, "").strip(), environ.get(QUICK_TARGET, "").strip()
    try:
        seconds = float(wait) if wait else default.wait
    except ValueError:
        seconds = default.wait
    return quickmatch.QuickSettings(seconds if 0 <= seconds <= 600 else default.wait,
                                    int(target) if target.isdigit() and int(target) in TARGETS else None)


def _draining(request: Request) -> JSONResponse | None:
    """503 ``draining`` while this server process stops (:mod:`..shutdown`): no new seat or table is made here."""
    drain = getattr(request.app.state, "drain", None)
    if drain is None or not drain.draining:
        return None
    return JSONResponse({"error": "draining", "message": "this server is restarting; try again in a moment"},
                        status_code=503, headers={"Retry-After": "1"})


async def _body(request: Request) -> dict[str, Any] | JSONResponse:
    try:
        data = json.loads(await read_body(request, 1024) or b"{}")
    except BodyTooLarge as exc:
        return _error(413, "too_large", str(exc))
    except (ValueError, RecursionError):
        return _error(400, "bad_request", "the request is not JSON")
    if not isinstance(data, dict):
        return _error(400, "bad_request", "the request is a JSON object")
    return data


async def _who(request: Request) -> tuple[str | None, str, str]:
    """The account (None: a guest), the browser key's hash and the name to show."""
    signed = await signed_in(request)
    browser = str(request.scope.get(SCOPE_KEY) or "")
    account = signed[0] if signed is not None else None
    return (account.id if account else None, sessions.token_hash(browser),
            account.name if account else GUEST)


# -- the lobby ----------------------------------------------------------------------------


@router.get("/room", include_in_schema=False)
async def room_page() -> FileResponse:
    return FileResponse(STATIC / "room" / "room.html")


@router.get("/api/lobby")
async def lobby_tables(request: Request) -> Response:
    store = _storage(request)
    tables = await store.run(lobby.open_tables, store.storage)
    return JSONResponse({"tables": tables, "games": list(PRESETS), "wait": _settings(request.app).wait})


@router.post("/api/lobby/{table_id}/seats/{seat}")
async def take_seat(request: Request, table_id: str, seat: str) -> Response:
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    if not seat.isdigit() or len(seat) > 2 or not table_id.replace("-", "").replace("_", "").isalnum():
        return _error(404, "no_seat", "there is no such seat")
    if (refused := _draining(request)) is not None:
        return refused
    account_id, browser_hash, name = await _who(request)
    store = _storage(request)
    if not await store.run(lobby.claim_seat, store.storage, table_id, int(seat), account_id, browser_hash, name):
        return _error(409, "seat_taken", "this seat is not open any more; pick another")
    token = secrets.token_urlsafe(24)
    if not await store.renew_token(table_id, int(seat), sessions.token_hash(token)):
        return _error(404, "no_table", "this table is no longer stored")
    try:  # the players at the table here see the taker's name at once (other processes within seconds)
        await seating.refresh_one(request.app.state.service, table_id)
    except StorageError as exc:
        log.info("table %s: the seats' names were not read (%s)", table_id, type(exc).__name__)
    return JSONResponse({"table": table_id, "seat": int(seat), "link": f"/t/{table_id}#{token}"})


# -- the quick match ----------------------------------------------------------------------


@router.post("/api/quick")
async def quick_join(request: Request) -> Response:
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    game, rated = body.get("game", "classic"), body.get("rated", False)
    if not isinstance(game, str) or game not in PRESETS:
        return _error(400, "bad_game", f"pick a game: {', '.join(PRESETS)}")
    if not isinstance(rated, bool):
        return _error(400, "bad_request", "rated is true or false")
    if (refused := _draining(request)) is not None:
        return refused
    account_id, browser_hash, name = await _who(request)
    if rated and account_id is None:
        return _error(401, "not_signed_in", "sign in to play rated matches; casual ones are open to guests")
    ticket = secrets.token_urlsafe(24)
    store = _storage(request)
    await store.run(quickmatch.join, store.storage, sessions.token_hash(ticket), game, rated, account_id,
                    browser_hash, name)
    return JSONResponse({"ticket": ticket, "game": game, "rated": rated, "wait": _settings(request.app).wait},
                        status_code=201)


async def _ticket(request: Request) -> str | JSONResponse:
    body = await _body(request)
    if isinstance(body, JSONResponse):
        return body
    ticket = body.get("ticket")
    if not isinstance(ticket, str) or not 20 <= len(ticket) <= 100:
        return _error(400, "bad_request", "the request needs the ticket")
    return sessions.token_hash(ticket)


@router.post("/api/quick/poll")
async def quick_poll(request: Request) -> Response:
    ticket = await _ticket(request)
    if isinstance(ticket, JSONResponse):
        return ticket
    store = _storage(request)
    found = await store.run(quickmatch.poll, store.storage, ticket, _settings(request.app).wait)
    if found is None:
        return _error(404, "no_ticket", "this ticket is not in the queue; join again")
    return JSONResponse(found)


@router.post("/api/quick/leave")
async def quick_leave(request: Request) -> Response:
    ticket = await _ticket(request)
    if isinstance(ticket, JSONResponse):
        return ticket
    store = _storage(request)
    return JSONResponse({"left": await store.run(quickmatch.leave, store.storage, ticket)})


async def make_quick_tables(app: Any) -> int:
    """One look at the queue: make the tables it plans and tell their players; how many were made."""
    svc: TableService = app.state.service
    settings = _settings(app)
    drain = getattr(app.state, "drain", None)
    if drain is not None and drain.draining:  # no new table here: the other processes seat the queue
        return 0
    plans = await svc.storage.run(quickmatch.plan, svc.storage.storage, settings.wait)
    for plan in plans:
        people: dict[int, tuple[str | None, str | None, str]] = {
            seat: (w.account_id, w.browser_hash, w.name) for seat, w in enumerate(plan.people)}
        token = _people.set(people)
        try:
            answer = await svc.create(TableRequest.parse(quickmatch.table_request(plan, settings),
                                                         getattr(app.state, "limits", None)))
        except (CanastaError, StorageError) as exc:
            log.warning("a quick match's table was not made (%s)", type(exc).__name__)
            for w in plan.people:  # back to waiting
                await svc.storage.run(quickmatch.seat, svc.storage.storage, w.ticket_hash, None, None)
            continue
        finally:
            _people.reset(token)
        for seat, w in enumerate(plan.people):
            link = answer["seats"][seat]["link"]
            await svc.storage.run(quickmatch.seat, svc.storage.storage, w.ticket_hash, answer["table"], link)
    return len(plans)


# -- history ------------------------------------------------------------------------------


@router.get("/api/history")
async def my_history(request: Request) -> Response:
    account_id, browser_hash, _ = await _who(request)
    store = _storage(request)
    found = await store.run(history.history, store.storage, account_id, browser_hash)
    results = getattr(request.app.state, "tournament_results", None)  # set by the tournaments (above the room)
    if results is not None:
        await results(request.app.state.service, found["matches"])
    return JSONResponse(found)


@router.get("/match/{match_id}", include_in_schema=False)
async def match_page(match_id: str) -> FileResponse:
    return FileResponse(STATIC / "room" / "match.html")


@router.get("/api/matches/{match_id}")
async def match_summary(request: Request, match_id: str) -> Response:
    store = _storage(request)
    found = await store.run(history.match_summary, store.storage, match_id)
    if found is None:
        return _error(404, "no_match", "there is no finished match at this link")
    return JSONResponse(found)


@router.get("/api/matches/{match_id}/hands/{hand}")
async def match_hand(request: Request, match_id: str, hand: str) -> Response:
    if not hand.isdigit() or len(hand) > 4:
        return _error(404, "no_hand", "hands count from 1")
    store = _storage(request)
    found = await store.run(history.hand_replay, store.storage, match_id, int(hand))
    if found is None:
        return _error(404, "no_hand", "there is no such hand of a finished match here")
    return JSONResponse(found)


# -- hooks into the running server ----------------------------------------------------------


def start(app: FastAPI) -> list[tuple[float, Callable[[], Awaitable[object]], str]]:
    """Hook the room into the server's tables (call once the service exists); the jobs to run every few seconds."""
    svc: TableService = app.state.service
    store = svc.storage
    if getattr(app.state, "quick", None) is None:
        app.state.quick = settings_from_env(os.environ)

    def record(table: ServedTable) -> Awaitable[object]:
        left = frozenset(s for s in table.driver.stand_ins if table.seats[s].is_human)
        return _record(store, table.id, dict(table.spec), table.match.to_record(), table.matches, left)

    async def created(table_id: str, spec: dict[str, Any], answer: TableCreated) -> None:
        if spec.get("room"):
            await store.run(lobby.register_table, store.storage, table_id, spec, answer["spectator"]["link"],
                            _people.get())
        try:  # its people's names and ratings, the levels' ratings
            await seating.refresh_one(svc, table_id)
        except StorageError as exc:  # the table is made; the names are read again within seconds
            log.info("table %s: the seats' names were not read (%s)", table_id, type(exc).__name__)

    async def seated(table: ServedTable, seat: int, scope: Mapping[str, Any]) -> None:
        """The creator's seat of a room table, opened by a browser signed in: claimed for the account before the
        welcome, so the very first state names the account, not the name typed when the table was made."""
        humans = [i for i, s in enumerate(table.spec.get("seats", ())) if s.get("kind") == "human"]
        label = (table.labels or {}).get(seat)
        if not table.spec.get("room") or not humans or seat != humans[0] or (label is not None and label.name):
            return
        browser_hash = browser_hash_of(scope)
        if browser_hash is None:
            return
        try:
            await store.run(remember_table, store.storage, browser_hash, table.id, seat)
            await seating.refresh_one(svc, table.id)
        except Exception as exc:  # the hello goes on; the seat keeps its own name until the next reading
            log.info("table %s: the creator's seat was not named (%s)", table.id, type(exc).__name__)

    svc.match_over.append(record)
    svc.table_created.append(created)
    svc.seating.append(seated)
    return [(QUICK_EVERY, lambda: make_quick_tables(app), "the quick match"),
            (seating.REFRESH_EVERY, lambda: seating.refresh_connected(svc), "the seats' names and ratings")]


async def _record(store: AsyncStorage, table_id: str, spec: dict[str, Any], record: dict[str, Any], match_no: int,
                  left: frozenset[int]) -> None:
    try:
        await store.run(history.record_table, store.storage, table_id, spec, record, match_no, left)
    except Exception as exc:  # the table goes on; log no cards
        log.error("table %s: its finished match was not recorded (%s)", table_id, type(exc).__name__)
