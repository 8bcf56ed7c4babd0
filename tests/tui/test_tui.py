"""The full-screen terminal table (``canasta play``, ``canasta replay``), driven by Textual's pilot.

Every test runs the app headless at 80×24 with computer players that move at once
(``bot_delay=0``), presses keys, and reads the screen as a person would: the text of every
cell, modal dialogs over the table included.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot

from canasta.bots.hints import hint, hint_sentence
from canasta.cards import card_text, full_deck, parse_cards
from canasta.rules import PRESETS, Rules
from canasta.state import GameState
from canasta.tui.app import PlayApp, TableScreen
from canasta.tui.command import register
from canasta.tui.replay import Replay
from canasta.tui.replay_app import ReplayApp
from canasta.tui.session import Session
from canasta.tui.table import card_label, plain, pretty_move
from canasta.tui.widgets import ChoiceScreen, CoverScreen, PromptScreen, QuitScreen, TextScreen
from canasta.tui.words import say_move, tell

SIZE = (80, 24)
BASIC = ["you", "basic", "basic", "basic"]

# -- helpers ----------------------------------------------------------------------------------


def screen_text(app: App[Any]) -> str:
    """Every cell of the terminal as text, dialogs and the screens under them included."""
    console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(), record=True,
                      legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def widget_text(app: App[Any], name: str) -> str:
    """The plain text of one of the table's parts, as last drawn."""
    screen = app.table if isinstance(app, PlayApp) else app.replay_screen if isinstance(app, ReplayApp) else None
    assert screen is not None
    return "\n".join(plain(line) for line in screen.drawn[name])


def run(app: App[Any], script: Callable[[Pilot[Any]], Awaitable[None]]) -> None:
    """Run ``script`` against the app at 80×24."""
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def labels(cards: list[int] | tuple[int, ...]) -> list[str]:
    return [card_label(c) for c in cards]


def hand_labels(app: App[Any]) -> list[str]:
    """The cards the hand line shows."""
    return widget_text(app, "hand").split()


def secret_cards(state: GameState, viewer: int) -> set[int]:
    """Cards only another seat's hand holds: on no table spot, in no public move, not in the viewer's hand."""
    public: set[int] = set(state.hand(viewer)) | set(state.pile)
    for side in state.melds:
        for meld in side:
            if meld is not None:
                public.update(meld)
    for reds in state.red_threes:
        public.update(reds)
    for seat in range(state.players):
        public.update(c for c in range(53) for _ in range(state.known[seat][c]))
    for _, move in state.history:
        public.update(move.cards)
    others = {c for seat in range(state.players) if seat != viewer for c in state.hand(seat)}
    return others - public


def leaked(text: str, state: GameState, viewer: int) -> list[str]:
    """Cards of other hands that the screen shows, with suit symbols or in notation."""
    found = []
    for code in secret_cards(state, viewer):
        label, text_code = re.escape(card_label(code)), card_text(code)
        pattern = re.compile(rf"(?<!\w){label}|(?<![A-Za-z0-9]){text_code}(?![A-Za-z0-9])")
        if pattern.search(text):
            found.append(card_text(code))
    return found


def check_table(app: PlayApp) -> None:
    """The screen shows what the state holds, and nothing of another seat's hand."""
    table = app.table
    state = table.session.state
    view = state.view(table.viewer)
    text = screen_text(app)
    assert not leaked(text, state, table.viewer)
    if table.revealed is not None:
        assert hand_labels(app) == labels(sorted(state.hand(table.revealed)))
    else:
        assert hand_labels(app) == []
    pile = widget_text(app, "pile")
    assert f"Stock {len(state.stock)}" in pile
    if state.pile:
        assert pile.startswith(f"Pile {card_label(state.pile[-1])} · {len(state.pile)} card")
    sides = widget_text(app, "sides")
    for side, score in enumerate(view.scores):
        assert f"  {score:,}  first meld {view.minimums[side]}" in sides
    players = widget_text(app, "players")
    for seat, name in enumerate(table.session.names):
        assert f"{name} {state.hand_sizes[seat]} card" in players or state.sitting_out == seat
    # Everything the table shows fits on the 80×24 screen: the hand and the keys are there.
    lines = text.splitlines()
    assert len(lines) == SIZE[1]
    assert all(len(line) <= SIZE[0] for line in lines)
    for line in widget_text(app, "hand").splitlines():
        assert line.strip() in text
    assert "d draw" in lines[-2] and "q quit" in lines[-1]


