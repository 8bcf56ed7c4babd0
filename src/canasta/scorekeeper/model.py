"""A scorekeeper for a game played with real cards (seed 000's score sheet and scorekeeper).

Each hand, every side's score is entered either as a total or item by item (canastas,
red threes, going out, card points melded and left in hand); the items are added up by
:class:`canasta.scoring.SideScore`, the engine's own arithmetic.  The keeper shows the
running totals, each side's first-meld minimum for the next deal (``Rules.minimum``) and
the winner (``scoring.match_winner``).  Pure standard library; saved as one JSON object.

>>> game = ScoreGame.new(Rules.from_preset("classic"))
>>> game.add([Itemised(natural=1, mixed=1, red_threes=2, out="out", melded=250, in_hand=35), -200])
>>> game.totals(), game.minimums()
((1315, -200), (50, 15))
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ..errors import CanastaError, RulesError
from ..jsonfile import read_json
from ..rules import Rules
from ..scoring import OutKind, SideScore, match_winner, side_score

FORMAT = "canasta-score"
VERSION = 1
OUT_CHOICES = ("", "out", "concealed")
"""How a side's hand ended: nobody of it went out, a player went out, or went out concealed."""
SIDES = (2, 3)
POINT_STEP = 5  # every card value and bonus is a multiple of 5, so is every total
MAX_NAME = 40

ITEM_LABELS: dict[str, str] = {
    "natural": "natural canastas",
    "mixed": "mixed canastas",
    "wild": "canastas of wild cards",
    "red_threes": "red threes",
    "out": "going out",
    "melded": "card points melded",
    "in_hand": "card points left in hand",
    "unfinished_wild": "unfinished meld of wild cards",
}
"""Each item of an itemised entry, as the terminal and the page name it."""


class ScoreError(CanastaError):
    """A hand, a correction or a scorekeeper file that cannot be accepted; the message is one line."""


