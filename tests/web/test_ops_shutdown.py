"""SIGTERM to one of two ``canasta serve`` processes on one PostgreSQL: its players go on at the other.

Real processes, real websockets.  The stopping process answers the move in flight, tells its connections
to reconnect (close code 1012) and exits 0; the players connect to the other process and find every
acknowledged move, then play on.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import SeatSocket, free_port

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")
sync_client = pytest.importorskip("websockets.sync.client", reason="these tests need websockets")
exceptions = pytest.importorskip("websockets.exceptions")

ROOT = Path(__file__).resolve().parents[2]
Message = dict[str, Any]


def start(db: str, port: int, *extra: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "canasta.cli", "serve", "--port", str(port), "--db", db,
                             "--bot-delay", "0", *extra], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server stopped: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as answer:
                ready = json.load(answer)
            if ready["ready"] and ready["listening"]:
                return proc
            time.sleep(0.1)
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the server did not start")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)
    if proc.stderr:
        proc.stderr.close()


class Seat(SeatSocket):
    """One seat's websocket to one process."""

    def __init__(self, port: int, table: str, token: str) -> None:
        self.ws = sync_client.connect(f"ws://127.0.0.1:{port}/ws/{table}", open_timeout=10).__enter__()
        self.latest: Message | None = None
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        assert self.receive()["type"] == "welcome"
        self.state_at_least(0)

    def move(self, text: str, state_id: int, request: int) -> None:
        self.ws.send(json.dumps({"type": "move", "move": text, "state": state_id, "id": request}))


def play(seats: list[Seat], moves: int, rng: random.Random, acked: list[int]) -> None:
    """``moves`` moves by whoever is to act (a random legal one), each acknowledged before the next."""
    for n in range(moves):
        state = max((s.latest for s in seats if s.latest), key=lambda m: m["state"])
        mover = next(s for s in seats if s.latest and s.latest["view"]["to_act"] == s.latest["view"]["seat"]
                     and s.latest.get("legal"))
        current = mover.state_at_least(state["state"])
        mover.move(rng.choice(current["legal"]), current["state"], n)
        while (answer := mover.receive())["type"] not in ("ack", "error"):
            pass
        assert answer["type"] == "ack", answer
        acked.append(answer["state"])
        for seat in seats:
            seat.state_at_least(answer["state"])


def test_sigterm_drains_and_the_players_resume_on_the_other_process(postgres_schema_url: str) -> None:
    ports = free_port(), free_port()
    a = start(postgres_schema_url, ports[0], "--log-format", "json")
    try:
        b = start(postgres_schema_url, ports[1], "--quiet")
        try:
            request = urllib.request.Request(
                f"http://127.0.0.1:{ports[0]}/api/tables", method="POST", headers={"content-type": "application/json"},
                data=json.dumps({"preset": "two-player", "seats": [{"kind": "human"}] * 2}).encode())
            with urllib.request.urlopen(request, timeout=10) as answer:
                created = json.load(answer)
            table, tokens = created["table"], [s["link"].split("#")[1] for s in created["seats"]]
            seats = [Seat(ports[0], table, token) for token in tokens]
            rng, acked = random.Random(34), list[int]()
            play(seats, 6, rng, acked)
            # One more move, and SIGTERM while it may still be committing.
            mover = next(s for s in seats if s.latest and s.latest.get("legal"))
            assert mover.latest is not None
            mover.move(rng.choice(mover.latest["legal"]), mover.latest["state"], 99)
            a.send_signal(signal.SIGTERM)
            codes = []
            for seat in seats:
                told = False
                try:
                    while True:
                        message = seat.receive()
                        if message["type"] == "ack":
                            acked.append(message["state"])
                        told = told or message["type"] == "reconnect"
                except exceptions.ConnectionClosed as closed:
                    codes.append(closed.rcvd.code if closed.rcvd else None)
                assert told, "a connection was closed without being told to reconnect"
            assert codes == [1012, 1012]
            assert a.wait(20) == 0, "the drained process did not exit cleanly"
            assert a.stderr is not None
            lines = [json.loads(line) for line in a.stderr.read().decode().splitlines()]  # JSON, each line
            assert any(line["message"].startswith("draining: 2 connections told") for line in lines)
            assert any(line["logger"] == "uvicorn.access" for line in lines)
            # The players reconnect, to the other process: every acknowledged move is there.
            again = [Seat(ports[1], table, token) for token in tokens]
            now = max(s.latest["state"] for s in again if s.latest)
            assert acked and acked[-1] <= now <= acked[-1] + 1  # at most the move in flight, unacknowledged
            assert len(acked) >= 6
            play(again, 4, rng, acked)
            assert acked[-1] == now + 4
            for seat in seats + again:
                seat.ws.close()
        finally:
            stop(b)
    finally:
        stop(a)
