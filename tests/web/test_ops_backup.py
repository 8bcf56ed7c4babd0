"""The backup and restore of docs/deploy.md: pg_dump a live database, pg_restore it into a fresh one, play on."""

from __future__ import annotations

import glob
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from canasta.web.app import create_app

Message = dict[str, Any]


def tool(name: str) -> str:
    """A PostgreSQL client program: on the PATH, else beside the server that scripts/ensure-postgres.sh runs."""
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))[-1:]), None)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


def database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture
def two_databases(postgres_url: str) -> Iterator[tuple[str, str]]:
    """Two empty databases of the test server: the one played on, and the one restored into."""
    import psycopg

    names = [f"canasta_{kind}_{uuid.uuid4().hex[:10]}" for kind in ("live", "restored")]
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for name in names:
            conn.execute(f"CREATE DATABASE {name}")
    yield database(postgres_url, names[0]), database(postgres_url, names[1])
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for name in names:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def until(ws: WebSocketTestSession, kinds: tuple[str, ...]) -> Message:
    while True:
        message: Message = ws.receive_json()
        if message["type"] in kinds:
            return message


def play(ws: WebSocketTestSession, moves: int) -> Message:
    """The seat to act (seat 1 of four people) makes ``moves`` moves of its turn: a draw, then a discard."""
    state = until(ws, ("state",))
    for _ in range(moves):
        move = "draw" if "draw" in state["legal"] else next(m for m in state["legal"] if m.startswith("discard"))
        ws.send_json({"type": "move", "move": move, "state": state["state"]})
        assert until(ws, ("ack", "error"))["type"] == "ack"
        state = until(ws, ("state",))
    return state


def test_a_dump_restored_into_a_fresh_database_plays_on(two_databases: tuple[str, str], tmp_path: Path) -> None:
    live, restored = two_databases
    with TestClient(create_app(live, bot_delay=0, follow=0)) as client:
        created = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()
        table, token = created["table"], created["seats"][1]["link"].split("#")[1]
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_json({"type": "hello", "token": token})
            before = play(ws, 1)  # seat 1 drew; it discards after the restore
        dump = tmp_path / "canasta.dump"
        # the documented commands, while the server runs (pg_dump reads one consistent snapshot)
        subprocess.run([tool("pg_dump"), "--format=custom", f"--file={dump}", live], check=True, timeout=60)
    subprocess.run([tool("pg_restore"), "--no-owner", "--exit-on-error", f"--dbname={restored}", str(dump)],
                   check=True, timeout=60)
    with TestClient(create_app(restored, bot_delay=0, follow=0)) as client:
        with client.websocket_connect(f"/ws/{table}") as ws:
            ws.send_json({"type": "hello", "token": token})
            after = play(ws, 1)  # the discard: the turn passes
        assert after["state"] == before["state"] + 1
        assert [(e["seat"], e["move"].split()[0]) for e in after["table"]["log"]] == [(1, "draw"), (1, "discard")]
        assert client.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).status_code == 201
