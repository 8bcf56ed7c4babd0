"""``canasta admin`` (issue 30 point 1): list the players, reset a password, bar a name, on SQLite or PostgreSQL."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("argon2", reason="accounts need the web extra: pip install 'canasta[web]'")

from argon2 import PasswordHasher

from canasta.cli import main
from canasta.web.room import accounts, sessions
from canasta.web.storage import open_storage


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


def test_list_reset_and_bar(storage_url: str, capsys: pytest.CaptureFixture[str],
                            monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_storage(storage_url)
    try:
        ada = accounts.create_account(store, "Ada", accounts.hash_password("first password"))
        accounts.create_account(store, "bob", accounts.hash_password("first password"))
        token = sessions.create_session(store, ada.id)
    finally:
        store.close()

    assert main(["admin", "--db", storage_url, "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[0] for line in out] == ["Ada", "bob"]
    assert out[0].endswith("1 session") and out[1].endswith("0 sessions")

    assert main(["admin", "--db", storage_url, "reset", "ADA"]) == 0  # printed: a temporary password
    temporary = capsys.readouterr().out.strip()
    store = open_storage(storage_url)
    try:
        assert accounts.verify_password(accounts.password_hash_of(store, ada.id), temporary)
        assert sessions.session_account(store, token) is None  # the reset ended the sessions
    finally:
        store.close()

    monkeypatch.setattr("sys.stdin", io.StringIO("chosen password 2\n"))
    assert main(["admin", "--db", storage_url, "reset", "Ada", "--stdin"]) == 0
    assert capsys.readouterr().out == ""  # nothing printed: the operator knows it
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    assert main(["admin", "--db", storage_url, "reset", "Ada", "--stdin"]) == 2
    assert main(["admin", "--db", storage_url, "reset", "nobody"]) == 2
    assert "no player is called 'nobody'" in capsys.readouterr().err

    store = open_storage(storage_url)
    try:
        token = sessions.create_session(store, ada.id)
    finally:
        store.close()
    assert main(["admin", "--db", storage_url, "bar", "ada", "--reason", "cheating"]) == 0
    assert main(["admin", "--db", storage_url, "bar", "Mallory"]) == 0  # a name nobody holds yet
    store = open_storage(storage_url)
    try:
        assert accounts.sign_in_record(store, "Ada") is None  # a barred player cannot sign in
        assert sessions.session_account(store, token) is None
        with pytest.raises(accounts.AccountError, match="taken"):
            accounts.create_account(store, "mallory", "x")  # nor can the name be registered
    finally:
        store.close()
    assert main(["admin", "--db", storage_url, "list"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("barred")
    assert main(["admin", "--db", storage_url, "unbar", "Ada"]) == 0
    assert main(["admin", "--db", storage_url, "unbar", "Ada"]) == 2


def test_admin_refuses_a_database_it_cannot_open(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["admin", "--db", "mysql://nowhere/x", "list"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
