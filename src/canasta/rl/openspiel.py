"""Canasta as an OpenSpiel Python game: ``import canasta.rl.openspiel`` makes ``pyspiel.load_game("canasta")`` work.

Parameters: ``preset`` (default ``classic``), ``options`` (rule options as
``"name:value;name:value"``, like ``"wild_card_melds:true;target:7500"``), ``dealer`` and
``scores`` (the match scores before the hand, one per side, like ``"1500;3000"``: they set
the first-meld minimums; default zeros).
One game is one hand.  Player actions are those of :mod:`canasta.rl.actions`.

Chance is explicit.  The deck is revealed one card at a time, only when the engine is
about to use it: chance nodes deal the hands and the upcard, and later reveal each card
a player draws from the stock (red-three replacements included).  Each outcome is a card
code (0 .. 52, see :mod:`canasta.cards`) with probability proportional to its copies among
the unrevealed cards.  So the stock's order is never fixed ahead of play, and a state
holds no secret that a chance node has not yet decided.

Returns, at the end of the hand, are points: each seat's side total less the best other
side's.  The observation tensor is :class:`canasta.rl.observation.Encoder`'s.  The
information-state tensor has perfect recall: the observation tensor, then what the
player saw of the deal (its dealt hand, the red threes laid out, the upcard) and its
*record*, every action it took in the order it took them, every other player's move as
the canonical action sequence of that move (the order in which others stage their cards
is not seen at a table, only the meld), the cards it drew and the red threes laid out
from the stock (see :data:`RECORD_CODES`).  The information-state string is the same
record in words.  ``resample_from_infostate`` deals the hidden cards anew with
:func:`canasta.resample.resample`.

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

from ..cards import KIND, KIND_CHARS, NUM_CODES, NUM_KINDS, card_text, full_deck
from ..legal import materialize
from ..moves import Move
from ..resample import resample
from ..rules import Rules, parse_option_value
from ..state import GameState
from ..views import make_view
from .actions import (
    COMMIT,
    DISCARD_BASE,
    NUM_ACTIONS,
    PILE_ACTION,
    STAGE_BASE,
    TurnActions,
    action_to_string,
    actions_for_spec,
)
from .core import dealer_seat, hand_rewards, match_scores
from .observation import Encoder

UTILITY_BOUND = 50_000.0

GOT = NUM_ACTIONS + 1
"""Record code: the player received a card from the stock (detail: its kind + 1)."""
RED_THREE_LAID = NUM_ACTIONS + 2
"""Record code: a player laid out a red three that came from the stock."""
RECORD_CODES = "1 .. 59: action id + 1; 60: got a card (detail: kind + 1); 61: red three laid out from the stock"
"""The codes of a record entry ``(seat relative to the observer + 1, code, detail)``."""


def max_game_length(rules: Rules) -> int:
    """A proven bound on the actions of a hand, chance included: ``13 * deck_size + 5``.

    With ``D`` cards: a turn starts with a draw (each takes a card from the stock, or ends
    the hand) or a pile take (each melds at least the top card for good), so there are at
    most ``2D + 1`` turns of at most five actions besides staging (draw or pile + commit,
    ask, answer, discard); staging and meld commits each put at least one card on the
    table for good (``2D``); chance reveals each card at most once (``D``).
    """
    return 13 * rules.deck_size + 5

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
    parameter_specification={"preset": "classic", "options": "", "dealer": 0, "scores": ""},
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
        parsed = parse_option_value(value)
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
        self.dealer = dealer_seat(self.rules, int(params.get("dealer", 0)))
        scores_text = str(params.get("scores", "")).strip()
        try:
            scores = [int(x) for x in scores_text.split(";")] if scores_text else None
        except ValueError:
            raise ValueError(f"scores are whole numbers, one per side, separated by ';' (like 1500;3000), "
                             f"not {scores_text!r}") from None
        self.scores = match_scores(self.rules, scores)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CODES,
            num_players=self.rules.players,
            min_utility=-UTILITY_BOUND,
            max_utility=UTILITY_BOUND,
            max_game_length=max_game_length(self.rules),
        )
        super().__init__(_GAME_TYPE, info, {"preset": preset, "options": options, "dealer": self.dealer,
                                            "scores": scores_text})
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
        self.h = _Hand(game.rules, game.dealer, game.scores)

    # pyspiel clones a Python state by deep-copying each attribute apart, so everything
    # mutable lives in one attribute (:class:`_Hand`), which copies itself cheaply.
    @property
    def rules(self) -> Rules:
        """The rules of the game."""
        return self.h.rules

    @property
    def engine(self) -> GameState | None:
        """The engine's state once dealt (its unrevealed stock cards are :meth:`GameState.dealable`)."""
        return self.h.engine

    @property
    def turn(self) -> TurnActions | None:
        """The action interface (masks, staged plan) once dealt."""
        return self.h.turn

    # -- chance --------------------------------------------------------------------------

    def _dealable(self) -> list[int]:
        """A count per card code of the cards chance may reveal next."""
        if self.engine is None:
            counts = [0] * NUM_CODES
            for c in self.h.deck[self.h.revealed:]:
                counts[c] += 1
            return counts
        return self.engine.dealable()

    def _reveal(self, code: int) -> None:
        if self.engine is None:
            deck, i = self.h.deck, self.h.deck.index(code, self.h.revealed)
            deck[i], deck[self.h.revealed] = deck[self.h.revealed], deck[i]
            self.h.revealed += 1
        else:
            self.engine.deal_card(code)  # the engine's chance seam: the next stock card is `code`

    def _try_deal(self) -> None:
        """Deal once the revealed cards cover what the deal uses (upcards, red-three replacements)."""
        if self.h.revealed < self.h.need_deal:
            return
        state = GameState.deal(self.rules, dealer=self.h.dealer, scores=self.h.scores, deck=self.h.deck)
        stock = state.stock
        used = len(self.h.deck) - len(stock)
        if used > self.h.revealed:
            self.h.need_deal = used
            return
        for i in range(self.h.revealed - used):  # revealed cards the deal did not use: the stock's top, fixed
            state.deal_card(stock[len(stock) - 1 - i])
        self.h.engine = state
        self.h.turn = TurnActions(state)
        self.h.revealed = 0
        self.h.dealt = [state.kind_counts[seat][:] for seat in range(state.players)]
        self.h.deal_red_threes = [len(state.red_threes[side]) for side in range(state.sides)]
        self.h.upcard = state.pile[:]

    def _try_pending(self) -> None:
        """Play the pending move once chance has revealed every stock card it draws."""
        state, move = self.engine, self.h.pending
        assert state is not None and move is not None
        if state.needs_deal(move):
            return
        seat = state.to_act
        before = state.kind_counts[seat][:]
        red_before = len(state.red_threes[seat % state.sides])
        stock_before = len(state.stock)
        state.push(move)
        self.h.pending = None
        if len(state.stock) < stock_before:
            record = self.h.records[seat]
            after = state.kind_counts[seat]
            for kind in range(NUM_KINDS):
                record.extend([(seat, GOT, kind + 1)] * max(0, after[kind] - before[kind]))
            laid = len(state.red_threes[seat % state.sides]) - red_before
            for record in self.h.records:
                record.extend([(seat, RED_THREE_LAID, 0)] * laid)

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
        counts = self._dealable()
        total = sum(counts)
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
        seat = self.engine.to_act
        records = self.h.records
        if action >= STAGE_BASE or action == PILE_ACTION:
            records[seat].append((seat, action + 1, 0))  # a staged plan is seen by its player only
            turn.apply(action)
            return
        spec = turn.spec_for(action)
        if action == COMMIT:  # the others see the move, not the order of its staging
            records[seat].append((seat, action + 1, 0))
            seen = [(seat, a + 1, 0) for a in actions_for_spec(spec)]
            for other, record in enumerate(records):
                if other != seat:
                    record.extend(seen)
        else:
            for record in records:
                record.append((seat, action + 1, 0))
        self.h.pending = materialize(self.engine, spec)
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
        for seat in range(engine.players):
            if seat != player_id:  # the cards they were dealt and drew are unknown: forget them
                new.h.dealt[seat] = [0] * NUM_KINDS
                new.h.records[seat] = [entry for entry in new.h.records[seat] if entry[1] != GOT]
        return new

    def record(self, player: int, private: bool = True) -> list[tuple[int, int, int]]:
        """``player``'s record: ``(seat relative to it + 1, code, detail)`` (:data:`RECORD_CODES`).

        ``private=False``: the public record (moves as everyone sees them, no cards drawn).
        """
        players = self.rules.players
        record = self.h.records[player if private else players]
        return [((seat - player) % players + 1, code, detail) for seat, code, detail in record]



