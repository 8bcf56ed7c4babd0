"""The web protocol through the real application (docs/protocol.md): tables, checks in order, named errors."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from canasta.rules import PRESETS
from canasta.web.app import create_app

Message = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "t.sqlite3"), bot_delay=0)) as c:
        yield c


def create(client: TestClient, **body: Any) -> Message:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    data: Message = answer.json()
    return data


def humans(players: int = 4) -> list[dict[str, str]]:
    return [{"kind": "human", "name": f"P{i}"} for i in range(players)]


def token_of(link: str) -> str:
    return link.split("#", 1)[1]


def receive_until(ws: WebSocketTestSession, wanted: Callable[[Message], bool], limit: int = 2000) -> Message:
    for _ in range(limit):
        message: Message = ws.receive_json()
        if wanted(message):
            return message
    raise AssertionError("the message never came")


def hello(ws: WebSocketTestSession, token: str) -> tuple[Message, Message]:
    ws.send_json({"type": "hello", "token": token})
    welcome = receive_until(ws, lambda m: m["type"] in ("welcome", "error"))
    assert welcome["type"] == "welcome", welcome
    state = receive_until(ws, lambda m: m["type"] == "state")
    return welcome, state


def error_of(ws: WebSocketTestSession, message: Message | str) -> Message:
    if isinstance(message, str):
        ws.send_text(message)
    else:
        ws.send_json(message)
    return receive_until(ws, lambda m: m["type"] in ("error", "ack"))


# -- creating tables --------------------------------------------------------------------


def test_setup_offers_every_preset_option_bot_and_target(client: TestClient) -> None:
    setup = client.get("/api/setup").json()
    assert setup["presets"]["classic"]["players"] == 4
    assert setup["presets"]["six-player"]["sides"] == 3
    assert setup["presets"]["two-player"]["draw"] == 2
    assert setup["options"]["black_three_upcard"]["choices"] == ["stays", "cover"]
    assert setup["options"]["wild_card_melds"]["type"] == "bool"
    assert {"random", "basic", "expert", "search"} <= set(setup["bots"])
    assert setup["targets"][0] == 1000 and setup["targets"][-1] == 10000 and len(setup["targets"]) == 19


def test_a_table_gives_each_human_seat_its_own_link_and_a_spectator_link(client: TestClient) -> None:
    answer = create(client, preset="classic", target=1500,
                    seats=[{"kind": "human", "name": "Ann"}, {"kind": "expert"}, {"kind": "human"}, {"kind": "basic"}])
    seats = answer["seats"]
    assert [s["kind"] for s in seats] == ["human", "expert", "human", "basic"]
    assert seats[0]["name"] == "Ann"
    assert seats[1]["token"] is None and seats[1]["link"] is None
    links = [seats[0]["link"], seats[2]["link"], answer["spectator"]["link"]]
    assert len({token_of(link) for link in links}) == 3
    assert all(link.startswith(f"/t/{answer['table']}#") for link in links)
    assert "seed" not in json.dumps(answer)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"preset": "bridge"}, "unknown preset"),
        ({"preset": "classic", "target": 1234}, "steps of 500"),
        ({"preset": "classic", "target": 10500}, "steps of 500"),
        ({"preset": "classic", "options": {"draw": 3}}, "draw"),
        ({"preset": "classic", "options": {"no_such_rule": True}}, "unknown rules option"),
        ({"preset": "classic", "seats": [{"kind": "human"}]}, "needs a list of 4 seats"),
        ({"preset": "classic", "seats": [{"kind": "wizard"}] * 4}, "unknown player kind"),
        # a saved policy is for local tools only: the server never loads a file named in a request
        ({"preset": "classic", "seats": [{"kind": "human"}] + [{"kind": "policy:/etc/passwd"}] * 3},
         "unknown player kind"),
        ({"preset": "classic", "seats": [{"kind": "human", "name": "x" * 40}] * 4}, "name"),
        ({"preset": "classic", "seed": "lucky"}, "seed"),
        ({"preset": "classic", "colour": "red"}, "unknown field"),
        ([1, 2, 3], "JSON object"),
    ],
)
def test_bad_tables_are_refused_with_one_sentence(client: TestClient, body: object, words: str) -> None:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 400
    data = answer.json()
    assert data["error"] == "bad_table"
    assert words in data["message"] and "\n" not in data["message"]


def test_a_body_that_is_not_json_or_too_large_is_refused(client: TestClient) -> None:
    bad = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_table"
    big = client.post("/api/tables", content=b" " * 20_000 + b"{}", headers={"content-type": "application/json"})
    assert big.status_code == 413 and big.json()["error"] == "too_large"
    assert client.get("/api/health").json()["tables"] == 0
    not_text = client.post("/api/tables", content=b"\x80{}", headers={"content-type": "application/json"})
    assert not_text.status_code == 400 and not_text.json()["error"] == "bad_table"


def test_only_the_requests_own_errors_are_a_bad_table(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal is a CanastaError (a RequestError, or the rules' or seats' own); a plain ValueError is a bug, and
    is not answered as a bad table with an internal sentence."""
    from canasta.web.service import TableService

    async def broken(self: TableService, body: object) -> None:
        raise ValueError("an internal detail")

    monkeypatch.setattr(TableService, "create", broken)
    with pytest.raises(ValueError, match="internal detail"):
        client.post("/api/tables", json={"preset": "classic"})


