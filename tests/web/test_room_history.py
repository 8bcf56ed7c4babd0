"""The room's history (issue 30 point 4): every finished match recorded, listed per player and browser, shared."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

pytest.importorskip("argon2", reason="accounts need the web extra: pip install 'canasta[web]'")

import httpx
from fastapi.testclient import TestClient

from canasta.bots.hints import hint
from canasta.web.room import history
from canasta.web.storage import open_storage

from .browser_helpers import PASSWORD, as_new_player, strings, use, wait_for

CARD = re.compile(r"^(?:[2-9TJQKA][CDHS]|JK)$")


pytestmark = pytest.mark.usefixtures("cheap_hashes")


@pytest.fixture
def client(trusted_room_client: TestClient) -> TestClient:
    """The room's server on a SQLite file or a PostgreSQL schema (``storage_url``) of the test's own."""
    return trusted_room_client


def test_a_match_of_computers_is_recorded_once_with_its_record(client: TestClient, storage_url: str) -> None:
    seats = [{"kind": "club", "name": "A"}, {"kind": "expert", "name": "B"}]
    made = client.post("/api/tables", json={"preset": "two-player", "target": 1000, "seats": seats}).json()
    storage = open_storage(storage_url)
    try:
        def recorded() -> Any:
            with storage.transaction(write=False) as execute:
                return execute("SELECT id, rated, public, match_no, hands FROM matches WHERE table_id = ?",
                               (made["table"],)).fetchall()
        rows = wait_for(recorded)
        assert len(rows) == 1
        match_id, rated, public, match_no, hands = rows[0]
        assert (rated, public, match_no) == (0, 0, 1) and hands >= 1
        assert history.record_table(storage, made["table"], {"rules": {"preset": "two-player"}, "seats": seats},
                                    {"final_scores": [0, 0], "hands": []}, 1, frozenset()) is None  # once
    finally:
        storage.close()
    summary = client.get(f"/api/matches/{match_id}").json()
    assert [p["name"] for side in summary["sides"] for p in side["players"]] == ["A", "B"]
    assert sorted(side["result"] for side in summary["sides"]) in (["lost", "won"], ["tied", "tied"])
    assert summary["hands"][-1]["scores"] == summary["final_scores"]
    assert max(summary["final_scores"]) >= 1000
    assert not any(CARD.match(s) for s in strings(summary))  # the summary shows no card at all
    replay = client.get(f"/api/matches/{match_id}/hands/1").json()
    assert replay["frames"][-1]["hands"] and replay["players"] == ["A", "B"]
    assert "deck" not in str(replay.keys())
    assert client.get(f"/api/matches/{match_id}/hands/99").status_code == 404
    assert client.get("/api/matches/nothing-here").status_code == 404
    page = client.get(f"/match/{match_id}")
    assert page.status_code == 200 and "<main" in page.text


def play_out(client: TestClient, table_id: str, token: str, seat: int, leave: bool = False) -> None:
    """Play a seat to the match's end over its websocket, as the expert would (or leave it to the computer)."""
    svc = client.app.state.service  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token, "id": 1})
        assert ws.receive_json()["type"] == "welcome"
        ws.receive_json()
        number = 1
        if leave:
            ws.send_json({"type": "leave", "id": 2})
            wait_for(lambda: svc.tables[table_id].status == "over", 120)
            return
        deadline = time.monotonic() + 120
        while svc.tables[table_id].status != "over":
            assert time.monotonic() < deadline
            table = svc.tables[table_id]
            number += 1
            if table.status == "hand_over":
                if seat in table.ready:
                    time.sleep(0.02)
                    continue
                ws.send_json({"type": "ready", "state": table.state_id, "id": number})
            elif table.status == "playing" and table.match.state.to_act == seat:
                try:
                    state = table.match.state.copy()
                    move, _ = hint(state.view(seat), list(state.legal_moves()), bot="expert")
                except Exception:  # the computer moved meanwhile
                    continue
                ws.send_json({"type": "move", "move": str(move), "state": table.state_id, "id": number})
            else:
                time.sleep(0.01)
                continue
            while True:
                answer = ws.receive_json()
                if answer.get("id") == number:
                    break


