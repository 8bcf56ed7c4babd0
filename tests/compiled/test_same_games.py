"""Both builds play the same games from the same seeds, and the compiled one is faster.

Each test runs the interpreted build (``src``) and the compiled one (``build/compiled/lib``) in
processes of their own: one interpreter cannot import both.
"""

from __future__ import annotations

import pytest

from .support import needs_compiled_build, once, run, run_json

pytestmark = [needs_compiled_build(), once()]


@pytest.mark.parametrize("part", ["random_hands", "bots", "arena", "research", "environments", "resampling"])
def test_the_same_seeds_give_the_same_games(part: str) -> None:
    interpreted = run_json("interpreted", ["-m", "tests.compiled.records", part])
    compiled = run_json("compiled", ["-m", "tests.compiled.records", part])
    assert (interpreted.pop("build"), compiled.pop("build")) == ("interpreted", "compiled (mypyc)")
    assert compiled == interpreted


def test_the_benchmark_plays_the_same_decisions() -> None:
    args = ["-m", "canasta.cli", "bench", "--hands", "300", "--seed", "5", "--preset", "three-player", "--json"]
    interpreted, compiled = run_json("interpreted", args), run_json("compiled", args)
    assert (interpreted["build"], compiled["build"]) == ("interpreted", "compiled (mypyc)")
    assert compiled["decisions"] == interpreted["decisions"]


SPEED = """
import json, sys
from canasta.testing.bench import copy_cost, random_hands
copy = min(copy_cost(4000, 1)["copy_us"] for _ in range(3))
hands = max(random_hands(150, 1)["decisions_per_s"] for _ in range(2))
print(json.dumps({"copy_us": copy, "decisions_per_s": hands}))
"""


def test_the_compiled_build_is_faster() -> None:
    """Ratios measured here, alternating the builds (a machine's load slows both alike)."""
    interpreted: list[dict[str, float]] = []
    compiled: list[dict[str, float]] = []
    for _ in range(2):
        interpreted.append(run_json("interpreted", ["-c", SPEED]))
        compiled.append(run_json("compiled", ["-c", SPEED]))
    copy_ratio = min(r["copy_us"] for r in interpreted) / min(r["copy_us"] for r in compiled)
    play_ratio = max(r["decisions_per_s"] for r in compiled) / max(r["decisions_per_s"] for r in interpreted)
    print(f"compiled/interpreted: GameState.copy() {copy_ratio:.2f}x as fast, random play {play_ratio:.2f}x")
    assert copy_ratio > 1.0, f"a compiled copy() is not faster than an interpreted one ({copy_ratio:.2f}x)"
    assert play_ratio > 1.5, f"compiled random play is only {play_ratio:.2f}x as fast"


def test_version_names_each_build() -> None:
    assert run("interpreted", ["-m", "canasta.cli", "--version"]).endswith(", interpreted\n")
    assert run("compiled", ["-m", "canasta.cli", "--version"]).endswith(", compiled (mypyc)\n")
