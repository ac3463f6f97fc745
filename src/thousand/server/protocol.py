"""The WebSocket protocol: what a client may send, and the messages the server sends.

docs/protocol.md describes it and docs/protocol/*.schema.json give a JSON Schema for every
message. Client messages are read here, strictly: anything else is a :class:`ProtocolError`
with a code and one sentence, answered to that client alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..engine import views
from .chat import ChatRefused, Mute, Say, read_mute, read_say
from .text import odd_character, odd_in

#: the largest client message, in bytes of UTF-8 text
MAX_MESSAGE = 4096
MAX_INTENT_ID = 64
MAX_MOVE = 32
MAX_TOKEN = 128


class ProtocolError(ValueError):
    """A client message the server refuses; ``code`` names the kind, the text says why."""

    def __init__(self, code: str, message: str, intent_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.intent_id = intent_id


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message: a seat token, or none to watch."""

    token: str | None


@dataclass(frozen=True, slots=True)
class Intent:
    """A move in the record's words, the last version the client saw, and the client's id."""

    id: str
    move: str
    version: int


@dataclass(frozen=True, slots=True)
class SnapshotRequest:
    """A client that saw a gap in the versions asks for everything afresh."""


@dataclass(frozen=True, slots=True)
class Ping:
    """Keeps a connection alive; answered with a pong."""


@dataclass(frozen=True, slots=True)
class Leave:
    """The seat's player leaves the table (as ``DELETE /tables/{id}/seats/{seat}`` does)."""


ClientMessage = Hello | Intent | SnapshotRequest | Ping | Leave | Say | Mute


def read_client_message(text: str | bytes) -> ClientMessage:
    """A client message from its text, or :class:`ProtocolError`."""
    if isinstance(text, bytes):
        raise ProtocolError("malformed", "messages are JSON text, not binary frames")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"a message may hold at most {MAX_MESSAGE} bytes")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("malformed", "the message is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", "a message must be a JSON object")
    problem = odd_in(data, "message")
    if problem is not None:
        raw_id = data.get("id") if data.get("type") == "intent" else None
        if not (isinstance(raw_id, str) and 0 < len(raw_id) <= MAX_INTENT_ID):
            raw_id = None  # the answer names the intent when its id is sound
        elif odd_character(raw_id) is not None:
            raw_id = None
        raise ProtocolError("malformed", problem, raw_id)
    kind = data.get("type")
    if kind == "intent":
        return _intent(data)
    if kind == "hello":
        _only(data, {"type", "token"})
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN):
            raise ProtocolError("malformed", "'token' must be a seat token (a string) or absent")
        return Hello(token)
    if kind == "snapshot":
        _only(data, {"type"})
        return SnapshotRequest()
    if kind == "ping":
        _only(data, {"type"})
        return Ping()
    if kind == "leave":
        _only(data, {"type"})
        return Leave()
    if kind in ("chat", "mute"):  # a table's chat (:mod:`.chat`)
        try:
            return read_say(data) if kind == "chat" else read_mute(data)
        except ChatRefused as e:
            raise ProtocolError(e.code, str(e)) from None
    if not isinstance(kind, str):
        raise ProtocolError("malformed", "a message must have a 'type' (a string)")
    shown = kind if len(kind) <= 32 else kind[:32] + "..."
    raise ProtocolError("malformed", f"unknown message type {shown!r}")


def _only(data: dict[str, Any], keys: set[str]) -> None:
    extra = sorted(set(data) - keys)
    if extra:
        shown = extra[0] if len(extra[0]) <= 32 else extra[0][:32] + "..."
        raise ProtocolError("malformed", f"unknown key {shown!r} in a {data['type']} message")


def _intent(data: dict[str, Any]) -> Intent:
    raw_id = data.get("id")
    intent_id = raw_id if isinstance(raw_id, str) and 0 < len(raw_id) <= MAX_INTENT_ID else None
    if intent_id is None:
        raise ProtocolError(
            "malformed", f"an intent needs an 'id': a string of 1 to {MAX_INTENT_ID} characters"
        )
    extra = sorted(set(data) - {"type", "id", "move", "version"})
    if extra:
        raise ProtocolError("malformed", f"unknown key {extra[0][:32]!r} in an intent", intent_id)
    move = data.get("move")
    if not isinstance(move, str) or not 0 < len(move) <= MAX_MOVE:
        raise ProtocolError(
            "malformed", "an intent's 'move' must be a move in the record's words", intent_id
        )
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ProtocolError(
            "malformed", "an intent's 'version' must be the last version seen", intent_id
        )
    return Intent(intent_id, move, version)


# -- server messages ------------------------------------------------------------------------


def error(code: str, message: str, intent_id: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if intent_id is not None:
        out["intent"] = intent_id
    return out


def ack(intent_id: str, version: int) -> dict[str, Any]:
    """The answer to an applied intent (the same answer when it is sent again)."""
    return {"type": "ack", "intent": intent_id, "version": version}


def move_event(seat: int, action: int, recipient: int | None, open_pass: bool) -> dict[str, Any]:
    """A move as ``recipient`` (None: a spectator) may learn it: what the engine's views say
    (:func:`thousand.engine.views.move_event`)."""
    return views.move_event(seat, action, recipient, open_pass)
