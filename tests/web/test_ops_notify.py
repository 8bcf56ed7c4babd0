"""Several server processes on one PostgreSQL: a commit reaches the others at once through LISTEN/NOTIFY.

Each test turns the slow poll (``follow``) off, so only a notification can carry the move."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from canasta.web.app import create_app

Message = dict[str, Any]


def until(ws: WebSocketTestSession, kinds: tuple[str, ...], seen: list[Message] | None = None) -> Message:
    while True:
        message: Message = ws.receive_json()
        if seen is not None:
            seen.append(message)
        if message["type"] in kinds:
            return message


def listening(client: TestClient) -> None:
    """Wait until the app's listening connection listens."""
    listener = client.app.state.listener  # type: ignore[attr-defined]
    assert listener is not None, "a PostgreSQL app listens"
    for _ in range(200):
        if listener.listening.is_set():
            return
        time.sleep(0.02)
    pytest.fail("the listening connection never listened")


def watch(ws: WebSocketTestSession, done: Any, seconds: float) -> list[Message]:
    """What the socket is sent within ``seconds`` (a ping every 20 ms ends each wait) until ``done(messages)``."""
    seen: list[Message] = []
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end and not done(seen):
            time.sleep(0.02)
            ws.send_json({"type": "ping"})
            until(ws, ("pong",), seen)
    except WebSocketDisconnect:  # the server closed it: what came before is all
        pass
    return seen


def seat_tokens(created: Message) -> list[str]:
    return [s["link"].split("#")[1] for s in created["seats"]]


def hello(ws: WebSocketTestSession, token: str) -> Message:
    ws.send_json({"type": "hello", "token": token})
    until(ws, ("welcome",))
    return until(ws, ("state",))


def test_a_move_made_through_one_process_reaches_another_without_polling(postgres_schema_url: str) -> None:
    with (TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0)) as a,
          TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0)) as b):
        listening(a)
        listening(b)
        created = a.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()
        table, tokens = created["table"], seat_tokens(created)
        with a.websocket_connect(f"/ws/{table}") as on_a, b.websocket_connect(f"/ws/{table}") as on_b:
            before = hello(on_a, tokens[2])
            seen = hello(on_b, tokens[1])
            on_b.send_json({"type": "move", "move": "draw", "state": seen["state"]})
            assert until(on_b, ("ack", "error"))["type"] == "ack"
            started = time.monotonic()
            got = watch(on_a, lambda ms: any(m["type"] == "state" and m["state"] > before["state"] for m in ms), 1.0)
            states = [m for m in got if m["type"] == "state"]
            assert states and states[-1]["state"] == before["state"] + 1, "process A never heard of B's move"
            assert time.monotonic() - started < 1.0
            assert [(e["seat"], e["move"]) for e in states[-1]["table"]["log"]] == [(1, "draw")]
            page = b.get("/metrics").text
            assert "canasta_listening 1.0" in page
            heard = next(line for line in page.splitlines() if line.startswith("canasta_notifications_total "))
            assert float(heard.split()[1]) >= 1
            # and the other way round: A's move reaches B
            now = states[-1]
            on_a2 = on_a
            on_b.send_json({"type": "chat", "text": "hello from B"})
            assert until(on_b, ("ack", "error"))["type"] == "ack"
            chat = watch(on_a2, lambda ms: any(m["type"] == "chat" for m in ms), 1.0)
            assert [line["text"] for m in chat if m["type"] == "chat" for line in m["messages"]] == ["hello from B"]
            assert now["state"] >= before["state"] + 1


def test_two_processes_moving_one_table_at_once_the_database_decides(postgres_schema_url: str) -> None:
    """The same seat's draw sent through A and B at the same moment: one is acknowledged, the other is stale, and
    both processes end with the one move."""
    with (TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0)) as a,
          TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0)) as b):
        listening(a)
        listening(b)
        created = a.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()
        table, tokens = created["table"], seat_tokens(created)
        with a.websocket_connect(f"/ws/{table}") as on_a, b.websocket_connect(f"/ws/{table}") as on_b:
            first = hello(on_a, tokens[1])
            hello(on_b, tokens[1])
            for ws in (on_a, on_b):
                ws.send_json({"type": "move", "move": "draw", "state": first["state"], "id": 1})
            seen: list[list[Message]] = [[], []]
            answers = sorted(until(ws, ("ack", "error"), got)["type"] for ws, got in zip((on_a, on_b), seen))
            assert answers == ["ack", "error"]
            for ws, got in zip((on_a, on_b), seen):
                got += watch(ws, lambda ms, got=got: any(m["type"] == "state" and m["state"] == first["state"] + 1
                                                         for m in got + ms), 1.0)
                last = [m for m in got if m["type"] == "state"]
                assert last and last[-1]["state"] == first["state"] + 1
                assert [(e["seat"], e["move"]) for e in last[-1]["table"]["log"]] == [(1, "draw")]


