"""Rules: presets, options and the numbers derived from them (RULES.md, "Presets", "Options", 6, 13)."""

from __future__ import annotations

from typing import Any

import pytest

from canasta import PRESETS, Rules, RulesError
from canasta.rules import OPTION_NAMES

# preset -> players, sides, cards dealt, decks, draw, canastas to go out, target (the RULES.md table)
PRESET_TABLE = {
    "classic": (4, 2, 11, 2, 1, 1, 5000),
    "two-player": (2, 2, 15, 2, 2, 2, 5000),
    "two-player-draw-one": (2, 2, 15, 2, 1, 2, 5000),
    "three-player": (3, 3, 13, 2, 1, 2, 7500),
    "six-player": (6, 3, 13, 3, 1, 2, 7500),
    "six-player-two-teams": (6, 2, 13, 3, 1, 2, 10000),
}


def test_every_preset_of_the_table_exists() -> None:
    assert set(PRESET_TABLE) <= set(PRESETS)


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_preset_numbers_match_the_rules_table(name: str) -> None:
    rules = Rules.from_preset(name)
    got = (rules.players, rules.sides, rules.hand_size, rules.decks, rules.draw, rules.canastas_to_go_out,
           rules.target)
    assert got == PRESET_TABLE[name]
    assert rules.preset == name
    assert rules.deck_size == 54 * rules.decks
    assert rules.red_three_count == 2 * rules.decks


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_preset_defaults_for_the_options(name: str) -> None:
    rules = Rules.from_preset(name)
    assert rules.black_three_upcard == "stays"
    assert rules.red_threes_at_deal is False
    assert rules.black_three_freezes is False
    assert rules.pile_always_frozen is False
    assert rules.two_naturals_to_take is False
    assert rules.no_pile_for_finished_canasta is False
    assert rules.wild_card_melds is False
    assert rules.wilds_at_most_naturals is False
    assert rules.concealed_bonus is True
    assert rules.ask_partner is True


def test_classic_is_the_default() -> None:
    assert Rules() == Rules.from_preset("classic") == Rules.parse("classic")


@pytest.mark.parametrize(
    ("score", "minimum"),
    [(-5, 15), (-1, 15), (-3000, 15), (0, 50), (5, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120),
     (4995, 120), (7500, 120), (12000, 120)],
)
def test_first_meld_minimum_by_score(score: int, minimum: int) -> None:
    assert Rules.from_preset("classic").minimum(score) == minimum


@pytest.mark.parametrize(
    ("score", "minimum"),
    [(-5, 15), (0, 50), (1500, 90), (3000, 120), (7495, 120), (7500, 150), (9995, 150)],
)
def test_six_player_two_teams_minimum_is_150_from_7500(score: int, minimum: int) -> None:
    assert Rules.from_preset("six-player-two-teams").minimum(score) == minimum


@pytest.mark.parametrize("name", ["two-player", "three-player", "six-player"])
def test_other_presets_stay_at_120_from_3000(name: str) -> None:
    assert Rules.from_preset(name).minimum(7500) == 120


def test_sides_and_partners() -> None:
    classic = Rules.from_preset("classic")
    assert [classic.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [classic.partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    six = Rules.from_preset("six-player")
    assert [six.side_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [six.partner_of(s) for s in range(6)] == [3, 4, 5, 0, 1, 2]
    teams = Rules.from_preset("six-player-two-teams")
    assert [teams.side_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert [teams.partner_of(s) for s in range(6)] == [2, 3, 4, 5, 0, 1]
    alone = Rules.from_preset("three-player")
    assert [alone.partner_of(s) for s in range(3)] == [None, None, None]
    assert Rules.from_preset("two-player").partner_of(0) is None


def test_options_change_a_preset() -> None:
    rules = Rules.from_preset("two-player", target=3000, black_three_upcard="cover", concealed_bonus=False)
    assert (rules.players, rules.draw, rules.target) == (2, 2, 3000)
    assert rules.black_three_upcard == "cover" and rules.concealed_bonus is False


def test_unknown_option_raises() -> None:
    with pytest.raises(RulesError, match="unknown rules option 'colour'"):
        Rules.from_preset("classic", colour="blue")


def test_structural_fields_are_not_options() -> None:
    with pytest.raises(RulesError, match="unknown rules option 'players'"):
        Rules.parse({"preset": "classic", "players": 6})


def test_unknown_preset_raises() -> None:
    with pytest.raises(RulesError, match="unknown preset 'bridge'"):
        Rules.from_preset("bridge")
    with pytest.raises(RulesError, match="unknown preset"):
        Rules.parse("Classic")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"draw": 3}, "draw"),
        ({"draw": 0}, "draw"),
        ({"target": 0}, "target"),
        ({"target": -500}, "target"),
        ({"target": 1.5}, "target"),
        ({"target": "5000"}, "target"),
        ({"target": True}, "target"),
        ({"hand_size": 30}, "hand_size"),
        ({"hand_size": 0}, "hand_size"),
        ({"decks": 0}, "decks"),
        ({"decks": 9}, "decks"),
        ({"canastas_to_go_out": 0}, "canastas_to_go_out"),
        ({"black_three_upcard": "x"}, "black_three_upcard"),
        ({"black_three_upcard": None}, "black_three_upcard"),
        ({"red_threes_at_deal": 1}, "red_threes_at_deal"),
        ({"concealed_bonus": 0}, "concealed_bonus"),
        ({"ask_partner": "yes"}, "ask_partner"),
        ({"pile_always_frozen": None}, "pile_always_frozen"),
        ({"wild_card_melds": True, "wild_canasta_bonus": -1}, "bonus"),
        ({"wild_card_melds": "yes"}, "wild_card_melds"),
    ],
)
def test_bad_option_values_raise(options: dict[str, Any], words: str) -> None:
    with pytest.raises(RulesError, match=words):
        Rules.from_preset("classic", **options)


