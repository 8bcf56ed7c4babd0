"""Duplicate tournaments on the server (issue 31, points 1, 3 and 4): tables of computers play the same boards
from the same decks, the standings come from the tables' own hands, nothing of a board unplayed leaves the
server, and a server started again on the same database goes on where the tables were."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from canasta.bots.tournament import BoardResult, Scoreboard
from canasta.web.requests import RequestError
from canasta.web.service import TableService
from canasta.web.storage import AsyncStorage, open_storage
from canasta.web.tournaments.boards import BoardMatch
from canasta.web.tournaments.service import TournamentService, parse_request

EXPERTS = ["expert"] * 4
BODY: dict[str, Any] = {"preset": "classic", "boards": 2, "tables": [EXPERTS, ["basic"] * 4], "minimums": [50, 90]}


async def until(predicate: Any, seconds: float = 120.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


def test_two_tables_of_computers_play_the_same_boards_and_are_scored(tmp_path: Path) -> None:
    async def scenario() -> None:
        storage = AsyncStorage(open_storage(str(tmp_path / "t.sqlite3")))
        svc = TableService(storage, bot_delay=0)
        tournaments = TournamentService(svc)
        created = await tournaments.create(parse_request(BODY, seed=11))
        ids = [t["table_id"] for t in created["tables"]]
        tables = [await svc.get(i) for i in ids]
        assert all(t is not None and isinstance(t.match, BoardMatch) for t in tables)
        await until(lambda: all(t is not None and t.status == "over" for t in tables))
        matches = [t.match for t in tables if t is not None]
        assert [h["deck"] for h in matches[0].hands] == [h["deck"] for h in matches[1].hands]  # the same boards
        assert [h["dealer"] for h in matches[0].hands] == [0, 1]
        assert matches[0].seed is None and "seed" not in matches[0].to_record(0)
        view = await tournaments.view(created["tournament"])
        assert view is not None and view["over"] and view["visible_boards"] == 2
        assert view["minimums"] == [[50, 50], [90, 90]]
        expected = Scoreboard(parse_request(BODY, seed=11).tournament)
        for number, match in enumerate(matches):
            for board, result in enumerate(match.results):
                expected.record(BoardResult(board, number, tuple(result.totals)))
        assert view["standings"] == [s.to_json() for s in expected.standings()]
        assert sum(s["matchpoints"] for s in view["standings"]) == 2 * 2 * 2 * 1  # 2 boards, 2 directions, top 2
        assert matches[0].is_over and not await svc._deal_if_ready(tables[0])  # type: ignore[arg-type]
        await svc.close()
        await storage.close()

    asyncio.run(scenario())


def test_a_request_is_refused_in_one_sentence() -> None:
    for body, words in (({**BODY, "tables": [EXPERTS]}, "2 to"), ({**BODY, "boards": 0}, "boards"),
                        ({**BODY, "seed": 3}, "unknown field 'seed'"), ({**BODY, "minimums": [60]}, "60")):
        with pytest.raises(Exception) as refused:
            parse_request(body)
        assert words in str(refused.value), refused.value
    with pytest.raises(RequestError):
        parse_request([])


def test_a_restarted_server_goes_on_with_a_board_half_played(tmp_path: Path) -> None:
    body = {**BODY, "tables": [EXPERTS, ["human:Ann", "expert", "expert", "expert"]], "away_minutes": 0}

    async def scenario() -> None:
        path = str(tmp_path / "t.sqlite3")
        storage = AsyncStorage(open_storage(path))
        svc = TableService(storage, bot_delay=0)
        created = await TournamentService(svc).create(parse_request(body, seed=5))
        first, second = [await svc.get(t["table_id"]) for t in created["tables"]]
        assert first is not None and second is not None
        await until(lambda: first.status == "over" and second.person_to_act() == 0)
        moves_before = len(second.match.hands[0]["moves"])
        assert moves_before > 0 and second.status == "playing"  # Ann is to act, mid-board
        await svc.close()
        await storage.close()

        storage = AsyncStorage(open_storage(path))  # the server is started again
        svc = TableService(storage, bot_delay=0)
        tournaments = TournamentService(svc)
        view = await tournaments.view(created["tournament"])
        assert view is not None and [t["played"] for t in view["tables"]] == [2, 0]
        assert view["tables"][1]["board"] == 0 and view["visible_boards"] == 0 and view["standings"] == []
        second = await svc.get(created["tables"][1]["table_id"])
        assert second is not None and len(second.match.hands[0]["moves"]) == moves_before
        await svc.hand_over(second, 0, True)  # Ann leaves her seat to the computer: it is marked
        view = await tournaments.view(created["tournament"])
        assert view is not None and view["tables"][1]["away"] == [0]
        svc.changed(second)
        await until(lambda: second.status == "over")
        view = await tournaments.view(created["tournament"])
        assert view is not None and view["over"] and view["visible_boards"] == 2
        first = await svc.get(created["tables"][0]["table_id"])
        assert first is not None and first.match.hands[1]["deck"] == second.match.hands[1]["deck"]
        await svc.close()
        await storage.close()

    asyncio.run(scenario())


def test_a_slow_table_does_not_hold_the_others_beyond_the_round_time(tmp_path: Path) -> None:
    body = {**BODY, "tables": [EXPERTS, ["human:Ann", "expert", "expert", "expert"]], "away_minutes": 0,
            "round_minutes": 30}

    async def scenario() -> None:
        storage = AsyncStorage(open_storage(str(tmp_path / "t.sqlite3")))
        svc = TableService(storage, bot_delay=0)
        now = [1000.0]
        tournaments = TournamentService(svc, clock=lambda: now[0])
        created = await tournaments.create(parse_request(body, seed=3))
        tid = created["tournament"]
        first, second = [await svc.get(t["table_id"]) for t in created["tables"]]
        assert first is not None and second is not None
        await until(lambda: first.status == "over" and second.person_to_act() == 0)
        now[0] += 29 * 60  # Ann thinks: before the round time, table 2 holds the results back
        view = await tournaments.view(tid)
        assert view is not None and not view["over"] and view["visible_boards"] == 0 and view["ends"] == 2800
        now[0] += 60
        view = await tournaments.view(tid)
        assert view is not None and view["over"] and view["visible_boards"] == 2
        assert [t["stopped"] for t in view["tables"]] == [False, True]
        ann = [s for board in view["board_scores"] for s in board if s["table"] == 1]
        assert [s["adjusted"] for s in ann] == [40] * 4 and all(s["totals"] is None for s in ann)
        await svc.hand_over(second, 0, True)  # Ann's board is played at last: too late to count
        svc.changed(second)
        await until(lambda: second.status == "over")
        later = await tournaments.view(tid)
        assert later is not None and later["tables"][1].pop("away") == [0]  # marked: the computer played Ann's seat
        view["tables"][1].pop("away")
        assert later == view
        await svc.close()
        await storage.close()

    asyncio.run(scenario())


def test_the_command_line_creates_a_tournament_that_a_server_plays(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.cli import main

    db = str(tmp_path / "t.sqlite3")
    assert main(["tournament", "create", "--db", db, "--tables", "2", "--boards", "2", "--minimum", "50,90",
                 "--seats", "human:Ann,expert,open,expert", "--seats", "basic,basic,basic,basic",
                 "--url", "https://club.example", "--away-minutes", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("tournament: https://club.example/tournament/") and len(lines) == 3
    assert lines[1].startswith("table 1, seat 1 (Ann): https://club.example/t/")
    assert main(["tournament", "create", "--db", db, "--tables", "2", "--boards", "2", "--minimum", "60"]) == 2
    assert "60 is not in the rules" in capsys.readouterr().err
    tid = lines[0].rsplit("/", 1)[1]

    async def scenario() -> None:  # a server started on the database plays the tables of computers
        storage = AsyncStorage(open_storage(db))
        svc = TableService(storage, bot_delay=0)
        tournaments = TournamentService(svc)
        view = await tournaments.view(tid)
        assert view is not None and view["minimums"] == [[50, 50], [90, 90]]
        assert view["tables"][0]["players"] == ["Ann", "Expert 2", "Player 3", "Expert 4"]
        await until(lambda: all(t.match.is_over for t in svc.tables.values() if not t.has_humans))
        view = await tournaments.view(tid)
        assert view is not None and [t["played"] for t in view["tables"]] == [0, 2]
        await svc.close()
        await storage.close()

    asyncio.run(scenario())
