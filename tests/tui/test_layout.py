"""Issue 15 point 4: every screen and dialog fits 80x24, uses 100x30 and larger, and never draws over itself.

Every screen of ``canasta play`` and ``canasta replay`` is reached by keys, as a person would,
at 80x24, 100x30, 120x40 and 60x20, and checked by :func:`tests.tui.screens.check_layout`:
no widget off the screen, cut by its box or over another, and the names and prompts whole.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from textual.pilot import Pilot

from canasta import from_position
from canasta.bots.hints import hint
from canasta.cards import card_text, full_deck, parse_cards
from canasta.rules import Rules
from canasta.tui.app import PlayApp, TableScreen
from canasta.tui.replay import Replay
from canasta.tui.replay_app import ReplayApp
from canasta.tui.session import Session
from canasta.tui.table import plain
from canasta.tui.widgets import MIN_SIZE, ChoiceScreen, CoverScreen, PromptScreen, QuitScreen, TextScreen

from .screens import SWEEP, check_layout, run_at, screen_text
from .test_tui import BASIC, custom_session, finished_record, select

LARGE = (100, 30)


def large(size: tuple[int, int]) -> bool:
    """A terminal of 100x30 or more, which the table must use."""
    return size[0] >= LARGE[0] and size[1] >= LARGE[1]


def drawn(app: PlayApp, name: str) -> str:
    return "\n".join(plain(line) for line in app.table.drawn[name])


def table_shows(app: PlayApp) -> list[str]:
    """What must be whole on the table, each on one line: every name and every line of the hand."""
    return [*app.table.session.names, *(line.strip() for line in drawn(app, "hand").splitlines())]


def table_says(app: PlayApp, *more: str) -> list[str]:
    """What the table must say, wrapped if need be: the prompt, and ``more``."""
    return [plain(app.table.prompt()), *more]


CROWDED_MELDS = [
    {"A": ["AS", "AS", "AH", "AH", "AD", "AD", "AC"], "K": ["KS", "KH", "KD", "KC", "2S", "2H", "JK"],
     "Q": ["QS", "QH", "QD"], "J": ["JS", "JH", "JD", "2C"], "T": ["TS", "TH", "TD"], "9": ["9S", "9H", "9D", "9C"],
     "8": ["8S", "8H", "8D"], "7": ["7S", "7H", "7D", "2D"]},
    {"4": ["4S", "4H", "4D"], "5": ["5S", "5H", "5D", "5C"], "6": ["6S", "6H", "6D"],
     "7": ["7C", "7C", "7S"], "8": ["8C", "8C", "8S", "2S"], "9": ["9S", "9H", "9D"], "T": ["TC", "TC", "TS"],
     "J": ["JC", "JC", "JS"], "Q": ["QC", "QC", "QS", "2H"], "K": ["KS", "KH", "KD"]},
]


def crowded_session() -> Session:
    """A hand late in play: eight melds on one side, ten on the other, red threes, 22 cards in your hand."""
    deck = full_deck(2)
    for side in CROWDED_MELDS:
        for cards in side.values():
            for code in parse_cards(cards):
                deck.remove(code)
    for code in parse_cards(["3H", "3D", "3H"]):
        deck.remove(code)
    rest = [card_text(c) for c in deck if card_text(c)[0] != "3"]
    assert len(rest) == 32
    position = {
        "rules": "classic", "dealer": 3, "turn": 0, "scores": [2350, 1985],
        "hands": [rest[:22], rest[22:25], rest[25:27], rest[27:29]], "pile": rest[29:30], "stock": rest[30:],
        "melds": CROWDED_MELDS, "red_threes": [["3H", "3D"], ["3H"]], "melded": [True] * 4,
    }
    session = Session.new(Rules(), BASIC, seed=11)
    session.match.state = from_position(position)
    return session


# -- the table ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SWEEP)
def test_the_table_through_a_hand(size: tuple[int, int]) -> None:
    session = Session.new(Rules(), BASIC, seed=7)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        check_layout(app, table_shows(app), table_says(app))  # the first turn
        await pilot.press("d")
        check_layout(app, table_shows(app), table_says(app, "new: "))
        await pilot.press("right", "space", "right", "space", "x")  # two cards selected: a message
        check_layout(app, table_shows(app), table_says(app, "Select one card to discard."))
        await pilot.press("escape", "x")
        turns = 0
        while not session.state.is_over and turns < 12:  # play on: melds, takes, a log of moves
            if session.state.to_act == 0:
                state = session.state
                app.table.play(hint(state.view(0), list(state.legal_moves()))[0])
                await pilot.pause()
                turns += 1
            if isinstance(app.screen, TableScreen):
                check_layout(app, table_shows(app), table_says(app))
            else:
                check_layout(app)
        if isinstance(app.screen, TableScreen):
            recent = app.table.drawn["recent"]
            assert len(recent) > 2 if large(size) else len(recent) <= 2  # a tall terminal lists more moves

    run_at(app, size, script)


@pytest.mark.parametrize("size", SWEEP)
def test_a_crowded_table(size: tuple[int, int]) -> None:
    session = crowded_session()
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert len(session.state.hand(0)) == 22 and session.state.to_act == 0
        text = check_layout(app, table_shows(app), table_says(app))
        assert "d draw" in text and "q quit" in text  # the keys are there, not drawn over
        sides = drawn(app, "sides")
        if size[0] >= 120 and size[1] >= 40:  # room enough: every meld card by card
            assert "×" not in sides and "K: K♠ K♥ K♦ K♣ 2♠ 2♥ JK" in sides, sides
        await pilot.press("d")
        check_layout(app, table_shows(app), table_says(app, "new: "))
        await pilot.press("f")
        assert isinstance(app.screen, TextScreen)
        check_layout(app, ["Melds in full", "Esc: close"])
        await pilot.press("escape")
        check_layout(app, table_shows(app), table_says(app))

    run_at(app, size, script)


@pytest.mark.parametrize("size", SWEEP)
def test_the_go_out_question_and_the_cover_at_one_screen(size: tuple[int, int]) -> None:
    kings = ["KS", "KS", "KH", "KH", "KD", "KD", "KC"]
    session = custom_session([*kings, "QS", "QH", "QD", "5C"], "9S", "QC", ["you", "basic", "you", "basic"])
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, CoverScreen)
        check_layout(app, ["Pass the screen to Player 1.", "Player 1, press Enter"])
        await pilot.press("enter")
        check_layout(app, table_shows(app), table_says(app))
        await pilot.press("d", "a", "enter")
        assert app.table.revealed == 2
        check_layout(app, table_shows(app), table_says(app, "Player 1 asks you: may I go out? y yes · n no"))

    run_at(app, size, script)


# -- the dialogs ------------------------------------------------------------------------------------


def choices(app: PlayApp, title: str) -> list[str]:
    """The choice on top: its title and every option whole."""
    screen = app.screen
    assert isinstance(screen, ChoiceScreen) and screen.title_text == title
    return [title, "↑↓ and Enter, or a number · Esc: cancel"]


@pytest.mark.parametrize("size", SWEEP)
def test_every_choice_dialog(size: tuple[int, int]) -> None:
    wilds = ["9S", "9H", "9D", "7C", "7C", "7D", "2S", "KS", "QD", "5H", "4D"]
    app = PlayApp(custom_session(wilds, "8S", "4C"), bot_delay=0)

    async def split(pilot: Pilot[Any]) -> None:
        await pilot.press("d")
        await select(pilot, app, tuple(parse_cards(["9S", "9H", "9D", "7C", "7C", "7D", "2S"])))
        await pilot.press("m")  # two legal ways
        check_layout(app, choices(app, "How do the wild cards go?"), app.screen.labels)  # type: ignore[attr-defined]

    run_at(app, size, split)

    pile = PlayApp(custom_session(["9H", "9D", "2D", "AS", "AH", "AD", "5C", "6C", "7C", "8C", "TC"], "9S", "4C"),
                   bot_delay=0)

    async def take(pilot: Pilot[Any]) -> None:
        await pilot.press("p")
        check_layout(pile, choices(pile, "Take the pile with:"), pile.screen.labels)  # type: ignore[attr-defined]
        await pilot.press("escape")
        check_layout(pile, table_shows(pile), table_says(pile))

    run_at(pile, size, take)


@pytest.mark.parametrize("size", SWEEP)
def test_the_continue_offer(size: tuple[int, int]) -> None:
    left = Session.new(Rules(), BASIC, seed=3)
    app = PlayApp(Session.new(Rules(), BASIC, seed=4), bot_delay=0, offer=left, seed=4)

    async def script(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, ChoiceScreen)
        check_layout(app, ["1. Continue the match you left"],
                     ["Continue it, or start the new match with seed 4? (Enter: continue it)",
                      "1. Continue the match you left (seed 4 is not used)",
                      "2. Start the new match with seed 4: it replaces the one you left"])
        assert left.summary() in " ".join(screen_text(app).split()).replace("│", "").replace("  ", " ") or \
            "You left a match" in screen_text(app)
        await pilot.press("1")
        check_layout(app, table_shows(app), table_says(app))

    run_at(app, size, script)


@pytest.mark.parametrize("size", SWEEP)
def test_prompts_the_save_question_and_the_pages(size: tuple[int, int]) -> None:
    session = Session.new(Rules(), BASIC, seed=7)
    app = PlayApp(session, bot_delay=0)
    rows: dict[str, int] = {}

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        check_layout(app, ["Save the match before you leave?", "y: save to a file and leave", "Esc: go on playing"])
        await pilot.press("escape", "S")
        assert isinstance(app.screen, PromptScreen)
        check_layout(app, ["Save the match to:", "Enter: OK · Esc: cancel"])
        await pilot.press("escape", "colon")
        assert isinstance(app.screen, PromptScreen)
        check_layout(app, ["Your move:", *(line.strip() for line in drawn(app, "hand").splitlines())])
        await pilot.press("escape")
        for key, title in (("k", "Keys"), ("r", "The rules of this table (classic)"), ("L", "Moves of hand 1"),
                           ("s", "Score sheet"), ("f", "Melds in full")):
            await pilot.press(key)
            assert isinstance(app.screen, TextScreen), key
            check_layout(app, [title, app.screen.help_text])
            rows[key] = app.screen.query_one("#page").region.height
            await pilot.press("pagedown", "pagedown")
            check_layout(app, [title, app.screen.help_text])
            await pilot.press("escape")
            assert isinstance(app.screen, TableScreen)
        if large(size):  # the pages fill the taller screen
            assert min(rows.values()) >= size[1] - 4, rows

    run_at(app, size, script)


# -- the end of a hand, of a match ------------------------------------------------------------------------


@pytest.mark.parametrize("size", SWEEP)
@pytest.mark.parametrize("preset", ["classic", "three-player", "five-player", "six-player"])
def test_the_end_of_a_hand(size: tuple[int, int], preset: str) -> None:
    rules = Rules.from_preset(preset)
    session = Session.new(rules, ["basic"] * rules.players, seed=7)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert session.state.is_over and isinstance(app.screen, TextScreen)
        check_layout(app, ["Hand 1 is over", "Cards left in each hand:", "Enter: deal the next hand · Esc: the table"])
        await pilot.press("escape")
        check_layout(app, table_shows(app), table_says(app))
        await pilot.press("enter")  # the next hand plays itself out too
        if isinstance(app.screen, TableScreen):
            check_layout(app, table_shows(app), table_says(app))
        else:
            check_layout(app, ["Hand 2 is over"])

    run_at(app, size, script)


@pytest.mark.parametrize("size", SWEEP)
def test_the_end_of_a_match_and_play_again(size: tuple[int, int]) -> None:
    session = Session.new(Rules.from_preset("classic", target=50), ["basic"] * 4, seed=3)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert session.match.is_over and isinstance(app.screen, TextScreen)
        check_layout(app, ["The match is over", "Enter: play again · q: leave · Esc: back to the table"])
        await pilot.press("escape")
        check_layout(app, table_shows(app), table_says(app))
        await pilot.press("enter")
        if isinstance(app.screen, TableScreen):
            check_layout(app, table_shows(app), table_says(app, "A new match"))
        else:
            check_layout(app)

    run_at(app, size, script)


# -- the replay -------------------------------------------------------------------------------------------


def finished_six_player_record() -> dict[str, Any]:
    """A short match of six computer players: six hands of 13 cards on the replay's screen."""
    session = Session.new(Rules.from_preset("six-player", target=1500), ["basic"] * 6, seed=6)
    while not session.match.is_over:
        if session.state.is_over:
            session.deal_next()
        session.play(session.bot_choice())
    return session.to_record()


