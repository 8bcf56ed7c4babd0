"""The single-agent Gymnasium environment passes Gymnasium's own checker and plays whole hands."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the environments need numpy: pip install 'canasta[rl]'")
pytest.importorskip("gymnasium", reason="Gymnasium is not installed: pip install 'canasta[rl]'")

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

from canasta.rl.actions import COMMIT
from canasta.rl.gymnasium import ENV_ID, CanastaEnv


@pytest.mark.parametrize(("preset", "opponents"), [("classic", "basic"), ("two-player", "expert"),
                                                   ("three-player", "random")])
def test_check_env(preset: str, opponents: str) -> None:
    check_env(gym.make(ENV_ID, preset=preset, opponents=opponents, render_mode="ansi").unwrapped,
              skip_render_check=False)


def test_registered_with_gymnasium() -> None:
    env = gym.make(ENV_ID, opponents="random")
    obs, info = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    assert np.array_equal(info["action_mask"], obs["action_mask"])


def test_whole_hands_against_the_basic_bot() -> None:
    env = CanastaEnv(opponents=["basic", "basic", "random"])
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    hands = 0
    while hands < 4:
        assert env.observation_space.contains(obs)
        assert env.table.state.to_act == 0
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, _truncated, info = env.step(action)
        if terminated:
            t = info["totals"]
            assert reward == pytest.approx((t[0] - t[1]) / 1000)
            hands += 1
            obs, _ = env.reset()
        else:
            assert reward == 0.0


def test_a_refused_action_changes_nothing_and_costs_a_little() -> None:
    env = CanastaEnv(opponents="random")
    obs, _ = env.reset(seed=5)
    before = env.table.state.copy().history
    obs2, reward, terminated, _, info = env.step(COMMIT)
    assert info["illegal"] and reward == -0.01 and not terminated
    assert env.table.state.history == before
    assert np.array_equal(obs["observation"], obs2["observation"])
    with pytest.raises(ValueError, match="an action is a whole number"):
        env.step("draw")
    assert env.table.state.history == before


def test_unknown_opponents_are_named() -> None:
    with pytest.raises(ValueError, match="unknown computer player"):
        CanastaEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="one per other seat"):
        CanastaEnv(opponents=["basic"])


@pytest.mark.parametrize(("preset", "seat"), [("classic", 1), ("classic", 3), ("two-player", 1)])
def test_any_seat_can_learn(preset: str, seat: int) -> None:
    env = CanastaEnv(preset=preset, seat=seat, opponents="random")
    rng = np.random.default_rng(seat)
    obs, _ = env.reset(seed=seat)
    terminated = False
    steps = 0
    while not terminated:
        assert env.table.state.to_act == seat
        obs, reward, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    side = seat % env.rules.sides
    t = info["totals"]
    assert reward == pytest.approx((t[side] - t[1 - side]) / 1000)
    assert env.render() is not None


def test_vector_environments_play_hands_with_autoreset() -> None:
    """``gymnasium.make_vec`` runs several tables at once; a finished hand's next step deals a new one."""
    envs = gym.make_vec(ENV_ID, num_envs=3, vectorization_mode="sync", opponents="random")
    try:
        obs, _ = envs.reset(seed=4)
        assert obs["observation"].shape == (3, 211) and obs["action_mask"].shape == (3, 59)
        rng = np.random.default_rng(4)
        finished = np.zeros(3, bool)  # which tables ended on the step before
        hands = 0
        for _ in range(1500):
            actions = []
            for table, mask in enumerate(obs["action_mask"]):
                allowed = np.flatnonzero(mask)
                assert finished[table] == (len(allowed) == 0)  # only a finished hand has no action
                actions.append(int(rng.choice(allowed)) if len(allowed) else 0)
            obs, rewards, terminated, truncated, _ = envs.step(np.array(actions))
            assert not truncated.any()
            assert (rewards[~terminated] == 0).all()
            hands += int(terminated.sum())
            finished = terminated
        assert hands >= 6
    finally:
        envs.close()


def test_match_scores_and_dealer_by_reset_options() -> None:
    env = CanastaEnv(opponents="random", scores=[3000, 0])
    env.reset(seed=1)
    assert env.table.state.scores == [3000, 0] and env.table.state.minimum(0) == 120
    env.reset(options={"scores": [0, 1500], "dealer": 2})
    assert env.table.state.scores == [0, 1500] and env.table.state.dealer == 2
    with pytest.raises(ValueError, match="scores are one whole number per side"):
        env.reset(options={"scores": [0]})
    with pytest.raises(ValueError, match="dealer"):
        CanastaEnv(dealer=7)
