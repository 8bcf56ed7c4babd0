"""``legal_moves`` is canonical and complete.

Every listed move is legal, and on small random positions every position that any
sequence of legal moves can reach within the turn (every multi-group meld and pile move
a player could write) is reached by sequences of listed moves.  Positions are compared
by kinds, since cards of one kind are interchangeable.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from canasta import GameState, from_position
from canasta.cards import (
    BLACK_THREE,
    JOKER_KIND,
    KIND,
    KIND_CODES,
    NUM_NATURAL,
    TWO,
    WILD_MELD,
    card_text,
)
from canasta.legal import materialize
from canasta.moves import ASK, DISCARD, Move

Fingerprint = tuple[object, ...]


def kind_fingerprint(state: GameState) -> Fingerprint:
    """The state up to the suits of interchangeable cards."""
    melds = tuple(
        tuple(None if m is None else tuple(sorted(KIND[c] for c in m)) for m in side) for side in state.melds
    )
    result = None if state.result is None else (state.result.totals, state.result.went_out, state.result.concealed)
    return (
        state.phase, state.turn, tuple(tuple(k) for k in state.kind_counts), melds,
        tuple(len(r) for r in state.red_threes),
        len(state.stock), tuple(KIND[c] for c in state.pile), tuple(state.melded), state.drew, result,
        state.answer,
    )


def all_group_moves(state: GameState, action: str) -> Iterator[Move]:
    """Every meld (or pile) move a player could write, by kinds, with the first suits held."""
    seat = state.turn
    side = seat % state.sides
    kc = state.kind_counts[seat]
    ranks = [r for r in range(NUM_NATURAL) if kc[r] or state.melds[side][r] is not None]
    if action == "pile" and state.pile and KIND[state.pile[-1]] < NUM_NATURAL:
        top = KIND[state.pile[-1]]
        if top not in ranks:
            ranks.append(top)
    per_rank = []
    for r in ranks:
        options = [(n, t, j) for n in range(kc[r] + 1) for t in range(min(kc[TWO], 3) + 1)
                   for j in range(min(kc[JOKER_KIND], 3) + 1)]
        per_rank.append(options)
    if state.rules.wild_card_melds:
        ranks.append(WILD_MELD)
        per_rank.append([(0, t, j) for t in range(kc[TWO] + 1) for j in range(kc[JOKER_KIND] + 1)])
    blacks = range(kc[BLACK_THREE] + 1)
    for combo in itertools.product(*per_rank):
        if sum(c[1] for c in combo) > kc[TWO] or sum(c[2] for c in combo) > kc[JOKER_KIND]:
            continue
        for b in blacks:
            groups = [(r, n, t, j) for r, (n, t, j) in zip(ranks, combo) if n + t + j]
            if b:
                groups.append((BLACK_THREE, b, 0, 0))
            if action == "meld" and not groups:
                continue
            yield materialize(state, (action, tuple(groups)))  # the first suits held, as listed moves


def every_move(state: GameState) -> Iterator[Move]:
    """Every legal move (not only canonical ones), except asking."""
    if state.phase == "draw":
        yield Move.parse("draw")
        yield from all_group_moves(state, "pile")
    elif state.phase == "play":
        yield from all_group_moves(state, "meld")
        for kind in range(15):
            for code in KIND_CODES[kind]:
                if state.hand_counts[state.turn][code]:
                    yield Move(DISCARD, card=code)
                    break


def reach(state: GameState, canonical: bool, seen: set[Fingerprint]) -> None:
    """Positions reachable within the turn (stopping at the discard or the end)."""
    turn = state.turn
    moves = list(state.legal_moves()) if canonical else [m for m in every_move(state) if state.is_legal(m)]
    for move in moves:
        if move.action == ASK:
            continue
        child = state.copy()
        child.push(move)
        fp = kind_fingerprint(child)
        if fp in seen:
            continue
        seen.add(fp)
        if child.phase in ("draw", "play") and child.turn == turn and not child.is_over:
            reach(child, canonical, seen)


RANKS = "AKQJT987654"


def random_position(rng: random.Random) -> dict[str, object]:
    """A small position where melds, piles and going out are all likely."""
    ranks = rng.sample(RANKS, 3)
    naturals = {r: [r + s for s in "SHDC" for _ in range(2)] for r in ranks}
    for cards in naturals.values():
        rng.shuffle(cards)
    wilds = ["2S", "2H", "2D", "2C", "JK", "JK", "JK"]
    rng.shuffle(wilds)
    melds: dict[str, list[str]] = {}
    if rng.random() < 0.75:
        for rank in rng.sample(ranks, rng.randint(1, 2)):
            size = rng.choice([3, 4, 5, 6, 6, 7])
            wild_count = rng.randint(0, min(3, size - 2)) if rng.random() < 0.5 else 0
            cards = [naturals[rank].pop() for _ in range(size - wild_count)] + [wilds.pop() for _ in range(wild_count)]
            melds[rank] = cards
    blacks = ["3S", "3C", "3S"][: rng.choice([0, 0, 3])]
    pool = [c for r in ranks for c in naturals[r]] + blacks
    rng.shuffle(pool)
    hand = [pool.pop() for _ in range(rng.randint(2, 6))] + wilds[: rng.choice([0, 0, 1, 2, 3, 4])]
    tops = [c for c in pool if c[0] in ranks]
    top = rng.choice(tops) if tops else "4S"
    if top in pool:
        pool.remove(top)
    pile = ["5H", top] if rng.random() < 0.5 else [top]
    if rng.random() < 0.3:
        pile.insert(0, "2S")  # the second 2S of the two decks: the pile is frozen
    stock = [pool.pop() for _ in range(min(3, len(pool)))] or ["4H"]
    score = rng.choice([-100, 0, 0, 1500, 3000])
    return {
        "rules": "classic", "dealer": 3, "turn": 0, "scores": [score, 0],
        "hands": [hand, ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]],
        "stock": stock, "pile": pile, "melds": [melds, {}], "red_threes": [[], []],
        "melded": [bool(melds) and rng.random() < 0.5, False, bool(melds), False],
    }


def positions(count: int, seed: int, rules: object = "classic") -> Iterator[GameState]:
    rng = random.Random(seed)
    made = 0
    while made < count:
        try:
            position = random_position(rng)
            position["rules"] = rules
            state = from_position(position)
        except ValueError:
            continue
        made += 1
        yield state


RULES_VARIANTS = {
    "classic": "classic",
    "wild-card-melds": {"preset": "classic", "wild_card_melds": True},
    "wilds-at-most-naturals": {"preset": "classic", "wilds_at_most_naturals": True},
    "two-canastas": {"preset": "classic", "canastas_to_go_out": 2},
    "two-naturals-to-take": {"preset": "classic", "two_naturals_to_take": True},
}


@pytest.mark.parametrize("variant", sorted(RULES_VARIANTS))
@pytest.mark.parametrize("seed", range(2))
def test_canonical_moves_reach_every_reachable_position(variant: str, seed: int) -> None:
    for state in positions(20, seed, RULES_VARIANTS[variant]):
        full: set[Fingerprint] = set()
        reach(state, canonical=False, seen=full)
        canon: set[Fingerprint] = set()
        reach(state, canonical=True, seen=canon)
        missing = full - canon
        assert not missing, (
            f"hand {[card_text(c) for c in state.hand(0)]}, pile {[card_text(c) for c in state.pile]}, "
            f"melds {state.meld_cards(0)}: {len(missing)} positions not reached, e.g. {sorted(missing, key=str)[0]}"
        )
        assert canon <= full


@pytest.mark.parametrize("seed", range(4))
def test_every_listed_move_is_legal_and_listed_once(seed: int) -> None:
    for state in positions(40, 100 + seed):
        for _ in range(4):
            moves = list(state.legal_moves())
            texts = [str(m) for m in moves]
            assert len(texts) == len(set(texts))
            for move in moves:
                state.check(move)
            if state.is_over or not moves:
                break
            state.push(moves[seed % len(moves)])


@pytest.mark.parametrize("preset", ["classic", "two-player", "six-player-two-teams"])
def test_push_spec_is_push_of_the_materialized_move(preset: str) -> None:
    """The fast path of playouts applies exactly what ``push(materialize(...))`` applies."""
    from canasta.legal import generate, materialize, push_spec
    from canasta.position import to_position

    for hand in range(4):
        slow = GameState.deal(preset, dealer=hand % 2, rng=random.Random(hand))
        fast = slow.copy()
        rng = random.Random(100 + hand)
        while not slow.is_over:
            specs = generate(slow)
            assert specs == generate(fast)
            spec = specs[rng.randrange(len(specs))]
            slow.push(materialize(slow, spec))
            push_spec(fast, spec)
            assert to_position(fast) == to_position(slow)
        assert [str(m) for _, m in fast.history] == [str(m) for _, m in slow.history]
        assert fast.result == slow.result
