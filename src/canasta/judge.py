"""Every legality rule, in one place: each a function that returns the sentence a player reads, or None.

Rules clauses refer to ``shared/spec/RULES.md``.  :meth:`GameState.check
<canasta.state.GameState.check>` raises :class:`~canasta.errors.IllegalMoveError` with
:func:`reason`; the move generator (:mod:`canasta.legal`) calls the same functions, so
``is_legal`` and ``legal_moves`` cannot disagree.  A ``*_reason`` function returns None when
the move is allowed; ``is_*``, ``may_*`` and ``can_*`` are the yes/no predicates of the
fast paths.

Groups are judged by kinds: :data:`KindGroups` maps a meld rank to the counts
``[naturals, twos, jokers]`` taken from the hand.

>>> from canasta.position import from_position
>>> s = from_position({"rules": "classic", "dealer": 3, "turn": 0,
...     "hands": [["9H", "9D", "2C", "5S"], ["4C"], ["4H"], ["4S"]], "stock": ["6C"],
...     "pile": ["JK", "9S"], "melds": [{"K": ["KS", "KD", "KC"]}, {}]})
>>> pile_reason(s, 0, {5: [2, 1, 0]})
'the pile is frozen: wild cards cannot help take it, only two natural 9s from your hand'
>>> is_blocked(s.pile[0]), is_blocked(s.pile[-1])
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from .cards import (
    BLACK_THREE,
    CANASTA_SIZE,
    JOKER_KIND,
    KIND,
    KIND_VALUE,
    MAX_WILDS,
    MIN_MELD,
    NUM_CODES,
    NUM_NATURAL,
    RED_THREE,
    RED_THREE_CODES,
    TWO,
    WILD_MELD,
    card_text,
    kind_name,
)
from .goingout import can_go_out as _hand_can_go_out
from .moves import ASK, DISCARD, DRAW, MELD, NO, PILE, SIMPLE_MOVES, YES, Drew, Group, Move, Phase

if TYPE_CHECKING:
    from .state import GameState

_RED_3H, _RED_3D = RED_THREE_CODES
FIRST_MELD: Final = "your side's first meld must be worth at least"
"""How the sentence of the first-meld minimum begins (RULES.md 12); the minimum follows."""
KindGroups = dict[int, list[int]]
"""Groups by kinds: meld rank -> ``[naturals, twos, jokers]`` from the hand."""

_DRAW: Final = Phase.DRAW
_ANSWER: Final = Phase.ANSWER
_OVER: Final = Phase.OVER
_STOCK: Final = Drew.STOCK


def reason(state: GameState, move: Move) -> str | None:
    """Why ``move`` may not be played now, or None when it may (the whole of the rules)."""
    action = move.action
    why = phase_reason(state, action)
    if why is not None or action in (YES, NO):
        return why
    seat = state.turn
    if action == DRAW:
        if not state.stock:
            return forced_pile_reason(state)
        return None
    if action == PILE:
        return held_reason(state, seat, move.cards) or pile_reason(state, seat, kind_groups(move.groups))
    if action == DISCARD:
        assert move.card is not None
        return held_reason(state, seat, (move.card,)) or discard_reason(state, seat)
    if action == MELD:
        return held_reason(state, seat, move.cards) or meld_reason(state, seat, kind_groups(move.groups))
    return ask_reason(state, seat)


def phase_reason(state: GameState, action: str) -> str | None:
    """Why no move of ``action`` may be played at this point of the turn, whatever its cards (or None).

    RULES.md 6, 11: draw or take the pile first, then meld and discard; a partner asked 'may I go
    out?' answers before anything else.
    """
    phase = state.phase
    if phase == _OVER:
        return "the hand is over"
    if phase == _ANSWER:
        if action in (YES, NO):
            return None
        return "your partner must first answer 'may I go out?' with yes or no"
    if action in (YES, NO):
        return "nobody has asked 'may I go out?'"
    if action == DRAW:
        return "you have already drawn this turn" if phase != _DRAW else None
    if action == PILE:
        return "you have already drawn this turn; the pile is taken instead of drawing" if phase != _DRAW else None
    if phase == _DRAW:
        if action == ASK:
            return "ask after drawing from the stock, before melding anything"
        return "draw from the stock or take the pile first"
    return None


def held_reason(state: GameState, seat: int, cards: Iterable[int]) -> str | None:
    """Why ``seat`` cannot play ``cards``: it does not hold them all (or None)."""
    need: dict[int, int] = {}
    for c in cards:
        need[c] = need.get(c, 0) + 1
    counts = state.hand_counts[seat]
    for c, n in need.items():
        if counts[c] < n:
            if counts[c] == 0:
                return f"you do not hold {card_text(c)}"
            held = "one" if counts[c] == 1 else str(counts[c])
            return f"you hold only {held} {card_text(c)}, not {n}"
    return None


def forced_pile_reason(state: GameState) -> str | None:
    """RULES.md 9: with no stock, a pile whose top fits the side's meld must be taken (or None)."""
    if pile_reason(state, state.turn, {}) is None:
        top = state.pile[-1]
        return (
            f"the stock is empty and the top card {card_text(top)} fits your side's meld of "
            f"{kind_name(KIND[top])}: you must take the pile"
        )
    return None


