"""The account page (/account, issue 30 point 1): accessible (axe-core), fits a phone and a laptop, signs up and out."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import CHROMIUM, Server, browser_contexts, headless_chromium, start_server

try:
    import playwright.sync_api  # noqa: F401  (the module is skipped without it)
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("the browser tests need Playwright for Python: pip install playwright", allow_module_level=True)
if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("argon2", reason="accounts need the web extra: pip install 'canasta[web]'")

ROOT = Path(__file__).resolve().parents[2]


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
    """axe-core's serious and critical violations on the page as it is now (as tests/web/test_table.py)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in found
            if v["impact"] in ("serious", "critical")]


SIZES = [(390, 844), (1366, 768)]
FITS = """() => {
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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = start_server(tmp_path_factory.mktemp("room"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium() as chromium:
        yield chromium


def check(page: Any, axe: Path, moment: str) -> None:
    problems: list[str] = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        problems += [f"{width}x{height}: {p}" for p in page.evaluate(FITS)]
        problems += [f"{width}x{height}: {p}" for p in axe_problems(page, axe)]
    assert not problems, f"{moment}:\n" + "\n".join(problems)


def test_the_account_page(server: Server, browser: Any) -> None:
    axe = find_axe()
    with browser_contexts(browser) as new_context:  # axe-core is injected: the context bypasses the CSP
        page = new_context().new_page()
        page.goto(server.base + "/account")
        page.locator("#sign-in").wait_for(state="visible")
        check(page, axe, "signed out")
        page.fill("#signup-name", "PagePlayer")
        page.fill("#signup-password", "a long password")
        page.click("#signup-form button[type=submit]")
        page.locator("#signed-in").wait_for(state="visible")
        assert page.locator("#me-name").inner_text() == "PagePlayer"
        assert page.locator("#sign-in").is_hidden()
        check(page, axe, "signed in")
        page.fill("#current-password", "wrong password")
        page.fill("#new-password", "another long password")
        page.click("#password-form button[type=submit]")
        page.locator("#account-status.error").wait_for(state="visible")
        check(page, axe, "an error shown")
        page.click("#sign-out")
        page.locator("#sign-in").wait_for(state="visible")
    with browser_contexts(browser, bypass_csp=False) as new_context:  # the page's own CSP: it works under it
        page = new_context().new_page()
        page.goto(server.base + "/account")
        page.fill("#signin-name", "pageplayer")
        page.fill("#signin-password", "a long password")
        page.click("#signin-form button[type=submit]")
        page.locator("#signed-in").wait_for(state="visible")
        assert page.locator("#me-name").inner_text() == "PagePlayer"


def test_the_lobby_links_to_the_account_page(server: Server, browser: Any) -> None:
    axe = find_axe()
    with browser_contexts(browser) as new_context:
        page = new_context().new_page()
        page.goto(server.base + "/")
        link = page.locator("a[href='/account']")
        assert link.count() == 1 and "account" in link.inner_text()
        check(page, axe, "the lobby")
        link.click()
        page.locator("#sign-in").wait_for(state="visible")