async def select(pilot: Pilot[Any], app: PlayApp, cards: tuple[int, ...]) -> None:
    """Select exactly these cards with the cursor keys and Space."""
    table = app.table
    await pilot.press("escape")
    hand = list(table.hand)
    wanted: list[int] = []
    for code in cards:
        wanted.append(next(i for i, c in enumerate(hand) if c == code and i not in wanted))
    for index in sorted(wanted):
        steps = index - table.cursor
        await pilot.press(*(["right"] * steps if steps >= 0 else ["left"] * -steps), "space")
    assert table.selected_cards() == sorted(cards)


async def play_hinted_turn(pilot: Pilot[Any], app: PlayApp) -> str:
    """Ask for a hint (?), then make that move with the action keys; returns how it was made."""
    table = app.table
    state = table.session.state
    before = len(state.history)
    move, reason = hint(state.view(state.to_act), list(state.legal_moves()))
    await pilot.press("question_mark")
    assert f"Hint: {hint_sentence(move, reason)}" in widget_text(app, "status").replace("\n", " ")
    key = {"draw": "d", "discard": "x", "ask": "a", "yes": "y", "no": "n", "meld": "m", "pile": "p"}[move.action]
    if move.action in ("meld", "pile") and move.cards:
        await select(pilot, app, move.cards)
    await pilot.press(key)
    if isinstance(app.screen, ChoiceScreen):
        # Where the wild cards go, or the way to take the pile: pick the hinted one.
        options = app.screen.labels
        pick = next((i for i, label in enumerate(options) if label.startswith(pretty_move(str(move)))), None)
        await pilot.press(str((pick or 0) + 1))
    if len(state.history) > before or state is not table.session.state:
        return "keys"
    # The selection grouped the cards another way than the hint: type the move instead.
    await pilot.press("escape", "colon", *str(move), "enter")
    assert len(state.history) > before
    return "typed"


# -- the table -----------------------------------------------------------------------------------


