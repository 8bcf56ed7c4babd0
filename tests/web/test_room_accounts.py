"""Accounts and sessions (issue 30 point 1): sign up, in and out, cookies, no enumeration, rate limits, guest tables."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("argon2", reason="accounts need the web extra: pip install 'canasta[web]'")

from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from canasta.web.app import create_app
from canasta.web.room import accounts, sessions
from canasta.web.room.routes import RoomLimits
from canasta.web.storage import open_storage

from .browser_helpers import PASSWORD

pytestmark = pytest.mark.usefixtures("cheap_hashes")


@pytest.fixture
def client(storage_url: str) -> Iterator[TestClient]:
    """The server on a SQLite file or a PostgreSQL schema of the test's own."""
    with TestClient(create_app(storage_url, bot_delay=0, follow=0)) as test_client:
        yield test_client


def signup(client: TestClient, name: str = "Ada", password: str = PASSWORD, **headers: str) -> Any:
    return client.post("/api/account/signup", json={"name": name, "password": password}, headers=headers)


def signin(client: TestClient, name: str = "Ada", password: str = PASSWORD) -> Any:
    return client.post("/api/account/signin", json={"name": name, "password": password})


def set_cookie(response: Any, name: str) -> str:
    return next(h for h in response.headers.get_list("set-cookie") if h.startswith(name + "="))


def test_sign_up_in_and_out(client: TestClient) -> None:
    assert client.get("/api/me").status_code == 401
    made = signup(client)
    assert made.status_code == 201 and made.json()["account"]["name"] == "Ada"
    assert client.get("/api/me").json()["account"]["name"] == "Ada"
    assert client.post("/api/account/signout", json={}).status_code == 200
    assert client.get("/api/me").status_code == 401
    back = signin(client, "ADA")  # names compare in any case
    assert back.status_code == 200 and back.json()["account"]["name"] == "Ada"
    assert client.get("/api/me").status_code == 200


def test_the_cookies_flags(client: TestClient) -> None:
    browser = set_cookie(client.get("/account"), "canasta_browser").lower()
    assert "httponly" in browser and "samesite=lax" in browser and "secure" not in browser
    cookie = set_cookie(signup(client), "canasta_session").lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie and "secure" not in cookie
    behind_a_proxy = client.post("/api/account/signin", json={"name": "Ada", "password": PASSWORD},
                                 headers={"X-Forwarded-Proto": "https"})
    proxied = set_cookie(behind_a_proxy, "canasta_session").lower()
    assert "secure" in proxied and "httponly" in proxied and "samesite=lax" in proxied


def test_a_forged_or_replayed_cookie_is_refused(client: TestClient) -> None:
    signup(client)
    token = client.cookies.get("canasta_session")
    assert token
    client.cookies.set("canasta_session", token[:-2] + ("AA" if not token.endswith("AA") else "BB"))
    assert client.get("/api/me").status_code == 401
    client.cookies.set("canasta_session", token)
    assert client.post("/api/account/signout", json={}).status_code == 200
    client.cookies.set("canasta_session", token)  # the same cookie, replayed after signing out
    assert client.get("/api/me").status_code == 401
    assert client.post("/api/account/password", json={"current": PASSWORD, "password": "x" * 12}).status_code == 401


def test_no_account_enumeration(client: TestClient) -> None:
    signup(client)
    client.post("/api/account/signout", json={})
    wrong_password, unknown_name = signin(client, "Ada", "not the password"), signin(client, "Nobody", PASSWORD)
    assert wrong_password.status_code == unknown_name.status_code == 401
    assert wrong_password.json() == unknown_name.json()
    assert "Nobody" not in unknown_name.text and "password" not in wrong_password.json()["error"]


def test_sign_in_takes_as_long_for_an_unknown_name(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str | None] = []
    verify = accounts.verify_password
    monkeypatch.setattr(accounts, "verify_password", lambda stored, pw: checked.append(stored) or verify(stored, pw))
    signup(client)
    signin(client, "Nobody", PASSWORD)
    signin(client, "no such name!", PASSWORD)
    assert checked == [None, None]  # a dummy hash is checked for both: the same work as a real name


def test_names(client: TestClient) -> None:
    assert signup(client, "x").json()["error"] == "bad_name"
    assert signup(client, "Ada Lovelace").json()["error"] == "bad_name"
    assert signup(client, "Expert").status_code == 409  # a computer level's name
    assert signup(client, "Ada", "short").json()["error"] == "bad_password"
    assert signup(client).status_code == 201
    client.cookies.clear()
    taken = signup(client, "aDA")
    assert taken.status_code == 409 and taken.json()["error"] == "name_taken"


def test_change_password_ends_the_other_sessions(client: TestClient) -> None:
    signup(client)
    first = client.cookies.get("canasta_session")
    assert signin(client).status_code == 200  # a second session (another device); this client holds it now
    refused = client.post("/api/account/password", json={"current": "wrong password", "password": "new password 1"})
    assert refused.status_code == 403
    changed = client.post("/api/account/password", json={"current": PASSWORD, "password": "new password 1"})
    assert changed.status_code == 200
    assert client.get("/api/me").status_code == 200  # the session that changed it stays
    second = client.cookies.get("canasta_session")
    client.cookies.set("canasta_session", first or "")
    assert client.get("/api/me").status_code == 401  # the other one ended
    client.cookies.set("canasta_session", second or "")
    assert signin(client, "Ada", PASSWORD).status_code == 401
    assert signin(client, "Ada", "new password 1").status_code == 200


