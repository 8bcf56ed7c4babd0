"""Where a match is kept between runs: the autosave in the per-user data folder.

Every move of ``canasta play`` (full screen or ``--plain``) rewrites one file,
``autosave.canasta.json``, in the per-user data folder: ``$CANASTA_DATA_DIR`` when set, else
platformdirs' ``user_data_dir("canasta")`` (``~/.local/share/canasta`` on Linux,
``~/Library/Application Support/canasta`` on macOS, ``%LOCALAPPDATA%\\canasta`` on Windows),
else, without platformdirs, ``$XDG_DATA_HOME/canasta`` or ``~/.local/share/canasta``.
``canasta play --continue`` goes on with it; a finished match removes it.

>>> import os; os.environ["CANASTA_DATA_DIR"] = "/tmp/x"
>>> str(autosave_path())
'/tmp/x/autosave.canasta.json'
>>> del os.environ["CANASTA_DATA_DIR"]
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_DIR_ENV = "CANASTA_DATA_DIR"
AUTOSAVE_NAME = "autosave.canasta.json"


def data_dir() -> Path:
    """The per-user folder where matches are kept (see the module's text)."""
    given = os.environ.get(DATA_DIR_ENV)
    if given:
        return Path(given)
    try:
        from platformdirs import user_data_dir
    except ImportError:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
        return Path(base) / "canasta"
    return Path(user_data_dir("canasta", appauthor=False))


def autosave_path() -> Path:
    """The file every move of the match in play is written to."""
    return data_dir() / AUTOSAVE_NAME
