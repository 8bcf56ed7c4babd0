"""The browser key: a cookie that names a browser, so the seats it plays as a guest can become an account's.

:class:`BrowserKeyMiddleware` gives every browser without one a random ``canasta_browser`` cookie
(HttpOnly, SameSite=Lax, Secure over HTTPS) and, when a websocket of that browser is welcomed to a
seat, remembers ``(browser, table, seat)`` under the key's SHA-256.  Signing up or in links the
browser to the account (its tables before and after are the account's); signing out unlinks it and
gives the browser a new key, so the next guest on a shared computer starts afresh.  The page's seat
links stay where they were (the URL's fragment, the lobby's ``localStorage``): the key only says
which tables this browser played, never how to play them.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping, MutableMapping
from http.cookies import CookieError, SimpleCookie
from typing import Any

from .accounts import remember_table
from .sessions import BROWSER_COOKIE, BROWSER_DAYS, is_https, new_token, token_hash

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("canasta.web")
SCOPE_KEY = "canasta.browser"
"""Where the middleware leaves the request's browser key (the cookie's, or the one it is giving now)."""
_WELCOME = '{"type":"welcome"'
_REMEMBERED = 10000
"""Seats remembered per process before the memory of what was already written is cleared."""


def cookies(scope: Mapping[str, Any]) -> dict[str, str]:
    """The request's cookies (a malformed header: none)."""
    jar: SimpleCookie = SimpleCookie()
    for key, value in scope.get("headers", ()):
        if key == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except CookieError:
                return {}
    return {name: morsel.value for name, morsel in jar.items()}


def _headers(scope: Scope) -> dict[str, str]:
    return {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", ())}


def browser_hash_of(scope: Mapping[str, Any]) -> str | None:
    """The hash of the browser key a request or websocket carries (None: it has none yet)."""
    key = cookies(scope).get(BROWSER_COOKIE)
    return token_hash(key) if key is not None and _valid(key) else None


def browser_cookie(key: str, secure: bool) -> bytes:
    """The ``Set-Cookie`` value that gives a browser its key."""
    flags = "; Secure" if secure else ""
    return f"{BROWSER_COOKIE}={key}; Max-Age={BROWSER_DAYS * 86400}; Path=/; HttpOnly; SameSite=lax{flags}".encode()


def _valid(key: str | None) -> bool:
    return key is not None and 20 <= len(key) <= 100 and all(c.isalnum() or c in "-_" for c in key)


class BrowserKeyMiddleware:
    """Gives each browser its key and remembers the seats its websockets are welcomed to (module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._remembered: set[tuple[str, str, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            key = cookies(scope).get(BROWSER_COOKIE)
            if _valid(key):
                assert key is not None
                await self.app(scope, receive, self._watching(scope, token_hash(key), send))
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        key = cookies(scope).get(BROWSER_COOKIE)
        if _valid(key):
            scope[SCOPE_KEY] = key
            await self.app(scope, receive, send)
            return
        new = scope[SCOPE_KEY] = new_token()
        secure = is_https(scope.get("scheme", "http"), _headers(scope))

        async def send_with_key(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                mine = BROWSER_COOKIE.encode() + b"="
                if not any(k.lower() == b"set-cookie" and v.startswith(mine) for k, v in headers):
                    headers.append((b"set-cookie", browser_cookie(new, secure)))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_key)

    def _watching(self, scope: Scope, browser_hash: str, send: Send) -> Send:
        """``send`` that notices the welcomes to a seat and remembers them for the browser."""

        async def send_watched(message: Message) -> None:
            text = message.get("text") if message["type"] == "websocket.send" else None
            if isinstance(text, str) and text.startswith(_WELCOME):
                self._welcomed(scope, browser_hash, text)
            await send(message)

        return send_watched

    def _welcomed(self, scope: Scope, browser_hash: str, text: str) -> None:
        try:
            welcome = json.loads(text)
        except ValueError:
            return
        table, seat = welcome.get("table"), welcome.get("seat")
        app = scope.get("app")
        service = getattr(getattr(app, "state", None), "service", None)
        served = getattr(service, "tables", {}).get(table) if isinstance(table, str) else None
        if served is not None and served.labels is None and welcome.get("role") != "player":
            self._spawn(self._label(service, served.id))  # a spectator at a table just loaded here
        if welcome.get("role") != "player" or not isinstance(table, str) or not isinstance(seat, int):
            return
        if (browser_hash, table, seat) in self._remembered:
            if served is not None and served.labels is None:
                self._spawn(self._label(service, served.id))
            return
        if len(self._remembered) > _REMEMBERED:
            self._remembered.clear()
        self._remembered.add((browser_hash, table, seat))
        if service is None:
            return
        self._spawn(self._remember(service, browser_hash, table, seat))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _remember(self, service: Any, browser_hash: str, table: str, seat: int) -> None:
        storage = service.storage
        try:
            await storage.run(remember_table, storage.storage, browser_hash, table, seat)
        except Exception as exc:  # the game goes on; the link is made at the next welcome
            self._remembered.discard((browser_hash, table, seat))
            log.warning("remembering a browser's table failed (%s)", type(exc).__name__)
            return
        await self._label(service, table)  # a signed-in player's name and rating at the seat

    async def _label(self, service: Any, table: str) -> None:
        from .seating import refresh_one

        try:
            await refresh_one(service, table)
        except Exception as exc:  # the seats keep their own names until the next reading
            log.info("reading the seats' names failed (%s)", type(exc).__name__)
