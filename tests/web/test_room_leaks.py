"""The room's messages show no hidden card (issue 30, the security suite's leak checks for the lobby and history).

The lobby, the quick match's answers and the history list name no card at all, while tables are in play;
a finished match's hand replays (every hand over) show, at every point, exactly the cards out of the stock
then: in a hand, a meld, the pile or a red three; the stock's order never.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient

from canasta.cards import card_text, parse_card
from canasta.match import Match
from canasta.web.storage import open_storage

from .browser_helpers import strings, wait_for

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][CDHS]|JK)(?![A-Za-z0-9])")


@pytest.fixture
def client(sqlite_room_client: TestClient) -> TestClient:
    return sqlite_room_client


def test_the_lobby_queue_and_history_name_no_card_while_tables_play(client: TestClient) -> None:
    made = client.post("/api/tables", json={"preset": "classic", "public": True, "seats": [
        {"kind": "human", "name": "Ada"}, {"kind": "club", "name": "KH"}, {"kind": "human", "name": "Bo"},
        {"kind": "expert", "name": "East"}]}).json()
    with client.websocket_connect(f"/ws/{made['table']}") as ws:  # the person's hand is dealt and in play
        ws.send_json({"type": "hello", "token": made["seats"][0]["token"], "id": 1})
        assert ws.receive_json()["type"] == "welcome"
        hand = ws.receive_json()["view"]["hand"]
        assert hand
    client.post("/api/tables", json={"preset": "two-player", "target": 1000, "seats": [
        {"kind": "expert", "name": "A"}, {"kind": "expert", "name": "B"}]}).json()
    ticket = client.post("/api/quick", json={"game": "three-player"}).json()
    answers = [client.get("/api/lobby").json(), ticket,
               client.post("/api/quick/poll", json={"ticket": ticket["ticket"]}).json()]
    answers.append(wait_for(lambda: client.get("/api/history").json()))
    for answer in answers:
        found = [s for s in strings(answer) if CARD.search(s) and s != "KH"]  # a seat may be named like a card
        assert not found, f"a card in a room message: {found}"
    table = next(t for t in answers[0]["tables"] if t["table"] == made["table"])
    assert table["seats"][0]["name"] == "Ada" and table["seats"][2]["open"] and table["seats"][1]["computer"]


def test_a_finished_replay_never_shows_a_card_left_in_the_stock(client: TestClient, sqlite_url: str) -> None:
    """The oracle: at every point of a hand's replay, the cards shown are among those out of the stock then (in
    a hand, a meld or the pile): the stock's order is never shown (the hands may be: the hand is over)."""
    made = client.post("/api/tables", json={"preset": "two-player", "target": 1000, "seats": [
        {"kind": "expert", "name": "A"}, {"kind": "expert", "name": "B"}]}).json()
    storage = open_storage(sqlite_url)
    try:
        def recorded() -> Any:
            with storage.transaction(write=False) as execute:
                return execute("SELECT id, record FROM matches WHERE table_id = ?", (made["table"],)).fetchone()
        match_id, text = wait_for(recorded)
    finally:
        storage.close()
    record = json.loads(text)
    full = Match.from_record(record, record["seeding"])
    replay = Match(full.rules, full.players, seed=full.seed, dealer=full.hands[0]["dealer"], deal=False,
                   seeding=full.seeding)
    for number, played in enumerate(full.hands):
        replay.new_hand([parse_card(c) for c in played["deck"]])
        frames = client.get(f"/api/matches/{match_id}/hands/{number + 1}").json()["frames"]
        for index, frame in enumerate(frames):
            if index:
                replay.play(played["moves"][index - 1])
            unseen = Counter(card_text(c) for c in replay.state.stock)
            seen = Counter(played["deck"]) - unseen  # every card out of the stock: in a hand, a meld or the pile
            view = frame["view"]
            placed = Counter(c for where in (frame["hands"], view["pile"], view["melds"], view["red_threes"])
                             for c in strings(where) if CARD.match(c))
            assert placed == seen, f"hand {number + 1}, point {index}: the cards shown are not those out of the stock"
            assert not {c for c in strings(frame) if CARD.match(c)} - set(seen)  # "known" and the rest too
