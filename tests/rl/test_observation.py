"""Observations: named pieces, built from a seat's view only, blind to every hidden card."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the observations need numpy: pip install 'canasta[rl]'")

from canasta.cards import NUM_KINDS  # noqa: E402
from canasta.resample import resample  # noqa: E402
from canasta.rl.actions import NUM_SLOTS, TurnActions  # noqa: E402
from canasta.rl.observation import Encoder  # noqa: E402
from canasta.state import GameState  # noqa: E402
from canasta.views import make_view  # noqa: E402

PRESETS = ["classic", "two-player", "three-player", "five-player", "six-player-two-teams"]


def test_the_layout_is_named_and_contiguous() -> None:
    enc = Encoder("classic")
    assert enc.size == 211
    start = 0
    for item in enc.describe():
        assert item["start"] == start
        start += item["size"]
    assert start == enc.size
    assert enc.slices["hand"] == slice(0, NUM_KINDS)
    assert enc.slices["plan"].stop - enc.slices["plan"].start == NUM_SLOTS
    assert Encoder("two-player").size < enc.size < Encoder("six-player-two-teams").size


def walk(preset: str, seed: int, hands: int = 2):
    """(state, turn) at every action of random masked play."""
    rng = random.Random(seed)
    for _ in range(hands):
        state = GameState.deal(preset, dealer=rng.randrange(3), rng=rng)
        turn = TurnActions(state)
        while not state.is_over:
            yield state, turn, rng
            allowed = turn.legal_actions()
            turn.apply(allowed[rng.randrange(len(allowed))])
        yield state, turn, rng


@pytest.mark.parametrize("preset", PRESETS)
def test_the_fast_path_equals_encoding_the_view(preset: str) -> None:
    enc = Encoder(preset)
    for state, turn, _ in walk(preset, seed=PRESETS.index(preset)):
        for seat in range(state.players):
            mode, plan = (turn.mode, turn.plan) if turn.staging else (None, None)
            reference = enc.encode(make_view(state, seat), mode, plan)
            assert np.array_equal(enc.encode_state(state, seat, mode, plan), reference)


@pytest.mark.parametrize("preset", ["classic", "two-player"])
def test_observations_cannot_tell_the_hidden_cards_apart(preset: str) -> None:
    """Deal every card the seat has not seen anew: the observation stays the same."""
    enc = Encoder(preset)
    checked = 0
    for i, (state, _turn, rng) in enumerate(walk(preset, seed=7, hands=1)):
        if state.is_over or i % 3:
            continue
        for seat in range(state.players):
            sample = resample(make_view(state, seat), rng)
            assert sample.hand(seat) == state.hand(seat)
            assert np.array_equal(enc.encode_state(sample, seat), enc.encode_state(state, seat))
            checked += 1
    assert checked > 20


def test_the_staged_plan_is_seen_only_by_the_seat_staging_it() -> None:
    enc = Encoder("classic")
    for state, turn, _ in walk("classic", seed=3):
        if turn.staging:
            me = state.to_act
            mine = enc.as_dict(enc.encode_state(state, me, turn.mode, turn.plan))
            assert mine["plan"].sum() == sum(turn.plan)
            assert mine["staging"].sum() == 1
            other = enc.as_dict(enc.encode_state(state, (me + 1) % 4, turn.mode, turn.plan))
            assert other["plan"].sum() == 0 and other["staging"].sum() == 0
            return
    pytest.fail("no staged plan met")


def test_the_dict_holds_the_same_numbers() -> None:
    enc = Encoder("classic")
    state = GameState.deal("classic", rng=random.Random(4))
    view = state.view(2)
    pieces = enc.encode_dict(view)
    assert set(pieces) == set(enc.slices)
    assert int(pieces["hand"].sum()) == len(view.hand)
    assert list(pieces["hand_sizes"]) == [11, 11, 11, 11]
    assert pieces["stock_size"][0] == view.stock_size
    assert pieces["phase"][0] == 1  # draw
    assert pieces["to_act"].sum() == 1
