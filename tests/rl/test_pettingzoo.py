"""The PettingZoo AEC environment ``canasta_v0`` passes PettingZoo's own checks."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the environments need numpy: pip install 'canasta[rl]'")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'canasta[rl]'")

import numpy as np
from pettingzoo.test import api_test, seed_test

from canasta.rl import pettingzoo as canasta_pz
from canasta.rl.actions import COMMIT, NUM_ACTIONS, string_to_action

# api_test prefers a bare array observation; {"observation", "action_mask"} is PettingZoo's
# own convention for masked games (its chess and go environments draw the same warnings).
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


@pytest.mark.parametrize("factory", [canasta_pz.env, canasta_pz.raw_env])
def test_api_test(factory: object) -> None:
    api_test(factory(), num_cycles=300)  # type: ignore[operator]


def test_api_test_of_other_presets() -> None:
    api_test(canasta_pz.env(preset="two-player"), num_cycles=200)
    api_test(canasta_pz.env(preset="six-player-two-teams", options={"wild_card_melds": True}), num_cycles=200)


def test_seed_test() -> None:
    seed_test(canasta_pz.env, num_cycles=300)


def play_hand(env: object, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    e = env  # type: ignore[assignment]
    e.reset(seed=seed)  # type: ignore[attr-defined]
    totals = {a: 0.0 for a in e.possible_agents}  # type: ignore[attr-defined]
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = e.last()  # type: ignore[attr-defined]
        totals[agent] += reward
        if term or trunc:
            e.step(None)  # type: ignore[attr-defined]
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,) and mask.any()
        for other in e.agents:  # type: ignore[attr-defined]
            if other != agent:
                assert not e.observe(other)["action_mask"].any()  # type: ignore[attr-defined]
        e.step(int(rng.choice(np.flatnonzero(mask))))  # type: ignore[attr-defined]
    return totals


def test_whole_hands_end_with_each_side_margin_as_reward() -> None:
    env = canasta_pz.raw_env()
    for seed in range(3):
        totals = play_hand(env, seed)
        state = env.table.state
        assert state.is_over and state.result is not None
        t = state.result.totals
        assert totals["player_0"] == totals["player_2"] == pytest.approx((t[0] - t[1]) / 1000)
        assert totals["player_1"] == pytest.approx(-totals["player_0"])


def test_an_illegal_action_raises_in_the_raw_env_and_loses_the_hand_when_wrapped() -> None:
    raw = canasta_pz.raw_env()
    raw.reset(seed=1)
    with pytest.raises(ValueError, match="not allowed"):
        raw.step(COMMIT)
    history = raw.table.state.history[:]
    for bad in ("draw", None, [0]):
        with pytest.raises(ValueError, match="an action is a whole number from 0 to 58"):
            raw.step(bad)
    assert raw.table.state.history == history
    wrapped = canasta_pz.env()
    wrapped.reset(seed=1)
    agent = wrapped.agent_selection
    wrapped.step(string_to_action("discard A"))  # PettingZoo logs "Illegal move made"
    assert wrapped.rewards[agent] == -1
    assert all(wrapped.terminations.values())


def test_render_shows_the_public_table() -> None:
    env = canasta_pz.raw_env(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and text.startswith("draw seat")


def test_the_readme_example_plays_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's research example runs as written and prints each agent's final reward."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("## Research environment"):]
    code = section[section.index("```python") + len("```python"):]
    code = code[:code.index("```")]
    exec(compile(code, "README.md", "exec"), {})
    lines = capsys.readouterr().out.split("\n")
    rewards = dict(line.split() for line in lines if line)
    assert sorted(rewards) == ["player_0", "player_1", "player_2", "player_3"]
    assert float(rewards["player_0"]) == float(rewards["player_2"]) == -float(rewards["player_1"])


def test_match_scores_set_the_first_meld_minimums() -> None:
    env = canasta_pz.raw_env(scores=[1500, 3000])
    env.reset(seed=2)
    enc = env.table.encoder
    seat = env.table.to_act
    obs = env.observe(env.agent_selection)["observation"]
    mine, theirs = (0.09, 0.12) if seat % 2 == 0 else (0.12, 0.09)  # relative: own side first
    assert obs[enc.slices["minimums"]].tolist() == pytest.approx([mine, theirs])
    assert obs[enc.slices["scores"]].tolist() == pytest.approx([1.5, 3.0] if seat % 2 == 0 else [3.0, 1.5])
    env.reset(options={"scores": [-200, 0], "dealer": 3})  # for this hand only
    assert env.table.state.scores == [-200, 0] and env.table.state.dealer == 3
    assert [env.table.state.minimum(s) for s in (0, 1)] == [15, 50]
    env.reset()
    assert env.table.state.scores == [1500, 3000] and env.table.state.dealer == 0
    for bad in ({"scores": [1, 2, 3]}, {"scores": "1500"}, {"dealer": 4}, {"dealer": "0"}):
        with pytest.raises(ValueError, match=r"scores|dealer"):
            env.reset(options=bad)
    assert env.table.state.scores == [1500, 3000]  # a refused reset changed nothing
    with pytest.raises(ValueError, match="one whole number per side"):
        canasta_pz.raw_env(scores=[True, 0])


def test_the_wrapped_env_reads_the_state_of_the_raw_one_and_keeps_pettingzoos_order() -> None:
    wrapped = canasta_pz.env()
    for name in ("agent_selection", "rewards", "terminations", "agents"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(wrapped, name)
    wrapped.reset(seed=3)
    raw = wrapped.unwrapped
    for _ in range(40):
        obs, _, terminated, truncated, _ = wrapped.last()
        if terminated or truncated:
            break
        wrapped.step(int(np.flatnonzero(obs["action_mask"])[0]))
        for name in ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos",
                     "_cumulative_rewards"):
            assert getattr(wrapped, name) is getattr(raw, name)
