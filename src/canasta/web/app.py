"""The ASGI application: pages, table creation, and one websocket per player (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from ..play import HUMAN
from .protocol import ProtocolError, dumps, parse_client_message, setup_message, state_message
from .scorekeeper import router as scorekeeper_router
from .service import SeedRefused, Table, TableService
from .storage import AsyncStorage, open_storage

log = logging.getLogger("canasta.web")

STATIC = Path(str(files("canasta.web") / "static"))
MAX_BODY = 16 * 1024
WS_MAX_SIZE = 64 * 1024
"""Frames over this close the websocket (1009); under it, over 8 KiB, get ``too_large``."""
IDLE_TABLE = 15 * 60
"""Seconds a table with nobody connected and no computer player moving stays in memory."""
IDLE_SWEEP = 60
QUEUE_LIMIT = 256
"""Messages waiting for a slow client before it is disconnected (it reconnects and resyncs)."""


class WebSocketConnection:
    """A websocket with its own send queue, so a slow client never holds up a table."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.seat: int | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, text: str) -> None:
        """Queue one message."""
        if self.queue.qsize() > QUEUE_LIMIT:
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def send_message(self, message: dict[str, Any]) -> None:
        """Queue one message given as a dict."""
        self.send(dumps(message))

    async def _write(self) -> None:
        with contextlib.suppress(Exception):
            while (text := await self.queue.get()) is not None:
                await self.ws.send_text(text)
        with contextlib.suppress(Exception):
            await self.ws.close()

    async def close(self) -> None:
        """Stop the writer after what is queued."""
        self.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer, 2)


def create_app(db: str = "canasta.sqlite3", bot_delay: float = 0.7, follow: float = 0.5) -> FastAPI:
    """The web application, storing tables in ``db`` (a SQLite path or a ``postgresql://`` URL).

    Every ``follow`` seconds (0: never) it looks for moves that other server processes on
    the same database made at the tables it holds, and shows them.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = AsyncStorage(open_storage(db))
        app.state.service = TableService(storage, bot_delay=bot_delay)
        gc.freeze()  # the start-up objects never need collecting: shorter full collections mid-game
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(_sweep(app.state.service))]
        if follow > 0:
            tasks.append(loop.create_task(_follow(app.state.service, follow)))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await app.state.service.close()
            await storage.close()

    app = FastAPI(title="Canasta", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)

    def service() -> TableService:
        svc: TableService = app.state.service
        return svc

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def game_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "game.html")

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(service().tables), "moves": service().moves_committed}

    @app.get("/api/setup")
    async def setup() -> dict[str, Any]:
        return setup_message()

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_BODY:
            return _error(413, "too_large", f"a request may hold at most {MAX_BODY} bytes")
        try:
            data = json.loads(body)
        except ValueError:
            return _error(400, "bad_table", "the request is not JSON")
        try:
            answer = await service().create(data)
        except SeedRefused as exc:
            return _error(400, "seed_refused", str(exc))
        except ValueError as exc:
            return _error(400, "bad_table", str(exc))
        return JSONResponse(answer, status_code=201)

    @app.get("/play", include_in_schema=False)
    async def quick_play_page() -> FileResponse:
        # Loading the page makes no table (link previews, prefetches); its script posts at once.
        return FileResponse(STATIC / "play.html")

    @app.post("/play", include_in_schema=False)
    async def quick_play() -> RedirectResponse:
        answer = await service().create({"preset": "classic", "seats": [{"kind": HUMAN, "name": "You"}] + [
            {"kind": "expert", "name": name} for name in ("West", "North", "East")]})
        return RedirectResponse(answer["seats"][0]["link"], status_code=303)

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        conn = WebSocketConnection(ws)
        table: Table | None = None
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                table = await _answer(service(), conn, table, table_id, frame)
        except WebSocketDisconnect:
            pass
        finally:
            if table is not None and conn in table.connections:
                table.connections.discard(conn)
                service().broadcast(table)
            await conn.close()

    app.include_router(scorekeeper_router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


async def _answer(svc: TableService, conn: WebSocketConnection, table: Table | None, table_id: str,
                  frame: Any) -> Table | None:
    """Answer one client message; returns the table the connection is at (after a ``hello``)."""
    request_id: object = None
    try:
        text = frame.get("text")
        if text is None:
            raise ProtocolError("bad_message", "messages are JSON text, not binary")
        message = parse_client_message(text)
        request_id = message.get("id")
        kind = message["type"]
        if kind == "ping":
            conn.send_message({"type": "pong", "id": request_id})
            return table
        if kind == "hello":
            found = await svc.get(table_id)
            if found is None:
                raise ProtocolError("no_table", "there is no table here; ask for a new link")
            seat = await svc.seat_of(found, message["token"])
            if table is not None:
                table.connections.discard(conn)
            conn.seat = seat
            found.connections.add(conn)
            conn.send_message({"type": "welcome", "table": found.id, "seat": seat,
                               "role": "spectator" if seat is None else "player", "id": request_id})
            conn.send_message(state_message(found, seat))
            svc.broadcast(found)
            return found
        if table is None:
            raise ProtocolError("bad_token", "say hello with your seat's token first")
        if kind == "hint":
            move, reason = svc.hint(table, conn.seat, message["state"])
            conn.send_message({"type": "hint", "move": move, "reason": reason, "id": request_id})
            return table
        text_move = message["move"] if kind == "move" else None
        state_id, applied = await svc.submit(table, conn.seat, text_move, message["state"])
        conn.send_message({"type": "ack", "state": state_id, "id": request_id, "move": applied})
        asyncio.get_running_loop().call_soon(svc.changed, table)  # let the ack go out before the broadcast is built
    except ProtocolError as exc:
        conn.send_message(exc.to_message(request_id))
    except Exception as exc:  # never a traceback to a player, never a card in the log
        log.error("table %s: %s while answering a message", table_id, type(exc).__name__)
        conn.send_message(ProtocolError("server_error", "the server could not do that; try again").to_message(
            request_id))
    return table


async def _sweep(svc: TableService) -> None:
    """Forget tables nobody has used for a while; storage keeps them."""
    while True:
        await asyncio.sleep(IDLE_SWEEP)
        svc.evict_idle(IDLE_TABLE)


async def _follow(svc: TableService, every: float) -> None:
    """Show the moves other server processes make at this process's tables (a shared database)."""
    while True:
        await asyncio.sleep(every)
        try:
            await svc.follow()
        except Exception as exc:  # a database hiccup must not stop the following; log no cards
            log.warning("following other server processes failed (%s); trying again", type(exc).__name__)


def _error(status: int, name: str, message: str) -> JSONResponse:
    return JSONResponse({"error": name, "message": message}, status_code=status)
