"""The selection service: from the cards a player pointed at and an action to the moves they can mean.

Both front ends ask :func:`choices` and nothing else, so that they offer the same moves and give
the same reasons: the terminal's keys (``m`` meld, ``p`` take the pile...) and the page's buttons
and meld clicks (through the server's ``resolve`` message, docs/protocol.md).  The groupings are
:func:`canasta.legal.resolve`'s (each wild card may join any rank the selection or the side's
melds offer); this module first says what is wrong with the selection itself, in words about the
cards selected and the cards held ("you selected one 5 and hold another"), and with nothing
selected gives the sentence of a disabled button (:func:`canasta.judge.unavailable_reason`),
which names no card.

>>> from canasta.position import from_position
>>> from canasta.cards import parse_cards
>>> s = from_position({"rules": "classic", "dealer": 3, "turn": 0, "stock": ["6C"], "pile": ["4D"],
...     "hands": [["9S", "9H", "9D", "JK", "5S", "5C", "7H"], ["4C"], ["4H"], ["4S"]],
...     "melds": [{"K": ["KS", "KD", "KC"]}, {}], "melded": [True, False, False, False]})
>>> _ = s.play("draw")
>>> [str(m) for m in choices(s, 0, parse_cards(["9S", "9H", "9D", "JK"]), "meld").moves]
['meld 9S 9H 9D JK', 'meld K: JK, 9S 9H 9D']
>>> print(choices(s, 0, parse_cards(["5C", "JK"]), "meld").reason)
a new meld of 5s needs at least two natural 5s: you selected one (5C) and hold another
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .cards import BLACK_THREE, IS_WILD, KIND, NUM_MELD_RANKS, NUM_NATURAL, RED_THREE, WILD_MELD, card_text, kind_name
from .judge import BLOCKS, held_reason, phase_reason, pile_reason, unavailable_reason
from .legal import resolve
from .moves import ACTIONS, DISCARD, MELD, PILE, Move

if TYPE_CHECKING:
    from .state import GameState

SELECT_TO_MELD: Final = "select the cards to meld first"
"""The reason for a meld of no card while some meld is possible (a front end may say how to select)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """What a selection can mean: the legal moves (canonical text, groups by rank), or why none."""

    moves: tuple[Move, ...]
    reason: str | None
    """None when there are moves; else one sentence about the cards selected and held."""

    @property
    def texts(self) -> list[str]:
        """The moves as text."""
        return [str(m) for m in self.moves]


def choices(state: GameState, seat: int, cards: Sequence[int], action: str, onto: int | None = None) -> Choice:
    """The legal moves of ``action`` by ``seat`` that lay exactly ``cards`` (codes from its hand), or why none can.

    - ``meld``: every way the selected cards make one move (natural cards grouped by rank, each wild
      card on any rank that could take it), the fewest groups first; with ``onto`` (a meld rank),
      the wild cards all go on the side's meld of that rank, as clicking that meld means.
    - ``pile``: the top card is implied; with no card selected, every way to take the pile
      (:meth:`GameState.legal_moves <canasta.state.GameState.legal_moves>`' list).
    - ``discard``: one card; ``draw``, ``ask``, ``yes`` and ``no`` take none.

    With nothing selected and no such move, the reason is the disabled button's
    (:func:`~canasta.judge.unavailable_reason`).  Never raises for what a client may send.
    """
    if state.is_over:
        return _no("the hand is over")
    if state.to_act != seat:
        return _no("it is not your turn")
    if action not in ACTIONS:
        return _no(f"unknown action {action[:20]!r}")
    if onto is not None and (action != MELD or not 0 <= onto < NUM_MELD_RANKS):
        return _no("only a meld adds cards to a meld on the table")
    why = phase_reason(state, action)
    if why is not None:
        return _no(why)
    why = held_reason(state, seat, cards)
    if why is not None:
        return _no(why)
    if action == DISCARD and len(cards) > 1:
        return _no(f"select only one card to discard: you selected {len(cards)} ({_texts(cards)})")
    if action not in (MELD, PILE):
        return _answer(*resolve(state, seat, cards, action))
    if action == PILE and (not state.pile or BLOCKS[state.pile[-1]]):
        return _no(pile_reason(state, seat, {}) or "the pile cannot be taken now")
    if not cards:
        legal = [m for m in state.legal_moves() if m.action == action]
        if action == PILE and legal:
            return Choice(tuple(legal), None)
        return _no(SELECT_TO_MELD if legal else unavailable_reason(state, seat, action))
    why = _selection_reason(state, seat, cards, action, onto)
    if why is not None:
        return _no(why)
    return _answer(*resolve(state, seat, cards, action, onto=onto))


