"""A server that one player cannot stop (issue 18, docs/security.md): limits, named errors, hygiene."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import re
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra: pip install 'canasta[web]'")

from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from canasta.rules import Rules
from canasta.web import limits as web_limits
from canasta.web.app import create_app, expire_tables
from canasta.web.limits import BodyTooLarge, Limits, RateLimiter, read_body
from canasta.web.pool import CpuPool
from canasta.web.security import EscapingFilter, escape
from canasta.web.storage import StorageError, open_storage

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "canasta" / "web" / "static"
Message = dict[str, Any]
HUMANS2 = [{"kind": "human"}, {"kind": "human"}]


def make_client(tmp_path: Path, **limits: Any) -> TestClient:
    return TestClient(create_app(str(tmp_path / "s.sqlite3"), bot_delay=0, limits=Limits(**limits)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def until(ws: Any, kind: str, limit: int = 200) -> Message:
    for _ in range(limit):
        message: Message = ws.receive_json()
        if message["type"] in (kind, "error"):
            return message
    raise AssertionError(f"no {kind}")


# -- 1. bounded work per table ------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {"decks": 4, "hand_size": 104}, {"hand_size": 50}, {"decks": 4, "hand_size": 60}, {"decks": 4}])
def test_options_that_would_freeze_the_server_are_refused(client: TestClient, options: dict[str, int]) -> None:
    started = time.monotonic()
    answer = client.post("/api/tables", json={"preset": "two-player", "options": options, "seats": HUMANS2})
    assert answer.status_code == 400 and answer.json()["error"] == "bad_table", answer.text
    assert "on this server" in answer.json()["message"]
    assert time.monotonic() - started < 2
    assert client.get("/api/health").json()["ok"]


def test_the_largest_allowed_options_are_accepted(client: TestClient) -> None:
    for preset, hand in web_limits.HAND_CAPS.items():
        rules = Rules.from_preset(preset)
        seats = [{"kind": "human"}] * rules.players
        options = {"hand_size": hand, "decks": web_limits.MAX_DECKS[preset]}
        answer = client.post("/api/tables", json={"preset": preset, "options": options, "seats": seats})
        assert answer.status_code == 201, (preset, answer.text)


def _legal_worst() -> Any:
    spec = importlib.util.spec_from_file_location("legal_worst", ROOT / "benchmarks" / "legal_worst.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_legal_moves_stay_fast_at_the_largest_allowed_options() -> None:
    """A short run of benchmarks/legal_worst.py (its full run measures < 50 ms; loose here: shared CPUs)."""
    bench = _legal_worst()
    for preset in ("two-player", "six-player-two-teams", "five-player"):
        for rules in bench.allowed_extremes(preset):
            worst = bench.worst_legal_moves(rules, "hoard", seeds=2)
            assert worst.seconds < 0.25, worst


# -- 2. score sheets -------------------------------------------------------------------------------


def test_a_huge_score_game_is_refused_quickly(client: TestClient) -> None:
    hand = [{"side": 0, "out": "none"}, {"side": 1, "out": "none"}]
    body = json.dumps({"names": ["A", "B"], "hands": [hand] * 1500})
    assert 60_000 < len(body) < 256 * 1024
    started = time.monotonic()
    answer = client.post("/api/score", content=body, headers={"content-type": "application/json"})
    assert time.monotonic() - started < 2
    assert answer.status_code == 400 and "at most 200 hands" in answer.json()["message"]


# -- 4. search budgets and the pool ----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["search:3600s", "search:2001ms", "search:1000000"])
def test_search_budgets_over_the_cap_are_refused(client: TestClient, kind: str) -> None:
    answer = client.post("/api/tables", json={"preset": "two-player", "seats": [{"kind": "human"}, {"kind": kind}]})
    assert answer.status_code == 400 and "on this server" in answer.json()["message"]


def test_the_search_cap_is_configurable(tmp_path: Path) -> None:
    with make_client(tmp_path, max_search=0.05) as c:
        seats = [{"kind": "human"}, {"kind": "search:100ms"}]
        assert c.post("/api/tables", json={"preset": "two-player", "seats": seats}).status_code == 400
        seats = [{"kind": "human"}, {"kind": "search:50ms"}]
        assert c.post("/api/tables", json={"preset": "two-player", "seats": seats}).status_code == 201


def test_the_pool_serves_keys_in_turn() -> None:
    """A key with many jobs waits behind another key's one job: per-table fairness."""
    order: list[str] = []

    def job(name: str) -> str:
        time.sleep(0.02)
        order.append(name)
        return name

    async def main() -> None:
        pool = CpuPool(1)
        try:
            hog = [asyncio.ensure_future(pool.run("hog", job, f"hog{i}")) for i in range(4)]
            await asyncio.sleep(0)
            other = asyncio.ensure_future(pool.run("other", job, "other"))
            await asyncio.gather(*hog, other)
        finally:
            pool.close()

    asyncio.run(main())
    assert order.index("other") <= 2, order


