"""Canasta: a complete rules engine for the rummy-family partnership game.

>>> import canasta
>>> state = canasta.GameState.deal("classic", dealer=0, rng=__import__("random").Random(1))
>>> state.turn, state.phase, len(state.legal_moves()) >= 1
(1, 'draw', True)
"""

from __future__ import annotations

from .cards import card_text, cards_text, full_deck, parse_card, parse_cards, shuffled_deck
from .errors import (
    CanastaError,
    CardError,
    IllegalMoveError,
    MoveSyntaxError,
    PositionError,
    RulesError,
)
from .legal import LegalMoves
from .moves import Group, Move
from .position import deal_from, from_position, to_position
from .rules import PRESETS, Rules
from .scoring import HandResult, SideScore
from .state import GameState
from .testing.scenario import run_scenario
from .views import PublicView, View, make_view, public_view

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "CanastaError",
    "CardError",
    "GameState",
    "Group",
    "HandResult",
    "IllegalMoveError",
    "LegalMoves",
    "Move",
    "MoveSyntaxError",
    "PositionError",
    "PublicView",
    "Rules",
    "RulesError",
    "SideScore",
    "View",
    "card_text",
    "cards_text",
    "deal_from",
    "from_position",
    "full_deck",
    "make_view",
    "parse_card",
    "parse_cards",
    "public_view",
    "run_scenario",
    "shuffled_deck",
    "to_position",
]
