"""Self-play rollouts: every seat plays by one policy, hands collected in parallel on Ray.

:func:`play_hands` plays whole hands through :func:`canasta.rl.pettingzoo.raw_env`, each
agent acting by the same :class:`~canasta.rl.policy.MaskedMLP` weights from its own
observation and mask, and returns every decision as arrays (a :class:`Rollout`): the
observation, the mask, the action, the seat, the hand it belongs to, and that seat's
reward for the hand (its side's total less the best other side's, in thousands).
:func:`collect` splits a number of hands into chunks with their own seeds and plays them
in this process (``backend="local"``) or as Ray tasks (``backend="ray"``: a local Ray, or
the cluster at ``address``); the chunks are joined in order, so both backends give the
same arrays for the same seed.

>>> from canasta.rl.policy import MaskedMLP
>>> weights = MaskedMLP(inputs=211, seed=0).weights()
>>> rollout = play_hands(weights, hands=1, seed=1)
>>> rollout.hands, len(rollout.actions) == len(rollout.returns) == rollout.steps
(1, True)
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .actions import NUM_ACTIONS
from .core import match_scores
from .pettingzoo import raw_env
from .policy import MaskedMLP, Weights

BACKENDS = ("local", "ray")


@dataclass(frozen=True)
class Rollout:
    """The decisions of some hands of self-play, one row each, in the order they were taken."""

    observations: npt.NDArray[np.float32]  # (steps, observation size)
    masks: npt.NDArray[np.int8]  # (steps, 59)
    actions: npt.NDArray[np.int64]
    seats: npt.NDArray[np.int8]
    hand_ids: npt.NDArray[np.int32]  # 0 .. hands - 1 within this rollout
    returns: npt.NDArray[np.float32]  # the acting seat's reward for the whole hand
    hands: int

    @property
    def steps(self) -> int:
        """Decisions in the rollout."""
        return len(self.actions)

    @staticmethod
    def join(parts: Sequence[Rollout]) -> Rollout:
        """The rollouts one after another (hand ids renumbered)."""
        offsets = np.cumsum([0] + [p.hands for p in parts[:-1]])
        return Rollout(
            observations=np.concatenate([p.observations for p in parts]),
            masks=np.concatenate([p.masks for p in parts]),
            actions=np.concatenate([p.actions for p in parts]),
            seats=np.concatenate([p.seats for p in parts]),
            hand_ids=np.concatenate([p.hand_ids + o for p, o in zip(parts, offsets)]).astype(np.int32),
            returns=np.concatenate([p.returns for p in parts]),
            hands=sum(p.hands for p in parts),
        )


def play_hands(weights: Weights, hands: int, seed: int, preset: str = "classic",
               options: dict[str, Any] | None = None, scores: Sequence[int] | None = None,
               tables: int = 16) -> Rollout:
    """Play ``hands`` hands of self-play by ``weights``, ``tables`` at a time.

    The tables move in step so that the policy sees one batch of observations per step
    (a numpy forward pass per decision would cost more than the game).  Each hand gets
    its own seed and dealer from ``seed``; rows come out hand by hand.
    """
    policy = MaskedMLP.from_weights(weights)
    rng = np.random.default_rng(seed)
    envs = [raw_env(preset=preset, options=options, scores=scores) for _ in range(max(1, min(tables, hands)))]
    players = envs[0].rules.players
    deals = [(int(rng.integers(2**31)), int(rng.integers(players))) for _ in range(hands)]
    rows: list[list[tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], int, int]]] = [[] for _ in range(hands)]
    rewards: list[dict[int, float]] = [{} for _ in range(hands)]
    playing: dict[int, int] = {}  # env index -> hand
    next_hand = 0
    for index, env in enumerate(envs):
        env.reset(seed=deals[next_hand][0], options={"dealer": deals[next_hand][1]})
        playing[index] = next_hand
        next_hand += 1
    while playing:
        order = list(playing)
        observed = [envs[i].observe(envs[i].agent_selection) for i in order]
        xs = policy.features(np.array([o["observation"] for o in observed], np.float32))
        masks = np.array([o["action_mask"] for o in observed], np.int8)
        probabilities, _ = policy.probs(xs, masks)
        # One draw per table: the first action whose cumulative probability passes it.
        picked = (probabilities.cumsum(axis=1) <= rng.random((len(order), 1))).sum(axis=1)
        last_allowed = NUM_ACTIONS - 1 - np.argmax(masks[:, ::-1], axis=1)
        chosen = np.minimum(picked, last_allowed).tolist()  # rounding at the very end of the sums
        for k, i in enumerate(order):
            env, hand, action = envs[i], playing[i], chosen[k]
            rows[hand].append((observed[k]["observation"], masks[k], action, env.table.to_act))
            env.step(action)
            if env.terminations[env.agent_selection]:
                rewards[hand] = {s: env.rewards[f"player_{s}"] for s in range(players)}
                if next_hand < hands:
                    env.reset(seed=deals[next_hand][0], options={"dealer": deals[next_hand][1]})
                    playing[i] = next_hand
                    next_hand += 1
                else:
                    del playing[i]
    flat = [(row, hand) for hand in range(hands) for row in rows[hand]]
    size = envs[0].table.encoder.size
    return Rollout(
        observations=np.array([r[0] for r, _ in flat], np.float32).reshape(-1, size),
        masks=np.array([r[1] for r, _ in flat], np.int8).reshape(-1, NUM_ACTIONS),
        actions=np.array([r[2] for r, _ in flat], np.int64),
        seats=np.array([r[3] for r, _ in flat], np.int8),
        hand_ids=np.array([hand for _, hand in flat], np.int32),
        returns=np.array([rewards[hand][r[3]] for r, hand in flat], np.float32),
        hands=hands,
    )


def evaluate(weights: Weights, hands: int, seed: int, opponents: str = "basic",
             preset: str = "classic") -> tuple[float, float]:
    """The policy in seat 0 with an ``opponents`` partner against ``opponents``: (win rate, mean margin).

    A hand is won when the policy's side outscores the other side(s); the margin is in
    thousands of points.
    """
    from .gymnasium import CanastaEnv

    policy = MaskedMLP.from_weights(weights)
    rng = np.random.default_rng(seed)
    env = CanastaEnv(preset=preset, opponents=opponents)
    obs, _ = env.reset(seed=seed)
    wins, margin = 0, 0.0
    for _ in range(hands):
        while True:
            obs, reward, terminated, truncated, _ = env.step(policy.act(obs["observation"], obs["action_mask"], rng))
            if terminated or truncated:
                break
        wins += float(reward) > 0
        margin += float(reward)
        obs, _ = env.reset()
    return wins / hands, margin / hands


def chunk_sizes(hands: int, chunks: int) -> list[int]:
    """``hands`` split as evenly as can be into ``chunks`` (none empty)."""
    chunks = max(1, min(chunks, hands))
    return [hands // chunks + (1 if i < hands % chunks else 0) for i in range(chunks)]


def collect(weights: Weights, hands: int, seed: int, workers: int = 1, backend: str = "local",
            preset: str = "classic", options: dict[str, Any] | None = None,
            scores: Sequence[int] | None = None, address: str | None = None) -> Rollout:
    """``hands`` hands of self-play in ``workers`` chunks, here or on Ray; the same arrays either way.

    With ``backend="ray"`` a Ray instance is started if none runs (``num_cpus=workers``, or
    the cluster at ``address``) and left running for the next call: ``ray.shutdown()`` ends it.
    """
    if hands < 1 or workers < 1:
        raise ValueError(f"hands and workers are at least 1, not {hands} and {workers}")
    if backend not in BACKENDS:
        raise ValueError(f"backend is one of {', '.join(BACKENDS)}, not {backend!r}")
    match_scores(raw_env(preset=preset, options=options).rules, scores)  # bad settings fail here, not in a worker
    jobs = [(weights, n, seed * 1_000_003 + i, preset, options, scores)
            for i, n in enumerate(chunk_sizes(hands, workers))]
    if backend == "local":
        return Rollout.join([play_hands(*job) for job in jobs])
    ray = start_ray(workers, address)
    task = ray.remote(play_hands)
    shared = ray.put(weights)
    refs = [task.remote(shared, *job[1:]) for job in jobs]
    return Rollout.join(ray.get(refs))


def start_ray(workers: int, address: str | None) -> Any:
    """The ``ray`` module with a Ray running: this one if started, else a local one of ``workers`` CPUs (or the
    cluster at ``address``), left running for the next call; a one-line ``ValueError`` without Ray."""
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs: pip install 'canasta[ray]'") from None
    if not ray.is_initialized():
        if address is not None:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    return ray


__all__ = ["BACKENDS", "Rollout", "chunk_sizes", "collect", "evaluate", "play_hands", "start_ray"]
