"""Can a hand be laid out this turn?  (RULES.md 10-11: going out and asking.)

Works on kinds: ``hand`` is a count per kind, the side's melds are natural and wild counts
per rank (a meld exists where its natural count is not zero).  A hand can go out when
every card but at most one (the discard) can be melded,
black threes as a meld of 3 or 4, with the side then holding the canastas it needs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .cards import BLACK_THREE, CANASTA_SIZE, JOKER_KIND, MAX_WILDS, MIN_MELD, NUM_NATURAL, RED_THREE, TWO, WILD_MELD

Groups = tuple[tuple[int, int, int, int], ...]
"""Kind-level groups: (rank, naturals, twos, jokers)."""


def _wild_cap(nat: int, wild: int, at_most_naturals: bool) -> int:
    cap = MAX_WILDS - wild
    if at_most_naturals:
        cap = min(cap, nat - wild)
    return cap


def can_go_out(
    hand: Sequence[int],
    mnat: Sequence[int],
    mwild: Sequence[int],
    canastas: int,
    need: int,
    at_most_naturals: bool = False,
    wild_melds: bool = False,
) -> bool:
    """True when the hand can be laid out this turn (all of it, or all but one card).

    With ``wild_melds`` (the wild_card_melds option) the hand's wild cards may instead go
    to a meld of wild cards, and then to no other meld.
    """
    if hand[RED_THREE]:
        return False
    # A card that fits no meld must be the discard: more than one and the hand is stuck.
    stray = -1
    for r in range(NUM_NATURAL):
        if hand[r] == 1 and not mnat[r]:
            if stray >= 0:
                return False
            stray = r
    b = hand[BLACK_THREE]
    if b not in (0, 3, 4):
        if stray >= 0 or b not in (1, 5):
            return False
        stray = BLACK_THREE
    if canastas < need:
        # Each missing canasta needs a meld that the hand's cards can bring to seven.
        wilds = hand[TWO] + hand[JOKER_KIND]
        reachable = canastas
        for r in range(NUM_NATURAL):
            w = mwild[r]
            size = mnat[r] + w
            room = MAX_WILDS - w
            if size < CANASTA_SIZE and size + hand[r] + (wilds if wilds < room else room) >= CANASTA_SIZE:
                reachable += 1
        if wild_melds and mwild[WILD_MELD] < CANASTA_SIZE <= mwild[WILD_MELD] + wilds:
            reachable += 1
        if reachable < need:
            return False
    h = list(hand)
    if stray >= 0:
        h[stray] -= 1
        return _all_meldable(h, mnat, mwild, canastas, need, at_most_naturals, wild_melds)
    if _all_meldable(h, mnat, mwild, canastas, need, at_most_naturals, wild_melds):
        return True
    # With every natural placed, only leaving out a wild card can help (too many wild
    # cards for the melds); leaving out a natural only makes its meld smaller.
    for d in (TWO, JOKER_KIND):
        if h[d]:
            h[d] -= 1
            ok = _all_meldable(h, mnat, mwild, canastas, need, at_most_naturals, wild_melds)
            h[d] += 1
            if ok:
                return True
    return False


def _all_meldable(
    h: Sequence[int],
    mnat: Sequence[int],
    mwild: Sequence[int],
    canastas: int,
    need: int,
    at_most_naturals: bool,
    wild_melds: bool = False,
) -> bool:
    if h[BLACK_THREE] not in (0, 3, 4) or h[RED_THREE]:
        return False
    if wild_melds and _all_meldable_with_wild_meld(h, mnat, mwild, canastas, need):
        return True
    if mwild[WILD_MELD]:
        return False  # the side's wild cards all go to its meld of wild cards
    return _all_meldable_spreading_wilds(h, mnat, mwild, canastas, need, at_most_naturals)


def _all_meldable_with_wild_meld(
    h: Sequence[int], mnat: Sequence[int], mwild: Sequence[int], canastas: int, need: int
) -> bool:
    """Every wild card to the side's meld of wild cards (new: three or more), naturals alone."""
    wilds = h[TWO] + h[JOKER_KIND]
    size = mwild[WILD_MELD]
    if not size and wilds < MIN_MELD:
        return False
    made = canastas
    for r in range(NUM_NATURAL):
        n = h[r]
        if mnat[r]:
            if mnat[r] + mwild[r] < CANASTA_SIZE <= mnat[r] + mwild[r] + n:
                made += 1
        elif n:
            if n < MIN_MELD:
                return False
            if n >= CANASTA_SIZE:
                made += 1
    if size < CANASTA_SIZE <= size + wilds:
        made += 1
    return made >= need


