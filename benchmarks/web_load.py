"""Load benchmark of ``canasta serve``: many tables played at once by bots over real websockets.

Run::

    python benchmarks/web_load.py [--tables 200] [--seconds 30] [--warmup 5] [--think 0.5]
                                  [--url http://127.0.0.1:PORT] [--db PATH_OR_URL] [--json]
                                  [--target POINTS] [--no-deflate] [--seed S] [--server-pid PID]

Without ``--url`` the benchmark starts its own server as a subprocess (``python -m canasta.cli
serve --port <free port> --db <temporary SQLite file> --bot-delay 0 --quiet``), waits for
``GET /api/health`` and stops it at the end.  ``--db postgresql://...`` hands a PostgreSQL URL to
that server instead of the temporary SQLite file.

Every table is created with ``POST /api/tables`` (classic preset, four human seats) and each seat
is played by its own websocket client (so ``4 x tables`` connections), as docs/protocol.md
describes: ``hello`` with the seat's token; on a ``state`` whose ``legal`` is not empty, wait a
"think" time (uniform in 0.5x..1.5x of ``--think``; 0 plays as fast as possible), then send a
uniformly random legal move with the state id and a unique ``id``.  When a hand is over, seat 0
sends ``next``; when a match is over, the table's clients leave and a fresh table takes its place.

How to read the figures:

- ``moves/s``: moves acknowledged per second inside the measured window (after ``--warmup``);
  ``next`` messages are counted apart (``nexts``).
- ``ack latency``: time from sending ``{"type": "move", ...}`` to receiving the ``ack`` with the
  same ``id``, i.e. the server's parse, check, storage commit and answer, plus every queue on the
  way (both event loops, the loopback sockets).  Only moves sent inside the window count; after the
  window no new move is sent and the acks still owed are awaited for a few seconds.
- ``server cpu``: CPU seconds (user + system) of the server process during the window, read from
  ``/proc/<pid>/stat``, and as a share of one core; a single-process asyncio server saturates at
  100 %.  ``client cpu`` is the same for this benchmark process.  Clients and server share the
  machine, so on a small machine the client's own work delays its receipt of acks: the latency
  measured is an upper bound of what the server alone adds.  ``client event-loop lag`` says by how
  much: how late a 10 ms timer of this process fires; if its p99 nears the ack p99, the client is
  the bottleneck (run it on another machine with ``--url``).  ``other cpu`` is what the rest of the
  machine (other processes, PostgreSQL's when ``--db`` names one, the kernel's loopback work) used
  during the window; over a tenth of the window, other work competed for the cores and the
  latencies are not the server's alone: rerun.
- ``--think 0`` is a closed loop: every table always has one move in flight, so the server runs
  flat out and the latency is the queue, about ``tables / (moves/s)`` (Little's law).  Its
  ``moves/s`` is the server's capacity; latency targets are for a human-like ``--think``.
- ``--abuse``: beside the normal tables, hostile clients from another loopback address
  (``127.0.0.2`` and ``.3``; the server started here trusts ``127.0.0.1``, the normal tables' address, so
  only the abusers meet the rate limits): a hint-and-ping flood on one websocket, one seat on two
  websockets asking to ``resolve`` a 23-card hand with nine wild cards (20 at once from each, then 5 a
  second from each; ``resolve``), one seat on 20 websockets writing chat lines at each one's rate
  (``chat``), table creation
  as fast as answers come, 1 GB declared bodies and streamed oversized bodies, slow clients that
  send a request's headers a byte at a time, websockets that never say ``hello``, and PDF
  requests in a loop, all in a process of their own.  ``abuse`` reports what they were answered;
  the normal tables' figures should barely move (docs/security.md).
- ``errors``: refusals by name, with the first message of each.  Only one seat can act at a time,
  so none is expected; ``stale_state`` is tolerated, any other error is a bug of the server or of
  this benchmark.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

PRESET = "classic"
SEATS = 4
CONNECT_CONCURRENCY = 64
"""Websockets opened at the same moment while the tables connect."""
DRAIN_SECONDS = 5.0
"""How long acks still owed at the end of the window are awaited."""
START_TIMEOUT = 30.0
"""Seconds the server subprocess has to answer ``/api/health``."""
LAG_PROBE = 0.01
"""Period of the probe of the client's own event loop."""


