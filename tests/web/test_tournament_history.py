"""A tournament table in the room's history (issues 30 and 31): its row names the tournament and the table and
links to the tournament's own pages, never to the history's match replays (which refuse a tournament table's
match); while the tournament runs the row shows nothing of its boards (no score, result, percentage or replay
link), and once it is over the side's matchpoint percentage and the link to the table's boards."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("argon2", reason="accounts need the web extra: pip install 'canasta[web]'")

import httpx
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from canasta.web.app import create_app
from canasta.web.room import accounts
from canasta.web.storage import open_storage
from canasta.web.tournaments import store

from .test_tournament_leaks import check_no_secret, wait_for

BODY: dict[str, Any] = {"name": "Club night", "preset": "classic", "boards": 2, "minimums": [50, 90],
                        "away_minutes": 0, "public": True,
                        "tables": [["human:Bo", "expert", "expert", "expert"], [None, "expert", "expert", "expert"]]}


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "canasta.sqlite3")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0, follow=0, presence=0)) as test_client:
        yield test_client


def sign_up(client: TestClient, name: str) -> None:
    client.cookies = httpx.Cookies()
    client.get("/api/lobby")
    assert client.post("/api/account/signup", json={"name": name, "password": "a long password"}).status_code == 201


def refused_everywhere(client: TestClient, match_id: str) -> None:
    """The history's routes of a match answer nothing of a tournament table's, running or over."""
    for path in (f"/api/matches/{match_id}", f"/api/matches/{match_id}/hands/1",
                 f"/api/matches/{match_id}/hands/1/replay", f"/api/matches/{match_id}/hands/2/replay"):
        assert client.get(path).status_code == 404, path


def test_a_tournament_table_in_the_history_shows_nothing_of_its_boards_until_the_end(client: TestClient,
                                                                                   db: str) -> None:
    sign_up(client, "Organiser")
    created = client.post("/api/tournaments", json=BODY)
    assert created.status_code == 201, created.text
    tid = created.json()["tournament"]
    storage = open_storage(db)
    try:
        found = store.load(storage, tid)
    finally:
        storage.close()
    assert found is not None
    seed = found.spec["format"]["seed"]
    sign_up(client, "Ann")
    assert client.post(f"/api/tournaments/{tid}/tables/2/seats/1").status_code == 200
    svc = client.app.state.service  # type: ignore[attr-defined]
    first, second = (svc.tables[table_id] for table_id in found.table_ids)
    client.portal.call(svc.hand_over, second, 0, True)  # Ann leaves it to the computer: table 2 plays both boards
    client.portal.call(svc.changed, second)
    mine = wait_for(lambda: client.get("/api/history").json()["matches"])
    assert first.status != "over" and len(mine) == 1
    row = mine[0]
    check_no_secret(row, seed)
    assert row["link"] == f"/tournament/{tid}" and row["result"] is None and row["score"] is None
    assert row["hands"] is None and row["rating_change"] is None
    assert row["tournament"] == {"id": tid, "name": "Club night", "table": 2, "entry": "2A", "over": False,
                                 "percent": None, "rank": None, "board_link": None}
    history = client.get("/api/history").json()
    assert history["totals"]["matches"] == 0 and history["totals"]["points_per_hand"] is None  # no board's points
    view = client.get(f"/api/tournaments/{tid}").json()
    assert view["visible_boards"] == 0 and not view["over"]
    refused_everywhere(client, row["id"])
    assert client.get(f"/api/tournaments/{tid}/tables/2/boards/1/replay").status_code == 404
    words = json.dumps(history)
    assert not any(str(total) in words for board in second.match.totals for total in board if abs(total) >= 100)

    client.portal.call(svc.hand_over, first, 0, True)  # Bo too: the tournament ends
    client.portal.call(svc.changed, first)
    wait_for(lambda: first.status == "over")
    view = client.get(f"/api/tournaments/{tid}").json()
    assert view["over"]
    row = client.get("/api/history").json()["matches"][0]
    standing = next(s for s in view["standings"] if s["entry"] == "2A")
    assert row["tournament"]["over"] and row["tournament"]["percent"] == standing["percent"] is not None
    assert row["tournament"]["rank"] == standing["rank"]
    assert row["tournament"]["board_link"] == f"/tournament/{tid}/table/2/board/1"
    assert row["hands"] == 2 and row["score"] is None and row["result"] is None
    page = client.get(row["tournament"]["board_link"])
    assert page.status_code == 200 and "/static/tournament/replay.js" in page.text
    assert client.get(f"/api/tournaments/{tid}/tables/2/boards/1/replay").status_code == 200
    refused_everywhere(client, row["id"])  # the tournament's own replay is the one
