"""Choose the value network's size, epochs and margin: train each, duel each against the expert.

Every network is trained by ``canasta.rl.train_q.train`` on the same files (in seed order,
the last 5% of decisions held out, as ``python -m canasta.rl.train_q`` does) and played
against ``expert`` on the same duplicate deals at every margin asked.  ``SIZE:EPOCHS:COUNT``
averages COUNT networks (seeds 1..COUNT), packed into one wider layer.  Choose on one seed,
then measure the choice on another (docs/neural.md).

    OPENBLAS_NUM_THREADS=1 PYTHONPATH=build/compiled/lib python benchmarks/train_q_grid.py \\
        --data 'q/q-*.npz' --nets 256:6 256:10 512:10 --margins 0 10 20 30 40 --deals 2000 --seed 101
"""

from __future__ import annotations

import argparse
import glob
import re
import time

import numpy as np

from canasta.rl.qvalue import QNet
from canasta.rl.train_q import load_values, train, versus_expert


def averaged(nets: list[QNet]) -> QNet:
    """One network whose output is the mean of ``nets``' (their hidden units side by side)."""
    weights = [net.weights() for net in nets]
    return QNet.from_weights({
        "ws": np.concatenate([w["ws"] for w in weights], 1),
        "wm": np.concatenate([w["wm"] for w in weights], 1),
        "b1": np.concatenate([w["b1"] for w in weights]),
        "w2": np.concatenate([w["w2"] for w in weights]) / len(weights),
    })


def seed_of(path: str) -> int:
    """The number in a file's name (``q-17.npz``: 17), for seed order."""
    found = re.findall(r"\d+", path)
    return int(found[-1]) if found else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="a glob of collected files, quoted")
    parser.add_argument("--nets", nargs="+", required=True, metavar="SIZE:EPOCHS[:COUNT]")
    parser.add_argument("--margins", nargs="+", type=float, required=True)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, required=True, help="the duels' deals")
    parser.add_argument("--save", metavar="FOLDER", help="write each network here")
    args = parser.parse_args()
    files = sorted(glob.glob(args.data), key=seed_of)
    if not files:
        parser.error(f"no files match {args.data!r}")
    data = load_values(files)
    count = len(data.states)
    held = max(1, int(count * 0.05))
    train_part = data.subset(np.arange(count - held, dtype=np.int64))
    held_part = data.subset(np.arange(count - held, count, dtype=np.int64))
    print(f"{len(files)} files, {count} decisions ({held} held out), {len(data.moves)} candidates", flush=True)
    for spec in args.nets:
        size, epochs, members = ([int(x) for x in spec.split(":")] + [1])[:3]
        start = time.perf_counter()
        nets = []
        for seed in range(1, members + 1):
            net, curve = train(train_part, held_part, epochs, size, seed, 1e-3, log=False)
            nets.append(net)
            print(f"{size} units, {epochs} epochs, seed {seed}: held-out error {curve[-1][1]:.0f} "
                  f"(untrained {curve[0][1]:.0f}) [{time.perf_counter() - start:.0f} s]", flush=True)
        net = averaged(nets) if members > 1 else nets[0]
        if args.save:
            net.save(f"{args.save}/q-{size}-{epochs}-{members}.npz")
        for margin in args.margins:
            mean, low, high = versus_expert(net, args.deals, args.seed, margin)
            print(f"  {spec} margin {margin:g}: {mean:+.1f} ({low:+.1f} to {high:+.1f}) points a hand vs expert, "
                  f"{args.deals} deals, seed {args.seed}", flush=True)


if __name__ == "__main__":
    main()
