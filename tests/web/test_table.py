"""The game page as a card table (issue 14): it fits the screen, plays by keyboard alone, moves cards,
tells the moves in words, explains itself, and passes axe-core.

One real hand (seed :data:`HAND_SEED`) is played by keyboard only; at several moments of it the page
is measured at 1366x768, 1920x1080, 360x740 and 390x844 by resizing the same page.  Crowded and unusual tables
(12 melds a side, 22 cards in hand, two to six players, the end of a match) come from state messages
that the test's own websocket route hands the page, in the protocol's shape, so no hand has to be
played to reach them.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from canasta.rules import Rules
from canasta.scoring import HandResult, SideScore, sheet_rows

from .browser_helpers import (
    HINT_RE,
    Server,
    axe_problems,
    body_data,
    cards_of,
    each,
    frames,
    hand_codes,
    hand_over,
    log_entries,
    meld_target,
    multiset_minus,
    normalize,
    open_page,
    pile_by_cards,
    post_table,
    seats,
    skip_without_browser,
    state_id,
    status,
    wait_changed,
    wait_turn_or_end,
)

skip_without_browser()

HAND_SEED = 5
"""A deal whose hand, played by the hints, takes the pile, melds, and ends in about 17 turns."""
SIZES = [(1366, 768), (1920, 1080), (360, 740), (390, 844)]
PHONE = (390, 844)
SMALL_PHONE = (360, 740)
SOLO = ("human", "expert", "expert", "expert")


# -- the layout ---------------------------------------------------------------------------------

FITS = "\n".join(line for line in Path(__file__).with_name("table_fits.js").read_text().splitlines()
                 if not line.startswith("//"))
"""The layout check run in the page (tests/web/table_fits.js): the problems found, as sentences."""


def check_fits(page: Any, moment: str, sizes: list[tuple[int, int]] = SIZES) -> None:
    """At each size, everything a player needs is on screen without scrolling (the last size stays)."""
    problems: list[str] = []
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        frames(page)
        problems += [f"{width}x{height}: {p}" for p in page.evaluate(FITS)]
    assert not problems, f"{moment}:\n" + "\n".join(problems[:25])


# -- keyboard play ----------------------------------------------------------------------------------


def focused(page: Any) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        "(() => { const e = document.activeElement; return e ? {id: e.id, key: e.dataset.key || '',"
        " move: e.dataset.move || '', rank: e.dataset.rank || '', side: e.dataset.side || ''} : {}; })()")
    return found


def tab_to(page: Any, test: Callable[[dict[str, str]], bool], what: str) -> None:
    """Press Tab until the focused element passes ``test``."""
    for _ in range(150):
        if test(focused(page)):
            return
        page.keyboard.press("Tab")
    pytest.fail(f"Tab never reaches {what}")


def key_select(page: Any, codes: list[str]) -> None:
    """Select ``codes`` in the hand with the arrow keys and Space."""
    if not focused(page).get("key"):
        tab_to(page, lambda f: bool(f.get("key")), "a card of the hand")
    for code in codes:
        keys = each(page, "#hand .card", "e => [e.dataset.key, e.dataset.card, e.getAttribute('aria-pressed')]")
        here = [k for k, _, _ in keys].index(focused(page)["key"])
        goal = next((i for i, (_, c, on) in enumerate(keys) if c == code and on == "false"), None)
        assert goal is not None, f"no unselected {code} in the hand {hand_codes(page)}"
        for _ in range(abs(goal - here)):
            page.keyboard.press("ArrowRight" if goal > here else "ArrowLeft")
        page.keyboard.press(" ")
    chosen = sorted(each(page, '#hand .card[aria-pressed="true"]'))
    assert chosen == sorted(codes), f"selected {chosen}, meant {sorted(codes)}"


def key_hint(page: Any) -> str:
    """Press h and read the suggested move from #status."""
    page.keyboard.press("h")
    page.wait_for_function("['hint', 'error'].includes(document.getElementById('status').dataset.kind)")
    kind, text = status(page)
    found = HINT_RE.match(text)
    assert kind == "hint" and found, f"the hint was not shown: {kind} {text!r}"
    return page.get_attribute("#status", "data-move") or ""


