"""Cards, hands and melds as people read them: the one copy the plain terminal and the TUI share.

Cards carry suit symbols (``K♠``, ``10♥``, ``JK``); a hand is grouped by kind (rank, with
black threes apart from red ones), high to low, wild cards last; a meld is its rank, its
cards, and the kind of canasta it is, which the engine says (``PublicView.canastas``).

>>> from canasta.cards import parse_cards
>>> hand = parse_cards(["KS", "KD", "9C", "2H", "JK"])
>>> card_label(hand[0]), hand_label(hand)
('K♠', 'K♠ K♦  9♣  2♥  JK')
>>> meld_label(4, parse_cards(["TS", "TH", "TD"]), None), meld_label(12, parse_cards(["2C"] * 4 + ["JK"] * 3), "wild")
('10: 10♠ 10♥ 10♦', 'W: 2♣ 2♣ 2♣ 2♣ JK JK JK *wild canasta*')
>>> pretty_move("pile 9S 9H, K: JK"), points(-1315)
('pile 9♠ 9♥, K: JK', '-1,315')
>>> with_tens("meld TS TH, T: JK")
'meld 10S 10H, 10: JK'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..cards import KIND, MELD_RANK_CHARS, card_text, parse_card
from ..judge import blocker

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_label(code: int) -> str:
    """A card with its suit symbol: ``K♠``, ``10♥``, ``JK``."""
    text = card_text(code)
    if text == "JK":
        return "JK"
    return ("10" if text[0] == "T" else text[0]) + SUIT_SYMBOLS[text[1]]


def cards_label(codes: Sequence[int]) -> str:
    """Cards with their suit symbols, separated by spaces: ``K♠ K♦ 2♣``."""
    return " ".join(card_label(c) for c in codes)


def hand_groups(hand: Sequence[int]) -> list[list[int]]:
    """Indexes of a sorted hand, grouped by kind (rank; black threes apart from red)."""
    groups: list[list[int]] = []
    for i, code in enumerate(hand):
        if groups and KIND[hand[groups[-1][0]]] == KIND[code]:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def hand_label(hand: Sequence[int]) -> str:
    """A sorted hand grouped by kind, two spaces between groups: ``K♠ K♦  9♣  JK``."""
    return "  ".join(" ".join(card_label(hand[i]) for i in group) for group in hand_groups(hand))


def rank_label(rank: int) -> str:
    """A meld rank as people write it: ``K``, ``10``, ``3``, ``W`` (wild cards)."""
    char = MELD_RANK_CHARS[rank]
    return "10" if char == "T" else char


def canasta_label(kind: str) -> str:
    """``natural canasta``, ``mixed canasta`` or ``wild canasta`` for a kind the engine names."""
    return f"{kind} canasta"


def meld_label(rank: int, cards: Sequence[int], kind: str | None) -> str:
    """One meld on one line: ``K: K♠ K♥ 2♣``, a canasta marked ``*natural canasta*``."""
    text = f"{rank_label(rank)}: {cards_label(cards)}"
    return text if kind is None else f"{text} *{canasta_label(kind)}*"


def blocked_label(top: int) -> str:
    """Why a blocked pile is blocked, from its top card: ``black three on top``, ``wild card on top``."""
    return f"{blocker(top)} on top"


_CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[AKQJT98765432])([SHDC])(?![A-Za-z0-9])|(?<![A-Za-z0-9])JK(?![A-Za-z])")


def pretty_move(text: str) -> str:
    """A move or sentence with its card codes written with suit symbols."""
    return _CARD_TOKEN.sub(lambda m: card_label(parse_card(m.group(0))), text)


_TEN_TOKEN = re.compile(r"(?<![A-Za-z0-9])T(?=[SHDC](?![A-Za-z0-9])|:)")


def with_tens(text: str) -> str:
    """A move or sentence in the notation a player types, the ten written ``10`` as on the table.

    The notation reads ``10`` as it reads ``T``, so what is shown can be typed back as it is.

    >>> with_tens("discard TC"), with_tens("pile TS TH, T: JK (The table)")
    ('discard 10C', 'pile 10S 10H, 10: JK (The table)')
    """
    return _TEN_TOKEN.sub("10", text)


def points(n: int) -> str:
    """Points with thousands separators and an ASCII minus: ``1,315``, ``-35``."""
    return f"{n:,}"


PLAY_WORDS = {
    None: "meld, then discard",
    True: "your partner said yes: you must go out now",
    False: "your partner said no: you may not go out this turn",
}
"""What the player to meld does now, by their partner's answer to "may I go out?" (None: not asked).  The
page's turn line (``static/game/render.js``) says the same words."""


def play_words(answer: bool | None) -> str:
    """What the player to meld does now, after their partner's ``answer`` (None: they did not ask).

    >>> play_words(True)
    'your partner said yes: you must go out now'
    """
    return PLAY_WORDS[answer]
