"""The state of one hand of Canasta: a phase machine that checks and applies moves.

Rules clauses refer to ``shared/spec/RULES.md`` (the default game follows seed 000).
A turn is ``draw`` (draw or take the pile) -> ``play`` (meld, then discard) -> next seat;
``ask`` moves to ``answer``, where the partner says ``yes`` or ``no``.  ``over`` ends the hand.

Every rule lives in one check (:meth:`GameState.check` and the judges it calls), which
raises :class:`IllegalMoveError` with a sentence a player understands.  :meth:`push`
applies a move without checking: the fast path for search.  :meth:`play` parses, checks
and applies.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import (
    BLACK_THREE,
    IS_WILD,
    JOKER_KIND,
    KIND,
    KIND_VALUE,
    NUM_CODES,
    NUM_KINDS,
    NUM_MELD_RANKS,
    RED_THREE,
    TWO,
    VALUE,
    WILD_MELD,
    card_text,
    check_multiplicity,
    codes_from_counts,
    kind_name,
    shuffled_deck,
)
from .errors import CardError, IllegalMoveError, PositionError
from .goingout import can_go_out
from .legal import LegalMoves
from .moves import ASK, DISCARD, DRAW, MELD, NO, PILE, YES, Group, Move
from .rules import Rules
from .scoring import (
    GOING_OUT,
    GOING_OUT_CONCEALED,
    MIXED_CANASTA,
    NATURAL_CANASTA,
    HandResult,
    SideScore,
    match_winner,
)

if TYPE_CHECKING:
    from .views import View

DRAW_PHASE = "draw"
PLAY_PHASE = "play"
ANSWER_PHASE = "answer"
OVER_PHASE = "over"




class GameState:
    """One hand in progress: hands, stock, pile, melds, red threes and whose turn it is."""

    __slots__ = (
        "_history_of",
        "_history_text",
        "answer",
        "asked",
        "canastas",
        "cc",
        "dealer",
        "drew",
        "freezers",
        "frozen_extra",
        "history",
        "hsize",
        "kc",
        "kmask",
        "known",
        "meld_count",
        "melded",
        "melds",
        "mmask",
        "mnat",
        "mwild",
        "nxt",
        "partners",
        "phase",
        "pile",
        "players",
        "red3",
        "result",
        "rules",
        "scores",
        "sides",
        "sitting_out",
        "stock",
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
    phase: str
    scores: list[int]
    cc: list[list[int]]
    kc: list[list[int]]
    kmask: list[int]
    hsize: list[int]
    stock: list[int]
    pile: list[int]
    freezers: int
    frozen_extra: bool
    melds: list[list[list[int] | None]]
    mnat: list[list[int]]
    mwild: list[list[int]]
    mmask: list[int]
    meld_count: list[int]
    canastas: list[int]
    red3: list[list[int]]
    melded: list[bool]
    known: list[list[int]]
    history: list[tuple[int, Move]]
    drew: str | None
    asked: bool
    answer: bool | None
    turn_melded: bool
    turn_cards: list[int]
    was_melded: bool
    result: HandResult | None
    sitting_out: int | None
    nxt: tuple[int, ...]
    partners: tuple[int | None, ...]

    # -- construction -------------------------------------------------------------------

    def __init__(self, rules: Rules | str = "classic") -> None:
        """An empty table; use :meth:`deal` or :func:`canasta.position.from_position`."""
        self.rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
        self.players = self.rules.players
        self.sides = self.rules.sides
        self.dealer = 0
        self.turn = 1 % self.players
        self.phase = DRAW_PHASE
        self.scores = [0] * self.sides
        self.cc = [[0] * NUM_CODES for _ in range(self.players)]
        self.kc = [[0] * NUM_KINDS for _ in range(self.players)]
        self.kmask = [0] * self.players  # bit k set: the seat holds a card of kind k
        self.hsize = [0] * self.players
        self.stock = []
        self.pile = []
        self.freezers = 0
        self.frozen_extra = False
        self.melds = [[None] * NUM_MELD_RANKS for _ in range(self.sides)]
        self.mnat = [[0] * NUM_MELD_RANKS for _ in range(self.sides)]
        self.mwild = [[0] * NUM_MELD_RANKS for _ in range(self.sides)]
        self.mmask = [0] * self.sides  # bit r set: the side has a meld of rank r
        self.meld_count = [0] * self.sides
        self.canastas = [0] * self.sides
        self.red3 = [[] for _ in range(self.sides)]
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
        self._seat(0 if self.rules.sit_out else None)

    def set_sitting_out(self, seat: int | None) -> None:
        """Name the seat that sits out this hand (five-player), or None; sets the seating order."""
        if seat is None and self.rules.sit_out:
            raise PositionError(f"{self.rules.preset}: name the seat that sits out this hand")
        if seat is not None:
            if not self.rules.sit_out:
                raise PositionError(f"nobody sits out in {self.rules.preset}")
            if not isinstance(seat, int) or not 0 <= seat < self.players or seat % self.sides != 0:
                raise PositionError(f"the seat sitting out must be a seat of side 0, not {seat!r}")
        self._seat(seat)

    def _seat(self, seat: int | None) -> None:
        p = self.players
        self.sitting_out = seat
        active = [s for s in range(p) if s != seat]
        self.nxt = tuple(_next_active(s, active, p) for s in range(p))
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
        state.turn = state.nxt[dealer]
        if scores is not None:
            state.scores = list(scores)
        dealt = r.hand_size * r.seated
        seat = state.turn
        for first in range(r.seated):  # one card at a time: seat k gets cards k, k + seated, ...
            cc = state.cc[seat]
            kc = state.kc[seat]
            for code in deck[first:dealt:r.seated]:
                cc[code] += 1
                kc[KIND[code]] += 1
            state.kmask[seat] = sum(1 << k for k in range(NUM_KINDS) if kc[k])
            state.hsize[seat] = r.hand_size
            seat = state.nxt[seat]
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
        if r.red_threes_at_deal:
            seat = state.turn
            for _ in range(r.seated):
                if not state._lay_out_red_threes(seat):
                    state._end_hand(None)
                    return state
                seat = state.nxt[seat]
        state._begin_turn()
        return state

    def copy(self) -> GameState:
        """An independent copy (for search); much cheaper than ``copy.deepcopy``."""
        new = GameState.__new__(GameState)
        new.rules = self.rules
        new.players = self.players
        new.sides = self.sides
        new.dealer = self.dealer
        new.turn = self.turn
        new.phase = self.phase
        new.scores = self.scores[:]
        new.cc = [h[:] for h in self.cc]
        new.kc = [h[:] for h in self.kc]
        new.kmask = self.kmask[:]
        new.hsize = self.hsize[:]
        new.stock = self.stock[:]
        new.pile = self.pile[:]
        new.freezers = self.freezers
        new.frozen_extra = self.frozen_extra
        new.melds = [[None if m is None else m[:] for m in side] for side in self.melds]
        new.mnat = [m[:] for m in self.mnat]
        new.mwild = [m[:] for m in self.mwild]
        new.mmask = self.mmask[:]
        new.meld_count = self.meld_count[:]
        new.canastas = self.canastas[:]
        new.red3 = [r[:] for r in self.red3]
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
        new.nxt = self.nxt
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
        return codes_from_counts(self.cc[seat])

    def pile_frozen(self) -> bool:
        """Frozen for everyone: a wild card or red three in it, or frozen by the rules."""
        return self.freezers > 0 or self.frozen_extra or self.rules.pile_always_frozen

    def frozen_for(self, side: int) -> bool:
        """Frozen against this side (always so for a side with no meld; RULES.md 8)."""
        return self.meld_count[side] == 0 or self.pile_frozen()

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
            sum(self.hsize) + len(self.stock) + len(self.pile)
            + sum(len(m) for side in self.melds for m in side if m is not None)
            + sum(len(r) for r in self.red3)
        )

    # -- moves --------------------------------------------------------------------------

    def legal_moves(self) -> LegalMoves:
        """The canonical legal moves, lazily (see :mod:`canasta.legal`)."""
        return LegalMoves(self)

    def view(self, seat: int) -> View:
        """What one seat may know (see :mod:`canasta.views`)."""
        from .views import make_view

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
        reason = self._reason(move)
        if reason is not None:
            raise IllegalMoveError(f"{reason}: {move}")

    def push(self, move: Move) -> None:
        """Apply a move without checking it (the caller knows it is legal)."""
        action = move.action
        seat = self.turn
        if self.phase == ANSWER_PHASE:
            seat = self.to_act
        self.history.append((seat, move))
        if action == DISCARD:
            assert move.card is not None
            self._apply_discard(move.card)
        elif action == DRAW:
            self._apply_draw()
        elif action == MELD:
            self._apply_groups(move.groups, None)
            if self.hsize[seat] == 0:
                self._end_hand(seat)
        elif action == PILE:
            self._apply_pile(move.groups)
        elif action == ASK:
            self.asked = True
            self.phase = ANSWER_PHASE
        else:  # yes / no
            self.answer = action == YES
            self.phase = PLAY_PHASE

    # -- the checks (one rule, one place) -----------------------------------------------

    def _reason(self, move: Move) -> str | None:
        phase = self.phase
        action = move.action
        if phase == OVER_PHASE:
            return "the hand is over"
        if phase == ANSWER_PHASE:
            if action in (YES, NO):
                return None
            return "your partner must first answer 'may I go out?' with yes or no"
        if action in (YES, NO):
            return "nobody has asked 'may I go out?'"
        seat = self.turn
        if action == DRAW:
            if phase != DRAW_PHASE:
                return "you have already drawn this turn"
            if not self.stock:
                forced = self._forced_pile_reason()
                if forced is not None:
                    return forced
            return None
        if action == PILE:
            if phase != DRAW_PHASE:
                return "you have already drawn this turn; the pile is taken instead of drawing"
            held = self._held_reason(seat, move.cards)
            if held is not None:
                return held
            return self._judge_pile(seat, _kind_groups(move.groups))
        if phase == DRAW_PHASE:
            if action == ASK:
                return "ask after drawing from the stock, before melding anything"
            return "draw from the stock or take the pile first"
        if action == DISCARD:
            assert move.card is not None
            held = self._held_reason(seat, (move.card,))
            if held is not None:
                return held
            return self._judge_discard(seat)
        if action == MELD:
            held = self._held_reason(seat, move.cards)
            if held is not None:
                return held
            return self._judge_meld(seat, _kind_groups(move.groups))
        return self._judge_ask(seat)

    def _held_reason(self, seat: int, cards: Iterable[int]) -> str | None:
        need: dict[int, int] = {}
        for c in cards:
            need[c] = need.get(c, 0) + 1
        counts = self.cc[seat]
        for c, n in need.items():
            if counts[c] < n:
                if counts[c] == 0:
                    return f"you do not hold {card_text(c)}"
                return f"you hold only {counts[c]} {card_text(c)}"
        return None

    def _forced_pile_reason(self) -> str | None:
        """RULES.md 9: with no stock, a pile whose top fits the side's meld must be taken."""
        if self._judge_pile(self.turn, ()) is None:
            top = self.pile[-1]
            return (
                f"the stock is empty and the top card {card_text(top)} fits your side's meld of "
                f"{kind_name(KIND[top])}: you must take the pile"
            )
        return None

    def may_go_out(self, side: int, canastas: int | None = None) -> bool:
        """Could the player to move go out with ``canastas`` (default: the side's now)?"""
        if canastas is None:
            canastas = self.canastas[side]
        return canastas >= self.rules.canastas_to_go_out and self.answer is not False

    def _out_reason(self, side: int) -> str:
        if self.answer is False:
            return "your partner said no, so you may not go out this turn"
        need = self.rules.canastas_to_go_out
        what = "a canasta" if need == 1 else f"{need} canastas"
        return f"you may not go out before your side has {what}"

    def _judge_discard(self, seat: int) -> str | None:
        side = seat % self.sides
        if self.hsize[seat] == 1:
            if not self.may_go_out(side):
                return self._out_reason(side) + ", so you must keep a card"
            return None
        if self.answer is True:
            return "your partner said yes: you must go out this turn, so discard only your last card"
        return None

    def _judge_ask(self, seat: int) -> str | None:
        r = self.rules
        if not r.ask_partner:
            return "at this table nobody asks the partner"
        if self.partners[seat] is None:
            return "you have no partner to ask"
        if self.asked:
            return "you have already asked this turn"
        if self.drew != "stock":
            return "ask only after drawing from the stock, not after taking the pile"
        if self.turn_melded:
            return "ask before you meld anything this turn"
        if not self._can_go_out(seat, self.kc[seat]):
            return "you could not go out this turn, so there is nothing to ask"
        return None

    def _can_go_out(self, seat: int, hand: Sequence[int]) -> bool:
        side = seat % self.sides
        return can_go_out(
            hand, self.mnat[side], self.mwild[side], self.canastas[side],
            self.rules.canastas_to_go_out, self.rules.wilds_at_most_naturals, self.rules.wild_card_melds,
        )

    def _judge_meld(self, seat: int, groups: dict[int, list[int]]) -> str | None:
        if not groups:
            return "meld needs at least one group of cards"
        return self._judge_groups(seat, groups, None, 0)

    def _judge_pile(self, seat: int, groups: dict[int, list[int]] | tuple[()]) -> str | None:
        pile = self.pile
        if not pile:
            return "the pile is empty"
        top = pile[-1]
        tk = KIND[top]
        if tk == JOKER_KIND or tk == TWO:
            return "a wild card on top of the pile blocks it"
        if tk == BLACK_THREE:
            return "a black three on top of the pile blocks it"
        if tk == RED_THREE:
            return "a red three on top of the pile blocks it"
        h = self.hsize[seat]
        if h == 1 and len(pile) == 1:
            return "with one card in your hand you may not take a pile of one card"
        side = seat % self.sides
        merged: dict[int, list[int]] = {r: g[:] for r, g in groups.items()} if groups else {}
        own = merged.get(tk)
        rank = kind_name(tk)
        exists = self.melds[side][tk] is not None
        if self.frozen_for(side):
            why = "the pile is frozen" if self.pile_frozen() else "the pile is frozen against a side with no meld"
            if own is None or own[0] < 2:
                return f"{why}: you need two natural {rank} from your hand to take it"
            if own[1] or own[2]:
                return f"{why}: wild cards cannot help take it, only two natural {rank} from your hand"
        else:
            r = self.rules
            if r.two_naturals_to_take and (own is None or own[0] < 2):
                return f"at this table the pile needs two natural {rank} from your hand"
            if (r.no_pile_for_finished_canasta and exists and self.mnat[side][tk] + self.mwild[side][tk] >= 7
                    and (own is None or own[0] < 2)):
                return (f"at this table the pile may not be taken just to add its top card to "
                        f"your finished canasta of {rank}")
            if not exists and (own is None or own[0] == 0):
                return (f"to take the pile you must meld its top card: you need two natural {rank}, "
                        f"or one and a wild card, or a meld of {rank} on your side")
        if own is None:
            merged[tk] = [0, 0, 0]
        # The rest of the pile joins the hand, but for its red threes, which are laid out.
        gained = len(pile) - 1 - sum(1 for c in pile if KIND[c] == RED_THREE)
        return self._judge_groups(seat, merged, tk, gained)

    def _judge_groups(
        self, seat: int, groups: dict[int, list[int]], top: int | None, gained: int
    ) -> str | None:
        """Judge melding ``groups`` (rank -> [naturals, twos, jokers] from the hand).

        ``top`` is the rank of the pile's top card, which joins that group; ``gained`` is
        how many more cards the pile then adds to the hand.
        """
        side = seat % self.sides
        r = self.rules
        mnat = self.mnat[side]
        mwild = self.mwild[side]
        exists = self.melds[side]
        used = 0
        value = 0
        new_canastas = 0
        black = False
        wild_meld = exists[WILD_MELD] is not None
        wilds_elsewhere = False
        for rank, (n, t, j) in groups.items():
            w = t + j
            used += n + w
            if rank == WILD_MELD:
                if not r.wild_card_melds:
                    return "a group of wild cards only must name the meld it joins, like K: 2C JK"
                size = mwild[WILD_MELD]
                if size + w < 3:
                    return "a meld of wild cards needs at least three of them"
                if size < 7 <= size + w:
                    new_canastas += 1
                wild_meld = True
                value += 20 * t + 50 * j
                continue
            if w:
                wilds_elsewhere = True
            if rank == RED_THREE:
                return "red threes are never melded; they are laid out"
            if rank == BLACK_THREE:
                if w:
                    return "black threes are melded without wild cards"
                total = mnat[BLACK_THREE] + n
                if not 3 <= total <= 4:
                    return "a meld of black threes holds 3 or 4 of them"
                black = True
                value += 5 * n
                continue
            extra = 1 if rank == top else 0
            nat = mnat[rank] + n + extra
            wild = mwild[rank] + w
            name = kind_name(rank)
            if exists[rank] is None:
                if n + extra == 0:
                    return f"your side has no meld of {name} to add wild cards to"
                if n + extra < 2:
                    theirs = any(self.melds[o][rank] is not None for o in range(self.sides) if o != side)
                    if theirs:
                        return (f"your side has no meld of {name}, and you may not add to the other "
                                f"side's meld")
                    return f"a new meld needs at least two natural cards: you have one of the {name}"
                if nat + wild < 3:
                    return f"a meld needs at least three cards: {nat + wild} {name} are not enough"
            if wild > 3:
                return f"a meld holds at most three wild cards; your meld of {name} would hold {wild}"
            if r.wilds_at_most_naturals and wild > nat:
                return f"at this table a meld may not hold more wild cards than natural ones ({name})"
            before = mnat[rank] + mwild[rank]
            if before < 7 <= nat + wild:
                new_canastas += 1
            value += (n + extra) * KIND_VALUE[rank] + 20 * t + 50 * j
        if wild_meld and wilds_elsewhere:
            return "a side with a meld of wild cards may not use wild cards in its other melds"
        left = self.hsize[seat] - used + gained
        if left < 0:
            return "you do not hold those cards"
        out_ok = self.may_go_out(side, self.canastas[side] + new_canastas)
        if left <= 1 and not out_ok:
            return self._out_reason(side) + ", so you must keep at least two cards after melding"
        if black and not (left <= 1 and out_ok):
            return "black threes may be melded only when going out"
        if self.meld_count[side] == 0:
            concealed = top is None and self.drew == "stock" and not self.was_melded and left <= 1
            minimum = self.minimum(side)
            if value < minimum and not concealed:
                return (f"your side's first meld must be worth at least {minimum} "
                        f"(these cards are worth {value})")
        if self.answer is True and left >= 1 and top is None:
            hand = self.kc[seat][:]
            for rank, (n, t, j) in groups.items():
                hand[rank] -= n
                hand[TWO] -= t
                hand[JOKER_KIND] -= j
            if not self._can_go_out_after(seat, hand, groups):
                return "your partner said yes: you must go out this turn, and after this meld you could not"
        return None

    def _can_go_out_after(self, seat: int, hand: list[int], groups: dict[int, list[int]]) -> bool:
        side = seat % self.sides
        mnat = self.mnat[side][:]
        mwild = self.mwild[side][:]
        canastas = self.canastas[side]
        for rank, (n, t, j) in groups.items():
            before = mnat[rank] + mwild[rank]
            mnat[rank] += n
            mwild[rank] += t + j
            if before < 7 <= mnat[rank] + mwild[rank]:
                canastas += 1
        return can_go_out(hand, mnat, mwild, canastas, self.rules.canastas_to_go_out,
                          self.rules.wilds_at_most_naturals, self.rules.wild_card_melds)

    # -- applying -----------------------------------------------------------------------

    def _give(self, seat: int, code: int) -> None:
        self.cc[seat][code] += 1
        kc = self.kc[seat]
        kind = KIND[code]
        kc[kind] += 1
        if kc[kind] == 1:
            self.kmask[seat] |= 1 << kind
        self.hsize[seat] += 1

    def _take(self, seat: int, code: int) -> None:
        self.cc[seat][code] -= 1
        kc = self.kc[seat]
        kind = KIND[code]
        kc[kind] -= 1
        if not kc[kind]:
            self.kmask[seat] ^= 1 << kind
        self.hsize[seat] -= 1
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
        for code in (4 * 11 + 1, 4 * 11 + 2):  # 3H, 3D
            while self.cc[seat][code]:
                self._take(seat, code)
                self.red3[side].append(code)
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
            self.red3[side].append(code)
            if not self.stock:
                return False

    def _apply_draw(self) -> None:
        seat = self.turn
        stock = self.stock
        if not stock:
            self._end_hand(None)
            return
        cc = self.cc[seat]
        kc = self.kc[seat]
        for drawn in range(self.rules.draw):
            if drawn and not stock:
                break
            code = stock.pop()
            kind = KIND[code]
            while kind == RED_THREE:  # laid out at once and replaced (RULES.md 2)
                self.red3[seat % self.sides].append(code)
                if not stock:  # the last card was a red three: the hand ends at once
                    self._end_hand(None)
                    return
                code = stock.pop()
                kind = KIND[code]
            cc[code] += 1
            kc[kind] += 1
            if kc[kind] == 1:
                self.kmask[seat] |= 1 << kind
            self.hsize[seat] += 1
        self.drew = "stock"
        self.phase = PLAY_PHASE

    def _apply_groups(self, groups: Sequence[Group], top: int | None) -> None:
        seat = self.turn
        side = seat % self.sides
        cc = self.cc[seat]
        kc = self.kc[seat]
        known = self.known[seat]
        for g in groups:
            rank = g.rank
            cards = list(g.cards)
            for c in cards:
                cc[c] -= 1
                kind = KIND[c]
                kc[kind] -= 1
                if not kc[kind]:
                    self.kmask[seat] ^= 1 << kind
                if known[c]:
                    known[c] -= 1
            self.hsize[seat] -= len(cards)
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
            self.mmask[side] |= 1 << rank
        before = len(meld)
        meld.extend(cards)
        wilds = sum([IS_WILD[c] for c in cards])
        self.mwild[side][rank] += wilds
        self.mnat[side][rank] += len(cards) - wilds
        if before < 7 <= len(meld) and rank != BLACK_THREE:
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
                self.red3[side].append(code)
            else:
                self._give(seat, code)
                known[code] += 1
        self.drew = "pile"
        self.phase = PLAY_PHASE
        if self.hsize[seat] == 0:
            self._end_hand(seat)

    def _apply_discard(self, code: int) -> None:
        seat = self.turn
        self._take(seat, code)
        self._discard_to_pile(code)
        if self.hsize[seat] == 0:
            self._end_hand(seat)
            return
        self.turn = self.nxt[seat]
        self._begin_turn()

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
        if self.kmask[turn] & _RED_THREE_BIT and not self._lay_out_red_threes(turn):
            self._end_hand(None)

    def _end_hand(self, went_out: int | None) -> None:
        """Lay out forgotten red threes, score every side, and end the hand."""
        for seat in range(self.players):
            if self.kc[seat][RED_THREE]:
                side = seat % self.sides
                for code in (4 * 11 + 1, 4 * 11 + 2):
                    while self.cc[seat][code]:
                        self._take(seat, code)
                        self.red3[side].append(code)
        concealed = (
            went_out is not None and not self.was_melded and max(self.turn_cards) >= 7
        )
        self.result = score_hand(self, went_out, concealed)
        self.phase = OVER_PHASE


