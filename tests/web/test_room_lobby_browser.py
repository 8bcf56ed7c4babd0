"""The room in a browser (issue 30 points 2 and 4): two people sign up, quick-match a rated classic game filled by
computers, one leaves, the match ends, the ratings move both ways and the history shows it; every page passes
axe-core and fits a phone and a laptop."""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import (
    Server,
    browser_contexts,
    check_sizes,
    running_server,
    sign_up,
    skip_without_browser,
    token_of,
)

skip_without_browser(accounts=True)

SHOTS = Path(os.environ.get("CANASTA_ROOM_SHOTS", "/tmp/room-shots"))
CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|JK)\b")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("room-lobby"), bot_delay=0.005,
                        env={"CANASTA_QUICK_WAIT": "2", "CANASTA_QUICK_TARGET": "1000"}) as running:  # a short match
        yield running


def check(page: Any, axe: Path, moment: str, shot: str | None = None) -> None:
    """The page fits a phone and a laptop and passes axe-core; with ``shot``, photographed whole at both."""
    check_sizes(page, axe, moment, shots=SHOTS, shot=shot)


def leave_seat(base: str, table: str, token: str) -> None:
    """The person goes: the seat is left to the computer."""
    from websockets.sync.client import connect

    with connect(base.replace("http://", "ws://") + f"/ws/{table}", open_timeout=10, close_timeout=2) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.send(json.dumps({"type": "leave", "id": "leave"}))
        while json.loads(ws.recv(timeout=10)).get("id") != "leave":
            pass


def play_to_the_end(base: str, table: str, token: str, seconds: float = 60) -> None:
    """Play a seat with random legal moves (the server lists them) until the match is over."""
    from websockets.sync.client import connect

    rng = random.Random(5)
    deadline = time.monotonic() + seconds
    with connect(base.replace("http://", "ws://") + f"/ws/{table}", open_timeout=10, close_timeout=2) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        seat = None
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=20))
            if message["type"] == "welcome":
                seat = message["seat"]
            if message["type"] != "state":
                continue
            status = message["table"]["status"]
            if status == "over":
                return
            if status == "hand_over":
                ws.send(json.dumps({"type": "ready", "state": message["state"]}))
            elif message["view"]["to_act"] == seat and message["legal"]:
                ws.send(json.dumps({"type": "move", "move": rng.choice(message["legal"]),
                                    "state": message["state"]}))
    pytest.fail("the match did not end in time")


def api(page: Any, path: str) -> Any:
    return page.evaluate("async (path) => (await fetch(path)).json()", path)


def test_a_rated_quick_match_of_two_people_filled_by_computers(server: Server, browser: Any,
                                                               axe_script: Path) -> None:
    with browser_contexts(browser) as new_context:
        ann, ben = new_context().new_page(), new_context().new_page()
        sign_up(ann, server.base, "Ann")
        sign_up(ben, server.base, "Ben")
        for page in (ann, ben):
            page.goto(server.base + "/room")
            page.locator("#quick-game option[value='classic']").wait_for(state="attached")
            page.select_option("#quick-game", "classic")
            page.check("input[name=rated][value=rated]")
        check(ann, axe_script, "the room", "room")
        for page in (ann, ben):
            page.click("#quick-find")
        ann.locator("#quick-countdown").wait_for(state="visible")
        assert re.fullmatch(r"\d+ s|…", ann.locator("#quick-countdown").inner_text())
        assert "Looking for players" in ann.locator("#quick-status").inner_text()
        SHOTS.mkdir(parents=True, exist_ok=True)
        ann.screenshot(path=str(SHOTS / "countdown-1366x768.png"))
        for page in (ann, ben):
            page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+#"), timeout=20_000)
        table = ann.url.split("/t/")[1].split("#")[0]
        assert ben.url.split("/t/")[1].split("#")[0] == table
        tokens = {"Ann": token_of(ann.url), "Ben": token_of(ben.url)}
        ann.locator("body[data-state-id]").wait_for(state="attached")
        watch = new_context().new_page()  # a third browser sees the table in the lobby, in play, to watch
        watch.goto(server.base + "/room")
        watch.locator("#open-tables a", has_text="Watch").first.wait_for()
        listed = watch.locator("#open-tables li").first.inner_text()
        assert "Ann" in listed and "Ben" in listed and "rated" in listed and not CARD.search(listed)
        check(watch, axe_script, "the lobby with a table in play", "lobby")
        ann.close()
        ben.close()
        leave_seat(server.base, table, tokens["Ann"])  # Ann goes mid-match: the computer plays on; she lost
        play_to_the_end(server.base, table, tokens["Ben"])
        pages = {}
        for name in ("Ann", "Ben"):
            page = new_context().new_page()
            page.goto(server.base + "/account")
            page.fill("#signin-name", name)
            page.fill("#signin-password", "a long password")
            page.click("#signin-form button[type=submit]")
            page.locator("#signed-in").wait_for(state="visible")
            pages[name] = page
        deadline = time.monotonic() + 20
        while not api(pages["Ben"], "/api/history")["matches"]:
            assert time.monotonic() < deadline, "the finished match was not recorded"
            time.sleep(0.2)
        ann_me, ben_me = api(pages["Ann"], "/api/me"), api(pages["Ben"], "/api/me")
        assert ann_me["ratings"]["four"]["rating"] < 25 < ben_me["ratings"]["four"]["rating"]
        for name, result in (("Ann", "lost"), ("Ben", "won")):
            page = pages[name]
            page.reload()
            page.locator("#history .room-history li").first.wait_for()
            text = page.locator("#history").inner_text()
            assert result in text and "classic, rated" in text and "Matches: 1" in text and not CARD.search(text)
        pages["Ben"].locator("#history-panel").scroll_into_view_if_needed()
        check(pages["Ben"], axe_script, "the account page with its history", "account-history")
        pages["Ben"].click("#history a:has-text('Scores and replay')")
        pages["Ben"].locator("#match-sides tr").first.wait_for()
        sides = pages["Ben"].locator("#match-sides").inner_text()
        assert "Ann (left)" in sides and "won" in sides and "lost" in sides
        check(pages["Ben"], axe_script, "a finished match", "match")
        pages["Ben"].click("#match-hands button >> nth=0")
        pages["Ben"].locator("#step-hands li").first.wait_for()
        pages["Ben"].click("#step-next")
        assert "before move 2" in pages["Ben"].locator("#step-where").inner_text()
        check(pages["Ben"], axe_script, "a hand's replay", "replay")
