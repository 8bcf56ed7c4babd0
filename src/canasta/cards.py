"""Cards and their codes (NOTATION.md, "Cards").

A card is a small integer *code*, ordered the canonical way: aces first, then kings and so
on down to twos, suits spades, hearts, diamonds, clubs within a rank, and the joker last.
So ``sorted(codes)`` is the canonical order (naturals high to low, then wild cards).

Cards of one rank are interchangeable for the rules, so the engine also works with
*kinds*: the 11 natural ranks (``A`` .. ``4``, kinds 0 .. 10), black threes, red threes,
twos and jokers.  Two ``7H`` from two decks are the same value: cards have no identity.

>>> parse_card("10h") == parse_card("TH")
True
>>> card_text(parse_card("jk"))
'JK'
>>> value(parse_card("AS")), value(parse_card("JK")), value(parse_card("3C"))
(20, 50, 5)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final

from .errors import CardError

RANK_CHARS: Final = "AKQJT98765432"
SUIT_CHARS: Final = "SHDC"
JOKER: Final = 52
NUM_CODES: Final = 53

# Kinds.  Natural ranks are kinds 0..10 in the order of NATURAL_RANKS.
NATURAL_RANKS: Final = "AKQJT987654"
BLACK_THREE: Final = 11
RED_THREE: Final = 12
TWO: Final = 13
JOKER_KIND: Final = 14
NUM_KINDS: Final = 15
NUM_NATURAL: Final = 11
WILD_KINDS: Final = (TWO, JOKER_KIND)
# A meld's rank is a natural kind 0..10, BLACK_THREE for a going-out meld of black threes,
# or WILD_MELD for a meld of wild cards only (under the wild_card_melds option).
WILD_MELD: Final = 12
NUM_MELD_RANKS: Final = 13
MELD_RANK_CHARS: Final = NATURAL_RANKS + "3W"

CANASTA_SIZE: Final = 7
"""Cards a meld needs to be a canasta (RULES.md 4)."""
MAX_WILDS: Final = 3
"""The most wild cards a meld of natural cards may hold (RULES.md 3)."""
MIN_MELD: Final = 3
"""The fewest cards of a meld (RULES.md 3)."""

KIND_CHARS: Final = ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3b", "3r", "2", "JK")


def _kind_of(code: int) -> int:
    if code == JOKER:
        return JOKER_KIND
    rank, suit = divmod(code, 4)
    if rank < NUM_NATURAL:
        return rank
    if rank == 11:
        return RED_THREE if suit in (1, 2) else BLACK_THREE
    return TWO


KIND: Final[tuple[int, ...]] = tuple(_kind_of(c) for c in range(NUM_CODES))
"""Kind of each card code."""

RED_THREE_CODES: Final[tuple[int, ...]] = tuple(c for c in range(NUM_CODES) if KIND[c] == RED_THREE)
"""The codes of the red threes, 3H and 3D."""

KIND_VALUE: Final[tuple[int, ...]] = (20, 10, 10, 10, 10, 10, 10, 5, 5, 5, 5, 5, 100, 20, 50)
"""Points of a card of each kind (a red three's 100 is its bonus, not a card value)."""

VALUE: Final[tuple[int, ...]] = tuple(KIND_VALUE[KIND[c]] for c in range(NUM_CODES))
"""Points of each card code."""

IS_WILD: Final[tuple[bool, ...]] = tuple(KIND[c] in WILD_KINDS for c in range(NUM_CODES))
IS_NATURAL: Final[tuple[bool, ...]] = tuple(KIND[c] < NUM_NATURAL for c in range(NUM_CODES))

KIND_CODES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(c for c in range(NUM_CODES) if KIND[c] == k) for k in range(NUM_KINDS)
)
"""The codes of each kind, in canonical (suit) order."""

_TEXT: Final[tuple[str, ...]] = tuple(
    "JK" if c == JOKER else RANK_CHARS[c // 4] + SUIT_CHARS[c % 4] for c in range(NUM_CODES)
)
_PARSE: Final[dict[str, int]] = {t: c for c, t in enumerate(_TEXT)}


def card_text(code: int) -> str:
    """The canonical two-character code of a card."""
    return _TEXT[code]


def parse_card(text: str) -> int:
    """Parse a card code; accepts lower case and ``10`` for ``T``."""
    key = text.strip().upper()
    if key.startswith("10"):
        key = "T" + key[2:]
    code = _PARSE.get(key)
    if code is None:
        raise CardError(f"unknown card {text!r} (cards are rank then suit, like AS, TD, 3H, or JK)")
    return code


def parse_cards(texts: Iterable[str]) -> list[int]:
    """Parse several card codes."""
    return [parse_card(t) for t in texts]


def cards_text(codes: Iterable[int]) -> list[str]:
    """The codes of several cards, in the order given."""
    return [_TEXT[c] for c in codes]


def codes_from_counts(counts: Sequence[int]) -> list[int]:
    """The card codes of a count per code, ascending (``[0, 2, 1]`` -> ``[1, 1, 2]``)."""
    codes: list[int] = []
    for code, n in enumerate(counts):
        if n:
            codes += (code,) * n
    return codes


def value(code: int) -> int:
    """Points of one card when melded or left in hand."""
    return VALUE[code]


def kind_name(kind: int, plural: bool = True) -> str:
    """A kind in words: ``"9s"``, ``"kings"``... for messages."""
    names = ("aces", "kings", "queens", "jacks", "10s", "9s", "8s", "7s", "6s", "5s", "4s",
             "black threes", "red threes", "2s", "jokers")
    singular = ("ace", "king", "queen", "jack", "10", "9", "8", "7", "6", "5", "4",
                "black three", "red three", "2", "joker")
    return names[kind] if plural else singular[kind]


def full_deck(decks: int = 2) -> list[int]:
    """Every card of a game with ``decks`` decks, in canonical order."""
    deck = _FULL_DECKS.get(decks)
    if deck is None:
        deck = _FULL_DECKS[decks] = sorted([c for c in range(52) for _ in range(decks)] + [JOKER] * (2 * decks))
    return deck[:]


_FULL_DECKS: Final[dict[int, list[int]]] = {}


def shuffled_deck(rng: random.Random, decks: int = 2) -> list[int]:
    """A full deck shuffled with the given random source (top card first)."""
    deck = full_deck(decks)
    rng.shuffle(deck)
    return deck


def copies_allowed(code: int, decks: int) -> int:
    """How many copies of a card a game of ``decks`` decks holds."""
    return 2 * decks if code == JOKER else decks


def check_multiplicity(codes: Sequence[int], decks: int, where: str = "the position") -> None:
    """Raise if ``codes`` hold more copies of a card than the deck has."""
    counts = [0] * NUM_CODES
    for c in codes:
        counts[c] += 1
    for c, n in enumerate(counts):
        if n > copies_allowed(c, decks):
            raise CardError(
                f"{where} holds {n} copies of {_TEXT[c]}, but {decks} decks have only "
                f"{copies_allowed(c, decks)}"
            )
