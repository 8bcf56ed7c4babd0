"""The organiser's side of a duplicate tournament on the server (issue 31, point 1): the form's page, every field
checked in one sentence, creation rate-limited per account and per address, names and rounds, the public ones
listed for the room's lobby, the game page's banner, the finished tables' links into the room's history, and
tournament tables that storage's expiry keeps while their tournament plays.  Every answer is checked for cards
and the seed as the leak tests do (:mod:`tests.web.test_tournament_leaks`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient

from canasta.web.app import create_app
from canasta.web.security import token_hash
from canasta.web.service import TableService
from canasta.web.storage import AsyncStorage, open_storage
from canasta.web.tournaments import store
from canasta.web.tournaments.service import TournamentService, parse_request

from .test_tournament_leaks import CARD, check_no_secret, wait_for

EXPERTS = ["expert"] * 4
BODY: dict[str, Any] = {"name": "Club night", "preset": "classic", "boards": 2, "minimums": [50, 90],
                        "away_minutes": 0, "tables": [EXPERTS, ["human:Ann", "expert", None, "expert"]]}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "canasta.sqlite3")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0, follow=0, presence=0)) as test_client:
        yield test_client


def sign_up(client: TestClient, name: str = "Organiser") -> None:
    answer = client.post("/api/account/signup", json={"name": name, "password": "a long password"})
    assert answer.status_code == 201, answer.text


def seed_of(db: str, tournament_id: str) -> int:
    storage = open_storage(db)
    try:
        found = store.load(storage, tournament_id)
    finally:
        storage.close()
    assert found is not None
    return int(found.spec["format"]["seed"])


def test_the_form_is_served_and_every_field_is_checked_in_one_sentence(client: TestClient) -> None:
    page = client.get("/tournament/new")
    assert page.status_code == 200 and "new.js" in page.text and 'id="organise"' in page.text
    assert client.get("/static/tournament/new.js").status_code == 200
    sign_up(client)
    for change, words in (({"name": "x" * 61}, "at most 60"), ({"name": "two\nlines"}, "one line"),
                          ({"boards": 4, "rounds": 3}, "do not split into 3 rounds"), ({"rounds": 0}, "rounds must be"),
                          ({"boards": 201}, "boards must be"), ({"tables": [EXPERTS]}, "2 to 50 tables"),
                          ({"minimums": [60]}, "60"), ({"round_minutes": -1}, "round_minutes"),
                          ({"options": {"draw": "two"}}, "draw"), ({"public": "yes"}, "public is true or false"),
                          ({"tables": [EXPERTS, ["wizard"] * 4]}, "wizard")):
        answer = client.post("/api/tournaments", json={**BODY, **change})
        assert answer.status_code == 400, (change, answer.text)
        message = answer.json()["message"]
        assert words in message and "\n" not in message, (change, message)


def test_creating_is_rate_limited_per_account_and_per_address(client: TestClient) -> None:
    sign_up(client, "Busy")
    cheap = {**BODY, "boards": 1, "minimums": [50], "tables": [["human"] * 4, ["human"] * 4]}
    for _ in range(3):  # the burst
        assert client.post("/api/tournaments", json=cheap).status_code == 201
    refused = client.post("/api/tournaments", json=cheap)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "too many tournaments" in refused.json()["message"]
    assert client.post("/api/tournaments", json={**cheap, "boards": 0}).status_code == 400  # a bad one: not counted
    client.post("/api/account/signout")
    sign_up(client, "Other")  # another account from the same address: the address has had its burst
    assert client.post("/api/tournaments", json=cheap).status_code == 429


def test_a_named_public_tournament_in_rounds_is_listed_and_its_tables_know_it(client: TestClient, db: str) -> None:
    sign_up(client)
    body = {**BODY, "boards": 4, "rounds": 2, "minimums": [50, 90], "public": True}
    answer = client.post("/api/tournaments", json=body)
    assert answer.status_code == 201, answer.text
    created = answer.json()
    tid, seed = created["tournament"], seed_of(db, created["tournament"])
    assert created["name"] == "Club night"
    hidden = client.post("/api/tournaments", json={**BODY, "name": "Private"}).json()  # by invite: not listed
    listed = client.get("/api/tournaments").json()
    check_no_secret(listed, seed)
    assert [t["tournament"] for t in listed["tournaments"]] == [tid]
    assert listed["tournaments"][0] | {"created": 0} == {
        "tournament": tid, "name": "Club night", "preset": "classic", "tables": 2, "boards": 4, "rounds": 2,
        "created": 0, "over": False, "link": f"/tournament/{tid}"}
    assert "table_id" not in str(listed) and hidden["tournament"] not in str(listed)
    view = client.get(f"/api/tournaments/{tid}").json()
    check_no_secret(view, seed)
    assert view["name"] == "Club night" and view["rounds"] == 2 and view["boards_per_round"] == 2
    # The game page's banner: only with a seat's token of that very table.
    ann_table = created["tables"][1]["table_id"]
    ann = created["tables"][1]["seats"][0]["token"]
    path = f"/api/tournaments/of-table/{ann_table}"
    banner = client.get(path, headers={"X-Canasta-Token": ann})
    assert banner.status_code == 200
    check_no_secret(banner.json(), seed)
    assert banner.json() == {"tournament": tid, "name": "Club night", "table": 1, "boards": 4, "rounds": 2,
                             "boards_per_round": 2, "link": f"/tournament/{tid}"}
    other = hidden["tables"][1]["seats"][0]["token"]
    for headers in ({}, {"X-Canasta-Token": "nonsense"}, {"X-Canasta-Token": other}):
        assert client.get(path, headers=headers).status_code == 404
    seats = [{"kind": "human"}] + [{"kind": "expert"}] * 3
    plain = client.post("/api/tables", json={"preset": "classic", "seats": seats})
    assert plain.status_code == 201, plain.text
    mine = plain.json()
    assert client.get(f"/api/tournaments/of-table/{mine['table']}",
                      headers={"X-Canasta-Token": mine["seats"][0]["token"]}).status_code == 404


def test_each_table_s_boards_replay_at_the_table_only_at_the_end(client: TestClient, db: str) -> None:
    sign_up(client)
    created = client.post("/api/tournaments", json=BODY).json()
    tid, seed = created["tournament"], seed_of(db, created["tournament"])
    svc = client.app.state.service  # type: ignore[attr-defined]
    first, second = (svc.tables[t["table_id"]] for t in created["tables"])
    wait_for(lambda: first.status == "over")
    viewer = f"/tournament/{tid}/table/1/board/1"
    page = client.get(viewer)  # the page itself holds nothing of a board: the replay is asked for
    assert page.status_code == 200 and "/static/tournament/replay.js" in page.text
    assert "/static/room/replay.js" not in page.text and not CARD.search(page.text)
    assert client.get(f"/api/tournaments/{tid}/tables/1/boards/1/replay").status_code == 404  # table 2 plays
    for seat in (0, 2):
        client.portal.call(svc.hand_over, second, seat, True)  # type: ignore[union-attr]
    client.portal.call(svc.changed, second)  # type: ignore[union-attr]
    wait_for(lambda: second.status == "over")
    view = client.get(f"/api/tournaments/{tid}").json()
    check_no_secret(view, seed)
    assert view["over"]
    replay = client.get(f"/api/tournaments/{tid}/tables/2/boards/2/replay").json()
    assert replay["hand"] == 2 and replay["boards"] == 2 and replay["name"] == "Club night" and replay["frames"]
    assert [p["name"] for p in replay["table"]["players"]] == ["Ann", "Expert 2", "Player 3", "Expert 4"]
    assert replay["viewer"] is None and str(seed) not in str(replay) and "seed" not in replay
    script = client.get("/static/tournament/tournament.js").text
    assert "/table/${table.table + 1}/board/${board + 1}" in script


def test_a_table_late_in_one_round_scores_the_next_round_s_boards(tmp_path: Path) -> None:
    body = {**BODY, "boards": 4, "rounds": 2, "round_minutes": 30, "tables": [EXPERTS, ["human:Ann"] + EXPERTS[1:]]}

    async def scenario() -> None:
        storage = AsyncStorage(open_storage(str(tmp_path / "t.sqlite3")))
        svc = TableService(storage, bot_delay=0)
        now = [1000.0]
        tournaments = TournamentService(svc, clock=lambda: now[0])
        created = await tournaments.create(parse_request(body, seed=3))
        tid = created["tournament"]
        first, second = [await svc.get(t["table_id"]) for t in created["tables"]]
        assert first is not None and second is not None
        for _ in range(12000):
            if first.status == "over" and second.person_to_act() == 0:
                break
            await asyncio.sleep(0.01)
        now[0] += 30 * 60  # round 1's time is up: Ann's table has played neither of its boards
        view = await tournaments.view(tid)
        assert view is not None and not view["over"] and view["visible_boards"] == 2 and view["rounds_closed"] == 1
        assert [t["late"] for t in view["tables"]] == [0, 2] and view["tables"][1]["board"] == 0
        ann = [s for board in view["board_scores"] for s in board if s["table"] == 1]
        assert [s["adjusted"] for s in ann] == [40] * 4
        await svc.hand_over(second, 0, True)  # Ann leaves it to the computer: the table plays all four boards
        svc.changed(second)
        for _ in range(12000):
            if second.status == "over":
                break
            await asyncio.sleep(0.01)
        now[0] += 10 * 60  # before round 2's time: boards 3 and 4 count, boards 1 and 2 stay late
        view = await tournaments.view(tid)
        assert view is not None and view["over"] and view["rounds_closed"] == 1
        assert [t["played"] for t in view["tables"]] == [4, 2] and [t["late"] for t in view["tables"]] == [0, 2]
        counted = [s for board in view["board_scores"][2:] for s in board if s["table"] == 1]
        assert all(s["totals"] is not None for s in counted) and len(counted) == 4
        await svc.close()
        await storage.close()

    asyncio.run(scenario())


def test_a_tournament_s_tables_expire_together_never_while_one_plays(tmp_path: Path) -> None:
    async def scenario() -> None:
        path = str(tmp_path / "t.sqlite3")
        storage = AsyncStorage(open_storage(path))
        svc = TableService(storage, bot_delay=0)
        tournaments = TournamentService(svc)
        created = await tournaments.create(parse_request(BODY, seed=5))
        tid = created["tournament"]
        await asyncio.sleep(0.05)
        between = time.time()
        first = await svc.get(created["tables"][0]["table_id"])
        assert first is not None
        for _ in range(12000):  # table 1 plays on after ``between``; table 2 waits for Ann since before it
            if first.status == "over":
                break
            await asyncio.sleep(0.01)
        never = float("-inf")
        assert await storage.expire(between, never) == []  # table 2 alone is idle: kept while table 1 is recent
        assert await storage.run(store.load, storage.storage, tid) is not None
        ids = sorted(t["table_id"] for t in created["tables"])
        assert sorted(await storage.expire(time.time() + 1, never)) == ids  # both idle: they go together
        assert await storage.run(store.load, storage.storage, tid) is None
        await svc.close()
        await storage.close()

    asyncio.run(scenario())


def test_the_command_line_names_a_tournament_and_splits_it_into_rounds(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from canasta.cli import main

    db = str(tmp_path / "t.sqlite3")
    assert main(["tournament", "create", "--db", db, "--tables", "2", "--boards", "4", "--rounds", "2",
                 "--name", "Club night", "--round-minutes", "45", "--seats", "human:Ann,expert,open,expert",
                 "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["name"] == "Club night"
    storage = open_storage(db)
    try:
        found = store.load(storage, answer["tournament"])
    finally:
        storage.close()
    assert found is not None and found.spec["format"]["rounds"] == 2 and found.spec["round_minutes"] == 45
    assert found.spec["format"]["movement"] == "fixed" and found.closed == []
    assert main(["tournament", "create", "--db", db, "--tables", "2", "--boards", "3", "--rounds", "2"]) == 2
    assert "3 boards do not split into 2 rounds" in capsys.readouterr().err


def test_a_round_closed_as_step_5_first_kept_it_still_reads(tmp_path: Path) -> None:
    storage = open_storage(str(tmp_path / "t.sqlite3"))
    try:
        store.save(storage, "old", None, False, {"format": {}}, ["a", "b"], 1.0)
        with storage.transaction() as execute:  # one round's counts, as the first server of step 5 wrote them
            execute("UPDATE tournaments SET closed = ? WHERE id = ?", ("[2, 0]", "old"))
        found = store.load(storage, "old")
        assert found is not None and found.closed == [[2, 0]]
        assert store.close(storage, "old", 1, [4, 1]) == [[2, 0], [4, 1]]
        assert store.close(storage, "old", 1, [4, 4]) == [[2, 0], [4, 1]]  # the first close of a round stands
    finally:
        storage.close()


def test_anyone_signed_in_takes_an_open_seat_of_a_public_tournament(client: TestClient, db: str) -> None:
    sign_up(client)
    body = {**BODY, "public": True, "tables": [EXPERTS, ["human:Ann", "expert", None, "expert"]]}
    created = client.post("/api/tournaments", json=body).json()
    tid, seed = created["tournament"], seed_of(db, created["tournament"])
    invited = client.post("/api/tournaments", json={**body, "public": False}).json()
    view = client.get(f"/api/tournaments/{tid}").json()
    check_no_secret(view, seed)
    assert view["public"] and view["open_seats"] == [{"table": 1, "seat": 2}]  # Ann's named seat is hers
    assert client.get(f"/api/tournaments/{invited['tournament']}").json()["open_seats"] == []
    organisers_link = created["tables"][1]["seats"][2]["token"]
    client.post("/api/account/signout")
    assert client.post(f"/api/tournaments/{tid}/tables/2/seats/3").status_code == 401
    sign_up(client, "Taker")
    for refused in (f"/api/tournaments/{tid}/tables/2/seats/1", f"/api/tournaments/{tid}/tables/1/seats/2",
                    f"/api/tournaments/{invited['tournament']}/tables/2/seats/3"):
        assert client.post(refused).status_code == 409, refused
    taken = client.post(f"/api/tournaments/{tid}/tables/2/seats/3")
    assert taken.status_code == 200, taken.text
    check_no_secret(taken.json(), seed)
    link = taken.json()["link"]
    table_id, token = link.removeprefix("/t/").split("#")
    assert table_id == created["tables"][1]["table_id"]
    storage = open_storage(db)
    try:
        assert storage.token_seat(table_id, token_hash(token)) == (True, 2)
        assert storage.token_seat(table_id, token_hash(organisers_link)) == (False, None)  # the old link is gone
    finally:
        storage.close()
    assert client.post(f"/api/tournaments/{tid}/tables/2/seats/3").status_code == 409  # taken
    assert client.get(f"/api/tournaments/{tid}").json()["open_seats"] == []
    names = client.get(f"/api/tournaments/{tid}").json()["tables"][1]["players"]
    assert names[2] == "Taker", names  # the table names whoever took the seat
