"""Moves and their text (NOTATION.md, "Moves").

A move is one line: ``draw``, ``pile GROUPS``, ``meld GROUPS``, ``discard CARD``, ``ask``,
``yes``, ``no``.  A group is cards of one rank, or wild cards naming the meld they join
(``K: 2C JK``).  Every move prints as the canonical text that parses back to it.

>>> m = Move.parse("meld 2c kd ks, QS QH QC")
>>> str(m)
'meld KS KD 2C, QS QH QC'
>>> Move.parse("meld K: jk 2c").groups[0].rank == RANK_NAMES.index("K")
True
>>> Move.parse("fly")
Traceback (most recent call last):
...
canasta.errors.MoveSyntaxError: unknown move 'fly' (moves are draw, pile, meld, discard, ask, yes, no)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from .cards import (
    BLACK_THREE,
    JOKER_KIND,
    KIND,
    MELD_RANK_CHARS,
    NUM_CODES,
    NUM_NATURAL,
    RED_THREE,
    TWO,
    WILD_MELD,
    card_text,
    kind_name,
    parse_card,
)
from .errors import CardError, MoveSyntaxError

DRAW: Final = "draw"
PILE: Final = "pile"
MELD: Final = "meld"
DISCARD: Final = "discard"
ASK: Final = "ask"
YES: Final = "yes"
NO: Final = "no"
ACTIONS: Final = (DRAW, PILE, MELD, DISCARD, ASK, YES, NO)



class Phase(StrEnum):
    """Where a turn stands (RULES.md 5): draw, then play (meld and discard); answer while an
    ``ask`` waits for the partner; over once the hand has ended.  Each is its text
    (``Phase.DRAW == "draw"``), so positions, views and the protocol keep their strings.
    """

    DRAW = "draw"
    PLAY = "play"
    ANSWER = "answer"
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


class Drew(StrEnum):
    """How the player to move began the turn: from the stock or by taking the pile."""

    STOCK = "stock"
    PILE = "pile"

    def __repr__(self) -> str:
        return f"Drew.{self.name}"


RANK_NAMES: Final = MELD_RANK_CHARS  # index = meld rank: A .. 4, then 3 (black threes), W (wild cards)


@dataclass(frozen=True, slots=True)
class Group:
    """Cards laid on one meld: ``rank`` is the meld's rank, ``cards`` in canonical order."""

    rank: int
    cards: tuple[int, ...]

    @classmethod
    def of(cls, cards: list[int] | tuple[int, ...], rank: int | None = None) -> Group:
        """A group from its cards; the rank comes from the natural cards (or black threes)."""
        ranks = {KIND[c] for c in cards if KIND[c] < NUM_NATURAL or KIND[c] in (BLACK_THREE, RED_THREE)}
        if len(ranks) > 1 and RED_THREE in ranks:
            raise MoveSyntaxError("red threes are never melded; they are laid out")
        if len(ranks) > 1 and BLACK_THREE in ranks:
            other = min(ranks)
            raise MoveSyntaxError(f"a black three cannot join a meld of {kind_name(other)}")
        if len(ranks) > 1:
            raise MoveSyntaxError(
                "a group holds cards of one rank: " + " ".join(card_text(c) for c in sorted(cards))
            )
        if ranks:
            found = ranks.pop()
            if rank is not None and rank != found:
                raise MoveSyntaxError(
                    f"the group {' '.join(card_text(c) for c in sorted(cards))} is not of rank "
                    f"{RANK_NAMES[rank]}"
                )
            rank = found
        elif rank is None:
            rank = WILD_MELD  # a meld of wild cards; the rules say whether the table plays them
        return cls(rank, tuple(sorted(cards)))

    @property
    def naturals(self) -> int:
        """How many natural cards (or black threes) the group holds."""
        return sum(1 for c in self.cards if KIND[c] not in (TWO, JOKER_KIND))

    @property
    def wilds(self) -> int:
        """How many wild cards the group holds."""
        return sum(1 for c in self.cards if KIND[c] in (TWO, JOKER_KIND))

    def __repr__(self) -> str:
        return f"Group.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[Group], tuple[int, tuple[int, ...]]]:
        return Group, (self.rank, self.cards)  # pickled by its fields: so it is compiled too (mypyc)

    @classmethod
    def parse(cls, text: str) -> Group:
        """Parse one group (``KS KD 2C`` or ``K: 2C JK``)."""
        return _group(text, text)

    def __str__(self) -> str:
        text = " ".join(card_text(c) for c in self.cards)
        if self.naturals == 0 and self.rank != WILD_MELD:
            return f"{RANK_NAMES[self.rank]}: {text}"
        return text


