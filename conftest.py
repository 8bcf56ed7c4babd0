"""Collect the web modules' doctests only where the web extra is installed."""

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("fastapi") else ["src/canasta/web/*"]