def leave_seat(client: TestClient, table_id: str, token: str) -> None:
    """Say hello at a seat and leave it to the computer (the person goes away)."""
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token, "id": 1})
        assert ws.receive_json()["type"] == "welcome"
        ws.send_json({"type": "leave", "id": 2})
        while ws.receive_json().get("id") != 2:
            pass


def test_a_rated_quick_match_to_its_end_moves_both_ratings_and_shows_in_history(client: TestClient) -> None:
    jars, tickets, seated = {}, {}, {}
    for name in ("Ada", "Bob"):
        jars[name] = as_new_player(client, name)
        joined = client.post("/api/quick", json={"game": "two-player", "rated": True})
        assert joined.status_code == 201
        tickets[name] = joined.json()["ticket"]
    for name in ("Ada", "Bob"):
        use(client, jars[name])
        seated[name] = wait_for(lambda t=tickets[name]: (a := client.post(
            "/api/quick/poll", json={"ticket": t}).json()).get("status") == "seated" and a)
    assert seated["Ada"]["table"] == seated["Bob"]["table"]
    table_id = seated["Ada"]["table"]
    lobby = client.get("/api/lobby").json()["tables"]
    listed = next(t for t in lobby if t["table"] == table_id)
    assert sorted(s["name"] for s in listed["seats"]) == ["Ada", "Bob"] and listed["rated"]
    assert listed["watch"] and not listed["open"] and all(s["rating"] == 25.0 for s in listed["seats"])
    assert not any(CARD.match(s) for s in strings(lobby))
    token = {name: seated[name]["link"].split("#")[1] for name in seated}
    seat = {s["name"]: s["seat"] for s in listed["seats"]}
    use(client, jars["Bob"])
    leave_seat(client, table_id, token["Bob"])  # Bob goes: the computer plays on, and he lost
    use(client, jars["Ada"])
    play_out(client, table_id, token["Ada"], seat["Ada"])
    mine = wait_for(lambda: client.get("/api/history").json()["matches"])
    assert len(mine) == 1
    ada = mine[0]
    assert ada["result"] == "won" and ada["rated"] and ada["rating_change"] > 0
    assert [o["name"] for o in ada["opponents"]] == ["Bob"] and ada["opponents"][0]["left"]
    assert client.get("/api/history").json()["totals"]["matches"] == 1
    assert client.get("/api/me").json()["ratings"]["two"]["rating"] > 25
    use(client, jars["Bob"])
    bob = client.get("/api/history").json()
    assert bob["matches"][0]["result"] == "lost" and bob["matches"][0]["rating_change"] < 0
    assert bob["totals"] == {"matches": 1, "won": 0, "win_rate": 0.0,
                             "points_per_hand": bob["totals"]["points_per_hand"]}
    assert not any(CARD.match(s) for s in strings(bob))
    summary = client.get(ada["link"].replace("/match/", "/api/matches/")).json()
    assert {p["name"]: p["rating_change"] > 0 for side in summary["sides"] for p in side["players"]} == {
        "Ada": True, "Bob": False}


def test_a_guests_matches_are_kept_by_their_browser(client: TestClient) -> None:
    guest = as_new_player(client)
    joined = client.post("/api/quick", json={"game": "two-player", "rated": False}).json()
    assert client.post("/api/quick", json={"game": "two-player", "rated": True}).status_code == 401
    seated = wait_for(lambda: (a := client.post("/api/quick/poll", json={"ticket": joined["ticket"]}).json())
                      .get("status") == "seated" and a)  # alone: a computer fills the seat after the wait
    table_id, token = seated["table"], seated["link"].split("#")[1]
    play_out(client, table_id, token, 0)  # the guest sits first, the computer second
    mine = wait_for(lambda: client.get("/api/history").json()["matches"], 120)
    assert mine[0]["rated"] is False and mine[0]["rating_change"] is None
    assert mine[0]["opponents"][0]["computer"]
    client.cookies = httpx.Cookies()  # another browser sees none of it
    assert client.get("/api/history").json()["matches"] == []
    use(client, guest)  # signing up keeps the guest's matches with the account
    assert client.post("/api/account/signup", json={"name": "Cyd", "password": PASSWORD}).status_code == 201
    assert len(client.get("/api/history").json()["matches"]) == 1
