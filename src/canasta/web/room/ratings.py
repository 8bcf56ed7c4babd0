"""Ratings per player and game family by openskill's Weng-Lin Plackett-Luce model, with the computer levels pinned.

A rated match moves the ratings of the people in it (``mu``, the skill, and ``sigma``, how unsure
the server is of it); the computer levels of :data:`canasta.bots.levels.LEVELS` sit in the same pool at
fixed ratings derived from the measured ladder (``docs/strength.md``), so that a player's rating reads
"between Club and Expert".  Why Plackett-Luce, how a level's rating follows from its ladder Elo, and
what a provisional rating is: ``docs/room.md``.

>>> [round(level_mu("four", name), 1) for name in ("Beginner", "Club", "Expert", "Master")]
[23.6, 27.4, 30.0, 33.5]
>>> standing("four", 28.0)
'between Club and Expert'
"""

from __future__ import annotations

import itertools
import math
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from ...bots.levels import LEVELS
from ...rules import Rules
from ..storage import PostgresStorage, Storage

MODEL = PlackettLuce()
"""openskill's defaults: a newcomer at mu 25, sigma 25/3; beta 25/6 (the spread of one match's play), tau 25/300."""

FAMILIES: dict[str, str] = {
    "four": "four-player partnership", "two": "two-player", "three": "three-player",
    "five-six": "five- and six-player"}
"""The rating pools, by key (the URL's ``/api/leaderboard/{family}``), with their names in words."""

PRESETS_OF: dict[str, tuple[str, ...]] = {
    "four": ("classic",), "two": ("two-player", "two-player-draw-one"), "three": ("three-player",),
    "five-six": ("five-player", "six-player", "six-player-two-teams")}
"""Which presets' ladder tables each family's level ratings come from (``docs/strength.md``)."""

LADDER_ELO: dict[str, dict[str, float]] = {
    "four": {"Beginner": -147, "Club": -59, "Expert": 0, "Master": 80},
    "two": {"Beginner": -545, "Club": -117, "Expert": 0, "Master": 80},
    "three": {"Beginner": -475, "Club": -330, "Expert": 0, "Master": 84},
    "five-six": {"Beginner": -146.3, "Club": -73.3, "Expert": 0, "Master": 115.3},
}
"""Each level's Elo over Expert in deals won (``docs/strength.md``, seed 16; ``basic`` is Beginner,
``club`` Club, ``master`` Master): classic for four players, two-player, three-player, and the mean
of five-player, six-player and six-player-two-teams for five and six."""

DEALS_PER_MATCH: dict[str, float] = {"four": 6.55, "two": 3.98, "three": 5.28, "five-six": 7.13}
"""Hands a match to the target lasts between Expert players (60 matches per preset, seeds 0-59; the mean
of the three presets for five and six): a match is that many deals, so it separates two levels more
than one deal does."""

SIDES: dict[str, tuple[int, int]] = {"four": (2, 2), "two": (2, 1), "three": (3, 1), "five-six": (2, 2)}
"""Sides at the table and players per side as the model sees them: five and six players count as two sides of two
(five-player is two sides with two at the table at a time; six-player three sides of two, six-player-two-teams two
of three: between the two)."""

EXPERT_MU = 30.0
"""Where Expert is pinned in every family: a newcomer (mu 25) starts between Beginner and Club in the classic
game, as a person new to Canasta does."""
LEVEL_SIGMA = 1.0
"""The uncertainty the model is told for a pinned level (its rating never moves)."""
PROVISIONAL_SIGMA = 5.0
PROVISIONAL_MATCHES = 5
"""A rating is provisional while its sigma is over 5 (a newcomer's is 8.3) or it has fewer than 5 rated matches."""


def family_of(rules: Rules) -> str:
    """The family of a game: by its number of players."""
    return {4: "four", 2: "two", 3: "three", 5: "five-six", 6: "five-six"}[rules.players]


def level_mu(family: str, level: str) -> float:
    """A computer level's fixed mu: Expert at :data:`EXPERT_MU`, the others by their ladder Elo.

    An Elo difference ``e`` over one deal is a logit of ``e ln10 / 400``; over a match of ``n`` deals it is
    about ``sqrt(n)`` times that (a sum of ``n`` deals' margins); the model's logit between two of ``T`` sides
    of ``p`` players each is ``p Δmu / c`` with ``c = beta sqrt T`` once sigmas are small, so
    ``Δmu = logit beta sqrt T / p``."""
    sides, per_side = SIDES[family]
    logit = LADDER_ELO[family][level] * math.log(10) / 400 * math.sqrt(DEALS_PER_MATCH[family])
    return EXPERT_MU + logit * MODEL.beta * math.sqrt(sides) / per_side


