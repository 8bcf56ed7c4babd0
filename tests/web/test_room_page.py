"""The account page (/account, issue 30 point 1): accessible (axe-core), fits a phone and a laptop, signs up and out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .browser_helpers import Server, browser_contexts, check_sizes, skip_without_browser

skip_without_browser(accounts=True)


def check(page: Any, axe: Path, moment: str) -> None:
    """The page fits a phone and a laptop and passes axe-core."""
    check_sizes(page, axe, moment)


def test_the_account_page(server: Server, browser: Any, axe_script: Path) -> None:
    with browser_contexts(browser) as new_context:  # axe-core is injected: the context bypasses the CSP
        page = new_context().new_page()
        page.goto(server.base + "/account")
        page.locator("#sign-in").wait_for(state="visible")
        check(page, axe_script, "signed out")
        page.fill("#signup-name", "PagePlayer")
        page.fill("#signup-password", "a long password")
        page.click("#signup-form button[type=submit]")
        page.locator("#signed-in").wait_for(state="visible")
        assert page.locator("#me-name").inner_text() == "PagePlayer"
        assert page.locator("#sign-in").is_hidden()
        check(page, axe_script, "signed in")
        page.fill("#current-password", "wrong password")
        page.fill("#new-password", "another long password")
        page.click("#password-form button[type=submit]")
        page.locator("#account-status.error").wait_for(state="visible")
        check(page, axe_script, "an error shown")
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


def test_the_lobby_links_to_the_account_page(server: Server, browser: Any, axe_script: Path) -> None:
    with browser_contexts(browser) as new_context:
        page = new_context().new_page()
        page.goto(server.base + "/")
        link = page.locator("a[href='/account']")
        assert link.count() == 1 and "account" in link.inner_text()
        check(page, axe_script, "the lobby")
        link.click()
        page.locator("#sign-in").wait_for(state="visible")
