"""From the cards a player selected to the groups of a ``meld`` or ``pile`` move (NOTATION.md, "Moves").

Naturals are grouped by rank and black threes form their own group.  Wild cards join one
rank: the one natural rank selected, or a rank the player chooses among those selected and
the side's melds (:func:`wild_rank_choices`).

>>> from canasta.cards import parse_cards
>>> cards = parse_cards(["KS", "KD", "2C", "QS", "QH", "QC"])
>>> wild_rank_choices(cards, {}, False)
[1, 2]
>>> group_texts(cards, wild_rank=1)
['KS KD 2C', 'QS QH QC']
>>> group_texts(parse_cards(["JK"]), wild_rank=5)
['9: JK']
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..cards import IS_WILD, KIND, MELD_RANK_CHARS, NUM_NATURAL, WILD_MELD, card_text, kind_name


def natural_ranks(cards: Sequence[int]) -> list[int]:
    """The natural ranks among ``cards``, high to low."""
    return sorted({KIND[c] for c in cards if KIND[c] < NUM_NATURAL})


def wild_rank_choices(cards: Sequence[int], meld_ranks: Collection[int], wild_melds: bool) -> list[int]:
    """The ranks the selected wild cards could join; empty when no wild card is selected.

    One natural rank selected: that rank alone.  Otherwise the natural ranks selected and the
    side's natural melds, and a meld of wild cards where the rules allow one.
    """
    if not any(IS_WILD[c] for c in cards):
        return []
    ranks = natural_ranks(cards)
    if len(ranks) == 1:
        return ranks
    choices = sorted(set(ranks) | {r for r in meld_ranks if r < NUM_NATURAL})
    if wild_melds and (not ranks or WILD_MELD in meld_ranks):
        choices.append(WILD_MELD)
    return choices


def group_texts(cards: Sequence[int], wild_rank: int | None = None) -> list[str]:
    """Groups in notation: one per kind of the selected cards, the wild cards with ``wild_rank``."""
    by_kind: dict[int, list[int]] = {}
    wilds: list[int] = []
    for code in sorted(cards):
        if IS_WILD[code]:
            wilds.append(code)
        else:
            by_kind.setdefault(KIND[code], []).append(code)
    groups: list[str] = []
    joins: int | None = None  # the kind whose group the wild cards join
    if wilds:
        if wild_rank is None:
            raise ValueError("choose the rank the wild cards join")
        if wild_rank < NUM_NATURAL and wild_rank in by_kind:
            joins = wild_rank
        else:
            groups.append(f"{MELD_RANK_CHARS[wild_rank]}: " + " ".join(card_text(c) for c in wilds))
    for kind in sorted(by_kind):
        group = by_kind[kind] + (wilds if kind == joins else [])
        groups.append(" ".join(card_text(c) for c in group))
    return groups


def rank_words(rank: int) -> str:
    """A meld rank for a choice list: ``kings``, ``9s``, ``wild cards``."""
    return "wild cards" if rank == WILD_MELD else kind_name(rank)
