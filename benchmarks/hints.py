"""How long a hint takes: median, 95th percentile and slowest over positions of real play.

Run::

    python benchmarks/hints.py [--positions 200] [--bot search:200ms] [--preset classic] [--seed 1] [--json]

The positions are the decisions of seeded hands played by four experts (every third one, so
that draws, melds, discards and answers all come up); each is hinted once by
:func:`canasta.bots.hints.hint` with ``--bot`` (default :data:`~canasta.bots.hints.HINT_BOT`),
from the seat's view, as the browser and the terminal ask for it.  Also counts how often the
search overrode the expert.  :data:`~canasta.bots.hints.HINT_BOT` is chosen so that the 95th
percentile stays under 300 ms on the project's machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from canasta.bots import make_bot
from canasta.bots.expert import ExpertBot
from canasta.bots.hints import HINT_BOT, hint
from canasta.bots.rating import percentile
from canasta.moves import Move
from canasta.rules import PRESETS
from canasta.state import GameState
from canasta.views import View


def positions(preset: str, count: int, seed: int, every: int = 3) -> list[tuple[View, list[Move]]]:
    """``count`` decisions (views and legal moves) from hands four experts play, every ``every``-th one."""
    rules = PRESETS[preset]
    rng = random.Random(seed)
    found: list[tuple[View, list[Move]]] = []
    hand = 0
    while len(found) < count:
        state = GameState.deal(rules, dealer=hand % rules.players, rng=rng,
                               sitting_out=0 if rules.sit_out else None)
        bots = [make_bot("expert", random.Random(seat)) for seat in range(rules.players)]
        step = 0
        while not state.is_over and len(found) < count:
            seat = state.to_act
            moves = list(state.legal_moves())
            if len(moves) > 1 and step % every == 0:
                found.append((state.view(seat), moves))
            state.push(bots[seat].choose(state.view(seat), moves))
            step += 1
        hand += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200, help="positions to hint (default 200)")
    parser.add_argument("--bot", default=HINT_BOT, help=f"the hint's player (default {HINT_BOT})")
    parser.add_argument("--preset", default="classic", choices=sorted(PRESETS), help="the game (default classic)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the hands (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    found = positions(args.preset, args.positions, args.seed)
    times, overrides = [], 0
    for view, moves in found:
        began = time.perf_counter()
        move, _ = hint(view, moves, bot=args.bot)
        times.append(time.perf_counter() - began)
        overrides += move != ExpertBot(random.Random(0)).choose(view, moves)
    report = {
        "bot": args.bot, "preset": args.preset, "positions": len(times),
        "median_ms": round(statistics.median(times) * 1000, 1),
        "p95_ms": round(percentile(times, 95) * 1000, 1),
        "max_ms": round(max(times) * 1000, 1),
        "overrides": overrides,
    }
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{report['bot']} hints, {report['preset']}, {report['positions']} positions: median "
              f"{report['median_ms']} ms, p95 {report['p95_ms']} ms, slowest {report['max_ms']} ms; "
              f"the search overrode the expert {overrides} times")


if __name__ == "__main__":
    main()
