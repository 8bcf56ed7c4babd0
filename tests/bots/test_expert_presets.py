"""The expert's defaults follow the game: two players drawing two play without weighing discard risk."""

from __future__ import annotations

import random

from canasta.bots.expert import DEFAULT_PARAMS, TWO_PLAYER_PARAMS, ExpertBot, params_for
from canasta.match import deal_deck
from canasta.rules import PRESETS, Rules
from canasta.state import GameState


def test_params_per_preset() -> None:
    assert params_for(Rules.parse("two-player")) is TWO_PLAYER_PARAMS
    assert TWO_PLAYER_PARAMS.risk_weight == 0.0
    for name in PRESETS:
        if name != "two-player":
            assert params_for(Rules.parse(name)) is DEFAULT_PARAMS, name


def test_a_default_expert_plays_the_two_player_params() -> None:
    rules = Rules.parse("two-player")
    tuned, fixed, four = ExpertBot(random.Random(1)), ExpertBot(random.Random(1), TWO_PLAYER_PARAMS), \
        ExpertBot(random.Random(1), DEFAULT_PARAMS)
    differs = 0
    for seed in range(4):
        state = GameState.deal(rules, 0, deck=deal_deck(rules, seed, 0))
        while not state.is_over:
            moves = list(state.legal_moves())
            view = state.view(state.to_act)
            chosen = tuned.choose(view, moves)
            assert chosen == fixed.choose(view, moves)
            differs += chosen != four.choose(view, moves)
            state.push(chosen)
    assert differs > 0
