"""Issue 29 point 4: ``canasta replay FILE --review [REVIEW.json]`` in words (``--plain``), and its bad input.

A review given (``canasta review --json``) or made now (kept in the per-user data folder) marks each
decision under its move with the better move in words; a review of another record, a file that is no
review, or one that is not there is one line on standard error, exit status 2, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from canasta.bots.hints import move_words
from canasta.bots.review import ReviewSettings
from canasta.cli import main
from canasta.moves import Move
from canasta.tui.review_marks import mark

from ..tui.reviewed import TINY, marked, record, review


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    """A save file of one finished hand and its review as ``canasta review --json`` writes it."""
    save, found = tmp_path / "hand.canasta.json", tmp_path / "hand.review.json"
    save.write_text(json.dumps(record()))
    found.write_text(json.dumps(review().to_json()))
    return save, found


def test_the_plain_replay_prints_the_mark_and_the_better_move_under_the_move(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    save, found = files
    code, out, err = run(["replay", str(save), "--review", str(found), "--plain"], capsys)
    assert code == 0, err
    d = marked(review())
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{d.index + 1:3}. You "))
    under = " ".join(" ".join(lines[at + 1:at + 4]).split())
    assert under.startswith(mark(d)) and f"Better: {move_words(Move.parse(d.best))} (+{d.loss:.0f}):" in under
    assert "Review of hand 1: You lost" in out and "rating" in out.split("Review:")[-1]


def test_another_seats_view_prints_none_of_the_reviewed_seats_marks(
        files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    save, found = files
    code, out, err = run(["replay", str(save), "--review", str(found), "--plain", "--seat", "2"], capsys)
    assert code == 0, err
    assert mark(marked(review())) not in out and "Better:" not in out
    assert "the marks of You are not shown" in " ".join(out.split())


def test_a_review_made_now_is_kept_for_the_next_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CANASTA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr("canasta.tui.review_marks.ReviewSettings", lambda: TINY)  # the default budget, shrunk
    save = tmp_path / "hand.canasta.json"
    save.write_text(json.dumps(record()))
    code, out, err = run(["replay", str(save), "--plain", "--review"], capsys)
    assert code == 0, err
    assert mark(marked(review())) in out  # the people's seats of a save: You
    kept = list((tmp_path / "data" / "reviews").glob("*.review.json"))
    assert len(kept) == 1

    def no_review(*args: object, **kwargs: object) -> None:
        raise AssertionError("reviewed again")

    monkeypatch.setattr("canasta.tui.review_marks.review_match", no_review)
    assert run(["replay", str(save), "--plain", "--review"], capsys)[1] == out


@pytest.mark.parametrize("content, said", [
    ("{", "not valid JSON"),
    ('{"preset": "classic"}', "not a review written by canasta review --json"),
    ("[1, 2]", "not a review written by canasta review --json"),
    ('{"preset": "classic", "players": [], "hands": [0], "seats": [], "decisions": [{"hand": 0}]}',
     "not a review written by canasta review --json"),
])
def test_a_file_that_is_no_review_is_one_line(files: tuple[Path, Path], tmp_path: Path, content: str, said: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    save, _ = files
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    code, out, err = run(["replay", str(save), "--review", str(bad), "--plain"], capsys)
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("canasta: ") and "Traceback" not in err
    assert said in err or said.replace("not valid JSON", "JSON") in err


def test_the_review_of_another_record_is_refused_in_one_line(files: tuple[Path, Path], tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    save, _ = files
    other = tmp_path / "other.review.json"
    other.write_text(json.dumps(review(seed=3).to_json()))
    code, out, err = run(["replay", str(save), "--review", str(other), "--plain"], capsys)
    assert code == 2 and not out and err.count("\n") == 1
    assert f"{other} is the review of another record: hand 1, move" in err
    missing = tmp_path / "missing.json"
    code, out, err = run(["replay", str(save), "--review", str(missing), "--plain"], capsys)
    assert code == 2 and not out and err.count("\n") == 1 and "missing.json" in err


def test_the_help_tells_of_the_review(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--review [REVIEW.json]" in out and "[ and ] jump between the marked moves" in out
    assert isinstance(ReviewSettings(), ReviewSettings)