def standing(family: str, mu: float) -> str:
    """Where a rating sits among the levels, in words: ``between Club and Expert``."""
    ladder = sorted((level_mu(family, level.name), level.name) for level in LEVELS)
    if mu < ladder[0][0]:
        return f"below {ladder[0][1]}"
    for (low, low_name), (high, high_name) in itertools.pairwise(ladder):
        if low <= mu < high:
            return f"between {low_name} and {high_name}"
    return f"above {ladder[-1][1]}"


@dataclass(frozen=True)
class Participant:
    """Someone in a rated match: a person's account, a computer level (pinned), or a guest (rated as a newcomer,
    nothing kept); ``left``: left before the end, so that side lost."""

    name: str
    account_id: str | None = None
    level: str | None = None
    left: bool = False


@dataclass(frozen=True)
class Change:
    """A participant's rating before and after a match (equal for a level or a guest)."""

    participant: Participant
    team: int
    rank: int
    before: tuple[float, float]
    after: tuple[float, float]


def ranks(scores: Sequence[int], left: Sequence[bool]) -> list[int]:
    """Each side's place, 1 first, by final score (tied sides share a place, the next skips it); a side with
    someone who left comes after every other.

    >>> ranks([5200, 3100, 5200], [False, False, False]), ranks([5200, 3100], [True, False])
    ([1, 3, 1], [2, 1])
    """
    keys = [(1 if gone else 0, -score) for score, gone in zip(scores, left, strict=True)]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def rate(family: str, teams: Sequence[Sequence[Participant]], scores: Sequence[int],
         current: dict[str, tuple[float, float]]) -> list[Change]:
    """The ratings after one match (pure: ``current`` holds the accounts' ``(mu, sigma)``, a missing one is a
    newcomer's).  Sides of unequal size (five players: three against two, two at the table at a time) count
    each member of a larger side at ``smallest / size``: a rating scaled by ``k`` is a Gaussian scaled by
    ``k``, so the update scales back exactly."""
    check_match(family, teams, scores)
    places = ranks(scores, [any(p.left for p in team) for team in teams])
    smallest = min(len(team) for team in teams)
    before: list[list[tuple[float, float]]] = []
    model_teams: list[list[PlackettLuceRating]] = []
    for team in teams:
        scale = smallest / len(team)
        ratings = [_rating_of(family, p, current) for p in team]
        before.append(ratings)
        model_teams.append([MODEL.rating(mu=mu * scale, sigma=sigma * scale) for mu, sigma in ratings])
    rated = MODEL.rate(model_teams, ranks=[float(r) for r in places])
    changes: list[Change] = []
    for index, team in enumerate(teams):
        scale = smallest / len(team)
        for member, old, new in zip(team, before[index], rated[index], strict=True):
            moves = member.account_id is not None
            after = (new.mu / scale, new.sigma / scale) if moves else old
            changes.append(Change(member, index, places[index], old, after))
    return changes


