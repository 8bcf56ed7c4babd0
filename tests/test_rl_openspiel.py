"""Canasta as an OpenSpiel Python game passes OpenSpiel's random-simulation checks."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="the OpenSpiel game needs numpy: pip install 'canasta[openspiel]'")
pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'canasta[openspiel]'")

import canasta.rl.openspiel  # noqa: E402, F401 (registers the game)
from canasta.rl.actions import NUM_ACTIONS  # noqa: E402


@pytest.mark.parametrize("params", [
    {}, {"preset": "two-player"}, {"preset": "three-player", "options": "wild_card_melds:true"},
    {"preset": "five-player", "dealer": 2},
])
def test_random_sim_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game("canasta", params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_game_parameters_and_sizes() -> None:
    game = pyspiel.load_game("canasta(preset=two-player,options=target:7500)")
    assert game.num_players() == 2
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == 53
    assert str(game) == "canasta(dealer=0,options=target:7500,preset=two-player)"
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("canasta", {"colour": "blue"})


def play(state: object, rng: random.Random, check: object) -> object:
    s = state
    while not s.is_terminal():  # type: ignore[attr-defined]
        if s.is_chance_node():  # type: ignore[attr-defined]
            outcomes = s.chance_outcomes()  # type: ignore[attr-defined]
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])  # type: ignore[attr-defined]
        else:
            check(s)  # type: ignore[operator]
            legal = s.legal_actions()  # type: ignore[attr-defined]
            s.apply_action(legal[rng.randrange(len(legal))])  # type: ignore[attr-defined]
    return s


def test_resample_from_infostate_keeps_what_the_player_knows() -> None:
    game = pyspiel.load_game("canasta")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen = {"n": 0}

    def check(state: object) -> None:
        seen["n"] += 1
        if seen["n"] % 5:
            return
        for player in range(4):
            sample = state.resample_from_infostate(player, sampler)  # type: ignore[attr-defined]
            assert sample.information_state_string(player) == state.information_state_string(player)  # type: ignore[attr-defined]
            assert sample.observation_tensor(player) == state.observation_tensor(player)  # type: ignore[attr-defined]
            if player == state.current_player():  # type: ignore[attr-defined]
                assert sample.legal_actions() == state.legal_actions()  # type: ignore[attr-defined]

    final = play(game.new_initial_state(), random.Random(3), check)
    assert seen["n"] > 20
    returns = final.returns()  # type: ignore[attr-defined]
    assert returns[0] == returns[2] == -returns[1] == -returns[3]


def test_the_stock_is_revealed_only_when_drawn() -> None:
    game = pyspiel.load_game("canasta")
    state = game.new_initial_state()
    rng = random.Random(1)
    chance = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        chance += 1
    assert 45 <= chance < 60  # 44 cards dealt, the upcard(s), red-three replacements
    state.apply_action(state.legal_actions()[0])  # draw
    assert state.is_chance_node()  # the drawn card is decided now
    assert state.information_state_string(0) != state.information_state_string(1)
