"""The PettingZoo AEC environment ``canasta_v0``: one hand of Canasta, every seat an agent.

Agents are ``player_0`` .. ``player_{P-1}`` (seats); the agent to act is the seat to move
(the partner while an ``ask`` waits for its answer).  Actions are the ids of
:mod:`canasta.rl.actions`; an observation is ``{"observation": float32 tensor of
:mod:`canasta.rl.observation`, "action_mask": int8 mask}`` (all zeros for an agent that
does not act now).  An episode is one hand; when it ends every agent gets its side's hand
total less the best other side's, in thousands of points.  ``env()`` adds PettingZoo's
usual wrappers (an illegal action ends the hand with reward -1 for its agent);
``raw_env()`` raises :class:`ValueError` on an illegal action instead.

>>> e = env()
>>> e.reset(seed=1)
>>> e.agent_selection, sorted(e.observe("player_1"))
('player_1', ['action_mask', 'observation'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import attrgetter
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .actions import NUM_ACTIONS
from .core import Hand, action_id, dealer_seat, hand_rewards, make_rules, match_scores, reset_options


def env(**kwargs: Any) -> Any:
    """``canasta_v0`` with PettingZoo's wrappers (illegal actions end the hand, order enforced)."""
    inner: Any = raw_env(**kwargs)
    inner = _TerminateIllegal(inner, illegal_reward=-1)
    inner = _AssertOutOfBounds(inner)
    inner = _OrderEnforcing(inner)
    return inner


_STATE = ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos", "_cumulative_rewards")
"""What every step reads; PettingZoo's wrappers find each through ``__getattr__``, layer by layer."""


def _direct(name: str, before_reset: bool = True) -> property:
    """A read of the raw environment's ``name`` (refused before reset when ``before_reset`` is False)."""
    if before_reset:
        return property(attrgetter(f"_raw.{name}"))

    def read(self: Any) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)
    return property(read)


class _TerminateIllegal(wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    """PettingZoo's wrapper, reading the table's state straight from the raw environment."""

    def __init__(self, env: raw_env, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward)
        self._raw = env


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """PettingZoo's wrapper, reading the table's state straight from the raw environment."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._raw = env.unwrapped


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's wrapper, reading the table's state straight from the raw environment (after reset)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._raw = env.unwrapped


for _name in _STATE:
    setattr(_TerminateIllegal, _name, _direct(_name))
    setattr(_AssertOutOfBounds, _name, _direct(_name))
    setattr(_OrderEnforcing, _name, _direct(_name, before_reset=_name == "_cumulative_rewards"))


class raw_env(AECEnv):  # type: ignore[misc]
    """``canasta_v0`` unwrapped: ``preset``, ``options`` (a dict of rule options), ``dealer``, ``scores``.

    ``scores`` (one per side, default zeros) are the match scores before the hand: they set
    the first-meld minimums.  ``reset(options={"dealer": ..., "scores": [...]})`` changes
    either for that hand.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "canasta_v0", "is_parallelizable": False}

    def __init__(self, preset: str = "classic", options: dict[str, Any] | None = None, dealer: int = 0,
                 render_mode: str | None = None, scores: Sequence[int] | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.rules = make_rules(preset, options)
        self.table = Hand(self.rules)
        self.dealer = dealer_seat(self.rules, dealer)
        self.scores = match_scores(self.rules, scores)
        self._rng = random.Random()
        self.possible_agents = [f"player_{s}" for s in range(self.rules.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        size = self.table.encoder.size
        enc = self.table.encoder
        self._observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=enc.low, high=enc.high, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of an agent."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of an agent (``NUM_ACTIONS`` ids)."""
        return self._action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation and action mask, from its seat's view only."""
        seat = self._seat[agent]
        return self.table.observe(seat)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (seeded when ``seed`` is given; ``options``: ``dealer``, ``scores``)."""
        dealer, scores = reset_options(self.rules, options, self.dealer, self.scores)
        if seed is not None:
            self._rng = random.Random(seed)
        self.table.deal(self._rng, dealer=self.dealer if dealer is None else dealer, scores=scores)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_act]

    def step(self, action: Any) -> None:
        """Take one action for the agent to act (committing an engine move when it completes one)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        table.turn.apply(action_id(action))
        state = table.state
        if state.is_over:
            for seat, reward in enumerate(hand_rewards(state)):
                a = self.possible_agents[seat]
                self.rewards[a] = reward
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[state.to_act]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The hand as text from nobody's seat: public table, whose turn, the plan in progress."""
        state = self.table.state
        text = (f"{state.phase} seat {state.to_act}, stock {len(state.stock)}, pile {len(state.pile)}, "
                f"melds {[state.meld_cards(s) for s in range(state.sides)]} {self.table.turn.staged_text()}")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


__all__ = ["env", "raw_env"]
