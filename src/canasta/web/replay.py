"""A finished hand of a web table, replayed for one seat or a spectator, and a table's game record to download.

The replay is what the page's review draws with the table's own renderer (``static/game/review.js``): one
view per point of the hand (before each move, and after the last), the hand's log with each move's public
facts, and the hand's result.  Hidden information stays hidden: a seat's views are
:func:`~canasta.views.make_view` of that seat, so before the hand's end they hold its own cards only; the
last point (the hand over) shows every hand face up, as the hand-end dialog does; a spectator replays a
finished hand with every hand face up at every point.  A hand still being played is never replayed
(:class:`ReplayRefused`).

>>> from canasta.match import Match
>>> match = Match(seed=4)
>>> is_finished(match, 0)
False
"""

from __future__ import annotations

from typing import Any

from ..bots.hints import move_words
from ..cards import card_text, parse_card
from ..match import Match
from ..moves import DRAW, PILE
from ..state import GameState
from ..views import make_view, public_view
from .protocol import result_json


class ReplayRefused(ValueError):
    """A replay, review or record that may not be given: ``status`` is the HTTP status, the text one sentence."""

    def __init__(self, status: int, name: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.name = name


def is_finished(match: Match, hand: int) -> bool:
    """True when hand ``hand`` (from 0) of the match is over: an earlier hand, or the last one ended."""
    if not 0 <= hand < len(match.hands):
        return False
    return hand < len(match.hands) - 1 or match.state.is_over


def check_hand(match: Match, number: int) -> int:
    """Hand ``number`` (from 1, as the page counts) as an index from 0, when it is in the match and over."""
    if not 1 <= number <= len(match.hands):
        raise ReplayRefused(404, "no_hand", f"hand {number} is not in this match (hands 1 to {len(match.hands)})")
    if not is_finished(match, number - 1):
        raise ReplayRefused(409, "hand_in_play", f"hand {number} is still being played: it can be replayed "
                            "and reviewed once it is over")
    return number - 1


def _replay_to(match: Match, hand: int) -> Match:
    """A new match replayed to the deal of hand ``hand`` (from 0), as :func:`canasta.bots.review.decision_tasks`."""
    replay = Match(match.rules, match.players, seed=match.seed, dealer=match.hands[0]["dealer"],
                   scores=match.start_scores, deal=False, seeding=match.seeding)
    for number, played in enumerate(match.hands[:hand + 1]):
        replay.new_hand([parse_card(c) for c in played["deck"]])
        if number < hand:
            for text in played["moves"]:
                replay.play(text)
    return replay


def _view(state: GameState, seat: int | None) -> dict[str, Any]:
    view = public_view(state, history=False) if seat is None else make_view(state, seat, history=False)
    data = view.to_json()
    del data["history"]
    if seat is not None:
        data["seat"], data["hand"] = seat, [card_text(c) for c in state.hand(seat)]
    return data


def _hands(state: GameState) -> list[list[str]]:
    return [[card_text(c) for c in state.hand(s)] for s in range(state.players)]


def replay_hand(match: Match, hand: int, seat: int | None) -> dict[str, Any]:
    """Hand ``hand`` (from 0, finished) as ``seat`` saw it (None: a spectator, every hand face up).

    ``frames[i]`` is the point before move ``i`` (``frames[-1]`` the hand over): its ``view``, and ``hands``
    (every seat's cards) where they may be shown.  ``log`` holds every move with its public facts, ``drawn``
    the cards each draw or pile taken put in the seat's own hand (a spectator's: everybody's)."""
    if not is_finished(match, hand):
        raise ReplayRefused(409, "hand_in_play", f"hand {hand + 1} is still being played")
    replay = _replay_to(match, hand)
    rules = replay.rules
    scores = list(replay.scores)
    frames: list[dict[str, Any]] = []
    log: list[dict[str, Any]] = []
    drawn: dict[str, list[str]] = {}
    for index, text in enumerate(match.hands[hand]["moves"]):
        state = replay.state
        frame: dict[str, Any] = {"view": _view(state, seat)}
        if seat is None:
            frame["hands"] = _hands(state)
        frames.append(frame)
        outcome = replay.apply(text)
        facts = {k: v for k, v in outcome.public().to_json().items() if k not in ("seat", "move")}
        log.append({"seat": outcome.seat, "move": str(outcome.move), "words": move_words(outcome.move), **facts})
        if outcome.move.action in (DRAW, PILE) and (seat is None or outcome.seat == seat):
            drawn[str(index)] = [card_text(c) for c in outcome.drew]
    state = replay.state
    frames.append({"view": _view(state, seat), "hands": _hands(state)})
    return {
        "hand": hand + 1,
        "seat": seat,
        "scores": scores,
        "minimums": [rules.minimum(score) for score in scores],
        "dealt": replay.dealt.to_json(),
        "log": log,
        "drawn": drawn,
        "frames": frames,
        "results": [result_json(result, rules) for result in replay.results],
    }


def seat_record(match: Match, seat: int | None, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The game record to download from a table: ``Match.to_record`` written for one seat (no seed while
    the match goes on), holding the hands that are over with their decks, so ``canasta review`` can replay
    them; the hand still being played is left out.  ``seats``: the table's seats (kind and name)."""
    finished = sum(1 for number in range(len(match.hands)) if is_finished(match, number))
    if not finished:
        raise ReplayRefused(409, "hand_in_play", "no hand of this match is over yet: the record holds the "
                            "hands that are over")
    record = match.to_record(for_seat=0 if seat is None else seat)
    full = match.to_record()
    hands = record["hands"][:finished]
    for number, entry in enumerate(hands):
        entry["deck"] = full["hands"][number]["deck"]  # a hand that is over hides nothing any more
    record["hands"] = hands
    if finished < len(match.hands):  # the scores after the hands that are over
        record["final_scores"] = list(match.scores)
        record["winner"] = None
    if seats is not None:
        record["seats"] = seats
    return record


__all__ = ["ReplayRefused", "check_hand", "is_finished", "replay_hand", "seat_record"]
