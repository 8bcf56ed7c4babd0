"""One check every screen of the terminal shares: nothing is drawn off the screen or over anything else.

:func:`check_layout` reads the regions Textual's compositor gave every widget of the screen on
top (a dialog's screen holds only the dialog: the table under it is another screen, drawn
first, as a dialog is meant to cover it) and checks, for each widget:

- it lies inside the screen, whole, unless it scrolls inside a box that does (a page of text);
- its parent does not clip it (a line cut at its end or its foot);
- it does not overlap any widget that is neither its ancestor nor its descendant;
- the screen itself does not scroll (nothing was pushed below its foot, under the keys);
- no seat, side or player is counted from 0 on it (people count from 1: :mod:`tests.numbering`).

``shown`` names strings that must be on the screen whole, each on one line (names, prompts).
:func:`run_at` drives an app at one size; :func:`screen_text` reads every cell as text.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from rich.console import Console
from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget

from ..numbering import zero_based

SWEEP = [(80, 24), (100, 30), (120, 40), (60, 20)]
"""The sizes every screen is checked at: the classic terminal, two larger ones and a small one."""


def screen_text(app: App[Any]) -> str:
    """Every cell of the terminal as text, dialogs and the screens under them included."""
    console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(), record=True,
                      legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def run_at(app: App[Any], size: tuple[int, int], script: Callable[[Pilot[Any]], Awaitable[None]]) -> None:
    """Run ``script`` against ``app`` in a headless terminal of ``size`` (columns, rows)."""
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def _scrolls(widget: Widget) -> bool:
    """A box whose content may be taller or wider than itself, on purpose (a page, a list)."""
    if isinstance(widget, Screen):
        return False
    styles = widget.styles
    return styles.overflow_y in ("auto", "scroll") or styles.overflow_x in ("auto", "scroll")


def _scrolling_ancestor(widget: Widget, screen: Screen[Any]) -> Widget | None:
    node = widget.parent
    while isinstance(node, Widget) and node is not screen:
        if _scrolls(node):
            return node
        node = node.parent
    return None


def _name(widget: Widget) -> str:
    return f"{type(widget).__name__}" + (f"#{widget.id}" if widget.id else "") + \
        "".join(f".{c}" for c in sorted(widget.classes))


def layout_problems(app: App[Any]) -> list[str]:
    """Every widget off the screen, clipped by its parent, or drawn over another (empty: all is well)."""
    screen = app.screen
    whole = Region(0, 0, app.size.width, app.size.height)
    problems: list[str] = []
    placed: list[tuple[Widget, Region]] = []
    for widget, geometry in screen._compositor.full_map.items():
        if widget is screen or not widget.display or not widget.visible:
            continue
        region = geometry.region
        if not region.area:
            continue
        if _scrolling_ancestor(widget, screen) is not None:
            continue  # inside a page that scrolls: the page is checked, its lines may run past it
        if whole.intersection(region) != region:
            problems.append(f"{_name(widget)} at {tuple(region)} runs off the {app.size.width}x{app.size.height} "
                            "screen")
        elif geometry.clip.intersection(region) != region:
            problems.append(f"{_name(widget)} at {tuple(region)} is cut by its box {tuple(geometry.clip)}")
        placed.append((widget, region))
    for i, (a, region_a) in enumerate(placed):
        for b, region_b in placed[i + 1:]:
            if a in b.ancestors or b in a.ancestors:
                continue
            if region_a.overlaps(region_b):
                problems.append(f"{_name(a)} at {tuple(region_a)} and {_name(b)} at {tuple(region_b)} overlap")
    if screen.max_scroll_y > 0 or screen.max_scroll_x > 0:
        problems.append(f"the screen scrolls ({screen.virtual_size} in {screen.size}): something is drawn below it")
    return problems


def check_layout(app: App[Any], shown: Iterable[str] = (), wrapped: Iterable[str] = ()) -> str:
    """Assert the screen on top is laid out without overlap or clipping; returns its text.

    Each string of ``shown`` must be on the screen whole, on one line (names, card lines); each of
    ``wrapped`` may run over several lines, broken between words (a prompt, a message).
    """
    problems = layout_problems(app)
    text = screen_text(app)
    assert not problems, f"{app.size.width}x{app.size.height} {type(app.screen).__name__}:\n" + \
        "\n".join(problems) + "\n" + text
    assert not zero_based(text), f"counted from 0: {zero_based(text)}\n{text}"
    lines = text.splitlines()
    assert len(lines) <= app.size.height and all(len(line) <= app.size.width for line in lines)
    for wanted in shown:
        assert any(wanted in line for line in lines), f"{wanted!r} is not whole on one line:\n{text}"
    flowing = " ".join(" ".join(line.strip(" │║▎▊").split()) for line in lines)
    for wanted in wrapped:
        assert " ".join(wanted.split()) in flowing, f"{wanted!r} is not on the screen:\n{text}"
    return text
