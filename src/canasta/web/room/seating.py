"""Who sits at a table, as its page shows them: the room's names and ratings beside the seats (docs/room.md).

A seat taken in the lobby or the quick match shows its taker's name (a guest's as ``Guest``); a seat
first opened by a browser signed in to an account shows the account's name (the same rule as the history's,
:func:`.history.seated_people`).  A person with an account shows their rating in the game's family, marked
provisional while the server is unsure of it (a newcomer's 25 when they have none yet); a computer level
shows its fixed rating.  Nothing else about a person leaves: no account id, no browser key, no session.

The creator of a public or rated table signed in to an account sits as that account (:func:`claim_creators`):
the name typed when the table was made gives way to the account's in the lobby, at the table and in the history.

The labels of a table in memory (:attr:`~canasta.web.served.ServedTable.labels`) are read when it is made,
when a seat is taken or welcomed, and every few seconds for the tables with connections (another process
may have seated someone, or a rated match moved a rating); a change is sent to the table at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...bots.levels import find_level
from ...rules import Rules
from ..served import SeatLabel, ServedTable
from ..storage import Storage
from . import ratings

Execute = Callable[[str, Sequence[Any]], Any]
GUEST = "Guest"
CHUNK = 400
"""Tables read in one query."""
REFRESH_EVERY = 5.0
"""Seconds between two readings of the labels of the tables with connections (each server process)."""


def seat_labels(storage: Storage, specs: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[int, SeatLabel]]:
    """The labels of these tables (table id to its spec), by seat; a seat the room knows nothing of has none."""
    ids = list(specs)
    claims: dict[tuple[str, int], tuple[str | None, str | None]] = {}
    firsts: dict[tuple[str, int], tuple[str | None, str | None]] = {}
    rated: dict[tuple[str, str], tuple[float, float, int]] = {}
    with storage.transaction(write=False) as execute:
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start:start + CHUNK]
            marks = ", ".join("?" for _ in chunk)
            for table_id, seat, account_id, name in execute(
                    f"SELECT s.table_id, s.seat, s.account_id, a.name FROM room_seats s "
                    f"LEFT JOIN accounts a ON a.id = s.account_id WHERE s.open = 0 AND s.table_id IN ({marks})",
                    chunk).fetchall():
                claims[(table_id, int(seat))] = (account_id, name)
            for table_id, seat, account_id, name in execute(
                    f"SELECT bt.table_id, bt.seat, b.account_id, a.name FROM browser_tables bt "
                    f"LEFT JOIN browsers b ON b.browser_hash = bt.browser_hash "
                    f"LEFT JOIN accounts a ON a.id = b.account_id WHERE bt.table_id IN ({marks}) ORDER BY bt.at",
                    chunk).fetchall():
                firsts.setdefault((table_id, int(seat)), (account_id, name))
        accounts = sorted({a for a, n in [*claims.values(), *firsts.values()] if a is not None and n})
        for start in range(0, len(accounts), CHUNK):
            chunk = accounts[start:start + CHUNK]
            marks = ", ".join("?" for _ in chunk)
            for account_id, family, mu, sigma, matches in execute(
                    f"SELECT account_id, family, mu, sigma, matches FROM ratings WHERE account_id IN ({marks})",
                    chunk).fetchall():
                rated[(account_id, family)] = (float(mu), float(sigma), int(matches))
    found: dict[str, dict[int, SeatLabel]] = {}
    for table_id, spec in specs.items():
        family = ratings.family_of(Rules.parse(spec["rules"]))
        labels: dict[int, SeatLabel] = {}
        shown = [str(seat["name"]) for seat in spec["seats"]]
        for index, seat in enumerate(spec["seats"]):
            if seat["kind"] != "human":
                level = find_level(seat["kind"])
                if level is not None and level.name in ratings.LADDER_ELO[family]:
                    labels[index] = SeatLabel(None, round(ratings.level_mu(family, level.name), 1))
                continue
            claim = claims.get((table_id, index))
            account_id, name = claim if claim is not None else firsts.get((table_id, index), (None, None))
            if account_id is not None and name:
                mu, sigma, matches = rated.get((account_id, family), (ratings.MODEL.mu, ratings.MODEL.sigma, 0))
                person = ratings.Rated(name, mu, sigma, matches, False)
                label = SeatLabel(name, round(mu, 1), person.provisional)
            elif claim is not None:  # a guest took the seat in the lobby
                label = SeatLabel(GUEST)
            else:
                continue
            if label.name != shown[index]:
                label = SeatLabel(_unique(label.name or GUEST, shown, index), label.rating, label.provisional)
                shown[index] = label.name or ""
            labels[index] = label
        found[table_id] = labels
    return found


def claim_creators(storage: Storage, specs: Mapping[str, Mapping[str, Any]], now: float | None = None) -> int:
    """Give the creator's seat of a room table (public or rated: its first person's seat) to the account of the
    first browser welcomed to it, when that browser is signed in: the seat is then claimed as a seat taken in the
    lobby is (``room_seats``), so the lobby, the table and the history all show the account's name, not the
    name typed when the table was made, and the lobby its rating.  How many seats were claimed."""
    creators: dict[str, int] = {}
    for table_id, spec in specs.items():
        humans = [i for i, seat in enumerate(spec["seats"]) if seat["kind"] == "human"]
        if spec.get("room") and humans:
            creators[table_id] = humans[0]
    if not creators:
        return 0
    ids = list(creators)
    claimed: set[tuple[str, int]] = set()
    firsts: dict[tuple[str, int], tuple[str | None, str | None, str | None]] = {}
    with storage.transaction(write=False) as execute:
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start:start + CHUNK]
            marks = ", ".join("?" for _ in chunk)
            for table_id, seat in execute(f"SELECT table_id, seat FROM room_seats WHERE table_id IN ({marks})",
                                          chunk).fetchall():
                claimed.add((table_id, int(seat)))
            for table_id, seat, browser_hash, account_id, name in execute(
                    f"SELECT bt.table_id, bt.seat, bt.browser_hash, b.account_id, a.name FROM browser_tables bt "
                    f"LEFT JOIN browsers b ON b.browser_hash = bt.browser_hash "
                    f"LEFT JOIN accounts a ON a.id = b.account_id WHERE bt.table_id IN ({marks}) ORDER BY bt.at",
                    chunk).fetchall():
                firsts.setdefault((table_id, int(seat)), (browser_hash, account_id, name))
    todo = []
    for table_id, seat in creators.items():
        browser_hash, account_id, name = firsts.get((table_id, seat), (None, None, None))
        if (table_id, seat) not in claimed and account_id is not None and name:
            todo.append((table_id, seat, account_id, browser_hash, name))
    if not todo:
        return 0
    now = time.time() if now is None else now
    with storage.transaction() as execute:
        for table_id, seat, account_id, browser_hash, name in todo:
            execute("INSERT INTO room_seats (table_id, seat, open, account_id, browser_hash, name, at) "
                    "VALUES (?, ?, 0, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO NOTHING",
                    (table_id, seat, account_id, browser_hash, name, now))
    return len(todo)


def _unique(name: str, shown: list[str], index: int) -> str:
    """``name``, numbered (``Guest 2``) when another seat of the table shows it already."""
    others = {n.casefold() for i, n in enumerate(shown) if i != index}
    candidate, number = name, 2
    while candidate.casefold() in others:
        candidate, number = f"{name} {number}", number + 1
    return candidate


async def refresh(service: Any, tables: Sequence[ServedTable]) -> int:
    """Read the labels of these tables in memory; tell each table whose labels changed.  How many changed."""
    if not tables:
        return 0
    store = service.storage
    rooms = {t.id: t.spec for t in tables if t.spec.get("room")}
    if rooms:
        await store.run(claim_creators, store.storage, rooms)
    found = await store.run(seat_labels, store.storage, {t.id: t.spec for t in tables})
    changed = 0
    for table in tables:
        labels = found.get(table.id, {})
        if labels != table.labels:
            table.labels = labels
            service.broadcast(table)
            changed += 1
    return changed


async def refresh_one(service: Any, table_id: str) -> int:
    """:func:`refresh` for one table, when this process holds it in memory."""
    table = service.tables.get(table_id)
    return 0 if table is None else await refresh(service, [table])


async def refresh_connected(service: Any) -> int:
    """:func:`refresh` for every table in memory with a connection (the room's job every few seconds)."""
    return await refresh(service, [t for t in list(service.tables.values()) if t.connections])
