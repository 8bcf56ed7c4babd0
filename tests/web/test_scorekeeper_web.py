"""The scorekeeper page and the sheets in the web application (canasta.web.scorekeeper).

The API is driven with FastAPI's TestClient on a small app of its own (the router plus the static
files), and the page in a real browser (Debian's Chromium through Playwright): hands entered by
typing and clicking, a correction, a reload that finds the game still there, undo and the winner.
Every number the page shows is checked against :class:`canasta.scorekeeper.model.ScoreGame`.
"""

from __future__ import annotations

import io
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.testclient import TestClient

from canasta.rules import Rules
from canasta.scorekeeper.model import Itemised, ScoreGame
from canasta.web.scorekeeper import STATIC, router

from .browser_helpers import CHROMIUM, CHROMIUM_ARGS

EXAMPLE = {"natural": 1, "mixed": 1, "red_threes": 2, "out": "out", "melded": 250, "in_hand": 35}


def make_app() -> FastAPI:
    """The router on an app of its own, with the static files the page loads."""
    app = FastAPI()
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(make_app()) as c:
        yield c


def game_json(hands: list[list[Any]], rules: object = "classic", names: list[str] | None = None) -> dict[str, Any]:
    return {"format": "canasta-score", "version": 1, "rules": rules, "names": names or ["Us", "Them"],
            "hands": hands}


# -- the API ------------------------------------------------------------------------------------


def test_page_and_setup(client: TestClient) -> None:
    page = client.get("/score")
    assert page.status_code == 200 and "Scorekeeper" in page.text and "/static/score.js" in page.text
    assert "http://" not in page.text and "https://" not in page.text  # no external URL
    for name in ("score.js", "score.css"):
        asset = client.get(f"/static/{name}")
        assert asset.status_code == 200 and "http://" not in asset.text and "https://" not in asset.text
    setup = client.get("/api/score/setup").json()
    assert setup["targets"] == [5000, 7500, 10000] and setup["sides"] == [2, 3]
    assert {"name": "three-player", "sides": 3, "players": 3, "target": 7500, "wild_card_melds": False} \
        in setup["presets"]


def test_sheet_of_a_game_uses_the_engines_arithmetic(client: TestClient) -> None:
    answer = client.post("/api/score", json=game_json([[EXAMPLE, {"total": -200}], [{"total": 3000}, 100]]))
    assert answer.status_code == 200
    sheet = answer.json()["sheet"]
    assert sheet["rows"][0][0]["total"] == 1315 and sheet["rows"][0][0]["bonuses"] == 1100
    assert sheet["totals"] == [4315, -100] and sheet["minimums"] == [120, 15]
    assert sheet["winner"] is None and sheet["status"] == "game to 5,000"
    assert sheet["hands"][1] == [{"total": 3000}, {"total": 100}]  # normalised, ready to store


@pytest.mark.parametrize("body, message", [
    (game_json([[EXAMPLE, EXAMPLE]]), "hand 1: only one side can go out in a hand"),
    (game_json([[13, 0]]), "hand 1: side 1: a hand total is a multiple of 5, not 13"),
    (game_json([], rules={"preset": "classic", "target": 0}), "rules: option target must be positive"),
    (game_json([], names=["a", "b", "c", "d"]), "2 or 3 sides, not 4"),
    ([], "not a scorekeeper game"),
])
def test_bad_games_are_400_with_one_line(client: TestClient, body: object, message: str) -> None:
    answer = client.post("/api/score", json=body)
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad_score" and message in answer.json()["message"]
    assert "\n" not in answer.json()["message"]
    answer = client.post("/api/score", content=b"{nope")
    assert answer.status_code == 400 and answer.json()["message"] == "the request is not JSON"


def test_entry_preview(client: TestClient) -> None:
    answer = client.post("/api/score/entry", json={"rules": "classic", "entry": EXAMPLE})
    assert answer.json() == {"total": 1315, "bonuses": 1100, "cards": 215}
    answer = client.post("/api/score/entry", json={"rules": "two-player", "entry": {**EXAMPLE, "mixed": 0}})
    assert answer.status_code == 400 and "going out needs 2 canastas" in answer.json()["message"]
    answer = client.post("/api/score/entry", json={"rules": "classic", "entry": {"red_threes": 2}})
    assert answer.json() == {"total": -200, "bonuses": -200, "cards": 0}


def pdf_pages(data: bytes) -> tuple[int, tuple[float, float], str]:
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(io.BytesIO(data))
    box = reader.pages[0].mediabox
    return len(reader.pages), (round(float(box.width), 2), round(float(box.height), 2)), \
        " ".join(reader.pages[0].extract_text().split())


