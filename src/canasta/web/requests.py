"""Reading what a client asks for over HTTP: a new table (``POST /api/tables``), and the refusals in one sentence.

:meth:`TableRequest.parse` checks a body in a fixed order and raises the first problem: a
:class:`RequestError`, or the engine's own error for rules or seats that do not exist
(:class:`~canasta.errors.RulesError`, :class:`~canasta.errors.SeatError`); every one is a
:class:`~canasta.errors.CanastaError`, which is what the server answers ``400 bad_table``
(docs/protocol.md, "Creating a table").  With the server's :class:`~.limits.Limits` it also
refuses rules that deal more than a real table can and search players over the server's budget.

>>> TableRequest.parse({"preset": "two-player", "seats": [{"kind": "human"}, {"kind": "expert"}], "seed": 7}).seed
7
>>> TableRequest.parse({"preset": "classic", "target": 1234})
Traceback (most recent call last):
...
canasta.web.requests.RequestError: target must be 1,000 to 10,000 in steps of 500
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..bots import BOTS, LEVELS, find_level
from ..bots.search import parse_budget
from ..errors import CanastaError
from ..play import HUMAN, Seat, parse_seats
from ..play.seats import HUMAN_WORDS
from ..rules import OPTION_NAMES, PRESETS, Rules
from .limits import HAND_CAPS, MAX_DECKS, Limits


class RequestError(CanastaError):
    """A request the server refuses (a table's body, a sheet's address): one sentence naming the first problem."""


class SeedRefused(RequestError):
    """A seed chosen by the creator of a table with more than one person: it would show them every hand."""


TARGETS = tuple(range(1000, 10001, 500))
"""Match targets offered when creating a table (seed document 003)."""
FIELDS = ("preset", "options", "target", "seats", "seed", "away_minutes", "turn_seconds", "public", "rated")
"""The fields of a ``POST /api/tables`` body."""
AWAY_MINUTES = 5.0
"""Minutes a person's seat may have no connection, while the game waits on it, before an expert stands in
(the default at a table of several people; at a table of one person nobody else waits, so never)."""
MAX_AWAY_MINUTES, MAX_TURN_SECONDS = 24 * 60.0, 3600.0


@dataclass(frozen=True)
class TableRequest:
    """A new table as its creator asked for it, checked: rules, seats, the two clocks and the seed (None: the
    server shuffles)."""

    rules: Rules
    seats: tuple[Seat, ...]
    away_minutes: float
    turn_seconds: float
    seed: int | None = None
    public: bool = False
    """Listed in the room's lobby, its open seats taken in one click (docs/room.md); else links only."""
    rated: bool = False
    """The match moves its people's ratings (its computer players are levels; no seat chosen by a player)."""

    @classmethod
    def parse(cls, body: object, limits: Limits | None = None) -> TableRequest:
        """A ``POST /api/tables`` body read (the module's docstring); ``limits``: the server's caps (None:
        none, for tools and tests)."""
        if not isinstance(body, dict):
            raise RequestError("the request must be a JSON object")
        rules = rules_from_request(body.get("preset", "classic"), body.get("options"), body.get("target"))
        if limits is not None:
            check_web_rules(rules)
            if isinstance(seats := body.get("seats"), list):
                for entry in seats:
                    if isinstance(entry, dict) and isinstance(entry.get("kind"), str):
                        check_search(entry["kind"], limits)
        unknown = set(body) - set(FIELDS)
        if unknown:
            raise RequestError(f"unknown field {sorted(unknown)[0]!r} ({', '.join(FIELDS)})")
        seats = _parse_seats(body.get("seats"), rules)
        people = sum(s.is_human for s in seats)
        away = _number(body, "away_minutes", AWAY_MINUTES if people > 1 else 0.0, MAX_AWAY_MINUTES)
        turn = _number(body, "turn_seconds", 0.0, MAX_TURN_SECONDS)
        seed = body.get("seed")
        if seed is not None:
            if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
                raise RequestError("seed must be a whole number from 0 to 2**63 - 1")
            if people > 1:
                raise SeedRefused("a seed chosen by a player would show them every hand and the stock: at a table "
                                  "with more than one person the server shuffles; leave the seed out")
        public, rated = _flag(body, "public"), _flag(body, "rated")
        if rated:
            if seed is not None:
                raise RequestError("a rated table is shuffled by the server; leave the seed out")
            if any(not s.is_human and find_level(s.kind) is None for s in seats):
                raise RequestError("a rated table's computer players are levels: "
                                   f"{', '.join(level.kind for level in LEVELS)}")
        return cls(rules, tuple(seats), away, turn, seed, public, rated)


