"""The tournaments' HTTP API and page: ``POST /api/tournaments`` (a signed-in organiser), ``GET
/api/tournaments/{id}`` (what the requester may see: a person's seat link of one of its tables in the
``X-Canasta-Token`` header, else what every table has played), each board's replay per table once the
tournament is over, and the page ``/tournament/{id}``."""

from __future__ import annotations

import json
import logging

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from ...errors import CanastaError
from ..limits import BodyTooLarge, Limits, read_body
from ..paths import STATIC
from ..storage import StorageError
from .service import TournamentService, parse_request

log = logging.getLogger("canasta.web")
router = APIRouter()
TOKEN_HEADER = "X-Canasta-Token"
"""The header that carries the requester's link token (from the page address's ``#`` part, never the query)."""


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
    try:
        answer = await _service(request).create(tournament, organiser=who[0].id)
    except StorageError as exc:
        log.error("creating a tournament failed: %s", exc)
        return _error(503, "storage_unavailable", "the server cannot store tournaments right now; try again later")
    return JSONResponse(answer, status_code=201)


@router.get("/api/tournaments/{tournament_id}")
async def tournament(request: Request, tournament_id: str) -> Response:
    if len(tournament_id) > 40:
        return _error(404, "no_tournament", "there is no such tournament here")
    token = request.headers.get(TOKEN_HEADER, "")[:100] or None
    view = await _service(request).view(tournament_id, token)
    if view is None:
        return _error(404, "no_tournament", "there is no such tournament here")
    return JSONResponse(view, headers={"Cache-Control": "no-store"})


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


@router.get("/tournament/{tournament_id}", include_in_schema=False)
async def tournament_page(tournament_id: str) -> FileResponse:
    return FileResponse(STATIC / "tournament" / "index.html")
