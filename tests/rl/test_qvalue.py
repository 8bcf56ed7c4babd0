"""The search distilled into a network: gradients, learning, collection, the shipped ``neural`` and ``q:FILE``."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from canasta.bots import make_bot  # noqa: E402
from canasta.bots.expert import ExpertBot  # noqa: E402
from canasta.resample import resample  # noqa: E402
from canasta.rl.qvalue import MOVE_FEATURES, QBot, QNet, neural_bot, q_bot, read_player, shipped_player  # noqa: E402
from canasta.rl.train_q import QData, collect_values, load_values, main, save_values, train  # noqa: E402
from canasta.state import GameState  # noqa: E402
from tests.rl.refusals import assert_refused  # noqa: E402


def toy_data(rng: np.random.Generator, decisions: int = 6, inputs: int = 5) -> QData:
    """Decisions of three candidates each, the first the expert's, with gains that depend on the features."""
    states = rng.normal(size=(decisions, inputs)).astype(np.float32)
    moves = rng.normal(size=(3 * decisions, MOVE_FEATURES)).astype(np.float32)
    decision = np.repeat(np.arange(decisions), 3)
    base = 3 * decision
    value = 80.0 * moves[:, 0] + 40.0 * states[decision, 1] * moves[:, 1]
    gains = (value - value[base]).astype(np.float32)
    return QData(states, moves, decision.astype(np.int64), base.astype(np.int64), gains)


def test_the_gradient_is_the_slope_of_the_loss() -> None:
    rng = np.random.default_rng(0)
    data = toy_data(rng)
    net = QNet(inputs=5, hidden=7, seed=1)
    net.params["w2"] = rng.normal(size=7).astype(np.float32)
    args = (data.states, data.moves, data.decision, data.base, data.gains)
    _, grads = net.loss(*args)
    for name in ("ws", "wm", "b1", "w2"):
        index = tuple(rng.integers(0, n) for n in net.params[name].shape)
        saved = float(net.params[name][index])
        net.params[name][index] = saved + 1e-2
        up, _ = net.loss(*args)
        net.params[name][index] = saved - 1e-2
        down, _ = net.loss(*args)
        net.params[name][index] = saved
        assert grads[name][index] == pytest.approx((up - down) / 2e-2, rel=0.05, abs=1e-3), name


def test_a_small_network_learns_gains_that_depend_on_state_and_move() -> None:
    rng = np.random.default_rng(3)
    data, held = toy_data(rng, decisions=400), toy_data(rng, decisions=50)
    _, curve = train(data, held, epochs=30, hidden=32, seed=0, lr=1e-2, batch=32, log=False)
    first_error, first_agree = curve[0][1], curve[0][2]
    last_error, last_agree = curve[-1][1], curve[-1][2]
    assert last_error < 0.2 * first_error and last_agree > first_agree + 0.3


def plays_as_the_expert(bot: QBot, state: GameState, steps: int) -> None:
    """``bot`` chooses the expert's move at every decision of ``steps`` moves from ``state``."""
    expert = ExpertBot(random.Random(bot.rng.random()))
    for _ in range(steps):
        if state.is_over:
            break
        view, moves = state.view(state.to_act), list(state.legal_moves())
        move = bot.choose(view, moves)
        assert move == expert.choose(view, moves)
        state.push(move)


def sees_only_its_view(bot: QBot, state: GameState, steps: int) -> None:
    """``bot`` chooses the same move in ``state`` and with the hidden cards dealt again, for ``steps`` moves."""
    for step in range(steps):
        if state.is_over:
            break
        seat = state.to_act
        view = state.view(seat)
        other = resample(view, random.Random(step))  # the hidden cards dealt again: the same view
        moves = list(state.legal_moves())
        assert bot.choose(view, moves) == bot.choose(other.view(seat), list(other.legal_moves()))
        state.push(bot.choose(view, moves))


def test_with_no_opinion_it_plays_the_experts_move() -> None:
    net = QNet(inputs=480, hidden=8, seed=0)
    net.params["w2"][:] = 0.0
    plays_as_the_expert(QBot(net.weights(), random.Random(1)), GameState.deal("classic", rng=random.Random(5)), 120)


@pytest.mark.parametrize("shipped", [False, True])
def test_it_sees_only_its_seats_view(shipped: bool) -> None:
    bot = neural_bot(random.Random(1)) if shipped else QBot(QNet(inputs=480, hidden=16, seed=4).weights(),
                                                            random.Random(1))
    sees_only_its_view(bot, GameState.deal("classic", rng=random.Random(8 + shipped)), 80)


def test_collected_gains_are_paired_with_the_experts_choice(tmp_path: Path) -> None:
    data = collect_values(hands=1, seed=4, labeller="search:8")
    assert len(data.states) > 5
    own = data.base == np.arange(len(data.base))
    assert np.all(data.gains[own] == 0.0) and own.sum() == len(data.states)  # one expert row per decision
    assert np.all(data.decision[data.base] == data.decision)
    path = tmp_path / "q.npz"
    save_values(data, str(path))
    again = load_values([str(path), str(path)])
    assert len(again.states) == 2 * len(data.states)
    assert np.array_equal(again.base[len(data.base):], data.base + len(data.moves))


