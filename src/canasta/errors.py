"""Errors raised by the engine: every one is a ``ValueError`` with a sentence a player understands."""

from __future__ import annotations


class CanastaError(ValueError):
    """Base class of every error the engine raises on bad input."""


class CardError(CanastaError):
    """A card code that does not exist (``"1X"``)."""


class RulesError(CanastaError):
    """An unknown preset or option, a value out of range, or options that contradict."""


class MoveSyntaxError(CanastaError):
    """Move text that does not parse."""


class IllegalMoveError(CanastaError):
    """A well-formed move that the rules do not allow now."""


class PositionError(CanastaError):
    """A position, deal or game record that breaks the notation."""


class UnknownBotError(CanastaError):
    """A computer player's name that no kind of bot answers to (``"grandmaster"``)."""


class SeatError(CanastaError):
    """A seat that does not exist, a seat list that does not fit the table, or a bad seat word."""


class NotYourTurn(CanastaError):
    """A move from a seat (or a spectator) that is not the one to act."""


class StaleState(CanastaError):
    """A move sent against a state that has moved on since the sender saw it."""


class MatchOver(CanastaError):
    """A move sent to a match that has ended."""