def _selection_reason(state: GameState, seat: int, cards: Sequence[int], action: str, onto: int | None) -> str | None:
    """What is wrong with the selection itself, whatever way its cards were grouped (or None)."""
    side = seat % state.sides
    melds = state.melds[side]
    reds = [c for c in cards if KIND[c] == RED_THREE]
    if reds:
        return f"you selected {_texts(reds)}: red threes are never melded; they are laid out"
    wilds = [c for c in cards if IS_WILD[c]]
    naturals: dict[int, list[int]] = {}
    for code in sorted(c for c in cards if not IS_WILD[c]):
        naturals.setdefault(KIND[code], []).append(code)
    lead = KIND[state.pile[-1]] if action == PILE else -1  # the top card joins its rank's group
    if onto is not None:
        name = "wild cards" if onto == WILD_MELD else kind_name(onto)
        if melds[onto] is None:
            return f"your side has no meld of {name} to add to"
        if not (onto in naturals or (wilds and onto != BLACK_THREE)):
            fits = "only wild cards do" if onto == WILD_MELD else f"only {name} do" if onto == BLACK_THREE \
                else f"only {name} and wild cards do"
            return f"none of the cards you selected ({_texts(cards)}) goes on your meld of {name}: {fits}"
    short = _too_short(state, seat, naturals, lead)
    if short is not None:
        return short
    if wilds and onto is None:
        targets = {r for r in naturals if r < NUM_NATURAL} | {r for r in range(NUM_NATURAL) if melds[r] is not None}
        if lead >= 0:
            targets.add(lead)
        if not targets and not state.rules.wild_card_melds:
            return (f"the wild cards you selected ({_texts(wilds)}) have no meld to join: select natural cards "
                    "of one rank with them, or add them to a meld of your side's")
    return None


def _too_short(state: GameState, seat: int, naturals: dict[int, list[int]], lead: int) -> str | None:
    """The sentence for selected ranks with one natural card each and no meld of the side's to join
    (no wild card can make up for it), speaking of the card selected and the others held; or None."""
    side = seat % state.sides
    short = [r for r, codes in naturals.items()
             if r < NUM_NATURAL and state.melds[side][r] is None and len(codes) + (r == lead) < 2]
    if not short:
        return None
    kc = state.kind_counts[seat]

    def more(rank: int) -> str:
        extra = kc[rank] - len(naturals[rank])
        return "no other" if extra <= 0 else "another" if extra == 1 else f"{extra} more"

    if len(short) == 1:
        rank = short[0]
        name = kind_name(rank)
        said = (f"a new meld of {name} needs at least two natural {name}: "
                f"you selected one ({card_text(naturals[rank][0])}) and hold {more(rank)}")
    else:
        parts = [f"one {kind_name(r, False)} ({card_text(naturals[r][0])}; you hold {more(r)})" for r in short]
        said = ("a new meld needs at least two natural cards of its rank: you selected "
                + ", ".join(parts[:-1]) + " and " + parts[-1])
    theirs = [kind_name(r) for r in short
              if any(state.melds[o][r] is not None for o in range(state.sides) if o != side)]
    if len(theirs) == 1:
        said += f" (the other side's meld of {theirs[0]} is not yours to add to)"
    elif theirs:
        said += f" (the other side's melds of {', '.join(theirs[:-1])} and {theirs[-1]} are not yours to add to)"
    return said


def _texts(cards: Sequence[int]) -> str:
    return " ".join(card_text(c) for c in sorted(cards))


def _no(reason: str) -> Choice:
    return Choice((), reason)


def _answer(moves: list[Move], reason: str | None) -> Choice:
    """The moves, fewest groups first (the wild cards with the natural cards selected before elsewhere)."""
    if moves:
        return Choice(tuple(sorted(moves, key=lambda m: len(m.groups))), None)
    return Choice((), reason or "these cards make no move")


__all__ = ["SELECT_TO_MELD", "Choice", "choices"]
