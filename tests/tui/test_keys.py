"""Issue 15, point 2: every legal move by keys — wild cards split over new melds, the hint's way chosen first,
and a typed move that leaves the hand in sight."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from textual.pilot import Pilot

from canasta.cards import parse_cards
from canasta.moves import Move
from canasta.tui.app import PlayApp
from canasta.tui.widgets import ChoiceScreen, PromptScreen

from .test_keep import SIZES, run_at
from .test_tui import custom_session, screen_text, select, widget_text


@pytest.mark.parametrize("size", SIZES)
def test_wild_cards_split_over_two_new_melds_by_keys(size: tuple[int, int]) -> None:
    session = custom_session(["9S", "9H", "7C", "7C", "2S", "2H", "KS", "QD", "5H", "6C", "4D"], "8S", "4C")
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("d")
        await select(pilot, app, tuple(parse_cards(["9S", "9H", "7C", "7C", "2S", "2H"])))
        await pilot.press("m")  # one wild card to each: the only legal way, played at once
        seat, move = session.state.history[-1]
        assert seat == 0 and move.action == "meld"
        assert sorted(str(g) for g in move.groups) in (["7C 7C 2H", "9S 9H 2S"], ["7C 7C 2S", "9S 9H 2H"])
        sides = widget_text(app, "sides")
        assert "9: 9♠ 9♥ 2♠" in sides or "9: 9♠ 9♥ 2♥" in sides

    run_at(app, size, script)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("hinted_text", ["meld 9S 9H 9D, 7C 7C 7D 2S", "meld 9S 9H 9D 2S, 7C 7C 7D"])
def test_several_legal_splits_are_listed_with_the_hints_first(size: tuple[int, int], hinted_text: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    session = custom_session(["9S", "9H", "9D", "7C", "7C", "7D", "2S", "KS", "QD", "5H", "4D"], "8S", "4C")
    hinted = Move.parse(hinted_text)
    monkeypatch.setattr("canasta.tui.app.hint", lambda view, moves: (hinted, "the wild card makes the 7s safer"))
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("d", "question_mark")
        assert sorted(app.table.selected_cards()) == sorted(hinted.cards)
        await pilot.press("m")
        assert isinstance(app.screen, ChoiceScreen)
        labels = app.screen.labels
        assert len(labels) == 2 and any("9♠ 9♥ 9♦ 2♠" in label for label in labels)
        await pilot.pause()
        assert "How do the wild cards go?" in screen_text(app)
        wild_with = "9♦ 2♠" if "9D 2S" in hinted_text else "7♣ 2♠"
        assert wild_with in labels[app.screen.query_one("#choices").highlighted]  # type: ignore[attr-defined]
        await pilot.press("enter")
        played = session.state.history[-1][1]
        assert sorted(sorted(g.cards) for g in played.groups) == sorted(sorted(g.cards) for g in hinted.groups)

    run_at(app, size, script)


@pytest.mark.parametrize("size", SIZES)
def test_typing_a_move_keeps_the_hand_in_sight(size: tuple[int, int]) -> None:
    session = custom_session(["9S", "9H", "7C", "7C", "2S", "2H", "KS", "QD", "5H", "6C", "4D"], "8S", "4C")
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("d", "colon")
        assert isinstance(app.screen, PromptScreen)
        await pilot.pause()
        text = screen_text(app)
        assert "Your move:" in text
        for line in widget_text(app, "hand").splitlines():
            assert line.strip() in text
        await pilot.press(*"meld 9S 9H 2S, 7C 7C 2H", "enter")
        assert str(session.state.history[-1][1]) == "meld 9S 9H 2S, 7C 7C 2H"

    run_at(app, size, script)


def test_a_wild_card_that_fits_two_melds_is_offered_both_ways_as_on_the_page() -> None:
    """Issue 27: 9S 9H 9D JK selected with kings on the side's table: the joker may go with the 9s or on the
    kings, so the terminal asks, offering what the page offers (canasta.selection.choices)."""
    from canasta.selection import choices

    session = custom_session(["KS", "KD", "KC", "AS", "AH", "AD", "9S", "9H", "9D", "JK", "5D"], "8S", "4C")
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("d")
        assert app.table.play("meld KS KD KC, AS AH AD")
        cards = tuple(parse_cards(["9S", "9H", "9D", "JK"]))
        await select(pilot, app, cards)
        state = session.state
        before = len(state.history)
        await pilot.press("m")
        assert isinstance(app.screen, ChoiceScreen) and len(state.history) == before
        offered = [str(m) for m in choices(state, 0, list(cards), "meld").moves]
        assert offered == ["meld 9S 9H 9D JK", "meld A: JK, 9S 9H 9D", "meld K: JK, 9S 9H 9D"]  # aces melded too
        assert app.screen.labels == ["meld 9♠ 9♥ 9♦ JK", "meld A: JK, 9♠ 9♥ 9♦", "meld K: JK, 9♠ 9♥ 9♦"]
        await pilot.press("3")
        assert str(session.state.history[-1][1]) == "meld K: JK, 9S 9H 9D"

    run_at(app, (100, 40), script)


def test_a_refused_selection_shows_the_reason_about_the_cards_selected() -> None:
    """5S 5C held, 5C 2S JK selected: the terminal says what the page says, about the one 5 selected."""
    session = custom_session(["5S", "5C", "2S", "JK", "KD", "TS", "9C", "8H", "7D", "6D", "4D"], "8S", "4C")
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("d")
        await select(pilot, app, tuple(parse_cards(["5C", "2S", "JK"])))
        await pilot.press("m")
        said = " ".join(widget_text(app, "status").split())
        assert "you selected one (5♣) and hold another" in said, said  # the terminal draws the suits

    run_at(app, (100, 40), script)