def test_search_players_think_in_the_pool() -> None:
    source = (ROOT / "src" / "canasta" / "web" / "service.py").read_text()
    assert "run_cpu(table.id, turn.choose)" in source and "to_thread(" not in source


# -- 7. bodies -------------------------------------------------------------------------------------


class _StreamRequest:
    def __init__(self, chunks: int, size: int, headers: dict[str, str] | None = None) -> None:
        self.pulled = 0
        self.chunks, self.size = chunks, size
        self.headers = headers or {}

    async def stream(self) -> AsyncIterator[bytes]:
        for _ in range(self.chunks):
            self.pulled += 1
            yield b"x" * self.size


def test_a_body_is_refused_before_more_than_the_limit_is_read() -> None:
    request = _StreamRequest(chunks=100_000, size=1024)
    with pytest.raises(BodyTooLarge):
        asyncio.run(read_body(request, 16 * 1024))  # type: ignore[arg-type]
    assert request.pulled <= 17
    declared = _StreamRequest(chunks=10, size=1024, headers={"content-length": str(2**30)})
    with pytest.raises(BodyTooLarge):
        asyncio.run(read_body(declared, 16 * 1024))  # type: ignore[arg-type]
    assert declared.pulled == 0


def test_a_declared_giant_body_gets_413_at_once(client: TestClient) -> None:
    for path in ("/api/tables", "/api/score", "/api/score/entry"):
        answer = client.post(path, content=b"{}", headers={"content-length": str(2**30),
                                                              "content-type": "application/json"})
        assert answer.status_code == 413 and answer.json()["error"] == "too_large"
    answer = client.post("/api/tables", content=b"[" + b" " * 20_000 + b"]")
    assert answer.status_code == 413


# -- 8. table creation rate and expiry -----------------------------------------------------------------


def test_table_creation_is_rate_limited_per_client(tmp_path: Path) -> None:
    with make_client(tmp_path, tables_burst=3, tables_per_minute=1) as c:
        for _ in range(3):
            assert c.post("/api/tables", json={}).status_code == 201
        answer = c.post("/api/tables", json={})
        assert answer.status_code == 429 and answer.json()["error"] == "rate_limited"
        assert int(answer.headers["retry-after"]) >= 1
        assert c.post("/play", follow_redirects=False).status_code == 429


def test_rate_limiter_refills_and_stays_small() -> None:
    limiter = RateLimiter(rate=1.0, burst=2, keys=10)
    assert limiter.take("a", 0) == 0 and limiter.take("a", 0) == 0
    assert limiter.take("a", 0) == pytest.approx(1.0)
    assert limiter.take("a", 1.0) == 0
    for i in range(1000):
        limiter.take(i, 2.0)
    assert len(limiter._buckets) <= 11


def test_old_tables_expire_from_storage(tmp_path: Path) -> None:
    with make_client(tmp_path, expire_idle=3600, expire_over=60) as c:
        created = c.post("/api/tables", json={"seats": [{"kind": "human"}] * 4}).json()
        service = c.app.state.service  # type: ignore[attr-defined]
        limits = c.app.state.limits  # type: ignore[attr-defined]
        assert c.portal.call(expire_tables, service, limits, time.time()) == []  # type: ignore[union-attr]
        gone = c.portal.call(expire_tables, service, limits, time.time() + 7200)  # type: ignore[union-attr]
        assert gone == [created["table"]]
        with c.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
            assert until(ws, "welcome")["error"] == "no_table"


