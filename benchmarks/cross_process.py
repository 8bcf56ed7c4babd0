"""Cross-process delivery: how soon a move made through one ``canasta serve`` reaches a connection held by another.

Run::

    python benchmarks/cross_process.py [--db postgresql://...] [--tables 4] [--moves 400] [--follow 0]
                                       [--seed S] [--json]

Two server processes (A and B, the benchmark's address trusted: no rate limit) on one PostgreSQL database
(without ``--db``, the test cluster of ``scripts/ensure-postgres.sh`` in ``.venv/pg``, in a fresh schema
dropped at the end).  Each table has two
human seats, both played through A by random legal moves, one after the other, each sent once the previous
one is acknowledged; a spectator of the table is connected to B.  Per move:

- ``ack``: from sending the move to A until A's ``ack`` (A's parse, check, commit and answer);
- ``delivery``: from A's ``ack`` until B's spectator holds the new state: the notification, B's read of the
  missed events, B's broadcast; the figure issue 34 asks about;
- ``end to end``: from sending the move to A until B's spectator has it.

``--follow 0`` (the default) leaves B only the notifications (LISTEN/NOTIFY); ``--follow 0.5 --no-listen``
measures the old polling instead, for comparison.  Clients and servers share the machine: on a small
machine the figures include the clients' own delays.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(db: str, port: int, follow: float, listen: bool) -> subprocess.Popen[bytes]:
    code = ("import sys, uvicorn; from canasta.web.app import create_app, WS_MAX_SIZE; "
            "from canasta.web.limits import Limits; "
            "uvicorn.run(create_app(sys.argv[1], bot_delay=0, follow=float(sys.argv[3]), listen=sys.argv[4] == '1', "
            "limits=Limits(trusted=('127.0.0.1',))), "
            "host='127.0.0.1', port=int(sys.argv[2]), log_level='warning', ws_max_size=WS_MAX_SIZE)")
    proc = subprocess.Popen([sys.executable, "-c", code, db, str(port), str(follow), "1" if listen else "0"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"a server stopped: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as answer:
                ready = json.load(answer)
            if ready["ready"] and (ready["listening"] or not listen):
                return proc
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit("a server did not start")


def postgres() -> str:
    run = subprocess.run(["bash", str(ROOT / "scripts" / "ensure-postgres.sh"), str(ROOT / ".venv" / "pg")],
                         capture_output=True, text=True, check=True)
    return run.stdout.strip()


async def table(port_a: int, port_b: int, moves: int, rng: random.Random, out: dict[str, list[float]]) -> None:
    from websockets.asyncio.client import connect

    request = urllib.request.Request(f"http://127.0.0.1:{port_a}/api/tables", method="POST",
                                     headers={"content-type": "application/json"},
                                     data=json.dumps({"preset": "two-player", "seats": [{"kind": "human"}] * 2,
                                                      "target": 10000}).encode())
    created = json.load(urllib.request.urlopen(request, timeout=10))
    table_id = created["table"]
    seen: dict[int, float] = {}
    newest = [0]
    arrived = asyncio.Event()

    async with (connect(f"ws://127.0.0.1:{port_a}/ws/{table_id}") as s0,
                connect(f"ws://127.0.0.1:{port_a}/ws/{table_id}") as s1,
                connect(f"ws://127.0.0.1:{port_b}/ws/{table_id}") as spectator):
        await spectator.send(json.dumps({"type": "hello", "token": created["spectator"]["token"]}))

        async def watch() -> None:
            async for text in spectator:
                message = json.loads(text)
                if message["type"] == "state":
                    seen.setdefault(message["state"], time.perf_counter())
                    newest[0] = max(newest[0], message["state"])
                    arrived.set()

        watcher = asyncio.create_task(watch())
        latest: dict[int, dict[str, Any]] = {}
        sockets = (s0, s1)
        for seat, ws in enumerate(sockets):
            await ws.send(json.dumps({"type": "hello", "token": created["seats"][seat]["token"]}))
        acks: asyncio.Queue[tuple[int, dict[str, Any]]] = asyncio.Queue()

        async def read(seat: int) -> None:
            async for text in sockets[seat]:
                message = json.loads(text)
                if message["type"] == "state":
                    latest[seat] = message
                elif message["type"] in ("ack", "error"):
                    acks.put_nowait((seat, message))

        readers = [asyncio.create_task(read(seat)) for seat in (0, 1)]
        while len(latest) < 2:
            await asyncio.sleep(0.01)
        for n in range(moves):
            state = max(latest.values(), key=lambda m: m["state"])
            if state["table"]["status"] != "playing":  # the hand is over: both say next (not measured)
                state_id = state["state"]
                for seat in (0, 1):
                    await sockets[seat].send(json.dumps({"type": "next", "state": state_id, "id": -n}))
                    _, answer = await acks.get()
                    state_id = answer.get("state", state_id)
                while min(m["state"] for m in latest.values()) < state_id or all(
                        m["table"]["status"] != "playing" for m in latest.values()):
                    await asyncio.sleep(0.001)
                continue
            mover = state["view"]["to_act"]
            while latest[mover]["state"] < state["state"]:
                await asyncio.sleep(0.001)
            message = {"type": "move", "move": rng.choice(latest[mover]["legal"]), "state": state["state"], "id": n}
            sent = time.perf_counter()
            await sockets[mover].send(json.dumps(message))
            _, answer = await acks.get()
            acked = time.perf_counter()
            if answer["type"] != "ack":
                raise SystemExit(f"a move was refused: {answer}")
            target = answer["state"]
            while target not in seen and newest[0] < target:
                arrived.clear()
                await asyncio.wait_for(arrived.wait(), 10)
            at_b = seen.get(target, time.perf_counter())
            out["ack"].append(acked - sent)
            out["delivery"].append(max(at_b - acked, 0.0))
            out["end to end"].append(at_b - sent)
            while min(m["state"] for m in latest.values()) < target:
                await asyncio.sleep(0.001)
        watcher.cancel()
        for reader in readers:
            reader.cancel()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main_async(args: argparse.Namespace, db: str) -> dict[str, Any]:
    ports = free_port(), free_port()
    procs = [start(db, port, args.follow, not args.no_listen) for port in ports]
    try:
        out: dict[str, list[float]] = {"ack": [], "delivery": [], "end to end": []}
        rng = random.Random(args.seed)
        started = time.perf_counter()
        await asyncio.gather(*(table(ports[0], ports[1], args.moves // args.tables, random.Random(rng.random()), out)
                               for _ in range(args.tables)))
        seconds = time.perf_counter() - started
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(20)
    figures: dict[str, Any] = {"moves": len(out["ack"]), "tables": args.tables, "seconds": round(seconds, 2),
                               "follow": args.follow, "listen": not args.no_listen}
    for name, values in out.items():
        figures[name] = {"p50_ms": round(statistics.median(values) * 1000, 2),
                         "p99_ms": round(percentile(values, 0.99) * 1000, 2),
                         "max_ms": round(max(values) * 1000, 2)}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a postgresql:// URL (default: the test cluster, a fresh schema)")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--moves", type=int, default=400, help="moves in all, shared by the tables")
    parser.add_argument("--follow", type=float, default=0.0, help="B's poll, seconds (default 0: never)")
    parser.add_argument("--no-listen", action="store_true", help="no LISTEN/NOTIFY (to compare with polling)")
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--json", action="store_true", help="one JSON line instead of the table")
    args = parser.parse_args()
    schema = None
    db = args.db
    if db is None:
        import psycopg

        base = postgres()
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        db = f"{base}?options={quote(f'-csearch_path={schema}')}"
    try:
        figures = asyncio.run(main_async(args, db))
    finally:
        if schema is not None:
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {schema} CASCADE")
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{figures['moves']} moves at {figures['tables']} tables in {figures['seconds']} s; B follows "
          f"{'by LISTEN/NOTIFY' if figures['listen'] else 'without notifications'}"
          f"{f', polls every {args.follow:g} s' if args.follow else ', never polls'}")
    for name in ("ack", "delivery", "end to end"):
        f = figures[name]
        print(f"  {name:<11} p50 {f['p50_ms']:7.2f} ms   p99 {f['p99_ms']:7.2f} ms   max {f['max_ms']:7.2f} ms")


if __name__ == "__main__":
    main()
