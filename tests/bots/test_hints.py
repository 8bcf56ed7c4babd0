"""Hints from the search (bots/hints.py): a legal move from the seat's view alone, and a sentence that says why."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

import pytest

from canasta.bots import make_bot
from canasta.bots.expert import ExpertBot
from canasta.bots.hints import HINT_BOT, HINT_BOT_ENV, doing, hint, hint_bot, hint_sentence, move_words
from canasta.moves import Move
from canasta.resample import resample
from canasta.text.labels import card_label
from canasta.views import View

from .test_bots import random_states

BUDGET = "search:16"
"""A fixed rollout budget: the same hint every time (a time budget depends on the machine)."""


def test_the_hint_comes_from_the_search_unless_the_environment_names_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(HINT_BOT_ENV, raising=False)
    assert hint_bot() == HINT_BOT and HINT_BOT.startswith("search:") and HINT_BOT.endswith("ms")
    assert make_bot(HINT_BOT).budget.seconds <= 0.3  # type: ignore[attr-defined]
    monkeypatch.setenv(HINT_BOT_ENV, "search:16")
    assert hint_bot() == "search:16"
    monkeypatch.setenv(HINT_BOT_ENV, "wizard")  # a name no player answers to: the default
    assert hint_bot() == HINT_BOT


def test_search_hints_are_listed_moves_the_same_each_time_from_the_view_alone() -> None:
    """Two states that look the same from the seat (hidden cards dealt anew) get the same hint."""
    states = random_states("classic", seed=17, hands=1, every=5)
    assert len(states) > 8
    for state in states[::2]:
        seat = state.to_act
        view = state.view(seat)
        moves = list(state.legal_moves())
        move, why = hint(view, moves, bot=BUDGET, rng=random.Random(4))
        assert move in moves and why.endswith(".") and why[0].isupper()
        other = resample(view, random.Random(8))
        assert other.view(seat) == view
        assert hint(other.view(seat), list(other.legal_moves()), bot=BUDGET, rng=random.Random(4)) == (move, why)


class Overrider:
    """A searching player that picks the expert's second choice and says what its rollouts found."""

    name = "overrider"
    slow = True

    def __init__(self, rng: random.Random) -> None:
        self.last: list[tuple[Move, float, int]] = []

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        ranked = ExpertBot(random.Random(0)).ranked(view, moves)
        self.last = [(ranked[0][0], 10.0, 40), (ranked[1][0], 45.0, 40)]
        return ranked[1][0]


def discard_position() -> tuple[View, list[Move]]:
    for state in random_states("classic", seed=5, hands=1):
        moves = list(state.legal_moves())
        if sum(m.action == "discard" for m in moves) >= 3 and all(m.action == "discard" for m in moves):
            return state.view(state.to_act), moves
    raise AssertionError("no discard with three choices")


def test_an_override_says_what_the_search_found(monkeypatch: pytest.MonkeyPatch) -> None:
    view, moves = discard_position()
    expert_move = ExpertBot(random.Random(0)).choose(view, moves)
    monkeypatch.setattr("canasta.bots.hints.make_bot", lambda name, rng: Overrider(rng))
    move, why = hint(view, moves, bot="overrider")
    assert move != expert_move and move.action == "discard"
    assert move.card is not None and why.startswith(f"Discard {card_label(move.card)}:")  # the move played ...
    assert "least risky" not in why and "every other card is riskier" not in why  # ... not claiming it is best
    assert why.endswith(f"; in 40 simulated deals of the hidden cards it scored 35 points more than "
                        f"{doing(expert_move)}.")


def test_when_the_search_agrees_the_expert_reason_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    view, moves = discard_position()
    expert_move, expert_why = hint(view, moves, bot="expert")

    class Agreeing(Overrider):
        def choose(self, view: View, moves: Sequence[Move]) -> Move:
            super().choose(view, moves)
            return self.last[0][0]

    monkeypatch.setattr("canasta.bots.hints.make_bot", lambda name, rng: Agreeing(rng))
    move, why = hint(view, moves, bot="agreeing")
    assert move == expert_move
    assert why == expert_why[:-1] + "; 40 simulated deals of the hidden cards found nothing clearly better."


def test_a_failing_search_falls_back_to_the_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    view, moves = discard_position()

    class Failing(Overrider):
        def choose(self, view: View, moves: Sequence[Move]) -> Move:
            raise ValueError("no deal of the hidden cards fits")

    monkeypatch.setattr("canasta.bots.hints.make_bot", lambda name, rng: Failing(rng))
    assert hint(view, moves, bot="failing") == hint(view, moves, bot="expert")


def test_moves_in_words() -> None:
    assert [doing(Move.parse(text)) for text in ("draw", "pile 9S 9H", "discard 7C", "ask", "yes", "no")] == [
        "drawing from the stock", "taking the pile", "discarding 7♣", "asking your partner", "saying yes",
        "saying no"]


@pytest.mark.parametrize("preset", ["classic", "two-player", "six-player"])
def test_every_hint_is_one_plain_sentence_naming_its_move_in_words(preset: str) -> None:
    """What every front end shows: the move in words (cards as on the table), a colon, the reason; one
    sentence, no card in notation, no restatement of the move, no bare risk figure as the reason."""
    notation = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b")
    seen = 0
    for state in random_states(preset, seed=3, hands=2):
        moves = list(state.legal_moves())
        if len(moves) < 2:
            continue
        move, reason = hint(state.view(state.to_act), moves, bot="expert")
        said = hint_sentence(move, reason)
        assert said.startswith(move_words(move) + ": ") and said.endswith(".") and said.count(". ") == 0, said
        body = said[len(move_words(move)) + 2:]
        assert not notation.search(body.replace("JK", "")), said
        assert not body.lower().startswith(move.action), said  # "Discard 7♦: discard 7D ..." said twice
        assert not re.match(r"^(the next player may|a chance)", body), said
        seen += 1
    assert seen > 20
