"""``canasta score``: the scorekeeper at the terminal, kept in a JSON file after every change.

Each hand, every side is entered as a total (``1315``, ``-200``) or item by item, asked one
item at a time (``i``) or given on one line (``natural=1 mixed=1 red=2 out melded=250 hand=35``).
The arithmetic is :mod:`canasta.scorekeeper.model`'s, that is the engine's.

>>> from canasta.rules import Rules
>>> lines = iter(["a 1315 -200", "q"])
>>> out: list[str] = []
>>> game = ScoreGame.new(Rules.from_preset("classic"))
>>> keep_score(game, None, lambda prompt: next(lines), out.append)
0
>>> print(out[-1])
Hand 1: Side 1 1,315 (total 1,315, next first meld 50); Side 2 -200 (total -200, next first meld 15).
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..cli.args import PRESET_HELP, SET_HELP
from ..rules import PRESETS
from .model import (
    ITEM_LABELS,
    POINT_STEP,
    SIDES,
    Entry,
    Itemised,
    ScoreError,
    ScoreGame,
    check_hand,
    entry_score,
    entry_total,
)

DEFAULT_FILE = "canasta-score.json"
"""The file's name in the per-user data folder, where the game is kept unless ``--file`` says otherwise."""
YES = ("y", "yes")
NO = ("n", "no")
ALIASES = {"red": "red_threes", "hand": "in_hand", "nat": "natural", "wilds": "wild"}
OUT_WORDS = {"": "", "n": "", "no": "", "o": "out", "out": "out", "y": "out", "yes": "out",
             "c": "concealed", "concealed": "concealed"}
HELP = """\
  a                add the next hand, side by side (a total such as 1315 or -200, or i to itemise)
  a 1315 -200      add the next hand as totals, one per side
  c N              correct hand N (Enter keeps a side's entry)
  s                show the score sheet
  u                undo the last change
  n N NAME         rename side N
  q                quit (the game stays in the file)"""

ITEM_DEFAULTS: dict[str, Any] = {name: getattr(Itemised(), name) for name in ITEM_LABELS}
"""What an item is when left empty: 0, not out, no unfinished meld."""

Read = Callable[[str], str]
Write = Callable[[str], None]


class _Quit(Exception):
    """End of input."""


def register(sub: Any) -> None:
    """Add the ``score`` subcommand to ``canasta``'s subparsers."""
    p: argparse.ArgumentParser = sub.add_parser(
        "score", help="keep the score of a game played with real cards (kept in a file)",
        description="Keep the score of a game played with real cards: enter each hand as totals or item by "
                    "item, and the scorekeeper adds it up with the engine's scoring, shows each side's "
                    "first-meld minimum and names the winner. The game is saved after every change, in the "
                    "per-user data folder unless --file names another, and goes on from there next time.")
    where = str(default_path()).replace("%", "%%")  # argparse formats help with %
    p.add_argument("--file", help=f"where the game is kept (default: {where}, that is {DEFAULT_FILE} in "
                                  "the per-user data folder: $XDG_DATA_HOME/canasta or ~/.local/share/canasta on "
                                  "Linux, or $CANASTA_DATA_DIR when it is set)")
    p.add_argument("--sides", type=int, choices=SIDES, help="2 or 3 sides (default: the preset's)")
    p.add_argument("--target", type=int, help="points that win the match (default: the preset's)")
    p.add_argument("--preset", choices=sorted(PRESETS), metavar="PRESET", help=PRESET_HELP)
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help=SET_HELP)
    p.add_argument("--names", help='the sides\' names, comma-separated ("Us,Them")')
    p.set_defaults(func=cmd_score)


def default_path() -> Path:
    """Where the game is kept without ``--file``: the per-user data folder (:func:`canasta.tui.saves.data_dir`)."""
    from ..tui.saves import data_dir

    return data_dir() / DEFAULT_FILE