def test_sheets_as_pdf(client: TestClient) -> None:
    pytest.importorskip("fpdf", reason="the sheets need fpdf2: pip install 'canasta[sheets]'")
    answer = client.get("/sheets/classic/rules.pdf")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/pdf"
    assert pdf_pages(answer.content)[:2] == (1, (612.0, 792.0))
    answer = client.get("/sheets/two-player/scoresheet.pdf?paper=a4&set=target=7500")
    pages, size, text = pdf_pages(answer.content)
    assert (pages, size) == (1, (595.28, 841.89)) and "game to 7,500" in text
    answer = client.get("/sheets/classic/scoresheet.pdf?sides=3&target=6000")
    pages, size, text = pdf_pages(answer.content)
    assert "Side 3" in text and "game to 6,000" in text
    _, _, text = pdf_pages(client.get("/sheets/classic/rules.pdf?draw=2&concealed_bonus=false").content)
    assert "draw 2, discard 1" in text and "Concealed or not, going out scores 100" in text


@pytest.mark.parametrize("url, status, message", [
    ("/sheets/bridge/rules.pdf", 400, "unknown preset 'bridge'"),
    ("/sheets/classic/rules.pdf?set=colour=blue", 400, "unknown rules option 'colour'"),
    ("/sheets/classic/rules.pdf?colour=blue", 400, "unknown parameter 'colour'"),
    ("/sheets/classic/rules.pdf?target=0", 400, "option target must be positive"),
    ("/sheets/classic/rules.pdf?paper=legal", 400, "paper must be letter or a4"),
    ("/sheets/classic/scoresheet.pdf?sides=4", 400, "sides must be 2 or 3"),
    ("/sheets/classic/rules.txt", 404, "no such sheet"),
])
def test_bad_sheet_requests(client: TestClient, url: str, status: int, message: str) -> None:
    answer = client.get(url)
    assert answer.status_code == status
    assert message in answer.text and "\n" not in answer.text.strip()