def may_draw(state: GameState) -> bool:
    """May the player to move draw from the stock (it has cards, or the pile is not forced on it)?"""
    return bool(state.stock) or forced_pile_reason(state) is None


BLOCKS: Final[tuple[bool, ...]] = tuple(KIND[c] >= NUM_NATURAL for c in range(NUM_CODES))
"""RULES.md 8: for each card code, does it block the pile when on top (a wild card or a three)?"""


def is_blocked(top: int) -> bool:
    """RULES.md 8: a wild card or a three on top of the pile blocks it (nobody may take it)."""
    return BLOCKS[top]


def blocker(top: int) -> str:
    """What kind of card blocks a pile with ``top`` on top: ``black three``, ``red three`` or ``wild card``."""
    tk = KIND[top]
    return "black three" if tk == BLACK_THREE else "red three" if tk == RED_THREE else "wild card"


def blocked_reason(top: int) -> str | None:
    """Why a pile with ``top`` on top cannot be taken (a wild card or a three), or None."""
    return f"a {blocker(top)} on top of the pile blocks it" if is_blocked(top) else None


def may_go_out(state: GameState, side: int, canastas: int | None = None) -> bool:
    """RULES.md 10: may the player to move go out with ``canastas`` (default: the side's now)?"""
    if canastas is None:
        canastas = state.canastas[side]
    return canastas >= state.rules.canastas_to_go_out and state.answer is not False


def out_reason(state: GameState, side: int) -> str:
    """Why the player to move may not go out now (when :func:`may_go_out` says so)."""
    if state.answer is False:
        return "your partner said no, so you may not go out this turn"
    need = state.rules.canastas_to_go_out
    what = "a canasta" if need == 1 else f"{need} canastas"
    return f"you may not go out before your side has {what}"


def may_keep(state: GameState, side: int, left: int, canastas: int) -> bool:
    """RULES.md 10: after melding a player keeps two cards or more, unless the side may go out.

    ``left`` is the cards the move leaves in hand; ``canastas`` the side's canastas after it.
    """
    return left >= 2 or may_go_out(state, side, canastas)


def discard_reason(state: GameState, seat: int) -> str | None:
    """RULES.md 10-11: the last card goes only when the side may go out; after a partner's
    yes, only the last card goes (or None)."""
    if state.hand_sizes[seat] == 1:
        side = seat % state.sides
        if not may_go_out(state, side):
            return out_reason(state, side) + ", so you must keep a card"
        return None
    if state.answer is True:
        return "your partner said yes: you must go out this turn, so discard only your last card"
    return None


def ask_reason(state: GameState, seat: int) -> str | None:
    """RULES.md 11: asking the partner 'may I go out?' (or None)."""
    if not state.rules.ask_partner:
        return "at this table nobody asks the partner"
    if state.partners[seat] is None:
        return "you have no partner to ask"
    if state.asked:
        return "you have already asked this turn"
    if state.drew != _STOCK:
        return "ask only after drawing from the stock, not after taking the pile"
    if state.turn_melded:
        return "ask before you meld anything this turn"
    if not can_go_out(state, seat):
        return "you could not go out this turn, so there is nothing to ask"
    return None


def can_go_out(state: GameState, seat: int, hand: Sequence[int] | None = None) -> bool:
    """Could ``seat`` lay out ``hand`` (counts per kind; default its own) this turn? (RULES.md 10)"""
    side = seat % state.sides
    r = state.rules
    return _hand_can_go_out(
        state.kind_counts[seat] if hand is None else hand, state.meld_naturals[side], state.meld_wilds[side],
        state.canastas[side],
        r.canastas_to_go_out, r.wilds_at_most_naturals, r.wild_card_melds,
    )


