"""Issue 15, point 5: one numbering for people (seats from 1) and one naming for players in every mode."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from textual.pilot import Pilot

from canasta.rules import PRESETS, Rules
from canasta.tui.app import PlayApp
from canasta.tui.plain import play_in_terminal
from canasta.tui.session import Session

from ..numbering import zero_based
from .test_keep import SIZES, run_at
from .test_tui import command, finished_record, widget_text


def test_replay_seat_counts_from_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_record()))
    seen: list[int | None] = []

    def fake_run(self: Any) -> int:
        seen.append(self.replay_screen.seat)
        return 0

    monkeypatch.setattr("canasta.tui.replay_app.ReplayApp.run", fake_run)
    monkeypatch.setattr("canasta.tui.command.is_terminal", lambda: True)  # else the replay is told in words
    assert command(["replay", str(path), "--seat", "1"]) == 0 and seen == [0]
    assert command(["replay", str(path), "--seat", "4"]) == 0 and seen == [0, 3]
    for wrong in ("0", "5"):
        assert command(["replay", str(path), "--seat", wrong]) == 2
        assert f"--seat {wrong} is not at this table (1 to 4)" in capsys.readouterr().err


def test_seat_errors_count_from_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert command(["play", "--plain", "--seats", "you,wizard,basic,basic"]) == 2
    assert "seat 2: unknown computer player 'wizard'" in capsys.readouterr().err


def test_plain_names_sides_by_their_players() -> None:
    lines: list[str] = []
    play_in_terminal(Rules.from_preset("classic", target=300), ["you", "basic", "basic", "basic"], 3,
                     read=lambda prompt: "quit", write=lines.append)
    text = "\n".join(lines)
    assert re.search(r"^You \(\d+ cards\) & Basic 3 \(\d+ cards\): score 0", text, re.M)
    assert "Side 0" not in text and "Side 1" not in text


@pytest.mark.parametrize("size", SIZES)
def test_the_score_line_counts_the_hand_as_soon_as_it_ends(size: tuple[int, int]) -> None:
    session = Session.new(Rules.from_preset("classic", target=100_000), ["you"] + ["basic"] * 3, seed=6)
    table = session.table
    while not session.state.is_over:  # the person's seat plays as a basic player would
        if table.run_bots():
            continue
        session.play(_basic_move(session))
    app = PlayApp(session, bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        await pilot.press("escape")  # the hand's score sheet
        sides = widget_text(app, "sides")
        for score in session.match.scores:
            assert f"  {score:,}  first meld" in sides

    run_at(app, size, script)
    assert any(session.match.scores)


def _basic_move(session: Session) -> Any:
    import random

    from canasta.bots import make_bot

    state = session.state
    return make_bot("basic", random.Random(1)).choose(state.view(state.to_act), list(state.legal_moves()))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_rules_page_and_key_list_count_from_1(preset: str) -> None:
    """Every line of the pages, not only those in sight: people count seats and sides from 1."""
    rules = Rules.from_preset(preset)
    app = PlayApp(Session.new(rules, ["you"] + ["basic"] * (rules.players - 1), seed=2), bot_delay=0)

    async def script(pilot: Pilot[Any]) -> None:
        for key in ("r", "k", "s", "L", "f"):
            await pilot.press(key)
            page = "\n".join(app.screen.lines)  # type: ignore[attr-defined]
            assert not zero_based(page), (key, zero_based(page))
            await pilot.press("escape")
        assert not zero_based(widget_text(app, "players") + widget_text(app, "sides"))

    run_at(app, (80, 24), script)


def test_a_record_without_names_is_replayed_with_players_from_1() -> None:
    from canasta.tui.replay import Replay

    record = finished_record()
    del record["players"]
    assert Replay.from_record(record).match.players == ["Player 1", "Player 2", "Player 3", "Player 4"]