# -- the page in a browser ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app served by uvicorn in a thread; yields its base URL."""
    uvicorn = pytest.importorskip("uvicorn")
    port = free_port()
    config = uvicorn.Config(make_app(), host="127.0.0.1", port=port, log_level="warning", lifespan="off")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the scorekeeper test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def page(server: str) -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the browser test needs Playwright for Python: pip install playwright")
    if not CHROMIUM.exists():
        pytest.skip(f"the browser test needs Chromium at {CHROMIUM}: scripts/ensure-debian-package.sh chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        context = browser.new_context()
        pg = context.new_page()
        pg.set_default_timeout(15_000)
        errors: list[str] = []
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        # a refused hand is a 400 answer, which Chromium logs; anything else logged as an error counts
        pg.on("console", lambda msg: errors.append(msg.text)
              if msg.type == "error" and "status of 400" not in msg.text else None)
        pg.errors = errors
        yield pg
        context.close()
        browser.close()


def open_score(page: Any, server: str) -> None:
    page.goto(f"{server}/score")
    page.wait_for_selector("body[data-ready=true]")


def page_game(page: Any) -> ScoreGame:
    """The game the page keeps in localStorage, read by the Python scorekeeper."""
    stored = json.loads(page.evaluate("localStorage.getItem('canasta-scorekeeper-v1')"))
    return ScoreGame.from_json(stored["game"])


def shown(page: Any) -> tuple[list[int], list[int], list[list[int]]]:
    """Totals, next minimums and each hand's running totals as the page shows them."""
    sides = page.locator("#sheet tfoot .sk-totals td").count()
    totals = [int(page.get_attribute(f"#total-of-{i}", "data-total")) for i in range(sides)]
    minimums = [int(page.inner_text(f"#minimum-of-{i}")) for i in range(sides)]
    rows = page.locator("#sheet tbody tr")
    script = "els => els.map(e => e.dataset.running)"
    running = [[int(v) for v in rows.nth(r).locator("td.sk-total").evaluate_all(script)] for r in range(rows.count())]
    return totals, minimums, running


def agrees_with_python(page: Any) -> ScoreGame:
    """The page's numbers are the Python scorekeeper's for the same hands."""
    game = page_game(page)
    totals, minimums, running = shown(page)
    assert totals == list(game.totals())
    assert minimums == list(game.minimums())
    assert running == [[cell.running for cell in row] for row in game.rows()]
    return game


def add_hand(page: Any, hands_after: int) -> None:
    page.click("#add-hand")
    page.wait_for_selector(f"body[data-hands='{hands_after}']")


def test_browser_scorekeeper_survives_a_reload(page: Any, server: str) -> None:
    open_score(page, server)
    page.evaluate("localStorage.clear()")
    open_score(page, server)
    assert page.is_visible("#setup")
    page.select_option("#preset", "classic")
    page.select_option("#sides", "2")
    page.select_option("#target", "5000")
    page.fill("#name-0", "Us")
    page.fill("#name-1", "Them")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    assert page.inner_text("#hand-title") == "Hand 1"

    # hand 1: seed 000's worked example, itemised, and -200 as a total
    page.check("input[name=mode-0][value=items]")
    page.fill("#item-0-natural", "1")
    page.fill("#item-0-mixed", "1")
    page.fill("#item-0-red_threes", "2")
    page.select_option("#item-0-out", "out")
    page.fill("#item-0-melded", "250")
    page.fill("#item-0-in_hand", "35")
    page.wait_for_function("document.querySelector('#preview-0').dataset.total === '1315'")
    assert page.inner_text("#preview-0") == "1,100 bonuses + 215 cards = 1,315"
    page.fill("#total-1", "-200")
    add_hand(page, 1)
    game = agrees_with_python(page)
    assert game.hands[0][0] == Itemised(**EXAMPLE)
    assert shown(page)[:2] == ([1315, -200], [50, 15])
    assert "1,100 + 215" in page.inner_text("#sheet tbody")

    # hand 2 as totals, then a correction of hand 1
    page.fill("#total-0", "3000")
    page.fill("#total-1", "100")
    add_hand(page, 2)
    page.click("[data-edit='1']")
    assert page.inner_text("#hand-title") == "Correct hand 1"
    assert page.input_value("#total-1") == "-200" and page.input_value("#item-0-melded") == "250"
    page.fill("#total-1", "-300")
    page.click("#add-hand")
    page.wait_for_function("document.querySelector('#total-of-1').dataset.total === '-200'")
    agrees_with_python(page)
    assert shown(page)[0] == [4315, -200]

    # a hand the rules refuse is not added, and says why
    page.fill("#total-0", "12")
    page.fill("#total-1", "0")
    page.click("#add-hand")
    page.wait_for_function("document.querySelector('#score-error').textContent.includes('multiple of 5')")
    assert page.get_attribute("body", "data-hands") == "2"

    # reload: the game is still there, and so is undo
    page.reload()
    page.wait_for_selector("body[data-ready=true][data-hands='2']")
    assert shown(page) == ([4315, -200], [120, 15], [[1315, -300], [4315, -200]])
    assert page.inner_text("th.sk-side-name[data-side='0']") == "Us"
    page.click("#undo")
    page.wait_for_function("document.querySelector('#total-of-1').dataset.total === '-100'")
    agrees_with_python(page)

    # the winner at the target, kept through a reload
    page.fill("#total-0", "1000")
    page.fill("#total-1", "0")
    add_hand(page, 3)
    assert page.is_visible("#winner")
    assert page.inner_text("#winner") == "Us wins with 5,315 (game to 5,000)!"
    assert page.is_disabled("#add-hand")
    page.reload()
    page.wait_for_selector("body[data-ready=true][data-hands='3']")
    assert page.is_visible("#winner") and page.get_attribute("body", "data-over") == "true"
    agrees_with_python(page)
    assert page.errors == []


def test_browser_three_sides_any_target_and_sheet_links(page: Any, server: str) -> None:
    open_score(page, server)
    page.evaluate("localStorage.clear()")
    open_score(page, server)
    page.select_option("#preset", "classic")
    page.select_option("#sides", "3")
    page.select_option("#target", "custom")
    page.fill("#target-custom", "6000")
    page.click("#start")
    page.wait_for_selector("#game:not([hidden])")
    assert page.locator("th.sk-side-name").count() == 3
    page.fill("#total-0", "-500")
    page.fill("#total-1", "6000")
    page.fill("#total-2", "6000")
    add_hand(page, 1)
    assert not page.is_visible("#winner")  # tied at the top: another hand
    assert "tied at 6,000: play another hand" in page.inner_text("#game-status")
    game = agrees_with_python(page)
    assert game.rules == Rules.from_preset("classic", target=6000)
    assert shown(page)[1] == [15, 120, 120]
    href = page.get_attribute("#score-pdf", "href")
    assert href == "/sheets/classic/scoresheet.pdf?target=6000&sides=3"
    answer = page.request.get(server + href)
    assert (answer.status == 200 and answer.headers["content-type"] == "application/pdf") or answer.status == 503
    page.reload()
    page.wait_for_selector("body[data-ready=true][data-hands='1']")
    assert shown(page)[0] == [-500, 6000, 6000]
    assert page.errors == []
