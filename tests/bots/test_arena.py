"""The duplicate arena (README "Arena"): same cards from both sides, seeded per deal, any backend."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from canasta import GameState, Rules
from canasta.bots.arena import Hand, Seating, play_deal, run_arena, seatings
from canasta.bots.rating import mean_ci, wilson
from canasta.cli import main

VARIABLE = {"seconds", "decisions_per_s", "decision_ms"}  # wall-clock figures; everything else is fixed by the seed


def arena(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(["arena", *args])
    except SystemExit as exc:  # argparse's errors, one line through the arena parser
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def arena_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = arena([*args, "--json", "--quiet"], capsys)
    assert code == 0, err
    assert out.count("\n") == 1
    data: dict[str, Any] = json.loads(out)
    return data


def fixed(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in VARIABLE}


# -- one worker, several processes ------------------------------------------------------------


def test_same_seed_same_result_on_one_and_two_workers(capsys: pytest.CaptureFixture[str]) -> None:
    one = arena_json(["random", "basic", "--deals", "6", "--seed", "5"], capsys)
    two = arena_json(["random", "basic", "--deals", "6", "--seed", "5", "--workers", "2"], capsys)
    assert fixed(one) == fixed(two)
    assert {"a", "b", "preset", "hands", "point_diff_mean", "point_diff_ci95", "hands_won_a", "hands_won_b",
            "decisions_per_s", "seed"} <= set(one)
    assert (one["a"], one["b"], one["preset"], one["seed"]) == ("random", "basic", "classic", 5)
    assert one["deals"] == 6 and one["replays"] == 2 and one["hands"] == 12
    assert one["hands_won_a"] + one["hands_won_b"] + one["hands_tied"] == 12
    assert one["decisions"] > 12 and one["decisions_per_s"] > 0
    low, high = one["point_diff_ci95"]
    assert low <= one["point_diff_mean"] <= high


def test_another_seed_other_cards(capsys: pytest.CaptureFixture[str]) -> None:
    first = arena_json(["random", "random", "--deals", "2", "--seed", "1"], capsys)
    second = arena_json(["random", "random", "--deals", "2", "--seed", "2"], capsys)
    assert fixed(first) != fixed(second)


# -- the duplicate format ---------------------------------------------------------------------


def test_every_deal_is_replayed_with_the_same_cards_and_sides_swapped() -> None:
    rules = Rules.from_preset("classic")
    seen: list[tuple[Seating, GameState]] = []
    hands = play_deal("random", "random", rules, 9, 4, watch=lambda s, state: seen.append((s, state)))
    assert [s.seats for s, _ in seen] == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    (_, first), (_, second) = seen
    assert first.dealer == second.dealer == 4 % rules.players
    assert [first.hand(seat) for seat in range(4)] == [second.hand(seat) for seat in range(4)]
    assert (first.stock, first.pile) == (second.stock, second.pile)
    assert [h.a_side for h in hands] == [0, 1]


def test_with_three_sides_a_plays_each_side_once() -> None:
    rules = Rules.from_preset("three-player")
    tables = seatings(rules)
    assert [s.a_side for s in tables] == [0, 1, 2]
    for seat in range(rules.players):
        assert [s.seats[seat] for s in tables].count("a") == 1


def test_the_point_difference_is_a_minus_the_mean_of_b() -> None:
    assert Hand(1, (300, 500), 10).diff == 200
    assert Hand(0, (900, 300, 500), 10).diff == 500
    assert Hand(2, (100, 200, 200), 10).winner is None
    assert Hand(2, (100, 300, 200), 10).winner == "b"


def test_intervals() -> None:
    mean, ci = mean_ci([(d, 2) for d in (100.0, -40.0, 60.0, 20.0)])
    assert mean == 17.5 and ci is not None and ci[0] < mean < ci[1]
    assert mean_ci([(50.0, 2)]) == (25.0, None)
    low, high = wilson(7, 10)
    assert low < 0.7 < high and wilson(0, 4)[0] == 0.0


# -- matches, three sides, the text report ------------------------------------------------------


def test_matches_to_a_small_target(capsys: pytest.CaptureFixture[str]) -> None:
    data = arena_json(["basic", "random", "--matches", "2", "--set", "target=1000", "--seed", "3"], capsys)
    assert data["matches"] == 2 and data["matches_played"] == 4
    assert data["matches_won_a"] + data["matches_won_b"] + data["matches_undecided"] == 4
    assert data["match_win_rate_a"] == data["matches_won_a"] / 4
    low, high = data["match_win_rate_ci95"]
    assert 0 <= low <= data["match_win_rate_a"] <= high <= 1
    assert data["rules"] == {"preset": "classic", "target": 1000}
    assert data["hands"] >= 4


def test_three_player_arena(capsys: pytest.CaptureFixture[str]) -> None:
    data = arena_json(["basic", "random", "--preset", "three-player", "--deals", "2", "--seed", "1"], capsys)
    assert data["replays"] == 3 and data["hands"] == 6


def test_text_report_and_progress_bar(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # the bar is drawn on a terminal only
    code, out, err = arena(["random", "basic", "--deals", "3", "--seed", "2"], capsys)
    assert code == 0
    assert "random (A) vs basic (B), classic, seed 2: 3 deals" in out
    assert "point difference A-B per hand" in out and "decisions/s" in out
    assert "\r[" in err and "3/3 deals" in err and "\n" not in err


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["random", "shark", "--seed", "1"], "unknown computer player 'shark'"),
        (["random", "basic", "--seed", "1", "--preset", "seven-player"], "unknown preset"),
        (["random", "basic", "--seed", "1", "--set", "colour=blue"], "unknown rules option"),
        (["random", "basic", "--seed", "1", "--set", "target=0"], "target must be positive"),
        (["random", "basic", "--seed", "1", "--deals", "0"], "--deals must be positive"),
        (["random", "basic", "--seed", "1", "--matches", "-2"], "--matches must be positive"),
        (["random", "basic", "--seed", "1", "--workers", "0"], "--workers must be positive"),
        (["random", "basic", "--seed", "1", "--backend", "spark"], "unknown backend"),
        (["random", "basic", "--seed", "1", "--address", "ray://x:1"], "--address goes with --backend ray"),
        (["random", "basic", "--seed", "1", "--deals", "many"], "invalid int value"),
        (["random", "basic", "--deals", "2"], "--seed"),
        (["random", "basic", "--seed", "1", "--deals", "2", "--matches", "2"], "not allowed with"),
    ],
)
def test_bad_arguments_are_one_line(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = arena(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err
    assert words in err


def test_ray_backend_missing_is_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    code, out, err = arena(["random", "basic", "--deals", "1", "--seed", "1", "--backend", "ray"], capsys)
    assert code == 2 and out == ""
    assert err == "canasta: the ray backend needs: pip install canasta[ray]\n"


# -- Ray ---------------------------------------------------------------------------------------


def test_ray_equals_local(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("ray")
    local = run_arena("random", "basic", Rules.from_preset("classic"), 4, deals=3)
    remote = arena_json(["random", "basic", "--deals", "3", "--seed", "4", "--backend", "ray"], capsys)
    assert fixed(remote) == fixed(local)


def test_the_arena_reports_the_samples_a_searching_bot_takes_per_move() -> None:
    report = run_arena("search:6", "basic", Rules.from_preset("classic"), 3, deals=1)
    assert report["a_searched_moves"] > 0
    assert report["a_samples_per_move"] >= 1
    assert "b_searched_moves" not in report  # basic does not search
    plain = run_arena("basic", "random", Rules.from_preset("classic"), 3, deals=1)
    assert "a_searched_moves" not in plain
