"""The scorekeeper for a game played with real cards: the model, the ``canasta score`` command.

The browser scorekeeper's routes live with the web server (:mod:`canasta.web.scorekeeper`).
"""

from .model import Entry, Itemised, ScoreError, ScoreGame, entry_score, entry_total

__all__ = ["Entry", "Itemised", "ScoreError", "ScoreGame", "entry_score", "entry_total"]
