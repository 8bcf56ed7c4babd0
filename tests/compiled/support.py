"""Where the compiled build is, and how to run code in either build as a separate process."""

from __future__ import annotations

import importlib.machinery
import json
import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
BUILD = os.environ.get("CANASTA_BUILD")
"""The build ``make test`` says this run tests (``interpreted`` or ``compiled``); unset outside ``make``."""


def compiled_lib() -> Path:
    """The compiled build's tree (``make`` passes it in ``CANASTA_COMPILED_LIB``)."""
    return Path(os.environ.get("CANASTA_COMPILED_LIB") or ROOT / "build" / "compiled" / "lib")


def why_no_compiled_build() -> str | None:
    """Why the compiled build cannot be tested here (none, or out of date), or None when it can."""
    lib = compiled_lib()
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    if not any(p.name.endswith(suffixes) for p in (lib / "canasta").glob("state.*")):
        return (f"no compiled build in {lib}: make test builds one where mypy and a C compiler are at hand "
                "(make COMPILE=0 does without)")
    builder = runpy.run_path(str(ROOT / "scripts" / "compiled.py"))
    if not builder["is_built"](lib.parent):
        return f"the compiled build in {lib} is older than the sources: python scripts/compiled.py updates it"
    return None


def needs_compiled_build() -> pytest.MarkDecorator:
    reason = why_no_compiled_build()
    return pytest.mark.skipif(reason is not None, reason=reason or "")


def once() -> pytest.MarkDecorator:
    """For the tests that run both builds themselves: they run in the interpreted run only."""
    return pytest.mark.skipif(BUILD == "compiled", reason="it runs both builds itself, from the interpreted run")


def run(build: str, args: list[str], timeout: float = 300) -> str:
    """Run ``python ARGS`` from the repository's root in ``build``; its standard output."""
    path = str(compiled_lib()) if build == "compiled" else str(SRC)
    env = dict(os.environ, PYTHONPATH=path, PYTHONHASHSEED="0")
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{build}: {' '.join(args)}\n{done.stderr[-3000:]}"
    return done.stdout


def run_json(build: str, args: list[str], timeout: float = 300) -> Any:
    return json.loads(run(build, args, timeout).strip().splitlines()[-1])
