"""``canasta replay FILE``: step through a recorded match on the full-screen table.

A finished record holds every deck, so by default the replay shows every hand face up, as
a commentator would; with ``seat`` it shows only what that seat could see at each moment.
With a review (``--review``, or the table's "review this hand") each decision reviewed is marked
under its move with the better move in words (:class:`~canasta.tui.review_marks.Marks`: with
``seat``, that seat's decisions only); ``[`` and ``]`` jump between the marked moves, ``v`` lists them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Static

from ..bots.review import Progress, Review
from .replay import Replay
from .review_marks import Marks
from .reviewing import ReviewingScreen
from .scoresheet import match_sheets, side_names
from .table import Line, hand_lines, pile_line, players_lines, side_lines
from .widgets import TextScreen, no_color, text_rows, to_text, too_small
from .words import Narrator, numbered

REPLAY_KEYS: list[Line] = [[
    ("←→", "bold"), (" step  ", ""), ("PgUp PgDn", "bold"), (" hand  ", ""), ("Home End", "bold"),
    (" first, last  ", ""), ("L", "bold"), (" log  ", ""), ("s", "bold"), (" scores  ", ""), ("q", "bold"),
    (" quit", ""),
]]
REVIEW_KEYS: list[Line] = [[
    ("←→", "bold"), (" step  ", ""), ("PgUp PgDn", "bold"), (" hand  ", ""), ("[ ]", "bold"), (" marks  ", ""),
    ("v", "bold"), (" review  ", ""), ("L", "bold"), (" log  ", ""), ("s", "bold"), (" scores  ", ""),
    ("q", "bold"), (" quit", ""),
]]
"""The keys of a replay with a review: the marked moves before Home and End."""


class ReplayScreen(Screen[None]):
    """One position of the record at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,space", "step(1)", "next", show=False),
        Binding("left,h,backspace", "step(-1)", "back", show=False),
        Binding("home", "to_start", show=False),
        Binding("end", "to_end", show=False),
        Binding("pagedown,n", "hand(1)", show=False),
        Binding("pageup,p", "hand(-1)", show=False),
        Binding("s", "scores", show=False),
        Binding("L", "log", show=False),
        Binding("right_square_bracket", "mark(1)", show=False),
        Binding("left_square_bracket", "mark(-1)", show=False),
        Binding("v", "review", show=False),
        Binding("q,escape", "leave", show=False),
    ]
    DEFAULT_CSS = """
    ReplayScreen { padding: 0 1; }
    ReplayScreen > Static { height: auto; }
    #header { background: $primary-darken-2; text-style: bold; }
    #keys { dock: bottom; color: $text-muted; }
    """

    def __init__(self, replay: Replay, seat: int | None = None, review: Review | None = None,
                 job: Callable[[Progress], Review] | None = None, what: str = "the match") -> None:
        super().__init__()
        self.replay = replay
        self.seat = seat
        self.marks = Marks(review, replay, seat) if review is not None else None
        self.job = job  # makes the review, when it is to be made here (with a dialog showing its progress)
        self.what = what
        self.reviewing: ReviewingScreen | None = None  # the dialog making the review
        self.notice: Line = []  # a word about the last key (no marked move further on)
        self.drawn: dict[str, list[Line]] = {}  # each line widget's last content

    @property
    def keys(self) -> list[Line]:
        """The keys line: with the marks' keys once there is a review."""
        return REVIEW_KEYS if self.marks is not None or self.job is not None else REPLAY_KEYS

    def compose(self) -> ComposeResult:
        """Header, sides, pile, players, hands, the move, its review mark, keys."""
        for name in ("header", "sides", "pile", "players", "hands", "move", "review"):
            yield Static(id=name)
        yield Static(to_text(self.keys), id="keys")

    def on_mount(self) -> None:
        """The deal of the first hand; the review made first when asked for (Esc: the replay without it)."""
        self.redraw()
        if self.job is not None:
            self.reviewing = ReviewingScreen(self.job, self.what)
            self.app.push_screen(self.reviewing, self.reviewed)

    def reviewed(self, review: Review | None) -> None:
        """The review made (or None: stopped): its marks from now on."""
        self.job = None
        if review is not None:
            self.marks = Marks(review, self.replay, self.seat)
        else:
            failed = self.reviewing.failed if self.reviewing is not None else None
            self.notice = [(f"No review: {failed}" if failed else "No review: it was stopped.", "dim")]
        self.query_one("#keys", Static).update(to_text(self.keys))
        self.redraw()

    def on_resize(self, event: Resize) -> None:
        """Lines wrap to the new width."""
        self.redraw()

    def _set(self, widget: str, lines: list[Line]) -> None:
        self.drawn[widget] = lines
        static = self.query_one(f"#{widget}", Static)
        static.update(to_text(lines))
        static.display = bool(lines)  # an empty Static would still take a row the fitting did not count

    def told(self) -> list[tuple[int, str]]:
        """This hand's moves up to the frame shown, in words (the table's log, :class:`Narrator`)."""
        r = self.replay
        hand = r.frame.hand
        narrator = Narrator(r.match.players, r.match.rules.sides)
        shown, outcomes = r.match.told(hand)
        narrator.follow(hand + 1, shown, outcomes[:r.frame.index], r.frame.state.result)
        return narrator.told

    def redraw(self) -> None:
        """Draw the current frame, fitted to the screen: melds in full as far as they fit, else compact; then
        only the hands of the player who moved and the one to move, then none; a notice in a terminal too
        small even for that."""
        r = self.replay
        frame = r.frame
        state = frame.state
        names = r.match.players
        view = state.view(self.seat if self.seat is not None else 0)
        width = max(20, self.size.width)  # the content area: the screen less its padding
        hands_total = r.frames[-1].hand + 1
        rules = r.match.rules
        mine = view.side if self.seat is not None else None
        totals = r.scores_before(frame.hand + 1) if state.is_over else None  # the hand's points count at its end
        parts: dict[str, list[Line]] = {
            "header": [[(f"Replay · {rules.preset} · hand {frame.hand + 1} of {hands_total} · move "
                         f"{frame.index} of {r.moves_in_hand(frame.hand)} · seed {r.match.seed}", "")]],
            "sides": [],
            "pile": [pile_line(view, mine)],
            "players": players_lines(view, names, width),
        }
        seats = [self.seat] if self.seat is not None else list(range(rules.players))
        parts["hands"] = self.hand_rows(seats, width)
        move: Line
        if frame.move is None:
            move = [("The deal.", "bold")]
        else:
            said = [text for i, text in self.told() if i == frame.index - 1]
            move = [(f"Move {frame.index}: ", "bold"), (" · ".join(said), "")]
        if state.result is not None:
            hand_totals = " · ".join(f"{name} {t:,}" for name, t in zip(side_names(r.match), state.result.totals))
            move.append((f"   Hand over: {hand_totals} (s: the score sheet)", "bold green"))
        parts["move"] = [move]
        parts["review"] = self.review_lines(state.is_over)
        console = self.app.console
        budget = self.size.height - text_rows(console, self.keys, width)

        def used() -> int:
            return sum(text_rows(console, lines, width) for lines in parts.values())

        for meld_lines in range(max(2, (budget - 14) // max(1, rules.sides)), 0, -1):
            parts["sides"] = side_lines(view, names, width, mine, meld_lines=meld_lines, scores=totals)
            if used() <= budget:
                break
        if used() > budget and len(seats) > 1:  # the hands of the move only: who moved, who moves next
            movers = sorted({s for s in (frame.move[0] if frame.move else None, state.to_act) if s is not None})
            parts["hands"] = [*self.hand_rows(movers, width),
                              [(f"({len(seats) - len(movers)} more hands: a taller terminal shows them)", "dim")]]
        if used() > budget:  # no hand at all (at a hand's end the players' line still shows what was left)
            parts["hands"] = [[(f"({len(seats)} hands: a taller terminal shows them)", "dim")]]
        if used() > budget:
            needed = self.size.height - budget + used()  # the keys, and the shortest form of everything else
            parts = {name: [] for name in parts}
            parts["header"] = [[(f"Replay · hand {frame.hand + 1} · move {frame.index}", "")]]
            parts["move"] = too_small(*self.app.size, needed)
        for name, lines in parts.items():
            self._set(name, lines)

    def review_lines(self, hand_over: bool) -> list[Line]:
        """The mark of the move just shown, or the review's summary (at the deal and the hand's end)."""
        marks, frame = self.marks, self.replay.frame
        if marks is None:
            return [self.notice] if self.notice else []
        decision = marks.at(frame)
        if decision is not None:
            lines = marks.lines(decision)
        elif frame.move is None or hand_over:  # this hand's, then the whole review's (one line a seat)
            said = [*(marks.hand_summary(frame.hand) if len(marks.review.hands) > 1 else []), *marks.summary()]
            lines = [[("Review · ", "bold"), (line, "")] for line in said]
        else:
            lines = []
        return [*lines, self.notice] if self.notice else lines

    def hand_rows(self, seats: list[int], width: int) -> list[Line]:
        """The hands of ``seats``, each after its player's name."""
        state = self.replay.frame.state
        names = self.replay.match.players
        lines: list[Line] = []
        for seat in seats:
            cards = tuple(sorted(state.hand(seat)))
            label = f"{names[seat]}: ".ljust(12)
            body = hand_lines(cards, width=width - len(label)) if cards else [[("no cards", "dim")]]
            for n, line in enumerate(body):
                lines.append([(label if n == 0 else " " * len(label), "bold"), *line])
        return lines

    def redraw_after_key(self) -> None:
        """Redraw, the last key's notice gone."""
        self.notice = []
        self.redraw()

    def action_step(self, by: int) -> None:
        """One move forward or back."""
        self.replay.step(by)
        self.redraw_after_key()

    def action_mark(self, by: int) -> None:
        """The next (or previous) inaccuracy, mistake or blunder."""
        if self.marks is None:
            self.notice = [("No review: canasta replay FILE --review marks the decisions.", "dim")]
            self.redraw()
            return
        found = self.marks.jump(self.replay.at, by)
        if found is None:
            self.notice = [(f"No inaccuracy, mistake or blunder {'after' if by > 0 else 'before'} this move "
                            "(v lists every decision).", "dim")]
            self.redraw()
            return
        self.replay.seek(found)
        self.redraw_after_key()

    def action_review(self) -> None:
        """Every decision reviewed, and the summary of each seat."""
        if self.marks is None:
            self.action_mark(1)
            return
        self.app.push_screen(TextScreen("The review", self.marks.page()))

    def action_to_start(self) -> None:
        """The first deal."""
        self.replay.seek(0)
        self.redraw_after_key()

    def action_to_end(self) -> None:
        """The last position."""
        self.replay.seek(len(self.replay.frames) - 1)
        self.redraw_after_key()

    def action_hand(self, by: int) -> None:
        """The start of the next (or this, then the previous) hand."""
        r = self.replay
        hand = r.frame.hand
        start = r.hand_start(hand)
        target = hand + by if by > 0 or r.at == start else hand
        r.seek(r.hand_start(target) if target <= r.frames[-1].hand else len(r.frames) - 1)
        self.redraw_after_key()

    def action_scores(self) -> None:
        """Every hand's itemised score."""
        width = max(40, min(120, self.app.size.width) - 4)  # the page: the dialog less its border and padding
        self.app.push_screen(TextScreen("Score sheet", match_sheets(self.replay.match, width)))

    def action_log(self) -> None:
        """The moves of this hand up to here."""
        self.app.push_screen(TextScreen(f"Moves of hand {self.replay.frame.hand + 1}",
                                        numbered(self.told()) or ["No move yet in this hand."], at_end=True))

    def action_leave(self) -> None:
        """Quit the replay (opened over the table: back to the table)."""
        if len(self.app.screen_stack) > 1:
            self.dismiss(None)
        else:
            self.app.exit(0)


class ReplayApp(App[int]):
    """``canasta replay``."""

    TITLE = "Canasta replay"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, replay: Replay, seat: int | None = None, review: Review | None = None,
                 job: Callable[[Progress], Review] | None = None, what: str = "the match") -> None:
        super().__init__(ansi_color=True if no_color() else None)  # NO_COLOR: no colour at all
        self.replay_screen = ReplayScreen(replay, seat, review, job, what)

    def get_default_screen(self) -> Screen[None]:
        """The replay is the first screen."""
        return self.replay_screen
