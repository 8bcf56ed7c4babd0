"""Creating a duplicate tournament on the server, and what each requester may see of it.

:func:`parse_request` reads an organiser's request; :meth:`TournamentService.create` makes one served
table per tournament table (its match a :class:`.boards.BoardMatch`, every table dealt board 1 at
once) and keeps the tournament (:mod:`.store`).  The results are the tables' own: each table's
played boards are the hands of its match, replayed from its events, so a restarted server finds
them where they were.  :meth:`TournamentService.view` builds the one message a requester gets: a
board's results (and the standings they make) only once the requester's table has played it, or,
for anyone not seated (the organiser included), once every table has; never a card, a deck or the
seed.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...bots.tournament import BoardResult, Scoreboard, Tournament, TournamentError
from ...bots.tournament.spec import schedule_of_minimums
from ...play import parse_seats
from ..limits import Limits
from ..requests import (
    AWAY_MINUTES,
    MAX_AWAY_MINUTES,
    MAX_TURN_SECONDS,
    RequestError,
    TableRequest,
    check_search,
    check_web_rules,
    rules_from_request,
)
from ..security import token_hash
from . import store
from .boards import BoardMatch

if TYPE_CHECKING:
    from ..served import ServedTable
    from ..service import TableService

FIELDS = ("name", "preset", "options", "tables", "boards", "rounds", "minimums", "schedule", "public",
          "away_minutes", "turn_seconds", "round_minutes")
"""The fields of a ``POST /api/tournaments`` body."""
MAX_WEB_TABLES, MAX_WEB_BOARDS = 50, 200
"""The most tables and boards one tournament may have on the server."""
MAX_NAME = 60
"""The longest name a tournament may have."""
CLOSE_EVERY = 5.0
"""Seconds between two looks for tournament rounds whose time is up (:meth:`TournamentService.close_due`)."""
SLOW_PERCENT = 40
"""The artificial score of each side of a table that had not played a board when the round time was up
(average-minus: the table was too slow)."""


@dataclass(frozen=True)
class TournamentRequest:
    """A new tournament as its organiser asked for it, checked (the server chooses the seed: nobody knows it)."""

    tournament: Tournament
    public: bool
    away_minutes: float
    turn_seconds: float
    round_minutes: float = 0.0
    """Minutes for each round (0: no limit): round ``r`` ends ``(r + 1) * round_minutes`` after the start; a
    board of the round a table has not played by then is scored for it as :data:`SLOW_PERCENT`, and its result
    played later does not count."""
    name: str = ""
    """The tournament's name, as its pages and the lobby show it ("" : "Tournament" and its id)."""


def _number(body: dict[str, Any], name: str, default: float, most: float) -> float:
    value = body.get(name, default)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= most:
        raise RequestError(f"{name} must be a number from 0 to {most:g}")
    return float(value)