def _all_meldable_spreading_wilds(
    h: Sequence[int],
    mnat: Sequence[int],
    mwild: Sequence[int],
    canastas: int,
    need: int,
    at_most_naturals: bool,
) -> bool:
    wilds = h[TWO] + h[JOKER_KIND]
    min_total = 0
    cap_total = 0
    extras: list[int] = []
    made = canastas
    any_meld = False
    for r in range(NUM_NATURAL):
        n = h[r]
        if mnat[r]:
            nat = mnat[r] + n
            wild = mwild[r]
            minimum = 0
        elif n:
            if n < 2:
                return False
            nat, wild = n, 0
            minimum = 1 if n == 2 else 0
        else:
            continue
        any_meld = True
        cap = _wild_cap(nat, wild, at_most_naturals)
        if cap < minimum:
            return False
        min_total += minimum
        cap_total += cap
        size = nat + wild
        was_canasta = mnat[r] and mnat[r] + mwild[r] >= CANASTA_SIZE
        if was_canasta:
            continue
        if size >= CANASTA_SIZE:
            made += 1
        elif CANASTA_SIZE - size <= cap:
            extras.append(max(0, CANASTA_SIZE - size - minimum))
    if wilds and not any_meld:
        return False
    if not min_total <= wilds <= cap_total:
        return False
    budget = wilds - min_total
    for extra in sorted(extras):
        if made >= need or extra > budget:
            break
        budget -= extra
        made += 1
    return made >= need


def going_out_groups(
    hand: Sequence[int],
    mnat: Sequence[int],
    mwild: Sequence[int],
    at_most_naturals: bool = False,
    top_rank: int | None = None,
    wild_melds: bool = False,
) -> Iterator[Groups]:
    """Every way to meld all of ``hand`` but at most one card (candidates; the rules judge them).

    With ``top_rank`` the pile's top card (a natural of that rank) joins that rank's group.
    """
    options: list[int | None] = [None]
    options.extend(k for k in range(len(hand)) if hand[k])
    h = list(hand)
    seen: set[Groups] = set()
    for d in options:
        if d is not None:
            h[d] -= 1
        for groups in _partitions(h, mnat, mwild, at_most_naturals, top_rank, wild_melds):
            if groups not in seen:
                seen.add(groups)
                yield groups
        if d is not None:
            h[d] += 1


def _partitions(
    h: Sequence[int],
    mnat: Sequence[int],
    mwild: Sequence[int],
    at_most_naturals: bool,
    top_rank: int | None,
    wild_melds: bool = False,
) -> Iterator[Groups]:
    if h[RED_THREE] or h[BLACK_THREE] not in (0, 3, 4):
        return
    black = ((BLACK_THREE, h[BLACK_THREE], 0, 0),) if h[BLACK_THREE] else ()
    twos, jokers = h[TWO], h[JOKER_KIND]
    if wild_melds and (mwild[WILD_MELD] or twos + jokers >= MIN_MELD):
        # Every wild card to the meld of wild cards; natural melds take naturals only.
        plain: list[tuple[int, int, int, int]] = []
        for r in range(NUM_NATURAL):
            n = h[r] + (1 if r == top_rank else 0)
            if not n:
                continue
            if not mnat[r] and n < MIN_MELD:
                plain = []
                break
            plain.append((r, h[r], 0, 0))
        else:
            wild = ((WILD_MELD, 0, twos, jokers),) if twos + jokers else ()
            yield tuple(g for g in plain if g[1]) + wild + black
    if mwild[WILD_MELD]:
        return
    targets: list[tuple[int, int, int, int]] = []  # rank, hand naturals, min wilds, cap
    for r in range(NUM_NATURAL):
        n = h[r]
        top = 1 if r == top_rank else 0
        if mnat[r]:
            targets.append((r, n, 0, _wild_cap(mnat[r] + n + top, mwild[r], at_most_naturals)))
        elif n + top:
            if n + top < 2:
                return
            minimum = 1 if n + top == 2 else 0
            targets.append((r, n, minimum, _wild_cap(n + top, 0, at_most_naturals)))
    for split in _split_wilds(targets, 0, twos, jokers):
        groups = tuple(
            (r, n, t, j) for (r, n, _, _), (t, j) in zip(targets, split) if n or t or j
        )
        yield groups + black


def _split_wilds(
    targets: Sequence[tuple[int, int, int, int]], i: int, twos: int, jokers: int
) -> Iterator[list[tuple[int, int]]]:
    if i == len(targets):
        if twos == 0 and jokers == 0:
            yield []
        return
    _, _, minimum, cap = targets[i]
    for t in range(min(twos, cap) + 1):
        for j in range(min(jokers, cap - t) + 1):
            if t + j < minimum:
                continue
            for rest in _split_wilds(targets, i + 1, twos - t, jokers - j):
                yield [(t, j), *rest]
