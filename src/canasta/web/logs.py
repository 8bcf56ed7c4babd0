"""Structured logs: one JSON object a line (``canasta serve --log-format json``), with the table and request id.

The ids come from context variables: :class:`RequestIds` gives each HTTP request an id (the client's
``X-Request-ID`` when it is a short plain token, else a new one, sent back in the answer's header), and the
websocket handler names its table (:data:`table_id`).  A message that starts ``table <id>:``, as the
service's do, names its table too.  Messages are the same sentences as in the text format, already escaped
(:func:`~.security.escape_logs`); no card is ever logged (docs/security.md).

>>> import logging
>>> record = logging.LogRecord("canasta.web", logging.WARNING, "", 0, "table %s: a move failed", ("Ab3", ), None)
>>> line = json.loads(JsonFormatter().format(record))
>>> line["level"], line["table"], line["message"]
('warning', 'Ab3', 'table Ab3: a move failed')
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from contextvars import ContextVar
from typing import Any

table_id: ContextVar[str | None] = ContextVar("table_id", default=None)
"""The table the running code serves (a websocket's, once it said hello)."""
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
"""The HTTP request the running code answers."""

_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
_TABLE_IN_MESSAGE = re.compile(r"table ([A-Za-z0-9_-]{1,64})\b")
FORMATS = ("text", "json")


class JsonFormatter(logging.Formatter):
    """A log record as one JSON line: time, level, logger, message, and the table and request ids known."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        line: dict[str, Any] = {"time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                                + f".{int(record.msecs):03d}Z", "level": record.levelname.lower(),
                                "logger": record.name, "message": message}
        table = table_id.get() or getattr(record, "table", None)
        if table is None and record.msg.__class__ is str and record.msg.startswith("table %s"):
            match = _TABLE_IN_MESSAGE.match(message)
            table = match.group(1) if match else None
        if table is not None:
            line["table"] = table
        if (request := request_id.get()) is not None:
            line["request"] = request
        if record.exc_info and record.exc_info[0] is not None:
            line["error"] = record.exc_info[0].__name__  # the kind only: a traceback may hold a card
        return json.dumps(line, ensure_ascii=False)


def log_config(log_format: str, level: str = "info", access: bool = True) -> dict[str, Any]:
    """uvicorn's ``log_config``: its own loggers and canasta's, in the text or the JSON format."""
    if log_format not in FORMATS:
        raise ValueError(f"the log format is text or json, not {log_format!r}")
    formatter: dict[str, Any] = ({"()": f"{__name__}.JsonFormatter"} if log_format == "json"
                                 else {"format": "%(levelname)s: %(name)s: %(message)s"})
    handler = {"class": "logging.StreamHandler", "formatter": "main", "stream": "ext://sys.stderr"}
    level = level.upper()
    return {"version": 1, "disable_existing_loggers": False,
            "formatters": {"main": formatter}, "handlers": {"main": handler},
            "loggers": {"uvicorn": {"handlers": ["main"], "level": level, "propagate": False},
                        "uvicorn.access": {"handlers": ["main"] if access else [], "level": level,
                                           "propagate": False},
                        "canasta": {"handlers": ["main"], "level": level, "propagate": False}}}


class RequestIds:
    """ASGI middleware: each HTTP request's id in :data:`request_id` and in its answer's ``X-Request-ID``."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or ()).get(b"x-request-id", b"").decode("latin-1")
        rid = given if _REQUEST_ID.fullmatch(given) else secrets.token_hex(8)

        async def send_with_id(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), (b"x-request-id", rid.encode())]}
            await send(message)

        token = request_id.set(rid)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            request_id.reset(token)