def cmd_score(args: argparse.Namespace) -> int:
    """Open or start the game in ``args.file`` (default: :func:`default_path`) and keep score at the prompt."""
    path = Path(args.file) if args.file is not None else default_path()
    if args.file is None:
        path.parent.mkdir(parents=True, exist_ok=True)  # the data folder, made the first time
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    if path.exists():
        game = ScoreGame.load(path)
        asked = [opt for opt, given in (("--preset", args.preset), ("--set", args.set), ("--target", args.target),
                                        ("--sides", args.sides), ("--names", names)) if given]
        if asked:
            raise ScoreError(f"{path} already holds a game ({describe(game)}): leave out {', '.join(asked)} "
                             "or give another --file")
    else:
        from ..cli.args import rules_from_args

        game = ScoreGame.new(rules_from_args(args.preset or "classic", args.set, args.target), args.sides, names)
        game.save(path)
    return keep_score(game, path, input, print)


def describe(game: ScoreGame) -> str:
    """``classic, 2 sides, game to 5,000, 3 hands``."""
    hands = len(game.hands)
    return (f"{game.rules.preset}, {game.sides} sides, game to {game.rules.target:,}, "
            f"{hands} hand{'' if hands == 1 else 's'}")


# -- entries --------------------------------------------------------------------------------


def parse_total(text: str) -> int:
    """A hand total as typed: ``1315``, ``1,315``, ``-200``."""
    try:
        return int(text.replace(",", "").replace("_", ""))
    except ValueError:
        raise ScoreError(f"a hand total is a whole number such as 1315 or -200, not {text!r}") from None


def parse_items(text: str) -> Itemised:
    """Items on one line: ``natural=1 mixed=1 red=2 out melded=250 hand=35``."""
    items: dict[str, Any] = {}
    for token in text.replace(",", " ").split():
        name, eq, value = token.partition("=")
        name = ALIASES.get(name.lower(), name.lower())
        if not eq and name in ("out", "concealed"):
            name, value = "out", name
        if name not in ITEM_LABELS:
            raise ScoreError(f"unknown item {name!r} (items: {', '.join(ITEM_LABELS)})")
        if name == "out":
            if value.lower() not in OUT_WORDS:
                raise ScoreError(f"going out is no, out or concealed, not {value!r}")
            items[name] = OUT_WORDS[value.lower()]
        elif name == "unfinished_wild":
            if value.lower() not in ("1", "true", "0", "false", *YES, *NO):
                raise ScoreError(f"unfinished_wild is yes or no, not {value!r}")
            items[name] = value.lower() in ("1", "true", *YES)
        else:
            items[name] = parse_total(value)
    return Itemised(**items)


def entry_text(game: ScoreGame, entry: Entry) -> str:
    """An entry as the sheet shows it: ``1,315`` or ``1,100 + 215 = 1,315``."""
    score = entry_score(game.rules, entry)
    total = entry_total(game.rules, entry)
    return f"{total:,}" if score is None else f"{score.bonuses:,} + {score.cards:,} = {total:,}"


def _field_error(game: ScoreGame, name: str, items: dict[str, Any]) -> str | None:
    """What is wrong with the item ``name`` just typed, given the items before it; None when it can be right."""
    rules = game.rules
    value = items[name]
    canastas = items.get("natural", 0) + items.get("mixed", 0) + items.get("wild", 0)
    if name in ("melded", "in_hand") and value % POINT_STEP:
        return f"{ITEM_LABELS[name]} must be a multiple of {POINT_STEP}, not {value}"
    if name == "red_threes" and value > rules.red_three_count:
        return f"there are only {rules.red_three_count} red threes, not {value}"
    if name == "out" and value and canastas < rules.canastas_to_go_out:
        need = rules.canastas_to_go_out
        return f"going out needs {need} canasta{'s' if need > 1 else ''}, and this side has {canastas}"
    if name == "melded" and canastas and not value:
        return "a side with melds has card points melded: give them"
    if name == "unfinished_wild" and value and not items.get("melded"):
        return "an unfinished meld of wild cards is melded: give the card points melded"
    if name not in ("out", "unfinished_wild") and value < 0:
        return f"{ITEM_LABELS[name]} must be a whole number, 0 or more, not {value}"
    return None


