"""The table driver: the one way a move gets in, checked in the protocol's order, and the one bot loop."""

from __future__ import annotations

import pytest

from canasta.bots import make_bot
from canasta.cards import card_text
from canasta.errors import IllegalMoveError, MatchOver, MoveSyntaxError, NotYourTurn, SeatError, StaleState
from canasta.match import Match, bot_random, deal_deck
from canasta.play import HOUSE, Table, parse_seats
from canasta.rules import Rules

RULES = Rules.from_preset("classic", target=1000)


def people() -> Table:
    return Table(RULES, parse_seats(["human"] * 4, RULES), seed=4)


def test_a_new_table_deals_its_first_hand_from_the_seed() -> None:
    table = people()
    assert table.state_id == 1 and table.hand_number == 1
    assert table.match.hands[0]["deck"] == Match(RULES, seed=4).hands[0]["deck"]
    assert table.bot_to_act() is None and table.bot_to_act(deal=True) is None


def test_checks_come_in_the_protocols_order_and_change_nothing() -> None:
    table = people()
    seat = table.state.to_act
    other = (seat + 1) % 4
    before = table.match.to_record()
    with pytest.raises(NotYourTurn, match="spectators"):
        table.submit(None, "fly", 0)  # a spectator: before the state id, before the syntax
    with pytest.raises(NotYourTurn, match="not yours"):
        table.submit(other, "fly", 0)
    with pytest.raises(NotYourTurn, match="still being played"):
        table.submit(seat, None, 1)  # the next deal, mid-hand
    with pytest.raises(StaleState, match="state 1, not 0"):
        table.submit(seat, "fly", 0)
    with pytest.raises(MoveSyntaxError):
        table.submit(seat, "fly", 1)
    with pytest.raises(IllegalMoveError):
        table.submit(seat, "discard 4C", 1)
    assert table.match.to_record() == before and table.state_id == 1
    assert str(table.submit(seat, "draw", 1)) == "draw" and table.state_id == 2
    with pytest.raises(NotYourTurn, match="hand is over"):
        table.submit(HOUSE, "draw")  # the table itself only deals


def test_a_match_over_is_refused_first() -> None:
    rules = Rules.from_preset("classic", target=1000)
    table = Table(rules, parse_seats(["basic"] * 4, rules), seed=2)
    while not table.match.is_over:
        table.run_bots()
        if not table.match.is_over:
            table.submit(HOUSE, None, table.state_id)
    with pytest.raises(MatchOver):
        table.submit(None, "draw", 0)
    with pytest.raises(MatchOver):
        table.submit(HOUSE, None)
    with pytest.raises(MatchOver):
        table.require_turn(table.state.to_act, table.state_id)  # a hint or a selection at the end: the same


def test_the_house_deals_only_at_a_table_without_people() -> None:
    bots = Table(RULES, parse_seats(["basic"] * 4, RULES), seed=3)
    bots.run_bots()
    assert bots.state.is_over and bots.bot_to_act() is None and bots.bot_to_act(deal=True) == HOUSE
    rules = Rules.from_preset("classic")  # to 5,000: the match goes on after the first hand
    mixed = Table(rules, parse_seats(["human", "basic", "basic", "basic"], rules), seed=3)
    while mixed.bot_to_act() is not None or not mixed.state.is_over:
        if mixed.bot_to_act() is None:
            mixed.submit(0, mixed.state.legal_moves()[0], mixed.state_id)
        else:
            mixed.play_bot()
    assert not mixed.match.is_over and mixed.bot_to_act(deal=True) is None  # a person deals the next hand there
    mixed.stand_ins.add(0)
    assert mixed.bot_to_act(deal=True) is None  # even with their seat left to the computer (protocol.md)


def test_bots_are_seeded_per_hand_from_the_seed_and_choose_from_the_view() -> None:
    table = Table(RULES, parse_seats(["human", "random", "random", "random"], RULES), seed=9)
    turn = table.bot_turn()
    assert turn.seat == 1 and turn.state_id == table.state_id and not turn.slow
    assert turn.view.seat == 1 and turn.moves == list(table.state.legal_moves())
    again = make_bot("random", bot_random(9, 0, 1)).choose(turn.view, turn.moves)
    assert turn.choose() == again


def test_search_bots_say_they_are_slow() -> None:
    assert make_bot("search:10").slow and not make_bot("expert").slow and not make_bot("random").slow


def test_the_deck_of_each_hand_depends_on_the_seed_and_its_number_only() -> None:
    rules = Rules.from_preset("classic", target=10000)
    table = Table(rules, parse_seats(["basic"] * 4, rules), seed=5)
    for number in range(3):
        if number:
            table.submit(HOUSE, None, table.state_id)
        assert table.match.hands[number]["deck"] == [card_text(c) for c in deal_deck(rules, 5, number)]
        table.run_bots()


def test_a_table_needs_one_seat_per_player() -> None:
    with pytest.raises(SeatError, match="seats 4 players, not 2"):
        Table(RULES, parse_seats(["human", "basic"], Rules.from_preset("two-player")), seed=1)


def test_the_turn_checks_come_before_the_move_and_a_seat_left_to_the_computer_is_its() -> None:
    table = people()
    seat = table.state.to_act
    table.require_turn(seat, 1)  # the seat to act, in the current state: nothing to say
    with pytest.raises(StaleState):
        table.require_turn(seat, 0)
    with pytest.raises(NotYourTurn, match="not yours"):
        table.require_turn((seat + 1) % 4, 1)
    table.stand_in(seat)
    assert table.is_bot(seat) and table.bot_to_act() == seat
    with pytest.raises(NotYourTurn, match="left your seat to the computer"):
        table.submit(seat, "draw", 1, computer=False)
    turn = table.bot_turn()
    table.stand_in(seat, computer=False)  # the person takes the seat back while the computer thinks
    with pytest.raises(StaleState, match="taken back"):
        table.submit(turn.seat, turn.choose(), turn.state_id, computer=True)
    assert table.state_id == 1 and str(table.submit(seat, "draw", 1, computer=False)) == "draw"
    with pytest.raises(NotYourTurn, match="only the people seated"):
        table.require_person(None, "chat")
    with pytest.raises(NotYourTurn, match="only the people seated"):
        Table(RULES, parse_seats(["human"] + ["basic"] * 3, RULES), seed=1).stand_in(1)


def test_a_rematch_is_a_new_match_at_the_same_seats_and_the_state_id_goes_on_counting() -> None:
    rules = Rules.from_preset("classic", target=1000)
    table = Table(rules, parse_seats(["human", "basic", "basic", "basic"], rules), seed=2)
    table.stand_in(0)
    with pytest.raises(NotYourTurn, match="a rematch is for its end"):
        table.rematch(7)
    while not table.match.is_over:
        table.run_bots()
        if not table.match.is_over:
            table.submit(0, None, table.state_id)  # the person deals the next hand
    final = table.state_id
    table.rematch(7)
    assert table.state_id == final + 1 and table.matches == 2 and table.seed == 7
    assert not table.match.hands and not table.match.is_over and table.stand_ins == {0}
    with pytest.raises(StaleState, match=f"state {final + 1}, not {final}"):
        table.submit(0, None, final)  # a deal asked for in the old match
    table.submit(0, None, final + 1)
    assert table.state_id == final + 2
    fresh = Table(rules, parse_seats(["human", "basic", "basic", "basic"], rules), seed=7)
    assert table.match.hands[0]["deck"] == fresh.match.hands[0]["deck"]
    fresh.stand_in(0)
    assert table.bot_move() == fresh.bot_move()  # the new match's bots are seeded from its own seed