def key_move(page: Any, move: str) -> None:
    """Make ``move`` with the keyboard alone (keys, Tab, arrows, Space, Enter)."""
    before = state_id(page)
    logged = len(log_entries(page))
    word = move.split()[0]
    page.keyboard.press("Escape")
    if word in ("draw", "ask", "yes", "no"):
        page.keyboard.press({"draw": "d", "ask": "a", "yes": "y", "no": "n"}[word])
    elif word == "discard":
        key_select(page, cards_of(move))
        page.keyboard.press("x")
    elif word == "meld":
        target = meld_target(page, move)
        key_select(page, cards_of(move))
        if target is None:
            page.keyboard.press("m")
        else:
            tab_to(page, lambda f: f.get("rank") == target and f.get("id") == "", f"your meld of {target}")
            page.keyboard.press("Enter")
    elif word == "pile":
        if pile_by_cards(page, move):
            key_select(page, cards_of(move))
            page.keyboard.press("p")
        else:
            page.keyboard.press("p")
            if wait_changed(page, before, move, chooser=True) == "chooser":
                tab_to(page, lambda f: f.get("move") == move, f"the choice {move!r}")
                page.keyboard.press("Enter")
    wait_changed(page, before, move)
    entries = log_entries(page)
    assert len(entries) > logged and normalize(entries[logged][1]) == normalize(move), (move, entries[logged:])


# -- a state message in the protocol's shape, for tables no quick hand reaches -------------------------

NAMES = ["You", "West", "North", "East", "Fifth", "Sixth"]
LONG_NAMES = ["Annabel", "Bartholomew", "Christina", "Dominique", "Evangeline", "Maximilian"]
"""Names as people type them, for the names' room on a phone."""


def crafted_state(players: int = 4, sides: int = 2, melds_per_side: int = 12, hand: int = 22,
                  status_: str = "playing", winner: int | None = None, names: list[str] = NAMES) -> dict[str, Any]:
    """A ``state`` message for seat 0 with many melds and a big hand (cards need not be a real deal)."""
    ranks = "AKQJT98765433"[:melds_per_side]
    suits = "SHDC"
    melds: list[dict[str, list[str]]] = []
    for side in range(sides):
        side_melds: dict[str, list[str]] = {}
        for i, rank in enumerate(ranks[:melds_per_side]):
            key = "3" if rank == "3" else rank
            size = 3 + (i + side) % 6
            count = min(size, 4) if rank == "3" else size
            cards = [rank + ("SC"[j % 2] if rank == "3" else suits[j % 4]) for j in range(count)]
            if rank != "3" and i % 3 == 1:
                cards[-1] = "2D" if i % 2 else "JK"
            side_melds[key] = cards
        melds.append(side_melds)
    # Seven cards or more make a canasta, which the server's view names (natural, or mixed with a wild card).
    canastas = [{rank: "mixed" if any(c == "JK" or c[0] == "2" for c in cards) else "natural"
                 for rank, cards in side_melds.items() if len(cards) >= 7 and rank != "3"} for side_melds in melds]
    hand_cards = [r + s for r in "AKQJT98765" for s in suits][:hand]
    # Each finished hand as the server sends it: the engine's result and score sheet (1,200 a side; your side
    # laid out all four red threes, the others two each).
    ours = SideScore(mixed_canastas=1, canasta_bonus=300, red_threes=4, red_three_points=800, going_out=100,
                     melded=20, in_hand=20)
    theirs = SideScore(natural_canastas=1, canasta_bonus=500, red_threes=2, red_three_points=200, melded=600,
                       in_hand=100)
    result = HandResult((ours, *[theirs] * (sides - 1)), 1, False)
    results = [result.to_json() | {"totals": list(result.totals),
                                   "sheet": [row.to_json() for row in sheet_rows(result, Rules())]}]
    over = status_ != "playing"
    return {
        "type": "state", "state": 40, "legal": ["draw"] if not over else [], "legal_more": False, "elsewhere": 0,
        "table": {"id": "crafted", "status": status_, "target": 5000, "rules": "classic", "hand": 3,
                  "players": [{"seat": s, "name": names[s], "kind": "human" if s == 0 else "expert", "connected": True}
                              for s in range(players)],
                  "sides": [[s for s in range(players) if s % sides == side] for side in range(sides)],
                  "scores": [5200 if side == 0 and winner == 0 else 2400 for side in range(sides)],
                  "minimums": [90] * sides, "results": results * 3 if over else results * 2, "winner": winner,
                  "log": [{"seat": 1, "move": "draw"}, {"seat": 1, "move": "discard 9S"}]},
        "view": {"seat": 0, "rules": "classic", "dealer": players - 1, "turn": 0, "to_act": 0,
                 "phase": "over" if over else "draw", "scores": [2400] * sides, "minimums": [90] * sides,
                 "hand": [] if over else hand_cards, "hand_sizes": [hand] + [18] * (players - 1), "stock_size": 30,
                 "pile": ["7H", "2C", "5D", "9S"], "pile_frozen": True, "melds": melds, "canastas": canastas,
                 "red_threes": [["3H", "3D"]] + [["3H"]] * (sides - 1), "melded": [True] * players,
                 "known": [[] for _ in range(players)], "history": [], "drew": None, "asked": False, "answer": None,
                 "result": results[0] if over else None, "sitting_out": None,
                 "hands_left": [hand_cards[:5], [], *[hand_cards[5 + 3 * k:8 + 3 * k] for k in range(players - 2)]]
                 if over else []},
    }


