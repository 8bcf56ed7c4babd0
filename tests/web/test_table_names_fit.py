"""Long names at the table: four players with twenty-character names (the longest name an account takes,
``canasta.web.room.accounts.NAME``) neither wrap the top bar onto more rows nor shrink the cards.  A name too
long for its room is cut with an ellipsis and shows whole in its tooltip; a name shown whole has none.

The tables are crafted state messages (tests/web/test_table.py ``crafted_state``), each drawn twice at the same
size, once with short names and once with long ones: the long names may cost the cards nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from canasta.web.room.accounts import NAME

from .browser_helpers import Server, each, frames, skip_without_browser
from .test_table import FITS, NAMES, crafted_state, open_crafted

skip_without_browser()

LONGEST_NAMES = ["Annabel_Christensen2", "Bartholomew-Maximili", "Christina_Evangeline", "Dominique-Fitzgerald",
                 "Evangeline-Winthrop1", "Maximilian_Rothschil"]
"""Names as long as an account's may be, with and without a place to break the line."""
DESKTOP = (1366, 768)
LARGE = (1920, 1080)
SMALL_PHONE = (360, 740)

NAME_TITLES = """() => {
  const out = [];
  for (const e of document.querySelectorAll('#scores .score-names, #players .player-name, #sides .side-names')) {
    if (!e.getClientRects().length) continue;
    const whole = e.textContent.trim();
    const cut = e.scrollWidth > e.clientWidth + 0.5 || e.scrollHeight > e.clientHeight + 0.5;
    if (cut && e.title !== whole) out.push(`the name "${whole}" is cut and its tooltip says "${e.title}"`);
    if (!cut && e.hasAttribute('title')) out.push(`the name "${whole}" is whole and has a tooltip`);
  }
  return out;
}"""
"""The names cut to fit and their tooltips: the problems found, as sentences."""
CUT_NAME = re.compile(r'^the name ".*" is cut: ')
"""table_fits.js's sentence for a name cut short, which a name with its whole text in its tooltip may be here."""


def measure(page: Any) -> dict[str, Any]:
    """The top bar's height, the narrowest card of the hand, and the layout's problems."""
    frames(page)
    found: dict[str, Any] = page.evaluate(
        "() => ({bar: document.querySelector('.topbar').getBoundingClientRect().height,"
        " card: Math.min(...[...document.querySelectorAll('#hand .card')].map(e => e.getBoundingClientRect().width))})")
    found["problems"] = [p for p in page.evaluate(FITS) if not CUT_NAME.match(p)] + page.evaluate(NAME_TITLES)
    return found


def test_the_names_are_as_long_as_an_account_allows() -> None:
    assert all(len(name) == 20 and NAME.fullmatch(name) for name in LONGEST_NAMES)
    assert not NAME.fullmatch(LONGEST_NAMES[0] + "x")


@pytest.mark.parametrize(("size", "hand", "melds"), [
    (DESKTOP, 15, 8), (DESKTOP, 22, 12), (LARGE, 22, 12), (SMALL_PHONE, 15, 8)])
def test_long_names_cost_the_cards_nothing(server: Server, new_context: Callable[..., Any],
                                           size: tuple[int, int], hand: int, melds: int) -> None:
    """With twenty-character names the table fits as with short ones: the top bar keeps its rows (on a larger
    screen) and the hand's cards their size; every name cut short shows whole in its tooltip."""
    seen = {}
    for label, names in (("short", NAMES), ("long", LONGEST_NAMES)):
        page = open_crafted(new_context(), size=size, base=server.base,
                            message=crafted_state(hand=hand, melds_per_side=melds, names=names))
        seen[label] = measure(page)
        if label == "long":
            text = " ".join(each(page, "#scores .score-names, #players .player-name", "e => e.textContent"))
            assert all(name in text for name in LONGEST_NAMES[:4]), text
        page.close()
    short, long = seen["short"], seen["long"]
    where = f"{size[0]}x{size[1]}, {hand} cards and {melds} melds a side"
    if size[0] > 700:  # a phone's top bar gives each side's names up to three lines
        assert long["bar"] <= short["bar"] + 2, f"{where}: the long names wrap the top bar: {short} {long}"
    assert long["card"] >= short["card"] - 1, f"{where}: the long names shrink the cards from {short} to {long}"
    assert not long["problems"], f"{where}:\n" + "\n".join(long["problems"][:20])
