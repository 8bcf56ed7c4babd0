"""Cards and their codes (NOTATION.md, "Cards"; RULES.md 1 and 13)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from canasta import CardError, card_text, cards_text, full_deck, parse_card, parse_cards, shuffled_deck
from canasta.cards import (
    IS_NATURAL,
    IS_WILD,
    JOKER,
    KIND,
    RED_THREE,
    check_multiplicity,
    copies_allowed,
    value,
)

RANKS = "AKQJT98765432"
SUITS = "SHDC"
ALL_CODES = [r + s for r in RANKS for s in SUITS] + ["JK"]


def test_there_are_53_distinct_card_codes() -> None:
    codes = [parse_card(t) for t in ALL_CODES]
    assert len(set(codes)) == 53


@pytest.mark.parametrize("text", ALL_CODES)
def test_every_code_round_trips(text: str) -> None:
    assert card_text(parse_card(text)) == text


@pytest.mark.parametrize("text", ALL_CODES)
def test_lower_case_is_accepted(text: str) -> None:
    assert parse_card(text.lower()) == parse_card(text)


@pytest.mark.parametrize("suit", SUITS)
def test_ten_may_be_written_10(suit: str) -> None:
    assert parse_card("10" + suit) == parse_card("T" + suit)
    assert parse_card("10" + suit.lower()) == parse_card("T" + suit)
    assert card_text(parse_card("10" + suit)) == "T" + suit


def test_output_is_always_canonical() -> None:
    assert cards_text(parse_cards(["as", "10d", "jk", "Jk", "3h", "qC"])) == ["AS", "TD", "JK", "JK", "3H", "QC"]


def test_canonical_order_is_naturals_high_to_low_then_threes_twos_joker() -> None:
    shuffled = ["4D", "JK", "2C", "AS", "3H", "KH", "TS", "3C", "5S", "2S", "AC"]
    ordered = cards_text(sorted(parse_cards(shuffled)))
    assert ordered == ["AS", "AC", "KH", "TS", "5S", "4D", "3H", "3C", "2S", "2C", "JK"]


def test_canonical_suit_order_within_a_rank_is_spades_hearts_diamonds_clubs() -> None:
    assert cards_text(sorted(parse_cards(["7C", "7D", "7S", "7H"]))) == ["7S", "7H", "7D", "7C"]


def test_full_deck_is_in_canonical_order() -> None:
    deck = full_deck(2)
    assert deck == sorted(deck)
    assert card_text(deck[0]) == "AS"
    assert card_text(deck[-1]) == "JK"


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("JK", 50), ("2S", 20), ("2H", 20), ("AS", 20), ("AD", 20),
        ("KH", 10), ("QS", 10), ("JC", 10), ("TD", 10), ("9S", 10), ("8H", 10),
        ("7D", 5), ("6C", 5), ("5S", 5), ("4H", 5), ("3S", 5), ("3C", 5),
    ],
)
def test_card_values(text: str, points: int) -> None:
    assert value(parse_card(text)) == points


def test_wild_natural_and_three_kinds() -> None:
    assert IS_WILD[parse_card("2D")] and IS_WILD[JOKER]
    assert not IS_WILD[parse_card("AS")] and not IS_WILD[parse_card("3S")]
    assert IS_NATURAL[parse_card("4C")] and IS_NATURAL[parse_card("AH")]
    assert not IS_NATURAL[parse_card("3S")] and not IS_NATURAL[parse_card("2S")] and not IS_NATURAL[JOKER]
    assert KIND[parse_card("3H")] == RED_THREE and KIND[parse_card("3D")] == RED_THREE
    assert KIND[parse_card("3S")] != RED_THREE and KIND[parse_card("3C")] != RED_THREE


@pytest.mark.parametrize(("decks", "size"), [(1, 54), (2, 108), (3, 162)])
def test_full_deck_sizes(decks: int, size: int) -> None:
    deck = full_deck(decks)
    assert len(deck) == size
    counts = Counter(deck)
    assert counts[JOKER] == 2 * decks
    assert all(counts[c] == decks for c in range(52))


def test_shuffled_deck_is_a_seeded_permutation_of_the_full_deck() -> None:
    a = shuffled_deck(random.Random(5), 2)
    b = shuffled_deck(random.Random(5), 2)
    c = shuffled_deck(random.Random(6), 2)
    assert a == b
    assert a != c
    assert sorted(a) == full_deck(2)
    assert len(shuffled_deck(random.Random(1), 3)) == 162


@pytest.mark.parametrize("bad", ["1X", "", " ", "ZZ", "A", "ASS", "11H", "1H", "J K", "KX", "XS", "JKK", "0S", "3"])
def test_bad_codes_raise_card_error(bad: str) -> None:
    with pytest.raises(CardError, match="unknown card"):
        parse_card(bad)


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)
    with pytest.raises(ValueError):
        parse_cards(["AS", "QQ"])


def test_copies_allowed_per_deck() -> None:
    assert copies_allowed(parse_card("AS"), 2) == 2
    assert copies_allowed(JOKER, 2) == 4
    assert copies_allowed(JOKER, 3) == 6


def test_check_multiplicity_refuses_too_many_copies() -> None:
    check_multiplicity(parse_cards(["AS", "AS", "JK", "JK", "JK", "JK"]), 2)
    with pytest.raises(CardError, match="3 copies of AS"):
        check_multiplicity(parse_cards(["AS", "AS", "AS"]), 2)
    with pytest.raises(CardError, match="JK"):
        check_multiplicity(parse_cards(["JK"] * 5), 2)
    check_multiplicity(parse_cards(["AS", "AS", "AS"]), 3)
