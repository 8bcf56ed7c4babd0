"""The ladder (bots/ladder.py, ``canasta ladder``): every pair on the arena's runner, rated on one scale."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from canasta.bots.arena import ArenaError, run_arena
from canasta.bots.ladder import pairings, run_ladder
from canasta.cli import main
from canasta.rules import PRESETS, Rules

CLASSIC = Rules.from_preset("classic")
TIMING = {"seconds", "decisions_per_s", "decision_ms"}


def fixed(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in TIMING}


def ladder(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["ladder", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def small() -> dict[str, Any]:
    return run_ladder(["random", "basic", "expert"], CLASSIC, seed=3, deals=6)


def test_every_pair_plays_the_arenas_deals(small: dict[str, Any]) -> None:
    """The ladder's pairs are the arena's own reports: one runner, the same cards for every pair."""
    assert [(p["a"], p["b"]) for p in small["pairs"]] == [("random", "basic"), ("random", "expert"),
                                                          ("basic", "expert")]
    for pair in small["pairs"]:
        alone = run_arena(pair["a"], pair["b"], CLASSIC, seed=3, deals=6)
        assert fixed(pair) == fixed(alone)
        assert pair["deals_won_a"] + pair["deals_won_b"] + pair["deals_tied"] == 6


def test_ratings_order_the_bots_with_the_anchor_at_zero(small: dict[str, Any]) -> None:
    rows = {r["bot"]: r for r in small["ratings"]}
    assert [r["bot"] for r in small["ratings"]] == ["expert", "basic", "random"]
    assert small["anchor"] == "expert" and rows["expert"]["points"] == rows["expert"]["elo"] == 0.0
    assert rows["expert"]["points_ci95"] == [0.0, 0.0]
    for name in ("basic", "random"):
        for key in ("points", "elo"):
            low, high = rows[name][f"{key}_ci95"]
            assert low < rows[name][key] < high
    assert rows["random"]["points_ci95"][1] < rows["basic"]["points_ci95"][0]
    assert rows["random"]["points"] < rows["basic"]["points"]
    for row in rows.values():
        assert row["decisions"] > 0 and 0 <= row["decision_ms"]["median"] <= row["decision_ms"]["p95"]
    assert (small["unit"], small["deals"], small["slow_deals"], small["seed"]) == ("deals", 6, 6, 3)


def test_same_seed_same_ladder_on_two_workers(small: dict[str, Any]) -> None:
    two = run_ladder(["random", "basic", "expert"], CLASSIC, seed=3, deals=6, workers=2)
    assert [fixed(p) for p in two["pairs"]] == [fixed(p) for p in small["pairs"]]
    strip = [{k: v for k, v in r.items() if k != "decision_ms"} for r in two["ratings"]]
    assert strip == [{k: v for k, v in r.items() if k != "decision_ms"} for r in small["ratings"]]


def test_slow_bots_play_fewer_deals_against_fewer_bots() -> None:
    assert pairings(["random", "expert", "search:2"]) == [(0, 1), (2, 0), (2, 1)]
    assert pairings(["random", "expert", "search:2"], ["expert"]) == [(0, 1), (2, 1)]
    assert pairings(["expert", "search:2", "search:3"], ["search:2"]) == [(1, 2)]  # two slow bots meet
    report = run_ladder(["basic", "expert", "search:2"], CLASSIC, seed=1, deals=3, slow_deals=2, slow_vs=["expert"])
    assert [(p["a"], p["b"], p["deals"]) for p in report["pairs"]] == [("basic", "expert", 3),
                                                                       ("search:2", "expert", 2)]
    rows = {r["bot"]: r for r in report["ratings"]}
    assert rows["search:2"]["slow"] and not rows["basic"]["slow"]
    assert report["slow_vs"] == ["expert"] and report["slow_deals"] == 2


def test_matches_rate_the_matches_won() -> None:
    report = run_ladder(["random", "basic"], Rules.from_preset("two-player", target=500), seed=2,
                        matches=2, anchor="random")
    (pair,) = report["pairs"]
    assert report["unit"] == "matches" and pair["matches_played"] == 4
    rows = {r["bot"]: r for r in report["ratings"]}
    assert rows["random"]["elo"] == 0.0 and rows["basic"]["elo"] > 0 and rows["basic"]["points"] > 0


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"bots": ["basic"]}, "at least two bots"),
        ({"bots": ["basic", "basic"]}, "named twice"),
        ({"bots": ["basic", "wizard"]}, "unknown computer player 'wizard'"),
        ({"bots": ["basic", "expert"], "anchor": "random"}, "anchor"),
        ({"bots": ["basic", "expert"], "slow_vs": ["random"]}, "not in --bots"),
        ({"bots": ["basic", "expert"], "deals": 1}, "--deals must be 2 or more"),
        ({"bots": ["basic", "expert"], "slow_deals": -1}, "--slow-deals must be 2 or more"),
        ({"bots": ["basic", "expert"], "deals": 2, "matches": 2}, "not both"),
        ({"bots": ["basic", "expert"], "workers": 0}, "--workers must be positive"),
        ({"bots": ["basic", "expert"], "backend": "spark"}, "unknown backend"),
    ],
)
def test_bad_ladders_are_refused_before_any_play(kwargs: dict[str, Any], words: str) -> None:
    bots = kwargs.pop("bots")
    with pytest.raises(ArenaError, match=words):
        run_ladder(bots, CLASSIC, seed=1, **kwargs)


# -- the command -----------------------------------------------------------------------------------


def test_the_command_prints_ratings_times_and_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = ladder(["--bots", "random,beginner,club", "--deals", "3", "--seed", "4"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("ladder: classic, seed 4, 3 deals per pair; random = 0")
    assert "points/hand (95% CI)" in lines[1] and "Elo (95% CI)" in lines[1] and "p95" in lines[1]
    assert {line.split()[0] for line in lines[2:5]} == {"random", "beginner", "club"}
    assert "random vs beginner:" in out and "beginner vs club:" in out


def test_json_and_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = ladder(["--bots", "random,basic", "--deals", "2", "--seed", "1", "--json", "--quiet"], capsys)
    data = json.loads(out)
    assert code == 0 and out.count("\n") == 1 and data["bots"] == ["random", "basic"]
    code, out, _ = ladder(["--bots", "random,basic", "--deals", "2", "--seed", "1", "--preset", "two-player",
                           "--markdown"], capsys)
    assert code == 0 and out.startswith("# The computer players' strength, measured")
    assert ("canasta ladder --preset two-player --bots random,basic --deals 2 --seed 1 --workers 1 --markdown "
            "> docs/strength.md") in out
    assert "## two-player" in out and "| `basic` |" in out and "| Master (`master`) | `search:100ms` |" in out


def test_the_documents_command_names_the_build_it_ran(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time budget buys more rollouts compiled: docs/strength.md's command says which build made it."""
    import argparse

    import canasta.buildinfo
    from canasta.cli.ladder import command_line

    args = argparse.Namespace(all_presets=True, preset=None, set=[], bots="basic,master", matches=None, deals=50,
                              slow_deals=10, slow_vs="basic", slow_presets=None, anchor=None, seed=4, workers=2,
                              backend="local")
    monkeypatch.setattr(canasta.buildinfo, "build", lambda: "interpreted")
    assert command_line(args) == ("canasta ladder --all-presets --bots basic,master --deals 50 --slow-deals 10 "
                                  "--slow-vs basic --seed 4 --workers 2 --markdown")
    monkeypatch.setattr(canasta.buildinfo, "build", lambda: "compiled (mypyc)")
    assert command_line(args).startswith("make compiled && PYTHONPATH=build/compiled/lib canasta ladder --all-presets ")


def test_all_presets_leave_slow_bots_out_where_asked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = ladder(["--all-presets", "--bots", "random,basic,search:1", "--deals", "2", "--slow-vs", "basic",
                           "--slow-presets", "two-player", "--seed", "1", "--json", "--set", "target=500"], capsys)
    assert code == 0
    ladders = json.loads(out)["ladders"]
    assert [r["preset"] for r in ladders] == list(PRESETS)
    assert all((r["bots"] == ["random", "basic", "search:1"]) == (r["preset"] == "two-player") for r in ladders)


def test_progress_only_on_a_terminal(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = ladder(["--bots", "random,basic", "--deals", "2", "--seed", "1"], capsys)
    assert code == 0 and "2/2 pair-deals (classic)" in err