def parse_request(body: object, limits: Limits | None = None, seed: int | None = None) -> TournamentRequest:
    """An organiser's ``POST /api/tournaments`` body read: a :class:`~..requests.RequestError` (or another
    :class:`~canasta.errors.CanastaError`) in one sentence when it is wrong.

    >>> r = parse_request({"boards": 2, "tables": [["expert"] * 4, ["human:Ann", None, "human", "basic"]],
    ...                    "minimums": [50, 90]})
    >>> r.tournament.board(1).minimums, r.tournament.tables[1], r.public
    ((90, 90), ('human:Ann', None, 'human', 'basic'), False)
    """
    if not isinstance(body, dict):
        raise RequestError("the request must be a JSON object")
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise RequestError(f"unknown field {unknown[0][:40]!r} ({', '.join(FIELDS)})")
    rules = rules_from_request(body.get("preset", "classic"), body.get("options"), None)
    if limits is not None:
        check_web_rules(rules)
    tables = body.get("tables")
    if not isinstance(tables, list) or not all(isinstance(t, list) for t in tables):
        raise RequestError("tables are a list of tables, each a list of seats (a player's word, or null: open)")
    if not 2 <= len(tables) <= MAX_WEB_TABLES:
        raise RequestError(f"a tournament here has 2 to {MAX_WEB_TABLES} tables")
    boards = body.get("boards")
    if not isinstance(boards, int) or isinstance(boards, bool) or not 1 <= boards <= MAX_WEB_BOARDS:
        raise RequestError(f"boards must be a whole number from 1 to {MAX_WEB_BOARDS}")
    rounds = body.get("rounds", 1)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= boards:
        raise RequestError(f"rounds must be a whole number from 1 to the number of boards ({boards})")
    if boards % rounds:
        raise RequestError(f"{boards} boards do not split into {rounds} rounds of equal size")
    name = body.get("name", "")
    if not isinstance(name, str) or len(name.strip()) > MAX_NAME or any(not c.isprintable() for c in name):
        raise RequestError(f"the name is text of at most {MAX_NAME} characters, on one line")
    for number, table in enumerate(tables):
        if not all(word is None or isinstance(word, str) for word in table):
            raise RequestError(f"table {number + 1}: a seat is a player's word or null (open)")
        words = [word if word is not None else "human" for word in table]
        for seat in parse_seats(words, rules, shared=True):  # a SeatError in one sentence
            if limits is not None and not seat.is_human:
                check_search(seat.kind, limits)
    if "minimums" in body and "schedule" in body:
        raise RequestError("give minimums or a schedule, not both")
    schedule: Any = body.get("schedule", [])
    if "minimums" in body:
        minimums = body["minimums"]
        if not isinstance(minimums, list) or not minimums or not all(
                isinstance(m, int) or (isinstance(m, list) and all(isinstance(x, int) for x in m)) for m in minimums):
            raise RequestError("minimums are a list: one first-meld minimum per board (or a list, one per side)")
        schedule = [list(s) for s in schedule_of_minimums(rules, minimums)]
    if not isinstance(schedule, list) or not all(isinstance(s, list) for s in schedule):
        raise RequestError("the schedule is a list of side totals per board")
    tournament = Tournament(rules, tuple(tuple(t) for t in tables), boards,
                            seed if seed is not None else secrets.randbits(63),
                            schedule=tuple(tuple(s) for s in schedule), rounds=rounds,
                            movement="fixed")  # people keep their seat links: nobody moves
    public = body.get("public", False)
    if not isinstance(public, bool):
        raise RequestError("public is true or false")
    return TournamentRequest(tournament, public, _number(body, "away_minutes", AWAY_MINUTES, MAX_AWAY_MINUTES),
                             _number(body, "turn_seconds", 0, MAX_TURN_SECONDS),
                             _number(body, "round_minutes", 0, MAX_AWAY_MINUTES), " ".join(name.split()))


