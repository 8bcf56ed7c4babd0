"""PolicyBot: a trained policy as a computer player, from its seat's view, always a legal move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="PolicyBot needs numpy: pip install 'canasta[rl]'")

from canasta.bots import make_bot  # noqa: E402
from canasta.bots.duplicate import duel  # noqa: E402
from canasta.resample import resample  # noqa: E402
from canasta.rl.observation import Encoder  # noqa: E402
from canasta.rl.policy import MaskedMLP  # noqa: E402
from canasta.rl.policybot import PolicyBot  # noqa: E402
from canasta.state import GameState  # noqa: E402
from canasta.views import make_view  # noqa: E402


@pytest.mark.parametrize("preset", ["classic", "three-player", "two-player"])
def test_whole_hands_with_legal_moves_only(preset: str) -> None:
    weights = MaskedMLP(Encoder(preset).size, seed=3).weights()
    rng = random.Random(7)
    for _ in range(2):
        state = GameState.deal(preset, rng=rng)
        bots = [PolicyBot(weights, random.Random(seat), greedy=seat == 0) for seat in range(state.players)]
        while not state.is_over:
            moves = list(state.legal_moves())
            move = bots[state.to_act].choose(make_view(state, state.to_act), moves)
            assert move in moves
            state.play(move)
        assert state.result is not None


def test_the_choice_depends_on_the_view_only() -> None:
    weights = MaskedMLP(Encoder("classic").size, seed=4).weights()
    rng = random.Random(2)
    state = GameState.deal("classic", rng=rng)
    for _ in range(12):  # into the hand, past some discards
        state.play(make_bot("basic", rng).choose(make_view(state, state.to_act), list(state.legal_moves())))
    seat = state.to_act
    view = make_view(state, seat)
    other = resample(view, random.Random(9))  # the hidden cards dealt otherwise
    assert make_view(other, seat, history=False) == make_view(state, seat, history=False)
    first = PolicyBot(weights, random.Random(1)).choose(view, list(state.legal_moves()))
    second = PolicyBot(weights, random.Random(1)).choose(make_view(other, seat), list(other.legal_moves()))
    assert first == second


def test_saved_weights_play_in_a_duel(tmp_path: Path) -> None:
    policy = MaskedMLP(Encoder("classic").size, seed=5)
    path = tmp_path / "policy.npz"
    policy.save(str(path))
    weights = MaskedMLP.open(str(path)).weights()
    assert all(np.array_equal(weights[k], policy.params[k]) for k in policy.params)
    result = duel(lambda rng: PolicyBot(weights, rng), "random", deals=2, seed=3)
    assert result.hands == 4
    (tmp_path / "bad.npz").write_bytes(b"not a policy")
    with pytest.raises(ValueError, match="is not a saved policy"):
        MaskedMLP.open(str(tmp_path / "bad.npz"))
    with pytest.raises(ValueError, match="is not a saved policy"):
        MaskedMLP.open(str(tmp_path / "missing.npz"))
