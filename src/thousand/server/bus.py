"""The bus between server processes (``thousand serve --bus redis://...``): one Redis pub/sub
channel on which each process says which table it has just changed.

A notice carries no game: only the table, its version, what kind of change it was and which
process made it. The database is the truth; a process that holds the table reads what it lacks
from there (:meth:`.tables.LiveTable.nudge`). A notice can be lost (Redis restarted, a
connection cut): every time the listener (re)subscribes, the hub catches every table up from
the database (``on_resync``), so nothing depends on a notice arriving.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from redis.asyncio import Redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

#: the channel every process publishes on and listens to
CHANNEL = "thousand:tables"
#: the first pause before the listener connects again, and the longest
RECONNECT_FIRST = 0.1
RECONNECT_MOST = 2.0
#: seconds a connection to Redis may take, and a command (a dead Redis is found out by then)
TIMEOUT = 2.0
#: seconds between the listener's pings (a connection that died silently is found out)
PING_EVERY = 5.0
#: notices waiting to be published before new ones are dropped (the others resync anyway)
BACKLOG = 10_000

log = logging.getLogger("thousand.server")


class Change(StrEnum):
    """What a notice says changed: a move, a deal, the seats or status, a new table, the
    table's chat (a message stored), or who is connected to it through the notice's origin."""

    MOVE = "move"
    DEAL = "deal"
    SEATS = "seats"
    TABLE = "table"
    CHAT = "chat"
    PRESENCE = "presence"


@dataclass(frozen=True, slots=True)
class Move:
    """A move as stored (a notice of a move carries it, so that a process whose copy is one
    version behind takes it without reading the database): the seat, the move in the record's
    words, and the intent and occupancy it came from."""

    seat: int
    move: str
    intent_id: str | None
    occupancy: int
    #: why a bot made a person's move (a clock's ``clock`` or ``away``), or None
    played: str | None = None


@dataclass(frozen=True, slots=True)
class Notice:
    """A table changed (stored) by the process ``origin``, now at ``version``."""

    table: str
    version: int
    change: Change
    origin: str
    move: Move | None = None
    #: a presence notice's seats: those with a connection to the table through ``origin``
    present: tuple[int, ...] = ()

    def encode(self) -> str:
        data: dict[str, Any] = {"table": self.table, "version": self.version}
        data |= {"change": self.change, "origin": self.origin}
        if self.move is not None:
            m = self.move
            data["move"] = [m.seat, m.move, m.intent_id, m.occupancy, m.played]
        if self.change == Change.PRESENCE:
            data["present"] = list(self.present)
        return json.dumps(data)

    @classmethod
    def decode(cls, text: str | bytes) -> Notice | None:
        """The notice of a message, or None for one that is not a notice (it is ignored)."""
        try:
            data: Any = json.loads(text)
            change = Change(data["change"])
            move = None
            if data.get("move") is not None:
                seat, said, intent_id, occupancy, *rest = data["move"]
                intent = None if intent_id is None else str(intent_id)
                played = str(rest[0]) if rest and rest[0] is not None else None
                move = Move(int(seat), str(said), intent, int(occupancy), played)
            present = tuple(int(s) for s in data.get("present", ()))
            return cls(
                str(data["table"]), int(data["version"]), change, str(data["origin"]), move, present
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            return None


class Bus:
    """Publishes this process's notices and hands every other process's to ``on_notice``;
    ``on_resync`` runs each time the listener has (re)subscribed."""

    def __init__(
        self,
        url: str,
        origin: str,
        on_notice: Callable[[Notice], None],
        on_resync: Callable[[], Awaitable[None]],
    ) -> None:
        self.url = url
        self.origin = origin
        self.on_notice = on_notice
        self.on_resync = on_resync
        self.outbox: asyncio.Queue[Notice] = asyncio.Queue()
        self.closing = False
        #: whether the listener is subscribed now
        self.connected = False
        self._tasks: list[asyncio.Task[None]] = []

    def _client(self) -> Redis:
        # no retries inside redis-py: a lost connection must reach the listener, which resyncs
        return Redis.from_url(
            self.url,
            socket_connect_timeout=TIMEOUT,
            socket_timeout=TIMEOUT,
            retry=Retry(NoBackoff(), 0),
        )

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publish())]

    async def close(self) -> None:
        self.closing = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def publish(
        self,
        table: str,
        version: int,
        change: Change,
        move: Move | None = None,
        present: tuple[int, ...] = (),
    ) -> None:
        """Queue a notice of this process's change (never waits: the table's lock is held)."""
        if self.outbox.qsize() < BACKLOG:
            self.outbox.put_nowait(Notice(table, version, change, self.origin, move, present))

    async def _publish(self) -> None:
        client = self._client()
        failing = False
        try:
            while not self.closing:
                notice = await self.outbox.get()
                try:
                    await client.publish(CHANNEL, notice.encode())
                except (RedisError, OSError) as e:
                    if not failing:  # once an outage: the others resync when they reconnect
                        log.warning("the bus cannot publish (notices are dropped): %s", e)
                    failing = True
                else:
                    if failing:
                        log.warning("the bus publishes again")
                    failing = False
        finally:
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _listen(self) -> None:
        pause = RECONNECT_FIRST
        while not self.closing:
            client = self._client()
            pubsub: Any = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self.connected = True
                log.info("the bus is subscribed; every table catches up")
                await self.on_resync()
                pause = RECONNECT_FIRST
                await self._receive(pubsub)
            except (RedisError, OSError) as e:
                if self.connected:
                    log.warning("the bus is lost (%s); it reconnects", e)
                else:
                    log.warning("the bus cannot connect (%s); again in %.2f s", e, pause)
            finally:
                self.connected = False
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                with contextlib.suppress(Exception):
                    await client.aclose()
            if not self.closing:
                await asyncio.sleep(pause)
                pause = min(pause * 2, RECONNECT_MOST)

    async def _receive(self, pubsub: Any) -> None:
        loop = asyncio.get_running_loop()
        pinged = loop.time()
        while not self.closing:
            message = await pubsub.get_message(timeout=1.0)
            if message is not None and message.get("type") == "message":
                notice = Notice.decode(message["data"])
                if notice is not None and notice.origin != self.origin:
                    self.on_notice(notice)
            if loop.time() - pinged > PING_EVERY:
                await pubsub.ping()
                pinged = loop.time()
