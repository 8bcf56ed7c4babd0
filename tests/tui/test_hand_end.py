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


@pytest.mark.parametrize("size", SIZES)
def test_play_again_at_the_match_end(size: tuple[int, int]) -> None:
    session = Session.new(Rules.from_preset("classic", target=50), ["basic"] * 4, seed=3)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert session.match.is_over and isinstance(app.screen, TextScreen)
        assert "Enter: play again" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        again = app.table.session
        assert again is not session and again.match.rules == session.match.rules and again.seats == session.seats
        assert again.seed != session.seed or again.match is not session.match

    run(app, size, script)


@pytest.mark.parametrize("size", SIZES)
def test_keys_rules_and_melds_in_full_are_one_key_away(size: tuple[int, int]) -> None:
    from canasta.text.rulebook import rules_text

    rules = Rules.from_preset("classic", target=3000)
    session = Session.new(rules, ["you"] + ["basic"] * 3, seed=7)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert "k keys" in screen_text(app) and "r rules" in screen_text(app)
        await pilot.press("k")
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "Keys"
        page = "\n".join(app.screen.lines)
        assert "K×5·3w" in page and "draw from the stock" in page and "the rules of this table" in page
        await pilot.press("escape", "r")
        assert isinstance(app.screen, TextScreen) and " ".join(app.screen.lines).split() == rules_text(rules).split()
        assert "rules of this table" in screen_text(app)
        await pilot.press("pagedown", "pagedown", "escape", "f")
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "Melds in full"
        view = session.state.view(0)
        page = "\n".join(app.screen.lines)
        assert "You & Basic 3" in page
        for side in range(2):
            for cards in view.melds[side].values():
                assert " ".join(card_label(c) for c in sorted(cards)) in page
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)

    run(app, size, script)


@pytest.mark.parametrize("size", SIZES)
def test_monochrome_by_no_color_and_by_the_c_key(size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.text import Text
    from textual.widgets import Static

    def colours(app: PlayApp) -> set[str]:
        found = set()
        for widget in ("hand", "pile", "sides"):
            content = app.table.query_one(f"#{widget}", Static).content
            assert isinstance(content, Text)
            for span in content.spans:
                style = str(span.style)
                if "#" in style or " on " in f" {style} " or "red" in style or "magenta" in style:
                    found.add(style)
        return found

    monkeypatch.setenv("NO_COLOR", "1")
    session = Session.new(Rules(), ["you"] + ["basic"] * 3, seed=7)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert app.table.mono and not colours(app)
        await pilot.press("c")
        assert not app.table.mono and colours(app)
        await pilot.press("c")
        assert app.table.mono and not colours(app) and "Monochrome" in screen_text(app)

    run(app, size, script)
    monkeypatch.delenv("NO_COLOR")
    assert not PlayApp(Session.new(Rules(), ["you"] + ["basic"] * 3, seed=7), bot_delay=0).table.mono
    assert PlayApp(Session.new(Rules(), ["you"] + ["basic"] * 3, seed=7), bot_delay=0, mono=True).table.mono


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("preset", ["three-player", "five-player", "six-player"])
def test_end_of_hand_headers_never_cut_names(size: tuple[int, int], preset: str) -> None:
    from canasta.tui.scoresheet import side_names

    rules = Rules.from_preset(preset)
    session = Session.new(rules, ["basic"] * rules.players, seed=7)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert session.state.is_over and isinstance(app.screen, TextScreen)
        page = app.screen.lines
        at = next(i for i, line in enumerate(page) if line.startswith("Hand 1: "))
        head = page[at + 1: next(i for i in range(at + 1, len(page)) if page[i].startswith("Natural"))]
        names = side_names(session.match)
        starts = [head[0].index(name.split(" & ")[0]) for name in names] + [None]
        for k, name in enumerate(names):  # each name whole in its own column, over as many lines as it needs
            column = " ".join(line[starts[k]:starts[k + 1]].strip() for line in head).split()
            assert " ".join(column) == name
        for line in page:
            assert len(line) <= size[0] - 4  # the page is as wide as the dialog: nothing is cut off
        if preset == "five-player":
            assert any("sat out this hand" in line for line in page)
        text = screen_text(app)
        assert "Hand 1 is over" in text and "Basic 1" in text

    run(app, size, script)


@pytest.mark.parametrize("size", SIZES)
def test_short_melds_come_with_their_legend(size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.tui.app as app_module

    original = app_module.side_lines

    def always_short(*args: Any, **kwargs: Any) -> Any:  # as on a crowded table: every meld shortened
        kwargs["meld_lines"] = 0
        return original(*args, **kwargs)

    monkeypatch.setattr(app_module, "side_lines", always_short)
    session = Session.new(Rules(), ["you"] + ["basic"] * 3, seed=7)  # the others meld before your first turn
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        sides = "\n".join(plain(line) for line in app.table.drawn["sides"])
        assert "×" in sides
        header = plain(app.table.drawn["header"][0])
        assert "K×5·3w = 5 kings, 3 wild · f: full" in header and len(header) <= size[0] - 2
        await pilot.press("f")
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "Melds in full"

    run(app, size, script)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("preset", ["classic", "three-player", "five-player", "six-player"])
def test_the_table_at_a_hands_end_fits_the_screen(size: tuple[int, int], preset: str) -> None:
    """Every hand turned up still leaves the keys their rows: nothing is drawn over."""
    from canasta.tui.table import rows

    rules = Rules.from_preset(preset)
    session = Session.new(rules, ["basic"] * rules.players, seed=7)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)
        width = app.table.size.width  # the content area (the screen less its padding)
        used = sum(rows(lines, width) for lines in app.table.drawn.values())
        assert used <= size[1], used  # the keys' rows included: the recent moves take what is left, no more
        assert "left " in "\n".join(plain(line) for line in app.table.drawn["players"])

    run(app, size, script)