def _ask_items(game: ScoreGame, read: Read, write: Write, kept: Itemised | None = None) -> Itemised:
    """Each item in turn, each checked as it is typed: a wrong one is asked again, the others kept.

    ``kept``: the items of an earlier try, offered again (Enter keeps each).  Cards left in hand
    may be typed with the minus the sheet writes them with (``-35``).
    """
    items: dict[str, Any] = {}
    names = [n for n in ITEM_LABELS if game.rules.wild_card_melds or n not in ("wild", "unfinished_wild")]
    for name in names:
        default = getattr(kept, name) if kept is not None else ITEM_DEFAULTS[name]
        while True:
            if name == "out":
                shown = default or "no"
                answer = read(f"  went out: no, out or concealed [{shown}]: ").strip().lower() or shown
                if answer not in OUT_WORDS:
                    write("  answer no, out or concealed")
                    continue
                items[name] = OUT_WORDS[answer]
            elif name == "unfinished_wild":
                shown = "y" if default else "n"
                answer = read(f"  {ITEM_LABELS[name]} (y/n) [{shown}]: ").strip().lower() or shown
                if answer not in YES + NO:
                    write("  answer y or n")
                    continue
                items[name] = answer in YES
            else:
                answer = read(f"  {ITEM_LABELS[name]} [{default}]: ").strip()
                try:
                    value = parse_total(answer) if answer else default
                except ScoreError as exc:
                    write(f"  {exc}")
                    continue
                items[name] = abs(value) if name == "in_hand" else value
            problem = _field_error(game, name, items)
            if problem is None:
                break
            write(f"  {problem}")
    return Itemised(**items)


def _ask_entry(game: ScoreGame, side: int, old: Entry | None, read: Read, write: Write) -> Entry | None:
    """One side's entry; None when the line is left empty (cancel, or keep the old entry)."""
    keep = f" [Enter keeps {entry_text(game, old)}]" if old is not None else ""
    kept = old if isinstance(old, Itemised) else None  # the items offered again when itemising
    while True:
        text = read(f"{game.names[side]}: total, or i to itemise{keep}: ").strip()
        if not text:
            return old
        try:
            if text.lower() in ("i", "items"):
                kept = _ask_items(game, read, write, kept)
                entry: Entry = kept
            elif "=" in text or text.lower() in ("out", "concealed"):
                entry = parse_items(text)
            else:
                entry = parse_total(text)
            total = entry_total(game.rules, entry)
        except ScoreError as exc:
            write(f"  {exc}")
            continue
        if isinstance(entry, Itemised):
            write(f"  = {entry_text(game, entry)} ({total:,} for the hand)")
        return entry


def _ask_hand(game: ScoreGame, old: tuple[Entry, ...] | None, read: Read, write: Write) -> list[Entry] | None:
    entries: list[Entry] = []
    for side in range(game.sides):
        entry = _ask_entry(game, side, None if old is None else old[side], read, write)
        if entry is None:
            write("No hand added.")
            return None
        entries.append(entry)
    return entries


# -- the sheet ----------------------------------------------------------------------------------

_FULL = (("bonus", 6), ("cards", 6), ("hand", 6), ("total", 7), ("min", 4))
_SHORT = (("hand", 7), ("total", 7), ("min", 4))
_NARROW = (("total", 7), ("min", 4))
WIDTH = 80
"""The columns the sheet and the messages fit in when the terminal's are not known (a file, a pipe)."""


def terminal_width() -> int:
    """The terminal's columns (80 when output is not a terminal), at least 40 and at most 160."""
    import shutil

    return max(40, min(160, shutil.get_terminal_size((WIDTH, 24)).columns))


