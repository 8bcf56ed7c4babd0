"""The worked example (examples/train_basic.py) trains, improves its policy's parameters and plots."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("gymnasium", reason="the example needs the rl extra: pip install 'canasta[rl]'")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_basic.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_basic", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_few_batches_train_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example = load_example()
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
