"""Levels and hints on the server: the lobby offers the levels with their strength, seats take them,
and a search's hint is thought in the CPU pool, off the event loop."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient

from canasta.bots import LEVELS
from canasta.bots.hints import HINT_BOT_ENV
from canasta.web.app import create_app

from .browser_helpers import CHROMIUM, browser_contexts, headless_chromium, start_server
from .test_protocol import create, hello, humans, receive_until, token_of


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "t.sqlite3"), bot_delay=0)) as c:
        yield c


def test_setup_offers_the_levels_with_their_strength(client: TestClient) -> None:
    setup = client.get("/api/setup").json()
    assert setup["levels"] == [{"kind": level.kind, "name": level.name, "strength": level.strength}
                               for level in LEVELS]


def test_a_table_of_levels(client: TestClient) -> None:
    answer = create(client, preset="classic", seats=[{"kind": "human"}, {"kind": "Beginner"}, {"kind": "club"},
                                                     {"kind": "master", "name": "Max"}])
    assert [(s["kind"], s["name"]) for s in answer["seats"][1:]] == [("beginner", "Beginner 2"), ("club", "Club 3"),
                                                                    ("master", "Max")]
    refused = client.post("/api/tables", json={"preset": "classic", "seats": [{"kind": "human"},
                                                                              {"kind": "grandmaster"}] * 2})
    assert refused.status_code == 400 and "or a level: beginner, club, expert, master" in refused.json()["message"]


def test_a_search_hint_is_thought_in_the_cpu_pool(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HINT_BOT_ENV, "search:16")
    import canasta.web.service as service

    pooled: list[str] = []
    real = service.run_cpu

    async def counting(key: str, function: Any, *args: Any) -> Any:
        pooled.append(getattr(function, "__name__", "?"))
        return await real(key, function, *args)

    monkeypatch.setattr(service, "run_cpu", counting)
    table = create(client, preset="classic", seats=humans())
    with client.websocket_connect(f"/ws/{table['table']}") as ws:
        _, state = hello(ws, token_of(table["seats"][0]["link"]))
        to_act = state["view"]["to_act"]
    with client.websocket_connect(f"/ws/{table['table']}") as ws:
        _, state = hello(ws, token_of(table["seats"][to_act]["link"]))
        ws.send_json({"type": "hint", "state": state["state"], "id": 1})
        answer = receive_until(ws, lambda m: m["type"] in ("hint", "error"))
    assert answer["type"] == "hint" and answer["move"] in state["legal"] and answer["reason"].endswith(".")
    assert pooled == ["_hint"]  # the view, the legal moves and the search, off the event loop


# -- the lobby in a browser ---------------------------------------------------------------------


def test_the_lobby_offers_each_level_by_name_with_its_strength(tmp_path: Path) -> None:
    if importlib.util.find_spec("playwright") is None or not CHROMIUM.exists():
        pytest.skip("the browser tests need Playwright and Chromium")
    server = start_server(tmp_path)
    try:
        with headless_chromium() as browser, browser_contexts(browser) as new_context:
            page = new_context().new_page()
            page.goto(server.base + "/")
            page.locator('.seat-kind[data-seat="1"] option[value="master"]').wait_for(state="attached")
            options = page.eval_on_selector_all('.seat-kind[data-seat="1"] option',
                                                "els => els.map(e => [e.value, e.textContent, e.title])")
            offered = {value: (text, title) for value, text, title in options}
            for level in LEVELS:
                assert offered[level.kind] == (level.name, level.strength)
            assert [value for value, _, _ in options].count("expert") == 1  # the level, not the bot again
            assert {"human", "random", "basic", "search"} <= set(offered)
            groups = page.eval_on_selector_all('.seat-kind[data-seat="1"] optgroup', "els => els.map(e => e.label)")
            assert groups == ["Computer, by level", "Computer, by name"]
            # The seat of a level says its strength beside it; a person's seat shows the name box instead.
            strength = {level.kind: level.strength for level in LEVELS}
            assert page.inner_text('.seat-note[data-seat="1"]') == strength["expert"]
            page.select_option('.seat-kind[data-seat="1"]', "club")
            assert page.inner_text('.seat-note[data-seat="1"]') == strength["club"]
            assert not page.is_visible('.seat-note[data-seat="0"]') and page.is_visible('.seat-name[data-seat="0"]')
            page.select_option('.seat-kind[data-seat="3"]', "beginner")
            page.click("#create")
            page.locator("#created").wait_for(state="visible")
            assert "Club 2" in page.inner_text("#created") and "Beginner 4" in page.inner_text("#created")
    finally:
        server.stop()


def test_a_masters_budget_is_held_to_the_servers_cap() -> None:
    from canasta.web.limits import Limits
    from canasta.web.requests import check_search

    check_search("master", Limits())  # 100 ms is under the default cap of 2 s
    check_search("master", Limits(max_search=0.1))  # at the cap is allowed
    with pytest.raises(ValueError, match=r"at most 0\.05s a move"):
        check_search("Master", Limits(max_search=0.05))
    check_search("club", Limits(max_search=0.05))  # not a search
