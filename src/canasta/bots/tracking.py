"""What a seat can work out from its view: every card seen, the melds by kinds, who may hold what.

A :class:`Knowledge` is built from a :class:`~canasta.views.View` alone.  It counts every card
the seat has seen (its hand, the pile, the melds, the red threes, the cards known to be in
other hands because they were taken with the pile), so the unseen cards of each kind are
the deck less those.  From the public history it also keeps, for each seat, the kinds it
has discarded and the kinds it declined to take with the pile (it drew from the stock while
that kind was on top): evidence that it holds no pair of them.

>>> from canasta.state import GameState
>>> import random
>>> t = Knowledge(GameState.deal("classic", rng=random.Random(3)).view(1))
>>> sum(t.unseen) + sum(t.hand) + len(t.view.pile) == 108
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..cards import (
    BLACK_THREE,
    CANASTA_SIZE,
    IS_WILD,
    JOKER_KIND,
    KIND,
    NUM_KINDS,
    NUM_MELD_RANKS,
    NUM_NATURAL,
    TWO,
    VALUE,
    WILD_MELD,
    parse_card,
)
from ..views import View


def kind_totals(decks: int) -> tuple[int, ...]:
    """How many cards of each kind a game of ``decks`` decks holds."""
    naturals = (4 * decks,) * NUM_NATURAL
    return (*naturals, 2 * decks, 2 * decks, 4 * decks, 2 * decks)


def kind_counts(cards: Sequence[int]) -> list[int]:
    """Cards counted by kind."""
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[KIND[c]] += 1
    return counts


def at_least(k: int, n: int, p: float) -> float:
    """Chance of ``k`` or more successes in ``n`` draws of chance ``p`` (binomial)."""
    if k <= 0:
        return 1.0
    if n < k or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    q = 1.0 - p
    if k == 1:
        return 1.0 - q ** n
    if k == 2:
        return max(0.0, 1.0 - q ** n - n * p * q ** (n - 1))
    below = sum(math.comb(n, i) * p ** i * q ** (n - i) for i in range(k))
    return max(0.0, 1.0 - below)


class Knowledge:
    """Facts one seat can derive from its view (kinds, melds, seen and unseen cards)."""

    def __init__(self, view: View) -> None:
        self.view = view
        rules = view.rules
        self.rules = rules
        self.players = rules.players
        self.sides = rules.sides
        self.seat = view.seat
        self.side = view.seat % rules.sides
        self.hand = kind_counts(view.hand)
        self.hand_points = sum(VALUE[c] for c in view.hand)
        self.active = [s for s in range(self.players) if s != view.sitting_out]
        self._known: list[list[int]] | None = None
        self._unseen: list[int] | None = None
        self._pool = 0
        self._hidden: list[int] | None = None
        self._discarded: list[set[int]] | None = None
        self._passed: list[set[int]] = []
        # Melds by kinds, as the engine keeps them: naturals and wild cards per meld rank.
        self.meld_naturals = [[0] * NUM_MELD_RANKS for _ in range(self.sides)]
        self.meld_wilds = [[0] * NUM_MELD_RANKS for _ in range(self.sides)]
        self.canastas = [0] * self.sides
        self.melded_points = [0] * self.sides
        for side, melds in enumerate(view.melds):
            for rank, cards in melds.items():
                wild = points = 0
                for c in cards:  # a plain loop: compiled, it runs natively
                    wild += IS_WILD[c]
                    points += VALUE[c]
                self.meld_wilds[side][rank] = wild
                self.meld_naturals[side][rank] = len(cards) - wild
                self.melded_points[side] += points
                if rank != BLACK_THREE and len(cards) >= CANASTA_SIZE:
                    self.canastas[side] += 1

    def __reduce__(self) -> tuple[object, ...]:  # compiled by mypyc too: made by __init__, then its state
        return Knowledge, (self.view,), self.__getstate__()

    @property
    def known(self) -> list[list[int]]:
        """Cards known to be in each hand, by kind."""
        if self._known is None:
            self._known = [kind_counts(k) if k else [0] * NUM_KINDS for k in self.view.known]
        return self._known

    @property
    def unseen(self) -> list[int]:
        """Cards of each kind the seat has not seen (in hidden hand cards or the stock)."""
        if self._unseen is None:
            view = self.view
            seen = self.hand[:]
            for cards in (view.pile, *_melds_cards(view), *view.red_threes, *view.known):
                for c in cards:
                    seen[KIND[c]] += 1
            totals = kind_totals(self.rules.decks)
            self._unseen = [max(0, totals[k] - seen[k]) for k in range(NUM_KINDS)]
            self._pool = sum(self._unseen)
        return self._unseen

    @property
    def pool(self) -> int:
        """How many cards nobody has shown: hidden hand cards and the stock."""
        if self._unseen is None:
            self.unseen  # noqa: B018 - computes the pool too
        return self._pool

    @property
    def hidden(self) -> list[int]:
        """How many unknown cards each other hand holds."""
        if self._hidden is None:
            view = self.view
            self._hidden = [0 if s == self.seat else max(0, view.hand_sizes[s] - len(view.known[s]))
                            for s in range(self.players)]
        return self._hidden

    @property
    def discarded(self) -> list[set[int]]:
        """The kinds each seat has discarded this hand."""
        if self._discarded is None:
            self._read_history()
        assert self._discarded is not None
        return self._discarded

    @property
    def passed(self) -> list[set[int]]:
        """The natural kinds each seat drew from the stock over, rather than take the pile."""
        if self._discarded is None:
            self._read_history()
        return self._passed

    # -- seats --------------------------------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise that plays this hand."""
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if other in self.active:
                return other
        return seat

    def partner(self, seat: int) -> int | None:
        """The next seat clockwise on the same side that plays this hand."""
        for step in range(1, self.players):
            other = (seat + step) % self.players
            if other % self.sides == seat % self.sides and other in self.active:
                return other
        return None

    def opponents(self) -> list[int]:
        """The seats of the other sides that play this hand."""
        return [s for s in self.active if s % self.sides != self.side]

    def has_melded(self, side: int) -> bool:
        """Has the side made its first meld this hand?"""
        return bool(self.view.melds[side])

    def frozen_for(self, side: int) -> bool:
        """Is the pile frozen against this side (frozen, or the side has no meld)?"""
        return self.view.pile_frozen or not self.has_melded(side)

    # -- estimates ----------------------------------------------------------------------

    def chance_holds(self, seat: int, kind: int, count: int) -> float:
        """Chance that ``seat`` holds ``count`` or more cards of ``kind`` (known ones for sure)."""
        need = count - self.known[seat][kind]
        if need <= 0:
            return 1.0
        if self.pool <= 0:
            return 0.0
        return at_least(need, self.hidden[seat], self.unseen[kind] / self.pool)

    def chance_wild(self, seat: int) -> float:
        """Chance that ``seat`` holds a wild card."""
        if self.known[seat][TWO] or self.known[seat][JOKER_KIND]:
            return 1.0
        if self.pool <= 0:
            return 0.0
        wilds = self.unseen[TWO] + self.unseen[JOKER_KIND]
        return at_least(1, self.hidden[seat], wilds / self.pool)

    def side_value(self, side: int) -> int:
        """A side's score if the hand ended now, with hidden hands guessed at 8 points a card."""
        r = self.rules
        value = self.melded_points[side]
        for rank in range(NUM_MELD_RANKS):
            size = self.meld_naturals[side][rank] + self.meld_wilds[side][rank]
            if rank == BLACK_THREE or size < CANASTA_SIZE:
                continue
            if rank == WILD_MELD:
                value += r.wild_canasta_bonus
            else:
                value += 300 if self.meld_wilds[side][rank] else 500
        reds = r.red_three_points(len(self.view.red_threes[side]))
        value += reds if self.has_melded(side) else -reds
        for seat in self.active:
            if seat % self.sides == side:
                value -= self.hand_points if seat == self.seat else 8 * self.view.hand_sizes[seat]
        return value

    def lead(self) -> int:
        """The seat's side's value less the best of the other sides'."""
        others = [self.side_value(s) for s in range(self.sides) if s != self.side]
        return self.side_value(self.side) - (max(others) if others else 0)

    # -- history ------------------------------------------------------------------------

    def _read_history(self) -> None:
        discarded: list[set[int]] = [set() for _ in range(self.players)]
        self._passed = [set() for _ in range(self.players)]
        self._discarded = discarded
        view = self.view
        history = view.history
        discards = sum(1 for _, text in history if text.startswith("discard"))
        taken = any(text.startswith("pile") for _, text in history)
        top: int | None = None
        if not taken and len(view.pile) > discards:
            top = view.pile[len(view.pile) - discards - 1]  # the upcard, still under the discards
        for seat, text in history:
            if text.startswith("discard"):
                top = parse_card(text[8:])
                discarded[seat].add(KIND[top])
            elif text.startswith("pile"):
                top = None
            elif text == "draw" and top is not None and KIND[top] < NUM_NATURAL:
                self._passed[seat].add(KIND[top])


def _melds_cards(view: View) -> list[tuple[int, ...]]:
    return [cards for melds in view.melds for cards in melds.values()]


__all__ = ["Knowledge", "at_least", "kind_counts", "kind_totals"]
