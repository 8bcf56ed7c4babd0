"""The log in words, like the browser's: ``West took the pile: 7 cards, top 9♠``.

One implementation for every terminal front end: the full-screen table's log and recent
moves, ``canasta play --plain`` and ``canasta replay``.  A move's notation leaves out what
the table saw happen (the pile's size and top card when it is taken, red threes laid out, a
player going out, whether a card went onto a meld already down), so :func:`tell` words the
engine's record of the move (:mod:`canasta.outcome`: no front end works out what a move did);
:class:`Narrator` follows a hand move by move.  :func:`say_move` words a move from its
notation alone, for a move with no record.  Pure functions, no Textual.

>>> say_move("West", "pile 9S 9H, K: JK")
'West took the pile with 9♠ 9♥, K: JK'
>>> say_move("East", "meld 8S 8H 2C")
'East melded 8♠ 8♥ 2♣'
>>> from canasta.cards import MELD_RANK_CHARS
>>> say_move("East", "meld 8S 8H 8D, 6H", melds={MELD_RANK_CHARS.index("6")})
'East melded 8♠ 8♥ 8♦ and added 6♥ to the 6s'
>>> say_move("North", "discard 4C"), say_move("South", "ask")
('North discarded 4♣', 'South asked partner: may I go out?')
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..cards import IS_WILD, KIND, MELD_RANK_CHARS, WILD_MELD, kind_name
from ..errors import MoveSyntaxError
from ..moves import ASK, DISCARD, DRAW, MELD, NO, PILE, YES, Move
from ..outcome import Dealt, Outcome
from ..scoring import HandResult
from ..text.labels import card_label, cards_label, rank_label


def _group(group_rank: int, cards: Sequence[int]) -> str:
    natural = any(KIND[c] == group_rank and not IS_WILD[c] for c in cards)
    return cards_label(cards) if natural else f"{rank_label(group_rank)}: {cards_label(cards)}"


def _groups(move: Move) -> str:
    return ", ".join(_group(g.rank, g.cards) for g in move.groups)


def meld_name(rank: int) -> str:
    """A meld on the table by its rank: ``the 6s``, ``the kings``, ``the wild cards``."""
    return "the wild cards" if rank == WILD_MELD else f"the {kind_name(rank)}"


def _melded(move: Move, melds: Collection[int] | None) -> str:
    """``melded 8♠ 8♥ 8♦ and added 6♥ to the 6s``: new melds, then cards put on melds already down."""
    new = [g for g in move.groups if melds is None or g.rank not in melds]
    added: dict[int, list[int]] = {}  # rank -> the cards put on that meld (two groups of one rank: one meld)
    for g in move.groups:
        if melds is not None and g.rank in melds:
            added.setdefault(g.rank, []).extend(g.cards)
    said = []
    if new:
        said.append("melded " + ", ".join(_group(g.rank, g.cards) for g in new))
    if added:
        said.append("added " + join([f"{cards_label(cards)} to {meld_name(rank)}" for rank, cards in added.items()]))
    return " and ".join(said)


def join(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def say_move(who: str, text: str, melds: Collection[int] | None = None) -> str:
    """One move in words, from its notation alone (no card is told that the notation does not show).

    ``melds``: the ranks of the melds the mover's side had down before the move, when known, so
    a card put on one of them is told as added to it (``added 6♥ to the 6s``), not melded.
    """
    try:
        move = Move.parse(text)
    except MoveSyntaxError:
        return f"{who}: {text}"
    if move.action == DRAW:
        return f"{who} drew from the stock"
    if move.action == PILE:
        return f"{who} took the pile" + (f" with {_groups(move)}" if move.groups else "")
    if move.action == MELD:
        return f"{who} {_melded(move, melds)}"
    if move.action == DISCARD and move.card is not None:
        return f"{who} discarded {card_label(move.card)}"
    if move.action == ASK:
        return f"{who} asked partner: may I go out?"
    if move.action in (YES, NO):
        return f"{who} answered {move.action}"
    return f"{who}: {text}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def tell(outcome: Outcome, result: HandResult | None, names: Sequence[str]) -> list[str]:
    """What the table saw a move do, from the engine's record of it (:mod:`canasta.outcome`) and, when it
    ended the hand, the hand's result (who went out).

    The pile's size and top card when it is taken, cards added to melds already down, red threes
    laid out (by the mover, or by the player whose turn begins), and going out.  Never a card
    from a hidden hand: the record's public part only.
    """
    who, move = names[outcome.seat], outcome.move
    said = say_move(who, str(move), {MELD_RANK_CHARS.index(rank) for rank in outcome.added})
    if move.action == PILE and outcome.top is not None:
        said = f"{who} took the pile: {_plural(outcome.took, 'card')}, top {card_label(outcome.top)}"
        if move.groups:
            said += f", with {_groups(move)}"
    lines = [said]
    for layer, cards in outcome.reds:
        what = "a red three" if len(cards) == 1 else f"{len(cards)} red threes"
        lines.append(f"{names[layer]} laid out {what}: {cards_label(cards)}")
    if outcome.hand_over and result is not None:
        out = result.went_out
        if out is not None:
            lines.append(f"{names[out]} went out" + (" concealed" if result.concealed else ""))
        else:
            lines.append("The stock ran out: the hand is over")
    return lines


def deal_words(shown: Dealt, names: Sequence[str], sides: int) -> list[str]:
    """What the deal showed (:class:`~canasta.outcome.Dealt`): the pile's first card and the red threes laid
    out at once."""
    lines = []
    if shown.pile:
        lines.append(f"The pile starts with {cards_label(shown.pile)}")
    for side, reds in shown.reds:
        what = "a red three" if len(reds) == 1 else f"{len(reds)} red threes"
        lines.append(f"{' & '.join(names[s] for s in range(len(names)) if s % sides == side)} "
                     f"laid out {what}: {cards_label(reds)}")
    return lines


def new_cards_words(who: str, outcome: Outcome) -> str:
    """What the player alone learns of their draw or take (:attr:`Outcome.drew <canasta.outcome.Outcome.drew>`):
    ``You drew 4♦.``, ``You took the pile: 2 cards, top 9♠; new in hand: 9♠ 10♣.``

    >>> from canasta.cards import parse_cards
    >>> from canasta.moves import Move
    >>> took = Outcome(0, Move.parse("pile"), took=2, top=parse_cards(["9S"])[0], drew=tuple(parse_cards(["9S", "TC"])))
    >>> new_cards_words("You", took)
    'You took the pile: 2 cards, top 9♠; new in hand: 9♠ 10♣.'
    """
    cards = cards_label(outcome.drew)
    if outcome.move.action == DRAW:
        return f"{who} drew {cards or 'a red three'}."
    top = f", top {card_label(outcome.top)}" if outcome.top is not None else ""
    pile = outcome.took
    return f"{who} took the pile: {_plural(pile, 'card')}{top}" + (f"; new in hand: {cards}." if cards else ".")


def numbered(told: Sequence[tuple[int, str]]) -> list[str]:
    """A hand's log as a page: each move numbered from 1, what followed from it (a red three) under it.

    >>> numbered([(-1, "The pile starts with 7♥"), (0, "West drew from the stock"), (0, "West laid out a red three")])
    ['     The pile starts with 7♥', '  1. West drew from the stock', '     West laid out a red three']
    """
    return [f"{i + 1:3}. {text}" if i >= 0 and (n == 0 or i != told[n - 1][0]) else f"     {text}"
            for n, (i, text) in enumerate(told)]


class Narrator:
    """One hand's log in words, told as the hand goes on (the same for every terminal front end).

    :meth:`follow` is given the engine's records of the hand (its :class:`~canasta.outcome.Dealt`
    and the :class:`~canasta.outcome.Outcome` of each move so far, as ``Match.dealt`` and
    ``Match.outcomes`` hold them) and returns what is new; :attr:`told` holds the hand's whole log
    as ``(move index, sentence)``, index -1 for what the deal showed.  It never looks at a state:
    what it tells is what the engine recorded, so a match resumed mid-hand is told word for word.

    >>> from canasta import from_position
    >>> from canasta.outcome import dealt, play
    >>> state = from_position({"rules": "classic", "dealer": 3, "turn": 0, "hands": [["6H", "9D"], ["4C"],
    ...     ["QS"], ["8H"]], "stock": ["5C"], "pile": ["TC"], "melds": [{"6": ["6S", "6D", "6C"]}, {}]})
    >>> narrator = Narrator(["South", "West", "North", "East"], sides=2)
    >>> shown = dealt(state)
    >>> narrator.follow(1, shown, [])
    [(-1, 'The pile starts with 10♣')]
    >>> outcomes = [play(state, "draw"), play(state, "meld 6H")]
    >>> [line for _, line in narrator.follow(1, shown, outcomes)]
    ['South drew from the stock', 'South added 6♥ to the 6s']
    """

    def __init__(self, names: Sequence[str], sides: int) -> None:
        self.names = list(names)
        self.sides = sides
        self.told: list[tuple[int, str]] = []
        self._hand: tuple[int, Dealt] | None = None  # the hand told: its number and deal
        self._seen = 0  # its moves told

    def follow(self, hand: int, shown: Dealt, outcomes: Sequence[Outcome],
               result: HandResult | None = None) -> list[tuple[int, str]]:
        """Tell the moves not yet told (a new hand, by number or deal, starts a new log); ``result``: the
        hand's, once it is over (who went out)."""
        start = len(self.told)
        if self._hand is None or self._hand[0] != hand or self._hand[1] is not shown or len(outcomes) < self._seen:
            self.told = [(-1, line) for line in deal_words(shown, self.names, self.sides)]
            self._hand, self._seen, start = (hand, shown), 0, 0
        for index in range(self._seen, len(outcomes)):
            self.told += [(index, line) for line in tell(outcomes[index].public(), result, self.names)]
        self._seen = len(outcomes)
        return self.told[start:]
