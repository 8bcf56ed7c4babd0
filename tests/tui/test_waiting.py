"""A key pressed while a computer player thinks says whose turn it is, and the notice goes with its move."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from canasta.rules import Rules
from canasta.tui.app import PlayApp
from canasta.tui.session import Session
from canasta.tui.table import plain

FIRST_THINKS = 5.0
"""Seconds the first computer player thinks (its move waits for the screen's timer): the key is pressed and the
notice read well within them however loaded the machine; the timer is not what is tested.  A computer player
thinks in the screen's own message loop, so the test cannot hold it any other way without holding the keys too."""


def test_the_wait_notice_does_not_outlive_the_computer_turn() -> None:
    session = Session.new(Rules(), ["you", "basic", "basic", "basic"], seed=11)
    first = session.state.to_act
    assert session.table.is_bot(first)
    app = PlayApp(session, bot_delay=FIRST_THINKS)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert session.state.to_act == first
            await pilot.press("d")
            status = " ".join(plain(line) for line in app.table.drawn["status"])
            assert session.state.to_act == first, "the computer moved before the key: the test is too slow"
            assert f"It is {session.names[first]}'s turn." in status, status
            app.table.bot_delay = 0.05  # the next computer players answer at once
            deadline = time.monotonic() + FIRST_THINKS + 60
            while not app.table.my_turn() and time.monotonic() < deadline:
                await pilot.pause(0.05)
            assert app.table.my_turn()
            await pilot.pause()
            status = " ".join(plain(line) for line in app.table.drawn["status"])
            assert "'s turn." not in status, status

    asyncio.run(main())
