"""Issue 15 points 3 and 4: the end of a hand (cards left shown), play again, rules and keys, at 80×24 and 120×40."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from canasta.rules import Rules
from canasta.tui.app import PlayApp, TableScreen
from canasta.tui.session import Session
from canasta.tui.table import card_label, plain
from canasta.tui.widgets import TextScreen
from canasta.views import public_view

SIZES = [(80, 24), (120, 40)]


def screen_text(app: App[Any]) -> str:
    console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(), record=True,
                      legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def run(app: App[Any], size: tuple[int, int], script: Callable[[Pilot[Any]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


@pytest.mark.parametrize("size", SIZES)
def test_the_cards_left_in_each_hand_are_turned_up_when_the_hand_ends(size: tuple[int, int]) -> None:
    session = Session.new(Rules(), ["basic"] * 4, seed=7)  # computer players only: the hand plays itself out
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert session.state.is_over and isinstance(app.screen, TextScreen)
        left = public_view(session.state).hands_left
        page = app.screen.lines
        assert page[0] == "Cards left in each hand:"
        for seat, cards in enumerate(left):
            shown = " ".join(card_label(c) for c in cards) if cards else ("went out", "none")
            line = page[1 + seat]
            assert line.startswith(f"  {session.names[seat]}: ")
            assert line.endswith(shown)
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)
        players = "\n".join(plain(line) for line in app.table.drawn["players"])
        for cards in left:
            if cards:
                assert " ".join(card_label(c) for c in cards[:2]) in players.replace("\n", " ")

    run(app, size, script)
