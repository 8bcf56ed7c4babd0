"""Random playouts that check every invariant at every step (``canasta soak``, and the tests).

At each decision: cards are conserved, ``legal_moves`` is non-empty until the hand ends,
the chosen move passes the rules' check, some refused moves leave the state unchanged, a
position printed at a turn's start parses back to the same position, and each seat's view
holds no card that seat could not see.  At each hand's end the scores add up.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from ..cards import IS_NATURAL, NUM_CODES, card_text
from ..errors import CanastaError
from ..legal import materialize
from ..moves import DISCARD, DRAW, PILE, Move, Phase
from ..position import from_position, to_position
from ..rules import Rules
from ..state import GameState


class InvariantError(AssertionError):
    """An invariant of the engine does not hold."""


def fingerprint(state: GameState) -> tuple[Any, ...]:
    """Everything that makes up a state, for before/after comparisons."""
    return (
        state.phase, state.turn, tuple(map(tuple, state.hand_counts)), tuple(state.stock), tuple(state.pile),
        tuple(tuple(tuple(m) if m is not None else None for m in side) for side in state.melds),
        tuple(map(tuple, state.red_threes)), tuple(state.melded), state.drew, state.asked, state.answer,
        state.freezers, state.frozen_extra, len(state.history), tuple(map(tuple, state.known)),
    )


def check_view(state: GameState, seat: int) -> None:
    """A view holds no other hand's unknown cards and no stock card."""
    view = state.view(seat)
    if list(view.hand) != state.hand(seat):
        raise InvariantError(f"seat {seat}'s view shows the wrong hand")
    for other in range(state.players):
        if other == seat:
            continue
        counts = [0] * NUM_CODES
        for c in view.known[other]:
            counts[c] += 1
        for c in range(NUM_CODES):
            if counts[c] > state.hand_counts[other][c]:
                raise InvariantError(f"seat {seat}'s view claims seat {other} holds {card_text(c)}")
    if view.hands_left and state.result is None:
        raise InvariantError(f"seat {seat}'s view turns up the hands before the hand is over")
    data = view.to_json()
    if "stock" in data or "hands" in data or (data.get("hands_left") and state.result is None):
        raise InvariantError("a view carries the stock or the hands")


def refused_moves(state: GameState, rng: random.Random) -> list[Move]:
    """Some moves the rules must refuse now (by construction or by the check)."""
    seat = state.to_act
    held = [c for c in range(NUM_CODES) if state.hand_counts[seat][c]]
    missing = [c for c in range(NUM_CODES) if not state.hand_counts[seat][c]]
    out = []
    if missing:
        out.append(Move(DISCARD, card=rng.choice(missing)))
    if state.phase is not Phase.DRAW:
        out.append(Move(DRAW))
    naturals = [c for c in held if IS_NATURAL[c]]
    if naturals:
        out.append(Move.parse(f"meld {card_text(rng.choice(naturals))}"))
    if held:
        out.append(Move.parse(f"pile {card_text(rng.choice(naturals))}") if naturals else Move(PILE))
    out.append(Move(PILE))
    return [m for m in out if not state.is_legal(m)]


def check_step(state: GameState, rng: random.Random) -> None:
    """Check the invariants of one state (before a decision)."""
    for seat in range(state.players):
        mask = sum(1 << k for k, n in enumerate(state.kind_counts[seat]) if n)
        if mask != state.kind_bits[seat]:
            raise InvariantError(f"seat {seat}'s kind mask is out of step with its hand")
    for side in range(state.sides):
        mask = sum(1 << r for r, m in enumerate(state.melds[side]) if m is not None)
        if mask != state.meld_bits[side]:
            raise InvariantError(f"side {side}'s meld mask is out of step with its melds")
    deck = state.rules.deck_size
    if state.card_count() != deck:
        raise InvariantError(f"{state.card_count()} cards instead of {deck}")
    moves = state.legal_moves()
    if not state.is_over and len(moves) == 0:
        raise InvariantError(f"no legal move in phase {state.phase}")
    for move in moves:
        state.check(move)
    before = fingerprint(state)
    for move in refused_moves(state, rng):
        try:
            state.play(move)
        except CanastaError:
            pass
        else:
            raise InvariantError(f"a refused move was accepted: {move}")
        if fingerprint(state) != before:
            raise InvariantError(f"a refused move changed the state: {move}")
    if state.phase is Phase.DRAW and not state.is_over:
        again = from_position(to_position(state))
        if to_position(again) != to_position(state):
            raise InvariantError("a position does not parse back to itself")
    check_view(state, rng.randrange(state.players))


def check_result(state: GameState) -> None:
    """The hand's scores equal the sum of their items."""
    result = state.result
    if result is None:
        raise InvariantError("a finished hand has no result")
    for side in result.sides:
        items = side.canasta_bonus + side.red_three_points + side.going_out + side.melded - side.in_hand
        if items != side.total:
            raise InvariantError("a side's total is not the sum of its items")


def soak(decisions: int, seed: int, rules: Rules | str = "classic", progress: bool = False) -> dict[str, Any]:
    """Play random hands until ``decisions`` decisions, checking every invariant at each."""
    rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
    rng = random.Random(seed)
    made = hands = failures = 0
    first_failure = None
    start = time.perf_counter()
    while made < decisions:
        state = GameState.deal(rules, dealer=hands % rules.players, rng=rng)
        hands += 1
        try:
            while not state.is_over:
                check_step(state, rng)
                specs = state.legal_moves().specs
                state.push(materialize(state, specs[rng.randrange(len(specs))]))
                made += 1
            check_step(state, rng)
            check_result(state)
        except (InvariantError, CanastaError, AssertionError) as exc:
            failures += 1
            if first_failure is None:
                first_failure = f"hand {hands}: {exc}"
        if progress and hands % 200 == 0:
            print(f"\r{made:,} decisions, {hands:,} hands, {failures} failures", end="", file=sys.stderr)
    if progress:
        print(file=sys.stderr)
    return {
        "preset": rules.preset,
        "decisions": made,
        "hands": hands,
        "failures": failures,
        "first_failure": first_failure,
        "seconds": round(time.perf_counter() - start, 1),
    }
