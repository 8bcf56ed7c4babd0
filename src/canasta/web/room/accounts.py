"""Players' accounts: names, argon2id passwords, barred names, and the browsers (with their tables) linked to one.

A name is unique on the server whatever its case (``Alice`` and ``alice`` are one name): 3 to 20
ASCII letters, digits, ``_`` or ``-``, starting with a letter or a digit, so no two names look alike
and none impersonates a computer level.  Passwords are kept as argon2id hashes (``argon2-cffi``,
the RFC 9106 low-memory profile), never as text.  The functions that touch the database take a
:class:`~canasta.web.storage.Storage` and run one transaction each (docs/room.md).

>>> check_name("Ada_Lovelace")
'Ada_Lovelace'
>>> check_name("x")
Traceback (most recent call last):
...
canasta.web.room.accounts.AccountError: a name is 3 to 20 letters (A-Z), digits, _ or -, ...
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..storage import Storage, StorageError

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{2,19}")
"""What a name looks like: 3 to 20 ASCII letters, digits, ``_`` or ``-``, starting with a letter or digit."""
RESERVED = frozenset({"admin", "administrator", "canasta", "computer", "deleted-player", "deleted_player",
                      "guest", "moderator", "server", "system", "you",
                      "beginner", "club", "expert", "master", "random", "basic", "search", "neural"})
"""Names nobody registers: the server's words and the computer players' (in lower case)."""
DELETED_NAME = "deleted player"
"""What a deleted account's finished matches show in place of its name."""
MIN_PASSWORD = 8
MAX_PASSWORD = 256
"""Characters of a password: at least 8 (no other rule, as NIST SP 800-63B advises), at most 256 (a bound on
the work of hashing)."""

HASHER = PasswordHasher()
"""argon2id with the RFC 9106 low-memory profile (t=3, 64 MiB, p=4); tests swap in a cheaper one."""
_DUMMY: dict[PasswordHasher, str] = {}


class AccountError(ValueError):
    """A request about an account that cannot be done, in a player's words; ``code`` names it for the API."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Account:
    """A player's account as the server shows it."""

    id: str
    name: str
    created: float


def name_key(name: str) -> str:
    """The name as the server compares it: in lower case."""
    return name.strip().lower()


