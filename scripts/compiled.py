"""Keep the compiled build of canasta up to date in its own tree (``build/compiled/lib`` by default).

``make play`` and ``make test`` run this.  The tree is ``src/canasta`` (linked, file by file or
folder by folder) plus the extension modules mypyc compiles from the modules of
``canasta.buildinfo.COMPILED_MODULES`` (``setup.py build_ext``), which Python imports instead
of their sources.  ``PYTHONPATH=build/compiled/lib`` runs the compiled build; the
virtual environment's editable install stays the pure-Python one, and ``src`` never holds a
compiled file that would shadow its sources.

Compiling takes a minute or two, so it happens only when its inputs change: the compiled modules'
sources, ``setup.py``, the Python and the mypy versions (their hash is kept in ``KEY``).
Other changes show through the links; files added or removed are linked or unlinked at every run.
Without mypy or a C compiler (or with ``--off``, ``make COMPILE=0``) the tree is removed and the
tests of the compiled build skip.

    python scripts/compiled.py [--dir build/compiled] [--off] [--quiet]
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.machinery
import importlib.util
import os
import platform
import runpy
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = SRC / "canasta"
DEFAULT_DIR = ROOT / "build" / "compiled"
EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def compiled_modules() -> list[str]:
    """``canasta.buildinfo.COMPILED_MODULES`` (read without importing canasta), as ``setup.py`` compiles them:
    the modules that import numpy only where numpy is installed."""
    info = runpy.run_path(str(PACKAGE / "buildinfo.py"))
    numpy = importlib.util.find_spec("numpy") is not None
    return [m for m in info["COMPILED_MODULES"] if numpy or m not in info["NEEDS_NUMPY"]]


def source_path(module: str) -> Path:
    return SRC.joinpath(*module.split(".")).with_suffix(".py")


def mypy_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("mypy")
    except Exception:
        return None


def source_key() -> str:
    """The hash of everything the compiled modules are made from."""
    digest = hashlib.sha256()
    for part in (sys.version, platform.machine(), str(mypy_version()), "".join(EXTENSION_SUFFIXES[:1])):
        digest.update(part.encode() + b"\0")
    digest.update(" ".join(compiled_modules()).encode() + b"\0")
    for path in [ROOT / "setup.py", PACKAGE / "buildinfo.py", *map(source_path, compiled_modules())]:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def extension_files(lib: Path, module: str) -> list[Path]:
    """The extension module files of ``module`` in the tree ``lib``."""
    path = lib.joinpath(*module.split("."))
    return [p for p in path.parent.glob(path.name + ".*") if p.name.endswith(EXTENSION_SUFFIXES)]


def is_built(directory: Path) -> bool:
    """True when ``directory`` holds a compiled build of the current sources."""
    lib = directory / "lib"
    key = directory / "KEY"
    return (key.is_file() and key.read_text().strip() == source_key()
            and all(extension_files(lib, m) for m in compiled_modules()))


def link_sources(lib: Path) -> None:
    """Link ``src/canasta`` into the tree next to the extension modules, and unlink what ``src`` lost.

    A folder without compiled modules is one link (its files stay live: an edit shows at once);
    a folder with some is a real folder of links, so its extension modules sit next to their sources.
    """
    compiled = {source_path(m).relative_to(SRC).with_suffix("") for m in compiled_modules()}
    holders = {Path(*c.parent.parts[:n]) for c in compiled for n in range(1, len(c.parent.parts) + 1)}
    _link_folder(PACKAGE, lib / "canasta", Path("canasta"), compiled, holders)


def _link_folder(source: Path, target: Path, rel: Path, compiled: set[Path], holders: set[Path]) -> None:
    target.mkdir(parents=True, exist_ok=True)
    wanted = set()
    for entry in source.iterdir():
        if entry.name == "__pycache__":
            continue
        wanted.add(entry.name)
        dest = target / entry.name
        if entry.is_dir() and rel / entry.name in holders:
            if dest.is_symlink():
                dest.unlink()
            _link_folder(entry, dest, rel / entry.name, compiled, holders)
        elif not (dest.is_symlink() and dest.readlink() == entry):
            if dest.is_dir() and not dest.is_symlink():
                shutil.rmtree(dest)
            elif dest.exists() or dest.is_symlink():
                dest.unlink()
            dest.symlink_to(entry)
    for dest in list(target.iterdir()):
        extension_of = dest.name.split(".")[0] if dest.name.endswith(EXTENSION_SUFFIXES) else None
        if dest.name in wanted or dest.name == "__pycache__" or (extension_of and rel / extension_of in compiled):
            continue
        if dest.is_dir() and not dest.is_symlink():
            shutil.rmtree(dest)
        else:
            dest.unlink()


def build(directory: Path, quiet: bool) -> str | None:
    """Compile into ``directory``; the reason when this machine cannot (no mypy, no compiler)."""
    if mypy_version() is None:
        return "mypy (which includes mypyc) is not installed"
    new = directory / "lib.new"
    for stale in (new, directory / "c", directory / "tmp"):  # C sources and objects of an earlier build
        shutil.rmtree(stale, ignore_errors=True)
    env = dict(os.environ, CANASTA_COMPILE="1", CANASTA_MYPYC_DIR=str(directory / "c"))
    command = [sys.executable, "setup.py", "--quiet", "build_ext", "--build-lib", str(new),
               "--build-temp", str(directory / "tmp"), "--parallel", str(os.cpu_count() or 1)]
    start = time.perf_counter()
    if not quiet:
        print(f"compiling {len(compiled_modules())} modules with mypyc into {directory} ...", flush=True)
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-8000:])
        raise SystemExit(f"compiling canasta failed (exit status {done.returncode})")
    missing = [m for m in compiled_modules() if not extension_files(new, m)]
    if missing:
        pure = "canasta: building the pure-Python package: "
        reasons = [line[len(pure):] for line in done.stderr.splitlines() if line.startswith(pure)]
        if reasons:
            shutil.rmtree(new, ignore_errors=True)
            return reasons[0]
        sys.stderr.write(done.stderr[-8000:])
        raise SystemExit(f"compiling canasta made no extension module for {', '.join(missing)}")
    lib = directory / "lib"
    shutil.rmtree(lib, ignore_errors=True)
    new.rename(lib)
    (directory / "KEY").write_text(source_key() + "\n")
    if not quiet:
        print(f"compiled in {time.perf_counter() - start:.0f} s", flush=True)
    return None


def remove(directory: Path) -> None:
    shutil.rmtree(directory / "lib", ignore_errors=True)
    (directory / "KEY").unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="where the build lives (default build/compiled)")
    parser.add_argument("--off", action="store_true", help="remove the compiled build instead (make COMPILE=0)")
    parser.add_argument("--quiet", action="store_true", help="say nothing when the build is up to date")
    args = parser.parse_args(argv)
    directory: Path = args.dir.resolve()
    if args.off:
        remove(directory)
        print("compiled build: off (COMPILE=0); the compiled tests skip")
        return 0
    if not is_built(directory):
        reason = build(directory, args.quiet)
        if reason is not None:
            remove(directory)
            print(f"compiled build: none, {reason}; the compiled tests skip")
            return 0
    link_sources(directory / "lib")
    if not args.quiet:
        print(f"compiled build: {directory / 'lib'} ({len(compiled_modules())} modules compiled by mypyc)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
