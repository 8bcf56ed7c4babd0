"""The journal of a long run (bots/journal.py, ``--journal``): a run cut short resumes to the report of one run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from canasta.bots.arena import ArenaError, Hand, MatchPlay, play_deal, run_arena, unit_from_json, unit_to_json
from canasta.bots.journal import open_journal
from canasta.bots.ladder import journal_name, run_ladder
from canasta.cli import main
from canasta.rules import Rules

CLASSIC = Rules.from_preset("classic")
TIMING = {"seconds", "decisions_per_s", "decision_ms"}  # wall-clock figures; everything else is fixed by the seed


def fixed(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k not in TIMING}


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


# -- resuming ----------------------------------------------------------------------------------


def test_a_run_cut_short_resumes_to_the_report_of_one_run(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    first = run_arena("random", "basic", CLASSIC, seed=5, deals=3, journal=journal)
    assert [line.get("unit") for line in lines(journal)] == [None, 0, 1, 2]
    assert lines(journal)[0] == {"journal": "canasta arena", "version": 1, "a": "random", "b": "basic",
                                 "rules": "classic", "seed": 5, "kind": "deals"}
    resumed = run_arena("random", "basic", CLASSIC, seed=5, deals=6, journal=journal)
    assert [line.get("unit") for line in lines(journal)] == [None, 0, 1, 2, 3, 4, 5]  # only the missing ones
    fresh = run_arena("random", "basic", CLASSIC, seed=5, deals=6)
    assert fixed(resumed) == fixed(fresh) and fixed(first) != fixed(fresh)
    assert resumed["seconds"] >= sum(line["seconds"] for line in lines(journal)[1:4])  # the earlier time counts


def test_a_finished_journal_plays_nothing_and_a_smaller_count_reads_its_first_units(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    whole = run_arena("random", "basic", CLASSIC, seed=2, deals=4, journal=journal)
    written = journal.read_bytes()
    assert fixed(run_arena("random", "basic", CLASSIC, seed=2, deals=4, journal=journal)) == fixed(whole)
    part = run_arena("random", "basic", CLASSIC, seed=2, deals=2, journal=journal)
    assert journal.read_bytes() == written
    assert fixed(part) == fixed(run_arena("random", "basic", CLASSIC, seed=2, deals=2))


def test_matches_resume(tmp_path: Path) -> None:
    rules = Rules.from_preset("classic", target=1000)
    journal = tmp_path / "matches.jsonl"
    run_arena("basic", "random", rules, seed=3, matches=1, journal=journal)
    resumed = run_arena("basic", "random", rules, seed=3, matches=2, journal=journal)
    assert fixed(resumed) == fixed(run_arena("basic", "random", rules, seed=3, matches=2))
    assert lines(journal)[0]["kind"] == "matches" and lines(journal)[0]["rules"] == {"preset": "classic",
                                                                                      "target": 1000}


def test_two_workers_fill_the_gaps_of_a_journal(tmp_path: Path) -> None:
    """Processes finish chunks in any order: a journal may miss units in the middle, not only at the end."""
    journal = tmp_path / "run.jsonl"
    run_arena("random", "basic", CLASSIC, seed=7, deals=6, workers=2, journal=journal)
    kept = [line for line in journal.read_text().splitlines() if json.loads(line).get("unit") not in (1, 4)]
    journal.write_text("\n".join(kept) + "\n")
    resumed = run_arena("random", "basic", CLASSIC, seed=7, deals=8, workers=2, journal=journal)
    assert sorted(line["unit"] for line in lines(journal)[1:]) == list(range(8))
    assert fixed(resumed) == fixed(run_arena("random", "basic", CLASSIC, seed=7, deals=8))


def test_units_read_back_equal_the_units_played() -> None:
    deal = play_deal("basic", "random", CLASSIC, 4, 0)
    back = unit_from_json("deals", json.loads(json.dumps(unit_to_json(deal))))
    assert back == deal and all(isinstance(h, Hand) for h in back)
    assert [h.times[0][:3] for h in back] == [tuple(round(t, 7) for t in h.times[0][:3]) for h in deal]
    play = MatchPlay((Hand(1, (300, 500), 10, (1, 4, 0, 0), ((0.5,), (0.25,))),), "b")
    assert MatchPlay.from_json(json.loads(json.dumps(play.to_json()))) == play


# -- refusals and broken lines -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"b": "expert"}, 'b "basic" there, "expert" here'),
        ({"seed": 6}, "seed 5 there, 6 here"),
        ({"rules": Rules.from_preset("classic", target=1000)},
         'rules "classic" there, {"preset":"classic","target":1000} here'),
        ({"deals": None, "matches": 2}, 'kind "deals" there, "matches" here'),
    ],
)
def test_the_journal_of_another_run_is_refused(tmp_path: Path, change: dict[str, Any], words: str) -> None:
    journal = tmp_path / "run.jsonl"
    run_arena("random", "basic", CLASSIC, seed=5, deals=1, journal=journal)
    written = journal.read_bytes()
    args: dict[str, Any] = {"a": "random", "b": "basic", "rules": CLASSIC, "seed": 5, "deals": 2} | change
    with pytest.raises(ArenaError, match="is the journal of another run") as caught:
        run_arena(journal=journal, **args)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    assert journal.read_bytes() == written


@pytest.mark.parametrize("content", [b"deal 1: +200\n", b'{"unit": 0}\n', b"[1, 2]", b"\xff\xfe\x00binary\n"])
def test_a_file_that_is_not_a_journal_is_refused(tmp_path: Path, content: bytes) -> None:
    other = tmp_path / "notes.txt"
    other.write_bytes(content)
    with pytest.raises(ArenaError, match=r"notes.txt is not an arena journal \(its first line is not a journal"):
        run_arena("random", "basic", CLASSIC, seed=1, deals=1, journal=other)
    assert other.read_bytes() == content


def test_an_empty_file_becomes_a_journal(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    journal.write_text("")
    run_arena("random", "basic", CLASSIC, seed=1, deals=1, journal=journal)
    assert len(lines(journal)) == 2


def test_a_half_written_last_line_is_cut_off_with_a_warning(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "run.jsonl"
    run_arena("random", "basic", CLASSIC, seed=8, deals=3, journal=journal)
    text = journal.read_text()
    journal.write_text(text[: len(text) - 40])  # killed while writing unit 2
    resumed = run_arena("random", "basic", CLASSIC, seed=8, deals=3, journal=journal)
    err = capsys.readouterr().err
    assert err == f"canasta: warning: {journal}: line 4 is half written (a run killed while writing it): cut off\n"
    assert fixed(resumed) == fixed(run_arena("random", "basic", CLASSIC, seed=8, deals=3))
    assert [line["unit"] for line in lines(journal)[1:]] == [0, 1, 2]  # each line whole again


def test_a_broken_line_inside_is_ignored_with_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "run.jsonl"
    run_arena("random", "basic", CLASSIC, seed=8, deals=2, journal=journal)
    head, *units = journal.read_text().splitlines(keepends=True)
    journal.write_text(head + '{"unit": 0, "result": [{"a_side": 0}]}\n' + "".join(units[1:]))
    resumed = run_arena("random", "basic", CLASSIC, seed=8, deals=2, journal=journal)
    assert capsys.readouterr().err.startswith(f"canasta: warning: {journal}: line 2 is not a finished unit "
                                              "and is ignored (")
    assert fixed(resumed) == fixed(run_arena("random", "basic", CLASSIC, seed=8, deals=2))


def test_a_whole_last_line_without_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    with open_journal(path, {"seed": 1}, int, ValueError) as book:
        book.append(0, 7, 0.5)
    path.write_text(path.read_text().rstrip("\n"))
    with open_journal(path, {"seed": 1}, int, ValueError) as book:
        assert book.units == {0: (7, 0.5)}
        book.append(1, 8, 0.25)
    with open_journal(path, {"seed": 1}, int, ValueError) as book:
        assert book.units == {0: (7, 0.5), 1: (8, 0.25)}


# -- the ladder ----------------------------------------------------------------------------------


def test_a_ladder_resumes_from_one_journal_per_pair(tmp_path: Path) -> None:
    folder = tmp_path / "ladder"
    run_ladder(["random", "basic", "beginner"], CLASSIC, seed=3, deals=2, journal=folder)
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["classic-basic-vs-beginner.jsonl", "classic-random-vs-basic.jsonl",
                     "classic-random-vs-beginner.jsonl"]
    resumed = run_ladder(["random", "basic", "beginner"], CLASSIC, seed=3, deals=4, journal=folder)
    fresh = run_ladder(["random", "basic", "beginner"], CLASSIC, seed=3, deals=4)
    assert [fixed(p) for p in resumed["pairs"]] == [fixed(p) for p in fresh["pairs"]]
    strip = [{k: v for k, v in r.items() if k != "decision_ms"} for r in resumed["ratings"]]
    assert strip == [{k: v for k, v in r.items() if k != "decision_ms"} for r in fresh["ratings"]]
    assert all(len(lines(p)) == 5 for p in folder.iterdir())


def test_a_pairs_journal_has_a_safe_name() -> None:
    assert journal_name(CLASSIC, "search:16", "expert:meld_early=1") == "classic-search_16-vs-expert_meld_early=1.jsonl"
    long = journal_name(CLASSIC, "policy:" + "d/" * 200 + "x.npz", "basic")
    assert len(long) < 255 and "/" not in long and long.endswith(".jsonl")
    assert long != journal_name(CLASSIC, "policy:" + "d/" * 200 + "y.npz", "basic")


# -- the commands --------------------------------------------------------------------------------


def test_the_command_logs_progress_lines_without_a_terminal(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    journal = str(tmp_path / "run.jsonl")
    code, out, err = run(["arena", "random", "basic", "--deals", "10", "--seed", "1", "--journal", journal], capsys)
    assert code == 0 and "10 deals" in out
    progress = err.splitlines()
    assert len(progress) == 10 and progress[4].startswith("arena: 5/10 deals, ")
    assert progress[-1].startswith("arena: 10/10 deals, ") and progress[-1].endswith(" points/hand so far")
    code, _, err = run(["arena", "random", "basic", "--deals", "20", "--seed", "1", "--journal", journal], capsys)
    assert code == 0 and err.splitlines()[0].startswith("arena: 10/20 deals read back from the journal, ")
    assert [line.split(",")[0] for line in err.splitlines()[1:]] == [f"arena: {n}/20 deals" for n in range(12, 21, 2)]
    code, _, err = run(["arena", "random", "basic", "--deals", "20", "--seed", "1", "--journal", journal,
                        "--quiet"], capsys)
    assert code == 0 and err == ""


def test_the_commands_refuse_another_runs_journal_in_one_line(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "run.jsonl"
    code, _, _ = run(["arena", "random", "basic", "--deals", "1", "--seed", "1", "--journal", str(journal)], capsys)
    assert code == 0
    code, out, err = run(["arena", "basic", "random", "--deals", "1", "--seed", "1", "--journal", str(journal)],
                         capsys)
    assert code == 2 and out == "" and "Traceback" not in err
    assert err == (f'canasta: {journal} is the journal of another run: a "random" there, "basic" here; '
                   f'b "basic" there, "random" here\n')
    code, out, err = run(["arena", "random", "basic", "--deals", "1", "--seed", "1", "--journal", str(tmp_path)],
                         capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    folder = tmp_path / "ladder"
    folder.mkdir()
    (folder / "classic-random-vs-basic.jsonl").write_text("not a journal\n")
    code, out, err = run(["ladder", "--bots", "random,basic", "--deals", "2", "--seed", "1", "--journal",
                          str(folder)], capsys)
    assert code == 2 and out == ""
    assert err == f"canasta: {folder / 'classic-random-vs-basic.jsonl'} is not an arena journal " \
                  "(its first line is not a journal header)\n"


def test_the_ladder_command_resumes_and_logs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = str(tmp_path / "ladder")
    args = ["ladder", "--bots", "random,basic", "--deals", "2", "--seed", "1", "--json", "--journal", folder]
    code, first, err = run(args, capsys)
    assert code == 0 and [line.split(",")[0] for line in err.splitlines()] == ["ladder classic: 1/2 deals",
                                                                                "ladder classic: 2/2 deals"]
    code, again, err = run(args, capsys)
    assert code == 0 and err.startswith("ladder classic: 2/2 deals read back from the journal, ")
    assert err.count("\n") == 1
    assert fixed(json.loads(again)["pairs"][0]) == fixed(json.loads(first)["pairs"][0])
