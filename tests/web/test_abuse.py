"""One person cannot stop another table (issue 33): text checked where it enters, one table's storage failure
kept to that table, computer players that never stop, CPU work off the event loop and bounded per seat and
per address, chat limited per seat and per address, and the away clock and take-back race as docs/protocol.md
says."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient

from canasta.web import service as web_service
from canasta.web.app import create_app
from canasta.web.limits import Guards, Limits, Waiting
from canasta.web.service import TableService
from canasta.web.storage import AsyncStorage, Event, StorageError, open_storage
from tests.web.test_security import HUMANS2, Message, make_client, until

BAD_TEXT = ["a\ud800b", "a\u0000b", "a\u001b[31mb", "a\u007fb", "a\u200bb", "a\u202eb", "a\u2066b", "\ufeffhi"]
"""A lone surrogate, NUL, ESC, DEL, a zero-width space, a right-to-left override, an isolate, a byte-order mark."""


@pytest.fixture(name="client")
def client_at_a_fresh_server(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def hello_state(stack: ExitStack, client: TestClient, created: Message, seat: int) -> tuple[Any, Message]:
    """A connection of the seat, closed when ``stack`` closes, and the first state it is sent."""
    ws = stack.enter_context(client.websocket_connect(f"/ws/{created['table']}"))
    ws.send_json({"type": "hello", "token": created["seats"][seat]["token"]})
    return ws, until(ws, "state")


def hello(stack: ExitStack, client: TestClient, created: Message, seat: int) -> Any:
    """A connection of the seat, closed when ``stack`` closes, once it has its first state."""
    return hello_state(stack, client, created, seat)[0]


def chat_rows(db: Path) -> list[tuple[int, str]]:
    store = open_storage(str(db))
    try:
        return [(e.seq, e.text) for e in store.events(store.table_ids()[0]) if e.kind == "chat"]
    finally:
        store.close()


# -- 1, 2, 7: text is checked where it enters --------------------------------------------------------------


@pytest.mark.parametrize("text", BAD_TEXT)
def test_a_chat_line_that_cannot_be_stored_or_shown_is_refused_by_name(tmp_path: Path, text: str) -> None:
    with make_client(tmp_path) as c, ExitStack() as stack:
        created = c.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
        ws = hello(stack, c, created, 0)
        ws.send_text(json.dumps({"type": "chat", "text": text, "id": 1}))  # "\ud800" as the escape JSON allows
        refused = until(ws, "ack")
        assert refused["error"] == "bad_message" and refused["id"] == 1
        assert "U+" in refused["message"] or "Unicode" in refused["message"]
        ws.send_json({"type": "chat", "text": "good game", "id": 2})
        assert until(ws, "ack")["move"] == "chat"
    assert [text for _, text in chat_rows(tmp_path / "s.sqlite3")] == ["good game"]


@pytest.mark.parametrize("text, kept", [
    ("  well\tplayed \n", "well played"), ("👨\u200d👩\u200d👧 ¡olé! 10♦", "👨\u200d👩\u200d👧 ¡olé! 10♦"),
    ("שלום", "שלום")])
def test_chat_keeps_every_script_and_emoji_on_one_line(client: TestClient, text: str, kept: str) -> None:
    created = client.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
    with ExitStack() as stack:
        ws = hello(stack, client, created, 0)
        ws.send_json({"type": "chat", "text": text})
        assert until(ws, "chat")["messages"][-1]["text"] == kept


@pytest.mark.parametrize("name", ["a\ud800", "Ann\u202e", "Bob\u0000", "Eve\u200b"])
def test_a_seat_name_that_cannot_be_stored_or_shown_is_refused(client: TestClient, name: str) -> None:
    answer = client.post("/api/tables", content=json.dumps(
        {"preset": "two-player", "seats": [{"kind": "human", "name": name}, {"kind": "human"}]}),
        headers={"content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["error"] == "bad_table"
    assert "seat 1" in answer.json()["message"]


def test_any_field_that_is_not_valid_unicode_is_a_bad_message(client: TestClient) -> None:
    created = client.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_text('{"type": "hello", "token": "\\ud800"}')  # was a server_error: the token's hash failed
        assert until(ws, "welcome")["error"] == "bad_message"
        ws.send_json({"type": "hello", "token": created["seats"][1]["token"]})
        assert until(ws, "welcome")["seat"] == 1
        ws.send_text('{"type": "move", "move": "meld \\udc00", "state": 1}')
        assert until(ws, "ack")["error"] == "bad_message"


# -- 1, 2: one table's storage failure stays that table's ---------------------------------------------------


@pytest.mark.parametrize("bad", ["a\ud800b", "a\u0000b"])
def test_an_event_storage_cannot_keep_fails_alone_in_its_group_commit(storage_url: str, bad: str) -> None:
    """Events of several tables queued at once are committed together; the one the database refuses (a lone
    surrogate for SQLite, NUL for PostgreSQL) fails alone and the others are written."""
    async def run() -> list[object]:
        storage = AsyncStorage(open_storage(storage_url))
        try:
            for name in ("a", "b", "c"):
                await storage.create_table(name, {}, {})
            hold = asyncio.ensure_future(storage._call(time.sleep, 0.3))  # the appends queue up behind it
            await asyncio.sleep(0.05)
            appends = [storage.append("a", Event(0, "move", 0, "draw", 1.0)),
                       storage.append("b", Event(0, "chat", 0, bad, 1.0)),
                       storage.append("c", Event(0, "move", 1, "draw", 1.0))]
            results = await asyncio.gather(*appends, return_exceptions=True)
            await hold
            assert [e.text for e in await storage.events("a")] == ["draw"]
            assert [e.text for e in await storage.events("c")] == ["draw"]
            assert len(await storage.events("b")) == (results[1] is True)
            return results
        finally:
            await storage.close()

    first, refused, third = asyncio.run(run())
    if storage_url.endswith(".sqlite3") and bad == "a\u0000b":  # SQLite stores NUL: nothing to refuse
        assert refused is True
    elif not storage_url.endswith(".sqlite3") and bad == "a\ud800b":  # psycopg refuses to send it
        assert isinstance(refused, StorageError)
    else:
        assert isinstance(refused, StorageError) and "\ud800" not in str(refused)
    assert first is True and third is True


def test_computer_players_never_stop_on_a_failed_turn(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Whatever a computer player's turn raises is logged by its kind and tried again: the bots play on."""
    async def run() -> int:
        storage = AsyncStorage(open_storage(str(tmp_path / "bots.sqlite3")))
        service = TableService(storage, bot_delay=0)
        service.retry = (0.01, 0.04)
        service.new_seed = lambda: 5
        try:
            created = await service.create({"preset": "classic", "seats": [
                {"kind": "human"}, {"kind": "basic"}, {"kind": "basic"}, {"kind": "basic"}]})
            table = service.tables[created["table"]]
            failures = [UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed"), RuntimeError("bug")]
            real = table.driver.bot_turn

            def flaky() -> Any:
                if failures:
                    raise failures.pop()
                return real()

            table.driver.bot_turn = flaky  # type: ignore[method-assign]
            await service.close()  # the task started at creation used the real turn: begin again
            service.changed(table)
            deadline = time.monotonic() + 60
            while not (table.match.state.to_act == 0 and table.state_id > 1) and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            return table.state_id
        finally:
            await service.close()
            await storage.close()

    with caplog.at_level(logging.WARNING, logger="canasta.web"):
        state_id = asyncio.run(run())
    assert state_id > 1, "the computer players stopped"
    tries = [r.getMessage() for r in caplog.records if "trying again" in r.getMessage()]
    assert any("RuntimeError" in t for t in tries) and any("UnicodeEncodeError" in t for t in tries)
    assert not any("stopped" in r.getMessage() for r in caplog.records)


# -- 3: CPU work off the event loop, bounded per seat and per address -----------------------------------


def test_resolve_and_hints_are_worked_out_off_the_event_loop(client: TestClient,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    real_resolve, real_hint = web_service.resolve_selection, web_service.hint

    def resolve(*args: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real_resolve(*args)

    def hint(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real_hint(*args, **kwargs)

    monkeypatch.setattr(web_service, "resolve_selection", resolve)
    monkeypatch.setattr(web_service, "hint", hint)
    created = client.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
    for seat in (0, 1):
        with ExitStack() as stack:
            ws, state = hello_state(stack, client, created, seat)
            if state["legal"]:
                ws.send_json({"type": "resolve", "cards": [], "action": "draw", "state": state["state"], "id": "r"})
                assert until(ws, "moves")["moves"] == ["draw"]
                ws.send_json({"type": "hint", "state": state["state"], "id": "h"})
                assert until(ws, "hint")["move"] == "draw"
    assert len(threads) == 2 and all(name.startswith("canasta-cpu") for name in threads), threads


def slow_resolve(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    real = web_service.resolve_selection

    def slow(*args: Any) -> Any:
        time.sleep(seconds)
        return real(*args)

    monkeypatch.setattr(web_service, "resolve_selection", slow)


def test_a_seat_has_one_selection_under_way_over_all_its_connections(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    slow_resolve(monkeypatch, 0.3)
    with make_client(tmp_path) as c, ExitStack() as stack:
        created = c.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
        _, first = hello_state(stack, c, created, 0)
        seat, state = (0, first["state"]) if first["legal"] else (1, first["state"])
        sockets = [hello(stack, c, created, seat) for _ in range(2)]
        for ws in sockets:
            ws.send_json({"type": "resolve", "cards": [], "action": "draw", "state": state, "id": "r"})
        answers = [until(ws, "moves") for ws in sockets]
        assert sorted(a.get("error", "moves") for a in answers) == ["moves", "rate_limited"], answers
        refused = next(a for a in answers if "error" in a)
        assert "still being worked out" in refused["message"]
        sockets[0].send_json({"type": "resolve", "cards": [], "action": "draw", "state": state, "id": "again"})
        assert until(sockets[0], "moves")["moves"] == ["draw"]  # once answered, the seat may ask again


def test_hints_and_selections_are_limited_per_address(tmp_path: Path) -> None:
    with make_client(tmp_path, work_per_second=0.01, work_burst=3) as c, ExitStack() as stack:
        answers = []
        for _ in range(2):  # two tables, each on a connection of its own: one address
            created = c.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
            for seat in (0, 1):
                ws, state = hello_state(stack, c, created, seat)
                if state["legal"]:
                    for _ in range(2):
                        ws.send_json({"type": "resolve", "cards": [], "action": "draw", "state": state["state"]})
                        answers.append(until(ws, "moves").get("error", "moves"))
    assert answers == ["moves", "moves", "moves", "rate_limited"]


def test_guards_count_work_per_seat_and_address_and_give_it_back() -> None:
    guards = Guards(Limits(work_per_seat=1, work_per_address=2))
    assert guards.start_work("t", 0, "a") is None
    assert "still being worked out" in (guards.start_work("t", 0, "a") or "")
    assert guards.start_work("t", 1, "a") is None
    assert "your address" in (guards.start_work("u", 0, "a") or "")
    assert guards.start_work("v", 0, "b") is None  # another address
    guards.end_work("t", 0, "a")
    assert guards.start_work("u", 0, "a") is None
    for key in (("t", 1, "a"), ("u", 0, "a"), ("v", 0, "b")):
        guards.end_work(*key)
    assert not guards.seat_work.under_way and not guards.address_work.under_way


# -- 4: chat per seat and per address; storage keeps the last 50 -------------------------------------------


def test_chat_is_limited_per_seat_over_all_its_connections(tmp_path: Path) -> None:
    with make_client(tmp_path, chats_burst=3, chats_per_second=0.01) as c, ExitStack() as stack:
        created = c.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
        sockets = [hello(stack, c, created, 0) for _ in range(4)]
        names = []
        for i, ws in enumerate(sockets):
            ws.send_json({"type": "chat", "text": f"line {i}", "id": i})
            names.append(until(ws, "ack").get("error", "ack"))
        assert names == ["ack", "ack", "ack", "rate_limited"]
        other = hello(stack, c, created, 1)  # the other seat has its own lines
        other.send_json({"type": "chat", "text": "hello"})
        assert until(other, "ack")["move"] == "chat"


def test_chat_is_limited_per_address_over_all_its_seats(tmp_path: Path) -> None:
    with make_client(tmp_path, chats_per_address_burst=3, chats_per_address_per_second=0.01) as c, ExitStack() as stack:
        names = []
        for _ in range(2):
            created = c.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
            for seat in (0, 1):
                ws = hello(stack, c, created, seat)
                ws.send_json({"type": "chat", "text": "hi"})
                names.append(until(ws, "ack").get("error", "ack"))
        assert names == ["ack", "ack", "ack", "rate_limited"]


def test_storage_keeps_the_last_fifty_chat_lines_and_a_restart_shows_them(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    roomy = {"chats_burst": 100, "chats_per_address_burst": 100, "messages_burst": 200}
    with make_client(tmp_path, **roomy) as c, ExitStack() as stack:
        created = c.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
        ws = hello(stack, c, created, 0)
        for i in range(60):
            ws.send_json({"type": "chat", "text": f"line {i}"})
            until(ws, "ack")
    rows = chat_rows(db)
    assert len(rows) == 60  # the log keeps its numbering ...
    assert [text for _, text in rows if text] == [f"line {i}" for i in range(10, 60)]  # ... and the last 50 lines
    with make_client(tmp_path) as c, ExitStack() as stack:
        ws = hello(stack, c, created, 1)
        assert [m["text"] for m in until(ws, "chat")["messages"]] == [f"line {i}" for i in range(10, 60)]


def test_chat_does_not_keep_a_table_from_expiring(storage_url: str) -> None:
    store = open_storage(storage_url)
    try:
        store.create_table("quiet", {}, {})
        store.append("quiet", [Event(0, "deal", None, "", 1000.0), Event(1, "chat", 0, "anyone?", 5000.0)])
        assert store.expire(idle_before=2000.0, over_before=0.0) == ["quiet"]
    finally:
        store.close()


# -- 5, 6: the take-back race and the away clock -----------------------------------------------------------


def test_taking_a_seat_back_while_its_stand_in_waits_stops_no_computer_player(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> None:
        storage = AsyncStorage(open_storage(str(tmp_path / "t.sqlite3")))
        service = TableService(storage, bot_delay=0.2)
        service.new_seed = lambda: 5
        try:
            created = await service.create({"preset": "classic", "seats": [
                {"kind": "human"}, {"kind": "basic"}, {"kind": "basic"}, {"kind": "basic"}]})
            table = service.tables[created["table"]]
            deadline = time.monotonic() + 60
            while table.match.state.to_act != 0 and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            await service.hand_over(table, 0, True)  # the person leaves the seat to the computer ...
            service.changed(table)
            await asyncio.sleep(0.05)
            await service.hand_over(table, 0, False)  # ... and takes it back while the stand-in waits its delay
            await asyncio.sleep(0.4)
            assert table.match.state.to_act == 0 and 0 not in table.driver.stand_ins
            assert table.bot_task is not None and table.bot_task.done() and table.bot_task.exception() is None
            while table.match.state.to_act == 0 and table.status == "playing":  # the person's turn, to its discard
                moves = list(table.match.state.legal_moves())
                move = next((m for m in moves if m.action == "discard"), moves[0])
                await service.submit(table, 0, str(move), table.state_id)
            service.changed(table)
            played = table.state_id
            while table.state_id == played and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            assert table.state_id > played  # the next computer player moved
        finally:
            await service.close()
            await storage.close()

    with caplog.at_level(logging.INFO, logger="canasta.web"):
        asyncio.run(run())
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_second_hello_on_one_connection_starts_the_first_seats_away_clock(client: TestClient) -> None:
    created = client.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
    app_service = client.app.state.service  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
        until(ws, "state")
        table = app_service.tables[created["table"]]
        assert 0 not in table.gone_since and table.connected(0)
        ws.send_json({"type": "hello", "token": created["seats"][1]["token"]})
        assert until(ws, "welcome")["seat"] == 1
        assert 0 in table.gone_since and not table.connected(0)  # seat 0 has no connection: its clock runs
        assert 1 not in table.gone_since and table.connected(1)


# -- 7: every seat left to the computer; idle sockets from many addresses ----------------------------------


def test_with_every_person_left_to_the_computer_the_next_hand_waits_for_a_ready(tmp_path: Path) -> None:
    async def run() -> None:
        storage = AsyncStorage(open_storage(str(tmp_path / "t.sqlite3")))
        service = TableService(storage, bot_delay=0)
        service.new_seed = lambda: 5
        try:
            created = await service.create({"preset": "two-player", "seats": HUMANS2})
            table = service.tables[created["table"]]
            for seat in (0, 1):
                await service.hand_over(table, seat, True)
            service.changed(table)
            deadline = time.monotonic() + 60
            while table.status == "playing" and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.1)
            assert table.status == "hand_over" and len(table.match.hands) == 1  # nobody dealt
            await service.ready(table, 1, table.state_id)
            assert len(table.match.hands) == 2
        finally:
            await service.close()
            await storage.close()

    asyncio.run(run())


def test_idle_sockets_from_many_addresses_never_keep_a_player_out() -> None:
    waiting = Waiting(Limits(pending_per_client=3, pending_sockets=6))
    closed: list[str] = []
    for n in range(6):  # three addresses, two idle sockets each: every place taken
        address = f"10.0.0.{n % 3}"
        assert waiting.enter(address, lambda a=address: closed.append(a)) is not None  # type: ignore[misc]
    assert waiting.enter("10.0.0.0", lambda: None) is None  # an idler gains nothing from the crowd
    player = waiting.enter("192.0.2.7", lambda: closed.append("player"))
    assert player is not None and closed == ["10.0.0.0"]  # the oldest socket of a crowded address made room
    assert waiting.count == 6
    waiting.leave("192.0.2.7", player)  # the player said hello
    assert waiting.count == 5 and "192.0.2.7" not in waiting.places
    assert waiting.enter("10.0.0.1", lambda: None) is not None
    assert waiting.enter("10.0.0.1", lambda: None) is None  # three of one address: its own cap


def test_a_player_gets_in_past_idle_sockets_from_many_addresses(tmp_path: Path) -> None:
    """A real server (idle sockets need addresses of their own): two idlers' sockets fill every place; a player
    from a third address still says hello, and the idler's oldest socket is told ``busy`` and closed."""
    import httpx
    import uvicorn
    from websockets.sync.client import connect

    from tests.web.browser_helpers import free_port

    port = free_port()
    app = create_app(str(tmp_path / "s.sqlite3"), bot_delay=0, limits=Limits(pending_sockets=4, pending_per_client=3))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        url = f"ws://127.0.0.1:{port}/ws/"
        created = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"preset": "two-player", "seats": HUMANS2},
                             timeout=10).json()
        with ExitStack() as stack:
            idle = [stack.enter_context(connect(url + "idle", source_address=(f"127.0.0.{2 + n % 2}", 0)))
                    for n in range(4)]
            time.sleep(0.2)
            player = stack.enter_context(connect(url + created["table"], source_address=("127.0.0.9", 0)))
            player.send(json.dumps({"type": "hello", "token": created["seats"][0]["token"]}))
            assert json.loads(player.recv(timeout=10))["type"] == "welcome"
            told = json.loads(idle[0].recv(timeout=10))
            assert told["error"] == "busy"
    finally:
        server.should_exit = True
        thread.join(10)
