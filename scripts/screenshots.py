"""Screenshots of the game page for the README, and of the room's pages, made by the tests' browser (Debian's Chromium).

    python scripts/screenshots.py [--out docs] [--seed 5] [--turns 4]
    python scripts/screenshots.py --room [--out /tmp/room-pages-shots]

Starts ``canasta serve`` on a free port with a throwaway database, plays a classic hand against three
experts by following the hints for a few turns, draws, and saves the table as a desktop (1366x768:
docs/table-desktop.png) and a phone (390x844: docs/table-phone.png) would show it, then the end of the
hand (docs/table-hand-end.png); a hand that ends before the pictures is dealt again with the next seed.

With ``--room``: the room's pages at 360x740, 1366x768 and 1920x1080, the whole page each (``NAME-WxH.png``):
the account page signed out and signed in (a name as long as an account's may be), the lobby with a few
public tables, the quick match waiting with its countdown, and the leaderboard with rated players.
Needs the web and test extras (FastAPI, Playwright, argon2).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.browser_helpers import (  # noqa: E402 (the repository root first)
    CHROMIUM,
    CHROMIUM_ARGS,
    body_data,
    hand_over,
    open_page,
    play_move,
    play_turn,
    post_table,
    seats,
    start_server,
    wait_turn_or_end,
)

SIZES = {"desktop": (1366, 768), "phone": (390, 844)}
ROOM_SIZES = [(360, 740), (1366, 768), (1920, 1080)]
ROOM_PLAYERS = [("Annabel_Christensen2", 31.26, 2.0, 40), ("Ben", 28.4, 2.5, 22), ("Cy_the_Counter", 26.1, 3.0, 9),
                ("Dominique-Fitzgerald", 24.8, 4.0, 6), ("Newbie", 25.0, 7.5, 1)]
"""Accounts of the room's pictures with their four-player ratings (mu, sigma, matches): long names and short."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where the PNG files go (default: docs)")
    parser.add_argument("--seed", type=int, default=5, help="the deal (default: 5)")
    parser.add_argument("--turns", type=int, default=4, help="turns played before the pictures (default: 4)")
    parser.add_argument("--room", action="store_true",
                        help="the room's pages instead (account, lobby, quick match, leaderboard)")
    args = parser.parse_args()
    if args.room:
        room_shots(args.out if "--out" in sys.argv else Path("/tmp/room-pages-shots"))
        return
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as work:
        server = start_server(Path(work), bot_delay=0.02)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
                context = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion="reduce",
                                              bypass_csp=True, device_scale_factor=1)
                # The computer players think against a clock, so a deal does not always play the same: a hand
                # that ends before the pictures is dealt again with the next seed.
                for seed in range(args.seed, args.seed + 10):
                    answer = post_table(server.base, {"preset": "classic", "seed": seed,
                                                      "seats": seats("human", "expert", "expert", "expert")})
                    page = open_page(context, server.base, answer["seats"][0]["link"])
                    for _ in range(args.turns):
                        wait_turn_or_end(page)
                        if hand_over(page):
                            break
                        play_turn(page)
                    wait_turn_or_end(page)
                    if not hand_over(page) and body_data(page).get("phase") == "draw":
                        play_move(page, "draw")  # the drawn card shows marked as new
                    if not hand_over(page):
                        break
                    page.close()
                for name, (width, height) in SIZES.items():
                    page.set_viewport_size({"width": width, "height": height})
                    page.wait_for_timeout(300)
                    page.screenshot(path=str(args.out / f"table-{name}.png"))
                    print(args.out / f"table-{name}.png")
                page.set_viewport_size({"width": 1366, "height": 768})
                for _ in range(200):
                    wait_turn_or_end(page)
                    if hand_over(page):
                        break
                    play_turn(page)
                page.locator("#result-dialog").wait_for(state="visible")
                page.wait_for_timeout(300)
                page.screenshot(path=str(args.out / "table-hand-end.png"))
                print(args.out / "table-hand-end.png")
                browser.close()
        finally:
            server.stop()


def shoot(page: Any, out: Path, name: str) -> None:
    """The whole page at each of the room's sizes."""
    for width, height in ROOM_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        path = out / f"{name}-{width}x{height}.png"
        page.screenshot(path=str(path), full_page=True)
        print(path)


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(base + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", "a long password")
    page.click("#signup-form button[type=submit]")
    page.locator("#signed-in").wait_for(state="visible")


def room_shots(out: Path) -> None:
    """The room's pages (see the module's docstring)."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    saved = os.environ.get("CANASTA_QUICK_WAIT")
    os.environ["CANASTA_QUICK_WAIT"] = "120"  # the quick match waits long enough for its pictures
    with tempfile.TemporaryDirectory() as work:
        try:
            server = start_server(Path(work), bot_delay=0.02)
        finally:
            if saved is None:
                os.environ.pop("CANASTA_QUICK_WAIT", None)
            else:
                os.environ["CANASTA_QUICK_WAIT"] = saved
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
                contexts = [browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion="reduce",
                                                bypass_csp=True, device_scale_factor=1) for _ in ROOM_PLAYERS]
                pages = [context.new_page() for context in contexts]
                ann = pages[0]
                ann.goto(server.base + "/account")
                ann.locator("#signup-form").wait_for()
                shoot(ann, out, "account-signed-out")
                for page, (name, *_) in zip(pages, ROOM_PLAYERS, strict=True):
                    sign_up(page, server.base, name)
                with sqlite3.connect(Path(work) / "web.sqlite3") as db:
                    for name, mu, sigma, matches in ROOM_PLAYERS:
                        db.execute("INSERT INTO ratings (account_id, family, mu, sigma, matches, updated) "
                                   "SELECT id, 'four', ?, ?, ?, 0 FROM accounts WHERE name = ?",
                                   (mu, sigma, matches, name))
                ann.reload()
                ann.locator("#signed-in").wait_for(state="visible")
                shoot(ann, out, "account-signed-in")
                # A few public tables, made by the signed-in people: open seats, computers, a rated one.
                tables = [("classic", False, ["human", "expert", "human", "club"]),
                          ("two-player", False, ["human", "human"]),
                          ("classic", True, ["human", "human", "human", "human"])]
                for page, (preset, rated, kinds) in zip(pages[1:], tables, strict=False):
                    names = iter(["North", "East", "South", "West"])
                    seats_ = [{"kind": k, "name": next(names)} if k == "human" else {"kind": k} for k in kinds]
                    page.evaluate("async (body) => (await fetch('/api/tables', {method: 'POST', headers: "
                                  "{'Content-Type': 'application/json'}, body: JSON.stringify(body)})).json()",
                                  {"preset": preset, "public": True, "rated": rated, "seats": seats_})
                ann.goto(server.base + "/room")
                ann.locator("#open-tables li").nth(len(tables) - 1).wait_for()
                shoot(ann, out, "room-lobby")
                ann.locator("#quick-game option[value='classic']").wait_for(state="attached")
                ann.select_option("#quick-game", "classic")
                ann.check("input[name=rated][value=rated]")
                ann.click("#quick-find")
                ann.locator("#quick-countdown").wait_for(state="visible")
                shoot(ann, out, "room-quick-match")
                ann.click("#quick-cancel")
                ann.goto(server.base + "/room/leaderboard")
                ann.locator("#board-rows tr").nth(4).wait_for()
                shoot(ann, out, "leaderboard")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
