"""Issue 15 point 3: what happened is visible, in words like the browser's log, at 80×24 and 120×40."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

pytest.importorskip("textual", reason="the terminal table needs the tui extra: pip install 'canasta[tui]'")

from textual.pilot import Pilot

from canasta import from_position
from canasta.cards import MELD_RANK_CHARS, card_text, parse_cards
from canasta.outcome import play
from canasta.rules import Rules
from canasta.tui.app import PlayApp
from canasta.tui.plain import play_in_terminal
from canasta.tui.session import Session
from canasta.tui.table import plain
from canasta.tui.words import say_move, tell

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
    took = play(s, "pile 9S 9H")
    assert tell(took, s.result, NAMES) == [
        "South took the pile: 3 cards, top 9♦, with 9♠ 9♥"]


def test_a_red_three_drawn_is_laid_out_in_words_and_the_card_drawn_stays_hidden() -> None:
    s = from_position(POSITION)
    drew = play(s, "draw")
    lines = tell(drew.public(), s.result, NAMES)
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
            shown = [plain(line) for line in app.table.drawn["recent"]]
            recent = "\n".join(shown)
            # At every size the moves since yours, one a line, newest last, in the rows the screen has.
            history = session.state.history
            mine = max(i for i, (seat, _) in enumerate(history) if seat == 0)  # your discard
            since = [text for i, text in app.table.told if i > mine]
            heading = re.fullmatch(r"Since your last move(?: \((\d+) earlier: L shows them\))?:", shown[0])
            assert heading, shown[0]
            earlier = int(heading.group(1) or 0)
            assert [line.strip() for line in shown[1:]] == since[earlier:] and len(shown) > 4, (shown, since)
            assert earlier == 0 or sum(app.table.rows([line], app.table.size.width)
                                       for lines in app.table.drawn.values() for line in lines) >= size[1] - 2
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


# -- cards put on a meld already down: "added 6♥ to the 6s" (one place: words.say_move) ----------------------

ACES = {**POSITION, "hands": [["AC", "2S", "9S", "KS", "QS"], ["JH", "JD", "8H"], ["5C", "5D"], ["8C", "8D"]],
        "stock": ["QC", "QD", "7S"]}


def aces_session() -> Session:
    """South to draw, the aces already down for South's side, an ace and a 2 in hand."""
    session = Session.new(Rules(), ["you", "basic", "basic", "basic"], seed=1)
    session.match.state = from_position(ACES)
    return session


def test_cards_put_on_a_meld_already_down_are_added_not_melded() -> None:
    s = from_position(ACES)
    s.play("draw")
    added = play(s, "meld AC, A: 2S")
    assert tell(added, s.result, NAMES) == ["South added A♣ 2♠ to the aces"]
    sixes = {MELD_RANK_CHARS.index("6")}
    assert say_move("East", "meld 8S 8H 8D, 6H", melds=sixes) == "East melded 8♠ 8♥ 8♦ and added 6♥ to the 6s"
    assert say_move("East", "meld 6H") == "East melded 6♥"  # from the notation alone: nothing known of the melds


def test_the_plain_game_logs_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    lines: list[str] = []
    typed = iter(["draw", "meld AC", "quit"])
    play_in_terminal(Rules(), None, 1, read=lambda prompt: next(typed), write=lines.append, session=aces_session())
    log = [line.strip() for line in lines if line.startswith("  ")]
    assert "You drew Q♣." in log and "You added A♣ to the aces" in log
    assert not any(re.fullmatch(r"\S+ \d: (draw|discard|meld|pile)\b.*", line) for line in log)  # no notation

    lines.clear()
    play_in_terminal(Rules(), ["basic"] * 4, 5, read=lambda prompt: "quit", write=lines.append)
    log = [line.strip() for line in lines if line.startswith("  ")]
    assert log[0].startswith("The pile starts with ") and any(" took the pile: " in line for line in log)
    assert any(re.fullmatch(r"Basic \d (drew from the stock|discarded \S+)", line) for line in log)
    assert not any(re.search(r"\b(draw|discard [2-9TJQKA][SHDC]|meld [2-9TJQKA][SHDC])\b", line) for line in log)


