"""The command line (README "Command line"; NOTATION.md "The runner") and terminal play."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from canasta import Move, Rules, cards_text, full_deck
from canasta.cli import main
from canasta.errors import SeatError
from canasta.tui.plain import play_in_terminal

POSITION: dict[str, Any] = {
    "rules": "classic",
    "dealer": 3,
    "turn": 0,
    "scores": [0, 0],
    "hands": [["9D", "2C", "5H", "6S"], ["4C"], ["4H"], ["4S"]],
    "stock": ["6C", "6D", "7C"],
    "pile": ["TC", "JK", "8D", "9S"],
    "melds": [{"9": ["9H", "9D", "9C"]}, {}],
    "red_threes": [[], []],
    "melded": [True, False, True, False],
}
RUNNER_KEYS = {"applied", "illegal", "turn", "phase", "position", "hand_over", "result", "match"}


def write_json(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, out: str, err: str, words: str) -> None:
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert "Traceback" not in err
    assert words in err


# -- scenario ----------------------------------------------------------------------------------


def test_scenario_prints_the_runner_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_json(tmp_path, "s.json", {"name": "x", "position": POSITION,
                                           "moves": ["pile 9D 2C", "draw", "meld 6S 6C 2C", "discard 5H"]})
    code, out, err = run(["scenario", path], capsys)
    assert code == 0 and err == ""
    assert out.count("\n") == 1
    data = json.loads(out)
    assert RUNNER_KEYS <= set(data)
    assert data["applied"] == 0
    assert data["illegal"]["index"] == 0 and data["illegal"]["move"] == "pile 9D 2C"
    assert "frozen" in data["illegal"]["reason"]
    assert data["turn"] == 0 and data["phase"] == "draw"
    assert data["hand_over"] is False and data["result"] is None
    assert data["match"] == {"scores": [0, 0], "winner": None}
    assert data["position"]["hands"][0] == ["9D", "6S", "5H", "2C"]


def test_scenario_applies_every_legal_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_json(tmp_path, "s.json", {"position": POSITION, "moves": ["draw", "meld 6s 6c 2c", "discard 5H"]})
    code, out, _ = run(["scenario", path, "--pretty"], capsys)
    data = json.loads(out)
    assert code == 0
    assert data["applied"] == 3 and data["illegal"] is None
    assert (data["turn"], data["phase"]) == (1, "draw")
    assert data["position"]["melds"][0]["6"] == ["6S", "6C", "2C"]


def test_scenario_reports_the_result_when_the_hand_ends(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = dict(POSITION, stock=[], pile=["2C", "9S"], hands=[["9D", "5H", "6S"], ["4C"], ["4H"], ["4S"]])
    path = write_json(tmp_path, "s.json", {"position": position, "moves": ["draw"]})
    code, out, _ = run(["scenario", path], capsys)
    data = json.loads(out)
    assert code == 0 and data["hand_over"] is True and data["phase"] == "over"
    result = data["result"]
    assert result["went_out"] is None and result["concealed"] is False
    assert [s["total"] for s in result["sides"]] == [30 - 25, -10]
    assert all(s["total"] == s["bonuses"] + s["cards"] for s in result["sides"])
    assert data["match"]["scores"] == [5, -10]


def test_scenario_from_a_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal = {"rules": "classic", "dealer": 0, "deck": cards_text(full_deck(2))}
    path = write_json(tmp_path, "s.json", {"deal": deal, "moves": ["draw", "fly"]})
    code, out, _ = run(["scenario", path], capsys)
    data = json.loads(out)
    assert code == 0
    assert data["applied"] == 1 and data["illegal"]["index"] == 1 and "unknown move" in data["illegal"]["reason"]
    assert data["phase"] == "play"


def test_scenario_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["scenario", str(tmp_path / "nope.json")], capsys)
    assert_one_line_error(code, out, err, "cannot read")


def test_scenario_invalid_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"position": ')
    code, out, err = run(["scenario", str(path)], capsys)
    assert_one_line_error(code, out, err, "not valid JSON")


def test_scenario_not_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe\x00\x81")
    code, out, err = run(["scenario", str(path)], capsys)
    assert_one_line_error(code, out, err, "canasta:")


@pytest.mark.parametrize(
    ("scenario", "words"),
    [
        ({"position": dict(POSITION, hands=[["9D", "XX"], ["4C"], ["4H"], ["4S"]])}, "unknown card 'XX'"),
        ({"position": dict(POSITION, hands=[["9D", "9D"], ["4C"], ["4H"], ["4S"]])}, "3 copies of 9D"),
        ({"position": dict(POSITION, rules={"preset": "classic", "colour": "blue"})}, "unknown rules option"),
        ({"position": dict(POSITION, turn=7)}, "seat"),
        ({"position": dict(POSITION, hands=[["9D"]])}, "hands"),
        ({"position": POSITION, "deal": {}}, "not both"),
        ({"moves": ["draw"]}, "'position' or a 'deal'"),
        ({"position": POSITION, "moves": "draw"}, "moves"),
        ([1, 2, 3], "JSON object"),
    ],
)
def test_scenario_bad_start_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scenario: object, words: str
) -> None:
    path = write_json(tmp_path, "bad.json", scenario)
    code, out, err = run(["scenario", path], capsys)
    assert_one_line_error(code, out, err, words)


def test_scenario_files_of_the_suite_run(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "conformance").glob("*.json"))
    assert files
    for path in files:
        code, out, err = run(["scenario", str(path)], capsys)
        assert code == 0 and err == ""
        assert RUNNER_KEYS <= set(json.loads(out))


# -- legal -------------------------------------------------------------------------------------


def test_legal_lists_the_canonical_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_json(tmp_path, "p.json", POSITION)
    code, out, err = run(["legal", path], capsys)
    assert code == 0 and err == ""
    assert out.splitlines() == ["draw"]


def test_legal_in_a_position_with_a_pile_to_take(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = dict(POSITION, pile=["TC", "8D", "9S"])
    path = write_json(tmp_path, "p.json", position)
    code, out, _ = run(["legal", path], capsys)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "draw"
    assert "pile" in lines
    for line in lines:
        Move.parse(line)


def test_legal_bad_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_json(tmp_path, "p.json", dict(POSITION, colour=1))
    code, out, err = run(["legal", path], capsys)
    assert_one_line_error(code, out, err, "unknown position field")


# -- bench -------------------------------------------------------------------------------------


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["bench", "--hands", "20", "--seed", "1", "--json"], capsys)
    assert code == 0 and err == ""
    assert out.count("\n") == 1
    data = json.loads(out)
    assert {"hands", "decisions", "seconds", "decisions_per_s", "hands_per_s"} <= set(data)
    assert data["hands"] == 20
    assert data["decisions"] > 20
    assert data["seconds"] >= 0 and data["decisions_per_s"] > 0 and data["hands_per_s"] > 0
    assert data["build"] in ("interpreted", "compiled (mypyc)")


def test_bench_is_deterministic_in_its_decisions(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(["bench", "--hands", "5", "--seed", "3", "--json"], capsys)
    _, second, _ = run(["bench", "--hands", "5", "--seed", "3", "--json"], capsys)
    assert json.loads(first)["decisions"] == json.loads(second)["decisions"]


def test_bench_text_and_other_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["bench", "--hands", "3", "--preset", "two-player", "--set", "target=1000"], capsys)
    assert code == 0 and out.startswith("two-player: 3 hands")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["bench", "--hands", "0"], "--hands"),
        (["bench", "--hands", "2", "--set", "colour=blue"], "unknown rules option"),
        (["bench", "--hands", "2", "--set", "draw"], "OPTION=VALUE"),
        (["bench", "--hands", "2", "--set", "draw=3"], "draw"),
    ],
)
def test_bench_bad_arguments(capsys: pytest.CaptureFixture[str], args: list[str], words: str) -> None:
    code, out, err = run(args, capsys)
    assert_one_line_error(code, out, err, words)


def test_soak_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["soak", "--decisions", "300", "--seed", "2", "--quiet"], capsys)
    assert code == 0
    report = json.loads(out)
    assert report["failures"] == 0 and report["decisions"] >= 300


# -- play --------------------------------------------------------------------------------------


class Human:
    """A scripted player at the terminal: asks for help, makes mistakes, then plays listed moves."""

    def __init__(self, moves: int) -> None:
        self.lines: list[str] = []
        self.prompts: list[str] = []
        self.script = ["?", "fly", "hint"]
        self.moves_left = moves
        self.played: list[str] = []
        self.seen = 0

    def write(self, text: str) -> None:
        self.lines.extend(text.split("\n"))

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("Press Enter"):
            return ""
        new_lines, self.seen = self.lines[self.seen:], len(self.lines)
        if self.script:
            return self.script.pop(0)
        starts = [n for n, line in enumerate(new_lines) if line.startswith("Legal moves: ")]
        if not starts:
            return "?"
        if self.moves_left == 0:
            raise EOFError
        self.moves_left -= 1
        listed = [new_lines[starts[-1]]]  # the list, and the lines it is wrapped onto
        listed += [line for line in new_lines[starts[-1] + 1:] if line.startswith("  ")]
        options = [m.strip() for m in " ".join(listed).removeprefix("Legal moves: ").split("|")]
        move = options[-1] if len(self.played) % 3 == 2 else options[0]
        self.played.append(move)
        return move


def test_play_in_terminal_with_a_human_seat() -> None:
    human = Human(moves=12)
    code = play_in_terminal(Rules.from_preset("classic", target=1000), ["you", "basic", "basic", "basic"], 5,
                            read=human.read, write=human.write)
    assert code == 0
    text = "\n".join(human.lines)
    assert human.lines[0].startswith("Canasta (classic) to 1,000. Seed 5.")
    assert "Legal moves: " in text
    assert "Not allowed: unknown move 'fly'" in text
    assert any(line.startswith("Hint: ") for line in human.lines)
    assert "Your hand: " in text
    assert human.played and len(human.played) <= 12
    assert human.lines[-1] == "Goodbye."
    assert "Not allowed" not in "\n".join(human.lines[human.lines.index("Goodbye.") - 3:])


def test_play_in_terminal_quit() -> None:
    lines: list[str] = []
    code = play_in_terminal(Rules.from_preset("classic"), None, 1, read=lambda p: "quit", write=lines.append)
    assert code == 0 and lines[-1] == "Goodbye."


def test_play_in_terminal_four_bots_finish_with_a_winner() -> None:
    lines: list[str] = []
    code = play_in_terminal(Rules.from_preset("classic", target=1500), ["basic"] * 4, 7,
                            read=lambda prompt: "", write=lines.append)
    assert code == 0
    assert lines[-1].startswith("Basic ") and lines[-1].endswith(" win the match.")
    assert any(line.startswith("Match: Basic 1 & Basic 3 ") for line in lines)
    assert not any("Side 0" in line for line in lines)


def test_play_in_terminal_refuses_bad_seats_before_showing_anything() -> None:
    lines: list[str] = []
    with pytest.raises(SeatError, match="give 4 seats"):
        play_in_terminal(Rules.from_preset("classic"), ["you", "basic"], 1, read=lambda p: "", write=lines.append)
    with pytest.raises(SeatError, match="unknown computer player 'wizard'"):
        play_in_terminal(Rules.from_preset("classic"), ["you", "basic", "basic", "wizard"], 1,
                         read=lambda p: "", write=lines.append)
    assert lines == []


def test_the_play_command_says_bad_seats_on_standard_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--plain", "--seats", "you,wizard,basic,basic"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "unknown computer player 'wizard'" in err and len(err.splitlines()) == 1


def test_play_command_with_four_bots(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 200))
    code = main(["play", "--plain", "--seats", "basic,basic,basic,basic", "--seed", "3", "--target", "1000"])
    out, err = capsys.readouterr()
    assert code == 0
    assert out.rstrip("\n").splitlines()[-1].endswith(" the match.")
    assert "Traceback" not in err


def test_play_command_bad_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "--set", "colour=blue"], capsys)
    assert_one_line_error(code, out, err, "unknown rules option")
