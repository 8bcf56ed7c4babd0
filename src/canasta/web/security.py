"""Web hygiene: security headers, same-origin POSTs, early 413s and log lines that cannot be forged.

:class:`SecurityMiddleware` wraps the whole ASGI application (docs/security.md):

* every HTTP answer carries a strict Content-Security-Policy (the pages load their scripts and
  styles from ``/static`` only), ``X-Frame-Options: DENY``, ``nosniff`` and ``Referrer-Policy: same-origin``;
* a state-changing request (POST, PUT, PATCH, DELETE) from another origin is refused with 403
  ``cross_origin`` (its ``Origin``, else its ``Sec-Fetch-Site``, says where it comes from), and a
  JSON API (``/api/...``) takes no body labelled other than ``application/json`` (415
  ``bad_content_type``): a cross-site form or ``text/plain`` fetch cannot send that label
  without a CORS preflight, which this server never grants;
* a body whose ``Content-Length`` is over the largest any route reads is refused with 413
  before a byte of it is read (the routes read the rest in chunks, see :func:`limits.read_body`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .limits import RateLimiter

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def cross_origin(scope: Scope) -> bool:
    """True when a browser says the request comes from another origin (no header: not a browser)."""
    origin = _header(scope, b"origin")
    site = _header(scope, b"sec-fetch-site")
    if origin == "null" and site is not None:
        # A browser that hides the origin (a privacy setting, a sandbox) still says where the request comes from.
        return site not in ("same-origin", "none")
    if origin is not None:
        host = _header(scope, b"host")
        if origin == "null" or host is None:
            return True
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        return origin.lower() not in (f"{scheme}://{host}".lower(), f"http://{host}".lower(),
                                      f"https://{host}".lower())
    return site is not None and site not in ("same-origin", "none")


class SecurityMiddleware:
    """Headers on every answer, same-origin POSTs, JSON APIs take JSON, early 413 (module docstring)."""

    def __init__(self, app: ASGIApp, max_body: int, requests: RateLimiter | None = None,
                 trusted: tuple[str, ...] = ()) -> None:
        self.app = app
        self.max_body = max_body
        self.requests = requests
        self.trusted = trusted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._flooding(scope) or self._refusal(scope)
        if refusal is not None:
            await _answer(send, *refusal)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {key.lower() for key, _ in message.get("headers", ())}
                message["headers"] = list(message.get("headers", ())) + [h for h in HEADERS if h[0] not in names]
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _flooding(self, scope: Scope) -> tuple[int, str, str, list[tuple[bytes, bytes]]] | None:
        """429 at the door for an address that sends requests faster than any page does (cheap: no routing)."""
        if self.requests is None:
            return None
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if address in self.trusted or not (wait := self.requests.take(address)):
            return None
        seconds = str(max(1, math.ceil(wait)))
        return 429, "rate_limited", f"too many requests; try again in {seconds}s", [(b"retry-after", seconds.encode())]

    def _refusal(self, scope: Scope) -> tuple[int, str, str, list[tuple[bytes, bytes]]] | None:
        if scope["method"] not in UNSAFE_METHODS:
            return None
        if cross_origin(scope):
            return 403, "cross_origin", "this server only takes requests from its own pages", []
        path: str = scope.get("path", "")
        if path.startswith("/api/"):
            kind = (_header(scope, b"content-type") or "application/json").split(";")[0].strip().lower()
            if kind != "application/json":
                return 415, "bad_content_type", "send the body as application/json", []
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            return 413, "too_large", f"a request may hold at most {self.max_body} bytes", [(b"connection", b"close")]
        return None


async def _answer(send: Send, status: int, name: str, text: str, extra: list[tuple[bytes, bytes]]) -> None:
    body = json.dumps({"error": name, "message": text}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers + HEADERS + extra})
    await send({"type": "http.response.body", "body": body})


# -- logs --------------------------------------------------------------------------------


def escape(text: str) -> str:
    """``text`` with every control character written as an escape: one log record, one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


class EscapingFilter(logging.Filter):
    """Escapes the control characters a client may have put in a record's text or arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = escape(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(escape(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: escape(v) if isinstance(v, str) else v for k, v in record.args.items()}
        return True


LOGGERS = ("canasta.web", "uvicorn", "uvicorn.error", "uvicorn.access")
_FILTER = EscapingFilter()


def escape_logs() -> None:
    """Install :class:`EscapingFilter` on the server's loggers (again is harmless)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)


# -- seats' links ------------------------------------------------------------------------


def token_hash(token: str) -> str:
    """What storage keeps of a seat's secret token (the link's fragment): its SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()
