"""Engine speed figures: random playouts per preset and the cost of GameState.copy().

Run: python benchmarks/engine.py [--hands N] [--seed S]
"""

from __future__ import annotations

import argparse
import json

from canasta.rules import PRESETS
from canasta.testing.bench import copy_cost, random_hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for preset in PRESETS:
        print(json.dumps(random_hands(args.hands, args.seed, preset)))
    print(json.dumps(copy_cost(50_000, args.seed)))


if __name__ == "__main__":
    main()
