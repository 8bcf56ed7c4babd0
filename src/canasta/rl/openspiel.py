"""Canasta as an OpenSpiel Python game: ``import canasta.rl.openspiel`` makes ``pyspiel.load_game("canasta")`` work.

Parameters: ``preset`` (default ``classic``), ``options`` (rule options as
``"name:value;name:value"``, like ``"wild_card_melds:true;target:7500"``) and ``dealer``.
One game is one hand.  Player actions are those of :mod:`canasta.rl.actions`.

Chance is explicit.  The deck is revealed one card at a time, only when the engine is
about to use it: chance nodes deal the hands and the upcard, and later reveal each card
a player draws from the stock (red-three replacements included).  Each outcome is a card
code (0 .. 52, see :mod:`canasta.cards`) with probability proportional to its copies among
the unrevealed cards.  So the stock's order is never fixed ahead of play, and a state
holds no secret that a chance node has not yet decided.

Returns, at the end of the hand, are points: each seat's side total less the best other
side's.  The observation tensor is :class:`canasta.rl.observation.Encoder`'s; the
information-state tensor is the same tensor (it does not recall the past), while the
information-state string is perfect recall: the cards the player was dealt and drew, the
public moves, and its own staged plan.  ``resample_from_infostate`` deals the hidden cards
anew with :func:`canasta.resample.resample`.

>>> import pyspiel
>>> game = pyspiel.load_game("canasta", {"preset": "two-player"})
>>> game.num_players(), game.num_distinct_actions()
(2, 59)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from ..cards import NUM_CODES, card_text, full_deck
from ..legal import materialize
from ..moves import Move
from ..resample import resample
from ..rules import Rules
from ..state import GameState
from ..views import make_view
from .actions import COMMIT, DISCARD_BASE, NUM_ACTIONS, PILE_ACTION, STAGE_BASE, TurnActions, action_to_string
from .core import hand_rewards
from .observation import Encoder

MAX_GAME_LENGTH = 30_000
"""A practical bound on actions in a hand (chance included); random hands stay far below it."""
UTILITY_BOUND = 50_000.0

_GAME_TYPE = pyspiel.GameType(
    short_name="canasta",
    long_name="Canasta",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"preset": "classic", "options": "", "dealer": 0},
)


def parse_options(text: str) -> dict[str, Any]:
    """Rule options from ``"name:value;name:value"`` (``=`` for ``:`` accepted; true/false, integers).

    >>> parse_options("wild_card_melds:true; target:7500")
    {'wild_card_melds': True, 'target': 7500}
    """
    options: dict[str, Any] = {}
    for item in text.split(";"):
        if not item.strip():
            continue
        name, colon, value = item.replace("=", ":").partition(":")
        if not colon:
            raise ValueError(f"options are name:value, not {item!r}")
        raw = value.strip()
        parsed: Any = raw
        if raw.lower() in ("true", "false"):
            parsed = raw.lower() == "true"
        else:
            try:
                parsed = int(raw)
            except ValueError:
                parsed = raw
        options[name.strip()] = parsed
    return options


class CanastaGame(pyspiel.Game):  # type: ignore[misc]
    """The game: rules from the parameters; states start with the deal's chance nodes."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        preset = str(params.get("preset", "classic"))
        parsed = parse_options(str(params.get("options", "")))
        self.rules = Rules.from_preset(preset, **parsed)
        # Stored as name:value (OpenSpiel's game strings reserve = and ,).
        options = ";".join(f"{k}:{str(v).lower() if isinstance(v, bool) else v}" for k, v in parsed.items())
        self.dealer = int(params.get("dealer", 0))
        if not 0 <= self.dealer < self.rules.players:
            raise ValueError(f"dealer {self.dealer} is not a seat (0 to {self.rules.players - 1})")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CODES,
            num_players=self.rules.players,
            min_utility=-UTILITY_BOUND,
            max_utility=UTILITY_BOUND,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, {"preset": preset, "options": options, "dealer": self.dealer})
        self.encoder = Encoder(self.rules)

    def new_initial_state(self) -> CanastaState:
        """A hand about to be dealt (a chance node)."""
        return CanastaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CanastaObserver:
        """The observer of observation and information-state tensors and strings."""
        return CanastaObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class CanastaState(pyspiel.State):  # type: ignore[misc]
    """One hand: the engine's :class:`GameState` once dealt, its staged plan, and the unrevealed cards."""

    def __init__(self, game: CanastaGame) -> None:
        super().__init__(game)
        self.h = _Hand(game.rules, game.dealer)

    # pyspiel clones a Python state by deep-copying each attribute apart, so everything
    # mutable lives in one attribute (:class:`_Hand`), which copies itself cheaply.
    @property
    def rules(self) -> Rules:
        """The rules of the game."""
        return self.h.rules

    @property
    def engine(self) -> GameState | None:
        """The engine's state once dealt (holding the unrevealed stock cards in no set order)."""
        return self.h.engine

    @property
    def turn(self) -> TurnActions | None:
        """The action interface (masks, staged plan) once dealt."""
        return self.h.turn

    # -- chance --------------------------------------------------------------------------

    def _unrevealed(self) -> list[int]:
        if self.engine is None:
            return self.h.deck[self.h.revealed:]
        stock = self.engine.stock
        return stock[:len(stock) - self.h.revealed]

    def _reveal(self, code: int) -> None:
        if self.engine is None:
            deck, i = self.h.deck, self.h.deck.index(code, self.h.revealed)
            deck[i], deck[self.h.revealed] = deck[self.h.revealed], deck[i]
        else:
            stock = self.engine.stock
            top = len(stock) - self.h.revealed - 1
            i = stock.index(code, 0, top + 1)
            stock[i], stock[top] = stock[top], stock[i]
        self.h.revealed += 1

    def _try_deal(self) -> None:
        """Deal once the revealed cards cover what the deal uses (upcards, red-three replacements)."""
        if self.h.revealed < self.h._need_deal:
            return
        state = GameState.deal(self.rules, dealer=self.h.dealer, deck=self.h.deck)
        used = len(self.h.deck) - len(state.stock)
        if used > self.h.revealed:
            self.h._need_deal = used
            return
        self.h.engine = state
        self.h.turn = TurnActions(state)
        self.h.revealed -= used
        for seat in range(self.rules.players):
            self.h.private[seat].append("dealt " + " ".join(card_text(c) for c in state.hand(seat)))


    def _try_pending(self) -> None:
        """Play the pending move once every stock card it draws is revealed."""
        state, move = self.engine, self.h.pending
        assert state is not None and move is not None
        trial = state.copy()
        trial.push(move)
        used = len(state.stock) - len(trial.stock)
        if used > self.h.revealed:
            return
        before = [h[:] for h in state.cc]
        state.push(move)
        self.h.revealed -= used
        self.h.pending = None
        if used:
            for seat in range(state.players):
                gained = [c for c in range(NUM_CODES) for _ in range(max(0, state.cc[seat][c] - before[seat][c]))]
                if gained:
                    self.h.private[seat].append(f"{len(state.history)}: got " + " ".join(card_text(c) for c in gained))

    # -- the OpenSpiel API ---------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, or chance, or terminal."""
        if self.engine is None or self.h.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.engine.to_act

    def _legal_actions(self, player: int) -> list[int]:
        if self.turn is None or player != self.current_player():
            return []
        return self.turn.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each unrevealed card code with its share of the unrevealed cards."""
        cards = self._unrevealed()
        counts = [0] * NUM_CODES
        for c in cards:
            counts[c] += 1
        total = len(cards)
        return [(c, n / total) for c, n in enumerate(counts) if n]

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self._reveal(action)
            self._try_deal()
            return
        if self.h.pending is not None:
            self._reveal(action)
            self._try_pending()
            return
        turn = self.turn
        assert turn is not None
        if not turn.is_allowed(action):
            raise ValueError(f"action {action} ({action_to_string(action)}) is not legal now")
        if action >= STAGE_BASE or action == PILE_ACTION:
            turn.apply(action)
            return
        self.h.pending = materialize(self.engine, turn.spec_for(action))
        self._try_pending()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {card_text(action)}"
        return action_to_string(action)

    def is_terminal(self) -> bool:
        """True once the hand is over."""
        return self.engine is not None and self.engine.is_over

    def returns(self) -> list[float]:
        """Points: each seat's side total less the best other side's (zeros until the end)."""
        if self.engine is None or not self.engine.is_over:
            return [0.0] * self.rules.players
        return hand_rewards(self.engine, scale=1.0)

    def __str__(self) -> str:
        if self.engine is None:
            return f"dealing ({self.h.revealed} cards revealed)"
        state = self.engine
        hands = " | ".join(" ".join(card_text(c) for c in state.hand(s)) for s in range(state.players))
        plan = self.turn.staged_text() if self.turn is not None else ""
        return (f"{state.phase} seat {state.to_act}; hands {hands}; pile "
                f"{' '.join(card_text(c) for c in state.pile)}; stock {len(state.stock)}; {plan}")

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> CanastaState:
        """A state ``player_id`` cannot tell from this one: hidden cards dealt anew at random."""
        if self.engine is None or self.engine.is_over or self.h.pending is not None:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * 2 ** 62))
        engine = resample(make_view(self.engine, player_id), rng)
        new: CanastaState = self.clone()
        new.h.engine = engine
        assert self.turn is not None
        # The player to act keeps its staged plan; anyone else cannot know it, so it is dropped.
        new.h.turn = self.turn.copy(engine) if player_id == self.engine.to_act else TurnActions(engine)
        new.h.revealed = 0  # the resampled stock's order is free again
        for seat in range(engine.players):
            if seat != player_id:  # their records of cards received no longer hold
                new.h.private[seat] = ["resampled: " + " ".join(card_text(c) for c in engine.hand(seat))]
        return new



class _Hand:
    """The mutable part of a :class:`CanastaState`."""

    def __init__(self, rules: Rules, dealer: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deck: list[int] = full_deck(rules.decks)  # the deal's deck until dealt
        self.revealed = 0  # deck cards (while dealing) or top stock cards (after) fixed by chance
        self.engine: GameState | None = None
        self.turn: TurnActions | None = None
        self.pending: Move | None = None  # a committed move waiting for the stock cards it draws
        self.private: list[list[str]] = [[] for _ in range(rules.players)]  # cards dealt and drawn
        self._need_deal = rules.hand_size * rules.seated + 1

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        new = _Hand.__new__(_Hand)
        new.rules = self.rules
        new.dealer = self.dealer
        new.deck = self.deck[:]
        new.revealed = self.revealed
        new.engine = None if self.engine is None else self.engine.copy()
        new.turn = None if self.turn is None or new.engine is None else self.turn.copy(new.engine)
        new.pending = self.pending
        new.private = [p[:] for p in self.private]
        new._need_deal = self._need_deal
        return new


class CanastaObserver:
    """Observation (and information-state) tensors and strings for one seat."""

    def __init__(self, game: CanastaGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.encoder: Encoder = game.encoder
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {name: self.tensor[piece] for name, piece in self.encoder.slices.items()}

    def set_from(self, state: CanastaState, player: int) -> None:
        """Fill the tensor from ``player``'s view of ``state``."""
        self.tensor.fill(0.0)
        if state.engine is None:
            return
        turn = state.turn
        assert turn is not None
        staged = turn.staging and state.h.pending is None
        obs = self.encoder.encode_state(state.engine, player, turn.mode if staged else None,
                                        turn.plan if staged else None)
        if not self.private:
            obs[self.encoder.slices["hand"]] = 0.0
            obs[self.encoder.slices["staging"]] = 0.0
            obs[self.encoder.slices["plan"]] = 0.0
        self.tensor[:] = obs

    def string_from(self, state: CanastaState, player: int) -> str:
        """The view as text (with the player's private and public record when perfect recall)."""
        if state.engine is None:
            return f"seat {player}: dealing"
        view = make_view(state.engine, player, history=self.perfect_recall)
        hand = " ".join(card_text(c) for c in view.hand) if self.private else "?"
        plan = ""
        if self.private and state.turn is not None and state.h.pending is None and view.to_act == player:
            plan = state.turn.staged_text()
        lines = [f"seat {player} {view.phase} to act {view.to_act}; hand {hand}; pile "
                 f"{' '.join(card_text(c) for c in view.pile)}; stock {view.stock_size}; "
                 f"melds {view.to_json()['melds']}; red threes {view.to_json()['red_threes']}; {plan}"]
        if self.perfect_recall:
            if self.private:
                lines.extend(state.h.private[player])
            lines.extend(f"{seat}: {text}" for seat, text in view.history)
        return "\n".join(lines)


pyspiel.register_game(_GAME_TYPE, CanastaGame)

__all__ = ["COMMIT", "DISCARD_BASE", "CanastaGame", "CanastaObserver", "CanastaState", "parse_options"]
