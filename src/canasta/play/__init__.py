"""The table driver: seats (:mod:`.seats`) and :class:`~canasta.play.table.Table`, which every front end plays through.

It sits between the bots and the front ends (``tests/test_layers.py``): it imports only the
engine and the bots, and the standard library.
"""

from __future__ import annotations

from .seats import HUMAN, Seat, default_name, default_seats, parse_seats
from .table import HOUSE, BotTurn, Table, bot_choice, run_bots

__all__ = ["HOUSE", "HUMAN", "BotTurn", "Seat", "Table", "bot_choice", "default_name", "default_seats", "parse_seats",
           "run_bots"]