def test_table_fits_80x24_and_shows_the_state() -> None:
    app = PlayApp(Session.new(Rules(), BASIC, seed=5), bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        check_table(app)
        assert "Your turn: draw (d) or take the pile (p)" in screen_text(app)
        await pilot.press("d")
        check_table(app)
        await pilot.press("right", "space", "right", "space")
        assert "selected: " + " ".join(labels(app.table.selected_cards())) in widget_text(app, "hand-title")

    run(app, script)


def test_a_match_by_keys_only_against_three_bots() -> None:
    """The issue's "done when": a whole match at 80×24, every move made with the keyboard."""
    session = Session.new(Rules.from_preset("classic", target=1000), BASIC, seed=6)
    app = PlayApp(session, bot_delay=0)
    ways: list[str] = []

    async def script(pilot: Pilot[Any]) -> None:
        while not session.match.is_over:
            if session.state.is_over:
                # The hand's itemised score shows by itself; Enter deals the next hand.
                assert isinstance(app.screen, TextScreen)
                text = screen_text(app)
                number = len(session.match.results)
                assert f"Hand {number} is over" in text and "Hand total" in text and "Running total" in text
                assert all(f"{total:,}" in text for total in session.match.results[-1].totals)
                await pilot.press("enter")
                assert session.hand_number == number + 1 and not session.state.is_over
                continue
            assert session.state.to_act == 0
            check_table(app)
            ways.append(await play_hinted_turn(pilot, app))
        assert len(session.match.hands) >= 2
        text = screen_text(app)
        assert "The match is over" in text and ("win the match" in text or "wins the match" in text)
        await pilot.press("q")

    run(app, script)
    assert app.return_code == 0
    assert ways.count("keys") >= len(ways) - 2  # the keys make nearly every move; typing is the fallback


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_on_an_80x24_table(preset: str) -> None:
    rules = Rules.from_preset(preset)
    session = Session.new(rules, ["you"] + ["basic"] * (rules.players - 1), seed=12)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        if session.state.is_over:  # five players: seat 0 sits out the first hand, the others play it
            assert session.state.sitting_out == 0 and "You (sitting out)" in widget_text(app, "players")
            assert isinstance(app.screen, TextScreen)
            await pilot.press("enter")
        check_table(app)
        await play_hinted_turn(pilot, app)
        check_table(app)
        assert len(widget_text(app, "sides").splitlines()) >= 2 * rules.sides

    run(app, script)


def test_computer_players_move_after_a_pause_in_the_background() -> None:
    slow = PlayApp(Session.new(Rules(), BASIC, seed=5), bot_delay=30)

    async def waiting(pilot: Pilot[Any]) -> None:
        assert slow.table.session.state.to_act == 1 and not slow.table.session.state.history
        assert "Basic 2 is playing…" in widget_text(slow, "status")

    run(slow, waiting)
    session = Session.new(Rules(), BASIC, seed=5)
    app = PlayApp(session, bot_delay=0.001)

    async def until_my_turn(pilot: Pilot[Any]) -> None:
        for _ in range(500):  # bounded: each round lets the timers and the bots' threads run
            if session.state.to_act == 0 or session.state.is_over:
                return
            await pilot.pause(0.01)

    async def script(pilot: Pilot[Any]) -> None:
        await until_my_turn(pilot)
        assert session.state.to_act == 0 and {seat for seat, _ in session.state.history} == {1, 2, 3}
        check_table(app)
        moves = len(session.state.history)
        await pilot.press("d", "x")
        await until_my_turn(pilot)
        assert session.state.to_act == 0 and len(session.state.history) >= moves + 2 + 6
        check_table(app)

    run(app, script)


def test_no_other_seats_cards_are_drawn_and_the_check_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    session = Session.new(Rules(), BASIC, seed=8)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("d")
        state = session.state
        assert secret_cards(state, 0), "this deal must leave cards only other hands hold"
        assert not leaked(screen_text(app), state, 0)
        # A table that drew seat 1's hand instead would be caught.
        monkeypatch.setattr(TableScreen, "hand", property(lambda self: tuple(sorted(state.hand(1)))))
        app.table.redraw()
        assert leaked(screen_text(app), state, 0)

    run(app, script)


def test_illegal_moves_show_the_engines_reason() -> None:
    session = Session.new(Rules(), BASIC, seed=5)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        state = session.state
        card = app.table.hand[0]
        with pytest.raises(ValueError) as refused:
            state.copy().play(f"discard {card_text(card)}")
        await pilot.press("x")
        status = widget_text(app, "status").replace("\n", " ")
        assert status.startswith("Not allowed: ") and pretty_move(str(refused.value)) in status
        await pilot.press("colon")
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"meld 3h 3h 3h", "enter")
        with pytest.raises(ValueError) as refused:
            state.copy().play("meld 3h 3h 3h")
        assert widget_text(app, "status").startswith(f"Not allowed: {pretty_move(str(refused.value))}")
        assert len(state.history) == len(session.state.history)

    run(app, script)


