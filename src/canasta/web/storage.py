"""Tables and their event logs in SQLite or PostgreSQL, durable once a call returns; and who is connected.

A table is its spec (JSON), the SHA-256 of its secret tokens and a log of events numbered
0, 1, 2, ...; a server replays the log to rebuild the table.  The primary key
``(table_id, seq)`` lets several processes share one database: whoever writes a seq first
wins, the other learns its state is stale.  :class:`AsyncStorage` runs a :class:`Storage`
on one worker thread and writes every append waiting in one transaction (group commit).
The ``presence`` rows say, per server process, how many connections it holds for each seat and
when it last saw one, so a process decides whether a person is away from what every process sees.

>>> store = open_storage(":memory:")
>>> store.create_table("t1", {"preset": "classic"}, {"ab12": 0, "cd34": None})
>>> store.append("t1", [Event(0, "deal", None, "", 0.0)])
>>> store.append_batch([("t1", Event(1, "move", 0, "draw", 1.0)), ("t1", Event(1, "move", 1, "draw", 1.0))])
[True, False]
>>> [(e.seq, e.kind, e.text) for e in store.events("t1")]
[(0, 'deal', ''), (1, 'move', 'draw')]
>>> store.token_seat("t1", "cd34"), store.token_seat("t1", "ef56")
((True, None), (False, None))
>>> store.close()
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import queue
import re
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from .migrations import BASE_VERSION, SCHEMA_VERSION, STEPS

if TYPE_CHECKING:
    import psycopg

# {real} is the floating point type of the backend; ? the parameter marker (turned into %s for psycopg).
_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, created {real} NOT NULL, status TEXT NOT NULL, spec TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
    table_id TEXT NOT NULL, token_hash TEXT NOT NULL, seat INTEGER NULL, PRIMARY KEY (table_id, token_hash));
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER NULL, text TEXT NOT NULL,
    at {real} NOT NULL, PRIMARY KEY (table_id, seq));
CREATE TABLE IF NOT EXISTS presence (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, process TEXT NOT NULL, connections INTEGER NOT NULL,
    seen {real} NOT NULL, PRIMARY KEY (table_id, seat, process))
"""
# Version 1, as every canasta before the migrations wrote it; later tables are steps of .migrations (reviews: 3).
# A new table only: a database of schema version 1 gets it when opened, and an older canasta ignores it.
_UPSERT_PRESENCE = (
    "INSERT INTO presence (table_id, seat, process, connections, seen) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (table_id, seat, process) DO UPDATE SET connections = excluded.connections, "
    # a seat still (or just) connected is seen now; one long gone keeps the time it was last seen
    "seen = CASE WHEN excluded.connections > 0 OR presence.connections > 0 THEN excluded.seen ELSE presence.seen END")
_INSERT_EVENT = "INSERT INTO events (table_id, seq, kind, seat, text, at) VALUES (?, ?, ?, ?, ?, ?)"
_INSERT_NEW_EVENT = _INSERT_EVENT + " ON CONFLICT (table_id, seq) DO NOTHING"
_MAX_BATCH = 1000  # appends one group commit takes at most


@dataclass(frozen=True, slots=True)
class Event:
    """One step of a table's log: a deal or a move; the state id after it is ``seq + 1``."""

    seq: int
    kind: str  # "deal" or "move"
    seat: int | None  # who moved; None for a deal
    text: str  # the move text; "" for a deal
    at: float  # time.time() when accepted


class StorageError(Exception):
    """The database cannot be opened or used (a one-line message)."""


class StaleStateError(StorageError):
    """The seq is already taken: another writer moved the table first."""


