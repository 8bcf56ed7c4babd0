"""Issue 27 point 4: the terminal without a screen — the replay in words, the offer of a match left, the plain game.

``canasta replay`` without a terminal prints the match in words and ends; ``canasta play --seed S``
asks plainly whether to continue the match left or start seed S (Enter continues, nothing is
written over unsaid); ``--plain`` prints the table again only when it changed, fits the terminal's
width and writes the ten ``10`` as the table does.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from canasta.cli import main
from canasta.rules import Rules
from canasta.tui.plain import play_in_terminal
from canasta.tui.saves import autosave_path
from canasta.tui.session import Session

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests/play/data/match_record_ed11542.json"
TEN_CODE = re.compile(r"(?<![A-Za-z0-9])T[SHDC](?![A-Za-z0-9])|(?<![A-Za-z0-9])T:")


def cli(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``canasta ARGV`` in this process, ``stdin`` typed (standard input is then not a terminal)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- the replay in words --------------------------------------------------------------------------


def test_replay_without_a_terminal_prints_the_match_in_words_and_ends(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-m", "canasta.cli", "replay", str(RECORD)], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, env=env, timeout=60)  # output: pipes
    assert done.returncode == 0, done.stderr
    assert done.stderr == "canasta: not a terminal: the replay in words (--plain)\n"
    out = done.stdout
    assert "\x1b" not in out  # no screen was drawn
    record = json.loads(RECORD.read_text())
    names = record["players"]
    assert out.startswith("Replay: classic to 5,000, seed 5, 3 hands.")
    for number in range(1, len(record["hands"]) + 1):
        assert f"Hand {number}, dealt by " in out
    moves = [line for line in out.splitlines() if re.match(r" *\d+\. ", line)]
    assert len(moves) == sum(len(hand["moves"]) for hand in record["hands"])  # every move, in words
    assert all(line.split(". ", 1)[1].split()[0] in names for line in moves)
    assert "took the pile: 1 card, top 8♦" in out and "Match: Ann & Cat 490, Bob & Dan 1,320" in out
    assert all(len(line) <= 80 for line in out.splitlines())


def test_replay_plain_from_one_seat_shows_only_what_it_saw(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["replay", str(RECORD), "--seat", "2", "--plain"], "", monkeypatch, capsys)
    assert (code, err) == (0, "")
    dealt = [line for line in out.splitlines() if re.match(r"  (Ann|Bob|Cat|Dan): ", line)]
    assert dealt and all(line.startswith("  Bob: ") for line in dealt)  # only Bob's hands are shown
    assert re.search(r"\d+\. Bob drew (\S+ ?)+\.", out)  # what Bob drew, as Bob saw it
    assert not re.search(r"\d+\. (Ann|Cat|Dan) drew [^f]", out)  # the others' draws stay hidden


# -- a match left, and --seed --------------------------------------------------------------------


def leave_a_match(seed: int = 4) -> Session:
    """A match left unfinished in the autosave, as ``canasta play`` leaves it."""
    session = Session.new(Rules(), ["you", "basic", "basic", "basic"], seed=seed)
    session.table.run_bots()
    assert session.autosave(autosave_path()) is None
    return session


def test_enter_continues_the_match_left_and_says_the_seed_is_not_used(monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    leave_a_match(4)
    code, out, _ = cli(["play", "--plain", "--seed", "5"], "\nquit\n", monkeypatch, capsys)
    flat = " ".join(out.split())
    assert code == 0
    assert "Continue it, or start the new match with seed 5?" in flat  # the question names the seed
    assert "Continue the match you left (seed 5 is not used) (Enter)" in flat
    assert "Start the new match with seed 5: it replaces the one you left" in flat
    assert "seed 5 is not used" in flat.split("[C/n]", 1)[1] and "Seed 4" in flat
    assert Session.load(str(autosave_path())).seed == 4


def test_an_answer_that_is_neither_is_asked_again_and_nothing_is_written_over(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    left = leave_a_match(4)
    code, out, _ = cli(["play", "--plain", "--seed", "5"], "draw\n", monkeypatch, capsys)
    assert code == 0 and "Answer c (or Enter) to continue the match you left, or n to start the new one." in out
    assert Session.load(str(autosave_path())).to_record() == left.to_record()  # "draw" chose nothing
    code, out, _ = cli(["play", "--plain", "--seed", "5"], "n\nquit\n", monkeypatch, capsys)
    assert code == 0 and "A new match: it replaces the one you left." in out and "Seed 5." in out
    assert Session.load(str(autosave_path())).seed == 5


def test_a_saved_match_that_does_not_load_is_kept_aside_and_said(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    auto = autosave_path()
    auto.parent.mkdir(parents=True, exist_ok=True)
    auto.write_text('{"format": "from a later canasta"}')
    code, out, err = cli(["play", "--plain", "--seed", "5"], "quit\n", monkeypatch, capsys)
    assert code == 0 and "Seed 5." in out
    kept = auto.with_name(auto.name + ".unreadable")
    assert "does not load" in err and str(kept) in err
    assert kept.read_text() == '{"format": "from a later canasta"}'


# -- the plain game -------------------------------------------------------------------------------


def plain_game(typed: list[str], width: int | None = None, seed: int = 5) -> list[str]:
    """The lines ``canasta play --plain`` writes while ``typed`` is typed (then it leaves)."""
    lines: list[str] = []
    answers = iter(typed)

    def read(prompt: str) -> str:
        lines.append(prompt)
        return next(answers, "quit")

    play_in_terminal(Rules(), ["you", "basic", "basic", "basic"], seed, read=read,
                     write=lambda text: lines.extend(text.split("\n")), width=width)
    return lines


def test_the_table_is_printed_again_only_when_it_changed() -> None:
    lines = plain_game(["?", "fly", "hint", "draw", "?", "table"])
    hands = [n for n, line in enumerate(lines) if line.startswith("Your hand: ")]
    assert len(hands) == 3  # the deal, after the draw, and when asked for with "table"
    prompts = [n for n, line in enumerate(lines) if re.fullmatch(r"You \((draw|play)\) > ", line)]
    assert hands[0] < prompts[0] < prompts[1] < prompts[2] < prompts[3] < hands[1] < prompts[4] < prompts[5] < hands[2]


def test_every_line_fits_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "50")  # what shutil.get_terminal_size reads first
    lines = plain_game(["?", "draw", "?", "hint", "fly"])
    assert max(len(line) for line in lines) <= 50 and "Legal moves:" in "\n".join(lines)
    narrow = plain_game(["draw", "?"], width=36)
    assert max(len(line) for line in narrow) <= 36
    listed = " ".join(narrow[narrow.index(next(line for line in narrow if line.startswith("Legal moves:"))):])
    assert "discard 10D" in listed  # a move is never cut in two


def test_the_ten_is_written_10_as_on_the_table() -> None:
    lines = plain_game(["draw", "?", "hint", "discard TS"])
    text = "\n".join(lines)
    assert "10♦" in text and "discard 10D" in text  # the table, and the moves listed
    assert not TEN_CODE.search(text), TEN_CODE.search(text)
    assert "Not allowed: " in text  # the engine's reason, its move text with 10 too
    typed = plain_game(["draw", "discard 10D"])  # what is shown can be typed back
    assert any("You discarded 10♦" in line for line in typed)