@dataclass(frozen=True, slots=True)
class Move:
    """One move; ``groups`` for ``pile`` and ``meld``, ``card`` for ``discard``."""

    action: str
    groups: tuple[Group, ...] = ()
    card: int | None = None
    _text: str | None = field(default=None, init=False, repr=False, compare=False)  # str(), once made

    @classmethod
    def parse(cls, text: object) -> Move:
        """Parse one line of move text; raises :class:`MoveSyntaxError` naming the problem (also for non-text)."""
        if not isinstance(text, str):
            raise MoveSyntaxError(f"a move is a line of text, not {text!r}")
        line = text.strip()
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word in (DRAW, ASK, YES, NO):
            if rest:
                raise MoveSyntaxError(f"{word!r} takes nothing after it: {line!r}")
            return _SIMPLE[word]
        if word == DISCARD:
            parts = rest.split()
            if len(parts) != 1:
                raise MoveSyntaxError(f"discard names exactly one card: {line!r}")
            return cls(DISCARD, card=_card(parts[0], line))
        if word in (PILE, MELD):
            if not rest:
                if word == PILE:
                    return _SIMPLE[PILE]
                raise MoveSyntaxError("meld needs at least one group of cards, like 'meld KS KD KC'")
            return cls(word, groups=tuple(_group(g, line) for g in rest.split(",")))
        if not word:
            raise MoveSyntaxError("empty move")
        raise MoveSyntaxError(f"unknown move {line!r} (moves are draw, pile, meld, discard, ask, yes, no)")

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[Move], tuple[str, tuple[Group, ...], int | None]]:
        return Move, (self.action, self.groups, self.card)  # pickled by its fields: so it is compiled too

    def __str__(self) -> str:
        text = self._text
        if text is None:
            if self.action == DISCARD:
                assert self.card is not None
                text = f"discard {card_text(self.card)}"
            elif self.groups:
                text = f"{self.action} " + ", ".join(str(g) for g in self.groups)
            else:
                text = self.action
            object.__setattr__(self, "_text", text)  # a move never changes, so neither does its text
        return text

    @property
    def cards(self) -> tuple[int, ...]:
        """Every card of the move's groups (or the discard)."""
        if self.card is not None:
            return (self.card,)
        return tuple(c for g in self.groups for c in g.cards)


def _card(text: str, line: str) -> int:
    try:
        return parse_card(text)
    except CardError as exc:
        raise MoveSyntaxError(f"{exc}: {line!r}") from None


def _group(text: str, line: str) -> Group:
    text = text.strip()
    rank: int | None = None
    if ":" in text:
        head, _, text = text.partition(":")
        head = head.strip().upper()
        if head == "10":
            head = "T"
        if len(head) != 1 or head not in RANK_NAMES:
            raise MoveSyntaxError(f"{head!r} is not a rank to meld (A K Q J T 9 8 7 6 5 4, or W): {line!r}")
        rank = RANK_NAMES.index(head)
    parts = text.split()
    if not parts:
        raise MoveSyntaxError(f"empty group of cards: {line!r}")
    return Group.of([_card(p, line) for p in parts], rank)


SIMPLE_MOVES: Final[dict[str, Move]] = {name: Move(name) for name in (DRAW, PILE, ASK, YES, NO)}
"""The moves without cards (``pile`` alone included), made once: equal moves may be shared."""
_SIMPLE: Final = SIMPLE_MOVES
DISCARD_MOVES: Final[tuple[Move, ...]] = tuple(Move(DISCARD, card=code) for code in range(NUM_CODES))
"""The discard of each card code, made once."""