def custom_session(seat0: list[str], upcard: str, stock_top: str, seats: list[str] = BASIC) -> Session:
    """A hand from a chosen deck: seat 3 deals, so seat 0 gets these 11 cards and plays first."""
    cards = full_deck(2)
    wanted = parse_cards([*seat0, upcard, stock_top])
    for code in wanted:
        cards.remove(code)
    deck: list[int] = []
    rest = iter(cards)
    for i in range(44):
        deck.append(wanted[i // 4] if i % 4 == 0 else next(rest))
    deck += wanted[11:]
    deck += list(rest)
    hand = {"dealer": 3, "deck": [card_text(c) for c in deck], "moves": []}
    record = {"rules": "classic", "seed": 1, "seats": seats, "hands": [hand]}
    session = Session.from_record(record)
    assert sorted(session.state.hand(0)) == sorted(wanted[:11]) and session.state.to_act == 0
    return session


def test_meld_with_a_wild_card_goes_the_one_legal_way() -> None:
    session = custom_session(["KS", "KD", "KC", "QS", "QH", "2C", "AS", "5D", "6D", "7D", "8D"], "9S", "4C")
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("d")
        await select(pilot, app, tuple(parse_cards(["KS", "KD", "KC", "QS", "QH", "2C"])))
        await pilot.press("m")  # the 2♣ with the kings would leave two queens: only the queens take it
        assert [str(m) for _, m in session.state.history][-1] == "meld KS KD KC, QS QH 2C"
        assert "K: K♠ K♦ K♣" in widget_text(app, "sides") and "Q: Q♠ Q♥ 2♣" in widget_text(app, "sides")
        check_table(app)

    run(app, script)


def test_take_the_pile_with_selected_cards() -> None:
    session = custom_session(["9H", "9D", "AS", "AH", "AD", "5C", "6C", "7C", "8C", "TC", "JC"], "9S", "4C")
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await select(pilot, app, tuple(parse_cards(["9H", "9D", "AS", "AH", "AD"])))
        await pilot.press("p")
        assert [str(m) for _, m in session.state.history][-1] == "pile 9H 9D, AS AH AD"  # the top card's group first
        assert session.state.phase == "play"
        check_table(app)

    run(app, script)


def test_pile_without_selection_lists_the_ways_to_take_it() -> None:
    session = custom_session(["9H", "9D", "2D", "AS", "AH", "AD", "5C", "6C", "7C", "8C", "TC"], "9S", "4C")
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        ways = [m for m in session.state.legal_moves() if m.action == "pile"]
        await pilot.press("p")
        if len(ways) > 1:
            assert isinstance(app.screen, ChoiceScreen)
            assert app.screen.labels == [pretty_move(str(m)) for m in ways]
            await pilot.press("1")
        assert session.state.history[-1][1] == ways[0]

    run(app, script)


# -- hot seat ------------------------------------------------------------------------------------------


def test_hot_seat_covers_the_hand_between_turns() -> None:
    session = Session.new(Rules(), ["you", "basic", "you", "basic"], seed=4)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        state = session.state
        assert state.to_act == 2  # seat 1 (a bot) played first
        assert isinstance(app.screen, CoverScreen)
        text = screen_text(app)
        assert "Pass the screen to Player 3" in text
        for seat in (0, 2):
            assert not any(label in text for label in labels(state.hand(seat)))
        assert app.table.revealed is None
        await pilot.press("enter")
        assert app.table.revealed == 2
        check_table(app)
        assert "Player 3, your turn" in screen_text(app)
        await pilot.press("d", "x")
        assert session.state.to_act == 0
        assert isinstance(app.screen, CoverScreen)
        assert "Pass the screen to Player 1" in screen_text(app)
        assert app.table.revealed is None and hand_labels(app) == []
        await pilot.press("enter")
        assert app.table.revealed == 0
        check_table(app)

    run(app, script)


def test_hot_seat_partner_answers_behind_the_cover() -> None:
    kings = ["KS", "KS", "KH", "KH", "KD", "KD", "KC"]
    session = custom_session([*kings, "QS", "QH", "QD", "5C"], "9S", "QC", ["you", "basic", "you", "basic"])
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, CoverScreen) and "Pass the screen to Player 1" in screen_text(app)
        await pilot.press("enter", "d", "a")
        assert isinstance(app.screen, CoverScreen) and "Pass the screen to Player 3" in screen_text(app)
        await pilot.press("enter")
        assert app.table.revealed == 2
        check_table(app)
        assert "Player 1 asks you: may I go out? y yes · n no" in screen_text(app)
        await pilot.press("y")
        assert isinstance(app.screen, CoverScreen) and "Pass the screen to Player 1" in screen_text(app)
        await pilot.press("enter")
        check_table(app)
        assert [str(m) for _, m in session.state.history] == ["draw", "ask", "yes"]
        words = " ".join(screen_text(app).split())
        assert "your partner said yes: you must go out now" in words  # the prompt no longer says only "meld or discard"

    run(app, script)


# -- keys for the log, the score sheet, saving and quitting ----------------------------------------------


def test_log_and_score_sheet_are_one_key_away() -> None:
    session = Session.new(Rules(), BASIC, seed=5)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("L")
        assert isinstance(app.screen, TextScreen)
        text = screen_text(app)
        first_seat, first = session.state.history[0]
        # The log in words: "Basic 2 took the pile: 3 cards, top K♥, with K♥ K♦, 5♥ 5♣ 2♠".
        assert say_move(session.names[first_seat], str(first)).split(" with ")[0] in text
        assert re.search(rf"1\. {session.names[first_seat]} took the pile: \d+ cards?, top ", text)
        await pilot.press("escape", "s")
        assert isinstance(app.screen, TextScreen) and "No hand has finished yet" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)

    run(app, script)


