"""Positions as JSON objects (NOTATION.md, "Positions") and deals from a given deck.

>>> from canasta.state import GameState
>>> s = from_position({"rules": "classic", "dealer": 3, "turn": 0, "scores": [0, 0],
...     "hands": [["KH", "9D"], ["4C"], ["QS"], ["8H"]], "stock": ["5C"], "pile": ["6H"],
...     "melds": [{"K": ["KS", "KD", "KC"]}, {}], "red_threes": [[], []],
...     "melded": [True, False, False, False]})
>>> to_position(s)["hands"][0]
['KH', '9D']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import (
    BLACK_THREE,
    JOKER_KIND,
    KIND,
    MELD_RANK_CHARS,
    NUM_NATURAL,
    RED_THREE,
    TWO,
    WILD_MELD,
    card_text,
    check_multiplicity,
    parse_card,
)
from .errors import CanastaError, PositionError
from .rules import Rules
from .state import GameState, check_sitting_out

POSITION_KEYS = ("rules", "dealer", "turn", "scores", "hands", "stock", "pile", "melds",
                 "red_threes", "melded", "frozen", "sitting_out")


def _seat(value: object, name: str, players: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise PositionError(f"{name} must be a seat from 0 to {players - 1}, not {value!r}")
    return value


def _cards(value: object, where: str) -> list[int]:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list of cards, not {value!r}")
    out = []
    for text in value:
        if not isinstance(text, str):
            raise PositionError(f"{where} holds {text!r}, which is not a card code")
        try:
            out.append(parse_card(text))
        except CanastaError as exc:
            raise PositionError(f"{where}: {exc}") from None
    return out


def _per(value: object, count: int, what: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != count:
        raise PositionError(f"{what} must be a list of {count} entries, not {value!r}")
    return value


def parse_scores(value: object, sides: int) -> list[int]:
    """Match totals, one whole number per side; raises :class:`PositionError`."""
    return _scores(value, sides)


def parse_seat(value: object, name: str, players: int) -> int:
    """A seat number; raises :class:`PositionError`."""
    return _seat(value, name, players)


def _scores(value: object, sides: int) -> list[int]:
    scores = _per(value, sides, "scores (one per side)")
    for s in scores:
        if not isinstance(s, int) or isinstance(s, bool):
            raise PositionError(f"scores must be whole numbers, not {s!r}")
    return list(scores)


def parse_rules(value: object) -> Rules:
    """Rules from a position's ``rules`` field, as a :class:`PositionError` on failure."""
    try:
        return Rules.parse(value if value is not None else "classic")
    except CanastaError as exc:
        raise PositionError(str(exc)) from None


def from_position(obj: object) -> GameState:
    """A state at the start of a turn from a position object; raises :class:`PositionError`."""
    if not isinstance(obj, Mapping):
        raise PositionError("a position must be a JSON object")
    rules = parse_rules(obj.get("rules", "classic"))
    p, sides = rules.players, rules.sides
    for key in ("dealer", "turn", "hands"):
        if key not in obj:
            raise PositionError(f"the position has no {key!r}")
    dealer = _seat(obj["dealer"], "dealer", p)
    turn = _seat(obj["turn"], "turn", p)
    sitting_out = obj.get("sitting_out")
    if rules.sit_out or sitting_out is not None:
        check_sitting_out(rules, sitting_out)
        if turn == sitting_out:
            raise PositionError(f"seat {turn} sits out this hand and cannot have the turn")
    scores = _scores(obj.get("scores", [0] * sides), sides)
    hands = [_cards(hand, f"hand of seat {seat}")
             for seat, hand in enumerate(_per(obj["hands"], p, f"hands (one per seat, {p} seats)"))]
    everything: list[int] = [c for hand in hands for c in hand]
    stock = _cards(obj.get("stock", []), "stock")
    everything += stock
    pile = _cards(obj.get("pile", []), "pile")
    everything += pile
    melds: list[dict[int, list[int]]] = []
    for side, side_melds in enumerate(_per(obj.get("melds", [{}] * sides), sides, "melds (one object per side)")):
        if not isinstance(side_melds, Mapping):
            raise PositionError(f"melds of side {side} must be an object rank -> cards")
        placed: dict[int, list[int]] = {}
        for key, cards_text in side_melds.items():
            rank = _meld_rank(key, side)
            if rank == WILD_MELD and not rules.wild_card_melds:
                raise PositionError(f"melds of side {side}: {key!r} is a meld of wild cards, which needs the "
                                    "rules option wild_card_melds")
            cards = _cards(cards_text, f"meld {key} of side {side}")
            _check_meld(rank, cards, key, side)
            placed.setdefault(rank, []).extend(cards)
            everything += cards
        melds.append(placed)
    red_threes = []
    for side, cards_text in enumerate(_per(obj.get("red_threes", [[]] * sides), sides,
                                           "red_threes (one list per side)")):
        cards = _cards(cards_text, f"red threes of side {side}")
        for code in cards:
            if KIND[code] != RED_THREE:
                raise PositionError(f"red threes of side {side} hold {card_text(code)}, not a red three")
        red_threes.append(cards)
        everything += cards
    melded = obj.get("melded")
    if melded is not None:
        flags = _per(melded, p, "melded (one flag per seat)")
        if not all(isinstance(f, bool) for f in flags):
            raise PositionError("melded must hold true or false for each seat")
    frozen = obj.get("frozen", False)
    if not isinstance(frozen, bool):
        raise PositionError(f"frozen must be true or false, not {frozen!r}")
    for key in obj:
        if key not in POSITION_KEYS:
            raise PositionError(f"unknown position field {key!r}")
    try:
        check_multiplicity(everything, rules.decks)
    except CanastaError as exc:
        raise PositionError(str(exc)) from None
    if sitting_out is not None and hands[sitting_out]:
        raise PositionError(f"seat {sitting_out} sits out this hand and holds no cards")
    return GameState.setup(rules, dealer=dealer, turn=turn, hands=hands, stock=stock, pile=pile, melds=melds,
                           red_threes=red_threes, melded=melded, frozen=frozen, scores=scores,
                           sitting_out=sitting_out)


