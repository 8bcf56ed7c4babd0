"""A learned judge of the expert's best few moves: the search's rollouts, distilled into a network.

The search (:class:`canasta.bots.search.SearchBot`) plays the expert's move unless
determinized rollouts show that another of the expert's best few moves gains more; each
searched decision costs a tenth of a second or more.  :class:`QNet` learns what those
rollouts say: from the seat's input (the observation and :func:`~.neural.history_features`,
as the ``neural`` policy sees it) and a candidate move's features (:func:`move_features`),
how many points the candidate gains over the expert's own choice.  It is fitted on the
search's per-candidate means (``python -m canasta.rl.train_q``), the differences paired
round by round as the search compares them.

:class:`QBot` then weighs the same candidates as the search, without a rollout: the
expert's choice unless the network says another gains more than ``margin`` points.

The network shipped in the package (``canasta/rl/neural-q-classic.npz``, with the margin it
plays) is the built-in bot ``neural`` (:func:`neural_bot`, found by :func:`canasta.bots.make_bot`
through the entry-point group ``canasta.bots``); ``q:FILE`` plays a network saved by
``train_q`` (:func:`q_bot`, local tools only).  Its weights fit games of four players in two
sides; in other games it plays the expert's moves and says so in its ``fallback`` attribute.
``docs/neural.md`` has the training command and the strength measured.

>>> import random
>>> from canasta.state import GameState
>>> state = GameState.deal("classic", rng=random.Random(2))
>>> bot = QBot(QNet(inputs=480, hidden=8, seed=0).weights(), random.Random(1))
>>> bot.choose(state.view(state.to_act), list(state.legal_moves())) in state.legal_moves()
True
"""

from __future__ import annotations

import functools
import math
import os
import random
from collections.abc import Sequence
from importlib.resources import as_file, files

import numpy as np
import numpy.typing as npt

from ..bots.search import Budget, SearchBot
from ..cards import KIND, NUM_KINDS, NUM_MELD_RANKS
from ..moves import ACTIONS, DISCARD, MELD, PILE, Move
from ..views import View
from .neural import StateInput
from .policy import Adam, Weights, read_weights

Array = npt.NDArray[np.float32]

SHIPPED = "neural-q-classic.npz"
"""The trained network in the package (``canasta/rl/``), with the margin it plays."""
KEYS = ("ws", "wm", "b1", "w2")
"""The arrays of a saved network."""

SCALE = 100.0
"""Points per unit of the network's output."""
LEFT_BINS = 4
"""Cards left in the hand after a meld or discard: none, one, two, three or more (one-hot)."""
MOVE_FEATURES = len(ACTIONS) + NUM_KINDS + NUM_MELD_RANKS + 1 + LEFT_BINS + 2
"""What :func:`move_features` gives: action, kinds it plays, ranks it meets, hand left, expert's view."""


def move_features(view: View, move: Move, gap: float, rank: int) -> Array:
    """A candidate move's features, with the expert's score ``gap`` below its choice and its ``rank`` in its list.

    The action (one-hot), the kinds of card it plays from the hand (counts), the meld ranks
    its groups go to (counts), the cards left in the hand after it (one-hot, for melds and
    discards), then ``sign(gap) * log(1 + |gap|)`` and the rank.
    """
    out = np.zeros(MOVE_FEATURES, np.float32)
    out[ACTIONS.index(move.action)] = 1.0
    base = len(ACTIONS)
    for card in move.cards:
        out[base + KIND[card]] += 1.0
    base += NUM_KINDS
    for group in move.groups:
        out[base + min(group.rank, NUM_MELD_RANKS)] += len(group.cards)
    base += NUM_MELD_RANKS + 1
    if move.action in (MELD, DISCARD):
        out[base + min(LEFT_BINS - 1, max(0, len(view.hand) - len(move.cards)))] = 1.0
    elif move.action == PILE:  # the pile comes in: the hand keeps cards
        out[base + LEFT_BINS - 1] = 1.0
    base += LEFT_BINS
    out[base] = math.copysign(math.log1p(abs(gap)), gap)
    out[base + 1] = float(rank)
    return out


