"""Reviewing played decisions (bots/review.py, issue 29): planted blunders are caught, the move found best scores 0,
each decision is judged from the seat's view alone, and the same record, seed and budget give the same review."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence

import pytest

from canasta.bots import make_bot
from canasta.bots.review import (
    LABELS,
    THRESHOLDS,
    Decision,
    ReviewError,
    ReviewSettings,
    decision_tasks,
    label_of,
    move_key,
    review_decision,
    review_hand,
    review_match,
)
from canasta.cards import card_text, full_deck
from canasta.match import Match, bot_random, deal_deck
from canasta.moves import Move
from canasta.position import from_position
from canasta.state import GameState
from canasta.views import View

SMALL = ReviewSettings(rollouts=8, candidates=3)
"""A budget small enough for tests: the same answer every time (rollouts, not time)."""
RANKS = "AKQJT987654"


def endgame(hand: Sequence[str], pile: Sequence[str], hands: Sequence[Sequence[str]], stock: Sequence[str],
            side_of: Mapping[str, int]) -> GameState:
    """Seat 0 to draw, near a hand's end (so a rollout is short): the cards not named are on the table, each
    natural rank's other copies melded by the side ``side_of`` names (side 0 unless named) with up to two wild
    cards, the red threes laid out, and the rest (black threes, short ranks, wild cards) under the stock."""
    deck = [card_text(c) for c in full_deck(2)]
    for card in [*hand, *pile, *stock, *(c for h in hands for c in h)]:
        deck.remove(card)
    melds: list[dict[str, list[str]]] = [{}, {}]
    wilds = [c for c in deck if c[0] == "2" or c == "JK"]
    rest = [c for c in deck if c in ("3S", "3C")]
    reds = [c for c in deck if c in ("3H", "3D")]
    for rank in RANKS:
        cards = [c for c in deck if c[0] == rank and c != "JK"]
        if len(cards) < 3:
            rest += cards
            continue
        meld = melds[side_of.get(rank, 0)].setdefault(rank, [])
        meld += cards
        while wilds and len(meld) - len(cards) < 2:
            meld.append(wilds.pop())
    return from_position({"rules": "classic", "dealer": 3, "turn": 0, "hands": [list(hand), *map(list, hands)],
                          "stock": [*stock, *rest, *wilds], "pile": list(pile), "melds": melds,
                          "red_threes": [reds[:2], reds[2:]], "melded": [True] * 4})


def big_pile(draw: bool = True) -> GameState:
    """A ten-card open pile, every card of a rank seat 1's side melds; seat 0 holds a king (seat 1's side melds
    kings) and a black three, a stop card."""
    state = endgame(hand=["KS", "3S", "4H"], pile=["9C", "9D", "8C", "8D", "7C", "7D", "6C", "6D", "5C", "QD"],
                    hands=[["AH", "JH", "TS", "5S"], ["AD", "JD", "TC", "5D"], ["AC", "JC", "TD", "5H"]],
                    stock=["4D", "4C", "QS", "QH", "4S"],
                    side_of={"K": 1, "9": 1, "8": 1, "7": 1, "6": 1, "5": 1, "Q": 1})
    if draw:
        state.play("draw")
    return state


def own_pile() -> GameState:
    """A ten-card open pile whose top card and every other card go onto seat 0's side's melds."""
    return endgame(hand=["AH", "JS", "4S"], pile=["9C", "9D", "8C", "8D", "7C", "7D", "6C", "6D", "5C", "QD"],
                   hands=[["AD", "JH", "TS", "5S"], ["AC", "JD", "TC", "5D"], ["AS", "JC", "TD", "5H"]],
                   stock=["4D", "4C", "QS", "QH", "4H"], side_of={"A": 1, "J": 1, "T": 1, "4": 1})


def judge(state: GameState, played: str, settings: ReviewSettings = SMALL) -> Decision:
    return review_decision(state.view(state.to_act), list(state.legal_moves()), Move.parse(played), settings)


# -- planted blunders (issue 29, point 5) -----------------------------------------------------------------------


def test_feeding_a_big_pile_to_the_next_player_is_a_blunder() -> None:
    state = big_pile()
    assert state.is_legal("discard KS") and state.is_legal("discard 3S")
    decision = judge(state, "discard KS")
    assert decision.label in ("mistake", "blunder"), decision
    assert decision.best != "discard KS" and decision.low is not None and decision.low > 0.0
    assert decision.loss >= dict(THRESHOLDS)["mistake"]


def test_drawing_instead_of_taking_a_big_pile_is_a_blunder_and_taking_it_scores_0() -> None:
    state = own_pile()
    assert [str(m) for m in state.legal_moves()] == ["draw", "pile"]
    drew = judge(state, "draw")
    assert (drew.best, drew.label) == ("pile", "blunder") and drew.low > 0.0
    took = judge(state, "pile")
    assert (took.best, took.loss, took.label) == ("pile", 0.0, "best")


def test_a_move_differing_from_the_best_only_in_suits_scores_the_same() -> None:
    state = big_pile()
    kinds = {move_key(m) for m in state.legal_moves()}
    assert move_key(Move.parse("discard 4D")) == move_key(Move.parse("discard 4H")) in kinds
    a, b = judge(state, "discard 4D"), judge(state, "discard 4H")
    assert (a.loss, a.label, a.best) == (b.loss, b.label, b.best)
    assert [c.value for c in a.candidates] == [c.value for c in b.candidates]


def test_labels_follow_the_thresholds_and_a_mistake_needs_an_interval_above_zero() -> None:
    assert label_of(0.0) == "best" and label_of(0.01) == "good"
    assert [label_of(start) for _, start in THRESHOLDS[1:]] == list(LABELS[2:])
    assert [label_of(start - 0.01) for _, start in THRESHOLDS[1:]] == list(LABELS[1:-1])
    blunder = dict(THRESHOLDS)["blunder"]
    assert [label_of(blunder, low) for low in (1.0, 0.0, -5.0, None)] == ["blunder"] + ["inaccuracy"] * 3


# -- honest and reproducible -----------------------------------------------------------------------------------


def test_a_decision_is_judged_from_the_view_alone() -> None:
    """The review of a seat is the same whatever the cards it could not see: two decks that differ only in two
    cards of the other seats' hands give the same review."""
    deck = deal_deck(Match().rules, 11, 0)
    swapped = deck[:]
    swapped[1], swapped[2] = swapped[2], swapped[1]  # one card of seat 2's hand, one of seat 3's
    assert swapped != deck
    reviews = []
    for cards in (deck, swapped):
        match = Match(seed=None, dealer=0, deal=False)
        match.new_hand(cards)
        bots = [make_bot("basic", bot_random(11, 0, seat)) for seat in range(4)]
        while len(match.hands[0]["moves"]) < 3:
            state = match.state
            moves = list(state.legal_moves())
            match.play(bots[state.to_act].choose(state.view(state.to_act), moves))
        tasks, _ = decision_tasks(match, [1], [0], SMALL)
        assert all(isinstance(t.view, View) and not isinstance(t.view, GameState) for t in tasks)
        reviews.append(review_hand(match, 0, [1], ReviewSettings(rollouts=4, candidates=2)))
    assert reviews[0].decisions and reviews[0].decisions == reviews[1].decisions


