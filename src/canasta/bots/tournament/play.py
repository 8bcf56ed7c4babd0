"""Computer players play a whole tournament (``canasta tournament run``): every table, every board.

Each (table, board) is one hand from the board's cards (:meth:`Tournament.deck`), dealer and side totals,
with the bots seeded by :meth:`Tournament.bot_random`; so a seed gives the same results on one worker,
in processes (``workers``) and on Ray (``backend="ray"``), through the arena's runner
(:func:`canasta.bots.arena.run_calls`).  Bots see only ``state.view(seat)`` and the legal moves.

>>> from canasta.rules import Rules
>>> t = Tournament(Rules(), [["basic"] * 4] * 2, boards=2, seed=1)
>>> board, seconds = run_tournament(t)
>>> len(board.results), sum(s.matchpoints for s in board.board_scores(0)) == 2 * 2
(4, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ...state import GameState
from ..arena import check_run, new_bot, run_calls, spans
from .scoreboard import BoardResult, Scoreboard
from .spec import HUMAN, Tournament, TournamentError

Progress = Callable[[int, int], None]
"""Told the hands played so far and the hands to play."""


def check_bots(tournament: Tournament) -> None:
    """A :class:`TournamentError` for a seat no computer player can take (an open seat, a person)."""
    for table, seats in enumerate(tournament.tables):
        for seat, word in enumerate(seats):
            if word is None or word.partition(":")[0].strip().lower() in (HUMAN, "you"):
                what = "open" if word is None else f"for a person ({word})"
                raise TournamentError(f"table {table + 1}, seat {seat + 1} is {what}: computer players play "
                                      "every seat of a tournament that runs by itself")


def play_board(tournament: Tournament, board: int, table: int) -> BoardResult:
    """Play one board at one table to the end of its hand."""
    rules, info = tournament.rules, tournament.board(board)
    state = GameState.deal(rules, info.dealer, info.scores, tournament.deck(board), sitting_out=info.sitting_out)
    words = tournament.seats(board, table)
    bots = [None if word is None else new_bot(word, tournament.bot_random(board, table, seat))
            for seat, word in enumerate(words)]
    while not state.is_over:
        seat = state.to_act
        bot = bots[seat]
        if bot is None:
            raise TournamentError(f"table {table + 1}, seat {seat + 1} is open")
        moves = list(state.legal_moves())
        move = bot.choose(state.view(seat), moves)
        if move in moves:
            state.push(move)
        else:  # an equal move the bot built itself; check it
            state.play(move)
    assert state.result is not None
    return BoardResult(board, table, tuple(state.result.totals))


def play_boards(tournament: Tournament, table: int, start: int, stop: int) -> list[BoardResult]:
    """Boards ``start`` to ``stop - 1`` at one table, in order (one job of a run)."""
    return [play_board(tournament, board, table) for board in range(start, stop)]


def run_tournament(tournament: Tournament, workers: int = 1, backend: str = "local", address: str | None = None,
                   progress: Progress | None = None,
                   scoreboard: Scoreboard | None = None) -> tuple[Scoreboard, float]:
    """Play every board at every table not yet in ``scoreboard`` (a new one by default): the scoreboard with
    every result, and the seconds of play."""
    check_bots(tournament)
    words = sorted({w for table in tournament.tables for w in table if w is not None})
    check_run(words, workers, backend, address)
    board = Scoreboard(tournament) if scoreboard is None else scoreboard
    if board.tournament != tournament:
        raise TournamentError("the scoreboard belongs to another tournament")
    jobs: list[tuple[Any, ...]] = []
    for table in range(len(tournament.tables)):
        missing = [b for b in range(tournament.boards) if (b, table) not in board.results]
        for lo, hi in spans(missing, max(2, workers) if backend == "ray" else workers):
            jobs.append((tournament, table, lo, hi))
    total = sum(job[3] - job[2] for job in jobs)
    done = 0

    def finished(index: int, chunk: list[Any]) -> None:
        nonlocal done
        for result in chunk:
            board.record(result)
        done += len(chunk)
        if progress is not None:
            progress(done, total)

    began = time.perf_counter()
    if jobs:
        run_calls(play_boards, jobs, workers, backend, address, finished)
    return board, time.perf_counter() - began


def report(board: Scoreboard, seconds: float | None = None) -> dict[str, Any]:
    """The run as one JSON object: the format, the standings, every board's scores and results, the seconds."""
    t = board.tournament
    field = board.field()
    data: dict[str, Any] = {
        "tournament": t.to_json(),
        "preset": t.rules.preset,
        "tables": len(t.tables),
        "boards": t.boards,
        "minimums": [[t.rules.minimum(s) for s in scores] for scores in t.schedule],
        "field": field,
        "standings": [s.to_json() for s in board.standings()],
        "board_scores": [[s.to_json() for s in board.board_scores(b, field)] for b in range(t.boards)],
        "results": [r.to_json() for _, r in sorted(board.results.items())],
    }
    if seconds is not None:
        data["seconds"] = round(seconds, 3)
    return data


__all__ = ["Progress", "check_bots", "play_board", "play_boards", "report", "run_tournament"]
