"""Helpers for the chat tests: WebSocket clients that may carry a session cookie, accounts
signed up over HTTP, the chat rows as stored, and reading a client's chat up to a line."""

from __future__ import annotations

import random
from typing import Any

import httpx
import sqlalchemy as sa
from websockets.sync.client import connect

from thousand.server.account_routes import COOKIE
from thousand.server.storage import database_url

from .server_support import Client, Message, Server

PASSWORD = "correct horse battery"


class ChatClient(Client):
    """A :class:`Client` whose connection may carry a session cookie (a signed-in
    spectator's), and that keeps the chat history it was sent after its snapshot."""

    def __init__(
        self,
        server: Server,
        table_id: str,
        token: str | None = None,
        seat: int | None = None,
        cookie: str | None = None,
    ) -> None:
        self.seat = seat
        self.messages: list[Message] = []
        headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else None
        self.conn = connect(
            f"{server.ws}/tables/{table_id}/ws",
            max_size=2**22,
            open_timeout=10,
            close_timeout=1,
            additional_headers=headers,
        ).__enter__()
        self.send({"type": "hello", "token": token} if token else {"type": "hello"})
        snapshot = self.recv()
        assert snapshot["type"] == "snapshot", snapshot
        self.version = snapshot["version"]
        self.view = snapshot["view"]
        self.sent = 0

    def say(self, text: str) -> None:
        self.send({"type": "chat", "text": text})

    def chat_until(self, text: str) -> list[Message]:
        """The chat lines (and history lines) this client gets up to the line saying
        ``text``, that one included."""
        got: list[Message] = []

        def done(m: Message) -> bool:
            if m["type"] == "chat-history":
                got.extend(m["messages"])
                return any(x.get("text") == text for x in m["messages"])
            if m["type"] == "chat-line":
                got.append(m)
                return m.get("text") == text
            return False

        self.recv_until(done)
        return got

    def error(self) -> Message:
        """The next error this client gets."""
        return self.recv_until(lambda m: m["type"] == "error")


def sign_up(server: Server, stem: str) -> tuple[str, str]:
    """A new account's name and its session cookie."""
    name = f"{stem}{random.randrange(10**8)}"
    answer = httpx.post(
        f"{server.http}/api/accounts", json={"name": name, "password": PASSWORD}, timeout=30
    )
    assert answer.status_code == 201, answer.text
    cookie = answer.cookies.get(COOKIE)
    assert cookie
    return name, cookie


def chat_rows(server: Server, table_id: str) -> list[tuple[Any, ...]]:
    """The table's chat as stored: (id, channel, seat, name, text, phrase), oldest first."""
    engine = sa.create_engine(database_url(server.database, server.data))
    try:
        with engine.connect() as conn:
            return [
                tuple(r)
                for r in conn.execute(
                    sa.text(
                        "SELECT id, channel, seat, name, text, phrase FROM chat_messages "
                        "WHERE table_id = :t ORDER BY id"
                    ),
                    {"t": table_id},
                )
            ]
    finally:
        engine.dispose()


def texts(lines: list[Message]) -> list[str]:
    """What the lines say: their text, or ``:phrase``."""
    return [str(m["text"]) if "text" in m else f":{m['phrase']}" for m in lines]
