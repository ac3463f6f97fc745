"""Accounts over HTTP: sign up, sign in, sign out, change the password, delete the account;
the session cookie, and the CSRF check of every change asked for with it.

=======  ======================  ====================================================
method   path                    answer; errors
=======  ======================  ====================================================
POST     /api/accounts           201 ``{"name", "csrf"}``, signed in (a new cookie);
                                 409 the name is taken, 422 a bad name or password,
                                 429 too many attempts from the address
GET      /api/session            ``{"name", "created", "csrf"}``, or all three null
                                 when not signed in
POST     /api/session            ``{"name", "csrf"}``, signed in (a new cookie); 401
                                 the name or the password is wrong (the same answer
                                 for a name nobody has), 429 too many attempts
DELETE   /api/session            204, signed out (the session ends, the cookie goes)
PUT      /api/account/password   ``{"name", "csrf"}`` (a new cookie; every other
                                 session ends); 401 not signed in or the old
                                 password is wrong, 422 a bad new password, 429
DELETE   /api/account            204, the account deleted (body ``{"password"}``);
                                 401 not signed in or the password is wrong, 429
=======  ======================  ====================================================

The cookie (:data:`COOKIE`) holds a random session id the server issued at sign-in (a new one
at every sign-in, so an id planted before it signs nobody in; an id the server did not issue is
ignored). It is HttpOnly, SameSite=Lax, Path=/, and Secure when the request came over https
(directly, or through a proxy uvicorn trusts that sends ``X-Forwarded-Proto: https``) or the
server runs with ``--secure-cookies``.

Every POST, PUT, PATCH or DELETE that carries a valid session cookie must carry the session's
CSRF token (:func:`.accounts.csrf_token`, given by the sign-in and by ``GET /api/session``) in
``X-CSRF-Token``, and, where it sends ``Origin``, come from a page of this server (or of an
``--allowed-origin``); the account routes above check ``Origin`` even without a cookie (no
signing a browser in to another's account from another site). A refusal is 403 with one
sentence and changes nothing. A request without the cookie (a guest's, the terminal client's
with a seat's bearer token) is let through as before.

Sign-in attempts are counted (the ``limits`` library, a moving window) per name and per
address, wrong or right, before the password is checked: past either limit the answer is 429,
whether or not the name exists. A name nobody has is checked against a dummy hash, so a wrong
name and a wrong password cost the same and get the same answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import DBAPIError

from . import passwords
from .accounts import (
    DELETED_NAME,
    SESSION_SECONDS,
    Account,
    AccountStore,
    NameTaken,
    csrf_token,
    name_key,
)
from .config import Settings
from .guard import BODY_METHODS, origin_allowed
from .names import MAX_NAME, BadName, player_name
from .tables import Hub, LobbyError, Unavailable

#: the session cookie's name
COOKIE = "thousand_session"
#: the header that carries the session's CSRF token
CSRF_HEADER = "X-CSRF-Token"
#: the paths whose changes check ``Origin`` even without a cookie
ACCOUNT_PATHS = ("/api/session", "/api/account")

WRONG = "the name or the password is wrong"
TOO_MANY = "too many sign-in attempts: wait a few minutes and try again"
NOT_SIGNED_IN = "this needs a signed-in account: sign in first"


class Credentials(BaseModel):
    """A name and a password (sign up, sign in)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=256, description="the account's name, 1 to 32 characters")
    password: str = Field(
        max_length=1024,
        description=f"{passwords.MIN_PASSWORD} to {passwords.MAX_PASSWORD} characters",
    )


class PasswordChange(BaseModel):
    """The password now, and the new one."""

    model_config = ConfigDict(extra="forbid")
    old_password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


class Confirmation(BaseModel):
    """The account's password, to confirm a deletion."""

    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1024)


def limit_of(text: str) -> RateLimitItem:
    """A limit in the ``limits`` notation (``10 per 15 minutes``), or ValueError saying so."""
    try:
        return parse(text)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a limit: write it as COUNT per [N] second|minute|hour|day"
        ) from None


class SignInLimits:
    """The sign-in attempts of each name and of each address, each against its limit."""

    def __init__(self, settings: Settings) -> None:
        self.per_name = limit_of(settings.sign_in_per_name)
        self.per_address = limit_of(settings.sign_in_per_address)
        self.limiter = MovingWindowRateLimiter(storage_from_string(settings.limits_storage))

    def address(self, address: str) -> bool:
        """Count an attempt from ``address``; whether it is within the limit."""
        return self.limiter.hit(self.per_address, "sign-in-address", address)

    def attempt(self, key: str, address: str) -> bool:
        """Count an attempt for the name ``key`` from ``address`` (both, always); whether
        both are within their limits."""
        by_address = self.address(address)
        by_name = self.limiter.hit(self.per_name, "sign-in-name", key)
        return by_address and by_name


