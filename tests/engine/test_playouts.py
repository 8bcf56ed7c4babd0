"""Seeded random playouts that check every invariant at every step (STYLE.md, "Tests that the anchors rely on")."""

from __future__ import annotations

import random
from typing import Any

import pytest

from canasta import GameState, Move, Rules, from_position, to_position
from canasta.legal import materialize
from canasta.rules import PRESETS
from canasta.testing.soak import check_result, check_step, fingerprint, soak

MAX_DECISIONS_PER_HAND = 3000


def play_hand(state: GameState, rng: random.Random, deep: bool = True) -> int:
    """Play uniform-random legal moves to the end of the hand, checking at every step."""
    decisions = 0
    while not state.is_over:
        check_step(state, rng)
        moves = state.legal_moves()
        move = moves[rng.randrange(len(moves))]
        assert Move.parse(str(move)) == move
        if deep:
            twin = state.copy()
            assert fingerprint(twin) == fingerprint(state)
            twin.push(move)
            assert fingerprint(twin) != fingerprint(state)  # a copy is independent
        state.play(move)
        decisions += 1
        assert decisions < MAX_DECISIONS_PER_HAND, "the hand does not end"
    check_step(state, rng)
    check_result(state)
    result = state.result
    assert result is not None
    assert state.match_scores() == [s + t for s, t in zip(state.scores, result.totals)]
    if result.went_out is not None:
        assert state.hand(result.went_out) == []
        assert result.sides[result.went_out % state.sides].going_out in (100, 200)
    assert sum(s.going_out for s in result.sides) in (0, 100, 200)
    assert state.card_count() == state.rules.deck_size
    return decisions


@pytest.mark.parametrize("seed", range(12))
def test_classic_random_playouts_keep_every_invariant(seed: int) -> None:
    rng = random.Random(seed)
    rules = Rules.from_preset("classic")
    for number in range(10):
        scores = [rng.choice([-200, 0, 1600, 3100]) for _ in range(2)]
        state = GameState.deal(rules, dealer=number % 4, scores=scores, rng=rng)
        play_hand(state, rng, deep=number % 2 == 0)


@pytest.mark.parametrize(
    "options",
    [
        {"red_threes_at_deal": True, "black_three_upcard": "cover"},
        {"black_three_freezes": True, "two_naturals_to_take": True},
        {"pile_always_frozen": True, "concealed_bonus": False},
        {"no_pile_for_finished_canasta": True, "wilds_at_most_naturals": True, "ask_partner": False},
        {"canastas_to_go_out": 2, "draw": 2},
    ],
)
def test_classic_playouts_under_options(options: dict[str, Any]) -> None:
    rules = Rules.from_preset("classic", **options)
    rng = random.Random(repr(sorted(options.items())))
    for number in range(3):
        play_hand(GameState.deal(rules, dealer=number % 4, rng=rng), rng, deep=False)


@pytest.mark.parametrize("preset", sorted(p for p in PRESETS if p != "classic"))
def test_every_other_preset_plays_out(preset: str) -> None:
    rules = Rules.from_preset(preset)
    rng = random.Random(17)
    for number in range(3):
        state = GameState.deal(rules, dealer=number % rules.players, rng=rng)
        assert state.card_count() == rules.deck_size
        play_hand(state, rng)


def test_positions_at_every_turn_start_replay_the_rest_of_the_hand() -> None:
    rng = random.Random(99)
    state = GameState.deal("classic", dealer=1, rng=rng)
    while not state.is_over:
        if state.phase == "draw":
            again = from_position(to_position(state))
            assert to_position(again) == to_position(state)
            assert [str(m) for m in again.legal_moves()] == [str(m) for m in state.legal_moves()]
        specs = state.legal_moves().specs
        state.push(materialize(state, specs[rng.randrange(len(specs))]))


@pytest.mark.parametrize("seed", [1, 2])
def test_soak_finds_no_failure(seed: int) -> None:
    report = soak(2000, seed)
    assert report["failures"] == 0, report["first_failure"]
    assert report["decisions"] >= 2000
    assert report["hands"] >= 1


def test_soak_of_another_preset_finds_no_failure() -> None:
    report = soak(800, 5, "six-player-two-teams")
    assert report["failures"] == 0, report["first_failure"]
    assert report["preset"] == "six-player-two-teams"


# A classic hand from a seeded playout where seat 1, to move, takes a 59-card pile (an earlier engine
# spent minutes listing the legal moves of the 60-card hand that follows).
BIG_PILE: dict[str, Any] = {
    "rules": "classic", "dealer": 3, "turn": 1, "scores": [0, 0],
    "hands": [["AC", "TD", "8H", "5H", "2C"], ["KS", "9H", "5H", "5C"], ["JH"],
              ["AS", "AH", "KC", "QS", "QC", "TC", "9C", "8D", "7C", "4S", "4D"]],
    "stock": ["KH"],
    "pile": ["2S", "TH", "AD", "JK", "JS", "TC", "KD", "KD", "2D", "8C", "QC", "AC", "2C", "5S", "JS", "QH", "5D",
             "JD", "JK", "6D", "7S", "JC", "4H", "JD", "AH", "AS", "JK", "3S", "AD", "8S", "7S", "QD", "8D", "5D",
             "3C", "TS", "TS", "4S", "6H", "3S", "6D", "9D", "4C", "7H", "TD", "2S", "4H", "3C", "QH", "TH", "QD",
             "4D", "6S", "9H", "6C", "QS", "4C", "5C", "5S"],
    "melds": [{"K": ["KS", "KH", "JK", "KC"], "J": ["JH", "JC", "2H", "2H", "2D"], "9": ["9S", "9S", "9C", "9D"],
               "6": ["6S", "6H", "6C"]},
              {"8": ["8S", "8H", "8C"], "7": ["7H", "7D", "7D", "7C"]}],
    "red_threes": [["3H", "3D"], ["3H", "3D"]],
    "melded": [True, True, True, False],
}


def test_legal_moves_of_a_huge_hand_are_listed_and_legal() -> None:
    """A 60-card hand after taking a 59-card pile (once a case of exponential search)."""
    state = from_position(BIG_PILE)
    assert state.card_count() == 108
    state.play("pile 5H 5C")
    assert len(state.hand(1)) == 60
    moves = list(state.legal_moves())
    assert moves
    for move in moves:
        assert state.is_legal(move)
    play_hand(state, random.Random(3), deep=False)
    assert state.is_over
