"""Where the server's files are: ``STATIC``, the pages, scripts and styles it serves under ``/static``."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

STATIC = Path(str(files("canasta.web") / "static"))
"""The folder of the page files (``canasta/web/static`` in the installed package)."""
