"""No peeking at a tournament's boards (issue 31, point 4), checked the way the leak tests do: nothing the
tournament's API answers (the organiser's answer, the standings for anyone, for a seat at a table still
playing) names a card or carries the seed, and a board's results reach only a table that has played it."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient

from canasta.web.app import create_app
from canasta.web.storage import open_storage
from canasta.web.tournaments import store

CARD = re.compile(r"(?<![A-Za-z0-9_-])(?:[2-9TJQKA][CDHS]|JK)(?![A-Za-z0-9_-])")
BODY = {"preset": "classic", "boards": 2, "minimums": [50, 90], "away_minutes": 0,
        "tables": [["human:Bo", "expert", "expert", "expert"], ["human:Ann", "expert", None, "expert"]]}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "canasta.sqlite3")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0, follow=0, presence=0)) as test_client:
        yield test_client


def wait_for(check: Any, seconds: float = 60.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(0.05)
    raise AssertionError("waited too long")


def texts(value: Any, skip: frozenset[str] = frozenset({"tournament", "table_id", "token", "link"})) -> Iterator[str]:
    """Every string and number of a message, but the random ids and tokens (which may hold ``7H`` by chance)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            if key not in skip:
                yield from texts(item, skip)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item, skip)
    else:
        yield str(value)


def check_no_secret(message: Any, seed: int) -> None:
    words = list(texts(message))
    assert not [w for w in words if CARD.search(w)], [w for w in words if CARD.search(w)]
    assert str(seed) not in json.dumps(message) and "seed" not in words and "deck" not in words


def test_the_tournament_shows_no_card_and_no_unplayed_board(client: TestClient, db: str) -> None:
    assert client.post("/api/tournaments", json=BODY).status_code == 401  # an organiser signs in
    assert client.post("/api/account/signup", json={"name": "Organiser", "password": "a long password"}
                       ).status_code == 201
    answer = client.post("/api/tournaments", json=BODY)
    assert answer.status_code == 201, answer.text
    created = answer.json()
    tid = created["tournament"]
    storage = open_storage(db)
    try:
        found = store.load(storage, tid)
    finally:
        storage.close()
    assert found is not None
    seed = found.spec["format"]["seed"]
    check_no_secret(created, seed)
    assert created["link"] == f"/tournament/{tid}"
    links = [[seat["token"] for seat in table["seats"]] for table in created["tables"]]
    assert links[0][1:] == [None] * 3 and links[1][0] and links[1][2] and not links[1][1]
    assert all("spectator" not in table for table in created["tables"])  # a spectator replays boards face up
    svc = client.app.state.service  # type: ignore[attr-defined]
    first, second = (svc.tables[t["table_id"]] for t in created["tables"])
    client.portal.call(svc.hand_over, first, 0, True)  # type: ignore[union-attr]  # Bo leaves it to the computer
    client.portal.call(svc.changed, first)  # type: ignore[union-attr]
    wait_for(lambda: first.status == "over" and second.person_to_act() in (0, 2))
    bo = links[0][0]
    for token, visible in ((None, 0), (links[1][0], 0), (links[1][2], 0), (bo, 2), ("nonsense", 0)):
        view = client.get(f"/api/tournaments/{tid}", headers={"X-Canasta-Token": token} if token else {}).json()
        check_no_secret(view, seed)
        assert view["visible_boards"] == visible, (token, view)
        if not visible:
            assert view["standings"] == [] and view["board_scores"] == []
        else:  # table 1 has played both boards: its own results, and nobody else's (nobody else played them)
            assert {s["table"] for board in view["board_scores"] for s in board} == {0}
        assert [t["played"] for t in view["tables"]] == [2, 0] and view["tables"][1]["board"] == 0
    assert client.get(f"/api/tournaments/{tid}/tables/1/boards/1/replay").status_code == 404  # not over yet
    page = client.get(f"/tournament/{tid}")
    assert page.status_code == 200 and "tournament.js" in page.text
    assert client.get("/api/tournaments/nothing-here").status_code == 404
    for seat in (0, 2):  # Ann and the open seat's player leave it to the computer: the tournament ends
        client.portal.call(svc.hand_over, second, seat, True)  # type: ignore[union-attr]
    client.portal.call(svc.changed, second)  # type: ignore[union-attr]
    wait_for(lambda: second.status == "over")
    view = client.get(f"/api/tournaments/{tid}").json()
    assert view["over"] and view["visible_boards"] == 2 and len(view["standings"]) == 4
    assert view["tables"][1]["away"] == [0, 2] and view["tables"][0]["away"] == [0]
    replay = client.get(f"/api/tournaments/{tid}/tables/2/boards/2/replay")
    assert replay.status_code == 200 and replay.json()["frames"]
    assert client.get(f"/api/tournaments/{tid}/tables/3/boards/1/replay").status_code == 404
