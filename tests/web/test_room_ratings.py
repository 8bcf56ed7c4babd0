"""Ratings (issue 30 point 3): the update is openskill's Plackett-Luce, the levels stay pinned, storage keeps it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

pytest.importorskip("openskill", reason="ratings need the web extra: pip install 'canasta[web]'")

from openskill.models import PlackettLuce

from canasta.rules import PRESETS
from canasta.web.room import accounts, ratings
from canasta.web.room.ratings import Participant, level_mu, rate, record_match
from canasta.web.storage import Storage, open_storage

MU, SIGMA, BETA, TAU = 25.0, 25 / 3, 25 / 6, 25 / 300


Side = list[tuple[float, float]]


def by_hand_two_sides(winner: Side, loser: Side) -> list[Side]:
    """Weng-Lin Plackett-Luce (Algorithm 4 of Weng and Lin 2011) for two sides, written out: the team's mu and
    sigma squared are sums, c = sqrt(sum over sides of sigma squared + beta squared), p = softmax of mu / c."""
    sides = [[(mu, math.sqrt(sigma**2 + TAU**2)) for mu, sigma in side] for side in (winner, loser)]
    team_mu = [sum(mu for mu, _ in side) for side in sides]
    team_var = [sum(sigma**2 for _, sigma in side) for side in sides]
    c = math.sqrt(sum(v + BETA**2 for v in team_var))
    p_win = math.exp(team_mu[0] / c) / (math.exp(team_mu[0] / c) + math.exp(team_mu[1] / c))
    out = []
    for index, side in enumerate(sides):
        p = p_win if index == 0 else 1 - p_win
        omega = team_var[index] / c * ((1 - p) if index == 0 else -p)
        # the loser's own term (it alone at the last place) adds nothing: one term p(1 - p) each
        delta = math.sqrt(team_var[index]) / c * team_var[index] / c**2 * p * (1 - p)
        out.append([(mu + sigma**2 / team_var[index] * omega,
                     sigma * math.sqrt(max(1 - sigma**2 / team_var[index] * delta, 0.0001))) for mu, sigma in side])
    return out


def test_one_against_one_matches_openskill_and_the_formula() -> None:
    a, b = Participant("Ann", account_id="a"), Participant("Bob", account_id="b")
    current = {"a": (27.0, 6.0), "b": (24.0, 7.0)}
    changes = rate("two", [[a], [b]], [5200, 3100], current)
    model = PlackettLuce()
    expected = model.rate([[model.rating(27.0, 6.0)], [model.rating(24.0, 7.0)]], ranks=[1, 2])
    hand = by_hand_two_sides([(27.0, 6.0)], [(24.0, 7.0)])
    for change, side, written in zip(changes, expected, hand, strict=True):
        assert change.after == pytest.approx((side[0].mu, side[0].sigma), abs=1e-9)
        assert change.after == pytest.approx(written[0], abs=1e-9)
    assert changes[0].after[0] > 27.0 and changes[1].after[0] < 24.0  # the winner up, the loser down
    assert changes[0].after[1] < 6.0 + 0.01 and changes[1].after[1] < 7.0 + 0.01


def test_two_against_two_with_a_pinned_level() -> None:
    """A person and Expert beat two Club players: the person goes up as openskill says, the levels never move."""
    me = Participant("Ann", account_id="a")
    teams = [[me, Participant("Expert", level="Expert")],
             [Participant("Club", level="Club"), Participant("Club", level="Club")]]
    changes = rate("four", teams, [5100, 2400], {})
    expert, club = level_mu("four", "Expert"), level_mu("four", "Club")
    model = PlackettLuce()
    expected = model.rate([[model.rating(MU, SIGMA), model.rating(expert, 1.0)],
                           [model.rating(club, 1.0), model.rating(club, 1.0)]], ranks=[1, 2])
    assert changes[0].after == pytest.approx((expected[0][0].mu, expected[0][0].sigma), abs=1e-9)
    hand = by_hand_two_sides([(MU, SIGMA), (expert, 1.0)], [(club, 1.0), (club, 1.0)])
    assert changes[0].after == pytest.approx(hand[0][0], abs=1e-9)
    assert changes[0].after[0] > MU and changes[0].after[1] < SIGMA
    assert [c.after for c in changes[1:]] == [c.before for c in changes[1:]]  # pinned
    assert changes[1].before == (expert, ratings.LEVEL_SIGMA)


def test_three_player_free_for_all() -> None:
    players = [Participant(n, account_id=n) for n in ("a", "b", "c")]
    current = {"a": (25.0, 8.0), "b": (30.0, 5.0), "c": (20.0, 6.0)}
    changes = rate("three", [[p] for p in players], [3000, 5100, 4000], current)
    model = PlackettLuce()
    expected = model.rate([[model.rating(*current[n])] for n in ("a", "b", "c")], ranks=[3, 1, 2])
    for change, side in zip(changes, expected, strict=True):
        assert change.after == pytest.approx((side[0].mu, side[0].sigma), abs=1e-9)
    assert [c.rank for c in changes] == [3, 1, 2]
    assert changes[0].after[0] < 25.0 and changes[1].after[0] > 30.0  # last down, first up


def test_who_leaves_loses_whatever_the_score() -> None:
    a, b = Participant("Ann", account_id="a", left=True), Participant("Bob", account_id="b")
    changes = rate("two", [[a], [b]], [4000, 1000], {})
    assert [c.rank for c in changes] == [2, 1]
    assert changes[0].after[0] < MU < changes[1].after[0]


def test_uneven_sides_count_each_member_of_the_larger_at_a_share() -> None:
    """Five players: three against two, two at the table at a time; equal players on each side are an even match."""
    three = [Participant(n, account_id=n) for n in ("a", "b", "c")]
    two = [Participant(n, account_id=n) for n in ("d", "e")]
    changes = rate("five-six", [three, two], [5000, 5000], {})
    assert all(c.after[0] == pytest.approx(MU, abs=1e-6) for c in changes)  # a draw between equal sides


def test_levels_are_ordered_in_every_family() -> None:
    for family in ratings.FAMILIES:
        mus = [level_mu(family, name) for name in ("Beginner", "Club", "Expert", "Master")]
        assert mus == sorted(mus) and mus[2] == ratings.EXPERT_MU
    assert ratings.family_of(PRESETS["classic"]) == "four"
    assert ratings.family_of(PRESETS["six-player-two-teams"]) == "five-six"
    assert ratings.standing("four", 28.0) == "between Club and Expert"
    assert ratings.standing("four", 99.0) == "above Master"


def _open(url: str) -> Storage:
    return open_storage(url)


def test_record_match_updates_in_one_transaction_and_the_leaderboard(storage_url: str) -> None:
    store = _open(storage_url)
    try:
        ann = accounts.create_account(store, "Ann", "x")
        bob = accounts.create_account(store, "Bob", "x")
        for _ in range(6):  # Ann partners Expert and wins six times against Bob and Club
            record_match(store, "four", "classic",
                         [[Participant("Ann", ann.id), Participant("Expert", level="Expert")],
                          [Participant("Bob", bob.id), Participant("Club", level="Club")]], [5000, 3000])
        mine = ratings.ratings_of(store, ann.id)["four"]
        assert mine.matches == 6 and mine.mu > MU and mine.sigma < SIGMA
        assert ratings.ratings_of(store, bob.id)["four"].mu < MU
        board = ratings.leaderboard(store, "four")
        names = [r.name for r in board]
        assert {"Beginner", "Club", "Expert", "Master"} <= set(names)
        assert ("Ann" in names) == (not mine.provisional)
        assert names.index("Master") < names.index("Expert") < names.index("Club") < names.index("Beginner")
        with pytest.raises(ValueError, match="one seat"):
            record_match(store, "two", "two-player", [[Participant("Ann", ann.id)], [Participant("Ann", ann.id)]],
                         [1, 0])
        assert ratings.ratings_of(store, ann.id)["four"].matches == 6
        # a deleted account's matches stay, its name replaced
        assert accounts.delete_account(store, bob.id)
        with store.transaction(write=False) as execute:
            names_left = {row[0] for row in execute("SELECT name FROM match_players", ()).fetchall()}
        assert "Bob" not in names_left and accounts.DELETED_NAME in names_left
    finally:
        store.close()


def test_a_failed_update_writes_nothing(tmp_path: Path) -> None:
    store = _open(str(tmp_path / "db.sqlite3"))
    try:
        ann = accounts.create_account(store, "Ann", "x")
        with pytest.raises(ValueError):
            record_match(store, "four", "classic", [[Participant("Ann", ann.id)], [Participant("X", level="Nobody")]],
                         [1, 0])
        with store.transaction(write=False) as execute:
            assert execute("SELECT count(*) FROM matches", ()).fetchone()[0] == 0
    finally:
        store.close()
