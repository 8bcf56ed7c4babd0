"""Storage on SQLite and on a real PostgreSQL: tables, event logs, races, group commit, SIGKILL durability."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from canasta.web.storage import (
    AsyncStorage,
    Event,
    StaleStateError,
    Storage,
    StorageError,
    open_storage,
)

SRC = Path(__file__).resolve().parents[2] / "src"
SPEC: dict[str, Any] = {"preset": "classic", "target": 5000, "seed": 12,
                        "seats": [{"kind": "human", "name": "Ann ✓"}, {"kind": "expert"}], "options": {}}


def move(seq: int, text: str = "draw", seat: int | None = 0) -> Event:
    return Event(seq, "move", seat, text, 1_700_000_000.25 + seq)


@pytest.fixture
def store(storage_url: str) -> Iterator[Storage]:
    s = open_storage(storage_url)
    yield s
    s.close()


def test_tables_specs_and_tokens(store: Storage) -> None:
    store.create_table("t1", SPEC, {"a" * 64: 0, "b" * 64: 2, "c" * 64: None})
    store.create_table("t2", {"preset": "modern"}, {"d" * 64: 1})
    assert store.table_spec("t1") == SPEC
    assert store.table_spec("t2") == {"preset": "modern"}
    assert store.table_spec("nope") is None
    assert store.token_seat("t1", "a" * 64) == (True, 0)
    assert store.token_seat("t1", "b" * 64) == (True, 2)
    assert store.token_seat("t1", "c" * 64) == (True, None)  # the spectator
    assert store.token_seat("t1", "d" * 64) == (False, None)  # another table's token opens nothing here
    assert store.token_seat("t2", "d" * 64) == (True, 1)
    assert store.token_seat("nope", "a" * 64) == (False, None)
    assert store.table_ids() == ["t1", "t2"]
    assert store.table_ids("playing") == ["t1", "t2"]
    store.set_status("t1", "over")
    assert store.table_ids("over") == ["t1"]
    assert store.table_ids("playing") == ["t2"]
    with pytest.raises(StorageError, match="no table"):
        store.set_status("nope", "over")


def test_duplicate_table_is_refused_and_changes_nothing(store: Storage) -> None:
    store.create_table("t", SPEC, {"a" * 64: 0})
    with pytest.raises(StorageError, match="already exists") as caught:
        store.create_table("t", {"other": True}, {"b" * 64: 1})
    assert not isinstance(caught.value, StaleStateError)
    assert store.table_spec("t") == SPEC
    assert store.token_seat("t", "b" * 64) == (False, None)
    assert store.table_ids() == ["t"]


def test_events_come_in_seq_order_per_table(store: Storage) -> None:
    store.create_table("t", SPEC, {})
    store.create_table("u", SPEC, {})
    deal = Event(0, "deal", None, "", 1_700_000_000.5)
    store.append("t", [deal])
    store.append("t", [move(3, "meld KS KD KC", 1)])
    store.append("u", [move(0, "u0"), move(1, "u1")])
    store.append("t", [move(1, "draw"), move(2, "discard 7H", 2)])
    assert store.events("t") == [deal, move(1, "draw"), move(2, "discard 7H", 2), move(3, "meld KS KD KC", 1)]
    assert store.events("u") == [move(0, "u0"), move(1, "u1")]
    assert store.events("nope") == []


def test_stale_append_writes_nothing(store: Storage) -> None:
    store.create_table("t", SPEC, {})
    store.append("t", [move(0), move(1)])
    with pytest.raises(StaleStateError) as caught:
        store.append("t", [move(2, "new"), move(1, "again")])
    assert "\n" not in str(caught.value)
    assert store.events("t") == [move(0), move(1)]  # seq 2 was rolled back with the stale seq 1
    with pytest.raises(StaleStateError):
        store.append("t", [move(2, "twice"), move(2, "twice")])
    assert store.events("t") == [move(0), move(1)]
    store.append("t", [move(2)])  # the connection is usable after the failures
    assert [e.seq for e in store.events("t")] == [0, 1, 2]


def test_append_batch_is_one_commit_with_per_event_results(store: Storage) -> None:
    store.create_table("a", SPEC, {})
    store.create_table("b", SPEC, {})
    store.append("a", [move(0, "first")])
    batch = [("a", move(0, "late")), ("a", move(1, "a1")), ("b", move(0, "b0")), ("a", move(1, "a1 again")),
             ("b", move(1, "b1"))]
    statements: list[str] = []
    sqlite = isinstance(getattr(store, "_conn", None), sqlite3.Connection)
    if sqlite:
        store._conn.set_trace_callback(statements.append)  # type: ignore[attr-defined]
    assert store.append_batch(batch) == [False, True, True, False, True]
    assert store.append_batch([]) == []
    if sqlite:
        store._conn.set_trace_callback(None)  # type: ignore[attr-defined]
        assert [s for s in statements if s.split()[0] in ("BEGIN", "COMMIT")] == ["BEGIN IMMEDIATE", "COMMIT"]
    else:  # PostgreSQL: the rows a transaction writes carry its id (xmin)
        with store._transaction() as execute:
            rows = execute("SELECT table_id, seq, xmin::text FROM events ORDER BY table_id, seq", ()).fetchall()
        xmin = {(t, s): x for t, s, x in rows}
        assert len({xmin["a", 1], xmin["b", 0], xmin["b", 1]}) == 1
        assert xmin["a", 0] != xmin["a", 1]
    assert store.events("a") == [move(0, "first"), move(1, "a1")]
    assert store.events("b") == [move(0, "b0"), move(1, "b1")]


def test_reopened_database_has_everything(storage_url: str) -> None:
    first = open_storage(storage_url)
    first.create_table("t", SPEC, {"a" * 64: 1, "s" * 64: None})
    first.append("t", [Event(0, "deal", None, "", 1.5), move(1)])
    first.append_batch([("t", move(2))])
    first.set_status("t", "over")
    second = open_storage(storage_url)  # another connection while the first is open, as a second process has
    assert second.events("t") == [Event(0, "deal", None, "", 1.5), move(1), move(2)]
    first.close()
    first.close()  # closing twice is harmless
    second.close()
    third = open_storage(storage_url)
    try:
        assert third.table_spec("t") == SPEC
        assert third.token_seat("t", "a" * 64) == (True, 1)
        assert third.token_seat("t", "s" * 64) == (True, None)
        assert third.table_ids("over") == ["t"]
        assert [e.seq for e in third.events("t")] == [0, 1, 2]
    finally:
        third.close()


def test_newer_schema_is_refused(storage_url: str) -> None:
    s = open_storage(storage_url)
    with s._transaction() as execute:
        execute("UPDATE schema_version SET version = 99", ())
    s.close()
    with pytest.raises(StorageError, match="schema version 99 is newer"):
        open_storage(storage_url)


@pytest.mark.parametrize("batch", [False, True], ids=["append", "append_batch"])
def test_two_storages_racing_for_a_seq_one_wins(storage_url: str, batch: bool) -> None:
    stores = [open_storage(storage_url), open_storage(storage_url)]
    stores[0].create_table("t", SPEC, {})
    rounds = 25
    barrier = threading.Barrier(2)
    won: list[list[int]] = [[], []]
    errors: list[BaseException] = []

    def racer(k: int) -> None:
        try:
            for seq in range(rounds):
                barrier.wait()
                event = move(seq, f"racer {k}", k)
                if batch:
                    if stores[k].append_batch([("t", event)]) == [True]:
                        won[k].append(seq)
                else:
                    try:
                        stores[k].append("t", [event])
                        won[k].append(seq)
                    except StaleStateError:
                        pass
        except BaseException as exc:
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=racer, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert not errors, errors
        assert sorted(won[0] + won[1]) == list(range(rounds))  # every seq won exactly once
        events = stores[0].events("t")
        assert [e.seq for e in events] == list(range(rounds))
        assert all(e.text == f"racer {0 if e.seq in won[0] else 1}" for e in events)
    finally:
        for s in stores:
            s.close()


def test_async_storage_group_commits_concurrent_appends(storage_url: str) -> None:
    store = open_storage(storage_url)
    batches: list[int] = []
    append_batch = store.append_batch
    gate = threading.Event()  # holds the worker in table_ids while the appends queue up
    release = threading.Event()  # holds the first group commit until the test has looked

    def held_append_batch(batch: Any) -> list[bool]:
        batches.append(len(batch))
        release.wait(30)
        return append_batch(batch)

    def gated_table_ids(status: str | None = None) -> list[str]:
        gate.wait(30)
        return Storage.table_ids(store, status)

    store.append_batch = held_append_batch  # type: ignore[method-assign]
    store.table_ids = gated_table_ids  # type: ignore[method-assign]
    tables = [f"t{i:02}" for i in range(50)]

    async def main() -> None:
        astore = AsyncStorage(store)
        for t in tables:
            await astore.create_table(t, SPEC, {f"{t}-token": 0})
        blocked = asyncio.create_task(astore.table_ids())
        await asyncio.sleep(0)
        appends = [asyncio.create_task(astore.append(t, move(seq, f"{t}/{seq}"))) for seq in range(4) for t in tables]
        rival = asyncio.create_task(astore.append("t07", move(2, "rival")))  # queued after the real seq 2
        asyncio.get_running_loop().call_soon(gate.set)
        done, _ = await asyncio.wait([*appends, rival], timeout=0.1)
        assert not done, "an append was acknowledged before its commit"
        release.set()
        assert await asyncio.gather(*appends) == [True] * 200
        assert await rival is False
        check = open_storage(storage_url)  # once acknowledged, another connection sees them all
        try:
            for t in tables:
                assert check.events(t) == [move(seq, f"{t}/{seq}") for seq in range(4)]
        finally:
            check.close()
        assert await astore.append("t07", move(3, "late")) is False  # seq 3 was committed before
        assert len(await blocked) == 50
        assert await astore.token_seat("t07", "t07-token") == (True, 0)
        await astore.close()
        await astore.close()
        with pytest.raises(StorageError, match="closed"):
            await astore.append("t07", move(9))

    asyncio.run(main())
    assert batches == [201, 1]  # the 200 appends and the rival in one transaction, then the late one


def test_async_storage_passes_errors_on(storage_url: str) -> None:
    async def main() -> None:
        astore = AsyncStorage(open_storage(storage_url))
        await astore.create_table("t", SPEC, {"a": None})
        with pytest.raises(StorageError, match="already exists"):
            await astore.create_table("t", SPEC, {})
        with pytest.raises(StorageError, match="no table"):
            await astore.set_status("nope", "over")
        assert await astore.table_spec("t") == SPEC  # the worker goes on after an error
        assert await astore.append("t", Event(0, "deal", None, "", 2.0))
        assert await astore.events("t") == [Event(0, "deal", None, "", 2.0)]
        await astore.set_status("t", "over")
        assert await astore.table_ids("over") == ["t"]
        await astore.close()

    asyncio.run(main())


CHILD = r"""
import asyncio, sys, time
from canasta.web.storage import AsyncStorage, Event, open_storage

