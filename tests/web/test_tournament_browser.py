"""A duplicate tournament in the browser (issue 31): four people at two tables, made on the server's database by
``canasta tournament create``, are dealt the same cards at the same seats of both tables; the tournament page
shows a table's results to its people once their table has played the boards, and to nobody else before
every table has; people who leave their seats to the computer are marked, and their tables play on."""

from __future__ import annotations

import importlib.util
import json
import os
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


SHOT_SIZES = [(360, 740), (1920, 1080)]


def shoot(page: Any, name: str, full_page: bool = True, fits: bool = True) -> list[str]:
    """Screenshots at a phone's and a desktop's size (into ``CANASTA_TOURNAMENT_SHOTS`` when set); what does not
    fit (the room page's own check; ``fits`` False for the table's pages, which fit themselves)."""
    from .browser_helpers import ROOM_FITS as FITS

    problems: list[str] = []
    folder = os.environ.get("CANASTA_TOURNAMENT_SHOTS")
    for width, height in SHOT_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        if fits:
            problems += [f"{name} {width}x{height}: {p}" for p in page.evaluate(FITS)]
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / f"{name}-{width}x{height}.png"), full_page=full_page)
    return problems


def test_an_organiser_makes_a_tournament_in_the_form_and_people_play_it(
        server: Server, new_context: Callable[..., Any]) -> None:
    pytest.importorskip("argon2", reason="accounts need the web extra: pip install 'canasta[web]'")
    organiser = new_context(bypass_csp=False).new_page()  # the pages run under the strict policy
    organiser.goto(server.base + "/tournament/new")
    organiser.locator("#signin-needed").wait_for(state="visible")  # not signed in yet: said at once
    organiser.goto(server.base + "/account")
    organiser.fill("#signup-name", "Organiser")
    organiser.fill("#signup-password", "a long password")
    organiser.click("#signup-form button[type=submit]")
    organiser.locator("#signed-in").wait_for(state="visible")
    organiser.goto(server.base + "/tournament/new")
    organiser.locator("#t-preset option").nth(3).wait_for(state="attached")  # (no string to evaluate: the policy)
    assert organiser.locator("#signin-needed").is_hidden()
    organiser.fill("#t-name", "Club night")
    organiser.fill("#t-boards", "3")
    organiser.fill("#t-rounds", "2")
    organiser.click("#t-create")  # checked here first, in one line
    assert organiser.inner_text("#t-error") == "3 boards do not split into 2 rounds of equal size"
    organiser.fill("#t-boards", "2")
    organiser.fill("#t-minimums", "50, 90")
    organiser.check("input[name=visibility][value=public]")
    organiser.fill("#t-tables", "3")
    assert organiser.locator("#t-table-rows select").count() == 12
    for table, seat in ((1, 1), (1, 3), (2, 1), (2, 2), (2, 3)):  # table 2: two people; table 3: an open seat
        organiser.select_option(f"#t-seat-{table}-{seat}", "expert")
    organiser.select_option("#t-seat-2-0", "open")
    problems = shoot(organiser, "organiser-form")
    organiser.click("#t-create")
    organiser.locator("#t-created").wait_for(state="visible")
    links = organiser.locator("#t-invites .link-text").all_inner_texts()
    assert len(links) == 3 and all("/t/" in link and "#" in link for link in links)
    problems += shoot(organiser, "organiser-created")
    page_link = organiser.get_attribute("#t-page", "href")
    assert page_link and page_link.startswith("/tournament/")
    room = new_context().new_page()  # public: the room lists it
    room.goto(server.base + "/room")
    room.locator("#room-tournaments a", has_text="Club night").wait_for()
    ann, bob = (new_context().new_page() for _ in links[:2])
    for person, link in ((ann, links[0]), (bob, links[1])):
        person.goto(link)
        person.locator("#tournament-banner").wait_for()
    banner = ann.inner_text("#tournament-banner")
    assert "Club night" in banner and "board 1 of 2, round 1 of 2" in banner
    problems += shoot(ann, "game-banner", full_page=False, fits=False)
    live = new_context().new_page()
    live.goto(server.base + page_link + "#" + token_of(links[0]))
    live.wait_for_function("document.getElementById('summary').textContent.includes('you are at table 2')")
    assert live.inner_text("#title") == "Club night"
    for person in (ann, bob):  # they leave their seats to the computer: table 2 plays both boards
        person.click("#btn-seat")
    ann.wait_for_function("document.getElementById('tournament-banner').dataset.done === 'true'", timeout=120_000)
    assert "results" in ann.inner_text("#tournament-banner")
    problems += shoot(ann, "game-banner-done", full_page=False, fits=False)
    # Table 3 waits for its person: table 2 sees its own two boards, everybody else nothing yet.
    live.wait_for_function("document.getElementById('standings-note').textContent.includes('first 2 board')",
                           timeout=120_000)
    assert "in play" in live.inner_text("#summary") and live.locator("#standings tbody tr").count() == 6
    assert "Player 1" in live.inner_text("#standings") and "1 (round 1)" in live.inner_text("#tables")
    problems += shoot(live, "standings-live")
    room.goto(server.base + page_link)  # a public tournament's open seat: anybody signed in may take it
    room.locator("#open-seats button").click()
    room.locator("#open-seat-status", has_text="Sign in first").wait_for()
    organiser.goto(server.base + page_link)
    organiser.locator("#open-seats button", has_text="Table 3, seat 1").click()
    organiser.locator("#tournament-banner").wait_for()  # at the seat, whose link was made afresh
    assert "/t/" in organiser.url and token_of(organiser.url) != token_of(links[2])
    organiser.click("#btn-seat")
    live.wait_for_function("document.getElementById('summary').textContent.includes('final results')",
                           timeout=120_000)
    problems += shoot(live, "standings-final")
    assert live.locator(".board-replays a").count() == 6
    live.click(".board-replays a >> nth=0")
    live.wait_for_url("**/table/1/board/1")
    live.locator("#review-bar").wait_for(state="visible")
    problems += shoot(live, "board-replay", full_page=False, fits=False)
    assert not problems, "\n".join(problems)
