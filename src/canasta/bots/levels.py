"""Named levels (Beginner, Club, Expert, Master): the computer players a person chooses from.

Each level is a bot spec and one sentence of its strength measured by the ladder
(``docs/strength.md``, ``canasta ladder``).  A level's name works wherever a bot's name
does (:func:`canasta.bots.make_bot`, ``canasta play --seats``, the lobby, the server's seats),
in any case.  ``expert:OPTION=VALUE`` (several joined by ``+``) is the expert with some of
its :class:`~canasta.bots.expert.ExpertParams` changed (from the parameters it plays in that game),
which is how the Club level is made.

>>> [level.name for level in LEVELS]
['Beginner', 'Club', 'Expert', 'Master']
>>> find_level("club").bot
'expert:risk_weight=0'
>>> expert_params("expert:risk_weight=0+keep_natural_pairs=false").keep_natural_pairs
False
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ..errors import UnknownBotError
from .expert import ExpertParams


@dataclass(frozen=True)
class Level:
    """A named level: the bot that plays it and its measured strength in words."""

    name: str
    bot: str
    strength: str

    @property
    def kind(self) -> str:
        """The level in the seat language (``club``)."""
        return self.name.lower()


LEVELS: tuple[Level, ...] = (
    Level("Beginner", "basic",
          "plays the obvious moves: about 180 points a hand behind Expert, and wins 3 deals in 10 against it"),
    Level("Club", "expert:risk_weight=0",
          "the expert's plans without weighing what a discard gives away: 100 points a hand ahead of Beginner, "
          "90 behind Expert"),
    Level("Expert", "expert",
          "strategy-book play, counting every card seen: 180 points a hand ahead of Beginner, and wins 7 "
          "deals in 10 against it"),
    Level("Master", "search:100ms",
          "the expert plus 100 ms of simulated deals a move: about 150 points a hand ahead of Expert "
          "(95% interval +61 to +248), and wins 6 deals in 10 against it"),
)
"""The levels, weakest first.  The sentences are the pairs of ``docs/strength.md`` (classic, seed 16:
600 deals a pair, 100 for Master; measured with the compiled build that ``make play`` serves, on a
2-core machine at load 1.2, where 100 ms buys about 35 simulated deals a move, fewer than on a faster
one).  Master was ``search:300ms`` before: at four candidate moves more time bought nothing
measurable (``docs/search.md``), and 100 ms answers a meld turn three times sooner.  Every level
plays each game with the expert's parameters tuned for it (:func:`canasta.bots.expert.params_for`);
Club changes those, so it stays below Expert in every game, and Master searches with them, so it
stays above Expert in every game (the table of each preset in ``docs/strength.md``).  In
six-player-two-teams Club plays no better than Beginner (-7 points a hand, interval -38 to +24)."""

BOT_TEXT: dict[str, str] = {
    "random": "chooses uniformly among the legal moves",
    "basic": "a beginner: melds what it can, takes the pile when it can, discards what it needs least",
    "expert": "strategy-book play as named parameters (expert:OPTION=VALUE changes one), counting every card seen",
    "search": "the expert plus simulated deals of the hidden cards: search:300ms (time a move) or search:200 "
              "(simulated games a move)",
    "neural": "a trained network that judges the expert's best moves as the search would, without searching: "
              "35 to 50 points a hand ahead of expert (docs/neural.md); needs numpy: pip install 'canasta[rl]'",
    "neural-policy": "a trained network that imitates the expert's play, below the expert (for research)",
}
"""What each bot is, in one line (``canasta bots``)."""


def find_level(name: str) -> Level | None:
    """The level called ``name`` (any case), or None."""
    key = name.strip().lower()
    return next((level for level in LEVELS if level.kind == key), None)


def expert_changes(name: str) -> dict[str, object]:
    """The options changed in ``expert:OPTION=VALUE[+OPTION=VALUE...]``; :class:`UnknownBotError` names a bad one.

    The expert makes them to the parameters it plays in each game (:func:`~canasta.bots.expert.params_for`).
    """
    _, _, text = name.partition(":")
    known = {f.name: f for f in fields(ExpertParams)}
    changes: dict[str, object] = {}
    for item in text.split("+"):
        key, eq, raw = item.strip().partition("=")
        key, raw = key.strip(), raw.strip().lower()
        if not eq or key not in known:
            raise UnknownBotError(f"expert takes OPTION=VALUE with an ExpertParams option "
                                  f"(like expert:risk_weight=0), not {item.strip()!r}")
        kind = type(getattr(ExpertParams(), key))
        try:
            if kind is bool:
                if raw not in ("true", "false"):
                    raise ValueError(raw)
                changes[key] = raw == "true"
            else:
                changes[key] = kind(raw)
        except ValueError:
            raise UnknownBotError(f"expert option {key} takes a {kind.__name__}, not {raw!r}") from None
    return changes


def expert_params(name: str, base: ExpertParams | None = None) -> ExpertParams:
    """``base`` (the classic defaults unless given) with the changes of ``expert:OPTION=VALUE[+...]``."""
    return replace(base if base is not None else ExpertParams(), **expert_changes(name))  # type: ignore[arg-type]


__all__ = ["BOT_TEXT", "LEVELS", "Level", "expert_changes", "expert_params", "find_level"]
