"""Issue 29 point 4: the review in the terminal — the replay's marks and better moves, and the hand-end offer.

The replay with a review marks each decision under its move (``?! inaccuracy −204 (…)``) with the
better move in words, ``]`` and ``[`` jump between the marked moves, ``v`` lists them; a replay of one
seat's view shows only that seat's marks.  At a hand's end the table offers ``v: review this hand``:
the review runs in a thread behind a progress dialog (Esc stops it), then the hand is replayed with
the marks, and ``q`` goes back to the table.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from textual.pilot import Pilot

from canasta.bots.hints import move_words
from canasta.bots.review import Review, ReviewError
from canasta.moves import Move
from canasta.tui.app import PlayApp, TableScreen
from canasta.tui.replay import Replay
from canasta.tui.replay_app import ReplayApp, ReplayScreen
from canasta.tui.review_marks import mark
from canasta.tui.reviewing import ReviewingScreen
from canasta.tui.widgets import TextScreen

from .reviewed import TINY, finished, marked, record, review
from .screens import check_layout, run_at, screen_text

SIZE = (80, 24)


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_replay_marks_a_decision_and_says_the_better_move_at_its_step() -> None:
    found = review()
    d = marked(found)
    app = ReplayApp(Replay.from_record(record()), None, found)

    async def script(pilot: Pilot[Any]) -> None:
        text = check_layout(app)
        assert "[ ] marks" in text and "v review" in text
        assert "Review · You: lost" in flat(text) and "rating" in text  # the summary at the deal
        await pilot.press("right_square_bracket")
        screen = app.replay_screen
        assert screen.replay.frame.hand == d.hand and screen.replay.frame.index == d.index + 1
        text = flat(check_layout(app))
        assert f"Move {d.index + 1}: " in text
        assert mark(d) in text
        assert f"Better: {move_words(Move.parse(d.best))} (+{d.loss:.0f}): " in text
        await pilot.press("left")  # the step before: the decision not yet made, no mark
        assert mark(d) not in flat(screen_text(app))
        await pilot.press("v")
        assert isinstance(app.screen, TextScreen) and app.screen.title_text == "The review"
        assert any(mark(d) in line for line in app.screen.lines)

    run_at(app, SIZE, script)


def test_a_replay_of_another_seats_view_shows_none_of_the_reviewed_seats_marks() -> None:
    found = review()
    d = marked(found)
    app = ReplayApp(Replay.from_record(record()), 1, found)  # as Basic 2 saw it: You's hand is hidden

    async def script(pilot: Pilot[Any]) -> None:
        assert "the marks of You are not shown" in flat(screen_text(app))
        app.replay_screen.replay.seek(app.replay_screen.replay.hand_start(d.hand) + d.index + 1)
        app.replay_screen.redraw()
        await pilot.pause()
        text = flat(screen_text(app))
        assert mark(d) not in text and "Better:" not in text
        await pilot.press("right_square_bracket")
        assert "No inaccuracy, mistake or blunder after this move" in flat(screen_text(app))

    run_at(app, SIZE, script)


def test_the_hand_end_offers_the_review_and_opens_the_replay_with_its_marks() -> None:
    session = finished()
    app = PlayApp(session, bot_delay=0)
    app.table.review_settings = TINY

    async def script(pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, TextScreen)
        assert "v: review this hand" in screen_text(app)
        await pilot.press("v")
        for _ in range(200):  # the review runs in a thread; the screen answers meanwhile
            if isinstance(app.screen, ReplayScreen):
                break
            await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.marks is not None
        assert screen.seat == 0 and screen.replay.frame.index == 0  # the person's view, from the deal
        assert screen.marks.review.to_json()["decisions"] == review().to_json()["decisions"]
        await pilot.press("right_square_bracket")
        d = screen.marks.at(screen.replay.frame)
        assert d is not None and mark(d) in flat(check_layout(app))
        await pilot.press("q")
        assert isinstance(app.screen, TableScreen) and "v: review it" in flat(check_layout(app))
        await pilot.press("v")  # reviewed once: the replay opens at once
        assert isinstance(app.screen, ReplayScreen)

    run_at(app, SIZE, script)


def test_people_sharing_the_screen_review_the_hand_face_up_each_with_their_marks() -> None:
    session = finished(seats=("human:Ann", "basic", "human:Bob", "basic"))
    app = PlayApp(session, bot_delay=0)
    app.table.review_settings = TINY

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("v")
        for _ in range(200):
            if isinstance(app.screen, ReplayScreen):
                break
            await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.seat is None and screen.marks is not None
        assert {d.seat for d in screen.marks.decisions.values()} == {0, 2}
        await pilot.pause()
        text = flat(screen_text(app))
        assert "Review · Ann: lost" in text and "Review · Bob: lost" in text

    run_at(app, SIZE, script)


def test_the_match_end_offers_the_review_too() -> None:
    session = finished(target=50)
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        assert session.match.is_over and isinstance(app.screen, TextScreen)
        assert "Esc: back to the table · v: review this hand" in flat(check_layout(app))
        await pilot.press("escape")
        assert "v: review it" in flat(check_layout(app))

    run_at(app, SIZE, script)


def test_the_review_runs_beside_the_screen_and_esc_stops_it() -> None:
    told: list[int] = []
    ended = threading.Event()

    def job(progress: Any) -> Review:
        try:
            for done in range(1, 1000):
                progress(done, 1000)  # raises once Esc has stopped the review
                told.append(done)
                time.sleep(0.01)
        finally:
            ended.set()
        raise AssertionError("the review was not stopped")

    app = ReplayApp(Replay.from_record(record()), None, None, job)

    async def script(pilot: Pilot[Any]) -> None:
        for _ in range(200):
            await pilot.pause(0.02)
            if told:
                break
        assert isinstance(app.screen, ReviewingScreen)
        await pilot.pause(0.1)
        assert "of 1000 decisions" in screen_text(app) and "Esc: stop" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, ReplayScreen) and app.replay_screen.marks is None
        assert "No review: it was stopped." in flat(screen_text(app))
        assert ended.wait(2.0) and len(told) < 999  # the thread ended at its next decision

    run_at(app, SIZE, script)


def test_a_review_that_fails_says_why_in_the_dialog() -> None:
    def job(progress: Any) -> Review:
        raise ReviewError("nothing to review: no seat or no hand")

    app = ReplayApp(Replay.from_record(record()), None, None, job)

    async def script(pilot: Pilot[Any]) -> None:
        for _ in range(100):
            await pilot.pause(0.02)
            if "cannot run" in screen_text(app):
                break
        assert "The review cannot run: nothing to review" in flat(screen_text(app))
        await pilot.press("escape")
        assert "No review: nothing to review: no seat or no hand" in flat(screen_text(app))

    run_at(app, SIZE, script)
