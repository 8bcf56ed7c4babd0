"""The wheel (and so the container image, which installs it) carries every file the server serves."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "canasta"


def shipped(path: Path, patterns: list[str]) -> bool:
    relative = path.relative_to(PACKAGE).as_posix()
    # setuptools' globs do not cross folders: "web/static/*" is one level, as fnmatch with "/" kept apart
    return any(fnmatch.fnmatch(relative, p) and relative.count("/") == p.count("/") for p in patterns)


def test_every_static_file_and_font_is_in_the_package_data() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["canasta"]
    served = [p for folder in ("web/static", "sheets/fonts") for p in (PACKAGE / folder).rglob("*")
              if p.is_file() and "node_modules" not in p.parts]
    assert len(served) > 40
    missing = [str(p.relative_to(PACKAGE)) for p in served if not shipped(p, patterns)]
    assert not missing, f"not in [tool.setuptools.package-data]: {missing}"


def test_a_file_one_folder_too_deep_is_seen_as_missing() -> None:
    assert not shipped(PACKAGE / "web" / "static" / "room" / "x" / "y.js", ["web/static/*", "web/static/*/*"])
    assert shipped(PACKAGE / "web" / "static" / "room" / "room.js", ["web/static/*", "web/static/*/*"])
    assert not shipped(PACKAGE / "web" / "static" / "room" / "room.js", ["web/static/*", "web/static/game/*"])
