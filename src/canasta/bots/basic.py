"""The ``basic`` bot: sensible beginner play.

Goes out when it can (asking its partner first when there is one), takes the pile when it
can, melds what it can (keeping wild cards for melds of its own), answers its partner yes
when the side is ahead in the match or its own hand is small, and discards the card it
needs least: a single card of a rank nobody can use, low in points.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import KIND, NUM_NATURAL, VALUE
from ..moves import ASK, DISCARD, DRAW, MELD, NO, PILE, YES, Move
from ..views import View


class BasicBot:
    """A beginner: greedy melds, takes every pile it can, safe-ish discards."""

    name = "basic"
    slow = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __reduce__(self) -> tuple[object, ...]:  # compiled by mypyc too: made by __init__, then its state
        return BasicBot, (self.rng,), self.__getstate__()

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """The move a beginner would make."""
        by_action: dict[str, list[Move]] = {}
        for m in moves:
            by_action.setdefault(m.action, []).append(m)
        hand_size = len(view.hand)
        if YES in by_action:
            ahead = view.scores[view.side] >= max(view.scores)
            return by_action[YES][0] if ahead or hand_size <= 3 else by_action[NO][0]
        if ASK in by_action:
            return by_action[ASK][0]
        out = [m for m in by_action.get(MELD, []) if len(m.cards) >= hand_size - 1]
        if out:
            return max(out, key=lambda m: len(m.cards))
        if PILE in by_action:
            return max(by_action[PILE], key=lambda m: len(m.cards))
        if DRAW in by_action:
            return by_action[DRAW][0]
        melds = by_action.get(MELD, [])
        natural_melds = [m for m in melds if all(KIND[c] < NUM_NATURAL for c in m.cards)]
        if natural_melds:
            return max(natural_melds, key=lambda m: (len(m.cards), sum(VALUE[c] for c in m.cards)))
        if melds and hand_size > 6:
            return max(melds, key=lambda m: len(m.cards))
        discards = by_action.get(DISCARD, [])
        if discards:
            return min(discards, key=lambda m: self._keep_score(view, m))
        return moves[0]

    def _keep_score(self, view: View, move: Move) -> tuple[int, int, float]:
        """How much the bot wants to keep the card (lower is discarded first)."""
        assert move.card is not None
        kind = KIND[move.card]
        same = sum(1 for c in view.hand if KIND[c] == kind)
        wild = kind >= NUM_NATURAL and kind not in (11,)
        partner_melds = view.melds[view.side]
        useful = kind in partner_melds
        return (int(wild) * 10 + int(useful) * 3 + same, VALUE[move.card], self.rng.random())