class TournamentService:
    """The tournaments of a server: created over the tables' service, seen through :meth:`view`."""

    def __init__(self, tables: TableService, clock: Callable[[], float] = time.time) -> None:
        self.tables = tables
        self.clock = clock
        """Wall-clock seconds (tests replace it): when the round time is up."""

    async def create(self, request: TournamentRequest, organiser: str | None = None) -> dict[str, Any]:
        """Make the tournament's tables and keep it; the answer holds every table's seat links (only here)."""
        t = request.tournament
        tournament_id = secrets.token_urlsafe(9)
        answers = []
        for number, words in enumerate(t.tables):
            seats = parse_seats([w if w is not None else "human" for w in words], t.rules, shared=True)
            table_request = TableRequest(t.rules, tuple(seats), request.away_minutes, request.turn_seconds)
            answer = await self.tables.create(table_request, {"tournament": {
                "id": tournament_id, "table": number, "format": t.to_json()}})
            # No spectator link: a spectator replays a finished board face up, while other tables may still play it.
            answers.append({"table": number, "table_id": answer["table"], "seats": answer["seats"]})
        spec = {"format": t.to_json(), "away_minutes": request.away_minutes, "turn_seconds": request.turn_seconds,
                "round_minutes": request.round_minutes, "name": request.name}
        storage = self.tables.storage
        open_seats = [(n, seat) for n, words in enumerate(t.tables) for seat, word in enumerate(words)
                      if word is None] if request.public else []
        await storage.run(store.save, storage.storage, tournament_id, organiser, request.public, spec,
                          [a["table_id"] for a in answers], self.clock(), open_seats)
        return {"tournament": tournament_id, "name": request.name or f"Tournament {tournament_id}",
                "link": f"/tournament/{tournament_id}", "tables": answers}

    async def view(self, tournament_id: str, token: str | None = None) -> dict[str, Any] | None:
        """What the holder of ``token`` (a person's seat link at one of its tables; None: anyone, the organiser
        included) may see; None when there is no such tournament."""
        storage = self.tables.storage
        found = await storage.run(store.load, storage.storage, tournament_id)
        if found is None:
            return None
        table_ids = found.table_ids
        t = Tournament.from_json(found.spec["format"])
        served: list[ServedTable | None] = [await self.tables.get(table_id) for table_id in table_ids]
        played = [_totals(table) for table in served]
        minutes = float(found.spec.get("round_minutes", 0))
        per_round = t.boards_per_round
        closed = await self._close_rounds(tournament_id, found, t, played)
        # A board of a round whose time is up counts where its table had played it by then; else it is late.
        counted = [[b < len(p) and (b // per_round >= len(closed) or b < closed[b // per_round][n])
                    for b in range(t.boards)] for n, p in enumerate(played)]
        late = [[b // per_round < len(closed) and not counted[n][b] for b in range(t.boards)]
                for n in range(len(played))]
        done = [[c or lt for c, lt in zip(cs, ls)] for cs, ls in zip(counted, late)]
        mine: int | None = None
        if token:
            hashed = token_hash(token)
            for number, table_id in enumerate(table_ids):
                known, seat = await storage.token_seat(table_id, hashed)
                if known and seat is not None:
                    mine = number
                    break
        everywhere = _prefix([all(d[b] for d in done) for b in range(t.boards)])
        visible = max(_prefix(done[mine]), everywhere) if mine is not None else everywhere
        scoreboard = Scoreboard(t)
        for number, totals in enumerate(played):
            for board in range(visible):
                if counted[number][board]:
                    scoreboard.record(BoardResult(board, number, totals[board]))
                elif late[number][board]:
                    scoreboard.adjust(board, number, (SLOW_PERCENT,) * t.rules.sides)
        over = everywhere == t.boards
        seats_open: list[tuple[int, int]] = []
        if found.public and not over:  # anybody signed in may take one (routes: POST .../seats/S)
            seats_open = await storage.run(store.open_seats, storage.storage, table_ids)
        tables = []
        for number, table in enumerate(served):
            count = len(played[number])  # the board in play is the next after those played, counted or late
            entry: dict[str, Any] = {"table": number, "played": sum(counted[number]),
                                     "board": None if over or count == t.boards else count,
                                     "late": sum(late[number]), "stopped": over and any(late[number]),
                                     "players": list(t.players(0, number)), "away": []}
            if table is not None:
                entry["players"] = [_seat_name(table, seat.index) for seat in table.seats]
                entry["away"] = sorted(table.driver.stand_ins & {s.index for s in table.seats if s.is_human})
            tables.append(entry)
        return {
            "tournament": tournament_id, "name": found.spec.get("name") or f"Tournament {tournament_id}",
            "preset": t.rules.preset, "boards": t.boards, "rounds": t.rounds, "boards_per_round": per_round,
            "tables": tables, "your_table": mine, "visible_boards": visible, "over": over, "public": found.public,
            "open_seats": [{"table": n, "seat": seat} for n, seat in seats_open],
            "round_minutes": minutes, "rounds_closed": len(closed),
            "ends": found.created + 60 * minutes * t.rounds if minutes else None,
            "round_ends": [found.created + 60 * minutes * (r + 1) for r in range(t.rounds)] if minutes else None,
            "minimums": [list(t.board(b).minimums) for b in range(t.boards)],
            "standings": [_named(s.to_json(), t, served) for s in scoreboard.standings()] if visible else [],
            "board_scores": [[s.to_json() for s in scoreboard.board_scores(b)] for b in range(visible)],
        }

    async def _close_rounds(self, tournament_id: str, found: store.Stored, t: Tournament,
                            played: list[list[tuple[int, ...]]]) -> list[list[int]]:
        """Close each round whose time is up (at the boards each table has played now): the rounds closed."""
        storage = self.tables.storage
        minutes = float(found.spec.get("round_minutes", 0))
        closed = found.closed

        def end(number: int) -> float:
            return found.created + 60 * minutes * (number + 1)

        while (minutes and len(closed) < t.rounds and self.clock() >= end(len(closed))
               and any(len(p) < t.boards for p in played)):
            number = len(closed)
            closed = await storage.run(store.close, storage.storage, tournament_id, number, [len(p) for p in played],
                                       end(number + 1) if number + 1 < t.rounds else None)
        return closed

    async def close_due(self) -> int:
        """Close the rounds whose time is up, whether anybody looks at their tournament or not (the server's job
        every :data:`CLOSE_EVERY` seconds: one query when no round is due), so a late table's board is scored as
        late at the round's end.  How many tournaments were looked at."""
        storage = self.tables.storage
        now = self.clock()
        ids = await storage.run(store.due, storage.storage, now)
        for tournament_id in ids:
            found = await storage.run(store.load, storage.storage, tournament_id)
            if found is None:
                continue
            t = Tournament.from_json(found.spec["format"])
            played = [_totals(await self.tables.get(table_id)) for table_id in found.table_ids]
            closed = await self._close_rounds(tournament_id, found, t, played)
            if (not found.spec.get("round_minutes") or len(closed) >= t.rounds
                    or all(len(p) >= t.boards for p in played)):
                await storage.run(store.settle, storage.storage, tournament_id, None)  # nothing left to close
        return len(ids)

    async def replay(self, tournament_id: str, table: int, board: int) -> dict[str, Any] | None:
        """Board ``board`` (from 0) as table ``table`` played it, every hand face up: once the tournament is over
        and no table is in the middle of that board; None otherwise (or when there is no such board)."""
        storage = self.tables.storage
        found = await storage.run(store.load, storage.storage, tournament_id)
        if found is None or not 0 <= table < len(found.table_ids):
            return None
        view = await self.view(tournament_id)
        if view is None or not view["over"] or not 0 <= board < view["boards"]:
            return None
        served = [await self.tables.get(table_id) for table_id in found.table_ids]
        if any(t is None or (len(t.match.hands) == board + 1 and not t.match.state.is_over) for t in served):
            return None
        chosen = served[table]
        assert chosen is not None
        match = chosen.match
        if len(match.results) <= board:
            return None  # the table did not play it (stopped at the round time)
        from ..replay import replay_hand

        data = replay_hand(match, board, None)
        rules = match.rules
        names = [_seat_name(chosen, seat.index) for seat in chosen.seats]
        # What the table replay (the game page's review, static/tournament/replay.js) draws the board at.
        data.update({
            "tournament": tournament_id, "name": view["name"], "table_number": table, "boards": len(match.results),
            "players": names, "viewer": None, "review": None, "preset": rules.preset,
            "table": {"players": [{"seat": s.index, "name": names[s.index], "kind": s.kind} for s in chosen.seats],
                      "sides": [[seat for seat in range(rules.players) if rules.side_of(seat) == side]
                                for side in range(rules.sides)],
                      "target": rules.target, "rules": rules.to_json()}})
        return data


def _named(standing: dict[str, Any], t: Tournament, served: list[ServedTable | None]) -> dict[str, Any]:
    """A standing whose open seats (no name in the format) are named as at their table ("Player 3", or the room's
    name of whoever took the seat); nobody moves on the server, so an entry's table is its first."""
    table = served[int(standing["entry"][:-1]) - 1]
    if table is not None and None in standing["players"]:
        side = standing["direction"]
        names = [_seat_name(table, seat.index) for seat in table.seats if t.rules.side_of(seat.index) == side]
        standing["players"] = [given if given is not None else names[i] for i, given in enumerate(standing["players"])]
    return standing


def _seat_name(table: ServedTable, seat: int) -> str:
    """A seat's name as its table shows it: the room's, when it knows who sits there (an account that took the
    seat), else the seat's own."""
    label = (table.labels or {}).get(seat)
    return label.name if label is not None and label.name else table.seats[seat].name


def _prefix(flags: list[bool]) -> int:
    """How many of the first flags are all true."""
    count = 0
    for flag in flags:
        if not flag:
            break
        count += 1
    return count


def _totals(table: ServedTable | None) -> list[tuple[int, ...]]:
    """The hand totals of every board a tournament table has played (nothing for a table gone from storage)."""
    if table is None or not isinstance(table.match, BoardMatch):
        return []
    return table.match.totals


async def history_results(svc: TableService, entries: list[dict[str, Any]]) -> None:
    """Each tournament table's entry of a history, once its tournament is over: the side's matchpoint percentage
    and rank, as the tournament's standings give them (nothing while it runs: :func:`.history.history`)."""
    standings: dict[str, dict[str, dict[str, Any]] | None] = {}
    for entry in entries:
        tournament = entry.get("tournament")
        if not tournament or not tournament["over"]:
            continue
        tid = tournament["id"]
        if tid not in standings:
            view = await TournamentService(svc).view(tid)
            standings[tid] = {s["entry"]: s for s in view["standings"]} if view is not None and view["over"] else None
        found = standings[tid]
        if found is None:  # not over after all (a board still in play): nothing of it yet
            tournament.update(over=False, board_link=None)
            entry["hands"] = None
            continue
        standing = found.get(tournament["entry"])
        if standing is not None:
            tournament["percent"], tournament["rank"] = standing["percent"], standing["rank"]


__all__ = ["TournamentError", "TournamentRequest", "TournamentService", "history_results", "parse_request"]