class BenchError(Exception):
    """A failure reported as one line (the server does not start, a table cannot be created)."""


@dataclass
class Stats:
    """What every client records, shared by all of them (one event loop, no locks)."""

    window_start: float = float("inf")
    window_end: float = float("inf")
    stop_sending: bool = False
    latencies: list[float] = field(default_factory=list)
    pending: dict[str, float] = field(default_factory=dict)
    moves_sent: int = 0
    moves_acked: int = 0
    nexts_acked: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: dict[str, str] = field(default_factory=dict)
    matches_finished: int = 0
    tables_created: int = 0
    disconnects: int = 0
    connected: int = 0
    next_id: int = 0
    loop_lags: list[float] = field(default_factory=list)

    def in_window(self, t: float) -> bool:
        """True when a moment lies in the measured window."""
        return self.window_start <= t < self.window_end

    def new_id(self) -> str:
        """A request id unique in this run."""
        self.next_id += 1
        return f"m{self.next_id}"


@dataclass
class Settings:
    """The run's parameters as the clients need them."""

    base: str
    ws_base: str
    think: float
    compression: str | None
    target: int | None = None


def think_time(think: float) -> float:
    """A human-like pause: uniform in 0.5x..1.5x of ``think`` (0 stays 0)."""
    return think * random.uniform(0.5, 1.5) if think > 0 else 0.0


