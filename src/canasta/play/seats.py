"""Who sits where: one seat language for ``canasta play --seats``, the web lobby and save files.

A seat is a person (``human``, or ``human:Ann`` to name them) or a computer player by name
(``random``, ``basic``, ``expert``, ``search``, ``search:100ms``, ``search:200``, and for local
tools ``policy:FILE``) or by level (``beginner``, ``club``, ``expert``, ``master``, in any case:
:mod:`canasta.bots.levels`).  ``you`` (``you:Ann``) is an older word for ``human``, still read from
command lines and save files.  The lobby sends the same as objects:
``{"kind": "human", "name": "Ann"}`` or ``{"kind": "expert"}``.

Default names follow one scheme: a computer player is its kind and seat number from 1
(``Expert 2``, ``Search 3``); a person is ``You`` when alone at one screen, otherwise
``Player 1``, ``Player 3``... (always so at a table shared over the network, ``shared=True``,
where every seat reads the same names).

>>> rules = Rules()
>>> [s.name for s in parse_seats(["you", "basic", "expert", "search:100ms"], rules)]
['You', 'Basic 2', 'Expert 3', 'Search 4']
>>> [s.kind for s in parse_seats(["human", "Beginner", "club", "MASTER"], rules)]
['human', 'beginner', 'club', 'master']
>>> parse_seats(["human:Ann", {"kind": "expert", "name": "Max"}, "human", "random"], rules)[::2]
[Seat(index=0, kind='human', name='Ann'), Seat(index=2, kind='human', name='Player 3')]
>>> parse_seats(["human", "wizard", "basic", "basic"], rules)
Traceback (most recent call last):
...
canasta.errors.SeatError: seat 2: unknown computer player 'wizard' (known: basic, expert, ...)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..bots import find_level, make_bot
from ..errors import CanastaError, SeatError
from ..rules import Rules
from ..text.clean import TextRefused, clean_text

HUMAN = "human"
"""The kind of a seat played by a person."""
HUMAN_WORDS = (HUMAN, "you")
"""Words for a person in a seat list (``you`` from older command lines and save files)."""
MAX_NAME = 24
"""Longest name of a seat."""

SeatSpec = str | Mapping[str, object]


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at the table: its number, ``human`` or a computer player's name, and the name shown."""

    index: int
    kind: str
    name: str

    @property
    def is_human(self) -> bool:
        """True for a seat a person plays."""
        return self.kind == HUMAN

    @property
    def spec(self) -> str:
        """The seat in the seat language (``human:Ann``, ``expert``), as save files keep it."""
        return f"{HUMAN}:{self.name}" if self.is_human else self.kind


def default_seats(rules: Rules) -> list[str]:
    """A person at seat 0 and ``expert`` players elsewhere."""
    return [HUMAN] + ["expert"] * (rules.players - 1)


def default_name(kind: str, index: int, humans: int, shared: bool = False) -> str:
    """The name of an unnamed seat: ``You`` (the one person at a screen), ``Player 3``, ``Expert 2``."""
    if kind == HUMAN:
        return "You" if humans == 1 and not shared else f"Player {index + 1}"
    return f"{kind.partition(':')[0].capitalize()} {index + 1}"


def parse_seats(specs: Sequence[SeatSpec] | None, rules: Rules, *, files: bool = False,
                shared: bool = False) -> list[Seat]:
    """The seats of a table from words or lobby objects (None: :func:`default_seats`).

    ``files`` admits ``policy:FILE`` players (local tools only, never a server); ``shared``
    names unnamed people ``Player N`` even when alone.  Raises :class:`SeatError` in one sentence.
    """
    if specs is None:
        specs = default_seats(rules)
    if isinstance(specs, (str, Mapping)) or not isinstance(specs, Sequence):
        raise SeatError(f"the seats are a list of {rules.players}, like {','.join(default_seats(rules))}")
    if len(specs) != rules.players:
        raise SeatError(f"{rules.preset} seats {rules.players} players, not {len(specs)}: give {rules.players} "
                        f"seats, like {','.join(default_seats(rules))}")
    parsed = [_parse_one(index + 1, spec, files) for index, spec in enumerate(specs)]  # messages count from 1
    humans = sum(1 for kind, _ in parsed if kind == HUMAN)
    return [Seat(index, kind, name or default_name(kind, index, humans, shared))
            for index, (kind, name) in enumerate(parsed)]


def _parse_one(index: int, spec: SeatSpec, files: bool) -> tuple[str, str | None]:
    """A seat's kind and its given name (None: the default); ``index`` counts from 1, as messages do."""
    if isinstance(spec, str):
        word, colon, rest = spec.strip().partition(":")
        if word.strip().lower() in HUMAN_WORDS:
            if colon and not rest.strip():
                raise SeatError(f"seat {index}: give a name after {word.strip()!r}: or leave the colon out")
            return HUMAN, _check_name(index, rest) if colon else None
        kind, name = spec.strip(), None
    elif isinstance(spec, Mapping):
        kind_value, name_value = spec.get("kind"), spec.get("name")
        if not isinstance(kind_value, str):
            raise SeatError(f"seat {index} must be an object with a kind (human or a computer player)")
        kind = HUMAN if kind_value.strip().lower() in HUMAN_WORDS else kind_value.strip()
        if name_value is not None and not isinstance(name_value, str):
            raise SeatError(f"seat {index}: a name is text of at most {MAX_NAME} characters")
        name = _check_name(index, name_value) if name_value else None
        if kind == HUMAN:
            return HUMAN, name
    else:
        raise SeatError(f"seat {index} is a word (human, expert...) or an object with a kind")
    if not kind:
        raise SeatError(f"seat {index} is empty: human or a computer player")
    try:
        make_bot(kind, random.Random(0), files=files)  # an unknown name or a bad budget, in its own sentence
    except CanastaError as exc:
        raise SeatError(f"seat {index}: {exc}") from None
    except ValueError as exc:  # a policy file that does not load (files=True only; anything else is a bug)
        if not files:
            raise
        raise SeatError(f"seat {index}: {exc}") from None
    level = find_level(kind)
    return (level.kind if level is not None else kind), name


def _check_name(index: int, name: str) -> str | None:
    """The name on one line (:func:`canasta.text.clean.clean_text`); None when it is only spaces."""
    try:
        return clean_text(name, f"seat {index}: a name", MAX_NAME, least=0) or None
    except TextRefused as exc:
        raise SeatError(str(exc)) from None