class _Cursor(Protocol):
    """What both drivers' cursors offer."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Storage(ABC):
    """Tables, tokens and event logs.  Synchronous; use one instance from one thread at a time."""

    url: str

    @abstractmethod
    def close(self) -> None:
        """Close the connection (again is harmless)."""

    @abstractmethod
    @contextmanager
    def _transaction(self, write: bool = True) -> Iterator[Callable[[str, Sequence[Any]], _Cursor]]:
        """One transaction, committed on a normal exit; yields ``execute(sql, params)`` with ``?`` markers."""

    @abstractmethod
    def _is_duplicate(self, error: StorageError) -> bool:
        """Whether the error came from a primary key that is already taken."""

    @abstractmethod
    def is_down(self, error: StorageError) -> bool:
        """Whether the error is the database's (unreachable, full, restarting), not one row's own (text it
        cannot store): a group commit that fails so is not tried again row by row."""

    def _create_schema(self, real: str, lock: str | None = None) -> None:
        """Create the base tables that are missing, then apply each step of :mod:`.migrations` the database
        lacks, one transaction per step with its version recorded; refuse a database of a newer schema."""
        with self._transaction() as execute:
            if lock:
                execute(lock, ())
            for statement in _SCHEMA.format(real=real).split(";"):
                execute(statement, ())
            version = execute("SELECT max(version) FROM schema_version", ()).fetchone()[0]
            if version is None:
                execute("INSERT INTO schema_version (version) VALUES (?)", (BASE_VERSION,))
            elif version > SCHEMA_VERSION:
                raise StorageError(f"its schema version {version} is newer than this canasta's "
                                   f"({SCHEMA_VERSION}): upgrade canasta")
        for step in STEPS:
            with self._transaction() as execute:
                if lock:
                    execute(lock, ())
                if execute("SELECT max(version) FROM schema_version", ()).fetchone()[0] >= step.version:
                    continue  # another process applied it meanwhile
                for statement in step.statements(real):
                    execute(statement, ())
                execute("INSERT INTO schema_version (version) VALUES (?)", (step.version,))

    def transaction(self, write: bool = True) -> AbstractContextManager[Callable[[str, Sequence[Any]], _Cursor]]:
        """One transaction for another module's own tables (:mod:`.room`): yields ``execute(sql, params)`` with
        ``?`` markers, committed on a normal exit and rolled back on an exception (a :class:`StorageError`)."""
        return self._transaction(write)

    def _read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """The rows of one statement that only reads, in a transaction of its own (the hot reads: a move made
        elsewhere, a hello, ``/readyz``)."""
        with self._transaction(write=False) as execute:
            rows: list[Any] = execute(sql, params).fetchall()
        return rows

    def schema_version(self) -> int:
        """The database's schema version (:data:`~.migrations.SCHEMA_VERSION` once opened by this canasta)."""
        return int(self._read("SELECT max(version) FROM schema_version", ())[0][0])

    def create_table(self, table_id: str, spec: dict[str, Any], tokens: Mapping[str, int | None]) -> None:
        """Store a new table with its spec and token hashes (token SHA-256 hex -> seat, None for a spectator)."""
        text = json.dumps(spec, separators=(",", ":"))
        try:
            with self._transaction() as execute:
                execute("INSERT INTO tables (id, created, status, spec) VALUES (?, ?, ?, ?)",
                        (table_id, time.time(), "playing", text))
                for token_hash, seat in tokens.items():
                    execute("INSERT INTO tokens (table_id, token_hash, seat) VALUES (?, ?, ?)",
                            (table_id, token_hash, seat))
        except StorageError as exc:
            if self._is_duplicate(exc):
                raise StorageError(f"table {table_id!r} already exists") from None
            raise

    def table_spec(self, table_id: str) -> dict[str, Any] | None:
        """The table's spec, or None when there is no such table."""
        with self._transaction(write=False) as execute:
            row = execute("SELECT spec FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        spec: dict[str, Any] = json.loads(row[0])
        return spec

    def events(self, table_id: str, start: int = 0) -> list[Event]:
        """The table's events from seq ``start`` on, in seq order."""
        rows = self._read("SELECT seq, kind, seat, text, at FROM events WHERE table_id = ? AND seq >= ? "
                          "ORDER BY seq", (table_id, start))
        return [Event(*row) for row in rows]

    def event_counts(self, table_ids: Sequence[str]) -> dict[str, int]:
        """For each table with events: how many (its next seq)."""
        if not table_ids:
            return {}
        marks = ", ".join("?" * len(table_ids))
        rows = self._read(f"SELECT table_id, max(seq) + 1 FROM events WHERE table_id IN ({marks}) GROUP BY table_id",
                          tuple(table_ids))
        return {table_id: count for table_id, count in rows}

    def token_seat(self, table_id: str, token_hash: str) -> tuple[bool, int | None]:
        """``(found, seat)`` for a token hash at the table; the seat is None for the spectator."""
        rows = self._read("SELECT seat FROM tokens WHERE table_id = ? AND token_hash = ?", (table_id, token_hash))
        return (False, None) if not rows else (True, rows[0][0])

    def append(self, table_id: str, events: Sequence[Event]) -> None:
        """Write the events in one transaction; StaleStateError, and nothing written, if a seq is taken."""
        try:
            with self._transaction() as execute:
                for event in events:
                    execute(_INSERT_EVENT, (table_id, *_row(event)))
        except StorageError as exc:
            if self._is_duplicate(exc):
                raise StaleStateError(f"table {table_id!r} has moved on: a seq of {[e.seq for e in events]} "
                                      "is taken") from None
            raise

    def append_batch(self, batch: Sequence[tuple[str, Event]]) -> list[bool]:
        """Write many tables' events in one commit; per event, True if written, False if its seq was taken."""
        if not batch:
            return []
        with self._transaction() as execute:
            return [execute(_INSERT_NEW_EVENT, (table_id, *_row(event))).rowcount == 1 for table_id, event in batch]

    def set_status(self, table_id: str, status: str) -> None:
        """Mark the table ``playing`` or ``over``."""
        with self._transaction() as execute:
            if execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id)).rowcount != 1:
                raise StorageError(f"no table {table_id!r}")

    def table_ids(self, status: str | None = None) -> list[str]:
        """The ids of all tables, or of those with the status, oldest first."""
        with self._transaction(write=False) as execute:
            if status is None:
                rows = execute("SELECT id FROM tables ORDER BY created, id", ()).fetchall()
            else:
                rows = execute("SELECT id FROM tables WHERE status = ? ORDER BY created, id", (status,)).fetchall()
        return [row[0] for row in rows]

    def delete_table(self, table_id: str) -> bool:
        """Remove a table, its tokens and its events; False when there was no such table."""
        with self._transaction() as execute:
            execute("DELETE FROM events WHERE table_id = ?", (table_id,))
            execute("DELETE FROM tokens WHERE table_id = ?", (table_id,))
            execute("DELETE FROM presence WHERE table_id = ?", (table_id,))
            execute("DELETE FROM reviews WHERE table_id = ?", (table_id,))
            execute("DELETE FROM browser_tables WHERE table_id = ?", (table_id,))
            execute("DELETE FROM room_seats WHERE table_id = ?", (table_id,))
            execute("DELETE FROM room_tables WHERE table_id = ?", (table_id,))
            return execute("DELETE FROM tables WHERE id = ?", (table_id,)).rowcount == 1

    def expire(self, idle_before: float, over_before: float, limit: int = 500) -> list[str]:
        """Delete tables last moved (or made) before ``idle_before``, or over and last moved before
        ``over_before``, at most ``limit`` a call, in one transaction; their ids."""
        with self._transaction() as execute:
            rows = execute(
                # chat is no move: a table that only talks expires all the same
                "SELECT t.id FROM tables t LEFT JOIN events e ON e.table_id = t.id AND e.kind <> 'chat' "
                "GROUP BY t.id, t.created, t.status "
                "HAVING COALESCE(max(e.at), t.created) < ? "
                "OR (t.status = 'over' AND COALESCE(max(e.at), t.created) < ?) "
                "ORDER BY t.id LIMIT ?", (idle_before, over_before, limit)).fetchall()
            gone = [row[0] for row in rows]
            gone = _keep_tournaments_whole(execute, gone)
            for table_id in gone:
                execute("DELETE FROM events WHERE table_id = ?", (table_id,))
                execute("DELETE FROM tokens WHERE table_id = ?", (table_id,))
                execute("DELETE FROM presence WHERE table_id = ?", (table_id,))
                execute("DELETE FROM reviews WHERE table_id = ?", (table_id,))
                execute("DELETE FROM browser_tables WHERE table_id = ?", (table_id,))
                execute("DELETE FROM room_seats WHERE table_id = ?", (table_id,))
                execute("DELETE FROM room_tables WHERE table_id = ?", (table_id,))
                execute("DELETE FROM tables WHERE id = ?", (table_id,))
        return gone

    def forget_chat(self, table_id: str, before: int) -> int:
        """Blank the text of the table's chat lines before event ``before`` (the log keeps its numbering, a
        replay skips a blank line); how many were blanked."""
        with self._transaction() as execute:
            return int(execute("UPDATE events SET text = '' WHERE table_id = ? AND kind = 'chat' AND seq < ? "
                               "AND text <> ''", (table_id, before)).rowcount)

    def set_presence(self, process: str, rows: Sequence[tuple[str, int, int]], now: float) -> None:
        """Say how many connections ``process`` holds for each ``(table_id, seat, connections)``, at ``now``
        (``time.time()``): a row with connections is seen now (a heartbeat), a row dropping to none keeps
        ``now`` as the moment its seat was last seen there."""
        if not rows:
            return
        with self._transaction() as execute:
            for table_id, seat, connections in rows:
                execute(_UPSERT_PRESENCE, (table_id, seat, process, connections, now))

    def presence(self, table_ids: Sequence[str]) -> list[tuple[str, int, str, int, float]]:
        """Every process's presence rows of these tables: ``(table_id, seat, process, connections, seen)``."""
        if not table_ids:
            return []
        marks = ", ".join("?" * len(table_ids))
        rows = self._read(f"SELECT table_id, seat, process, connections, seen FROM presence "
                          f"WHERE table_id IN ({marks})", tuple(table_ids))
        return [(row[0], row[1], row[2], row[3], row[4]) for row in rows]

    def review(self, table_id: str, match_no: int, hand: int, seat: int) -> str | None:
        """The stored review (JSON text) of a seat's decisions in a hand (from 0) of the table's match ``match_no``."""
        with self._transaction(write=False) as execute:
            row = execute("SELECT data FROM reviews WHERE table_id = ? AND match_no = ? AND hand = ? AND seat = ?",
                          (table_id, match_no, hand, seat)).fetchone()
        return None if row is None else str(row[0])

    def save_review(self, table_id: str, match_no: int, hand: int, seat: int, data: str) -> None:
        """Keep a review with its table (the first one stays when two were computed)."""
        with self._transaction() as execute:
            execute("INSERT INTO reviews (table_id, match_no, hand, seat, data, at) VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (table_id, match_no, hand, seat) DO NOTHING",
                    (table_id, match_no, hand, seat, data, time.time()))

    def notify(self, payload: str) -> None:
        """Tell the other server processes on this database something (:mod:`.notify`); nothing for SQLite,
        whose processes poll (``--follow``)."""
        return None

    def renew_token(self, table_id: str, seat: int, token_hash: str) -> bool:
        """Give a seat a new token hash, forgetting its old ones; False when the table has no such seat."""
        with self._transaction() as execute:
            if execute("DELETE FROM tokens WHERE table_id = ? AND seat = ?", (table_id, seat)).rowcount < 1:
                return False
            execute("INSERT INTO tokens (table_id, token_hash, seat) VALUES (?, ?, ?)", (table_id, token_hash, seat))
        return True


