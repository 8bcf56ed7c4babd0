"""A finished match's hands at the table replay, in Debian's Chromium (issue 30, the history's replay): the match's
page opens a hand at the table, every hand face up, stepped with the keys; its player sees their review's marks; a
second browser, not a player, opens the shared link and sees the hand without them; a match still being played is
refused.  Screenshots of the match's page and the replay at 360x740 and 1920x1080 go to CANASTA_ROOM_SHOTS."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import (
    CHROMIUM,
    Server,
    axe_problems,
    browser_contexts,
    find_axe,
    headless_chromium,
    post_table,
    start_server,
)

if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM}", allow_module_level=True)
try:
    import playwright.sync_api  # noqa: F401  (the module is skipped without it)
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("the browser tests need Playwright for Python: pip install playwright", allow_module_level=True)

SHOTS = Path(os.environ.get("CANASTA_ROOM_SHOTS", "/tmp/room-shots"))
SIZES = [(360, 740), (1920, 1080)]
CARD = re.compile(r"\b(?:[2-9TJQKA][CDHS]|JK)\b")
FITS = """() => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.scrollingElement.scrollWidth > width + 1) problems.push(`the page scrolls sideways`);
  for (const el of document.querySelectorAll("input, button, a, h2, label, select")) {
    if (el.closest("[hidden]") || el.classList.contains("skip-link")) continue;
    if (!el.checkVisibility({ visibilityProperty: true })) continue; // the side panel, closed on a phone
    const box = el.getBoundingClientRect();
    if (box.width > 0 && (box.left < -1 || box.right > width + 1)) problems.push(`${el.id || el.tagName} overflows`);
  }
  return problems;
}"""
"""test_room_page's check, for a page whose side panel slides in from outside the screen when opened."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    before = os.environ.get("CANASTA_REVIEW_ROLLOUTS")
    os.environ["CANASTA_REVIEW_ROLLOUTS"] = "2:2"  # a review in a few seconds
    try:
        running = start_server(tmp_path_factory.mktemp("room-replay"), bot_delay=0.005, seed=11)
    finally:
        if before is None:
            del os.environ["CANASTA_REVIEW_ROLLOUTS"]
        else:
            os.environ["CANASTA_REVIEW_ROLLOUTS"] = before
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium() as chromium:
        yield chromium


def check(page: Any, axe: Path, moment: str, shot: str) -> None:
    """The page fits a phone and a large screen, passes axe-core, and is photographed at both sizes."""
    problems: list[str] = []
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)  # the table's fit() after the resize
        problems += [f"{width}x{height}: {p}" for p in page.evaluate(FITS)]
        problems += [f"{width}x{height}: {p}" for p in axe_problems(page, axe)]
        page.screenshot(path=str(SHOTS / f"{shot}-{width}x{height}.png"), full_page=shot == "match")
    assert not problems, f"{moment}:\n" + "\n".join(problems)


def api(page: Any, path: str) -> tuple[int, Any]:
    return tuple(page.evaluate("async (path) => { const r = await fetch(path);"
                               " return [r.status, await r.json()]; }", path))  # type: ignore[return-value]


