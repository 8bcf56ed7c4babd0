"""Canasta as an OpenSpiel Python game passes OpenSpiel's random-simulation checks."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the OpenSpiel game needs numpy: pip install 'canasta[openspiel]'")
pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'canasta[openspiel]'")

import numpy as np  # noqa: E402

import canasta.rl.openspiel  # noqa: E402, F401 (registers the game)
from canasta.rl.actions import COMMIT, NUM_ACTIONS, PILE_ACTION, STAGE_BASE, actions_for_spec  # noqa: E402
from canasta.rl.openspiel import GOT, RED_THREE_LAID, max_game_length  # noqa: E402
from canasta.rules import Rules  # noqa: E402


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
    assert str(game) == "canasta(dealer=0,options=target:7500,preset=two-player,scores=)"
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("canasta", {"colour": "blue"})


def play(state: Any, rng: random.Random, check: Callable[[Any], None] | None = None,
         player_steps: int | None = None) -> tuple[Any, int]:
    """Random play (chance by its odds) to the end or ``player_steps``; the state and its actions taken."""
    length = done = 0
    while not state.is_terminal() and (player_steps is None or done < player_steps):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            if check is not None:
                check(state)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
        length += 1
    return state, length


def test_resample_from_infostate_keeps_what_the_player_knows() -> None:
    game = pyspiel.load_game("canasta")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen = {"n": 0}

    def check(state: Any) -> None:
        seen["n"] += 1
        if seen["n"] % 5:
            return
        for player in range(4):
            sample = state.resample_from_infostate(player, sampler)
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.observation_tensor(player) == state.observation_tensor(player)
            assert (sample.information_state_tensor(player)
                    == state.information_state_tensor(player))
            if player == state.current_player():
                assert sample.legal_actions() == state.legal_actions()

    final, _ = play(game.new_initial_state(), random.Random(3), check)
    assert seen["n"] > 20
    returns = final.returns()
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


def decode_record(game: Any, tensor: list[float]) -> list[tuple[int, int, int]]:
    """The record rows of an information-state tensor (read from the tensor alone)."""
    rules = Rules.from_preset(game.get_parameters()["preset"])
    capacity = max_game_length(rules)
    t = np.array(tensor)
    rows = t[len(t) - 3 * capacity:].reshape(capacity, 3).astype(int)
    length = int(t[len(t) - 3 * capacity - 1])
    assert not rows[length:].any()
    return [(int(a), int(b), int(c)) for a, b, c in rows[:length]]


@pytest.mark.parametrize("preset", ["classic", "two-player", "three-player"])
def test_information_state_tensor_has_perfect_recall(preset: str) -> None:
    """Each player's own actions in order, and every other move as its canonical actions, from the tensor."""
    game = pyspiel.load_game("canasta", {"preset": preset})
    players = game.num_players()
    expected: list[list[tuple[int, int]]] = [[] for _ in range(players)]  # (relative seat + 1, code)
    rng = random.Random(5)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        canonical = actions_for_spec(state.turn.spec_for(COMMIT)) if action == COMMIT else [action]
        for p in range(players):
            relative = (seat - p) % players + 1
            if p == seat:
                expected[p].append((relative, action + 1))
            elif action < STAGE_BASE and action != PILE_ACTION:  # staging is seen as the move
                expected[p].extend((relative, a + 1) for a in canonical)
        state.apply_action(action)
        steps += 1
        if steps % 7 == 0 or state.is_terminal():
            for p in range(players):
                record = decode_record(game, state.information_state_tensor(p))
                assert [(r, c) for r, c, _ in record if c <= NUM_ACTIONS] == expected[p]
                # cards drawn appear in their player's record only
                assert all(r == 1 for r, c, _ in record if c == GOT)
                assert all(c in (GOT, RED_THREE_LAID) or c <= NUM_ACTIONS for _, c, _ in record)
    assert steps > 50
    assert steps <= game.max_game_length()


def test_public_record_has_no_private_entries() -> None:
    game = pyspiel.load_game("canasta")
    public = pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE)
    from open_spiel.python.observation import make_observation

    observation = make_observation(game, public)
    state, _ = play(game.new_initial_state(), random.Random(8), player_steps=120)
    tensors = []
    for player in range(4):
        observation.set_from(state, player)
        tensors.append(observation.tensor.copy())
        record = decode_record(game, list(observation.tensor))
        assert record and all(code not in (GOT,) for _, code, _ in record)
        assert not observation.dict["dealt"].any() and not observation.dict["hand"].any()
    # the same public moves for everyone, only the seats are relative
    lengths = {int(t[-3 * game.max_game_length() - 1]) for t in tensors}
    assert len(lengths) == 1


def test_max_game_length_bounds_every_hand() -> None:
    for preset in ("classic", "two-player", "six-player"):
        game = pyspiel.load_game("canasta", {"preset": preset})
        rules = Rules.from_preset(preset)
        assert game.max_game_length() == 13 * rules.deck_size + 5
        for seed in range(3):
            _, length = play(game.new_initial_state(), random.Random(seed))
            assert length <= game.max_game_length()


def test_scores_parameter_sets_the_minimums() -> None:
    game = pyspiel.load_game("canasta", {"preset": "three-player", "scores": "1500;3000;-100"})
    assert "scores=1500;3000;-100" in str(game)
    assert str(pyspiel.load_game(str(game))) == str(game)
    state, _ = play(game.new_initial_state(), random.Random(2), player_steps=1)
    assert state.engine.scores == [1500, 3000, -100]
    assert [state.engine.minimum(s) for s in range(3)] == [90, 120, 15]
    for bad in ("1500;x;0", "1500;3000"):
        with pytest.raises((ValueError, pyspiel.SpielError)):
            pyspiel.load_game("canasta", {"preset": "three-player", "scores": bad})
