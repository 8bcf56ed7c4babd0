"""Environment steps per second with random masked actions, observation encoding included.

One step is one action (a draw, a discard, one staged card, a commit...).  Each interface
is driven the way a learner drives it: read the acting agent's observation and mask, pick
a uniformly random allowed action, step.  Runs on one core.

    python benchmarks/rl_env.py --steps 50000 --seed 1 [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any


def bench_actions(steps: int, seed: int) -> dict[str, Any]:
    """The bare action layer (:class:`canasta.rl.actions.TurnActions`), no observation."""
    from canasta.rl.actions import TurnActions
    from canasta.state import GameState

    rng = random.Random(seed)
    done = hands = 0
    start = time.perf_counter()
    while done < steps:
        state = GameState.deal("classic", rng=rng)
        turn = TurnActions(state)
        hands += 1
        while not state.is_over and done < steps:
            allowed = turn.legal_actions()
            turn.apply(allowed[int(rng.random() * len(allowed))])
            done += 1
    return _report("actions (no observation)", done, hands, time.perf_counter() - start)


def bench_pettingzoo(steps: int, seed: int, wrapped: bool) -> dict[str, Any]:
    """``canasta_v0``: ``env.last()`` (observation + mask of the acting agent), then ``env.step``."""
    from canasta.rl import pettingzoo

    env = pettingzoo.env() if wrapped else pettingzoo.raw_env()
    rng = random.Random(seed)
    done = hands = 0
    start = time.perf_counter()
    env.reset(seed=seed)
    hands += 1
    while done < steps:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            hands += 1
            continue
        allowed = obs["action_mask"].nonzero()[0]
        env.step(int(allowed[int(rng.random() * len(allowed))]))
        done += 1
    name = "pettingzoo env() (wrapped)" if wrapped else "pettingzoo raw_env()"
    return _report(name, done, hands, time.perf_counter() - start)


def bench_gymnasium(steps: int, seed: int, opponents: str) -> dict[str, Any]:
    """:class:`CanastaEnv` against bots (their thinking counts: agent steps per second)."""
    from canasta.rl.gymnasium import CanastaEnv

    env = CanastaEnv(opponents=opponents)
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    done, hands = 0, 1
    start = time.perf_counter()
    while done < steps:
        allowed = obs["action_mask"].nonzero()[0]
        obs, _, term, trunc, _ = env.step(int(allowed[int(rng.random() * len(allowed))]))
        done += 1
        if term or trunc:
            obs, _ = env.reset()
            hands += 1
    return _report(f"gymnasium CanastaEnv vs {opponents}", done, hands, time.perf_counter() - start)


def bench_openspiel(steps: int, seed: int) -> dict[str, Any]:
    """``pyspiel.load_game("canasta")``: chance and player actions, observation tensor each step."""
    import pyspiel

    import canasta.rl.openspiel  # noqa: F401 (registers the game)

    game = pyspiel.load_game("canasta")
    rng = random.Random(seed)
    done, hands = 0, 0
    start = time.perf_counter()
    while done < steps:
        state = game.new_initial_state()
        hands += 1
        while not state.is_terminal() and done < steps:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                weights = [p for _, p in outcomes]
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            done += 1
    return _report("openspiel (chance nodes counted as steps)", done, hands, time.perf_counter() - start)


def _report(name: str, steps: int, hands: int, seconds: float) -> dict[str, Any]:
    return {"interface": name, "steps": steps, "hands": hands, "seconds": round(seconds, 3),
            "steps_per_s": round(steps / seconds) if seconds else 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="basic", help="bots of the Gymnasium env (default basic)")
    parser.add_argument("--json", action="store_true", help="one JSON object per interface")
    args = parser.parse_args()
    runs = [
        lambda: bench_actions(args.steps, args.seed),
        lambda: bench_pettingzoo(args.steps, args.seed, wrapped=False),
        lambda: bench_pettingzoo(args.steps, args.seed, wrapped=True),
        lambda: bench_gymnasium(args.steps, args.seed, args.opponents),
        lambda: bench_openspiel(args.steps, args.seed),
    ]
    for run in runs:
        try:
            report = run()
        except ImportError as exc:
            report = {"interface": run.__name__, "skipped": f"{exc} (pip install 'canasta[rl]' / '[openspiel]')"}
        if args.json:
            print(json.dumps(report))
        elif "skipped" in report:
            print(f"skipped: {report['skipped']}")
        else:
            print(f"{report['interface']:<45} {report['steps_per_s']:>9,} steps/s "
                  f"({report['steps']:,} steps, {report['hands']:,} hands, {report['seconds']} s)")


if __name__ == "__main__":
    main()
