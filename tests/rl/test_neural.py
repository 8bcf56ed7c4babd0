"""The ``neural-policy`` player: the shipped weights play legal moves from the seat's view, found by name; training."""

from __future__ import annotations

import random
import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the neural player needs numpy: pip install 'canasta[rl]'")

import canasta.bots  # noqa: E402
from canasta.bots import make_bot  # noqa: E402
from canasta.bots.basic import BasicBot  # noqa: E402
from canasta.bots.expert import ExpertBot  # noqa: E402
from canasta.errors import UnknownBotError  # noqa: E402
from canasta.resample import resample  # noqa: E402
from canasta.rl import neural, qvalue, train_neural  # noqa: E402
from canasta.rl.neural import SHIPPED, NeuralBot, neural_bot  # noqa: E402
from canasta.rl.train_neural import accuracy, collect, load_data, main, train  # noqa: E402
from canasta.state import GameState  # noqa: E402
from tests.rl.refusals import assert_refused  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def plugins(value: str, bot: str = "neural-policy") -> Any:
    """``entry_points`` as if ``canasta.bots`` held ``bot = value`` (the installed metadata may predate it)."""
    def points(group: str, name: str | None = None) -> list[EntryPoint]:
        found = [EntryPoint(bot, value, group)] if group == canasta.bots.PLUGIN_BOTS else []
        return [p for p in found if name is None or p.name == name]
    return points


def test_the_package_registers_neural_and_ships_its_weights() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["canasta.bots"] == {"neural": "canasta.rl.qvalue:neural_bot",
                                                       "neural-policy": "canasta.rl.neural:neural_bot"}
    assert project["entry-points"]["canasta.file_bots"] == {"policy": "canasta.rl.policybot:policy_bot",
                                                            "q": "canasta.rl.qvalue:q_bot"}
    folder = Path(neural.__file__).parent
    sizes = [(folder / name).stat().st_size for name in (SHIPPED, qvalue.SHIPPED)]
    assert sum(sizes) < 3_000_000


def test_make_bot_finds_the_policy_through_its_entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(canasta.bots, "entry_points", plugins("canasta.rl.neural:neural_bot"))
    bot = make_bot("neural-policy", random.Random(1))
    assert isinstance(bot, NeuralBot) and bot.name == "neural-policy" and not bot.slow
    with pytest.raises(UnknownBotError, match="known: basic, expert, neural-policy, random, search"):
        make_bot("neural2")


def test_without_numpy_the_name_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(canasta.bots, "entry_points", plugins("no_such_extra:neural_bot", "neural"))
    with pytest.raises(UnknownBotError, match=r"^neural needs no_such_extra: pip install 'canasta\[rl\]'$"):
        make_bot("neural")


@pytest.mark.parametrize("preset", ["classic", "six-player"])
def test_whole_hands_with_legal_moves_only(preset: str) -> None:
    rng = random.Random(3)
    state = GameState.deal(preset, rng=rng, sitting_out=0 if state_sits_out(preset) else None)
    bots = [neural_bot(random.Random(seat)) for seat in range(state.players)]
    while not state.is_over:
        moves = list(state.legal_moves())
        move = bots[state.to_act].choose(state.view(state.to_act), moves)
        assert move in moves
        state.play(move)
    assert all(b.fallback == (preset != "classic") for b in bots)  # the shipped weights fit four players in two sides


def state_sits_out(preset: str) -> bool:
    from canasta.rules import PRESETS

    return PRESETS[preset].sit_out > 0


def test_the_choice_depends_on_the_view_only() -> None:
    rng = random.Random(5)
    state = GameState.deal("classic", rng=rng)
    bots = [neural_bot(random.Random(seat)) for seat in range(4)]
    checked = 0
    while not state.is_over and checked < 60:
        seat = state.to_act
        view = state.view(seat)
        other = resample(view, random.Random(checked))
        moves = list(state.legal_moves())
        assert neural_bot(random.Random(1)).choose(view, moves) == \
            neural_bot(random.Random(2)).choose(other.view(seat), list(other.legal_moves()))
        state.play(bots[seat].choose(view, moves))
        checked += 1