def test_hand_size_must_leave_cards_for_pile_and_stock() -> None:
    Rules.from_preset("classic", hand_size=25)  # 100 of 108 dealt leaves 8
    with pytest.raises(RulesError, match="hand_size"):
        Rules.from_preset("classic", hand_size=26)
    with pytest.raises(RulesError, match="hand_size"):
        Rules.from_preset("six-player", decks=1)


def test_wild_card_meld_amounts_need_the_wild_card_melds_option() -> None:
    rules = Rules.from_preset("classic", wild_card_melds=True, wild_canasta_bonus=1500,
                              unfinished_wild_meld_penalty=1000)
    assert Rules.parse(rules.to_json()) == rules
    with pytest.raises(RulesError, match="wild_card_melds"):
        Rules.from_preset("classic", wild_canasta_bonus=1500)


def test_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)


def test_parse_a_preset_name_or_an_object() -> None:
    assert Rules.parse("two-player") == PRESETS["two-player"]
    rules = Rules.parse({"preset": "three-player", "target": 2000, "ask_partner": False})
    assert rules.preset == "three-player" and rules.players == 3
    assert rules.target == 2000 and rules.ask_partner is False
    assert Rules.parse({"target": 1000}) == Rules.from_preset("classic", target=1000)
    assert Rules.parse(rules) is rules


@pytest.mark.parametrize("spec", [5, None, ["classic"], {"preset": 5}, {"preset": "nope"}, {"nope": 1}])
def test_parse_refuses_what_is_not_rules(spec: object) -> None:
    with pytest.raises(RulesError):
        Rules.parse(spec)


def test_to_json_of_an_unchanged_preset_is_its_name() -> None:
    for name in PRESETS:
        assert Rules.from_preset(name).to_json() == name


def test_to_json_lists_only_changed_options() -> None:
    rules = Rules.from_preset("two-player", target=3000, black_three_freezes=True)
    assert rules.to_json() == {"preset": "two-player", "target": 3000, "black_three_freezes": True}


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
@pytest.mark.parametrize(
    "options",
    [{}, {"target": 1000}, {"draw": 2, "red_threes_at_deal": True}, {"black_three_upcard": "cover"},
     {"pile_always_frozen": True, "two_naturals_to_take": True, "no_pile_for_finished_canasta": True,
      "wilds_at_most_naturals": True, "concealed_bonus": False, "ask_partner": False}],
)
def test_to_json_round_trip(name: str, options: dict[str, Any]) -> None:
    rules = Rules.from_preset(name, **options)
    assert Rules.parse(rules.to_json()) == rules


def test_every_option_name_is_a_field() -> None:
    fields = Rules.__dataclass_fields__
    assert all(name in fields for name in OPTION_NAMES)


def test_rules_are_frozen() -> None:
    rules = Rules.from_preset("classic")
    with pytest.raises(AttributeError):
        rules.target = 100  # type: ignore[misc]


@pytest.mark.parametrize(("count", "points"), [(0, 0), (1, 100), (2, 200), (3, 300), (4, 800)])
def test_red_three_points_two_decks(count: int, points: int) -> None:
    assert Rules.from_preset("classic").red_three_points(count) == points


@pytest.mark.parametrize(("count", "points"), [(0, 0), (1, 100), (3, 300), (4, 400), (5, 1000), (6, 1200)])
@pytest.mark.parametrize("name", ["six-player", "six-player-two-teams"])
def test_red_three_points_three_decks(name: str, count: int, points: int) -> None:
    assert Rules.from_preset(name).red_three_points(count) == points