def signed_in(request: Request) -> Account | None:
    """The account a change is asked for by (its session cookie checked, and its CSRF token),
    or None: a guest."""
    account = getattr(request.state, "account", None)
    return account if isinstance(account, Account) else None


def _refusal(status: int, sentence: str) -> JSONResponse:
    return JSONResponse({"detail": sentence}, status_code=status)


def add_session_check(app: FastAPI, accounts: AccountStore, settings: Settings) -> None:
    """The middleware that reads the session of a change asked for with the cookie, and
    refuses it without the session's CSRF token or from another site's page; add it before
    the middleware that must run first (the request limit, :class:`.guard.Guard`)."""
    origins = frozenset(o.strip().lower().rstrip("/") for o in settings.allowed_origins)
    any_origin = "*" in settings.allowed_origins

    @app.middleware("http")
    async def check_session(request: Request, call_next: Any) -> Response:
        request.state.account = None
        request.state.session = None
        if request.method not in BODY_METHODS:
            response: Response = await call_next(request)
            return response
        cookie = request.cookies.get(COOKIE)
        account = None
        if cookie:
            try:
                account = await asyncio.to_thread(accounts.session_account, cookie)
            except DBAPIError:
                return _refusal(503, str(Unavailable()))
        origin = request.headers.get("origin")
        host = request.headers.get("host", "")
        checked = account is not None or request.url.path.startswith(ACCOUNT_PATHS)
        if checked and origin is not None and not origin_allowed(origin, host, origins, any_origin):
            return _refusal(
                403, "this request comes from another site's page: the server refuses it"
            )
        if account is not None and cookie is not None:
            sent = request.headers.get(CSRF_HEADER, "").encode("utf-8", "replace")
            if not secrets.compare_digest(sent, csrf_token(cookie).encode("ascii")):
                return _refusal(
                    403,
                    f"this request needs the session's token in {CSRF_HEADER}: "
                    "reload the page and try again",
                )
            request.state.account = account
            request.state.session = cookie
        response = await call_next(request)
        return response