def short_match(moves: int = 6, seed: int = 5) -> Match:
    """A classic hand's first moves, basic players."""
    match = Match(seed=seed)
    bots = [make_bot("basic", random.Random(seat)) for seat in range(4)]
    while len(match.hands[0]["moves"]) < moves:
        state = match.state
        match.play(bots[state.to_act].choose(state.view(state.to_act), list(state.legal_moves())))
    return match


def test_the_same_seed_and_budget_give_the_same_review_in_one_process_or_two() -> None:
    match = short_match(4)
    settings = ReviewSettings(rollouts=4, candidates=2, seed=3)
    first = review_match(match, settings=settings)
    assert review_match(match, settings=settings).decisions == first.decisions
    assert review_match(match, settings=settings, workers=2).decisions == first.decisions
    other = review_match(match, settings=ReviewSettings(rollouts=4, candidates=2, seed=4))
    assert [d.index for d in other.decisions] == [d.index for d in first.decisions]


def test_forced_decisions_are_counted_not_scored_and_the_summary_adds_up() -> None:
    match = short_match()
    seen: list[tuple[int, int]] = []
    review = review_match(match, settings=ReviewSettings(rollouts=4, candidates=2),
                          progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] == len(review.decisions)
    moves = len(match.hands[0]["moves"])
    assert sum(s.decisions + s.forced for s in review.seats) == moves
    for seat in review.seats:
        own = [d for d in review.decisions if d.seat == seat.seat]
        assert seat.decisions == len(own) and sum(seat.counts.values()) == len(own)
        assert seat.total_loss == pytest.approx(sum(d.loss for d in own))
        assert seat.mean_loss == pytest.approx(seat.total_loss / len(own) if own else 0.0)
        assert [d.loss for d in seat.costliest] == sorted((d.loss for d in own if d.loss > 0), reverse=True)[:3]


def test_the_json_keeps_cards_seats_and_hands_from_0() -> None:
    match = short_match(4)
    data = json.loads(json.dumps(review_hand(match, 0, [1], ReviewSettings(rollouts=4, candidates=2)).to_json()))
    (seat,) = data["seats"]
    assert {"seat", "decisions", "mean_loss", "total_loss", *LABELS, "rating", "costliest"} <= set(seat)
    assert seat["seat"] == 1 and data["hands"] == [0]
    for d in data["decisions"]:
        assert {"hand", "index", "seat", "played", "best", "loss", "label", "low", "high"} <= set(d)
        assert d["seat"] == 1 and d["hand"] == 0 and d["label"] in LABELS
        assert match.hands[0]["moves"][d["index"]] == d["played"]
        Move.parse(d["best"])
        assert Decision.from_json(d).to_json() == d  # a front end reads back what it was sent


def test_bad_seats_hands_and_budgets_are_refused() -> None:
    match = short_match(2)
    with pytest.raises(ReviewError, match="seat 5"):
        review_match(match, [4])
    with pytest.raises(ReviewError, match="hand 2"):
        review_match(match, hands=[1])
    with pytest.raises(ReviewError):
        ReviewSettings(rollouts=1)
    with pytest.raises(ReviewError):
        ReviewSettings(rollouts=None, seconds=None)
    with pytest.raises(ReviewError):
        review_match(match, backend="nope")
