"""The journal of a long duplicate run: each finished unit on its own JSON line, so a run cut short resumes.

``canasta arena --journal FILE`` and ``canasta ladder --journal DIR`` keep one.  A journal is a text
file of JSON lines.  The first line is the header naming the run (``"journal": "canasta arena"``, a
version, then the caller's fields: the bots, the rules, the seed, the kind of unit); every further
line is one finished unit (a deal with all its replays, or a duplicate match), written and flushed as
soon as it is played: ``{"unit": 3, "seconds": 1.25, "result": ...}``, ``seconds`` being the wall-clock
time since the run's previous line, so the lines add up to the time played.

Opening the journal of the same run reads its units back.  The journal of another run, or a file
that is not a journal, is refused in one line, in the error type the caller names (as
:func:`canasta.jsonfile.read_json` does).  A line that is not a finished unit is skipped with a
warning; a half-written last line (a run killed while writing it) is also cut off, so that the next
line starts on a line of its own.  Standard library only; the caller turns results into JSON and back.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "run.jsonl")
>>> with open_journal(path, {"seed": 1}, int, ValueError) as book:
...     book.append(0, 42, 0.5)
>>> with open(path, "a") as f:
...     _ = f.write('{"unit": 1, "res')  # killed mid-line
>>> with open_journal(path, {"seed": 1}, int, ValueError, warn=print) as book:
...     book.units
canasta: warning: ...run.jsonl: line 3 is half written (a run killed while writing it): cut off
{0: (42, 0.5)}
>>> open_journal(path, {"seed": 2}, int, ValueError)
Traceback (most recent call last):
...
ValueError: ...run.jsonl is the journal of another run: seed 1 there, 2 here
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Generic, TypeVar

MAGIC = "canasta arena"
"""The header's ``journal`` field: what wrote the file."""
VERSION = 1
"""The layout of the lines; a journal of another version is refused."""

T = TypeVar("T")


def warn_on_stderr(message: str) -> None:
    """Print a warning about a journal on standard error, one line."""
    print(message, file=sys.stderr, flush=True)


@dataclass
class Journal(Generic[T]):
    """An open journal: the units read back (index -> result and seconds) and the file to append to."""

    path: Path
    units: dict[int, tuple[T, float]]
    file: IO[str] = field(repr=False)

    def append(self, index: int, result: Any, seconds: float) -> None:
        """Write one finished unit (its result as JSON) and flush it to the file at once."""
        line = {"unit": index, "seconds": round(seconds, 6), "result": result}
        self.file.write(json.dumps(line, separators=(",", ":")) + "\n")
        self.file.flush()

    def close(self) -> None:
        """Close the file; the lines written stay."""
        self.file.close()

    def __enter__(self) -> Journal[T]:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def header_line(header: Mapping[str, Any]) -> str:
    """The first line of a journal of this run."""
    return json.dumps({"journal": MAGIC, "version": VERSION, **header}, separators=(",", ":")) + "\n"


def open_journal(path: str | os.PathLike[str], header: Mapping[str, Any], decode: Callable[[Any], T],
                 error: type[Exception], warn: Callable[[str], None] = warn_on_stderr) -> Journal[T]:
    """The journal at ``path`` of the run ``header`` names, made when missing or empty; ``decode`` turns a
    line's result back into a value (a result it refuses with ``KeyError``, ``TypeError`` or ``ValueError``
    makes its line a broken one); ``error`` is raised, in one line, for a file of another run or no journal."""
    path = Path(path)
    data = path.read_bytes() if path.exists() else b""
    if not data.strip():
        file = open(path, "w", encoding="utf-8")  # the journal owns it until closed
        file.write(header_line(header))
        file.flush()
        return Journal(path, {}, file)
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline, else a line not finished
    if not lines:  # the header itself is not finished: a file of one line with no newline
        lines, tail = [tail], b""
    _check_header(path, lines[0], header, error)
    units: dict[int, tuple[T, float]] = {}
    cut = False
    last = len(lines) + 1 if tail else 0  # the number of the line not finished, if any
    for number, line in enumerate([*lines[1:], tail], 2):
        if not line.strip():
            continue
        try:
            index, result, seconds = _unit(line, decode)
        except (KeyError, TypeError, ValueError) as exc:
            if number == last:
                cut = True
                warn(f"canasta: warning: {path}: line {number} is half written (a run killed while writing it): "
                     "cut off")
            else:
                warn(f"canasta: warning: {path}: line {number} is not a finished unit and is ignored ({exc})")
            continue
        units.setdefault(index, (result, seconds))
    if cut:
        with open(path, "r+b") as raw:
            raw.truncate(len(data) - len(tail))
    file = open(path, "a", encoding="utf-8")  # the journal owns it until closed
    if not cut and not data.endswith(b"\n"):  # a whole last line that only lacks its newline
        file.write("\n")
        file.flush()
    return Journal(path, units, file)


def _check_header(path: Path, line: bytes, header: Mapping[str, Any], error: type[Exception]) -> None:
    """Refuse a first line that is not a journal header, or the header of another run, naming what differs."""
    try:
        found = json.loads(line.decode("utf-8"))
    except ValueError:  # not JSON, or not text (UnicodeDecodeError is a ValueError)
        found = None
    if not isinstance(found, dict) or found.get("journal") != MAGIC:
        raise error(f"{path} is not an arena journal (its first line is not a journal header)")
    if found.get("version") != VERSION:
        raise error(f"{path} is a journal of version {found.get('version')!r}; this canasta reads version {VERSION}")
    expected = json.loads(json.dumps(dict(header)))  # tuples as lists, as they read back
    differs = [f"{key} {_text(found.get(key))} there, {_text(value)} here"
               for key, value in expected.items() if found.get(key) != value]
    if differs:
        raise error(f"{path} is the journal of another run: {'; '.join(differs)}")


def _text(value: Any) -> str:
    """A header value in the error line: JSON, compact."""
    return json.dumps(value, separators=(",", ":"))


def _unit(line: bytes, decode: Callable[[Any], T]) -> tuple[int, T, float]:
    """One unit line read back: its index, result and seconds."""
    data = json.loads(line.decode("utf-8"))
    if not isinstance(data, dict):
        raise TypeError("not a JSON object")
    index = data["unit"]
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise ValueError(f"unit {index!r} is not a whole number >= 0")
    seconds = data.get("seconds", 0.0)
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
        raise TypeError(f"seconds {seconds!r} is not a number")
    return index, decode(data["result"]), float(seconds)


__all__ = ["MAGIC", "VERSION", "Journal", "header_line", "open_journal", "warn_on_stderr"]