def meld_reason(state: GameState, seat: int, groups: KindGroups) -> str | None:
    """RULES.md 3-4, 10, 12: melding ``groups`` from ``seat``'s hand (or None)."""
    if not groups:
        return "meld needs at least one group of cards"
    return groups_reason(state, seat, groups, None, 0)


def pile_reason(state: GameState, seat: int, groups: KindGroups) -> str | None:
    """RULES.md 7-9: taking the pile with ``groups`` from the hand (``{}``: the top card alone), or None."""
    pile = state.pile
    if not pile:
        return "the pile is empty"
    top = pile[-1]
    blocked = blocked_reason(top)
    if blocked is not None:
        return blocked
    tk = KIND[top]
    if state.hand_sizes[seat] == 1 and len(pile) == 1:
        return "with one card in your hand you may not take a pile of one card"
    side = seat % state.sides
    merged: KindGroups = {r: g[:] for r, g in groups.items()}
    own = merged.get(tk)
    rank = kind_name(tk)
    exists = state.melds[side][tk] is not None
    if state.frozen_for(side):
        why = "the pile is frozen" if state.pile_frozen() else "the pile is frozen against a side with no meld"
        if own is None or own[0] < 2:
            return f"{why}: you need two natural {rank} from your hand to take it"
        if own[1] or own[2]:
            return f"{why}: wild cards cannot help take it, only two natural {rank} from your hand"
    else:
        r = state.rules
        if r.two_naturals_to_take and (own is None or own[0] < 2):
            return f"at this table the pile needs two natural {rank} from your hand"
        if (r.no_pile_for_finished_canasta and exists
                and state.meld_naturals[side][tk] + state.meld_wilds[side][tk] >= CANASTA_SIZE
                and (own is None or own[0] < 2)):
            return (f"at this table the pile may not be taken just to add its top card to "
                    f"your finished canasta of {rank}")
        if not exists and (own is None or own[0] == 0):
            return (f"to take the pile you must meld its top card: you need two natural {rank}, "
                    f"or one and a wild card, or a meld of {rank} on your side")
    if own is None:
        merged[tk] = [0, 0, 0]
    return groups_reason(state, seat, merged, tk, pile_gain(pile))


def pile_gain(pile: list[int] | tuple[int, ...]) -> int:
    """The cards taking ``pile`` adds to the hand besides its top card (red threes are laid out)."""
    return len(pile) - 1 - pile.count(_RED_3H) - pile.count(_RED_3D)


def groups_reason(state: GameState, seat: int, groups: KindGroups, top: int | None, gained: int) -> str | None:
    """Judge melding ``groups`` (rank -> [naturals, twos, jokers] from the hand), or None.

    ``top`` is the rank of the pile's top card, which joins that group; ``gained`` is how
    many more cards the pile then adds to the hand.
    """
    side = seat % state.sides
    r = state.rules
    mnat = state.meld_naturals[side]
    mwild = state.meld_wilds[side]
    exists = state.melds[side]
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
            if size + w < MIN_MELD:
                return "a meld of wild cards needs at least three of them"
            if size < CANASTA_SIZE <= size + w:
                new_canastas += 1
            wild_meld = True
            value += KIND_VALUE[TWO] * t + KIND_VALUE[JOKER_KIND] * j
            continue
        if w:
            wilds_elsewhere = True
        if rank == RED_THREE:
            return "red threes are never melded; they are laid out"
        if rank == BLACK_THREE:
            if w:
                return "black threes are melded without wild cards"
            total = mnat[BLACK_THREE] + n
            if not MIN_MELD <= total <= 4:
                return "a meld of black threes holds 3 or 4 of them"
            black = True
            value += KIND_VALUE[BLACK_THREE] * n
            continue
        extra = 1 if rank == top else 0
        nat = mnat[rank] + n + extra
        wild = mwild[rank] + w
        name = kind_name(rank)
        if exists[rank] is None:
            if n + extra == 0:
                return f"your side has no meld of {name} to add wild cards to"
            if n + extra < 2:
                theirs = any(state.melds[o][rank] is not None for o in range(state.sides) if o != side)
                if theirs:
                    return (f"your side has no meld of {name}, and you may not add to the other "
                            f"side's meld")
                return f"a new meld needs at least two natural {name}, and this one has only one"
            if nat + wild < MIN_MELD:
                return f"a meld needs at least three cards: {nat + wild} {name} are not enough"
        if wild > MAX_WILDS:
            return f"a meld holds at most three wild cards; your meld of {name} would hold {wild}"
        if r.wilds_at_most_naturals and wild > nat:
            return f"at this table a meld may not hold more wild cards than natural ones ({name})"
        before = mnat[rank] + mwild[rank]
        if before < CANASTA_SIZE <= nat + wild:
            new_canastas += 1
        value += (n + extra) * KIND_VALUE[rank] + KIND_VALUE[TWO] * t + KIND_VALUE[JOKER_KIND] * j
    if wild_meld and wilds_elsewhere:
        return "a side with a meld of wild cards may not use wild cards in its other melds"
    left = state.hand_sizes[seat] - used + gained
    if left < 0:
        return "you do not hold those cards"
    canastas = state.canastas[side] + new_canastas
    if not may_keep(state, side, left, canastas):
        return out_reason(state, side) + ", so you must keep at least two cards after melding"
    if black and not (left <= 1 and may_go_out(state, side, canastas)):
        return "black threes may be melded only when going out"
    if state.meld_count[side] == 0:
        concealed = top is None and state.drew == _STOCK and not state.was_melded and left <= 1
        minimum = state.minimum(side)
        if value < minimum and not concealed:
            return f"{FIRST_MELD} {minimum} (these cards are worth {value})"
    if state.answer is True and left >= 1 and top is None:
        hand = state.kind_counts[seat][:]
        for rank, (n, t, j) in groups.items():
            hand[rank] -= n
            hand[TWO] -= t
            hand[JOKER_KIND] -= j
        if not _can_go_out_after(state, seat, hand, groups):
            return "your partner said yes: you must go out this turn, and after this meld you could not"
    return None


