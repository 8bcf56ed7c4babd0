"""The research environment: a fixed action space, observations, and adapters for learning.

- :mod:`canasta.rl.actions`: integer actions, masks and staged compound moves (standard library);
- :mod:`canasta.rl.observation`: observation tensors and dicts from a seat's view (numpy);
- :mod:`canasta.rl.pettingzoo`: the PettingZoo AEC environment ``canasta_v0``;
- :mod:`canasta.rl.gymnasium`: a single-agent Gymnasium environment against bots;
- :mod:`canasta.rl.openspiel`: ``pyspiel.load_game("canasta")`` once imported;
- :mod:`canasta.rl.neural`: the learned player ``neural`` (trained by :mod:`canasta.rl.train_neural`).

Only the action space is imported here, so ``import canasta.rl`` needs no extra.  The
others need ``pip install 'canasta[rl]'`` (``'canasta[openspiel]'`` for OpenSpiel).
"""

from __future__ import annotations

from .actions import NUM_ACTIONS, TurnActions, action_to_string, string_to_action

__all__ = ["NUM_ACTIONS", "TurnActions", "action_to_string", "string_to_action"]