def add_account_routes(app: FastAPI, hub: Hub) -> None:
    """The routes of the table above (:func:`.routes.add_routes` adds them with its own)."""
    settings = hub.settings
    accounts = AccountStore(hub.store)
    limits = SignInLimits(settings)

    def secure(request: Request) -> bool:
        return settings.secure_cookies or request.url.scheme == "https"

    def give_session(request: Request, response: Response, session_id: str) -> None:
        response.set_cookie(
            COOKIE,
            session_id,
            max_age=SESSION_SECONDS,
            path="/",
            httponly=True,
            samesite="lax",
            secure=secure(request),
        )

    def take_session(request: Request, response: Response) -> None:
        response.delete_cookie(
            COOKIE, path="/", httponly=True, samesite="lax", secure=secure(request)
        )

    def address_of(request: Request) -> str:
        return request.client.host if request.client else "?"

    def required(request: Request) -> tuple[Account, str]:
        account = signed_in(request)
        session = request.state.session
        if account is None or not isinstance(session, str):
            raise LobbyError(401, NOT_SIGNED_IN)
        return account, session

    async def check_password(account: Account, password: str, request: Request, what: str) -> None:
        """The account's own password again (a change of password, a deletion): counted as a
        sign-in attempt; 429 past the limits, 401 ``what`` is wrong."""
        if not limits.attempt(name_key(account.name), address_of(request)):
            raise LobbyError(429, TOO_MANY)
        stored = await asyncio.to_thread(accounts.password_hash, account.id)
        if not await asyncio.to_thread(passwords.verify, stored, password):
            raise LobbyError(401, f"{what} is wrong")

    async def new_session(account: Account, request: Request, response: Response) -> dict[str, Any]:
        """Sign ``account`` in: a new session (the one the browser held, if any, ends)."""
        old = request.cookies.get(COOKIE)
        session_id = await hub.write(accounts.start_session, account.id, old)
        give_session(request, response, session_id)
        return {"name": account.name, "csrf": csrf_token(session_id)}

    @app.post("/api/accounts", status_code=201)
    async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """A new account, signed in at once."""
        try:
            name = player_name(body.name)
        except BadName as e:
            raise LobbyError(422, str(e)) from None
        if name_key(name) == name_key(DELETED_NAME):
            raise LobbyError(
                422, f"the name {DELETED_NAME!r} is how the server names deleted accounts"
            )
        try:
            password = passwords.check_new(body.password)
        except passwords.BadPassword as e:
            raise LobbyError(422, str(e)) from None
        if not limits.address(address_of(request)):
            raise LobbyError(429, TOO_MANY)
        hashed = await asyncio.to_thread(passwords.hash_password, password)
        try:
            account = await hub.write(accounts.create, name, hashed)
        except NameTaken:
            raise LobbyError(409, f"the name {name!r} is taken: choose another") from None
        return await new_session(account, request, response)

    @app.get("/api/session")
    async def session(request: Request, response: Response) -> dict[str, Any]:
        """Who is signed in here, and the session's CSRF token; a cookie the server does not
        know (ended, expired, never issued) is removed."""
        cookie = request.cookies.get(COOKIE)
        account = await asyncio.to_thread(accounts.session_account, cookie) if cookie else None
        if account is None or cookie is None:
            if cookie:
                take_session(request, response)
            return {"name": None, "created": None, "csrf": None}
        return {"name": account.name, "created": account.created, "csrf": csrf_token(cookie)}

    @app.post("/api/session")
    async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        """Sign in with a name and a password: a new session."""
        try:
            name: str | None = player_name(body.name)
        except BadName:
            name = None
        key = name_key(name) if name is not None else name_key(body.name)[: MAX_NAME * 4]
        if not limits.attempt(key, address_of(request)):
            raise LobbyError(429, TOO_MANY)
        found = await asyncio.to_thread(accounts.find, name) if name is not None else None
        stored = found[1] if found is not None else None
        if not await asyncio.to_thread(passwords.verify, stored, body.password) or found is None:
            raise LobbyError(401, WRONG)
        account = found[0]
        if stored is not None and passwords.needs_rehash(stored):
            hashed = await asyncio.to_thread(passwords.hash_password, body.password)
            await hub.write(accounts.set_password, account.id, hashed, False)
        return await new_session(account, request, response)

    @app.delete("/api/session", status_code=204)
    async def sign_out(request: Request) -> Response:
        """Sign out: the session ends and the cookie goes."""
        response = Response(status_code=204)
        session_id = request.state.session
        if isinstance(session_id, str):
            await hub.write(accounts.end_session, session_id)
        if request.cookies.get(COOKIE):
            take_session(request, response)
        return response

    @app.put("/api/account/password")
    async def change_password(
        body: PasswordChange, request: Request, response: Response
    ) -> dict[str, Any]:
        """A new password (the old one confirms it): every session of the account ends and
        this one gets a new id."""
        account, _ = required(request)
        try:
            password = passwords.check_new(body.new_password)
        except passwords.BadPassword as e:
            raise LobbyError(422, str(e)) from None
        await check_password(account, body.old_password, request, "the old password")
        hashed = await asyncio.to_thread(passwords.hash_password, password)
        await hub.write(accounts.set_password, account.id, hashed, True)
        session_id = await hub.write(accounts.start_session, account.id, None)
        give_session(request, response, session_id)
        return {"name": account.name, "csrf": csrf_token(session_id)}

    @app.delete("/api/account", status_code=204)
    async def delete_account(body: Confirmation, request: Request) -> Response:
        """Delete the account (its password confirms it): its name, password and sessions go;
        its seats stay with their games, under the name "deleted player"."""
        account, _ = required(request)
        await check_password(account, body.password, request, "the password")
        await forget(hub, accounts, account.id)
        response = Response(status_code=204)
        take_session(request, response)
        return response


async def forget(hub: Hub, accounts: AccountStore, account_id: str) -> None:
    """Delete an account: in the database (one transaction), then in the tables in memory,
    each under its lock, held from before the database changes so that no table writes the
    old name back meanwhile."""
    held = sorted(
        (t for t in list(hub.tables.values()) if any(s.account == account_id for s in t.row.seats)),
        key=lambda t: t.id,
    )
    async with contextlib.AsyncExitStack() as stack:
        for table in held:
            await stack.enter_async_context(table.lock)
        await hub.write(accounts.delete, account_id)
        for table in held:
            table.forget_account(account_id, DELETED_NAME)
