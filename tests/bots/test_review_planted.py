"""Planted blunders (issue 29, point 5): hand-made positions where one move is clearly wrong by the rules' scores,
and the review must call it a mistake or a blunder with its interval above zero, find another move best, and
score that move 0 when it is the one played; a sensible move in the same position must read best or good, so a
review that called everything a blunder fails too.

In these rules a wild card on top of the pile blocks it for everyone (RULES.md 8), so a wild card discarded is a
stop card, not a gift: the wild-card blunder planted here is throwing away the wild card that would go out, and
the same position's other test checks that a wild card thrown to stop a big pile is judged the best move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from canasta.bots.review import THRESHOLDS, Decision, ReviewSettings, review_decision
from canasta.cards import card_text, full_deck
from canasta.moves import Move
from canasta.position import from_position
from canasta.state import GameState

SETTINGS = ReviewSettings(rollouts=48, candidates=3, seed=0)
"""Few deals, fixed seed: fast and the same every run, and enough for a planted blunder's interval to clear 0."""
RANKS = "AKQJT987654"
SURE = ("mistake", "blunder")


def table(hands: Sequence[Sequence[str]], pile: Sequence[str], stock: Sequence[str],
          side_of: Mapping[str, int | None], turn: int = 0) -> GameState:
    """Late in a classic hand, ``turn`` to draw: the cards not named are on the table, each natural rank's other
    copies melded (with up to two wild cards) by the side ``side_of`` names (side 0 unless named; None: under the
    stock), the red threes laid out, the black threes and the wild cards left over under the stock."""
    deck = [card_text(c) for c in full_deck(2)]
    for card in [*pile, *stock, *(c for h in hands for c in h)]:
        deck.remove(card)
    melds: list[dict[str, list[str]]] = [{}, {}]
    wilds = [c for c in deck if c[0] == "2" or c == "JK"]
    rest = [c for c in deck if c in ("3S", "3C")]
    reds = [c for c in deck if c in ("3H", "3D")]
    for rank in RANKS:
        cards = [c for c in deck if c[0] == rank and c != "JK"]
        side = side_of.get(rank, 0)
        if side is None or len(cards) < 3:
            rest += cards
            continue
        meld = melds[side].setdefault(rank, [])
        meld += cards
        while wilds and len(meld) - len(cards) < 2:
            meld.append(wilds.pop())
    return from_position({"rules": "classic", "dealer": (turn + 3) % 4, "turn": turn,
                          "hands": [list(h) for h in hands], "stock": [*stock, *rest, *wilds], "pile": list(pile),
                          "melds": melds, "red_threes": [reds[:2], reds[2:]], "melded": [True] * 4})


def judge(state: GameState, played: str, seed: int = 0) -> Decision:
    settings = SETTINGS if seed == SETTINGS.seed else ReviewSettings(rollouts=48, candidates=3, seed=seed)
    return review_decision(state.view(state.to_act), list(state.legal_moves()), Move.parse(played), settings)


def assert_caught(state: GameState, played: str, seed: int = 0) -> Decision:
    """The planted move is a mistake or blunder with its interval above 0, and the best move found is another,
    which scores 0 (``best``) when it is the move played."""
    decision = judge(state, played, seed)
    assert decision.label in SURE, decision
    assert decision.loss >= dict(THRESHOLDS)["mistake"] and decision.low is not None and decision.low > 0.0
    assert decision.best != played
    best = judge(state, decision.best, seed)
    assert (best.best, best.loss, best.label) == (decision.best, 0.0, "best"), best
    return decision


def going_out() -> GameState:
    """Seat 0, its side with canastas, holds a 2 and draws a black three: melding the 2 and discarding the three
    goes out, while both opponents hold eight cards."""
    state = table(hands=[["2C"], ["QC", "JH", "JD", "9H", "8S", "7H", "6C", "5D"], ["4C", "6S", "TD"],
                         ["QH", "JS", "9C", "8H", "7S", "6D", "5H", "TC"]],
                  pile=["5C", "8D", "9S"], stock=["3S", "KC", "7D", "8C", "9D", "TH"],
                  side_of={"Q": 1, "J": 1, "9": 1, "8": 1, "7": 1})
    state.play("draw")
    return state


