"""A tournament's rounds close on time (issue 31): the server's job closes a round at its end, whether anybody
looks at the tournament or not, so a late table's board is scored as late; of two server processes on one
database, the first close of a round wins."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient

from canasta.web.app import create_app
from canasta.web.service import TableService
from canasta.web.storage import AsyncStorage, open_storage
from canasta.web.tournaments import service as tournaments_service
from canasta.web.tournaments import store
from canasta.web.tournaments.service import TournamentService, parse_request

EXPERTS = ["expert"] * 4
BODY: dict[str, Any] = {"preset": "classic", "boards": 2, "minimums": [50, 90], "away_minutes": 0,
                        "tables": [EXPERTS, ["human:Ann", "expert", "expert", "expert"]]}


async def until(predicate: Any, seconds: float = 120.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


def test_the_job_closes_a_round_at_its_end_without_a_look(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = AsyncStorage(open_storage(str(tmp_path / "t.sqlite3")))
        svc = TableService(storage, bot_delay=0)
        now = [1000.0]
        tournaments = TournamentService(svc, clock=lambda: now[0])
        created = await tournaments.create(parse_request({**BODY, "round_minutes": 30}, seed=3))
        tid = created["tournament"]
        first, second = [await svc.get(t["table_id"]) for t in created["tables"]]
        assert first is not None and second is not None
        await until(lambda: first.status == "over" and second.person_to_act() == 0)
        assert await storage.run(store.due, storage.storage, now[0]) == []
        now[0] += 29 * 60
        assert await tournaments.close_due() == 0  # one query, nothing due
        now[0] += 60
        assert await storage.run(store.due, storage.storage, now[0]) == [tid]
        assert await tournaments.close_due() == 1
        found = await storage.run(store.load, storage.storage, tid)
        assert found is not None and found.closed == [[2, 0]]  # closed by the job: nobody looked
        assert await storage.run(store.due, storage.storage, now[0] + 3600) == []  # the last round: none left
        view = await tournaments.view(tid)
        assert view is not None and view["over"] and view["rounds_closed"] == 1
        assert [t["late"] for t in view["tables"]] == [0, 2] and [t["stopped"] for t in view["tables"]] == [False, True]
        await svc.close()
        await storage.close()

    asyncio.run(scenario())


def test_each_round_s_end_is_the_next_deadline_and_a_finished_tournament_has_none(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = AsyncStorage(open_storage(str(tmp_path / "t.sqlite3")))
        svc = TableService(storage, bot_delay=0)
        now = [1000.0]
        tournaments = TournamentService(svc, clock=lambda: now[0])
        body = {**BODY, "tables": [EXPERTS, ["basic"] * 4], "rounds": 2, "round_minutes": 10}
        created = await tournaments.create(parse_request(body, seed=5))
        tid = created["tournament"]
        tables = [await svc.get(t["table_id"]) for t in created["tables"]]
        await until(lambda: all(t is not None and t.status == "over" for t in tables))
        now[0] += 10 * 60
        assert await tournaments.close_due() == 1
        found = await storage.run(store.load, storage.storage, tid)
        assert found is not None and found.closed == []  # every board played in time: nothing to close
        assert await storage.run(store.due, storage.storage, now[0] + 86400) == []
        await svc.close()
        await storage.close()

    asyncio.run(scenario())


def test_of_two_processes_closing_one_round_the_first_wins(storage_url: str) -> None:
    one, two = open_storage(storage_url), open_storage(storage_url)
    try:
        spec = {"format": {}, "round_minutes": 1}
        store.save(one, "tid", None, False, spec, ["a", "b"], now=100.0)
        assert store.due(one, 159.0) == [] and store.due(two, 160.0) == ["tid"]
        assert store.close(one, "tid", 0, [1, 0], 220.0) == [[1, 0]]
        assert store.close(two, "tid", 0, [2, 1], 220.0) == [[1, 0]]  # the same round again: the first stands
        assert store.due(two, 219.0) == [] and store.due(two, 220.0) == ["tid"]
        assert store.close(two, "tid", 1, [2, 2], None) == [[1, 0], [2, 2]]
        assert store.due(one, 10.0**9) == []
        for number in range(8):  # both at once, each with its own counts: one close stands, both see it
            store.save(one, f"t{number}", None, False, spec, ["a", "b"], now=100.0)
            with ThreadPoolExecutor(2) as pool:
                answers = list(pool.map(lambda s: store.close(s[0], s[1], 0, s[2], 220.0),
                                        [(one, f"t{number}", [1, 0]), (two, f"t{number}", [2, 1])]))
            assert answers[0] == answers[1] and answers[0] in ([[1, 0]], [[2, 1]])
            found = store.load(two, f"t{number}")
            assert found is not None and found.closed == answers[0]
    finally:
        one.close()
        two.close()


def test_the_server_closes_a_round_on_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournaments_service, "CLOSE_EVERY", 0.1)
    db = str(tmp_path / "canasta.sqlite3")
    with TestClient(create_app(db, bot_delay=0, follow=0, presence=0)) as client:
        assert client.post("/api/account/signup", json={"name": "Organiser", "password": "a long password"}
                           ).status_code == 201
        answer = client.post("/api/tournaments", json={**BODY, "round_minutes": 0.01})  # 0.6 seconds
        assert answer.status_code == 201, answer.text
        tid = answer.json()["tournament"]
        storage = open_storage(db)
        try:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                found = store.load(storage, tid)
                if found is not None and found.closed:
                    break
                time.sleep(0.05)
            assert found is not None and len(found.closed) == 1 and found.closed[0][1] == 0  # Ann never played
        finally:
            storage.close()
        view = client.get(f"/api/tournaments/{tid}").json()
        assert view["over"] and view["rounds_closed"] == 1 and view["tables"][1]["late"] == 2
