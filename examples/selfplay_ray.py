"""Train a policy by self-play, its hands collected in parallel on Ray, and watch it against ``basic``.

Every seat plays by the same :class:`canasta.rl.policy.MaskedMLP`; each iteration
:func:`canasta.rl.selfplay.collect` plays ``--hands`` hands in ``--workers`` Ray tasks
(tables batched inside each task), then one REINFORCE step (each decision's advantage is
its side's hand margin less the batch mean, normalised) updates the weights that the
next iteration ships to the workers.  Every few iterations the policy plays seat 0 with a
``basic`` partner against two ``basic`` bots (:func:`canasta.rl.selfplay.evaluate`).

    pip install 'canasta[rl,ray,examples]'
    python examples/selfplay_ray.py --minutes 5 --workers 2 --out selfplay.png --save selfplay.npz

``--backend local`` plays the hands in this process instead (no Ray needed); ``--address``
joins a running Ray cluster.  The saved weights play as a computer player:
``PolicyBot(MaskedMLP.open("selfplay.npz").weights())`` (:mod:`canasta.rl.policybot`).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from canasta.rl.observation import Encoder
from canasta.rl.policy import MaskedMLP
from canasta.rl.selfplay import collect, evaluate


def train(minutes: float, hands: int, workers: int, backend: str, lr: float, seed: int, eval_every: int,
          eval_hands: int, address: str | None = None,
          policy: MaskedMLP | None = None) -> list[tuple[int, float, float, float]]:
    """Self-play for ``minutes``; (hands played, hands/s, win rate vs basic, mean margin) at each evaluation."""
    if policy is None:
        policy = MaskedMLP(Encoder("classic").size, seed=seed)
    history: list[tuple[int, float, float, float]] = []
    played, playing_seconds = 0, 0.0
    deadline = time.monotonic() + 60 * minutes
    iteration = 0
    while True:
        if iteration % eval_every == 0:
            win_rate, margin = evaluate(policy.weights(), eval_hands, seed=seed + iteration)
            speed = played / playing_seconds if playing_seconds else 0.0
            history.append((played, speed, win_rate, margin))
            print(f"hands {played:7d}  self-play {speed:6.1f} hands/s  vs basic: win rate {win_rate:4.2f}  "
                  f"margin {margin:+6.3f}", flush=True)
        if time.monotonic() >= deadline:
            return history
        start = time.perf_counter()
        batch = collect(policy.weights(), hands, seed=seed * 100_000 + iteration, workers=workers,
                        backend=backend, address=address)
        playing_seconds += time.perf_counter() - start
        played += batch.hands
        advantages = batch.returns - batch.returns.mean()
        advantages /= advantages.std() + 1e-6
        policy.update(policy.features(batch.observations), batch.masks, batch.actions, advantages, lr)
        iteration += 1


def plot(history: list[tuple[int, float, float, float]], out: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hands = np.array([h[0] for h in history])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(hands, [h[2] for h in history], color="tab:blue", marker="o", label="win rate vs basic")
    ax.set_xlabel("self-play hands")
    ax.set_ylabel("win rate (seat 0 + basic partner vs two basic)")
    ax.set_ylim(0, 1)
    ax2 = ax.twinx()
    ax2.plot(hands, [h[3] for h in history], color="tab:orange", label="mean margin")
    ax2.set_ylabel("mean margin (thousands of points)")
    fig.legend(loc="lower right", bbox_to_anchor=(0.88, 0.15))
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"saved {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--hands", type=int, default=256, help="self-play hands per update")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--backend", choices=("ray", "local"), default="ray")
    parser.add_argument("--address", default=None, help="a running Ray cluster (default: start one here)")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-every", type=int, default=5, help="iterations between evaluations")
    parser.add_argument("--eval-hands", type=int, default=100)
    parser.add_argument("--out", default=None, help="save a PNG of the evaluations (needs matplotlib)")
    parser.add_argument("--save", default=None, help="save the trained weights (.npz) for PolicyBot")
    args = parser.parse_args()
    policy = MaskedMLP(Encoder("classic").size, seed=args.seed)
    history = train(args.minutes, args.hands, args.workers, args.backend, args.lr, args.seed, args.eval_every,
                    args.eval_hands, args.address, policy)
    if args.out:
        plot(history, args.out)
    if args.save:
        policy.save(args.save)
        print(f"saved the weights in {args.save}")


if __name__ == "__main__":
    main()