class QNet:
    """Points a candidate gains over the expert's choice: one hidden layer over the seat's input and the move."""

    def __init__(self, inputs: int, hidden: int = 256, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        scale = 1 / np.sqrt(inputs + MOVE_FEATURES)
        self.params: Weights = {
            "ws": rng.normal(0, scale, (inputs, hidden)).astype(np.float32),
            "wm": rng.normal(0, scale, (MOVE_FEATURES, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": rng.normal(0, 0.01, hidden).astype(np.float32),
        }
        self.adam = Adam(self.params)

    @classmethod
    def from_weights(cls, weights: Weights) -> QNet:
        """A network with these weights (fresh optimiser state)."""
        inputs, hidden = weights["ws"].shape
        net = cls(int(inputs), int(hidden))
        for k in net.params:
            if net.params[k].shape != weights[k].shape:
                raise ValueError(f"weight {k} has shape {weights[k].shape}, not {net.params[k].shape}")
            net.params[k] = np.asarray(weights[k], np.float32).copy()
        return net

    def weights(self) -> Weights:
        """A copy of the weights."""
        return {k: v.copy() for k, v in self.params.items()}

    def save(self, path: str, margin: float = 0.0) -> None:
        """Write the weights to an ``.npz`` file, with the ``margin`` the bot should play them at."""
        p = self.params
        np.savez(path, ws=p["ws"], wm=p["wm"], b1=p["b1"], w2=p["w2"], margin=np.float32(margin))

    @classmethod
    def open(cls, path: str) -> QNet:
        """The network saved in an ``.npz`` file by :meth:`save`."""
        return cls.from_weights(read_weights(path, KEYS, "a saved value network"))

    def values(self, state: Array, moves: Array) -> Array:
        """The value of each candidate (rows of ``moves``) in one state (its input ``state``), in points."""
        p = self.params
        h = np.maximum(0.0, (state @ p["ws"] + p["b1"])[None] + moves @ p["wm"])
        return (h @ p["w2"]) * SCALE

    def loss(self, states: Array, moves: Array, decision: npt.NDArray[np.int64], base: npt.NDArray[np.int64],
             gains: Array) -> tuple[float, Weights]:
        """Mean squared error of ``f(row) - f(base row)`` against ``gains`` (units of :data:`SCALE`), and its gradient.

        ``decision`` gives each row's state (a row of ``states``), ``base`` each row's
        expert choice (a row of ``moves``); rows that are their own base are left out.
        """
        p = self.params
        pre = states[decision] @ p["ws"] + moves @ p["wm"] + p["b1"]
        h = np.maximum(0.0, pre)
        f = h @ p["w2"]
        scored = base != np.arange(len(base))
        n = max(1, int(scored.sum()))
        error = np.where(scored, f - f[base] - gains / SCALE, 0.0).astype(np.float32)
        df = 2.0 * error / n
        np.subtract.at(df, base, df.copy())  # the base row's output enters each of its pairs with a minus
        gh = (df[:, None] * p["w2"][None]) * (pre > 0)
        per_state = np.zeros((len(states), gh.shape[1]), np.float32)
        np.add.at(per_state, decision, gh)  # a state's input is shared by its candidates
        grads = {"ws": states.T @ per_state, "wm": moves.T @ gh, "b1": gh.sum(0), "w2": h.T @ df}
        return float((error ** 2).sum() / n), grads

    def fit(self, states: Array, moves: Array, decision: npt.NDArray[np.int64], base: npt.NDArray[np.int64],
            gains: Array, lr: float) -> float:
        """One Adam step down :meth:`loss`; the mean squared error before it, in points²."""
        loss, grads = self.loss(states, moves, decision, base, gains)
        self.adam.step(self.params, grads, lr)
        return loss * SCALE * SCALE


def candidates(searcher: SearchBot, view: View, moves: Sequence[Move]) -> tuple[list[Move], list[float]]:
    """The search's candidate moves (the expert's choice first) and the expert's score of each."""
    kept = searcher.candidates_of(view, moves)
    scores = [s for s, _ in searcher.expert.score(view, kept)]
    return kept, scores


class QBot:
    """The expert's choice, or the candidate the network says gains more than ``margin`` points."""

    slow = False

    def __init__(self, weights: Weights, rng: random.Random | None = None, margin: float = 0.0,
                 candidates: int = 8, name: str = "neural-q") -> None:
        self.name = name
        self.net = QNet.from_weights(weights)
        self.rng = rng if rng is not None else random.Random()
        self.margin = margin
        self.searcher = SearchBot(self.rng, Budget(seconds=None, rollouts=1), candidates=candidates)
        self.inputs = StateInput()
        self.fallback = False
        """True once it played a game whose input the weights do not fit (it then plays as the expert)."""

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """The expert's choice unless the network prefers another candidate by more than ``margin`` points."""
        if len(moves) == 1:
            return moves[0]
        kept, scores = candidates(self.searcher, view, moves)
        if len(kept) == 1:
            return kept[0]
        if self.inputs.size(view.rules) != self.net.params["ws"].shape[0]:
            self.fallback = True
            return kept[0]
        features = np.stack([move_features(view, m, scores[0] - s, i) for i, (m, s) in enumerate(zip(kept, scores))])
        values = self.net.values(self.inputs.of(view), features)
        gains = values - values[0]
        best = int(np.argmax(gains))
        return kept[best] if gains[best] > self.margin else kept[0]


def read_player(path: str) -> tuple[Weights, float]:
    """The weights and margin of a network saved by :meth:`QNet.save`; a one-line :class:`ValueError` if not one."""
    saved = read_weights(path, (*KEYS, "margin"), "a saved value network")
    try:
        margin = float(saved.pop("margin"))
        QNet.from_weights(saved)  # the shapes fit together
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{path} is not a saved value network ({exc})") from None
    return saved, margin


@functools.lru_cache(maxsize=1)
def shipped_player() -> tuple[Weights, float]:
    """The network shipped in the package and its margin (read once per process)."""
    with as_file(files("canasta.rl").joinpath(SHIPPED)) as path:
        return read_player(str(path))


def neural_bot(rng: random.Random) -> QBot:
    """``neural`` of :func:`canasta.bots.make_bot` (entry-point group ``canasta.bots``): the shipped network."""
    weights, margin = shipped_player()
    return QBot(weights, rng, margin, name="neural")


def q_bot(path: str, rng: random.Random, name: str) -> QBot:
    """``q:FILE`` of :func:`canasta.bots.make_bot` (group ``canasta.file_bots``): a network saved by ``train_q``."""
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        raise ValueError(f"no saved value network at {path!r}") from None
    weights, margin = _saved_player(path, stamp)
    return QBot(weights, rng, margin, name=name)


@functools.lru_cache(maxsize=16)
def _saved_player(path: str, stamp: int) -> tuple[Weights, float]:
    return read_player(path)


__all__ = ["KEYS", "MOVE_FEATURES", "SHIPPED", "QBot", "QNet", "candidates", "move_features",
           "neural_bot", "q_bot", "read_player", "shipped_player"]
