"""Duplicate tournaments (issue 31, docs/tournament.md): the format, matchpoints against the field, bots playing it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta import Rules
from canasta.bots.tournament import (
    AVERAGE_PLUS,
    BoardResult,
    Scoreboard,
    Tournament,
    TournamentError,
    matchpoints,
    neuberg,
    play_board,
    run_tournament,
    schedule_of_minimums,
    score_for_minimum,
)
from canasta.bots.tournament import play as play_module
from canasta.state import GameState

F = Fraction


def scoreboard(tables: int, boards: int, preset: str = "classic", **kw: Any) -> Scoreboard:
    rules = Rules.from_preset(preset)
    return Scoreboard(Tournament(rules, [["basic"] * rules.players] * tables, boards, seed=1, **kw))


def by_label(board: Scoreboard, number: int) -> dict[str, Any]:
    return {s.entry.label: s for s in board.board_scores(number)}


def standings(board: Scoreboard) -> dict[str, Any]:
    return {s.entry.label: s for s in board.standings()}


# -- matchpoints by hand -----------------------------------------------------------------------


def test_matchpoints_are_two_per_side_beaten_and_one_per_tie() -> None:
    assert matchpoints([400, 400, -100]) == [3, 3, 0]
    assert matchpoints([10, 20, 30, 40]) == [0, 2, 4, 6]
    assert matchpoints([5, 5, 5, 5]) == [3, 3, 3, 3]


def test_three_tables_with_a_tie_compare_each_direction_by_net_score() -> None:
    board = scoreboard(3, 1)
    for table, totals in enumerate([(500, 100), (600, 200), (0, 100)]):
        board.record(BoardResult(0, table, totals))
    s = by_label(board, 0)
    # 1A and 2A both net +400 (2A scored more, but let its opponents score more too): a tie.
    assert [s[x].net for x in ("1A", "2A", "3A")] == [400, 400, -100]
    assert [s[x].matchpoints for x in ("1A", "2A", "3A")] == [3, 3, 0]
    assert [s[x].matchpoints for x in ("1B", "2B", "3B")] == [1, 1, 4]
    assert s["1A"].difference == F(500, 3) and s["3A"].difference == F(-1000, 3)
    assert all(x.top == 4 for x in s.values())
    rows = standings(board)
    assert [(rows[x].rank, rows[x].tied) for x in ("3B", "1A", "2A", "1B", "2B", "3A")] == \
        [(1, False), (2, True), (2, True), (4, True), (4, True), (6, False)]
    assert rows["3B"].percent == 100 and rows["1A"].percent == 75 and rows["3A"].percent == 0
    assert [r.rank_text for r in board.standings()] == ["1", "=2", "=2", "=4", "=4", "6"]


def test_a_withdrawn_table_leaves_a_board_factored_by_neuberg() -> None:
    board = scoreboard(4, 2, movement="fixed")
    for table, totals in enumerate([(100, 0), (0, 0), (0, 0), (-50, 0)]):
        board.record(BoardResult(0, table, totals))
    board.withdraw(6, 1)  # table 4 leaves after board 1: both its sides
    board.withdraw(7, 1)
    for table, totals in enumerate([(300, 0), (100, 0), (200, 100)]):
        board.record(BoardResult(1, table, totals))
    assert board.field() == 4
    s = by_label(board, 1)
    assert set(s) == {"1A", "1B", "2A", "2B", "3A", "3B"}
    assert [s[x].matchpoints for x in ("1A", "2A", "3A")] == [F(17, 3), F(5, 3), F(5, 3)]  # 4, 1, 1 factored
    assert [s[x].matchpoints for x in ("1B", "2B", "3B")] == [F(1, 3), F(13, 3), F(13, 3)]  # 0, 3, 3 factored
    assert sum(x.matchpoints for x in s.values()) == 2 * 3 * (4 - 1)  # each direction: played * (field - 1)
    rows = standings(board)
    assert rows["1A"].matchpoints == 6 + F(17, 3) and rows["1A"].top == 12
    assert rows["1A"].percent == 100 * F(35, 3) / 12
    assert rows["4A"].withdrawn and rows["4A"].rank is None and rows["4A"].boards == 1
    assert [r.entry.label for r in board.standings()][-2:] == ["4B", "4A"]  # withdrawn entries come last


def test_the_side_left_at_a_table_gets_average_plus() -> None:
    board = scoreboard(3, 2, movement="fixed")
    for table in range(3):
        board.record(BoardResult(0, table, (100 * table, 0)))
    board.withdraw(1, 1)  # 1B leaves after board 1
    board.record(BoardResult(1, 1, (50, 0)))
    board.record(BoardResult(1, 2, (-50, 0)))
    s = by_label(board, 1)
    assert "1B" not in s
    assert s["1A"].adjusted == AVERAGE_PLUS and s["1A"].matchpoints == F(12, 5)  # 60% of a top of 4
    assert s["2A"].matchpoints == F(7, 2) and s["3A"].matchpoints == F(1, 2)  # 2 and 0, factored from 2 to 3
    assert standings(board)["1B"].withdrawn
    assert board.pending(1) == [] and board.pending(0) == []


def test_a_live_scoreboard_knows_what_is_pending_and_takes_corrections() -> None:
    board = scoreboard(3, 2)
    board.record(BoardResult(0, 1, (100, 0)))
    assert board.pending(0) == [0, 2] and board.pending(1) == [0, 1, 2]
    assert standings(board)["2A"].percent is None  # one result: compared with nothing yet
    board.record(BoardResult(0, 0, (0, 0)))
    assert standings(board)["2A"].percent == 100 and standings(board)["1A"].boards == 1
    board.record(BoardResult(0, 0, (200, 0)), replace=True)  # the director corrects table 1's score
    assert standings(board)["2A"].percent == 0
    board.withdraw(4, 1)  # 3A leaves after board 1: nothing is scored on board 2 before it starts
    assert all(r.boards == 1 for r in board.standings() if r.boards) and board.pending(1) == [0, 1]


def test_a_director_gives_artificial_scores_for_a_board_not_played() -> None:
    board = scoreboard(3, 1)
    board.record(BoardResult(0, 0, (10, 0)))
    board.record(BoardResult(0, 1, (0, 10)))
    board.adjust(0, 2, (40, 60))  # side A at fault: average-minus; side B average-plus
    s = by_label(board, 0)
    assert board.field() == 2  # the most results any board has: the top is 2
    assert s["3A"].matchpoints == F(4, 5) and s["3B"].matchpoints == F(6, 5)
    assert s["3A"].net is None and s["3A"].percent == 40
    assert s["1A"].matchpoints == 2 and s["2A"].matchpoints == 0
    with pytest.raises(TournamentError, match="artificial score is 60, 50, 40 percent, not 45"):
        board.adjust(0, 2, (45, 55))


def test_three_sides_are_compared_direction_by_direction() -> None:
    board = scoreboard(3, 1, "three-player")
    for table, totals in enumerate([(300, 100, -100), (200, 200, 200), (100, 300, 50)]):
        board.record(BoardResult(0, table, totals))
    s = by_label(board, 0)
    assert [s[x].net for x in ("1A", "1B", "1C")] == [300, 0, -300]
    assert [s[x].net for x in ("3A", "3B", "3C")] == [-75, 225, -150]  # own minus the mean of the two others
    assert [s[x].matchpoints for x in ("1A", "2A", "3A")] == [4, 2, 0]
    assert [s[x].matchpoints for x in ("1B", "2B", "3B")] == [1, 1, 4]
    assert [s[x].matchpoints for x in ("1C", "2C", "3C")] == [0, 4, 2]
    assert [e.players for e in board.tournament.entries[:3]] == [("Basic 1.1",), ("Basic 1.2",), ("Basic 1.3",)]


def test_neuberg_keeps_the_average_and_changes_nothing_for_a_full_field() -> None:
    assert neuberg(4, 3, 3) == 4
    assert neuberg(2, 3, 5) == 4  # the board's average (played - 1) becomes the field's (field - 1)
    assert neuberg(0, 1, 4) == 3  # a board played once scores an average
    with pytest.raises(ValueError):
        neuberg(0, 5, 4)


@given(st.lists(st.integers(-3, 3), min_size=1, max_size=12), st.integers(0, 8))
def test_matchpoints_of_a_board_add_up_to_two_per_comparison(nets: list[int], extra: int) -> None:
    n, field = len(nets), len(nets) + extra
    points = matchpoints(nets)
    assert sum(points) == n * (n - 1) == 2 * (n * (n - 1) // 2)
    assert all(0 <= p <= 2 * (n - 1) for p in points)
    assert sum(neuberg(p, n, field) for p in points) == n * (field - 1)


# -- recording ---------------------------------------------------------------------------------


def test_results_that_do_not_fit_are_refused_in_one_sentence() -> None:
    board = scoreboard(2, 2)
    board.record(BoardResult(0, 0, (1, 2)))
    for result, message in [(BoardResult(0, 0, (1, 2)), "board 1 at table 1 is already recorded"),
                            (BoardResult(2, 0, (1, 2)), "there is no board 3: the boards are 1 to 2"),
                            (BoardResult(0, 5, (1, 2)), "there is no table 6"),
                            (BoardResult(1, 1, (1, 2, 3)), "2 sides score, not 3")]:
        with pytest.raises(TournamentError, match=message):
            board.record(result)
    with pytest.raises(TournamentError, match="one of the two"):
        BoardResult(0, 0)


def test_a_scoreboard_reads_back_what_it_wrote() -> None:
    board = scoreboard(3, 2, rounds=2)
    board.record(BoardResult(0, 0, (10, 20)))
    board.adjust(0, 1, (50, 50))
    board.withdraw(5, 1)
    again = Scoreboard.from_json(board.to_json())
    assert again.to_json() == board.to_json()
    assert [s.to_json() for s in again.standings()] == [s.to_json() for s in board.standings()]


# -- the format --------------------------------------------------------------------------------


@pytest.mark.parametrize(("tables", "kw", "message"), [
    (1, {}, "2 to 500 tables"),
    (0, {}, "2 to 500 tables"),
    (2, {"boards": 0}, "number 1 to"),
    (2, {"boards": 5, "rounds": 2}, "5 boards do not split into 2 rounds"),
    (2, {"movement": "howell"}, "unknown movement 'howell'"),
    (2, {"schedule": ((0,),)}, "each board of the schedule gives 2 side totals"),
])
def test_a_format_that_cannot_be_is_refused(tables: int, kw: dict[str, Any], message: str) -> None:
    kw = {"boards": 4} | kw
    with pytest.raises(TournamentError, match=message):
        Tournament(Rules(), [["basic"] * 4] * tables, seed=1, **kw)
    with pytest.raises(TournamentError, match="table 2 has 3 seats"):
        Tournament(Rules(), [["basic"] * 4, ["basic"] * 3], 2, seed=1)


def test_the_mitchell_movement_moves_b_up_and_c_down_a_table_each_round() -> None:
    t = Tournament(Rules.from_preset("three-player"), [["basic"] * 3] * 4, boards=6, seed=1, rounds=3)
    assert [t.board(b).round for b in range(6)] == [0, 0, 1, 1, 2, 2]
    assert [e.label for e in t.seating(2, 0)] == ["1A", "4B", "2C"]
    assert [e.label for e in t.seating(5, 0)] == ["1A", "3B", "3C"]
    assert t.table_of(t.entries[2], 1) == 3 and t.table_of(t.entries[1], 2) == 2
    for board in range(6):  # every entry plays every board once, in its own direction
        seen = [e for table in range(4) for e in t.seating(board, table)]
        assert sorted(e.number for e in seen) == list(range(12))
        assert all(e.direction == d for table in range(4) for d, e in enumerate(t.seating(board, table)))
    fixed = Tournament(Rules(), [["basic"] * 4] * 3, boards=4, seed=1, rounds=2, movement="fixed")
    assert [e.label for e in fixed.seating(3, 1)] == ["2A", "2B"]


def test_the_first_meld_minimum_is_fixed_per_board_or_follows_a_score_schedule() -> None:
    rules = Rules()
    assert [score_for_minimum(rules, m) for m in (15, 50, 90, 120)] == [-1, 0, 1500, 3000]
    with pytest.raises(TournamentError, match="a first-meld minimum of 70 is not in the rules"):
        score_for_minimum(rules, 70)
    t = Tournament(rules, [["basic"] * 4] * 2, boards=4, seed=1, schedule=schedule_of_minimums(rules, [50, (90, 120)]))
    assert [t.board(b).minimums for b in range(4)] == [(50, 50), (90, 120), (50, 50), (90, 120)]
    six = Rules.from_preset("six-player-two-teams")
    assert score_for_minimum(six, 150) == 7500


def test_a_board_is_played_from_its_schedule_s_totals(monkeypatch: pytest.MonkeyPatch) -> None:
    dealt: list[tuple[Any, ...]] = []

    class Spy:
        @staticmethod
        def deal(*args: Any, **kw: Any) -> Any:
            dealt.append((args[1], list(args[2]), args[3][:5], kw))
            return GameState.deal(*args, **kw)

    monkeypatch.setattr(play_module, "GameState", Spy)
    t = Tournament(Rules(), [["basic"] * 4] * 2, boards=3, seed=4, schedule=((0, 0), (1500, 3000)))
    play_board(t, 1, 0)
    play_board(t, 1, 1)
    assert dealt[0] == dealt[1] == (1, [1500, 3000], t.deck(1)[:5], {"sitting_out": None})


# -- bots playing it all -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def long_run() -> Scoreboard:
    """200 boards at 4 tables of the basic bot (about 2 s)."""
    t = Tournament(Rules(), [["basic"] * 4] * 4, boards=200, seed=31)
    return run_tournament(t)[0]


def test_every_board_s_matchpoints_add_up_to_two_per_comparison(long_run: Scoreboard) -> None:
    # 4 tables: in each direction 4 results, 6 comparisons (pairs of them), 12 matchpoints; 24 a board.
    assert len(long_run.results) == 800 and long_run.field() == 4
    for board in range(200):
        scores = long_run.board_scores(board)
        assert len(scores) == 8
        for direction in range(2):
            points = [s.matchpoints for s in scores if s.entry.direction == direction]
            assert sum(points) == 2 * 6
            assert all(0 <= p <= 6 for p in points)
            assert sum(s.difference or 0 for s in scores if s.entry.direction == direction) == 0
    rows = long_run.standings()
    assert sum(r.matchpoints for r in rows) == 200 * 24
    assert sum(r.top for r in rows) == 2 * 200 * 24


def test_identical_players_end_near_half(long_run: Scoreboard) -> None:
    # Measured over 20 seeds of 4 tables x 200 boards: a side's percentage has a standard deviation of
    # 2.7 points (41.8% to 58.3% over 160 entries; docs/tournament.md); 12 points either side is 4.4 of them.
    rows = long_run.standings()
    assert sum(r.percent for r in rows if r.percent is not None) / len(rows) == 50
    assert all(38 <= float(r.percent or 0) <= 62 for r in rows), [r.percent_text for r in rows]
    assert len({r.percent for r in rows}) > 1  # the basic bot uses chance: the tables do not copy each other


def test_a_deterministic_bot_ties_every_board_with_itself() -> None:
    board, _ = run_tournament(Tournament(Rules(), [["expert"] * 4] * 3, boards=6, seed=2))
    assert {s.percent for s in board.standings()} == {50}
    assert all(r.rank == 1 and r.tied for r in board.standings())


def test_a_seed_gives_the_same_tournament_on_one_worker_or_two() -> None:
    t = Tournament(Rules.from_preset("three-player"), [["basic", "expert", "random"]] * 2, boards=4, seed=9,
                   rounds=2)
    one, _ = run_tournament(t)
    again, _ = run_tournament(t)
    two, _ = run_tournament(t, workers=2)
    assert one.to_json() == again.to_json() == two.to_json()
    other, _ = run_tournament(Tournament(t.rules, t.tables, 4, seed=10, rounds=2))
    assert other.to_json()["results"] != one.to_json()["results"]


@pytest.mark.parametrize("preset", ["two-player", "five-player", "six-player", "six-player-two-teams"])
def test_every_preset_plays_a_tournament(preset: str) -> None:
    rules = Rules.from_preset(preset)
    board, _ = run_tournament(Tournament(rules, [["basic"] * rules.players] * 2, boards=2, seed=1))
    assert len(board.results) == 4
    assert len(board.standings()) == 2 * rules.sides
    assert sum(s.matchpoints for s in board.board_scores(1)) == rules.sides * 2


def test_a_run_fills_in_only_what_a_scoreboard_lacks() -> None:
    t = Tournament(Rules(), [["basic"] * 4] * 2, boards=3, seed=5)
    full, _ = run_tournament(t)
    part = Scoreboard(t)
    part.record(full.results[(1, 1)])
    again, _ = run_tournament(t, scoreboard=part)
    assert again is part and again.to_json() == full.to_json()


def test_a_tournament_of_bots_needs_a_bot_in_every_seat() -> None:
    for seat in (None, "human:Ann"):
        t = Tournament(Rules(), [["basic"] * 4, ["basic", seat, "basic", "basic"]], boards=1, seed=1)
        with pytest.raises(TournamentError, match="table 2, seat 2 is"):
            run_tournament(t)
