"""What may be known: by everybody at the table, and by one seat.  Bots, front ends and logs see only these.

A :class:`PublicView` is built from public fields only: everything on the table (melds and
what kind of canasta each one is, red threes, the whole pile, which every player saw
discarded, whether the pile is frozen or blocked), the sizes of the hands and of the stock,
the public history of moves, the cards known to be in a hand because that player took them
with the pile and has not played them since, and, once the hand is over, its result,
score-sheet rows and the cards left in each hand (``hands_left``; empty until then).
Spectators, logs and replays get it.

A seat's :class:`View` is the public view plus exactly two fields: the seat and its hand.
(Its ``known`` leaves out the seat's own entry: those cards are in ``hand`` already.)
Never another hand or the stock.  Views are immutable: tuples and read-only mappings.

>>> from canasta.state import GameState
>>> import random
>>> state = GameState.deal("classic", rng=random.Random(1))
>>> public_view(state).to_json()["seat"], public_view(state).to_json()["hand"]
(None, [])
>>> len(make_view(state, 0).hand)
11
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, TypeVar

from .cards import BLACK_THREE, CANASTA_SIZE, MELD_RANK_CHARS, VALUE, card_text, codes_from_counts
from .errors import SeatError
from .judge import is_blocked
from .moves import Drew, Phase
from .rules import Rules
from .scoring import CanastaKind, HandResult, SheetRow, canasta_kind, sheet_rows, side_score

if TYPE_CHECKING:
    from .state import GameState

_NO_MELDS: Mapping[int, Any] = MappingProxyType({})


@dataclass(frozen=True, kw_only=True)
class PublicView:
    """What everybody at the table knows of a hand: no hand's cards but those taken with the pile."""

    rules: Rules
    dealer: int
    turn: int
    to_act: int
    phase: Phase
    scores: tuple[int, ...]
    minimums: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    pile: tuple[int, ...]
    pile_frozen: bool
    pile_frozen_for: tuple[bool, ...]  # per side: frozen against it (always so for a side with no meld)
    pile_blocked: bool  # the top card is a wild card or a three: nobody may take the pile
    melds: tuple[Mapping[int, tuple[int, ...]], ...]  # per side: meld rank -> cards
    canastas: tuple[Mapping[int, CanastaKind], ...]  # per side: meld rank -> "natural", "mixed" or "wild"
    red_threes: tuple[tuple[int, ...], ...]
    melded: tuple[bool, ...]
    known: tuple[tuple[int, ...], ...]
    history: tuple[tuple[int, str], ...]
    drew: Drew | None
    asked: bool
    answer: bool | None
    result: HandResult | None
    sheet: tuple[SheetRow, ...] = ()  # the hand's score sheet, once it is over (scoring.sheet_rows)
    sitting_out: int | None = None
    hands_left: tuple[tuple[int, ...], ...] = ()  # once the hand is over: the cards left in each hand, by seat

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickles by its fields, the read-only mappings as dicts (process pools, Ray)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["melds"] = tuple(dict(side) for side in self.melds)
        data["canastas"] = tuple(dict(side) for side in self.canastas)
        return _unpickle, (type(self), data)

    @property
    def top(self) -> int | None:
        """The pile's top card, if any."""
        return self.pile[-1] if self.pile else None

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data in the project's notation (``seat`` null, ``hand`` empty)."""
        return self._json(None, [])

    def table_points(self) -> tuple[int, ...]:
        """Each side's points on the table now: melded cards, canasta bonuses and red threes.

        What a player can add up by looking at the table (cards in hands are hidden and not
        counted, nor going out); :func:`canasta.scoring.side_score` does the arithmetic.
        """
        points = []
        for side, melds in enumerate(self.melds):
            kinds = list(self.canastas[side].values())
            points.append(side_score(
                self.rules, natural=kinds.count("natural"), mixed=kinds.count("mixed"), wild=kinds.count("wild"),
                red_threes=len(self.red_threes[side]), has_melded=bool(melds),
                melded=sum(VALUE[c] for cards in melds.values() for c in cards)).total)
        return tuple(points)

    def _json(self, seat: int | None, hand: list[str]) -> dict[str, Any]:
        result: dict[str, Any] | None = None
        if self.result is not None:
            result = self.result.to_json()
            result["sheet"] = [row.to_json() for row in self.sheet]
        return {
            "seat": seat,
            "rules": self.rules.to_json(),
            "dealer": self.dealer,
            "turn": self.turn,
            "to_act": self.to_act,
            "phase": self.phase,
            "scores": list(self.scores),
            "minimums": list(self.minimums),
            "hand": hand,
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "pile": [card_text(c) for c in self.pile],
            "pile_frozen": self.pile_frozen,
            "pile_frozen_for": list(self.pile_frozen_for),
            "pile_blocked": self.pile_blocked,
            "melds": [
                {MELD_RANK_CHARS[r]: [card_text(c) for c in cards] for r, cards in side.items()}
                for side in self.melds
            ],
            "canastas": [{MELD_RANK_CHARS[r]: kind for r, kind in side.items()} for side in self.canastas],
            "hands_left": [[card_text(c) for c in cards] for cards in self.hands_left],
            "table_points": list(self.table_points()),
            "red_threes": [[card_text(c) for c in reds] for reds in self.red_threes],
            "melded": list(self.melded),
            "known": [[card_text(c) for c in cards] for cards in self.known],
            "history": [[seat, text] for seat, text in self.history],
            "drew": self.drew,
            "asked": self.asked,
            "answer": self.answer,
            "result": result,
            "sitting_out": self.sitting_out,
        }


