"""From the cards a player selected to the groups of a ``meld`` or ``pile`` move (NOTATION.md, "Moves").

Naturals are grouped by rank and black threes form their own group.  Wild cards join one
rank: the one natural rank selected, or a rank the player chooses among those selected and
the side's melds (:func:`wild_rank_choices`); or each wild card its own rank, so that wild
cards go to several new melds at once (:func:`wild_splits`).

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

import itertools
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


def wild_splits(cards: Sequence[int], ranks: Sequence[int], limit: int = 4096) -> list[list[str]]:
    """Every way to give each selected wild card a rank among ``ranks``, as groups in notation.

    Naturals are grouped by rank; each wild card joins the group of the rank it is given (a
    rank with no natural selected becomes ``R: wild cards``).  Ways that differ only by which
    of two equal-kind wild cards goes where are listed once.  More than ``limit`` ways: none.

    >>> from canasta.cards import parse_cards
    >>> cards = parse_cards(["9S", "9H", "7C", "7D", "2S", "2H"])
    >>> wild_splits(cards, natural_ranks(cards))[1]
    ['9S 9H 2S', '7D 7C 2H']
    """
    wilds = [c for c in sorted(cards) if IS_WILD[c]]
    naturals = [c for c in sorted(cards) if not IS_WILD[c]]
    if not wilds:
        return [group_texts(cards)]
    if not ranks or len(ranks) ** len(wilds) > limit:
        return []
    seen: set[tuple[tuple[int, tuple[int, ...]], ...]] = set()
    ways: list[list[str]] = []
    for choice in itertools.product(ranks, repeat=len(wilds)):
        joined: dict[int, list[int]] = {}
        for code, rank in zip(wilds, choice):
            joined.setdefault(rank, []).append(code)
        key = tuple(sorted((rank, tuple(sorted(KIND[c] for c in codes))) for rank, codes in joined.items()))
        if key in seen:
            continue
        seen.add(key)
        by_kind: dict[int, list[int]] = {}
        for code in naturals:
            by_kind.setdefault(KIND[code], []).append(code)
        groups = []
        for rank in sorted(set(by_kind) | set(joined)):
            if rank in by_kind:
                groups.append(" ".join(card_text(c) for c in by_kind[rank] + joined.get(rank, [])))
            else:
                groups.append(f"{MELD_RANK_CHARS[rank]}: " + " ".join(card_text(c) for c in joined[rank]))
        ways.append(groups)
    return ways


def rank_words(rank: int) -> str:
    """A meld rank for a choice list: ``kings``, ``9s``, ``wild cards``."""
    return "wild cards" if rank == WILD_MELD else kind_name(rank)