def test_save_then_resume_gives_the_same_match(tmp_path: Path) -> None:
    path = tmp_path / "game.canasta.json"
    session = Session.new(Rules(), BASIC, seed=9)
    app = PlayApp(session, bot_delay=0, save_path=str(path))

    async def script(pilot: Pilot[Any]) -> None:
        await play_hinted_turn(pilot, app)
        await play_hinted_turn(pilot, app)
        await pilot.press("S")
        assert isinstance(app.screen, PromptScreen)
        await pilot.press("enter")
        assert f"Saved to {path}" in widget_text(app, "status")

    run(app, script)
    saved = json.loads(path.read_text())
    assert saved["seats"] == BASIC and saved["hands"][0]["deck"] is not None
    resumed = Session.load(str(path))
    assert resumed.to_record() == session.to_record()
    for seat in range(4):
        assert resumed.state.view(seat) == session.state.view(seat)
    assert resumed.state.stock == session.state.stock

    app2 = PlayApp(resumed, bot_delay=0)

    async def again(pilot: Pilot[Any]) -> None:
        check_table(app2)
        assert hand_labels(app2) == labels(sorted(session.state.hand(0)))

    run(app2, again)


def test_a_resumed_match_deals_the_same_next_hand() -> None:
    whole = Session.new(Rules(), ["basic"] * 4, seed=21)
    while not whole.state.is_over:
        whole.play(whole.bot_choice())
    resumed = Session.from_record(json.loads(json.dumps(whole.to_record())))
    assert whole.deal_next().hand(0) == resumed.deal_next().hand(0)


def test_quit_asks_to_save(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    app = PlayApp(Session.new(Rules(), BASIC, seed=2), bot_delay=0, save_path=str(path))

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)
        await pilot.press("q", "y")
        assert isinstance(app.screen, PromptScreen)
        await pilot.press("enter")

    run(app, script)
    assert app.return_code == 0 and Session.load(str(path)).to_record() == app.table.session.to_record()


# -- replay ------------------------------------------------------------------------------------


def finished_record() -> dict[str, Any]:
    """A whole match of computer players to a low target."""
    s = Session.new(Rules.from_preset("classic", target=1500), ["basic"] * 4, seed=6)
    while not s.match.is_over:
        if s.state.is_over:
            s.deal_next()
        s.play(s.bot_choice())
    assert len(s.match.hands) >= 2
    return s.to_record()


