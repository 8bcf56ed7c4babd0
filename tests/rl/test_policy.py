"""The numpy policy of the examples and self-play: masked, trainable, its weights portable."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the policy needs numpy: pip install 'canasta[rl]'")

from canasta.rl.policy import MaskedMLP  # noqa: E402


def test_an_update_moves_the_policy_towards_the_rewarded_action() -> None:
    rng = np.random.default_rng(0)
    policy = MaskedMLP(4, 3, hidden=8, seed=0)
    x = rng.normal(size=(16, 4)).astype(np.float32)
    masks = np.ones((16, 3), np.int8)
    masks[:, 2] = 0  # action 2 is never allowed
    before, _ = policy.probs(x, masks)
    for _ in range(30):
        policy.update(x, masks, np.zeros(16, np.int64), np.ones(16, np.float32), 1e-2)  # action 0 rewarded
    after, _ = policy.probs(x, masks)
    assert after[:, 0].mean() > before[:, 0].mean() + 0.2
    assert not after[:, 2].any()
    assert np.allclose(after.sum(axis=1), 1.0)


def test_sampled_actions_are_allowed_ones() -> None:
    policy = MaskedMLP(6, hidden=4, seed=1)
    rng = np.random.default_rng(1)
    for _ in range(200):
        mask = (rng.random(59) < 0.1).astype(np.int8)
        if not mask.any():
            continue
        assert mask[policy.act(rng.normal(size=6).astype(np.float32), mask, rng)]


def test_weights_round_trip_and_shapes_are_checked() -> None:
    policy = MaskedMLP(5, hidden=3, seed=2)
    policy.update(np.ones((2, 5), np.float32), np.ones((2, 59), np.int8), np.array([1, 2]),
                  np.array([1.0, -1.0], np.float32), 0.1)
    copy = MaskedMLP.from_weights(policy.weights())
    x, mask = np.ones((1, 5), np.float32), np.ones((1, 59), np.int8)
    assert np.array_equal(copy.probs(x, mask)[0], policy.probs(x, mask)[0])
    weights = policy.weights()
    weights["w1"][0, 0] += 1  # a copy: the policy is not changed
    assert not np.array_equal(weights["w1"], policy.params["w1"])
    with pytest.raises(ValueError, match="shape"):
        policy.load({"w1": np.zeros((2, 2), np.float32)})
