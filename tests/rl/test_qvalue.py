"""The search distilled into a network: gradients, learning, collection, and a bot that sees only its view."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from canasta.bots.expert import ExpertBot  # noqa: E402
from canasta.resample import resample  # noqa: E402
from canasta.rl.qvalue import MOVE_FEATURES, QBot, QNet  # noqa: E402
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


def test_with_no_opinion_it_plays_the_experts_move() -> None:
    net = QNet(inputs=480, hidden=8, seed=0)
    net.params["w2"][:] = 0.0
    bot, expert = QBot(net.weights(), random.Random(1)), ExpertBot(random.Random(1))
    rng = random.Random(5)
    state = GameState.deal("classic", rng=rng)
    for _ in range(120):
        if state.is_over:
            break
        view, moves = state.view(state.to_act), list(state.legal_moves())
        move = bot.choose(view, moves)
        assert move == expert.choose(view, moves)
        state.push(move)


def test_it_sees_only_its_seats_view() -> None:
    bot = QBot(QNet(inputs=480, hidden=16, seed=4).weights(), random.Random(1))
    state = GameState.deal("classic", rng=random.Random(8))
    for _ in range(60):
        if state.is_over:
            break
        seat = state.to_act
        view = state.view(seat)
        other = resample(view, random.Random(9))  # the hidden cards dealt again: the same view
        moves = list(state.legal_moves())
        assert bot.choose(view, moves) == bot.choose(other.view(seat), list(other.legal_moves()))
        state.push(moves[0] if len(moves) == 1 else ExpertBot(random.Random(2)).choose(view, moves))


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
])
def test_training_options_that_cannot_work_are_refused_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        args: list[str], error: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert_refused(main, ["--seed", "1", *args], error, tmp_path, capsys)