@pytest.mark.parametrize("size", SIZES)
def test_the_table_says_added_to_the_aces(size: tuple[int, int]) -> None:
    from tests.tui.test_tui import select

    session = aces_session()
    app = PlayApp(session, bot_delay=0)

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press("d")
            await select(pilot, app, tuple(parse_cards(["AC"])))
            await pilot.press("m")
            assert [text for _, text in app.table.told][-1] == "You added A♣ to the aces"
            await pilot.press("L")
            assert "  2. You added A♣ to the aces" in app.screen.lines  # type: ignore[attr-defined]

    asyncio.run(main())


def test_a_match_resumed_mid_hand_tells_its_log_word_for_word() -> None:
    """The log after ``--continue`` is the log that was told: piles taken with their size and top card, red
    threes laid out, cards added to melds (the engine's records are rebuilt with the match)."""
    from canasta.tui.session import Session
    from canasta.tui.words import Narrator

    for seed in range(6):
        session = Session.new(Rules.from_preset("classic"), ["basic"] * 4, seed=seed)
        narrator = Narrator(session.names, 2)
        while len(session.state.history) < 60 and not session.state.is_over:
            session.play(session.bot_choice())
            match = session.match
            narrator.follow(session.hand_number, match.dealt, match.outcomes, match.state.result)
        resumed = Session.from_record(session.to_record())
        again = Narrator(resumed.names, 2)
        match = resumed.match
        again.follow(resumed.hand_number, match.dealt, match.outcomes, match.state.result)
        assert again.told == narrator.told
        said = " ".join(line for _, line in narrator.told)
        if "took the pile:" in said and "laid out" in said:
            return
    raise AssertionError("no seed took the pile and laid out a red three: choose others")


def test_the_terminal_tells_each_move_from_its_record_never_from_comparing_states() -> None:
    """Every terminal front end words the engine's records (``Match.dealt``, ``Match.outcomes``): records made
    to disagree with the states win, so a front end that worked out a move by comparing states fails here."""
    from dataclasses import replace

    from canasta.outcome import Dealt
    from canasta.tui.words import Narrator

    session = Session.new(Rules(), ["you", "basic", "basic", "basic"], seed=7)
    session.table.run_bots()
    session.play("draw")
    session.play(f"discard {card_text(session.state.hand(0)[0])}")
    session.table.run_bots()
    match = session.match
    three = parse_cards(["3D"])[0]
    match.outcomes[:] = [replace(o, took=o.took + 90, top=three) if o.took else replace(o, reds=((o.seat, (three,)),))
                         for o in match.outcomes]
    match.dealt = Dealt(pile=(three,))
    expected = [f"{session.names[o.seat]} laid out a red three: 3♦"
                for o in match.outcomes if not o.took]
    told = [line for _, line in Narrator(session.names, 2).follow(1, match.dealt, match.outcomes)]
    assert told[0] == "The pile starts with 3♦"
    assert all(line in told for line in expected) and len(expected) > 3
    app = PlayApp(session, bot_delay=0)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert [line for _, line in app.table.told] == told
            await pilot.press("L")
            page = "\n".join(app.screen.lines)  # type: ignore[attr-defined]
            assert "The pile starts with 3♦" in page and expected[-1] in page

    asyncio.run(main())


def test_continue_mid_turn_restores_the_log_and_the_new_card_marks_exactly() -> None:
    """Saved after your draw and resumed (``--continue``): the same log, word for word, and the same cards
    marked new in your hand, from the engine's records rebuilt with the match."""

    async def look(session: Session, keys: tuple[str, ...]) -> tuple[list[tuple[int, str]], list[int], str]:
        app = PlayApp(session, bot_delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press(*keys)
            await pilot.pause()
            return list(app.table.told), app.table.fresh, widget_title(app)

    def widget_title(app: PlayApp) -> str:
        return "\n".join(plain(line) for line in app.table.drawn["hand-title"])

    for seed in range(4):
        session = Session.new(Rules(), ["you", "basic", "basic", "basic"], seed=seed)
        told, fresh, title = asyncio.run(look(session, ("d",)))
        if not fresh:
            continue  # a red three drawn and replaced by another: try a plainer draw
        resumed = Session.from_record(session.to_record())
        assert asyncio.run(look(resumed, ())) == (told, fresh, title)
        assert "new: " in title and told[0][1].startswith("The pile starts with")
        return
    raise AssertionError("no seed drew a card at the first turn")
