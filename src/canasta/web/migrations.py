"""The database's versioned migrations: numbered steps that :class:`~.storage.Storage` applies in order at open.

Version 1 is the base schema of :mod:`.storage` (tables, tokens, events, presence), created with
``IF NOT EXISTS`` at every open.  Every later version is one :class:`Step` here: a database whose
``schema_version`` is below a step's number gets that step in one transaction of its own, together
with the row that records its number, so an interrupted upgrade leaves the database at the last step
that finished and the next open goes on from there.  A step is never changed once released: a new
table or column is a new step at the end.

>>> [step.version for step in STEPS]
[2, 3, 4, 5, 6]
>>> "CREATE TABLE accounts" in STEPS[0].statements("REAL")[0]
True
"""

from __future__ import annotations

from dataclasses import dataclass

BASE_VERSION = 1
"""The version of the base schema (the one every canasta before the room wrote)."""


@dataclass(frozen=True)
class Step:
    """One migration: its version, what it adds in words, and its SQL (``{real}``: the backend's float type)."""

    version: int
    what: str
    sql: str

    def statements(self, real: str) -> list[str]:
        """The step's statements for a backend whose floating point type is ``real``."""
        return [s.strip() for s in self.sql.format(real=real).split(";") if s.strip()]


STEPS: tuple[Step, ...] = (
    Step(2, "the room: accounts, barred names, sessions, browsers and their tables, ratings, finished matches", """
CREATE TABLE accounts (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL,
    created {real} NOT NULL, password_changed {real} NOT NULL);
CREATE TABLE barred_names (name_key TEXT PRIMARY KEY, reason TEXT NOT NULL, at {real} NOT NULL);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL, created {real} NOT NULL, expires {real} NOT NULL);
CREATE INDEX sessions_account ON sessions (account_id);
CREATE TABLE browsers (browser_hash TEXT PRIMARY KEY, account_id TEXT NOT NULL, linked {real} NOT NULL);
CREATE INDEX browsers_account ON browsers (account_id);
CREATE TABLE browser_tables (
    browser_hash TEXT NOT NULL, table_id TEXT NOT NULL, seat INTEGER NOT NULL, at {real} NOT NULL,
    PRIMARY KEY (browser_hash, table_id, seat));
CREATE INDEX browser_tables_table ON browser_tables (table_id);
CREATE TABLE ratings (
    account_id TEXT NOT NULL, family TEXT NOT NULL, mu {real} NOT NULL, sigma {real} NOT NULL,
    matches INTEGER NOT NULL, updated {real} NOT NULL, PRIMARY KEY (account_id, family));
CREATE INDEX ratings_family ON ratings (family, mu);
CREATE TABLE matches (
    id TEXT PRIMARY KEY, family TEXT NOT NULL, preset TEXT NOT NULL, table_id TEXT NULL, rated INTEGER NOT NULL,
    finished {real} NOT NULL);
CREATE TABLE match_players (
    match_id TEXT NOT NULL, place INTEGER NOT NULL, team INTEGER NOT NULL, account_id TEXT NULL, level TEXT NULL,
    name TEXT NOT NULL, score INTEGER NOT NULL, rank INTEGER NOT NULL, left_early INTEGER NOT NULL,
    mu_before {real} NULL, sigma_before {real} NULL, mu_after {real} NULL, sigma_after {real} NULL,
    PRIMARY KEY (match_id, place));
CREATE INDEX match_players_account ON match_players (account_id);
CREATE INDEX matches_finished ON matches (finished)
"""),
    # IF NOT EXISTS: the table was first created with the base schema, before it became a step of its own
    Step(3, "the browser review: each seat's reviewed decisions per hand, kept with its table", """
CREATE TABLE IF NOT EXISTS reviews (
    table_id TEXT NOT NULL, match_no INTEGER NOT NULL, hand INTEGER NOT NULL, seat INTEGER NOT NULL,
    data TEXT NOT NULL, at {real} NOT NULL, PRIMARY KEY (table_id, match_no, hand, seat))
"""),
    Step(4, "the room's lobby, quick match and history: every finished match with its record, guests by browser", """
ALTER TABLE matches ADD COLUMN match_no INTEGER NULL;
ALTER TABLE matches ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN record TEXT NULL;
ALTER TABLE matches ADD COLUMN hands INTEGER NULL;
ALTER TABLE match_players ADD COLUMN seat INTEGER NULL;
ALTER TABLE match_players ADD COLUMN browser_hash TEXT NULL;
CREATE UNIQUE INDEX matches_table_match ON matches (table_id, match_no);
CREATE INDEX match_players_browser ON match_players (browser_hash);
CREATE TABLE room_tables (
    table_id TEXT PRIMARY KEY, preset TEXT NOT NULL, target INTEGER NOT NULL, rated INTEGER NOT NULL,
    public INTEGER NOT NULL, status TEXT NOT NULL, spectator TEXT NULL, created {real} NOT NULL,
    updated {real} NOT NULL);
CREATE INDEX room_tables_public ON room_tables (public, status, updated);
CREATE TABLE room_seats (
    table_id TEXT NOT NULL, seat INTEGER NOT NULL, open INTEGER NOT NULL, account_id TEXT NULL,
    browser_hash TEXT NULL, name TEXT NULL, at {real} NOT NULL, PRIMARY KEY (table_id, seat));
CREATE TABLE queue (
    ticket_hash TEXT PRIMARY KEY, game TEXT NOT NULL, rated INTEGER NOT NULL, account_id TEXT NULL,
    browser_hash TEXT NOT NULL, name TEXT NOT NULL, mu {real} NOT NULL, joined {real} NOT NULL,
    seen {real} NOT NULL, table_id TEXT NULL, link TEXT NULL);
CREATE INDEX queue_game ON queue (game, rated, joined)
"""),
    Step(5, "duplicate tournaments: each tournament's format and organiser, and its tables", """
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY, organiser TEXT NULL, public INTEGER NOT NULL, spec TEXT NOT NULL, created {real} NOT NULL,
    closed TEXT NULL);
CREATE TABLE tournament_tables (
    tournament_id TEXT NOT NULL, number INTEGER NOT NULL, table_id TEXT NOT NULL, PRIMARY KEY (tournament_id, number));
CREATE INDEX tournament_tables_table ON tournament_tables (table_id)
"""),
    Step(6, "tournament rounds closed on time: each tournament's next round deadline (NULL: none open)", """
ALTER TABLE tournaments ADD COLUMN deadline {real} NULL;
CREATE INDEX tournaments_deadline ON tournaments (deadline)
"""),
)
"""Every step after the base schema, in version order (docs/room.md says what each table keeps)."""

SCHEMA_VERSION = STEPS[-1].version if STEPS else BASE_VERSION
"""The version a database has once every step is applied."""