def _row(event: Event) -> tuple[int, str, int | None, str, float]:
    return event.seq, event.kind, event.seat, event.text, event.at


def _one_line(exc: BaseException) -> str:
    """The error's message on one line, any character a log could not write as an escape."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _wrapped(exc: BaseException) -> StorageError:
    """A failure that is not yet a :class:`StorageError`, as one (its cause kept)."""
    error = StorageError(_one_line(exc))
    error.__cause__ = exc
    return error


def _reason(exc: BaseException) -> str:
    """The driver's own words for a failure, else the message."""
    cause = exc.__cause__ if isinstance(exc, StorageError) and exc.__cause__ is not None else exc
    return _one_line(cause)


def _redact(url: str) -> str:
    """The URL without its password."""
    return re.sub(r"(password=)[^&]*", r"\1***", re.sub(r"(://[^/@:]*:)[^/@]*@", r"\1***@", url))


class SQLiteStorage(Storage):
    """A SQLite file in WAL mode: commits survive SIGKILL and power loss; processes share the file."""

    def __init__(self, path: str, url: str | None = None) -> None:
        self.url = url or path
        self.path = path
        try:
            # isolation_level=None: no implicit transactions, _transaction says BEGIN and COMMIT itself.
            self._conn = sqlite3.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open the SQLite database {path}: {_one_line(exc)}") from None
        try:
            self._conn.execute("PRAGMA busy_timeout = 30000")
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = FULL")
            self._create_schema("REAL")
        except (sqlite3.Error, StorageError) as exc:
            self._conn.close()
            raise StorageError(f"cannot open the SQLite database {path}: {_reason(exc)}") from None

    def close(self) -> None:
        """Close the connection (again is harmless)."""
        self._conn.close()

    @contextmanager
    def _transaction(self, write: bool = True) -> Iterator[Callable[[str, Sequence[Any]], _Cursor]]:
        conn = self._conn
        try:
            # A writer takes the lock at once (no deadlock upgrading a read lock); readers read a snapshot.
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield conn.execute
            conn.execute("COMMIT")
        except (sqlite3.Error, ValueError) as exc:  # ValueError: text it cannot store (a lone surrogate)
            self._rollback()
            raise StorageError(f"SQLite database {self.path}: {_one_line(exc)}") from exc
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        try:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass

    def is_down(self, error: StorageError) -> bool:
        """See :meth:`Storage.is_down`."""
        return not isinstance(error.__cause__, (ValueError, sqlite3.DataError, sqlite3.IntegrityError,
                                                sqlite3.InterfaceError, sqlite3.ProgrammingError))

    def _is_duplicate(self, error: StorageError) -> bool:
        cause = error.__cause__
        return (isinstance(cause, sqlite3.IntegrityError)
                and getattr(cause, "sqlite_errorcode", None) == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)


