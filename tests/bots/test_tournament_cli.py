"""``canasta tournament run`` (issue 31 point 5): the standings as text and JSON, bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from canasta.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str], action: str = "run") -> tuple[int, str, str]:
    try:
        code = main(["tournament", action, *args])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def run_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run([*args, "--json"], capsys)
    assert code == 0, err
    assert out.count("\n") == 1
    data: dict[str, Any] = json.loads(out)
    return data


def test_json_has_each_side_s_players_matchpoints_and_percent(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(["--tables", "3", "--boards", "6", "--seats", "basic,basic,basic,basic", "--seed", "3"], capsys)
    standings = data["standings"]
    assert len(standings) == 6
    assert {"players", "matchpoints", "percent", "entry", "direction", "rank", "top", "boards"} <= set(standings[0])
    assert standings[0]["players"] == [f"Basic {standings[0]['entry'][0]}.{s}"
                                       for s in ((1, 3) if standings[0]["direction"] == 0 else (2, 4))]
    assert all(s["top"] == 6 * 4 and s["boards"] == 6 for s in standings)
    assert sum(s["matchpoints"] for s in standings) == 6 * 2 * (3 * 2)  # boards x directions x 2 per comparison
    assert [s["percent"] for s in standings] == sorted((s["percent"] for s in standings), reverse=True)
    assert len(data["results"]) == 18 and len(data["board_scores"]) == 6
    again = run_json(["--tables", "3", "--boards", "6", "--seats", "basic,basic,basic,basic", "--seed", "3"], capsys)
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in data.items() if k != "seconds"}


def test_text_prints_the_format_and_the_standings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--tables", "2", "--boards", "4", "--seats", "expert,expert,expert,expert",
                          "--seats", "random,random,random,random", "--seed", "1", "--minimum", "50,90",
                          "--rounds", "2", "--board-scores"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Duplicate tournament: classic, 2 tables, 4 boards in 2 rounds (mitchell movement), seed 1"
    assert lines[1] == ("first-meld minimum 50/50 (side totals 0/0), then 90/90 (side totals 1500/1500), "
                        "board by board in turn")
    assert lines[4].split() == ["rank", "entry", "players", "boards", "matchpoints", "top", "percent", "points"]
    entries = [line.split()[1] for line in lines[5:9]]
    assert sorted(entries) == ["1A", "1B", "2A", "2B"]
    assert "Expert 1.1, Expert 1.3" in out and "Random 2.2, Random 2.4" in out
    assert out.count("\nboard ") == 4


def test_three_player_tournament_from_a_score_schedule(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(["--preset", "three-player", "--tables", "2", "--boards", "3", "--seats", "basic,basic,basic",
                     "--seed", "2", "--schedule", "0,1500/0/3000"], capsys)
    assert data["minimums"] == [[50, 50, 50], [90, 50, 120]]
    assert len(data["standings"]) == 6 and all(len(s["players"]) == 1 for s in data["standings"])


CLUB = {  # a tournament played with real cards, its results typed in (docs/tournament.md's example, and one more board)
    "tournament": {"rules": "classic", "boards": 2, "seed": 2026,
                   "tables": [["human:Ann", "human:Bob", "human:Cy", "human:Di"],
                              ["human:Ed", "human:Flo", "human:Gus", "human:Hal"],
                              ["human:Ivy", "human:Jo", "human:Kim", "human:Lu"]]},
    "results": [{"board": 0, "table": 0, "totals": [500, 100]}, {"board": 0, "table": 1, "totals": [600, 200]},
                {"board": 0, "table": 2, "totals": [0, 100]}, {"board": 1, "table": 0, "totals": [-120, 850]},
                {"board": 1, "table": 1, "totals": [300, 300]}, {"board": 1, "table": 2, "adjusted": [60, 40]}],
}


def test_score_ranks_results_typed_in_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.json"
    path.write_text(json.dumps(CLUB))
    code, out, err = run([str(path), "--json"], capsys, "score")
    assert code == 0, err
    rows = {s["entry"]: s for s in json.loads(out)["standings"]}
    # Board 2 was played at two tables (2A beat 1A: 2 and 0, factored to 3.5 and 0.5); table 3 scored 60%/40%.
    assert rows["2A"]["matchpoints"] == 3 + 3.5 and rows["2A"]["players"] == ["Ed", "Gus"]
    assert rows["3B"]["matchpoints"] == 4 + 1.6 and rows["3B"]["percent"] == 70.0
    assert [s["entry"] for s in json.loads(out)["standings"]] == ["2A", "3B", "1B", "1A", "3A", "2B"]
    code, out, err = run([str(path), "--board-scores"], capsys, "score")
    assert code == 0 and "6 results; each result compared with 2 others" in out and "adjusted 60%" in out


def test_score_reads_back_what_run_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = run_json(["--tables", "2", "--boards", "3", "--seats", "basic,basic,basic,basic", "--seed", "4"], capsys)
    path = tmp_path / "run.json"
    path.write_text(json.dumps(played))
    code, out, err = run([str(path), "--json"], capsys, "score")
    assert code == 0, err
    assert json.loads(out) == {k: v for k, v in played.items() if k != "seconds"}


@pytest.mark.parametrize(("data", "message"), [
    ({"tournament": {}}, "a tournament needs 'tables'"),
    (CLUB | {"results": [{"board": 0, "table": 0, "totals": [1, 2]}] * 2}, "board 1 at table 1 is already recorded"),
    (CLUB | {"results": [{"board": 0, "table": 0, "adjusted": [70, 30]}]}, "not 70"),
    ([], "a scoreboard is a JSON object"),
])
def test_score_refuses_a_file_that_does_not_fit_in_one_line(data: object, message: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    code, out, err = run([str(path)], capsys, "score")
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize(("args", "message"), [
    (["--tables", "0", "--boards", "2", "--seed", "1"], "--tables: must be 2 or more, not 0"),
    (["--tables", "1", "--boards", "2", "--seed", "1"], "--tables: must be 2 or more, not 1"),
    (["--tables", "2", "--boards", "0", "--seed", "1"], "--boards: must be 1 or more, not 0"),
    (["--tables", "2", "--boards", "2", "--seed", "1", "--seats", "basic,basic"], "give 4 computer players"),
    (["--tables", "2", "--boards", "2", "--seed", "1", "--seats", "basic,wizard,basic,basic"],
     "unknown computer player 'wizard'"),
    (["--tables", "2", "--boards", "2", "--seed", "1", "--seats", "basic,human,basic,basic"],
     "table 1, seat 2 is for a person"),
    (["--tables", "2", "--boards", "2", "--seed", "1", "--seats", "basic,,basic,basic"], "give 4 computer players"),
    (["--tables", "2", "--boards", "2", "--seed", "1", *["--seats", "basic,basic,basic,basic"] * 3],
     "3 --seats lists for 2 tables"),
    (["--tables", "2", "--boards", "5", "--rounds", "2", "--seed", "1"], "5 boards do not split into 2 rounds"),
    (["--tables", "2", "--boards", "2", "--seed", "1", "--minimum", "70"], "a first-meld minimum of 70"),
    (["--tables", "2", "--boards", "2", "--seed", "1", "--minimum", "fifty"], "--minimum takes whole numbers"),
    (["--tables", "2", "--boards", "2", "--seed", "1", "--schedule", "0/0/0"], "gives 3 sides' numbers, not 2"),
    (["--tables", "2", "--boards", "2", "--seed", "1", "--backend", "cloud"], "invalid choice: 'cloud'"),
    (["--tables", "2", "--boards", "2", "--seed", "1", "--workers", "0"], "--workers: must be 1 or more"),
    (["--tables", "2", "--boards", "2"], "the following arguments are required: --seed"),
])
def test_bad_input_is_one_line_and_exit_status_2(args: list[str], message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err
