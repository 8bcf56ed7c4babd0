"""Matches: hands to the target, the deal passing left, game records (RULES.md 15; NOTATION.md "Game records")."""

from __future__ import annotations

import json
import random

import pytest

from canasta import CanastaError, PositionError, Rules, cards_text, full_deck, to_position
from canasta.bots import make_bot
from canasta.match import Match
from canasta.scoring import match_winner


def play_match(match: Match, seed: int, bot: str = "random", max_hands: int = 60) -> None:
    """Play the match to its end with bots."""
    players = match.rules.players
    bots = [make_bot(bot, random.Random(seed * 100 + i)) for i in range(players)]
    while True:
        state = match.state
        while not state.is_over:
            seat = state.to_act
            match.play(bots[seat].choose(state.view(seat), list(state.legal_moves())))
        if match.is_over:
            return
        assert len(match.hands) < max_hands, "the match does not end"
        match.new_hand()


SMALL = Rules.from_preset("classic", target=1000)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_match_plays_to_the_end_with_random_bots(seed: int) -> None:
    match = Match(SMALL, seed=seed)
    play_match(match, seed)
    assert match.is_over
    winner = match.winner
    assert winner is not None
    assert match.scores[winner] >= 1000
    assert match.scores[winner] == max(match.scores)
    assert match.scores.count(match.scores[winner]) == 1
    assert len(match.results) == len(match.hands)
    totals = [sum(r.totals[side] for r in match.results) for side in range(2)]
    assert match.scores == totals
    with pytest.raises(CanastaError, match="match is over"):
        match.new_hand()


def test_the_deal_passes_left_each_hand() -> None:
    match = Match(Rules.from_preset("classic", target=4000), seed=5, dealer=2)
    play_match(match, 5)
    dealers = [hand["dealer"] for hand in match.hands]
    assert len(dealers) >= 2
    assert dealers == [(2 + i) % 4 for i in range(len(dealers))]


def test_each_hand_starts_from_the_scores_so_far() -> None:
    match = Match(Rules.from_preset("classic", target=4000), seed=8)
    play_match(match, 8)
    running = [0, 0]
    record = match.to_record()
    replay = Match.from_record(record)
    for number, result in enumerate(match.results):
        assert record["hands"][number]["result"]["sides"][0]["total"] == result.totals[0]
        running = [s + t for s, t in zip(running, result.totals)]
    assert running == match.scores == replay.scores


@pytest.mark.parametrize("seed", [4, 7])
def test_record_replays_to_the_same_scores(seed: int) -> None:
    match = Match(SMALL, players=["Ann", "Bob", "Cat", "Dan"], seed=seed)
    play_match(match, seed, bot="basic")
    record = json.loads(json.dumps(match.to_record()))
    assert record["players"] == ["Ann", "Bob", "Cat", "Dan"]
    assert record["rules"] == {"preset": "classic", "target": 1000}
    assert len(record["hands"]) == len(match.hands)
    assert all(len(hand["deck"]) == 108 for hand in record["hands"])
    replay = Match.from_record(record)
    assert replay.scores == match.scores
    assert replay.winner == match.winner
    assert [r.totals for r in replay.results] == [r.totals for r in match.results]
    assert to_position(replay.state) == to_position(match.state)
    assert replay.to_record() == match.to_record()


def test_record_of_an_unfinished_match_replays_to_the_same_position() -> None:
    match = Match(SMALL, seed=9)
    bots = [make_bot("random", random.Random(i)) for i in range(4)]
    for _ in range(25):
        state = match.state
        match.play(bots[state.to_act].choose(state.view(state.to_act), list(state.legal_moves())))
    replay = Match.from_record(match.to_record())
    assert to_position(replay.state) == to_position(match.state)
    assert replay.state.phase == match.state.phase
    assert match.hands[0]["moves"] == [str(m) for _, m in match.state.history]


def test_record_readers_ignore_keys_they_do_not_know() -> None:
    match = Match(SMALL, seed=6)
    play_match(match, 6)
    record = json.loads(json.dumps(match.to_record()))
    record["date"] = "2026-01-01"
    record["comments"] = ["a fine match"]
    for hand in record["hands"]:
        hand["note"] = {"anything": [1, 2]}
    assert Match.from_record(record).scores == match.scores


def test_record_for_a_seat_hides_decks_and_seed_while_the_match_goes_on() -> None:
    match = Match(SMALL, seed=3)
    match.play("draw")
    secret = match.to_record(for_seat=0)
    assert all(hand["deck"] is None for hand in secret["hands"])
    assert "seed" not in secret
    assert secret["hands"][0]["moves"] == ["draw"]
    full = match.to_record()
    assert full["hands"][0]["deck"] is not None and full["seed"] == 3
    with pytest.raises(PositionError, match="no deck"):
        Match.from_record(secret)


def test_record_for_a_seat_shows_decks_once_the_match_is_over() -> None:
    match = Match(SMALL, seed=1)
    play_match(match, 1)
    record = match.to_record(for_seat=2)
    assert all(hand["deck"] is not None for hand in record["hands"])