@pytest.mark.parametrize("size", SWEEP)
@pytest.mark.parametrize("players", [4, 6])
def test_the_replay(size: tuple[int, int], players: int) -> None:
    replay = Replay.from_record(finished_record() if players == 4 else finished_six_player_record())
    app = ReplayApp(replay)
    names = replay.match.players

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("right")
        text = check_layout(app, [*names] if large(size) else [], ["Move 1: "])
        if large(size):  # a larger terminal shows every hand
            assert "more hands" not in text
            for name in names:
                assert f"{name}: " in drawn_replay(app, "hands")
        await pilot.press("right", "right", "right")
        check_layout(app)
        await pilot.press("end")
        flat = " ".join(check_layout(app).split())
        small = size[0] < MIN_SIZE[0] or size[1] < MIN_SIZE[1]
        assert "Hand over" in flat or (small and "the table needs" in flat)  # a notice only below 80x24
        await pilot.press("s")
        check_layout(app, ["Score sheet"])
        await pilot.press("escape", "L")
        check_layout(app, ["Moves of hand"])

    run_at(app, size, script)
    seat = ReplayApp(Replay.from_record(finished_record()), seat=1)

    async def one_seat(pilot: Pilot[Any]) -> None:
        await pilot.press("right", "right")
        check_layout(seat, [seat.replay_screen.replay.match.players[1]])

    run_at(seat, size, one_seat)


