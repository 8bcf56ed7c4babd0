"""A computer player that plays by a trained :class:`~canasta.rl.policy.MaskedMLP`.

Like every bot it sees its seat's :class:`~canasta.views.View` and the legal moves, never
the state.  To stage a compound move action by action it needs a position to stage on:
it deals the cards it cannot see at random (:func:`canasta.resample.resample`), which
leaves its own hand, the table and so its legal moves as they are, then follows the
policy's actions through :class:`~canasta.rl.actions.TurnActions` until they commit a
move, and returns that move from the list it was given.

>>> from canasta.bots.arena import run_arena
>>> from canasta.rl.policy import MaskedMLP
>>> from canasta.rules import Rules
>>> weights = MaskedMLP(inputs=211, seed=0).weights()
>>> run_arena(lambda rng: PolicyBot(weights, rng), "random", Rules.parse("classic"), seed=1, deals=1)["hands"]
2
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Sequence

import numpy as np

from ..moves import Move
from ..resample import resample
from ..views import View
from .actions import TurnActions, move_of
from .observation import Encoder
from .policy import MaskedMLP, Weights


class PolicyBot:
    """Plays by ``weights`` (sampling from the policy, or its likeliest action with ``greedy``)."""

    slow = False

    def __init__(self, weights: Weights, rng: random.Random | None = None, greedy: bool = False,
                 name: str = "policy") -> None:
        self.name = name
        self.policy = MaskedMLP.from_weights(weights)
        self.rng = rng if rng is not None else random.Random()
        self.greedy = greedy
        self._np_rng = np.random.default_rng(self.rng.getrandbits(64))
        self._encoders: dict[object, Encoder] = {}

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """The move the policy's actions commit (always one of ``moves``)."""
        if len(moves) == 1:
            return moves[0]
        encoder = self._encoders.get(view.rules)
        if encoder is None:
            encoder = self._encoders[view.rules] = Encoder(view.rules)

        def pick(turn: TurnActions) -> int:
            mask = np.array(turn.shared_mask(), dtype=np.int8)
            obs = encoder.encode(view, turn.mode, turn.plan) if turn.staging else encoder.encode(view)
            if self.greedy:
                p, _ = self.policy.probs(self.policy.features(obs)[None], mask[None])
                return int(np.argmax(p[0]))
            return self.policy.act(obs, mask, self._np_rng)

        return move_of(TurnActions(resample(view, self.rng)), moves, pick)


def policy_bot(path: str, rng: random.Random, name: str) -> PolicyBot:
    """``policy:FILE`` of :func:`canasta.bots.make_bot`: the policy saved in ``path`` (read once per process)."""
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        raise ValueError(f"no saved policy at {path!r}") from None
    return PolicyBot(_saved_weights(path, stamp), rng, name=name)


@functools.lru_cache(maxsize=16)
def _saved_weights(path: str, stamp: int) -> Weights:
    return MaskedMLP.open(path).weights()


__all__ = ["PolicyBot", "policy_bot"]