url, mode = sys.argv[1], sys.argv[2]
store = open_storage(url)
if mode == "sync":
    for seq in range(1_000_000):
        store.append("k0", [Event(seq, "move", 0, f"m{seq}", time.time())])
        sys.stdout.write(f"k0 {seq}\n")  # one write per line, flushed once the append has returned
        sys.stdout.flush()
else:
    async def table(astore, t):
        for seq in range(1_000_000):
            if not await astore.append(t, Event(seq, "move", 0, f"m{seq}", time.time())):
                raise SystemExit(f"{t} {seq} refused")
            sys.stdout.write(f"{t} {seq}\n")
            sys.stdout.flush()

    async def main():
        astore = AsyncStorage(store)
        await asyncio.gather(*(table(astore, f"k{i}") for i in range(8)))

    asyncio.run(main())
"""


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_sigkill_loses_no_acknowledged_event(storage_url: str, mode: str) -> None:
    tables = ["k0"] if mode == "sync" else [f"k{i}" for i in range(8)]
    setup = open_storage(storage_url)
    for t in tables:
        setup.create_table(t, SPEC, {})
    setup.close()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    child = subprocess.Popen([sys.executable, "-c", CHILD, storage_url, mode], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    guard = threading.Timer(120, child.kill)  # only against a hung child; the test kills it long before
    guard.start()
    printed: list[str] = []
    try:
        assert child.stdout is not None
        while len(printed) < 60:
            line = child.stdout.readline()
            if not line:
                break
            printed.append(line)
        child.send_signal(signal.SIGKILL)  # mid-way: it is appending and printing all the time
        rest, err = child.communicate()
    finally:
        guard.cancel()
    assert len(printed) == 60, f"the child stopped early: {err}"
    assert child.returncode == -signal.SIGKILL
    printed += rest.splitlines(keepends=True)  # acknowledged before the kill, still in the pipe
    acknowledged: dict[str, set[int]] = {t: set() for t in tables}
    for line in printed:
        if line.endswith("\n"):  # the kill may cut a line short
            t, seq = line.split()
            acknowledged[t].add(int(seq))
    check = open_storage(storage_url)
    try:
        for t in tables:
            stored = [e.seq for e in check.events(t)]
            assert stored == list(range(len(stored)))  # no hole
            assert acknowledged[t] <= set(stored), f"{t}: acknowledged but lost: {acknowledged[t] - set(stored)}"
    finally:
        check.close()


@pytest.mark.parametrize("url", ["mysql://u@h/db", "sqlite://", "", "/nonexistent-dir/x/canasta.sqlite3"])
def test_bad_urls_are_one_line_errors(url: str) -> None:
    with pytest.raises(StorageError) as caught:
        open_storage(url)
    assert str(caught.value) and "\n" not in str(caught.value)


def test_unusable_sqlite_files_are_one_line_errors(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database, it only has a name like one" * 100)
    for path in (str(tmp_path), str(garbage), f"sqlite://{tmp_path}/missing/x.sqlite3"):
        with pytest.raises(StorageError, match="cannot open the SQLite database") as caught:
            open_storage(path)
        assert "\n" not in str(caught.value)


def test_sqlite_urls_and_memory(tmp_path: Path) -> None:
    path = tmp_path / "u.sqlite3"
    s = open_storage(f"sqlite://{path}")
    s.create_table("t", SPEC, {})
    s.close()
    assert path.exists()
    s = open_storage(str(path))
    assert s.table_ids() == ["t"]
    s.close()
    m = open_storage(":memory:")
    m.create_table("t", SPEC, {})
    assert m.table_ids() == ["t"]
    m.close()


def test_postgres_without_psycopg_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg raises ImportError
    with pytest.raises(StorageError) as caught:
        open_storage("postgresql://postgres@127.0.0.1/canasta")
    assert str(caught.value) == "PostgreSQL storage needs psycopg: pip install 'canasta[web]'"


def test_postgres_unreachable_is_one_line_without_password() -> None:
    pytest.importorskip("psycopg", reason="PostgreSQL tests need psycopg: pip install 'canasta[web]'")
    for url in ("postgresql://ann:s3cret@127.0.0.1:1/canasta", "postgres://127.0.0.1:1/canasta?password=s3cret",
                "postgres://127.0.0.1:1/canasta?sslmode=bogus"):
        with pytest.raises(StorageError, match="cannot open the PostgreSQL database") as caught:
            open_storage(url)
        assert "\n" not in str(caught.value) and "s3cret" not in str(caught.value)


def test_postgres_reconnects_after_losing_its_connection(postgres_schema_url: str) -> None:
    import psycopg

    s = open_storage(postgres_schema_url)
    try:
        s.create_table("t", SPEC, {})
        pid = s._conn.info.backend_pid  # type: ignore[attr-defined]
        with psycopg.connect(postgres_schema_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(StorageError) as caught:  # the call that finds the connection gone fails ...
            s.events("t")
        assert "\n" not in str(caught.value)
        s.append("t", [move(0)])  # ... the next one connects again
        assert s.events("t") == [move(0)]
    finally:
        s.close()
