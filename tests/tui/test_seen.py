"""Issue 15, point 3 (part): the cards drawn or taken are marked and named; wild cards and red suits differ."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from textual.pilot import Pilot

from canasta.cards import parse_cards
from canasta.tui.app import PlayApp
from canasta.tui.table import FRESH, card_style, hand_lines

from .test_keep import SIZES, run_at
from .test_tui import custom_session, select, widget_text


@pytest.mark.parametrize("size", SIZES)
def test_the_drawn_card_is_named_and_marked_until_the_next_move(size: tuple[int, int]) -> None:
    session = custom_session(["9S", "9H", "7C", "7C", "2S", "2H", "KS", "QD", "5H", "6C", "4D"], "8S", "4C")
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("d")
        assert "You drew 4♣." in widget_text(app, "status")
        assert "new: 4♣" in widget_text(app, "hand-title")
        hand = app.table.hand
        marked = [i for i, span in enumerate(s for line in app.table.drawn["hand"] for s in line if s[0].strip())
                  if FRESH in span[1]]
        assert [hand[i] for i in marked] == parse_cards(["4C"]) or hand[app.table.cursor] == parse_cards(["4C"])[0]
        await select(pilot, app, tuple(parse_cards(["9S", "9H", "7C", "7C", "2S", "2H"])))
        await pilot.press("m")
        assert "new:" not in widget_text(app, "hand-title") and "drew" not in widget_text(app, "status")

    run_at(app, size, script)


def test_taking_the_pile_says_how_many_cards() -> None:
    session = custom_session(["9H", "9D", "AS", "AH", "AD", "5C", "6C", "7C", "8C", "TC", "JC"], "9S", "4C")
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await select(pilot, app, tuple(parse_cards(["9H", "9D", "AS", "AH", "AD"])))
        await pilot.press("p")
        status = widget_text(app, "status")
        assert "You took the pile: 1 card, top 9♠" in status

    run_at(app, SIZES[0], script)


def test_wild_cards_red_and_black_suits_have_distinct_styles() -> None:
    two_spades, heart, spade, joker = parse_cards(["2S", "KH", "KS", "JK"])
    assert len({card_style(two_spades), card_style(heart), card_style(spade)}) == 3
    assert card_style(two_spades) == card_style(joker) and "red" not in card_style(two_spades)
    line = hand_lines((spade, heart), fresh=frozenset({1}))[0]
    assert FRESH in line[-1][1] and FRESH not in line[0][1]
