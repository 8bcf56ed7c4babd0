"""Tournaments in storage (migration step 5): the format and organiser of each, and the served table of each
of its tables.  The results are not copied here: they are the tables' own hands (:mod:`.service`)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..storage import Storage


def save(storage: Storage, tournament_id: str, organiser: str | None, public: bool, spec: dict[str, Any],
         table_ids: Sequence[str], now: float | None = None) -> None:
    """Keep a new tournament and its tables (one transaction)."""
    with storage.transaction() as execute:
        execute("INSERT INTO tournaments (id, organiser, public, spec, created) VALUES (?, ?, ?, ?, ?)",
                (tournament_id, organiser, int(public), json.dumps(spec), time.time() if now is None else now))
        for number, table_id in enumerate(table_ids):
            execute("INSERT INTO tournament_tables (tournament_id, number, table_id) VALUES (?, ?, ?)",
                    (tournament_id, number, table_id))


@dataclass(frozen=True)
class Stored:
    """A tournament as storage keeps it."""

    spec: dict[str, Any]
    """``format`` (the tournament's JSON, its seed included: never sent), ``away_minutes``, ``turn_seconds``,
    ``round_minutes``."""
    table_ids: list[str]
    created: float
    closed: list[int] | None
    """Once the round time is up: the boards each table had played then (what counts), else None."""


def load(storage: Storage, tournament_id: str) -> Stored | None:
    """A tournament and its tables' ids in table order; None when there is none."""
    with storage.transaction(write=False) as execute:
        row = execute("SELECT spec, created, closed FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
        if row is None:
            return None
        rows = execute("SELECT table_id FROM tournament_tables WHERE tournament_id = ? ORDER BY number",
                       (tournament_id,)).fetchall()
    return Stored(json.loads(row[0]), [r[0] for r in rows], float(row[1]),
                  None if row[2] is None else [int(n) for n in json.loads(row[2])])


def close(storage: Storage, tournament_id: str, played: Sequence[int]) -> list[int]:
    """Close a tournament whose round time is up at the boards each table has played; the first close wins (another
    server process may have closed it first): the counts that stand."""
    with storage.transaction() as execute:
        execute("UPDATE tournaments SET closed = ? WHERE id = ? AND closed IS NULL",
                (json.dumps(list(played)), tournament_id))
        row = execute("SELECT closed FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    return [int(n) for n in json.loads(row[0])]