class PostgresStorage(Storage):
    """A PostgreSQL database through psycopg 3: one connection, explicit transactions."""

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError:
            raise StorageError("PostgreSQL storage needs psycopg: pip install 'canasta[web]'") from None
        self.url = url
        self._psycopg = psycopg
        self._conn = self._connect()
        try:
            # Two processes creating the schema at once would collide in the catalogue: they take turns.
            self._create_schema("DOUBLE PRECISION", lock="SELECT pg_advisory_xact_lock(7420421)")
            with self._transaction(write=False) as execute:
                schema = execute("SELECT current_schema()", ()).fetchone()[0]
        except StorageError as exc:
            self._conn.close()
            raise StorageError(f"cannot open the PostgreSQL database {_redact(url)}: {_reason(exc)}") from None
        self.channel = f"canasta.{schema}"
        """The LISTEN/NOTIFY channel of this database's schema: each commit of events is announced on it
        (:mod:`.notify`); a channel is per database, so the schema in its name keeps two schemas apart."""

    def _connect(self) -> psycopg.Connection[Any]:
        options: dict[str, Any] = {} if "connect_timeout" in self.url else {"connect_timeout": 10}
        try:
            return self._psycopg.connect(self.url, autocommit=False, **options)
        except (self._psycopg.Error, ValueError) as exc:
            raise StorageError(f"cannot open the PostgreSQL database {_redact(self.url)}: {_one_line(exc)}") from None

    def close(self) -> None:
        """Close the connection (again is harmless)."""
        self._conn.close()

    @contextmanager
    def _transaction(self, write: bool = True) -> Iterator[Callable[[str, Sequence[Any]], _Cursor]]:
        if self._conn.broken:  # the server went away: try a new connection once per call
            self._conn = self._connect()
        conn = self._conn

        def execute(sql: str, params: Sequence[Any]) -> _Cursor:
            cursor: _Cursor = conn.execute(sql.replace("?", "%s"), params)
            return cursor

        try:
            yield execute  # psycopg begins the transaction at the first statement
            conn.commit()
        except (self._psycopg.Error, ValueError) as exc:  # ValueError: text it cannot store (NUL)
            self._rollback()
            raise StorageError(f"PostgreSQL database {_redact(self.url)}: {_one_line(exc)}") from exc
        except BaseException:
            self._rollback()
            raise

    def _read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """See :meth:`Storage._read`: in autocommit, one round trip where a transaction takes three (``BEGIN``,
        the statement, ``COMMIT``); a single statement is its own snapshot.  These reads were most of the
        storage thread's time with several processes (every move read again by each other process)."""
        if self._conn.broken:
            self._conn = self._connect()
        conn = self._conn
        try:
            conn.autocommit = True
            try:
                rows: list[Any] = conn.execute(sql.replace("?", "%s"), params).fetchall()
            finally:
                conn.autocommit = False
        except (self._psycopg.Error, ValueError) as exc:
            self._rollback()
            raise StorageError(f"PostgreSQL database {_redact(self.url)}: {_one_line(exc)}") from exc
        return rows

    def append_batch(self, batch: Sequence[tuple[str, Event]]) -> list[bool]:
        """See :meth:`Storage.append_batch`; the inserts go in one pipeline, not one round trip each."""
        if not batch:
            return []
        with self._transaction():
            cursor = self._conn.cursor()
            cursor.executemany(_INSERT_NEW_EVENT.replace("?", "%s"),
                               [(table_id, *_row(event)) for table_id, event in batch], returning=True)
            written = [cursor.rowcount == 1]
            while cursor.nextset():  # one result per insert
                written.append(cursor.rowcount == 1)
            counts: dict[str, int] = {}  # each table's new event count, announced when (and only if) this commits
            for (table_id, event), ok in zip(batch, written, strict=True):
                if ok:
                    counts[table_id] = max(counts.get(table_id, 0), event.seq + 1)
            if counts:
                self._conn.execute("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p",
                                   (self.channel, [f"move {t} {n}" for t, n in counts.items()]))
        return written

    def notify(self, payload: str) -> None:
        """See :meth:`Storage.notify`: a NOTIFY on :attr:`channel`, sent when its transaction commits."""
        with self._transaction() as execute:
            execute("SELECT pg_notify(?, ?)", (self.channel, payload))

    def _rollback(self) -> None:
        try:
            self._conn.rollback()
        except self._psycopg.Error:
            pass

    def is_down(self, error: StorageError) -> bool:
        """See :meth:`Storage.is_down`."""
        errors = self._psycopg
        return not isinstance(error.__cause__, (ValueError, errors.DataError, errors.IntegrityError,
                                                errors.ProgrammingError))

    def _is_duplicate(self, error: StorageError) -> bool:
        return isinstance(error.__cause__, self._psycopg.errors.UniqueViolation)


