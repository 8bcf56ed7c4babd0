"""PolicyBot: a trained policy as a computer player, from its seat's view, always a legal move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="PolicyBot needs numpy: pip install 'canasta[rl]'")

from canasta.bots import make_bot  # noqa: E402
from canasta.bots.arena import run_arena  # noqa: E402
from canasta.resample import resample  # noqa: E402
from canasta.rl.observation import Encoder  # noqa: E402
from canasta.rl.policy import MaskedMLP  # noqa: E402
from canasta.rl.policybot import PolicyBot  # noqa: E402
from canasta.rules import Rules  # noqa: E402
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
    result = run_arena(lambda rng: PolicyBot(weights, rng), "random", Rules.parse("classic"), seed=3, deals=2)
    assert result["hands"] == 4 and result["a"] == "policy"
    (tmp_path / "bad.npz").write_bytes(b"not a policy")
    with pytest.raises(ValueError, match="is not a saved policy"):
        MaskedMLP.open(str(tmp_path / "bad.npz"))
    with pytest.raises(ValueError, match="is not a saved policy"):
        MaskedMLP.open(str(tmp_path / "missing.npz"))


def saved_policy(tmp_path: Path, preset: str = "classic") -> str:
    path = tmp_path / f"{preset}.npz"
    MaskedMLP(Encoder(preset).size, seed=6).save(str(path))
    return str(path)


def test_policy_files_are_bots_for_local_tools_only(tmp_path: Path) -> None:
    path = saved_policy(tmp_path)
    bot = make_bot(f"policy:{path}", random.Random(1), files=True)
    assert isinstance(bot, PolicyBot) and bot.name == f"policy:{path}"
    with pytest.raises(ValueError, match="unknown computer player"):
        make_bot(f"policy:{path}")  # what a server calls
    with pytest.raises(ValueError, match="no saved policy at"):
        make_bot(f"policy:{tmp_path / 'missing.npz'}", files=True)


def test_the_arena_measures_a_saved_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from canasta.cli import main

    path = saved_policy(tmp_path)
    code = main(["arena", f"policy:{path}", "random", "--deals", "2", "--seed", "3", "--json", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert report["hands"] == 4 and report["a"] == f"policy:{path}"
    code = main(["arena", f"policy:{tmp_path / 'nope.npz'}", "random", "--deals", "1", "--seed", "1"])
    assert code != 0 and "no saved policy at" in capsys.readouterr().err


def test_a_saved_policy_as_the_gymnasium_opponents(tmp_path: Path) -> None:
    pytest.importorskip("gymnasium")
    from canasta.rl.gymnasium import CanastaEnv

    env = CanastaEnv(preset="two-player", opponents=f"policy:{saved_policy(tmp_path, 'two-player')}")
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(2000):
        obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated:
            break
    assert terminated
