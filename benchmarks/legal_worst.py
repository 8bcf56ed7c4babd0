"""The slowest ``legal_moves`` a web table can meet: every preset at the largest options the server allows.

Run::

    python benchmarks/legal_worst.py [--seeds 8] [--preset NAME] [--json]

For every preset, every deck count the web API accepts and the largest ``hand_size`` it accepts
(:data:`canasta.web.limits.HAND_CAPS`, :data:`~canasta.web.limits.MAX_DECKS`), hands are played to
their end by two kinds of players and the time of each ``legal_moves`` (generating and counting
every move, as a ``state`` message does) is measured:

- ``random``: a uniformly random legal move;
- ``hoard``: takes the pile when it can, else draws, else discards: hands grow as large as the
  rules let them (the largest hand reached is reported), the worst case of a hostile table.

The server's caps were chosen so that the worst figure stays under 50 ms on a 2-core machine;
a dealt hand of 40 cards takes about 0.5 s, one of 45 ten seconds (two-player, two decks).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import asdict, dataclass

from canasta.match import Match
from canasta.rules import PRESETS, Rules
from canasta.web.limits import HAND_CAPS, MAX_DECKS

STRATEGIES = ("random", "hoard")


@dataclass
class Worst:
    """The slowest position found for one preset and options."""

    preset: str
    decks: int
    hand_size: int
    strategy: str
    seconds: float
    largest_hand: int
    positions: int


def _choose(moves: list[str], rng: random.Random, strategy: str) -> str:
    if strategy == "hoard":
        for wanted in ("pile", "draw", "discard"):
            fitting = [m for m in moves if m.startswith(wanted)]
            if fitting:
                return rng.choice(fitting)
    return rng.choice(moves)


def worst_legal_moves(rules: Rules, strategy: str, seeds: int = 8, stop_at: float = 2.0) -> Worst:
    """Play ``seeds`` hands with ``strategy``; the slowest ``legal_moves`` met (stops early past ``stop_at`` s)."""
    worst, largest, positions = 0.0, 0, 0
    for seed in range(seeds):
        match = Match(rules, [f"P{i}" for i in range(rules.players)], seed=seed, deal=False)
        match.new_hand()
        rng = random.Random(seed)
        while not match.state.is_over:
            state = match.state
            start = time.perf_counter()
            legal = state.legal_moves()
            len(legal)
            worst = max(worst, time.perf_counter() - start)
            largest = max(largest, max(state.hand_sizes))
            positions += 1
            if worst > stop_at:
                break
            match.play(_choose([str(m) for m in legal], rng, strategy))
    return Worst(rules.preset, rules.decks, rules.hand_size, strategy, worst, largest, positions)


def allowed_extremes(preset: str) -> list[Rules]:
    """The preset with each allowed deck count and the largest allowed hand that the cards can deal."""
    base = PRESETS[preset]
    found = []
    for decks in range(base.decks, MAX_DECKS[preset] + 1):
        hand = HAND_CAPS[preset]
        while hand > 1:
            try:
                found.append(Rules.from_preset(preset, decks=decks, hand_size=hand))
                break
            except ValueError:
                hand -= 1
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the slowest position per preset, options and strategy."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--preset", choices=sorted(PRESETS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = []
    for preset in [args.preset] if args.preset else list(PRESETS):
        for rules in allowed_extremes(preset):
            for strategy in STRATEGIES:
                worst = worst_legal_moves(rules, strategy, args.seeds)
                results.append(worst)
                if not args.json:
                    print(f"{preset:22} decks={rules.decks} hand_size={rules.hand_size:3} {strategy:6} "
                          f"worst {worst.seconds * 1000:7.1f} ms  largest hand {worst.largest_hand:3}  "
                          f"({worst.positions} positions)", flush=True)
    overall = max(results, key=lambda w: w.seconds)
    if args.json:
        print(json.dumps({"results": [asdict(r) for r in results], "worst": asdict(overall)}))
    else:
        print(f"worst of all: {overall.seconds * 1000:.1f} ms ({overall.preset}, decks={overall.decks}, "
              f"hand_size={overall.hand_size}, {overall.strategy})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
