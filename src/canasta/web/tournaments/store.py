"""Tournaments in storage (migration step 5): the format and organiser of each, and the served table of each
of its tables; step 6, the end of its next round not closed yet (``deadline``: :func:`due`, :func:`close`).
The results are not copied here: they are the tables' own hands (:mod:`.service`)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..storage import Storage


def save(storage: Storage, tournament_id: str, organiser: str | None, public: bool, spec: dict[str, Any],
         table_ids: Sequence[str], now: float | None = None, open_seats: Sequence[tuple[int, int]] = ()) -> None:
    """Keep a new tournament and its tables (one transaction); ``open_seats`` (table number, seat), of a public
    one, anybody signed in may take (:func:`claim`), noted as the room's lobby notes a public table's
    (``room_seats``), so the table and the history name whoever takes one.  With a round time, its first
    round's end is the tournament's ``deadline`` (:func:`due`)."""
    now = time.time() if now is None else now
    minutes = float(spec.get("round_minutes") or 0)
    deadline = now + 60 * minutes if minutes else None
    with storage.transaction() as execute:
        execute("INSERT INTO tournaments (id, organiser, public, spec, created, deadline) VALUES (?, ?, ?, ?, ?, ?)",
                (tournament_id, organiser, int(public), json.dumps(spec), now, deadline))
        for number, table_id in enumerate(table_ids):
            execute("INSERT INTO tournament_tables (tournament_id, number, table_id) VALUES (?, ?, ?)",
                    (tournament_id, number, table_id))
        for number, seat in open_seats:
            execute("INSERT INTO room_seats (table_id, seat, open, at) VALUES (?, ?, 1, ?)",
                    (table_ids[number], seat, now))


@dataclass(frozen=True)
class Stored:
    """A tournament as storage keeps it."""

    spec: dict[str, Any]
    """``format`` (the tournament's JSON, its seed included: never sent), ``away_minutes``, ``turn_seconds``,
    ``round_minutes``."""
    table_ids: list[str]
    created: float
    closed: list[list[int]]
    """For each round whose time is up, in order: the boards each table had played then (what counts of that
    round's boards).  A tournament stored with one list of counts (one round) reads as that one round's."""
    public: bool = False


def load(storage: Storage, tournament_id: str) -> Stored | None:
    """A tournament and its tables' ids in table order; None when there is none."""
    with storage.transaction(write=False) as execute:
        row = execute("SELECT spec, created, closed, public FROM tournaments WHERE id = ?",
                      (tournament_id,)).fetchone()
        if row is None:
            return None
        rows = execute("SELECT table_id FROM tournament_tables WHERE tournament_id = ? ORDER BY number",
                       (tournament_id,)).fetchall()
    return Stored(json.loads(row[0]), [r[0] for r in rows], float(row[1]), _closed(row[2]), bool(row[3]))


def _closed(text: str | None) -> list[list[int]]:
    if text is None:
        return []
    data = json.loads(text)
    if data and not isinstance(data[0], list):  # one round's counts, as step 5 first kept them
        data = [data]
    return [[int(n) for n in counts] for counts in data]


def close(storage: Storage, tournament_id: str, number: int, played: Sequence[int],
          deadline: float | None = None) -> list[list[int]]:
    """Close round ``number`` (from 0) of a tournament whose time for it is up at the boards each table has played,
    its next round's end (None: none) becoming the tournament's ``deadline``; the first close of a round wins
    (another server process may close it at once: the database decides, by an update on the condition that the
    rounds closed are still those read): the counts that stand."""
    for _ in range(3):
        with storage.transaction() as execute:
            row = execute("SELECT closed FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
            if row is None:
                return []
            closed = _closed(row[0])
            if len(closed) != number:
                return closed
            closed.append([int(n) for n in played])
            if row[0] is None:
                cursor = execute("UPDATE tournaments SET closed = ?, deadline = ? WHERE id = ? AND closed IS NULL",
                                 (json.dumps(closed), deadline, tournament_id))
            else:
                cursor = execute("UPDATE tournaments SET closed = ?, deadline = ? WHERE id = ? AND closed = ?",
                                 (json.dumps(closed), deadline, tournament_id, row[0]))
            if cursor.rowcount == 1:
                return closed
    loaded = load(storage, tournament_id)  # another process closed it meanwhile: its counts stand
    return loaded.closed if loaded is not None else []


def due(storage: Storage, now: float) -> list[str]:
    """The tournaments with a round whose time is up and not closed yet (one query: the round-closing job)."""
    with storage.transaction(write=False) as execute:
        rows = execute("SELECT id FROM tournaments WHERE deadline IS NOT NULL AND deadline <= ?", (now,)).fetchall()
    return [str(r[0]) for r in rows]


def settle(storage: Storage, tournament_id: str, deadline: float | None) -> None:
    """Set a tournament's next deadline (None: no round left to close, or every table has played every board)."""
    with storage.transaction() as execute:
        execute("UPDATE tournaments SET deadline = ? WHERE id = ?", (deadline, tournament_id))


def open_seats(storage: Storage, table_ids: Sequence[str]) -> list[tuple[int, int]]:
    """The seats of a public tournament nobody has taken yet: (table number, seat), in order."""
    if not table_ids:
        return []
    marks = ", ".join("?" for _ in table_ids)
    with storage.transaction(write=False) as execute:
        rows = execute(f"SELECT table_id, seat FROM room_seats WHERE open = 1 AND table_id IN ({marks})",
                       tuple(table_ids)).fetchall()
    number = {table_id: n for n, table_id in enumerate(table_ids)}
    return sorted((number[str(r[0])], int(r[1])) for r in rows)


def claim(storage: Storage, tournament_id: str, number: int, seat: int, account_id: str, name: str) -> str | None:
    """Take an open seat of a public tournament for an account (one seat a tournament each): the table's id, or
    None when the seat is not open (taken meanwhile: of two at once, one wins), or the account already sits there."""
    with storage.transaction() as execute:
        row = execute("SELECT tt.table_id FROM tournament_tables tt JOIN tournaments t ON t.id = tt.tournament_id "
                      "WHERE tt.tournament_id = ? AND tt.number = ? AND t.public = 1",
                      (tournament_id, number)).fetchone()
        if row is None:
            return None
        if execute("SELECT 1 FROM room_seats s JOIN tournament_tables tt ON tt.table_id = s.table_id "
                   "WHERE tt.tournament_id = ? AND s.account_id = ?", (tournament_id, account_id)).fetchone():
            return None
        cursor = execute("UPDATE room_seats SET open = 0, account_id = ?, name = ?, at = ? "
                         "WHERE table_id = ? AND seat = ? AND open = 1", (account_id, name, time.time(), row[0], seat))
        if cursor.rowcount != 1:
            return None
    return str(row[0])


def of_table(storage: Storage, table_id: str) -> tuple[str, int] | None:
    """The tournament a served table belongs to and its number there; None for any other table."""
    with storage.transaction(write=False) as execute:
        row = execute("SELECT tournament_id, number FROM tournament_tables WHERE table_id = ?",
                      (table_id,)).fetchone()
    return None if row is None else (str(row[0]), int(row[1]))


@dataclass(frozen=True)
class Listed:
    """A public tournament as the lobby lists it: never its seed, its tables' ids or its results."""

    tournament_id: str
    spec: dict[str, Any]
    created: float
    tables: int
    over: int
    """Its tables whose match is over (every board played)."""
    closed: list[list[int]]


def public(storage: Storage, limit: int = 20) -> list[Listed]:
    """The newest public tournaments, each with how many of its tables are over."""
    with storage.transaction(write=False) as execute:
        rows = execute("SELECT t.id, t.spec, t.created, t.closed, count(tt.table_id), "
                       "sum(CASE WHEN s.status = 'over' THEN 1 ELSE 0 END) FROM tournaments t "
                       "JOIN tournament_tables tt ON tt.tournament_id = t.id "
                       "LEFT JOIN tables s ON s.id = tt.table_id WHERE t.public = 1 "
                       "GROUP BY t.id, t.spec, t.created, t.closed ORDER BY t.created DESC LIMIT ?",
                       (limit,)).fetchall()
    return [Listed(str(r[0]), json.loads(r[1]), float(r[2]), int(r[4]), int(r[5] or 0), _closed(r[3]))
            for r in rows]
