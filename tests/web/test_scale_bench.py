"""The pure figures of benchmarks/scale.py: the knee of the curve, delivery times split by process, and the
check that every acknowledged move is in storage (no timing here)."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def scale() -> ModuleType:
    pytest.importorskip("httpx")
    pytest.importorskip("websockets")
    sys.path.insert(0, str(ROOT / "benchmarks"))  # scale.py imports web_load.py beside it
    try:
        spec = importlib.util.spec_from_file_location("scale_benchmark", ROOT / "benchmarks" / "scale.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return module


def step(tables: int, p99: float, failed: bool = False) -> dict[str, object]:
    return {"tables": tables, "ack_ms": {"p99": p99}, "failed": failed}


def test_the_knee_is_the_most_tables_under_the_limit(scale: ModuleType) -> None:
    curve = [step(50, 12.0), step(100, 40.0), step(200, 99.9), step(400, 250.0)]
    assert scale.knee(curve, 100.0) == 200
    assert scale.knee(curve, 30.0) == 50
    assert scale.knee(curve, 5.0) is None
    assert scale.knee([step(50, 10.0), step(100, 20.0, failed=True)], 100.0) == 50  # errors disqualify a step


def test_summary_in_milliseconds(scale: ModuleType) -> None:
    figures = scale.summary_ms([0.001 * n for n in range(1, 101)])
    assert figures == {"n": 100, "p50": 50.0, "p99": 99.0, "max": 100.0}
    assert math.isnan(scale.summary_ms([])["p99"])


def test_deliveries_split_by_process_and_skip_states(scale: ModuleType) -> None:
    acks = {5: (10.0, 0), 6: (11.0, 1), 9: (99.0, 0)}  # state -> (acked at, mover's seat); 9 is outside the window
    arrivals = {0: [(5, 10.0), (6, 11.004)],
                1: [(5, 10.003), (6, 11.0)],
                2: [(5, 10.010), (7, 11.020)],  # state 6 was skipped: it arrived with 7
                3: [(5, 9.999)]}  # before the ack reached its mover: 0, never negative; never got 6
    where = {0: "A", 1: "A", 2: "B", 3: "B"}
    cross, same = scale.deliveries(acks, arrivals, where, (0.0, 50.0))
    assert sorted(round(x, 3) for x in same) == [0.003, 0.004]
    assert sorted(round(x, 3) for x in cross) == [0.0, 0.01, 0.02]
    cross, same = scale.deliveries(acks, arrivals, {0: "A", 2: "B"}, (0.0, 50.0))  # seats not known: left out
    assert [round(x, 3) for x in cross] == [0.01] and same == []


def test_missing_moves_counts_deals_and_moves_only(scale: ModuleType) -> None:
    events = {"t1": [("deal", None, ""), ("move", 1, "draw"), ("chat", 1, "hi"), ("move", 1, "discard 7H"),
                     ("ready", 2, ""), ("deal", None, ""), ("move", 2, "draw")]}
    acked = [("t1", 1, 2, "draw"), ("t1", 1, 3, "discard 7H"), ("t1", 2, 5, "draw")]
    assert scale.missing_moves(acked, events) == []
    wrong = [("t1", 2, 3, "discard 7H"), ("t1", 1, 6, "draw"), ("t2", 0, 1, "draw")]
    assert scale.missing_moves(acked + wrong, events) == wrong
