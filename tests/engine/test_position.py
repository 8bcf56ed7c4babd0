"""Positions as JSON objects and deals from a given deck (NOTATION.md, "Positions", "Scenarios"; RULES.md 1-2)."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest

from canasta import GameState, PositionError, Rules, cards_text, deal_from, from_position, full_deck, to_position
from canasta.cards import parse_cards

BASE: dict[str, Any] = {
    "rules": "classic",
    "dealer": 3,
    "turn": 0,
    "scores": [0, 0],
    "hands": [["KH", "9D"], ["5D", "4C"], ["QS", "6C", "2D"], ["8H", "JK"]],
    "stock": ["5C", "7S"],
    "pile": ["6H", "TC", "4D"],
    "melds": [{"K": ["KS", "KD", "KC"]}, {"7": ["7S", "7H", "7D"]}],
    "red_threes": [["3H"], []],
    "melded": [True, False, False, True],
    "frozen": False,
}


def changed(**fields: Any) -> dict[str, Any]:
    """BASE with some fields replaced (``None`` removes one)."""
    pos = copy.deepcopy(BASE)
    for key, value in fields.items():
        if value is None:
            del pos[key]
        else:
            pos[key] = value
    return pos


# -- round trips -------------------------------------------------------------------------------


def test_position_round_trips_exactly() -> None:
    assert to_position(from_position(BASE)) == BASE


def test_position_survives_json_text() -> None:
    state = from_position(json.loads(json.dumps(BASE)))
    assert json.loads(json.dumps(to_position(state))) == BASE


def test_hands_come_back_in_canonical_order() -> None:
    pos = changed(hands=[["9D", "KH"], ["4c", "5d"], ["2D", "QS", "6C"], ["JK", "8H"]])
    assert to_position(from_position(pos))["hands"] == BASE["hands"]


def test_round_trip_with_rules_object_and_frozen_flag() -> None:
    pos = changed(rules={"preset": "classic", "target": 2000, "black_three_freezes": True}, frozen=True,
                  scores=[1500, -20])
    state = from_position(pos)
    assert state.pile_frozen()
    assert state.minimum(0) == 90 and state.minimum(1) == 15
    assert to_position(state) == pos


def test_round_trip_of_three_player_position() -> None:
    pos = {
        "rules": "three-player", "dealer": 0, "turn": 1, "scores": [0, 10, 20],
        "hands": [["AS"], ["KS", "KH"], ["QS"]], "stock": ["4C"], "pile": ["5D"],
        "melds": [{}, {"9": ["9S", "9H", "2C"]}, {}], "red_threes": [[], [], ["3D"]],
        "melded": [False, True, False], "frozen": False,
    }
    assert to_position(from_position(pos)) == pos


def test_optional_fields_take_defaults() -> None:
    state = from_position({"dealer": 0, "turn": 1, "hands": [["AS"], ["KS"], ["QS"], ["JS"]]})
    assert state.rules == Rules.from_preset("classic")
    assert state.scores == [0, 0]
    assert state.stock == [] and state.pile == []
    assert state.melded == [False] * 4
    assert not state.pile_frozen()


def test_melded_defaults_to_whether_the_side_has_melds() -> None:
    state = from_position(changed(melded=None))
    assert state.melded == [True, True, True, True]


def test_ten_may_be_written_10_in_meld_keys_and_cards() -> None:
    state = from_position(changed(melds=[{"10": ["10S", "th", "TD"]}, {}]))
    assert to_position(state)["melds"] == [{"T": ["TS", "TH", "TD"]}, {}]


def test_black_threes_may_lie_on_the_table() -> None:
    state = from_position(changed(melds=[{"K": ["KS", "KD", "KC"], "3": ["3S", "3C", "3S"]}, {}]))
    assert to_position(state)["melds"][0]["3"] == ["3S", "3C", "3S"]


def test_a_position_may_hold_fewer_cards_than_the_deck() -> None:
    state = from_position(BASE)
    assert state.card_count() == 21


def test_pile_is_frozen_when_it_holds_a_wild_card_or_red_three() -> None:
    assert not from_position(BASE).pile_frozen()
    assert from_position(changed(pile=["6H", "2C", "4D"])).pile_frozen()
    assert from_position(changed(pile=["6H", "3D", "4D"], red_threes=[[], []])).pile_frozen()
    assert from_position(changed(frozen=True)).pile_frozen()


def test_pile_is_always_frozen_against_a_side_with_no_meld() -> None:
    state = from_position(changed(melds=[{}, {"7": ["7S", "7H", "7D"]}], melded=[False, False, False, True]))
    assert not state.pile_frozen()
    assert state.frozen_for(0)
    assert not state.frozen_for(1)


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "words"),
    [
        (changed(hands=[["KX", "9D"], ["4C"], ["QS"], ["8H"]]), "unknown card 'KX'"),
        (changed(stock=["5C", "1S"]), "unknown card"),
        (changed(hands=[["KS", "KS", "9D"], ["4C"], ["QS"], ["8H"]]), "3 copies of KS"),
        (changed(stock=["AS", "AS", "AS"]), "3 copies of AS"),
        (changed(pile=["JK", "JK", "JK"], hands=[["JK", "JK"], [], [], []]), "5 copies of JK"),
        (changed(turn=4), "seat from 0 to 3"),
        (changed(dealer=-1), "seat from 0 to 3"),
        (changed(turn=True), "seat"),
        (changed(turn="0"), "seat"),
        (changed(rules="three-player", dealer=2), "entries"),
        (changed(hands=[["KH"], ["4C"], ["QS"]]), "4 entries"),
        (changed(hands=[["KH"], ["4C"], ["QS"], [], []]), "4 entries"),
        (changed(rules={"preset": "classic", "colour": "blue"}), "unknown rules option 'colour'"),
        (changed(rules="bridge"), "unknown preset"),
        (changed(rules={"preset": "classic", "draw": 3}), "draw"),
        (changed(melds=[{"K": ["KH", "2C"]}, {}]), "not a meld"),
        (changed(melds=[{"K": ["KH", "KD", "QC"]}, {}]), "another rank"),
        (changed(melds=[{"K": ["KH", "KD", "2C", "2S", "2H", "2D"]}, {}]), "not a meld"),
        (changed(melds=[{"K": ["KH", "2C", "2S"]}, {}]), "not a meld"),
        (changed(melds=[{"3": ["3S", "3C"]}, {}]), "black threes"),
        (changed(melds=[{"3": ["3S", "3C", "2C"]}, {}]), "black threes"),
        (changed(melds=[{"3": ["3H", "3D", "3H"]}, {}]), "another rank"),
        (changed(melds=[{"Z": ["KH", "KD", "KC"]}, {}]), "not a meld rank"),
        (changed(melds=[{"2": ["2H", "2D", "2C"]}, {}]), "not a meld rank"),
        (changed(melds=[{}]), "2 entries"),
        (changed(melds=[[], {}]), "object"),
        (changed(colour="blue"), "unknown position field 'colour'"),
        (changed(turn=None), "no 'turn'"),
        (changed(hands=None), "no 'hands'"),
        (changed(scores=[0]), "scores"),
        (changed(scores=["0", 0]), "scores"),
        (changed(melded=[1, 0, 0, 0]), "melded"),
        (changed(frozen="yes"), "frozen"),
        (changed(red_threes=[["3S"], []]), "not a red three"),
        (changed(hands=["KH", [], [], []]), "list of cards"),
        (changed(hands=[[5], [], [], []]), "not a card code"),
    ],
)
def test_bad_positions_raise_one_line_position_error(position: dict[str, Any], words: str) -> None:
    with pytest.raises(PositionError, match=words) as info:
        from_position(position)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("obj", [None, [], "position", 5, [BASE]])
def test_a_position_must_be_an_object(obj: object) -> None:
    with pytest.raises(PositionError, match="JSON object"):
        from_position(obj)


# -- red threes at the start of a turn ---------------------------------------------------------


def test_red_three_in_turn_players_hand_is_laid_out_and_replaced_at_load() -> None:
    pos = changed(hands=[["KH", "3D", "9D"], ["5D", "4C"], ["QS", "6C", "2D"], ["8H", "JK"]], red_threes=[[], []])
    state = from_position(pos)
    assert cards_text(state.hand(0)) == ["KH", "9D", "5C"]
    assert cards_text(state.red_threes[0]) == ["3D"]
    assert cards_text(reversed(state.stock)) == ["7S"]
    assert state.phase == "draw" and state.turn == 0


def test_red_three_in_another_players_hand_waits_for_that_players_turn() -> None:
    pos = changed(hands=[["KH", "9D"], ["5D", "3H"], ["QS", "6C", "2D"], ["8H", "JK"]], red_threes=[[], []])
    state = from_position(pos)
    assert cards_text(state.hand(1)) == ["5D", "3H"]
    assert state.red_threes == [[], []]
    state.play("draw")
    state.play("discard 9D")
    assert state.turn == 1
    assert cards_text(state.hand(1)) == ["7S", "5D"]
    assert cards_text(state.red_threes[1]) == ["3H"]


def test_red_three_replaced_by_red_three_is_laid_out_too() -> None:
    pos = changed(hands=[["KH", "3D", "9D"], ["5D", "4C"], ["QS", "6C", "2D"], ["8H", "JK"]],
                  red_threes=[[], []], stock=["3H", "7S", "5C"])
    state = from_position(pos)
    assert cards_text(state.hand(0)) == ["KH", "9D", "7S"]
    assert sorted(cards_text(state.red_threes[0])) == ["3D", "3H"]
    assert cards_text(reversed(state.stock)) == ["5C"]


# -- deals from a deck -------------------------------------------------------------------------


def deck_with(top: list[str], decks: int = 2) -> list[str]:
    """``top`` followed by the rest of a full deck in canonical order."""
    rest = Counter(cards_text(full_deck(decks)))
    rest.subtract(Counter(t.upper() for t in top))
    assert all(n >= 0 for n in rest.values())
    ordered = []
    for card in cards_text(full_deck(decks)):
        if rest[card] > 0:
            rest[card] -= 1
            ordered.append(card)
    return top + ordered


def plain_deck() -> list[str]:
    """A deck with no three, two or joker among the first 60 cards."""
    naturals = [c for c in cards_text(full_deck(2)) if c[0] not in "32" and c != "JK"]
    return deck_with(naturals[:60])


def test_deck_helper_builds_full_decks() -> None:
    deck = plain_deck()
    assert sorted(parse_cards(deck)) == full_deck(2)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_deal_one_card_at_a_time_from_the_dealers_left(dealer: int) -> None:
    deck = plain_deck()
    state = deal_from({"rules": "classic", "dealer": dealer, "deck": deck})
    first = (dealer + 1) % 4
    for i in range(4):
        seat = (first + i) % 4
        assert sorted(cards_text(state.hand(seat))) == sorted(deck[i:44:4])
    assert cards_text(state.pile) == [deck[44]]
    assert cards_text(reversed(state.stock)) == deck[45:]
    assert len(state.stock) == 63
    assert state.turn == first and state.dealer == dealer and state.phase == "draw"
    assert not state.pile_frozen()


def test_deal_with_game_state_deal_and_a_deck_of_codes() -> None:
    deck = parse_cards(plain_deck())
    state = GameState.deal("classic", dealer=2, scores=[100, 1600], deck=deck)
    assert sorted(state.hand(3)) == sorted(deck[0:44:4])
    assert state.scores == [100, 1600]
    assert state.minimum(1) == 90
    assert state.card_count() == 108


def test_wild_upcard_is_covered_and_freezes_the_pile() -> None:
    deck = plain_deck()
    deck = deck_with(deck[:44] + ["JK", "2C", "3D", "8S"])
    state = deal_from({"dealer": 0, "deck": deck})
    assert cards_text(state.pile) == ["JK", "2C", "3D", "8S"]
    assert state.pile_frozen()
    assert len(state.stock) == 108 - 44 - 4


def test_black_three_upcard_stays_on_top() -> None:
    deck = plain_deck()
    deck = deck_with(deck[:44] + ["3S"])
    state = deal_from({"dealer": 0, "deck": deck})
    assert cards_text(state.pile) == ["3S"]
    assert not state.pile_frozen()
    assert len(state.stock) == 63


def test_black_three_upcard_covered_under_the_cover_option() -> None:
    deck = plain_deck()
    deck = deck_with(deck[:44] + ["3C", "8D"])
    state = deal_from({"rules": {"preset": "classic", "black_three_upcard": "cover"}, "dealer": 0, "deck": deck})
    assert cards_text(state.pile) == ["3C", "8D"]
    assert state.pile_frozen()
    assert len(state.stock) == 62


def test_dealt_red_three_of_the_first_player_is_laid_out_and_replaced() -> None:
    deck = plain_deck()
    deck = deck_with(["3H", *deck[1:44]])  # the first card goes to seat 1, which plays first
    state = deal_from({"dealer": 0, "deck": deck})
    assert cards_text(state.red_threes[1]) == ["3H"]
    assert len(state.hand(1)) == 11
    assert parse_cards([deck[45]])[0] in state.hand(1)
    assert len(state.stock) == 62


def test_dealt_red_three_under_red_threes_at_deal_is_laid_out_for_everyone() -> None:
    deck = plain_deck()
    deck = deck_with(["AS", "3H", *deck[2:44]])  # seat 2 gets the red three
    rules = {"preset": "classic", "red_threes_at_deal": True}
    state = deal_from({"rules": rules, "dealer": 0, "deck": deck})
    assert cards_text(state.red_threes[0]) == ["3H"]
    assert len(state.hand(2)) == 11
    without = deal_from({"dealer": 0, "deck": deck})
    assert without.red_threes == [[], []]
    assert "3H" in cards_text(without.hand(2))


@pytest.mark.parametrize("name", ["two-player", "three-player", "six-player", "six-player-two-teams"])
def test_deal_sizes_for_every_preset(name: str) -> None:
    rules = Rules.from_preset(name)
    state = GameState.deal(rules, dealer=0, rng=random.Random(3))
    assert state.card_count() == rules.deck_size
    assert all(len(state.hand(seat)) == rules.hand_size for seat in range(rules.players))
    laid_out = sum(len(r) for r in state.red_threes)
    assert len(state.stock) == rules.deck_size - rules.players * rules.hand_size - len(state.pile) - laid_out


@pytest.mark.parametrize(
    ("deal", "words"),
    [
        ({"dealer": 0, "deck": plain_deck()[:107]}, "108"),
        ({"dealer": 0, "deck": [*plain_deck()[:107], "AS"]}, "copies"),
        ({"dealer": 0, "deck": [*plain_deck()[:107], "XX"]}, "unknown card"),
        ({"dealer": 4, "deck": plain_deck()}, "seat"),
        ({"dealer": 0}, "deck"),
        ({"dealer": 0, "deck": plain_deck(), "shuffle": True}, "unknown deal field"),
        ({"rules": "nope", "dealer": 0, "deck": plain_deck()}, "unknown preset"),
        ({"rules": "six-player", "dealer": 0, "deck": plain_deck()}, "162"),
    ],
)
def test_bad_deals_raise_position_error(deal: dict[str, Any], words: str) -> None:
    with pytest.raises(PositionError, match=words):
        deal_from(deal)


def test_a_deal_must_be_an_object() -> None:
    with pytest.raises(PositionError):
        deal_from(["AS"])


def test_game_state_deal_refuses_a_short_deck() -> None:
    with pytest.raises(PositionError):
        GameState.deal("classic", dealer=0, deck=full_deck(2)[:100])


def test_a_meld_of_wild_cards_is_refused_unless_the_rules_play_them() -> None:
    with pytest.raises(PositionError, match="W"):
        from_position(changed(melds=[{"K": ["KS", "KD", "KC"], "W": ["2C", "2D", "JK"]}, {}]))


def test_a_meld_of_wild_cards_is_accepted_when_the_rules_play_them() -> None:
    state = from_position(changed(rules={"preset": "classic", "wild_card_melds": True},
                                  melds=[{"K": ["KS", "KD", "KC"], "W": ["2C", "2D", "JK"]}, {}]))
    assert to_position(state)["melds"][0]["W"] == ["2C", "2D", "JK"]
