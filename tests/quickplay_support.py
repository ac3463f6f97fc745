"""Helpers of the quick-play tests: join the queue, ask after a ticket, wait until it sits."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import httpx

from .server_support import Message, Server


@dataclass(frozen=True)
class Ticket:
    server: Server
    id: str
    token: str

    def headers(self, token: str | None = None) -> dict[str, str]:
        """The ticket's own token (or ``token``; "": none at all)."""
        if token == "":
            return {}
        return {"Authorization": f"Bearer {token if token is not None else self.token}"}

    def ask(self, token: str | None = None) -> httpx.Response:
        return httpx.get(
            f"{self.server.http}/quickplay/{self.id}", headers=self.headers(token), timeout=10
        )

    def state(self) -> Message:
        answer = self.ask()
        assert answer.status_code == 200, answer.text
        body: Message = answer.json()
        return body

    def leave(self, token: str | None = None) -> httpx.Response:
        return httpx.delete(
            f"{self.server.http}/quickplay/{self.id}", headers=self.headers(token), timeout=10
        )

    def seated(self, limit_s: float = 30) -> Message:
        """Ask until the ticket is seated (twice a second, as a page would); the answer that
        first says so (with the seat's token)."""
        deadline = time.monotonic() + limit_s
        while True:
            body = self.state()
            if body["state"] == "seated":
                return body
            assert time.monotonic() < deadline, f"ticket {self.id} still waits: {body}"
            time.sleep(0.2)


def join(server: Server, template: str = "russian", wait: float = 300, **more: Any) -> Ticket:
    answer = server.post("/quickplay", {"template": template, "wait": wait, **more})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["state"] == "waiting"
    return Ticket(server, body["ticket"], body["token"])