def test_delete_the_account(client: TestClient) -> None:
    signup(client)
    assert client.request("DELETE", "/api/account", json={"password": "wrong password"}).status_code == 403
    assert client.request("DELETE", "/api/account", json={"password": PASSWORD}).status_code == 200
    assert client.get("/api/me").status_code == 401
    assert signin(client).status_code == 401
    assert signup(client).status_code == 201  # the name is free again


def test_sign_in_is_limited_per_name_and_per_address(client: TestClient) -> None:
    limits = RoomLimits()
    signup(client)
    answers = [signin(client, "Ada", f"wrong {i}").status_code for i in range(limits.signins_per_name_burst + 1)]
    assert answers[:-1] == [401] * limits.signins_per_name_burst and answers[-1] == 429
    assert signin(client).status_code == 429  # even the right password, for a while
    others = [signin(client, f"Someone{i}", "whatever 1").status_code
              for i in range(limits.signins_per_address_burst)]
    assert others[-1] == 429  # the address's own limit
    refused = signin(client, "Another", "whatever 1")
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1


def test_sign_up_is_limited_per_address(client: TestClient) -> None:
    answers = [signup(client, f"Player{i}").status_code for i in range(RoomLimits().signups_per_address_burst + 1)]
    assert answers == [201] * RoomLimits().signups_per_address_burst + [429]


def test_a_cross_site_post_is_refused(client: TestClient) -> None:
    refused = client.post("/api/account/signup", json={"name": "Ada", "password": PASSWORD},
                          headers={"Origin": "https://evil.example"})
    assert refused.status_code == 403 and refused.json()["error"] == "cross_origin"
    form = client.post("/api/account/signin", content=b"name=Ada", headers={"Content-Type": "text/plain"})
    assert form.status_code == 415


def test_a_guest_keeps_the_tables_of_the_browser(client: TestClient, storage_url: str) -> None:
    page = client.get("/")
    assert "canasta_browser" in page.headers.get("set-cookie", "")
    created = client.post("/api/tables", json={"seats": [{"kind": "human"}] + [{"kind": "expert"}] * 3}).json()
    token = created["seats"][0]["link"].split("#")[1]
    with client.websocket_connect(f"/ws/{created['table']}") as ws:
        ws.send_json({"type": "hello", "token": token})
        while ws.receive_json()["type"] != "welcome":
            pass
    store = open_storage(storage_url)  # a connection of the test's own to the server's database
    try:
        for _ in range(100):  # the seat is remembered in the background
            with store.transaction(write=False) as execute:
                if execute("SELECT count(*) FROM browser_tables", ()).fetchone()[0]:
                    break
            time.sleep(0.02)
    finally:
        store.close()
    assert signup(client).status_code == 201
    tables = client.get("/api/me").json()["tables"]
    assert [(t["table"], t["seat"]) for t in tables] == [(created["table"], 0)]
    # signing out gives the browser a new key: the next guest here starts with no tables
    before = client.cookies.get("canasta_browser")
    client.post("/api/account/signout", json={})
    assert client.cookies.get("canasta_browser") not in (None, before)


def test_the_leaderboard_and_the_page(client: TestClient) -> None:
    board = client.get("/api/leaderboard/four").json()
    assert [p["name"] for p in board["players"]] == ["Master", "Expert", "Club", "Beginner"]
    assert client.get("/api/leaderboard/seven").status_code == 404
    page = client.get("/account")
    assert page.status_code == 200 and "<form" in page.text


def test_browser_links_in_either_database(storage_url: str) -> None:
    """The storage side of the browser key, on SQLite and PostgreSQL: a guest's tables become the account's."""
    store = open_storage(storage_url)
    try:
        store.create_table("t1", {"preset": "classic"}, {"ab": 0})
        store.create_table("t2", {"preset": "classic"}, {"cd": 1})
        browser = sessions.token_hash("a browser key of forty-odd random characters")
        accounts.remember_table(store, browser, "t1", 0, now=1.0)
        accounts.remember_table(store, browser, "t1", 0, now=2.0)  # again: harmless
        ada = accounts.create_account(store, "Ada", "hash")
        assert accounts.account_tables(store, ada.id) == []
        accounts.link_browser(store, browser, ada.id)
        accounts.remember_table(store, browser, "t2", 1, now=3.0)
        assert accounts.account_tables(store, ada.id) == [("t2", 1, 3.0), ("t1", 0, 1.0)]
        store.delete_table("t2")  # an expired table leaves the list
        assert accounts.account_tables(store, ada.id) == [("t1", 0, 1.0)]
        accounts.unlink_browser(store, browser)
        assert accounts.account_tables(store, ada.id) == []
    finally:
        store.close()


def test_a_hash_of_older_parameters_is_made_anew_at_sign_in(client: TestClient, storage_url: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    signup(client)
    monkeypatch.setattr(accounts, "HASHER", PasswordHasher(time_cost=2, memory_cost=8, parallelism=1))
    assert signin(client).status_code == 200
    store = open_storage(storage_url)
    try:
        account = accounts.find_account(store, "Ada")
        assert account is not None
        stored = accounts.password_hash_of(store, account.id)
    finally:
        store.close()
    assert stored is not None and "t=2" in stored and not accounts.needs_rehash(stored)
    assert signin(client).status_code == 200


def test_the_page_and_the_api_carry_the_security_headers(client: TestClient) -> None:
    for path in ("/account", "/api/me", "/api/leaderboard/two"):
        headers = client.get(path).headers
        assert "script-src 'self'" in headers["content-security-policy"] and headers["x-frame-options"] == "DENY"
