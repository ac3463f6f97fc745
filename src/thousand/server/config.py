"""The server's settings, as ``thousand serve`` takes them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Settings:
    """Where the data lives, how bots pace themselves, and the rate limits."""

    data: Path = Path("thousand-data")
    #: a database URL (``postgresql://...``); None: SQLite in ``data``
    database: str | None = None
    #: seconds a bot waits before it moves (0 in tests)
    bot_delay: float = 0.5
    #: the most seconds a bot may think about one move
    bot_time: float = 1.0
    #: messages a WebSocket client may send per second, and in one burst
    message_rate: float = 20.0
    message_burst: int = 40
    #: requests (REST calls and WebSocket connections) per second from one address, and burst
    request_rate: float = 200.0
    request_burst: int = 400