class _Hand:
    """The mutable part of a :class:`CanastaState`."""

    def __init__(self, rules: Rules, dealer: int, scores: list[int] | None) -> None:
        self.rules = rules
        self.dealer = dealer
        self.scores = scores  # the match scores before the hand (None: zeros)
        self.deck: list[int] = full_deck(rules.decks)  # the deal's deck until dealt
        self.revealed = 0  # deck cards fixed by chance while dealing (after the deal, the engine keeps them)
        self.engine: GameState | None = None
        self.turn: TurnActions | None = None
        self.pending: Move | None = None  # a committed move waiting for the stock cards it draws
        # What each player saw: its dealt hand (counts per kind), the red threes each side laid
        # out at the deal, the upcard(s), and its record (seat, code, detail); the extra record
        # at index ``players`` is the public one.
        self.dealt: list[list[int]] = [[0] * NUM_KINDS for _ in range(rules.players)]
        self.deal_red_threes: list[int] = [0] * rules.sides
        self.upcard: list[int] = []
        self.records: list[list[tuple[int, int, int]]] = [[] for _ in range(rules.players + 1)]
        self.need_deal = rules.hand_size * rules.seated + 1  # deck cards to reveal before trying to deal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        new = _Hand.__new__(_Hand)
        new.rules = self.rules
        new.dealer = self.dealer
        new.scores = self.scores
        new.deck = self.deck[:]
        new.revealed = self.revealed
        new.engine = None if self.engine is None else self.engine.copy()
        new.turn = None if self.turn is None or new.engine is None else self.turn.copy(new.engine)
        new.pending = self.pending
        new.dealt = [d[:] for d in self.dealt]
        new.deal_red_threes = self.deal_red_threes[:]
        new.upcard = self.upcard[:]
        new.records = [r[:] for r in self.records]
        new.need_deal = self.need_deal
        return new


