"""The words of every rules option (canasta.text.options) agree with what the engine accepts."""

from __future__ import annotations

import pytest

from canasta import Rules, RulesError
from canasta.rules import OPTION_NAMES, PRESETS
from canasta.text.options import OPTIONS, WILD_MELD_OPTIONS, in_force


def build(name: str, value: object) -> Rules:
    extra: dict[str, object] = {"wild_card_melds": True} if name in WILD_MELD_OPTIONS else {}
    return Rules.from_preset("classic", **extra, **{name: value})


def test_every_option_has_its_words() -> None:
    assert tuple(OPTIONS) == OPTION_NAMES
    for option in OPTIONS.values():
        assert option.meaning and option.values and not option.label[:1].islower()


@pytest.mark.parametrize("name", [n for n in OPTION_NAMES if OPTIONS[n].bounds is not None])
def test_the_bounds_written_are_the_bounds_the_engine_takes(name: str) -> None:
    bounds = OPTIONS[name].bounds
    assert bounds is not None
    low, high = bounds
    assert getattr(build(name, low), name) == low
    with pytest.raises(RulesError):
        build(name, low - 1)
    if high is not None:
        assert getattr(build(name, high), name) == high
        with pytest.raises(RulesError):
            build(name, high + 1)


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_the_kind_of_value_written_is_the_kind_the_engine_takes(name: str) -> None:
    option = OPTIONS[name]
    classic = getattr(PRESETS["classic"], name)
    if isinstance(classic, bool):
        assert option.values == "true or false" and option.bounds is None
        assert {build(name, v).__getattribute__(name) for v in (True, False)} == {True, False}
        with pytest.raises(RulesError):
            build(name, 1)
    elif isinstance(classic, int):
        assert option.bounds is not None
    else:
        assert option.choices and all(getattr(build(name, c), name) == c for c in option.choices)
        assert all(c in option.values for c in option.choices)
        with pytest.raises(RulesError):
            build(name, "sideways")


def test_options_in_force_read_as_words() -> None:
    rows = {option.name: (words, changed) for option, words, changed in in_force(Rules.from_preset("classic"))}
    assert rows["black_three_upcard"] == ("stays on the pile", False)
    assert rows["ask_partner"] == ("yes", False) and rows["target"] == ("5,000", False)
    assert "wild_canasta_bonus" not in rows  # no effect without wild_card_melds
    rows = {o.name: (w, c) for o, w, c in in_force(Rules.from_preset("six-player", wild_card_melds=True))}
    assert rows["wild_card_melds"] == ("yes", True) and rows["target"] == ("7,500", False)
    assert rows["wild_canasta_bonus"] == ("2,000", False)