def rules_from_request(preset: object, options: object, target: object) -> Rules:
    """The rules of a table being created: :class:`RequestError` (or the rules' own
    :class:`~canasta.errors.RulesError`) with one sentence when they are wrong."""
    if not isinstance(preset, str) or preset not in PRESETS:
        raise RequestError(f"unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise RequestError("options must be an object of option names and values")
    chosen = dict(options)
    unknown = sorted(str(name) for name in chosen if name not in OPTION_NAMES)
    if unknown:
        raise RequestError(f"unknown rules option {unknown[0][:40]!r} (known options: {', '.join(OPTION_NAMES)})")
    if target is not None:
        if not isinstance(target, int) or isinstance(target, bool) or target not in TARGETS:
            raise RequestError("target must be 1,000 to 10,000 in steps of 500")
        chosen["target"] = target
    elif "target" in chosen and chosen["target"] not in TARGETS:
        raise RequestError("target must be 1,000 to 10,000 in steps of 500")
    return Rules.from_preset(preset, **chosen)


def check_web_rules(rules: Rules) -> None:
    """:class:`RequestError` when the rules deal more than a real table can (web tables only:
    :data:`~.limits.MAX_DECKS`, :data:`~.limits.HAND_CAPS`)."""
    decks, hand = MAX_DECKS[rules.preset], HAND_CAPS[rules.preset]
    if rules.decks > decks:
        raise RequestError(f"{rules.preset} is played with at most {decks} decks on this server")
    if rules.hand_size > hand:
        raise RequestError(f"{rules.preset} deals at most {hand} cards a hand on this server")


def check_search(kind: str, limits: Limits) -> None:
    """:class:`RequestError` when a seat's ``search`` budget (a level's too) is over the server's cap (a budget
    that does not parse: the bots' :class:`~canasta.errors.UnknownBotError`)."""
    level = find_level(kind)
    kind = level.bot if level is not None else kind
    if kind.partition(":")[0] != "search":
        return
    budget = parse_budget(kind)
    if budget.seconds is not None and budget.seconds > limits.max_search:
        raise RequestError(f"a search player may think at most {limits.max_search:g}s a move on this server")
    if budget.rollouts is not None and budget.rollouts > limits.max_rollouts:
        raise RequestError(f"a search player may take at most {limits.max_rollouts} rollouts on this server")


def _flag(body: dict[str, Any], field: str) -> bool:
    """A yes-or-no table option (absent: no)."""
    value = body.get(field, False)
    if not isinstance(value, bool):
        raise RequestError(f"{field} must be true or false")
    return value


def _number(body: dict[str, Any], field: str, default: float, most: float) -> float:
    """A table option in minutes or seconds: a number from 0 (never) to ``most``; fractions allowed."""
    value = body.get(field, default)
    if value is None:
        return default
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= most:
        raise RequestError(f"{field} must be a number from 0 (never) to {most:g}")
    return float(value)


def _parse_seats(raw: object, rules: Rules) -> list[Seat]:
    """The seats of a table being created, in the seat language (default: a person at seat 0, ``expert`` elsewhere).

    The lobby's sentences for a wrong list and an unknown kind; the rest is :func:`canasta.play.parse_seats`'s
    (its :class:`~canasta.errors.SeatError`).  No ``policy:FILE`` player: a server never loads a file named in a
    request.
    """
    if raw is not None:
        if not isinstance(raw, list) or len(raw) != rules.players:
            raise RequestError(f"{rules.preset} needs a list of {rules.players} seats")
        for index, entry in enumerate(raw):
            if not isinstance(entry, dict) or not isinstance(entry.get("kind"), str):
                raise RequestError(f"seat {index} must be an object with a kind (human or a computer player)")
            kind = entry["kind"]
            if kind.strip().lower() not in HUMAN_WORDS and kind.partition(":")[0] not in BOTS and not find_level(kind):
                raise RequestError(f"seat {index}: unknown player kind {kind!r} ({HUMAN}, {', '.join(sorted(BOTS))}, "
                                   f"or a level: {', '.join(level.kind for level in LEVELS)})")
    return parse_seats(raw, rules, shared=True)