class SeatClient:
    """One seat of one table, played by one websocket."""

    def __init__(self, settings: Settings, stats: Stats, table: str, seat: int, token: str,
                 ready: asyncio.Event) -> None:
        self.settings = settings
        self.stats = stats
        self.table = table
        self.seat = seat
        self.token = token
        self.ready = ready
        self.acted_state = -1
        self.action: asyncio.Task[None] | None = None
        self.over = False
        self.last_state: dict[str, Any] | None = None
        self.retried_state = -1

    async def run(self, gate: asyncio.Semaphore) -> None:
        """Play the seat until the match is over or the task is cancelled."""
        url = f"{self.settings.ws_base}/ws/{self.table}"
        async with gate:
            ws = await connect(url, compression=self.settings.compression, max_size=None, proxy=None,
                               open_timeout=60, close_timeout=2, ping_interval=None)
        try:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            async for raw in ws:
                self.handle(ws, json.loads(raw))
                if self.over:
                    break
        except ConnectionClosed:
            if not self.over:
                self.stats.disconnects += 1
        finally:
            if self.action is not None:
                self.action.cancel()
            await ws.close()

    def handle(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        """React to one server message."""
        stats = self.stats
        kind = message.get("type")
        if kind == "welcome":
            stats.connected += 1
            self.ready.set()
        elif kind == "ack":
            sent = stats.pending.pop(str(message.get("id")), None)
            if sent is None:
                return
            now = time.perf_counter()
            if message.get("move") == "next":
                if stats.in_window(sent):
                    stats.nexts_acked += 1
            elif stats.in_window(sent):
                stats.moves_acked += 1
                stats.latencies.append(now - sent)
        elif kind == "error":
            name = str(message.get("error"))
            stats.pending.pop(str(message.get("id")), None)
            stats.errors[name] += 1
            stats.error_samples.setdefault(name, str(message.get("message")))
            # a refused move leaves the turn with this seat: choose again, once per state (no error storm)
            last = self.last_state
            if name != "stale_state" and last is not None and last["state"] != self.retried_state:
                self.retried_state = last["state"]
                self.acted_state = -1
                self.on_state(ws, last)
        elif kind == "state":
            self.last_state = message
            self.on_state(ws, message)

    def on_state(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        state_id = message["state"]
        status = message["table"]["status"]
        if status == "over":
            if self.seat == 0:
                self.stats.matches_finished += 1
            self.over = True
            return
        if self.stats.stop_sending or state_id == self.acted_state:
            return
        if self.action is not None and not self.action.done():
            return
        if status == "hand_over":
            if self.seat == 0:
                self.acted_state = state_id
                self.action = asyncio.create_task(self.act(ws, {"type": "next", "state": state_id}))
        elif message["legal"]:
            self.acted_state = state_id
            move = random.choice(message["legal"])
            self.action = asyncio.create_task(self.act(ws, {"type": "move", "move": move, "state": state_id}))

    async def act(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        """Think, then send a move (or ``next``) and note when it left."""
        await asyncio.sleep(think_time(self.settings.think))
        if self.stats.stop_sending:
            return
        request_id = self.stats.new_id()
        message["id"] = request_id
        text = json.dumps(message)
        now = time.perf_counter()
        self.stats.pending[request_id] = now
        if message["type"] == "move" and self.stats.in_window(now):
            self.stats.moves_sent += 1
        with contextlib.suppress(ConnectionClosed):
            await ws.send(text)


async def create_table(http: httpx.AsyncClient, stats: Stats, target: int | None) -> dict[str, Any]:
    """A fresh classic table with four human seats."""
    body: dict[str, Any] = {"preset": PRESET, "seats": [{"kind": "human"}] * SEATS}
    if target is not None:
        body["target"] = target
    answer = await http.post("/api/tables", json=body)
    if answer.status_code != 201:
        raise BenchError(f"POST /api/tables answered {answer.status_code}: {answer.text[:200]}")
    stats.tables_created += 1
    created: dict[str, Any] = answer.json()
    return created


async def run_table(settings: Settings, stats: Stats, http: httpx.AsyncClient, gate: asyncio.Semaphore,
                    first_ready: asyncio.Event) -> None:
    """Keep one table busy: play a match, and when it ends, create a fresh table and go on."""
    first = True
    while not stats.stop_sending:
        created = await create_table(http, stats, settings.target)
        readies = [asyncio.Event() for _ in range(SEATS)]
        clients = [SeatClient(settings, stats, created["table"], s["seat"], s["token"], readies[s["seat"]])
                   for s in created["seats"]]
        tasks = [asyncio.create_task(c.run(gate)) for c in clients]
        if first:
            await asyncio.gather(*(r.wait() for r in readies))
            first_ready.set()
            first = False
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def probe_loop(stats: Stats) -> None:
    """Measure how late this process's own event loop wakes up (a busy client delays the acks it reads)."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(LAG_PROBE)
        now = time.perf_counter()
        if stats.in_window(before):
            stats.loop_lags.append(now - before - LAG_PROBE)


# -- the server subprocess --------------------------------------------------------------------


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (and its reaped children), from /proc; None if unreadable."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    # fields[0] is field 3 (state); utime, stime are fields 14 and 15
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float | None:
    """CPU seconds every process of the machine has used (all cores; /proc/stat), or None if unreadable."""
    try:
        first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    # cpu user nice system idle iowait irq softirq steal ...: busy is all but idle and iowait
    ticks = [int(v) for v in first[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


class Server:
    """``canasta serve`` as a subprocess on a free port."""

    def __init__(self, db: str | None) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="canasta-load-")
        self.db = db or str(Path(self.tmp.name) / "load.sqlite3")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(self.tmp.name) / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server and wait until it answers its health check."""
        command = [sys.executable, "-m", "canasta.cli", "serve", "--port", str(self.port), "--db", self.db,
                   "--bot-delay", "0", "--quiet",
                   "--trusted", "127.0.0.1"]
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + START_TIMEOUT
        with httpx.Client(base_url=self.url, trust_env=False, timeout=2) as http:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise BenchError(f"the server did not start (exit status {self.proc.returncode}): "
                                     f"{self.last_log_line()}")
                with contextlib.suppress(httpx.HTTPError):
                    if http.get("/api/health").status_code == 200:
                        return
                time.sleep(0.1)
        raise BenchError(f"the server did not answer /api/health within {START_TIMEOUT:.0f} s: "
                         f"{self.last_log_line()}")

    def last_log_line(self) -> str:
        """The server's last line of output (its one-line error), or a note that it said nothing."""
        try:
            lines = [line for line in self.log_path.read_text(errors="replace").splitlines() if line.strip()]
        except OSError:
            lines = []
        return lines[-1].strip() if lines else "it printed nothing"

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 10 s."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.tmp.cleanup()


# -- the run ------------------------------------------------------------------------------------


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of sorted values; NaN when there are none."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), math.ceil(q / 100 * len(sorted_values))))
    return sorted_values[rank - 1]


def raise_file_limit() -> int:
    """Raise the soft limit of open files to the hard one; the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return soft


ABUSER = "127.0.0.2"
"""The abusive clients' own loopback address (the normal tables use 127.0.0.1)."""
IDLER = "127.0.0.3"
"""The address of the websockets that never say hello and of the slow clients."""


async def _declared_giant(base: str) -> str:
    """A request that declares a 1 GB body and sends 64 KiB of it: the status line it gets."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port), local_addr=(ABUSER, 0))
    try:
        writer.write(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1073741824\r\n\r\n" + b"x" * 65536)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 10)
        return line.decode("latin-1").split(" ")[1] if line else "closed"
    finally:
        writer.close()


async def _abuse_http(base: str, answers: Counter[str], stop: asyncio.Event) -> None:
    """Table creation, PDFs, score sheets and giant bodies, as fast as the server answers."""
    transport = httpx.AsyncHTTPTransport(local_address=ABUSER)
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=10, transport=transport) as http:
        async def giant() -> Any:
            async def chunks() -> Any:
                for _ in range(1000):
                    yield b"x" * 65536
            return await http.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})

        requests = [
            lambda: http.post("/api/tables", json={"preset": "two-player"}),
            lambda: http.get("/sheets/classic/rules.pdf"),
            lambda: http.post("/api/score", json={"names": ["a", "b"], "hands": [[{}]] * 300}),
            giant,
        ]
        while not stop.is_set():
            try:
                answers[f"declared 1 GB {await _declared_giant(base)}"] += 1
            except (OSError, TimeoutError) as exc:
                answers[f"declared 1 GB {type(exc).__name__}"] += 1
            for index, request in enumerate(requests):
                try:
                    answer = await request()
                    answers[f"http {index} {answer.status_code}"] += 1
                except httpx.HTTPError as exc:
                    answers[f"http {index} {type(exc).__name__}"] += 1


async def _abuse_flood(base: str, ws_base: str, answers: Counter[str], stop: asyncio.Event) -> None:
    """One seat that asks for hints and pings without pause."""
    transport = httpx.AsyncHTTPTransport(local_address=ABUSER)
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=10, transport=transport) as http:
        created = (await http.post("/api/tables", json={"preset": "two-player",
                                                        "seats": [{"kind": "human"}] * 2})).json()
    async with connect(f"{ws_base}/ws/{created['table']}", local_addr=(ABUSER, 0), max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": created["seats"][0]["token"]}))
        state = 0

        async def read() -> None:
            nonlocal state
            async for text in ws:
                message = json.loads(text)
                if message["type"] == "state":
                    state = message["state"]
                answers[f"flood {message.get('error', message['type'])}"] += 1

        reader = asyncio.create_task(read())
        try:
            while not stop.is_set():
                await ws.send(json.dumps({"type": "hint", "state": state}))
                await ws.send(json.dumps({"type": "ping"}))
                await asyncio.sleep(0.001)
        finally:
            reader.cancel()


BIG_HAND = {"preset": "two-player", "options": {"decks": 3, "hand_size": 21}, "seed": 476,
            "seats": [{"kind": "expert"}, {"kind": "human"}]}
"""A one-person table whose person (seat 1, first to act) is dealt 21 cards with nine wild cards: after the
draw, a ``resolve`` of all 23 cards tries thousands of ways to place the wild cards (about 0.1 s of CPU)."""


async def _abuse_resolve(base: str, ws_base: str, answers: Counter[str], stop: asyncio.Event) -> None:
    """One seat on two connections that asks to ``resolve`` its whole big hand: a burst of 20 from each,
    then 5 a second from each (the documented rate of one connection)."""
    transport = httpx.AsyncHTTPTransport(local_address=ABUSER)
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=10, transport=transport) as http:
        created = (await http.post("/api/tables", json=BIG_HAND)).json()
    token = created["seats"][1]["token"]
    url = f"{ws_base}/ws/{created['table']}"
    async with connect(url, local_addr=(ABUSER, 0), max_size=2**22) as one, \
            connect(url, local_addr=(ABUSER, 0), max_size=2**22) as two:
        for ws in (one, two):
            await ws.send(json.dumps({"type": "hello", "token": token}))
        state: dict[str, Any] = {}
        ready = asyncio.Event()

        async def read(ws: ClientConnection, drawer: bool) -> None:
            async for text in ws:
                message = json.loads(text)
                if message["type"] == "state":
                    state.update(message)
                    if drawer and "draw" in message["legal"]:
                        await ws.send(json.dumps({"type": "move", "move": "draw", "state": message["state"]}))
                    elif any(move.startswith("discard") for move in message["legal"]):
                        ready.set()
                elif message["type"] in ("moves", "error"):
                    answers[f"resolve {message.get('error', message['type'])}"] += 1

        readers = [asyncio.create_task(read(one, True)), asyncio.create_task(read(two, False))]
        try:
            await asyncio.wait_for(ready.wait(), 30)
            hand = [card for card in state["view"]["hand"] if card not in ("3H", "3D")]
            wild = [card for card in hand if card == "JK" or card[0] == "2"]
            ranks = Counter(card[:-1] for card in hand if card not in wild)
            pairs = wild + [card for card in hand if card not in wild and ranks[card[:-1]] >= 2]
            asks = [json.dumps({"type": "resolve", "cards": hand, "action": "meld", "state": state["state"]}),
                    # every wild card with the pairs, as a pile taken after the draw: the costliest refusal found
                    json.dumps({"type": "resolve", "cards": pairs, "action": "pile", "state": state["state"]})]
            for ws in (one, two):
                for index in range(20):
                    await ws.send(asks[index % 2])
            sent = 0
            while not stop.is_set():
                await asyncio.sleep(0.2)
                sent += 1
                for ws in (one, two):
                    await ws.send(asks[sent % 2])
        finally:
            for reader in readers:
                reader.cancel()


async def _abuse_chat(base: str, ws_base: str, answers: Counter[str], stop: asyncio.Event,
                      connections: int = 20) -> None:
    """One seat on 20 connections writing chat lines of 290 characters, each at a connection's documented
    rate (a burst of 5, then one a second)."""
    transport = httpx.AsyncHTTPTransport(local_address=ABUSER)
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=10, transport=transport) as http:
        created = (await http.post("/api/tables", json={"preset": "two-player",
                                                        "seats": [{"kind": "human"}] * 2})).json()
    url, token = f"{ws_base}/ws/{created['table']}", created["seats"][0]["token"]
    line = json.dumps({"type": "chat", "text": "spam " * 58})

    async def one() -> None:
        async with connect(url, local_addr=(ABUSER, 0), max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))

            async def read() -> None:
                async for text in ws:
                    message = json.loads(text)
                    if message["type"] == "ack" or message["type"] == "error":
                        answers[f"chat {message.get('error', 'ack')}"] += 1

            reader = asyncio.create_task(read())
            try:
                for _ in range(5):
                    await ws.send(line)
                while not stop.is_set():
                    await asyncio.sleep(1)
                    await ws.send(line)
            finally:
                reader.cancel()

    await asyncio.gather(*(one() for _ in range(connections)))


async def _abuse_idle(ws_base: str, answers: Counter[str], stop: asyncio.Event, count: int = 100) -> None:
    """Websockets that never say hello, opened again as soon as the server closes them."""
    async def one() -> None:
        while not stop.is_set():
            try:
                async with connect(f"{ws_base}/ws/idle", local_addr=(IDLER, 0)) as ws:
                    async for text in ws:
                        answers[f"idle {json.loads(text).get('error', '?')}"] += 1
            except (OSError, ConnectionClosed) as exc:
                answers[f"idle {type(exc).__name__}"] += 1
            await asyncio.sleep(0.5)

    await asyncio.gather(*(one() for _ in range(count)))


async def _abuse_slow(base: str, answers: Counter[str], stop: asyncio.Event, count: int = 20) -> None:
    """Slow clients: a request's headers, one byte a second."""
    host, port = base.removeprefix("http://").split(":")

    async def one() -> None:
        while not stop.is_set():
            try:
                _, writer = await asyncio.open_connection(host, int(port), local_addr=(IDLER, 0))
                for byte in b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n":
                    if stop.is_set():
                        break
                    writer.write(bytes([byte]))
                    await writer.drain()
                    await asyncio.sleep(1)
                writer.close()
                answers["slow client done"] += 1
            except OSError as exc:
                answers[f"slow {type(exc).__name__}"] += 1
                await asyncio.sleep(1)

    await asyncio.gather(*(one() for _ in range(count)))


ABUSERS = ("http", "flood", "resolve", "chat", "idle", "slow")
"""The abusive clients by name (``--abuse NAME,NAME``; ``--abuse`` alone: all of them)."""


async def abuse(base: str, ws_base: str, answers: Counter[str], stop: asyncio.Event,
                which: tuple[str, ...] = ABUSERS) -> None:
    """The abusive clients named in ``which``, all at once until ``stop``."""
    runs = {"http": lambda: _abuse_http(base, answers, stop),
            "flood": lambda: _abuse_flood(base, ws_base, answers, stop),
            "resolve": lambda: _abuse_resolve(base, ws_base, answers, stop),
            "chat": lambda: _abuse_chat(base, ws_base, answers, stop),
            "idle": lambda: _abuse_idle(ws_base, answers, stop),
            "slow": lambda: _abuse_slow(base, answers, stop)}
    results = await asyncio.gather(*(runs[name]() for name in which), return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            answers[f"abuser stopped: {type(result).__name__}"] += 1


def _abuse_process(base: str, ws_base: str, seconds: float, out: Any, which: tuple[str, ...] = ABUSERS) -> None:
    """The abusers in a process of their own (its own event loop and CPU share, as real abusers would have),
    for ``seconds``; what they were answered goes back through ``out``."""

    async def run() -> Counter[str]:
        answers: Counter[str] = Counter()
        stop = asyncio.Event()
        task = asyncio.create_task(abuse(base, ws_base, answers, stop, which))
        await asyncio.sleep(seconds)
        stop.set()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return answers

    out.put(dict(asyncio.run(run())))


async def measure(args: argparse.Namespace, base: str, server_pid: int | None) -> dict[str, Any]:
    """Connect every table, warm up, measure, drain; the figures."""
    ws_base = "ws" + base.removeprefix("http")
    settings = Settings(base, ws_base, args.think, None if args.no_deflate else "deflate", args.target)
    stats = Stats()
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=60, limits=limits) as http:
        health = await http.get("/api/health")
        if health.status_code != 200:
            raise BenchError(f"GET {base}/api/health answered {health.status_code}")
        t0 = time.perf_counter()
        readies = [asyncio.Event() for _ in range(args.tables)]
        tasks = [asyncio.create_task(run_table(settings, stats, http, gate, r)) for r in readies]
        waiting: asyncio.Future[Any] = asyncio.gather(*(r.wait() for r in readies))
        watched: list[asyncio.Future[Any]] = [waiting, *tasks]
        done, _ = await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
        if waiting not in done:
            failed = next(t for t in done if t is not waiting)
            waiting.cancel()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            failed.result()  # raises what went wrong
            raise BenchError("a table stopped before every table was connected")
        connect_seconds = time.perf_counter() - t0
        abuse_answers: Counter[str] = Counter()
        abusers, abuse_out = None, None
        if args.abuse:  # not in this process: the normal tables' latencies must not wait on the abusers' loop
            context = multiprocessing.get_context("spawn")
            abuse_out = context.Queue()
            abusers = context.Process(target=_abuse_process, daemon=True,
                                      args=(base, ws_base, args.warmup + args.seconds, abuse_out, args.abuse))
            abusers.start()
        await asyncio.sleep(args.warmup)
        probe = asyncio.create_task(probe_loop(stats))
        stats.window_start = time.perf_counter()
        server_cpu0 = cpu_seconds(server_pid) if server_pid else None
        client_cpu0 = time.process_time()
        busy0 = machine_busy_seconds()
        await asyncio.sleep(args.seconds)
        stats.window_end = time.perf_counter()
        server_cpu1 = cpu_seconds(server_pid) if server_pid else None
        client_cpu1 = time.process_time()
        busy1 = machine_busy_seconds()
        stats.stop_sending = True
        probe.cancel()
        if abusers is not None and abuse_out is not None:
            try:
                abuse_answers.update(await asyncio.to_thread(abuse_out.get, True, 60))
            except Exception as exc:  # queue.Empty: the abusers' process died or hung
                abuse_answers[f"abusers' process answered nothing: {type(exc).__name__}"] += 1
            abusers.join(5)
            if abusers.is_alive():
                abusers.kill()
        drain_until = time.perf_counter() + DRAIN_SECONDS
        while time.perf_counter() < drain_until and any(stats.in_window(t) for t in stats.pending.values()):
            await asyncio.sleep(0.05)
        unanswered = sum(1 for t in stats.pending.values() if stats.in_window(t))
        broken = [t for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    if broken:
        exc = broken[0].exception()
        raise BenchError(f"{len(broken)} table(s) stopped with {type(exc).__name__}: {exc}")
    window = args.seconds
    lat = sorted(stats.latencies)
    lags = sorted(stats.loop_lags)
    server_cpu = (server_cpu1 - server_cpu0) if server_cpu0 is not None and server_cpu1 is not None else None
    client_cpu = client_cpu1 - client_cpu0
    other_cpu = None
    if busy0 is not None and busy1 is not None and server_cpu is not None:
        other_cpu = max(0.0, busy1 - busy0 - server_cpu - client_cpu)
    return {
        "tables": args.tables,
        "connections": args.tables * SEATS,
        "think_s": args.think,
        "compression": settings.compression or "none",
        "connect_s": round(connect_seconds, 2),
        "warmup_s": args.warmup,
        "window_s": window,
        "moves_sent": stats.moves_sent,
        "moves_acked": stats.moves_acked,
        "moves_per_s": round(stats.moves_acked / window, 1),
        "nexts_acked": stats.nexts_acked,
        "unanswered": unanswered,
        "ack_ms": {name: round(percentile(lat, q) * 1000, 2) for name, q in
                   (("p50", 50), ("p90", 90), ("p99", 99), ("max", 100))},
        "errors": dict(stats.errors),
        "error_samples": stats.error_samples,
        "abuse": dict(sorted(abuse_answers.items())) if args.abuse else None,
        "matches_finished": stats.matches_finished,
        "tables_created": stats.tables_created,
        "disconnects": stats.disconnects,
        "server_cpu_s": round(server_cpu, 2) if server_cpu is not None else None,
        "server_cpu_share": round(server_cpu / window, 3) if server_cpu is not None else None,
        "client_cpu_s": round(client_cpu, 2),
        "client_cpu_share": round(client_cpu / window, 3),
        "client_loop_lag_ms": {name: round(percentile(lags, q) * 1000, 2) for name, q in
                               (("p50", 50), ("p99", 99), ("max", 100))},
        "other_cpu_s": round(other_cpu, 2) if other_cpu is not None else None,
        "cores": os.cpu_count(),
    }


def report(figures: dict[str, Any]) -> str:
    """The figures as a few readable lines."""
    ack = figures["ack_ms"]
    lines = [
        f"tables {figures['tables']}, connections {figures['connections']}, think {figures['think_s']} s, "
        f"compression {figures['compression']}, {figures['cores']} cores (clients share them with the server)",
        f"connected in {figures['connect_s']} s; warm-up {figures['warmup_s']} s; window {figures['window_s']} s",
        f"moves acknowledged {figures['moves_acked']} ({figures['moves_per_s']}/s), next {figures['nexts_acked']}, "
        f"unanswered {figures['unanswered']}",
        f"ack latency ms: p50 {ack['p50']}  p90 {ack['p90']}  p99 {ack['p99']}  max {ack['max']}",
        f"matches finished {figures['matches_finished']}, tables created {figures['tables_created']}, "
        f"unexpected disconnects {figures['disconnects']}",
    ]
    if figures["server_cpu_s"] is not None:
        lines.append(f"server cpu {figures['server_cpu_s']} s ({figures['server_cpu_share']:.0%} of one core); "
                     f"client cpu {figures['client_cpu_s']} s ({figures['client_cpu_share']:.0%} of one core)")
    else:
        lines.append(f"server cpu unknown (give --server-pid); client cpu {figures['client_cpu_s']} s "
                     f"({figures['client_cpu_share']:.0%} of one core)")
    if figures["other_cpu_s"] is not None:
        busy = figures["other_cpu_s"] > 0.1 * figures["window_s"]
        lines.append(f"other cpu on this machine {figures['other_cpu_s']} s"
                     + (" (other work ran during the window: the figures are disturbed, rerun)" if busy else ""))
    lag = figures["client_loop_lag_ms"]
    lines.append(f"client event-loop lag ms (it inflates the latencies above): p50 {lag['p50']}  p99 {lag['p99']}  "
                 f"max {lag['max']}")
    if figures["errors"]:
        lines.append("errors: " + ", ".join(f"{name} {count}" for name, count in sorted(figures["errors"].items())))
        for name, text in sorted(figures["error_samples"].items()):
            if name != "stale_state":
                lines.append(f"  {name}: {text}")
    else:
        lines.append("errors: none")
    if figures.get("abuse"):
        lines.append("abusers were answered: " + ", ".join(f"{k} x{v}" for k, v in figures["abuse"].items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200, help="tables played at once (default 200)")
    parser.add_argument("--seconds", type=float, default=30, help="measured window in seconds (default 30)")
    parser.add_argument("--warmup", type=float, default=5, help="seconds played before the window (default 5)")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a player thinks before a move (0.5x..1.5x of it; 0: none)")
    parser.add_argument("--url", help="a running server (default: start one on a free port)")
    parser.add_argument("--server-pid", type=int, help="with --url: the server's process id, for its CPU time")
    parser.add_argument("--db", help="the started server's database: a SQLite path or a postgresql:// URL "
                                     "(default a temporary SQLite file)")
    parser.add_argument("--no-deflate", action="store_true",
                        help="no permessage-deflate (browsers ask for it, so it is on by default)")
    parser.add_argument("--target", type=int,
                        help="the match target (1000 to 10000; default the preset's): low ends matches sooner")
    parser.add_argument("--seed", type=int, help="seed of the clients' random choices")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--abuse", nargs="?", const=",".join(ABUSERS), default="", metavar="NAMES",
                        help="run abusive clients from 127.0.0.2 beside the normal tables (see above): all of them, "
                             f"or those named ({', '.join(ABUSERS)}; comma-separated)")
    args = parser.parse_args(argv)
    names = tuple(name for name in args.abuse.split(",") if name.strip())
    if unknown := [name for name in names if name not in ABUSERS]:
        parser.error(f"unknown abuser {unknown[0]!r} (known: {', '.join(ABUSERS)})")
    args.abuse = names
    if args.tables < 1 or args.seconds <= 0 or args.warmup < 0 or args.think < 0:
        parser.error("--tables must be 1 or more, --seconds more than 0, --warmup and --think 0 or more")
    if args.seed is not None:
        random.seed(args.seed)
    limit = raise_file_limit()
    needed = args.tables * SEATS * (1 if args.url else 2) + 100
    if limit < needed:
        print(f"web_load: {needed} open files are needed and the limit is {limit}", file=sys.stderr)
        return 2
    server = None if args.url else Server(args.db)
    try:
        if server is not None:
            server.start()
        base = args.url.rstrip("/") if args.url else server.url if server else ""
        pid = server.proc.pid if server is not None and server.proc is not None else args.server_pid
        try:
            figures = asyncio.run(measure(args, base, pid))
        except (OSError, httpx.HTTPError) as exc:
            raise BenchError(f"{type(exc).__name__} talking to {base}: {exc}") from None
    except BenchError as exc:
        print(f"web_load: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("web_load: interrupted", file=sys.stderr)
        return 130
    finally:
        if server is not None:
            server.stop()
    print(json.dumps(figures) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
