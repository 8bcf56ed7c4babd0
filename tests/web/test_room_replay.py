"""A finished match's hands at the table replay (issue 30, the history's replay): every hand face up once the match
is over, to anyone holding the link; the review of a seat to the person who played it only; nothing of a match still
being played, through the new route or the old one; and the account's name at a table its player made."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

pytest.importorskip("argon2", reason="accounts need the web extra: pip install 'canasta[web]'")

import httpx
from fastapi.testclient import TestClient

from canasta.web.room import history, sessions
from canasta.web.room.browser import BROWSER_COOKIE
from canasta.web.storage import open_storage

from .browser_helpers import PASSWORD, as_new_player, strings, use, wait_for
from .test_room_history import CARD, play_out

REVIEW = {"decisions": [{"index": 1, "label": "mistake", "played": "draw", "best": "pile", "loss": 120.0,
                         "played_words": "draw", "best_words": "take the pile", "reason": ""}],
          "seats": [{"seat": 0, "decisions": 1, "total_loss": 120.0, "mistake": 1}]}
"""A stored review of seat 0's decisions in hand 1, as the table's review desk keeps one."""


pytestmark = pytest.mark.usefixtures("cheap_hashes")


@pytest.fixture
def client(trusted_room_client: TestClient) -> TestClient:
    """The room's server on a SQLite file or a PostgreSQL schema (``storage_url``) of the test's own."""
    return trusted_room_client


def replay_of(client: TestClient, match_id: str, hand: int) -> httpx.Response:
    return client.get(f"/api/matches/{match_id}/hands/{hand}/replay")


def finished_match(client: TestClient, name: str = "Ann") -> tuple[str, str, httpx.Cookies]:
    """A guest's two-player match against the expert, played to its end; its id, table and the guest's cookies."""
    guest = as_new_player(client)
    made = client.post("/api/tables", json={"preset": "two-player", "target": 1000, "seats": [
        {"kind": "human", "name": name}, {"kind": "expert", "name": "Bot"}]}).json()
    play_out(client, made["table"], made["seats"][0]["token"], 0)
    mine = wait_for(lambda: client.get("/api/history").json()["matches"], 60)
    return mine[0]["id"], made["table"], guest


def test_a_finished_match_replays_face_up_with_the_review_for_its_player_only(
        client: TestClient, storage_url: str) -> None:
    match_id, table_id, guest = finished_match(client)
    storage = open_storage(storage_url)
    try:
        storage.save_review(table_id, 1, 0, 0, json.dumps(REVIEW))  # the guest reviewed hand 1 at the table
    finally:
        storage.close()
    storage = open_storage(storage_url)
    try:
        assert history.matches_of_table(storage, table_id) == {1: match_id}  # the tournaments' way in
        assert history.matches_of_table(storage, "no-such-table") == {}
    finally:
        storage.close()
    mine = replay_of(client, match_id, 1)
    assert mine.status_code == 200 and mine.headers["cache-control"] == "private, no-store"
    data = mine.json()
    assert data["viewer"] == 0 and data["review"] == REVIEW  # the player: their seat and its review
    assert data["players"] == ["Ann", "Bot"] and data["hand"] == 1 and data["hands"] >= 1
    assert [p["name"] for p in data["table"]["players"]] == ["Ann", "Bot"]
    assert data["table"]["sides"] == [[0], [1]] and data["table"]["target"] == 1000
    assert all(frame["hands"] for frame in data["frames"])  # every hand face up at every point
    assert all(len(cards) for cards in data["frames"][0]["hands"])
    assert "deck" not in data and "seed" not in json.dumps(data)
    client.cookies = httpx.Cookies()  # another browser, not a player: the same hand, no review
    other = replay_of(client, match_id, 1).json()
    assert other["viewer"] is None and other["review"] is None
    assert other["frames"] == data["frames"] and other["log"] == data["log"]
    assert replay_of(client, match_id, 2 if data["hands"] < 2 else 99).status_code in (200, 404)
    assert replay_of(client, match_id, 99).status_code == 404
    assert replay_of(client, match_id, 0).status_code == 404
    assert client.get(f"/api/matches/{match_id}/hands/x/replay").status_code == 404
    assert replay_of(client, "nothing-here", 1).status_code == 404
    page = client.get(f"/match/{match_id}/hand/1")
    assert page.status_code == 200 and "/static/room/replay.js" in page.text
    use(client, guest)  # the guest signs up in that browser: the seat is the account's, in any browser
    assert client.post("/api/account/signup", json={"name": "Cyd", "password": PASSWORD}).status_code == 201
    client.cookies = httpx.Cookies()
    client.get("/api/lobby")
    assert client.post("/api/account/signin", json={"name": "Cyd", "password": PASSWORD}).status_code == 200
    again = replay_of(client, match_id, 1).json()
    assert again["viewer"] == 0 and again["review"] == REVIEW


def test_a_review_of_another_seat_is_not_given(client: TestClient, storage_url: str) -> None:
    match_id, table_id, guest = finished_match(client)
    storage = open_storage(storage_url)
    try:
        storage.save_review(table_id, 1, 0, 1, json.dumps(REVIEW))  # seat 1's (the computer's) review
    finally:
        storage.close()
    use(client, guest)
    data = replay_of(client, match_id, 1).json()
    assert data["viewer"] == 0 and data["review"] is None


def running_table(client: TestClient) -> Any:
    """A table of two computers whose match goes on after its first hand: (its served table, its id)."""
    made = client.post("/api/tables", json={"preset": "two-player", "target": 10000, "seats": [
        {"kind": "expert", "name": "A"}, {"kind": "expert", "name": "B"}]}).json()
    svc = client.app.state.service  # type: ignore[attr-defined]
    table = wait_for(lambda: (t := svc.tables.get(made["table"])) is not None and t.match.results and t, 60)
    return table, made["table"]


def test_an_unfinished_match_is_never_replayed_by_the_new_route_or_the_old(
        client: TestClient, storage_url: str) -> None:
    table, table_id = running_table(client)
    record = table.match.to_record()  # every deck of the match so far: what must never leave while it goes on
    assert record["winner"] is None and record["hands"][0]["result"]
    for path in (f"/api/matches/{table_id}", f"/api/matches/{table_id}/hands/1",
                 f"/api/matches/{table_id}/hands/1/replay"):
        assert client.get(path).status_code == 404, path  # a table's id is no match's
    # Even a record of the running match in the history (written too early, by a bug or by hand) gives nothing.
    guest = as_new_player(client)
    browser = sessions.token_hash(str(guest.get(BROWSER_COOKIE)))  # this browser "played" the seat
    storage = open_storage(storage_url)
    try:
        with storage.transaction() as execute:
            execute("INSERT INTO matches (id, family, preset, table_id, rated, finished, match_no, public, record, "
                    "hands) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    ("0123456789abcdef", "two", "two-player", table_id, 0, time.time(), 1, 0,
                     json.dumps(record | {"seats": [{"kind": "human", "name": "A"}, {"kind": "expert", "name": "B"}]}),
                     len(record["hands"])))
            execute("INSERT INTO match_players (match_id, place, team, account_id, level, name, score, rank, "
                    "left_early, seat, browser_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    ("0123456789abcdef", 0, 0, None, None, "A", 0, 1, 0, 0, browser))
        assert history.hand_replay(storage, "0123456789abcdef", 1) is None
        assert history.hand_viewer(storage, "0123456789abcdef", 1, None, browser) is None
        assert history.match_summary(storage, "0123456789abcdef") is None
    finally:
        storage.close()
    for path in ("/api/matches/0123456789abcdef", "/api/matches/0123456789abcdef/hands/1",
                 "/api/matches/0123456789abcdef/hands/1/replay"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert not any(CARD.match(s) for s in strings(answer.json())), path
    assert client.get("/match/0123456789abcdef/hand/1").status_code == 200  # the page: it says there is none


def test_the_creators_account_name_replaces_the_typed_one_at_table_lobby_and_history(client: TestClient) -> None:
    """Issue 30's choice: a signed-in player's own table shows their account's name wherever it names the seat."""
    as_new_player(client, "Ada")
    svc = client.app.state.service  # type: ignore[attr-defined]
    for public in (True, False):
        made = client.post("/api/tables", json={"preset": "two-player", "target": 1000, "public": public, "seats": [
            {"kind": "human", "name": "Zed"}, {"kind": "expert", "name": "Bot"}]}).json()
        table_id, token = made["table"], made["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": token, "id": 1})
            assert ws.receive_json()["type"] == "welcome"
            wait_for(lambda t=table_id: (svc.tables[t].labels or {}).get(0) is not None)
        assert svc.tables[table_id].labels[0].name == "Ada"  # the table's state messages name the seat so
        listed = [t for t in client.get("/api/lobby").json()["tables"] if t["table"] == table_id]
        if public:  # the lobby names the creator's seat by the account, with its rating
            assert listed[0]["seats"][0]["name"] == "Ada" and listed[0]["seats"][0]["rating"] == 25.0
        else:
            assert listed == []
        before = client.get("/api/history").json()["totals"]["matches"]
        play_out(client, table_id, token, 0)
        wait_for(lambda n=before: client.get("/api/history").json()["totals"]["matches"] > n, 60)
        match_id = client.get("/api/history").json()["matches"][0]["id"]  # the newest
        assert _table_of(client, match_id) == table_id
        summary = client.get(f"/api/matches/{match_id}").json()
        assert summary["players"] == ["Ada", "Bot"] and summary["seats"][0]["name"] == "Ada"
        assert [p["name"] for side in summary["sides"] for p in side["players"]] == ["Ada", "Bot"]
        replay = replay_of(client, match_id, 1).json()
        assert replay["players"] == ["Ada", "Bot"] and replay["viewer"] == 0
        assert "Zed" not in json.dumps(summary) and "Zed" not in json.dumps(replay["table"])


def _table_of(client: TestClient, match_id: str) -> str | None:
    svc = client.app.state.service  # type: ignore[attr-defined]
    with svc.storage.storage.transaction(write=False) as execute:
        row = execute("SELECT table_id FROM matches WHERE id = ?", (match_id,)).fetchone()
    return None if row is None else str(row[0])
