"""A process's readiness and its graceful shutdown (docs/deploy.md).

``GET /ready`` answers 200 while the process can serve a table: its database answers and, with
``--bus``, its listener is subscribed to the bus; 503 with a sentence otherwise, and from the
moment it is asked to stop. Stopping (:meth:`Lifecycle.drain`, on ``SIGTERM`` or ``SIGINT``):

1. the process turns not-ready at once (a proxy that checks ``/ready`` stops sending it new
   connections) and refuses new WebSockets with :data:`RESTART_CODE`;
2. it keeps serving its connections for ``settle`` seconds (``thousand serve --drain``: longer
   than the proxy takes to see it not-ready);
3. it takes each table's lock in turn, so the move being stored there is stored and told first,
   and closes the table's WebSockets with :data:`RESTART_CODE` and :data:`RESTART_REASON`: the
   clients connect again (through the proxy, to another process) and get a snapshot;
4. then uvicorn's own shutdown runs: no more listening, the app's lifespan lets go of the
   table leases (another process's bots take over at once) and the storage threads finish.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable

from sqlalchemy import text

from .tables import Connection, Hub

log = logging.getLogger("thousand.lifecycle")

#: the WebSocket close code of a process that stops: 1012, "service restart" (RFC 6455's
#: registry): connect again, to this address, and resync
RESTART_CODE = 1012
RESTART_REASON = "the server is restarting: connect again"
#: the sentence of ``/ready`` once the process is stopping
STOPPING = "this server is shutting down: it takes no new connections"
#: seconds ``/ready`` waits for the database's answer
DATABASE_WAIT = 2.0
#: seconds the closed WebSockets have to say goodbye before uvicorn's shutdown goes on
CLOSE_WAIT = 5.0

#: a readiness check: None where it passes, else a sentence that says what is wrong
Check = Callable[[], Awaitable[str | None]]


class Lifecycle:
    """Whether the process is ready, and its drain on the way out."""

    def __init__(self, hub: Hub, settle: float = 0.0) -> None:
        self.hub = hub
        self.settle = settle
        self.draining = False
        #: what must pass for the process to be ready
        self.checks: list[Check] = [self._database, self._bus]
        self._restarted: weakref.WeakSet[Connection] = weakref.WeakSet()

    async def problem(self) -> str | None:
        """Why the process is not ready, or None where it is."""
        if self.draining:
            return STOPPING
        for check in self.checks:
            problem = await check()
            if problem is not None:
                return problem
        return None

    async def _database(self) -> str | None:
        def ask() -> None:
            with self.hub.store.engine.connect() as conn:
                conn.execute(text("SELECT 1"))

        try:
            await asyncio.wait_for(asyncio.to_thread(ask), DATABASE_WAIT)
        except TimeoutError:
            return f"the database does not answer within {DATABASE_WAIT:g} s"
        except Exception as e:
            return f"the database cannot be reached: {type(e).__name__}"
        return None

    async def _bus(self) -> str | None:
        if self.hub.settings.bus is None:
            return None
        if self.hub.bus is None or not self.hub.bus.connected:
            return "the bus (Redis) is not connected: this process would not hear the others"
        return None

    def restarting(self, conn: Connection) -> bool:
        """Whether ``conn`` was closed by the drain (its close says: connect again)."""
        return conn in self._restarted

    async def drain(self) -> None:
        """Steps 1 to 3 of the module's description; uvicorn's shutdown follows."""
        self.draining = True
        log.info("stopping: not ready; the WebSockets close in %g s", self.settle)
        await asyncio.sleep(self.settle)
        closed = 0
        for table in list(self.hub.tables.values()):
            async with table.lock:  # the move being stored there is stored and told first
                for conn in list(table.connections):
                    self._restarted.add(conn)
                    conn.close()
                    closed += 1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CLOSE_WAIT
        while loop.time() < deadline and any(t.connections for t in self.hub.tables.values()):
            await asyncio.sleep(0.05)
        log.info("stopping: %d WebSockets closed with %d", closed, RESTART_CODE)
