"""The room's lobby and quick match (issue 30 point 2): public tables, one-click seats, the queue, the leaver's loss."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("argon2", reason="accounts need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient

from canasta.web.app import create_app
from canasta.web.room import lobby, quickmatch, ratings
from canasta.web.storage import open_storage

from .browser_helpers import as_new_player

pytestmark = pytest.mark.usefixtures("cheap_hashes")


@pytest.fixture
def client(sqlite_room_client: TestClient) -> TestClient:
    return sqlite_room_client


def listed(client: TestClient, table_id: str) -> dict[str, Any] | None:
    return next((t for t in client.get("/api/lobby").json()["tables"] if t["table"] == table_id), None)


def test_a_public_table_is_listed_and_an_open_seat_taken_in_one_click(client: TestClient) -> None:
    as_new_player(client, "Ada")
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "club"}, {"kind": "human"}]
    made = client.post("/api/tables", json={"preset": "classic", "seats": seats, "public": True}).json()
    private = client.post("/api/tables", json={"preset": "classic", "seats": seats}).json()
    assert listed(client, private["table"]) is None  # links only, as before
    table = listed(client, made["table"])
    assert table is not None and table["open"] and table["watch"] is None and not table["rated"]
    assert [s["open"] for s in table["seats"]] == [False, True, False, True]
    assert table["seats"][2]["computer"] and table["seats"][2]["rating"] == 27.4  # Club, in the classic family
    as_new_player(client, "Bob")
    taken = client.post(f"/api/lobby/{made['table']}/seats/1", json={})
    assert taken.status_code == 200
    link = taken.json()["link"]
    assert client.post(f"/api/lobby/{made['table']}/seats/1", json={}).status_code == 409  # taken
    assert client.post(f"/api/lobby/{made['table']}/seats/3", json={}).status_code == 409  # one seat an account
    assert client.post(f"/api/lobby/{made['table']}/seats/2", json={}).status_code == 409  # a computer's
    table = listed(client, made["table"])
    assert table is not None and table["seats"][1] == {"seat": 1, "open": False, "computer": False, "name": "Bob",
                                                       "rating": 25.0}
    with client.websocket_connect(f"/ws/{made['table']}") as ws:  # the link opens the seat
        ws.send_json({"type": "hello", "token": link.split("#")[1], "id": 1})
        assert ws.receive_json() | {"id": 1} == {"type": "welcome", "table": made["table"], "seat": 1,
                                                 "role": "player", "id": 1}
    old = made["seats"][1]["token"]  # the creator's link to that seat opens it no more
    with client.websocket_connect(f"/ws/{made['table']}") as ws:
        ws.send_json({"type": "hello", "token": old, "id": 1})
        assert ws.receive_json()["error"] == "bad_token"
    as_new_player(client)  # a guest takes the last open seat; then the table is full and can be watched
    assert client.post(f"/api/lobby/{made['table']}/seats/3", json={}).status_code == 200
    table = listed(client, made["table"])
    assert table is not None and not table["open"] and table["watch"] == made["spectator"]["link"]


def test_table_flags_are_checked() -> None:
    from canasta.web.requests import RequestError, TableRequest

    assert TableRequest.parse({"public": True, "rated": True}).rated
    with pytest.raises(RequestError, match="true or false"):
        TableRequest.parse({"public": "yes"})
    with pytest.raises(RequestError, match="levels"):
        TableRequest.parse({"rated": True, "seats": [{"kind": "human"}, {"kind": "random"}, {"kind": "expert"},
                                                     {"kind": "club"}]})
    with pytest.raises(RequestError, match="seed"):
        TableRequest.parse({"rated": True, "seed": 4})


def test_the_quick_match_seats_closest_ratings_first(tmp_path: Path) -> None:
    storage = open_storage(str(tmp_path / "q.sqlite3"))
    try:
        for name, mu in (("a", 40.0), ("b", 20.0), ("c", 38.0), ("d", 25.0)):
            quickmatch.join(storage, name, "two-player", True, None, "browser-" + name, name, now=100.0)
            with storage.transaction() as execute:
                execute("UPDATE queue SET mu = ? WHERE ticket_hash = ?", (mu, name))
        plans = quickmatch.plan(storage, wait=20, now=101.0)
        assert sorted(sorted(w.name for w in p.people) for p in plans) == [["a", "c"], ["b", "d"]]
        assert quickmatch.plan(storage, wait=20, now=102.0) == []  # each is seated once
        for number, plan in enumerate(plans):
            for w in plan.people:
                quickmatch.seat(storage, w.ticket_hash, f"t{number}", f"/t/t{number}#{w.name}")
        seated = quickmatch.poll(storage, "a", 20, now=103.0)
        assert seated is not None and seated["status"] == "seated" and seated["link"].endswith("#a")
        assert quickmatch.poll(storage, "a", 20, now=104.0) is None  # told once
        quickmatch.join(storage, "e", "classic", False, None, "browser-e", "e", now=200.0)
        quickmatch.join(storage, "f", "classic", False, None, "browser-f", "f", now=205.0)
        assert quickmatch.plan(storage, wait=20, now=210.0) == []  # waiting for more people
        assert quickmatch.poll(storage, "e", 20, now=210.0) == {
            "status": "waiting", "game": "classic", "rated": False, "waiting": 2, "seconds_left": 10.0}
        quickmatch.poll(storage, "f", 20, now=219.0)
        [plan] = quickmatch.plan(storage, wait=20, now=220.0)  # e waited 20 s: computers fill the other seats
        assert [w.name for w in plan.people] == ["e", "f"] and plan.levels == ("Beginner", "Beginner")
        body = quickmatch.table_request(plan, quickmatch.QuickSettings())
        assert [s["kind"] for s in body["seats"]] == ["human", "human", "beginner", "beginner"]
        assert [s["name"] for s in body["seats"]] == ["e", "f", "Beginner", "Beginner 2"]
        with storage.transaction() as execute:  # a process planned e and f, then stopped before making the table
            execute("UPDATE queue SET table_id = '', seen = 220 WHERE ticket_hash IN ('e', 'f')", ())
        quickmatch.poll(storage, "e", 20, now=240.0)  # still planned: waiting, and the poll keeps nothing alive
        [again] = quickmatch.plan(storage, wait=20, now=251.0)  # stuck 31 s: they wait again and are planned anew
        assert {w.name for w in again.people} == {"e", "f"}
        for w in again.people:
            quickmatch.seat(storage, w.ticket_hash, "t9", "/t/t9#x")
        quickmatch.join(storage, "g", "classic", False, None, "browser-g", "g", now=300.0)
        assert quickmatch.plan(storage, wait=20, now=311.0) == []  # g stopped asking: gone from the queue
        assert quickmatch.poll(storage, "g", 20, now=311.0) is None
    finally:
        storage.close()


def test_levels_fill_near_the_average_rating() -> None:
    assert quickmatch.nearest_level("four", ratings.level_mu("four", "Master") + 1) == "Master"
    assert quickmatch.nearest_level("two", 25.0) == "Club"


def test_a_quick_match_fills_with_computers_after_the_wait(client: TestClient) -> None:
    client.app.state.quick = quickmatch.QuickSettings(wait=0.3, target=1000)  # type: ignore[attr-defined]
    as_new_player(client, "Ada")
    ticket = client.post("/api/quick", json={"game": "classic", "rated": True}).json()["ticket"]
    deadline = time.monotonic() + 20
    while (answer := client.post("/api/quick/poll", json={"ticket": ticket}).json())["status"] != "seated":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert answer["link"].startswith(f"/t/{answer['table']}#")
    assert client.post("/api/quick/poll", json={"ticket": ticket}).status_code == 404  # the link is told once
    table = listed(client, answer["table"])
    assert table is not None and table["rated"] and [s["computer"] for s in table["seats"]] == [
        False, True, True, True]
    assert {s["name"] for s in table["seats"][1:]} <= {"Club", "Club 2", "Club 3", "Beginner", "Beginner 2",
                                                       "Beginner 3"}


def test_a_lobby_and_queue_are_shared_by_processes_on_one_postgresql(postgres_schema_url: str) -> None:
    first, second = open_storage(postgres_schema_url), open_storage(postgres_schema_url)
    try:
        from canasta.web.service import TableService  # noqa: F401 (the tables' own schema is the storage's)

        spec = {"rules": {"preset": "two-player"}, "seats": [{"kind": "human", "name": "A"},
                                                             {"kind": "human", "name": "B"}],
                "room": {"public": True, "rated": False}}
        first.create_table("t1", spec | {"seed": 1}, {})
        lobby.register_table(first, "t1", spec, "/t/t1#watch")
        [table] = lobby.open_tables(second)
        assert table["seats"][1]["open"]
        assert lobby.claim_seat(second, "t1", 1, None, "browser-b", "Guest")
        assert not lobby.claim_seat(first, "t1", 1, None, "browser-c", "Guest")
        quickmatch.join(first, "x", "two-player", False, None, "bx", "x")
        quickmatch.join(second, "y", "two-player", False, None, "by", "y")
        plans = quickmatch.plan(second, wait=20) + quickmatch.plan(first, wait=20)
        assert len(plans) == 1 and {w.name for w in plans[0].people} == {"x", "y"}
    finally:
        first.close()
        second.close()


def test_two_servers_on_one_postgresql_share_the_lobby_and_the_queue(postgres_schema_url: str) -> None:
    apps = [create_app(postgres_schema_url, bot_delay=0, follow=0.2, presence=0) for _ in range(2)]
    for app in apps:
        app.state.quick = quickmatch.QuickSettings(wait=60, target=1000)
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        made = one.post("/api/tables", json={"preset": "two-player", "public": True,
                                             "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        assert (table := listed(two, made["table"])) is not None and table["seats"][1]["open"]
        assert two.post(f"/api/lobby/{made['table']}/seats/1", json={}).status_code == 200
        assert one.post(f"/api/lobby/{made['table']}/seats/1", json={}).status_code == 409
        first = one.post("/api/quick", json={"game": "three-player"}).json()["ticket"]
        second = two.post("/api/quick", json={"game": "three-player"}).json()["ticket"]
        as_new_player(two)
        third = two.post("/api/quick", json={"game": "three-player"}).json()["ticket"]
        deadline = time.monotonic() + 20
        answers: dict[str, Any] = {}
        while len(answers) < 3:
            assert time.monotonic() < deadline
            for client, ticket in ((one, first), (two, second), (one, third)):
                if ticket not in answers and (a := client.post("/api/quick/poll", json={"ticket": ticket}).json()
                                              ).get("status") == "seated":
                    answers[ticket] = a
            time.sleep(0.1)
        assert len({a["table"] for a in answers.values()}) == 1  # one table for the three, made by one server
