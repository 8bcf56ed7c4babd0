"""``canasta serve``: run the web application under uvicorn."""

from __future__ import annotations

import os
import sys
import threading
import webbrowser


def has_display() -> bool:
    """True where a graphical browser can be opened (never a text browser in this terminal)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "canasta.sqlite3", bot_delay: float = 0.7,
          open_browser: bool = False, quiet: bool = False, follow: float = 0.5, max_search: float = 2.0,
          expire_days: float = 30.0, trusted: tuple[str, ...] = ()) -> None:
    """Serve until interrupted; prints the address first.

    ``max_search``: seconds a search player may think a move; ``expire_days``: days after its last
    move that a table leaves storage (finished ones: a quarter of it; 0: never).
    """
    import uvicorn

    from .app import WS_MAX_SIZE, create_app
    from .limits import Limits
    from .storage import open_storage

    open_storage(db).close()  # a database that cannot be opened is one line, before uvicorn starts
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    address = f"http://{shown}:{port}/"
    print(f"Canasta is served at {address}  (quick game: {address}play; stop with Ctrl+C)", flush=True)
    if open_browser and has_display():
        threading.Timer(1.0, webbrowser.open, (address,)).start()
    limits = Limits(max_search=max_search, expire_idle=expire_days * 86400, expire_over=expire_days * 86400 / 4,
                    trusted=trusted)
    config = uvicorn.Config(create_app(db, bot_delay, follow, limits), host=host, port=port, ws_max_size=WS_MAX_SIZE,
                            log_level="warning" if quiet else "info", access_log=not quiet,
                            timeout_graceful_shutdown=5,
                            use_colors=False if os.environ.get("NO_COLOR") else None)  # no-color.org
    uvicorn.Server(config).run()
