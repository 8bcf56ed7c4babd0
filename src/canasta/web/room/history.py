"""Finished matches: recorded when a match ends at a table, listed per player, shown by a shareable link.

Every table's finished match is kept (``matches``, ``match_players``; docs/room.md "History"): its family,
preset, whether it was rated and public, when, the game record (every hand's deck and moves, for the
replays), and per seat its side, its person (an account's id, or a guest's browser key hash), its name, the
side's final score and place, whether the person left, and, in a rated match, the rating before and after
(through :func:`.ratings.record_match`).  Who sat where comes from the room's own seats
(:mod:`.lobby`, :mod:`.quickmatch`: ``room_seats``) or else from the browsers welcomed to each seat
(``browser_tables``), the account each is linked to.  What leaves the server (:func:`history`,
:func:`match_summary`, :func:`hand_replay`, :func:`hand_viewer`) holds no deck: a finished match's hands are
all over, so a replay shows them as a spectator's replay of a finished hand does
(:func:`canasta.web.replay.replay_hand`), and a record whose match is not over is never shown.  The review of
a seat's decisions made at the table goes to the person who played that seat only (:func:`hand_viewer`).

>>> side_result(1, [1, 2])
'won'
>>> side_result(1, [1, 1])
'tied'
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...bots.levels import find_level
from ...errors import CanastaError
from ...match import SEEDING, Match
from ...rules import Rules
from ..replay import replay_hand
from ..storage import Storage
from . import ratings

Execute = Callable[[str, Sequence[Any]], Any]
DELETED = "deleted player"
HISTORY_LIMIT = 50
"""Matches :func:`history` lists (the newest); the totals count every match."""


@dataclass(frozen=True)
class Person:
    """Who played a seat: an account or a guest's browser (its key's hash), and the name shown."""

    name: str
    account_id: str | None = None
    browser_hash: str | None = None


def side_result(rank: int, ranks: Sequence[int]) -> str:
    """``won``, ``tied`` (first with another side) or ``lost``, from a side's place among every side's."""
    if rank != 1:
        return "lost"
    return "tied" if sum(1 for r in ranks if r == 1) > 1 else "won"


def seated_people(execute: Execute, table_id: str) -> dict[int, Person]:
    """The people of a table's seats: the room's claim of a seat first, else the first browser welcomed to it."""
    people: dict[int, Person] = {}
    for seat, account_id, browser_hash, name in execute(
            "SELECT seat, account_id, browser_hash, name FROM room_seats WHERE table_id = ? AND open = 0",
            (table_id,)).fetchall():
        people[int(seat)] = Person(name or "", account_id, browser_hash)
    for seat, browser_hash, account_id, name in execute(
            "SELECT bt.seat, bt.browser_hash, b.account_id, a.name FROM browser_tables bt "
            "LEFT JOIN browsers b ON b.browser_hash = bt.browser_hash LEFT JOIN accounts a ON a.id = b.account_id "
            "WHERE bt.table_id = ? ORDER BY bt.at", (table_id,)).fetchall():
        if int(seat) not in people:
            people[int(seat)] = Person(name or "", account_id, browser_hash)
    return people


def record_table(storage: Storage, table_id: str, spec: dict[str, Any], record: dict[str, Any], match_no: int,
                 left: frozenset[int], now: float | None = None) -> str | None:
    """Record a table's finished match (``record``: :meth:`~canasta.match.Match.to_record` once it is over); a
    rated one updates its people's ratings.  ``left``: the people's seats left to the computer at the end (a
    rated match counts as lost for them).  The match's id; None when this match was recorded already."""
    now = time.time() if now is None else now
    rules = Rules.parse(spec["rules"])
    room = spec.get("room") or {}
    rated, public = bool(room.get("rated")), bool(room.get("public"))
    with storage.transaction(write=False) as execute:
        if execute("SELECT 1 FROM matches WHERE table_id = ? AND match_no = ?", (table_id, match_no)).fetchone():
            return None
        people = seated_people(execute, table_id)
    seats = spec["seats"]
    order = [seat for side in range(rules.sides) for seat in range(rules.players) if rules.side_of(seat) == side]
    teams: list[list[ratings.Participant]] = [[] for _ in range(rules.sides)]
    browsers: list[str | None] = []
    for seat in order:
        kind, name = seats[seat]["kind"], seats[seat]["name"]
        person = people.get(seat)
        level = find_level(kind)
        if kind == "human":
            teams[rules.side_of(seat)].append(ratings.Participant(
                person.name if person is not None and person.name else name,
                person.account_id if person is not None else None, left=seat in left))
            browsers.append(person.browser_hash if person is not None else None)
        else:
            teams[rules.side_of(seat)].append(ratings.Participant(name, level=level.name if level is not None
                                                                  else None))
            browsers.append(None)
    scores = [int(s) for s in record["final_scores"]]
    family = ratings.family_of(rules)
    if rated and any(p.level is None and p.account_id is None and not seats[seat]["kind"] == "human"
                     for seat, p in zip(order, [p for team in teams for p in team], strict=True)):
        rated = False  # a computer player that is no level has no rating: the match is kept as casual
    extra = (match_no, public, json.dumps(record | {"seats": seats}, separators=(",", ":")),
             len(record["hands"]), order, browsers)
    if rated:
        made: list[str] = []

        def write(execute: Execute, match_id: str) -> None:
            made.append(match_id)
            _write_extra(execute, match_id, *extra)

        ratings.record_match(storage, family, rules.preset, teams, scores, table_id, now, also=write)
        return made[0]
    match_id = secrets.token_hex(8)
    places = ratings.ranks(scores, [any(p.left for p in team) for team in teams])
    with storage.transaction() as execute:
        execute("INSERT INTO matches (id, family, preset, table_id, rated, finished) VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, family, rules.preset, table_id, 0, now))
        place = 0
        for index, team in enumerate(teams):
            for p in team:
                execute("INSERT INTO match_players (match_id, place, team, account_id, level, name, score, rank, "
                        "left_early) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (match_id, place, index, p.account_id, p.level, p.name, scores[index], places[index],
                         int(p.left)))
                place += 1
        _write_extra(execute, match_id, *extra)
    return match_id


