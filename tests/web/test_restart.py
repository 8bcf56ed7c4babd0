"""Kill the server (SIGKILL) in the middle of a game, start it again: the game goes on from the last acknowledged move.

A real ``canasta serve`` process on SQLite and on PostgreSQL, real websockets.  After the
restart every seat's view is compared with a replay of the acknowledged moves from the seed.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import SeatSocket, free_port

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")
sync_client = pytest.importorskip("websockets.sync.client", reason="the restart tests need websockets")

from canasta.match import Match  # noqa: E402
from canasta.rules import Rules  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
Message = dict[str, Any]


class Server:
    """``canasta serve`` in a child process."""

    def __init__(self, db: str, port: int) -> None:
        self.db, self.port = db, port
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "canasta.cli", "serve", "--port", str(self.port), "--db", self.db,
             "--bot-delay", "0", "--quiet"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise AssertionError(f"the server stopped: {err}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=2) as answer:
                    if json.load(answer)["ok"]:
                        return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        if self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            if self.proc.stderr:
                self.proc.stderr.close()
            self.proc = None

    def create(self, body: Message) -> Message:
        request = urllib.request.Request(f"{self.url}/api/tables", data=json.dumps(body).encode(),
                                         headers={"content-type": "application/json"}, method="POST")
        with urllib.request.urlopen(request, timeout=10) as answer:
            data: Message = json.load(answer)
            return data


class Client(SeatSocket):
    """One seat's websocket."""

    def __init__(self, server: Server, table: str, token: str) -> None:
        self._connection = sync_client.connect(f"ws://127.0.0.1:{server.port}/ws/{table}", open_timeout=10)
        self.ws = self._connection.__enter__()
        self.latest: Message | None = None
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = self.receive()
        assert welcome["type"] == "welcome", welcome

    def until(self, wanted: Any) -> Message:
        while True:
            message = self.receive()
            if wanted(message):
                return message

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


@pytest.fixture
def server(storage_url: str) -> Iterator[Server]:
    srv = Server(storage_url, free_port())
    srv.start()
    yield srv
    srv.stop()


def stored_seed(server: Server, table: str) -> int:
    """The seed the server chose for a table, read from its database (the oracle replays from it)."""
    from canasta.web.storage import open_storage

    storage = open_storage(server.db)
    try:
        spec = storage.table_spec(table)
    finally:
        storage.close()
    assert spec is not None
    return int(spec["seed"])


def oracle_view(rules: Rules, seed: int, moves: list[str], seat: int) -> Message:
    match = Match(rules, seed=seed, deal=False)
    match.new_hand()
    for move in moves:
        match.play(move)
    view = match.state.view(seat).to_json()
    del view["history"]
    return view


def test_a_killed_server_goes_on_from_the_last_acknowledged_move(server: Server) -> None:
    rules = Rules()
    created = server.create({"preset": "classic", "seats": [{"kind": "human"}] * 4})  # no seed: several people
    seed = stored_seed(server, created["table"])
    table = created["table"]
    tokens = [s["link"].split("#")[1] for s in created["seats"]]
    rng = random.Random(seed)
    for round_ in range(3):
        clients = [Client(server, table, token) for token in tokens]
        state = clients[0].state_at_least(0)
        acked = [entry["move"] for entry in state["table"]["log"]]
        for _ in range(rng.randrange(8, 25)):
            actor = clients[state["view"]["to_act"]]
            mine = actor.state_at_least(state["state"])
            if not mine["legal"]:  # the hand is over: it waits for every person's ready, which is not this test's
                assert mine["view"]["phase"] == "over", (mine["view"]["phase"], mine["view"]["to_act"], mine["table"])
                break
            move = rng.choice(mine["legal"])
            actor.ws.send(json.dumps({"type": "move", "move": move, "state": mine["state"]}))
            ack = actor.until(lambda m: m["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            acked.append(ack["move"])
            state = clients[0].state_at_least(ack["state"])
        in_flight = None
        if round_ == 2:  # kill with a move sent and not yet acknowledged: it counts or not, nothing else
            actor = clients[state["view"]["to_act"]]
            legal = actor.state_at_least(state["state"])["legal"]
            if legal:
                in_flight = rng.choice(legal)
                actor.ws.send(json.dumps({"type": "move", "move": in_flight, "state": state["state"]}))
        server.kill()
        for client in clients:
            client.close()
        server.start()
        for seat, token in enumerate(tokens):
            client = Client(server, table, token)
            back = client.state_at_least(0)
            log = [entry["move"] for entry in back["table"]["log"]]
            if in_flight is not None and len(log) == len(acked) + 1:
                acked.append(in_flight)
            assert log == acked, "the moves after the restart are not the acknowledged ones"
            assert back["state"] == len(acked) + 1
            assert back["view"] == oracle_view(rules, seed, acked, seat)
            client.close()


def my_turn(message: Message) -> bool:
    return message["type"] == "state" and (bool(message["legal"]) or message["table"]["status"] == "hand_over")


def test_computer_players_go_on_after_a_restart(server: Server) -> None:
    created = server.create({"preset": "classic", "seed": 7,
                             "seats": [{"kind": "human"}, {"kind": "basic"}, {"kind": "basic"}, {"kind": "basic"}]})
    table, token = created["table"], created["seats"][0]["link"].split("#")[1]
    client = Client(server, table, token)
    acked: list[str] = []
    for _ in range(6):
        latest = client.latest
        state = latest if latest is not None and my_turn(latest) else client.until(my_turn)
        if state["table"]["status"] == "hand_over":
            message = {"type": "next", "state": state["state"]}
        else:
            legal = state["legal"]
            move = "draw" if "draw" in legal else next((m for m in legal if m.startswith("discard")), legal[0])
            message = {"type": "move", "move": move, "state": state["state"]}
        client.ws.send(json.dumps(message))
        ack = client.until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack", ack
        acked = [e["move"] for e in client.state_at_least(ack["state"])["table"]["log"]]
        hand = client.latest["table"]["hand"] if client.latest else 0
    server.kill()
    client.close()
    server.start()
    client = Client(server, table, token)
    back = client.state_at_least(0)
    log = [e["move"] for e in back["table"]["log"]]
    assert back["table"]["hand"] > hand or log[:len(acked)] == acked
    mine = back if my_turn(back) else client.until(my_turn)
    assert mine["state"] >= back["state"]
    if mine["table"]["status"] == "hand_over":
        client.ws.send(json.dumps({"type": "next", "state": mine["state"]}))
    else:
        assert mine["view"]["to_act"] == 0
        client.ws.send(json.dumps({"type": "move", "move": mine["legal"][0], "state": mine["state"]}))
    assert client.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
    client.close()


def test_a_server_refuses_a_database_it_cannot_open(tmp_path: Path) -> None:
    bad = tmp_path / "no" / "such" / "dir" / "x.sqlite3"
    run = subprocess.run([sys.executable, "-m", "canasta.cli", "serve", "--db", str(bad), "--port", "1"],
                         capture_output=True, text=True, timeout=60, cwd=ROOT, env={**os.environ})
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
