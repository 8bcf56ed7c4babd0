"""``benchmarks/review_evidence.py``'s duels: a lower level's move played out against the next level up's where the
two differ, in the same deals, and the figures made from them."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def evidence() -> ModuleType:
    spec = importlib.util.spec_from_file_location("review_evidence", ROOT / "benchmarks" / "review_evidence.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def args(**given: Any) -> dict[str, Any]:
    return {"hands": 2, "seed": 1, "rollouts": 8, "candidates": 3, "master": "search:8", "levels": ["club", "expert"],
            "zero_hands": 0, "agree_hands": 0, "agree_seeds": 3, "agree_rollouts": 8, "duel": [],
            "duel_rollouts": 8, **given}


def test_the_duels_come_after_the_levels_and_before_the_lower_levels_are_asked_again(evidence: ModuleType) -> None:
    work = list(evidence.units(args(duel=["club"])))
    kinds = [unit[0] for unit in work]
    assert kinds == ["level"] * 4 + ["duel"] * 2 + ["compare"] * 2
    assert [unit for unit in work if unit[0] == "duel"] == [("duel", "club", 0), ("duel", "club", 1)]


def test_a_duel_plays_out_only_the_decisions_where_the_next_level_up_plays_another_move(
        evidence: ModuleType) -> None:
    result = evidence.duel_unit(args(), "club", 0)
    assert result["unit"] == ["duel", "club", 0] and result["stronger"] == "expert"
    _, _, asked = evidence.play_hand(1, 0, "club", "search:8", "expert")
    match, _, _ = evidence.play_hand(1, 0, "club", "search:8")
    moves = match.hands[0]["moves"]
    differing = [i for i, m in sorted(asked.items()) if not evidence.same_move(m, moves[i])]
    assert differing, "hand 0 of seed 1 has decisions where club and expert differ"
    assert [row["index"] for row in result["decisions"]] == differing
    for row in result["decisions"]:
        assert row["played"] == moves[row["index"]] and row["stronger"] == asked[row["index"]]
        assert row["deals"] == 8
    again = evidence.duel_unit(args(), "club", 0)
    assert again["decisions"] == result["decisions"]  # the same seeds, the same deals: the same gains


def test_the_duel_figures_are_gains_per_differing_decision_and_per_scored_decision(evidence: ModuleType) -> None:
    lines = [{"unit": ["duel", "club", 0], "stronger": "expert",
              "decisions": [{"index": 3, "gain": 30.0, "deals": 64}, {"index": 7, "gain": -10.0, "deals": 64}]},
             {"unit": ["duel", "club", 1], "stronger": "expert", "decisions": []}]
    scored = [(0, {"loss": 5.0}) for _ in range(4)] + [(1, {"loss": 1.0}) for _ in range(6)]
    (duel,) = evidence.duels(lines, {"club": scored}, random.Random(1))
    assert duel["level"] == "club" and duel["stronger"] == "expert" and duel["hands"] == 2
    assert duel["decisions"] == 2 and duel["better"] == 1 and duel["deals"] == 64
    assert duel["gain"] == pytest.approx(10.0)  # (30 - 10) over the two decisions that differ
    assert duel["per_decision"] == pytest.approx(2.0)  # 20 points over the level's ten scored decisions
    assert duel["scored"] == 10
    assert duel["per_low"] <= duel["per_decision"] <= duel["per_high"]
