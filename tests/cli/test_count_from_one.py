"""Issue 15 point 5: what people read counts seats and sides from 1 — the rules of every preset, the help,
the line-by-line game and the scorekeeper (the terminal's screens: ``tests.tui.screens.check_layout``).

Positions and JSON records keep NOTATION.md's seats and sides from 0; they are not read here.
"""

from __future__ import annotations

import argparse
import io

import pytest

from canasta.cli import build_parser, main
from canasta.rules import PRESETS, Rules
from canasta.scorekeeper.command import keep_score
from canasta.scorekeeper.model import ScoreGame

from ..numbering import zero_based


def output(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(args)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out + err


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_rules_of_every_preset_count_from_1(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = output(["rules", preset], capsys)
    assert not zero_based(text), zero_based(text)
    rules = Rules.from_preset(preset)
    numbered = "1 and 2" if rules.players == 2 else f"1 to {rules.players}"
    assert f"numbered {numbered} clockwise" in " ".join(text.split())
    if rules.sides < rules.players:
        assert "side 1 is seats 1" in " ".join(text.split())


def test_the_options_and_every_help_count_from_1(capsys: pytest.CaptureFixture[str]) -> None:
    texts = [output(["rules", "--options"], capsys), output([], capsys)]
    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    texts += [output([name, "--help"], capsys) for name in action.choices]
    for text in texts:
        assert not zero_based(text), zero_based(text)


@pytest.mark.parametrize("preset", ["classic", "five-player", "six-player"])
def test_the_line_by_line_game_counts_from_1(preset: str, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    rules = Rules.from_preset(preset)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))  # the next hand once, then the end of input
    seats = ",".join(["basic"] * rules.players)
    text = output(["play", "--plain", "--preset", preset, "--seed", "2", "--seats", seats], capsys)
    assert "Player 0" not in text and not zero_based(text), zero_based(text)
    assert "Basic 1" in text and f"Basic {rules.players}" in text  # players are named from 1


def test_the_scorekeeper_counts_from_1() -> None:
    lines = iter(["a 120 -35", "n 2 Them", "n 0 Nobody", "n 4 Nobody", "s", "q"])
    out: list[str] = []
    keep_score(ScoreGame.new(Rules.from_preset("classic"), 3), None, lambda prompt: next(lines), out.append)
    text = "\n".join(out)
    assert "Side 1" in text and "Side 3" in text and "N from 1 to 3" in text
    assert not zero_based(text), zero_based(text)
