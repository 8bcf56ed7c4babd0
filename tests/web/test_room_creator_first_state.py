"""The creator of a public or rated table, signed in, is named by their account in the very first state their
seat's connection gets (issue 30): the seat is claimed before the welcome, not in the background after it."""

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

PASSWORD = "correct horse battery"
SEATS = [{"kind": "human", "name": "Typed"}, {"kind": "human", "name": "East"}, {"kind": "club", "name": "South"},
         {"kind": "beginner", "name": "West"}]


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "canasta.sqlite3"), bot_delay=0, follow=0, presence=0)) as test_client:
        yield test_client


def first_messages(client: TestClient, table: str, token: str) -> list[dict[str, Any]]:
    """Every message a new connection gets up to its first ``state``, in order."""
    got: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/{table}") as ws:
        ws.send_json({"type": "hello", "token": token, "id": 1})
        while not got or got[-1]["type"] != "state":
            got.append(json.loads(ws.receive_text()))
    return got


@pytest.mark.parametrize("room", [{"public": True}, {"rated": True}])
def test_the_signed_in_creator_s_first_state_shows_the_account_name(client: TestClient,
                                                                    room: dict[str, Any]) -> None:
    client.cookies = httpx.Cookies()
    client.get("/api/lobby")
    assert client.post("/api/account/signup", json={"name": "Ada", "password": PASSWORD}).status_code == 201
    made = client.post("/api/tables", json={"preset": "classic", "seats": SEATS, **room})
    assert made.status_code == 201, made.text
    messages = first_messages(client, made.json()["table"], made.json()["seats"][0]["token"])
    assert [m["type"] for m in messages[:2]] == ["welcome", "state"]
    names = [p["name"] for p in messages[1]["table"]["players"]]
    assert names[0] == "Ada" and "Typed" not in names and not any("Typed" in json.dumps(m) for m in messages)


def test_a_guest_creator_and_a_private_table_keep_the_typed_name(client: TestClient) -> None:
    client.cookies = httpx.Cookies()
    client.get("/api/lobby")  # a guest: no account to name the seat
    made = client.post("/api/tables", json={"preset": "classic", "seats": SEATS, "public": True}).json()
    assert first_messages(client, made["table"], made["seats"][0]["token"])[1]["table"]["players"][0]["name"] == "Typed"
    assert client.post("/api/account/signup", json={"name": "Bea", "password": PASSWORD}).status_code == 201
    made = client.post("/api/tables", json={"preset": "classic", "seats": SEATS}).json()  # not a room table
    assert first_messages(client, made["table"], made["seats"][0]["token"])[1]["table"]["players"][0]["name"] == "Typed"
