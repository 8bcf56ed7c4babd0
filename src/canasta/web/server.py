"""``canasta serve``: run the web application under uvicorn."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import webbrowser
from types import FrameType
from typing import Any


def has_display() -> bool:
    """True where a graphical browser can be opened (never a text browser in this terminal)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "canasta.sqlite3", bot_delay: float = 0.7,
          open_browser: bool = False, quiet: bool = False, follow: float | None = None, max_search: float = 2.0,
          expire_days: float = 30.0, trusted: tuple[str, ...] = (), log_format: str = "text",
          drain_seconds: float = 10.0) -> None:
    """Serve until interrupted; prints the address first.

    ``max_search``: seconds a search player may think a move; ``expire_days``: days after its last
    move that a table leaves storage (finished ones: a quarter of it; 0: never); ``log_format``: ``text``
    or ``json`` (:mod:`.logs`); ``drain_seconds``: the most a SIGTERM waits for the messages being answered
    before the connections are told to reconnect (:mod:`.shutdown`).
    """
    import uvicorn

    from .app import WS_MAX_SIZE, create_app
    from .limits import Limits
    from .logs import log_config
    from .storage import open_storage

    open_storage(db).close()  # a database that cannot be opened is one line, before uvicorn starts
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    address = f"http://{shown}:{port}/"
    print(f"Canasta is served at {address}  (quick game: {address}play; stop with Ctrl+C)", flush=True)
    if open_browser and has_display():
        threading.Timer(1.0, webbrowser.open, (address,)).start()
    limits = Limits(max_search=max_search, expire_idle=expire_days * 86400, expire_over=expire_days * 86400 / 4,
                    trusted=trusted)
    app = create_app(db, bot_delay, follow, limits)
    level = "warning" if quiet else "info"
    logs: dict[str, Any] = {} if log_format == "text" else {"log_config": log_config(log_format, level, not quiet)}
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=WS_MAX_SIZE,
                            log_level=level, access_log=not quiet,
                            timeout_graceful_shutdown=5,
                            use_colors=False if os.environ.get("NO_COLOR") else None, **logs)  # no-color.org
    server = uvicorn.Server(config)
    drain_on_sigterm(server, app, drain_seconds)
    server.run()


def drain_on_sigterm(server: Any, app: Any, drain_seconds: float) -> None:
    """Make the first SIGTERM of a uvicorn server drain the process before it stops (:mod:`.shutdown`); SIGINT
    (Ctrl+C) and a second signal stop it as uvicorn does."""
    stop = getattr(server, "handle_exit", None)
    if stop is None:
        return
    draining: list[bool] = []
    tasks: set[asyncio.Task[None]] = set()

    async def drained() -> None:
        try:
            await app.state.drain.run(app.state.service, drain_seconds)
            await asyncio.sleep(0.2)  # the writers send the reconnects and close the sockets
        finally:
            server.should_exit = True

    def start() -> None:
        task = asyncio.get_running_loop().create_task(drained())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def handle_exit(sig: int, frame: FrameType | None) -> None:
        try:  # a signal handler runs between two steps of the main thread, whose loop is running
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if sig != signal.SIGTERM or draining or loop is None or not hasattr(app.state, "service"):
            stop(sig, frame)
            return
        draining.append(True)
        loop.call_soon_threadsafe(start)

    server.handle_exit = handle_exit
