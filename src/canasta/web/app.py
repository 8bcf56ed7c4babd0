"""The ASGI application: pages, table creation, and one websocket per player (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import json
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from ..errors import CanastaError
from ..play import HUMAN
from . import pool as cpu_pool
from . import room
from .limits import BodyTooLarge, Guards, Limits, RateLimiter, Waiting, client_key, read_body, retry_after
from .logs import RequestIds
from .logs import table_id as log_table
from .messages import HintRequest, RequestId, ResolveRequest, ServerMessage
from .metrics import CONTENT_TYPE as METRICS_TYPE
from .metrics import Metrics
from .notify import Listener, channel_of
from .paths import STATIC
from .presence import PRESENCE_EVERY
from .protocol import ProtocolError, dumps, parse_client_message, setup_message, state_message
from .requests import SeedRefused, TableRequest
from .reviews import close_reviews
from .reviews import router as reviews_router
from .scorekeeper import router as scorekeeper_router
from .scorekeeper import sheet_rules
from .security import SecurityMiddleware, escape, escape_logs, token_hash
from .served import ServedTable
from .service import CLOCK_TICK, TableService
from .shutdown import RECONNECT, RESTART_CODE, Drain
from .storage import AsyncStorage, StorageError, open_storage

log = logging.getLogger("canasta.web")
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a table id looks like (``secrets.token_urlsafe``); anything else is no table, unlooked-up."""

MAX_BODY = Limits.table_body
WS_MAX_SIZE = 64 * 1024
"""Frames over this close the websocket (1009); under it, over 8 KiB, get ``too_large``."""
IDLE_TABLE = 15 * 60
"""Seconds a table with nobody connected and no computer player moving stays in memory."""
IDLE_SWEEP = 60
QUEUE_LIMIT = 256
"""Messages waiting for a slow client before it is disconnected (it reconnects and resyncs)."""
TEST_SEED = "CANASTA_TEST_SEED"
"""For tests only: when this environment variable holds a number N, the tables this process makes are
shuffled with the seeds N, N+1, N+2, ... instead of the server's own randomness (a browser test replays
the same deals every run).  Never set it on a server people play on: the deals would be known."""


class WebSocketConnection:
    """A websocket with its own send queue, so a slow client never holds up a table."""

    def __init__(self, ws: WebSocket, address: str = "unknown", guards: Guards | None = None) -> None:
        self.ws = ws
        self.address = address
        """The peer address: what the per-address limits count against."""
        self.guards = guards
        """The per-seat and per-address limits (None: a trusted address, not limited)."""
        self.seat: int | None = None
        self.token_hash: str | None = None
        """What storage keeps of the token its hello gave (a renewal elsewhere closes it unless it still opens the
        seat: :mod:`.notify`)."""
        self.close_code = 1000
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.writer = asyncio.get_running_loop().create_task(self._write())
        self.hints: RateLimiter | None = None
        self.resolves: RateLimiter | None = None

    def send(self, text: str) -> None:
        """Queue one message."""
        if self.queue.qsize() > QUEUE_LIMIT:
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def send_message(self, message: ServerMessage) -> None:
        """Queue one message (one of :mod:`.messages`)."""
        self.send(dumps(message))

    async def _write(self) -> None:
        with contextlib.suppress(Exception):
            while (text := await self.queue.get()) is not None:
                await self.ws.send_text(text)
        with contextlib.suppress(Exception):
            await self.ws.close(self.close_code)

    def send_close(self, code: int = 1000) -> None:
        """Close the socket after what is queued (``code``: 1012 when the server restarts)."""
        self.close_code = code
        self.queue.put_nowait(None)

    async def close(self) -> None:
        """Stop the writer after what is queued."""
        self.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer, 2)


