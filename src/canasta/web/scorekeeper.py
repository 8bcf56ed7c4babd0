"""The scorekeeper page and the printable sheets, as a FastAPI router (``app.include_router(router)``).

``GET /score`` is a page of its own for a game played with real cards: it keeps the game
in the browser (localStorage) and asks ``POST /api/score`` for every number it shows, so
the arithmetic is :mod:`canasta.scorekeeper.model`'s, that is the engine's.  The server keeps
nothing.  ``GET /sheets/{preset}/rules.pdf`` and ``.../scoresheet.pdf`` serve the
one-page PDFs of :mod:`canasta.sheets` (``?paper=a4``, ``?set=OPTION=VALUE`` or
``?OPTION=VALUE``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response

from ..errors import CanastaError
from ..rules import OPTION_NAMES, PRESETS, Rules, rules_from_settings
from ..scorekeeper.model import ITEM_LABELS, OUT_CHOICES, SIDES, ScoreError, ScoreGame, entry_from_json, entry_score
from ..scorekeeper.model import entry_total as _entry_total
from .limits import BodyTooLarge, Limits, RateLimiter, client_key, read_body, retry_after
from .paths import STATIC
from .pool import run_cpu
from .requests import RequestError

MAX_BODY = 256 * 1024
TARGETS = (5000, 7500, 10000)
SHEETS = ("rules.pdf", "scoresheet.pdf")

router = APIRouter()


def _error(status: int, name: str, message: str) -> JSONResponse:
    return JSONResponse({"error": name, "message": message}, status_code=status)


def _limits(request: Request) -> Limits:
    limits: Limits = getattr(request.app.state, "limits", None) or Limits()
    return limits


def _rate_limited(request: Request, name: str, what: str) -> Response | None:
    """429 with Retry-After when the client asks too often (the app's ``name`` limiter)."""
    limiter: RateLimiter | None = getattr(request.app.state, name, None)
    key = client_key(request)
    wait = limiter.take(key) if limiter is not None and key not in _limits(request).trusted else 0.0
    if not wait:
        return None
    return JSONResponse({"error": "rate_limited", "message": f"too many {what}; try again later"},
                        status_code=429, headers={"Retry-After": retry_after(wait)})


async def _json_body(request: Request) -> Any:
    limit = min(MAX_BODY, _limits(request).score_body)
    try:
        body = await read_body(request, limit)
    except BodyTooLarge:
        raise ScoreError(f"a request may hold at most {limit // 1024} KiB") from None
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise ScoreError("the request is not JSON") from None


def _sheet(data: Any, hands: int) -> dict[str, Any]:
    """The score sheet of a game (in the pool: its work grows with the square of the hands)."""
    if isinstance(data, dict) and isinstance(data.get("hands"), list) and len(data["hands"]) > hands:
        raise ScoreError(f"a game may hold at most {hands} hands")
    return ScoreGame.from_json(data).sheet()


@router.get("/score", include_in_schema=False)
async def score_page() -> FileResponse:
    """The scorekeeper page."""
    return FileResponse(STATIC / "score.html")


@router.get("/api/score/setup")
async def score_setup() -> dict[str, Any]:
    """What the page offers: presets (with their sides and target), targets, sides and items."""
    return {
        "presets": [{"name": name, "sides": r.sides, "players": r.players, "target": r.target,
                     "wild_card_melds": r.wild_card_melds} for name, r in PRESETS.items()],
        "targets": list(TARGETS),
        "sides": list(SIDES),
        "items": ITEM_LABELS,
        "out": list(OUT_CHOICES),
    }


@router.post("/api/score")
async def score_sheet(request: Request) -> Response:
    """The whole sheet of a game (the file format of ``canasta score``), or 400 naming what is wrong."""
    if (refused := _rate_limited(request, "score_rate", "score sheets")) is not None:
        return refused
    try:
        data = await _json_body(request)
        sheet = await run_cpu(f"client:{client_key(request)}", _sheet, data, _limits(request).score_hands)
    except (ScoreError, CanastaError, TypeError) as exc:
        return _error(400, "bad_score", str(exc))
    return JSONResponse({"sheet": sheet})


@router.post("/api/score/entry")
async def score_entry(request: Request) -> Response:
    """One side's entry added up: ``{"rules": ..., "entry": {...}}`` -> total, bonuses and cards."""
    if (refused := _rate_limited(request, "score_rate", "score requests")) is not None:
        return refused
    try:
        data = await _json_body(request)
        if not isinstance(data, dict):
            raise ScoreError("send {\"rules\": ..., \"entry\": ...}")
        rules = Rules.parse(data.get("rules", "classic"))
        entry = entry_from_json(data.get("entry"))
        total = _entry_total(rules, entry)
        score = entry_score(rules, entry)
    except (ScoreError, CanastaError, TypeError) as exc:
        return _error(400, "bad_entry", str(exc))
    return JSONResponse({"total": total, "bonuses": None if score is None else score.bonuses,
                         "cards": None if score is None else score.cards})


def sheet_rules(preset: str, query: list[tuple[str, str]]) -> tuple[Rules, str, int | None]:
    """Rules, paper and sides from a sheet's URL; a :class:`~.requests.RequestError` (or the rules' own
    :class:`~canasta.errors.RulesError`) naming the first problem."""
    paper, sides, settings = "letter", None, []
    for key, value in query:
        if key == "paper":
            paper = value
        elif key == "sides":
            if value not in ("2", "3"):
                raise RequestError(f"sides must be 2 or 3, not {value!r}")
            sides = int(value)
        elif key == "set":
            name, eq, _ = value.partition("=")
            if eq and name.strip() not in OPTION_NAMES:  # preset=... too: named, never a TypeError
                raise RequestError(f"unknown rules option {name.strip()[:40]!r} "
                                 f"(known options: {', '.join(sorted(OPTION_NAMES))})")
            settings.append(value)
        elif key in OPTION_NAMES:
            settings.append(f"{key}={value}")
        else:
            raise RequestError(f"unknown parameter {key[:40]!r} "
                             f"(paper, sides, set, or an option: {', '.join(OPTION_NAMES)})")
    if paper not in ("letter", "a4"):
        raise RequestError(f"paper must be letter or a4, not {paper!r}")
    if preset not in PRESETS:
        raise RequestError(f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})")
    return rules_from_settings(preset, settings), paper, sides


