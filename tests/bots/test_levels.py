"""Named levels (bots/levels.py): each makes its bot, and its name works wherever a bot's name does."""

from __future__ import annotations

import io
import random
import re
from importlib.metadata import entry_points

import pytest

from canasta.bots import (
    BOTS,
    LEVELS,
    PLUGIN_BOTS,
    BasicBot,
    Budget,
    ExpertBot,
    ExpertParams,
    SearchBot,
    find_level,
    make_bot,
)
from canasta.bots.levels import BOT_TEXT, expert_changes, expert_params
from canasta.cli import main
from canasta.errors import SeatError, UnknownBotError
from canasta.play.seats import parse_seats
from canasta.rules import Rules


def test_the_four_levels_weakest_first() -> None:
    assert [(level.name, level.kind, level.bot) for level in LEVELS] == [
        ("Beginner", "beginner", "basic"), ("Club", "club", "expert:risk_weight=0"), ("Expert", "expert", "expert"),
        ("Master", "master", "search:100ms")]
    for level in LEVELS:
        assert level.strength and level.strength[0].islower() and not level.strength.endswith(".")


def test_each_level_makes_its_bot() -> None:
    assert type(make_bot("beginner", random.Random(1))) is BasicBot
    club = make_bot("Club", random.Random(1))
    classic = Rules()
    assert isinstance(club, ExpertBot) and club.params_of(classic) == ExpertParams(risk_weight=0.0)
    expert = make_bot("EXPERT", random.Random(1))
    assert isinstance(expert, ExpertBot) and expert.params_of(classic) == ExpertParams()
    master = make_bot("master", random.Random(1))
    assert isinstance(master, SearchBot) and master.budget == Budget(seconds=0.1) and master.slow
    for level in LEVELS:  # and each plays a legal move from a view
        assert find_level(level.name.upper()) == level
        assert type(make_bot(level.kind)) is type(make_bot(level.bot))


def test_expert_options_by_name() -> None:
    bot = make_bot("expert:risk_weight=0.5+keep_natural_pairs=false+freeze_pile=9")
    assert isinstance(bot, ExpertBot) and bot.name == "expert:risk_weight=0.5+keep_natural_pairs=false+freeze_pile=9"
    assert bot.params_of(Rules()) == ExpertParams(risk_weight=0.5, keep_natural_pairs=False, freeze_pile=9)
    for bad, words in [("expert:3", "OPTION=VALUE"), ("expert:colour=red", "OPTION=VALUE"),
                       ("expert:freeze_pile=1.5", "takes a int"), ("expert:risk_weight=lots", "takes a float"),
                       ("expert:meld_triples=maybe", "takes a bool"), ("expert:", "OPTION=VALUE")]:
        with pytest.raises(UnknownBotError, match=words):
            make_bot(bad)
    assert expert_params("expert:pair_keep=10").pair_keep == 10.0
    assert expert_changes("expert:pair_keep=10+meld_triples=false") == {"pair_keep": 10.0, "meld_triples": False}


def test_an_unknown_name_lists_the_levels() -> None:
    with pytest.raises(UnknownBotError, match="levels: beginner, club, expert, master"):
        make_bot("grandmaster")


def test_levels_in_the_seat_language() -> None:
    seats = parse_seats(["human:Ann", "Beginner", "club", "MASTER"], Rules())
    assert [(s.kind, s.name) for s in seats] == [("human", "Ann"), ("beginner", "Beginner 2"), ("club", "Club 3"),
                                                 ("master", "Master 4")]
    assert [s.spec for s in seats[1:]] == ["beginner", "club", "master"]
    lobby = parse_seats([{"kind": "human"}, {"kind": "Club", "name": "Max"}, "expert", "basic"], Rules())
    assert (lobby[1].kind, lobby[1].name) == ("club", "Max")
    with pytest.raises(SeatError, match="seat 2: unknown computer player 'grandmaster'"):
        parse_seats(["human", "grandmaster", "basic", "basic"], Rules())


def test_a_level_in_play_seats(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the player leaves at the first prompt
    assert main(["play", "--plain", "--seed", "1", "--seats", "human,Beginner,club,expert"]) == 0
    out = capsys.readouterr().out
    assert "Beginner 2" in out and "Club 3" in out


def test_canasta_bots_lists_levels_and_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    words = " ".join(out.split())  # the descriptions wrap to 80 columns
    for level in LEVELS:
        assert f"  {level.name}" in out and level.strength in words and level.bot in out
    for name in [*BOTS, *(point.name for point in entry_points(group=PLUGIN_BOTS))]:  # neural too, when installed
        assert f"  {name}" in out and BOT_TEXT[name] in words
    help_text = main(["play", "--help"]) == 0 and " ".join(capsys.readouterr().out.split())
    assert help_text and "beginner, club, expert, master" in help_text


def classic_pairs() -> dict[tuple[str, str], tuple[int, int, int, float]]:
    """docs/strength.md's classic pairs: (A, B) -> A's points a hand over B, its 95% interval, deals won by A."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "strength.md").read_text(encoding="utf-8")
    classic = text.split("\n## classic\n", 1)[1].split("\n## ", 1)[0]
    pairs = {}
    for row in re.finditer(r"^\| `([^`]+)` \| `([^`]+)` \| \d+ \| ([+-]?\d+) \| ([+-]?\d+) to ([+-]?\d+) \| "
                           r"(\d+)% \|", classic, re.MULTILINE):
        a, b, diff, low, high, won = row.groups()
        pairs[(a, b)] = (int(diff), int(low), int(high), int(won) / 100)
        pairs[(b, a)] = (-int(diff), -int(high), -int(low), 1 - int(won) / 100)
    return pairs


def test_each_levels_sentence_is_the_ladders_classic_table() -> None:
    """The strength in words (lobby, canasta bots) says what docs/strength.md measured, rounded to tens."""
    pairs = classic_pairs()
    named = {level.name: level.kind if any(level.kind == a for a, _ in pairs) else level.bot for level in LEVELS}
    checked = 0
    for level in LEVELS:
        me, last = named[level.name], ""
        for clause in re.finditer(r"(\d+) (?:points a hand )?(ahead of|behind) (\w+)(?: \(95% interval "
                                  r"([+-]\d+) to ([+-]\d+)\))?|wins (\d+) deals in 10 against (\w+)", level.strength):
            points, way, other, low, high, wins, against = clause.groups()
            if points is not None:
                last = other
                diff, lo, hi, _ = pairs[(me, named[other])]
                assert abs(int(points) * (1 if way == "ahead of" else -1) - diff) <= 10, (level.name, clause[0])
                if low is not None:
                    assert (int(low), int(high)) == (lo, hi), (level.name, clause[0])
            else:
                won = pairs[(me, named[last if against == "it" else against])][3]
                assert abs(int(wins) / 10 - won) <= 0.06, (level.name, clause[0])
            checked += 1
    assert checked >= 7
