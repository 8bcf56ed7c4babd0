"""canasta.outcome: each move's record of what the table saw, worked out once by the engine."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from canasta import from_position
from canasta.cards import MELD_RANK_CHARS, RED_THREE_CODES, parse_cards
from canasta.match import Match
from canasta.moves import DRAW, MELD, PILE, Move
from canasta.outcome import Outcome, play
from canasta.rules import PRESETS


def test_a_pile_taken_says_its_size_and_top_and_the_meld_it_made() -> None:
    state = from_position({"rules": "classic", "dealer": 3, "turn": 0,
                           "hands": [["9S", "9H", "KS", "5C"], ["4C"], ["4H"], ["4S"]], "stock": ["6C"],
                           "pile": ["7D", "3S", "9D"], "melds": [{"K": ["KD", "KC", "KH"]}, {}]})
    taken = play(state, "pile 9S 9H")
    assert (taken.seat, taken.took, taken.top, taken.melded, taken.added) == (0, 3, parse_cards(["9D"])[0], ("9",), ())
    added = play(state, "meld KS")
    assert added.melded == () and added.added == ("K",) and added.took == 0
    assert not added.hand_over


def test_a_draw_tells_the_mover_alone_what_came_and_the_red_three_laid_out() -> None:
    state = from_position({"rules": "classic", "dealer": 3, "turn": 0,
                           "hands": [["5C", "6C"], ["4C"], ["4H"], ["4S"]], "stock": ["3D", "8S", "7H"],
                           "pile": ["9D"]})
    drew = play(state, "draw")
    assert drew.drew == tuple(parse_cards(["8S"]))  # the stock's top, a red three, was replaced
    assert drew.reds == ((0, tuple(parse_cards(["3D"]))),)
    assert drew.public().drew == () and "drew" not in drew.to_json() and "drew" in drew.to_json(private=True)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_move_of_random_matches_has_an_outcome_that_agrees_with_the_table(preset: str) -> None:
    rng = random.Random(f"outcome:{preset}")
    rules = PRESETS[preset]
    for seed in range(3):
        match = Match(rules, [f"p{i}" for i in range(rules.players)], seed=seed)
        state = match.state
        while not state.is_over:
            seat, side = state.to_act, state.to_act % state.sides
            pile, held = list(state.pile), Counter(state.hand(seat))
            melds = [list(m) if m is not None else None for m in state.melds[side]]
            reds = sum(len(r) for r in state.red_threes)
            move = rng.choice(list(state.legal_moves()))
            outcome = match.apply(move)
            assert outcome.seat == seat and outcome.move == move and state.history[-1] == (seat, move)
            assert len(match.outcomes) == len(state.history) and match.outcomes[-1] is outcome
            assert sum(len(cards) for _, cards in outcome.reds) == sum(len(r) for r in state.red_threes) - reds
            if move.action == PILE:
                assert outcome.took == len(pile) and outcome.top == pile[-1]
            else:
                assert outcome.took == 0 and outcome.top is None
            if move.action in (MELD, PILE):
                for rank, before in enumerate(melds):
                    grew = len(state.melds[side][rank] or ()) > len(before or ())
                    char = MELD_RANK_CHARS[rank]
                    assert (char in outcome.melded) == (grew and before is None)
                    assert (char in outcome.added) == (grew and before is not None)
            if move.action in (DRAW, PILE):
                gained = Counter(state.hand(seat)) - held
                assert Counter(outcome.drew) == gained and not set(outcome.drew) & set(RED_THREE_CODES)
            else:
                assert outcome.drew == ()
            assert outcome.hand_over == state.is_over
            assert Outcome.from_json(outcome.to_json(private=True)) == outcome
        assert len(match.outcomes) == len(state.history)


def test_a_new_hand_starts_a_new_list_of_outcomes() -> None:
    match = Match(PRESETS["two-player"], ["a", "b"], seed=4)
    rng = random.Random(4)
    while not match.state.is_over:
        match.apply(rng.choice(list(match.state.legal_moves())))
    assert match.outcomes and match.outcomes[-1].hand_over
    match.new_hand()
    assert match.outcomes == []
    assert str(match.apply(Move.parse("draw")).move) == "draw"


@pytest.mark.parametrize("preset", ["classic", "two-player", "six-player"])
def test_game_records_keep_each_hands_deal_and_public_outcomes(preset: str) -> None:
    """``to_record`` writes every hand's ``dealt`` and each move's public outcome (never the cards drawn);
    the record replays to the same outcomes, and a record written before them still loads."""
    rng = random.Random(preset)
    match = Match(preset, seed=11)
    while len(match.hands) < 2 or len(match.state.history) < 20:
        if match.state.is_over:
            match.new_hand()
            continue
        match.apply(rng.choice(list(match.state.legal_moves())))
    record = match.to_record()
    for number, hand in enumerate(record["hands"]):
        shown, outcomes = match.told(number)
        assert hand["dealt"] == shown.to_json()
        assert hand["outcomes"] == [o.public().to_json() for o in outcomes]
        assert [o["move"] for o in hand["outcomes"]] == hand["moves"]
        assert not any("drew" in o for o in hand["outcomes"]) and any(o.drew for o in outcomes)
    again = Match.from_record(record)
    assert [again.told(n)[1] for n in range(2)] == [match.told(n)[1] for n in range(2)]
    assert again.dealt == match.dealt
    old = {**record, "hands": [{k: v for k, v in h.items() if k not in ("dealt", "outcomes")} for h in record["hands"]]}
    assert Match.from_record(old).outcomes == match.outcomes
    hidden = match.to_record(for_seat=0)
    assert all(h["deck"] is None for h in hidden["hands"])
    assert hidden["hands"][-1]["outcomes"] == record["hands"][-1]["outcomes"]