def _write_extra(execute: Execute, match_id: str, match_no: int, public: bool, text: str, hands: int,
                 order: list[int], browsers: list[str | None]) -> None:
    """What the history adds to a match's rows (step 4): the table's match number, public, the record, the seats."""
    execute("UPDATE matches SET match_no = ?, public = ?, record = ?, hands = ? WHERE id = ?",
            (match_no, int(public), text, hands, match_id))
    for place, seat in enumerate(order):
        execute("UPDATE match_players SET seat = ?, browser_hash = ? WHERE match_id = ? AND place = ?",
                (seat, browsers[place], match_id, place))


_MINE = ("(mp.account_id = ? OR mp.browser_hash = ? OR "
         "mp.browser_hash IN (SELECT browser_hash FROM browsers WHERE account_id = ?))")


def history(storage: Storage, account_id: str | None, browser_hash: str | None,
            limit: int = HISTORY_LIMIT) -> dict[str, Any]:
    """A player's finished matches, newest first (an account's, with those of the browsers linked to it; else one
    browser's), each with its game, partners, opponents, result and rating change, and the totals."""
    with storage.transaction(write=False) as execute:
        rows = execute(
            "SELECT m.id, m.family, m.preset, m.rated, m.finished, m.hands, mp.team, mp.score, mp.rank, "
            "mp.mu_before, mp.mu_after, mp.seat, tt.tournament_id, tt.number FROM matches m "
            "JOIN match_players mp ON mp.match_id = m.id LEFT JOIN tournament_tables tt ON tt.table_id = m.table_id "
            f"WHERE m.record IS NOT NULL AND {_MINE} ORDER BY m.finished DESC, m.id, mp.place",
            (account_id, browser_hash, account_id)).fetchall()
        mine: dict[str, Any] = {}
        for row in rows:
            mine.setdefault(row[0], row)  # a guest who played two seats of one match: the first
        shown = list(mine)[:limit]
        players: dict[str, list[Any]] = {}
        if shown:
            marks = ", ".join("?" for _ in shown)
            for row in execute(f"SELECT match_id, team, name, level, rank, left_early, seat FROM match_players "
                               f"WHERE match_id IN ({marks}) ORDER BY place", shown).fetchall():
                players.setdefault(row[0], []).append(row)
        tournaments = _tournaments(execute, sorted({str(mine[m][12]) for m in shown if mine[m][12] is not None}))
    wins = points = hands = total = 0
    entries: list[dict[str, Any]] = []
    for match_id, row in mine.items():
        _, family, preset, rated, finished, count, team, score, rank, mu_before, mu_after, seat, tid, _ = row
        everyone = players.get(match_id, [])
        side_ranks = {int(p[1]): int(p[4]) for p in everyone} | {int(team): int(rank)}
        result = side_result(int(rank), list(side_ranks.values()))
        if tid is None:  # a tournament table's match plays boards, not to a target: not in the totals
            total += 1
            wins += result == "won"
            points += int(score)
            hands += int(count or 0)
        if match_id not in shown:
            continue
        if tid is not None:
            entries.append(_tournament_entry(match_id, row, tournaments.get(str(tid)), everyone))
            continue
        entries.append({
            "id": match_id, "link": f"/match/{match_id}", "family": family, "preset": preset, "rated": bool(rated),
            "finished": float(finished), "hands": int(count or 0), "score": int(score), "result": result,
            "partners": [_who(p) for p in everyone if p[1] == team and p[6] != seat],
            "opponents": [_who(p) for p in everyone if p[1] != team],
            "rating_change": None if mu_before is None or mu_after is None or not rated
            else round(float(mu_after) - float(mu_before), 2),
        })
    return {"matches": entries, "totals": {
        "matches": total, "won": wins, "win_rate": round(wins / total, 3) if total else None,
        "points_per_hand": round(points / hands, 1) if hands else None}}