@pytest.mark.parametrize(("args", "error"), [
    (["--collect", "x.npz", "--labeller", "expert", "--hands", "1"], "the labeller is a search"),
    (["--out", "w.npz"], "--data"),
    (["--out", "w.npz", "--data", "missing.npz"], "missing.npz is not saved value data"),
    (["--out", "w.npz", "--data", "d.npz", "--plot", "c.png"], "--plot needs matplotlib"),
])
def test_training_options_that_cannot_work_are_refused_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        args: list[str], error: str) -> None:
    monkeypatch.chdir(tmp_path)
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *rest: None if name == "matplotlib" else real_find_spec(name, *rest))
    assert_refused(main, ["--seed", "1", *args], error, tmp_path, capsys)


def test_the_shipped_network_is_neural_and_departs_from_the_expert_where_it_judges_better() -> None:
    weights, margin = shipped_player()
    assert weights["ws"].shape[0] == 480 and margin > 0
    bot, expert = neural_bot(random.Random(1)), ExpertBot(random.Random(1))
    assert isinstance(bot, QBot) and bot.name == "neural" and bot.margin == margin and not bot.slow
    departures = decisions = 0
    for hand in range(6):
        state = GameState.deal("classic", rng=random.Random(hand))
        while not state.is_over:
            view, moves = state.view(state.to_act), list(state.legal_moves())
            move = bot.choose(view, moves)
            assert move in moves
            if len(moves) > 1:
                decisions += 1
                departures += move != expert.choose(view, moves)
            state.push(move)
    assert not bot.fallback and 0 < departures < decisions / 4  # mostly the expert, not always


@pytest.mark.parametrize("preset", ["two-player", "three-player", "six-player-two-teams"])
def test_where_its_weights_do_not_fit_neural_plays_the_experts_moves(preset: str) -> None:
    from canasta.rules import PRESETS

    bot = neural_bot(random.Random(3))
    plays_as_the_expert(bot, GameState.deal(preset, rng=random.Random(2),
                                            sitting_out=0 if PRESETS[preset].sit_out else None), 150)
    assert bot.fallback


def test_a_trained_network_is_saved_with_its_margin_and_plays_as_q_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    data = collect_values(hands=1, seed=6, labeller="search:8")
    path, png = tmp_path / "q.npz", tmp_path / "curve.png"
    main(["--out", str(path), "--data", *[save_and_name(data, tmp_path)], "--seed", "1", "--epochs", "1",
          "--hidden", "8", "--margin", "35", "--eval-every", "1", "--eval-deals", "2", "--held", "0.2",
          "--plot", str(png)])
    last_row = capsys.readouterr().out.strip().splitlines()[-1]
    assert last_row.startswith("| 1 |") and " to " in last_row  # the duel against the expert, with its interval
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    weights, margin = read_player(str(path))
    assert margin == 35.0 and weights["ws"].shape == (480, 8)
    bot = make_bot(f"q:{path}", random.Random(1), files=True)
    assert isinstance(bot, QBot) and bot.margin == 35.0 and bot.name == f"q:{path}"
    with pytest.raises(ValueError, match="unknown computer player"):
        make_bot(f"q:{path}")  # a server never loads a file
    with pytest.raises(ValueError, match="no saved value network at"):
        q_bot(str(tmp_path / "missing.npz"), random.Random(1), "q")
    (tmp_path / "bad.npz").write_bytes(b"not a network")
    with pytest.raises(ValueError, match=r"bad.npz is not a saved value network"):
        q_bot(str(tmp_path / "bad.npz"), random.Random(1), "q")
    np.savez(tmp_path / "odd.npz", **{**weights, "wm": weights["wm"][:3]}, margin=np.float32(1))
    with pytest.raises(ValueError, match=r"odd.npz is not a saved value network \(weight wm has shape"):
        q_bot(str(tmp_path / "odd.npz"), random.Random(1), "q")


def save_and_name(data: QData, folder: Path) -> str:
    path = folder / "data.npz"
    save_values(data, str(path))
    return str(path)


def test_the_grids_averaged_network_answers_the_mean_of_its_members() -> None:
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("train_q_grid", root / "benchmarks" / "train_q_grid.py")
    assert spec is not None and spec.loader is not None
    grid = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(grid)
    rng = np.random.default_rng(7)
    members = [QNet(inputs=12, hidden=5, seed=seed) for seed in (1, 2, 3)]
    for net in members:
        net.params["w2"] = rng.normal(size=5).astype(np.float32)
    state, moves = rng.normal(size=12).astype(np.float32), rng.normal(size=(4, MOVE_FEATURES)).astype(np.float32)
    mean = np.mean([net.values(state, moves) for net in members], axis=0)
    assert np.allclose(grid.averaged(members).values(state, moves), mean, atol=1e-4)
    assert grid.seed_of("q/q-17.npz") == 17
