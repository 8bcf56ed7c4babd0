"""Self-play hands per second: one process, then Ray with 1 and more workers.

Every seat plays by one untrained :class:`canasta.rl.policy.MaskedMLP` (tables batched
per step inside each task).  Ray is started once, before the timings; each figure is the
best of ``--repeat`` collections of ``--hands`` hands.

    python benchmarks/selfplay.py --hands 512 --workers 1 2 [--repeat 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from typing import Any


def timed(backend: str, workers: int, hands: int, repeat: int) -> dict[str, Any]:
    from canasta.rl.observation import Encoder
    from canasta.rl.policy import MaskedMLP
    from canasta.rl.selfplay import collect

    weights = MaskedMLP(Encoder("classic").size, seed=0).weights()
    best, steps = float("inf"), 0
    for attempt in range(repeat):
        start = time.perf_counter()
        rollout = collect(weights, hands, seed=attempt, workers=workers, backend=backend)
        best = min(best, time.perf_counter() - start)
        steps = rollout.steps
    return {"backend": backend, "workers": workers, "hands": hands, "seconds": round(best, 3),
            "hands_per_s": round(hands / best, 1), "steps_per_s": round(steps / best)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=512)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        import canasta.rl.selfplay  # noqa: F401
    except ImportError as exc:
        print(f"skipped: {exc} (pip install 'canasta[rl]')")
        return
    runs = [("local", 1)] + [("ray", w) for w in args.workers]
    try:
        import ray

        ray.init(num_cpus=max(args.workers), include_dashboard=False, logging_level=logging.WARNING,
                 log_to_driver=False)
    except ImportError:
        runs = runs[:1]
        print("skipped ray: pip install 'canasta[ray]'")
    for backend, workers in runs:
        report = timed(backend, workers, args.hands, args.repeat)
        if args.json:
            print(json.dumps(report))
        else:
            print(f"{backend:>5} x{workers}: {report['hands_per_s']:7.1f} hands/s, {report['steps_per_s']:7,} "
                  f"steps/s ({args.hands} hands in {report['seconds']} s)")


if __name__ == "__main__":
    main()