def _tournaments(execute: Execute, ids: Sequence[str]) -> dict[str, tuple[str, bool]]:
    """These tournaments' names, and whether each is over (every table's match over, or every round's time up:
    the rule of the public list, :func:`canasta.web.tournaments.routes.public_tournaments`)."""
    found: dict[str, tuple[str, bool]] = {}
    for tournament_id in ids:
        row = execute("SELECT t.spec, t.closed, count(tt.table_id), sum(CASE WHEN s.status = 'over' THEN 1 ELSE 0 END) "
                      "FROM tournaments t JOIN tournament_tables tt ON tt.tournament_id = t.id "
                      "LEFT JOIN tables s ON s.id = tt.table_id WHERE t.id = ? GROUP BY t.spec, t.closed",
                      (tournament_id,)).fetchone()
        if row is None:
            continue
        spec = json.loads(row[0])
        closed = json.loads(row[1]) if row[1] else []
        rounds = int(spec.get("format", {}).get("rounds", 1))
        closed_rounds = len(closed) if closed and isinstance(closed[0], list) else (1 if closed else 0)
        over = int(row[3] or 0) == int(row[2]) or closed_rounds >= rounds
        found[tournament_id] = (str(spec.get("name") or f"Tournament {tournament_id}"), over)
    return found


def _tournament_entry(match_id: str, row: Sequence[Any], tournament: tuple[str, bool] | None,
                      everyone: Sequence[Any]) -> dict[str, Any]:
    """A tournament table's match in the history: the tournament, the table and the side's entry (``2A``), with a
    link to the tournament's page; never a score or a won/lost (each board starts from its own totals: the
    entry's matchpoint percentage, added by the route, :func:`.play_routes.my_history`, is its result), and
    while the tournament runs not even the hands (another table may not have played those boards yet); once it
    is over, the link of the table's first board in the tournament's own replay."""
    _, family, preset, _, finished, count, team, _, _, _, _, seat, tid, number = row
    name, over = tournament if tournament is not None else (f"Tournament {tid}", False)
    table = int(number) + 1
    return {
        "id": match_id, "link": f"/tournament/{tid}", "family": family, "preset": preset, "rated": False,
        "finished": float(finished), "hands": int(count or 0) if over else None,
        "score": None, "result": None,  # a board starts from its own totals: the match's score means nothing
        "partners": [_who(p) for p in everyone if p[1] == team and p[6] != seat],
        "opponents": [_who(p) for p in everyone if p[1] != team], "rating_change": None,
        "tournament": {"id": tid, "name": name, "table": table, "entry": f"{table}{chr(ord('A') + int(team))}",
                       "over": over, "percent": None, "rank": None,
                       "board_link": f"/tournament/{tid}/table/{table}/board/1" if over else None},
    }


def _who(row: Sequence[Any]) -> dict[str, Any]:
    return {"name": row[2], "computer": row[3] is not None, "left": bool(row[5])}


