"""Screenshots of the game page for the README, made by the tests' browser (Debian's Chromium).

    python scripts/screenshots.py [--out docs] [--seed 5] [--turns 4]

Starts ``canasta serve`` on a free port with a throwaway database, plays a classic hand against three
experts by following the hints for a few turns, draws, and saves the table as a desktop (1366x768:
docs/table-desktop.png) and a phone (390x844: docs/table-phone.png) would show it, then the end of the
hand (docs/table-hand-end.png); a hand that ends before the pictures is dealt again with the next seed.
Needs the web and test extras (FastAPI, Playwright).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where the PNG files go (default: docs)")
    parser.add_argument("--seed", type=int, default=5, help="the deal (default: 5)")
    parser.add_argument("--turns", type=int, default=4, help="turns played before the pictures (default: 4)")
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