def test_storage_expires_idle_and_finished_tables(storage_url: str) -> None:
    from canasta.web.storage import Event

    store = open_storage(storage_url)
    try:
        for table_id in ("idle", "over", "fresh"):
            store.create_table(table_id, {"preset": "classic"}, {f"h-{table_id}": 0})
            store.append(table_id, [Event(0, "deal", None, "", 1000.0 if table_id != "fresh" else 5000.0)])
        store.set_status("over", "over")
        assert store.expire(idle_before=100.0, over_before=2000.0) == ["over"]
        assert store.table_spec("over") is None and store.events("over") == []
        assert store.token_seat("over", "h-over") == (False, None)
        assert store.expire(idle_before=2000.0, over_before=0.0) == ["idle"]
        assert store.table_ids() == ["fresh"]
        assert store.delete_table("fresh") and not store.delete_table("fresh")
    finally:
        store.close()


def test_storage_renews_a_seat_token(storage_url: str) -> None:
    store = open_storage(storage_url)
    try:
        store.create_table("t", {"preset": "classic"}, {"old": 0, "other": 1, "spec": None})
        assert store.renew_token("t", 0, "new")
        assert store.token_seat("t", "old") == (False, None) and store.token_seat("t", "new") == (True, 0)
        assert store.token_seat("t", "other") == (True, 1)
        assert not store.renew_token("t", 5, "x")
    finally:
        store.close()


# -- 9. websockets that never say hello --------------------------------------------------------------


def test_a_silent_websocket_is_closed_after_the_hello_timeout(tmp_path: Path) -> None:
    with make_client(tmp_path, hello_timeout=0.3) as c, c.websocket_connect("/ws/abc") as ws:
        message = ws.receive_json()
        assert message["error"] == "bad_token" and "within" in message["message"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_sockets_waiting_for_hello_are_capped(tmp_path: Path) -> None:
    with make_client(tmp_path, pending_per_client=2) as c:
        created = c.post("/api/tables", json={}).json()
        with c.websocket_connect("/ws/x") as a, c.websocket_connect("/ws/y") as b:
            with c.websocket_connect("/ws/z") as third:
                assert third.receive_json()["error"] == "busy"
            a.send_json({"type": "ping"})
            assert a.receive_json()["type"] == "pong"
            b.send_json({"type": "ping"})
            assert b.receive_json()["type"] == "pong"
        with c.websocket_connect(f"/ws/{created['table']}") as ws:  # freed again
            ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
            assert until(ws, "welcome")["type"] == "welcome"


# -- 10. floods -----------------------------------------------------------------------------------------


def test_an_address_that_floods_requests_is_refused_at_the_door(tmp_path: Path) -> None:
    """Past the burst every request of that address gets 429 with Retry-After, whatever the route."""
    with make_client(tmp_path, requests_per_second=1, requests_burst=5) as c:
        answers = [c.get("/api/health") for _ in range(8)]
        assert [a.status_code for a in answers[:5]] == [200] * 5
        refused = answers[5:]
        assert all(a.status_code == 429 and a.json()["error"] == "rate_limited" for a in refused)
        assert all(int(a.headers["retry-after"]) >= 1 for a in refused)
        assert c.post("/api/tables", json={}).status_code == 429  # refused before the route reads anything
    with make_client(tmp_path, requests_per_second=1, requests_burst=5, trusted=("testclient",)) as c:
        assert all(c.get("/api/health").status_code == 200 for _ in range(8))


def test_a_connection_that_floods_messages_is_told_once_and_closed(tmp_path: Path) -> None:
    """Pings and hints as fast as a loop sends them: one ``rate_limited`` and the socket closes;
    the same messages at a person's pace are all answered."""
    with make_client(tmp_path, messages_per_second=5, messages_burst=10) as c:
        created = c.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
        with c.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
            until(ws, "state")
            for i in range(40):
                ws.send_json({"type": "ping", "id": i})
            kinds: list[str] = []
            closed = False
            while len(kinds) < 40 and not closed:  # without a limit: 40 pongs, and no close
                try:
                    message = ws.receive_json()
                except WebSocketDisconnect:
                    closed = True
                else:
                    kinds.append(message["type"] if message["type"] != "error" else message["error"])
            assert closed and kinds.count("rate_limited") == 1 and kinds[-1] == "rate_limited", kinds
            assert 5 <= kinds.count("pong") <= 12, kinds
        with c.websocket_connect(f"/ws/{created['table']}") as ws:  # a new connection starts afresh
            ws.send_json({"type": "hello", "token": created["seats"][1]["token"]})
            until(ws, "state")
            for i in range(8):
                ws.send_json({"type": "ping", "id": i})
                assert until(ws, "pong")["id"] == i


def test_hints_are_rate_limited_per_connection(tmp_path: Path) -> None:
    with make_client(tmp_path, hints_burst=2, hints_per_second=0.01) as c:
        created = c.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
        with c.websocket_connect(f"/ws/{created['table']}") as ws:
            ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
            state = until(ws, "state")
            names = []
            for i in range(3):
                ws.send_json({"type": "hint", "state": state["state"], "id": i})
                names.append(until(ws, "hint").get("error", "hint"))
            assert names[2] == "rate_limited" and "rate_limited" not in names[:2]


def test_pdfs_are_rate_limited_per_client(tmp_path: Path) -> None:
    with make_client(tmp_path, pdfs_burst=1, pdfs_per_second=0.01) as c:
        c.get("/sheets/classic/rules.pdf")
        answer = c.get("/sheets/classic/scoresheet.pdf")
        assert answer.status_code == 429 and int(answer.headers["retry-after"]) >= 1


# -- 11. named errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize("body", [
    "[" * 100_00 + "]" * 100_00,
    json.dumps({"options": {"preset": "two-player"}}),
    json.dumps({"options": {"bogus": 1}}),
])
def test_malformed_tables_get_named_errors(client: TestClient, body: str) -> None:
    answer = client.post("/api/tables", content=body.encode()[:16000])
    assert answer.status_code == 400 and answer.json()["error"] == "bad_table", answer.text