def _record(storage: Storage, match_id: str) -> tuple[list[Any], dict[str, Any], list[Any]] | None:
    if not match_id.isalnum() or len(match_id) > 32:
        return None
    with storage.transaction(write=False) as execute:
        row = execute("SELECT id, family, preset, rated, finished, public, record FROM matches WHERE id = ? "
                      "AND table_id NOT IN (SELECT table_id FROM tournament_tables)", (match_id,)).fetchone()
        if row is None or row[6] is None:
            return None
        players = execute("SELECT team, name, level, score, rank, left_early, seat, mu_before, mu_after "
                          "FROM match_players WHERE match_id = ? ORDER BY place", (match_id,)).fetchall()
    return list(row), json.loads(row[6]), players


def match_summary(storage: Storage, match_id: str) -> dict[str, Any] | None:
    """A finished match as its shared link shows it: the sides, their final scores and places, and each hand's
    public result (no deck, no card that was hidden: the hands' results are what the hand-end dialog shows)."""
    found = _record(storage, match_id)
    if found is None:
        return None
    row, record, players = found
    if record.get("winner") is None:  # only a finished match is shown
        return None
    rules = Rules.parse(record["rules"])
    sides: list[dict[str, Any]] = []
    for side in range(rules.sides):
        members = [p for p in players if int(p[0]) == side]
        if not members:
            continue
        sides.append({"side": side, "score": int(members[0][3]), "rank": int(members[0][4]),
                      "players": [{"seat": p[6], "name": p[1], "computer": p[2] is not None, "left": bool(p[5]),
                                   "rating_change": None if p[7] is None or p[8] is None or not row[3]
                                   or p[2] is not None else round(float(p[8]) - float(p[7]), 2)}
                                  for p in members]})
    ranks = [s["rank"] for s in sides]
    for entry in sides:
        entry["result"] = side_result(entry["rank"], ranks)
    hands: list[dict[str, Any]] = []
    running = list(record.get("scores") or [0] * rules.sides)
    for number, hand in enumerate(record["hands"]):
        result = hand.get("result")
        totals = list(result.get("totals", [])) if isinstance(result, dict) else []
        if not totals and isinstance(result, dict):
            totals = [int(side.get("total", 0)) for side in result.get("sides", [])]
        if len(totals) == len(running):
            running = [a + b for a, b in zip(running, totals, strict=True)]
        hands.append({"hand": number + 1, "dealer": hand.get("dealer"), "totals": totals, "scores": list(running),
                      "moves": len(hand.get("moves", []))})
    return {"id": row[0], "family": row[1], "title": ratings.FAMILIES.get(row[1], row[1]), "preset": row[2],
            "rated": bool(row[3]), "finished": float(row[4]), "target": rules.target,
            "seats": [{"seat": i, "name": _seat_name(players, i, s)} for i, s in enumerate(record.get("seats", []))],
            "players": [_seat_name(players, i, s) for i, s in enumerate(record.get("seats", []))],
            "sides": sides, "final_scores": record.get("final_scores"), "hands": hands}


def _seat_name(players: Sequence[Any], seat: int, spec: dict[str, Any]) -> str:
    for p in players:
        if p[6] == seat:
            return str(p[1])
    return str(spec.get("name", f"seat {seat + 1}"))


def _finished(record: dict[str, Any]) -> Match | None:
    """The record's match replayed, when it is over (a side has won); None for a match still going on, or a
    record that does not replay.  Only a finished match's hands are ever shown, every one face up."""
    if record.get("winner") is None:
        return None
    try:
        match = Match.from_record(record, record.get("seeding", SEEDING))
    except (CanastaError, ValueError):
        return None
    return match if match.is_over else None


REPLAYS_KEPT = 64
"""Hands of finished matches kept replayed (a finished hand never changes), the oldest forgotten first."""
_replays: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
_replays_lock = threading.Lock()


def _replayed(match_id: str, number: int, record: dict[str, Any]) -> dict[str, Any] | None:
    """Hand ``number`` (from 1) of a finished match's record, replayed face up (:func:`replay_hand`; kept, so the
    match is replayed once for its hands, not once per request); None when the match is not over."""
    key = (match_id, number)
    with _replays_lock:
        found = _replays.get(key)
        if found is not None:
            _replays.move_to_end(key)
            return dict(found)
    match = _finished(record)
    if match is None:
        return None
    data = replay_hand(match, number - 1, None)
    with _replays_lock:
        _replays[key] = data
        while len(_replays) > REPLAYS_KEPT:
            _replays.popitem(last=False)
    return dict(data)