@lru_cache(maxsize=64)
def _pdf(kind: str, rules: Rules, paper: str, sides: int | None) -> bytes:
    from ..sheets import rule_sheet, score_sheet

    return rule_sheet(rules, paper) if kind == "rules.pdf" else score_sheet(rules, paper, sides)


@router.get("/sheets/{preset}/{kind}", include_in_schema=False)
async def sheet_pdf(preset: str, kind: str, request: Request) -> Response:
    """A one-page PDF: the rule sheet or the score sheet of a preset with options."""
    from ..sheets import SheetsUnavailable

    if kind not in SHEETS:
        return PlainTextResponse(f"no such sheet {kind[:40]!r}: {' or '.join(SHEETS)}", status_code=404)
    if (refused := _rate_limited(request, "pdf_rate", "PDFs")) is not None:
        return refused
    try:
        rules, paper, sides = sheet_rules(preset, list(request.query_params.multi_items()))
    except CanastaError as exc:
        return PlainTextResponse(str(exc).splitlines()[0] if str(exc) else "bad request", status_code=400)
    try:
        # off the event loop, one at a time per client, in the server's bounded pool: games go on
        data = await run_cpu(f"client:{client_key(request)}", _pdf, kind, rules, paper, sides)
    except SheetsUnavailable as exc:
        return PlainTextResponse(str(exc), status_code=503)
    except ValueError as exc:  # canasta.sheets' refusal: rules whose sheet does not fit on one page
        return PlainTextResponse(str(exc).splitlines()[0] if str(exc) else "bad request", status_code=400)
    name = f"canasta-{preset}-{kind}"
    return Response(data, media_type="application/pdf", headers={"Content-Disposition": f'inline; filename="{name}"'})
