"""What every rules option means, the values it takes and its default: the one description of each.

``canasta rules --options`` prints :func:`options_help`; the rules page's "Differences from
classic" and the rule sheet's "Options in force" take their words from :data:`OPTIONS`.
The names are :data:`canasta.rules.OPTION_NAMES`, the defaults come from
:data:`canasta.rules.PRESETS`, and the values written here are those
:meth:`canasta.rules.Rules.validate` accepts (``tests/engine/test_options.py`` tries each
bound on the engine), following ``shared/spec/RULES.md`` ("Options").

>>> OPTIONS["black_three_upcard"].words("stays")
'stays on the pile'
>>> default_text("target")
'5,000; 7,500 in three-player and six-player; 10,000 in six-player-two-teams'
>>> default_text("ask_partner")
'true'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..rules import OPTION_NAMES, PRESETS, Rules

YES_NO: Mapping[object, str] = {True: "yes", False: "no"}


@dataclass(frozen=True)
class Option:
    """One option of ``--set OPTION=VALUE``.

    ``meaning`` says what it changes (the rules page shows it beside the name), ``values``
    what ``--set`` takes, ``label`` how a table reads it on paper (``label: yes``), and
    ``names`` the words for some values (``yes``/``no`` for a true-or-false option).
    ``bounds`` is the lowest and highest whole number taken (None: no highest).
    """

    name: str
    meaning: str
    values: str
    label: str
    names: Mapping[object, str] = field(default_factory=dict)
    bounds: tuple[int, int | None] | None = None
    choices: tuple[str, ...] = ()

    def words(self, value: object) -> str:
        """A value as a table reads it: ``yes``, ``stays on the pile``, ``5,000``."""
        if isinstance(value, bool):
            return self.names.get(value, str(value).lower())
        if isinstance(value, int):
            return f"{value:,}"
        return self.names.get(value, str(value))


def _flag(name: str, meaning: str, label: str) -> Option:
    return Option(name, meaning, "true or false", label, YES_NO)


OPTIONS: dict[str, Option] = {o.name: o for o in (
    Option("target", "points that win the match", "a whole number above 0 (a browser game offers 1,000 to "
           "10,000)", "Points to win the match", bounds=(1, None)),
    Option("draw", "cards drawn from the stock each turn", "1 or 2", "Cards drawn from the stock",
           bounds=(1, 2)),
    Option("hand_size", "cards dealt to each player", "a whole number from 1, as long as 8 cards are left "
           "for the pile and the stock (players x hand_size + 8 <= 54 x decks)", "Cards dealt to each player",
           bounds=(1, None)),
    Option("decks", "decks shuffled together", "1 to 4 decks of 54 cards (52 and two jokers)", "Decks", bounds=(1, 4)),
    Option("canastas_to_go_out", "canastas a side needs to go out", "1 to 5", "Canastas needed to go out",
           bounds=(1, 5)),
    Option("black_three_upcard", "a black three as the upcard", "stays (it stays on top, and the first "
           "player may not take the pile) or cover (it is covered like a wild card, and the pile is frozen)",
           "A black three upcard", {"stays": "stays on the pile", "cover": "is covered"},
           choices=("stays", "cover")),
    _flag("red_threes_at_deal", "red threes laid out right after the deal",
          "Red threes laid out right after the deal"),
    _flag("black_three_freezes", "a black three in the pile freezes it", "A discarded black three freezes the pile"),
    _flag("pile_always_frozen", "the pile is always frozen", "Pile always frozen"),
    _flag("two_naturals_to_take", "even an unfrozen pile needs two natural cards from the hand",
          "Natural pair needed even for an unfrozen pile"),
    _flag("no_pile_for_finished_canasta", "no taking the pile just to add to a finished canasta",
          "No pile just to add to a finished canasta"),
    _flag("wild_card_melds", "melds of wild cards only", "Melds of wild cards only"),
    Option("wild_canasta_bonus", "bonus for a canasta of wild cards", "a whole number, 0 or more; only with "
           "wild_card_melds=true", "Canasta of wild cards", bounds=(0, None)),
    Option("unfinished_wild_meld_penalty", "penalty for an unfinished meld of wild cards", "a whole number, 0 "
           "or more (1,000 in some groups); only with wild_card_melds=true", "Unfinished wild meld costs",
           bounds=(0, None)),
    _flag("wilds_at_most_naturals", "a meld holds no more wild cards than natural ones",
          "Never more wild than natural cards in a meld"),
    _flag("concealed_bonus", "200 instead of 100 for going out concealed", "200 for going out concealed"),
    _flag("ask_partner", "asking the partner before going out", "Ask partner before going out"),
)}
"""Every option of :data:`canasta.rules.OPTION_NAMES`, in that order."""

WILD_MELD_OPTIONS = ("wild_canasta_bonus", "unfinished_wild_meld_penalty")
"""Options that change nothing unless ``wild_card_melds`` is true."""


def setting(value: object) -> str:
    """A value as ``--set`` takes it: ``true``, ``5,000``, ``cover``."""
    if isinstance(value, bool):
        return str(value).lower()
    return f"{value:,}" if isinstance(value, int) else str(value)


def default_text(name: str) -> str:
    """An option's default as ``--set`` takes it: classic's value, then the presets that differ from it."""
    classic = getattr(PRESETS["classic"], name)
    others: dict[object, list[str]] = {}
    for preset, rules in PRESETS.items():
        value = getattr(rules, name)
        if value != classic:
            others.setdefault(value, []).append(preset)
    parts = [setting(classic)] + [f"{setting(v)} in {_join(p)}" for v, p in others.items()]
    return "; ".join(parts)


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def options_help(width: int = 79) -> str:
    """Every option of ``--set OPTION=VALUE``: its meaning, its values and its default."""
    import textwrap

    lines = ["Rules options, set on top of any preset with --set OPTION=VALUE (repeatable), for example",
             "  canasta rules classic --set target=7500 --set black_three_upcard=cover", ""]
    indent = " " * 4
    for name in OPTION_NAMES:
        option = OPTIONS[name]
        lines.append(f"{name}: {option.meaning}")
        for key, text in (("values", option.values), ("default", default_text(name))):
            lines += textwrap.wrap(f"{key}: {text}", width, initial_indent=indent, subsequent_indent=indent * 2,
                                   break_on_hyphens=False)
    return "\n".join(lines) + "\n"


def in_force(rules: Rules) -> list[tuple[Option, str, bool]]:
    """The options of ``rules`` as a table reads them: (option, value in words, set on top of the preset).

    The wild-meld numbers are left out while ``wild_card_melds`` is false, since they change nothing.
    """
    base = PRESETS.get(rules.preset, PRESETS["classic"])
    return [(OPTIONS[n], OPTIONS[n].words(getattr(rules, n)), getattr(rules, n) != getattr(base, n))
            for n in OPTION_NAMES if rules.wild_card_melds or n not in WILD_MELD_OPTIONS]


__all__ = ["OPTIONS", "WILD_MELD_OPTIONS", "Option", "default_text", "in_force", "options_help", "setting"]