def test_deep_json_in_websocket_and_scores_is_named(client: TestClient) -> None:
    deep = "[" * 5000 + "]" * 5000
    assert client.post("/api/score", content=deep).json()["error"] == "bad_score"
    with client.websocket_connect("/ws/abc") as ws:
        ws.send_text(deep[:8000])
        assert ws.receive_json()["error"] == "bad_message"


def test_a_preset_smuggled_into_sheet_options_is_named(client: TestClient) -> None:
    answer = client.get("/sheets/classic/rules.pdf?set=preset=two-player")
    assert answer.status_code == 400 and "unknown rules option 'preset'" in answer.text


def test_storage_failure_while_creating_a_table_is_named(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object) -> None:
        raise StorageError("SQLite database x: disk I/O error")

    monkeypatch.setattr(client.app.state.service.storage, "create_table", broken)  # type: ignore[attr-defined]
    answer = client.post("/api/tables", json={})
    assert answer.status_code == 503 and answer.json()["error"] == "storage_unavailable"
    assert client.post("/play", follow_redirects=False).status_code == 503


# -- 12. logs ---------------------------------------------------------------------------------------------


def test_log_lines_cannot_be_forged() -> None:
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" [accepted]',
                               ("127.0.0.1:5", "/ws/x\n2024 INFO forged line\r"), None)
    EscapingFilter().filter(record)
    assert "\n" not in record.getMessage() and "\\n2024" in record.getMessage()
    assert escape("plain") == "plain" and escape("a\x1b[31m") == "a\\x1b[31m"


def test_a_table_id_with_a_newline_is_no_table_and_logs_one_line(client: TestClient,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO), client.websocket_connect("/ws/abc%0Aforged") as ws:
        ws.send_json({"type": "hello", "token": "t"})
        assert ws.receive_json()["error"] == "no_table"
    assert all("\n" not in r.getMessage() for r in caplog.records)


# -- 13. cross-site requests ------------------------------------------------------------------------------


def test_cross_site_posts_are_refused(client: TestClient) -> None:
    evil = {"origin": "https://evil.example"}
    answer = client.post("/api/tables", content=b"{}", headers={**evil, "content-type": "text/plain"})
    assert answer.status_code == 403 and answer.json()["error"] == "cross_origin"
    answer = client.post("/api/tables", content=b"{}", headers={"content-type": "text/plain"})
    assert answer.status_code == 415 and answer.json()["error"] == "bad_content_type"
    form = {"content-type": "application/x-www-form-urlencoded"}
    assert client.post("/play", headers={**evil, **form}, follow_redirects=False).status_code == 403
    assert client.post("/play", headers={"sec-fetch-site": "cross-site", **form},
                       follow_redirects=False).status_code == 403
    assert client.post("/api/score", json={}, headers={"origin": "null"}).status_code == 403
    hidden = {"origin": "null", "sec-fetch-site": "cross-site", **form}
    assert client.post("/play", headers=hidden, follow_redirects=False).status_code == 403


