"""A client's link to one table: the lobby over HTTP, the table over a WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

Message = dict[str, Any]


class LinkError(RuntimeError):
    """The server refused a lobby request or cannot be reached; the text says why."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat taken at a table: where the server is, the table, the seat and its token."""

    server: str
    table: str
    seat: int | None
    token: str | None

    @property
    def table_url(self) -> str:
        """What a friend passes to ``thousand play --join``."""
        return f"{self.server}/tables/{self.table}"

    @property
    def ws_url(self) -> str:
        parts = urlsplit(self.server)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}/tables/{self.table}/ws"


def split_table_url(url: str) -> tuple[str, str]:
    """``http://host:port/tables/ID`` as (server, table id)."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/").split("/")
    if parts.scheme not in ("http", "https") or len(path) < 3 or path[-2] != "tables":
        raise LinkError(f"{url!r} is not a table's URL (http://HOST:PORT/tables/ID)")
    return f"{parts.scheme}://{parts.netloc}", path[-1]


def _answer(response: httpx.Response) -> Any:
    if response.status_code >= 400:
        try:
            detail = response.json().get("detail")
        except (ValueError, AttributeError):
            detail = response.text
        raise LinkError(f"the server said: {detail}")
    return response.json()


def create_table(
    server: str,
    template: str,
    rules: dict[str, Any],
    seats: list[dict[str, Any]],
    seed: int | None = None,
) -> str:
    """A new table's id."""
    try:
        body = {"template": template, "rules": rules, "seats": seats, "seed": seed}
        answer = _answer(httpx.post(f"{server}/tables", json=body, timeout=10))
    except httpx.HTTPError as e:
        raise LinkError(f"cannot reach the server at {server}: {e}") from None
    return str(answer["id"])


#: pauses before a seat request is sent again after no answer (or a busy database's 503)
SEAT_RETRY_PAUSES = (0.5, 1.0, 2.0, 4.0)


def new_claim() -> str:
    """A fresh secret for one seat (32 URL-safe characters): it becomes the seat's token."""
    return secrets.token_urlsafe(24)


def _seat_request(
    server: str, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> Any:
    """POST a request that takes a seat with a claim, sent again while it gets no answer: the
    claim makes the same request take the same seat, so a lost answer loses nothing."""
    for pause in (*SEAT_RETRY_PAUSES, None):
        try:
            response = httpx.post(f"{server}{path}", json=body, headers=headers, timeout=10)
        except httpx.HTTPError as e:
            if pause is None:
                raise LinkError(f"cannot reach the server at {server}: {e}") from None
        else:
            if response.status_code != 503 or pause is None:
                return _answer(response)
        time.sleep(pause)
    raise AssertionError("unreachable")


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A session of an account at a server: its cookie and its CSRF token, which every change
    asked for with the cookie sends."""

    name: str
    cookie: str
    csrf: str

    def headers(self) -> dict[str, str]:
        return {"Cookie": f"{SESSION_COOKIE}={self.cookie}", "X-CSRF-Token": self.csrf}


#: the session cookie's name (the server's ``account_routes.COOKIE``)
SESSION_COOKIE = "thousand_session"


def sign_in(server: str, name: str, password: str) -> SignedIn:
    """Sign in to ``server`` as ``name``; :class:`LinkError` with the server's sentence where
    it refuses (a wrong name or password, too many attempts)."""
    try:
        response = httpx.post(
            f"{server}/api/session", json={"name": name, "password": password}, timeout=30
        )
    except httpx.HTTPError as e:
        raise LinkError(f"cannot reach the server at {server}: {e}") from None
    answer = _answer(response)
    cookie = response.cookies.get(SESSION_COOKIE)
    if not cookie:
        raise LinkError("the server signed in without a session cookie")
    return SignedIn(str(answer["name"]), cookie, str(answer["csrf"]))


def take_seat(
    server: str,
    table: str,
    name: str,
    seat: int | None = None,
    signed_in: SignedIn | None = None,
) -> Seat:
    """Take a seat under ``name``, or, signed in, under the account's name (the seat is linked
    to the account)."""
    if signed_in is not None:
        name = signed_in.name
    body = {"seat": seat, "name": name, "claim": new_claim()}
    headers = signed_in.headers() if signed_in is not None else None
    answer = _seat_request(server, f"/tables/{table}/seats", body, headers)
    return Seat(server, str(answer["table"]), int(answer["seat"]), str(answer["token"]))


def rematch(seat: Seat) -> Seat:
    headers = {"Authorization": f"Bearer {seat.token}"}
    path = f"/tables/{seat.table}/rematch"
    answer = _seat_request(seat.server, path, {"claim": new_claim()}, headers)
    return Seat(seat.server, str(answer["table"]), answer["seat"], str(answer["token"]))


Listener = Callable[[Message], Awaitable[None] | None]


class TableLink:
    """The WebSocket of one seat: keeps the latest version and view, asks for a snapshot on a
    gap in the versions, and sends moves as intents (retried with the same id after a lost
    connection, so a move is never made twice)."""

    def __init__(self, seat: Seat, listener: Listener) -> None:
        self.seat = seat
        self.listener = listener
        self.version = 0
        self.view: Message | None = None
        self.snapshot: Message | None = None
        self.status = "open"
        self._conn: ClientConnection | None = None
        self._pending: Message | None = None
        self.closed = False

    async def run(self) -> None:
        """Connect, and reconnect after a lost connection, until :meth:`close`."""
        delay = 0.2
        while not self.closed:
            try:
                async with connect(self.seat.ws_url, max_size=2**22) as conn:
                    self._conn = conn
                    hello: Message = {"type": "hello"}
                    if self.seat.token:
                        hello["token"] = self.seat.token
                    await conn.send(json.dumps(hello))
                    delay = 0.2
                    async for text in conn:
                        await self._receive(json.loads(text))
            except (OSError, ConnectionClosed):
                pass
            finally:
                self._conn = None
            if not self.closed:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    async def _receive(self, message: Message) -> None:
        kind = message.get("type")
        if kind == "snapshot":
            self.snapshot = message
            self.version = message["version"]
            self.view = message["view"]
            self.status = message["status"]
            if self._pending is not None:
                await self._send(self._pending)
        elif kind == "event":
            if message["version"] != self.version + 1:
                await self._send({"type": "snapshot"})
                return
            self.version = message["version"]
            self.view = message["view"]
        elif kind == "seats":
            self.status = message["status"]
        elif (
            kind in ("ack", "error")
            and self._pending is not None
            and message.get("intent") == self._pending["id"]
        ):
            self._pending = None
        result = self.listener(message)
        if result is not None:
            await result

    async def move(self, move: str) -> None:
        """Send a move in the record's words as an intent at the latest version."""
        intent = {"type": "intent", "id": uuid.uuid4().hex, "move": move, "version": self.version}
        self._pending = intent
        await self._send(intent)

    async def _send(self, message: Message) -> None:
        if self._conn is not None:
            with contextlib.suppress(ConnectionClosed):
                await self._conn.send(json.dumps(message))

    async def close(self) -> None:
        self.closed = True
        if self._conn is not None:
            await self._conn.close()
