"""The web's table: computer players that survive storage failures and play a table of their own to the end,
seeds no player may choose behind the others' backs, and tables stored before ``seeding`` that replay as they did.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient

from canasta.web.app import create_app
from canasta.web.served import ServedTable
from canasta.web.service import TableService
from canasta.web.storage import AsyncStorage, Event, StorageError, open_storage

DATA = Path(__file__).resolve().parents[1] / "play" / "data"
BOTS_AND_ONE = [{"kind": "human"}, {"kind": "basic"}, {"kind": "basic"}, {"kind": "basic"}]


class FlakyStorage:
    """Storage whose first ``failures`` appends after the first deal fail, as a full disk or a restarting database."""

    def __init__(self, inner: AsyncStorage, failures: int) -> None:
        self.inner = inner
        self.failures = failures
        self.refused = 0

    async def append(self, table_id: str, event: Event) -> bool:
        if event.seq > 0 and self.failures > 0:
            self.failures -= 1
            self.refused += 1
            raise StorageError("database is locked (disk full)")
        return await self.inner.append(table_id, event)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


async def wait_for(check: Any, seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("it never happened")


def test_computer_players_resume_by_themselves_once_storage_is_back(tmp_path: Path) -> None:
    async def run() -> tuple[int, int]:
        flaky = FlakyStorage(AsyncStorage(open_storage(str(tmp_path / "flaky.sqlite3"))), failures=4)
        service = TableService(flaky, bot_delay=0)  # type: ignore[arg-type]
        service.retry = (0.01, 0.04)  # seconds before the first retry, and the most
        service.new_seed = lambda: 5
        try:
            created = await service.create({"preset": "classic", "seats": BOTS_AND_ONE})
            table = service.tables[created["table"]]
            # seat 1 moves first: its move fails four times, then the three bots play up to seat 0
            await wait_for(lambda: table.match.state.to_act == 0 and table.state_id > 1)
            return flaky.refused, table.state_id
        finally:
            await service.close()
            await flaky.inner.close()

    refused, state_id = asyncio.run(run())
    assert refused == 4 and state_id >= 7  # three bots drew and discarded (at least)


def test_a_table_of_computer_players_plays_to_the_match_end(tmp_path: Path) -> None:
    async def run() -> ServedTable:
        service = TableService(AsyncStorage(open_storage(str(tmp_path / "bots.sqlite3"))), bot_delay=0)
        service.new_seed = lambda: 7  # a match of several hands
        try:
            created = await service.create({"preset": "classic", "target": 1000, "seats": [{"kind": "basic"}] * 4})
            table = service.tables[created["table"]]
            await wait_for(lambda: table.match.is_over, 120)
            return table
        finally:
            await service.close()
            await service.storage.close()

    table = asyncio.run(run())
    assert table.status == "over" and len(table.match.hands) >= 2


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "seeds.sqlite3"), bot_delay=30)) as c:
        yield c


def first_state(client: TestClient, created: dict[str, Any], link: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_json({"type": "hello", "token": link.split("#", 1)[1]})
        while (message := ws.receive_json())["type"] != "state":
            pass
    return dict(message)


def test_a_seed_is_never_chosen_at_a_table_of_several_people(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "basic"}] * 2, "seed": 12})
    assert answer.status_code == 400
    assert answer.json()["error"] == "seed_refused" and "every hand" in answer.json()["message"]
    assert client.get("/api/health").json()["tables"] == 0


def test_a_seed_chosen_at_a_table_of_one_person_is_told_to_every_seat(client: TestClient) -> None:
    created = client.post("/api/tables", json={"seats": BOTS_AND_ONE, "seed": 12}).json()
    assert "seed" not in json.dumps(created)  # the answer names no seed: the table tells it
    assert first_state(client, created, created["seats"][0]["link"])["table"]["seed"] == 12
    assert first_state(client, created, created["spectator"]["link"])["table"]["seed"] == 12
    chosen_by_server = client.post("/api/tables", json={"seats": BOTS_AND_ONE}).json()
    assert "seed" not in first_state(client, chosen_by_server, chosen_by_server["seats"][0]["link"])["table"]


def test_a_table_stored_before_seeding_existed_replays_to_the_same_deals() -> None:
    stored = json.loads((DATA / "web_table_ed11542.json").read_text())
    assert "seeding" not in stored["spec"]
    table = ServedTable("old", stored["spec"])
    for event in stored["events"]:
        table.apply(Event(event["seq"], event["kind"], event["seat"], event["text"], 2.0))
    assert [hand["deck"] for hand in table.match.hands] == stored["decks"]
    assert table.state_id == len(stored["events"])
