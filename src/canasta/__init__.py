"""Canasta: a complete rules engine for the rummy-family partnership game.

>>> import canasta
>>> state = canasta.GameState.deal("classic", dealer=0, rng=__import__("random").Random(1))
>>> state.turn, state.phase, len(state.legal_moves()) >= 1
(1, Phase.DRAW, True)
"""

from __future__ import annotations

from .cards import card_text, cards_text, full_deck, parse_card, parse_cards, shuffled_deck
from .errors import (
    CanastaError,
    CardError,
    IllegalMoveError,
    MatchOver,
    MoveSyntaxError,
    NotYourTurn,
    PositionError,
    RulesError,
    SeatError,
    StaleState,
    UnknownBotError,
)
from .legal import LegalMoves
from .match import Match
from .moves import Drew, Group, Move, Phase
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
    "Drew",
    "GameState",
    "Group",
    "HandResult",
    "IllegalMoveError",
    "LegalMoves",
    "Match",
    "MatchOver",
    "Move",
    "MoveSyntaxError",
    "NotYourTurn",
    "Phase",
    "PositionError",
    "PublicView",
    "Rules",
    "RulesError",
    "SeatError",
    "SideScore",
    "StaleState",
    "UnknownBotError",
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
