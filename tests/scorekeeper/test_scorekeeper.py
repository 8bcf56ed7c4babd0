"""The scorekeeper (canasta.scorekeeper.model) and ``canasta score`` at the terminal.

The arithmetic is checked against seed 000's worked example (1,315), against the engine's
own scoring of random hands, and on negative totals, corrections, three sides, the winner
at the target and ties (``scoring.match_winner``).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

import pytest

from canasta.rules import Rules
from canasta.scorekeeper.command import keep_score, parse_items, register, sheet_text
from canasta.scorekeeper.model import Itemised, ScoreError, ScoreGame, check_hand, entry_from_json
from canasta.scoring import SideScore
from canasta.state import GameState
from canasta.testing.bench import play_out
from canasta.testing.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[2]
WORKED = ROOT / "tests/scenarios/conformance/000-worked-example-partner-goes-out-and-the-side-scores-1-315.json"
CLASSIC = Rules.from_preset("classic")
# Seed 000: natural canasta of kings, mixed canasta of 9s, three aces, two red threes, partner goes out,
# a queen, a 6 and a 2 left in hand.
EXAMPLE = Itemised(natural=1, mixed=1, red_threes=2, out="out", melded=70 + 120 + 60, in_hand=10 + 5 + 20)


def itemised_from(score: SideScore, went_out: bool, concealed: bool) -> Itemised:
    """The items a scorer would write down for a side the engine scored."""
    return Itemised(natural=score.natural_canastas, mixed=score.mixed_canastas, wild=score.wild_canastas,
                    red_threes=score.red_threes, out=("concealed" if concealed else "out") if went_out else "",
                    melded=score.melded, in_hand=score.in_hand,
                    unfinished_wild=score.canasta_bonus < 500 * score.natural_canastas + 300 * score.mixed_canastas
                    + 2000 * score.wild_canastas)


# -- the arithmetic -------------------------------------------------------------------------


def test_worked_example_of_seed_000_scores_1315() -> None:
    score = EXAMPLE.score(CLASSIC)
    assert (score.bonuses, score.cards, score.total) == (1100, 215, 1315)
    assert (score.canasta_bonus, score.red_three_points, score.going_out) == (800, 200, 100)


def test_worked_example_matches_the_engines_own_hand() -> None:
    result = run_scenario(json.loads(WORKED.read_text()))["result"]
    items = result["sides"][0]["items"]
    engine = SideScore(**{**items, "in_hand": -items["in_hand"]})
    assert EXAMPLE.score(CLASSIC) == engine


@pytest.mark.parametrize("preset, options", [
    ("classic", {}), ("two-player", {}), ("three-player", {}), ("six-player", {}),
    ("classic", {"wild_card_melds": True, "unfinished_wild_meld_penalty": 1000, "concealed_bonus": False}),
])
def test_itemised_entries_add_up_like_the_engine(preset: str, options: dict[str, object]) -> None:
    rules = Rules.from_preset(preset, **options)
    rng = random.Random(7)
    for i in range(60):
        state = GameState.deal(rules, dealer=i % rules.players, rng=rng)
        play_out(state, rng)
        result = state.result
        assert result is not None
        entries = []
        for side, score in enumerate(result.sides):
            went_out = result.went_out is not None and result.went_out % rules.sides == side
            item = itemised_from(score, went_out, result.concealed)
            assert item.score(rules) == score
            entries.append(item)
        if rules.sides in (2, 3):
            assert check_hand(rules, entries, rules.sides) == result.totals


def test_red_threes_count_against_a_side_with_no_meld() -> None:
    assert Itemised(red_threes=2, in_hand=85).score(CLASSIC).total == -200 - 85
    assert Itemised(red_threes=4, melded=60).score(CLASSIC).red_three_points == 800
    assert Itemised(red_threes=4).score(CLASSIC).red_three_points == -800
    six = Rules.from_preset("six-player")
    assert [Itemised(red_threes=n, melded=50).score(six).red_three_points for n in (4, 5, 6)] == [400, 1000, 1200]


def test_concealed_scores_200_unless_the_option_is_off() -> None:
    concealed = Itemised(natural=1, out="concealed", melded=70)
    assert concealed.score(CLASSIC).going_out == 200
    assert concealed.score(Rules.from_preset("classic", concealed_bonus=False)).going_out == 100


@pytest.mark.parametrize("item, message", [
    (Itemised(out="out", melded=50), "going out needs 1 canasta"),
    (Itemised(red_threes=5, melded=50), "only 4 red threes"),
    (Itemised(melded=52), "multiple of 5"),
    (Itemised(natural=-1), "0 or more"),
    (Itemised(natural=1), "card points melded"),
    (Itemised(wild=1, melded=200), "wild_card_melds"),
    (Itemised(out="maybe"), "going out must be"),
])
def test_impossible_items_are_refused_in_one_line(item: Itemised, message: str) -> None:
    with pytest.raises(ScoreError, match=message) as info:
        item.score(CLASSIC)
    assert "\n" not in str(info.value)


def test_two_player_needs_two_canastas_to_go_out() -> None:
    two = Rules.from_preset("two-player")
    with pytest.raises(ScoreError, match="needs 2 canastas"):
        Itemised(natural=1, out="out", melded=100).score(two)
    assert Itemised(natural=1, mixed=1, out="out", melded=150).score(two).total == 500 + 300 + 100 + 150


def test_a_hand_is_checked_as_a_whole() -> None:
    out = Itemised(natural=1, out="out", melded=70)
    with pytest.raises(ScoreError, match="only one side can go out"):
        check_hand(CLASSIC, [out, out], 2)
    with pytest.raises(ScoreError, match="5 red threes between them"):
        check_hand(CLASSIC, [Itemised(red_threes=3, melded=50), Itemised(red_threes=2, melded=50)], 2)
    with pytest.raises(ScoreError, match="side 2: a hand total is a multiple of 5"):
        check_hand(CLASSIC, [10, 12], 2)
    with pytest.raises(ScoreError, match="one entry for each of the 2 sides"):
        check_hand(CLASSIC, [10], 2)


# -- the game ---------------------------------------------------------------------------------


def test_negative_totals_give_the_minimum_of_15() -> None:
    game = ScoreGame.new(CLASSIC)
    game.add([-200, 1315])
    assert game.totals() == (-200, 1315)
    assert game.minimums() == (15, 50)
    game.add([100, 300])
    assert game.totals() == (-100, 1615)
    assert game.minimums() == (15, 90)
    game.add([100, 1500])
    assert game.minimums() == (50, 120)
    assert [cell.minimum for cell in game.rows()[0]] == [15, 50]


def test_the_minimum_follows_the_preset() -> None:
    game = ScoreGame.new(Rules.from_preset("six-player-two-teams"))
    game.add([7500, 2990])
    assert game.minimums() == (150, 90)


def test_corrections_change_the_running_totals() -> None:
    game = ScoreGame.new(CLASSIC, names=["Us", "Them"])
    game.add([EXAMPLE, -55])
    game.add([500, 600])
    game.correct(1, [EXAMPLE, -155])
    assert game.totals() == (1815, 445)
    assert [[c.running for c in row] for row in game.rows()] == [[1315, -155], [1815, 445]]
    with pytest.raises(ScoreError, match="there is no hand 3"):
        game.correct(3, [0, 0])
    with pytest.raises(ScoreError, match="then Us wins after hand 1, but hand 2 follow"):
        game.correct(1, [5000, 0])
    assert game.totals() == (1815, 445)


def test_three_sides_and_the_winner_at_the_target() -> None:
    game = ScoreGame.new(Rules.from_preset("three-player"))
    assert game.sides == 3 and game.rules.target == 7500
    game.add([3000, 2500, -100])
    game.add([4000, 5100, 200])
    assert game.totals() == (7000, 7600, 100)
    assert game.winner() == 1
    assert game.status() == "Side 2 wins with 7,600 (game to 7,500)"
    with pytest.raises(ScoreError, match="the match is over: Side 2 won"):
        game.add([0, 0, 0])
    game.drop_last()
    assert game.winner() is None


def test_a_tie_at_the_target_plays_another_hand() -> None:
    game = ScoreGame.new(Rules.from_preset("classic", target=5000))
    game.add([5100, 5100])
    assert game.winner() is None
    assert "tied at 5,100: play another hand" in game.status()
    game.add([100, 50])
    assert game.winner() == 0


def test_both_sides_past_the_target_the_higher_wins() -> None:
    game = ScoreGame.new(CLASSIC, sides=3)
    game.add([5200, 5300, 5300])
    assert game.winner() is None
    game.add([0, 5, 0])
    assert game.winner() == 1


def test_any_target() -> None:
    game = ScoreGame.new(Rules.from_preset("classic", target=1000))
    game.add([995, 0])
    assert game.winner() is None
    game.add([5, 0])
    assert game.winner() == 0


def test_sides_and_names() -> None:
    with pytest.raises(ScoreError, match="2 or 3 sides"):
        ScoreGame.new(CLASSIC, sides=4)
    with pytest.raises(ScoreError, match="give 2 names"):
        ScoreGame.new(CLASSIC, sides=2, names=["a", "b", "c"])
    with pytest.raises(ScoreError, match="1 to 40 characters"):
        ScoreGame.new(CLASSIC, names=["", "b"])
    game = ScoreGame.new(CLASSIC)
    with pytest.raises(ScoreError):
        game.rename(0, " ")
    assert game.names == ["Side 1", "Side 2"]


# -- files ----------------------------------------------------------------------------------------


def test_json_round_trip_and_file(tmp_path: Path) -> None:
    game = ScoreGame.new(Rules.from_preset("classic", target=7500), names=["Us", "Them"])
    game.add([EXAMPLE, -55])
    game.add([-200, 400])
    path = tmp_path / "game.json"
    game.save(path)
    again = ScoreGame.load(path)
    assert again.to_json() == game.to_json()
    assert again.totals() == (1115, 345) and again.rules.target == 7500
    assert json.loads(path.read_text())["hands"][0][0]["natural"] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.parametrize("text, message", [
    ("{", "is not valid JSON"),
    ("[]", "not a scorekeeper game"),
    ('{"format": "canasta-score", "version": 9}', "unknown scorekeeper version 9"),
    ('{"format": "canasta-score", "version": 1, "rules": "nope", "names": ["a", "b"]}', "rules: unknown preset"),
    ('{"format": "canasta-score", "version": 1, "names": ["a", "b"], "hands": [[1315, "x"]]}',
     "hand 1: an entry is a number or an object"),
    ('{"format": "canasta-score", "version": 1, "names": ["a", "b"], "hands": [[{"total": 5, "natural": 1}, 0]]}',
     "hand 1: an entry has a total or items, not both"),
    ('{"format": "canasta-score", "version": 1, "names": ["a", "b"], "hands": [[{"colour": 1}, 0]]}',
     "hand 1: unknown item 'colour'"),
    ('{"format": "canasta-score", "version": 1, "names": ["a", "b"], "hands": [[5000, 0], [5, 5]]}',
     "hand 2: the match is over"),
])
def test_bad_files_are_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ScoreError, match=message) as info:
        ScoreGame.load(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)
    with pytest.raises(ScoreError, match="cannot read"):
        ScoreGame.load(tmp_path / "missing.json")


def test_entries_from_json() -> None:
    assert entry_from_json(1315) == 1315
    assert entry_from_json({"total": -200}) == -200
    assert entry_from_json({"natural": 1, "out": "out", "melded": 70}) == Itemised(natural=1, out="out", melded=70)
    with pytest.raises(ScoreError, match="whole number"):
        entry_from_json({"total": 1.5})


def test_sheet_for_the_page() -> None:
    game = ScoreGame.new(CLASSIC)
    game.add([EXAMPLE, -200])
    sheet = game.sheet()
    assert sheet["rows"][0][0] == {"entry": EXAMPLE.to_json(), "bonuses": 1100, "cards": 215, "total": 1315,
                                   "running": 1315, "minimum": 50}
    assert sheet["rows"][0][1]["bonuses"] is None and sheet["rows"][0][1]["minimum"] == 15
    assert sheet["totals"] == [1315, -200] and sheet["minimums"] == [50, 15]
    assert sheet["winner"] is None and sheet["over"] is False
    assert sheet["minimum_table"][0] == ["below 0", 15]
    assert ScoreGame.from_json(json.loads(json.dumps(sheet))).totals() == (1315, -200)


# -- the terminal -----------------------------------------------------------------------------------


def run_prompt(game: ScoreGame, path: Path | None, lines: list[str], width: int = 80) -> list[str]:
    """Feed ``lines`` to the prompt in a terminal of ``width`` columns; returns what it wrote (end of input quits)."""
    feed = iter(lines)
    out: list[str] = []

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    assert keep_score(game, path, read, out.append, width=width) == 0
    return out


def test_terminal_itemised_hand_scores_1315(tmp_path: Path) -> None:
    path = tmp_path / "score.json"
    game = ScoreGame.new(CLASSIC)
    out = run_prompt(game, path, ["a", "i", "1", "1", "2", "out", "250", "35", "-200", "q"])
    assert "  = 1,100 + 215 = 1,315 (1,315 for the hand)" in out
    assert " ".join(out[-1].split()) == ("Hand 1: Side 1 1,315 (total 1,315, next first meld 50); "
                                         "Side 2 -200 (total -200, next first meld 15).")
    assert all(len(line) <= 79 for line in "\n".join(out).splitlines())  # broken between words, not cut
    assert ScoreGame.load(path).totals() == (1315, -200)


def test_terminal_one_line_items_totals_correct_undo(tmp_path: Path) -> None:
    path = tmp_path / "score.json"
    game = ScoreGame.new(CLASSIC, names=["Us", "Them"])
    out = run_prompt(game, path, [
        "a", "natural=1 mixed=1 red=2 out melded=250 hand=35", "-55",
        "a 3000 1,000",
        "c 1", "", "-155",
        "s",
    ])
    assert ScoreGame.load(path).totals() == (4315, 845)
    sheet = out[-1]
    assert re.search(r"1,100 +215 +1,315 +1,315 +50", sheet) and re.search(r"\| +-155 +-155 +15", sheet)
    assert max(len(line) for line in sheet.splitlines()) <= 80
    run_prompt(ScoreGame.load(path), path, ["u"])
    assert ScoreGame.load(path).totals() == (1315, -155)  # after a restart, undo takes back the last hand
    game = ScoreGame.load(path)
    out = run_prompt(game, path, ["c 1", "", "0", "u", "u", "u", "s"])
    assert "Took back the correction of hand 1." in out
    assert "there is no hand to take back" in out
    assert game.hands == []


def test_terminal_refuses_bad_input_and_asks_again(tmp_path: Path) -> None:
    game = ScoreGame.new(CLASSIC)
    out = run_prompt(game, None, [
        "a", "lots", "12", "10", "", "a 1 2 3", "c 4", "x", "a", "i", "one", "1", "0", "0", "perhaps", "no", "0",
        "15", "0", "0", "n 1 Us", "a 4485 0", "n", "a 5 5",
    ])
    assert "  a hand total is a whole number such as 1315 or -200, not 'lots'" in out
    assert "  a hand total is a multiple of 5, not 12" in out
    assert "No hand added." in out
    assert "give 2 totals, one per side, or type a alone to be asked" in out
    assert "there is no hand 4" in out
    assert "unknown command 'x'; type ? for help" in out
    assert "  answer no, out or concealed" in out
    assert "  a side with melds has card points melded: give them" in out
    assert "*** Us wins with 5,000 (game to 5,000) ***" in out
    assert game.totals() == (5000, 0)  # the fields typed right were kept: 500 + 15 melded
    assert out[-1] == "the match is over: Us won; correct a hand or undo to go on"


def test_parse_items() -> None:
    assert parse_items("natural=1 concealed melded=70") == Itemised(natural=1, out="concealed", melded=70)
    with pytest.raises(ScoreError, match="unknown item 'colour'"):
        parse_items("colour=red")


def test_sheet_text_three_sides() -> None:
    game = ScoreGame.new(Rules.from_preset("three-player"), names=["Ann", "Bob", "Cy"])
    game.add([EXAMPLE, -55, 0])
    text = sheet_text(game)
    assert text.splitlines()[1].split() == ["hand", "|", "Ann", "|", "Bob", "|", "Cy"]
    assert "Game to 7,500." in text


def score_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="canasta")
    register(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(["score", *argv])


def test_score_command_starts_and_resumes_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    lines = iter(["a 100 200", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    args = score_args("--file", str(path), "--sides", "3", "--target", "7500", "--names", "A,B,C")
    assert args.func(args) == 0
    game = ScoreGame.load(path)
    assert game.names == ["A", "B", "C"] and game.rules.target == 7500 and game.hands == []
    args = score_args("--file", str(path), "--target", "5000")
    with pytest.raises(ScoreError, match=r"already holds a game .*leave out --target"):
        args.func(args)
    lines = iter(["a 100 200 -300", "q"])
    args = score_args("--file", str(path))
    assert args.func(args) == 0
    assert ScoreGame.load(path).totals() == (100, 200, -300)
    assert "Kept in" in capsys.readouterr().out


@pytest.mark.parametrize(("where", "words"), [
    ("missing/x.json", "does not exist"),
    ("folder", "cannot read"),
    ("bad.json", "not valid JSON"),
    ("other.json", "not a scorekeeper game"),
])
def test_score_command_bad_file_is_one_line_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str], where: str,
                                                   words: str) -> None:
    from canasta.cli import main

    (tmp_path / "folder").mkdir()
    (tmp_path / "bad.json").write_text("{")
    (tmp_path / "other.json").write_text("{}")
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    code = main(["score", "--file", str(tmp_path / where)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("canasta: ") and words in err, err
    assert not (tmp_path / "missing").exists()


def test_save_into_a_missing_folder_is_a_score_error(tmp_path: Path) -> None:
    with pytest.raises(ScoreError, match=r"the folder .* does not exist"):
        ScoreGame.new(CLASSIC).save(tmp_path / "no" / "g.json")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(ScoreError, match=r"cannot write .* is not a folder"):
        ScoreGame.new(CLASSIC).save(blocker / "g.json")


def test_each_item_is_checked_as_it_is_typed_and_the_good_ones_are_kept() -> None:
    """Issue 15 point 4: ``-35`` as the sheet writes it; a wrong item is asked again, alone."""
    game = ScoreGame.new(CLASSIC, names=["Us", "Them"])
    out = run_prompt(game, None, [
        "a", "i",
        "1", "1",      # natural, mixed canastas
        "5", "2",      # red threes: 5 refused at once, 2 kept
        "out",         # going out
        "0", "252", "250",  # melded: nothing refused (canastas), 252 refused (not a multiple of 5)
        "-35",         # cards left in hand, with the sheet's minus
        "-200",
    ])
    assert "  there are only 4 red threes, not 5" in out
    assert "  a side with melds has card points melded: give them" in out
    assert "  card points melded must be a multiple of 5, not 252" in out
    assert "  = 1,100 + 215 = 1,315 (1,315 for the hand)" in out
    assert game.totals() == (1315, -200)


def test_a_hand_wrong_as_a_whole_keeps_the_items_and_names_the_side() -> None:
    game = ScoreGame.new(CLASSIC, names=["Us", "Them"])
    out = run_prompt(game, None, ["a", "natural=1 out melded=200", "natural=1 out melded=200", "a 100 100"])
    assert "only one side can go out in a hand" in out
    out = run_prompt(game, None, ["a 10 12"])
    assert out[-1] == "Them: a hand total is a multiple of 5, not 12"


def test_the_sheet_fits_80_columns_with_three_sides_and_long_names() -> None:
    names = ["Annabelle Fitzgerald", "Bartholomew & Cynthia", "Cy"]
    game = ScoreGame.new(Rules.from_preset("three-player"), names=names)
    game.add([EXAMPLE, -55, 0])
    game.add([3000, 1000, -4985])
    text = sheet_text(game)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    head = [line for line in lines[1:4] if line.startswith(("hand |", "     |")) and "total" not in line]
    columns = [" ".join(part.strip() for part in parts).split() for parts in zip(*(h.split("|")[1:] for h in head))]
    assert [" ".join(c) for c in columns] == names  # every name whole, in its own column
    assert "-4,985" in text and "4,315" in text
    two = ScoreGame.new(CLASSIC, names=["Us", "Them"])
    two.add([EXAMPLE, -55])
    assert max(len(line) for line in sheet_text(two).splitlines()) <= 80 and "bonus" in sheet_text(two)


def test_a_new_game_is_offered_after_a_win(tmp_path: Path) -> None:
    path = tmp_path / "score.json"
    game = ScoreGame.new(CLASSIC, names=["Us", "Them"])
    out = run_prompt(game, path, ["a 5000 0", "y", "a 100 50", "s"])
    assert "*** Us wins with 5,000 (game to 5,000) ***" in out
    assert any(line.startswith("A new game: classic, 2 sides") for line in out)
    assert game.totals() == (100, 50) and game.names == ["Us", "Them"]
    assert ScoreGame.load(path).totals() == (100, 50)
    again = ScoreGame.new(CLASSIC, names=["Us", "Them"])
    run_prompt(again, None, ["a 5000 0", "y", "a 100 50", "u", "u"])
    assert again.totals() == (5000, 0)  # undo brings the finished game back
    kept = ScoreGame.new(CLASSIC)
    out = run_prompt(kept, None, ["a 5000 0", "n"])
    assert kept.totals() == (5000, 0)


@pytest.mark.parametrize("width", [80, 100, 120, 60])
@pytest.mark.parametrize("sides", [2, 3])
def test_every_screen_of_the_scorekeeper_fits_the_terminal_and_uses_a_wide_one(width: int, sides: int) -> None:
    """Issue 15 point 4 for the scorekeeper: everything it writes fits the terminal's columns, the sides' names
    whole over their columns; a wider terminal gets the bonuses and cards of each hand too."""
    names = ["Annabelle Fitzgerald", "Bartholomew & Cynthia", "Cy"][:sides]
    game = ScoreGame.new(Rules.from_preset("three-player" if sides == 3 else "classic"), names=names)
    totals = " ".join(["1315", "-55", "0"][:sides])
    answers = {"natural canastas": "1", "mixed canastas": "1", "red threes": "2", "went out": "out",
               "card points melded": "250", "card points left in hand": "35"}
    commands = iter([f"a {totals}", "a", "i", *["0"] * (sides - 1), "s", "?", "c 9", "u", "s"])
    out: list[str] = []

    def read(prompt: str) -> str:  # each item of the itemised entry by its name, Enter for the others
        item = next((answer for label, answer in answers.items() if prompt.strip().startswith(label)), None)
        if item is not None:
            return item
        try:
            return next(commands)
        except StopIteration:
            raise EOFError from None

    assert keep_score(game, None, read, out.append, width=width) == 0
    lines = "\n".join(out).splitlines()
    assert "unknown command" not in "\n".join(out) and len(game.hands) == 1, "\n".join(out)  # two, one undone
    assert max(len(line) for line in lines) <= width, [line for line in lines if len(line) > width]
    sheet = sheet_text(game, width).splitlines()
    head = [line for line in sheet[1:5] if line.startswith(("hand |", "     |")) and "total" not in line]
    columns = [" ".join(part.strip() for part in parts).split() for parts in zip(*(h.split("|")[1:] for h in head))]
    assert [" ".join(c) for c in columns] == names  # every name whole, in its own column
    full = 5 + sides * 35 <= width  # room for bonus, cards, hand, total and minimum per side
    assert ("bonus" in sheet[len(head) + 1]) == full and "total" in sheet[len(head) + 1]
    if width >= 120:
        assert full


# -- issue 27 point 4: yes or no, and the file in the data folder -------------------------------------


def test_a_yes_or_no_question_asks_again_on_anything_else(tmp_path: Path) -> None:
    game = ScoreGame.new(CLASSIC, names=["Us", "Them"])
    out = run_prompt(game, None, ["a 5000 0", "sure", "y"])
    assert "Answer y (yes) or n (no)." in out  # "sure" is neither: asked again, not taken as no
    assert any(line.startswith("A new game: classic, 2 sides") for line in out) and game.hands == []
    wild = ScoreGame.new(Rules.from_preset("classic", wild_card_melds=True))
    out = run_prompt(wild, None, ["a", "i", "0", "0", "0", "0", "no", "50", "0", "perhaps", "y", "0"])
    assert "  answer y or n" in out  # "perhaps" is neither: asked again, not taken as no
    assert wild.hands[0][0] == Itemised(melded=50, unfinished_wild=True)
    with pytest.raises(ScoreError, match="unfinished_wild is yes or no, not 'maybe'"):
        parse_items("melded=50 unfinished_wild=maybe")
    assert parse_items("melded=50 unfinished_wild=yes").unfinished_wild


def test_the_game_is_kept_in_the_data_folder_unless_file_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CANASTA_DATA_DIR", str(tmp_path / "data" / "canasta"))  # not made yet
    typed = iter(["a 100 200", "q", "a 5 10", "q", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    assert main(["score"]) == 0
    kept = tmp_path / "data" / "canasta" / "canasta-score.json"
    assert ScoreGame.load(kept).totals() == (100, 200) and not (tmp_path / "canasta-score.json").exists()
    assert f"Kept in {kept}." in " ".join(capsys.readouterr().out.split())
    assert main(["score", "--file", "here.json"]) == 0  # --file works as before
    assert ScoreGame.load(tmp_path / "here.json").totals() == (5, 10)
    if sys.platform.startswith("linux"):  # XDG_DATA_HOME, as the XDG base directories say
        monkeypatch.delenv("CANASTA_DATA_DIR")
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
        assert main(["score"]) == 0
        assert ScoreGame.load(tmp_path / "xdg" / "canasta" / "canasta-score.json").hands == []


def test_the_help_says_where_the_game_is_kept(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from canasta.cli import main

    monkeypatch.setenv("CANASTA_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["score", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert (f"(default: {tmp_path / 'canasta-score.json'}, that is canasta-score.json in the per-user data folder: "
            "$XDG_DATA_HOME/canasta or ~/.local/share/canasta on Linux") in text
