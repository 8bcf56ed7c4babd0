"""The ``neural-policy`` computer player: a trained :class:`~canasta.rl.policy.MaskedMLP`, no search.

(``neural`` itself is the stronger :mod:`canasta.rl.qvalue` network; this policy, which
imitates the expert, plays below the expert's level: ``docs/neural.md``.)

Its input is the seat's observation (:class:`canasta.rl.observation.Encoder`, with the plan
it is staging) and what the public history says (:func:`history_features`: the kinds each
other seat discarded and passed over, and the unseen cards per kind), all from the seat's
:class:`~canasta.views.View`.  Like :class:`canasta.rl.policybot.PolicyBot` it stages a move
action by action on a state whose hidden cards are dealt at random (which leaves its own
hand, the table and so its legal moves as they are), taking the likeliest allowed action
each time, and returns the move those actions commit.

The weights shipped in the package (``canasta/rl/neural-classic.npz``) were trained by
``python -m canasta.rl.train_neural`` (see ``docs/neural.md``: the command, the learning
curve and the strength measured).  They fit the games whose observation has the classic
layout (four players in two sides); in other games the bot plays the expert's moves, and
says so in its ``fallback`` attribute.  ``make_bot("neural-policy")`` finds it through the
``canasta.bots`` entry-point group, so the bots package imports no numpy.

>>> import random
>>> from canasta.state import GameState
>>> state = GameState.deal("classic", rng=random.Random(2))
>>> bot = neural_bot(random.Random(1))
>>> bot.choose(state.view(state.to_act), list(state.legal_moves())) in state.legal_moves()
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from importlib.resources import files

import numpy as np
import numpy.typing as npt

from ..bots.expert import ExpertBot
from ..bots.tracking import Knowledge
from ..cards import CANASTA_SIZE, NUM_KINDS, NUM_MELD_RANKS
from ..moves import Move
from ..resample import resample
from ..rules import Rules
from ..views import View
from .actions import TurnActions, move_of
from .observation import Encoder
from .policy import MaskedMLP, Weights

SHIPPED = "neural-classic.npz"
"""The trained weights in the package (``canasta/rl/``)."""

Array = npt.NDArray[np.float32]


HAND_BINS = 4
"""Cards of a kind in the hand: none, one, two, three or more (one-hot per kind)."""
MELD_BINS = 4
"""A side's meld of a rank: none, three or four cards, five or six, a canasta (one-hot per rank)."""


def history_size(rules: Rules) -> int:
    """How many numbers :func:`history_features` gives for these rules."""
    return (2 * (rules.players - 1) * NUM_KINDS + NUM_KINDS + HAND_BINS * NUM_KINDS
            + rules.sides * MELD_BINS * NUM_MELD_RANKS)


def history_features(view: View) -> Array:
    """What the view says beyond the observation, from :class:`~canasta.bots.tracking.Knowledge`.

    Per other seat (in seat order after this one) the kinds it discarded and passed over;
    the unseen cards per kind; the hand's count per kind, one-hot (:data:`HAND_BINS`); each
    side's meld size per rank, one-hot (:data:`MELD_BINS`), this seat's side first.
    """
    k = Knowledge(view)
    players = view.rules.players
    out = np.zeros(history_size(view.rules), np.float32)
    for step in range(1, players):
        seat = (view.seat + step) % players
        base = 2 * (step - 1) * NUM_KINDS
        for kind in k.discarded[seat]:
            out[base + kind] = 1.0
        for kind in k.passed[seat]:
            out[base + NUM_KINDS + kind] = 1.0
    base = 2 * (players - 1) * NUM_KINDS
    out[base:base + NUM_KINDS] = k.unseen
    base += NUM_KINDS
    for kind, n in enumerate(k.hand):
        out[base + HAND_BINS * kind + min(n, HAND_BINS - 1)] = 1.0
    base += HAND_BINS * NUM_KINDS
    sides = view.rules.sides
    for step in range(sides):  # this seat's side first
        side = (view.side + step) % sides
        for rank in range(NUM_MELD_RANKS):
            size = k.meld_naturals[side][rank] + k.meld_wilds[side][rank]
            level = 0 if size == 0 else 1 if size < 5 else 2 if size < CANASTA_SIZE else 3
            out[base + MELD_BINS * (step * NUM_MELD_RANKS + rank) + level] = 1.0
    return out


class StateInput:
    """The seat's input, unstaged (observation and history, log-squashed), with the encoder of each game's rules."""

    def __init__(self) -> None:
        self._encoders: dict[Rules, Encoder] = {}

    def size(self, rules: Rules) -> int:
        """How many numbers :meth:`of` gives in a game of these rules."""
        return self.encoder(rules).size + history_size(rules)

    def encoder(self, rules: Rules) -> Encoder:
        """The observation encoder of ``rules`` (made once)."""
        if rules not in self._encoders:
            self._encoders[rules] = Encoder(rules)
        return self._encoders[rules]

    def of(self, view: View) -> Array:
        """The input of ``view``."""
        return MaskedMLP.features(np.concatenate([self.encoder(view.rules).encode(view), history_features(view)]))


class NeuralBot:
    """Plays the likeliest action of a trained policy; the expert's move where the weights do not fit the game."""

    slow = False

    def __init__(self, weights: Weights, rng: random.Random | None = None, name: str = "neural") -> None:
        self.name = name
        self.policy = MaskedMLP.from_weights(weights)
        self.inputs = int(weights["w1"].shape[0])
        self.rng = rng if rng is not None else random.Random()
        self.expert = ExpertBot(self.rng)
        self.state_input = StateInput()
        self.fallback = False
        """True once it played a game whose observation the weights do not fit (it then plays as the expert)."""

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """The move the policy's likeliest actions commit (always one of ``moves``)."""
        if len(moves) == 1:
            return moves[0]
        if self.state_input.size(view.rules) != self.inputs:
            self.fallback = True
            return self.expert.choose(view, moves)
        encoder = self.state_input.encoder(view.rules)
        history = history_features(view)
        params = self.policy.params

        def pick(turn: TurnActions) -> int:
            allowed = np.flatnonzero(np.frombuffer(bytes(turn.shared_mask()), np.uint8))
            if len(allowed) == 1:
                return int(allowed[0])
            obs = encoder.encode(view, turn.mode, turn.plan) if turn.staging else encoder.encode(view)
            x = MaskedMLP.features(np.concatenate([obs, history]))
            h = np.maximum(0.0, x @ params["w1"] + params["b1"])
            logits = h[None] @ params["w2"][:, allowed] + params["b2"][allowed]
            return int(allowed[int(np.argmax(logits))])

        return move_of(TurnActions(resample(view, self.rng)), moves, pick)


@functools.lru_cache(maxsize=1)
def shipped_weights() -> Weights:
    """The weights shipped in the package (read once per process)."""
    with files("canasta.rl").joinpath(SHIPPED).open("rb") as f, np.load(f, allow_pickle=False) as data:
        return {k: np.asarray(data[k], np.float32) for k in ("w1", "b1", "w2", "b2")}


def neural_bot(rng: random.Random) -> NeuralBot:
    """``neural-policy`` of :func:`canasta.bots.make_bot` (entry-point group ``canasta.bots``): the shipped weights."""
    return NeuralBot(shipped_weights(), rng, name="neural-policy")


__all__ = ["SHIPPED", "NeuralBot", "StateInput", "history_features", "history_size", "neural_bot",
           "shipped_weights"]
