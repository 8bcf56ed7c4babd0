"""Full game states consistent with one seat's view: the hidden cards dealt anew at random.

Search needs to play a hand forward, but a seat knows only its view.  :func:`resample`
builds a :class:`~canasta.state.GameState` that the seat cannot tell from the real one:
its own hand and everything public as in the view, each other hand of the right size
holding the cards known to be there (taken with the pile), and every card the seat has not
seen shuffled into the rest of the other hands and the stock.  Red threes go only where
one can hide: the stock, or the hand of a seat that has not yet had a turn (a dealt red
three is laid out at its holder's first turn).

The state is placed with :meth:`GameState.setup <canasta.state.GameState.setup>`, the
turn's own fields (phase, what was drawn, the partner's answer, what was melded this turn)
and the history taken from the view.

>>> import random
>>> from canasta.state import GameState
>>> real = GameState.deal("classic", rng=random.Random(5))
>>> real.play("draw")
Move.parse('draw')
>>> view = real.view(real.turn)
>>> sample = resample(view, random.Random(1))
>>> sample.view(real.turn) == view
True
>>> [str(m) for m in sample.legal_moves()] == [str(m) for m in real.legal_moves()]
True
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Final

from . import judge
from .cards import (
    BLACK_THREE,
    CANASTA_SIZE,
    KIND,
    NUM_CODES,
    NUM_KINDS,
    NUM_MELD_RANKS,
    NUM_NATURAL,
    RED_THREE,
    WILD_KINDS,
    full_deck,
)
from .errors import CanastaError
from .moves import DISCARD, MELD, PILE, Move, Phase
from .state import GameState, TurnSoFar
from .views import View


class Resampler:
    """Builds the public part of a view's state once, then deals hidden cards anew for each sample."""

    def __init__(self, view: View) -> None:
        if view.phase == Phase.OVER:
            raise CanastaError("the hand is over: there is nothing hidden to sample")
        self.view = view
        rules = view.rules
        self.rules = rules
        seat = view.seat
        players = rules.players
        freezers = any(KIND[c] >= RED_THREE or (KIND[c] == BLACK_THREE and rules.black_three_freezes)
                       for c in view.pile)
        known_cards = [() if other == seat else view.known[other] for other in range(players)]
        # Everything public, for GameState.setup; the hands get their hidden cards in _deal.
        self.public: dict[str, Any] = {
            "dealer": view.dealer,
            "turn": view.turn,
            "scores": view.scores,
            "pile": view.pile,
            "melds": tuple(dict(side) for side in view.melds),  # plain dicts: a resampler pickles
            "red_threes": view.red_threes,
            "melded": view.melded,
            "frozen": view.pile_frozen and not freezers and not rules.pile_always_frozen,
            "sitting_out": view.sitting_out,
            "known": known_cards,
        }
        self.hands = [view.hand if other == seat else known_cards[other] for other in range(players)]
        self._set_turn()
        # The unseen cards: the deck less every card in the view.
        counts = [0] * NUM_CODES
        for c in full_deck(rules.decks):
            counts[c] += 1
        seen: list[int] = [*view.hand, *view.pile]
        for melds in view.melds:
            for cards in melds.values():
                seen.extend(cards)
        for reds in view.red_threes:
            seen.extend(reds)
        for known in view.known:
            seen.extend(known)
        for c in seen:
            counts[c] -= 1
        if min(counts) < 0:
            raise CanastaError("the view shows more copies of a card than the deck holds")
        unseen = [c for c in range(NUM_CODES) for _ in range(counts[c])]
        self.reds = [c for c in unseen if KIND[c] == RED_THREE]
        self.others = [c for c in unseen if KIND[c] != RED_THREE]
        # Hidden places: (seat, count) for other hands; the stock is seat -1.
        self.slots = [(o, view.hand_sizes[o] - len(view.known[o])) for o in range(players) if o != seat]
        if any(n < 0 for _, n in self.slots):
            raise CanastaError("a hand is smaller than the cards known to be in it")
        hidden = sum(n for _, n in self.slots) + view.stock_size
        if hidden != len(unseen):
            raise CanastaError(f"the view hides {hidden} cards but {len(unseen)} are unseen")
        played = {s for s, _ in view.history} | {view.turn}
        self.red_seats = set() if rules.red_threes_at_deal else {
            o for o in range(players) if o != seat and o not in played
        }

    def __reduce__(self) -> tuple[object, ...]:  # compiled by mypyc too: made by __init__, then its state
        return Resampler, (self.view,), self.__getstate__()

    def _set_turn(self) -> None:
        """The history and the turn in progress, from the view."""
        view = self.view
        history = [(s, Move.parse(text)) for s, text in view.history]
        self.public["history"] = history
        start = 0
        for i, (_, move) in enumerate(history):
            if move.action == DISCARD:
                start = i + 1
        turn = view.turn
        this_turn = history[start:]
        earlier = any(s == turn and m.action in (MELD, PILE) for s, m in history[:start])
        melded_now = any(s == turn and m.action in (MELD, PILE) for s, m in this_turn)
        top_rank: int | None = None
        if start and history[start - 1][1].card is not None:
            card = history[start - 1][1].card
            assert card is not None
            top_rank = KIND[card]
        cards = [0] * NUM_MELD_RANKS
        for s, move in this_turn:
            if s != turn or move.action not in (MELD, PILE):
                continue
            for g in move.groups:
                cards[g.rank] += len(g.cards)
            if move.action == PILE:
                rank = top_rank if top_rank is not None else (move.groups[0].rank if move.groups else None)
                if rank is not None:
                    cards[rank] += 1
        self.public["turn_so_far"] = TurnSoFar(
            phase=Phase(view.phase),
            drew=view.drew,
            asked=view.asked,
            answer=view.answer,
            turn_cards=tuple(cards),
            was_melded=earlier if melded_now else view.melded[turn],
        )

    def sample(self, rng: random.Random) -> GameState:
        """One state consistent with the view, the hidden cards dealt at random.

        While the partner's question waits for its answer, the asker's hand can go out (or
        it could not have asked): samples whose asker's hand cannot are dealt again, and
        after ``ASK_TRIES`` failures the asker's hidden cards are chosen to fit its melds.
        """
        if self.view.phase != Phase.ANSWER:
            return self._deal(rng, None)
        asker = self.view.turn
        for _ in range(ASK_TRIES):
            state = self._deal(rng, None)
            if judge.can_go_out(state, asker):
                return state
        for _ in range(ASK_TRIES):
            state = self._deal(rng, self._going_out_cards(rng, asker))
            if judge.can_go_out(state, asker):
                return state
        raise CanastaError("no hand of the asker's size can go out with the cards unseen")

    def _going_out_cards(self, rng: random.Random, asker: int) -> list[int]:
        """Hidden cards for the asker chosen to meld: its side's ranks first, then triples, then wild cards."""
        need = dict(self.slots)[asker]
        view = self.view
        side = asker % self.rules.sides
        melded = set(view.melds[side])
        hand = [0] * NUM_KINDS
        for c in view.known[asker]:
            hand[KIND[c]] += 1
        pool = self.others[:]
        rng.shuffle(pool)
        by_kind: dict[int, list[int]] = {}
        for c in pool:
            by_kind.setdefault(KIND[c], []).append(c)
        chosen: list[int] = []

        def take(kind: int, count: int) -> None:
            cards = by_kind.get(kind, [])
            while count > 0 and cards and len(chosen) < need:
                chosen.append(cards.pop())
                hand[kind] += 1
                count -= 1

        # Known cards that do not meld yet (naturals of new ranks, black threes) are made
        # into melds, but one of them may stay as the discard; the side's biggest meld is
        # brought to a canasta if the side lacks one; then any card of the side's ranks.
        # The order of these steps is random, so that repeated tries explore other hands.
        strays = [k for k in range(NUM_NATURAL) if hand[k] and k not in melded and hand[k] < 3]
        if 0 < hand[BLACK_THREE] < 3:
            strays.append(BLACK_THREE)
        rng.shuffle(strays)
        if strays and rng.random() < 0.5:
            strays.pop()  # this one is the discard

        def fix_strays() -> None:
            for k in strays:
                take(k, 3 - hand[k])

        ranks = [k for k in range(NUM_NATURAL) if k in melded]
        rng.shuffle(ranks)
        ranks.sort(key=lambda k: -len(view.melds[side][k]))
        lacking = (sum(1 for m in view.melds[side].values() if len(m) >= CANASTA_SIZE)
                   < self.rules.canastas_to_go_out)

        def finish_canasta() -> None:
            if ranks and lacking:
                take(ranks[0], CANASTA_SIZE - len(view.melds[side][ranks[0]]) - hand[ranks[0]])

        steps = [fix_strays, finish_canasta]
        rng.shuffle(steps)
        for step in steps:
            step()
        if lacking and rng.random() < 0.5:
            wild_cards = by_kind.get(WILD_KINDS[0], []) + by_kind.get(WILD_KINDS[1], [])
            rng.shuffle(wild_cards)
            for c in wild_cards[: max(0, need - len(chosen))][:3]:
                by_kind[KIND[c]].remove(c)
                chosen.append(c)
                hand[KIND[c]] += 1
        fitting = [c for k in ranks for c in by_kind.get(k, [])]
        rng.shuffle(fitting)
        for c in fitting:
            if len(chosen) < need and c in by_kind[KIND[c]]:
                by_kind[KIND[c]].remove(c)
                chosen.append(c)
                hand[KIND[c]] += 1
        fresh = [k for k in range(NUM_NATURAL) if k not in melded]
        rng.shuffle(fresh)
        for k in fresh:
            cards = by_kind.get(k, [])
            missing = max(0, 3 - hand[k])
            if hand[k] == 0 and len(chosen) + 3 <= need and len(cards) >= 3:
                take(k, 3)
            elif hand[k] and len(chosen) + missing <= need and len(cards) >= missing:
                take(k, missing)
        wilds = by_kind.get(WILD_KINDS[0], []) + by_kind.get(WILD_KINDS[1], [])
        rng.shuffle(wilds)
        while len(chosen) < need and wilds:
            chosen.append(wilds.pop())
        return chosen

    def _deal(self, rng: random.Random, fixed: list[int] | None) -> GameState:
        """Deal the hidden cards at random; ``fixed`` cards (if given) go to the asker first."""
        view = self.view
        stock_size = view.stock_size
        others = self.others[:]
        first: dict[int, list[int]] = {}
        if fixed is not None:
            remaining = Counter(others)
            remaining.subtract(fixed)
            others = list(remaining.elements())
            first[view.turn] = fixed
        # Red threes may hide in the stock and in hands that have not had a turn.
        places = [(-1, i) for i in range(stock_size)]
        for o, n in self.slots:
            if o in self.red_seats:
                places.extend((o, i) for i in range(len(first.get(o, ())), n))
        red_at = set(rng.sample(places, len(self.reds))) if self.reds else set()
        rng.shuffle(others)
        reds = iter(self.reds)
        rest = iter(others)
        stock = [next(reds) if (-1, i) in red_at else next(rest) for i in range(stock_size)]
        hands: list[list[int] | tuple[int, ...]] = list(self.hands)
        for o, n in self.slots:
            given = first.get(o, [])
            hand = [*hands[o], *given]
            for i in range(len(given), n):
                hand.append(next(reds) if (o, i) in red_at else next(rest))
            hands[o] = hand
        stock.reverse()  # setup takes the top card first; the order here is random anyway
        return GameState.setup(self.rules, hands=hands, stock=stock, **self.public)


ASK_TRIES: Final = 100
"""Random deals tried for an asker's hand that can go out, before choosing its cards."""


def resample(view: View, rng: random.Random) -> GameState:
    """A full state consistent with ``view``: hidden cards dealt at random (see the module)."""
    return Resampler(view).sample(rng)


def unseen_cards(view: View) -> list[int]:
    """The cards the seat has not seen (the deck less its hand, the table and the known cards)."""
    r = Resampler(view)
    return sorted(r.reds + r.others)


__all__ = ["Resampler", "resample", "unseen_cards"]
