"""Build canasta: pure Python by default; with ``CANASTA_COMPILE=1`` the engine is compiled too.

Everything else about the package is in ``pyproject.toml``.  ``CANASTA_COMPILE=1`` compiles the
modules of ``canasta.buildinfo.COMPILED_MODULES`` with mypyc into extension modules that sit
next to their ``.py`` sources (which stay in the package: the reference and the fallback).
Without mypy or a working C compiler it says why and builds the pure-Python package, so
``pip install canasta`` works everywhere; ``canasta --version`` tells which build runs.

    CANASTA_COMPILE=1 pip install .                        # mypy comes into the build environment
    CANASTA_COMPILE=1 python setup.py build_ext --build-lib DIR   # what `make` does (see scripts/compiled.py)
"""

from __future__ import annotations

import importlib.util
import os
import runpy
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from setuptools import setup

HERE = Path(__file__).resolve().parent
WANTED = os.environ.get("CANASTA_COMPILE", "0").strip().lower() in ("1", "yes", "true", "on")
METADATA_ONLY = bool({"egg_info", "dist_info"} & set(sys.argv[1:]))  # pip asks for requirements, metadata
EDITABLE = bool({"editable_wheel", "develop"} & set(sys.argv[1:]))  # would put the compiled files into src
MYPYC_DIR = os.environ.get("CANASTA_MYPYC_DIR", os.path.join("build", "mypyc"))  # mypyc's C sources


def compiled_sources() -> list[str]:
    """The source files of the compiled modules, relative to this directory (as mypyc wants them).

    The modules that import numpy are left out (interpreted) where numpy is not installed.
    """
    info = runpy.run_path(str(HERE / "src" / "canasta" / "buildinfo.py"))
    numpy = importlib.util.find_spec("numpy") is not None
    return [os.path.join("src", *name.split(".")) + ".py" for name in info["COMPILED_MODULES"]
            if numpy or name not in info["NEEDS_NUMPY"]]


def compiler_problem() -> str | None:
    """Why no C extension can be built here (no compiler, no Python headers), or None."""
    try:
        from setuptools._distutils.ccompiler import new_compiler
        from setuptools._distutils.sysconfig import customize_compiler

        compiler: Any = new_compiler()
        customize_compiler(compiler)
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp, "probe.c")
            source.write_text("#include <Python.h>\nint canasta_probe(void) { return 0; }\n")
            compiler.compile([str(source)], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]])
    except Exception as exc:  # any failure means: no compiled build here
        lines = str(exc).strip().splitlines()
        return f"no working C compiler with the Python headers ({lines[-1] if lines else repr(exc)})"
    return None


def ext_modules() -> list[Any]:
    """mypyc's extension modules when a compiled build is wanted and possible, else none."""
    if not WANTED or METADATA_ONLY:
        return []
    if EDITABLE:
        print("canasta: an editable install stays pure Python (make builds the compiled one in build/compiled)",
              file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        problem: str | None = "mypy (which includes mypyc) is not installed"
    else:
        problem = compiler_problem()
    if problem is not None:
        print(f"canasta: building the pure-Python package: {problem}", file=sys.stderr)
        return []
    return list(mypycify(compiled_sources(), opt_level="3", target_dir=MYPYC_DIR, multi_file=True))


def build_requires() -> list[str]:
    """What a compiled build needs that is missing: pip puts it in its isolated build environment.

    pip asks for them (``egg_info``) before it builds; ``setup.py build_ext`` run by hand gets none
    (setuptools would try to fetch them itself).
    """
    if not WANTED or not METADATA_ONLY:
        return []
    missing = []
    if importlib.util.find_spec("mypyc") is None:
        missing.append("mypy>=1.16")
    if importlib.util.find_spec("numpy") is None:
        missing.append("numpy>=1.26")  # so that the research modules are compiled too
    return missing


setup(ext_modules=ext_modules(), setup_requires=build_requires())
