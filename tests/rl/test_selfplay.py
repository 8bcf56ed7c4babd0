"""Self-play rollouts: consistent rows, rewards per side, the same arrays here and on Ray."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="self-play needs numpy: pip install 'canasta[rl]'")
pytest.importorskip("pettingzoo", reason="self-play needs PettingZoo: pip install 'canasta[rl]'")

from canasta.rl.actions import NUM_ACTIONS  # noqa: E402
from canasta.rl.observation import Encoder  # noqa: E402
from canasta.rl.policy import MaskedMLP  # noqa: E402
from canasta.rl.selfplay import Rollout, chunk_sizes, collect, play_hands  # noqa: E402

WEIGHTS = MaskedMLP(inputs=211, seed=0).weights()


def equal(a: Rollout, b: Rollout) -> bool:
    return a.hands == b.hands and all(
        np.array_equal(getattr(a, name), getattr(b, name))
        for name in ("observations", "masks", "actions", "seats", "hand_ids", "returns"))


@pytest.mark.parametrize(("preset", "tables"), [("classic", 4), ("three-player", 1), ("two-player", 16)])
def test_rows_are_decisions_and_returns_are_each_sides_hand(preset: str, tables: int) -> None:
    encoder = Encoder(preset)
    weights = MaskedMLP(inputs=encoder.size, seed=1).weights()
    rollout = play_hands(weights, hands=5, seed=3, preset=preset, tables=tables)
    steps = rollout.steps
    assert rollout.observations.shape == (steps, encoder.size) and rollout.masks.shape == (steps, NUM_ACTIONS)
    assert len(rollout.seats) == len(rollout.hand_ids) == len(rollout.returns) == steps
    assert all(rollout.masks[i, a] for i, a in enumerate(rollout.actions))  # every action was allowed
    assert list(np.unique(rollout.hand_ids)) == [0, 1, 2, 3, 4]
    assert (np.diff(rollout.hand_ids) >= 0).all()  # hand by hand
    sides = encoder.sides
    for hand in range(5):
        rows = rollout.hand_ids == hand
        by_side: dict[int, set[float]] = {}
        for seat, ret in zip(rollout.seats[rows], rollout.returns[rows]):
            by_side.setdefault(int(seat) % sides, set()).add(float(ret))
        assert all(len(r) == 1 for r in by_side.values())  # partners share their side's reward
        if sides == 2 and len(by_side) == 2:
            assert sum(r.pop() for r in by_side.values()) == pytest.approx(0.0, abs=1e-6)
        # the acting seat's own hand is in its observation (its hand piece is never empty while it acts)
        assert (rollout.observations[rows][:, encoder.slices["hand"]].sum(axis=1) > 0).all()


def test_the_same_seed_gives_the_same_rollout() -> None:
    assert equal(play_hands(WEIGHTS, 3, seed=9, tables=2), play_hands(WEIGHTS, 3, seed=9, tables=2))
    assert not equal(play_hands(WEIGHTS, 3, seed=9, tables=2), play_hands(WEIGHTS, 3, seed=10, tables=2))


def test_collect_splits_into_chunks_and_joins_them_in_order() -> None:
    assert chunk_sizes(10, 3) == [4, 3, 3] and chunk_sizes(2, 5) == [1, 1]
    rollout = collect(WEIGHTS, hands=5, seed=2, workers=2)
    assert rollout.hands == 5 and list(np.unique(rollout.hand_ids)) == [0, 1, 2, 3, 4]
    assert (np.diff(rollout.hand_ids) >= 0).all()
    assert equal(rollout, collect(WEIGHTS, hands=5, seed=2, workers=2))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"hands": 0}, "at least 1"), ({"workers": 0}, "at least 1"), ({"backend": "spark"}, "backend is one of"),
    ({"scores": [1, 2, 3]}, "one whole number per side"), ({"preset": "bogus"}, "unknown preset"),
])
def test_bad_settings_fail_at_once(kwargs: dict[str, object], message: str) -> None:
    settings: dict[str, object] = {"hands": 2, "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        collect(WEIGHTS, **settings)  # type: ignore[arg-type]


def test_ray_gives_the_same_rollout_as_local() -> None:
    ray = pytest.importorskip("ray", reason="the ray backend needs: pip install 'canasta[ray]'")
    try:
        remote = collect(WEIGHTS, hands=4, seed=5, workers=2, backend="ray")
        assert ray.is_initialized()  # left running for the next call
        assert equal(remote, collect(WEIGHTS, hands=4, seed=5, workers=2))
    finally:
        ray.shutdown()


def test_the_documented_loop_runs() -> None:
    """docs/rl.md's self-play snippet, on fewer hands and in this process."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    section = text[text.index("## Self-play on Ray"):]
    code = section[section.index("```python") + len("```python"):]
    code = code[:code.index("```")]
    small = (code.replace("hands=512", "hands=6").replace("workers=8", "workers=2")
             .replace('backend="ray"', 'backend="local"').replace("hands=200", "hands=3"))
    assert small != code
    scope: dict[str, object] = {}
    exec(compile(small, "docs/rl.md", "exec"), scope)
    assert 0.0 <= scope["win_rate"] <= 1.0  # type: ignore[operator]
    assert scope["batch"].hands == 6  # type: ignore[attr-defined]
