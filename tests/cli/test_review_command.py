"""``canasta review FILE`` (issue 29, point 1): a game record or a save file, the seats of people by default,
text, JSON and Markdown, and bad input answered in one line with exit status 2."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from canasta.bots import make_bot
from canasta.bots.review import LABELS
from canasta.cli import main
from canasta.rules import Rules
from canasta.tui.session import Session

from ..numbering import zero_based

FAST = ["--rollouts", "2", "--candidates", "2"]
"""The smallest budget: a few rollouts a decision, so that a test takes a second or so."""


def played(seats: list[str], moves: int = 5, seed: int = 3) -> Session:
    """A match at one screen with its first ``moves`` moves played by ``basic`` players (people's seats too)."""
    session = Session.new(Rules(), seats, seed=seed)
    bots = [make_bot("basic", random.Random(seat)) for seat in range(4)]
    while len(session.match.hands[0]["moves"]) < moves:
        state = session.state
        session.play(bots[state.to_act].choose(state.view(state.to_act), list(state.legal_moves())))
    return session


@pytest.fixture
def save(tmp_path: Path) -> Path:
    path = tmp_path / "save.canasta.json"
    path.write_text(json.dumps(played(["basic", "human:Ann", "expert", "basic"]).to_record()))
    return path


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(played(["basic"] * 4, moves=3).match.to_record()))
    return path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_a_save_file_is_reviewed_for_its_people_in_json(save: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["review", str(save), "--json", *FAST], capsys)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    assert [s["seat"] for s in data["seats"]] == [1]  # Ann, from 0 in the JSON
    seat = data["seats"][0]
    assert {"seat", "decisions", "mean_loss", "total_loss", *LABELS} <= set(seat)
    assert seat["decisions"] == len(data["decisions"]) == sum(seat[label] for label in LABELS)
    moves = json.loads(save.read_text())["hands"][0]["moves"]
    for d in data["decisions"]:
        assert {"hand", "index", "seat", "played", "best", "loss", "label"} <= set(d)
        assert d["seat"] == 1 and moves[d["index"]] == d["played"] and d["label"] in LABELS


def test_a_record_is_reviewed_for_every_seat_and_the_text_counts_from_1(
        record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["review", str(record), *FAST], capsys)
    assert code == 0, err
    assert "seats 1, 2, 3 and 4" in out and "hand 1, move" in out
    assert not zero_based(out), zero_based(out)


def test_chosen_seats_and_the_markdown(save: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["review", str(save), "--seat", "2", "--seat", "3", "--hand", "1", "--markdown", *FAST],
                         capsys)
    assert code == 0, err
    assert out.startswith("# Review of") and "canasta review" in out and "--seat 2 --seat 3" in out
    assert "| seat 2 (Player 2) |" in out or "| seat 2" in out
    assert "| seat 3" in out and "| seat 1" not in out
    assert not zero_based(out), zero_based(out)
    code, out, err = run(["review", str(save), "--all", "--json", *FAST], capsys)
    assert code == 0 and [s["seat"] for s in json.loads(out)["seats"]] == [0, 1, 2, 3]


@pytest.mark.parametrize("args", [
    ["review", "{missing}"], ["review", "{bad}"], ["review", "{empty}"], ["review", "{position}"],
    ["review", "{record}", "--seat", "5"], ["review", "{record}", "--seat", "0"], ["review", "{record}", "--hand", "2"],
    ["review", "{record}", "--rollouts", "1"], ["review", "{record}", "--candidates", "13"],
    ["review", "{record}", "--time", "0"], ["review", "{record}", "--time", "x"],
    ["review", "{record}", "--rollouts", "4", "--time", "1"], ["review", "{record}", "--seat", "1", "--all"],
    ["review", "{record}", "--backend", "nope"], ["review", "{record}", "--json", "--markdown"],
    ["review", "{record}", "--workers", "0"], ["review", "{hidden}"], ["review"],
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], record: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.json").write_text('{"hands": ')
    (tmp_path / "empty.json").write_text("{}")
    (tmp_path / "position.json").write_text(json.dumps({"rules": "classic", "dealer": 0, "turn": 1,
                                                        "hands": [["4C"], ["5C"], ["6C"], ["7C"]]}))
    hidden = played(["human", "basic", "basic", "basic"], moves=2).match.to_record(for_seat=0)  # no decks
    (tmp_path / "hidden.json").write_text(json.dumps(hidden))
    files = {"missing": tmp_path / "missing.json", "bad": tmp_path / "bad.json", "empty": tmp_path / "empty.json",
             "position": tmp_path / "position.json", "record": record, "hidden": tmp_path / "hidden.json"}
    code, out, err = run([a.format(**files) for a in args], capsys)
    assert code == 2, (code, out, err)
    assert out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("canasta"), err
