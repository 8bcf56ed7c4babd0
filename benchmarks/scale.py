"""Figures at scale: several ``canasta serve`` processes on one PostgreSQL behind a reverse proxy, a step-up curve
of tables played at once, and a run in which one process is killed.

Run::

    python benchmarks/scale.py [--servers 3] [--steps 25,50,100,200,400,800] [--limit-ms 100] [--all-steps]
                               [--seconds 20] [--warmup 5] [--think 0.5] [--workers 2]
                               [--kill [TABLES]] [--lb round_robin|uri_hash|least_conn] [--db postgresql://...]
                               [--compiled] [--profile DIR] [--logs DIR] [--no-deflate] [--seed S]
                               [--note TEXT] [--json] [--no-record]

What it starts, all on loopback:

- PostgreSQL: ``--db``, or the tests' cluster of ``scripts/ensure-postgres.sh`` in ``.venv/pg``, in a fresh
  schema dropped at the end;
- ``--servers`` ``canasta serve`` processes on free ports, sharing that database (``--bot-delay 0 --quiet
  --trusted 127.0.0.1``: the proxy's address has no rate limit), each started like an operator would;
  ``--compiled`` runs them on the compiled build (``PYTHONPATH=build/compiled/lib``, ``make compiled``);
- Caddy in front of them (a Caddyfile generated in a temporary folder, in the spirit of ``deploy/Caddyfile``):
  ``reverse_proxy`` to the processes, ``lb_policy round_robin`` (``--lb``), ``health_uri /readyz`` every 2 s
  (2 s to answer), a process that refuses a connection is left out for 10 s, a request that finds its
  process gone is tried on another for up to 5 s, and idle connections to the processes are closed after 4 s
  (before uvicorn's 5 s: else Caddy may send a request on a connection being closed and answer 502).

The load is web_load.py's (it imports its helpers): tables of the classic preset with four human seats, each
seat its own websocket, created and connected through the proxy; each seat thinks ``--think`` seconds
(0.5x..1.5x) and plays a random legal move; when a hand is over every seat says ``next``.  Round robin puts the
four seats of a table on different processes, so most moves reach some of their table's players through
another process (LISTEN/NOTIFY, web/notify.py).  The clients run in ``--workers`` processes of their own.

Each step of the curve plays ``tables`` tables for ``--warmup`` then ``--seconds`` seconds and prints:

- ``moves/s``: moves acknowledged in the window, per second;
- ``ack p50/p99``: from sending a move to its ``ack`` (the proxy both ways, the process, its commit);
- ``cross p50/p99``: from a move's ``ack`` to the moment a seat of the same table connected to *another*
  process holds the new state (the notification, that process's read, its broadcast, the proxy); ``same``:
  the same for seats on the mover's own process, for comparison.  Which process holds a seat is read from the
  ``presence`` rows as the window starts (a websocket through the proxy cannot tell);
- ``own <= 100 ms``: the share of the window's moves that the servers' own ``canasta_ack_seconds`` histogram
  (``/metrics``) put under 0.1 s: what an operator's alert reads, next to what the players saw;
- ``errors``: refusals by name (``stale_state`` is harmless), connections lost, moves never answered;
- CPU: seconds used in the window by the servers, Caddy, PostgreSQL, the clients and the rest of the machine
  (``oth``: other work; when it is large the latencies are those of a busy machine), and the servers' CPU per
  acknowledged move, which contention leaves alone.

The curve stops at the first step whose ack p99 is over ``--limit-ms`` (100), or that had errors
(``--all-steps``: it plays them all); the knee is the largest step under it.  Every process of this run shares
the machine's cores: the clients' own work (JSON, deflate, the event loop) delays the acks they read, so on a
small machine the figures are an upper bound of what the servers add (``client lag`` says by how much).

``--kill [TABLES]`` then plays one more run (TABLES tables, by default the knee's half) and SIGKILLs one
server process in the middle of its window.  Its clients' websockets break; each connects again through the
proxy at once (then after 0.1, 0.2, 0.4 ... 1 s), says ``hello`` and is back when it holds its table's state.
Afterwards every move a client saw acknowledged, in the whole run, is looked up in the database: the event at
its state id must be that seat's move.  It prints the moves checked and missing, and the time from the kill
until each cut-off client was back (p50/p99/max, and how many never came back).

Caddy's log is read after each step for failed health checks, ``no upstreams available`` (503) and 502s; a table
whose creation got a 502 or 503 is asked for again, as a person would (counted as ``create 503``).

``--profile DIR`` records the first server with py-spy (``pip install py-spy``) during each step's window:
``DIR/server-TABLES.txt`` holds the collapsed stacks; the busiest functions are printed.

One JSON line per run is appended to ``benchmarks/results/scale.jsonl`` (``--no-record``: not).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from web_load import (
    BenchError,
    cpu_seconds,
    free_port,
    machine_busy_seconds,
    percentile,
    raise_file_limit,
    think_time,
)
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "scale.jsonl"
PRESET = "classic"
SEATS = 4
TARGET = 10000
"""The match target: high, so that few matches end inside a run."""
CONNECT_CONCURRENCY = 8
"""Websockets one worker opens at the same moment while its tables connect."""
DRAIN_SECONDS = 5.0
"""How long acks still owed at the end of the window are awaited."""
RECONNECT_FIRST, RECONNECT_MOST = 0.1, 1.0
"""A broken websocket is opened again at once, then after these seconds, doubling up to the most."""
BACK_LIMIT = 30.0
"""Seconds after the kill by which every cut-off client must be back."""
START_TIMEOUT = 60.0
LAG_PROBE = 0.01


# -- pure figures (tests/web/test_scale_bench.py) ---------------------------------------------------------


def summary_ms(values: list[float]) -> dict[str, float | int]:
    """Count, p50, p99 and max of durations in seconds, as milliseconds (NaN when there are none)."""
    ordered = sorted(values)
    return {"n": len(ordered), **{name: round(percentile(ordered, q) * 1000, 2)
                                  for name, q in (("p50", 50), ("p99", 99), ("max", 100))}}


def knee(curve: list[dict[str, Any]], limit_ms: float) -> int | None:
    """The most tables of a step whose ack p99 stayed at or under ``limit_ms`` and had no unexpected errors
    (None when no step did)."""
    good = [step["tables"] for step in curve
            if step["ack_ms"]["p99"] <= limit_ms and not step.get("failed")]
    return max(good) if good else None


def deliveries(acks: dict[int, tuple[float, int]], arrivals: dict[int, list[tuple[int, float]]],
               where: dict[int, str], window: tuple[float, float]) -> tuple[list[float], list[float]]:
    """Delivery times of one table's moves, split into (cross-process, same-process).

    ``acks``: state id -> (moment its mover read the ack, the mover's seat); ``arrivals``: seat -> the
    (state id, moment) of each state the seat received, in order; ``where``: seat -> the server process that
    holds its connection (seats not in it are left out).  A move reaches a seat with the first state at least
    as new as it (a process may skip states it caught up at once); the delay counts from the ack (never below
    0: the other process may beat the ack to the client).  Only moves acknowledged inside ``window`` count."""
    cross: list[float] = []
    same: list[float] = []
    states = {seat: [state for state, _ in got] for seat, got in arrivals.items()}
    for state, (acked, mover) in acks.items():
        if not window[0] <= acked < window[1] or mover not in where:
            continue
        for seat, got in arrivals.items():
            if seat == mover or seat not in where:
                continue
            index = bisect.bisect_left(states[seat], state)
            if index == len(got):
                continue
            (same if where[seat] == where[mover] else cross).append(max(got[index][1] - acked, 0.0))
    return cross, same


def missing_moves(acked: list[tuple[str, int, int, str]], events: dict[str, list[tuple[str, int | None, str]]]
                  ) -> list[tuple[str, int, int, str]]:
    """The acknowledged moves (table, seat, state id, move) that storage does not hold.

    ``events``: per table, its events' (kind, seat, text) in order.  The state id counts deals and moves
    (``canasta.play.table.Table.state_id``), so the move acknowledged at state ``s`` is the ``s``-th of them."""
    counted = {table: [e for e in got if e[0] in ("deal", "move")] for table, got in events.items()}
    missing = []
    for table, seat, state, move in acked:
        got = counted.get(table, [])
        if not (0 < state <= len(got) and got[state - 1] == ("move", seat, move)):
            missing.append((table, seat, state, move))
    return missing


# -- the clients ----------------------------------------------------------------------------------------------


@dataclass
class Settings:
    base: str
    think: float
    compression: str | None


@dataclass
class Run:
    """What one worker's clients record (one event loop, no locks)."""

    window: tuple[float, float] = (float("inf"), float("inf"))
    stop_sending: bool = False
    stop_playing: bool = False
    pending: dict[str, float] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    acked: list[tuple[str, int, int, str]] = field(default_factory=list)
    moves_acked: int = 0
    nexts_acked: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: dict[str, str] = field(default_factory=dict)
    connect_failures: Counter[str] = field(default_factory=Counter)
    lost: int = 0
    backs: list[tuple[float, float]] = field(default_factory=list)
    matches_finished: int = 0
    tables: list[TablePlay] = field(default_factory=list)
    clients: list[SeatClient] = field(default_factory=list)
    loop_lags: list[float] = field(default_factory=list)
    next_id: int = 0

    def in_window(self, t: float) -> bool:
        return self.window[0] <= t < self.window[1]


@dataclass
class TablePlay:
    id: str
    acks: dict[int, tuple[float, int]] = field(default_factory=dict)
    arrivals: dict[int, list[tuple[int, float]]] = field(default_factory=dict)


class SeatClient:
    """One seat, played by one websocket through the proxy; opened again when it breaks."""

    def __init__(self, settings: Settings, run: Run, table: TablePlay, seat: int, token: str,
                 ready: asyncio.Event) -> None:
        self.settings, self.run, self.table, self.seat, self.token, self.ready = (
            settings, run, table, seat, token, ready)
        self.acted_state = -1
        self.action: asyncio.Task[None] | None = None
        self.over = False
        self.last_state: dict[str, Any] | None = None
        self.retried_state = -1
        self.lost_at: float | None = None
        table.arrivals[seat] = []
        run.clients.append(self)

    async def play(self, gate: asyncio.Semaphore) -> None:
        url = "ws" + self.settings.base.removeprefix("http") + f"/ws/{self.table.id}"
        wait = RECONNECT_FIRST
        first = True
        while not self.over and not self.run.stop_playing:
            try:
                async with gate if first else contextlib.nullcontext():
                    ws = await connect(url, compression=self.settings.compression, max_size=None, proxy=None,
                                       open_timeout=30, close_timeout=2, ping_interval=None)
            except (OSError, InvalidHandshake, TimeoutError) as exc:
                self.run.connect_failures[type(exc).__name__] += 1
                if first and sum(self.run.connect_failures.values()) > 100:
                    raise
                await asyncio.sleep(wait)
                wait = min(wait * 2, RECONNECT_MOST)
                continue
            first = False
            wait = RECONNECT_FIRST
            self.acted_state = -1  # a move sent to a process that died may never have been made: choose again
            try:
                await ws.send(json.dumps({"type": "hello", "token": self.token}))
                async for raw in ws:
                    self.handle(ws, json.loads(raw))
                    if self.over:
                        break
            except ConnectionClosed:
                pass
            finally:
                if self.action is not None:
                    self.action.cancel()
                with contextlib.suppress(Exception):
                    await ws.close()
            if not self.over and not self.run.stop_playing:
                self.run.lost += 1
                if self.lost_at is None:
                    self.lost_at = time.perf_counter()

    def handle(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        run = self.run
        kind = message.get("type")
        now = time.perf_counter()
        if kind == "welcome":
            self.ready.set()
        elif kind == "ack":
            sent = run.pending.pop(str(message.get("id")), None)
            if sent is None:
                return
            if message.get("move") in ("next", "ready"):
                run.nexts_acked += run.in_window(sent)
                return
            run.acked.append((self.table.id, self.seat, int(message["state"]), str(message["move"])))
            self.table.acks[int(message["state"])] = (now, self.seat)
            if run.in_window(sent):
                run.moves_acked += 1
                run.latencies.append(now - sent)
        elif kind == "error":
            name = str(message.get("error"))
            run.pending.pop(str(message.get("id")), None)
            run.errors[name] += 1
            run.error_samples.setdefault(name, str(message.get("message")))
            last = self.last_state
            if name != "stale_state" and last is not None and last["state"] != self.retried_state:
                self.retried_state = last["state"]
                self.acted_state = -1
                self.on_state(ws, last)
        elif kind == "state":
            self.table.arrivals[self.seat].append((int(message["state"]), now))
            if self.lost_at is not None:
                run.backs.append((self.lost_at, now))
                self.lost_at = None
            self.last_state = message
            self.on_state(ws, message)

    def on_state(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        state_id = message["state"]
        status = message["table"]["status"]
        if status == "over":
            self.run.matches_finished += self.seat == 0
            self.over = True
            return
        if self.run.stop_sending or state_id == self.acted_state:
            return
        if self.action is not None and not self.action.done():
            return
        if status == "hand_over":
            self.acted_state = state_id
            self.action = asyncio.create_task(self.act(ws, {"type": "next", "state": state_id}))
        elif message["legal"]:
            self.acted_state = state_id
            move = random.choice(message["legal"])
            self.action = asyncio.create_task(self.act(ws, {"type": "move", "move": move, "state": state_id}))

    async def act(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        await asyncio.sleep(think_time(self.settings.think))
        if self.run.stop_sending:
            return
        self.run.next_id += 1
        request_id = f"m{self.run.next_id}"
        message["id"] = request_id
        text = json.dumps(message)
        self.run.pending[request_id] = time.perf_counter()
        with contextlib.suppress(ConnectionClosed):
            await ws.send(text)


async def keep_table(settings: Settings, run: Run, http: httpx.AsyncClient, gate: asyncio.Semaphore,
                     first_ready: asyncio.Event) -> None:
    """Keep one table busy: a match, and when it ends a fresh table."""
    first = True
    while not run.stop_playing:
        body = {"preset": PRESET, "seats": [{"kind": "human"}] * SEATS, "target": TARGET}
        for wait in (0.5, 1, 2, 4, 8, 0):  # a proxy that finds no process ready answers 502/503: a person retries
            answer = await http.post("/api/tables", json=body)
            if answer.status_code not in (502, 503) or not wait:
                break
            run.errors[f"create {answer.status_code}"] += 1
            await asyncio.sleep(wait)
        if answer.status_code != 201:
            raise BenchError(f"POST /api/tables answered {answer.status_code}: {answer.text[:200]}")
        created = answer.json()
        table = TablePlay(created["table"])
        run.tables.append(table)
        readies = [asyncio.Event() for _ in range(SEATS)]
        clients = [SeatClient(settings, run, table, s["seat"], s["token"], readies[s["seat"]])
                   for s in created["seats"]]
        tasks = [asyncio.create_task(c.play(gate)) for c in clients]
        try:
            if first:
                await asyncio.gather(*(r.wait() for r in readies))
                first_ready.set()
                first = False
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def probe_loop(run: Run) -> None:
    while True:
        before = time.perf_counter()
        await asyncio.sleep(LAG_PROBE)
        if run.in_window(before):
            run.loop_lags.append(time.perf_counter() - before - LAG_PROBE)


async def worker_async(tables: int, settings: Settings, seed: int, out: Any, inbox: Any) -> None:
    random.seed(seed)
    run = Run()
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    limits = httpx.Limits(max_connections=8, max_keepalive_connections=8)
    async with httpx.AsyncClient(base_url=settings.base, trust_env=False, timeout=60, limits=limits) as http:
        readies = [asyncio.Event() for _ in range(tables)]
        tasks = [asyncio.create_task(keep_table(settings, run, http, gate, r)) for r in readies]
        waiting: asyncio.Future[Any] = asyncio.gather(*(r.wait() for r in readies))
        done, _ = await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
        if waiting not in done:
            failed = next(t for t in done if t is not waiting)
            out.put(("failed", f"{type(failed.exception()).__name__}: {failed.exception()}"))
            waiting.cancel()
            for task in tasks:
                task.cancel()
            await asyncio.gather(waiting, *tasks, return_exceptions=True)
            return
        out.put(("ready", None))
        start, end = await asyncio.to_thread(inbox.get)
        run.window = (start, end)
        probe = asyncio.create_task(probe_loop(run))
        await asyncio.sleep(max(0.0, end - time.perf_counter()))
        run.stop_sending = True
        drain_until = time.perf_counter() + DRAIN_SECONDS
        while time.perf_counter() < drain_until and any(run.in_window(t) for t in run.pending.values()):
            await asyncio.sleep(0.05)
        run.stop_playing = True
        probe.cancel()
        unanswered = sum(1 for t in run.pending.values() if run.in_window(t))
        broken = [t for t in tasks if t.done() and not t.cancelled() and t.exception() is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    out.put(("done", {
        "latencies": run.latencies, "acked": run.acked,
        "plays": {t.id: (t.acks, t.arrivals) for t in run.tables if t.acks},
        "moves_acked": run.moves_acked, "nexts_acked": run.nexts_acked, "unanswered": unanswered,
        "errors": dict(run.errors), "error_samples": run.error_samples,
        "connect_failures": dict(run.connect_failures), "lost": run.lost, "backs": run.backs,
        "matches_finished": run.matches_finished, "tables_created": len(run.tables), "lags": run.loop_lags,
        "broken": [f"{type(t.exception()).__name__}: {t.exception()}" for t in broken],
        "never_back": [c.lost_at for c in run.clients if c.lost_at is not None],
    }))


def worker(tables: int, settings: Settings, seed: int, out: Any, inbox: Any) -> None:
    """A client process: ``tables`` tables until the window the parent sends has passed."""
    raise_file_limit()
    asyncio.run(worker_async(tables, settings, seed, out, inbox))


# -- the processes ----------------------------------------------------------------------------------------------


def postgres() -> str:
    run = subprocess.run(["bash", str(ROOT / "scripts" / "ensure-postgres.sh"), str(ROOT / ".venv" / "pg")],
                         capture_output=True, text=True, check=True)
    return run.stdout.strip()


def postgres_cpu() -> float:
    """CPU seconds of every process named ``postgres`` on the machine (the cluster's backends, its helpers)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            text = stat.read_text()
            if text[text.index("(") + 1:text.rindex(")")] == "postgres":
                fields = text.rpartition(")")[2].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


class Cluster:
    """The server processes and Caddy in front of them."""

    def __init__(self, db: str, servers: int, compiled: bool, folder: Path, lb: str = "round_robin") -> None:
        self.db, self.folder, self.lb = db, folder, lb
        self.health_interval, self.health_timeout = "2s", "2s"
        self.ports = [free_port() for _ in range(servers)]
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * servers
        self.proxy_port = free_port()
        self.proxy: subprocess.Popen[bytes] | None = None
        self.env = dict(os.environ)
        if compiled:
            lib = ROOT / "build" / "compiled" / "lib"
            if not (lib / "canasta").is_dir():
                raise BenchError(f"--compiled: there is no {lib} (make compiled)")
            self.env["PYTHONPATH"] = str(lib)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.proxy_port}"

    def upstream(self, index: int) -> str:
        return f"127.0.0.1:{self.ports[index]}"

    def start_server(self, index: int) -> None:
        command = [sys.executable, "-m", "canasta.cli", "serve", "--port", str(self.ports[index]), "--db", self.db,
                   "--bot-delay", "0", "--quiet", "--trusted", "127.0.0.1"]
        with (self.folder / f"server-{index}.log").open("ab") as log:
            self.procs[index] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                                 stdin=subprocess.DEVNULL, env=self.env, cwd=ROOT)

    def wait_ready(self, url: str, proc: subprocess.Popen[bytes] | None, what: str) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        with httpx.Client(trust_env=False, timeout=2) as http:
            while time.monotonic() < deadline:
                if proc is not None and proc.poll() is not None:
                    raise BenchError(f"{what} stopped at start (exit status {proc.returncode}): {self.log_tail(what)}")
                with contextlib.suppress(httpx.HTTPError, ValueError):
                    answer = http.get(url)
                    if answer.status_code == 200 and answer.json().get("listening") is not False:
                        return
                time.sleep(0.1)
        raise BenchError(f"{what} was not ready within {START_TIMEOUT:.0f} s")

    def log_tail(self, what: str) -> str:
        name = "caddy.log" if what == "Caddy" else f"server-{what.split()[-1]}.log"
        with contextlib.suppress(OSError, IndexError):
            return (self.folder / name).read_text(errors="replace").strip().splitlines()[-1][-300:]
        return "it printed nothing"

    def caddyfile(self) -> str:
        """deploy/Caddyfile's ideas on loopback: plain HTTP, the processes as upstreams, ``/readyz`` checked."""
        upstreams = " ".join(self.upstream(i) for i in range(len(self.ports)))
        return "\n".join([
            "{", "\tadmin off", "\tauto_https off", "}", "",
            f"http://127.0.0.1:{self.proxy_port} {{",
            f"\treverse_proxy {upstreams} {{",
            f"\t\tlb_policy {self.lb}",
            "\t\tlb_try_duration 5s",
            "\t\tlb_try_interval 100ms",
            "\t\tfail_duration 10s",
            "\t\thealth_uri /readyz",
            f"\t\thealth_interval {self.health_interval}",
            f"\t\thealth_timeout {self.health_timeout}",
            # uvicorn closes an idle connection after 5 s: Caddy must drop it first, or it may send a request on
            # a connection being closed and answer 502 (seen with POST /api/tables)
            "\t\ttransport http {", "\t\t\tkeepalive 4s", "\t\t}",
            "\t}", "}", ""])

    def start(self) -> None:
        caddy = shutil.which("caddy")
        if caddy is None:
            raise BenchError("Caddy is not installed (apt-get install caddy)")
        for index in range(len(self.ports)):
            self.start_server(index)
        for index, port in enumerate(self.ports):
            self.wait_ready(f"http://127.0.0.1:{port}/readyz", self.procs[index], f"server {index}")
        path = self.folder / "Caddyfile"
        path.write_text(self.caddyfile())
        env = dict(os.environ, XDG_DATA_HOME=str(self.folder / "data"), XDG_CONFIG_HOME=str(self.folder / "config"))
        with (self.folder / "caddy.log").open("ab") as log:
            self.proxy = subprocess.Popen([caddy, "run", "--config", str(path), "--adapter", "caddyfile"],
                                          stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
        self.wait_ready(f"{self.base}/readyz", self.proxy, "Caddy")
        time.sleep(1.5)  # a health check of every upstream

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs if p is not None and p.poll() is None]

    def kill(self, index: int) -> None:
        proc = self.procs[index]
        if proc is not None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()

    def stop(self) -> None:
        for proc in [*self.procs, self.proxy]:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in [*self.procs, self.proxy]:
            if proc is not None:
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


# -- a step ------------------------------------------------------------------------------------------------------


def cpu_now(cluster: Cluster, workers: list[Any]) -> dict[str, Any]:
    """CPU seconds so far: per server process, Caddy, PostgreSQL, the client processes, the whole machine."""
    proxy = cpu_seconds(cluster.proxy.pid) if cluster.proxy is not None else None
    clients = [cpu_seconds(w.pid) for w in workers]
    return {"servers": {pid: cpu_seconds(pid) or 0.0 for pid in cluster.pids()}, "proxy": proxy or 0.0,
            "postgres": postgres_cpu(), "clients": sum(c for c in clients if c is not None),
            "machine": machine_busy_seconds() or 0.0}


def cpu_used(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float]:
    """CPU seconds between two :func:`cpu_now` (the servers alive at both); ``other``: the rest of the machine."""
    used = {name: round(max(0.0, after[name] - before[name]), 2)
            for name in ("proxy", "postgres", "clients", "machine")}
    used["servers"] = round(sum(after["servers"][pid] - cpu for pid, cpu in before["servers"].items()
                                if pid in after["servers"]), 2)
    used["other"] = round(max(0.0, used["machine"] - used["servers"] - used["proxy"] - used["postgres"]
                              - used["clients"]), 2)
    return used


def presence(db: str) -> dict[tuple[str, int], str]:
    """(table, seat) -> the server process holding its connections, from the ``presence`` rows (seats held by
    more than one process are left out)."""
    import psycopg

    with psycopg.connect(db) as conn:
        rows = conn.execute("SELECT table_id, seat, process FROM presence WHERE connections > 0").fetchall()
    held: dict[tuple[str, int], list[str]] = {}
    for table_id, seat, process in rows:
        held.setdefault((table_id, seat), []).append(process)
    return {key: processes[0] for key, processes in held.items() if len(processes) == 1}


def profile_start(folder: Path | None, pid: int, tables: int, seconds: float) -> subprocess.Popen[bytes] | None:
    if folder is None:
        return None
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        raise BenchError("--profile needs py-spy (pip install py-spy)")
    folder.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([spy, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "100",
                             "--format", "raw", "--output", str(folder / f"server-{tables}.txt"), "--nonblocking"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def ack_buckets(cluster: Cluster) -> Counter[str]:
    """The servers' own ``canasta_ack_seconds{kind="move"}`` histogram, summed over the live processes: bucket
    bound (``le``) -> count, and ``count``."""
    found: Counter[str] = Counter()
    with httpx.Client(trust_env=False, timeout=5) as http:
        for index, proc in enumerate(cluster.procs):
            if proc is None or proc.poll() is not None:
                continue
            with contextlib.suppress(httpx.HTTPError):
                for text in http.get(f"http://{cluster.upstream(index)}/metrics").text.splitlines():
                    if text.startswith('canasta_ack_seconds_bucket{kind="move"'):
                        found[text.split('le="')[1].split('"')[0]] += int(float(text.rsplit(" ", 1)[1]))
                    elif text.startswith('canasta_ack_seconds_count{kind="move"'):
                        found["count"] += int(float(text.rsplit(" ", 1)[1]))
    return found


def server_share_within(before: Counter[str], after: Counter[str], bound: str = "0.1") -> float | None:
    """The share of the moves acknowledged between two :func:`ack_buckets` that the servers themselves
    measured within ``bound`` seconds (what an operator's alert on the p99 reads)."""
    count = after["count"] - before["count"]
    return round((after[bound] - before[bound]) / count, 4) if count > 0 else None


def proxy_troubles(folder: Path) -> dict[str, int]:
    """What Caddy's log says went wrong: failed health checks, requests it found no process for, 502s."""
    found: Counter[str] = Counter()
    with contextlib.suppress(OSError):
        for text in (folder / "caddy.log").read_text(errors="replace").splitlines():
            for name in ("HTTP request failed", "status code out of tolerances", "no upstreams available",
                         "host is down", '"status":502'):
                if name in text:
                    found[name.strip('"').replace('":', " ")] += 1
    return dict(found)


def top_functions(path: Path, count: int = 12) -> list[tuple[str, float]]:
    """The functions most often on the stack (inclusive) and at its top (self) in py-spy's collapsed stacks."""
    own: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        total += int(n)
        own[re.sub(r":\d+\)$", ")", stack.split(";")[-1])] += int(n)
    return [(name, round(100 * n / total, 1)) for name, n in own.most_common(count)] if total else []


def step(cluster: Cluster, args: argparse.Namespace, tables: int, kill: bool) -> dict[str, Any]:
    """Play ``tables`` tables for the warm-up and the window; with ``kill`` SIGKILL server 0 in the middle."""
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    settings = Settings(cluster.base, args.think, None if args.no_deflate else "deflate")
    shares = [tables // args.workers + (i < tables % args.workers) for i in range(args.workers)]
    inboxes = [context.Queue() for _ in shares]
    workers = [context.Process(target=worker, args=(n, settings, args.seed * 1000 + tables * 10 + i, out, inbox),
                               daemon=True) for i, (n, inbox) in enumerate(zip(shares, inboxes)) if n]
    t0 = time.perf_counter()
    for w in workers:
        w.start()
    try:
        for _ in workers:
            kind, what = out.get(timeout=300)
            if kind != "ready":
                raise BenchError(f"a client process failed to connect its tables: {what}")
        connect_s = time.perf_counter() - t0
        start = time.perf_counter() + args.warmup
        end = start + args.seconds
        for inbox in inboxes[:len(workers)]:
            inbox.put((start, end))
        time.sleep(max(0.0, start - time.perf_counter()))
        before = cpu_now(cluster, workers)
        buckets = ack_buckets(cluster)
        held = presence(cluster.db)
        spy = None if kill else profile_start(args.profile, cluster.pids()[0], tables, args.seconds)
        killed_at = None
        if kill:
            time.sleep(args.seconds / 2)
            killed_at = time.perf_counter()
            cluster.kill(0)
        time.sleep(max(0.0, end - time.perf_counter()))
        after = cpu_now(cluster, workers)
        within = None if kill else server_share_within(buckets, ack_buckets(cluster))
        results = []
        for _ in workers:
            kind, what = out.get(timeout=120)
            if kind != "done":
                raise BenchError(f"a client process failed: {what}")
            results.append(what)
        if spy is not None:
            spy.wait(30)
    finally:
        for w in workers:
            w.join(10)
            if w.is_alive():
                w.kill()
    merged: dict[str, Any] = {key: [] for key in ("latencies", "acked", "lags", "backs", "broken", "never_back")}
    counters: dict[str, Counter[str]] = {key: Counter() for key in ("errors", "connect_failures")}
    sums: Counter[str] = Counter()
    samples: dict[str, str] = {}
    cross: list[float] = []
    same: list[float] = []
    for result in results:
        for key in merged:
            merged[key] += result[key]
        for key, counter in counters.items():
            counter.update(result[key])
        for key in ("moves_acked", "nexts_acked", "unanswered", "lost", "matches_finished", "tables_created"):
            sums[key] += result[key]
        samples.update(result["error_samples"])
        for table_id, (acks, arrivals) in result["plays"].items():
            where = {seat: held[table_id, seat] for seat in arrivals if (table_id, seat) in held}
            c, s = deliveries(acks, arrivals, where, (start, end))
            cross += c
            same += s
    cpu = cpu_used(before, after)
    unexpected = {k: v for k, v in counters["errors"].items() if k != "stale_state" and not k.startswith("create")}
    figures: dict[str, Any] = {
        "tables": tables, "connections": tables * SEATS, "connect_s": round(connect_s, 1),
        "moves_per_s": round(sums["moves_acked"] / args.seconds, 1), "moves_acked": sums["moves_acked"],
        "nexts_acked": sums["nexts_acked"],
        "ack_ms": summary_ms(merged["latencies"]), "cross_ms": summary_ms(cross), "same_ms": summary_ms(same),
        "client_lag_ms": summary_ms(merged["lags"]),
        "errors": dict(counters["errors"]), "error_samples": {k: v for k, v in samples.items() if k in unexpected},
        "connect_failures": dict(counters["connect_failures"]), "lost": sums["lost"],
        "unanswered": sums["unanswered"], "matches_finished": sums["matches_finished"],
        "tables_created": sums["tables_created"], "cpu_s": cpu,
        "seats_by_process": sorted(Counter(held.values()).values()), "broken": merged["broken"][:3],
        "failed": bool(unexpected or merged["broken"] or (not kill and (sums["lost"] or sums["unanswered"]))),
        "proxy_log": proxy_troubles(cluster.folder),
        # canasta_ack_seconds{kind="move"} of the servers: the share they measured within 0.1 s (read to ack
        # queued; the client's figure adds the proxy and both event loops' queues)
        "server_ack_within_100ms": within,
        # CPU per acknowledged move (every message, broadcast and read it causes): what contention leaves alone
        "cpu_ms_per_move": {name: round(1000 * cpu[name] / max(1, sums["moves_acked"]), 2)
                            for name in ("servers", "proxy", "postgres", "clients")},
    }
    if spy is not None and args.profile is not None:
        path = args.profile / f"server-{tables}.txt"
        figures["profile"] = {"file": str(path), "self_pct": top_functions(path) if path.exists() else []}
    if kill:
        assert killed_at is not None
        figures["kill"] = kill_figures(cluster, merged, killed_at)
    return figures


def kill_figures(cluster: Cluster, merged: dict[str, Any], killed_at: float) -> dict[str, Any]:
    """Every acknowledged move in storage; how soon the cut-off clients were back."""
    import psycopg

    acked: list[tuple[str, int, int, str]] = merged["acked"]
    tables = sorted({a[0] for a in acked})
    events: dict[str, list[tuple[str, int | None, str]]] = {t: [] for t in tables}
    with psycopg.connect(cluster.db) as conn:
        rows = conn.execute("SELECT table_id, kind, seat, text FROM events WHERE table_id = ANY(%s) "
                            "ORDER BY table_id, seq", (tables,)).fetchall()
    for table_id, kind, seat, text in rows:
        events[table_id].append((kind, seat, text))
    missing = missing_moves(acked, events)
    back_s = sorted(back - killed_at for lost, back in merged["backs"] if lost >= killed_at)
    never = sum(1 for lost in merged["never_back"] if lost >= killed_at)
    return {
        "moves_checked": len(acked), "moves_missing": len(missing), "missing_sample": missing[:5],
        "clients_cut": len(back_s) + never, "never_back": never,
        "back_s": {name: round(percentile(back_s, q), 2) for name, q in (("p50", 50), ("p99", 99), ("max", 100))},
        "back_within_5s": sum(1 for b in back_s if b <= 5.0),
    }


# -- the run -----------------------------------------------------------------------------------------------------


def line(figures: dict[str, Any]) -> str:
    ack, cross, same = figures["ack_ms"], figures["cross_ms"], figures["same_ms"]
    cpu = figures["cpu_s"]
    errors = ", ".join(f"{k} {v}" for k, v in sorted(figures["errors"].items())) or "none"
    return (f"{figures['tables']:>6} {figures['moves_per_s']:>8} {ack['p50']:>7} {ack['p99']:>7} "
            f"{cross['p50']:>7} {cross['p99']:>7} {same['p50']:>7} {same['p99']:>7} "
            f"{figures['client_lag_ms']['p99']:>7}  srv {cpu['servers']:.1f} "
            f"({figures['cpu_ms_per_move']['servers']:.1f} ms/move) caddy {cpu['proxy']:.1f} "
            f"pg {cpu['postgres']:.1f} cli {cpu['clients']:.1f} oth {cpu['other']:.1f}  errors: {errors}; "
            f"lost {figures['lost']}, unanswered {figures['unanswered']}; servers' own ack <= 100 ms: "
            f"{figures['server_ack_within_100ms']}")


HEADER = (f"{'tables':>6} {'moves/s':>8} {'ack50':>7} {'ack99':>7} {'cross50':>7} {'cross99':>7} {'same50':>7} "
          f"{'same99':>7} {'lag99':>7}  (ms; cpu seconds in the window)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--servers", type=int, default=3,
                        help="canasta serve processes (default 3; 1: a baseline behind the same proxy)")
    parser.add_argument("--steps", default="25,50,100,200,400,800",
                        help="tables at each step of the curve, comma-separated ('' for none)")
    parser.add_argument("--limit-ms", type=float, default=100.0, help="the ack p99 the curve stops over")
    parser.add_argument("--all-steps", action="store_true", help="play every step, even over the limit")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window of a step")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played before each window")
    parser.add_argument("--think", type=float, default=0.5, help="a player's mean thinking time (0.5x..1.5x)")
    parser.add_argument("--workers", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--kill", nargs="?", type=int, const=0, default=None, metavar="TABLES",
                        help="a run that SIGKILLs a server mid-window (TABLES tables; default half the knee)")
    parser.add_argument("--db", help="a postgresql:// URL (default: the tests' cluster, a fresh schema)")
    parser.add_argument("--compiled", action="store_true", help="servers on build/compiled/lib (make compiled)")
    parser.add_argument("--profile", type=Path, help="py-spy the first server in each window, into this folder")
    parser.add_argument("--lb", choices=("round_robin", "uri_hash", "least_conn"), default="round_robin",
                        help="Caddy's lb_policy (round_robin spreads a table's seats; deploy/Caddyfile's uri_hash "
                             "keeps them on one process)")
    parser.add_argument("--logs", type=Path, help="keep the servers' and Caddy's logs and the Caddyfile here")
    parser.add_argument("--no-deflate", action="store_true", help="no permessage-deflate")
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--note", default="", help="a note kept with the JSON line (e.g. what else ran)")
    parser.add_argument("--json", action="store_true", help="print the JSON line only")
    parser.add_argument("--no-record", action="store_true", help=f"do not append to {RESULTS.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    steps = [int(s) for s in args.steps.split(",") if s.strip()]
    if args.servers < 1 or args.workers < 1 or any(s < 1 for s in steps) or (not steps and args.kill == 0):
        parser.error("--servers and --workers 1 or more, steps of 1 table or more; --kill needs TABLES "
                     "without steps")
    limit = raise_file_limit()
    most = max([*steps, args.kill or 0]) * SEATS * 3 + 200
    if limit < most:
        print(f"scale: {most} open files are needed and the limit is {limit}", file=sys.stderr)
        return 2
    import psycopg

    schema = base_url = None
    db = args.db
    if db is None:
        base_url = postgres()
        schema = f"scale_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(base_url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        db = f"{base_url}{'&' if '?' in base_url else '?'}options={quote(f'-csearch_path={schema}')}"
    record: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M", time.gmtime()), "cores": os.cpu_count(), "servers": args.servers,
        "proxy": f"caddy {args.lb}", "compiled": args.compiled, "think_s": args.think, "window_s": args.seconds,
        "workers": args.workers, "deflate": not args.no_deflate, "limit_ms": args.limit_ms, "note": args.note,
        "curve": [], "knee": None, "kill": None}
    say = (lambda text: None) if args.json else (lambda text: print(text, flush=True))
    try:
        with (contextlib.nullcontext(str(args.logs)) if args.logs else
              tempfile.TemporaryDirectory(prefix="canasta-scale-")) as folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            cluster = Cluster(db, args.servers, args.compiled, Path(folder), args.lb)
            try:
                cluster.start()
                say(f"{args.servers} servers behind Caddy at {cluster.base} on {os.cpu_count()} cores shared with "
                    f"PostgreSQL, Caddy and {args.workers} client processes; think {args.think} s")
                if steps:
                    say(HEADER)
                for tables in steps:
                    figures = step(cluster, args, tables, kill=False)
                    record["curve"].append(figures)
                    say(line(figures))
                    for name, text in figures["error_samples"].items():
                        say(f"    {name}: {text}")
                    if figures["proxy_log"]:
                        say("    Caddy's log so far: " + ", ".join(f"{k} {v}" for k, v in figures["proxy_log"].items()))
                    if figures.get("profile"):
                        say("    profile (self %): " + ", ".join(f"{n} {p}" for n, p in
                                                                  figures["profile"]["self_pct"][:8]))
                    if (figures["ack_ms"]["p99"] > args.limit_ms or figures["failed"]) and not args.all_steps:
                        break
                record["knee"] = knee(record["curve"], args.limit_ms)
                if steps:
                    say(f"knee: {record['knee']} tables with ack p99 <= {args.limit_ms:g} ms")
                if args.kill is not None:
                    tables = args.kill or max(1, (record["knee"] or steps[0]) // 2)
                    figures = step(cluster, args, tables, kill=True)
                    record["kill"] = figures
                    k = figures["kill"]
                    say(f"kill run, {tables} tables: one server SIGKILLed mid-window\n{line(figures)}")
                    say(f"  acknowledged moves checked {k['moves_checked']}, missing {k['moves_missing']}; "
                        f"clients cut {k['clients_cut']}, back within 5 s {k['back_within_5s']}, "
                        f"never {k['never_back']}, "
                        f"back in p50 {k['back_s']['p50']} s, p99 {k['back_s']['p99']} s, max {k['back_s']['max']} s")
            finally:
                cluster.stop()
    except BenchError as exc:
        print(f"scale: {exc}", file=sys.stderr)
        return 2
    finally:
        if schema is not None and base_url is not None:
            with psycopg.connect(base_url, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
    if args.json:
        print(json.dumps(record))
    if not args.no_record:
        with RESULTS.open("a") as results:
            results.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