def drawn_replay(app: ReplayApp, name: str) -> str:
    return "\n".join(plain(line) for line in app.replay_screen.drawn[name])


# -- too small a terminal: a notice, never an overlap ----------------------------------------------------


@pytest.mark.parametrize("size", [(40, 12), (60, 14)])
def test_too_small_a_terminal_gets_a_notice_never_an_overlap(size: tuple[int, int]) -> None:
    app = PlayApp(crowded_session(), bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        text = check_layout(app)
        assert f"This terminal is {size[0]}×{size[1]}: at this width the table needs" in " ".join(text.split())
        await pilot.press("r")
        check_layout(app)
        await pilot.press("escape", "q")
        check_layout(app)
        await pilot.press("escape")
        await pilot.resize_terminal(100, 30)  # made larger: the table comes back
        await pilot.pause()
        check_layout(app, table_shows(app), table_says(app))

    run_at(app, size, script)
    replay = ReplayApp(Replay.from_record(finished_six_player_record()))

    async def replayed(pilot: Pilot[Any]) -> None:
        await pilot.press("end")
        assert "at this width the table needs" in " ".join(check_layout(replay).split())

    run_at(replay, size, replayed)


# -- the notice appears only where the table truly cannot be drawn ------------------------------------


NEEDS = re.compile(r"at this width the table needs (\d+) rows")


def notice(app: Any) -> int | None:
    """The rows the notice says the table needs, or None when the table is drawn."""
    found = NEEDS.search(" ".join(screen_text(app).split()))
    return int(found.group(1)) if found else None


def six_player_session() -> Session:
    """Six players in three sides, a person's first turn: three sides of melds, the longest keys line."""
    session = Session.new(Rules.from_preset("six-player"), ["you"] + ["basic"] * 5, seed=12)
    session.table.run_bots()
    return session


@pytest.mark.parametrize("make", [crowded_session, six_player_session], ids=["crowded", "six-player"])
def test_the_notice_names_the_least_size_that_draws_the_table(make: Any) -> None:
    """Tried at every height: below the rows the notice names, a notice; from them up, the table, whole.

    A wider terminal never needs more rows (the keys give way to their short line before the table
    does), and 80×24 always draws the table.
    """
    app = PlayApp(make(), bot_delay=0)
    needed: dict[int, int] = {}

    async def script(pilot: Pilot[Any]) -> None:
        for width in (50, 60, 70, 80):
            said = None
            for height in range(12, 25):
                await pilot.resize_terminal(width, height)
                await pilot.pause()
                rows = notice(app)
                if rows is None:
                    needed[width] = height
                    assert said in (None, height), f"{width}x{height - 1} said {said} rows, {height} draw it"
                    check_layout(app, table_shows(app), table_says(app))
                    break
                said = rows
                assert rows > height
            for height in range(needed[width], 25):  # and every taller terminal draws it too
                await pilot.resize_terminal(width, height)
                await pilot.pause()
                assert notice(app) is None, f"{width}x{height}"

    run_at(app, (80, 24), script)
    assert needed[80] <= 24 and needed[80] <= needed[70] <= needed[60] <= needed[50], needed