class CanastaObserver:
    """Observation (and information-state) tensors and strings for one seat.

    The tensor is the encoder's observation; with perfect recall it goes on with ``dealt``
    (15 counts), ``deal_red_threes`` (one per side, relative), ``upcard_kinds`` (15),
    ``upcard_top`` (16, one-hot), ``record_length`` (1) and ``record`` (``max_game_length``
    rows of three numbers, see :meth:`CanastaState.record`; unused rows are zeros).  Without
    private information (a public observer) the hand, plan, dealt cards, staging and cards
    drawn are left out.
    """

    def __init__(self, game: CanastaGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.encoder: Encoder = game.encoder
        self.rules = game.rules
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        pieces: list[tuple[str, tuple[int, ...]]] = [
            (name, (piece.stop - piece.start,)) for name, piece in self.encoder.slices.items()]
        if self.perfect_recall:
            pieces += [("dealt", (NUM_KINDS,)), ("deal_red_threes", (self.rules.sides,)),
                       ("upcard_kinds", (NUM_KINDS,)), ("upcard_top", (NUM_KINDS + 1,)), ("record_length", (1,)),
                       ("record", (max_game_length(self.rules), 3))]
        sizes = [int(np.prod(shape)) for _, shape in pieces]
        self.tensor = np.zeros(sum(sizes), np.float32)
        self.dict: dict[str, Any] = {}
        start = 0
        for (name, shape), size in zip(pieces, sizes):
            self.dict[name] = self.tensor[start:start + size].reshape(shape)
            start += size

    def set_from(self, state: CanastaState, player: int) -> None:
        """Fill the tensor from ``player``'s view of ``state`` (and its record, with perfect recall)."""
        self.tensor.fill(0.0)
        if state.engine is None:
            return
        turn = state.turn
        assert turn is not None
        staged = turn.staging and state.h.pending is None
        encoder = self.encoder
        obs = encoder.encode_state(state.engine, player, turn.mode if staged else None,
                                   turn.plan if staged else None)
        if not self.private:
            obs[encoder.slices["hand"]] = 0.0
            obs[encoder.slices["staging"]] = 0.0
            obs[encoder.slices["plan"]] = 0.0
        self.tensor[:encoder.size] = obs
        if not self.perfect_recall:
            return
        pieces, h = self.dict, state.h
        if self.private:
            pieces["dealt"][:] = h.dealt[player]
        side, sides = player % self.rules.sides, self.rules.sides
        pieces["deal_red_threes"][:] = [h.deal_red_threes[(side + i) % sides] for i in range(sides)]
        for code in h.upcard:
            pieces["upcard_kinds"][KIND[code]] += 1
        pieces["upcard_top"][KIND[h.upcard[-1]] if h.upcard else NUM_KINDS] = 1
        record = state.record(player, self.private)
        if len(record) > len(pieces["record"]):  # impossible: see max_game_length
            raise RuntimeError(f"a record of {len(record)} entries is longer than the bound {len(pieces['record'])}")
        pieces["record_length"][0] = len(record)
        if record:
            pieces["record"][:len(record)] = record

    def string_from(self, state: CanastaState, player: int) -> str:
        """The view as text; with perfect recall, also the deal and the record in words."""
        if state.engine is None:
            return f"seat {player}: dealing"
        view = make_view(state.engine, player, history=False)
        hand = " ".join(card_text(c) for c in view.hand) if self.private else "?"
        plan = ""
        if self.private and state.turn is not None and state.h.pending is None and view.to_act == player:
            plan = state.turn.staged_text()
        lines = [f"seat {player} {view.phase} to act {view.to_act}; hand {hand}; pile "
                 f"{' '.join(card_text(c) for c in view.pile)}; stock {view.stock_size}; "
                 f"melds {view.to_json()['melds']}; red threes {view.to_json()['red_threes']}; {plan}"]
        if self.perfect_recall:
            h = state.h
            if self.private:
                lines.append("dealt " + _kinds_text(h.dealt[player]))
            lines.append("upcard " + " ".join(KIND_CHARS[KIND[c]] for c in h.upcard)
                         + f"; red threes at the deal by side {h.deal_red_threes}")
            players = self.rules.players
            for relative, code, detail in state.record(player, self.private):
                who = "you" if relative == 1 else f"seat {(player + relative - 1) % players}"
                lines.append(f"{who}: {record_text(code, detail)}")
        return "\n".join(lines)


def record_text(code: int, detail: int) -> str:
    """A record entry's code and detail in words (``stage K``, ``got 7``, ``red three laid out``)."""
    if code == GOT:
        return f"got {KIND_CHARS[detail - 1]}"
    if code == RED_THREE_LAID:
        return "red three laid out"
    return action_to_string(code - 1)


def _kinds_text(counts: list[int]) -> str:
    return " ".join(KIND_CHARS[k] for k in range(NUM_KINDS) for _ in range(counts[k]))


pyspiel.register_game(_GAME_TYPE, CanastaGame)

__all__ = ["COMMIT", "DISCARD_BASE", "GOT", "RECORD_CODES", "RED_THREE_LAID", "CanastaGame", "CanastaObserver",
           "CanastaState", "max_game_length", "parse_options", "record_text"]