def test_a_finished_match_opens_its_hands_at_the_table_face_up_and_by_its_link(server: Server, browser: Any) -> None:
    axe = find_axe()
    with browser_contexts(browser, reduced_motion="reduce") as new_context:
        table = post_table(server.base, {"preset": "classic", "target": 1000,
                                         "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "basic"}] * 3})
        ann = new_context().new_page()
        ann.set_viewport_size({"width": 1366, "height": 768})
        ann.goto(server.base + table["seats"][0]["link"])
        ann.wait_for_selector("body[data-state-id]:not([data-state-id=''])")
        ann.click("#btn-seat")  # the computer plays Ann's seat; she says ready between the hands
        ann.wait_for_selector("#result-dialog[open]", timeout=60_000)
        ann.click("#btn-review")  # her review of hand 1, kept with the table
        ann.wait_for_selector("#review-progress[data-state='done']", timeout=90_000)
        ann.keyboard.press("Escape")

        # While the match goes on, nothing of it is replayed: no match has the table's id, old route or new.
        for path in (f"/api/matches/{table['table']}/hands/1/replay", f"/api/matches/{table['table']}/hands/1",
                     f"/api/matches/{table['table']}"):
            status, body = api(ann, path)
            assert status == 404 and not CARD.search(str(body)), path
        early = new_context().new_page()
        early.goto(server.base + f"/match/{table['table']}/hand/1")
        early.locator("#notice").wait_for(state="visible")
        assert "no finished match" in early.locator("#notice").inner_text()
        assert early.locator("#players li").count() == 0 and early.locator(".card:not(.back)").count() == 0
        early.close()

        ann.click("#btn-result")
        for _ in range(15):
            ann.wait_for_selector("#result-dialog[open]", timeout=60_000)
            if ann.get_attribute("body", "data-status") == "over":
                break
            hand = ann.get_attribute("body", "data-hand")
            ann.click("#btn-next")
            ann.wait_for_function("h => document.body.dataset.hand !== h", arg=hand)
        assert ann.get_attribute("body", "data-status") == "over"
        ann.wait_for_function("async () => (await (await fetch('/api/history')).json()).matches.length > 0",
                              polling=200, timeout=20_000)
        link = api(ann, "/api/history")[1]["matches"][0]["link"]

        # Ann's history: the match's page, a hand at the table with her own cards, everyone's face up, her marks.
        ann.goto(server.base + link)
        ann.locator("#match-hands li").first.wait_for()
        check(ann, axe, "a finished match's page", "match")
        ann.set_viewport_size({"width": 1920, "height": 1080})
        ann.click("#match-hands a:has-text('Replay hand 1')")
        ann.wait_for_url(re.compile(r"/match/[0-9a-f]+/hand/1$"))
        ann.wait_for_selector("body.reviewing #review-bar:not([hidden])")
        assert ann.get_attribute("body", "data-review-index") == "0"
        assert ann.locator("#hand .card").count() > 0  # her hand, face up at the bottom
        assert ann.locator("#players .review-hand").count() == 3  # and the three others', face up
        assert ann.locator("#review-timeline .tick[data-label]").count() > 0  # the marks of her review
        assert "decisions judged" in ann.locator("#review-progress").inner_text()
        ann.keyboard.press("ArrowRight")
        assert ann.get_attribute("body", "data-review-index") == "1"
        ann.click("#btn-review-next")
        assert ann.get_attribute("body", "data-review-index") == "2"
        assert "Replaying" in ann.locator("#turn").inner_text()
        check(ann, axe, "a hand replayed at the table", "replay-player")
        if ann.locator("#review-hand option").count() > 1:  # another hand: the address follows
            ann.select_option("#review-hand", "2")
            ann.wait_for_url(re.compile(r"/hand/2$"))
            ann.wait_for_function("() => document.querySelector('#review-where').textContent.startsWith('Move 1 of')")
        match_url = ann.url.rsplit("/hand/", 1)[0]

        # A second browser, not a player, opens the shared link: the same hand, face up, with no review.
        ben = new_context().new_page()
        ben.set_viewport_size({"width": 1920, "height": 1080})
        ben.goto(match_url + "/hand/1")
        ben.wait_for_selector("body.reviewing.spectator #review-bar:not([hidden])")
        assert ben.locator("#players .review-hand").count() == 4  # every hand face up
        faces = ben.locator("#players .review-hand").all_inner_texts()
        assert all(re.search("[\u2660\u2665\u2666\u2663]|Joker", text) for text in faces), faces
        assert ben.locator("#review-timeline .tick[data-label]").count() == 0
        assert "every hand is face up" in ben.locator("#review-progress").inner_text()
        ben.keyboard.press("ArrowRight")
        assert ben.get_attribute("body", "data-review-index") == "1"
        check(ben, axe, "a hand replayed by the shared link", "replay-shared")
        ben.keyboard.press("End")  # the hand over: its result, every hand face up
        assert ben.locator("#review-where").inner_text().startswith("Hand over")
        assert ben.locator("#players .review-hand").count() == 4
        ben.screenshot(path=str(SHOTS / "replay-shared-end-1920x1080.png"))
        ben.keyboard.press("Escape")  # back to the match's page
        ben.wait_for_url(re.compile(r"/match/[0-9a-f]+$"))
        ben.locator("#match-sides tr").first.wait_for()