Answer = Callable[[dict[str, Any]], "dict[str, Any] | None"]
"""What the crafted table's websocket answers to a message of the page (None: nothing)."""


def open_crafted(context: Any, base: str, message: dict[str, Any], size: tuple[int, int] = PHONE,
                 then: Sequence[dict[str, Any]] = (), answer: Answer | None = None, seat: int = 0) -> Any:
    """The game page fed ``message`` (and the messages ``then``, in order) by a websocket route instead of
    the server, for ``seat``; ``answer`` answers the page's other messages (a ``resolve``, a ``move``).

    The route's socket is ``page.crafted_socket``, for sending the page more messages."""
    page = context.new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})

    def route(ws: Any) -> None:
        page.crafted_socket = ws

        def on_message(text: Any) -> None:
            data = json.loads(text)
            if data.get("type") == "hello":
                ws.send(json.dumps({"type": "welcome", "table": "crafted", "seat": seat, "role": "player"}))
                for each in [message, *then]:
                    ws.send(json.dumps(each))
            elif answer is not None:
                reply = answer(data)
                if reply is not None:
                    ws.send(json.dumps(reply))
        ws.on_message(on_message)

    page.route_web_socket(re.compile(r"/ws/"), route)
    page.goto(base + "/t/crafted#" + "t" * 30)
    page.wait_for_function("s => document.body.dataset.stateId === String(s)", arg=[message, *then][-1]["state"])
    return page


# -- tests ----------------------------------------------------------------------------------------


def test_the_page_tells_each_move_from_its_record_never_from_comparing_states(
        server: Server, new_context: Callable[..., Any]) -> None:
    """The log, the ticker and the new-card marks come from the engine's records of the moves (``table.log``'s
    outcomes, ``drawn``), not from comparing two states: records made to disagree with the states win."""
    context = new_context()
    before = crafted_state()
    after = copy.deepcopy(before)
    after["state"] = 41
    view, table = after["view"], after["table"]
    # You drew K♠ by the record; comparing the hands would say Q♥ (and see a red three appear).
    table["log"] = [*table["log"], {"seat": 0, "move": "draw"}]
    after["drawn"] = {"2": ["KS"]}
    view["hand"] = [*view["hand"], "QH"]
    view["red_threes"] = [[*view["red_threes"][0], "3D"], *view["red_threes"][1:]]
    view["phase"], after["legal"] = "play", ["discard 9S"]
    # West's pile taken earlier: 12 cards, top 9♦ by the record, whatever the views hold.
    for message in (before, after):
        message["table"]["log"][1] = {"seat": 1, "move": "pile 9S 9H", "took": 12, "top": "9D",
                                      "melded": ["9"], "reds": [{"seat": 1, "cards": ["3H"]}]}
        message["table"]["dealt"] = {"pile": ["JC"]}
    page = open_crafted(context, server.base, before, then=[after])
    log = page.text_content("#log") or ""  # the log's panel may be closed: its text is there all the same
    assert "You drew K\u2660" in log and "Q\u2665" not in log, log
    assert "West took the pile: 12 cards, top 9\u2666 with 9\u2660 9\u2665" in log, log
    assert "West laid out a red three: 3\u2665" in log and "3\u2666" not in log, log
    assert "The pile starts with J\u2663" in log, log
    assert page.inner_text("#last-move") == "You drew K\u2660"
    fresh = page.eval_on_selector_all("#hand .card.fresh", "cards => cards.map(c => c.dataset.card)")
    assert fresh == ["KS"], fresh


