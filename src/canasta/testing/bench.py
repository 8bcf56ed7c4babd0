"""Speed benchmarks: random playouts and state copies (``canasta bench``).

Every player chooses uniformly among ``legal_moves`` with one seeded ``random.Random``.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..legal import generate, materialize, push_spec
from ..moves import Phase
from ..rules import Rules
from ..state import GameState


def random_hands(hands: int, seed: int, rules: Rules | str = "classic") -> dict[str, Any]:
    """Play ``hands`` hands of uniform-random moves and report decisions per second."""
    rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for i in range(hands):
        state = GameState.deal(rules, dealer=i % rules.players, rng=rng)
        decisions += play_out(state, rng)
    seconds = time.perf_counter() - start
    return {
        "preset": rules.preset,
        "hands": hands,
        "decisions": decisions,
        "seconds": round(seconds, 4),
        "decisions_per_s": round(decisions / seconds) if seconds else 0,
        "hands_per_s": round(hands / seconds, 2) if seconds else 0,
    }


def play_out(state: GameState, rng: random.Random) -> int:
    """Play uniform-random legal moves to the end of the hand; returns the decisions made."""
    before = len(state.history)
    uniform = rng.random
    while state.phase is not Phase.OVER:
        specs = generate(state)  # the list behind state.legal_moves()
        push_spec(state, specs[int(uniform() * len(specs))])
    return len(state.history) - before


def copy_cost(copies: int, seed: int) -> dict[str, Any]:
    """Microseconds per :meth:`GameState.copy` on mid-hand positions."""
    rng = random.Random(seed)
    state = GameState.deal("classic", rng=rng)
    for _ in range(60):
        if state.is_over:
            break
        specs = state.legal_moves().specs
        state.push(materialize(state, specs[rng.randrange(len(specs))]))
    start = time.perf_counter()
    for _ in range(copies):
        state.copy()
    seconds = time.perf_counter() - start
    return {"copies": copies, "seconds": round(seconds, 4),
            "copy_us": round(1e6 * seconds / copies, 2)}