def _can_go_out_after(state: GameState, seat: int, hand: list[int], groups: KindGroups) -> bool:
    """Could ``seat`` go out with ``hand`` once ``groups`` are on its side's melds?"""
    side = seat % state.sides
    mnat = state.meld_naturals[side][:]
    mwild = state.meld_wilds[side][:]
    canastas = state.canastas[side]
    for rank, (n, t, j) in groups.items():
        before = mnat[rank] + mwild[rank]
        mnat[rank] += n
        mwild[rank] += t + j
        if before < CANASTA_SIZE <= mnat[rank] + mwild[rank]:
            canastas += 1
    r = state.rules
    return _hand_can_go_out(hand, mnat, mwild, canastas, r.canastas_to_go_out,
                            r.wilds_at_most_naturals, r.wild_card_melds)


def kind_groups(groups: Sequence[Group]) -> KindGroups:
    """A move's groups merged by rank into ``[naturals, twos, jokers]`` counts."""
    merged: KindGroups = {}
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


def unavailable_reason(state: GameState, seat: int, action: str) -> str:
    """Why ``seat`` has no legal move of ``action`` now: the sentence a disabled button shows
    while no card is selected.

    For an action word the legal moves lack (:mod:`canasta.legal` says which): the rules'
    sentence for the move of that word that comes nearest to being legal (the pile with the
    natural cards of its top card, a meld of three cards of a rank held...), said without
    naming a card of the hand, since none is selected: what the rules would need instead
    (three cards of one rank, two natural 9s for the pile).  :mod:`canasta.selection` speaks
    of the cards once some are selected.  Cheap: a few judgements, no move generation.
    """
    if state.phase == _OVER:
        return "the hand is over"
    if state.to_act != seat:
        return "it is not your turn"
    why = phase_reason(state, action)
    if why is not None:
        return why
    candidates: list[Move] = []
    if action in (DRAW, ASK, YES, NO):
        candidates.append(SIMPLE_MOVES[action])
    elif action == DISCARD:
        held = [c for c in range(NUM_CODES) if state.hand_counts[seat][c]]
        candidates.append(Move(DISCARD, card=held[0]) if held else SIMPLE_MOVES[DRAW])
    elif action == PILE:
        if not state.pile or is_blocked(state.pile[-1]):
            candidates.append(SIMPLE_MOVES[PILE])
        else:
            tk = KIND[state.pile[-1]]
            mine = _codes(state, seat, tk, 2)
            wild = _codes(state, seat, TWO, 1) or _codes(state, seat, JOKER_KIND, 1)
            if len(mine) == 2:
                candidates.append(Move(PILE, (Group.of(mine),)))
            elif mine and wild and not state.frozen_for(seat % state.sides):
                candidates.append(Move(PILE, (Group.of(mine + wild),)))
            candidates.append(SIMPLE_MOVES[PILE])
    elif action == MELD:
        candidates = _meld_candidates(state, seat)
        if not candidates:
            side = seat % state.sides
            return ("you hold no three cards of one rank, nor two of a rank and a wild card"
                    + (", nor a card for your side's melds" if state.meld_count[side] else ""))
    for move in candidates:
        why = reason(state, move)
        if why is not None:
            if why.startswith(FIRST_MELD):  # "(these cards are worth ...)": no card is selected
                minimum = state.minimum(seat % state.sides)
                if action == PILE:
                    return f"{FIRST_MELD} {minimum}, and taking the pile with the cards in your hand does not reach it"
                return f"{FIRST_MELD} {minimum}, and the melds in your hand do not reach it"
            return why
    return f"no {action} is possible now"