def sheet_text(game: ScoreGame, width: int = WIDTH) -> str:
    """The score sheet: per hand and side bonuses, cards, hand total, running total and next minimum.

    It fits ``width`` columns: in a narrow terminal, or with three sides in 80 columns, the bonuses
    and cards give way (the hand's line after each entry tells them), then each hand's own total
    (the running total stays).  Each side's name is whole, on as many lines as it needs.
    """
    cols = next((c for c in (_FULL, _SHORT) if 5 + game.sides * (sum(w + 1 for _, w in c) + 1) <= width), _NARROW)
    group = sum(w + 1 for _, w in cols)
    wrapped = [textwrap.wrap(name, group - 2, break_on_hyphens=False) or [""] for name in game.names]
    head = [("hand |" if n == 0 else "     |") + "|".join(f" {w[n] if n < len(w) else '':<{group - 1}}"
                                                         for w in wrapped)
            for n in range(max(len(w) for w in wrapped))]
    lines = [f"Canasta score: {describe(game)}", *head,
             "     |" + "|".join("".join(f"{c:>{w}} " for c, w in cols) for _ in game.names)]
    start = game.rules.minimum(0)
    start_cells = {"total": "0", "min": str(start)}
    lines.append("start|" + "|".join("".join(f"{start_cells.get(c, ''):>{w}} " for c, w in cols)
                                     for _ in game.names))
    for number, row in enumerate(game.rows(), 1):
        cells = []
        for cell in row:
            values = {"bonus": "" if cell.score is None else f"{cell.score.bonuses:,}",
                      "cards": "" if cell.score is None else f"{cell.score.cards:,}",
                      "hand": f"{cell.total:,}", "total": f"{cell.running:,}", "min": str(cell.minimum)}
            cells.append("".join(f"{values[c]:>{w}} " for c, w in cols))
        lines.append(f"{number:>4} |" + "|".join(cells))
    lines.append(game.status()[:1].upper() + game.status()[1:] + ".")
    return "\n".join(line.rstrip() for line in lines)


def fit(text: str, width: int = WIDTH) -> str:
    """A message's lines wrapped between words to ``width`` columns (a terminal would cut words)."""
    return "\n".join(line if len(line) < width else
                     textwrap.fill(line, width - 1, subsequent_indent="  ", break_long_words=False,
                                   break_on_hyphens=False)
                     for line in text.split("\n"))


def hand_line(game: ScoreGame, number: int) -> str:
    """``Hand 1: Side 1 1,315 (total 1,315, next first meld 50); ...``."""
    row = game.rows()[number - 1]
    parts = [f"{game.names[i]} {cell.total:,} (total {cell.running:,}, next first meld {cell.minimum})"
             for i, cell in enumerate(row)]
    return f"Hand {number}: " + "; ".join(parts) + "."


# -- the prompt ---------------------------------------------------------------------------------


def _fitted(write: Write, width: int) -> Write:
    def fitted(text: str) -> None:
        write(fit(text, width))

    return fitted