def open_storage(url: str) -> Storage:
    """Open a database: a SQLite path, ``sqlite:///abs/path``, ``:memory:``, or a ``postgresql://`` URL."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(url)
    if url.startswith("sqlite://"):
        path = url.removeprefix("sqlite://")
        if not path:
            raise StorageError(f"no path in the SQLite URL {url!r}: write sqlite:///abs/path")
        return SQLiteStorage(path, url)
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*://", url):
        raise StorageError(f"unknown database URL {_redact(url)!r}: use a SQLite file name or a postgresql:// URL")
    if not url:
        raise StorageError("no database given: use a SQLite file name or a postgresql:// URL")
    return SQLiteStorage(url)


_T = TypeVar("_T")
_STOP = object()


@dataclass(slots=True)
class _Append:
    table_id: str
    event: Event
    future: concurrent.futures.Future[bool]


@dataclass(slots=True)
class _Call:
    function: Callable[[], Any]
    future: concurrent.futures.Future[Any]


class AsyncStorage:
    """Runs a Storage on one dedicated worker thread so the asyncio loop never blocks; appends are group-committed."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.url = storage.url
        self._queue: queue.SimpleQueue[_Append | _Call | object] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="canasta-storage", daemon=True)
        self._thread.start()

    async def _call(self, function: Callable[..., _T], *args: Any) -> _T:
        if self._closed:
            raise StorageError("the storage is closed")
        future: concurrent.futures.Future[_T] = concurrent.futures.Future()
        self._queue.put(_Call(lambda: function(*args), future))
        return await asyncio.wrap_future(future)

    async def create_table(self, table_id: str, spec: dict[str, Any], tokens: Mapping[str, int | None]) -> None:
        """See :meth:`Storage.create_table`."""
        await self._call(self.storage.create_table, table_id, spec, dict(tokens))

    async def table_spec(self, table_id: str) -> dict[str, Any] | None:
        """See :meth:`Storage.table_spec`."""
        return await self._call(self.storage.table_spec, table_id)

    async def events(self, table_id: str, start: int = 0) -> list[Event]:
        """See :meth:`Storage.events`."""
        return await self._call(self.storage.events, table_id, start)

    async def event_counts(self, table_ids: Sequence[str]) -> dict[str, int]:
        """See :meth:`Storage.event_counts`."""
        return await self._call(self.storage.event_counts, list(table_ids))

    async def token_seat(self, table_id: str, token_hash: str) -> tuple[bool, int | None]:
        """See :meth:`Storage.token_seat`."""
        return await self._call(self.storage.token_seat, table_id, token_hash)

    async def set_status(self, table_id: str, status: str) -> None:
        """See :meth:`Storage.set_status`."""
        await self._call(self.storage.set_status, table_id, status)

    async def table_ids(self, status: str | None = None) -> list[str]:
        """See :meth:`Storage.table_ids`."""
        return await self._call(self.storage.table_ids, status)

    async def delete_table(self, table_id: str) -> bool:
        """See :meth:`Storage.delete_table`."""
        return await self._call(self.storage.delete_table, table_id)

    async def expire(self, idle_before: float, over_before: float, limit: int = 500) -> list[str]:
        """See :meth:`Storage.expire`."""
        return await self._call(self.storage.expire, idle_before, over_before, limit)

    async def forget_chat(self, table_id: str, before: int) -> int:
        """See :meth:`Storage.forget_chat`."""
        return await self._call(self.storage.forget_chat, table_id, before)

    async def set_presence(self, process: str, rows: Sequence[tuple[str, int, int]], now: float) -> None:
        """See :meth:`Storage.set_presence`."""
        await self._call(self.storage.set_presence, process, list(rows), now)

    async def presence(self, table_ids: Sequence[str]) -> list[tuple[str, int, str, int, float]]:
        """See :meth:`Storage.presence`."""
        return await self._call(self.storage.presence, list(table_ids))

    async def review(self, table_id: str, match_no: int, hand: int, seat: int) -> str | None:
        """See :meth:`Storage.review`."""
        return await self._call(self.storage.review, table_id, match_no, hand, seat)

    async def save_review(self, table_id: str, match_no: int, hand: int, seat: int, data: str) -> None:
        """See :meth:`Storage.save_review`."""
        await self._call(self.storage.save_review, table_id, match_no, hand, seat, data)

    async def renew_token(self, table_id: str, seat: int, token_hash: str) -> bool:
        """See :meth:`Storage.renew_token`."""
        return await self._call(self.storage.renew_token, table_id, seat, token_hash)

    async def notify(self, payload: str) -> None:
        """See :meth:`Storage.notify`."""
        await self._call(self.storage.notify, payload)

    async def run(self, function: Callable[..., _T], *args: Any) -> _T:
        """``function(*args)`` on the storage thread, between the other jobs (another module's queries, given
        :attr:`storage`)."""
        return await self._call(function, *args)

    async def append(self, table_id: str, event: Event) -> bool:
        """Write the event; True once it is committed, False if its seq was taken (the table moved on)."""
        if self._closed:
            raise StorageError("the storage is closed")
        future: concurrent.futures.Future[bool] = concurrent.futures.Future()
        self._queue.put(_Append(table_id, event, future))
        return await asyncio.wrap_future(future)

    async def close(self) -> None:
        """Finish the work queued so far, then close the storage."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(_STOP)
        await asyncio.to_thread(self._thread.join)

    def _work(self) -> None:
        pending: object | None = None
        while True:
            job = pending if pending is not None else self._queue.get()
            pending = None
            if isinstance(job, _Append):
                batch = [job]
                while len(batch) < _MAX_BATCH:  # take every append waiting, up to the next other job
                    try:
                        job = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if not isinstance(job, _Append):
                        pending = job
                        break
                    batch.append(job)
                self._commit(batch)
            elif isinstance(job, _Call):
                if job.future.set_running_or_notify_cancel():
                    try:
                        job.future.set_result(job.function())
                    except Exception as exc:
                        job.future.set_exception(exc)
            else:  # _STOP, queued by close() after every other job
                self.storage.close()
                return

    def _commit(self, batch: list[_Append]) -> None:
        """One transaction for the whole batch; when it fails for one row's sake (text the database cannot
        store), each append again in a transaction of its own, so that no table's move fails for another's."""
        batch = [job for job in batch if job.future.set_running_or_notify_cancel()]
        if not batch:
            return
        try:
            written = self.storage.append_batch([(job.table_id, job.event) for job in batch])
        except Exception as exc:
            error = exc if isinstance(exc, StorageError) else _wrapped(exc)
            if len(batch) == 1 or self.storage.is_down(error):
                for job in batch:
                    job.future.set_exception(error)
                return
            for job in batch:
                try:
                    job.future.set_result(self.storage.append_batch([(job.table_id, job.event)])[0])
                except Exception as alone:
                    job.future.set_exception(alone if isinstance(alone, StorageError) else _wrapped(alone))
            return
        for job, ok in zip(batch, written, strict=True):
            job.future.set_result(ok)


def _keep_tournaments_whole(execute: Callable[[str, Sequence[Any]], _Cursor], gone: Sequence[str]) -> list[str]:
    """Of the tables about to expire (``gone``), those that may go: a duplicate tournament's tables expire
    together, once every one of them would expire on its own (none goes while another still plays, and no
    tournament loses some tables' results); the tournament goes with them (docs/tournament.md)."""
    if not gone:
        return []
    leaving = set(gone)
    marks = ", ".join("?" for _ in gone)
    rows = execute(f"SELECT tt.tournament_id, tt.table_id FROM tournament_tables tt WHERE tt.tournament_id IN "
                   f"(SELECT tournament_id FROM tournament_tables WHERE table_id IN ({marks}))", tuple(gone)).fetchall()
    tables: dict[str, list[str]] = {}
    for tournament_id, table_id in rows:
        tables.setdefault(str(tournament_id), []).append(str(table_id))
    kept: set[str] = set()
    for tournament_id, ids in tables.items():
        if all(table_id in leaving for table_id in ids):
            execute("DELETE FROM tournament_tables WHERE tournament_id = ?", (tournament_id,))
            execute("DELETE FROM tournaments WHERE id = ?", (tournament_id,))
        else:
            kept.update(ids)
    return [table_id for table_id in gone if table_id not in kept]
