"""Issue 15 point 3: what happened is visible, in words like the browser's log, at 80×24 and 120×40."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from textual.pilot import Pilot

from canasta import from_position
from canasta.rules import Rules
from canasta.tui.app import PlayApp
from canasta.tui.session import Session
from canasta.tui.table import plain
from canasta.tui.words import say_move, tell
from canasta.views import public_view

SIZES = [(80, 24), (120, 40)]
NAMES = ["South", "West", "North", "East"]
POSITION = {
    "rules": "classic",
    "dealer": 3,
    "turn": 0,
    "scores": [0, 0],
    "hands": [["9S", "9H", "KS", "QS"], ["JH", "JD", "8H"], ["5C", "5D"], ["8C", "8D"]],
    "stock": ["3D", "QC", "QD", "7S", "3H"],  # a red three at either end
    "pile": ["6H", "TC", "9D"],
    "melds": [{"A": ["AS", "AH", "AD"]}, {}],
    "red_threes": [[], []],
}


def test_a_take_says_how_many_cards_and_the_top_one() -> None:
    s = from_position(POSITION)
    before = public_view(s)
    s.play("pile 9S 9H")
    assert tell(before, public_view(s), 0, "pile 9S 9H", NAMES) == [
        "South took the pile: 3 cards, top 9♦, with 9♠ 9♥"]


def test_a_red_three_drawn_is_laid_out_in_words_and_the_card_drawn_stays_hidden() -> None:
    s = from_position(POSITION)
    before = public_view(s)
    s.play("draw")
    lines = tell(before, public_view(s), 0, "draw", NAMES)
    assert lines[0] == "South drew from the stock"
    assert any(re.fullmatch("South laid out a red three: 3[♥♦]", line) for line in lines), lines
    assert not any("Q" in line or "7" in line for line in lines)  # the replacement card is South's secret


def test_moves_in_words_from_their_notation() -> None:
    assert say_move("East", "meld 8S 8H 2C") == "East melded 8♠ 8♥ 2♣"
    assert say_move("East", "meld 8S 8H, K: JK") == "East melded 8♠ 8♥, K: JK"
    assert say_move("West", "discard TH") == "West discarded 10♥"
    assert say_move("North", "yes") == "North answered yes"


@pytest.mark.parametrize("size", SIZES)
def test_the_table_and_the_log_speak_in_words(size: tuple[int, int]) -> None:
    session = Session.new(Rules(), ["you", "basic", "basic", "basic"], seed=7)
    app = PlayApp(session, bot_delay=0)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await play_a_turn(pilot)
            recent = "\n".join(plain(line) for line in app.table.drawn["recent"])
            if size[1] >= 30:  # a tall terminal lists the moves one a line
                assert recent.startswith("Since your last move:") and len(app.table.drawn["recent"]) > 2
            else:
                assert recent.startswith("Last: ") and len(app.table.drawn["recent"]) <= 2
            assert re.search(r"(drew from the stock|took the pile|melded|discarded)", recent), recent
            assert not re.search(r"\b(draw|discard) [2-9TJQKA][SHDC]\b", recent)  # no raw notation
            await pilot.press("L")
            page = "\n".join(app.screen.lines)  # type: ignore[attr-defined]
            assert "The pile starts with" in page
            assert re.search(r"\d+\. You (drew from the stock|took the pile)", page), page
            assert "discarded" in page

    async def play_a_turn(pilot: Pilot[Any]) -> None:
        await pilot.press("d")
        await pilot.press("x")
        await pilot.pause()

    asyncio.run(main())
