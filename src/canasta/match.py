"""A match: hands played to the target, the deal passing left (NOTATION.md, "Game records").

>>> m = Match(seed=7)
>>> m.state.turn, m.dealer
(1, 0)
>>> rec = m.to_record()
>>> Match.from_record(rec).state.hand(1) == m.state.hand(1)
True

The one seeding scheme (every front end, the arena and the learning environments use it):
hand ``i`` of the match with seed ``S`` is dealt from :func:`deal_deck` (``random.Random(f"{S}:{i}")``),
and the computer player at seat ``k`` plays that hand with :func:`bot_random`
(``random.Random(f"{S}:{i}:bot:{k}")``).  So a hand's chance depends on the seed and its number
alone: a match resumed from a save file, a server restarted between hands, the arena's deal ``i``
and the Gymnasium environment's ``i``-th episode all deal as one unbroken match would.  Records
say so with ``"seeding": "hand"``; a record with a seed and no ``seeding`` was written before
(one ``random.Random(S)`` shuffled once per hand in turn, :data:`OLD_SEEDING`), and a match
loaded from it goes on dealing that way.

>>> Match(seed=7).hands[0]["deck"] == [card_text(c) for c in deal_deck(Rules(), 7, 0)]
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import card_text, shuffled_deck
from .errors import CanastaError, PositionError
from .moves import Move
from .outcome import Dealt, Outcome, dealt
from .outcome import play as play_outcome
from .position import deck_from_text, parse_rules, parse_scores, parse_seat
from .rules import Rules
from .scoring import HandResult, match_winner
from .state import GameState

SEEDING = "hand"
"""Each hand from its own shuffle: :func:`deal_deck` (the scheme of every match made now)."""
OLD_SEEDING = "match"
"""One ``random.Random(seed)`` for the whole match, shuffled once per hand in turn (records before ``seeding``)."""
SEEDINGS = (SEEDING, OLD_SEEDING)


def deal_deck(rules: Rules, seed: int | str, number: int) -> list[int]:
    """The deck (top card first) of hand ``number`` (from 0) of the match with this seed."""
    return shuffled_deck(random.Random(f"{seed}:{number}"), rules.decks)


def bot_random(seed: int | str, number: int, seat: int) -> random.Random:
    """The random source of the computer player at ``seat`` for hand ``number`` of the match with this seed."""
    return random.Random(f"{seed}:{number}:bot:{seat}")


class Match:
    """Hands of one rules set played until a side reaches the target.

    ``seeding`` is :data:`SEEDING` (each hand dealt by :func:`deal_deck`) or, for matches
    recorded before it existed, :data:`OLD_SEEDING`.  Without a seed the shuffles are random.
    """

    def __init__(
        self,
        rules: Rules | str = "classic",
        players: Sequence[str] | None = None,
        seed: int | None = None,
        dealer: int = 0,
        scores: Sequence[int] | None = None,
        deal: bool = True,
        seeding: str = SEEDING,
    ) -> None:
        self.rules = rules if isinstance(rules, Rules) else Rules.parse(rules)
        self.players = list(players) if players is not None else [f"seat {i}" for i in range(self.rules.players)]
        if len(self.players) != self.rules.players:
            raise PositionError(f"{self.rules.preset} needs {self.rules.players} players, not {len(self.players)}")
        if seeding not in SEEDINGS:
            raise PositionError(f"unknown seeding {seeding!r} (known: {', '.join(SEEDINGS)})")
        self.seed = seed
        self.seeding = seeding
        self._rng = random.Random(seed)
        self.start_scores = list(scores) if scores is not None else [0] * self.rules.sides
        self.scores = self.start_scores[:]
        self.dealer = dealer
        self.hands: list[dict[str, Any]] = []
        self.results: list[HandResult] = []
        self.outcomes: list[Outcome] = []
        """What each move of the current hand did, one per entry of its history (:mod:`canasta.outcome`)."""
        self.dealt = Dealt()
        """What the current hand's deal showed (:class:`~canasta.outcome.Dealt`)."""
        self._told: list[tuple[Dealt, list[Outcome]]] = []  # every hand's deal and outcomes
        self.state: GameState = GameState(self.rules)
        if deal:
            self.new_hand()

    # -- play ---------------------------------------------------------------------------

    def new_hand(self, deck: Sequence[int] | None = None) -> GameState:
        """Deal the next hand (from a shuffle by the match's seed, or from ``deck``)."""
        if self.hands and not self.state.is_over:
            raise CanastaError("the current hand is not over")
        if self.winner is not None:
            raise CanastaError("the match is over")
        if self.hands:
            self.dealer = (self.dealer + 1) % self.rules.players
        if deck is None:
            deck = self._shuffle()
        sitting_out = (2 * (len(self.hands) % 3)) if self.rules.sit_out else None  # side 0 in turn
        return self._deal_hand(deck, sitting_out)

    def _deal_hand(self, deck: Sequence[int], sitting_out: int | None) -> GameState:
        """Deal ``deck`` by ``self.dealer`` at ``self.scores`` and record the new hand: its entry, its deal."""
        self.state = GameState.deal(self.rules, self.dealer, self.scores, deck, sitting_out=sitting_out)
        entry: dict[str, Any] = {"dealer": self.dealer, "deck": [card_text(c) for c in deck], "moves": []}
        if sitting_out is not None:
            entry["sitting_out"] = sitting_out
        self.hands.append(entry)
        self.outcomes = []
        self.dealt = dealt(self.state)
        self._told.append((self.dealt, self.outcomes))
        self._after_move()
        return self.state

    def _shuffle(self) -> list[int]:
        """The deck of the hand about to be dealt (``len(self.hands)``), by the match's seeding."""
        if self.seed is not None and self.seeding == SEEDING:
            return deal_deck(self.rules, self.seed, len(self.hands))
        return shuffled_deck(self._rng, self.rules.decks)

    def play(self, move: Move | str) -> Move:
        """Check and apply a move of the current hand; scores the hand when it ends."""
        return self.apply(move).move

    def apply(self, move: Move | str) -> Outcome:
        """:meth:`play`, returning what the move did (:mod:`canasta.outcome`); the hand's are in :attr:`outcomes`."""
        outcome = play_outcome(self.state, move)
        self.outcomes.append(outcome)
        self.hands[-1]["moves"].append(str(outcome.move))
        self._after_move()
        return outcome

    def told(self, number: int) -> tuple[Dealt, list[Outcome]]:
        """What hand ``number`` (from 0) showed: its deal and the outcome of each of its moves."""
        return self._told[number]

    def _after_move(self) -> None:
        if self.state.is_over and len(self.results) < len(self.hands):
            result = self.state.result
            assert result is not None
            self.results.append(result)
            self.scores = [s + t for s, t in zip(self.scores, result.totals)]

    @property
    def winner(self) -> int | None:
        """The side that has won, or None while the match goes on."""
        return match_winner(self.scores, self.rules.target)

    @property
    def is_over(self) -> bool:
        """True when a side has won."""
        return self.winner is not None

    # -- records ------------------------------------------------------------------------

    def to_record(self, for_seat: int | None = None) -> dict[str, Any]:
        """The game record; ``for_seat`` leaves out every deck while the match goes on.

        Each hand also keeps what the table saw (``dealt``, and ``outcomes``: each move's public
        :class:`~canasta.outcome.Outcome`), for readers that tell or review the match without
        replaying it; :meth:`from_record` replays the moves and works them out again."""
        hide = for_seat is not None and not self.is_over
        hands = []
        for hand, result, (shown, outcomes) in zip(self.hands, [*self.results, None], self._told):
            entry: dict[str, Any] = {
                "dealer": hand["dealer"],
                "deck": None if hide else list(hand["deck"]),
                "moves": list(hand["moves"]),
                "dealt": shown.to_json(),
                "outcomes": [outcome.public().to_json() for outcome in outcomes],
            }
            if "sitting_out" in hand:
                entry["sitting_out"] = hand["sitting_out"]
            if result is not None:
                entry["result"] = result.to_json()
            hands.append(entry)
        record: dict[str, Any] = {
            "rules": self.rules.to_json(),
            "players": list(self.players),
            "scores": list(self.start_scores),
            "hands": hands,
            "final_scores": list(self.scores),
            "winner": self.winner,
        }
        if self.seed is not None and not hide:
            record["seed"] = self.seed
            record["seeding"] = self.seeding
        return record

    @classmethod
    def from_record(cls, record: object, seeding: str = OLD_SEEDING) -> Match:
        """Replay a game record; raises :class:`PositionError` or an illegal-move error.

        ``seeding`` is the scheme of a record that names none (written before ``seeding``
        existed): the next hand of the loaded match is dealt as the code that wrote it would.
        """
        if not isinstance(record, Mapping):
            raise PositionError("a game record must be a JSON object")
        rules = parse_rules(record.get("rules", "classic"))
        players = record.get("players")
        if players is not None and (not isinstance(players, list) or not all(isinstance(p, str) for p in players)):
            raise PositionError("players must be a list of names")
        scores = record.get("scores")
        if scores is not None:
            scores = parse_scores(scores, rules.sides)
        hands = record.get("hands")
        if not isinstance(hands, list) or not hands:
            raise PositionError("a game record needs a list of hands")
        first = hands[0]
        if not isinstance(first, Mapping):
            raise PositionError("each hand of a record is an object")
        seed = record.get("seed")
        seeding = record.get("seeding", seeding)
        if seeding not in SEEDINGS:
            raise PositionError(f"unknown seeding {seeding!r} (known: {', '.join(SEEDINGS)})")
        dealer = parse_seat(first.get("dealer", 0), "the first hand's dealer", rules.players)
        match = cls(rules, players, seed=seed if isinstance(seed, int) else None,
                    dealer=dealer, scores=scores, deal=False, seeding=seeding)
        for number, hand in enumerate(hands):
            if not isinstance(hand, Mapping):
                raise PositionError(f"hand {number} of the record is not an object")
            deck_text = hand.get("deck")
            if deck_text is None:
                raise PositionError(f"hand {number} of the record has no deck")
            if number and hand.get("dealer") not in (None, (match.dealer + 1) % rules.players):
                expected = (match.dealer + 1) % rules.players
                raise PositionError(f"hand {number}: the deal passes left, to seat {expected}")
            if match.is_over:
                raise PositionError(f"hand {number}: the match was already won")
            if not isinstance(deck_text, list):
                raise PositionError(f"hand {number} of the record: the deck is a list of cards")
            if match.seed is not None and match.seeding == OLD_SEEDING:
                match._shuffle()  # keep the seeded shuffles in step, so the next hand deals as it would have
            match.new_hand(deck_from_text(deck_text))
            moves = hand.get("moves", [])
            if not isinstance(moves, list):
                raise PositionError(f"hand {number}: moves must be a list of move lines")
            for index, text in enumerate(moves):
                if not isinstance(text, str):
                    raise PositionError(f"hand {number}, move {index}: {text!r} is not a move line")
                try:
                    match.play(text)
                except CanastaError as exc:
                    raise PositionError(f"hand {number}, move {index} ({text!r}): {exc}") from None
        return match
