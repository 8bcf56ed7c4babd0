"""The Canasta room (issue 30): accounts and sessions, the browser key, ratings per game family (docs/room.md).

:func:`install` adds the room's routes and its browser-key middleware to the web application; the
modules that keep accounts and ratings import no web framework (``canasta admin`` uses them).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI


def install(app: FastAPI) -> None:
    """Add the room's API and page (:mod:`.routes`) and the browser key (:mod:`.browser`) to ``app``."""
    from .browser import BrowserKeyMiddleware
    from .play_routes import router as play_router
    from .routes import router

    app.include_router(router)
    app.include_router(play_router)  # the lobby, quick match and history
    app.add_middleware(BrowserKeyMiddleware)


def start(app: FastAPI) -> list[tuple[float, Callable[[], Awaitable[object]], str]]:
    """Hook the room into the running server's tables (:func:`.play_routes.start`); the jobs to run."""
    from .play_routes import start as start_room

    return start_room(app)
