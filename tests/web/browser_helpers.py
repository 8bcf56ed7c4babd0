"""Helpers of the browser tests (tests/web/test_browser.py): a real server, tables, and the game page by clicks;
the pages' accessibility (axe-core) and fit at a screen's sizes; and the room's server in process (a TestClient).

Everything here drives the page as a player would: buttons, cards and melds are clicked, and the
page's own DOM hooks (``body[data-state-id]``, ``body[data-my-turn]``, ``#status``) say what happened.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]
WAIT_MS = 20_000
"""The longest one wait for the page may take (a bot's move, a hint, a deal), in milliseconds."""
NATURAL_RANKS = "AKQJT987654"
ROOM_FITS = """() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.scrollingElement.scrollWidth > width + 1) problems.push(`the page scrolls sideways`);
  for (const el of document.querySelectorAll("input, button, a, h2, label")) {
    if (el.closest("[hidden]") || el.classList.contains("skip-link")) continue;
    const box = el.getBoundingClientRect();
    if (box.width > 0 && (box.left < -1 || box.right > width + 1)) problems.push(`${el.id || el.tagName} overflows`);
  }
  return problems;
}"""
"""The room's pages fit the screen: no sideways scroll, no control or heading past its edges (the problems found)."""
ROOM_SIZES = [(390, 844), (1366, 768)]
"""A phone's screen and a laptop's: the sizes the room's pages are checked at."""
HINT_RE = re.compile(r"^Hint: ([A-Z][^:]+): (.+)\.$", re.S)
"""The hint as the page shows it: the move in words, then why, in one sentence (``bots.hints.hint_sentence``)."""

# -- the server -------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    """A ``canasta serve`` subprocess and its address."""

    process: subprocess.Popen[bytes]
    base: str
    log: Path

    def stop(self) -> None:
        """Terminate the server, killing it when it does not stop in time."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def start_server(workdir: Path, bot_delay: float = 0.02, port: int | None = None, seed: int | None = None,
                 env: dict[str, str] | None = None) -> Server:
    """Start ``canasta serve`` on ``port`` (default: a free one) with the database in ``workdir``.

    ``env``: environment variables the server gets besides the tests' own (``CANASTA_REVIEW_ROLLOUTS``, ...).

    ``seed``: the tables it makes are shuffled with the seeds ``seed``, ``seed + 1``, ... (the server's
    test-only ``CANASTA_TEST_SEED``), so a table of several people deals the same every run.

    Waits for ``/api/health``; the server's output goes to ``workdir/server.log``.  The tests'
    own address is trusted: one browser makes many tables in a minute (the rate limits have
    their own tests in test_security.py).  A free port taken meanwhile (tests run side by side
    under pytest-xdist) is tried again with another.
    """
    if port is not None:
        return _start_server(workdir, bot_delay, port, seed, env)
    for _ in range(3):
        try:
            return _start_server(workdir, bot_delay, free_port(), seed, env, retry_taken_port=True)
        except _PortTaken:
            continue
    return _start_server(workdir, bot_delay, free_port(), seed, env)


@contextmanager
def running_server(workdir: Path, **options: Any) -> Iterator[Server]:
    """``start_server(workdir, **options)``, stopped when the block ends (a module's ``server`` fixture)."""
    running = start_server(workdir, **options)
    try:
        yield running
    finally:
        running.stop()


class _PortTaken(Exception):
    """The server could not listen: something else took the free port first."""


def _start_server(workdir: Path, bot_delay: float, port: int, seed: int | None, extra_env: dict[str, str] | None,
                  retry_taken_port: bool = False) -> Server:
    log = workdir / "server.log"
    cmd = [sys.executable, "-m", "canasta.cli", "serve", "--port", str(port), "--db", str(workdir / "web.sqlite3"),
           "--bot-delay", str(bot_delay), "--quiet", "--trusted", "127.0.0.1"]
    env = dict(os.environ)
    env.pop("CANASTA_TEST_SEED", None)
    env.update(extra_env or {})
    if seed is not None:
        env["CANASTA_TEST_SEED"] = str(seed)
    with log.open("ab") as out:
        process = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    server = Server(process, f"http://127.0.0.1:{port}", log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            said = log.read_text(errors="replace")[-2000:]
            if retry_taken_port and "address already in use" in said.lower():
                raise _PortTaken(said)
            pytest.fail(f"canasta serve exited with {process.returncode}: {said}")
        try:
            if get_json(server.base + "/api/health").get("ok") is True:
                return server
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    server.stop()
    pytest.fail(f"canasta serve did not answer /api/health within 30 s: {log.read_text(errors='replace')[-2000:]}")


def get_json(url: str) -> dict[str, Any]:
    """GET a JSON object."""
    with urllib.request.urlopen(url, timeout=5) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


def post_table(base: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST /api/tables; the answer (201) with the seats' links."""
    request = urllib.request.Request(base + "/api/tables", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 201, answer.status
            data: dict[str, Any] = json.loads(answer.read())
            return data
    except urllib.error.HTTPError as exc:
        pytest.fail(f"POST /api/tables {body} answered {exc.code}: {exc.read().decode(errors='replace')}")


def seats(*kinds: str) -> list[dict[str, str]]:
    """Seat entries: ``human`` seats get names (Ann, Bob, ...), computer players only their kind."""
    names = iter(["Ann", "Bob", "Cy", "Di", "Ed", "Flo"])
    return [{"kind": k, "name": next(names)} if k == "human" else {"kind": k} for k in kinds]


def token_of(link: str) -> str:
    """The secret token of an invite link ``/t/{table}#{token}``."""
    return link.split("#", 1)[1]


def seat_state(base: str, table: str, token: str) -> dict[str, Any]:
    """The ``state`` message a fresh websocket for ``token`` receives (what the server lets that seat see)."""
    from websockets.sync.client import connect

    url = base.replace("http://", "ws://") + f"/ws/{table}"
    with connect(url, open_timeout=10, close_timeout=2) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            message: dict[str, Any] = json.loads(ws.recv(timeout=10))
            if message["type"] == "error":
                pytest.fail(f"hello refused: {message}")
            if message["type"] == "state":
                return message
    pytest.fail("no state message within 10 s")


class SeatSocket:
    """A seat's websocket ``ws`` (opened by the subclass) and the latest ``state`` message it received."""

    ws: Any
    latest: dict[str, Any] | None = None

    def receive(self) -> dict[str, Any]:
        """The next message (20 s at most), kept as ``latest`` when it is a state."""
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
        if message["type"] == "state":
            self.latest = message
        return message

    def state_at_least(self, state_id: int) -> dict[str, Any]:
        """Receive until the latest state is ``state_id`` or a later one; that state."""
        while self.latest is None or self.latest["state"] < state_id:
            self.receive()
        return self.latest


def _probe(base: str, table: str, token: str, request: dict[str, Any], what: str) -> dict[str, Any]:
    """The server's answer to ``request`` (sent with the id ``probe``) on a websocket of its own; fails the test
    with ``what`` when none comes within 10 s."""
    from websockets.sync.client import connect

    url = base.replace("http://", "ws://") + f"/ws/{table}"
    with connect(url, open_timeout=10, close_timeout=2) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.send(json.dumps(request | {"id": "probe"}))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            message: dict[str, Any] = json.loads(ws.recv(timeout=10))
            if message.get("id") == "probe":
                return message
    pytest.fail(f"no answer to {what} within 10 s")


def engine_refusal(base: str, table: str, token: str, state: int, move: str) -> dict[str, Any]:
    """The server's answer to ``move`` at ``state`` on a websocket of its own (an ``error`` for a refused move)."""
    return _probe(base, table, token, {"type": "move", "move": move, "state": state}, repr(move))


def engine_choices(base: str, table: str, token: str, state: int, action: str, cards: list[str]) -> dict[str, Any]:
    """The server's answer to a ``resolve`` of ``cards`` for ``action`` at ``state``, on a websocket of its own
    (a ``moves`` message: the moves the selection can mean, or the engine's reason)."""
    return _probe(base, table, token, {"type": "resolve", "action": action, "cards": cards, "state": state},
                  f"resolve {action} {cards}")


# -- reading the page --------------------------------------------------------------------
# Each read is one page.evaluate: a query and its mapping run in one go, so a render in between
# (every state message re-renders the page) cannot hand back detached elements.


def each(page: Any, selector: str, mapping: str = "e => e.dataset.card") -> list[Any]:
    """``mapping`` (a JS function of one element) over ``document.querySelectorAll(selector)``."""
    found: list[Any] = page.evaluate(f"sel => [...document.querySelectorAll(sel)].map({mapping})", selector)
    return found


def count(page: Any, selector: str) -> int:
    """How many elements match ``selector``."""
    return len(each(page, selector, "e => 1"))


def state_id(page: Any) -> int:
    """The state id the page shows (``body[data-state-id]``)."""
    return int(page.get_attribute("body", "data-state-id"))


def body_data(page: Any) -> dict[str, str]:
    """``document.body.dataset``."""
    data: dict[str, str] = page.evaluate("({...document.body.dataset})")
    return data


def hand_codes(page: Any) -> list[str]:
    """The cards of ``#hand`` (their ``data-card``), sorted."""
    return sorted(each(page, "#hand .card[data-card]", "e => e.dataset.card"))


def status(page: Any) -> tuple[str, str]:
    """``#status``: its kind (info, error, hint) and text."""
    kind, text = page.evaluate("(() => { const s = document.getElementById('status');"
                               " return [s.dataset.kind || '', s.textContent.trim()]; })()")
    return kind, text


def my_seat(page: Any) -> int:
    """The seat the page plays (``#players li.me``)."""
    return int(page.get_attribute("#players li.player.me", "data-seat"))


def my_side(page: Any) -> int:
    """The side of the page's seat (``#sides .side.mine``)."""
    return int(page.get_attribute("#sides .side.mine", "data-side"))


def log_entries(page: Any) -> list[tuple[int, str]]:
    """The log of this hand as the page keeps it: (seat, move text in notation, ``li.log-entry[data-move]``).

    The page writes each move in words ("West took the pile: 7 cards, top 9♠"); ``data-move`` holds
    the move's notation, which the tests compare with the server's log.
    """
    rows = each(page, "#log li.log-entry", "e => [Number(e.dataset.seat), e.dataset.move]")
    return [(seat, text) for seat, text in rows]


def open_page(context: Any, base: str, link: str) -> Any:
    """Open a seat's (or the spectator's) link and wait until the page shows the table."""
    page = context.new_page()
    page.goto(base + link)
    wait_loaded(page)
    return page


def open_sized(context: Any, url: str, size: tuple[int, int] | None = None) -> Any:
    """A new page of ``context`` at ``size`` (width, height; the context's own without), opened at ``url``."""
    page = context.new_page()
    if size is not None:
        page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(url)
    return page


def sign_up(page: Any, base: str, name: str, password: str = "a long password") -> None:
    """Sign ``name`` up on the account page and wait until the page says so."""
    page.goto(base + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", password)
    page.click("#signup-form button[type=submit]")
    page.locator("#signed-in").wait_for(state="visible")


def ready_until_over(page: Any, hands: int) -> None:
    """At each hand's result say ready (``#btn-next``) for the next hand, until the match is over or ``hands``
    results have been seen (the caller checks which)."""
    for _ in range(hands):
        page.wait_for_selector("#result-dialog[open]", timeout=60_000)
        if page.get_attribute("body", "data-status") == "over":
            break
        hand = page.get_attribute("body", "data-hand")
        page.click("#btn-next")
        page.wait_for_function("h => document.body.dataset.hand !== h", arg=hand)


def frames(page: Any) -> None:
    """Wait two animation frames (a render, a resize)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def wait_loaded(page: Any) -> None:
    """Wait for the welcome and the first state."""
    page.wait_for_function(
        "document.body.dataset.stateId !== '' && document.getElementById('connection').dataset.state === 'connected'",
        timeout=WAIT_MS)


def wait_turn_or_end(page: Any, timeout: int = WAIT_MS) -> None:
    """Wait until the page's seat is to act or the hand is no longer being played."""
    page.wait_for_function(
        "document.body.dataset.myTurn === 'true' || "
        "(document.body.dataset.status !== undefined && document.body.dataset.status !== 'playing')",
        timeout=timeout)


def hand_over(page: Any) -> bool:
    """True once the page shows a finished hand (or match)."""
    return body_data(page).get("status") in ("hand_over", "over")


# -- acting by clicks -------------------------------------------------------------------


def cards_of(text: str) -> list[str]:
    """The card codes written in a move's text (``meld 7: 2C, 9S 9H`` -> ``['2C', '9S', '9H']``)."""
    return [t for t in re.split(r"[\s,]+", text) if re.fullmatch(r"JK|[AKQJT98765432][SHDC]", t)]


def normalize(move: str) -> str:
    """A move's text with its groups in one order (the page may send the groups of a move in another)."""
    word, _, rest = move.strip().partition(" ")
    if not rest or word == "discard":
        return move.strip()
    return word + " " + ", ".join(sorted(g.strip() for g in rest.split(",")))


SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
MOVE_TAIL = re.compile(r":\s+(?:draw|pile|meld|discard|ask|yes|no)"
                       r"(?:[\s,]+(?:[AKQJT98765432W]:|JK|[AKQJT98765432][SHDC]))*\s*\.?\s*$")


def card_label(code: str) -> str:
    """A card as the table shows it: ``K♠``, ``10♦``, ``Joker``."""
    return "Joker" if code == "JK" else ("10" if code[0] == "T" else code[0]) + SUIT_SYMBOLS[code[1]]


def as_said(sentence: str) -> str:
    """An engine sentence as the page shows it (static/game/words.js ``sentence``): without the move in notation
    at its end, cards as on the table, capitalised, with a full stop."""
    text = MOVE_TAIL.sub("", sentence.strip()).strip()
    text = re.sub(r"\b(JK|[AKQJT98765432][SHDC])\b", lambda m: card_label(m.group(1)), text)
    text = text[:1].upper() + text[1:]
    return text if re.search(r"[.!?\u2026]$", text) else text + "."


def is_wild(code: str) -> bool:
    return code == "JK" or code[0] == "2"


def ask_hint(page: Any) -> str:
    """Click Hint and read the suggested move from ``#status`` as the page shows it."""
    page.click("#btn-hint")
    page.wait_for_function(
        "['hint', 'error'].includes(document.getElementById('status').dataset.kind)", timeout=WAIT_MS)
    kind, text = status(page)
    if kind != "hint":
        pytest.fail(f"the hint was refused: {text!r}")
    found = HINT_RE.match(text)
    assert found, f"the hint is not shown as 'Hint: Move in words: reason.': {text!r}"
    assert found.group(2).strip(), f"the hint has no reason: {text!r}"
    move = page.get_attribute("#status", "data-move") or ""
    # The page points at the hint's cards in the hand.
    lit = sorted(each(page, "#hand .card.hint", "e => e.dataset.card"))
    assert lit == sorted(cards_of(move)), f"the hint {move!r} lights up {lit} in the hand"
    return move


def select_cards(page: Any, codes: list[str]) -> None:
    """Click each card of ``codes`` in the hand (a copy not yet selected, for a code held twice)."""
    for index, code in enumerate(codes):
        card = page.locator(f'#hand .card[data-card="{code}"][aria-pressed="false"]').first
        if card.count() == 0:
            pytest.fail(f"no unselected {code} left in the hand {hand_codes(page)} to click for {codes}")
        card.click()
        wanted = codes[: index + 1].count(code)
        page.wait_for_function(
            "([code, n]) => [...document.querySelectorAll('#hand .card[aria-pressed=\"true\"]')]"
            ".filter(e => e.dataset.card === code).length >= n", arg=[code, wanted], timeout=WAIT_MS)
    chosen = sorted(each(page, '#hand .card[aria-pressed="true"]', "e => e.dataset.card"))
    assert chosen == sorted(codes), f"selected {chosen}, meant {sorted(codes)}"


def _groups(move: str) -> list[tuple[str | None, list[str]]]:
    """The groups of a meld or pile move: (rank named by a wild-only group or None, cards)."""
    _, _, rest = move.partition(" ")
    out: list[tuple[str | None, list[str]]] = []
    for group in filter(None, (g.strip() for g in rest.split(","))):
        head, colon, tail = group.partition(":")
        out.append((head.strip(), tail.split()) if colon else (None, group.split()))
    return out


def _natural_rank(cards: list[str]) -> str | None:
    ranks = {c[0] for c in cards if not is_wild(c) and c[0] in NATURAL_RANKS}
    return ranks.pop() if len(ranks) == 1 else None


def meld_target(page: Any, move: str) -> str | None:
    """How to click a ``meld`` move: the rank of the side's meld to click, or None for the Meld button.

    The Meld button sends the selected cards for the engine to resolve (one move is played, several
    open the chooser), so every legal meld can be clicked; a meld on the table is clicked where
    the move puts its wild cards on it alone.
    """
    groups = _groups(move)
    named = [rank for rank, _ in groups if rank is not None]
    with_wilds = [(rank or _natural_rank(cards)) for rank, cards in groups if any(is_wild(c) for c in cards)]
    naturals = {c[0] for _, cards in groups for c in cards if not is_wild(c) and c[0] in NATURAL_RANKS}
    mine = set(each(page, "#sides .side.mine .meld[data-rank]", "e => e.dataset.rank"))
    if not with_wilds:
        return None
    if len(with_wilds) == 1 and not named and len(naturals) == 1:
        return None  # the Meld button puts the wild cards with the one natural rank
    if len(with_wilds) == 1 and with_wilds[0] in mine and len(groups) == 1:
        return with_wilds[0]  # clicking that meld puts every selected wild card on it
    return None


def pile_by_cards(page: Any, move: str) -> bool:
    """True when the page builds this ``pile`` move from its selected cards and the Take pile button."""
    groups = _groups(move)
    if not groups:
        return False
    top = page.get_attribute("#pile-top", "data-card") or ""
    fallback = top[0] if top and not is_wild(top) else None
    with_wilds = [(rank or _natural_rank(cards)) for rank, cards in groups if any(is_wild(c) for c in cards)]
    naturals = {c[0] for _, cards in groups for c in cards if not is_wild(c) and c[0] in NATURAL_RANKS}
    if not with_wilds:
        return True
    if len(with_wilds) != 1:
        return False
    return (len(naturals) == 1 and with_wilds[0] in naturals) or (not naturals and with_wilds[0] == fallback)


def wait_changed(page: Any, before: int, move: str, chooser: bool = False) -> str:
    """Wait until the state id moves on from ``before`` (or, with ``chooser``, the pile chooser opens).

    Fails the test with ``#status`` when the page shows a refusal instead.  Returns "changed" or "chooser".
    """
    try:
        page.wait_for_function(
            "([before, chooser]) => document.body.dataset.stateId !== String(before)"
            " || document.getElementById('status').dataset.kind === 'error'"
            " || (chooser && !document.getElementById('pile-choices').hidden)",
            arg=[before, chooser], timeout=WAIT_MS)
    except Exception as exc:  # a timeout: say what the page showed instead
        if "Timeout" not in type(exc).__name__:
            raise
        pytest.fail(f"{move!r} was clicked at state {before}; {WAIT_MS} ms later the page shows {body_data(page)} "
                    f"and the status {status(page)}")
    if state_id(page) != before:
        return "changed"
    kind, text = status(page)
    if kind == "error":
        pytest.fail(f"the page refused the clicked move {move!r}: {text!r}")
    return "chooser"


def click_or_choose(page: Any, button: str, before: int, move: str) -> None:
    """Press ``button``: one move is sent at once; when several fit, the chooser opens and ``move`` is chosen."""
    page.click(button)
    if wait_changed(page, before, move, chooser=True) == "chooser":
        choice = page.locator(f"#pile-choices button.choice[data-move={json.dumps(move)}]")
        if choice.count() != 1:
            offered = each(page, "#pile-choices button.choice", "e => e.dataset.move")
            pytest.fail(f"the chooser does not offer {move!r}: {offered}")
        choice.click()
        wait_changed(page, before, move)


def play_move(page: Any, move: str) -> None:
    """Make ``move`` by clicking (never by typing), and check the log shows it as this seat's move."""
    before = state_id(page)
    logged = len(log_entries(page))
    seat = my_seat(page)
    word = move.split()[0]
    if page.is_visible("#btn-clear"):  # hidden while answering "may I go out?"
        page.click("#btn-clear")
    if word in ("draw", "ask", "yes", "no"):
        page.click(f"#btn-{word}")
        wait_changed(page, before, move)
    elif word == "discard":
        select_cards(page, cards_of(move))
        page.click("#btn-discard")
        wait_changed(page, before, move)
    elif word == "meld":
        target = meld_target(page, move)
        select_cards(page, cards_of(move))
        if target is not None:
            page.click(f'#sides .meld[data-side="{my_side(page)}"][data-rank="{target}"]')
            wait_changed(page, before, move)
        else:
            click_or_choose(page, "#btn-meld", before, move)  # the engine resolves the selection
    elif word == "pile":
        if pile_by_cards(page, move):
            select_cards(page, cards_of(move))
            page.click("#btn-pile")
            wait_changed(page, before, move)
        else:
            click_or_choose(page, "#btn-pile", before, move)  # nothing selected: one way or the chooser
    else:
        pytest.fail(f"a hint named a move the test cannot click: {move!r}")
    entries = log_entries(page)
    assert len(entries) > logged, f"{move!r} was acknowledged but the log did not grow: {entries}"
    assert entries[logged][0] == seat and normalize(entries[logged][1]) == normalize(move), (
        f"clicked {move!r}; the log shows {entries[logged]}")


def play_turn(page: Any, draw_first: bool = False) -> list[str]:
    """Follow the page's hints, by clicks, until this seat's turn (or the hand) ends; the moves made."""
    made: list[str] = []
    for _ in range(40):
        if hand_over(page) or body_data(page).get("myTurn") != "true":
            return made
        move = "draw" if draw_first and not made and body_data(page).get("phase") == "draw" else ask_hint(page)
        play_move(page, move)
        made.append(move)
    pytest.fail(f"a turn of more than 40 moves: {made}")


def multiset_minus(a: list[str], b: list[str]) -> list[str]:
    """The codes of ``a`` left after taking away one copy for each code of ``b``."""
    return sorted((Counter(a) - Counter(b)).elements())


@contextmanager
def headless_chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, for one test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@contextmanager
def browser_contexts(browser: Any, speed: str | None = None, **defaults: Any) -> Iterator[Callable[..., Any]]:
    """Make fresh browser contexts (``defaults`` | the options given), closed at the end; a script error fails.

    Playwright's ``wait_for_function`` evaluates strings, which the server's strict
    Content-Security-Policy forbids, so the tests' contexts bypass it by default;
    ``test_the_pages_run_under_the_strict_content_security_policy`` checks the pages without.
    ``speed``: the motion speed the pages start at (``slow``, ``normal``, ``fast``: stored as a player's
    choice, unless a page chose one), so that pages with motion on still show every move, only faster.
    """
    contexts: list[Any] = []
    errors: list[str] = []

    def make(**options: Any) -> Any:
        context = browser.new_context(**({"bypass_csp": True} | defaults | options))
        context.set_default_timeout(WAIT_MS)
        if speed is not None:
            context.add_init_script(f"try {{ if (!localStorage.getItem('canasta:speed'))"
                                    f" localStorage.setItem('canasta:speed', {json.dumps(speed)}); }} catch (e) {{}}")
        context.on("page", lambda page: page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}")))
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert not errors, "script errors on the page:\n" + "\n".join(errors)


def skip_without_browser(accounts: bool = False) -> None:
    """Skip the calling test module, at its import, where Playwright for Python or Debian's Chromium is missing (with
    ``accounts``, also argon2, which the room's accounts need)."""
    try:
        import playwright.sync_api  # noqa: F401  (only whether it is there)
    except ImportError:  # pragma: no cover - depends on the machine
        pytest.skip("the browser tests need Playwright for Python: pip install playwright", allow_module_level=True)
    if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
        pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium)",
                    allow_module_level=True)
    if accounts:
        pytest.importorskip("argon2", reason="accounts need the web extra: pip install 'canasta[web]'")


# -- accessibility and fit ----------------------------------------------------------------------


def find_axe() -> Path:
    """axe-core's axe.min.js (scripts/ensure-axe.sh installs it when missing); skips the test without it."""
    try:
        run = subprocess.run(["sh", str(ROOT / "scripts" / "ensure-axe.sh")], capture_output=True, text=True,
                             timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:  # pragma: no cover - depends on the machine
        pytest.skip(f"axe-core is not available: {exc}")
    path = Path(run.stdout.strip().splitlines()[-1]) if run.stdout.strip() else None
    if path is None or not path.exists():  # pragma: no cover - depends on the machine
        pytest.skip(f"axe-core is not available (scripts/ensure-axe.sh: {run.stderr.strip()[-300:]})")
    return path


def axe_problems(page: Any, axe: Path) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in found
            if v["impact"] in ("serious", "critical")]


def check_sizes(page: Any, axe: Path, moment: str, sizes: list[tuple[int, int]] = ROOM_SIZES,
                fits: tuple[str, ...] = (ROOM_FITS,),
                settle_ms: int = 0, shots: Path | None = None, shot: str | None = None,
                full_page: bool = True) -> None:
    """At each of ``sizes`` the page passes the layout checks ``fits`` (JS functions returning problems) and axe-core;
    fails with every problem of every size, said with ``moment``.

    ``settle_ms``: a wait after each resize (a page that fits itself to the new size).  ``shot``: a screenshot at
    each size, ``shots/{shot}-{width}x{height}.png`` (``full_page`` or the window alone).
    """
    problems: list[str] = []
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        if settle_ms:
            page.wait_for_timeout(settle_ms)
        for script in fits:
            problems += [f"{width}x{height}: {p}" for p in page.evaluate(script)]
        problems += [f"{width}x{height}: {p}" for p in axe_problems(page, axe)]
        if shots is not None and shot is not None:
            shots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shots / f"{shot}-{width}x{height}.png"), full_page=full_page)
    assert not problems, f"{moment}:\n" + "\n".join(problems)


# -- the room's server in process (fastapi's TestClient) ---------------------------------------------

PASSWORD = "correct horse battery"
"""The password the room's tests sign their accounts up with."""


@contextmanager
def room_client(db: str, wait: float = 60.0, **options: Any) -> Iterator[Any]:
    """A TestClient of the server on ``db`` (no bot delay, follow or presence; ``options`` for ``create_app``), whose
    quick match waits ``wait`` seconds for players and plays to 1000."""
    from fastapi.testclient import TestClient

    from canasta.web.app import create_app
    from canasta.web.room import quickmatch

    app = create_app(db, bot_delay=0, follow=0, presence=0, **options)
    app.state.quick = quickmatch.QuickSettings(wait=wait, target=1000)
    with TestClient(app) as test_client:
        yield test_client


def as_new_player(client: Any, name: str | None = None) -> Any:
    """A fresh browser (a new cookie jar), signed up as ``name`` when given; its cookies."""
    import httpx

    client.cookies = httpx.Cookies()
    client.get("/api/lobby")  # the browser gets its key
    if name is not None:
        assert client.post("/api/account/signup", json={"name": name, "password": PASSWORD}).status_code == 201
    return httpx.Cookies(client.cookies)


def use(client: Any, jar: Any) -> None:
    """Go on as the browser whose cookies are ``jar``."""
    import httpx

    client.cookies = httpx.Cookies(jar)


def wait_for(check: Callable[[], Any], seconds: float = 30.0) -> Any:
    """``check()``'s first true answer, asked every 50 ms; an AssertionError after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(0.05)
    raise AssertionError("waited too long")


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, its objects' keys among them."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
