"""The ``play`` and ``replay`` subcommands, for ``canasta.cli`` to register.

Importing this module imports neither Textual nor the terminal table: the command line
works without the ``tui`` extra, and ``canasta play`` then says how to install it (or
plays line by line with ``--plain``).  Every error is one line on standard error, exit 2.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import CanastaError
from ..rules import PRESETS

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..bots.review import Progress, Review
    from .replay import Replay
    from .session import Session

NEEDS_TUI = "the terminal table needs the tui extra: pip install 'canasta[tui]'"


def register(sub: Any) -> None:
    """Add ``play`` and ``replay`` to the ``canasta`` command's subparsers."""
    p = sub.add_parser(
        "play", help="play a match on a full-screen terminal table (or --plain, line by line)",
        description="Play a match against computer players, or with friends sharing the screen, on a "
                    "full-screen terminal table (needs the tui extra: pip install 'canasta[tui]'); --plain "
                    "plays line by line in any terminal (and when standard input or output is not a terminal). "
                    "Every move is kept: --continue goes on with the match you left. Press S at the table to "
                    "save the match to a file, and ? for a hint.")
    p.add_argument("--preset", choices=sorted(PRESETS), help="the game to play (default classic)")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                   help="change one rules option (repeatable); canasta rules --options lists them")
    p.add_argument("--seats", help='who sits where, e.g. "human,expert,expert,expert" (human:NAME names '
                                   'a person; "you" also means human); several people share the screen '
                                   "(computer players by level: beginner, club, expert, master; or by name: "
                                   "random, basic, expert, search, search:200; canasta bots lists them)")
    p.add_argument("--seed", type=int, help="seed of the shuffles (default: a new one each match)")
    p.add_argument("--target", type=int, help="points to win the match")
    p.add_argument("--resume", metavar="FILE",
                   help="go on with a match saved to FILE (key S at the table saves it)")
    p.add_argument("--continue", dest="continue_", action="store_true",
                   help="go on with the match you left (every move is kept in the per-user data folder)")
    p.add_argument("--bot-delay", type=float, default=0.4,
                   help="seconds a computer player waits before each move (default 0.4)")
    p.add_argument("--no-color", action="store_true",
                   help="no colours on the table (monochrome; also when NO_COLOR is set; key c at the table)")
    p.add_argument("--plain", action="store_true", help="the line-by-line game, for a terminal without a screen")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "replay", help="step through a saved or recorded match, move by move",
        description="Step through a saved match or a game record on the terminal table, move by move and "
                    "hand by hand (needs the tui extra), every hand face up or as one seat saw it. --plain, or "
                    "standard input or output that is not a terminal, prints the whole match in words instead. "
                    "--review adds the review's marks and the better move at each decision (put FILE first: "
                    "canasta replay FILE --review).")
    p.add_argument("file", help="a save file or game record (with its decks)")
    p.add_argument("--seat", type=int, help="show only what this seat saw, from 1 (default: every hand face up)")
    p.add_argument("--plain", action="store_true",
                   help="print every hand in words, move by move, instead of the full-screen table")
    p.add_argument("--review", nargs="?", const="", metavar="REVIEW.json",
                   help="mark each decision reviewed (best, good, inaccuracy, mistake, blunder, the points lost) "
                        "and say the better move: from REVIEW.json (canasta review FILE --json), else reviewed "
                        "now for the seat shown (--seat) or the people of a save file, at canasta review's "
                        "default budget, and kept in the per-user data folder for the next replay; "
                        "[ and ] jump between the marked moves, v lists them (docs/review.md)")
    p.set_defaults(func=cmd_replay)


def _fail(message: str) -> int:
    print(f"canasta: {message}", file=sys.stderr)
    return 2


def textual_missing() -> bool:
    """True when Textual cannot be imported."""
    try:
        import textual  # noqa: F401
    except ImportError:
        return True
    return False


