"""Every scenario file under tests/scenarios plays as its ``expect`` says.

``conformance/`` holds the project's copies of the shared conformance suite; the other
folders hold the project's own scenarios, one rule clause each (named in ``name``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from canasta.testing.scenario import compare, run_scenario

ROOT = Path(__file__).parent
FILES = sorted(ROOT.rglob("*.json"))


def test_there_are_enough_scenarios() -> None:
    own = [f for f in FILES if f.parent.name != "conformance"]
    assert len(own) >= 100
    assert len(FILES) - len(own) >= 9


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path: Path) -> None:
    scenario = json.loads(path.read_text())
    out = run_scenario(scenario)
    problems = compare(scenario["expect"], out)
    reason = out["illegal"]["reason"] if out["illegal"] else None
    assert not problems, f"{scenario['name']}: {problems} (illegal reason: {reason})"
