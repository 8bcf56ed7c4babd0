"""What the learning adapters share: a dealt hand with its action interface, rewards, observations.

A :class:`Hand` holds one hand (:class:`~canasta.state.GameState`), its
:class:`~canasta.rl.actions.TurnActions` and the :class:`~canasta.rl.observation.Encoder`
of its rules.  Observations come from :func:`canasta.views.make_view` only.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..moves import Phase
from ..rules import Rules
from ..state import GameState
from ..views import make_view
from .actions import NUM_ACTIONS, TurnActions
from .observation import Array, Encoder

REWARD_SCALE: Final = 1000.0
"""Rewards are points divided by this (a hand's margin is then about -3 .. 3)."""

Mask = npt.NDArray[np.int8]


def hand_rewards(state: GameState, scale: float = REWARD_SCALE) -> list[float]:
    """Each seat's reward for a finished hand: its side's hand total less the best other side's."""
    result = state.result
    if result is None:
        return [0.0] * state.players
    totals = result.totals
    rewards = []
    for seat in range(state.players):
        side = seat % state.sides
        best_other = max(t for s, t in enumerate(totals) if s != side)
        rewards.append((totals[side] - best_other) / scale)
    return rewards


def match_scores(rules: Rules, scores: Any) -> list[int] | None:
    """Checked match scores before a hand, one integer per side (None: a match's first hand).

    They set each side's first-meld minimum, so a learner can meet every stage of a match.
    """
    if scores is None:
        return None
    if (not isinstance(scores, (list, tuple)) or len(scores) != rules.sides
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in scores)):
        raise ValueError(f"scores are one whole number per side ({rules.sides}), like "
                         f"{[1500, 3000, 0][:rules.sides]}, not {scores!r}")
    return [int(x) for x in scores]


def action_id(action: Any) -> int:
    """An action as an integer (numpy integers too); anything else is refused in a sentence."""
    try:
        return int(action)
    except (TypeError, ValueError):
        raise ValueError(f"an action is a whole number from 0 to {NUM_ACTIONS - 1}, not {action!r}") from None


def dealer_seat(rules: Rules, dealer: Any) -> int:
    """A checked dealer: a seat of the table."""
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
        raise ValueError(f"the dealer is a seat, 0 to {rules.players - 1}, not {dealer!r}")
    return dealer


def reset_options(rules: Rules, options: dict[str, Any] | None, dealer: int | None,
                  scores: list[int] | None) -> tuple[int | None, list[int] | None]:
    """The dealer and match scores of one hand: the defaults, unless ``reset(options=...)`` names them.

    Other keys are left alone (PettingZoo's ``api_test`` passes one of its own).
    """
    if not options:
        return dealer, scores
    if options.get("dealer") is not None:
        dealer = dealer_seat(rules, options["dealer"])
    return dealer, match_scores(rules, options.get("scores", scores))


def make_rules(preset: str = "classic", options: dict[str, Any] | None = None) -> Rules:
    """The rules of a preset with options (``canasta rules`` names them)."""
    return Rules.from_preset(preset, **(options or {}))


class Hand:
    """One hand in progress for learning: deal, act by action ids, observe by seat."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.encoder = Encoder(rules)
        self.state = GameState(rules)
        self.turn = TurnActions(self.state)
        self._empty_mask: Mask = np.zeros(NUM_ACTIONS, dtype=np.int8)

    def __reduce__(self) -> tuple[object, ...]:  # compiled by mypyc too: made by __init__, then its state
        return Hand, (self.rules,), self.__getstate__()

    def deal(self, rng: random.Random, dealer: int = 0, scores: list[int] | None = None) -> None:
        """Deal a new hand (again, in the rare case that it ends at the deal)."""
        while True:
            state = GameState.deal(self.rules, dealer=dealer, scores=scores, rng=rng)
            if not state.is_over:
                break
        self.state = state
        self.turn = TurnActions(state)

    def start(self, state: GameState) -> None:
        """Play ``state``, a hand just dealt."""
        self.state = state
        self.turn = TurnActions(state)

    @property
    def to_act(self) -> int:
        """The seat that acts now."""
        return self.state.to_act

    def mask(self, seat: int) -> Mask:
        """The action mask of ``seat`` (all zeros unless it acts now)."""
        if self.state.is_over or seat != self.state.to_act:
            return self._empty_mask.copy()
        return np.array(self.turn.shared_mask(), dtype=np.int8)

    def observe(self, seat: int) -> dict[str, Any]:
        """The seat's observation (its view and its own staged plan) and ``mask(seat)``, in one pass.

        Uses :meth:`Encoder.encode_state`, which reads only the view's fields (tested equal
        to encoding ``make_view(state, seat)``, as :meth:`view_observation` does).
        """
        state = self.state
        encoder = self.encoder
        if seat != state.to_act or state.phase == Phase.OVER:
            return {"observation": encoder.encode_state(state, seat), "action_mask": self._empty_mask.copy()}
        turn = self.turn
        mask = np.array(turn.shared_mask(), dtype=np.int8)  # (this brings the turn up to date)
        if turn.mode is None:
            return {"observation": encoder.encode_state(state, seat), "action_mask": mask}
        return {"observation": encoder.encode_state(state, seat, turn.mode, turn.plan), "action_mask": mask}

    def view_observation(self, seat: int) -> Array:
        """The same observation, built from ``make_view(state, seat)`` (the reference path)."""
        view = make_view(self.state, seat, history=False)
        turn = self.turn
        if turn.staging and seat == self.state.to_act:
            return self.encoder.encode(view, turn.mode, turn.plan)
        return self.encoder.encode(view)


__all__ = ["REWARD_SCALE", "Hand", "action_id", "dealer_seat", "hand_rewards", "make_rules", "match_scores",
           "reset_options"]
