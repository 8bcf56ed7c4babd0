"""Versioned migrations (issue 30 point 5): a database made by the canasta before the room opens, keeps its tables
and events, and gains the room's tables; each step is one transaction with its version."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from canasta.web import migrations
from canasta.web import storage as storage_module
from canasta.web.storage import Event, StorageError, open_storage

# The schema of version 1, exactly as src/canasta/web/storage.py created it before the room (commit 101fddc).
VERSION_1 = """
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
ROWS = [
    "INSERT INTO schema_version (version) VALUES (1)",
    "INSERT INTO tables (id, created, status, spec) VALUES ('t1', 1.5, 'playing', '{\"preset\":\"classic\"}')",
    "INSERT INTO tokens (table_id, token_hash, seat) VALUES ('t1', 'ab12', 0)",
    "INSERT INTO events (table_id, seq, kind, seat, text, at) VALUES ('t1', 0, 'deal', NULL, '', 2.0)",
    "INSERT INTO events (table_id, seq, kind, seat, text, at) VALUES ('t1', 1, 'move', 1, 'draw', 3.0)",
]


def make_version_1(url: str) -> None:
    """A database as the canasta before the room left it: version 1, one table with two events."""
    statements = [s for s in VERSION_1.split(";") if s.strip()]
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url, autocommit=False) as conn:
            for statement in statements + ROWS:
                conn.execute(statement.format(real="DOUBLE PRECISION") if "{real}" in statement else statement)
            conn.commit()
        return
    with sqlite3.connect(url) as conn:
        for statement in statements + ROWS:
            conn.execute(statement.format(real="REAL") if "{real}" in statement else statement)


def test_a_version_1_database_migrates_and_keeps_its_tables(storage_url: str) -> None:
    make_version_1(storage_url)
    store = open_storage(storage_url)
    try:
        assert store.schema_version() == migrations.SCHEMA_VERSION
        assert store.table_ids() == ["t1"]
        assert store.table_spec("t1") == {"preset": "classic"}
        assert [(e.seq, e.kind, e.text) for e in store.events("t1")] == [(0, "deal", ""), (1, "move", "draw")]
        assert store.token_seat("t1", "ab12") == (True, 0)
        store.append("t1", [Event(2, "move", 1, "discard 7H", 4.0)])
        with store.transaction() as execute:  # the room's tables are there
            execute("INSERT INTO barred_names (name_key, reason, at) VALUES ('x', '', 0)", ())
            versions = [row[0] for row in execute("SELECT version FROM schema_version ORDER BY version", ())]
        assert versions == [1, *[step.version for step in migrations.STEPS]]
    finally:
        store.close()
    again = open_storage(storage_url)  # opening again applies nothing twice
    try:
        assert again.schema_version() == migrations.SCHEMA_VERSION and len(again.events("t1")) == 3
    finally:
        again.close()


def test_a_new_database_has_every_step(storage_url: str) -> None:
    store = open_storage(storage_url)
    try:
        assert store.schema_version() == migrations.SCHEMA_VERSION
        with store.transaction(write=False) as execute:
            assert execute("SELECT count(*) FROM accounts", ()).fetchone()[0] == 0
    finally:
        store.close()


def test_a_failing_step_leaves_the_database_at_the_last_step_done(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(tmp_path / "db.sqlite3")
    make_version_1(path)
    broken = migrations.Step(migrations.SCHEMA_VERSION + 1, "a step that fails half way",
                             "CREATE TABLE half (x INTEGER); CREATE TABLE half (x INTEGER)")
    monkeypatch.setattr(storage_module, "STEPS", (*migrations.STEPS, broken))
    monkeypatch.setattr(storage_module, "SCHEMA_VERSION", broken.version)
    with pytest.raises(StorageError, match="half"):
        open_storage(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT max(version) FROM schema_version").fetchone()[0] == migrations.SCHEMA_VERSION
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'half'").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 2


def test_a_database_of_a_newer_canasta_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3")
    open_storage(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (migrations.SCHEMA_VERSION + 1,))
    with pytest.raises(StorageError, match="upgrade canasta"):
        open_storage(path)
