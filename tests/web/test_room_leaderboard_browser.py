"""The leaderboard page and the ratings at a table, in a browser (issue 30): ranked players with the computer levels
among them, provisional players apart, a family picker; a signed-in player's rating beside their name at the table
and a level's fixed one; axe-core finds nothing serious, and the pages fit a phone and a laptop."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import (
    ROOM_FITS,
    Server,
    browser_contexts,
    check_sizes,
    running_server,
    sign_up,
    skip_without_browser,
)

skip_without_browser(accounts=True)

SHOTS = Path(os.environ.get("CANASTA_ROOM_SHOTS", "/tmp/room-shots2"))
TABLES_FIT = """() => [...document.querySelectorAll("table")].filter((table) => {
  const panel = table.closest(".panel").getBoundingClientRect(), box = table.getBoundingClientRect();
  return box.right > panel.right + 1 || box.left < panel.left - 1;
}).map((table) => `${table.id} overflows its panel`)"""


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("room-board")


@pytest.fixture(scope="module")
def server(workdir: Path) -> Iterator[Server]:
    with running_server(workdir, seed=30) as running:  # the same deal every run
        yield running


def check(page: Any, axe: Path, moment: str, shot: str, fits: bool = True) -> None:
    """At a phone's and a laptop's size the page passes axe-core and is photographed (whole with ``fits``); with
    ``fits`` it also fits the screen, its tables inside their panels.  The table page fits itself to a new size."""
    check_sizes(page, axe, moment, fits=(ROOM_FITS, TABLES_FIT) if fits else (), settle_ms=150,
                shots=SHOTS, shot=shot, full_page=fits)


def rate(db: Path, name: str, family: str, mu: float, sigma: float, matches: int) -> None:
    with sqlite3.connect(db) as connection:
        account_id = connection.execute("SELECT id FROM accounts WHERE name = ?", (name,)).fetchone()[0]
        connection.execute("INSERT INTO ratings (account_id, family, mu, sigma, matches, updated) "
                           "VALUES (?, ?, ?, ?, ?, 0)", (account_id, family, mu, sigma, matches))


def test_the_leaderboard_and_a_rating_beside_a_name_at_the_table(server: Server, browser: Any, workdir: Path,
                                                                  axe_script: Path) -> None:
    with browser_contexts(browser) as new_context:
        ann, newbie = new_context().new_page(), new_context().new_page()
        sign_up(ann, server.base, "Annabel_Longname")
        sign_up(newbie, server.base, "Newbie")
        rate(workdir / "web.sqlite3", "Annabel_Longname", "four", 31.26, 2.0, 12)
        rate(workdir / "web.sqlite3", "Newbie", "four", 26.0, 7.5, 1)
        ann.goto(server.base + "/room")
        ann.click("a[href='/room/leaderboard']")
        ann.locator("#board-rows tr").nth(4).wait_for()
        rows = [r.split("\t") for r in ann.locator("#board-rows tr").all_inner_texts()]
        names = [r[1].split("\n")[0].split(" · ")[0].strip() for r in rows]
        assert names == ["Master", "Annabel_Longname", "Expert", "Club", "Beginner"], rows
        assert rows[1][0].strip() == "1" and rows[1][2].strip() == "31.3" and rows[1][3].strip() == "12"
        assert "above Expert" in rows[1][1] or "between Expert and Master" in rows[1][1]
        assert rows[2][0].strip() == "" and "computer level" in rows[2][1] and rows[2][2].strip() == "30.0"
        unsure = ann.locator("#provisional-rows").inner_text()
        assert "Newbie" in unsure and "26.0?" in unsure and "Annabel" not in unsure
        check(ann, axe_script, "the leaderboard", "leaderboard")
        ann.select_option("#family", "two")
        ann.wait_for_function("document.body.dataset.family === 'two'")
        assert "two-player" in ann.locator("#board-caption").inner_text() and "family=two" in ann.url
        assert "No established player yet" in ann.locator("#board-rows").inner_text()
        assert ann.locator("#board-rows tr.board-level").count() == 4
        made = ann.evaluate("""async () => (await fetch('/api/tables', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({preset: 'classic', public: true,
            seats: [{kind: 'human', name: 'North'}, {kind: 'club', name: 'East'}, {kind: 'human', name: 'South'},
                    {kind: 'expert', name: 'West'}]})})).json()""")
        ann.goto(server.base + made["seats"][0]["link"])
        mine = ann.locator("#players li[data-seat='0']")
        mine.locator(".player-rating").wait_for(timeout=15_000)
        assert "Annabel_Longname" in mine.locator(".player-name").inner_text()
        assert mine.locator(".player-rating").inner_text().replace("\n", " ").strip() == "rating 31.3"
        club = ann.locator("#players li[data-seat='1'] .player-rating")
        assert club.get_attribute("data-rating") == "27.4"
        taken = newbie.evaluate("async (path) => (await fetch(path, {method: 'POST', headers: "
                                "{'Content-Type': 'application/json'}, body: '{}'})).json()",
                                f"/api/lobby/{made['table']}/seats/2")
        assert taken["seat"] == 2
        theirs = ann.locator("#players li[data-seat='2']")
        theirs.locator(".player-rating").wait_for(timeout=15_000)  # the taker's name, at once, on Ann's page
        assert theirs.locator(".player-name").inner_text() == "Newbie"
        assert theirs.locator(".player-rating").get_attribute("title") == (
            "Rating 26.0, provisional: few rated matches yet")
        assert "26.0?" in theirs.locator(".player-rating").inner_text()
        check(ann, axe_script, "the table with ratings", "table", fits=False)