def create_app(db: str = "canasta.sqlite3", bot_delay: float = 0.7, follow: float | None = None,
               limits: Limits | None = None, clock: float = CLOCK_TICK, presence: float = PRESENCE_EVERY,
               listen: bool = True) -> FastAPI:
    """The web application, storing tables in ``db`` (a SQLite path or a ``postgresql://`` URL).

    On PostgreSQL it listens (``listen``) for the commits of the other server processes on the same
    database and shows their moves at once (:mod:`.notify`).  Every ``follow`` seconds (0: never; None:
    :data:`FOLLOW_SQLITE`, or :data:`FOLLOW_LISTENING` while listening) it also looks for moves that other
    server processes made at the tables it holds, and shows them; every ``presence`` seconds
    (0: never) it tells storage whose connections it holds and reads those of the others
    (:meth:`TableService.heartbeat`).  ``limits``: what one client may ask (docs/security.md);
    the defaults of :class:`Limits` when None.
    """
    limits = limits if limits is not None else Limits()
    escape_logs()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = AsyncStorage(open_storage(db))
        app.state.service = TableService(storage, bot_delay=bot_delay)
        if (fixed := os.environ.get(TEST_SEED, "").strip()):
            if fixed.isdigit():
                seeds = itertools.count(int(fixed))
                app.state.service.new_seed = lambda: next(seeds) % 2**63
                log.warning("%s is set: every table's deal is known in advance (tests only)", TEST_SEED)
            else:
                log.warning("%s=%r is not a whole number from 0: ignored, the deals stay random", TEST_SEED,
                            fixed[:20])
        svc_started: TableService = app.state.service
        channel = channel_of(storage.storage) if listen else None
        listener = Listener(svc_started, storage.url, channel) if channel is not None else None
        app.state.listener = listener
        app.state.metrics.live.listener = listener
        pool = cpu_pool.CpuPool(limits.cpu_workers)
        cpu_pool.install(pool)
        gc.freeze()  # the start-up objects never need collecting: shorter full collections mid-game
        loop = asyncio.get_running_loop()
        svc: TableService = app.state.service

        async def sweep() -> None:
            svc.evict_idle(IDLE_TABLE)

        jobs: list[tuple[float, Callable[[], Awaitable[object]], str]] = [
            (IDLE_SWEEP, sweep, "forgetting idle tables"), (clock, svc.tick, "the tables' clocks")]
        if limits.expire_idle > 0 or limits.expire_over > 0:
            jobs.append((limits.expire_every, lambda: expire_tables(svc, limits), "expiring old tables"))
        every = follow if follow is not None else FOLLOW_LISTENING if listener is not None else FOLLOW_SQLITE
        if every > 0:
            jobs.append((every, svc.follow, "following other server processes"))
        if presence > 0:
            jobs.append((presence, svc.heartbeat, "the presence heartbeat"))
        jobs.extend(room.start(app))  # the lobby, the quick match, the history of finished matches
        from .tournaments import service as tournaments

        jobs.append((tournaments.CLOSE_EVERY, tournaments.TournamentService(svc).close_due,
                     "closing tournament rounds on time"))
        tasks = [loop.create_task(_every(seconds, job, what)) for seconds, job, what in jobs]
        if listener is not None:
            tasks.append(loop.create_task(listener.run()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            if listener is not None:
                await listener.close()
            pool.close()
            close_reviews(app)
            await app.state.service.close()
            await storage.close()

    app = FastAPI(title="Canasta", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.drain = Drain()
    app.state.metrics = Metrics(lambda: getattr(app.state, "service", None))
    app.add_middleware(SecurityMiddleware, max_body=max(limits.table_body, limits.score_body),
                       requests=RateLimiter(limits.requests_per_second, limits.requests_burst),
                       trusted=limits.trusted)
    app.add_middleware(RequestIds)
    app.state.limits = limits
    app.state.table_rate = RateLimiter(limits.tables_per_minute / 60, limits.tables_burst)
    app.state.pdf_rate = RateLimiter(limits.pdfs_per_second, limits.pdfs_burst)
    app.state.score_rate = RateLimiter(limits.scores_per_second, limits.scores_burst)
    guards = Guards(limits)
    waiting_sockets = Waiting(limits)

    def service() -> TableService:
        svc: TableService = app.state.service
        return svc

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def game_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "game.html")

    @app.get("/rules/{preset}", include_in_schema=False)
    async def rules_page(preset: str, request: Request) -> Response:
        # The table's exact rules for its players (cards as on the table, its settings in words, no command).
        from ..text.rulebook import rules_text

        try:
            rules, _, _ = sheet_rules(preset, list(request.query_params.multi_items()))
        except CanastaError as exc:  # a RequestError, or the rules' own RulesError
            return Response(str(exc).splitlines()[0] if str(exc) else "bad request", status_code=400,
                            media_type="text/plain")
        return HTMLResponse(rules_html(rules_text(rules, table=True)))

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(service().tables), "moves": service().moves_committed}

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"ok": True}  # the process answers: alive (readiness is /readyz)

    @app.get("/readyz")
    async def readyz() -> Response:
        listener: Listener | None = app.state.listener
        answer: dict[str, Any] = {"ready": False, "draining": app.state.drain.draining,
                                  "listening": None if listener is None else listener.listening.is_set()}
        if app.state.drain.draining:
            return JSONResponse(answer, status_code=503)
        try:
            await asyncio.wait_for(service().storage.run(_reachable, service().storage.storage), READY_TIMEOUT)
        except (StorageError, TimeoutError) as exc:
            answer["storage"] = type(exc).__name__
            return JSONResponse(answer, status_code=503)
        answer["ready"] = True
        return JSONResponse(answer)

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(app.state.metrics.text(), media_type=METRICS_TYPE)

    @app.get("/api/setup")
    async def setup() -> dict[str, Any]:
        return setup_message()

    def draining() -> Response | None:
        if not app.state.drain.draining:
            return None
        return _error(503, "draining", "this server is restarting; try again in a moment", {"Retry-After": "1"})

    def too_many_tables(request: Request) -> Response | None:
        key = client_key(request)
        wait = 0.0 if key in limits.trusted else app.state.table_rate.take(key)
        if not wait:
            return None
        return _error(429, "rate_limited", "too many new tables from one place; try again later",
                      {"Retry-After": retry_after(wait)})

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        try:
            body = await read_body(request, limits.table_body)
        except BodyTooLarge as exc:
            return _error(413, "too_large", str(exc), {"Connection": "close"})
        try:
            data = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            return _error(400, "bad_table", "the request is not JSON")
        if (refused := too_many_tables(request) or draining()) is not None:
            return refused
        try:
            table_request = TableRequest.parse(data, limits)
        except SeedRefused as exc:
            return _error(400, "seed_refused", str(exc))
        except CanastaError as exc:  # a RequestError, or rules or seats that do not exist
            return _error(400, "bad_table", str(exc))
        try:
            answer = await service().create(table_request)
        except StorageError as exc:
            log.error("creating a table failed: %s", exc)
            app.state.metrics.error("storage_unavailable")
            return _error(503, "storage_unavailable", "the server cannot store tables right now; try again later")
        return JSONResponse(answer, status_code=201)

    @app.get("/play", include_in_schema=False)
    async def quick_play_page() -> FileResponse:
        # Loading the page makes no table (link previews, prefetches); its script posts at once.
        return FileResponse(STATIC / "play.html")

    @app.post("/play", include_in_schema=False)
    async def quick_play(request: Request) -> Response:
        if (refused := too_many_tables(request) or draining()) is not None:
            return refused
        seats = [{"kind": HUMAN, "name": "You"}] + [{"kind": "expert", "name": n} for n in ("West", "North", "East")]
        try:
            answer = await service().create(TableRequest.parse({"preset": "classic", "seats": seats}, limits))
        except StorageError as exc:
            log.error("creating a table failed: %s", exc)
            return _error(503, "storage_unavailable", "the server cannot store tables right now; try again later")
        link = answer["seats"][0]["link"]
        assert link is not None  # seat 0 is a person's
        return RedirectResponse(link, status_code=303)

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        address = ws.client.host if ws.client is not None else "unknown"
        evicted = asyncio.Event()
        ticket = waiting_sockets.enter(address, evicted.set)
        if ticket is None:
            await ws.send_text(dumps(BUSY.to_message()))
            await ws.close(1013)
            return
        waiting = True

        def done_waiting() -> None:
            waiting_sockets.leave(address, ticket)

        drain: Drain = app.state.drain
        metrics: Metrics = app.state.metrics
        trusted = address in limits.trusted  # a trusted address (a load tester, the tests' browser) is not limited
        conn = WebSocketConnection(ws, address, None if trusted else guards)
        flood: RateLimiter | None = None
        if not trusted:
            flood = RateLimiter(limits.messages_per_second, limits.messages_burst, keys=1)
            conn.hints = RateLimiter(limits.hints_per_second, limits.hints_burst, keys=1)
            conn.resolves = RateLimiter(limits.resolves_per_second, limits.resolves_burst, keys=1)
        table: ServedTable | None = None
        deadline = asyncio.get_running_loop().time() + limits.hello_timeout
        try:
            while True:
                if waiting:
                    frame = await _first_frame(ws, evicted, deadline - asyncio.get_running_loop().time())
                    if frame is None:
                        conn.send_message(BUSY.to_message() if evicted.is_set() else ProtocolError(
                            "bad_token", f"say hello with your seat's token within {limits.hello_timeout:g}s")
                            .to_message())
                        break
                else:
                    frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                if drain.draining:  # read after the drain began: never answered, so no ack is lost
                    conn.send_message(RECONNECT)
                    conn.close_code = RESTART_CODE
                    break
                if flood is not None and flood.take(0):
                    conn.send_message(ProtocolError(
                        "rate_limited", f"more than {limits.messages_per_second:g} messages a second: "
                        "this connection is closed").to_message())
                    break  # closed below, after the refusal is sent
                drain.start()
                try:
                    table = await _answer(service(), conn, table, table_id, frame, metrics)
                finally:
                    drain.end()
                if table is not None and log_table.get() != table.id:
                    log_table.set(table.id)  # this connection's log lines name its table
                if waiting and table is not None:
                    waiting = False
                    done_waiting()
        except WebSocketDisconnect:
            pass
        finally:
            if waiting:
                done_waiting()
            if table is not None and conn in table.connections:
                table.connections.discard(conn)
                table.connection_changed(conn.seat)
                service().broadcast(table)
                service().presence_soon(table, conn.seat)
                if table.all_ready:  # the people still at the table were all waiting for this one
                    await service().settle(table)
            await conn.close()

    app.include_router(scorekeeper_router)
    room.install(app)  # accounts, sessions, ratings (docs/room.md)
    from .tournaments.routes import router as tournaments_router
    from .tournaments.service import history_results

    app.include_router(tournaments_router)  # duplicate tournaments (docs/tournament.md, "On the server")
    app.state.tournament_results = history_results  # a tournament table's result in a player's history
    app.include_router(reviews_router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


BUSY = ProtocolError("busy", "too many connections are waiting; try again soon")
FOLLOW_SQLITE = 0.5
"""Seconds between two looks for other processes' moves on a database without notifications (SQLite)."""
FOLLOW_LISTENING = 5.0
"""The same while listening to notifications (PostgreSQL): only a last resort, should one be lost."""
READY_TIMEOUT = 2.0
"""Seconds ``/readyz`` waits for storage to answer."""


def _reachable(storage: Any) -> int:
    """A query on the storage thread (``/readyz``): its schema version."""
    return int(storage.schema_version())


async def _first_frame(ws: WebSocket, evicted: asyncio.Event, seconds: float) -> Any:
    """The next frame of a socket that has not said hello yet; None when its time is up or a newcomer took its
    place (``evicted``)."""
    receive = asyncio.ensure_future(ws.receive())
    evict = asyncio.ensure_future(evicted.wait())
    try:
        done, _ = await asyncio.wait({receive, evict}, timeout=max(seconds, 0.001),
                                     return_when=asyncio.FIRST_COMPLETED)
    finally:
        evict.cancel()
    if receive in done:
        return receive.result()
    receive.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await receive
    return None


async def _answer(svc: TableService, conn: WebSocketConnection, table: ServedTable | None, table_id: str,
                  frame: Any, metrics: Metrics | None = None) -> ServedTable | None:
    """Answer one client message; returns the table the connection is at (after a ``hello``)."""
    request_id: RequestId = None
    started = time.perf_counter()
    if table is not None and conn not in table.connections:  # its seat's link was renewed elsewhere
        table = None
    try:
        text = frame.get("text")
        if text is None:
            raise ProtocolError("bad_message", "messages are JSON text, not binary")
        message = parse_client_message(text)
        request_id = message["id"]
        if message["type"] == "ping":
            conn.send_message({"type": "pong", "id": request_id})
            return table
        if message["type"] == "hello":
            found = await svc.get(table_id) if _TABLE_ID.fullmatch(table_id) else None
            if found is None:
                raise ProtocolError("no_table", "there is no table here; ask for a new link")
            seat = await svc.seat_of(found, message["token"])
            conn.token_hash = token_hash(message["token"])
            if seat is not None:
                for seated in svc.seating:  # the room: a creator signed in is named so in the first state
                    await seated(found, seat, conn.ws.scope)
            if table is not None and conn in table.connections:  # a second hello: the seat it held is left
                table.connections.discard(conn)
                table.connection_changed(conn.seat)  # its away clock starts when that was its last connection
                svc.presence_soon(table, conn.seat)
                if table is not found:
                    svc.broadcast(table)
            await svc.come_back(found, seat)  # a seat taken over while its person was away is theirs again
            conn.seat = seat
            found.connections.add(conn)  # no await from here to the welcome: it is the first message
            found.connection_changed(seat)
            conn.send_message({"type": "welcome", "table": found.id, "seat": seat,
                               "role": "spectator" if seat is None else "player", "id": request_id})
            conn.send_message(state_message(found, seat))
            if found.chat:
                conn.send_message({"type": "chat", "messages": list(found.chat)})
            svc.broadcast(found)
            svc.presence_soon(found, seat)
            return found
        if table is None:
            raise ProtocolError("bad_token", "say hello with your seat's token first")
        if message["type"] == "renew":
            token = await svc.renew(table, conn)
            conn.send_message({"type": "renewed", "token": token, "link": f"/t/{table.id}#{token}", "id": request_id})
            return table
        if message["type"] == "hint" or message["type"] == "resolve":
            await _work(svc, conn, table, message)
            return table
        if message["type"] == "chat":
            if conn.guards is not None and (wait := conn.guards.chat(table.id, conn.seat, conn.address)):
                raise ProtocolError("rate_limited", f"too many chat lines; write again in {retry_after(wait)}s")
            line = await svc.say(table, conn.seat, message["text"])
            conn.send_message({"type": "ack", "state": table.state_id, "id": request_id, "move": "chat"})
            if metrics is not None:
                metrics.acked("chat", time.perf_counter() - started)
            svc.tell(table, {"type": "chat", "messages": [line]})
            return table
        if message["type"] == "move":
            state_id, applied = await svc.submit(table, conn.seat, message["move"], message["state"])
        elif message["type"] == "ready" or message["type"] == "next":
            state_id, applied = await svc.submit(table, conn.seat, None, message["state"])
        elif message["type"] == "rematch":
            state_id, applied = await svc.rematch(table, conn.seat)
        else:  # leave or back
            state_id, applied = await svc.hand_over(table, conn.seat, message["type"] == "leave")
        conn.send_message({"type": "ack", "state": state_id, "id": request_id, "move": applied})
        if metrics is not None:
            metrics.acked(message["type"], time.perf_counter() - started)
        asyncio.get_running_loop().call_soon(svc.changed, table)  # let the ack go out before the broadcast is built
    except ProtocolError as exc:
        conn.send_message(exc.to_message(request_id))
        if metrics is not None:
            metrics.error(exc.name)
    except Exception as exc:  # never a traceback to a player, never a card in the log
        log.error("table %s: %s while answering a message", escape(table_id[:40]), type(exc).__name__)
        if metrics is not None:
            metrics.error("server_error")
        conn.send_message(ProtocolError("server_error", "the server could not do that; try again").to_message(
            request_id))
    return table


async def _work(svc: TableService, conn: WebSocketConnection, table: ServedTable,
                message: HintRequest | ResolveRequest) -> None:
    """Answer a ``hint`` or ``resolve``: CPU work, done in the pool and bounded per connection, per seat and per
    address (docs/security.md); an untrusted address's work takes one pool thread at a time."""
    kind, request_id = message["type"], message["id"]
    limiter = conn.hints if kind == "hint" else conn.resolves
    if limiter is not None and (wait := limiter.take(0)):
        raise ProtocolError("rate_limited", f"too many {kind}s; ask again in {retry_after(wait)}s")
    guards, key, charging = conn.guards, None, None
    if guards is not None:
        if (refused := guards.start_work(table.id, conn.seat, conn.address)) is not None:
            raise ProtocolError("rate_limited", refused)
        key = f"address {conn.address}"
        address = conn.address
        charging = cpu_pool.charge_to.set(lambda seconds: guards.cpu.spend(address, seconds))
    try:
        if message["type"] == "hint":
            move, reason = await svc.hint(table, conn.seat, message["state"], key)
            conn.send_message({"type": "hint", "move": move, "reason": reason, "id": request_id})
        else:
            moves, why = await svc.resolve(table, conn.seat, message["cards"], message["action"],
                                           message["state"], key, message["onto"])
            conn.send_message({"type": "moves", "action": message["action"], "moves": moves, "reason": why,
                               "state": message["state"], "id": request_id})
    finally:
        if charging is not None:
            cpu_pool.charge_to.reset(charging)  # nothing else this task starts is charged to the address
        if guards is not None:
            guards.end_work(table.id, conn.seat, conn.address)


async def _every(seconds: float, job: Callable[[], Awaitable[object]], what: str) -> None:
    """Run ``job`` every ``seconds`` for as long as the server runs; a failure is logged and tried again.

    The jobs: the tables' clocks (seats away too long, turn timers: :meth:`TableService.tick`), forgetting
    idle tables (storage keeps them), expiring old tables (:func:`expire_tables`), following other server
    processes' moves and sharing presence with them (a shared database).  A database hiccup never stops
    one, and the log names only the kind of failure, never a card.
    """
    while True:
        await asyncio.sleep(seconds)
        try:
            await job()
        except Exception as exc:
            log.warning("%s failed (%s); trying again", what, type(exc).__name__)


async def expire_tables(svc: TableService, limits: Limits, now: float | None = None) -> list[str]:
    """One sweep of the expiry job: the ids of the tables deleted."""
    now = time.time() if now is None else now
    never = float("-inf")
    idle_before = now - limits.expire_idle if limits.expire_idle > 0 else never
    over_before = now - limits.expire_over if limits.expire_over > 0 else never
    gone = await svc.storage.expire(idle_before, over_before)
    for table_id in gone:
        table = svc.tables.pop(table_id, None)
        if table is None:
            continue
        if table.bot_task is not None:
            table.bot_task.cancel()
        for conn in list(table.connections):
            conn.send(dumps(ProtocolError("no_table", "this table has expired").to_message()))
            if isinstance(conn, WebSocketConnection):
                conn.send_close()
        table.connections.clear()
    if gone:
        log.info("expired %d old tables", len(gone))
    return gone


async def _follow(svc: TableService, every: float) -> None:
    """Show the moves other server processes make at this process's tables (a shared database)."""
    while True:
        await asyncio.sleep(every)
        try:
            await svc.follow()
        except Exception as exc:  # a database hiccup must not stop the following; log no cards
            log.warning("following other server processes failed (%s); trying again", type(exc).__name__)


def rules_html(text: str) -> str:
    """The rule book's text (``#`` headings, paragraphs, ``-`` lists) as a small escaped HTML page."""
    import html

    body: list[str] = []
    blocks = [b for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    for block in blocks:
        lines = block.splitlines()
        if lines[0].startswith("#"):
            level = min(len(lines[0]) - len(lines[0].lstrip("#")), 3)
            body.append(f"<h{level}>{html.escape(lines[0].lstrip('#').strip())}</h{level}>")
            lines = lines[1:]
            if not lines:
                continue
        if all(line.startswith("|") for line in lines) or any(line.startswith("    ") for line in lines):
            body.append(f"<pre>{html.escape(chr(10).join(lines))}</pre>")
        elif lines[0].startswith("- "):
            items: list[str] = []
            for line in lines:
                if line.startswith("- "):
                    items.append(line[2:].strip())
                else:
                    items[-1] += " " + line.strip()
            body.append("<ul>" + "".join(f"<li>{html.escape(item)}</li>" for item in items) + "</ul>")
        else:
            body.append(f"<p>{html.escape(' '.join(line.strip() for line in lines))}</p>")
    title = html.escape(text.strip().splitlines()[0].lstrip("#").strip())
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{title}</title><link rel=\"icon\" href=\"data:,\">"
            "<link rel=\"stylesheet\" href=\"/static/guide.css\"></head>"
            "<body class=\"guide-page\"><nav class=\"guide-nav\"><a href=\"/\">Lobby</a> "
            "<a href=\"/static/guide.html\">How to play</a></nav><main class=\"guide\">"
            + "\n".join(body) + "</main></body></html>\n")


def _error(status: int, name: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": name, "message": message}, status_code=status, headers=headers)
