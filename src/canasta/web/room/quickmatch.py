"""The quick match: a queue in storage that seats waiting players together, closest ratings first, and fills the
seats still empty after a wait with computer levels near the table's average rating (docs/room.md).

A player joins with a game (a preset) and rated or casual and gets a secret ticket (its SHA-256 is the
queue's key); the page asks about the ticket every second or so (:func:`poll`), which also says the
player is still there.  Every server process runs :func:`plan` now and then: in one transaction (SQLite's
write lock, PostgreSQL's advisory lock) it takes the waiting players of each game, seats the ``n`` whose
ratings are closest when there are ``n`` or more, or, once the longest waiting has waited the
:attr:`QuickSettings.wait`, everyone waiting with computer levels in the empty seats, and marks them
taken; the process then makes the tables and writes each player's link (:func:`seat`).  Several processes
on one PostgreSQL share the queue; a player is seated once.

>>> closest([(30.0, "a"), (10.0, "b"), (29.0, "c"), (12.0, "d")], 2)
['c', 'a']
>>> nearest_level("four", 28.0)
'Club'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...bots.levels import LEVELS
from ...rules import PRESETS, Rules
from ..storage import PostgresStorage, Storage
from . import ratings

Execute = Callable[[str, Sequence[Any]], Any]
GONE_AFTER = 10.0
"""Seconds without a poll after which a waiting player is taken for gone (the page polls every second)."""
STUCK_AFTER = 30.0
"""Seconds after which players planned for a table that never came (its server process stopped) wait again."""


@dataclass(frozen=True)
class QuickSettings:
    """The quick match's wait before computers fill the empty seats, and the target of its tables (None: the
    game's own; tests use a low one to reach a match's end soon)."""

    wait: float = 20.0
    target: int | None = None


@dataclass(frozen=True)
class Waiting:
    """A player in the queue."""

    ticket_hash: str
    account_id: str | None
    browser_hash: str
    name: str
    mu: float
    joined: float


@dataclass(frozen=True)
class Plan:
    """A table to make: its game, rated or not, the people at its first seats, the levels at the others."""

    game: str
    rated: bool
    people: tuple[Waiting, ...]
    levels: tuple[str, ...]


def closest(players: Sequence[tuple[float, str]], n: int) -> list[str]:
    """The ``n`` players (rating, key) whose ratings are closest together: the window of ``n`` in rating order
    with the smallest spread (the first such)."""
    ordered = sorted(players)
    best = min(range(len(ordered) - n + 1), key=lambda i: ordered[i + n - 1][0] - ordered[i][0])
    return [key for _, key in ordered[best:best + n]]


def nearest_level(family: str, mu: float) -> str:
    """The computer level whose fixed rating is nearest ``mu`` in the family."""
    return min(LEVELS, key=lambda level: abs(ratings.level_mu(family, level.name) - mu)).name


def join(storage: Storage, ticket_hash: str, game: str, rated: bool, account_id: str | None, browser_hash: str,
         name: str, now: float | None = None) -> None:
    """Put a player in the queue (a browser or account already waiting leaves its earlier place)."""
    if game not in PRESETS:
        raise ValueError(f"unknown game {game!r} (games: {', '.join(PRESETS)})")
    now = time.time() if now is None else now
    family = ratings.family_of(Rules.from_preset(game))
    with storage.transaction() as execute:
        mu = ratings.MODEL.mu
        if account_id is not None:
            row = execute("SELECT mu FROM ratings WHERE account_id = ? AND family = ?", (account_id, family)).fetchone()
            if row is not None:
                mu = float(row[0])
            execute("DELETE FROM queue WHERE account_id = ? AND table_id IS NULL", (account_id,))
        execute("DELETE FROM queue WHERE browser_hash = ? AND table_id IS NULL", (browser_hash,))
        execute("INSERT INTO queue (ticket_hash, game, rated, account_id, browser_hash, name, mu, joined, seen) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (ticket_hash, game, int(rated), account_id, browser_hash, name, mu, now, now))


def poll(storage: Storage, ticket_hash: str, wait: float, now: float | None = None) -> dict[str, Any] | None:
    """Where a ticket stands: waiting (with the seconds left before computers fill the table), or seated (its
    seat's link, given once: the ticket then leaves the queue); None for an unknown ticket."""
    now = time.time() if now is None else now
    with storage.transaction() as execute:
        row = execute("SELECT game, rated, joined, table_id, link FROM queue WHERE ticket_hash = ?",
                      (ticket_hash,)).fetchone()
        if row is None:
            return None
        game, rated, joined, table_id, link = row
        if link:
            execute("DELETE FROM queue WHERE ticket_hash = ?", (ticket_hash,))
            return {"status": "seated", "game": game, "rated": bool(rated), "table": table_id, "link": link}
        execute("UPDATE queue SET seen = ? WHERE ticket_hash = ? AND table_id IS NULL", (now, ticket_hash))
        waiting = execute("SELECT count(*) FROM queue WHERE game = ? AND rated = ? AND table_id IS NULL",
                          (game, rated)).fetchone()[0]
    return {"status": "waiting", "game": game, "rated": bool(rated), "waiting": int(waiting),
            "seconds_left": max(0.0, round(float(joined) + wait - now, 1))}


def leave(storage: Storage, ticket_hash: str) -> bool:
    """Take a ticket out of the queue before it is seated; False when it was not waiting."""
    with storage.transaction() as execute:
        return bool(execute("DELETE FROM queue WHERE ticket_hash = ? AND table_id IS NULL",
                            (ticket_hash,)).rowcount)


def plan(storage: Storage, wait: float, now: float | None = None) -> list[Plan]:
    """The tables to make now, their players marked taken (``table_id`` empty until :func:`seat` writes it);
    players not heard from for :data:`GONE_AFTER` seconds leave the queue, and those planned
    :data:`STUCK_AFTER` seconds ago for a table never made wait again."""
    now = time.time() if now is None else now
    plans: list[Plan] = []
    with storage.transaction() as execute:
        if isinstance(storage, PostgresStorage):  # two processes planning at once: one after the other
            execute("SELECT pg_advisory_xact_lock(7420423)", ())
        execute("UPDATE queue SET table_id = NULL, seen = ? WHERE table_id = '' AND seen < ?", (now, now - STUCK_AFTER))
        execute("DELETE FROM queue WHERE table_id IS NULL AND seen < ?", (now - GONE_AFTER,))
        rows = execute("SELECT ticket_hash, account_id, browser_hash, name, mu, joined, game, rated FROM queue "
                       "WHERE table_id IS NULL ORDER BY joined", ()).fetchall()
        groups: dict[tuple[str, bool], list[Waiting]] = {}
        for r in rows:
            groups.setdefault((r[6], bool(r[7])), []).append(
                Waiting(r[0], r[1], r[2], r[3], float(r[4]), float(r[5])))
        for (game, rated), waiting in groups.items():
            rules = Rules.from_preset(game)
            family = ratings.family_of(rules)
            while waiting:
                n = rules.players
                if len(waiting) >= n:
                    keys = set(closest([(w.mu, w.ticket_hash) for w in waiting], n))
                    people = [w for w in waiting if w.ticket_hash in keys]
                elif now - waiting[0].joined >= wait:
                    people = list(waiting)
                else:
                    break
                waiting = [w for w in waiting if w not in people]
                average = sum(w.mu for w in people) / len(people)
                level = nearest_level(family, average)
                plans.append(Plan(game, rated, tuple(people), (level,) * (n - len(people))))
                for w in people:
                    execute("UPDATE queue SET table_id = ?, seen = ? WHERE ticket_hash = ?", ("", now, w.ticket_hash))
    return plans


def seat(storage: Storage, ticket_hash: str, table_id: str | None, link: str | None) -> None:
    """Give a planned player the link of their seat (told at their next :func:`poll`); None: back to waiting."""
    with storage.transaction() as execute:
        execute("UPDATE queue SET table_id = ?, link = ?, seen = ? WHERE ticket_hash = ?",
                (table_id, link, time.time(), ticket_hash))


def table_request(plan: Plan, settings: QuickSettings) -> dict[str, Any]:
    """The ``POST /api/tables`` body of a planned table: the people at its first seats (one per side in turn),
    the levels after them; public (listed to watch), rated as asked."""
    seats: list[dict[str, str]] = []
    names: set[str] = set()
    for w in plan.people:  # two guests: "Guest" and "Guest 2"
        name, number = w.name, 2
        while name in names:
            name, number = f"{w.name} {number}", number + 1
        names.add(name)
        seats.append({"kind": "human", "name": name})
    for level in plan.levels:
        name, number = level, 2
        while name in names:
            name, number = f"{level} {number}", number + 1
        names.add(name)
        seats.append({"kind": level.lower(), "name": name})
    body: dict[str, Any] = {"preset": plan.game, "seats": seats, "public": True, "rated": plan.rated}
    if settings.target is not None:
        body["target"] = settings.target
    return body
