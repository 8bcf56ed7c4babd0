"""A duplicate tournament in the browser (issue 31): four people at two tables, made on the server's database by
``canasta tournament create``, are dealt the same cards at the same seats of both tables; the tournament page
shows a table's results to its people once their table has played the boards, and to nobody else before
every table has; people who leave their seats to the computer are marked, and their tables play on."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import (
    CHROMIUM,
    WAIT_MS,
    Server,
    browser_contexts,
    hand_codes,
    headless_chromium,
    open_page,
    start_server,
    token_of,
)

try:
    import playwright.sync_api  # noqa: F401  (the module is skipped without it)
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("the browser tests need Playwright for Python: pip install playwright", allow_module_level=True)
if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
for _module in ("fastapi", "uvicorn", "websockets"):
    if importlib.util.find_spec(_module) is None:  # pragma: no cover - depends on the machine
        pytest.skip(f"the browser tests need {_module}: pip install 'canasta[web,test]'", allow_module_level=True)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = start_server(tmp_path)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def new_context() -> Iterator[Callable[..., Any]]:
    with headless_chromium() as chromium, browser_contexts(chromium, speed="fast") as make:
        yield make


def standings_rows(page: Any) -> int:
    return int(page.locator("#standings tbody tr").count())


def test_people_at_two_tables_play_the_same_boards(server: Server, new_context: Callable[..., Any]) -> None:
    db = server.log.parent / "web.sqlite3"
    made = subprocess.run([sys.executable, "-m", "canasta.cli", "tournament", "create", "--db", str(db), "--tables",
                           "2", "--boards", "2", "--minimum", "50,90", "--away-minutes", "0", "--json",
                           "--seats", "human:Ann,expert,human:Cy,expert",
                           "--seats", "human:Ed,expert,human:Gus,expert"],
                          capture_output=True, text=True, check=True)
    created = json.loads(made.stdout)
    links = [[seat["link"] for seat in table["seats"] if seat["link"]] for table in created["tables"]]
    (ann, cy), (ed, gus) = [[open_page(new_context(), server.base, link) for link in table] for table in links]
    # Board 1 at both tables: the same cards at the same seats, one person's hand never another's.
    assert hand_codes(ann) == hand_codes(ed) and hand_codes(cy) == hand_codes(gus) and hand_codes(ann)
    assert hand_codes(ann) != hand_codes(cy)
    page = f"/tournament/{created['tournament']}"
    anyone = new_context().new_page()
    anyone.goto(server.base + page)
    anyone.wait_for_function("document.getElementById('standings-note').textContent.includes('No board')",
                             timeout=WAIT_MS)
    for person in (ann, cy):  # table 1's people leave their seats: the computer plays both boards for them
        person.click("#btn-seat")
    mine = new_context().new_page()
    mine.goto(server.base + page + "#" + token_of(links[0][0]))
    mine.wait_for_function("document.getElementById('standings-note').textContent.includes('first 2 board')",
                           timeout=120_000)
    assert standings_rows(mine) == 4 and "you are at table 1" in mine.inner_text("#summary")
    assert "(computer)" in mine.inner_text("#tables")
    theirs = new_context().new_page()  # table 2 has not played board 1: nothing of it for Ed
    theirs.goto(server.base + page + "#" + token_of(links[1][0]))
    theirs.wait_for_function("document.getElementById('summary').textContent.includes('table 2')", timeout=WAIT_MS)
    assert standings_rows(theirs) == 0 and standings_rows(anyone) == 0
    assert "No board" in theirs.inner_text("#standings-note")
    for person in (ed, gus):
        person.click("#btn-seat")
    anyone.wait_for_function("document.getElementById('summary').textContent.includes('final results')",
                             timeout=120_000)
    assert standings_rows(anyone) == 4 and anyone.locator("#boards table").count() == 2
    assert anyone.locator(".board-replays a").count() == 4  # each board as each table played it
