"""The server's outer wall, as ASGI middleware around the whole app.

* ``Host`` must name one of the allowed hosts (a page of another site whose name an attacker
  points at 127.0.0.1, "DNS rebinding", is answered 400); the port is not compared.
* A WebSocket whose ``Origin`` is another site's is refused (a page served by this server, or a
  client that sends no ``Origin`` such as the terminal client, is let in).
* A request body over ``max_body`` bytes is answered 413 before it is read whole; a JSON body,
  the path or the query holding a lone surrogate or a control character is answered with one
  sentence that says where (422, or 400 for the path and the query).
* Every HTTP answer carries a Content-Security-Policy (the page's own files only, its
  WebSocket, no framing), X-Frame-Options, X-Content-Type-Options and Referrer-Policy.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .text import odd_character, odd_in

#: the pages of FastAPI's own API docs load their script from a CDN and run inline code
API_DOCS = ("/docs", "/redoc")
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(:[0-9]{1,5})?")


def host_name(value: str) -> str | None:
    """The host of a ``Host`` header (``[::1]:8000`` gives ``[::1]``), lower case, or None."""
    found = _HOST.fullmatch(value.strip().lower())
    return None if found is None else found.group(1).rstrip(".")


def bracketed(host: str) -> str:
    """A host as a ``Host`` header writes it: an IPv6 address in brackets."""
    host = host.strip().lower().rstrip(".")
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def policy(host: str | None) -> str:
    """The Content-Security-Policy of an answer to a request for ``host`` (``name:port``, a
    checked ``Host`` header; None: none)."""
    sockets = f" ws://{host} wss://{host}" if host else ""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
        f"connect-src 'self'{sockets}; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


class Guard:
    """The checks and headers of the module, around ``app``."""

    def __init__(
        self,
        app: ASGIApp,
        hosts: Sequence[str],
        origins: Sequence[str],
        max_body: int,
    ) -> None:
        self.app = app
        self.any_host = "*" in hosts
        self.hosts = frozenset(bracketed(h) for h in hosts)
        self.any_origin = "*" in origins
        self.origins = frozenset(o.strip().lower().rstrip("/") for o in origins)
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        name = host_name(host)
        allowed = name is not None and (self.any_host or name in self.hosts)
        if scope["type"] == "http":
            docs = scope.get("path", "").startswith(API_DOCS)
            shown = host.strip().lower() if allowed else None
            send = _with_headers(send, None if docs else policy(shown))
        if not allowed:
            asked = host if len(host) <= 64 else host[:64] + "..."
            await self._refuse(
                scope, send, 400, f"this server does not answer for the host {asked!r}"
            )
            return
        problem = self._odd_address(scope)
        if problem is not None:
            await self._refuse(scope, send, 400, problem)
            return
        if scope["type"] == "websocket":
            origin = headers.get("origin")
            if origin is not None and not self._origin_allowed(origin, host):
                await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return
        if scope["method"] not in BODY_METHODS:
            await self.app(scope, receive, send)
            return
        body = await self._body(headers, receive)
        if body is None:
            await self._refuse(
                scope, send, 413, f"a request body may hold at most {self.max_body} bytes"
            )
            return
        problem = _odd_body(body)
        if problem is not None:
            await self._refuse(scope, send, 422, f"the request is not valid: {problem}")
            return
        await self.app(scope, _replay(body, receive), send)

    def _origin_allowed(self, origin: str, host: str) -> bool:
        return origin_allowed(origin, host, self.origins, self.any_origin)

    @staticmethod
    def _odd_address(scope: Scope) -> str | None:
        problem = odd_character(scope.get("path", ""))
        if problem is not None:
            return f"the path holds {problem}"
        query = scope.get("query_string", b"").decode("latin-1")
        for key, value in parse_qsl(query, keep_blank_values=True, errors="replace"):
            problem = odd_character(key) or odd_character(value)
            if problem is not None:
                return f"the query parameter {key[:32]!r} holds {problem}"
        return None

    async def _body(self, headers: Headers, receive: Receive) -> bytes | None:
        """The whole body, or None once it is over the limit (unread beyond it)."""
        length = headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    @staticmethod
    async def _refuse(scope: Scope, send: Send, status: int, sentence: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = json.dumps({"detail": sentence}).encode("utf-8")
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode("ascii")),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def origin_allowed(origin: str, host: str, origins: Collection[str], any_origin: bool) -> bool:
    """Whether a page of ``origin`` may ask: a page of this server (its ``Host``), or one of
    ``origins`` (lower case, no trailing slash); any page with ``any_origin``."""
    origin = origin.strip().lower().rstrip("/")
    if any_origin or origin in origins:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == host.strip().lower()


def _with_headers(send: Send, csp: str | None) -> Send:
    """``send`` with the headers of every answer (and ``csp``, where there is one)."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            headers += [
                (b"x-frame-options", b"DENY"),
                (b"x-content-type-options", b"nosniff"),
                (b"referrer-policy", b"same-origin"),
            ]
            if csp is not None:
                headers.append((b"content-security-policy", csp.encode("latin-1")))
            message = {**message, "headers": headers}
        await send(message)

    return sending


def _odd_body(body: bytes) -> str | None:
    if not body:
        return None
    try:
        value: Any = json.loads(body)
    except UnicodeDecodeError as e:
        return f"the body is not UTF-8 text (byte 0x{body[e.start]:02X} at {e.start})"
    except (ValueError, RecursionError):
        return None  # not JSON: the route says what is wrong with it
    return odd_in(value, "body")


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` once, then waits as the server's does."""
    sent = False

    async def replaying() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replaying
