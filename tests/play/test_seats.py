"""One seat language for ``canasta play --seats``, the web lobby and save files (``canasta.play.seats``)."""

from __future__ import annotations

import pytest

from canasta.errors import SeatError
from canasta.play import HUMAN, Seat, parse_seats
from canasta.rules import Rules

RULES = Rules()


def test_words_and_lobby_objects_are_one_language() -> None:
    words = parse_seats(["human:Ann", "expert", "human", "search:100ms"], RULES)
    objects = parse_seats([{"kind": "human", "name": "Ann"}, {"kind": "expert"}, {"kind": "human"},
                           {"kind": "search:100ms"}], RULES)
    assert words == objects == [Seat(0, HUMAN, "Ann"), Seat(1, "expert", "Expert 2"), Seat(2, HUMAN, "Player 3"),
                                Seat(3, "search:100ms", "Search 4")]


@pytest.mark.parametrize("word", ["you", "You", " human ", "HUMAN"])
def test_you_is_still_a_person(word: str) -> None:
    assert parse_seats([word, "basic", "basic", "basic"], RULES)[0] == Seat(0, HUMAN, "You")
    assert parse_seats([f"{word.strip()}:Bo", "basic", "basic", "basic"], RULES)[0].name == "Bo"


def test_one_naming_scheme() -> None:
    alone = parse_seats(None, RULES)
    assert [s.name for s in alone] == ["You", "Expert 2", "Expert 3", "Expert 4"]
    shared = parse_seats(None, RULES, shared=True)  # a table over the network: nobody is "You"
    assert [s.name for s in shared] == ["Player 1", "Expert 2", "Expert 3", "Expert 4"]
    two = parse_seats(["human", "random", "human", "basic"], RULES)
    assert [s.name for s in two] == ["Player 1", "Random 2", "Player 3", "Basic 4"]


def test_a_seat_prints_as_the_word_that_parses_back() -> None:
    seats = parse_seats(["human:Ann", "search:200", "human", "basic"], RULES)
    again = parse_seats([s.spec for s in seats], RULES)
    assert again == seats


@pytest.mark.parametrize(
    ("specs", "words"),
    [
        (["human", "basic"], "classic seats 4 players, not 2"),
        (["human", "wizard", "basic", "basic"], "seat 2: unknown computer player 'wizard'"),
        (["human:", "basic", "basic", "basic"], "give a name after 'human'"),
        (["human", "search:fast", "basic", "basic"], "seat 2:"),
        (["human", "", "basic", "basic"], "seat 2 is empty"),
        ([{"name": "Ann"}, "basic", "basic", "basic"], "seat 1 must be an object with a kind"),
        ([{"kind": "human", "name": "x" * 40}, "basic", "basic", "basic"], "at most 24 characters"),
        (["human", "policy:nothing.npz", "basic", "basic"], "unknown computer player 'policy:nothing.npz'"),
        ("human,basic,basic,basic", "a list of 4"),
    ],
)
def test_bad_seats_are_one_seat_error(specs: object, words: str) -> None:
    with pytest.raises(SeatError, match=None) as caught:
        parse_seats(specs, RULES)  # type: ignore[arg-type]
    assert words in str(caught.value) and "\n" not in str(caught.value)
