"""The expert's defaults follow the game (params_for), and ``expert:OPTION=VALUE`` changes the game's own."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial

from canasta.bots import make_bot
from canasta.bots.arena import run_arena
from canasta.bots.expert import DEFAULT_PARAMS, TUNED_PARAMS, ExpertBot, params_for
from canasta.match import deal_deck
from canasta.rules import PRESETS, Rules
from canasta.state import GameState


def test_params_per_preset() -> None:
    assert params_for(Rules.parse("classic")) is DEFAULT_PARAMS
    assert params_for(Rules.parse("two-player")).draw_value == 4.0  # a stock draw brings two cards
    for name in PRESETS:
        rules = Rules.parse(name)
        assert params_for(rules) is TUNED_PARAMS.get((rules.players, rules.sides, rules.draw), DEFAULT_PARAMS), name
    assert all(p != DEFAULT_PARAMS for p in TUNED_PARAMS.values())


def test_a_default_expert_plays_its_games_params() -> None:
    for name in PRESETS:
        rules = Rules.parse(name)
        tuned, fixed, four = (ExpertBot(random.Random(1)), ExpertBot(random.Random(1), params_for(rules)),
                              ExpertBot(random.Random(1), DEFAULT_PARAMS))
        differs = 0
        for seed in range(3):
            state = GameState.deal(rules, 0, deck=deal_deck(rules, seed, 0))
            while not state.is_over:
                moves = list(state.legal_moves())
                view = state.view(state.to_act)
                chosen = tuned.choose(view, moves)
                assert chosen == fixed.choose(view, moves)
                differs += chosen != four.choose(view, moves)
                state.push(chosen)
        assert (differs > 0) == (params_for(rules) != DEFAULT_PARAMS), name


def test_named_options_change_the_games_own_params() -> None:
    bot = make_bot("expert:risk_weight=0+freeze_pile=9", random.Random(1))
    assert isinstance(bot, ExpertBot)
    for name in ("classic", "two-player", "three-player"):
        rules = Rules.parse(name)
        assert bot.params_of(rules) == replace(params_for(rules), risk_weight=0.0, freeze_pile=9), name
    assert make_bot("expert", random.Random(1)).params_of(Rules.parse("two-player")) is params_for(  # type: ignore[attr-defined]
        Rules.parse("two-player"))
    explicit = ExpertBot(random.Random(1), replace(DEFAULT_PARAMS, pair_keep=10.0))
    assert explicit.params_of(Rules.parse("two-player")).pair_keep == 10.0
    assert explicit.params_of(Rules.parse("two-player")).draw_value == DEFAULT_PARAMS.draw_value


def test_each_games_params_beat_the_classic_ones_there() -> None:
    # The tuning measured hundreds of points a hand over hundreds of deals; a few deals show the sign.
    for name in PRESETS:
        rules = Rules.parse(name)
        tuned = params_for(rules)
        if tuned is DEFAULT_PARAMS:
            continue
        report = run_arena(partial(ExpertBot, params=tuned), partial(ExpertBot, params=DEFAULT_PARAMS), rules,
                           seed=7, deals=30)
        assert report["point_diff_mean"] > 0, (name, report["point_diff_mean"])
