"""The tournaments' HTTP API and pages: ``POST /api/tournaments`` (a signed-in organiser, rate-limited per
account and per address), ``GET /api/tournaments`` (the public ones, for the lobby), ``GET
/api/tournaments/{id}`` (what the requester may see: a person's seat link of one of its tables in the
``X-Canasta-Token`` header, else what every table has played), ``POST .../tables/{t}/seats/{s}`` (take an
open seat of a public one), ``GET /api/tournaments/of-table/{table}``
(the game page's banner: which tournament a seat's table plays), each board's replay per table once the
tournament is over, the organiser's form ``/tournament/new`` and the page ``/tournament/{id}``."""

from __future__ import annotations

import json
import logging
import secrets

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response

from ...errors import CanastaError
from ...rules import Rules
from ..limits import BodyTooLarge, Limits, RateLimiter, client_key, read_body, retry_after
from ..paths import STATIC
from ..security import token_hash
from ..storage import StorageError
from . import store
from .service import TournamentService, parse_request

log = logging.getLogger("canasta.web")
router = APIRouter()
TOKEN_HEADER = "X-Canasta-Token"
"""The header that carries the requester's link token (from the page address's ``#`` part, never the query)."""
PER_HOUR, BURST = 6, 3
"""Tournaments one account, and one address, may create: ``BURST`` at once, then ``PER_HOUR`` an hour."""


class CreateGuard:
    """Rate limits on creating tournaments (each makes tables that play): per account and per address."""

    def __init__(self, trusted: tuple[str, ...] = (), per_hour: float = PER_HOUR, burst: float = BURST) -> None:
        self.trusted = trusted
        self.by_account = RateLimiter(per_hour / 3600, burst)
        self.by_address = RateLimiter(per_hour / 3600, burst)

    def take(self, account_id: str, address: str) -> float:
        """0 when this account at this address may create a tournament now (both counters are charged), else
        the seconds to wait."""
        by_address = 0.0 if address in self.trusted else self.by_address.take(address)
        return max(by_address, self.by_account.take(account_id))


def _guard(request: Request) -> CreateGuard:
    state = request.app.state
    guard: CreateGuard | None = getattr(state, "tournament_guard", None)
    if guard is None:
        limits = getattr(state, "limits", None)
        guard = state.tournament_guard = CreateGuard(tuple(getattr(limits, "trusted", ())))
    return guard


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def _service(request: Request) -> TournamentService:
    return TournamentService(request.app.state.service)


@router.post("/api/tournaments")
async def create_tournament(request: Request) -> Response:
    from ..room.routes import signed_in  # the room's session cookie: the organiser

    limits: Limits = request.app.state.limits
    who = await signed_in(request)
    if who is None:
        return _error(401, "not_signed_in", "sign in first: a tournament has an organiser")
    try:
        body = await read_body(request, limits.table_body)
    except BodyTooLarge as exc:
        return _error(413, "too_large", str(exc))
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return _error(400, "bad_tournament", "the request is not JSON")
    if getattr(request.app.state, "drain", None) is not None and request.app.state.drain.draining:
        return _error(503, "draining", "the server is restarting; try again in a moment")
    try:
        tournament = parse_request(data, limits)
    except CanastaError as exc:
        return _error(400, "bad_tournament", str(exc))
    wait = _guard(request).take(who[0].id, client_key(request))  # only a good request is counted
    if wait:
        return JSONResponse({"error": "rate_limited", "message": f"too many tournaments made; try again in "
                             f"{retry_after(wait)}s"}, status_code=429, headers={"Retry-After": retry_after(wait)})
    try:
        answer = await _service(request).create(tournament, organiser=who[0].id)
    except StorageError as exc:
        log.error("creating a tournament failed: %s", exc)
        return _error(503, "storage_unavailable", "the server cannot store tournaments right now; try again later")
    return JSONResponse(answer, status_code=201)


@router.get("/api/tournaments")
async def public_tournaments(request: Request) -> Response:
    """The public tournaments, newest first (the lobby lists them): name, game, size, state and page; nothing
    of a board."""
    storage = request.app.state.service.storage
    listed = await storage.run(store.public, storage.storage)
    answer = []
    for found in listed:
        format_ = found.spec["format"]
        rounds = int(format_.get("rounds", 1))
        answer.append({"tournament": found.tournament_id,
                       "name": found.spec.get("name") or f"Tournament {found.tournament_id}",
                       "preset": Rules.parse(format_["rules"]).preset, "tables": found.tables,
                       "boards": int(format_["boards"]), "rounds": rounds, "created": found.created,
                       "over": found.over == found.tables or len(found.closed) >= rounds,
                       "link": f"/tournament/{found.tournament_id}"})
    return JSONResponse({"tournaments": answer}, headers={"Cache-Control": "no-store"})


