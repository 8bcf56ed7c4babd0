"""A training command's refusal: exit 2, one line on stderr naming the problem, no file written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


def assert_refused(main: Callable[[list[str]], None], args: list[str], error: str, folder: Path,
                   capsys: pytest.CaptureFixture[str]) -> None:
    """Run ``main(args)`` in ``folder`` (the current directory) and check that it refused with ``error``."""
    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    message = capsys.readouterr().err.strip().splitlines()[-1]
    assert error in message and "Traceback" not in message
    assert list(folder.iterdir()) == []
