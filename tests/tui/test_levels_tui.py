"""The terminal table names the levels of its computer players, with their measured strength, on the keys page."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from textual.pilot import Pilot

from canasta.bots import LEVELS
from canasta.rules import Rules
from canasta.tui.app import PlayApp
from canasta.tui.session import Session
from canasta.tui.widgets import TextScreen

from .test_tui import run


def test_the_keys_page_says_how_strong_each_level_at_the_table_is() -> None:
    session = Session.new(Rules.from_preset("classic"), ["you", "Club", "expert", "beginner"], seed=7)
    app = PlayApp(session, bot_delay=0)
    strength = {level.name: level.strength for level in LEVELS}

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("k")
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "Keys"
        page = "\n".join(app.screen.lines)
        assert "Computer players at this table" in page
        for seat, level in (("Club 2", "Club"), ("Expert 3", "Expert"), ("Beginner 4", "Beginner")):
            assert f"  {seat}: {level}, {strength[level]}" in page

    run(app, script)