def check_name(name: str) -> str:
    """The name, if it may be registered (its form, not whether it is free); else :class:`AccountError`."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise AccountError("bad_name", "a name is 3 to 20 letters (A-Z), digits, _ or -, starting with a letter "
                                       "or a digit")
    if name_key(name) in RESERVED:
        raise AccountError("name_taken", "that name is taken; choose another")
    return name


def check_password(password: str) -> str:
    """The password, if long enough and not too long; else :class:`AccountError`."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError("bad_password", f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def hash_password(password: str) -> str:
    """The argon2id hash kept for a password (a new random salt each time)."""
    return HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the stored hash; with no hash (no such player) a dummy one is checked, so the
    answer takes as long as for a real player and says nothing about which names exist."""
    hasher = HASHER
    if stored is None:
        if hasher not in _DUMMY:
            _DUMMY[hasher] = hasher.hash(secrets.token_urlsafe(16))
        stored = _DUMMY[hasher]
    try:
        return hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


# -- the database ---------------------------------------------------------------------------


Execute = Callable[[str, Sequence[Any]], Any]
"""What :meth:`Storage.transaction` yields: ``execute(sql, params)`` with ``?`` markers."""


def _barred(execute: Execute, key: str) -> bool:
    return execute("SELECT 1 FROM barred_names WHERE name_key = ?", (key,)).fetchone() is not None


def create_account(storage: Storage, name: str, password_hash: str, now: float | None = None) -> Account:
    """A new account; :class:`AccountError` ``name_taken`` when the name (in any case) is taken or barred."""
    now = time.time() if now is None else now
    key = name_key(check_name(name))
    account = Account(secrets.token_hex(8), name, now)
    try:
        with storage.transaction() as execute:  # (an exception raised in here would come out a StorageError)
            taken = execute("SELECT 1 FROM accounts WHERE name_key = ?", (key,)).fetchone() is not None
            taken = taken or _barred(execute, key)
            if not taken:
                execute("INSERT INTO accounts (id, name, name_key, password_hash, created, password_changed) "
                        "VALUES (?, ?, ?, ?, ?, ?)", (account.id, name, key, password_hash, now, now))
    except StorageError:
        if find_account(storage, name) is None:
            raise
        taken = True  # another process registered it at the same moment
    if taken:
        raise AccountError("name_taken", "that name is taken; choose another")
    return account


def find_account(storage: Storage, name: str) -> Account | None:
    """The account of that name (any case), barred or not; None when there is none."""
    with storage.transaction(write=False) as execute:
        row = execute("SELECT id, name, created FROM accounts WHERE name_key = ?", (name_key(name),)).fetchone()
    return None if row is None else Account(row[0], row[1], row[2])


def sign_in_record(storage: Storage, name: str) -> tuple[Account, str] | None:
    """The account that may sign in as ``name`` and its password hash; None when there is none or it is barred."""
    key = name_key(name)
    with storage.transaction(write=False) as execute:
        row = execute("SELECT id, name, created, password_hash FROM accounts WHERE name_key = ?", (key,)).fetchone()
        if row is None or _barred(execute, key):
            return None
    return Account(row[0], row[1], row[2]), row[3]


def password_hash_of(storage: Storage, account_id: str) -> str | None:
    """The account's password hash (None: no such account)."""
    with storage.transaction(write=False) as execute:
        row = execute("SELECT password_hash FROM accounts WHERE id = ?", (account_id,)).fetchone()
    return None if row is None else str(row[0])


def needs_rehash(stored: str) -> bool:
    """Whether a stored hash was made with other parameters than :data:`HASHER`'s (then it is made anew at the
    next sign-in, when the password is at hand)."""
    try:
        return HASHER.check_needs_rehash(stored)
    except (InvalidHashError, ValueError):
        return True


def replace_hash(storage: Storage, account_id: str, old: str, new: str) -> None:
    """Store a fresh hash of the same password (sessions untouched), unless the password changed meanwhile."""
    with storage.transaction() as execute:
        execute("UPDATE accounts SET password_hash = ? WHERE id = ? AND password_hash = ?", (new, account_id, old))


def set_password(storage: Storage, account_id: str, password_hash: str, keep: str | None = None,
                 now: float | None = None) -> bool:
    """Give the account a new password hash and end its sessions but the one whose token hash is ``keep``;
    False when there is no such account."""
    now = time.time() if now is None else now
    with storage.transaction() as execute:
        if execute("UPDATE accounts SET password_hash = ?, password_changed = ? WHERE id = ?",
                   (password_hash, now, account_id)).rowcount != 1:
            return False
        execute("DELETE FROM sessions WHERE account_id = ? AND token_hash <> ?", (account_id, keep or ""))
    return True


def delete_account(storage: Storage, account_id: str) -> bool:
    """Delete the account, its sessions, ratings and browser links; its finished matches stay, their name
    replaced by :data:`DELETED_NAME`.  False when there was no such account."""
    with storage.transaction() as execute:
        execute("UPDATE match_players SET account_id = NULL, name = ? WHERE account_id = ?",
                (DELETED_NAME, account_id))
        execute("DELETE FROM sessions WHERE account_id = ?", (account_id,))
        execute("DELETE FROM ratings WHERE account_id = ?", (account_id,))
        execute("DELETE FROM browser_tables WHERE browser_hash IN "
                "(SELECT browser_hash FROM browsers WHERE account_id = ?)", (account_id,))
        execute("DELETE FROM browsers WHERE account_id = ?", (account_id,))
        return execute("DELETE FROM accounts WHERE id = ?", (account_id,)).rowcount == 1


