"""Issue 15 point 5: people count seats and sides from 1; only positions and JSON records count from 0.

:func:`zero_based` finds the words that would count a seat, a side or a player from 0 in text
meant for people (a page of rules, a screen, a message).
"""

from __future__ import annotations

import re

ZERO_BASED = re.compile(r"\b(?:seat|side|player)s?(?: are numbered)?\s+0\b"
                        r"|\b(?:seat|side|player)s?\s+\d+\s*(?:,|and|to)\s*0\b|\b(?:seat|side)\s+s\s*%", re.IGNORECASE)
"""``seat 0``, ``Side 0``, ``sides 1 and 0``, ``seats 0 to 3``... and the notation's ``seat s % 2``."""


def zero_based(text: str) -> list[str]:
    """Every place ``text`` counts a seat, a side or a player from 0 (empty: none).

    >>> zero_based("Seats are numbered 1 to 4; side 1 is seats 1 and 3")
    []
    >>> zero_based("side 0 is seats 0 and 2; Player 0; seat s % 2; Seats are numbered 0 to 3; sides 1 and 0")
    ['side 0', 'seats 0', 'Player 0', 'seat s %', 'Seats are numbered 0', 'sides 1 and 0']
    """
    return [m.group(0) for m in ZERO_BASED.finditer(" ".join(text.split()))]
