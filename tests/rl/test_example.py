"""The worked examples (examples/train_basic.py, examples/selfplay_ray.py) train, evaluate and plot."""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium", reason="the example needs the rl extra: pip install 'canasta[rl]'")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name: str) -> ModuleType:
    path = EXAMPLES / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_few_batches_train_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example = load("train_basic")
    history = example.train(minutes=0.03, batch=8, seed=1, lr=3e-3, opponents="random")
    assert history, "at least one batch of hands"
    hands = [h for h, _, _ in history]
    assert hands == sorted(hands) and hands[0] == 8
    assert all(0.0 <= w <= 1.0 for _, w, _ in history)
    assert all(-30.0 < m < 30.0 for _, _, m in history)
    assert "win rate" in capsys.readouterr().out
    pytest.importorskip("matplotlib", reason="the plot needs matplotlib: pip install 'canasta[examples]'")
    out = tmp_path / "plot.png"
    example.plot(history, str(out), "random")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_self_play_example_trains_and_evaluates(tmp_path: Path) -> None:
    pytest.importorskip("pettingzoo", reason="self-play needs PettingZoo: pip install 'canasta[rl]'")
    example = load("selfplay_ray")
    history = example.train(minutes=0.005, hands=4, workers=2, backend="local", lr=1e-3, seed=0, eval_every=1,
                            eval_hands=2)
    assert len(history) >= 2, "an evaluation before and after at least one update"
    played = [h[0] for h in history]
    assert played[0] == 0 and all(b - a == 4 for a, b in itertools.pairwise(played))
    assert all(0.0 <= h[2] <= 1.0 for h in history)
    pytest.importorskip("matplotlib", reason="the plot needs matplotlib: pip install 'canasta[examples]'")
    out = tmp_path / "selfplay.png"
    example.plot(history, str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