def _meld_rank(key: object, side: int) -> int:
    text = str(key).upper()
    if text == "10":
        text = "T"
    if len(text) != 1 or text not in MELD_RANK_CHARS:
        raise PositionError(f"melds of side {side}: {key!r} is not a meld rank (A K Q J T 9 8 7 6 5 4 or 3)")
    return MELD_RANK_CHARS.index(text)


def _check_meld(rank: int, cards: list[int], key: str, side: int) -> None:
    where = f"meld {key} of side {side}"
    naturals = [c for c in cards if KIND[c] not in (TWO, JOKER_KIND)]
    wilds = len(cards) - len(naturals)
    if any(KIND[c] != rank for c in naturals):
        raise PositionError(f"{where} holds a card of another rank")
    if rank == WILD_MELD:
        if naturals or len(cards) < 3:
            raise PositionError(f"{where}: a meld of wild cards holds three or more wild cards only")
        return
    if rank == BLACK_THREE:
        if wilds or not 3 <= len(cards) <= 4:
            raise PositionError(f"{where}: black threes meld 3 or 4 of them, without wild cards")
        return
    if rank >= NUM_NATURAL or len(naturals) < 2 or len(cards) < 3 or wilds > 3:
        raise PositionError(f"{where} is not a meld (3+ cards, 2+ natural, at most 3 wild)")


def to_position(state: GameState) -> dict[str, Any]:
    """The position object of a state (any phase; a true position is at a turn's start)."""
    rules_json = state.rules.to_json()
    return {
        "rules": rules_json,
        "dealer": state.dealer,
        "turn": state.turn,
        "scores": state.scores[:],
        "hands": [[card_text(c) for c in state.hand(seat)] for seat in range(state.players)],
        "stock": [card_text(c) for c in reversed(state.stock)],
        "pile": [card_text(c) for c in state.pile],
        "melds": [
            {MELD_RANK_CHARS[r]: [card_text(c) for c in m] for r, m in enumerate(side) if m is not None}
            for side in state.melds
        ],
        "red_threes": [[card_text(c) for c in reds] for reds in state.red_threes],
        "melded": state.melded[:],
        "frozen": state.frozen_extra,
        **({"sitting_out": state.sitting_out} if state.sitting_out is not None else {}),
    }


def deal_from(obj: object) -> GameState:
    """A hand dealt from a scenario's ``deal`` object: rules, dealer, scores, deck (top first)."""
    if not isinstance(obj, Mapping):
        raise PositionError("a deal must be a JSON object")
    rules = parse_rules(obj.get("rules", "classic"))
    for key in obj:
        if key not in ("rules", "dealer", "scores", "deck", "sitting_out"):
            raise PositionError(f"unknown deal field {key!r}")
    dealer = _seat(obj.get("dealer", 0), "dealer", rules.players)
    scores = _scores(obj.get("scores", [0] * rules.sides), rules.sides)
    if "deck" not in obj:
        raise PositionError("the deal has no 'deck'")
    deck = _cards(obj["deck"], "deck")
    if len(deck) != rules.deck_size:
        raise PositionError(f"the deck must hold all {rules.deck_size} cards, not {len(deck)}")
    try:
        check_multiplicity(deck, rules.decks, "the deck")
    except CanastaError as exc:
        raise PositionError(str(exc)) from None
    sitting_out = obj.get("sitting_out")
    if sitting_out is not None and (not isinstance(sitting_out, int) or isinstance(sitting_out, bool)):
        raise PositionError(f"sitting_out must be a seat, not {sitting_out!r}")
    return GameState.deal(rules, dealer, scores, deck, sitting_out=sitting_out)


def deck_from_text(cards: Sequence[str]) -> list[int]:
    """Card codes from a list of texts (a record's deck)."""
    return _cards(list(cards), "deck")
