"""Two server processes on one database (SQLite file or PostgreSQL): a table moves on in either."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from canasta.web.app import create_app

Message = dict[str, Any]


def until(ws: WebSocketTestSession, kinds: tuple[str, ...], states: list[Message] | None = None) -> Message:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state" and states is not None:
            states.append(message)
        if message["type"] in kinds:
            return message


def moves(state: Message) -> list[tuple[int, str]]:
    """The seats and moves of the state's log (each entry may carry facts too: a red three drawn...)."""
    return [(entry["seat"], entry["move"]) for entry in state["table"]["log"]]


def test_two_servers_share_one_database(storage_url: str) -> None:
    # Without following, server A learns of B's move only when its own is refused.
    with (TestClient(create_app(storage_url, bot_delay=0, follow=0)) as a,
          TestClient(create_app(storage_url, bot_delay=0, follow=0)) as b):
        created = a.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()
        table = created["table"]
        tokens = [s["link"].split("#")[1] for s in created["seats"]]
        with a.websocket_connect(f"/ws/{table}") as on_a:
            on_a.send_json({"type": "hello", "token": tokens[1]})
            until(on_a, ("welcome",))
            first = until(on_a, ("state",))
            assert first["view"]["to_act"] == 1
            with b.websocket_connect(f"/ws/{table}") as on_b:  # server B loads the table from the database
                on_b.send_json({"type": "hello", "token": tokens[1]})
                until(on_b, ("welcome",))
                seen = until(on_b, ("state",))
                assert seen["state"] == first["state"] and seen["view"]["hand"] == first["view"]["hand"]
                on_b.send_json({"type": "move", "move": "draw", "state": seen["state"]})
                assert until(on_b, ("ack", "error"))["type"] == "ack"
            # server A still holds the old state: its move is refused as stale, and it catches up
            on_a.send_json({"type": "move", "move": "draw", "state": first["state"]})
            states: list[dict[str, Any]] = []
            refused = until(on_a, ("ack", "error"), states)
            assert refused["error"] == "stale_state"
            now = states[-1]
            assert now["state"] == first["state"] + 1 and moves(now) == [(1, "draw")]
            discard = next(m for m in now["legal"] if m.startswith("discard"))
            on_a.send_json({"type": "move", "move": discard, "state": now["state"]})
            assert until(on_a, ("ack", "error"))["type"] == "ack"


def test_a_server_shows_the_moves_another_server_made(storage_url: str) -> None:
    """Following the shared database: a player on server A sees a move made on server B without acting."""
    with (TestClient(create_app(storage_url, bot_delay=0, follow=0.05)) as a,
          TestClient(create_app(storage_url, bot_delay=0, follow=0.05)) as b):
        created = a.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()
        table = created["table"]
        tokens = [s["link"].split("#")[1] for s in created["seats"]]
        with a.websocket_connect(f"/ws/{table}") as on_a, b.websocket_connect(f"/ws/{table}") as on_b:
            on_a.send_json({"type": "hello", "token": tokens[2]})  # the partner of the seat to act, on A
            until(on_a, ("welcome",))
            before = until(on_a, ("state",))
            on_b.send_json({"type": "hello", "token": tokens[1]})  # the seat to act, on B
            until(on_b, ("welcome",))
            seen = until(on_b, ("state",))
            on_b.send_json({"type": "move", "move": "draw", "state": seen["state"]})
            assert until(on_b, ("ack", "error"))["type"] == "ack"
            states: list[Message] = []
            for _ in range(50):  # A sends it on its own; a ping now and then ends each wait
                time.sleep(0.05)
                on_a.send_json({"type": "ping"})
                until(on_a, ("pong",), states)
                if any(m["state"] > before["state"] for m in states):
                    break
            assert states, "server A never showed server B's move"
            after = states[-1]
            assert after["state"] == before["state"] + 1, "server A never showed server B's move"
            assert moves(after) == [(1, "draw")]
            assert after["view"]["hand"] == before["view"]["hand"]  # seat 2 sees its own cards only
            assert "legal" not in after or not after["legal"]


@pytest.mark.parametrize(("flag", "words"), [("--follow=-1", "--follow must be 0 (never) or more seconds"),
                                             ("--bot-delay=-2", "--bot-delay must be 0 or more seconds")])
def test_serve_refuses_negative_seconds_in_one_line(flag: str, words: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.cli import main

    assert main(["serve", flag, "--db", "unused.sqlite3"]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
