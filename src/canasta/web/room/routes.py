"""The room's HTTP API: sign up, in and out, change the password, delete the account, who am I, leaderboards,
and a finished match's hand at the table replay (``GET /api/matches/{id}/hands/{n}/replay``, the page
``/match/{id}/hand/{n}``: :func:`.history.hand_viewer`).

Every POST and DELETE is a JSON body from the server's own pages (the :class:`~canasta.web.security.SecurityMiddleware`
refuses other origins and other content types), with the session cookie ``SameSite=Lax`` besides.  Sign-in is
limited per name and per address and sign-up per address (:class:`RoomLimits`); a failed sign-in says the same
thing, with the same status and after the same work (a dummy hash is checked), whether the name or the password
was wrong.  Errors are ``{"error": code, "message": words}`` as everywhere on the server (docs/room.md).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from ..limits import BodyTooLarge, RateLimiter, client_key, read_body, retry_after
from ..paths import STATIC
from ..storage import AsyncStorage, StorageError
from . import accounts, history, ratings, sessions
from .browser import SCOPE_KEY, browser_cookie

BAD_CREDENTIALS = "that name and password do not match an account"


@dataclass(frozen=True)
class RoomLimits:
    """How often one address or one name may try to sign in or up."""

    signins_per_address_per_minute: float = 10.0
    signins_per_address_burst: int = 10
    signins_per_name_per_hour: float = 30.0
    """Sign-in attempts at one name, from anywhere: a burst of :attr:`signins_per_name_burst`, then one every two
    minutes (a person who forgot the password tries a few; a guesser gets 720 tries a day, not millions)."""
    signins_per_name_burst: int = 5
    signups_per_address_per_hour: float = 6.0
    signups_per_address_burst: int = 3
    body: int = 4096
    """Bytes of a request's body."""


class Guards:
    """The room's rate limiters (one set per application)."""

    def __init__(self, limits: RoomLimits, trusted: tuple[str, ...] = ()) -> None:
        self.limits = limits
        self.trusted = trusted
        self.signin_address = RateLimiter(limits.signins_per_address_per_minute / 60, limits.signins_per_address_burst)
        self.signin_name = RateLimiter(limits.signins_per_name_per_hour / 3600, limits.signins_per_name_burst)
        self.signup_address = RateLimiter(limits.signups_per_address_per_hour / 3600, limits.signups_per_address_burst)

    def signin(self, address: str, name: str) -> float:
        """0 when this sign-in may be tried, else the seconds to wait (both counters are charged)."""
        by_address = 0.0 if address in self.trusted else self.signin_address.take(address)
        return max(by_address, self.signin_name.take(accounts.name_key(name)[:40]))

    def signup(self, address: str) -> float:
        """0 when this sign-up may be tried, else the seconds to wait."""
        return 0.0 if address in self.trusted else self.signup_address.take(address)


router = APIRouter()


def _guards(request: Request) -> Guards:
    state = request.app.state
    guards: Guards | None = getattr(state, "room_guards", None)
    if guards is None:
        limits = getattr(state, "limits", None)
        guards = state.room_guards = Guards(getattr(state, "room_limits", RoomLimits()),
                                            tuple(getattr(limits, "trusted", ())))
    return guards


def _storage(request: Request) -> AsyncStorage:
    storage: AsyncStorage = request.app.state.service.storage
    return storage


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)


def _limited(wait: float, what: str) -> JSONResponse:
    return _error(429, "rate_limited", f"too many {what}; try again in {retry_after(wait)}s",
                  {"Retry-After": retry_after(wait)})


def _secure(request: Request) -> bool:
    return sessions.is_https(request.url.scheme, request.headers)


class _BadRequest(Exception):
    def __init__(self, response: JSONResponse) -> None:
        self.response = response


async def _fields(request: Request, *names: str) -> dict[str, str]:
    """The body's JSON object, with each named field a string; else a 400, 413 (raised as :class:`_BadRequest`)."""
    try:
        body = await read_body(request, _guards(request).limits.body)
    except BodyTooLarge as exc:
        raise _BadRequest(_error(413, "too_large", str(exc))) from None
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise _BadRequest(_error(400, "bad_request", "the request is not JSON")) from None
    if not isinstance(data, dict):
        raise _BadRequest(_error(400, "bad_request", "the request is a JSON object"))
    for name in names:
        if not isinstance(data.get(name), str):
            raise _BadRequest(_error(400, "bad_request", f"the request needs {name!r} as text"))
    return {name: data[name] for name in names}


