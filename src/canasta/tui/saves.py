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


def offer_choices(summary: str, seed: int | None) -> tuple[str, str, str]:
    """The question about a match left unfinished, and its two answers: continue it, or start a new one.

    ``summary``: the match left (:meth:`Session.summary`); ``seed``: the seed asked for on the command
    line (``--seed``), named in both answers so that neither drops it unsaid.  Continuing is the
    default: it loses nothing, where a new match replaces the one left.

    >>> question, keep, new = offer_choices("classic, hand 2", 7)
    >>> question
    'You left a match (classic, hand 2). Continue it, or start the new match with seed 7?'
    >>> print(keep); print(new)
    Continue the match you left (seed 7 is not used)
    Start the new match with seed 7: it replaces the one you left
    """
    new = "the new match" + (f" with seed {seed}" if seed is not None else "")
    return (f"You left a match ({summary}). Continue it, or start {new}?",
            "Continue the match you left" + (f" (seed {seed} is not used)" if seed is not None else ""),
            f"Start {new}: it replaces the one you left")


def continue_answer(text: str) -> bool | None:
    """True to continue the match left (Enter, ``c``, ``y``), False for a new one (``n``), None for anything else.

    >>> [continue_answer(t) for t in ("", " C ", "yes", "new", "no", "maybe")]
    [True, True, True, False, False, None]
    """
    answer = text.strip().lower()
    if answer in ("", "c", "continue", "y", "yes"):
        return True
    if answer in ("n", "new", "no"):
        return False
    return None
