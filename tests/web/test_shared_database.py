"""Two server processes on one database (SQLite file or PostgreSQL): a table moves on in either."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from canasta.bots import make_bot
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


class Conn:
    """A person's connection as a table sees it: a seat, and what it is sent."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)


def test_a_person_connected_to_another_server_process_is_not_away(storage_url: str) -> None:
    """Presence is in storage: server A never holds Bob's connection, server B does.  A neither marks Bob
    away nor deals without his ``ready`` while B's heartbeat says he is there; once he leaves B, A counts
    his absence from when B last saw him, and a process that dies holding him stops counting.  One clock
    of the test's own drives both (no sleeping through minutes)."""
    from canasta.web.presence import PRESENCE_STALE
    from canasta.web.service import TableService
    from canasta.web.storage import AsyncStorage, open_storage

    async def scenario() -> None:
        now = [1_000_000.0]
        stores = [AsyncStorage(open_storage(storage_url)) for _ in range(2)]
        a, b = (TableService(store, bot_delay=0) for store in stores)
        for svc in (a, b):
            svc.clock = lambda: now[0]
        a.new_seed = lambda: 5
        created = await a.create({"preset": "two-player", "away_minutes": 1, "options": {"target": 1000},
                                  "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})
        on_a = await a.get(created["table"])
        on_b = await b.get(created["table"])
        assert on_a is not None and on_b is not None
        bob = on_a.match.state.to_act  # the game waits on Bob
        ann = Conn(1 - bob)
        on_a.connections.add(ann)
        on_a.connection_changed(ann.seat)
        await a.presence_changed(on_a, ann.seat)
        conn = Conn(bob)
        on_b.connections.add(conn)
        on_b.connection_changed(bob)
        await b.presence_changed(on_b, bob)
        assert await a.heartbeat() == 1 and on_a.elsewhere == {bob} and on_a.connected(bob)
        assert state_of(on_a, ann.seat)["table"]["players"][bob]["connected"] is True
        for _ in range(3):  # minutes pass; B's heartbeats say Bob is there
            now[0] += 50
            await b.heartbeat()
            await a.heartbeat()
            assert await a.tick() == 0 and bob not in on_a.away
        # Bob leaves B: A counts from when B last saw him.
        on_b.connections.discard(conn)
        on_b.connection_changed(bob)
        await b.presence_changed(on_b, bob)
        left = now[0]
        now[0] += 30
        assert await a.heartbeat() == 1 and not on_a.elsewhere and on_a.last_seen(bob) == left
        assert await a.tick() == 0
        now[0] += 31
        assert await a.tick() == 1 and on_a.away == {bob}
        await b.catch_up(on_b)
        assert on_b.away == {bob}
        await a.come_back(on_a, bob)  # what Bob's hello does (here on A)
        assert not on_a.away
        mine = make_bot("expert", random.Random(1))
        while on_a.person_to_act() != bob:  # the expert made Bob's turn meanwhile; Ann makes hers
            state = on_a.match.state
            assert on_a.person_to_act() == ann.seat, "the hand ended (choose another seed)"
            await a.submit(on_a, ann.seat, str(mine.choose(state.view(ann.seat), list(state.legal_moves()))),
                           on_a.state_id)
        # Bob connects to B again, and B dies without a word: its heartbeat goes stale, then he is away.
        await b.catch_up(on_b)
        on_b.connections.add(conn)
        on_b.connection_changed(bob)
        await b.presence_changed(on_b, bob)
        died = now[0]
        now[0] += PRESENCE_STALE - 1
        await a.heartbeat()
        assert on_a.elsewhere == {bob} and await a.tick() == 0
        now[0] = died + 60 + 1
        await a.heartbeat()
        assert not on_a.elsewhere and on_a.last_seen(bob) == died
        assert await a.tick() == 1 and on_a.away == {bob}
        for svc in (a, b):
            await svc.close()
        for store in stores:
            await store.close()

    asyncio.run(scenario())


def test_the_next_hand_waits_for_a_person_connected_to_another_server_process(storage_url: str) -> None:
    """Ann (on A) is ready; Bob is connected to B only: A waits for him, and deals once he leaves."""
    from canasta.web.service import TableService
    from canasta.web.storage import AsyncStorage, open_storage

    async def scenario() -> None:
        stores = [AsyncStorage(open_storage(storage_url)) for _ in range(2)]
        a, b = (TableService(store, bot_delay=0) for store in stores)
        a.new_seed = lambda: 8
        created = await a.create({"preset": "two-player",
                                  "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]})
        on_a = await a.get(created["table"])
        assert on_a is not None
        ann = Conn(0)
        on_a.connections.add(ann)
        await a.presence_changed(on_a, 0)
        await a.hand_over(on_a, 1, True)  # an expert plays Bob's seat for this hand, Ann plays as one too
        mine = make_bot("expert", random.Random(1))
        a.changed(on_a)
        while on_a.status == "playing":
            state = on_a.match.state
            if state.to_act == 0:
                await a.submit(on_a, 0, str(mine.choose(state.view(0), list(state.legal_moves()))), on_a.state_id)
                a.changed(on_a)
            await asyncio.sleep(0.002)
        await a.hand_over(on_a, 1, False)
        assert on_a.status == "hand_over"
        on_b = await b.get(created["table"])
        assert on_b is not None
        conn = Conn(1)
        on_b.connections.add(conn)
        await b.presence_changed(on_b, 1)
        await a.heartbeat()
        sid = on_a.state_id
        await a.ready(on_a, 0, sid)
        assert on_a.status == "hand_over" and on_a.waiting() == [1]
        on_b.connections.discard(conn)
        await b.presence_changed(on_b, 1)
        await a.heartbeat()  # Bob is gone from every process: he counts as ready, and A deals
        assert on_a.status == "playing" and on_a.state_id == sid + 1
        for svc in (a, b):
            await svc.close()
        for store in stores:
            await store.close()

    asyncio.run(scenario())


def state_of(table: Any, seat: int) -> Message:
    from canasta.web.protocol import state_message

    return state_message(table, seat)