async def signed_in(request: Request) -> tuple[accounts.Account, str] | None:
    token = request.cookies.get(sessions.SESSION_COOKIE, "")
    if not token:
        return None
    account = await _storage(request).run(sessions.session_account, _storage(request).storage, token)
    return None if account is None else (account, token)


def _account_json(account: accounts.Account) -> dict[str, Any]:
    return {"name": account.name, "created": account.created}


async def _start_session(request: Request, account: accounts.Account, status: int) -> JSONResponse:
    store = _storage(request)
    token = await store.run(sessions.create_session, store.storage, account.id)
    browser = request.scope.get(SCOPE_KEY)
    if browser:  # the guest's tables are the account's from now on
        await store.run(accounts.link_browser, store.storage, sessions.token_hash(browser), account.id)
    response = JSONResponse({"account": _account_json(account)}, status_code=status)
    sessions.set_cookie(response, sessions.SESSION_COOKIE, token, sessions.SESSION_DAYS, _secure(request))
    return response


def _not_signed_in() -> JSONResponse:
    return _error(401, "not_signed_in", "sign in first")


@router.post("/api/account/signup")
async def signup(request: Request) -> Response:
    try:
        body = await _fields(request, "name", "password")
    except _BadRequest as bad:
        return bad.response
    try:
        name = accounts.check_name(body["name"].strip())
        password = accounts.check_password(body["password"])
    except accounts.AccountError as exc:
        return _error(409 if exc.code == "name_taken" else 400, exc.code, str(exc))
    if (wait := _guards(request).signup(client_key(request))):  # a well-formed request counts, taken name or not
        return _limited(wait, "new accounts from one place")
    password_hash = await asyncio.to_thread(accounts.hash_password, password)
    store = _storage(request)
    try:
        account = await store.run(accounts.create_account, store.storage, name, password_hash)
    except accounts.AccountError as exc:
        return _error(409, exc.code, str(exc))
    except StorageError:
        return _error(503, "storage_unavailable", "the server cannot store accounts right now; try again later")
    return await _start_session(request, account, 201)


@router.post("/api/account/signin")
async def signin(request: Request) -> Response:
    try:
        body = await _fields(request, "name", "password")
    except _BadRequest as bad:
        return bad.response
    name, password = body["name"].strip(), body["password"]
    if (wait := _guards(request).signin(client_key(request), name)):
        return _limited(wait, "sign-in attempts")
    store = _storage(request)
    found = None
    if accounts.NAME.fullmatch(name) and len(password) <= accounts.MAX_PASSWORD:
        found = await store.run(accounts.sign_in_record, store.storage, name)
    stored = found[1] if found is not None else None
    # unknown, barred or malformed name: a dummy hash is checked all the same (same time, same answer)
    ok = await asyncio.to_thread(accounts.verify_password, stored, password[:accounts.MAX_PASSWORD])
    if found is None or not ok:
        return _error(401, "bad_credentials", BAD_CREDENTIALS)
    if stored is not None and accounts.needs_rehash(stored):  # the server's argon2 parameters were raised
        fresh = await asyncio.to_thread(accounts.hash_password, password)
        await store.run(accounts.replace_hash, store.storage, found[0].id, stored, fresh)
    return await _start_session(request, found[0], 200)


@router.post("/api/account/signout")
async def signout(request: Request) -> Response:
    signed = await signed_in(request)
    if signed is None:
        return _not_signed_in()
    store = _storage(request)
    await store.run(sessions.revoke_session, store.storage, signed[1])
    browser = request.scope.get(SCOPE_KEY)
    if browser:
        await store.run(accounts.unlink_browser, store.storage, sessions.token_hash(browser))
    response = JSONResponse({"signed_out": True})
    secure = _secure(request)
    sessions.clear_cookie(response, sessions.SESSION_COOKIE, secure)
    # a new browser key: the next guest on this browser starts with no tables
    response.raw_headers.append((b"set-cookie", browser_cookie(sessions.new_token(), secure)))
    return response