_RED_THREE_BIT = 1 << RED_THREE


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


def _kind_groups(groups: Sequence[Group]) -> dict[int, list[int]]:
    """Merge a move's groups by rank into [naturals, twos, jokers] counts."""
    merged: dict[int, list[int]] = {}
    for g in groups:
        entry = merged.get(g.rank)
        if entry is None:
            entry = merged[g.rank] = [0, 0, 0]
        for c in g.cards:
            k = KIND[c]
            if k == TWO:
                entry[1] += 1
            elif k == JOKER_KIND:
                entry[2] += 1
            else:
                entry[0] += 1
    return merged


def score_hand(state: GameState, went_out: int | None, concealed: bool) -> HandResult:
    """Score every side of a finished hand, item by item (RULES.md 13-14)."""
    rules = state.rules
    sides = []
    for side in range(state.sides):
        natural = mixed = wild = melded_points = penalty = 0
        for rank, meld in enumerate(state.melds[side]):
            if meld is None:
                continue
            melded_points += sum(VALUE[c] for c in meld)
            if rank == WILD_MELD:
                if len(meld) >= 7:
                    wild += 1
                else:
                    penalty += rules.unfinished_wild_meld_penalty
            elif rank != BLACK_THREE and len(meld) >= 7:
                if state.mwild[side][rank]:
                    mixed += 1
                else:
                    natural += 1
        in_hand = sum(
            VALUE[c] * n
            for seat in range(side, state.players, state.sides)
            for c, n in enumerate(state.cc[seat])
            if n
        )
        reds = len(state.red3[side])
        red_points = rules.red_three_points(reds)
        if state.meld_count[side] == 0:
            red_points = -red_points
        going_out = 0
        if went_out is not None and went_out % state.sides == side:
            going_out = GOING_OUT_CONCEALED if concealed and rules.concealed_bonus else GOING_OUT
        sides.append(SideScore(
            natural_canastas=natural,
            mixed_canastas=mixed,
            wild_canastas=wild,
            canasta_bonus=(NATURAL_CANASTA * natural + MIXED_CANASTA * mixed + rules.wild_canasta_bonus * wild
                           - penalty),
            red_threes=reds,
            red_three_points=red_points,
            going_out=going_out,
            melded=melded_points,
            in_hand=in_hand,
            wild_bonus=rules.wild_canasta_bonus * wild,
            wild_penalty=penalty,
        ))
    return HandResult(tuple(sides), went_out, concealed and rules.concealed_bonus)


__all__ = ["ANSWER_PHASE", "DRAW_PHASE", "OVER_PHASE", "PLAY_PHASE", "GameState", "score_hand"]
