"""Every test keeps its autosaves in its own folder, never in the user's data folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("canasta-data")
    monkeypatch.setenv("CANASTA_DATA_DIR", str(folder))
    return folder