@router.post("/api/account/password")
async def change_password(request: Request) -> Response:
    try:
        body = await _fields(request, "current", "password")
    except _BadRequest as bad:
        return bad.response
    signed = await signed_in(request)
    if signed is None:
        return _not_signed_in()
    account, token = signed
    try:
        password = accounts.check_password(body["password"])
    except accounts.AccountError as exc:
        return _error(400, exc.code, str(exc))
    if (wait := _guards(request).signin(client_key(request), account.name)):
        return _limited(wait, "password attempts")
    store = _storage(request)
    stored = await store.run(accounts.password_hash_of, store.storage, account.id)
    if not await asyncio.to_thread(accounts.verify_password, stored, body["current"][:accounts.MAX_PASSWORD]):
        return _error(403, "bad_password", "the current password is not right")
    new_hash = await asyncio.to_thread(accounts.hash_password, password)
    await store.run(accounts.set_password, store.storage, account.id, new_hash, sessions.token_hash(token))
    return JSONResponse({"changed": True})


@router.delete("/api/account")
async def delete_account(request: Request) -> Response:
    try:
        body = await _fields(request, "password")
    except _BadRequest as bad:
        return bad.response
    signed = await signed_in(request)
    if signed is None:
        return _not_signed_in()
    account = signed[0]
    if (wait := _guards(request).signin(client_key(request), account.name)):
        return _limited(wait, "password attempts")
    store = _storage(request)
    stored = await store.run(accounts.password_hash_of, store.storage, account.id)
    if not await asyncio.to_thread(accounts.verify_password, stored, body["password"][:accounts.MAX_PASSWORD]):
        return _error(403, "bad_password", "the password is not right")
    await store.run(accounts.delete_account, store.storage, account.id)
    response = JSONResponse({"deleted": True})
    sessions.clear_cookie(response, sessions.SESSION_COOKIE, _secure(request))
    return response


@router.get("/api/me")
async def me(request: Request) -> Response:
    signed = await signed_in(request)
    if signed is None:
        return _not_signed_in()
    account = signed[0]
    store = _storage(request)
    tables = await store.run(accounts.account_tables, store.storage, account.id)
    rated = await store.run(ratings.ratings_of, store.storage, account.id)
    return JSONResponse({
        "account": _account_json(account),
        "tables": [{"table": table, "seat": seat, "at": at} for table, seat, at in tables],
        "ratings": {family: _rated_json(family, r) for family, r in rated.items()},
    })


def _rated_json(family: str, rated: ratings.Rated) -> dict[str, Any]:
    return {"name": rated.name, "rating": round(rated.mu, 1), "uncertainty": round(rated.sigma, 1),
            "matches": rated.matches, "provisional": rated.provisional, "computer": rated.computer,
            "standing": "" if rated.computer else ratings.standing(family, rated.mu)}


@router.get("/api/leaderboard/{family}")
async def leaderboard(family: str, request: Request) -> Response:
    if family not in ratings.FAMILIES:
        return _error(404, "no_family", f"no such family of games; the families: {', '.join(ratings.FAMILIES)}")
    store = _storage(request)
    board = await store.run(ratings.leaderboard, store.storage, family)
    unsure = await store.run(ratings.provisional_players, store.storage, family)
    return JSONResponse({"family": family, "title": ratings.FAMILIES[family],
                         "families": ratings.FAMILIES,
                         "players": [_rated_json(family, r) for r in board],
                         "provisional": [_rated_json(family, r) for r in unsure]})


@router.get("/room/leaderboard", include_in_schema=False)
async def leaderboard_page() -> FileResponse:
    return FileResponse(STATIC / "room" / "leaderboard.html")


@router.get("/api/matches/{match_id}/hands/{hand}/replay")
async def match_hand_replay(request: Request, match_id: str, hand: str) -> Response:
    """Hand ``hand`` (from 1) of a finished match for the table replay: every hand face up (the match is over),
    the seats' names, and the review of the viewer's own seat when they played it and one was made (docs/room.md
    "History").  A match still being played has no entry here: only finished matches are recorded."""
    if not hand.isdigit() or len(hand) > 4:
        return _error(404, "no_hand", "hands count from 1")
    signed = await signed_in(request)
    browser = request.scope.get(SCOPE_KEY)
    store = _storage(request)
    found = await store.run(history.hand_viewer, store.storage, match_id, int(hand),
                            signed[0].id if signed is not None else None,
                            sessions.token_hash(browser) if browser else None)
    if found is None:
        return _error(404, "no_hand", "there is no such hand of a finished match here")
    return JSONResponse(found, headers={"Cache-Control": "private, no-store"})


@router.get("/match/{match_id}/hand/{hand}", include_in_schema=False)
async def match_hand_page(match_id: str, hand: str) -> FileResponse:
    return FileResponse(STATIC / "room" / "replay.html")


@router.get("/account", include_in_schema=False)
async def account_page() -> FileResponse:
    return FileResponse(STATIC / "account.html")