def check_match(family: str, teams: Sequence[Sequence[Participant]], scores: Sequence[int]) -> None:
    """Refuse (``ValueError``) a match that cannot be rated: fewer than two sides, an empty side, a score missing,
    an account at two seats, an unknown family or level."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r} (families: {', '.join(FAMILIES)})")
    if len(teams) < 2 or len(scores) != len(teams) or any(not team for team in teams):
        raise ValueError("a rated match needs two or more sides, each with players, and a score per side")
    accounts = [p.account_id for team in teams for p in team if p.account_id is not None]
    if len(set(accounts)) != len(accounts):
        raise ValueError("an account plays at most one seat of a rated match")
    for team in teams:
        for p in team:
            if p.level is not None and p.level not in LADDER_ELO[family]:
                raise ValueError(f"unknown level {p.level!r} (levels: {', '.join(LADDER_ELO[family])})")


def _rating_of(family: str, participant: Participant, current: dict[str, tuple[float, float]]) -> tuple[float, float]:
    if participant.level is not None:
        return level_mu(family, participant.level), LEVEL_SIGMA
    if participant.account_id is not None and participant.account_id in current:
        return current[participant.account_id]
    return MODEL.mu, MODEL.sigma


def record_match(storage: Storage, family: str, preset: str, teams: Sequence[Sequence[Participant]],
                 scores: Sequence[int], table_id: str | None = None, now: float | None = None,
                 also: Callable[[Callable[[str, Sequence[Any]], Any], str], None] | None = None) -> list[Change]:
    """Record a finished rated match and update its people's ratings, in one transaction; the changes.

    ``also(execute, match_id)`` writes more of the match in the same transaction (:mod:`.history`: the seats,
    browsers and game record)."""
    now = time.time() if now is None else now
    check_match(family, teams, scores)  # before the transaction: an error raised in it comes out a StorageError
    accounts = [p.account_id for team in teams for p in team if p.account_id is not None]
    match_id = secrets.token_hex(8)
    with storage.transaction() as execute:
        if isinstance(storage, PostgresStorage):  # two matches of one player at once: one after the other
            execute("SELECT pg_advisory_xact_lock(7420422)", ())
        current: dict[str, tuple[float, float]] = {}
        counts: dict[str, int] = {}
        for account_id in accounts:
            row = execute("SELECT mu, sigma, matches FROM ratings WHERE account_id = ? AND family = ?",
                          (account_id, family)).fetchone()
            if row is not None:
                current[account_id] = (float(row[0]), float(row[1]))
                counts[account_id] = int(row[2])
        changes = rate(family, teams, scores, current)
        execute("INSERT INTO matches (id, family, preset, table_id, rated, finished) VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, family, preset, table_id, 1, now))
        for place, change in enumerate(changes):
            p = change.participant
            execute("INSERT INTO match_players (match_id, place, team, account_id, level, name, score, rank, "
                    "left_early, mu_before, sigma_before, mu_after, sigma_after) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (match_id, place, change.team, p.account_id, p.level, p.name, int(scores[change.team]),
                     change.rank, int(p.left), *change.before, *change.after))
            if p.account_id is not None:
                execute("INSERT INTO ratings (account_id, family, mu, sigma, matches, updated) "
                        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, family) DO UPDATE SET "
                        "mu = excluded.mu, sigma = excluded.sigma, matches = excluded.matches, "
                        "updated = excluded.updated",
                        (p.account_id, family, *change.after, counts.get(p.account_id, 0) + 1, now))
        if also is not None:
            also(execute, match_id)
    return changes


@dataclass(frozen=True)
class Rated:
    """One line of a leaderboard: a person or a level."""

    name: str
    mu: float
    sigma: float
    matches: int
    computer: bool

    @property
    def provisional(self) -> bool:
        """Whether the server is still unsure of the rating (:data:`PROVISIONAL_SIGMA`, :data:`PROVISIONAL_MATCHES`)."""
        return not self.computer and (self.sigma > PROVISIONAL_SIGMA or self.matches < PROVISIONAL_MATCHES)


def leaderboard(storage: Storage, family: str, limit: int = 100) -> list[Rated]:
    """The family's established players and its levels, best first by mu; provisional players are left out."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r} (families: {', '.join(FAMILIES)})")
    with storage.transaction(write=False) as execute:
        rows = execute("SELECT a.name, r.mu, r.sigma, r.matches FROM ratings r JOIN accounts a ON a.id = r.account_id "
                       "WHERE r.family = ? AND r.sigma <= ? AND r.matches >= ? ORDER BY r.mu DESC, a.name_key LIMIT ?",
                       (family, PROVISIONAL_SIGMA, PROVISIONAL_MATCHES, limit)).fetchall()
    people = [Rated(r[0], float(r[1]), float(r[2]), int(r[3]), False) for r in rows]
    levels = [Rated(level.name, level_mu(family, level.name), LEVEL_SIGMA, 0, True) for level in LEVELS]
    return sorted(people + levels, key=lambda rated: -rated.mu)


def provisional_players(storage: Storage, family: str, limit: int = 50) -> list[Rated]:
    """The family's players whose ratings are still provisional (the leaderboard lists them apart, unranked),
    best first by mu, the most recently rated first among equals."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r} (families: {', '.join(FAMILIES)})")
    with storage.transaction(write=False) as execute:
        rows = execute("SELECT a.name, r.mu, r.sigma, r.matches FROM ratings r JOIN accounts a ON a.id = r.account_id "
                       "WHERE r.family = ? AND (r.sigma > ? OR r.matches < ?) ORDER BY r.mu DESC, r.updated DESC "
                       "LIMIT ?", (family, PROVISIONAL_SIGMA, PROVISIONAL_MATCHES, limit)).fetchall()
    return [Rated(r[0], float(r[1]), float(r[2]), int(r[3]), False) for r in rows]


def ratings_of(storage: Storage, account_id: str) -> dict[str, Rated]:
    """The account's rating in each family it has played rated matches in."""
    with storage.transaction(write=False) as execute:
        rows = execute("SELECT r.family, a.name, r.mu, r.sigma, r.matches FROM ratings r "
                       "JOIN accounts a ON a.id = r.account_id WHERE r.account_id = ?", (account_id,)).fetchall()
    return {r[0]: Rated(r[1], float(r[2]), float(r[3]), int(r[4]), False) for r in rows}
