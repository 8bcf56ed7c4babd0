"""``benchmarks/paired.py``: two runs of one bot into one log are refused; other bots may share it."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def paired() -> ModuleType:
    spec = importlib.util.spec_from_file_location("paired_benchmark", ROOT / "benchmarks" / "paired.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_second_run_of_the_same_bot_into_a_log_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locks = tmp_path / "locks"
    locks.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(locks))  # the lock files go here, not in /tmp
    log = tmp_path / "runs.jsonl"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; sys.path.insert(0, sys.argv[1]); import paired; "
         "assert paired.hold_lock(paired.Path(sys.argv[2]), ['search:1s']); print('held', flush=True); time.sleep(60)",
         str(ROOT / "benchmarks"), str(log)], stdout=subprocess.PIPE, text=True,
        env={**os.environ, "TMPDIR": str(locks)})
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        module = paired()
        assert not module.hold_lock(log, ["search:1s"])  # the same bot: refused
        assert module.hold_lock(log, ["search:100ms"])  # another bot may share the log
        assert module.hold_lock(tmp_path / "other.jsonl", ["search:1s"])  # and the bot another log
    finally:
        holder.kill()
        holder.wait()
    assert paired().hold_lock(log, ["search:1s"])  # free again once the first run has ended
    assert len(list(locks.iterdir())) == 3
