"""What the table has shown about the hidden hands: a likelihood weight for each sampled deal.

A seat that drew from the stock while it could have taken the pile with a natural pair of the
top card's kind most likely held no such pair; a seat that discarded a kind most likely kept
no pair of it.  :class:`Belief` reads these events from a view's public history and turns
them into a weight for a full state dealt by :class:`canasta.resample.Resampler`: the product,
over the other seats and the kinds they showed, of a factor below one when the sampled hand
holds two or more hidden cards of that kind.  The evidence fades with every later draw of
that seat (new cards may have made the pair since).  Cards a seat took with the pile are
known and dealt to it already; a partner's answer to "may I go out?" is used by the
resampler itself (the asker's hand must go out).

The factors are measured: in 300 hands of ``expert`` self-play (classic), a seat holding a
natural pair of the top card passed a pile of three or more cards 0 times in 416 once its
side had melded (15 in 160 for a smaller pile; before its side's first meld 21 in 96 and
69 in 89), and after 5545 discards of a natural card the hand held two more of it 14 times.

>>> import random
>>> from canasta.state import GameState
>>> state = GameState.deal("classic", rng=random.Random(3))
>>> Belief(state.view(0)).weight(state)
1.0
"""

from __future__ import annotations

from typing import Final

from ..cards import KIND, KIND_CODES, NUM_KINDS, NUM_NATURAL, parse_card
from ..state import GameState
from ..views import View

PASS_MELDED: Final = 0.05
"""Weight of a pair of the top card's kind in the hand of a seat that passed a pile of 3+ cards, its side melded."""
PASS_MELDED_SMALL: Final = 0.15
"""... a pile of one or two cards, its side melded."""
PASS_UNMELDED: Final = 0.25
"""... a pile of 3+ cards before its side's first meld (the pair alone may not reach the minimum)."""
PASS_UNMELDED_SMALL: Final = 0.8
"""... a small pile before its side's first meld."""
DISCARDED: Final = 0.1
"""Weight of a pair of a kind in the hand of a seat that discarded that kind."""
FADE: Final = 0.75
"""How much of the evidence is left after each later draw of that seat."""


class Belief:
    """Per other seat and kind, the weight of a sampled hand holding two or more hidden cards of that kind."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat = view.seat
        players = view.rules.players
        sides = view.rules.sides
        # factors[seat][kind]: the strongest evidence against a pair (1.0: none).
        factors = [[1.0] * NUM_KINDS for _ in range(players)]
        events: list[tuple[int, int, float, int]] = []  # seat, kind, factor, that seat's draws so far
        draws = [0] * players
        history = view.history
        discards = sum(1 for _, text in history if text.startswith("discard"))
        taken = any(text.startswith("pile") for _, text in history)
        top = -1
        size = 1
        if not taken and len(view.pile) > discards:
            top = KIND[view.pile[len(view.pile) - discards - 1]]  # the upcard, still under the discards
            size = len(view.pile) - discards
        melded = [False] * sides
        for seat, text in history:
            if text.startswith("discard"):
                kind = KIND[parse_card(text[8:])]
                if kind < NUM_NATURAL and seat != view.seat:
                    events.append((seat, kind, DISCARDED, draws[seat]))
                top = kind
                size += 1
            elif text.startswith("pile"):
                melded[seat % sides] = True
                top = -1
                size = 0
            elif text.startswith("meld"):
                melded[seat % sides] = True
            elif text == "draw":
                if 0 <= top < NUM_NATURAL and seat != view.seat:
                    if melded[seat % sides]:
                        factor = PASS_MELDED if size >= 3 else PASS_MELDED_SMALL
                    else:
                        factor = PASS_UNMELDED if size >= 3 else PASS_UNMELDED_SMALL
                    events.append((seat, top, factor, draws[seat]))
                draws[seat] += 1
        for seat, kind, factor, at in events:
            faded = 1.0 - (1.0 - factor) * FADE ** (draws[seat] - at)
            if faded < factors[seat][kind]:
                factors[seat][kind] = faded
        self.known = [[0] * NUM_KINDS for _ in range(players)]
        for seat in range(players):
            for c in view.known[seat]:
                self.known[seat][KIND[c]] += 1
        self.evidence: list[tuple[int, int, float]] = [
            (seat, kind, factors[seat][kind])
            for seat in range(players) for kind in range(NUM_KINDS) if factors[seat][kind] < 0.999
        ]

    def __reduce__(self) -> tuple[object, ...]:  # compiled by mypyc too: made by __init__, then its state
        return Belief, (self.view,), self.__getstate__()

    def weight(self, state: GameState) -> float:
        """The likelihood of the hidden hands of ``state`` given what the table has shown (1.0: no evidence)."""
        w = 1.0
        for seat, kind, factor in self.evidence:
            counts = state.hand_counts[seat]
            held = 0
            for code in KIND_CODES[kind]:
                held += counts[code]
            if held - self.known[seat][kind] >= 2:
                w *= factor
        return w


__all__ = ["Belief"]