def test_the_pages_own_posts_still_work(client: TestClient) -> None:
    same = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
    answer = client.post("/api/tables", json={}, headers=same)
    assert answer.status_code == 201
    answer = client.post("/play", headers={**same, "content-type": "application/x-www-form-urlencoded"},
                         follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"].startswith("/t/")
    # A browser that hides the origin of a form post (Origin: null) still says it is the same site.
    hidden = {"origin": "null", "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded"}
    assert client.post("/play", headers=hidden, follow_redirects=False).status_code == 303


# -- 14. headers ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/play", "/score", "/t/abc", "/static/game.js", "/api/setup"])
def test_every_answer_has_the_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"


@pytest.mark.parametrize("page", sorted(p.name for p in STATIC.glob("*.html")))
def test_pages_have_nothing_inline_a_strict_csp_blocks(page: str) -> None:
    html = (STATIC / page).read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script"
    assert "<style" not in html and not re.search(r"\sstyle=", html), "inline style"
    assert not re.search(r"\son[a-z]+=", html), "inline event handler"


# -- 15. a seat open elsewhere, and renewing its link ------------------------------------------------------


def test_a_second_connection_on_a_seat_is_shown_to_that_seat_only(client: TestClient) -> None:
    created = client.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
    tid, token = created["table"], created["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}") as first, client.websocket_connect(f"/ws/{tid}") as other:
        first.send_json({"type": "hello", "token": token})
        assert until(first, "state")["elsewhere"] == 0
        other.send_json({"type": "hello", "token": created["seats"][1]["token"]})
        assert until(other, "state")["elsewhere"] == 0
        with client.websocket_connect(f"/ws/{tid}") as second:
            second.send_json({"type": "hello", "token": token})
            assert until(second, "state")["elsewhere"] == 1
            while (message := until(first, "state"))["elsewhere"] != 1:
                pass
            other.send_json({"type": "ping", "id": 1})
            while (message := other.receive_json())["type"] != "pong":
                assert message.get("elsewhere", 0) == 0
        while until(first, "state")["elsewhere"] != 0:
            pass


def test_renewing_a_seat_link_retires_the_old_one(client: TestClient) -> None:
    created = client.post("/api/tables", json={"preset": "two-player", "seats": HUMANS2}).json()
    tid, old = created["table"], created["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}") as mine, client.websocket_connect(f"/ws/{tid}") as theirs:
        mine.send_json({"type": "hello", "token": old})
        until(mine, "state")
        theirs.send_json({"type": "hello", "token": old})
        until(theirs, "state")
        mine.send_json({"type": "renew", "id": "r"})
        renewed = until(mine, "renewed")
        assert renewed["type"] == "renewed" and renewed["id"] == "r"
        assert renewed["link"] == f"/t/{tid}#{renewed['token']}"
        assert until(theirs, "never")["error"] == "bad_token"
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "token": old})
        assert until(ws, "welcome")["error"] == "bad_token"
        ws.send_json({"type": "hello", "token": renewed["token"]})
        assert until(ws, "welcome")["seat"] == 0
    with client.websocket_connect(f"/ws/{tid}") as ws:
        ws.send_json({"type": "hello", "token": created["spectator"]["token"]})
        until(ws, "state")
        ws.send_json({"type": "renew"})
        assert until(ws, "renewed")["error"] == "bad_token"


@pytest.mark.parametrize("value, fixed", [("12", True), ("twelve", False), ("-3", False)])
def test_the_test_seed_variable_fixes_the_deals_or_is_ignored(value: str, fixed: bool, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CANASTA_TEST_SEED", value)
    with TestClient(create_app(str(tmp_path / "s.sqlite3"), bot_delay=0)) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        seeds = [service.new_seed(), service.new_seed()]
    assert (seeds == [12, 13]) is fixed
