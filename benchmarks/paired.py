"""Paired duplicate measurement: several bots against one opponent on the same deals, and their differences.

Each deal is one ``canasta.bots.arena.play_deal`` deal (played once per side), so bots measured
here on the same seeds meet the same cards: the per-deal difference between two of them has a
much narrower interval than either figure alone.  Every 25 deals it prints one line per bot and per pair.

    PYTHONPATH=build/compiled/lib nice -n 10 python benchmarks/paired.py \\
        --bots search:64,search:64:uniform --against expert --deals 300 --seed 1
"""

from __future__ import annotations

import argparse
import math
import time

from canasta.bots.arena import play_deal
from canasta.rules import Rules


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", required=True, help="comma-separated bots")
    parser.add_argument("--against", default="expert")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="classic")
    args = parser.parse_args()
    bots = args.bots.split(",")
    rules = Rules.parse(args.preset)
    per: dict[str, list[float]] = {b: [] for b in bots}
    start = time.perf_counter()
    for deal in range(args.deals):
        for bot in bots:
            hands = play_deal(bot, args.against, rules, args.seed, deal)
            per[bot].append(sum(h.diff for h in hands) / len(hands))
        if (deal + 1) % 25 == 0 or deal + 1 == args.deals:
            print(f"after {deal + 1} deals, {time.perf_counter() - start:.0f} s:", flush=True)
            report(per, args.against)


def report(per: dict[str, list[float]], against: str) -> None:
    """Each bot's points a hand against ``against``, and each pair's paired difference."""
    bots = list(per)
    for bot in bots:
        m, lo, hi = interval(per[bot])
        print(f"  {bot} vs {against}: {m:+.1f} points/hand (95% interval {lo:+.1f} to {hi:+.1f}; "
              f"{len(per[bot])} deals)")
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            m, lo, hi = interval([x - y for x, y in zip(per[a], per[b])])
            print(f"  {a} - {b}: {m:+.1f} points/hand (95% interval {lo:+.1f} to {hi:+.1f}; paired)", flush=True)


if __name__ == "__main__":
    main()
