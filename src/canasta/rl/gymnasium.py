"""A single-agent Gymnasium environment: one seat learns, the other seats are bots of the ladder.

The agent plays ``seat`` (default 0); every other seat is a computer player from
:func:`canasta.bots.make_bot` (``opponents``: one name for all, or one per other seat,
partners included), which sees only its own view.  Actions and observations are those of
:mod:`canasta.rl.actions` and :mod:`canasta.rl.observation`; the observation is
``{"observation", "action_mask"}`` and ``info["action_mask"]`` repeats the mask
(:meth:`CanastaEnv.action_masks` too, for MaskablePPO).  An episode is one hand; the
reward at its end is the agent's side's total less the best other side's, in thousands.
After ``reset(seed=S)`` the ``i``-th hand dealt is hand ``i`` of the match with seed ``S``
(``canasta.match.deal_deck``, the one seeding scheme of every front end), its opponents are
seeded by ``canasta.match.bot_random(S, i, seat)`` and play through the table driver's bot
loop (``canasta.play.run_bots``), and unless ``dealer`` is given the deal passes left from
seat 0 as in a match.
``scores`` (one per side) are the match scores before the hand, which set the first-meld
minimums; ``reset(options={"dealer": ..., "scores": [...]})`` changes either for one hand.
An action the mask refuses changes nothing and costs ``illegal_reward`` (default -0.01),
with ``info["illegal"] = True``.  Importing this module registers ``gymnasium.make("canasta/Canasta-v0")``.

>>> env = CanastaEnv(opponents="random")
>>> obs, info = env.reset(seed=3)
>>> sorted(obs), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..match import bot_random, deal_deck
from ..play import run_bots
from ..state import GameState
from ..views import make_view
from .actions import NUM_ACTIONS
from .core import Hand, Mask, action_id, dealer_seat, hand_rewards, make_rules, match_scores, reset_options

ObsType = dict[str, Any]


class CanastaEnv(gym.Env[ObsType, np.int64]):
    """One hand of Canasta for one learning seat against bots (``preset``, ``options``, ``opponents``)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(self, preset: str = "classic", options: dict[str, Any] | None = None, seat: int = 0,
                 opponents: str | Sequence[str] = "basic", dealer: int | None = None,
                 illegal_reward: float = -0.01, render_mode: str | None = None,
                 scores: Sequence[int] | None = None) -> None:
        self.rules = make_rules(preset, options)
        players = self.rules.players
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at a table of {players}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"name {players - 1} opponents (one per other seat), not {len(names)}")
        for name in names:
            make_bot(name, files=True)  # unknown names fail here, with the list of known ones
        self.opponent_names = names
        self.seat = seat
        self.dealer = None if dealer is None else dealer_seat(self.rules, dealer)
        self.scores = match_scores(self.rules, scores)
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.table = Hand(self.rules)
        enc = self.table.encoder
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=enc.low, high=enc.high, shape=(enc.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._seed: int = secrets.randbits(63)  # until reset(seed=...) names one
        self._hand = 0  # the number of the next hand dealt from the seed
        self._bots: dict[int, Bot] = {}

    def _observe(self) -> ObsType:
        return self.table.observe(self.seat)

    def action_masks(self) -> Mask:
        """The agent's action mask now."""
        return self.table.mask(self.seat)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsType, dict[str, Any]]:
        """Deal a hand and let the bots play up to the agent's first decision."""
        dealer, scores = reset_options(self.rules, options, self.dealer, self.scores)  # checked first
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._hand = seed, 0
        players = self.rules.players
        while True:  # again, in the rare case that a hand ends at the deal
            number = self._hand
            self._hand += 1
            state = GameState.deal(self.rules, number % players if dealer is None else dealer, scores,
                                   deal_deck(self.rules, self._seed, number))
            if not state.is_over:
                break
        others = [s for s in range(players) if s != self.seat]
        self._bots = {s: make_bot(name, bot_random(self._seed, number, s), files=True)
                      for s, name in zip(others, self.opponent_names)}
        self.table.start(state)
        self._play_bots()
        if self.table.state.is_over:  # the bots ended the hand before the agent's turn
            return self.reset(seed=None, options=options)
        obs = self._observe()
        return obs, {"action_mask": obs["action_mask"]}

    def _play_bots(self) -> None:
        state = self.table.state
        run_bots(state, self._bots, state.play)

    def step(self, action: Any) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """One action of the agent; the bots then play until the agent's next decision."""
        table = self.table
        action = action_id(action)
        if not table.turn.is_allowed(action):
            obs = self._observe()
            return obs, self.illegal_reward, False, False, {"action_mask": obs["action_mask"], "illegal": True}
        move = table.turn.apply(action)
        if move is not None:
            self._play_bots()
        state = table.state
        obs = self._observe()
        info: dict[str, Any] = {"action_mask": obs["action_mask"]}
        if state.is_over:
            assert state.result is not None
            info["totals"] = state.result.totals
            return obs, hand_rewards(state)[self.seat], True, False, info
        return obs, 0.0, False, False, info

    def render(self) -> str | None:
        """The agent's view as text."""
        view = make_view(self.table.state, self.seat, history=False)
        return (f"{view.phase}: hand {view.hand}, pile top {view.top}, stock {view.stock_size}, "
                f"{self.table.turn.staged_text()}")


ENV_ID = "canasta/Canasta-v0"
if ENV_ID not in gym.registry:
    gym.register(ENV_ID, entry_point="canasta.rl.gymnasium:CanastaEnv")

__all__ = ["ENV_ID", "CanastaEnv"]
