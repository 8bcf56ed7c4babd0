"""The scorekeeper page and the printable sheets, as a FastAPI router (``app.include_router(router)``).

``GET /score`` is a page of its own for a game played with real cards: it keeps the game
in the browser (localStorage) and asks ``POST /api/score`` for every number it shows, so
the arithmetic is :mod:`canasta.scorekeeper.model`'s, that is the engine's.  The server keeps
nothing.  ``GET /sheets/{preset}/rules.pdf`` and ``.../scoresheet.pdf`` serve the
one-page PDFs of :mod:`canasta.sheets` (``?paper=a4``, ``?set=OPTION=VALUE`` or
``?OPTION=VALUE``).
"""

from __future__ import annotations

import asyncio
import json
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response

from ..errors import CanastaError
from ..rules import OPTION_NAMES, PRESETS, Rules, rules_from_settings
from ..scorekeeper.model import ITEM_LABELS, OUT_CHOICES, SIDES, ScoreError, ScoreGame, entry_from_json, entry_score
from ..scorekeeper.model import entry_total as _entry_total

STATIC = Path(str(files("canasta.web") / "static"))
MAX_BODY = 256 * 1024
TARGETS = (5000, 7500, 10000)
SHEETS = ("rules.pdf", "scoresheet.pdf")

router = APIRouter()


def _error(status: int, name: str, message: str) -> JSONResponse:
    return JSONResponse({"error": name, "message": message}, status_code=status)


async def _json_body(request: Request) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ScoreError(f"a request may hold at most {MAX_BODY // 1024} KiB")
    try:
        return json.loads(body)
    except ValueError:
        raise ScoreError("the request is not JSON") from None


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
    try:
        game = ScoreGame.from_json(await _json_body(request))
    except (ScoreError, CanastaError) as exc:
        return _error(400, "bad_score", str(exc))
    return JSONResponse({"sheet": game.sheet()})


@router.post("/api/score/entry")
async def score_entry(request: Request) -> Response:
    """One side's entry added up: ``{"rules": ..., "entry": {...}}`` -> total, bonuses and cards."""
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
    """Rules, paper and sides from a sheet's URL; :class:`CanastaError` or ValueError naming the first problem."""
    paper, sides, settings = "letter", None, []
    for key, value in query:
        if key == "paper":
            paper = value
        elif key == "sides":
            if value not in ("2", "3"):
                raise ValueError(f"sides must be 2 or 3, not {value!r}")
            sides = int(value)
        elif key == "set":
            settings.append(value)
        elif key in OPTION_NAMES:
            settings.append(f"{key}={value}")
        else:
            raise ValueError(f"unknown parameter {key!r} (paper, sides, set, or an option: {', '.join(OPTION_NAMES)})")
    if paper not in ("letter", "a4"):
        raise ValueError(f"paper must be letter or a4, not {paper!r}")
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})")
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
        return PlainTextResponse(f"no such sheet {kind!r}: {' or '.join(SHEETS)}", status_code=404)
    try:
        rules, paper, sides = sheet_rules(preset, list(request.query_params.multi_items()))
        data = await asyncio.to_thread(_pdf, kind, rules, paper, sides)  # off the event loop: games go on
    except SheetsUnavailable as exc:
        return PlainTextResponse(str(exc), status_code=503)
    except (CanastaError, ValueError) as exc:
        return PlainTextResponse(str(exc).splitlines()[0] if str(exc) else "bad request", status_code=400)
    name = f"canasta-{preset}-{kind}"
    return Response(data, media_type="application/pdf", headers={"Content-Disposition": f'inline; filename="{name}"'})
