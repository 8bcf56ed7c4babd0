"""The scenario runner (NOTATION.md, "Scenarios" and "The runner").

A scenario is a start (a ``position`` or a ``deal``), a list of move lines and what is
expected.  :func:`run_scenario` plays the moves in order, stops at the first illegal one
without applying any of it, and returns the runner's JSON object.

>>> import json
>>> out = run_scenario({"deal": {"rules": "classic", "dealer": 0,
...     "deck": [c for c in __import__("canasta").cards.cards_text(__import__("canasta").cards.full_deck())]},
...     "moves": ["draw", "fly"]})
>>> out["applied"], out["illegal"]["index"], out["phase"]
(1, 1, Phase.PLAY)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import CanastaError, PositionError
from ..moves import Move
from ..position import deal_from, from_position, to_position
from ..state import GameState


def start_of(scenario: object) -> GameState:
    """The state a scenario starts from; raises :class:`PositionError` naming what is wrong."""
    if not isinstance(scenario, Mapping):
        raise PositionError("a scenario must be a JSON object")
    if "position" in scenario and "deal" in scenario:
        raise PositionError("a scenario starts from a position or a deal, not both")
    if "position" in scenario:
        return from_position(scenario["position"])
    if "deal" in scenario:
        return deal_from(scenario["deal"])
    raise PositionError("a scenario needs a 'position' or a 'deal' to start from")


def moves_of(scenario: Mapping[str, Any]) -> list[str]:
    """The scenario's move lines."""
    moves = scenario.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise PositionError("'moves' must be a list of move lines")
    return moves


def run_scenario(scenario: object) -> dict[str, Any]:
    """Play a scenario and return the runner's output object."""
    state = start_of(scenario)
    assert isinstance(scenario, Mapping)
    moves = moves_of(scenario)
    illegal = None
    applied = 0
    for index, text in enumerate(moves):
        try:
            move = Move.parse(text)
            state.check(move)
        except CanastaError as exc:
            illegal = {"index": index, "move": text, "reason": str(exc)}
            break
        state.push(move)
        applied += 1
    return report(state, applied, illegal)


def report(state: GameState, applied: int, illegal: dict[str, Any] | None) -> dict[str, Any]:
    """The runner's output for a state after ``applied`` moves."""
    result = state.result
    return {
        "applied": applied,
        "illegal": illegal,
        "turn": state.turn,
        "to_act": state.to_act,
        "phase": state.phase,
        "position": to_position(state),
        "hand_over": state.is_over,
        "result": None if result is None else result.to_json(),
        "match": {"scores": state.match_scores(), "winner": state.winner()},
    }


def compare(expect: Mapping[str, Any], out: Mapping[str, Any]) -> list[str]:
    """Differences between a scenario's ``expect`` and the runner's output (for tests)."""
    problems: list[str] = []
    pos = out["position"]
    result = out["result"]

    def check(key: str, got: object) -> None:
        want = expect[key]
        if got != want:
            problems.append(f"{key}: expected {want!r}, got {got!r}")

    for key in expect:
        if key == "illegal":
            got = None if out["illegal"] is None else out["illegal"]["index"]
            check(key, got)
        elif key in ("turn", "phase", "hand_over"):
            check(key, out[key])
        elif key in ("pile", "red_threes"):
            check(key, pos[key])
        elif key == "hand_sizes":
            check(key, [len(h) for h in pos["hands"]])
        elif key == "stock_len":
            check(key, len(pos["stock"]))
        elif key == "melds":
            got_melds = [{r: sorted(c) for r, c in side.items()} for side in pos["melds"]]
            want = [{r: sorted(c) for r, c in side.items()} for side in expect["melds"]]
            if got_melds != want:
                problems.append(f"melds: expected {want!r}, got {got_melds!r}")
        elif key == "hands":
            got_hands = [sorted(h) for h in pos["hands"]]
            if got_hands != [sorted(h) for h in expect["hands"]]:
                problems.append(f"hands: expected {expect['hands']!r}, got {pos['hands']!r}")
        elif key in ("went_out", "concealed"):
            check(key, None if result is None else result[key])
        elif key in ("bonuses", "cards", "totals"):
            field = "total" if key == "totals" else key
            check(key, None if result is None else [s[field] for s in result["sides"]])
        elif key == "match_scores":
            check(key, out["match"]["scores"])
        elif key == "winner":
            check(key, out["match"]["winner"])
    return problems