def is_terminal() -> bool:
    """True when standard input and output are both a terminal (the full screen needs both)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def cmd_play(args: argparse.Namespace) -> int:
    """``canasta play``: the full-screen table, ``--plain`` line by line, ``--resume FILE``, ``--continue``.

    Standard input or output that is not a terminal plays line by line (a note on standard
    error says so): the full screen would wait for keys that never come.
    """
    from ..cli.args import UsageError, rules_from_args
    from .saves import autosave_path
    from .session import Session, SessionError

    seats = [s.strip() for s in args.seats.split(",")] if args.seats is not None else None  # "": refused
    if args.bot_delay < 0:
        return _fail("--bot-delay must be 0 or more seconds")
    plain = args.plain or not is_terminal()
    autosave = autosave_path()
    try:
        saved: Session | None = None
        if args.resume is not None or args.continue_:
            given = [name for name, value in (("--preset", args.preset), ("--set", args.set), ("--seats", args.seats),
                                              ("--seed", args.seed), ("--target", args.target))
                     if value not in (None, [])]
            flag = "--resume" if args.resume is not None else "--continue"
            if given:
                return _fail(f"{flag} takes the rules, seats and seed from the file: drop {', '.join(given)}")
            if args.resume is not None and args.continue_:
                return _fail("give --resume FILE or --continue, not both")
            if args.continue_ and not autosave.exists():
                return _fail(f"no match to continue (matches are kept in {autosave.parent})")
            path = args.resume if args.resume is not None else str(autosave)
            session = Session.load(path)
            if not plain and textual_missing():
                return _fail(NEEDS_TUI)
        else:
            rules = rules_from_args(args.preset or "classic", args.set, args.target)
            seed = args.seed if args.seed is not None else random.randrange(2**31)
            if not plain and textual_missing():
                return _fail(NEEDS_TUI)
            session = Session.new(rules, seats, seed)
            saved = _saved_match(autosave)
        if plain:
            if not args.plain:
                print("canasta: not a terminal: playing line by line (--plain)", file=sys.stderr)
            return _run_plain(session, saved, autosave, args.seed)
        return _run_play(session, args.bot_delay, args.resume, autosave, saved, mono=args.no_color or None,
                         seed=args.seed)
    except (UsageError, CanastaError, SessionError) as exc:
        return _fail(str(exc))


def _saved_match(path: Path) -> Session | None:
    """The match left unfinished in the autosave, if any.

    A file that does not load is never written over unsaid: it is kept beside, as ``….unreadable``,
    and a line on standard error says so.
    """
    from .session import Session, SessionError

    if not path.exists():
        return None
    try:
        saved = Session.load(str(path))
    except SessionError as exc:
        kept = path.with_name(path.name + ".unreadable")
        try:
            os.replace(path, kept)
        except OSError as why:
            raise SessionError(f"{exc}, and it cannot be moved aside ({why.strerror or why}): "
                               "move it away to start a new match") from None
        print(f"canasta: the match kept in {path} does not load ({exc}): it is kept as {kept}, "
              "and the new match is kept in its place", file=sys.stderr)
        return None
    return None if saved.match.is_over else saved


def _run_plain(session: Session, saved: Session | None, autosave: Path, seed: int | None = None) -> int:
    """The line-by-line game; a match left unfinished is offered first, Enter continuing it (nothing lost)."""
    from .plain import fit, play_in_terminal, terminal_width
    from .saves import continue_answer, offer_choices

    def say(text: str) -> None:
        print(fit(text, terminal_width()))

    if saved is not None:
        question, keep, new = offer_choices(saved.summary(), seed)
        say(f"{question}\n  c  {keep} (Enter)\n  n  {new}")
        while True:
            try:
                answer = continue_answer(input("Continue it or start the new one? [C/n] "))
            except EOFError:
                say("\nGoodbye. The match you left is kept: canasta play --continue")
                return 0
            if answer is not None:
                break
            say("Answer c (or Enter) to continue the match you left, or n to start the new one.")
        if answer:
            if seed is not None and seed != saved.seed:
                say(f"You go on with the match you left (seed {saved.seed}); seed {seed} is not used.")
            session = saved
        else:
            say("A new match: it replaces the one you left.")
    return play_in_terminal(session.match.rules, None, session.seed, session=session, autosave=autosave)


def _run_play(session: Session, bot_delay: float, save_path: str | None, autosave: Path,
              saved: Session | None, mono: bool | None = None, seed: int | None = None) -> int:
    from .app import PlayApp

    code = PlayApp(session, bot_delay, save_path, autosave=autosave, offer=saved, mono=mono, seed=seed).run()
    return code or 0


def cmd_replay(args: argparse.Namespace) -> int:
    """``canasta replay FILE``: every move of every hand, forward and back."""
    from .replay import Replay
    from .session import SessionError, read_record

    try:
        record = read_record(args.file)
        try:
            replay = Replay.from_record(record)
        except SessionError as exc:
            raise SessionError(f"{args.file}: {exc}") from None
        players = replay.match.rules.players
        if args.seat is not None and not 1 <= args.seat <= players:
            return _fail(f"--seat {args.seat} is not at this table (1 to {players})")
    except SessionError as exc:
        return _fail(str(exc))
    seat = None if args.seat is None else args.seat - 1
    plain = args.plain or not is_terminal()
    if not plain and textual_missing():
        return _fail(NEEDS_TUI)
    review, job, what = None, None, "the match"
    if args.review is not None:
        try:
            review, job, what = _review(args.review, record, replay, seat, plain)
        except (SessionError, CanastaError) as exc:
            return _fail(str(exc))
    if plain:
        from .plain import terminal_width
        from .plain_replay import replay_words
        from .review_marks import Marks

        if not args.plain:
            print("canasta: not a terminal: the replay in words (--plain)", file=sys.stderr)
        marks = Marks(review, replay, seat) if review is not None else None
        print("\n".join(replay_words(replay, seat, terminal_width(), marks)))
        return 0
    from .replay_app import ReplayApp

    code = ReplayApp(replay, seat, review, job, what).run()
    return code or 0


def _review(path: str, record: object, replay: Replay, seat: int | None,
            plain: bool) -> tuple[Review | None, Callable[[Progress], Review] | None, str]:
    """``--review``: the review read from ``path`` and checked against the record; or, ``path`` empty, made for
    the seat shown or the people of a save (now with progress on standard error, or by the app's job, told
    what it reviews)."""
    from .review_marks import check_review, compute_review, load_review

    if path:
        review = load_review(path)
        check_review(review, replay, path)
        return review, None, ""
    from ..cli.review import people, stderr_progress

    assert isinstance(record, dict)  # Replay.from_record took it
    seats = [seat] if seat is not None else people(record, replay.match.rules.players)

    def job(progress: Progress | None) -> Review:
        return compute_review(record, replay, seats, progress=progress)

    names = replay.match.players
    what = "the match for " + " and ".join(names[s] for s in seats)
    if plain:
        return job(stderr_progress()), None, what
    return None, job, what
