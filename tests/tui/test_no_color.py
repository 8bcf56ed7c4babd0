"""Issue 27 point 4: ``NO_COLOR`` (set and not empty, https://no-color.org) means no colour escape at all.

Each command runs in a pseudo-terminal of 80×24, as a person would run it, and every byte it writes
is read back: no SGR sequence may set a foreground or background colour (30–38, 40–48, 90–97,
100–107; 39 and 49, the terminal's own colours, are what "no colour" is written with).  The
full-screen table and replay are Textual apps, whose own greys must go too, not only the cards'.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests/play/data/match_record_ed11542.json"
SGR = re.compile(rb"\x1b\[([0-9;:]*)m")


def colours(output: bytes) -> list[str]:
    """Every colour an SGR sequence of ``output`` sets (``38;5;253``, ``44``), in order.

    >>> colours(b"\\x1b[1m\\x1b[39m\\x1b[49mplain\\x1b[0;2m \\x1b[38;5;253mgrey\\x1b[1;97;44mblue")
    ['38;5;253', '97', '44']
    """
    found = []
    for match in SGR.finditer(output):
        params = [p for p in re.split(r"[;:]", match.group(1).decode()) if p] or ["0"]
        i = 0
        while i < len(params):
            code = int(params[i])
            if code in (38, 48, 58):  # 38;5;N or 38;2;R;G;B
                size = 3 if i + 1 < len(params) and params[i + 1] == "5" else 5
                found.append(";".join(params[i:i + size]))
                i += size
                continue
            if 30 <= code <= 37 or 40 <= code <= 47 or 90 <= code <= 97 or 100 <= code <= 107:
                found.append(str(code))
            i += 1
    return found


def run_in_terminal(args: list[str], tmp_path: Path, until: str, keys: Sequence[str] = ()) -> bytes:
    """``canasta ARGS`` in an 80×24 pseudo-terminal with NO_COLOR=1: its output once ``until`` shows, then
    ``keys`` typed one by one; the process is ended if it has not ended by itself."""
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm-256color", "COLORTERM": "truecolor",
           "PYTHONPATH": str(ROOT / "src"), "CANASTA_DATA_DIR": str(tmp_path / "data")}
    process = subprocess.Popen([sys.executable, "-m", "canasta.cli", *args], stdin=child, stdout=child,
                               stderr=child, env=env, close_fds=True)
    os.close(child)
    output = b""

    def read_for(seconds: float, wanted: str | None = None) -> None:
        nonlocal output
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([main], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the child ended
                    return
                if not chunk:
                    return
                output += chunk
                if wanted is not None and wanted.encode() in output:
                    return

    try:
        read_for(60, until)
        assert until.encode() in output, output[-2000:]
        for key in keys:
            if process.poll() is None:
                os.write(main, key.encode())
                read_for(0.5)
        read_for(1)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)
        os.close(main)
    return output


@pytest.mark.parametrize("args, until, keys", [
    (["play", "--seed", "5", "--seats", "you,basic,basic,basic", "--bot-delay", "0"], "Your turn", ["q", "n"]),
    (["replay", str(RECORD)], "Replay", ["q"]),
], ids=["play", "replay"])
def test_no_color_draws_the_full_screen_without_any_colour(args: list[str], until: str, keys: list[str],
                                                           tmp_path: Path) -> None:
    pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")
    output = run_in_terminal(args, tmp_path, until, keys)
    assert SGR.search(output)  # bold and reverse stay: the table is still drawn with its attributes
    assert colours(output) == [], sorted(set(colours(output)))[:10]


@pytest.mark.parametrize("args, until", [
    (["play", "--plain", "--seed", "5", "--seats", "you,basic,basic,basic"], "You (draw) >"),
    (["bots"], "Computer players"),
    (["rules", "two-player"], "## The cards"),
], ids=["plain", "bots", "rules"])
def test_no_color_in_the_plain_game_and_the_command_line(args: list[str], until: str, tmp_path: Path) -> None:
    output = run_in_terminal(args, tmp_path, until, ["quit\n"])
    assert colours(output) == []


@pytest.mark.parametrize("value, colours", [("1", False), ("", None)])
def test_the_servers_log_follows_no_color(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str,
                                           colours: bool | None) -> None:
    """``canasta serve`` logs through uvicorn, which colours its lines on a terminal unless told not to."""
    uvicorn = pytest.importorskip("uvicorn", reason="the server needs the web extra")
    from canasta.web import server

    seen: dict[str, object] = {}

    class Config:
        def __init__(self, app: object, **options: object) -> None:
            seen.update(options)

    monkeypatch.setattr(uvicorn, "Config", Config)
    monkeypatch.setattr(uvicorn, "Server", lambda config: type("S", (), {"run": lambda self: None})())
    monkeypatch.setenv("NO_COLOR", value)
    server.serve(db=str(tmp_path / "s.sqlite3"), quiet=True)
    assert seen["use_colors"] is colours