def test_record_whose_deal_does_not_pass_left_is_refused() -> None:
    match = Match(SMALL, seed=2)
    play_match(match, 2)
    record = match.to_record()
    if len(record["hands"]) < 2:
        record["hands"].append({"dealer": 3, "deck": record["hands"][0]["deck"], "moves": []})
    record["hands"][1]["dealer"] = (record["hands"][0]["dealer"] + 2) % 4
    with pytest.raises(PositionError, match="passes left"):
        Match.from_record(record)


def test_record_with_an_illegal_move_names_hand_and_move() -> None:
    record = {"rules": "classic", "hands": [{"dealer": 0, "deck": cards_text(full_deck(2)), "moves": ["draw", "draw"]}]}
    with pytest.raises(PositionError, match=r"hand 0, move 1 \('draw'\)"):
        Match.from_record(record)


@pytest.mark.parametrize("record", [None, [], {"hands": []}, {"hands": [5]}, {"hands": [{"dealer": 0}]},
                                    {"players": "Ann", "hands": [{"dealer": 0, "deck": []}]}])
def test_bad_records_raise_position_error(record: object) -> None:
    with pytest.raises(PositionError):
        Match.from_record(record)


def test_a_match_needs_one_name_per_seat() -> None:
    with pytest.raises(PositionError, match="needs 4 players"):
        Match("classic", players=["Ann", "Bob"])


def test_the_next_hand_waits_for_the_current_one() -> None:
    match = Match(SMALL, seed=1)
    with pytest.raises(CanastaError, match="not over"):
        match.new_hand()


def test_equal_totals_at_the_target_play_another_hand() -> None:
    match = Match(SMALL, seed=1, scores=[1200, 1200])
    assert match.winner is None and not match.is_over
    assert match.state.phase == "draw"


@pytest.mark.parametrize(
    ("scores", "target", "winner"),
    [
        ((0, 0), 5000, None),
        ((4995, 4990), 5000, None),
        ((5000, 4000), 5000, 0),
        ((4000, 5000), 5000, 1),
        ((5100, 5200), 5000, 1),
        ((5300, 5200), 5000, 0),
        ((5100, 5100), 5000, None),
        ((-100, 5000), 5000, 1),
        ((7600, 7700, 100), 7500, 1),
        ((7600, 7600, 7500), 7500, None),
        ((7600, 7600, 7700), 7500, 2),
        ((1000, 1000, 1000), 1000, None),
    ],
)
def test_match_winner_higher_total_wins_equal_none(scores: tuple[int, ...], target: int, winner: int | None) -> None:
    assert match_winner(scores, target) == winner
    assert match_winner(list(scores), target) == winner


# -- records that break the notation ---------------------------------------------------------

DECK = cards_text(full_deck(2))


@pytest.mark.parametrize("scores", [["a", "b"], [0], [0, 0, 0], "00", [1.5, 0]])
def test_record_with_bad_scores_raises_position_error(scores: object) -> None:
    record = {"rules": "classic", "scores": scores, "hands": [{"dealer": 0, "deck": DECK, "moves": ["draw"]}]}
    with pytest.raises(PositionError, match="scores"):
        Match.from_record(record)


def test_record_with_a_move_that_is_not_text_raises_position_error() -> None:
    record = {"rules": "classic", "hands": [{"dealer": 0, "deck": DECK, "moves": [5]}]}
    with pytest.raises(PositionError):
        Match.from_record(record)


def test_record_with_a_dealer_that_is_not_a_seat_raises_position_error() -> None:
    record = {"rules": "classic", "hands": [{"dealer": "x", "deck": DECK, "moves": []}]}
    with pytest.raises(PositionError):
        Match.from_record(record)


def test_record_with_a_seat_out_of_range_raises_position_error() -> None:
    record = {"rules": "classic", "hands": [{"dealer": 9, "deck": DECK, "moves": []}]}
    with pytest.raises(PositionError, match="seat"):
        Match.from_record(record)


def test_a_replayed_record_deals_the_next_hand_as_the_unbroken_match_would() -> None:
    rules = Rules.from_preset("classic", target=10000)
    whole = Match(rules, seed=12)
    play_match_hands(whole, 12, hands=1)
    replayed = Match.from_record(whole.to_record())
    whole.new_hand()
    replayed.new_hand()
    assert whole.hands[-1]["deck"] == replayed.hands[-1]["deck"]
    assert whole.hands[0]["deck"] != whole.hands[1]["deck"]


def test_a_record_whose_deck_is_not_a_list_is_one_line() -> None:
    record = Match(seed=3).to_record()
    record["hands"][0]["deck"] = 7
    with pytest.raises(PositionError, match="the deck is a list of cards"):
        Match.from_record(record)


def play_match_hands(match: Match, seed: int, hands: int) -> None:
    bots = [make_bot("basic", random.Random(seed + i)) for i in range(match.rules.players)]
    for number in range(hands):
        if number:
            match.new_hand()
        state = match.state
        while not state.is_over:
            match.play(bots[state.to_act].choose(state.view(state.to_act), list(state.legal_moves())))