def test_a_whole_hand_by_keyboard_fits_every_screen(server: Server, new_context: Callable[..., Any],
                                                    axe_script: Path) -> None:
    """A keyboard-only player plays a real hand on a phone; at each moment the table fits all three screens."""
    context = new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, has_touch=True)
    answer = post_table(server.base, {"preset": "classic", "seed": HAND_SEED, "seats": seats(*SOLO)})
    page = open_page(context, server.base, answer["seats"][0]["link"])
    wait_turn_or_end(page)
    check_fits(page, "the first turn")
    assert not axe_problems(page, axe_script), axe_problems(page, axe_script)
    # A greyed-out button says why, and pressing it sends nothing.
    assert page.get_attribute("#btn-discard", "aria-disabled") == "true"
    why = page.get_attribute("#btn-discard", "title")
    assert why == "Draw from the stock or take the pile first.", why
    before = state_id(page)
    page.click("#btn-discard", force=True)
    assert status(page) == ("info", why) and state_id(page) == before

    moments: set[str] = set()
    made: list[str] = []
    for _ in range(200):
        wait_turn_or_end(page)
        if hand_over(page):
            break
        move = key_hint(page)
        hand_before = hand_codes(page)
        key_move(page, move)
        made.append(move)
        word = move.split()[0]
        if word in ("draw", "pile") and not hand_over(page):
            # The cards drawn or taken are marked in the hand until the next move.
            fresh = sorted(each(page, "#hand .card.fresh"))
            got = multiset_minus(hand_codes(page), hand_before)
            assert fresh == got, f"after {move!r} the hand marks {fresh}, the new cards are {got}"
        elif word in ("meld", "discard") and not hand_over(page):
            assert not each(page, "#hand .card.fresh"), f"new-card marks stay after {move!r}"
        if word not in moments and not hand_over(page):
            moments.add(word)
            check_fits(page, f"after {move!r}")
    else:
        pytest.fail(f"the hand did not end after {len(made)} moves")
    assert {"draw", "meld", "discard", "pile"} <= moments, moments

    # The log tells the moves in words with card symbols.
    words = each(page, "#log li", "e => e.textContent")
    card = r"(10|[2-9AKQJ])[\u2660\u2665\u2666\u2663]"
    assert any(re.search(r"took the pile: \d+ cards?, top " + card, w) for w in words), words
    assert any(re.search(r"(melded|added) ", w) for w in words), words
    assert any(re.search(r"discarded (" + card + "|Joker)", w) for w in words), words
    assert not any(re.search(r"\b(meld|pile|discard) [0-9TJQKA][SHDC]\b", w) for w in words), "notation in the log"
    assert page.get_attribute("#last-move", "aria-live") == "polite"

    # The end of the hand: a dialog with the focus, the sheet of both sides, running totals.
    page.locator("#result-dialog").wait_for(state="visible")
    assert page.evaluate("document.getElementById('result-dialog').open")
    assert page.evaluate("document.getElementById('result-dialog').contains(document.activeElement)")
    assert page.evaluate("document.activeElement.id") == "btn-next"
    assert len(each(page, "#hand-result table.score-sheet thead th", "e => e.textContent")) == 3
    assert "Running total" in each(page, "#hand-result tbody th", "e => e.textContent")
    assert re.search(r"went out|stock ran out", page.inner_text("#hand-result .went-out"))
    check_fits(page, "the end of the hand")
    assert not axe_problems(page, axe_script), axe_problems(page, axe_script)
    # Next hand from the dialog by the keyboard.
    before = state_id(page)
    page.keyboard.press("Enter")
    wait_changed(page, before, "next")
    page.locator("#result-dialog").wait_for(state="hidden")
    assert body_data(page)["hand"] == "2"


