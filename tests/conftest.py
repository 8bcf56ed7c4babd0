"""Every test keeps its autosaves in its own folder, never in the user's data folder; hints come from the expert."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("canasta-data")
    monkeypatch.setenv("CANASTA_DATA_DIR", str(folder))
    return folder


@pytest.fixture(scope="session", autouse=True)
def _expert_hints() -> Iterator[None]:
    """The front ends' hints come from the expert in tests (fast, the same every time), servers started
    by a test included; tests/bots/test_hints.py tests the search's hints with a fixed rollout budget."""
    before = os.environ.get("CANASTA_HINT_BOT")
    os.environ["CANASTA_HINT_BOT"] = "expert"
    yield
    if before is None:
        del os.environ["CANASTA_HINT_BOT"]
    else:
        os.environ["CANASTA_HINT_BOT"] = before
