"""Reading a JSON file a person gave us: every failure is one sentence in the caller's error type.

>>> read_json("/no/such/file.json", ValueError)
Traceback (most recent call last):
...
ValueError: cannot read /no/such/file.json: No such file or directory
"""

from __future__ import annotations

import json
import os
from typing import Any


def read_json(path: str | os.PathLike[str], error: type[Exception]) -> Any:
    """The JSON in ``path``; raises ``error`` with one line when it cannot be read or parsed."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise error(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except UnicodeDecodeError:
        raise error(f"{path} is not a text file") from None