def test_a_crowded_table_fits(server: Server, new_context: Callable[..., Any]) -> None:
    """12 melds a side, red threes and 22 cards in hand still fit each screen with no scrolling."""
    page = open_crafted(new_context(), server.base, crafted_state())
    assert len(each(page, "#sides .meld")) == 24 and len(hand_codes(page)) == 22
    check_fits(page, "a crowded table")


@pytest.mark.parametrize(("players", "sides"), [(2, 2), (3, 3), (5, 2), (6, 2), (6, 3)])
def test_every_table_size_is_laid_out_around_the_felt(server: Server, new_context: Callable[..., Any],
                                                      players: int, sides: int) -> None:
    page = open_crafted(new_context(), server.base, crafted_state(players, sides, melds_per_side=8, hand=15,
                                                                  names=LONG_NAMES), size=(1366, 768))
    positions = dict(each(page, "#players li.player", "e => [e.dataset.seat, e.dataset.pos]"))
    assert positions["0"] == "bottom" and len(set(positions.values())) == players, positions
    assert len(each(page, "#sides .side")) == sides
    check_fits(page, f"{players} players in {sides} sides")
    boxes = each(page, "#players li.player",
                 "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[2] <= b[0] + 1 or b[2] <= a[0] + 1 or a[3] <= b[1] + 1 or b[3] <= a[1] + 1
            assert apart, f"seats overlap: {a} {b}"


@pytest.mark.parametrize(("hand", "melds"), [(11, 4), (15, 8), (22, 12)])
def test_on_a_phone_every_card_of_the_hand_is_a_44_px_target(server: Server, new_context: Callable[..., Any],
                                                            hand: int, melds: int) -> None:
    """At 360x740 and 390x844 each card of the hand shows a finger 44x44 px of itself, rows of cards
    overlapping by a bounded amount, with the whole table on the screen (table_fits.js samples what
    ``elementFromPoint`` finds, so a card covered by its neighbours fails).  A selected card rises and still
    leaves the card above it 44 px.  The names in the top bar and at the seats are whole (they wrap, never cut)."""
    page = open_crafted(new_context(has_touch=True), server.base,
                        crafted_state(hand=hand, melds_per_side=melds, names=LONG_NAMES))
    assert len(hand_codes(page)) == hand
    check_fits(page, f"{hand} cards in hand on a phone", [SMALL_PHONE, PHONE])
    rows = sorted({round(y) for y in each(page, "#hand .card", "e => e.getBoundingClientRect().top")})
    assert len(rows) == (hand + 7) // 8 or len(rows) == (hand + 7) // 8 + 1, rows  # about 8 cards a row
    assert all(b - a >= 44 for a, b in itertools.pairwise(rows)), rows
    for code in ("KH", "QS", "JD") if hand > 11 else ("KH",):  # a card selected in a lower row rises
        page.click(f'#hand .card[data-card="{code}"]')
    check_fits(page, f"{hand} cards with some selected on a phone", [SMALL_PHONE, PHONE])
    text = page.inner_text("#scores")
    for name in LONG_NAMES[:4]:
        assert name in text, text
    assert "Bartholomew & Dominique" in text.replace("\n", " "), text


def test_the_end_of_the_match_is_a_focused_dialog(server: Server, new_context: Callable[..., Any],
                                                  axe_script: Path) -> None:
    page = open_crafted(new_context(), server.base, crafted_state(status_="over", winner=0))
    page.locator("#result-dialog").wait_for(state="visible")
    assert page.inner_text("#match-result .winner") == "You win the match!"
    text = page.inner_text("#match-result")
    assert "5,200" in text and "3 hands played" in text, text
    # A rematch at the same seats is offered first, the lobby beside it.
    assert page.evaluate("document.activeElement.id") == "btn-rematch"
    assert page.inner_text("#btn-rematch") == "Rematch" and page.is_visible("#btn-lobby")
    assert page.get_attribute("#btn-lobby", "href") == "/"
    assert not page.is_visible("#btn-next")
    assert page.inner_text("#turn") == "Match over"
    for size in SIZES:
        check_fits(page, "the end of the match", [size])
    assert not axe_problems(page, axe_script), axe_problems(page, axe_script)


def test_moves_play_out_one_by_one_with_motion(server: Server, new_context: Callable[..., Any]) -> None:
    """With motion on, the computer players' moves are shown one at a time, at the chosen speed, and cards fly."""
    context = new_context(reduced_motion="no-preference", viewport={"width": 1366, "height": 768})
    context.add_init_script("try { localStorage.setItem('canasta:speed', 'fast'); } catch (e) {}")
    answer = post_table(server.base, {"preset": "classic", "seed": HAND_SEED, "seats": seats(*SOLO)})
    page = open_page(context, server.base, answer["seats"][0]["link"])
    assert page.input_value("#speed") == "fast"
    wait_turn_or_end(page)
    page.evaluate("""() => { window.__shown = [];
      new MutationObserver(() => window.__shown.push([performance.now(), document.body.dataset.stateId]))
        .observe(document.body, {attributes: true, attributeFilter: ['data-state-id']}); }""")
    key_move(page, "draw")
    assert page.evaluate("Number(document.body.dataset.animations || 0)") >= 1, "the draw moved no card"
    assert each(page, "#hand .card.fresh"), "the drawn card is not marked"
    move = key_hint(page)
    while not move.startswith("discard"):
        key_move(page, move)
        move = key_hint(page)
    key_move(page, move)
    wait_turn_or_end(page, timeout=60_000)
    shown = page.evaluate("window.__shown")
    ids = [int(s) for _, s in shown]
    after = [t for (t, s) in shown if int(s) > ids[-1] - 8]
    assert ids == sorted(ids), ids
    # The server sends the three computer players' moves within a fraction of a second (bot delay 0.02 s);
    # the page shows them one by one, about 350 ms apart at "fast" (the first may follow your own move at once).
    gaps = [b - a for a, b in itertools.pairwise(after)][1:]
    assert len(gaps) >= 5 and min(gaps) > 250, gaps
    # The speed is kept for the next visit.
    page.select_option("#speed", "slow")
    assert page.evaluate("localStorage.getItem('canasta:speed')") == "slow"


def test_rules_page_guide_and_links(server: Server, new_context: Callable[..., Any], axe_script: Path) -> None:
    with urllib.request.urlopen(server.base + "/rules/classic?set=draw=2&set=target=7500", timeout=5) as answer:
        html = answer.read().decode()
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    assert "<h1>The rules at this table: classic Canasta" in html, html[:400]
    assert "draw two cards" in " ".join(html.split()), html[:400]
    assert "<script" not in html and "http" not in html.replace("http-equiv", "")
    for bad in ("/rules/nonsense", "/rules/classic?set=bogus=1", "/rules/classic?set=draw=7"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(server.base + bad, timeout=5)
        assert refused.value.code == 400, bad
    context = new_context(viewport={"width": 1366, "height": 768})
    for path in ("/rules/two-player", "/static/guide.html", "/", "/score"):
        page = context.new_page()
        page.goto(server.base + path)
        page.wait_for_load_state("networkidle")
        assert not axe_problems(page, axe_script), (path, axe_problems(page, axe_script))
        external = each(page, "a[href], link[href], script[src], img[src]", "e => e.href || e.src")
        assert all(u.startswith(server.base) or u.startswith("data:") for u in external), (path, external)
        if path == "/":
            assert page.get_attribute("a.guide-link", "href") == "/static/guide.html"
        page.close()
    # The table links its own rules (with its options) and the guide; the explainers open in place.
    answer = post_table(server.base, {"preset": "classic", "options": {"draw": 2}, "seed": 3,
                                      "seats": seats("human", "expert", "expert", "expert")})
    page = open_page(context, server.base, answer["seats"][0]["link"])
    assert page.get_attribute("#rules-link", "href") == "/rules/classic?set=draw%3D2"
    page.click("#scores .explain")
    page.locator("#explain-minimum").wait_for(state="visible")
    assert "first meld" in page.inner_text("#explain-minimum").lower()
