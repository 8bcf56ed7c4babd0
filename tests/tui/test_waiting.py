"""A key pressed while a computer player thinks says whose turn it is, and the notice goes with its move."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from canasta.rules import Rules
from canasta.tui.app import PlayApp
from canasta.tui.session import Session
from canasta.tui.table import plain


def test_the_wait_notice_does_not_outlive_the_computer_turn() -> None:
    session = Session.new(Rules(), ["you", "basic", "basic", "basic"], seed=11)
    app = PlayApp(session, bot_delay=0.4)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert session.table.is_bot(session.state.to_act)
            await pilot.press("d")
            status = " ".join(plain(line) for line in app.table.drawn["status"])
            assert f"It is {session.names[session.state.to_act]}'s turn." in status
            for _ in range(400):
                if app.table.my_turn():
                    break
                await pilot.pause(0.05)
            assert app.table.my_turn()
            await pilot.pause()
            status = " ".join(plain(line) for line in app.table.drawn["status"])
            assert "'s turn." not in status, status

    asyncio.run(main())