def hand_replay(storage: Storage, match_id: str, number: int) -> dict[str, Any] | None:
    """Hand ``number`` (from 1) of a finished match, replayed as a spectator replays a finished hand (every hand
    face up: it is over); None when there is no such finished match or hand."""
    found = _record(storage, match_id)
    if found is None:
        return None
    record = found[1]
    if not 1 <= number <= len(record["hands"]):
        return None
    data = _replayed(match_id, number, record)
    if data is None:
        return None
    data["players"] = [_seat_name(found[2], i, s) for i, s in enumerate(record.get("seats", []))]
    return data


def viewer_seats(storage: Storage, match_id: str, account_id: str | None, browser_hash: str | None) -> list[int]:
    """The seats of a match that this viewer played: their account's, or their browser's (a guest's, or a
    browser linked to their account), as :func:`history` finds a player's matches."""
    with storage.transaction(write=False) as execute:
        rows = execute(f"SELECT mp.seat FROM match_players mp WHERE mp.match_id = ? AND mp.seat IS NOT NULL "
                       f"AND {_MINE} ORDER BY mp.place", (match_id, account_id, browser_hash, account_id)).fetchall()
    return [int(row[0]) for row in rows]


def hand_viewer(storage: Storage, match_id: str, number: int, account_id: str | None = None,
                browser_hash: str | None = None) -> dict[str, Any] | None:
    """Hand ``number`` (from 1) of a finished match for the table replay (``static/room/replay.js``, drawing with
    the game page's own review, ``static/game/review.js``): :func:`hand_replay` (every hand face up) with the
    table it was played at (``table``: the seats' names as the history shows them, the sides, target, rules),
    the match's hand count, and, when this viewer (account or browser key) played a seat, ``viewer`` (that seat)
    and ``review``, the stored review of that seat's decisions in the hand, if one was made at the table.
    Nobody else's review is given.  None when there is no such finished match or hand."""
    found = _record(storage, match_id)
    if found is None:
        return None
    row, record, players = found
    if not 1 <= number <= len(record["hands"]):
        return None
    data = _replayed(match_id, number, record)
    if data is None:
        return None
    rules = Rules.parse(record["rules"])
    final = [int(score) for score in record["final_scores"]]
    names = [_seat_name(players, i, s) for i, s in enumerate(record.get("seats", []))]
    names += [f"Seat {i + 1}" for i in range(len(names), rules.players)]
    kinds = [str(s.get("kind", "human")) for s in record.get("seats", [])]
    kinds += ["human"] * (rules.players - len(kinds))
    data["players"] = names
    data["id"] = row[0]
    data["hands"] = len(record["hands"])
    data["finished"] = float(row[4])
    data["preset"] = row[2]
    data["table"] = {
        "players": [{"seat": i, "name": names[i], "kind": kinds[i]} for i in range(rules.players)],
        "sides": [[seat for seat in range(rules.players) if rules.side_of(seat) == side]
                  for side in range(rules.sides)],
        "target": rules.target, "rules": rules.to_json(), "final_scores": final, "winner": record["winner"]}
    mine = viewer_seats(storage, match_id, account_id, browser_hash) if account_id or browser_hash else []
    data["viewer"] = mine[0] if mine else None
    data["review"] = None
    table_id, match_no = _table_of(storage, match_id)
    if mine and table_id is not None and match_no is not None:
        for seat in mine:
            stored = storage.review(table_id, match_no, number - 1, seat)
            if stored is not None:
                data["viewer"], data["review"] = seat, json.loads(stored)
                break
    return data


def matches_of_table(storage: Storage, table_id: str) -> dict[int, str]:
    """The finished matches recorded at a table, by its match number (1 for the first): their ids, so another
    page (a tournament's) can link a finished table's hands to ``/match/{id}/hand/{n}``."""
    with storage.transaction(write=False) as execute:
        rows = execute("SELECT match_no, id FROM matches WHERE table_id = ? AND record IS NOT NULL "
                       "AND match_no IS NOT NULL", (table_id,)).fetchall()
    return {int(no): str(match_id) for no, match_id in rows}


def _table_of(storage: Storage, match_id: str) -> tuple[str | None, int | None]:
    """The table a match was played at and its match number there (the key of the table's stored reviews)."""
    with storage.transaction(write=False) as execute:
        row = execute("SELECT table_id, match_no FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        return None, None
    return row[0], None if row[1] is None else int(row[1])
