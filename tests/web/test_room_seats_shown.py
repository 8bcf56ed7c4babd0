"""Issue 30's last gaps: the table shows who sits there with their ratings, the leaderboard lists provisional players
apart, and a draining server takes no seat and makes no quick match's table (docs/room.md)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("argon2", reason="accounts need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient

from canasta.web.room import accounts, quickmatch, ratings, seating
from canasta.web.room.play_routes import make_quick_tables
from canasta.web.served import SeatLabel
from canasta.web.storage import open_storage

from .browser_helpers import as_new_player

pytestmark = pytest.mark.usefixtures("cheap_hashes")


@pytest.fixture
def client(sqlite_room_client: TestClient) -> TestClient:
    return sqlite_room_client


def first_state(client: TestClient, table: str, token: str) -> tuple[dict[str, Any], list[str]]:
    """The first ``state`` a connection with this token gets, and every text it was sent until then."""
    texts: list[str] = []
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": token, "id": 1})
        while True:
            texts.append(ws.receive_text())
            message = json.loads(texts[-1])
            if message["type"] == "state":
                return message, texts


def players_seen(client: TestClient, table: str, token: str, wanted: Any, seconds: float = 10) -> list[Any]:
    """``table.players`` as a new connection sees them, once ``wanted(players)`` holds (labels are read in the
    background after a welcome)."""
    deadline = time.monotonic() + seconds
    while True:
        players = first_state(client, table, token)[0]["table"]["players"]
        if wanted(players) or time.monotonic() > deadline:
            return list(players)
        time.sleep(0.1)


def test_a_lobby_taker_and_a_signed_in_creator_show_their_names_and_ratings_at_the_table(client: TestClient,
                                                                                        sqlite_url: str) -> None:
    ada = as_new_player(client, "Ada")
    seats = [{"kind": "human", "name": "North"}, {"kind": "human", "name": "East"}, {"kind": "club", "name": "South"},
             {"kind": "random", "name": "West"}]
    made = client.post("/api/tables", json={"preset": "classic", "seats": seats, "public": True}).json()
    table, spectator = made["table"], made["spectator"]["token"]
    players = first_state(client, table, spectator)[0]["table"]["players"]
    assert players[1]["name"] == "East" and "rating" not in players[1]  # open: the seat's own name
    assert players[2]["rating"] == 27.4 and players[2]["provisional"] is False  # Club's fixed classic rating
    assert "rating" not in players[3]  # a computer that is no level has no rating
    first_state(client, table, made["seats"][0]["token"])  # Ada opens her seat, signed in
    bob = as_new_player(client, "Bob")
    taken = client.post(f"/api/lobby/{table}/seats/1", json={}).json()
    players = players_seen(client, table, spectator, lambda p: p[0]["name"] == "Ada")
    assert players[0]["name"] == "Ada" and players[0]["rating"] == 25.0 and players[0]["provisional"] is True
    assert players[1]["name"] == "Bob" and players[1]["rating"] == 25.0 and players[1]["provisional"] is True
    state, texts = first_state(client, table, taken["link"].split("#")[1])  # the taker's own page
    assert state["table"]["players"][1]["name"] == "Bob"
    secrets = [value for jar in (ada, bob) for value in jar.values()]  # session and browser keys
    store = open_storage(sqlite_url)
    try:
        with store.transaction(write=False) as execute:
            secrets += [row[0] for row in execute("SELECT id FROM accounts", ()).fetchall()]
            secrets += [row[0] for row in execute("SELECT browser_hash FROM browser_tables", ()).fetchall()]
    finally:
        store.close()
    assert len(secrets) >= 6 and not [s for s in secrets for text in texts if s in text]
    assert set(state["table"]["players"][1]) == {"seat", "name", "kind", "connected", "computer", "away", "rating",
                                                 "provisional"}


def test_a_guest_taker_is_shown_as_a_guest_and_an_established_rating_unmarked(tmp_path: Path) -> None:
    store = open_storage(str(tmp_path / "labels.sqlite3"))
    try:
        ann = accounts.create_account(store, "Ann", "x")
        with store.transaction() as execute:
            execute("INSERT INTO ratings (account_id, family, mu, sigma, matches, updated) VALUES (?, ?, ?, ?, ?, ?)",
                    (ann.id, "two", 31.26, 2.0, 12, 0.0))
            for table, seat, account_id, name in (("t1", 0, ann.id, "Ann"), ("t1", 1, None, "Guest"),
                                                  ("t2", 1, None, "Guest")):
                execute("INSERT INTO room_seats (table_id, seat, open, account_id, browser_hash, name, at) "
                        "VALUES (?, ?, 0, ?, ?, ?, ?)", (table, seat, account_id, "b" * 64, name, 0.0))
        two = {"rules": "two-player", "seats": [{"kind": "human", "name": "Guest"}, {"kind": "human", "name": "B"}]}
        found = seating.seat_labels(store, {"t1": two, "t2": two})
        assert found["t1"] == {0: SeatLabel("Ann", 31.3, False), 1: SeatLabel("Guest")}
        assert found["t2"] == {1: SeatLabel("Guest 2")}  # two seats never show one name
    finally:
        store.close()


def test_the_leaderboard_lists_provisional_players_apart(client: TestClient, sqlite_url: str) -> None:
    as_new_player(client, "Cyd")
    as_new_player(client, "Dio")
    store = open_storage(sqlite_url)
    try:
        with store.transaction() as execute:
            for name, mu, sigma, matches in (("Cyd", 28.0, 3.0, 9), ("Dio", 33.0, 7.0, 2)):
                account_id = execute("SELECT id FROM accounts WHERE name = ?", (name,)).fetchone()[0]
                execute("INSERT INTO ratings (account_id, family, mu, sigma, matches, updated) "
                        "VALUES (?, ?, ?, ?, ?, ?)", (account_id, "four", mu, sigma, matches, 0.0))
    finally:
        store.close()
    board = client.get("/api/leaderboard/four").json()
    assert [p["name"] for p in board["players"]] == ["Master", "Expert", "Cyd", "Club", "Beginner"]
    assert board["players"][2] | {"uncertainty": 0} == {
        "name": "Cyd", "rating": 28.0, "uncertainty": 0, "matches": 9, "provisional": False, "computer": False,
        "standing": "between Club and Expert"}
    assert [(p["name"], p["provisional"]) for p in board["provisional"]] == [("Dio", True)]
    assert board["families"] == ratings.FAMILIES
    assert client.get("/api/leaderboard/two").json()["provisional"] == []
    page = client.get("/room/leaderboard")
    assert page.status_code == 200 and "leaderboard.js" in page.text


def test_a_draining_server_takes_no_seat_and_makes_no_quick_match(client: TestClient) -> None:
    as_new_player(client, "Eddy")
    made = client.post("/api/tables", json={"preset": "classic", "public": True, "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "club"}, {"kind": "club"}]}).json()
    waiting = client.post("/api/quick", json={"game": "two-player"}).json()["ticket"]
    app: Any = client.app
    app.state.quick = quickmatch.QuickSettings(wait=0, target=1000)
    app.state.drain.draining = True
    try:
        for path, body in ((f"/api/lobby/{made['table']}/seats/1", {}), ("/api/quick", {"game": "classic"}),
                           ("/api/tables", {"preset": "classic"})):
            refused = client.post(path, json=body)
            assert refused.status_code == 503 and refused.json()["error"] == "draining", path
            assert refused.headers["retry-after"] == "1"
        assert client.portal.call(make_quick_tables, app) == 0  # type: ignore[union-attr]
        assert client.post("/api/quick/poll", json={"ticket": waiting}).json()["status"] == "waiting"
    finally:
        app.state.drain.draining = False
    assert client.post(f"/api/lobby/{made['table']}/seats/1", json={}).status_code == 200
