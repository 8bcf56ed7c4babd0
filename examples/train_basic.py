"""Train a small policy against the ``basic`` bot with plain numpy policy gradient, and plot its win rate.

The agent plays seat 0 of the classic game through :class:`canasta.rl.gymnasium.CanastaEnv`;
its partner and both opponents are ``basic`` bots.  The policy
(:class:`canasta.rl.policy.MaskedMLP`) is a one-hidden-layer network over the observation
tensor, with a softmax over the allowed actions only (the mask), trained by REINFORCE with
a running baseline and Adam.  The reward is the hand's
margin (the agent's side total less the other side's, in thousands); a hand is *won*
when that margin is positive.  The plot (win rate and mean margin per batch of hands,
smoothed) is saved as a PNG.

    pip install 'canasta[rl,examples]'   # examples: matplotlib for the plot
    python examples/train_basic.py --minutes 5 --out train_basic.png
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from canasta.rl.gymnasium import CanastaEnv
from canasta.rl.policy import MaskedMLP


def train(minutes: float, batch: int, seed: int, lr: float, opponents: str) -> list[tuple[int, float, float]]:
    env = CanastaEnv(opponents=opponents)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    policy = MaskedMLP(obs["observation"].shape[0], obs["action_mask"].shape[0], hidden=64, seed=seed)
    baseline = 0.0
    history: list[tuple[int, float, float]] = []
    hands = 0
    deadline = time.monotonic() + 60 * minutes
    while time.monotonic() < deadline:
        xs, masks, acts, rets = [], [], [], []
        wins, margins = 0, 0.0
        for _ in range(batch):
            ep_x, ep_m, ep_a = [], [], []
            while True:
                x = policy.features(obs["observation"])
                mask = obs["action_mask"]
                p, _ = policy.probs(x[None], mask[None])
                action = int(rng.choice(len(mask), p=p[0]))
                ep_x.append(x)
                ep_m.append(mask)
                ep_a.append(action)
                obs, reward, terminated, truncated, _ = env.step(action)
                if terminated or truncated:
                    break
            r = float(reward)
            wins += r > 0
            margins += r
            xs.extend(ep_x)
            masks.extend(ep_m)
            acts.extend(ep_a)
            rets.extend([r] * len(ep_a))
            obs, _ = env.reset()
            hands += 1
        returns = np.array(rets, np.float32)
        baseline = 0.9 * baseline + 0.1 * float(returns.mean()) if history else float(returns.mean())
        advantages = returns - baseline
        advantages /= advantages.std() + 1e-6
        policy.update(np.array(xs), np.array(masks), np.array(acts), advantages, lr)
        history.append((hands, wins / batch, margins / batch))
        print(f"hands {hands:6d}  win rate {wins / batch:5.2f}  mean margin {margins / batch:+6.3f}", flush=True)
    return history


def plot(history: list[tuple[int, float, float]], out: str, opponents: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hands = np.array([h for h, _, _ in history])
    wins = np.array([w for _, w, _ in history])
    margins = np.array([m for _, _, m in history])
    k = max(1, len(history) // 25)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(hands, wins, color="tab:blue", alpha=0.25)
    ax.plot(hands, _running_mean(wins, k), color="tab:blue", label=f"win rate (mean of {k} batches)")
    ax.set_xlabel("hands played")
    ax.set_ylabel("win rate (margin > 0)")
    ax.set_ylim(0, 1)
    ax2 = ax.twinx()
    ax2.plot(hands, _running_mean(margins, k), color="tab:orange", label="mean margin")
    ax2.set_ylabel("mean margin (thousands of points)")
    ax.set_title(f"numpy policy gradient: seat 0 with a {opponents} partner vs two {opponents} bots", fontsize=10)
    fig.legend(loc="lower right", bbox_to_anchor=(0.88, 0.15))
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"saved {out}")


def _running_mean(values: np.ndarray, k: int) -> np.ndarray:
    """The mean of the last ``k`` values at each point (fewer at the start)."""
    sums = np.cumsum(np.concatenate([[0.0], values]))
    idx = np.arange(1, len(values) + 1)
    lo = np.maximum(0, idx - k)
    return (sums[idx] - sums[lo]) / (idx - lo)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--batch", type=int, default=64, help="hands per update")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponents", default="basic")
    parser.add_argument("--out", default="train_basic.png")
    args = parser.parse_args()
    history = train(args.minutes, args.batch, args.seed, args.lr, args.opponents)
    plot(history, args.out, args.opponents)


if __name__ == "__main__":
    main()