def test_a_link_renewed_on_one_process_closes_the_old_links_connections_on_another(postgres_schema_url: str) -> None:
    with (TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0)) as a,
          TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0)) as b):
        listening(a)
        listening(b)
        created = a.post("/api/tables", json={"seats": [{"kind": "human"}] * 2, "preset": "two-player"}).json()
        table, tokens = created["table"], seat_tokens(created)
        with a.websocket_connect(f"/ws/{table}") as on_a, b.websocket_connect(f"/ws/{table}") as old:
            hello(on_a, tokens[0])
            hello(old, tokens[0])  # whoever else holds the old link, on B
            on_a.send_json({"type": "renew", "id": 7})
            renewed = until(on_a, ("renewed", "error"))
            assert renewed["type"] == "renewed"
            refused = watch(old, lambda ms: any(m["type"] == "error" for m in ms), 1.0)
            assert [m["error"] for m in refused if m["type"] == "error"] == ["bad_token"]
            # the new link opens the seat on B, and a renewal announced late leaves it open
            with b.websocket_connect(f"/ws/{table}") as new:
                hello(new, renewed["token"])
                assert b.portal is not None
                b.portal.call(b.app.state.listener.handle,  # type: ignore[attr-defined]
                              f"renew {table} 0 another-process")
                assert watch(new, lambda ms: False, 0.3) and not any(
                    m["type"] == "error" for m in watch(new, lambda ms: False, 0.1))


def test_a_person_connecting_to_one_process_shows_online_on_another_at_once(postgres_schema_url: str) -> None:
    """Presence is read again on a notification, not only at the next heartbeat (every 5 s; here never)."""
    with (TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0, presence=0)) as a,
          TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0, presence=0)) as b):
        listening(a)
        listening(b)
        created = a.post("/api/tables", json={"seats": [{"kind": "human"}] * 2, "preset": "two-player"}).json()
        table, tokens = created["table"], seat_tokens(created)
        with a.websocket_connect(f"/ws/{table}") as on_a:
            first = hello(on_a, tokens[0])
            assert first["table"]["players"][1]["connected"] is False
            with b.websocket_connect(f"/ws/{table}") as on_b:
                hello(on_b, tokens[1])
                got = watch(on_a, lambda ms: any(m["type"] == "state" and m["table"]["players"][1]["connected"]
                                                 for m in ms), 1.0)
                assert any(m["type"] == "state" and m["table"]["players"][1]["connected"] for m in got)


def test_a_lost_listening_connection_is_opened_again_and_what_it_missed_is_caught_up(
        postgres_schema_url: str) -> None:
    import psycopg

    with (TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0)) as a,
          TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0)) as b):
        listening(a)
        listening(b)
        created = a.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()
        table, tokens = created["table"], seat_tokens(created)
        with a.websocket_connect(f"/ws/{table}") as on_a, b.websocket_connect(f"/ws/{table}") as on_b:
            seen = hello(on_a, tokens[1])
            before = hello(on_b, tokens[2])
            listener: Any = b.app.state.listener  # type: ignore[attr-defined]
            with psycopg.connect(postgres_schema_url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (listener.backend_pid,))
            on_a.send_json({"type": "move", "move": "draw", "state": seen["state"]})  # while B does not listen
            assert until(on_a, ("ack", "error"))["type"] == "ack"
            got = watch(on_b, lambda ms: any(m["type"] == "state" and m["state"] > before["state"] for m in ms), 3.0)
            assert any(m["type"] == "state" and m["state"] == before["state"] + 1 for m in got)
            assert listener.reconnects >= 1
            listening(b)


