"""Sign-in sessions and the browser key: random tokens in cookies, kept in the database as SHA-256 hashes only.

A session cookie (``canasta_session``) is HttpOnly, ``SameSite=Lax``, ``Path=/`` and ``Secure`` when
the page is served over HTTPS (or a proxy in front says so with ``X-Forwarded-Proto: https``); it
lasts :data:`SESSION_DAYS`.  Signing out deletes the session's row, so the same cookie replayed
afterwards is refused; changing the password deletes every other session of the account.  The browser
key (``canasta_browser``, same flags, a year) names a browser, signed in or not: the tables it plays
are remembered under its hash, so a guest who signs up keeps them (:mod:`.browser`).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Mapping

from starlette.responses import Response

from ..storage import Storage
from .accounts import Account

SESSION_COOKIE = "canasta_session"
BROWSER_COOKIE = "canasta_browser"
SESSION_DAYS = 30
BROWSER_DAYS = 365
_TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh random token (256 bits, URL-safe text)."""
    return secrets.token_urlsafe(_TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256 (a leaked table holds no usable cookie)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def is_https(scheme: str, headers: Mapping[str, str]) -> bool:
    """Whether the browser reached the server over HTTPS: directly, or through a proxy that says so."""
    forwarded = headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return scheme in ("https", "wss") or forwarded == "https"


def set_cookie(response: Response, name: str, token: str, days: int, secure: bool) -> None:
    """Put a token cookie on the response: HttpOnly, SameSite=Lax, whole site, Secure over HTTPS."""
    response.set_cookie(name, token, max_age=days * 86400, path="/", secure=secure, httponly=True, samesite="lax")


def clear_cookie(response: Response, name: str, secure: bool) -> None:
    """Tell the browser to forget the cookie."""
    response.delete_cookie(name, path="/", secure=secure, httponly=True, samesite="lax")


# -- the database ---------------------------------------------------------------------------


def create_session(storage: Storage, account_id: str, now: float | None = None) -> str:
    """A new session for the account; its token (the cookie's value), of which only the hash is stored."""
    now = time.time() if now is None else now
    token = new_token()
    with storage.transaction() as execute:
        execute("INSERT INTO sessions (token_hash, account_id, created, expires) VALUES (?, ?, ?, ?)",
                (token_hash(token), account_id, now, now + SESSION_DAYS * 86400))
        execute("DELETE FROM sessions WHERE account_id = ? AND expires <= ?", (account_id, now))  # tidy up
    return token


def session_account(storage: Storage, token: str, now: float | None = None) -> Account | None:
    """The account signed in with this session token; None when the token is unknown, revoked or expired, or the
    account's name is barred."""
    if not token or len(token) > 100:
        return None
    now = time.time() if now is None else now
    with storage.transaction(write=False) as execute:
        row = execute(
            "SELECT a.id, a.name, a.created FROM sessions s JOIN accounts a ON a.id = s.account_id "
            "WHERE s.token_hash = ? AND s.expires > ? "
            "AND NOT EXISTS (SELECT 1 FROM barred_names b WHERE b.name_key = a.name_key)",
            (token_hash(token), now)).fetchone()
    return None if row is None else Account(row[0], row[1], row[2])


def revoke_session(storage: Storage, token: str) -> bool:
    """End the session (sign out); False when there was no such session."""
    with storage.transaction() as execute:
        return execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash(token),)).rowcount == 1