def test_a_tiny_network_learns_the_experts_choices() -> None:
    data, held = collect(hands=4, seed=1), collect(hands=2, seed=2)
    assert data.xs.shape[1] == neural.history_size(GameState.deal("classic").rules) + 211
    assert all(data.masks[i, a] == 1 for i, a in enumerate(data.actions))  # the expert's action is allowed
    policy, curve = train(data, held, epochs=4, hidden=16, seed=0, lr=3e-3, batch=32, log=False)
    assert curve[-1][1] == accuracy(policy, held) > curve[0][1] + 0.2


def test_dagger_records_the_experts_choices_where_the_learner_plays() -> None:
    learner = neural_bot(random.Random(4))
    data = collect(hands=1, seed=9, player=learner)
    assert len(data.actions) > 20 and all(data.masks[i, a] == 1 for i, a in enumerate(data.actions))


def test_a_teacher_other_than_the_expert_labels_the_choices() -> None:
    by_expert, by_basic = collect(hands=1, seed=5), collect(hands=1, seed=5, teacher=BasicBot)
    assert all(by_basic.masks[i, a] == 1 for i, a in enumerate(by_basic.actions))
    assert (len(by_basic.actions) != len(by_expert.actions)
            or not np.array_equal(by_basic.actions, by_expert.actions))


def test_collected_choices_are_saved_and_trained_on_later(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shard = tmp_path / "shard.npz"
    main(["--collect", str(shard), "--teacher", "basic", "--hands", "1", "--seed", "3"])
    saved, again = load_data([str(shard)]), collect(hands=1, seed=3, teacher=BasicBot)
    assert np.array_equal(saved.actions, again.actions) and np.array_equal(saved.masks, again.masks)
    assert np.allclose(saved.xs, again.xs, atol=1e-2)  # kept as float16
    out = tmp_path / "w.npz"
    main(["--out", str(out), "--seed", "1", "--hands", "0", "--extra", str(shard), "--held", "1",
          "--epochs", "1", "--hidden", "8", "--eval-every", "0"])
    first = np.load(out)["w1"].copy()
    main(["--out", str(out), "--seed", "1", "--hands", "0", "--extra", str(shard), "--held", "1",
          "--epochs", "1", "--eval-every", "0", "--init", str(out)])
    again_w1 = np.load(out)["w1"]
    assert again_w1.shape == first.shape == (480, 8)  # --init kept the network's size ...
    assert not np.array_equal(again_w1, first)  # ... and trained it further
    assert "| epoch |" in capsys.readouterr().out


def test_the_held_out_hands_are_the_teachers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    teachers: list[str] = []

    def recording_collect(hands: int, seed: int, **options: Any) -> train_neural.Data:
        teachers.append(options.get("teacher", ExpertBot)(random.Random(0)).name)
        return collect(hands, seed, **options)

    monkeypatch.setattr(train_neural, "collect", recording_collect)
    main(["--out", str(tmp_path / "w.npz"), "--seed", "1", "--teacher", "basic", "--hands", "1", "--held", "1",
          "--epochs", "1", "--hidden", "8", "--eval-every", "0"])
    assert teachers == ["basic", "basic"]  # the training hands, then the held-out ones


@pytest.mark.parametrize(("args", "error"), [
    (["--collect", "x.npz", "--teacher", "nobody"], "nobody"),
    (["--out", "w.npz", "--hands", "0"], "nothing to learn from"),
    (["--out", "w.npz", "--extra", "missing.npz"], "missing.npz is not saved training data"),
    (["--out", "w.npz", "--init", "missing.npz"], "missing.npz is not a saved policy"),
    (["--hands", "1"], "--out is needed"),
])
def test_training_options_that_cannot_work_are_refused_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        args: list[str], error: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert_refused(main, ["--seed", "1", *args], error, tmp_path, capsys)