@dataclass(frozen=True, slots=True)
class Itemised:
    """One side's hand, item by item; red threes count against the side when it melded nothing."""

    natural: int = 0
    mixed: int = 0
    wild: int = 0
    red_threes: int = 0
    out: str = ""
    melded: int = 0
    in_hand: int = 0
    unfinished_wild: bool = False

    @property
    def canastas(self) -> int:
        """Canastas of every kind."""
        return self.natural + self.mixed + self.wild

    def check(self, rules: Rules) -> None:
        """Raise :class:`ScoreError` naming the first item that cannot be right under ``rules``."""
        for name in ("natural", "mixed", "wild", "red_threes", "melded", "in_hand"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ScoreError(f"{ITEM_LABELS[name]} must be a whole number, 0 or more, not {value!r}")
        for name in ("melded", "in_hand"):
            if getattr(self, name) % POINT_STEP:
                raise ScoreError(f"{ITEM_LABELS[name]} must be a multiple of {POINT_STEP}, not {getattr(self, name)}")
        if self.out not in OUT_CHOICES:
            raise ScoreError(f"going out must be one of 'out', 'concealed' or nothing, not {self.out!r}")
        if not isinstance(self.unfinished_wild, bool):
            raise ScoreError(f"{ITEM_LABELS['unfinished_wild']} must be true or false, not {self.unfinished_wild!r}")
        if (self.wild or self.unfinished_wild) and not rules.wild_card_melds:
            raise ScoreError("melds of wild cards count only with the option wild_card_melds=true")
        if self.red_threes > rules.red_three_count:
            raise ScoreError(f"there are only {rules.red_three_count} red threes, not {self.red_threes}")
        if self.out and self.canastas < rules.canastas_to_go_out:
            need = rules.canastas_to_go_out
            raise ScoreError(f"going out needs {need} canasta{'s' if need > 1 else ''}, and this side has "
                             f"{self.canastas}")
        if (self.canastas or self.unfinished_wild) and not self.melded:
            raise ScoreError("a side with melds has card points melded: give them")

    def score(self, rules: Rules) -> SideScore:
        """The side's score, item by item, as the engine adds it up."""
        self.check(rules)
        out: OutKind = "concealed" if self.out == "concealed" else "out" if self.out else ""
        return side_score(
            rules, natural=self.natural, mixed=self.mixed, wild=self.wild, unfinished_wild=self.unfinished_wild,
            red_threes=self.red_threes, has_melded=self.melded > 0, out=out, melded=self.melded, in_hand=self.in_hand,
        )

    def to_json(self) -> dict[str, Any]:
        """Every item by name."""
        return asdict(self)


Entry = int | Itemised
"""One side's entry for one hand: its total, or its items."""


def entry_to_json(entry: Entry) -> dict[str, Any]:
    """``{"total": N}`` or the items."""
    return {"total": entry} if isinstance(entry, int) else entry.to_json()


def entry_from_json(data: object) -> Entry:
    """An entry from ``{"total": N}``, a bare number, or an object of items."""
    if isinstance(data, int) and not isinstance(data, bool):
        return data
    if not isinstance(data, dict):
        raise ScoreError(f"an entry is a number or an object, not {data!r}")
    if "total" in data:
        if set(data) != {"total"}:
            raise ScoreError("an entry has a total or items, not both")
        total = data["total"]
        if not isinstance(total, int) or isinstance(total, bool):
            raise ScoreError(f"a hand total must be a whole number, not {total!r}")
        return total
    known = {f.name for f in fields(Itemised)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ScoreError(f"unknown item {unknown[0]!r} (items: total, {', '.join(sorted(known))})")
    return Itemised(**data)


def entry_score(rules: Rules, entry: Entry) -> SideScore | None:
    """The itemised score of an entry, or None for an entry given as a total."""
    return None if isinstance(entry, int) else entry.score(rules)


def entry_total(rules: Rules, entry: Entry) -> int:
    """The hand total of an entry."""
    if isinstance(entry, int):
        if entry % POINT_STEP:
            raise ScoreError(f"a hand total is a multiple of {POINT_STEP}, not {entry}")
        return entry
    return entry.score(rules).total


def check_hand(rules: Rules, entries: Sequence[Entry], sides: int,
               names: Sequence[str] | None = None) -> tuple[int, ...]:
    """Each side's total for one hand, or :class:`ScoreError` naming the side that is wrong (by ``names``)."""
    if len(entries) != sides:
        raise ScoreError(f"a hand has one entry for each of the {sides} sides, not {len(entries)}")
    totals = []
    for i, entry in enumerate(entries):
        try:
            totals.append(entry_total(rules, entry))
        except ScoreError as exc:
            raise ScoreError(f"{names[i] if names else f'side {i + 1}'}: {exc}") from None
    items = [e for e in entries if isinstance(e, Itemised)]
    if sum(1 for e in items if e.out) > 1:
        raise ScoreError("only one side can go out in a hand")
    reds = sum(e.red_threes for e in items)
    if reds > rules.red_three_count:
        raise ScoreError(f"the sides have {reds} red threes between them; there are only {rules.red_three_count}")
    return tuple(totals)


@dataclass(frozen=True, slots=True)
class Cell:
    """One side's line for one hand on the sheet."""

    entry: Entry
    score: SideScore | None  # the items added up, when the entry was itemised
    total: int
    running: int
    minimum: int  # first-meld minimum for the next deal

    def to_json(self) -> dict[str, Any]:
        """The page's form."""
        return {
            "entry": entry_to_json(self.entry),
            "bonuses": None if self.score is None else self.score.bonuses,
            "cards": None if self.score is None else self.score.cards,
            "total": self.total,
            "running": self.running,
            "minimum": self.minimum,
        }


@dataclass
class ScoreGame:
    """A match on paper: the rules, the sides' names and every hand's entries."""

    rules: Rules
    names: list[str]
    hands: list[tuple[Entry, ...]] = field(default_factory=list)

    @classmethod
    def new(cls, rules: Rules, sides: int | None = None, names: Sequence[str] | None = None) -> ScoreGame:
        """A game with no hand yet; ``sides`` defaults to the rules' sides (2 or 3)."""
        count = len(names) if names else sides or rules.sides
        if count not in SIDES:
            raise ScoreError(f"the scorekeeper keeps 2 or 3 sides, not {count}")
        if sides is not None and names and len(names) != sides:
            raise ScoreError(f"give {sides} names for {sides} sides, not {len(names)}")
        game = cls(rules, list(names) if names else [f"Side {i + 1}" for i in range(count)])
        game._check_names()
        return game

    # -- the sides ----------------------------------------------------------------------

    @property
    def sides(self) -> int:
        """The number of sides (columns)."""
        return len(self.names)

    def _check_names(self) -> None:
        for name in self.names:
            if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or "\n" in name:
                raise ScoreError(f"a side's name is 1 to {MAX_NAME} characters on one line, not {name!r}")

    def rename(self, side: int, name: str) -> None:
        """Give side ``side`` (0-based) a new name."""
        old = self.names[side]
        self.names[side] = name.strip()
        try:
            self._check_names()
        except ScoreError:
            self.names[side] = old
            raise

    # -- hands ----------------------------------------------------------------------------

    def add(self, entries: Sequence[Entry]) -> None:
        """Enter the next hand; refused once the match is won."""
        winner = self.winner()
        if winner is not None:
            raise ScoreError(f"the match is over: {self.names[winner]} won; correct a hand or undo to go on")
        check_hand(self.rules, entries, self.sides)
        self.hands.append(tuple(entries))

    def correct(self, number: int, entries: Sequence[Entry]) -> None:
        """Replace hand ``number`` (1-based); refused when the match would then end before the last hand."""
        if not 1 <= number <= len(self.hands):
            raise ScoreError(f"there is no hand {number}: hands are 1 to {len(self.hands)}"
                             if self.hands else f"there is no hand {number}: no hand has been entered")
        check_hand(self.rules, entries, self.sides)
        hands = [*self.hands[:number - 1], tuple(entries), *self.hands[number:]]
        self._check_sequence(hands)
        self.hands = hands

    def drop_last(self) -> tuple[Entry, ...]:
        """Remove the last hand and return it."""
        if not self.hands:
            raise ScoreError("there is no hand to take back")
        return self.hands.pop()

    def _check_sequence(self, hands: Sequence[tuple[Entry, ...]]) -> None:
        running = [0] * self.sides
        for number, entries in enumerate(hands, 1):
            for side, total in enumerate(check_hand(self.rules, entries, self.sides)):
                running[side] += total
            winner = match_winner(running, self.rules.target)
            if winner is not None and number < len(hands):
                later = f"hand {number + 1}" if number + 1 == len(hands) else f"hands {number + 1} to {len(hands)}"
                raise ScoreError(f"then {self.names[winner]} wins after hand {number}, but {later} follow: "
                                 "undo them first")

    # -- the sheet --------------------------------------------------------------------------

    def rows(self) -> list[tuple[Cell, ...]]:
        """Every hand, each side's cell with its running total and next minimum."""
        running = [0] * self.sides
        rows = []
        for entries in self.hands:
            cells = []
            for side, entry in enumerate(entries):
                score = entry_score(self.rules, entry)
                total = entry_total(self.rules, entry)
                running[side] += total
                cells.append(Cell(entry, score, total, running[side], self.rules.minimum(running[side])))
            rows.append(tuple(cells))
        return rows

    def totals(self) -> tuple[int, ...]:
        """Each side's match total."""
        totals = [0] * self.sides
        for entries in self.hands:
            for side, entry in enumerate(entries):
                totals[side] += entry_total(self.rules, entry)
        return tuple(totals)

    def minimums(self) -> tuple[int, ...]:
        """Each side's first-meld minimum for the next deal."""
        return tuple(self.rules.minimum(t) for t in self.totals())

    def winner(self) -> int | None:
        """The side that has won (0-based), or None (``scoring.match_winner``: a tie at the top plays on)."""
        return match_winner(self.totals(), self.rules.target)

    def status(self) -> str:
        """One line on the state of the match: the winner, a tie at the target, or the target."""
        totals = self.totals()
        winner = self.winner()
        if winner is not None:
            return f"{self.names[winner]} wins with {totals[winner]:,} (game to {self.rules.target:,})"
        best = max(totals)
        if best >= self.rules.target:
            tied = [self.names[i] for i, t in enumerate(totals) if t == best]
            return f"{' and '.join(tied)} are tied at {best:,}: play another hand"
        return f"game to {self.rules.target:,}"

    def sheet(self) -> dict[str, Any]:
        """Everything the page shows, computed here so the page does no arithmetic."""
        from ..text.rulebook import minimum_rows

        winner = self.winner()
        return {
            **self.to_json(),
            "preset": self.rules.preset,
            "target": self.rules.target,
            "wild_card_melds": self.rules.wild_card_melds,
            "rows": [[cell.to_json() for cell in row] for row in self.rows()],
            "totals": list(self.totals()),
            "minimums": list(self.minimums()),
            "winner": winner,
            "over": winner is not None,
            "status": self.status(),
            "minimum_table": [[span, minimum] for span, minimum in minimum_rows(self.rules)],
        }

    # -- files --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The file's form: rules, names and each hand's entries."""
        return {
            "format": FORMAT, "version": VERSION, "rules": self.rules.to_json(), "names": list(self.names),
            "hands": [[entry_to_json(e) for e in entries] for entries in self.hands],
        }

    @classmethod
    def from_json(cls, data: object) -> ScoreGame:
        """A game from :meth:`to_json`'s form, every hand checked again."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ScoreError(f"not a scorekeeper game (no \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise ScoreError(f"unknown scorekeeper version {data.get('version')!r} (this one reads {VERSION})")
        try:
            rules = Rules.parse(data.get("rules", "classic"))
        except RulesError as exc:
            raise ScoreError(f"rules: {exc}") from None
        names, hands = data.get("names"), data.get("hands", [])
        if not isinstance(names, list) or not isinstance(hands, list):
            raise ScoreError("\"names\" and \"hands\" must be lists")
        game = cls.new(rules, names=names)
        for number, entries in enumerate(hands, 1):
            if not isinstance(entries, list):
                raise ScoreError(f"hand {number}: a hand is a list of entries, one per side")
            try:
                game.add([entry_from_json(e) for e in entries])
            except (ScoreError, TypeError) as exc:
                raise ScoreError(f"hand {number}: {exc}") from None
        return game

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the game to ``path`` atomically (a whole file or the old one, never half).

        A folder that is missing or cannot be written is a :class:`ScoreError` line.
        """
        target = Path(path)
        text = json.dumps(self.to_json(), indent=1) + "\n"
        if not target.parent.is_dir():
            why = "is not a folder" if target.parent.exists() else "does not exist"
            raise ScoreError(f"cannot write {target}: the folder {target.parent} {why}")
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        except OSError as exc:
            raise ScoreError(f"cannot write {target}: {exc.strerror or exc}") from None
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, target)
        except BaseException as exc:
            Path(tmp).unlink(missing_ok=True)
            if isinstance(exc, OSError):
                raise ScoreError(f"cannot write {target}: {exc.strerror or exc}") from None
            raise

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ScoreGame:
        """Read a game written by :meth:`save`; a bad file is one :class:`ScoreError` line."""
        data = read_json(path, ScoreError)
        try:
            return cls.from_json(data)
        except ScoreError as exc:
            raise ScoreError(f"{path}: {exc}") from None
