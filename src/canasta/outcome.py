"""What a move did, as the table saw it: the record every front end tells (PokerKit's operations, RLCard's
move sheet).

A move's notation says what the player chose (``pile 9S 9H``); its :class:`Outcome` adds what
happened that the notation leaves out: the pile's size and top card when it was taken, the melds
made and those added to, the red threes laid out (and by whom), the hand's end, and, for the
mover alone, the cards drawn.  :func:`play` checks and applies a move and returns its outcome; the
engine works it out once, here, so no front end compares states to find it.
``GameState.push`` stays the fast path for search and keeps no record.

>>> from canasta import from_position
>>> state = from_position({"rules": "classic", "dealer": 3, "turn": 0,
...     "hands": [["9S", "9H", "KS", "5C"], ["4C"], ["4H"], ["4S"]], "stock": ["6C"],
...     "pile": ["7D", "9D"], "melds": [{"K": ["KD", "KC", "KH"]}, {}]})
>>> taken = play(state, "pile 9S 9H")
>>> taken.took, card_text(taken.top or 0), taken.melded
(2, '9D', ('9',))
>>> added = play(state, "meld KS")
>>> added.added, added.to_json()
(('K',), {'seat': 0, 'move': 'meld KS', 'added': ['K']})

What the deal itself showed (the pile's first cards, red threes laid out before anybody moved) is
a :class:`Dealt`, made by :func:`dealt` from the state just dealt.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .cards import MELD_RANK_CHARS, RED_THREE_CODES, card_text, parse_card
from .moves import DRAW, MELD, PILE, Move

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True, slots=True)
class Outcome:
    """One move's record: who moved, what they chose, and what the table saw it do.

    Ranks are meld ranks as the notation writes them (``"9"``, ``"K"``, ``"W"`` for the wild
    cards' meld); cards are card codes.  :attr:`drew` is the mover's alone: :meth:`public` drops it.
    """

    seat: int
    move: Move
    took: int = 0
    """Cards in the pile when it was taken (0: not taken)."""
    top: int | None = None
    """The pile's top card when it was taken."""
    melded: tuple[str, ...] = ()
    """Ranks of the melds the move made."""
    added: tuple[str, ...] = ()
    """Ranks of melds already on the table that the move added to."""
    reds: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """Red threes laid out during the move: ``(seat, cards)``: the mover's own, or the next player's
    (dealt to them, laid out as their turn begins)."""
    hand_over: bool = False
    """The move ended the hand."""
    drew: tuple[int, ...] = ()
    """The cards new in the mover's hand: drawn from the stock (red threes laid out are in :attr:`reds`), or
    kept from the pile taken.  Theirs alone: :meth:`public` drops them."""

    def public(self) -> Outcome:
        """The outcome as every seat saw it (without the cards drawn)."""
        return replace(self, drew=()) if self.drew else self

    def to_json(self, private: bool = False) -> dict[str, Any]:
        """The record as JSON (cards as text); only what happened is written; ``private`` keeps :attr:`drew`."""
        data: dict[str, Any] = {"seat": self.seat, "move": str(self.move)}
        if self.took:
            data["took"] = self.took
        if self.top is not None:
            data["top"] = card_text(self.top)
        if self.melded:
            data["melded"] = list(self.melded)
        if self.added:
            data["added"] = list(self.added)
        if self.reds:
            data["reds"] = [{"seat": seat, "cards": [card_text(c) for c in cards]} for seat, cards in self.reds]
        if self.hand_over:
            data["hand_over"] = True
        if private and self.drew:
            data["drew"] = [card_text(c) for c in self.drew]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        """The record that :meth:`to_json` wrote."""
        return cls(
            seat=int(data["seat"]), move=Move.parse(data["move"]), took=int(data.get("took", 0)),
            top=parse_card(data["top"]) if data.get("top") is not None else None,
            melded=tuple(data.get("melded", ())), added=tuple(data.get("added", ())),
            reds=tuple((int(r["seat"]), tuple(parse_card(c) for c in r["cards"])) for r in data.get("reds", ())),
            hand_over=bool(data.get("hand_over", False)), drew=tuple(parse_card(c) for c in data.get("drew", ())))


@dataclass(frozen=True, slots=True)
class Dealt:
    """What everybody saw of a new deal: the pile as it was turned up, and the red threes laid out
    before the first move, by side (``(side, cards)``)."""

    pile: tuple[int, ...] = ()
    reds: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The record as JSON (cards as text)."""
        data: dict[str, Any] = {"pile": [card_text(c) for c in self.pile]}
        if self.reds:
            data["reds"] = [{"side": side, "cards": [card_text(c) for c in cards]} for side, cards in self.reds]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Dealt:
        """The record that :meth:`to_json` wrote."""
        return cls(pile=tuple(parse_card(c) for c in data.get("pile", ())),
                   reds=tuple((int(r["side"]), tuple(parse_card(c) for c in r["cards"])) for r in data.get("reds", ())))


def dealt(state: GameState) -> Dealt:
    """What the deal of ``state`` showed (before its first move)."""
    reds = tuple((side, tuple(cards)) for side, cards in enumerate(state.red_threes) if cards)
    return Dealt(pile=tuple(state.pile), reds=reds)


def play(state: GameState, move: Move | str) -> Outcome:
    """Check and apply ``move`` (:meth:`GameState.play <canasta.state.GameState.play>`); what it did."""
    seat = state.to_act
    side = seat % state.sides
    pile = list(state.pile)
    sizes = [[len(m) if m is not None else 0 for m in melds] for melds in state.melds]
    reds = [len(r) for r in state.red_threes]
    hand = Counter(state.hand(seat)) if not state.is_over else Counter()
    was_over = state.is_over
    applied = state.play(move)
    after = state.melds[side]
    grown = [rank for rank, size in enumerate(sizes[side]) if len(after[rank] or ()) > size]
    laid = []
    for other, count in enumerate(reds):
        cards = tuple(state.red_threes[other][count:])
        if cards:  # the mover's side laid them out; another side's, the player whose turn began
            laid.append((seat if other == side else state.turn, cards))
    drew: tuple[int, ...] = ()
    if applied.action in (DRAW, PILE):
        drew = tuple(c for c in sorted((Counter(state.hand(seat)) - hand).elements()) if c not in RED_THREE_CODES)
    return Outcome(
        seat=seat, move=applied,
        took=len(pile) if applied.action == PILE and pile else 0,
        top=pile[-1] if applied.action == PILE and pile else None,
        melded=tuple(MELD_RANK_CHARS[r] for r in grown if not sizes[side][r]) if applied.action in (MELD, PILE) else (),
        added=tuple(MELD_RANK_CHARS[r] for r in grown if sizes[side][r]) if applied.action in (MELD, PILE) else (),
        reds=tuple(laid), hand_over=state.is_over and not was_over, drew=drew)
