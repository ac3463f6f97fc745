"""The server's settings, as ``thousand serve`` takes them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..bots.base import MOVE_TIME

#: the hosts a server on this machine is reached by
DEFAULT_HOSTS = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True, slots=True)
class Settings:
    """Where the data lives, how bots pace themselves, the limits, who may connect."""

    data: Path = Path("thousand-data")
    #: a database URL (``postgresql://...``); None: SQLite in ``data``
    database: str | None = None
    #: the bus to the other server processes on the same database (``redis://...``); None:
    #: this process is the only one
    bus: str | None = None
    #: seconds a bot waits before it moves (0 in tests)
    bot_delay: float = 0.5
    #: the most seconds a bot may think about one move
    bot_time: float = MOVE_TIME
    #: messages a WebSocket client may send per second, and in one burst
    message_rate: float = 20.0
    message_burst: int = 40
    #: requests (REST calls and WebSocket connections) per second from one address, and burst
    request_rate: float = 200.0
    request_burst: int = 400
    #: the largest request body, in bytes (413 beyond it)
    max_body: int = 64 * 1024
    #: tables not yet finished that one address may have created (429 beyond it)
    tables_per_address: int = 20
    #: WebSocket connections to one table (spectators beyond it are refused with ``full``)
    table_connections: int = 200
    #: seconds a table not yet finished may go without a person connected before it is
    #: closed and leaves the lists (0: never)
    close_idle: float = 900.0
    #: finished tables kept in memory, the least recently used dropped beyond it
    finished_cache: int = 64
    #: threads for heavy work (tables loaded from storage, records), and processes for replays
    heavy_workers: int = 2
    #: host names the server answers for (``*``: any), whatever the port
    allowed_hosts: tuple[str, ...] = DEFAULT_HOSTS
    #: other sites whose pages may open a WebSocket (``https://name``; ``*``: any); a page of
    #: this server and a client without ``Origin`` always may
    allowed_origins: tuple[str, ...] = ()
    #: sign-in attempts (``limits`` notation) allowed for one name, and from one address; an
    #: address's sign-ups count with its sign-ins
    sign_in_per_name: str = "10 per 15 minutes"
    sign_in_per_address: str = "50 per 15 minutes"
    #: where those counts are kept (a ``limits`` storage URI: ``memory://`` is this process's
    #: memory; ``redis://HOST:PORT`` shares them between servers)
    limits_storage: str = "memory://"
    #: mark the session cookie Secure on every answer (behind a proxy that ends TLS and does
    #: not send ``X-Forwarded-Proto``); it is Secure anyway on a request that came over https
    secure_cookies: bool = False
    #: seconds a process that is told to stop stays up, not ready, before it closes its
    #: WebSockets (longer than a proxy takes to see it not ready; docs/deploy.md)
    drain: float = 0.0
