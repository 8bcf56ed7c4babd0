"""The rules of one game: a preset plus options (RULES.md, "Presets" and "Options").

``Rules`` is frozen: build it once with :meth:`Rules.from_preset` or :meth:`Rules.parse`
and share it.  The default, ``classic``, follows the seed document 000: four players in
two sides, 108 cards, 11 each, one canasta to go out, game to 5,000.

>>> Rules.from_preset("classic").minimum(1500)
90
>>> Rules.from_preset("classic", target=7500).target
7500
>>> Rules.from_preset("classic", colour="blue")
Traceback (most recent call last):
...
canasta.errors.RulesError: unknown rules option 'colour' (known options: ask_partner, ...)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import RulesError

# (score from which it applies, minimum): below 0 -> 15, 0 -> 50, 1500 -> 90, 3000 -> 120.
CLASSIC_MINIMUMS: tuple[tuple[int, int], ...] = ((0, 50), (1500, 90), (3000, 120))
BELOW_ZERO_MINIMUM = 15

OPTION_NAMES = (
    "target", "draw", "hand_size", "decks", "canastas_to_go_out", "black_three_upcard",
    "red_threes_at_deal", "black_three_freezes", "pile_always_frozen", "two_naturals_to_take",
    "no_pile_for_finished_canasta", "wild_card_melds", "wild_canasta_bonus",
    "unfinished_wild_meld_penalty", "wilds_at_most_naturals", "concealed_bonus", "ask_partner",
)



@dataclass(frozen=True)
class Rules:
    """Every rule that varies between tables; the defaults are the classic game."""

    preset: str = "classic"
    players: int = 4
    sides: int = 2
    hand_size: int = 11
    decks: int = 2
    draw: int = 1
    canastas_to_go_out: int = 1
    target: int = 5000
    black_three_upcard: str = "stays"
    red_threes_at_deal: bool = False
    black_three_freezes: bool = False
    pile_always_frozen: bool = False
    two_naturals_to_take: bool = False
    no_pile_for_finished_canasta: bool = False
    wild_card_melds: bool = False
    wild_canasta_bonus: int = 2000
    unfinished_wild_meld_penalty: int = 0
    wilds_at_most_naturals: bool = False
    concealed_bonus: bool = True
    ask_partner: bool = True
    minimums: tuple[tuple[int, int], ...] = CLASSIC_MINIMUMS
    sit_out: int = 0  # players of the larger side who sit out each hand (five-player: 1)

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_preset(cls, preset: str = "classic", **options: Any) -> Rules:
        """The rules of a preset with some options changed."""
        base = PRESETS.get(preset)
        if base is None:
            raise RulesError(f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})")
        for name in options:
            if name not in OPTION_NAMES:
                raise RulesError(
                    f"unknown rules option {name!r} (known options: {', '.join(sorted(OPTION_NAMES))})"
                )
        rules = dataclasses.replace(base, **options) if options else base
        rules.validate()
        return rules

    @classmethod
    def parse(cls, spec: object) -> Rules:
        """Rules from a position's ``rules`` field: a preset name or ``{"preset": ..., OPTION: VALUE}``."""
        if isinstance(spec, Rules):
            return spec
        if isinstance(spec, str):
            return cls.from_preset(spec)
        if isinstance(spec, Mapping):
            options = dict(spec)
            preset = options.pop("preset", "classic")
            if not isinstance(preset, str):
                raise RulesError(f"the preset must be a name, not {preset!r}")
            return cls.from_preset(preset, **options)
        raise RulesError(f"rules must be a preset name or an object, not {spec!r}")

    def to_json(self) -> str | dict[str, Any]:
        """The shortest form that parses back: the preset name, or the preset plus changed options."""
        base = PRESETS[self.preset]
        changed = {n: getattr(self, n) for n in OPTION_NAMES if getattr(self, n) != getattr(base, n)}
        if not changed:
            return self.preset
        return {"preset": self.preset, **changed}

    def validate(self) -> None:
        """Raise :class:`RulesError` naming the first option out of range."""
        for name in ("red_threes_at_deal", "black_three_freezes", "pile_always_frozen",
                     "two_naturals_to_take", "no_pile_for_finished_canasta", "wild_card_melds",
                     "wilds_at_most_naturals", "concealed_bonus", "ask_partner"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"option {name} must be true or false, not {getattr(self, name)!r}")
        for name in ("target", "draw", "hand_size", "decks", "canastas_to_go_out",
                     "wild_canasta_bonus", "unfinished_wild_meld_penalty"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise RulesError(f"option {name} must be a whole number, not {v!r}")
        if self.target <= 0:
            raise RulesError(f"option target must be positive, not {self.target}")
        if self.draw not in (1, 2):
            raise RulesError(f"option draw must be 1 or 2 cards, not {self.draw}")
        if not 1 <= self.decks <= 4:
            raise RulesError(f"option decks must be from 1 to 4, not {self.decks}")
        if not 1 <= self.canastas_to_go_out <= 5:
            raise RulesError(f"option canastas_to_go_out must be from 1 to 5, not {self.canastas_to_go_out}")
        cards = 54 * self.decks
        if not 1 <= self.hand_size or self.seated * self.hand_size + 8 > cards:
            raise RulesError(
                f"option hand_size {self.hand_size} does not fit: {self.seated} hands of it "
                f"leave too few of the {cards} cards for the pile and the stock"
            )
        if self.black_three_upcard not in ("stays", "cover"):
            raise RulesError(
                f"option black_three_upcard must be \"stays\" or \"cover\", not {self.black_three_upcard!r}"
            )
        if self.wild_canasta_bonus < 0 or self.unfinished_wild_meld_penalty < 0:
            raise RulesError("wild card meld bonus and penalty are amounts of points, 0 or more")
        if not self.wild_card_melds and (self.wild_canasta_bonus != 2000 or self.unfinished_wild_meld_penalty):
            raise RulesError(
                "wild_canasta_bonus and unfinished_wild_meld_penalty apply only with wild_card_melds=true"
            )

    # -- derived facts ------------------------------------------------------------------

    def minimum(self, score: int) -> int:
        """The first-meld minimum for a side whose match total is ``score``."""
        if score < 0:
            return BELOW_ZERO_MINIMUM
        result = BELOW_ZERO_MINIMUM
        for start, minimum in self.minimums:
            if score >= start:
                result = minimum
        return result

    @property
    def seated(self) -> int:
        """Players dealt in each hand."""
        return self.players - self.sit_out

    def side_of(self, seat: int) -> int:
        """The side a seat plays for (NOTATION.md: ``seat % sides``)."""
        return seat % self.sides

    def partner_of(self, seat: int) -> int | None:
        """The next seat clockwise on the same side, or None for a player alone (NOTATION.md).

        In the five-player game the seat sitting out is skipped: see ``GameState.partners``.
        """
        for step in range(1, self.players):
            other = (seat + step) % self.players
            if other % self.sides == seat % self.sides:
                return other
        return None

    @property
    def deck_size(self) -> int:
        """Cards in the deck: 54 per deck (52 and two jokers)."""
        return 54 * self.decks

    @property
    def red_three_count(self) -> int:
        """Red threes in the deck."""
        return 2 * self.decks

    def red_three_points(self, count: int) -> int:
        """Bonus for ``count`` red threes laid out by one side (before any penalty sign).

        100 each; all four of two decks 800; with three decks 1,000 for five and 1,200 for six.
        """
        if count >= 5 or (count == self.red_three_count and count > 0):
            return 200 * count
        return 100 * count


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "two-player": Rules(preset="two-player", players=2, sides=2, hand_size=15, draw=2,
                        canastas_to_go_out=2),
    "two-player-draw-one": Rules(preset="two-player-draw-one", players=2, sides=2,
                                 hand_size=15, draw=1, canastas_to_go_out=2),
    "three-player": Rules(preset="three-player", players=3, sides=3, hand_size=13,
                          canastas_to_go_out=2, target=7500),
    "five-player": Rules(preset="five-player", players=5, sides=2, sit_out=1),
    "six-player": Rules(preset="six-player", players=6, sides=3, hand_size=13, decks=3,
                        canastas_to_go_out=2, target=7500),
    "six-player-two-teams": Rules(preset="six-player-two-teams", players=6, sides=2,
                                  hand_size=13, decks=3, canastas_to_go_out=2, target=10000,
                                  minimums=CLASSIC_MINIMUMS + ((7500, 150),)),
}
"""Every preset of RULES.md by name."""


def parse_option_value(text: str) -> bool | int | str:
    """An option's value from text: ``true``/``false``, a whole number (``7,500`` too), else the text.

    The one option-value parser of the command line, the OpenSpiel parameters and the lobby.

    >>> parse_option_value("TRUE"), parse_option_value("7,500"), parse_option_value("a4")
    (True, 7500, 'a4')
    """
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(text.strip().replace(",", "").replace("_", ""))
    except ValueError:
        return text.strip()


def rules_from_settings(preset: str, settings: Sequence[str], target: int | None = None) -> Rules:
    """Rules from a preset name and ``OPTION=VALUE`` texts (the command line's ``--set``, a URL's ``set=``).

    >>> rules_from_settings("classic", ["target=7,500"]).target
    7500
    """
    options: dict[str, object] = {}
    for item in settings:
        name, eq, value = item.partition("=")
        if not eq:
            raise RulesError(f"--set takes OPTION=VALUE, not {item!r} (options: {', '.join(OPTION_NAMES)})")
        options[name.strip()] = parse_option_value(value)
    if target is not None:
        options["target"] = target
    return Rules.from_preset(preset, **options)
