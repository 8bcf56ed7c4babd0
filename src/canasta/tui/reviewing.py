"""A review being made, in a dialog: its progress, and Esc to stop it; the screen stays live meanwhile.

The review runs in a thread of its own (a daemon: leaving the app never waits for it); each
decision judged redraws the bar, through Textual's ``call_from_thread``.  The dialog answers with
the :class:`~canasta.bots.review.Review`, or None when stopped (the thread ends at the next
decision) or when the review could not run (said first).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..bots.review import Progress, Review
from ..errors import CanastaError
from .widgets import DIALOG_CSS

BAR = 30
"""Cells of the progress bar."""


class Stopped(Exception):
    """Raised in the review's thread, from its progress, when Esc stopped it."""


def bar(done: int, total: int) -> str:
    """``██████░░░░ 3 of 5 decisions``.

    >>> bar(1, 3)
    '██████████░░░░░░░░░░░░░░░░░░░░ 1 of 3 decisions'
    """
    filled = BAR * done // total if total else 0
    return f"{'█' * filled}{'░' * (BAR - filled)} {done} of {total} decision{'s' if total != 1 else ''}"


class ReviewingScreen(ModalScreen[Review | None]):
    """The review of ``what`` being made by ``job`` (given the progress to tell)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "stop", "stop")]
    DEFAULT_CSS = DIALOG_CSS + "ReviewingScreen { align: center middle; }"

    def __init__(self, job: Callable[[Progress], Review], what: str) -> None:
        super().__init__()
        self.job = job
        self.what = what
        self.stopped = False
        self.failed: str | None = None

    def compose(self) -> ComposeResult:
        """Title, bar, help."""
        with Vertical(classes="dialog"):
            yield Static(f"Reviewing {self.what}", classes="dialog-title")
            yield Static("Each decision is played out in sampled deals of the hidden cards…", id="progress")
            yield Static("Esc: stop", classes="dialog-help", id="review-help")

    def on_mount(self) -> None:
        """Start the review in a thread."""
        threading.Thread(target=self._work, name="review", daemon=True).start()

    def on_unmount(self) -> None:
        """Gone (stopped, done, or the app closing): the thread ends at its next decision, never holding the exit."""
        self.stopped = True

    def _work(self) -> None:
        app = self.app

        def progress(done: int, total: int) -> None:
            if self.stopped:
                raise Stopped
            try:
                app.call_from_thread(self._show, done, total)
            except RuntimeError:  # the app has closed
                raise Stopped from None

        try:
            review = self.job(progress)
            if not self.stopped:
                app.call_from_thread(self.dismiss, review)
        except Stopped:
            pass
        except Exception as exc:  # said in the dialog: an exception in a thread would vanish unseen
            if not self.stopped:
                why = str(exc) if isinstance(exc, CanastaError) else f"{type(exc).__name__}: {exc}"
                app.call_from_thread(self._fail, why)

    def _show(self, done: int, total: int) -> None:
        if not self.stopped:
            self.query_one("#progress", Static).update(bar(done, total))

    def _fail(self, why: str) -> None:
        self.failed = why
        self.query_one("#progress", Static).update(f"The review cannot run: {why}")
        self.query_one("#review-help", Static).update("Esc: back")

    def action_stop(self) -> None:
        """Esc: stop the review (its thread ends after the decision it is judging) and go back."""
        self.stopped = True
        self.dismiss(None)
