"""The review of a finished hand on the game page (static/game/review.js), in Debian's Chromium: opened from the
hand's result, stepped with the arrow keys, a marked decision with the better move on the table."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import (
    Server,
    axe_problems,
    find_axe,
    open_sized,
    post_table,
    ready_until_over,
    running_server,
    skip_without_browser,
)

skip_without_browser()

SHOTS = Path(os.environ.get("CANASTA_REVIEW_SHOTS", "/tmp/review-shots"))
"""Where the screenshots of the review go (looked at by a person, not compared)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("review"), seed=11,
                        env={"CANASTA_REVIEW_ROLLOUTS": "2:2"}) as running:  # a review in a few seconds
        yield running


def test_review_this_hand_steps_to_a_marked_decision_with_the_better_move(
        server: Server, new_context: Callable[..., Any]) -> None:
    table = post_table(server.base, {"preset": "classic",
                                     "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "basic"}] * 3})
    link = server.base + table["seats"][0]["link"]
    page = open_sized(new_context(), link, (1366, 768))
    page.wait_for_selector("body[data-state-id]:not([data-state-id=''])")
    page.click("#btn-seat")  # the computer plays the hand out
    page.wait_for_selector("#result-dialog[open]", timeout=60_000)
    assert page.is_visible("#btn-review") and page.text_content("#btn-review") == "Review this hand"
    page.click("#btn-review")
    page.wait_for_selector("body.reviewing #review-bar:not([hidden])")
    assert page.text_content("#review-where") == f"Move 1 of {page.locator('#review-moves li').count()}"
    page.wait_for_selector("#review-progress[data-state='done']", timeout=60_000)
    marked = page.eval_on_selector_all(
        "#review-timeline .tick[data-label]", "ticks => ticks.filter(t => !['best'].includes(t.dataset.label))"
        ".map(t => Number(t.dataset.index))")
    assert marked, "no decision of the hand was judged short of the best"
    target = marked[0]
    for step in range(target):
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("body", "data-review-index") == str(step + 1)
    decision = page.text_content("#review-decision") or ""
    assert "Better:" in decision and "EPL" in decision and "points" in decision, decision
    assert page.locator("#hand .card.hint").count() + page.locator(".review-best").count() > 0
    assert page.locator(f"#review-moves .review-move.current[data-index='{target}']").count() == 1
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "review-1366x768.png"))
    assert not axe_problems(page, find_axe())
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("body", "data-review-index") == str(max(0, target - 1))
    page.keyboard.press("End")  # the hand over: every hand face up
    assert page.locator("#players .review-hand").count() == 3
    page.screenshot(path=str(SHOTS / "review-end-1366x768.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector("body:not(.reviewing)")
    assert page.is_hidden("#review-bar")

    page.close()  # one connection for the seat: no "open elsewhere" notice on the phone
    phone = open_sized(new_context(), link, (390, 844))
    phone.wait_for_selector("#result-dialog[open]")
    phone.click("#btn-review")
    phone.wait_for_selector("#review-progress[data-state='done']")  # stored: no second analysis
    for _ in range(target):
        phone.keyboard.press("ArrowRight")
    phone.screenshot(path=str(SHOTS / "review-390x844.png"))
    root = phone.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert root[0] <= root[1] + 1, "the review is wider than the phone"

    # The spectator's link replays the finished hand with every hand face up, and asks for no analysis.
    watcher = open_sized(new_context(), server.base + table["spectator"]["link"], (1366, 768))
    watcher.wait_for_selector("#result-dialog[open]")
    assert watcher.text_content("#btn-review") == "Replay this hand"
    watcher.click("#btn-review")
    watcher.wait_for_selector("body.reviewing")
    assert watcher.locator("#players .review-hand").count() == 4
    assert "spectator" in (watcher.text_content("#review-progress") or "")
    watcher.keyboard.press("ArrowRight")
    assert watcher.get_attribute("body", "data-review-index") == "1"
    watcher.screenshot(path=str(SHOTS / "review-spectator-1366x768.png"))


def test_a_spectator_replays_a_finished_hand_only(server: Server, new_context: Callable[..., Any]) -> None:
    table = post_table(server.base, {"preset": "classic",
                                     "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "basic"}] * 3})
    page = new_context().new_page()
    page.goto(server.base + table["spectator"]["link"])
    page.wait_for_selector("body[data-state-id]:not([data-state-id=''])")
    answer = page.evaluate("""async ([id, token]) => {
        const r = await fetch(`/api/tables/${id}/hands/1/replay`, {headers: {'X-Canasta-Token': token}});
        return [r.status, await r.json()];
    }""", [table["table"], table["spectator"]["token"]])
    assert answer[0] == 409 and "still being played" in answer[1]["message"]


def test_review_the_match_analyses_every_hand_in_turn(server: Server, new_context: Callable[..., Any]) -> None:
    table = post_table(server.base, {"preset": "classic", "target": 1000,
                                     "seats": [{"kind": "human", "name": "Ann"}] + [{"kind": "basic"}] * 3})
    page = open_sized(new_context(), server.base + table["seats"][0]["link"], (1366, 768))
    page.wait_for_selector("body[data-state-id]:not([data-state-id=''])")
    page.click("#btn-seat")  # the computer plays every hand; the person says ready between them
    ready_until_over(page, 12)
    hands = int(page.get_attribute("body", "data-hand") or 0)
    assert page.get_attribute("body", "data-status") == "over" and hands >= 2, hands
    assert page.is_hidden("#btn-review") and page.is_visible("#btn-review-match")
    page.click("#btn-review-match")
    page.wait_for_selector("body.reviewing")
    assert page.locator("#review-hand option").count() == hands
    assert page.input_value("#review-hand") == str(hands)  # the last hand first
    page.wait_for_selector("#review-progress[data-state='done']", timeout=90_000)
    page.wait_for_function("() => !/Analysing|Waiting/.test(document.querySelector('#review-progress').textContent)",
                           timeout=90_000)
    page.select_option("#review-hand", "1")
    page.wait_for_function("() => document.querySelector('#review-where').textContent.startsWith('Move 1 of')")
    page.wait_for_selector("#review-timeline .tick[data-label]")  # analysed already: at once
    assert page.get_attribute("#review-progress", "data-state") == "done"
    # The game record of the match, to save and read with `canasta review FILE`.
    with page.expect_download() as download:
        page.click("#btn-record")
    saved = download.value
    assert saved.suggested_filename.endswith("-seat1.json")
    record = json.loads(Path(saved.path()).read_text())
    assert len(record["hands"]) == hands and all(hand["deck"] for hand in record["hands"])
