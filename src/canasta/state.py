"""The state of one hand of Canasta: a phase machine that applies moves.

Rules clauses refer to ``shared/spec/RULES.md`` (the default game follows seed 000).
A turn is :attr:`Phase.DRAW` (draw or take the pile) -> :attr:`Phase.PLAY` (meld, then
discard) -> next seat; ``ask`` moves to :attr:`Phase.ANSWER`, where the partner says
``yes`` or ``no``.  :attr:`Phase.OVER` ends the hand.

The rules themselves live in :mod:`canasta.judge`: :meth:`GameState.check` raises
:class:`IllegalMoveError` with its sentence.  :meth:`push` applies a move without checking:
the fast path for search.  :meth:`play` parses, checks and applies.  :meth:`setup` is the
one way to place cards (positions, resampling, tests).  Chance is a seam:
:meth:`dealable` and :meth:`deal_card` let a caller say which card the stock yields next.

>>> s = GameState.deal("classic", rng=random.Random(1))
>>> s
<GameState classic: seat 1 to draw, stock 62, pile 2, hands 11 11 11 11>
>>> lm = s.legal_moves()
>>> s.play("draw")
Move.parse('draw')
>>> "draw" in lm, "draw" in [str(m) for m in lm]
(False, False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from . import judge
from .cards import (
    BLACK_THREE,
    CANASTA_SIZE,
    IS_WILD,
    JOKER_KIND,
    KIND,
    NUM_CODES,
    NUM_KINDS,
    NUM_MELD_RANKS,
    RED_THREE,
    RED_THREE_CODES,
    TWO,
    card_text,
    check_multiplicity,
    codes_from_counts,
    shuffled_deck,
)
from .errors import CardError, IllegalMoveError, PositionError
from .legal import LegalMoves
from .moves import ASK, DISCARD, DISCARD_MOVES, DRAW, MELD, PILE, SIMPLE_MOVES, YES, Drew, Group, Move, Phase
from .rules import Rules
from .scoring import HandResult, match_winner, score_hand
from .views import View, make_view

DRAW_PHASE: Final = Phase.DRAW
PLAY_PHASE: Final = Phase.PLAY
ANSWER_PHASE: Final = Phase.ANSWER
OVER_PHASE: Final = Phase.OVER
_STOCK: Final = Drew.STOCK
_PILE: Final = Drew.PILE


@dataclass(frozen=True, slots=True)
class TurnSoFar:
    """A turn part played, for :meth:`GameState.setup` (a view resampled mid-turn).

    ``turn_cards`` counts the cards laid on each meld rank this turn; ``was_melded`` says
    whether the player had melded before this turn (None: its ``melded`` flag).
    """

    phase: Phase = Phase.DRAW
    drew: Drew | None = None
    asked: bool = False
    answer: bool | None = None
    turn_cards: tuple[int, ...] = ()
    was_melded: bool | None = None

    def __reduce__(self) -> tuple[type[TurnSoFar], tuple[object, ...]]:
        return TurnSoFar, (self.phase, self.drew, self.asked, self.answer, self.turn_cards, self.was_melded)


class GameState:
    """One hand in progress: hands, stock, pile, melds, red threes and whose turn it is.

    Its public fields (seats and sides count from 0; a side is ``seat % sides``; cards are codes,
    :mod:`canasta.cards`; a *kind* is a card's rank, the wild cards' kinds and red and black threes included;
    a *meld rank* is a natural rank or the wild cards' meld):

    ``rules``, ``players``, ``sides``, ``dealer``
        The rules played, the seats and sides at the table, who dealt.
    ``turn``, ``phase``
        The seat whose turn it is and where in the turn (:class:`~canasta.moves.Phase`); ``to_act`` is
        who must move now (the partner, while a ``may I go out?`` waits for the answer).
    ``scores``
        Each side's match score before this hand (what the minimum first meld depends on).
    ``hand_counts[seat][code]``, ``kind_counts[seat][kind]``, ``hand_sizes[seat]``
        Each hand as counts per card code and per kind, and its size; ``kind_bits[seat]`` has bit ``kind``
        set while the seat holds a card of that kind.  :meth:`hand` lists a hand's cards.
    ``stock``, ``pile``, ``stock_open``
        The stock (its top card last) and the discard pile (its top card last); ``stock_open``: how many
        stock cards no caller has fixed yet (the chance seam, :meth:`dealable`).
    ``freezers``, ``frozen_extra``
        The cards in the pile that freeze it (wild cards and red threes; black threes where the rules say
        so); ``frozen_extra``: frozen by a black three turned up at the deal and covered.
    ``melds[side][rank]``, ``meld_naturals[side][rank]``, ``meld_wilds[side][rank]``
        Each side's melds by meld rank (None where it has none), and how many natural and wild cards each
        holds; ``meld_bits[side]`` has bit ``rank`` set for each meld, ``meld_count[side]`` counts them,
        ``canastas[side]`` counts the side's canastas.
    ``red_threes[side]``
        The red threes each side has laid out.
    ``melded[seat]``
        Whether the seat has melded this hand (laid cards from its hand on a meld).
    ``known[seat][code]``
        The cards still in the seat's hand that every seat has seen go there (taken with the pile).
    ``history``
        Every move of the hand so far, ``(seat, move)``.
    ``drew``, ``asked``, ``answer``, ``turn_melded``, ``turn_cards``, ``was_melded``
        This turn so far: drawn from the stock or taken the pile; asked to go out and the answer; whether
        a card was melded, how many on each meld rank, and whether the side had melded before the turn.
    ``result``, ``sitting_out``, ``seat_after``, ``partners``
        The hand's score once it is over; the seat that sits out the hand (six players, two teams); the
        next seat to play after each seat; each seat's partner (None without one).
    """

    __slots__ = (
        "_history_of",
        "_history_text",
        "answer",
        "asked",
        "canastas",
        "dealer",
        "drew",
        "freezers",
        "frozen_extra",
        "hand_counts",
        "hand_sizes",
        "history",
        "kind_bits",
        "kind_counts",
        "known",
        "meld_bits",
        "meld_count",
        "meld_naturals",
        "meld_wilds",
        "melded",
        "melds",
        "partners",
        "phase",
        "pile",
        "players",
        "red_threes",
        "result",
        "rules",
        "scores",
        "seat_after",
        "sides",
        "sitting_out",
        "stock",
        "stock_open",
        "turn",
        "turn_cards",
        "turn_melded",
        "was_melded",
    )

    rules: Rules
    players: int
    sides: int
    dealer: int
    turn: int
    phase: Phase
    scores: list[int]
    hand_counts: list[list[int]]
    kind_counts: list[list[int]]
    kind_bits: list[int]
    hand_sizes: list[int]
    stock: list[int]
    pile: list[int]
    freezers: int
    frozen_extra: bool
    melds: list[list[list[int] | None]]
    meld_naturals: list[list[int]]
    meld_wilds: list[list[int]]
    meld_bits: list[int]
    meld_count: list[int]
    canastas: list[int]
    red_threes: list[list[int]]
    melded: list[bool]
    known: list[list[int]]
    history: list[tuple[int, Move]]
    drew: Drew | None
    asked: bool
    answer: bool | None
    turn_melded: bool
    turn_cards: list[int]
    was_melded: bool
    result: HandResult | None
    sitting_out: int | None
    stock_open: int
    seat_after: tuple[int, ...]
    partners: tuple[int | None, ...]

    # -- construction -------------------------------------------------------------------

    def __init__(self, rules: Rules | str = "classic") -> None:
        """An empty table; use :meth:`deal`, :meth:`setup` or :func:`canasta.position.from_position`."""
        if rules is _BARE:  # copy(): compiled by mypyc, GameState.__new__(GameState, _BARE) comes here
            return
        self.rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
        self.players = self.rules.players
        self.sides = self.rules.sides
        self.dealer = 0
        self.turn = 1 % self.players
        self.phase = DRAW_PHASE
        self.scores = [0] * self.sides
        self.hand_counts = [[0] * NUM_CODES for _ in range(self.players)]
        self.kind_counts = [[0] * NUM_KINDS for _ in range(self.players)]
        self.kind_bits = [0] * self.players  # bit k set: the seat holds a card of kind k
        self.hand_sizes = [0] * self.players
        self.stock = []
        self.pile = []
        self.freezers = 0
        self.frozen_extra = False
        self.melds = [[None] * NUM_MELD_RANKS for _ in range(self.sides)]
        self.meld_naturals = [[0] * NUM_MELD_RANKS for _ in range(self.sides)]
        self.meld_wilds = [[0] * NUM_MELD_RANKS for _ in range(self.sides)]
        self.meld_bits = [0] * self.sides  # bit r set: the side has a meld of rank r
        self.meld_count = [0] * self.sides
        self.canastas = [0] * self.sides
        self.red_threes = [[] for _ in range(self.sides)]
        self.melded = [False] * self.players
        self.known = [[0] * NUM_CODES for _ in range(self.players)]
        self.history = []
        self._history_text: tuple[tuple[int, str], ...] = ()  # history as text, see history_text()
        self._history_of: list[tuple[int, Move]] | None = None  # the history list it was made from
        self.drew = None
        self.asked = False
        self.answer = None
        self.turn_melded = False
        self.turn_cards = [0] * NUM_MELD_RANKS
        self.was_melded = False
        self.result = None
        self.stock_open = 0  # the bottom stock cards whose order chance has not fixed (see deal_card)
        self._seat(0 if self.rules.sit_out else None)

    def set_sitting_out(self, seat: int | None) -> None:
        """Name the seat that sits out this hand (five-player), or None; sets the seating order."""
        check_sitting_out(self.rules, seat)
        self._seat(seat)

    def _seat(self, seat: int | None) -> None:
        p = self.players
        self.sitting_out = seat
        active = [s for s in range(p) if s != seat]
        self.seat_after = tuple(_next_active(s, active, p) for s in range(p))
        self.partners = tuple(_partner(s, active, p, self.sides) for s in range(p))

    @classmethod
    def deal(
        cls,
        rules: Rules | str = "classic",
        dealer: int = 0,
        scores: Sequence[int] | None = None,
        deck: Sequence[int] | None = None,
        rng: random.Random | None = None,
        sitting_out: int | None = None,
    ) -> GameState:
        """Deal a hand from ``deck`` (top card first) or from a shuffle by ``rng``.

        Cards go one at a time from the dealer's left; the next card is the upcard, covered
        while it is a wild card or a red three (RULES.md 1); the rest is the stock.  In the
        five-player game ``sitting_out`` names the seat of side 0 that sits out (by default
        seat ``2 * (dealer % 3)``).
        """
        state = cls(rules)
        r = state.rules
        if not 0 <= dealer < r.players:
            raise PositionError(f"dealer {dealer} is not a seat (0 to {r.players - 1})")
        if deck is None:
            deck = shuffled_deck(rng if rng is not None else random.Random(), r.decks)
        else:
            if len(deck) != r.deck_size:
                raise PositionError(f"a deck for these rules holds {r.deck_size} cards, not {len(deck)}")
            try:
                check_multiplicity(deck, r.decks, "the deck")
            except CardError as exc:
                raise PositionError(str(exc)) from None
        state.dealer = dealer
        if r.sit_out:
            state.set_sitting_out(2 * (dealer % 3) if sitting_out is None else sitting_out)
        state.turn = state.seat_after[dealer]
        if scores is not None:
            state.scores = list(scores)
        dealt = r.hand_size * r.seated
        seat = state.turn
        for first in range(r.seated):  # one card at a time: seat k gets cards k, k + seated, ...
            cc = state.hand_counts[seat]
            kc = state.kind_counts[seat]
            for code in deck[first:dealt:r.seated]:
                cc[code] += 1
                kc[KIND[code]] += 1
            state.kind_bits[seat] = sum(1 << k for k in range(NUM_KINDS) if kc[k])
            state.hand_sizes[seat] = r.hand_size
            seat = state.seat_after[seat]
        cards = list(deck[dealt:])
        cards.reverse()  # pop() takes the top
        up = cards.pop()
        state._discard_to_pile(up)
        while True:
            k = KIND[up]
            covers = k in (TWO, JOKER_KIND, RED_THREE) or (
                k == BLACK_THREE and r.black_three_upcard == "cover"
            )
            if not covers or not cards:
                break
            if k == BLACK_THREE:
                state.frozen_extra = True
            up = cards.pop()
            state._discard_to_pile(up)
        state.stock = cards
        state.stock_open = len(cards)
        if r.red_threes_at_deal:
            seat = state.turn
            for _ in range(r.seated):
                if not state._lay_out_red_threes(seat):
                    state._end_hand(None)
                    return state
                seat = state.seat_after[seat]
        state._begin_turn()
        return state

    @classmethod
    def setup(
        cls,
        rules: Rules | str = "classic",
        *,
        dealer: int,
        turn: int,
        hands: Sequence[Sequence[int]],
        stock: Sequence[int] = (),
        pile: Sequence[int] = (),
        melds: Sequence[Mapping[int, Sequence[int]]] | None = None,
        red_threes: Sequence[Sequence[int]] | None = None,
        melded: Sequence[bool] | None = None,
        frozen: bool = False,
        scores: Sequence[int] | None = None,
        sitting_out: int | None = None,
        known: Sequence[Sequence[int]] | None = None,
        history: Sequence[tuple[int, Move]] = (),
        turn_so_far: TurnSoFar | None = None,
    ) -> GameState:
        """A state from card codes: the one way to place cards (positions, resampling, tests).

        ``stock`` lists its top card first, ``pile`` its top card last; ``melds`` map a meld
        rank to its cards, one mapping per side; ``melded`` says which seats have melded
        (default: those whose side has a meld); ``frozen`` freezes the pile beyond its
        cards (a black three covered at the deal); ``known`` are the cards known to be in
        each hand (taken with the pile).  Without ``turn_so_far`` the state is at the start
        of ``turn``, whose red threes are laid out (RULES.md 2); with it, mid-turn.  The
        cards are trusted: :func:`canasta.position.from_position` checks positions from outside.

        >>> s = GameState.setup("classic", dealer=3, turn=0, hands=[[0, 1], [5], [9], [13]],
        ...                     stock=[20, 21], pile=[30], melds=[{0: [2, 3, 0]}, {}])
        >>> s.meld_cards(0), s.phase, s.stock[-1]
        ({0: [2, 3, 0]}, Phase.DRAW, 20)
        """
        state = cls(rules)
        r = state.rules
        p, sides = r.players, r.sides
        if not 0 <= dealer < p or not 0 <= turn < p:
            raise PositionError(f"dealer and turn must be seats from 0 to {p - 1}, not {dealer} and {turn}")
        state.dealer = dealer
        state.turn = turn
        if r.sit_out or sitting_out is not None:
            state.set_sitting_out(sitting_out)
            if turn == state.sitting_out:
                raise PositionError(f"seat {turn} sits out this hand and cannot have the turn")
        if scores is not None:
            if len(scores) != sides:
                raise PositionError(f"scores hold one number per side ({sides}), not {len(scores)}")
            state.scores = list(scores)
        if len(hands) != p:
            raise PositionError(f"hands hold one hand per seat ({p}), not {len(hands)}")
        for seat, hand in enumerate(hands):
            for code in hand:
                state._give(seat, code)
        state.stock = list(reversed(stock))
        state.stock_open = len(state.stock)
        for code in pile:
            state._discard_to_pile(code)
        for side, side_melds in enumerate(melds or ()):
            for rank, cards in side_melds.items():
                state._add_to_meld(side, rank, list(cards))
        state.turn_cards = [0] * NUM_MELD_RANKS
        for side, reds in enumerate(red_threes or ()):
            state.red_threes[side] = list(reds)
        if melded is None:
            state.melded = [state.meld_count[s % sides] > 0 for s in range(p)]
        else:
            if len(melded) != p:
                raise PositionError(f"melded holds one flag per seat ({p}), not {len(melded)}")
            state.melded = [bool(f) for f in melded]
        state.frozen_extra = frozen
        for seat, cards in enumerate(known or ()):
            for code in cards:
                state.known[seat][code] += 1
        state.history = list(history)
        if turn_so_far is None:
            state._begin_turn()
        else:
            t = turn_so_far
            state.phase = Phase(t.phase)
            state.drew = None if t.drew is None else Drew(t.drew)
            state.asked = t.asked
            state.answer = t.answer
            if t.turn_cards:
                state.turn_cards = list(t.turn_cards)
            state.turn_melded = any(state.turn_cards)
            state.was_melded = state.melded[turn] if t.was_melded is None else t.was_melded
        return state

    def __repr__(self) -> str:
        where = f"seat {self.to_act} to {self.phase}" if self.phase != OVER_PHASE else "over"
        return (f"<GameState {self.rules.preset}: {where}, stock {len(self.stock)}, pile {len(self.pile)}, "
                f"hands {' '.join(str(n) for n in self.hand_sizes)}>")

    def copy(self) -> GameState:
        """An independent copy (for search); much cheaper than ``copy.deepcopy``."""
        new = GameState.__new__(GameState, _BARE)  # type: ignore[call-arg]  # no __init__ (compiled: one that stops)
        new.rules = self.rules
        new.players = self.players
        new.sides = self.sides
        new.dealer = self.dealer
        new.turn = self.turn
        new.phase = self.phase
        new.scores = self.scores[:]
        new.hand_counts = [h[:] for h in self.hand_counts]
        new.kind_counts = [h[:] for h in self.kind_counts]
        new.kind_bits = self.kind_bits[:]
        new.hand_sizes = self.hand_sizes[:]
        new.stock = self.stock[:]
        new.pile = self.pile[:]
        new.freezers = self.freezers
        new.frozen_extra = self.frozen_extra
        new.melds = [[None if m is None else m[:] for m in side] for side in self.melds]
        new.meld_naturals = [m[:] for m in self.meld_naturals]
        new.meld_wilds = [m[:] for m in self.meld_wilds]
        new.meld_bits = self.meld_bits[:]
        new.meld_count = self.meld_count[:]
        new.canastas = self.canastas[:]
        new.red_threes = [r[:] for r in self.red_threes]
        new.melded = self.melded[:]
        new.known = [k[:] for k in self.known]
        new.history = self.history[:]
        new._history_text = self._history_text if self._history_of is self.history else ()
        new._history_of = new.history
        new.drew = self.drew
        new.asked = self.asked
        new.answer = self.answer
        new.turn_melded = self.turn_melded
        new.turn_cards = self.turn_cards[:]
        new.was_melded = self.was_melded
        new.result = self.result
        new.sitting_out = self.sitting_out
        new.stock_open = self.stock_open
        new.seat_after = self.seat_after
        new.partners = self.partners
        return new

    # -- facts --------------------------------------------------------------------------

    @property
    def to_act(self) -> int:
        """The seat that makes the next move (the partner while an ``ask`` waits for its answer)."""
        if self.phase == ANSWER_PHASE:
            partner = self.partners[self.turn]
            assert partner is not None
            return partner
        return self.turn

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.phase == OVER_PHASE

    def side_of(self, seat: int) -> int:
        """The side a seat plays for."""
        return seat % self.sides

    def history_text(self) -> tuple[tuple[int, str], ...]:
        """The moves so far as ``(seat, move text)``; each move's text is made once."""
        history = self.history
        text = self._history_text
        if self._history_of is not history:  # a new list was set: start again
            text = ()
            self._history_of = history
        if len(text) != len(history):
            text += tuple((who, str(move)) for who, move in history[len(text):])
            self._history_text = text
        return text

    def hand(self, seat: int) -> list[int]:
        """A seat's cards in canonical order."""
        return codes_from_counts(self.hand_counts[seat])

    def pile_frozen(self) -> bool:
        """Frozen for everyone: a wild card or red three in it, or frozen by the rules."""
        return self.freezers > 0 or self.frozen_extra or self.rules.pile_always_frozen

    def frozen_for(self, side: int) -> bool:
        """Frozen against this side (always so for a side with no meld; RULES.md 8)."""
        # pile_frozen() spelled out: this is on the move generator's hot path
        return (self.meld_count[side] == 0 or self.freezers > 0 or self.frozen_extra
                or self.rules.pile_always_frozen)

    def minimum(self, side: int) -> int:
        """The side's first-meld minimum for this hand (from its score before the hand)."""
        return self.rules.minimum(self.scores[side])

    def meld_cards(self, side: int) -> dict[int, list[int]]:
        """A side's melds: rank -> cards."""
        return {r: m[:] for r, m in enumerate(self.melds[side]) if m is not None}

    def match_scores(self) -> list[int]:
        """Match totals: the scores before the hand plus the hand's totals once it is over."""
        if self.result is None:
            return self.scores[:]
        return [s + t for s, t in zip(self.scores, self.result.totals)]

    def winner(self) -> int | None:
        """The side that has won the match with this hand, or None."""
        if self.result is None:
            return None
        return match_winner(self.match_scores(), self.rules.target)

    def card_count(self) -> int:
        """Every card in the position (for conservation checks)."""
        return (
            sum(self.hand_sizes) + len(self.stock) + len(self.pile)
            + sum(len(m) for side in self.melds for m in side if m is not None)
            + sum(len(r) for r in self.red_threes)
        )

    # -- moves --------------------------------------------------------------------------

    def legal_moves(self) -> LegalMoves:
        """The canonical legal moves, lazily (see :mod:`canasta.legal`)."""
        return LegalMoves(self)

    def view(self, seat: int) -> View:
        """What one seat may know (see :mod:`canasta.views`)."""
        return make_view(self, seat)

    def play(self, move: Move | str) -> Move:
        """Parse (if text), check and apply a move; returns the move applied."""
        if isinstance(move, str):
            move = Move.parse(move)
        self.check(move)
        self.push(move)
        return move

    def is_legal(self, move: Move | str) -> bool:
        """True when the move may be played now."""
        try:
            if isinstance(move, str):
                move = Move.parse(move)
            self.check(move)
        except ValueError:
            return False
        return True

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` with the reason when ``move`` may not be played now."""
        reason = judge.reason(self, move)
        if reason is not None:
            raise IllegalMoveError(f"{reason}: {move}")

    def push(self, move: Move) -> None:
        """Apply a move without checking it (the caller knows it is legal)."""
        action = move.action
        if action == DISCARD:
            assert move.card is not None
            self.push_discard(move.card)
            return
        if action == DRAW:
            self.push_draw()
            return
        seat = self.turn
        if self.phase == ANSWER_PHASE:
            seat = self.to_act
        self.history.append((seat, move))
        if action == MELD:
            self._apply_groups(move.groups, None)
            if self.hand_sizes[seat] == 0:
                self._end_hand(seat)
        elif action == PILE:
            self._apply_pile(move.groups)
        elif action == ASK:
            self.asked = True
            self.phase = ANSWER_PHASE
        else:  # yes / no
            self.answer = action == YES
            self.phase = PLAY_PHASE

    def push_draw(self) -> None:
        """``push`` of ``draw``, unchecked: the whole of it, so the fast path of playouts is one call."""
        self.history.append((self.turn, _DRAW_MOVE))
        seat = self.turn
        stock = self.stock
        if not stock:
            self._end_hand(None)
            return
        cc = self.hand_counts[seat]
        kc = self.kind_counts[seat]
        for drawn in range(self.rules.draw):
            if drawn and not stock:
                break
            code = stock.pop()
            kind = KIND[code]
            while kind == RED_THREE:  # laid out at once and replaced (RULES.md 2)
                self.red_threes[seat % self.sides].append(code)
                if not stock:  # the last card was a red three: the hand ends at once
                    self._end_hand(None)
                    return
                code = stock.pop()
                kind = KIND[code]
            cc[code] += 1
            kc[kind] += 1
            if kc[kind] == 1:
                self.kind_bits[seat] |= 1 << kind
            self.hand_sizes[seat] += 1
        self.drew = _STOCK
        self.phase = PLAY_PHASE

    def push_discard(self, code: int) -> None:
        """``push`` of a discard of ``code``, unchecked: the whole of it, one call for the fast path."""
        seat = self.turn
        self.history.append((seat, DISCARD_MOVES[code]))
        self._take(seat, code)
        self._discard_to_pile(code)
        if self.hand_sizes[seat] == 0:
            self._end_hand(seat)
            return
        self.turn = self.seat_after[seat]
        self._begin_turn()

    # -- the checks: see canasta.judge -------------------------------------------------

    def may_go_out(self, side: int, canastas: int | None = None) -> bool:
        """Could the player to move go out with ``canastas`` (default: the side's now)?"""
        return judge.may_go_out(self, side, canastas)

    # -- chance -------------------------------------------------------------------------

    def dealable(self) -> list[int]:
        """The cards chance may deal next from the stock, as a count per card code.

        These are the stock's cards whose place :meth:`deal_card` has not fixed; unless a
        caller fixes them, the stock's order (the shuffle) decides.
        """
        counts = [0] * NUM_CODES
        for code in self.stock[:self.stock_open if self.stock_open < len(self.stock) else len(self.stock)]:
            counts[code] += 1
        return counts

    def deal_card(self, code: int) -> None:
        """Fix the next card chance deals from the stock: ``code``, one of :meth:`dealable`.

        Cards fixed this way come off the stock in the order they were fixed (after any fixed
        before), like PokerKit's manual dealing; the other cards stay in no set order.
        """
        stock = self.stock
        free = min(self.stock_open, len(stock))
        for i in range(free - 1, -1, -1):
            if stock[i] == code:
                stock[i], stock[free - 1] = stock[free - 1], stock[i]
                self.stock_open = free - 1
                return
        raise CardError(f"the stock holds no {card_text(code)} that chance may deal")

    def needs_deal(self, move: Move) -> bool:
        """True while applying ``move`` would take a stock card that :meth:`deal_card` has not fixed.

        A draw takes ``rules.draw`` cards, a red three among them is laid out and replaced;
        a discard starts the next turn, where that player's red threes are laid out and
        replaced.  Other moves take nothing from the stock.
        """
        stock = self.stock
        left = len(stock)
        free = min(self.stock_open, left)
        if not free:
            return False  # every card left is fixed (or none is left)
        action = move.action
        if action == DRAW:
            if not left:
                return False
            replace = self.rules.draw
        elif action == DISCARD:
            seat = self.turn
            if self.hand_sizes[seat] <= 1:
                return False  # the last card: the hand ends
            replace = self.kind_counts[self.seat_after[seat]][RED_THREE]
        else:
            return False
        for _ in range(replace):
            if not left:
                if action == DRAW:
                    return False  # the draw stops with the stock
                continue  # a red three laid out without a replacement
            while True:
                if left <= free:
                    return True
                left -= 1
                if KIND[stock[left]] != RED_THREE:
                    break
                if not left:
                    return False  # the last card was a red three: the hand ends
        return False

    # -- applying -----------------------------------------------------------------------

    def _give(self, seat: int, code: int) -> None:
        self.hand_counts[seat][code] += 1
        kc = self.kind_counts[seat]
        kind = KIND[code]
        kc[kind] += 1
        if kc[kind] == 1:
            self.kind_bits[seat] |= 1 << kind
        self.hand_sizes[seat] += 1

    def _take(self, seat: int, code: int) -> None:
        self.hand_counts[seat][code] -= 1
        kc = self.kind_counts[seat]
        kind = KIND[code]
        kc[kind] -= 1
        if not kc[kind]:
            self.kind_bits[seat] ^= 1 << kind
        self.hand_sizes[seat] -= 1
        known = self.known[seat]
        if known[code]:
            known[code] -= 1

    def _discard_to_pile(self, code: int) -> None:
        self.pile.append(code)
        k = KIND[code]
        if k >= RED_THREE or (k == BLACK_THREE and self.rules.black_three_freezes):
            self.freezers += 1

    def _lay_out_red_threes(self, seat: int) -> bool:
        """Lay out a seat's red threes, replacing each from the stock; False if the hand ended."""
        side = seat % self.sides
        for code in RED_THREE_CODES:
            while self.hand_counts[seat][code]:
                self._take(seat, code)
                self.red_threes[side].append(code)
                # an empty stock gives no replacement, and play goes on
                if self.stock and not self._draw_one(seat):
                    return False
        return True

    def _draw_one(self, seat: int) -> bool:
        """Draw a card, laying out red threes; False when the last card was a red three."""
        side = seat % self.sides
        while True:
            code = self.stock.pop()
            if KIND[code] != RED_THREE:
                self._give(seat, code)
                return True
            self.red_threes[side].append(code)
            if not self.stock:
                return False

    def _apply_groups(self, groups: Sequence[Group], top: int | None) -> None:
        seat = self.turn
        side = seat % self.sides
        cc = self.hand_counts[seat]
        kc = self.kind_counts[seat]
        known = self.known[seat]
        for g in groups:
            rank = g.rank
            cards = list(g.cards)
            for c in cards:
                cc[c] -= 1
                kind = KIND[c]
                kc[kind] -= 1
                if not kc[kind]:
                    self.kind_bits[seat] ^= 1 << kind
                if known[c]:
                    known[c] -= 1
            self.hand_sizes[seat] -= len(cards)
            if rank == top:
                cards.insert(0, self.pile.pop())
                top = None
            self._add_to_meld(side, rank, cards)
        if top is not None:  # `pile` alone: the top card onto the side's meld
            self._add_to_meld(side, top, [self.pile.pop()])
        self.melded[seat] = True
        self.turn_melded = True

    def _add_to_meld(self, side: int, rank: int, cards: list[int]) -> None:
        meld = self.melds[side][rank]
        if meld is None:
            meld = self.melds[side][rank] = []
            self.meld_count[side] += 1
            self.meld_bits[side] |= 1 << rank
        before = len(meld)
        meld.extend(cards)
        wilds = sum([IS_WILD[c] for c in cards])
        self.meld_wilds[side][rank] += wilds
        self.meld_naturals[side][rank] += len(cards) - wilds
        if before < CANASTA_SIZE <= len(meld) and rank != BLACK_THREE:
            self.canastas[side] += 1
        self.turn_cards[rank] += len(cards)

    def _apply_pile(self, groups: Sequence[Group]) -> None:
        seat = self.turn
        side = seat % self.sides
        top = KIND[self.pile[-1]]
        self._apply_groups(groups, top)
        rest = self.pile
        self.pile = []
        self.freezers = 0
        self.frozen_extra = False
        known = self.known[seat]
        for code in rest:
            if KIND[code] == RED_THREE:
                self.red_threes[side].append(code)
            else:
                self._give(seat, code)
                known[code] += 1
        self.drew = _PILE
        self.phase = PLAY_PHASE
        if self.hand_sizes[seat] == 0:
            self._end_hand(seat)

    def _begin_turn(self) -> None:
        self.phase = DRAW_PHASE
        self.drew = None
        self.asked = False
        self.answer = None
        if self.turn_melded:
            self.turn_melded = False
            self.turn_cards = [0] * NUM_MELD_RANKS
        turn = self.turn
        self.was_melded = self.melded[turn]
        if self.kind_bits[turn] & _RED_THREE_BIT and not self._lay_out_red_threes(turn):
            self._end_hand(None)

    def _end_hand(self, went_out: int | None) -> None:
        """Lay out forgotten red threes, score every side, and end the hand."""
        for seat in range(self.players):
            if self.kind_counts[seat][RED_THREE]:
                side = seat % self.sides
                for code in RED_THREE_CODES:
                    while self.hand_counts[seat][code]:
                        self._take(seat, code)
                        self.red_threes[side].append(code)
        concealed = (
            went_out is not None and not self.was_melded and max(self.turn_cards) >= CANASTA_SIZE
        )
        self.result = score_hand(self, went_out, concealed)
        self.phase = OVER_PHASE


_RED_THREE_BIT: Final = 1 << RED_THREE
_BARE: Final = "a bare GameState, for copy()"
_DRAW_MOVE: Final = SIMPLE_MOVES[DRAW]


def check_sitting_out(rules: Rules, seat: object) -> None:
    """Raise :class:`PositionError` unless ``seat`` may sit out a hand under ``rules`` (None: nobody)."""
    if seat is None and rules.sit_out:
        raise PositionError(f"{rules.preset}: name the seat that sits out this hand")
    if seat is not None:
        if not rules.sit_out:
            raise PositionError(f"nobody sits out in {rules.preset}")
        if not isinstance(seat, int) or not 0 <= seat < rules.players or seat % rules.sides != 0:
            raise PositionError(f"the seat sitting out must be a seat of side 0, not {seat!r}")


def _next_active(seat: int, active: list[int], players: int) -> int:
    for step in range(1, players + 1):
        if (seat + step) % players in active:
            return (seat + step) % players
    return seat


def _partner(seat: int, active: list[int], players: int, sides: int) -> int | None:
    """The next seat clockwise on the same side that plays this hand (NOTATION.md)."""
    for step in range(1, players):
        other = (seat + step) % players
        if other % sides == seat % sides and other in active:
            return other
    return None


__all__ = ["ANSWER_PHASE", "DRAW_PHASE", "OVER_PHASE", "PLAY_PHASE", "GameState", "TurnSoFar", "check_sitting_out",
           "score_hand"]
