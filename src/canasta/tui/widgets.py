"""Textual pieces of the terminal table: styled lines, and the dialogs (cover, prompt, choice, text).

Every dialog answers through ``dismiss``: the cover with nothing, a prompt with its text,
a choice with the index chosen, a text page with ``"enter"`` or None.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.console import Console
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.events import Key
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from .table import Line

DIALOG_CSS = """
PromptScreen, ChoiceScreen, QuitScreen { align: center middle; }
.dialog { width: 76; max-width: 100%; height: auto; max-height: 100%; margin: 1 1;
          border: round $accent; background: $surface; padding: 0 1; }
.dialog-title { text-style: bold; }
.dialog-help { color: $text-muted; }
PromptScreen.bottom { align: center bottom; background: $background 0%; }
PromptScreen.bottom .dialog { width: 100%; margin: 0; border: none; border-top: solid $accent; padding: 0 1; }
"""


ATTRIBUTES = frozenset({"bold", "dim", "italic", "underline", "reverse", "strike"})
"""The parts of a style a monochrome screen keeps: no colour, no background."""


def monochrome(style: str) -> str:
    """``style`` without its colours (``bold #ff5f5f`` → ``bold``; a background alone → ``italic``)."""
    words = style.split()
    kept = [w for w in words if w in ATTRIBUTES]
    if not kept and "on" in words:  # a mark made by colour alone (the cards just drawn): keep it seen
        kept = ["italic"]
    return " ".join(kept)


def to_text(lines: Sequence[Line], mono: bool = False) -> Text:
    """Styled lines as one Rich text (``mono``: without colours, for NO_COLOR and the ``c`` key)."""
    text = Text(no_wrap=False, end="")
    for n, line in enumerate(lines):
        if n:
            text.append("\n")
        for piece, style in line:
            text.append(piece, (monochrome(style) if mono else style) or None)
    return text


MIN_SIZE = (80, 24)
"""The terminal the screens are laid out for; a smaller one gets short forms, and a notice only when even
they overflow (how small that is depends on what the table holds: ``too_small`` names it)."""


def no_color() -> bool:
    """True when ``NO_COLOR`` is set and not empty (https://no-color.org): no colour on the screen at all."""
    return bool(os.environ.get("NO_COLOR"))


def text_rows(console: Console, lines: Sequence[Line], width: int) -> int:
    """Terminal rows ``lines`` take at ``width`` columns, wrapped between words as a Static wraps them."""
    if not lines:
        return 0
    return len(to_text(lines).wrap(console, width))


def too_small(width: int, height: int, rows: int) -> list[Line]:
    """The notice a screen shows instead of drawing over itself: ``rows``, what the table needs at this width.

    >>> too_small(60, 14, 17)[0][0][0]
    'This terminal is 60×14: at this width the table needs 17 rows. Make it taller or wider (q: leave).'
    """
    return [[(f"This terminal is {width}×{height}: at this width the table needs {rows} rows. Make it taller "
              "or wider (q: leave).", "bold yellow")]]


class CoverScreen(Screen[None]):
    """Hides the table between two people's turns at one screen (hot seat)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "reveal", "show my hand")]
    DEFAULT_CSS = """
    CoverScreen { align: center middle; background: $background; }
    CoverScreen > Static { width: auto; max-width: 100%; border: double $accent; padding: 1 2; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        """One box in the middle of an empty screen."""
        yield Static(Text.assemble(
            ("Pass the screen to ", ""), (self.player, "bold"), (".\n\n", ""),
            (f"{self.player}, press Enter when only you can see the screen.", ""),
        ), id="cover")

    def action_reveal(self) -> None:
        """Back to the table, with this player's hand."""
        self.dismiss(None)


class PromptScreen(ModalScreen[str | None]):
    """One line of text: a move in notation, or a file name."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]
    DEFAULT_CSS = DIALOG_CSS

    def __init__(self, title: str, value: str = "", help_text: str = "", at_bottom: bool = False) -> None:
        super().__init__(classes="bottom" if at_bottom else None)
        self.title_text = title
        self.value = value
        self.help_text = help_text

    def compose(self) -> ComposeResult:
        """Title, input, help."""
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield Input(value=self.value, id="prompt-input")
            yield Static(self.help_text or "Enter: OK · Esc: cancel", classes="dialog-help")

    def on_mount(self) -> None:
        """Type at once."""
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: answer with the text."""
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        """Esc: answer nothing."""
        self.dismiss(None)


class ChoiceScreen(ModalScreen[int | None]):
    """Choose one of a few labelled options (arrows and Enter, or the option's number)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel"),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 10)),
    ]
    DEFAULT_CSS = DIALOG_CSS

    def __init__(self, title: str, labels: Sequence[str], initial: int = 0) -> None:
        super().__init__()
        self.title_text = title
        self.labels = list(labels)
        self.initial = initial

    def compose(self) -> ComposeResult:
        """Title, numbered options, help."""
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            yield OptionList(*[Option(f"{n}. {label}" if n < 10 else f"   {label}")
                               for n, label in enumerate(self.labels, 1)], id="choices")
            yield Static("↑↓ and Enter, or a number · Esc: cancel", classes="dialog-help")

    def on_mount(self) -> None:
        """Arrows work at once, from the option given first (the hinted one)."""
        options = self.query_one(OptionList)
        options.focus()
        options.highlighted = self.initial

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on an option."""
        self.dismiss(event.option_index)

    def action_pick(self, index: int) -> None:
        """A number key."""
        if index < len(self.labels):
            self.dismiss(index)

    def action_cancel(self) -> None:
        """Esc: choose nothing."""
        self.dismiss(None)


class TextScreen(ModalScreen[str | None]):
    """A page of text (the move log, the score sheet) over the table; Esc closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "close"),
        Binding("enter", "enter", show=False),
        *(Binding(key, "close", show=False) for key in ("s", "L", "l")),
        Binding("q", "leave", show=False),
    ]
    DEFAULT_CSS = DIALOG_CSS + """
    TextScreen { align: center top; }
    TextScreen .dialog { width: 100%; max-width: 120; height: 100%; margin: 0; }
    TextScreen VerticalScroll { height: 1fr; }
    """

    def __init__(self, title: str, lines: Sequence[str], help_text: str = "Esc: close · ↑↓ PgUp PgDn: scroll",
                 enter_result: str | None = None, at_end: bool = False,
                 answers: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.at_end = at_end
        self.title_text = title
        self.lines = list(lines)
        self.help_text = help_text
        self.enter_result = enter_result
        self.answers = dict(answers or {})  # more keys that close the page with an answer ("v": "review")

    def compose(self) -> ComposeResult:
        """Title, scrolling text, help."""
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="dialog-title")
            with VerticalScroll(id="page"):
                yield Static(Text("\n".join(self.lines)), id="page-text")
            yield Static(self.help_text, classes="dialog-help")

    def on_mount(self) -> None:
        """Scroll keys work at once; a log opens at its newest line."""
        page = self.query_one(VerticalScroll)
        page.focus()
        if self.at_end:
            page.scroll_end(animate=False)

    def on_key(self, event: Key) -> None:
        """A key of :attr:`answers`: close the page with its answer."""
        if event.key in self.answers:
            event.stop()
            self.dismiss(self.answers[event.key])

    def action_close(self) -> None:
        """Close the page."""
        self.dismiss(None)

    def action_leave(self) -> None:
        """q: close, asking the screen below to leave."""
        self.dismiss("quit")

    def action_enter(self) -> None:
        """Enter: the page's own answer (the next hand), else close."""
        self.dismiss(self.enter_result)


class QuitScreen(ModalScreen[str | None]):
    """Leaving: save first, leave without saving, or stay."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("y", "answer('save')"), Binding("n", "answer('quit')"),
                Binding("escape", "answer('stay')"), Binding("q", "answer('quit')", show=False)]
    DEFAULT_CSS = DIALOG_CSS

    def __init__(self, help_text: str = "y: save and leave · n: leave without saving · Esc: go on playing") -> None:
        super().__init__()
        self.help_text = help_text

    def compose(self) -> ComposeResult:
        """The question."""
        with Vertical(classes="dialog"):
            yield Static("Save the match before you leave?", classes="dialog-title")
            yield Static(self.help_text, classes="dialog-help")

    def action_answer(self, answer: str) -> None:
        """The player's answer."""
        self.dismiss(answer)