def big_pile() -> GameState:
    """A ten-card open pile of the ranks the opponents meld; seat 0 holds two of their ranks (9D, 8D) and a 4 of
    its own side's meld, and draws a 2: a 9 or an 8 on top lets the next player add it to their meld and take
    the pile, a 2 on top blocks it."""
    state = table(hands=[["9D", "8D", "4H"], ["AD", "JD", "TC", "5D"], ["AC", "QH", "TD", "5H"],
                         ["AS", "JC", "TS", "5S"]],
                  pile=["9C", "9H", "8C", "8H", "7C", "7D", "6C", "6D", "KC", "QD"],
                  stock=["2C", "4D", "4C", "QS", "KH"],
                  side_of={"9": 1, "8": 1, "7": 1, "6": 1, "K": 1, "Q": 1, "5": None})
    state.play("draw")
    return state


def test_discarding_the_wild_card_that_would_go_out_is_a_blunder() -> None:
    state = going_out()
    assert {"discard 2C", "discard 3S", "meld A: 2C"} <= {str(m) for m in state.legal_moves()}
    decision = assert_caught(state, "discard 2C")
    assert decision.best.startswith("meld") and "2C" in decision.best


def test_keeping_the_wild_card_but_not_going_out_is_caught_too() -> None:
    decision = assert_caught(going_out(), "discard 3S")
    assert decision.best.startswith("meld")


def test_answering_no_when_the_partner_can_go_out_is_a_blunder() -> None:
    state = table(hands=[["QC", "JH", "4C"], ["KC", "JD", "9H", "8S", "7H", "6C", "5D", "TS"], ["2D"],
                         ["KH", "JS", "9C", "8H", "7S", "6D", "5H", "TC"]],
                  pile=["5C", "8D", "9S"], stock=["3S", "KD", "7D", "8C", "9D", "TH"],
                  side_of={"K": 1, "J": 1, "9": 1, "8": 1, "7": 1}, turn=2)
    state.play("draw")
    state.play("ask")
    assert state.to_act == 0 and [str(m) for m in state.legal_moves()] == ["yes", "no"]
    assert assert_caught(state, "no").best == "yes"


def test_feeding_the_opponents_rank_onto_a_big_open_pile_is_a_blunder() -> None:
    state = big_pile()
    assert state.is_legal("discard 9D") and state.is_legal("discard 2C")
    assert assert_caught(state, "discard 9D").best != "discard 8D"  # the other gift is no better
    assert_caught(state, "discard 8D")


def test_a_wild_card_discarded_to_block_a_big_pile_is_the_best_move() -> None:
    decision = judge(big_pile(), "discard 2C")
    assert (decision.best, decision.loss, decision.label) == ("discard 2C", 0.0, "best"), decision


def test_drawing_instead_of_taking_a_frozen_pile_with_a_natural_pair_is_a_blunder() -> None:
    state = table(hands=[["JS", "JH", "5S", "9D"], ["AD", "KD", "TC", "9C"], ["AC", "QH", "TD", "5H"],
                         ["AS", "KC", "TS", "9H"]],
                  pile=["6C", "6D", "2D", "7C", "7D", "8C", "8D", "QC", "QD", "JC"],
                  stock=["4D", "4C", "QS", "KH", "4S"], side_of={"A": 1, "K": 1, "T": 1, "9": 1, "5": 1})
    assert [str(m) for m in state.legal_moves()] == ["draw", "pile JS JH"]
    assert assert_caught(state, "draw").best == "pile JS JH"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_planted_blunder_is_caught_whatever_the_analysis_seed(seed: int) -> None:
    assert assert_caught(big_pile(), "discard 9D", seed).label == "blunder"