def _meld_candidates(state: GameState, seat: int) -> list[Move]:
    """Melds of the hand that have the shape of a meld (three cards of a rank, two and a wild card, a
    card for one of the side's melds...), for :func:`unavailable_reason` to judge; the first melds
    of all the ranks held together first, for a side that has not melded."""
    side = seat % state.sides
    kc = state.kind_counts[seat]
    melds = state.melds[side]
    candidates: list[Move] = []
    wild = _codes(state, seat, TWO, 1) or _codes(state, seat, JOKER_KIND, 1)
    if state.meld_count[side] == 0:
        wilds = _codes(state, seat, JOKER_KIND, 2) + _codes(state, seat, TWO, 2)
        groups = []
        for r in range(NUM_NATURAL):
            if kc[r] < 2:
                continue
            cards = _codes(state, seat, r, 7)
            if len(cards) < 3 and wilds:
                cards.append(wilds.pop())
            if len(cards) >= 3:
                groups.append(Group.of(cards))
        if groups:
            candidates.append(Move(MELD, tuple(groups)))
    for r in range(NUM_NATURAL):
        if melds[r] is not None and kc[r]:
            candidates.append(Move(MELD, (Group.of(_codes(state, seat, r, 1)),)))
        elif melds[r] is None and (kc[r] >= 3 or (kc[r] == 2 and wild)):
            candidates.append(Move(MELD, (Group.of(_codes(state, seat, r, 3 if kc[r] >= 3 else 2) + (
                [] if kc[r] >= 3 else wild)),)))
    if wild:
        joins = next((r for r in range(NUM_NATURAL) if melds[r] is not None), None)
        if joins is not None:
            candidates.append(Move(MELD, (Group.of(wild, joins),)))
        if state.rules.wild_card_melds:
            if melds[WILD_MELD] is not None:
                candidates.append(Move(MELD, (Group.of(wild, WILD_MELD),)))
            else:
                wilds = _codes(state, seat, TWO, 3) + _codes(state, seat, JOKER_KIND, 3)
                if len(wilds) >= MIN_MELD:
                    candidates.append(Move(MELD, (Group.of(wilds[:MIN_MELD], WILD_MELD),)))
    if kc[BLACK_THREE] >= MIN_MELD or (kc[BLACK_THREE] and melds[BLACK_THREE] is not None):
        candidates.append(Move(MELD, (Group.of(_codes(state, seat, BLACK_THREE, 4)),)))
    return candidates


def _codes(state: GameState, seat: int, kind: int | None, most: int) -> list[int]:
    """Up to ``most`` cards of ``kind`` (None: of the first kind held) from ``seat``'s hand."""
    counts = state.hand_counts[seat]
    out: list[int] = []
    for code in range(NUM_CODES):
        if counts[code] and (kind is None or KIND[code] == kind):
            if kind is None:
                kind = KIND[code]
            out.extend([code] * min(counts[code], most - len(out)))
            if len(out) >= most:
                break
    return out


__all__ = [
    "BLOCKS",
    "FIRST_MELD",
    "KindGroups",
    "ask_reason",
    "blocked_reason",
    "can_go_out",
    "discard_reason",
    "forced_pile_reason",
    "groups_reason",
    "held_reason",
    "is_blocked",
    "kind_groups",
    "may_draw",
    "may_go_out",
    "may_keep",
    "meld_reason",
    "out_reason",
    "phase_reason",
    "pile_gain",
    "pile_reason",
    "reason",
    "unavailable_reason",
]
