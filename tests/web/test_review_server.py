"""The review of a finished hand through the server: replays that keep every secret, reviews computed once and
stored, their progress, the limits, and the game record to download (src/canasta/web/reviews.py)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient

from canasta.bots.review import ReviewSettings
from canasta.cards import parse_card
from canasta.match import Match
from canasta.views import make_view
from canasta.web.analysis import ReviewRunner
from canasta.web.app import create_app
from canasta.web.limits import Limits
from canasta.web.replay import seat_record
from canasta.web.reviews import TOKEN_HEADER, desk

SMALL = ReviewSettings(rollouts=2, candidates=2)
"""A review budget that judges a hand in a few seconds (the default one takes up to half a minute)."""
Message = dict[str, Any]


def make_client(tmp_path: Path, limits: Limits | None = None) -> TestClient:
    return TestClient(create_app(str(tmp_path / "t.sqlite3"), bot_delay=0, follow=0, presence=0, limits=limits))


def finished_table(client: TestClient, humans: int = 1, seed: int = 3) -> Message:
    """A classic table (``humans`` people, the rest basic players) whose first hand the computer played out."""
    seats = [{"kind": "human", "name": f"P{i}"} for i in range(humans)] + [{"kind": "basic"}] * (4 - humans)
    client.app.state.service.new_seed = lambda: seed  # type: ignore[attr-defined]
    answer = client.post("/api/tables", json={"preset": "classic", "seats": seats})
    assert answer.status_code == 201, answer.text
    table: Message = answer.json()
    for seat in range(humans):
        with client.websocket_connect(f"/ws/{table['table']}") as ws:
            ws.send_json({"type": "hello", "token": token(table, seat)})
            while ws.receive_json()["type"] != "state":
                pass
            ws.send_json({"type": "leave"})  # the computer plays the seat
            while ws.receive_json()["type"] != "ack":
                pass
    served = client.app.state.service.tables[table["table"]]  # type: ignore[attr-defined]
    deadline = time.monotonic() + 60
    while served.status == "playing":
        assert time.monotonic() < deadline, "the hand never ended"
        time.sleep(0.05)
    return table


def token(table: Message, seat: int | None) -> str:
    link = table["spectator"]["link"] if seat is None else table["seats"][seat]["link"]
    return str(link.split("#", 1)[1])


def get(client: TestClient, table: Message, path: str, seat: int | None = 0, method: str = "GET") -> Any:
    return client.request(method, f"/api/tables/{table['table']}{path}", headers={TOKEN_HEADER: token(table, seat)})


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        desk_of(c).settings = SMALL
        yield c


def desk_of(client: TestClient) -> Any:
    class Request:
        app = client.app

    return desk(Request())  # type: ignore[arg-type]


def wait_done(client: TestClient, table: Message, hand: int = 1, seat: int = 0) -> Message:
    deadline = time.monotonic() + 120
    while True:
        answer = get(client, table, f"/hands/{hand}/review", seat)
        data: Message = answer.json()
        if data["status"] != "running":
            return data
        assert time.monotonic() < deadline, "the review never finished"
        time.sleep(0.1)


def test_a_hand_in_play_is_neither_replayed_nor_reviewed_nor_in_the_record(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"preset": "classic", "seats": [{"kind": "human"}] * 4})
    table = answer.json()
    for path, method in (("/hands/1/replay", "GET"), ("/hands/1/review", "POST"), ("/record", "GET")):
        for seat in (0, None):
            refused = get(client, table, path, seat, method)
            assert refused.status_code == 409 if seat == 0 or path != "/hands/1/review" else 403, refused.text
            body = refused.json()
            assert set(body) == {"error", "message"} and "\n" not in body["message"]
    assert desk_of(client).running == {}


def test_bad_requests_get_one_sentence_and_change_nothing(client: TestClient) -> None:
    table = finished_table(client)
    cases = [
        (f"/api/tables/{table['table']}/hands/1/replay", {}, 403, "bad_token"),
        (f"/api/tables/{table['table']}/hands/1/replay", {TOKEN_HEADER: "forged" * 5}, 403, "bad_token"),
        ("/api/tables/nosuch/hands/1/replay", {TOKEN_HEADER: token(table, 0)}, 404, "no_table"),
        (f"/api/tables/{table['table']}/hands/9/replay", {TOKEN_HEADER: token(table, 0)}, 404, "no_hand"),
        (f"/api/tables/{table['table']}/hands/0/replay", {TOKEN_HEADER: token(table, 0)}, 404, "no_hand"),
        (f"/api/tables/{table['table']}/hands/x1/review", {TOKEN_HEADER: token(table, 0)}, 404, "no_hand"),
    ]
    other = finished_table(client, seed=4)
    cases.append((f"/api/tables/{table['table']}/hands/1/replay", {TOKEN_HEADER: token(other, 0)}, 403, "bad_token"))
    for path, headers, status, name in cases:
        answer = client.get(path, headers=headers)
        assert answer.status_code == status, (path, answer.text)
        assert answer.json()["error"] == name
    assert client.post(f"/api/tables/{table['table']}/hands/1/review", headers={}).status_code == 403
    assert desk_of(client).running == {} and desk_of(client).computed == 0


def test_a_seat_replays_its_own_cards_only_until_the_hand_is_over(client: TestClient) -> None:
    table = finished_table(client)
    served = client.app.state.service.tables[table["table"]]  # type: ignore[attr-defined]
    data = get(client, table, "/hands/1/replay").json()
    moves = served.match.hands[0]["moves"]
    assert len(data["frames"]) == len(moves) + 1 and len(data["log"]) == len(moves)
    assert [e["move"] for e in data["log"]] == moves
    # Replay the hand here and compare each point with what the seat's view allowed.
    replay = Match(served.match.rules, served.match.players, seed=served.match.seed, deal=False,
                   dealer=served.match.hands[0]["dealer"], seeding=served.match.seeding)
    replay.new_hand([parse_card(c) for c in served.match.hands[0]["deck"]])
    for index, frame in enumerate(data["frames"][:-1]):
        assert "hands" not in frame, f"another seat's cards at move {index}"
        expected = make_view(replay.state, 0, history=False).to_json()
        del expected["history"]
        assert frame["view"] == expected
        assert frame["view"]["hands_left"] == []
        replay.play(moves[index])
    last = data["frames"][-1]
    assert last["view"]["phase"] == "over" and len(last["hands"]) == 4  # every hand face up, as at the table
    assert all(int(index) < len(moves) and data["log"][int(index)]["seat"] == 0 for index in data["drawn"])
    # A spectator sees the finished hand with every hand face up, at every point.
    watched = get(client, table, "/hands/1/replay", None).json()
    assert all(len(frame["hands"]) == 4 for frame in watched["frames"]) and watched["seat"] is None


def test_a_review_is_computed_once_stored_and_given_again(client: TestClient) -> None:
    table = finished_table(client)
    reviews = desk_of(client)
    calls: list[int] = []
    run = reviews.runner.run

    async def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return await run(*args, **kwargs)

    reviews.runner.run = counted
    assert get(client, table, "/hands/1/review").json()["status"] == "none"
    started = get(client, table, "/hands/1/review", method="POST")
    assert started.status_code == 202 and started.json()["status"] == "running"
    again = get(client, table, "/hands/1/review", method="POST")  # under way: joined, not started twice
    assert again.status_code == 202
    done = wait_done(client, table)
    assert done["status"] == "done", done
    review = done["review"]
    assert review["hands"] == [0] and review["seats"][0]["seat"] == 0 and review["settings"]["rollouts"] == 2
    for decision in review["decisions"]:
        assert decision["seat"] == 0 and decision["played_words"] and decision["best_words"]
        assert ("reason" in decision) == (decision["best"] != decision["played"])
    stored = get(client, table, "/hands/1/review", method="POST")
    assert stored.status_code == 200 and stored.json()["review"] == review
    assert calls == [1] and reviews.computed == 1
    # Stored with the table: a new server on the same database gives it without computing.
    path = client.app.state.service.storage.url  # type: ignore[attr-defined]
    with TestClient(create_app(path, bot_delay=0, follow=0, presence=0)) as other:
        answer = other.post(f"/api/tables/{table['table']}/hands/1/review", headers={TOKEN_HEADER: token(table, 0)})
        assert answer.status_code == 200 and answer.json()["review"] == review
        assert desk_of(other).computed == 0


def test_reviews_are_limited_per_address_and_per_table(tmp_path: Path) -> None:
    limits = Limits(reviews_burst=2, reviews_per_hour=0.01)
    with make_client(tmp_path, limits) as client:
        desk_of(client).settings = SMALL
        table = finished_table(client, humans=3)
        assert get(client, table, "/hands/1/review", 0, "POST").status_code == 202
        busy = get(client, table, "/hands/1/review", 1, "POST")  # the same address, one under way
        assert busy.status_code == 429 and "still being worked out" in busy.json()["message"]
        assert wait_done(client, table)["status"] == "done"
        assert get(client, table, "/hands/1/review", 1, "POST").status_code == 202
        assert wait_done(client, table, seat=1)["status"] == "done"
        spent = get(client, table, "/hands/1/review", 2, "POST")
        assert spent.status_code == 429 and "too many reviews" in spent.json()["message"]
        assert get(client, table, "/hands/1/review", 0, "POST").status_code == 200  # stored: not counted
        reviews = desk_of(client)
        assert reviews.refusal("another", "10.0.0.9") is None  # another address and table may start


def test_the_runner_reports_progress_from_its_worker_process() -> None:
    match = Match(seed=4)
    for _ in range(16):  # draw, then the first discard
        moves = [str(m) for m in match.state.legal_moves()]
        match.play("draw" if "draw" in moves else next(m for m in moves if m.startswith("discard")))
    seen: list[tuple[int, int]] = []

    async def main() -> Message:
        runner = ReviewRunner(1)
        try:
            return await runner.run(match.to_record(), 0, 1, SMALL, lambda done, total: seen.append((done, total)))
        finally:
            runner.close()

    review = asyncio.run(main())
    total = len(review["decisions"])
    assert total >= 1 and seen[0] == (0, total) and seen[-1] == (total, total)
    done = [d for d, _ in seen]
    assert done == sorted(done) and all(t == total for _, t in seen)  # in order (a late one may be dropped)


def test_the_record_to_download_holds_the_hands_that_are_over(client: TestClient, tmp_path: Path) -> None:
    from canasta.cli.review import load_match

    table = finished_table(client)
    answer = get(client, table, "/record")
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    record = answer.json()
    assert len(record["hands"]) == 1 and record["hands"][0]["deck"] and "seed" not in record
    match = load_match(record, "record.json")
    served = client.app.state.service.tables[table["table"]]  # type: ignore[attr-defined]
    assert match.hands[0]["moves"] == served.match.hands[0]["moves"] and match.scores == served.match.scores
    assert seat_record(served.match, None)["hands"] == record["hands"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    from canasta.cli import main

    assert main(["review", str(path), "--hand", "1", "--seat", "1", "--rollouts", "2", "--candidates", "2",
                 "--quiet"]) == 0
