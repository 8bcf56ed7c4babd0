"""Computer players.  A bot sees one seat's :class:`~canasta.views.View` and the legal moves, never the state.

>>> sorted(BOTS)
['basic', 'expert', 'random', 'search']
>>> make_bot("search:100ms").budget
Budget(seconds=0.1, rollouts=None)
>>> make_bot("Club").changes  # a level (canasta.bots.levels) by its name: the expert, changed in every game
{'risk_weight': 0.0}
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Protocol

from ..errors import UnknownBotError
from ..moves import Move
from ..views import View
from .basic import BasicBot
from .expert import ExpertBot, ExpertParams
from .levels import LEVELS, Level, expert_changes, find_level
from .randombot import RandomBot
from .search import Budget, SearchBot, parse_search


class Bot(Protocol):
    """Chooses a move for its seat from what that seat may know."""

    name: str
    slow: bool
    """True for a bot that may think long (``search``): front ends run it off their event loop."""

    def choose(self, view: View, moves: Sequence[Move]) -> Move:
        """One of ``moves``."""
        ...


BOTS: dict[str, Callable[[random.Random], Bot]] = {
    "random": RandomBot,
    "basic": BasicBot,
    "expert": ExpertBot,
    "search": SearchBot,
}
"""Every bot by name; ``search`` also takes a budget after a colon (``search:100ms``, ``search:200``)."""


def make_bot(name: str, rng: random.Random | None = None, files: bool = False) -> Bot:
    """A bot by its registered name, ``search`` with an optional budget (``search:1s``),
    ``expert:OPTION=VALUE`` (changed :class:`ExpertParams`), or a level's name (``beginner``, ``Master``).

    Plain names not in :data:`BOTS` are looked up in the entry-point group ``canasta.bots``
    (``neural``: the learned player, which needs numpy).

    With ``files=True`` (local tools: the arena, terminal play, the learning environments)
    ``policy:FILE`` is also a bot: a policy saved by :meth:`canasta.rl.policy.MaskedMLP.save`
    playing through :class:`canasta.rl.policybot.PolicyBot`, and so is ``q:FILE``, a value network
    saved by ``python -m canasta.rl.train_q`` (:class:`canasta.rl.qvalue.QBot`); both register
    under the entry-point group ``canasta.file_bots``.  A server never passes it.
    Raises :class:`~canasta.errors.UnknownBotError` for a name no bot answers to (or a bad budget).
    """
    base, colon, rest = name.partition(":")
    rng = rng if rng is not None else random.Random()
    level = find_level(name) if name not in BOTS else None
    if level is not None:
        return make_bot(level.bot, rng, files)
    if colon and base == "search":
        budget, workers, weighted, candidates, melds = parse_search(name)
        if workers > 1 and not files:
            raise UnknownBotError(f"a search across processes is for local tools only: {name!r}")
        bot = SearchBot(rng, budget, candidates=candidates, workers=workers, weighted=weighted, melds=melds)
        bot.name = name
        return bot
    if colon and base == "expert":
        expert = ExpertBot(rng, changes=expert_changes(name))
        expert.name = name
        return expert
    if colon and files:
        plugin = _file_bot(base)
        if plugin is not None:
            return plugin(rest, rng, name)
    factory = BOTS.get(name)
    if factory is None and not colon:
        factory = _plugin_bot(name)
    if factory is None:
        policy = "; policy:FILE plays a saved policy, q:FILE a saved value network" if files else ""
        levels = ", ".join(level.kind for level in LEVELS)
        known = sorted([*BOTS, *(point.name for point in entry_points(group=PLUGIN_BOTS))])
        raise UnknownBotError(f"unknown computer player {name!r} (known: {', '.join(known)}; "
                              f"levels: {levels}; search takes a budget, like search:100ms or search:200{policy})")
    return factory(rng)


PLUGIN_BOTS = "canasta.bots"
"""The entry-point group of further bots by plain name (``neural``, from ``canasta.rl.qvalue``, needs numpy)."""


def _plugin_bot(name: str) -> Callable[[random.Random], Bot] | None:
    """The factory registered under ``name`` in :data:`PLUGIN_BOTS`, or None."""
    for point in entry_points(group=PLUGIN_BOTS, name=name):
        try:
            factory: Callable[[random.Random], Bot] = point.load()
        except ImportError as exc:
            raise UnknownBotError(f"{name} needs {exc.name or 'an extra'}: pip install 'canasta[rl]'") from None
        return factory
    return None


FILE_BOTS = "canasta.file_bots"
"""The entry-point group of bots read from a file (``policy:FILE``, ``q:FILE``); other packages register theirs."""


def _file_bot(kind: str) -> Callable[[str, random.Random, str], Bot] | None:
    """The factory registered for ``KIND:FILE`` bots, found by entry point so that bots import no front end."""
    for point in entry_points(group=FILE_BOTS, name=kind):
        try:
            factory: Callable[[str, random.Random, str], Bot] = point.load()
        except ImportError as exc:
            raise UnknownBotError(f"{kind}:FILE needs {exc.name or 'an extra'}: pip install 'canasta[rl]'") from None
        return factory
    return None


__all__ = ["BOTS", "LEVELS", "BasicBot", "Bot", "Budget", "ExpertBot", "ExpertParams", "Level", "RandomBot",
           "SearchBot", "find_level", "make_bot"]