@router.get("/api/tournaments/of-table/{table_id}")
async def tournament_of_table(request: Request, table_id: str) -> Response:
    """The tournament a seat's table plays, for its game page's banner: only for a token of that table."""
    token = request.headers.get(TOKEN_HEADER, "")[:100]
    storage = request.app.state.service.storage
    if len(table_id) > 40 or not token:
        return _error(404, "no_tournament", "this table plays in no tournament here")
    known, _ = await storage.token_seat(table_id, token_hash(token))
    found = await storage.run(store.of_table, storage.storage, table_id) if known else None
    if found is None:
        return _error(404, "no_tournament", "this table plays in no tournament here")
    tournament_id, number = found
    stored = await storage.run(store.load, storage.storage, tournament_id)
    if stored is None:
        return _error(404, "no_tournament", "this table plays in no tournament here")
    format_ = stored.spec["format"]
    boards, rounds = int(format_["boards"]), int(format_.get("rounds", 1))
    return JSONResponse({"tournament": tournament_id, "name": stored.spec.get("name") or f"Tournament {tournament_id}",
                         "table": number, "boards": boards, "rounds": rounds, "boards_per_round": boards // rounds,
                         "link": f"/tournament/{tournament_id}"}, headers={"Cache-Control": "no-store"})


@router.get("/api/tournaments/{tournament_id}")
async def tournament(request: Request, tournament_id: str) -> Response:
    if len(tournament_id) > 40:
        return _error(404, "no_tournament", "there is no such tournament here")
    token = request.headers.get(TOKEN_HEADER, "")[:100] or None
    view = await _service(request).view(tournament_id, token)
    if view is None:
        return _error(404, "no_tournament", "there is no such tournament here")
    return JSONResponse(view, headers={"Cache-Control": "no-store"})


@router.post("/api/tournaments/{tournament_id}/tables/{table}/seats/{seat}")
async def take_seat(request: Request, tournament_id: str, table: int, seat: int) -> Response:
    """Take an open seat of a public tournament (tables and seats from 1), signed in: answered with the seat's
    link, a new token (the one made with the tournament stops working)."""
    from ..room.routes import signed_in
    from ..room.seating import refresh_one

    who = await signed_in(request)
    if who is None:
        return _error(401, "not_signed_in", "sign in first to take a seat in a tournament")
    if len(tournament_id) > 40 or not 1 <= table <= 100 or not 1 <= seat <= 12:
        return _error(404, "no_seat", "there is no such seat")
    if getattr(request.app.state, "drain", None) is not None and request.app.state.drain.draining:
        return _error(503, "draining", "the server is restarting; try again in a moment")
    storage = request.app.state.service.storage
    account = who[0]
    table_id = await storage.run(store.claim, storage.storage, tournament_id, table - 1, seat - 1, account.id,
                                 account.name)
    if table_id is None:
        return _error(409, "seat_taken", "this seat is not open (taken, or you have a seat in this tournament)")
    token = secrets.token_urlsafe(24)
    if not await storage.renew_token(table_id, seat - 1, token_hash(token)):
        return _error(404, "no_table", "this table is no longer stored")
    try:  # the players at the table see the taker's name at once
        await refresh_one(request.app.state.service, table_id)
    except StorageError as exc:
        log.info("table %s: the seats' names were not read (%s)", table_id, type(exc).__name__)
    return JSONResponse({"table": table - 1, "seat": seat - 1, "link": f"/t/{table_id}#{token}"})


@router.get("/api/tournaments/{tournament_id}/tables/{table}/boards/{board}/replay")
async def board_replay(request: Request, tournament_id: str, table: int, board: int) -> Response:
    """A board as one table played it, every hand face up, once the tournament is over (tables and boards from 1)."""
    if len(tournament_id) > 40:
        return _error(404, "no_replay", "there is no such tournament here")
    replay = await _service(request).replay(tournament_id, table - 1, board - 1)
    if replay is None:
        return _error(404, "no_replay", "a board is replayed here once the tournament is over, for a table that "
                                        "played it")
    return JSONResponse(replay)


@router.get("/tournament/{tournament_id}/table/{table}/board/{board}", include_in_schema=False)
async def board_viewer(tournament_id: str, table: int, board: int) -> Response:
    """A board as one table played it, drawn at the table by the game page's own review: the room's page of a
    finished hand (``static/room/replay.html``) driven by ``static/tournament/replay.js``; the replay as JSON
    where the server has no such page."""
    page = STATIC / "room" / "replay.html"
    if not page.exists():
        return RedirectResponse(f"/api/tournaments/{tournament_id}/tables/{table}/boards/{board}/replay")
    text = page.read_text(encoding="utf-8").replace("/static/room/replay.js", "/static/tournament/replay.js")
    return HTMLResponse(text.replace("A hand of a finished match", "A board of a tournament"))


@router.get("/tournament/new", include_in_schema=False)
async def organiser_page() -> FileResponse:
    return FileResponse(STATIC / "tournament" / "new.html")


@router.get("/tournament/{tournament_id}", include_in_schema=False)
async def tournament_page(tournament_id: str) -> FileResponse:
    return FileResponse(STATIC / "tournament" / "index.html")