def test_replay_steps_through_a_finished_game() -> None:
    record = finished_record()
    replay = Replay.from_record(record)
    assert sum(len(h["moves"]) + 1 for h in record["hands"]) == len(replay.frames)
    app = ReplayApp(replay)

    async def script(pilot: Pilot[Any]) -> None:
        screen = app.replay_screen
        text = screen_text(app)
        assert "hand 1 of" in text and "The deal." in text
        await pilot.press("right", "right")
        frame = replay.frame
        assert frame.index == 2
        assert frame.outcome is not None
        said = tell(frame.outcome.public(), frame.state.result, replay.match.players)
        assert f"Move 2: {' · '.join(said)}" in screen_text(app)  # in words, as the table's log says it
        hands = widget_text(app, "hands")
        for seat, name in enumerate(replay.match.players):  # a finished game: every hand face up
            assert " ".join(labels(sorted(frame.state.hand(seat)))) in " ".join(hands.split()) or \
                not frame.state.hand(seat)
            assert name in hands
        await pilot.press("left")
        assert replay.frame.index == 1
        await pilot.press("pagedown")
        assert replay.frame.hand == 1 and replay.frame.index == 0
        await pilot.press("end")
        assert replay.at == len(replay.frames) - 1 and "Hand over" in screen_text(app)
        await pilot.press("home")
        assert replay.at == 0
        await pilot.press("s")
        assert "Hand total" in screen_text(app)
        await pilot.press("escape", "q")
        assert screen is app.replay_screen

    run(app, script)


def test_replay_from_one_seat_shows_only_that_hand() -> None:
    replay = Replay.from_record(finished_record())
    app = ReplayApp(replay, seat=2)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("right", "right", "right")
        state = replay.frame.state
        assert not leaked(screen_text(app), state, 2)
        assert widget_text(app, "hands").split()[:2] == [replay.match.players[2].split()[0],
                                                       replay.match.players[2].split()[1] + ":"]

    run(app, script)


# -- the command line -------------------------------------------------------------------------------------


def command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="canasta")
    sub = parser.add_subparsers(dest="command", required=True)
    register(sub)
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


@pytest.mark.parametrize("content, message", [
    (None, "cannot read"),
    ("{not json", "is not valid JSON"),
    ("[1, 2]", "is a JSON object"),
    ('{"rules": "classic", "hands": [{"dealer": 0, "deck": null, "moves": []}]}', "has no deck"),
    ('{"rules": "classic", "hands": [{"dealer": 0, "deck": 7, "moves": []}]}', ""),
    ('{"rules": "nope", "hands": []}', ""),
])
def test_a_bad_save_file_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                content: str | None, message: str) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    for argv in (["play", "--resume", str(path)], ["replay", str(path)]):
        assert command(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and err.startswith("canasta: ") and message in err
        assert "Traceback" not in err


def test_a_bad_saved_seat_list_and_bad_seats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = Session.new(Rules(), BASIC, seed=1).to_record()
    record["seats"] = ["you", "wizard", "basic", "basic"]
    path = tmp_path / "seats.json"
    path.write_text(json.dumps(record))
    assert command(["play", "--resume", str(path)]) == 2
    assert "unknown computer player 'wizard'" in capsys.readouterr().err
    assert command(["play", "--seats", "you,basic"]) == 2
    assert "classic seats 4 players" in capsys.readouterr().err
    assert command(["play", "--resume", str(path), "--seed", "3"]) == 2
    assert "drop --seed" in capsys.readouterr().err
    assert command(["replay", str(path), "--seat", "7"]) == 2


def test_without_textual_play_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "textual", None)
    monkeypatch.setattr("canasta.tui.command.is_terminal", lambda: True)
    assert command(["play", "--seed", "1"]) == 2
    assert capsys.readouterr().err == "canasta: the terminal table needs the tui extra: pip install 'canasta[tui]'\n"


def test_plain_keeps_the_line_by_line_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the player leaves at the first prompt
    assert command(["play", "--plain", "--seed", "1", "--seats", "you,basic,basic,basic"]) == 0
    assert "Your hand:" in capsys.readouterr().out


def test_importing_the_command_does_not_import_textual() -> None:
    code = "import sys, canasta.tui.command; print(any(m.split('.')[0] == 'textual' for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
