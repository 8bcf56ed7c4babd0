"""The full-screen Canasta table (``canasta play``): Textual app, keyboard play, hot seat.

The table is drawn only from ``state.view(seat)`` of one person's seat: the one to act, or
the last one who did.  With several people at one screen, a cover hides the table before
each person's turn, and the hand stays hidden while it is anyone else's turn.  Computer
players move after a short pause (``bot_delay``; 0 moves them at once, as the tests do).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Static

from ..bots.hints import hint, hint_sentence
from ..bots.levels import find_level
from ..bots.review import Progress, Review, ReviewSettings, review_hand
from ..cards import card_text
from ..errors import CanastaError
from ..moves import DRAW, MELD, PILE, Move, Phase
from ..selection import SELECT_TO_MELD
from ..text.labels import meld_label, play_words
from ..text.rulebook import rules_text
from ..views import View, public_view
from .replay import Replay
from .replay_app import ReplayScreen
from .reviewing import ReviewingScreen
from .saves import offer_choices
from .scoresheet import match_sheets
from .selection import offer
from .session import Session, SessionError, default_save_path
from .table import (
    Line,
    card_label,
    describe_groups,
    hand_lines,
    pile_line,
    players_lines,
    pretty_move,
    side_lines,
    side_name,
    width_of,
)
from .widgets import (
    ChoiceScreen,
    CoverScreen,
    PromptScreen,
    QuitScreen,
    TextScreen,
    no_color,
    text_rows,
    to_text,
    too_small,
)
from .words import Narrator, new_cards_words, numbered, tell

KEYS: list[Line] = [
    [("←→", "bold"), (" cursor  ", ""), ("space", "bold"), (" select  ", ""), ("esc", "bold"), (" clear  ", ""),
     ("d", "bold"), (" draw  ", ""), ("p", "bold"), (" pile  ", ""), ("m", "bold"), (" meld  ", ""),
     ("x", "bold"), (" discard  ", ""), ("a", "bold"), (" ask", "")],
    [("y n", "bold"), (" answer  ", ""), ("?", "bold"), (" hint  ", ""), (":", "bold"), (" type  ", ""),
     ("L", "bold"), (" log  ", ""), ("s", "bold"), (" scores  ", ""), ("r", "bold"), (" rules  ", ""),
     ("k", "bold"), (" keys  ", ""), ("q", "bold"), (" quit", "")],
]

SHORT_KEYS: list[Line] = [
    [("d", "bold"), (" draw  ", ""), ("p", "bold"), (" pile  ", ""), ("m", "bold"), (" meld  ", ""),
     ("x", "bold"), (" discard  ", ""), ("?", "bold"), (" hint  ", ""), ("k", "bold"), (" keys  ", ""),
     ("q", "bold"), (" quit", "")],
]
"""The keys line of a narrow terminal: the moves, the key list and leaving."""

KEY_LIST = [
    "Your hand",
    "  ← → h l  the cursor over your hand (Home End: to either end)",
    "  Space    select or unselect the card under the cursor",
    "  Esc      unselect every card and clear the message",
    "Moves",
    "  d        draw from the stock",
    "  p        take the pile (with the selected cards, or choose how)",
    "  m        meld the selected cards (asks the wild cards' rank if need be)",
    "  x        discard the selected card, or the one under the cursor",
    "  a        ask your partner: may I go out?   y n: answer yes or no",
    "  : /      type a move: draw · pile 9S 9H · meld KS KD, Q: JK · discard 4C",
    "  ?        a hint: the search's move and why (it thinks about 0.2 s)",
    "Pages",
    "  L        the moves of this hand, in words",
    "  f        every meld in full, card by card",
    "  s        the score sheet, hand by hand",
    "  r        the rules of this table, in full",
    "  k F1     this list",
    "Screen and match",
    "  c        colours off or on (NO_COLOR or --no-color: start without)",
    "  S        save the match to a file    q Ctrl-C: leave (asks first)",
    "  Enter    the next hand once a hand is over; at the match's end: play again",
    "  v        once a hand is over: review your decisions in it, then replay it with each one marked",
    "",
    "Short forms on the table",
    "  K×5·3w   a meld of 5 kings, 3 of them wild cards (f: every card)",
    "  W×4      a meld of wild cards only",
    "  natural  a canasta (7 cards or more) without wild cards",
    "  mixed    a canasta with some wild cards;  wild: of wild cards only",
    "  ▶        whose turn it is;  (dealer): who dealt",
    "  holds    cards known to be in a hand: taken with the pile",
    "  left     at the hand's end: the cards left in each hand",
    "  FROZEN   the pile may be taken only with a natural pair of its top card",
]

def reflow(text: str) -> list[str]:
    r"""Markdown's lines joined into whole paragraphs and list items, for the page to wrap at its width.

    >>> reflow("# Title\nOne line\nand its rest.\n\n- an item\n  going on\n- another")
    ['# Title', 'One line and its rest.', '', '- an item going on', '- another']
    """
    lines: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        starts = re.match(r"(#|[-*|>]\s|\d+\.\s)", stripped)
        if lines and lines[-1].strip() and stripped and not starts and not lines[-1].lstrip().startswith(("#", "|")):
            lines[-1] += " " + stripped
        else:
            lines.append(line)
    return lines


def same_move(a: Move, b: Move) -> bool:
    """The same move, whatever the order of its groups."""
    def key(m: Move) -> tuple[str, int | None, list[tuple[int, list[int]]]]:
        return m.action, m.card, sorted((g.rank, sorted(g.cards)) for g in m.groups)

    return key(a) == key(b)


PHASE_PROMPTS = {
    "draw": "draw (d) or take the pile (p)",
    "play": "meld (m) or discard (x)",
}


class TableScreen(Screen[None]):
    """The table, the hand and the keys of the person whose turn it is."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "cursor(-1)", "left", show=False),
        Binding("right,l", "cursor(1)", "right", show=False),
        Binding("home", "cursor_to(0)", show=False),
        Binding("end", "cursor_to(-1)", show=False),
        Binding("space", "select_card", "select", show=False),
        Binding("escape", "clear", "clear", show=False),
        Binding("d", "draw", "draw", show=False),
        Binding("p", "pile", "take the pile", show=False),
        Binding("m", "meld", "meld", show=False),
        Binding("x", "discard", "discard", show=False),
        Binding("a", "simple('ask')", "ask", show=False),
        Binding("y", "simple('yes')", "yes", show=False),
        Binding("n", "simple('no')", "no", show=False),
        Binding("question_mark", "hint", "hint", show=False),
        Binding("k,f1", "keys", "keys", show=False),
        Binding("r", "rules", "rules", show=False),
        Binding("f", "melds", "melds in full", show=False),
        Binding("c", "colours", "colours", show=False),
        Binding("colon,slash", "type_move", "type a move", show=False),
        Binding("L", "log", "log", show=False),
        Binding("s", "scores", "scores", show=False),
        Binding("S", "save", "save", show=False),
        Binding("q", "quit_table", "quit", show=False),
        Binding("enter", "enter", "next", show=False),
        Binding("v", "review_hand", "review this hand", show=False),
    ]
    DEFAULT_CSS = """
    TableScreen { padding: 0 1; }
    TableScreen > Static { height: auto; }
    #header { background: $primary-darken-2; color: $text; text-style: bold; }
    #keys { dock: bottom; color: $text-muted; }
    #status { color: $text; }
    """

    def __init__(self, session: Session, bot_delay: float = 0.4, save_path: str | None = None,
                 autosave: str | os.PathLike[str] | None = None, offer: Session | None = None,
                 mono: bool = False, seed: int | None = None) -> None:
        super().__init__()
        self.mono = mono  # no colours (NO_COLOR, --no-color, the c key)
        self.session = session
        self.autosave = autosave  # the file every move is kept in (None: not kept)
        self.offer = offer  # a match left unfinished, offered before this one starts
        self.asked_seed = seed  # the seed given on the command line (--seed), named when the offer is made
        self._given_path = save_path
        self.bot_delay = bot_delay
        self.save_path = save_path or default_save_path(session.seed)
        humans = session.humans
        self.hot_seat = len(humans) > 1
        self.viewer = humans[0] if humans else 0
        self.revealed: int | None = humans[0] if len(humans) == 1 else None  # whose hand shows
        self.last_human: int | None = None  # the last person whose hand showed (hot seat)
        self.cursor = 0
        self.selected: set[int] = set()
        self.message: Line = []
        self._told_to_wait = False
        self.shown: View | None = None  # the view the table was last drawn from
        self.drawn: dict[str, list[Line]] = {}  # each line widget's last content
        self._covering = False
        self._bot_waiting = False
        self._sheet_for = 0  # the hand whose score sheet was shown at its end
        self.hinted: Move | None = None  # the last hint's move, highlighted when a choice offers it
        self.narrator = Narrator(session.names, session.match.rules.sides)  # this hand's log in words (words.Narrator)
        self.told: list[tuple[int, str]] = []  # the narrator's log: (move number, sentence)
        self.review_settings: ReviewSettings | None = None  # the budget of "review this hand" (None: the default)
        self.reviews: dict[tuple[int, int], Review] = {}  # by (match seed, hand): reviewed once, replayed at once

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Header, sides, pile, players, hand, status, recent moves, keys."""
        for name in ("header", "sides", "pile", "players", "hand-title", "hand", "status", "recent"):
            yield Static(id=name)
        yield Static(id="keys")

    def on_mount(self) -> None:
        """Offer the match left unfinished, if any; then deal with whoever is to move first."""
        offer = self.offer
        if offer is None:
            self.advance()
            return

        seed = self.asked_seed

        def chosen(index: int | None) -> None:
            if index != 1:  # Enter and Esc keep the match left, too: only "new" replaces it
                if seed is not None and seed != offer.seed:
                    self.message = [(f"This is the match you left (seed {offer.seed}); seed {seed} is not used.",
                                     "bold")]
                self.session = offer
                self.save_path = self._given_path or default_save_path(offer.seed)
            self.offer = None
            self.advance()

        question, keep, new = offer_choices(offer.summary(), seed)
        self.app.push_screen(ChoiceScreen(f"{question} (Enter: continue it)", [keep, new]), chosen)

    def keep(self) -> None:
        """Write the autosave (after every move); a failure is said, and play goes on."""
        if self.autosave is not None and self.offer is None:
            problem = self.session.autosave(self.autosave)
            if problem is not None:
                self.message = [(problem, "bold red")]

    def note(self, *_: object) -> None:
        """Tell the log in words what happened since it last looked (every move passes here)."""
        s = self.session
        if self.narrator.names != s.names:
            self.narrator = Narrator(s.names, s.match.rules.sides)
        match = s.table.match
        self.narrator.follow(s.hand_number, match.dealt, match.outcomes, match.state.result)
        self.told = self.narrator.told

    def on_resize(self, event: Resize) -> None:
        """Lines wrap to the new width."""
        if self.shown is not None:
            self.redraw()

    @property
    def hand(self) -> tuple[int, ...]:
        """The revealed player's sorted hand, or nothing."""
        if self.revealed is None:
            return ()
        return tuple(sorted(self.session.state.hand(self.revealed)))

    def selected_cards(self) -> list[int]:
        """The cards selected, in hand order."""
        hand = self.hand
        return [hand[i] for i in sorted(self.selected) if i < len(hand)]

    def _set(self, widget: str, lines: list[Line]) -> None:
        self.drawn[widget] = lines
        static = self.query_one(f"#{widget}", Static)
        static.update(to_text(lines, self.mono))
        static.display = bool(lines)  # an empty Static would still take a row the fitting did not count

    def redraw(self) -> None:
        """Draw everything from the viewer's view (the hand only when revealed)."""
        s = self.session
        state = s.state
        view = state.view(self.viewer)
        self.shown = view
        width = max(20, self.size.width)  # the content area: the screen less its padding
        names = s.names
        mine = view.side if s.humans else None
        rules = view.rules
        totals = s.match.scores if state.is_over else None  # the hand's points count as soon as it ends
        header = f"Canasta · {rules.preset} · hand {s.hand_number} · to {rules.target:,} · seed {s.seed}"
        parts: dict[str, list[Line]] = {
            "header": [[(header, "")]],
            "sides": [],
            "pile": [pile_line(view, mine)],
            "players": players_lines(view, names, width),
        }
        hand = self.hand
        self.cursor = max(0, min(self.cursor, len(hand) - 1))
        self.selected = {i for i in self.selected if i < len(hand)}
        if self.revealed is None:
            title: Line = [("Hand hidden", "bold"), ("  (it shows on its owner's turn)" if s.humans else "", "dim")]
            parts["hand"] = []
        else:
            title = [(f"{names[self.revealed]}'s hand" if self.hot_seat else "Your hand", "bold"),
                     (f" · {len(hand)} card{'s' if len(hand) != 1 else ''}", "")]
            chosen = self.selected_cards()
            if chosen:
                title.append(("  selected: " + " ".join(card_label(c) for c in chosen), "bold yellow"))
            if view.sitting_out == self.revealed:
                title.append(("  (you sit out this hand)", "dim"))
            parts["hand"] = hand_lines(hand, self.cursor, frozenset(self.selected), width, self.fresh_places(hand))
            if self.fresh and not chosen:
                title.append(("  new: " + " ".join(card_label(c) for c in self.fresh), "bold"))
        parts["hand-title"] = [title]
        parts["status"] = ([self.message] if self.message else []) + [self.prompt()]
        # Fit the screen above the keys: every meld card by card on as many lines as the screen spares (two
        # rows kept for the recent moves), else shorter, then compact; then the recent moves give way; then the
        # keys take one line.  Only a terminal too small even for that gets the notice.
        wide = width >= max(width_of(line) for line in KEYS)
        for keys in (KEYS, SHORT_KEYS) if wide else (SHORT_KEYS,):
            budget = self.size.height - self.rows(keys, width)
            for meld_lines in range(max(2, (budget - 14) // max(1, rules.sides)), 0, -1):
                parts["sides"] = side_lines(view, names, width, mine, meld_lines=meld_lines, scores=totals)
                if sum(self.rows(lines, width) for lines in parts.values()) + 2 <= budget:
                    break
            spare = budget - sum(self.rows(lines, width) for lines in parts.values())
            if spare >= 0:
                break
        if any("×" in text for line in parts["sides"] for text, _ in line):  # short forms: say what they mean
            short = header.rsplit(" · seed ", 1)[0]
            legend = " · K×5·3w = 5 kings, 3 wild · f: full"
            for head, note in ((header, legend), (short, legend), (header, " · f: melds in full")):
                if len(head) + len(note) <= width:
                    parts["header"] = [[(head, ""), (note, "")]]
                    break
        parts["recent"] = self.recent(view, spare, width)
        if spare < 0:  # too small a terminal even for the short forms: say so rather than draw over the keys
            parts = {name: [] for name in parts}
            parts["header"] = [[(f"Canasta · hand {s.hand_number}", "")]]
            parts["status"] = too_small(*self.app.size, self.size.height - spare)
        self._set("keys", keys)
        for name, lines in parts.items():
            self._set(name, lines)

    def rows(self, lines: list[Line], width: int) -> int:
        """Terminal rows the lines take on this screen, wrapped between words as Textual wraps them."""
        return text_rows(self.app.console, lines, width)

    @property
    def fresh(self) -> list[int]:
        """The cards the revealed player drew or took with the pile, until their next move: from the engine's
        record of their last move this hand (so a match resumed mid-turn marks them again)."""
        if self.revealed is None:
            return []
        last = next((o for o in reversed(self.session.match.outcomes) if o.seat == self.revealed), None)
        return list(last.drew) if last is not None and last.move.action in (DRAW, PILE) else []

    def fresh_places(self, hand: tuple[int, ...]) -> frozenset[int]:
        """Where the cards just drawn or taken lie in the sorted hand."""
        places: set[int] = set()
        for code in self.fresh:
            index = next((i for i in range(len(hand) - 1, -1, -1) if hand[i] == code and i not in places), None)
            if index is not None:
                places.add(index)
        return frozenset(places)

    def prompt(self) -> Line:
        """What happens now, in words."""
        s = self.session
        state = s.state
        names = s.names
        if state.is_over:
            review = " · v: review it" if s.humans else ""
            if s.match.is_over:
                return [(f"The match is over. Enter: play again · s: the score sheet{review} · q: leave", "bold")]
            return [(f"The hand is over. Enter: the next hand · s: the score sheet{review}", "bold")]
        seat = state.to_act
        if s.table.is_bot(seat):
            return [(f"{names[seat]} is playing…", "dim")]
        if seat != self.revealed:
            return [(f"Pass the screen to {names[seat]}.", "bold")]
        if state.phase is Phase.ANSWER:
            return [(f"{names[state.turn]} asks you: may I go out? ", "bold green"), ("y", "bold"), (" yes · ", ""),
                    ("n", "bold"), (" no", "")]
        who = f"{names[seat]}, your turn" if self.hot_seat else "Your turn"
        if state.phase is Phase.PLAY and state.answer is not None:  # after asking: the partner's answer decides
            return [(f"{who}: ", "bold green"), (f"{play_words(state.answer)}; meld (m), discard (x)", "")]
        return [(f"{who}: ", "bold green"), (PHASE_PROMPTS.get(state.phase, state.phase), "")]

    def recent(self, view: View, rows: int, width: int) -> list[Line]:
        """The moves since the viewer last moved, in words, one a line, newest last, in the ``rows`` the screen
        has left (a move too long for one row wraps; those that do not fit are counted, and ``L`` shows them)."""
        history = view.history
        start = max((i + 1 for i, (seat, _) in enumerate(history) if seat == view.seat), default=0)
        moves = [text for i, text in self.told if i >= start]
        if not moves or rows <= 0:
            return []
        if rows == 1:
            return [[("Last: ", "dim"), (moves[-1], "")]]
        shown: list[Line] = []
        used = 1  # the heading
        for text in reversed(moves):
            line: Line = [("  " + text, "")]
            need = self.rows([line], width)
            if used + need > rows:
                break
            shown.insert(0, line)
            used += need
        earlier = len(moves) - len(shown)
        heading = "Since your last move" + (f" ({earlier} earlier: L shows them)" if earlier else "") + ":"
        return [[(heading, "dim")], *shown]

    def say(self, text: str, style: str = "") -> None:
        """Show a message above the prompt."""
        self.message = [(pretty_move(text), style)]
        self.redraw()

    # -- the flow of play ---------------------------------------------------------------

    def advance(self) -> None:
        """Let computer players move (at once, or one per pause), then hand over to a person."""
        s = self.session
        self.note()
        if self.bot_delay <= 0:
            s.table.run_bots(self.note)
        self.keep()
        state = s.state
        if state.is_over:
            if self.hot_seat:
                self.revealed = None
            self.redraw()
            if self._sheet_for != s.hand_number:
                self._sheet_for = s.hand_number
                self.show_sheet(at_end=True)
            return
        seat = state.to_act
        if s.table.is_bot(seat):
            if self.hot_seat:
                self.revealed = None
            self.redraw()
            if not self._bot_waiting:
                self._bot_waiting = True
                self.set_timer(self.bot_delay, self._bot_turn)
            return
        self.viewer = seat
        if self.hot_seat and self.last_human != seat:
            self.revealed = None
            self.redraw()
            self.cover(seat)
            return
        self._reveal(seat)

    async def _bot_turn(self) -> None:
        """One computer player's move, chosen in a thread so the screen stays live."""
        table = self.session.table
        if table.bot_to_act() is None:
            self._bot_waiting = False
            return
        turn = table.bot_turn()
        move = await asyncio.to_thread(turn.choose)
        self._bot_waiting = False
        if table.state_id == turn.state_id:  # nothing moved meanwhile
            table.submit(turn.seat, move, turn.state_id)
            self.note()
            if self._told_to_wait:
                self.message, self._told_to_wait = [], False
        self.advance()

    def cover(self, seat: int) -> None:
        """Hide the table until ``seat``'s player says they alone look."""
        if self._covering:
            return
        self._covering = True

        def reveal(_: None) -> None:
            self._covering = False
            self.selected.clear()
            self.message = []
            if self.session.state.to_act == seat and not self.session.state.is_over:
                self._reveal(seat)
            else:
                self.advance()

        self.app.push_screen(CoverScreen(self.session.names[seat]), reveal)

    def _reveal(self, seat: int) -> None:
        self.revealed = self.last_human = seat
        self.viewer = seat
        self.redraw()

    def my_turn(self) -> bool:
        """True when a person at this screen may move now (their hand showing)."""
        state = self.session.state
        return not state.is_over and state.to_act == self.revealed and not self.session.table.is_bot(state.to_act)

    def not_my_turn(self) -> bool:
        """Say so when no person at this screen may move now."""
        state = self.session.state
        if state.is_over:
            self.say("The hand is over: press Enter for the next hand.", "bold yellow")
        elif not self.my_turn():
            self.say(f"It is {self.session.names[state.to_act]}'s turn.", "bold yellow")
            self._told_to_wait = True  # gone with the next computer move: it would go stale
        else:
            return False
        return True

    def play(self, move: Move | str) -> bool:
        """Play a person's move; an illegal one shows the engine's reason."""
        s = self.session
        if self.not_my_turn():
            return False
        seat = s.state.to_act
        try:
            applied = s.play(move)
        except CanastaError as exc:
            self.say(f"Not allowed: {exc}", "bold red")
            return False
        self.note()
        self.selected.clear()
        self.message = []
        self.hinted = None
        outcome = s.table.match.outcomes[-1]  # what the engine says the move did
        who = "You" if not self.hot_seat else s.names[seat]
        if applied.action in (DRAW, PILE) and not s.state.is_over:
            self.message = [(new_cards_words(who, outcome), "bold")]
        else:  # a sentence for every move of one's own: "You melded 9♠ 9♥ 9♦."
            names = [who if i == seat else name for i, name in enumerate(s.names)]
            self.message = [("; ".join(tell(outcome, s.match.state.result, names)) + ".", "bold")]
        self.advance()
        return True

    def show_sheet(self, at_end: bool = False) -> None:
        """The itemised score of every hand; at a hand's end Enter deals the next."""
        s = self.session
        match = s.match
        width = max(40, min(120, self.app.size.width) - 4)  # the page: the dialog less its border and padding
        review = " · v: review this hand" if s.humans else ""
        if at_end and not match.is_over:
            title = f"Hand {len(match.results)} is over"
            help_text = f"Enter: deal the next hand{review} · Esc: the table"
        elif at_end:
            title, help_text = "The match is over", f"Enter: play again · q: leave · Esc: back to the table{review}"
        else:
            title, help_text = "Score sheet", "Esc: close · ↑↓ PgUp PgDn: scroll"
        lines = match_sheets(match, width)
        view = public_view(s.state)
        if at_end and view.hands_left:  # every hand is turned up when the hand ends
            out = view.result.went_out if view.result is not None else None
            lines = ["Cards left in each hand:",
                     *(f"  {s.names[seat]}: "
                       + (describe_groups(cards) if cards else "went out" if seat == out
                          else "sat out this hand" if seat == view.sitting_out else "none")
                       for seat, cards in enumerate(view.hands_left)), "", *lines]
        self.app.push_screen(TextScreen(title, lines, help_text,
                                        enter_result=("again" if match.is_over else "next") if at_end else None,
                                        answers={"v": "review"} if at_end and review else None),
                             self._after_sheet)

    def _after_sheet(self, answer: str | None) -> None:
        if answer == "review":
            self.action_review_hand()
        elif answer == "next":
            self.next_hand()
        elif answer == "again":
            self.play_again()
        elif answer == "quit":
            self.action_quit_table()

    def next_hand(self) -> None:
        """Deal the next hand when this one is over."""
        s = self.session
        if not s.state.is_over or s.match.is_over:
            return
        s.deal_next()
        self.selected.clear()
        self.cursor = 0
        self.message = []
        self.advance()

    def play_again(self) -> None:
        """A new match at the same table: the same rules and seats, a new shuffle."""
        old = self.session
        if not old.match.is_over:
            return
        self.session = Session.new(old.match.rules, old.seats, random.randrange(2**31))
        self.save_path = self._given_path or default_save_path(self.session.seed)
        self._sheet_for = 0
        self.narrator = Narrator(self.session.names, self.session.match.rules.sides)
        self.selected.clear()
        self.cursor = 0
        self.message = [("A new match: the same table, a new shuffle.", "bold green")]
        self.advance()

    # -- keys ---------------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        """Move the cursor over the hand."""
        if self.hand:
            self.cursor = (self.cursor + step) % len(self.hand)
            self.redraw()

    def action_cursor_to(self, index: int) -> None:
        """Home and End."""
        if self.hand:
            self.cursor = index % len(self.hand)
            self.redraw()

    def action_select_card(self) -> None:
        """Select or unselect the card under the cursor."""
        if self.hand:
            self.selected ^= {self.cursor}
            self.redraw()

    def action_clear(self) -> None:
        """Unselect everything and clear the message."""
        self.selected.clear()
        self.message = []
        self.redraw()

    def action_draw(self) -> None:
        """Draw from the stock."""
        self.play("draw")

    def action_simple(self, word: str) -> None:
        """Ask, yes, no."""
        self.play(word)

    def action_discard(self) -> None:
        """Discard the selected card, or the one under the cursor."""
        if self.not_my_turn():
            return
        cards = self.selected_cards()
        if not cards and self.hand:
            cards = [self.hand[self.cursor]]
        if len(cards) != 1:
            self.say("Select one card to discard.", "bold yellow")
            return
        self.play(f"discard {card_text(cards[0])}")

    def action_meld(self) -> None:
        """Meld the selected cards: every way the engine sees them, a choice when there are several."""
        self._offer(MELD)

    def action_pile(self) -> None:
        """Take the pile with the selected cards (the top card is implied), or choose among the ways to take it."""
        self._offer(PILE)

    def _offer(self, action: str) -> None:
        """Play ``action`` (meld, pile) with the selected cards as the selection service sees them
        (:func:`canasta.tui.selection.offer`, as the page does): one move is played, several offered
        (the hint's first chosen), none explained."""
        if self.not_my_turn():
            return
        state = self.session.state
        cards = self.selected_cards()
        found = offer(state, state.to_act, cards, action)
        if not found.moves:
            if found.reason == SELECT_TO_MELD:
                self.say("Select the cards to meld (Space), then press m.", "bold yellow")
            else:
                self.say(f"Not allowed: {found.reason}", "bold red")
            return
        if len(found.moves) == 1:
            self.play(found.moves[0])
            return
        self.choose_move(found.title, found.moves, found.labels)

    def choose_move(self, title: str, moves: list[Move], labels: list[str] | None = None) -> None:
        """Choose one of ``moves`` from a list, the hinted one highlighted."""
        def chosen(index: int | None) -> None:
            if index is not None:
                self.play(moves[index])

        hinted = next((i for i, m in enumerate(moves) if self.hinted is not None and same_move(m, self.hinted)), 0)
        self.app.push_screen(ChoiceScreen(title, labels or [pretty_move(str(m)) for m in moves], initial=hinted),
                             chosen)

    async def action_hint(self) -> None:
        """The computer player's suggestion and its reason; its cards are selected.

        The search behind it thinks in a thread (up to about 300 ms), so the screen stays live."""
        if self.not_my_turn():
            return
        state = self.session.state
        view = state.view(state.to_act)
        before = self.session.table.state_id
        move, reason = await asyncio.to_thread(hint, view, list(state.legal_moves()))
        if self.session.table.state_id != before or self.session.state is not state:
            return  # a move was made meanwhile: this hint is for a position gone
        hand = list(self.hand)
        picked: set[int] = set()
        for code in move.cards:
            index = next((i for i, c in enumerate(hand) if c == code and i not in picked), None)
            if index is not None:
                picked.add(index)
        self.selected = picked if move.action != PILE or move.groups else set()
        self.hinted = move
        self.message = [(f"Hint: {hint_sentence(move, reason)}", "bold cyan")]  # the page's and --plain's words
        self.redraw()

    def action_type_move(self) -> None:
        """Type a move in the project's notation."""
        def typed(text: str | None) -> None:
            if text:
                self.play(text)

        self.app.push_screen(PromptScreen(
            "Your move:", "", "draw · pile 9S 9H · meld KS KD KC, Q: JK · discard 4C · ask · yes · no",
            at_bottom=True), typed)

    def action_log(self) -> None:
        """The moves of this hand, in words."""
        self.note()
        lines = numbered(self.told)
        self.app.push_screen(TextScreen(f"Moves of hand {self.session.hand_number}",
                                        lines or ["No move yet in this hand."], at_end=True))

    def action_keys(self) -> None:
        """Every key, what the short forms on the table mean, and how strong this table's computer players are."""
        players = [f"  {seat.name}: {level.name}, {level.strength}" for seat in self.session.table.seats
                   if (level := find_level(seat.kind)) is not None and not seat.is_human]
        more = ["", "Computer players at this table (canasta bots lists every level)", *players] if players else []
        self.app.push_screen(TextScreen("Keys", KEY_LIST + more))

    def action_rules(self) -> None:
        """The complete rules of this table's game (its preset and every option set), scrollable."""
        rules = self.session.match.rules
        self.app.push_screen(TextScreen(f"The rules of this table ({rules.preset})", reflow(rules_text(rules))))

    def action_melds(self) -> None:
        """Every meld on the table in full, card by card, with the canastas named."""
        s = self.session
        view = s.state.view(self.viewer)
        lines: list[str] = []
        for side in range(view.rules.sides):
            lines.append(f"{side_name(s.names, view, side)}: {len(view.melds[side])} meld"
                         f"{'s' if len(view.melds[side]) != 1 else ''}")
            for rank in sorted(view.melds[side]):
                lines.append("  " + meld_label(rank, sorted(view.melds[side][rank]), view.canastas[side].get(rank)))
            if view.red_threes[side]:
                lines.append("  red threes: " + describe_groups(view.red_threes[side]))
            lines.append("")
        self.app.push_screen(TextScreen("Melds in full", lines))

    def action_colours(self) -> None:
        """Colours off (monochrome) or back on."""
        self.mono = not self.mono
        on = "Colours on (c: off)" + (", but NO_COLOR is set: the screen shows none." if no_color() else ".")
        self.say("Monochrome: colours off (c: on again)." if self.mono else on, "bold")

    def action_scores(self) -> None:
        """The score sheet."""
        self.show_sheet()

    def action_save(self, then_quit: bool = False) -> None:
        """Save the match to a file (the game record with its seats)."""
        def chosen(path: str | None) -> None:
            if not path:
                return
            try:
                self.session.save(path)
            except SessionError as exc:
                self.say(str(exc), "bold red")
                return
            self.save_path = path
            if then_quit:
                self.app.exit(0)
            else:
                self.say(f"Saved to {path}. Resume with: canasta play --resume {path}", "bold green")

        self.app.push_screen(PromptScreen("Save the match to:", self.save_path), chosen)

    def action_quit_table(self) -> None:
        """Leave, asking to save a match that is not over (Ctrl-C and Ctrl-Q too; asked twice, leave)."""
        if self.session.match.is_over:
            self.app.exit(0)
            return
        if isinstance(self.app.screen, QuitScreen):
            self.app.screen.dismiss("quit")
            return

        def answered(answer: str | None) -> None:
            if answer == "save":
                self.action_save(then_quit=True)
            elif answer == "quit":
                self.app.exit(0)

        kept = "n: leave; the match is kept for: canasta play --continue" if self.autosave is not None \
            else "n: leave without saving"
        self.app.push_screen(QuitScreen(f"y: save to a file and leave\n{kept}\nEsc: go on playing"), answered)

    def action_review_hand(self) -> None:
        """Review the hand just played for the people at this screen (a dialog shows the progress; Esc stops
        it), then replay it with each of their decisions marked: one person's hand as they saw it."""
        s = self.session
        if not s.state.is_over:
            self.say("The review is offered once the hand is over.", "bold yellow")
            return
        if not s.humans:
            self.say("Nobody plays at this screen: canasta review FILE reviews computer players.", "bold yellow")
            return
        hand = len(s.match.hands) - 1
        seats = list(s.humans)
        replay = Replay.from_record(s.to_record())  # the session's own record, as it stands now
        seat = seats[0] if len(seats) == 1 else None  # several people: every hand, now that it is over
        settings = self.review_settings
        key = (s.seed, hand)

        def job(progress: Progress) -> Review:
            return review_hand(replay.match, hand, seats, settings, progress=progress)

        def opened(review: Review | None) -> None:
            if review is None:
                self.redraw()
                return
            self.reviews[key] = review
            replay.seek(replay.hand_start(hand))
            self.app.push_screen(ReplayScreen(replay, seat, review))

        if key in self.reviews:
            opened(self.reviews[key])
            return
        who = " and ".join(s.names[seat] for seat in seats)
        self.app.push_screen(ReviewingScreen(job, f"hand {hand + 1} for {who}"), opened)

    def action_enter(self) -> None:
        """Enter: the next hand, or a new match at the end of the match."""
        if self.session.state.is_over:
            if self.session.match.is_over:
                self.play_again()
            else:
                self.next_hand()


class PlayApp(App[int]):
    """``canasta play``: one match at this screen."""

    TITLE = "Canasta"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "leave", "quit", show=False, priority=True),
        Binding("ctrl+c", "leave", "quit", show=False, priority=True),
    ]

    def __init__(self, session: Session, bot_delay: float = 0.4, save_path: str | None = None,
                 autosave: str | os.PathLike[str] | None = None, offer: Session | None = None,
                 mono: bool | None = None, seed: int | None = None) -> None:
        super().__init__(ansi_color=True if no_color() else None)  # NO_COLOR: Textual's own colours go too
        if mono is None:
            mono = no_color()
        self.table = TableScreen(session, bot_delay, save_path, autosave, offer, mono, seed)

    def action_leave(self) -> None:
        """Ctrl-C, Ctrl-Q: the question ``q`` asks (asked again: leave)."""
        self.table.action_quit_table()

    def get_default_screen(self) -> Screen[None]:
        """The table is the first screen."""
        return self.table
