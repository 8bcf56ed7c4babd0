"""Duplicate tournaments (issue 31): the format, the scores against the field, and bots that play it all.

- :mod:`.spec`: :class:`Tournament`, the game, tables, boards, rounds, movement and score schedule;
- :mod:`.matchpoints`: matchpoints, Neuberg's factoring and the artificial scores, as pure functions;
- :mod:`.scoreboard`: :class:`Scoreboard`, fed each table's :class:`BoardResult` as boards finish, scoring
  every board and the standings at any moment;
- :mod:`.play`: :func:`run_tournament`, computer players in every seat (``canasta tournament run``).

docs/tournament.md tells the format and the scoring rules, with an example.
"""

from __future__ import annotations

from .matchpoints import AVERAGE, AVERAGE_MINUS, AVERAGE_PLUS, matchpoints, nets, neuberg
from .play import play_board, report, run_tournament
from .scoreboard import BoardResult, Score, Scoreboard, Standing
from .spec import MOVEMENTS, Board, Entry, Tournament, TournamentError, schedule_of_minimums, score_for_minimum

__all__ = ["AVERAGE", "AVERAGE_MINUS", "AVERAGE_PLUS", "MOVEMENTS", "Board", "BoardResult", "Entry", "Score",
           "Scoreboard", "Standing", "Tournament", "TournamentError", "matchpoints", "nets", "neuberg", "play_board",
           "report", "run_tournament", "schedule_of_minimums", "score_for_minimum"]
