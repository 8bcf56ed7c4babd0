"""The lobby's public tables: listed with their open seats, each taken in one click (docs/room.md "The lobby").

A table made ``public`` (or ``rated``, or by the quick match) gets a row in ``room_tables`` and one in
``room_seats`` per seat of a person other than its creator's (the first person's): open until someone
takes it.  Taking a seat claims its row in one statement (``open = 1`` to ``0``: of two people clicking at
once, on one process or two, one wins) and gives the seat a new token, so the taker's link is the only one
that opens it.  Everything is in storage, so every server process on one database lists the same tables.
What the lobby shows holds no card: game, target, who sits where with their ratings, a spectator link.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from ...rules import Rules
from ..storage import Storage
from . import ratings

Execute = Callable[[str, Sequence[Any]], Any]
LISTED = 50
"""Public tables the lobby lists at once (the newest that have an open seat or are in play)."""


def register_table(storage: Storage, table_id: str, spec: dict[str, Any], spectator: str,
                   people: dict[int, tuple[str | None, str | None, str]] | None = None,
                   now: float | None = None) -> None:
    """Note a room table: public and rated flags, its open seats (``people``: the seats already taken, seat to
    account id, browser hash and name; None: the first person's seat is its creator's)."""
    now = time.time() if now is None else now
    rules = Rules.parse(spec["rules"])
    room = spec.get("room") or {}
    humans = [i for i, s in enumerate(spec["seats"]) if s["kind"] == "human"]
    if people is None:
        people = {humans[0]: (None, None, "")} if humans else {}
    with storage.transaction() as execute:
        execute("INSERT INTO room_tables (table_id, preset, target, rated, public, status, spectator, created, "
                "updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, rules.preset, rules.target, int(bool(room.get("rated"))), int(bool(room.get("public"))),
                 "playing", spectator, now, now))
        for seat in humans:
            taken = people.get(seat)
            if taken is None:
                execute("INSERT INTO room_seats (table_id, seat, open, at) VALUES (?, ?, 1, ?)", (table_id, seat, now))
            elif taken[0] is not None or taken[1] is not None:
                execute("INSERT INTO room_seats (table_id, seat, open, account_id, browser_hash, name, at) "
                        "VALUES (?, ?, 0, ?, ?, ?, ?)", (table_id, seat, taken[0], taken[1], taken[2], now))


def claim_seat(storage: Storage, table_id: str, seat: int, account_id: str | None, browser_hash: str,
               name: str) -> bool:
    """Take an open seat of a public table for a person; False when it is not open (taken meanwhile, or none)."""
    now = time.time()
    with storage.transaction() as execute:
        listed = execute("SELECT 1 FROM room_tables r JOIN tables t ON t.id = r.table_id "
                         "WHERE r.table_id = ? AND r.public = 1 AND t.status <> 'over'", (table_id,)).fetchone()
        if listed is None:
            return False
        if account_id is not None and execute(
                "SELECT 1 FROM room_seats WHERE table_id = ? AND account_id = ?", (table_id, account_id)).fetchone():
            return False  # one seat per account at a table
        cursor = execute("UPDATE room_seats SET open = 0, account_id = ?, browser_hash = ?, name = ?, at = ? "
                         "WHERE table_id = ? AND seat = ? AND open = 1",
                         (account_id, browser_hash, name, now, table_id, seat))
        if cursor.rowcount != 1:
            return False
        execute("UPDATE room_tables SET updated = ? WHERE table_id = ?", (now, table_id))
    return True


def open_tables(storage: Storage, limit: int = LISTED) -> list[dict[str, Any]]:
    """The lobby: public tables not over, newest first, each with its seats (open, a person with their rating in
    the game's family, or a computer level) and, once every seat is taken, its spectator link."""
    with storage.transaction(write=False) as execute:
        rows = execute("SELECT r.table_id, r.preset, r.target, r.rated, r.spectator, r.created, t.spec "
                       "FROM room_tables r JOIN tables t ON t.id = r.table_id "
                       "WHERE r.public = 1 AND t.status <> 'over' ORDER BY r.updated DESC LIMIT ?",
                       (limit,)).fetchall()
        ids = [r[0] for r in rows]
        seats: dict[tuple[str, int], Any] = {}
        rated_mu: dict[tuple[str, str], float] = {}
        if ids:
            marks = ", ".join("?" for _ in ids)
            for row in execute(f"SELECT s.table_id, s.seat, s.open, s.name, s.account_id, a.name FROM room_seats s "
                               f"LEFT JOIN accounts a ON a.id = s.account_id WHERE s.table_id IN ({marks})",
                               ids).fetchall():
                seats[(row[0], int(row[1]))] = row
            accounts = sorted({row[4] for row in seats.values() if row[4] is not None})
            if accounts:
                marks = ", ".join("?" for _ in accounts)
                for account_id, family, mu in execute(
                        f"SELECT account_id, family, mu FROM ratings WHERE account_id IN ({marks})",
                        accounts).fetchall():
                    rated_mu[(account_id, family)] = float(mu)
    listed: list[dict[str, Any]] = []
    for table_id, preset, target, rated, spectator, created, spec_text in rows:
        spec = json.loads(spec_text)
        family = ratings.family_of(Rules.parse(spec["rules"]))
        entries: list[dict[str, Any]] = []
        for index, seat in enumerate(spec["seats"]):
            claim = seats.get((table_id, index))
            entry: dict[str, Any] = {"seat": index, "open": False, "computer": seat["kind"] != "human"}
            if entry["computer"]:
                entry["name"] = seat["name"]
                level = seat["kind"].capitalize()
                if level in ratings.LADDER_ELO[family]:
                    entry["rating"] = round(ratings.level_mu(family, level), 1)
            elif claim is not None and claim[2]:
                entry["open"] = True
            else:
                entry["name"] = (claim[5] or claim[3]) if claim is not None else seat["name"]
                account_id = claim[4] if claim is not None else None
                if account_id is not None:
                    entry["rating"] = round(rated_mu.get((account_id, family), ratings.MODEL.mu), 1)
            entries.append(entry)
        is_open = any(e["open"] for e in entries)
        listed.append({"table": table_id, "preset": preset, "family": family, "target": int(target),
                       "rated": bool(rated), "created": float(created), "seats": entries, "open": is_open,
                       "watch": None if is_open else spectator})
    return listed