def keep_score(game: ScoreGame, path: Path | None, read: Read = input, write: Write = print,
               width: int | None = None) -> int:
    """The prompt: add, correct, show, undo, rename, quit; ``game`` is saved to ``path`` after every change.

    Everything written fits ``width`` columns (default: the terminal's, 80 when it is not one).
    """
    undo: list[tuple[str, list[tuple[Entry, ...]], list[str]]] = []
    columns = terminal_width() if width is None else width
    write = _fitted(write, columns)  # every message fits the terminal, broken between words
    kept = f" Kept in {path}." if path is not None else ""
    write(f"Canasta scorekeeper: {describe(game)}.{kept} Type ? for help.")
    if game.hands:
        write(sheet_text(game, columns))

    def ask(prompt: str) -> str:
        try:
            return read(prompt)
        except EOFError:
            raise _Quit from None

    def changed(what: str, before: tuple[list[tuple[Entry, ...]], list[str]]) -> None:
        undo.append((what, *before))
        if path is not None:
            game.save(path)

    try:
        while True:
            line = ask("> ").strip()
            word, _, rest = line.partition(" ")
            word = word.lower()
            before = (list(game.hands), list(game.names))
            try:
                if word in ("q", "quit", "exit"):
                    break
                if word in ("?", "h", "help"):
                    write(HELP)
                elif word in ("s", "sheet", "show"):
                    write(sheet_text(game, columns))
                elif word in ("a", "add"):
                    _add(game, rest, ask, write)
                    changed(f"hand {len(game.hands)}", before)
                    _report(game, len(game.hands), write)
                    if game.winner() is not None and _yes_or_no(
                            ask, write, "A new game, with the same sides and rules? (y/n) [n]: ", default=False):
                        before = (list(game.hands), list(game.names))
                        game.hands = []
                        changed("the new game", before)
                        write(f"A new game: {describe(game)}. (u takes it back.)")
                elif word in ("c", "correct"):
                    number = _hand_number(game, rest)
                    entries = _ask_hand(game, game.hands[number - 1], ask, write)
                    if entries is not None:
                        check_hand(game.rules, entries, game.sides, game.names)  # the sides named as on the sheet
                        game.correct(number, entries)
                        changed(f"the correction of hand {number}", before)
                        _report(game, number, write)
                elif word in ("u", "undo"):
                    _undo(game, undo, write, columns)
                    if path is not None:
                        game.save(path)
                elif word in ("n", "name", "rename"):
                    side, _, name = rest.partition(" ")
                    game.rename(_side_number(game, side) - 1, name)
                    changed("the new name", before)
                    write(f"Side {side} is now {game.names[int(side) - 1]}.")
                elif word:
                    write(f"unknown command {word!r}; type ? for help")
            except _Nothing:
                pass
            except ScoreError as exc:
                write(str(exc))
    except _Quit:
        pass
    return 0


def _yes_or_no(ask: Read, write: Write, question: str, default: bool) -> bool:
    """Ask until the answer is yes or no (Enter: ``default``); anything else is asked again, never guessed."""
    while True:
        answer = ask(question).strip().lower()
        if not answer:
            return default
        if answer in YES + NO:
            return answer in YES
        write("Answer y (yes) or n (no).")


class _Nothing(Exception):
    """The command was cancelled; nothing changed."""


def _add(game: ScoreGame, rest: str, ask: Read, write: Write) -> None:
    winner = game.winner()
    if winner is not None:
        raise ScoreError(f"the match is over: {game.names[winner]} won; correct a hand or undo to go on")
    if rest.strip():
        totals = rest.replace(";", " ").split()
        if len(totals) != game.sides:
            raise ScoreError(f"give {game.sides} totals, one per side, or type a alone to be asked")
        entries: list[Entry] | None = [parse_total(t) for t in totals]
    else:
        write(f"Hand {len(game.hands) + 1}. Enter on an empty line adds no hand.")
        entries = _ask_hand(game, None, ask, write)
    if entries is None:
        raise _Nothing
    if game.winner() is None:
        check_hand(game.rules, entries, game.sides, game.names)  # the sides named as on the sheet
    game.add(entries)


def _report(game: ScoreGame, number: int, write: Write) -> None:
    write(hand_line(game, number))
    if game.winner() is not None or max(game.totals()) >= game.rules.target:
        write(f"*** {game.status()} ***" if game.winner() is not None else game.status()[:1].upper()
              + game.status()[1:] + ".")


def _undo(game: ScoreGame, undo: list[tuple[str, list[tuple[Entry, ...]], list[str]]], write: Write,
          width: int = WIDTH) -> None:
    if undo:
        what, hands, names = undo.pop()
        game.hands, game.names = hands, names
        write(f"Took back {what}.")
    else:
        game.drop_last()
        write(f"Took back hand {len(game.hands) + 1}.")
    write(sheet_text(game, width))


def _hand_number(game: ScoreGame, text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise ScoreError("say which hand: c N, with N from the sheet") from None
    if not 1 <= number <= len(game.hands):
        raise ScoreError(f"there is no hand {number}" + (f": hands are 1 to {len(game.hands)}" if game.hands else ""))
    return number


def _side_number(game: ScoreGame, text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= game.sides:
        raise ScoreError(f"say which side and its name: n N NAME, with N from 1 to {game.sides}")
    return int(text)


__all__ = ["cmd_score", "keep_score", "register", "sheet_text"]