def test_quick_play_redirects_to_a_seat_against_three_experts(client: TestClient) -> None:
    page = client.get("/play")  # a link preview or prefetch: no table
    assert page.status_code == 200 and 'method="post" action="/play"' in page.text
    assert client.get("/api/health").json()["tables"] == 0
    answer = client.post("/play", follow_redirects=False)
    assert answer.status_code == 303
    location = answer.headers["location"]
    table = location.split("/t/")[1].split("#")[0]
    with client.websocket_connect(f"/ws/{table}") as ws:
        welcome, state = hello(ws, token_of(location))
        assert welcome["seat"] == 0 and welcome["role"] == "player"
        assert [p["kind"] for p in state["table"]["players"]] == ["human", "expert", "expert", "expert"]


def test_pages_are_served(client: TestClient) -> None:
    assert "<html" in client.get("/").text.lower()
    assert "<html" in client.get("/t/anything").text.lower()


# -- the websocket: checks in order -----------------------------------------------------


@pytest.fixture
def table(client: TestClient) -> Message:
    return create(client, preset="classic", seats=humans())  # a seed is the server's own at a table of people


def test_hello_gives_the_seat_its_own_view_only(client: TestClient, table: Message) -> None:
    tid = table["table"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        welcome, state = hello(ws, token_of(table["seats"][2]["link"]))
        assert welcome == {"type": "welcome", "table": tid, "seat": 2, "role": "player", "id": None}
        view = state["view"]
        assert view["seat"] == 2 and len(view["hand"]) == view["hand_sizes"][2]
        assert state["state"] == 1 and state["table"]["status"] == "playing"
        assert "stock" not in view and "hands" not in view
        to_act = view["to_act"]
        assert (state["legal"] != []) == (to_act == 2)


def test_the_spectator_sees_no_hand_and_cannot_act(client: TestClient, table: Message) -> None:
    with client.websocket_connect(f"/ws/{table['table']}") as ws:
        welcome, state = hello(ws, token_of(table["spectator"]["link"]))
        assert welcome["role"] == "spectator" and welcome["seat"] is None
        assert state["view"]["hand"] == [] and state["legal"] == []
        err = error_of(ws, {"type": "move", "move": "draw", "state": state["state"]})
        assert err["error"] == "not_your_turn"


@pytest.mark.parametrize(
    ("message", "name"),
    [
        ("{not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        ({"type": "teleport"}, "bad_message"),
        ({"type": "move", "move": "draw"}, "bad_message"),
        ({"type": "move", "move": 7, "state": 1}, "bad_message"),
        ({"type": "move", "move": "draw", "state": True}, "bad_message"),
        ({"type": "hello", "token": 12}, "bad_message"),
        ({"type": "move", "move": "draw", "state": 1, "x": "y" * 9000}, "too_large"),
    ],
)
def test_malformed_and_oversized_messages_are_named_errors(client: TestClient, table: Message, message: object,
                                                           name: str) -> None:
    with client.websocket_connect(f"/ws/{table['table']}") as ws:
        hello(ws, token_of(table["seats"][0]["link"]))
        err = error_of(ws, message if isinstance(message, str) else json.dumps(message))
        assert err["error"] == name and err["message"]
        ws.send_json({"type": "ping", "id": "after"})
        assert receive_until(ws, lambda m: m["type"] == "pong")["id"] == "after"


def test_before_hello_and_with_a_wrong_token_nothing_is_answered_but_bad_token(client: TestClient,
                                                                               table: Message) -> None:
    with client.websocket_connect(f"/ws/{table['table']}") as ws:
        assert error_of(ws, {"type": "move", "move": "draw", "state": 1})["error"] == "bad_token"
        assert error_of(ws, {"type": "hello", "token": "forged-token"})["error"] == "bad_token"
        other = create(client, preset="classic", seats=humans())
        assert error_of(ws, {"type": "hello", "token": token_of(other["seats"][0]["link"])})["error"] == "bad_token"
    with client.websocket_connect("/ws/no-such-table") as ws:
        assert error_of(ws, {"type": "hello", "token": "x"})["error"] == "no_table"


def test_each_check_in_order_and_nothing_changes(client: TestClient, table: Message) -> None:
    tid = table["table"]
    conns = {}
    with client.websocket_connect(f"/ws/{tid}") as ws0, client.websocket_connect(f"/ws/{tid}") as ws1, \
            client.websocket_connect(f"/ws/{tid}") as ws2, client.websocket_connect(f"/ws/{tid}") as ws3:
        for seat, ws in enumerate((ws0, ws1, ws2, ws3)):
            _, state = hello(ws, token_of(table["seats"][seat]["link"]))
            conns[seat] = ws
        to_act = state["view"]["to_act"]
        actor, other = conns[to_act], conns[(to_act + 1) % 4]
        sid = state["state"]
        # the seat may act
        assert error_of(other, {"type": "move", "move": "draw", "state": sid})["error"] == "not_your_turn"
        assert error_of(other, {"type": "next", "state": sid})["error"] == "not_your_turn"
        # the state id is current (checked before the move itself)
        assert error_of(actor, {"type": "move", "move": "fly away", "state": sid - 1})["error"] == "stale_state"
        # the move parses
        err = error_of(actor, {"type": "move", "move": "fly away", "state": sid})
        assert err["error"] == "bad_move" and "unknown move" in err["message"]
        assert error_of(actor, {"type": "move", "move": "discard ZZ", "state": sid})["error"] == "bad_move"
        # the move is legal (a discard before drawing)
        err = error_of(actor, {"type": "move", "move": "discard 4C", "state": sid, "id": 9})
        assert err["error"] == "illegal_move" and err["id"] == 9 and "\n" not in err["message"]
        # nothing changed
        actor.send_json({"type": "hello", "token": token_of(table["seats"][to_act]["link"])})
        again = receive_until(actor, lambda m: m["type"] == "state")
        assert again["state"] == sid and again["view"]["to_act"] == to_act
        # a good move is acknowledged, then everyone sees it
        actor.send_json({"type": "move", "move": "draw", "state": sid, "id": "m1"})
        ack = receive_until(actor, lambda m: m["type"] in ("ack", "error"))
        assert ack == {"type": "ack", "state": sid + 1, "id": "m1", "move": "draw"}
        seen = receive_until(other, lambda m: m["type"] == "state" and m["state"] == sid + 1)
        last = seen["table"]["log"][-1]
        assert (last["seat"], last["move"]) == (to_act, "draw") and set(last) <= {"seat", "move", "reds"}
        # the same move again is stale now
        assert error_of(actor, {"type": "move", "move": "draw", "state": sid})["error"] == "stale_state"


def test_hint_is_only_for_the_seat_to_act(client: TestClient, table: Message) -> None:
    tid = table["table"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        _, state = hello(ws, token_of(table["seats"][0]["link"]))
        to_act = state["view"]["to_act"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        _, state = hello(ws, token_of(table["seats"][to_act]["link"]))
        ws.send_json({"type": "hint", "state": state["state"], "id": 1})
        answer = receive_until(ws, lambda m: m["type"] in ("hint", "error"))
        assert answer["type"] == "hint" and answer["move"] in state["legal"] and answer["reason"].endswith(".")
    with client.websocket_connect(f"/ws/{tid}") as ws:
        _, state = hello(ws, token_of(table["seats"][(to_act + 1) % 4]["link"]))
        assert error_of(ws, {"type": "hint", "state": state["state"]})["error"] == "not_your_turn"


def test_computer_players_move_on_the_server(client: TestClient) -> None:
    answer = create(client, preset="classic", seats=[{"kind": "human"}] + [{"kind": "basic"}] * 3, seed=3)
    with client.websocket_connect(f"/ws/{answer['table']}") as ws:
        hello(ws, token_of(answer["seats"][0]["link"]))
        mine = 0
        while mine < 4:
            state = receive_until(ws, lambda m: m["type"] == "state" and bool(m["legal"]))
            legal = state["legal"]
            move = "draw" if "draw" in legal else next((m for m in legal if m.startswith("discard")), legal[0])
            ws.send_json({"type": "move", "move": move, "state": state["state"]})
            assert receive_until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
            mine += 1
        log = state["table"]["log"]
        assert {1, 2, 3} <= {entry["seat"] for entry in log}
        assert [entry["seat"] for entry in log if entry["seat"] == 0]


def test_a_table_is_not_found_after_a_bad_link(client: TestClient) -> None:
    with client.websocket_connect("/ws/x") as ws:
        ws.send_bytes(b"\x00\x01")
        assert receive_until(ws, lambda m: m["type"] == "error")["error"] == "bad_message"


def test_an_idle_table_is_forgotten_and_comes_back_from_storage(client: TestClient, table: Message) -> None:
    tid = table["table"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        _, before = hello(ws, token_of(table["seats"][1]["link"]))
        ws.send_json({"type": "move", "move": "draw", "state": before["state"]})
        assert receive_until(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        after = receive_until(ws, lambda m: m["type"] == "state")
    service = client.app.state.service  # type: ignore[attr-defined]
    assert client.portal.call(service.evict_idle, 0) >= 1  # type: ignore[union-attr]
    assert tid not in service.tables
    with client.websocket_connect(f"/ws/{tid}") as ws:
        _, again = hello(ws, token_of(table["seats"][1]["link"]))
        assert again["state"] == after["state"] and again["view"] == after["view"]


def test_the_page_says_the_terminals_words_after_an_answer_to_may_i_go_out() -> None:
    """After "yes" the player must go out: the page's turn line and the terminal's prompt say so in the same words."""
    from pathlib import Path

    from canasta.text.labels import PLAY_WORDS

    script = (Path(__file__).resolve().parents[2] / "src/canasta/web/static/game/render.js").read_text(encoding="utf-8")
    for answer in (True, False):
        assert f'{str(answer).lower()}: "{PLAY_WORDS[answer]}"' in script


# -- the selection service: the page and the terminal -----------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_terminal_and_the_page_offer_the_same_moves_and_reasons(preset: str) -> None:
    """Random selections from random positions: the terminal's way (``tui.selection.offer``, what ``m`` and ``p``
    offer) and the page's (the server's ``resolve`` handler) give the same moves, in the same order, and the same
    reason (the page's list stops at MAX_RESOLVED)."""
    import random

    from canasta.tui.selection import offer
    from canasta.web.protocol import MAX_RESOLVED
    from canasta.web.service import _resolve
    from tests.engine.test_selection import random_selections

    rng = random.Random(f"same choices:{preset}")
    compared = offered = 0
    for state, cards, action in random_selections(preset, rng, hands=8):
        seat = state.to_act
        terminal = offer(state, seat, cards, action)
        moves, reason = _resolve(state.copy(), seat, cards, action)
        assert [str(m) for m in terminal.moves][:MAX_RESOLVED] == moves, (action, cards)
        assert terminal.reason == reason
        compared += 1
        offered += bool(moves)
    assert compared >= 30 and offered >= 5, (compared, offered)


def test_resolve_takes_a_meld_to_add_to_and_checks_it(client: TestClient, table: Message) -> None:
    """``onto`` names a meld rank, for a meld only; the engine's answer comes back as ``moves``."""
    tid = table["table"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        _, state = hello(ws, token_of(table["seats"][0]["link"]))
        to_act = state["view"]["to_act"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        _, state = hello(ws, token_of(table["seats"][to_act]["link"]))
        sid, card = state["state"], state["view"]["hand"][0]
        for bad in ({"onto": "Z"}, {"onto": 5}, {"onto": "KK"}, {"onto": "K", "action": "pile"}):
            message = {"type": "resolve", "cards": [card], "action": "meld", "state": sid, "id": "b", **bad}
            err = error_of(ws, message)
            assert err["error"] == "bad_message" and "onto" in err["message"], (bad, err)
        ws.send_json({"type": "resolve", "cards": [card], "action": "meld", "onto": "K", "state": sid, "id": "r"})
        answer = receive_until(ws, lambda m: m["type"] in ("moves", "error"))
        assert answer == {"type": "moves", "action": "meld", "moves": [], "state": sid, "id": "r",
                          "reason": "draw from the stock or take the pile first"}
        # With no card, the pile: every way to take it (the legal moves' own list).
        ws.send_json({"type": "resolve", "cards": [], "action": "pile", "state": sid, "id": "p"})
        answer = receive_until(ws, lambda m: m["type"] in ("moves", "error"))
        assert answer["moves"] == [m for m in state["legal"] if m.split()[0] == "pile"] or answer["reason"]