@dataclass(frozen=True, kw_only=True)
class View(PublicView):
    """One seat's knowledge of a hand in progress: the public view, the seat and its hand."""

    seat: int
    hand: tuple[int, ...]

    @property
    def side(self) -> int:
        """The seat's side."""
        return self.seat % self.rules.sides

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data in the project's notation."""
        return self._json(self.seat, [card_text(c) for c in self.hand])


_V = TypeVar("_V", bound=PublicView)


def _public(state: GameState, history: bool, own: int | None) -> dict[str, Any]:
    """Every field of the public view of ``state`` (``own``: the seat whose known cards are in its hand)."""
    melds: list[Mapping[int, tuple[int, ...]]] = []
    canastas: list[Mapping[int, CanastaKind]] = []
    for side, side_melds in enumerate(state.melds):
        if not state.meld_count[side]:
            melds.append(_NO_MELDS)
            canastas.append(_NO_MELDS)
            continue
        melds.append(MappingProxyType({r: tuple(m) for r, m in enumerate(side_melds) if m is not None}))
        if not state.canastas[side]:
            canastas.append(_NO_MELDS)
            continue
        mnat, mwild = state.meld_naturals[side], state.meld_wilds[side]
        kinds: dict[int, CanastaKind] = {}
        for r, m in enumerate(side_melds):
            if m is not None and len(m) >= CANASTA_SIZE and r != BLACK_THREE:
                kind = canasta_kind(mnat[r], mwild[r])
                assert kind is not None
                kinds[r] = kind
        canastas.append(MappingProxyType(kinds))
    pile = tuple(state.pile)
    result = state.result
    return {
        "rules": state.rules,
        "dealer": state.dealer,
        "turn": state.turn,
        "to_act": state.to_act,
        "phase": state.phase,
        "scores": tuple(state.scores),
        "minimums": tuple(state.minimum(s) for s in range(state.sides)),
        "hand_sizes": tuple(state.hand_sizes),
        "stock_size": len(state.stock),
        "pile": pile,
        "pile_frozen": state.pile_frozen(),
        "pile_frozen_for": tuple(state.frozen_for(side) for side in range(state.sides)),
        "pile_blocked": bool(pile) and is_blocked(pile[-1]),
        "melds": tuple(melds),
        "canastas": tuple(canastas),
        "red_threes": tuple(tuple(r) for r in state.red_threes),
        "melded": tuple(state.melded),
        "known": tuple(
            () if other == own or not any(counts) else tuple(codes_from_counts(counts))
            for other, counts in enumerate(state.known)
        ),
        "history": state.history_text() if history else (),
        "drew": state.drew,
        "asked": state.asked,
        "answer": state.answer,
        "result": result,
        "sheet": () if result is None else sheet_rows(result, state.rules),
        "sitting_out": state.sitting_out,
        # Shown only once the hand is over, as at a real table; hidden while it is played.
        "hands_left": () if result is None else tuple(tuple(state.hand(s)) for s in range(state.players)),
    }


def _can_make_in_one_step() -> bool:
    """True where a view can be made without its ``__init__`` (interpreted; compiled classes cannot)."""
    try:
        object.__new__(PublicView)
    except TypeError:  # compiled by mypyc: a native class is made by its own constructor
        return False
    return True


_ONE_STEP: Final = _can_make_in_one_step()


def _new(cls: type[_V], fields: dict[str, Any]) -> _V:
    """The view ``cls(**fields)``, made in one step where it can be: ``fields`` holds every field.

    A frozen dataclass's ``__init__`` sets its fields one by one through ``object.__setattr__``;
    for 26 fields that is most of the cost of a view, which every bot move and every
    learning step pays.  The tests check that views made here hold every field.  Compiled
    by mypyc, the class's own constructor is fast and the only way.
    """
    if not _ONE_STEP:
        return cls(**fields)
    view = object.__new__(cls)
    view.__dict__.update(fields)
    return view


def _unpickle(cls: type[_V], data: dict[str, Any]) -> _V:
    """A pickled view made again, its mappings read-only as before."""
    data["melds"] = tuple(MappingProxyType(side) for side in data["melds"])
    data["canastas"] = tuple(MappingProxyType(side) for side in data["canastas"])
    return _new(cls, data)


def public_view(state: GameState, history: bool = True) -> PublicView:
    """What everybody may know of ``state``: spectators, logs, replays (``history=False``: no move history)."""
    return _new(PublicView, _public(state, history, None))


def make_view(state: GameState, seat: int, history: bool = True) -> View:
    """The view of ``state`` from ``seat``: its public view plus the seat and its hand.

    ``history=False`` leaves the move history out (cheaper).
    """
    if not 0 <= seat < state.players:
        raise SeatError(f"seat {seat} is not at this table (0 to {state.players - 1})")
    fields = _public(state, history, seat)
    fields["seat"] = seat
    fields["hand"] = tuple(state.hand(seat))
    return _new(View, fields)
