"""A canasta of wild cards (``wild_card_melds``) is called *wild* by the engine and by every front end.

The bug this pins (issue 13): the plain terminal and the browser page counted wild cards
themselves and called a meld of seven wild cards a *mixed* canasta, while the TUI said *wild*
and the engine scored it 2,000.  Now each meld's kind comes from the view
(``PublicView.canastas``) and each front end only renders it: the plain terminal's text, the
TUI's table lines and the browser page (rendered in Debian's Chromium from the server's own
``state`` message) all say "wild" for it and none says "mixed".  The score sheet's rows come
from the engine too (``scoring.sheet_rows``), with the wild card canasta's 2,000 on a row of
its own.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from canasta.cards import WILD_MELD
from canasta.position import from_position
from canasta.scoring import sheet_rows
from canasta.state import GameState
from canasta.tui.plain import result_text, table_text
from canasta.tui.scoresheet import hand_sheet
from canasta.tui.table import plain, side_lines
from canasta.views import View, make_view, public_view

KING = 1  # meld ranks: A K Q ...
QUEEN = 2
POSITION: dict[str, Any] = {
    "rules": {"preset": "classic", "wild_card_melds": True},
    "dealer": 3,
    "turn": 0,
    "scores": [0, 0],
    "hands": [["9S", "9H", "5S", "6S"], ["JH", "JD", "8H"], ["5C", "5D"], ["8C", "8D"]],
    "stock": ["4C", "4D", "7S", "7D"],
    "pile": ["6H", "TC", "9D"],
    "melds": [
        {"W": ["2C", "2D", "2H", "2S", "JK", "JK", "2C"], "K": ["KS", "KH", "KD", "KC", "KS", "KH", "KD"]},
        {"Q": ["QS", "QH", "QD", "QC", "QS", "2H", "JK"]},
    ],
    "red_threes": [[], []],
}
NAMES = ["You", "West", "Partner", "East"]
STATIC = Path(__file__).resolve().parents[1] / "src" / "canasta" / "web" / "static"


def position(**changes: Any) -> GameState:
    return from_position({**POSITION, **changes})


def over() -> GameState:
    """The same table after the hand ends: the stock is empty and seat 0 draws."""
    state = position(stock=[])
    state.play("draw")
    assert state.is_over and state.result is not None
    return state


def test_the_engine_names_each_canasta_and_scores_the_wild_one_2000() -> None:
    state = position()
    for view in (public_view(state), make_view(state, 0), make_view(state, 1)):
        assert dict(view.canastas[0]) == {WILD_MELD: "wild", KING: "natural"}
        assert dict(view.canastas[1]) == {QUEEN: "mixed"}
        assert view.to_json()["canastas"] == [{"K": "natural", "W": "wild"}, {"Q": "mixed"}]
    result = over().result
    assert result is not None
    ours = result.sides[0]
    assert (ours.wild_canastas, ours.wild_bonus, ours.natural_canastas, ours.canasta_bonus) == (1, 2000, 1, 2500)


def wild_lines(lines: list[str]) -> list[str]:
    found = [line for line in lines if re.search(r"\bW(: |×)", line)]
    assert found, lines
    return found


def test_the_plain_terminal_says_wild() -> None:
    text = table_text(make_view(position(), 0), NAMES)
    [line] = wild_lines(text.splitlines())
    assert "wild canasta" in line and "mixed" not in line
    assert "K: K♠" in text and "natural canasta" in text and "Q: Q♠" in text and "mixed canasta" in text
    state = over()
    assert state.result is not None
    ours = result_text(state.result, NAMES, state.rules).splitlines()[1]
    assert "wild card canastas 1 × 2,000 = 2,000" in ours and "mixed" not in ours


@pytest.mark.parametrize(("width", "meld_lines", "shown"), [(200, 2, "wild canasta"), (30, 1, "wild")])
def test_the_tui_table_says_wild(width: int, meld_lines: int, shown: str) -> None:
    """Every card of each meld, and the compact form (``W×7 wild``) when they do not fit."""
    view = make_view(position(), 0)
    lines = [plain(line) for line in side_lines(view, NAMES, width, mine=0, meld_lines=meld_lines)]
    [line] = wild_lines(lines)
    [meld] = [part for part in line.strip().split("   ") if part.startswith("W")]
    assert meld.endswith(" " + shown) and "mixed" not in meld, meld
    assert meld.startswith("W: 2♠" if meld_lines == 2 else "W×7"), meld


def test_the_tui_score_sheet_itemises_the_wild_bonus() -> None:
    state = over()
    assert state.result is not None
    lines = hand_sheet(state.result, ["You & Partner", "West & East"], [2500, 0], [90, 50], 1, NAMES,
                       rules=state.rules)
    [row] = [line for line in lines if line.startswith("Wild card canastas")]
    assert "1 × 2,000 = 2,000" in row
    view = make_view(state, 0)
    assert view.sheet == sheet_rows(state.result, state.rules)


def test_public_view_has_no_seat_and_no_hand_and_a_seat_view_adds_exactly_those() -> None:
    from dataclasses import fields

    state = position()
    public = {f.name for f in fields(public_view(state))}
    assert "seat" not in public and "hand" not in public
    assert {f.name for f in fields(View)} - public == {"seat", "hand"}
    seat = make_view(state, 2)
    whole = public_view(state)
    for name in public - {"known"}:
        assert getattr(seat, name) == getattr(whole, name), name
    # A seat's own known cards are in its hand; everything else it knows, everybody knows.
    assert seat.known[2] == () and all(seat.known[s] == whole.known[s] for s in (0, 1, 3))


def test_views_are_immutable() -> None:
    view = make_view(position(), 0)
    with pytest.raises(TypeError):
        view.melds[0][KING] = ()  # type: ignore[index]
    with pytest.raises(TypeError):
        view.canastas[0][KING] = "mixed"  # type: ignore[index]
    with pytest.raises(AttributeError):
        view.hand = ()  # type: ignore[misc]


# -- the web: the spectator's view, and the page ----------------------------------------------


def table_at(state: GameState) -> Any:
    """A server table (web.served.ServedTable) whose hand in play is ``state``."""
    from canasta.web.served import ServedTable

    table = ServedTable("wild", {"rules": state.rules.to_json(), "seed": 1,
                           "seats": [{"kind": "human", "name": name} for name in NAMES]})
    match = table.match
    match.state = state
    match.hands.append({"dealer": state.dealer, "deck": [], "moves": []})
    if state.result is not None:
        match.results.append(state.result)
        match.scores = list(state.match_scores())
    table.driver.state_id = 1
    return table


@pytest.mark.parametrize("ended", [False, True])
def test_the_spectators_view_is_the_public_view(ended: bool) -> None:
    from canasta.web.protocol import state_message

    state = over() if ended else position()
    table = table_at(state)
    message = state_message(table, None)
    expected = public_view(state).to_json()
    del expected["history"]
    assert message["view"] == expected
    assert message["view"]["seat"] is None and message["view"]["hand"] == []
    assert message["legal"] == [] and message["actions"] == []
    assert message["table"]["log"] == [{"seat": s, "move": m} for s, m in public_view(state).history]
    seat = state_message(table, 0)["view"]
    assert {k: v for k, v in seat.items() if k not in ("seat", "hand", "known")} == \
        {k: v for k, v in message["view"].items() if k not in ("seat", "hand", "known")}


def chromium_missing() -> str | None:
    for module in ("playwright",):
        if importlib.util.find_spec(module) is None:
            return f"the browser check needs {module}: pip install playwright"
    if not Path("/usr/bin/chromium").exists():
        return "the browser check needs Chromium at /usr/bin/chromium (apt-get install chromium)"
    return None


FAKE_SOCKET = """
window.WebSocket = class {
  static OPEN = 1;
  constructor() {
    this.readyState = 1;
    this.handlers = {};
    setTimeout(() => this.emit("open", {}), 0);
  }
  addEventListener(type, fn) { (this.handlers[type] = this.handlers[type] || []).push(fn); }
  emit(type, event) { for (const fn of this.handlers[type] || []) fn(event); }
  send(text) {
    const message = JSON.parse(text);
    if (message.type !== "hello") return;
    for (const reply of window.CANASTA_MESSAGES) {
      setTimeout(() => this.emit("message", { data: JSON.stringify(reply) }), 0);
    }
  }
  close() {}
};
"""


@pytest.fixture(scope="module")
def page_of() -> Iterator[Any]:
    """Render the game page in Chromium from given server messages (the page's websocket is stood in for)."""
    why = chromium_missing()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        errors: list[str] = []

        def render(messages: list[dict[str, Any]]) -> Any:
            context = browser.new_context()

            def serve(route: Any) -> None:  # the page and its static files, from the source tree
                url = route.request.url.split("?")[0]
                if "/static/" in url:
                    route.fulfill(path=str(STATIC / url.split("/static/")[1]))
                elif "/t/" in url:
                    route.fulfill(path=str(STATIC / "game.html"))
                else:
                    route.fulfill(status=404, body="")

            context.route("http://canasta.test/**", serve)
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.add_init_script(FAKE_SOCKET + f"window.CANASTA_MESSAGES = {json.dumps(messages)};")
            page.goto("http://canasta.test/t/wild#token")
            page.wait_for_function("document.body.dataset.stateId === '1'", timeout=20_000)
            return page

        try:
            yield render
        finally:
            browser.close()
        assert not errors, errors


@pytest.mark.parametrize("seat", [0, None])
def test_the_browser_page_says_wild(page_of: Any, seat: int | None) -> None:
    from canasta.web.protocol import state_message

    table = table_at(position())
    role = "spectator" if seat is None else "player"
    page = page_of([{"type": "welcome", "table": "wild", "seat": seat, "role": role}, state_message(table, seat)])
    meld = page.locator('.meld[data-side="0"][data-rank="W"]')
    classes = (meld.get_attribute("class") or "").split()
    assert "canasta" in classes and "wild" in classes and "mixed" not in classes
    label = meld.get_attribute("title") or ""
    assert "wild canasta" in label and "mixed" not in label
    said = meld.locator(".meld-hit").get_attribute("aria-label") if seat == 0 else meld.get_attribute("aria-label")
    assert "wild canasta" in (said or "")
    for side, rank, kind in ((0, "K", "natural"), (1, "Q", "mixed")):
        other = page.locator(f'.meld[data-side="{side}"][data-rank="{rank}"]')
        assert kind in (other.get_attribute("class") or "").split()
        assert f"{kind} canasta" in (other.get_attribute("title") or "")


def test_the_browser_score_sheet_shows_the_engines_rows(page_of: Any) -> None:
    from canasta.web.protocol import state_message

    state = over()
    table = table_at(state)
    page = page_of([{"type": "welcome", "table": "wild", "seat": 0, "role": "player"}, state_message(table, 0)])
    rows = page.eval_on_selector_all(
        "#hand-result table.score-sheet tbody tr",
        "trs => trs.map(tr => [tr.querySelector('th').textContent,"
        " [...tr.querySelectorAll('td')].map(td => [td.textContent, Number(td.dataset.value)])])")
    assert state.result is not None
    expected = [[row.label, [[c, v] for c, v in zip(row.cells, row.values)]]
                for row in sheet_rows(state.result, state.rules)]
    assert rows[:len(expected)] == expected
    assert ["Wild card canastas", [["1 × 2,000 = 2,000", 2000], ["–", 0]]] in rows
    assert [label for label, _ in rows[len(expected):]] == ["Running total", "Next first meld"]