@dataclass(frozen=True)
class Listed:
    """One line of ``canasta admin list``."""

    account: Account
    barred: bool
    sessions: int


def list_accounts(storage: Storage, now: float | None = None) -> list[Listed]:
    """Every account, by name, with whether it is barred and its live sessions."""
    now = time.time() if now is None else now
    with storage.transaction(write=False) as execute:
        rows = execute(
            "SELECT a.id, a.name, a.created, "
            "(SELECT count(*) FROM barred_names b WHERE b.name_key = a.name_key), "
            "(SELECT count(*) FROM sessions s WHERE s.account_id = a.id AND s.expires > ?) "
            "FROM accounts a ORDER BY a.name_key", (now,)).fetchall()
    return [Listed(Account(r[0], r[1], r[2]), bool(r[3]), int(r[4])) for r in rows]


def bar_name(storage: Storage, name: str, reason: str = "", now: float | None = None) -> Account | None:
    """Bar a name: nobody may register it, and its account (returned, if there is one) may not sign in; its
    sessions end."""
    now = time.time() if now is None else now
    key = name_key(name)
    with storage.transaction() as execute:
        execute("INSERT INTO barred_names (name_key, reason, at) VALUES (?, ?, ?) ON CONFLICT (name_key) "
                "DO UPDATE SET reason = excluded.reason, at = excluded.at", (key, reason, now))
        row = execute("SELECT id, name, created FROM accounts WHERE name_key = ?", (key,)).fetchone()
        if row is not None:
            execute("DELETE FROM sessions WHERE account_id = ?", (row[0],))
    return None if row is None else Account(row[0], row[1], row[2])


def unbar_name(storage: Storage, name: str) -> bool:
    """Lift a bar; False when the name was not barred."""
    with storage.transaction() as execute:
        return execute("DELETE FROM barred_names WHERE name_key = ?", (name_key(name),)).rowcount == 1


# -- browsers and their tables --------------------------------------------------------------


def link_browser(storage: Storage, browser_hash: str, account_id: str, now: float | None = None) -> None:
    """The browser's tables (those it played as a guest, and those it will play) are the account's."""
    now = time.time() if now is None else now
    with storage.transaction() as execute:
        execute("INSERT INTO browsers (browser_hash, account_id, linked) VALUES (?, ?, ?) ON CONFLICT "
                "(browser_hash) DO UPDATE SET account_id = excluded.account_id, linked = excluded.linked",
                (browser_hash, account_id, now))


def unlink_browser(storage: Storage, browser_hash: str) -> None:
    """The browser no longer plays for an account (signed out)."""
    with storage.transaction() as execute:
        execute("DELETE FROM browsers WHERE browser_hash = ?", (browser_hash,))


def remember_table(storage: Storage, browser_hash: str, table_id: str, seat: int, now: float | None = None) -> None:
    """The browser played the seat at the table (again is harmless)."""
    now = time.time() if now is None else now
    with storage.transaction() as execute:
        execute("INSERT INTO browser_tables (browser_hash, table_id, seat, at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (browser_hash, table_id, seat) DO NOTHING", (browser_hash, table_id, seat, now))


def account_tables(storage: Storage, account_id: str, limit: int = 50) -> list[tuple[str, int, float]]:
    """The tables the account's browsers played, newest first: ``(table id, seat, first played)``; tables
    that expired from storage are left out."""
    with storage.transaction(write=False) as execute:
        rows = execute(
            "SELECT bt.table_id, bt.seat, min(bt.at) FROM browser_tables bt "
            "JOIN browsers b ON b.browser_hash = bt.browser_hash JOIN tables t ON t.id = bt.table_id "
            "WHERE b.account_id = ? GROUP BY bt.table_id, bt.seat ORDER BY min(bt.at) DESC LIMIT ?",
            (account_id, limit)).fetchall()
    return [(r[0], int(r[1]), float(r[2])) for r in rows]