def test_the_turn_clock_runs_out_once_for_two_processes(postgres_schema_url: str) -> None:
    """Both processes hold the table and watch its turn clock; when it runs out, both try the computer's move for
    the person: the database keeps one, and both show the same table."""
    with (TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0, clock=0.05)) as a,
          TestClient(create_app(postgres_schema_url, bot_delay=0, follow=0, clock=0.05)) as b):
        listening(a)
        listening(b)
        created = a.post("/api/tables", json={"preset": "two-player", "turn_seconds": 0.5,
                                              "seats": [{"kind": "human"}] * 2}).json()
        table, tokens = created["table"], seat_tokens(created)
        with a.websocket_connect(f"/ws/{table}") as on_a, b.websocket_connect(f"/ws/{table}") as on_b:
            first = hello(on_a, tokens[0])
            hello(on_b, tokens[1])
            to_act = first["view"]["to_act"]
            ends: list[Message] = []
            for ws in (on_a, on_b):  # the seat to act does nothing: its draw and discard are made for it
                got = watch(ws, lambda ms: any(m["type"] == "state" and m["view"]["to_act"] != to_act for m in ms),
                            3.0)
                ends.append(next(m for m in got if m["type"] == "state" and m["view"]["to_act"] != to_act))
            logs = [[(e["seat"], e["move"]) for e in end["table"]["log"]] for end in ends]
            assert ends[0]["state"] == ends[1]["state"] and logs[0] == logs[1]
            assert [seat for seat, _ in logs[0]] == [to_act] * len(logs[0]), logs[0]  # one turn, made once
            events = a.app.state.service.tables[table].seq  # type: ignore[attr-defined]
            assert events == b.app.state.service.tables[table].seq  # type: ignore[attr-defined]


def test_notifications_of_unknown_kinds_or_tables_are_ignored() -> None:
    """A newer process may announce more; a table not held here is not loaded for a notification."""
    from types import SimpleNamespace

    from canasta.web.notify import Listener, channel_of

    service: Any = SimpleNamespace(tables={}, presence=SimpleNamespace(process="me"), is_loading=lambda table_id: False)
    listener = Listener(service, "postgresql://unused", "canasta.public")
    for payload in ("", "move", "move t1 x", "move t1 3", "renew t1", "presence t1 other", "resign t1 2", "m" * 9000):
        listener.handle(payload)
    assert listener.received == 8 and not listener._catching
    assert channel_of(object()) is None and channel_of(SimpleNamespace(channel="canasta.s")) == "canasta.s"


def test_a_move_committed_while_another_process_loads_the_table_is_not_missed(postgres_schema_url: str) -> None:
    """B reads the table's events; A commits a move before B holds the table: the notification waits for the load."""
    import asyncio

    from canasta.web.notify import Listener
    from canasta.web.service import TableService
    from canasta.web.storage import AsyncStorage, open_storage

    async def scenario() -> None:
        stores = [AsyncStorage(open_storage(postgres_schema_url)) for _ in range(2)]
        a, b = (TableService(store, bot_delay=0) for store in stores)
        listener = Listener(b, postgres_schema_url, stores[1].storage.channel)  # type: ignore[attr-defined]
        task = asyncio.get_running_loop().create_task(listener.run())
        await asyncio.wait_for(listener.listening.wait(), 10)
        created = await a.create({"preset": "two-player", "seats": [{"kind": "human"}] * 2})
        on_a = await a.get(created["table"])
        assert on_a is not None
        read = stores[1].events

        async def events_then_a_move(table_id: str, start: int = 0) -> Any:
            found = await read(table_id, start)
            await a.submit(on_a, on_a.match.state.to_act, "draw", on_a.state_id)  # after B's read
            await asyncio.sleep(0.1)  # its notification reaches B while B still loads
            return found

        stores[1].events = events_then_a_move  # type: ignore[method-assign]
        on_b = await b.get(created["table"])
        stores[1].events = read  # type: ignore[method-assign]
        assert on_b is not None and on_b.seq == on_a.seq - 1
        for _ in range(100):
            if on_b.seq == on_a.seq:
                break
            await asyncio.sleep(0.01)
        assert on_b.seq == on_a.seq, "the move made during the load was missed"
        task.cancel()
        await listener.close()
        for svc in (a, b):
            await svc.close()
        for store in stores:
            await store.close()

    asyncio.run(scenario())
