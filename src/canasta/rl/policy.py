"""A small numpy policy for the examples and self-play: a masked softmax over the 59 actions.

One hidden layer (ReLU) over the observation tensor, squashed by ``sign(x) * log(1 + |x|)``
to tame the raw card counts; the softmax is taken over the allowed actions only, so a
masked action has probability zero.  :meth:`MaskedMLP.update` is one REINFORCE step with
Adam (ascent on ``E[advantage * log pi(action)]``).  Its weights are a plain dict of
arrays, so they travel to Ray workers and back as they are.

>>> import numpy as np
>>> policy = MaskedMLP(inputs=4, hidden=8, seed=0)
>>> mask = np.zeros(59, np.int8); mask[[0, 1]] = 1
>>> policy.act(np.ones(4, np.float32), mask, np.random.default_rng(0)) in (0, 1)
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .actions import NUM_ACTIONS

Weights = dict[str, npt.NDArray[np.float32]]
FloatArray = npt.NDArray[np.float32]


class Adam:
    """Adam's moment estimates for a dict of weights, and its step (descent on the gradients given)."""

    def __init__(self, params: Weights) -> None:
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: Weights, grads: Weights, lr: float) -> None:
        """Move ``params`` (in place) one step down ``grads``."""
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9 ** self.t)
            v_hat = self.v[k] / (1 - 0.999 ** self.t)
            params[k] = (params[k] - lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


def read_weights(path: str, keys: tuple[str, ...], what: str) -> Weights:
    """The arrays ``keys`` of an ``.npz`` file; a one-line :class:`ValueError` naming ``what`` it should be."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in keys}
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(f"{path} is not {what} ({exc})") from None


class MaskedMLP:
    """A one-hidden-layer softmax policy restricted to the allowed actions."""

    def __init__(self, inputs: int, actions: int = NUM_ACTIONS, hidden: int = 64, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.params: Weights = {
            "w1": rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": rng.normal(0, 0.01, (hidden, actions)).astype(np.float32),
            "b2": np.zeros(actions, np.float32),
        }
        self.adam = Adam(self.params)

    @classmethod
    def from_weights(cls, weights: Weights) -> MaskedMLP:
        """A policy with these weights (fresh optimiser state)."""
        inputs, hidden = weights["w1"].shape
        policy = cls(int(inputs), int(weights["w2"].shape[1]), int(hidden))
        policy.load(weights)
        return policy

    def save(self, path: str) -> None:
        """Write the weights to an ``.npz`` file."""
        np.savez(path, w1=self.params["w1"], b1=self.params["b1"], w2=self.params["w2"], b2=self.params["b2"])

    @classmethod
    def open(cls, path: str) -> MaskedMLP:
        """A policy with the weights of an ``.npz`` file written by :meth:`save`."""
        return cls.from_weights(read_weights(path, ("w1", "b1", "w2", "b2"), "a saved policy"))

    def weights(self) -> Weights:
        """A copy of the weights."""
        return {k: v.copy() for k, v in self.params.items()}

    def load(self, weights: Weights) -> None:
        """Take these weights (same shapes)."""
        for k, v in weights.items():
            if self.params[k].shape != v.shape:
                raise ValueError(f"weight {k} has shape {v.shape}, not {self.params[k].shape}")
            self.params[k] = np.asarray(v, np.float32).copy()

    @staticmethod
    def features(obs: FloatArray) -> FloatArray:
        """The network's input: ``sign(x) * log(1 + |x|)`` of the observation."""
        return (np.log1p(np.abs(obs)) * np.sign(obs)).astype(np.float32)

    def probs(self, x: FloatArray, mask: npt.NDArray[np.int8]) -> tuple[FloatArray, FloatArray]:
        """Action probabilities (zero where masked) and the hidden layer, for a batch of features."""
        h = np.maximum(0.0, x @ self.params["w1"] + self.params["b1"])
        logits = h @ self.params["w2"] + self.params["b2"]
        logits = np.where(mask > 0, logits, -1e9)
        logits -= logits.max(axis=-1, keepdims=True)
        p = np.exp(logits) * (mask > 0)
        return p / p.sum(axis=-1, keepdims=True), h

    def act(self, obs: FloatArray, mask: npt.NDArray[np.int8], rng: np.random.Generator) -> int:
        """Sample an allowed action for one observation."""
        p, _ = self.probs(self.features(obs)[None], mask[None])
        return int(rng.choice(len(mask), p=p[0]))

    def update(self, xs: FloatArray, masks: npt.NDArray[np.int8], actions: npt.NDArray[np.int64],
               advantages: FloatArray, lr: float) -> None:
        """One REINFORCE step with Adam on a batch of features, masks, actions taken and advantages."""
        p, h = self.probs(xs, masks)
        grad_logits = -p
        grad_logits[np.arange(len(actions)), actions] += 1.0
        grad_logits *= advantages[:, None] / len(actions)
        dh = (grad_logits @ self.params["w2"].T) * (h > 0)
        ascent = {"w2": h.T @ grad_logits, "b2": grad_logits.sum(0), "w1": xs.T @ dh, "b1": dh.sum(0)}
        self.adam.step(self.params, {k: -g for k, g in ascent.items()}, lr)


__all__ = ["Adam", "MaskedMLP", "Weights", "read_weights"]
