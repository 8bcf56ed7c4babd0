"""Issue 15, point 1: nothing is lost — autosave, ``--continue``, Ctrl-C/Ctrl-Q ask, ``--plain`` saves, no TTY."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from textual.app import App
from textual.pilot import Pilot

from canasta.rules import Rules
from canasta.tui.app import PlayApp, TableScreen
from canasta.tui.saves import autosave_path
from canasta.tui.session import Session
from canasta.tui.widgets import ChoiceScreen, QuitScreen

from .test_tui import BASIC, command, play_hinted_turn, screen_text

SIZES = [(80, 24), (120, 40)]
SRC = str(Path(__file__).resolve().parents[2] / "src")


def run_at(app: App[Any], size: tuple[int, int], script: Callable[[Pilot[Any]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("key", ["ctrl+c", "ctrl+q"])
def test_ctrl_c_and_ctrl_q_ask_like_q(size: tuple[int, int], key: str, tmp_path: Path) -> None:
    app = PlayApp(Session.new(Rules(), BASIC, seed=2), bot_delay=0, autosave=tmp_path / "auto.json")

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press(key)
        assert isinstance(app.screen, QuitScreen)
        await pilot.pause()
        text = screen_text(app)
        assert "Save the match before you leave?" in text and "canasta play --continue" in text
        assert all(len(line) <= size[0] for line in text.splitlines())
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen) and app.is_running
        await pilot.press(key, key)  # asked twice: leave

    run_at(app, size, script)
    assert app.return_code == 0


@pytest.mark.parametrize("size", SIZES)
def test_every_move_is_kept_and_offered_back(size: tuple[int, int], tmp_path: Path) -> None:
    auto = tmp_path / "data" / "autosave.canasta.json"
    first = Session.new(Rules(), BASIC, seed=9)
    app = PlayApp(first, bot_delay=0, autosave=auto)

    async def script(pilot: Pilot[Any]) -> None:
        await play_hinted_turn(pilot, app)
        assert Session.load(str(auto)).to_record() == first.to_record()
        await play_hinted_turn(pilot, app)
        assert Session.load(str(auto)).to_record() == first.to_record()
        await pilot.press("ctrl+q", "n")

    run_at(app, size, script)
    assert app.return_code == 0
    kept = Session.load(str(auto))
    assert kept.to_record() == first.to_record()

    # The next `canasta play` offers the match left unfinished: 1 continues it.
    app2 = PlayApp(Session.new(Rules(), BASIC, seed=10), bot_delay=0, autosave=auto, offer=kept)

    async def again(pilot: Pilot[Any]) -> None:
        assert isinstance(app2.screen, ChoiceScreen)
        await pilot.pause()
        text = screen_text(app2)
        assert "You left a match" in text and "hand 1" in text and "Continue it" in text
        await pilot.press("1")
        assert app2.table.session is kept
        assert app2.table.session.state.hand(0) == first.state.hand(0)

    run_at(app2, size, again)

    # 2 starts a new match, which replaces the saved one.
    fresh = Session.new(Rules(), BASIC, seed=11)
    app3 = PlayApp(fresh, bot_delay=0, autosave=auto, offer=Session.load(str(auto)))

    async def new(pilot: Pilot[Any]) -> None:
        await pilot.press("2")
        assert app3.table.session is fresh

    run_at(app3, size, new)
    assert Session.load(str(auto)).seed == 11


def test_a_won_match_removes_the_autosave(tmp_path: Path) -> None:
    auto = tmp_path / "auto.json"
    session = Session.new(Rules.from_preset("classic", target=50), ["basic"] * 4, seed=3)
    assert session.autosave(auto) is None and auto.exists()
    while not session.match.is_over:
        session.table.run_bots()
        if session.state.is_over and not session.match.is_over:
            session.deal_next()
    assert session.autosave(auto) is None and not auto.exists()


def test_continue_without_a_saved_match_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert command(["play", "--continue"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta: no match to continue") and err.count("\n") == 1
    assert command(["play", "--continue", "--seed", "3"]) == 2
    assert "drop --seed" in capsys.readouterr().err


def test_plain_saves_and_resumes(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                 tmp_path: Path) -> None:
    saved = tmp_path / "mine.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"draw\nsave {saved}\nquit\n"))
    assert command(["play", "--plain", "--seed", "4", "--seats", "you,basic,basic,basic"]) == 0
    out = capsys.readouterr().out
    assert f"Saved to {saved}" in out and "canasta play --plain --continue" in out
    kept = Session.load(str(autosave_path()))
    assert kept.state.history[-1] == (0, kept.state.history[-1][1]) and str(kept.state.history[-1][1]) == "draw"
    assert Session.load(str(saved)).to_record() == kept.to_record()

    # --continue goes on where the player left: after the draw, in the play phase.
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert command(["play", "--plain", "--continue"]) == 0
    out = capsys.readouterr().out
    assert "You (play) > " in out and "Seed 4, hand 1" in out
    # --resume FILE --plain, too.
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert command(["play", "--plain", "--resume", str(saved)]) == 0
    assert "You (play) > " in capsys.readouterr().out

    # A new `canasta play --plain` offers the match left unfinished.
    monkeypatch.setattr("sys.stdin", io.StringIO("y\nquit\n"))
    assert command(["play", "--plain", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "You left a match (classic, hand 1: You & Basic 3 0 · Basic 2 & Basic 4 0)" in out
    assert "Seed 4, hand 1" in out and "You (play) > " in out


def test_no_tty_plays_line_by_line_and_ends(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    env = {**os.environ, "PYTHONPATH": SRC, "CANASTA_DATA_DIR": str(tmp_path / "data")}
    with open(out, "w") as f:
        done = subprocess.run([sys.executable, "-m", "canasta.cli", "play", "--seed", "1"], stdin=subprocess.DEVNULL,
                              stdout=f, stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    assert done.returncode == 0
    assert done.stderr == "canasta: not a terminal: playing line by line (--plain)\n"
    text = out.read_text()
    assert "\x1b" not in text and "Your hand:" in text and text.rstrip().endswith("canasta play --plain --continue")


@pytest.mark.parametrize("size", SIZES)
def test_seed_given_with_a_match_left_is_asked_about_and_enter_drops_nothing_unsaid(size: tuple[int, int],
                                                                                  tmp_path: Path) -> None:
    """Issue 27 point 4: ``canasta play --seed 11`` with a match left names seed 11 in both answers; Enter
    continues the match left (nothing is lost) and the table says that seed 11 was not used."""
    auto = tmp_path / "autosave.canasta.json"
    left = Session.new(Rules(), BASIC, seed=9)
    assert left.autosave(auto) is None
    app = PlayApp(Session.new(Rules(), BASIC, seed=11), bot_delay=0, autosave=auto, offer=Session.load(str(auto)),
                  seed=11)

    async def script(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.pause()
        flat = " ".join(" ".join(line.strip(" │║▎▊").split()) for line in screen_text(app).splitlines())
        assert "Continue it, or start the new match with seed 11? (Enter: continue it)" in flat
        assert "1. Continue the match you left (seed 11 is not used)" in flat
        assert "2. Start the new match with seed 11: it replaces the one you left" in flat
        await pilot.press("enter")
        assert app.table.session.seed == 9
        assert "This is the match you left (seed 9); seed 11 is not used." in " ".join(screen_text(app).split())

    run_at(app, size, script)
    assert Session.load(str(auto)).seed == 9
