"""Quick play's matcher: the server's task that forms tables from the queue.

Every ``MATCH_EVERY`` seconds, and at once when a player joins, it claims the tables to form
(:func:`.quickplay.claim`, one transaction), then makes each one through the hub as a lobby
request would (:meth:`.tables.Hub.create`, :meth:`.tables.LiveTable.take_seat`): the people's
seats taken with fresh tokens, bots (``QUICK_BOT``) in the others; the table starts once its
last seat is taken. Then it stores where each ticket sits (:func:`.quickplay.seated`). A table
that cannot be made puts its tickets back in the queue, and what of it was made is left.
Every server process runs one; the queue's transactions keep them from claiming one ticket
twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets

from .quickplay import Claimed, ClaimLost, claim, release, seated
from .storage import SeatSpec
from .tables import Hub, LiveTable, LobbyError

#: the longest pause between two rounds of matching
MATCH_EVERY = 1.0
#: the level of the bots that fill a quick-play table's empty seats
QUICK_BOT = "medium"

log = logging.getLogger("thousand.server")


class Matcher:
    """The matching task of one server process."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._rounds())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def wake(self) -> None:
        """Match now (a player joined)."""
        self._wake.set()

    async def _rounds(self) -> None:
        while not self.hub.closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), MATCH_EVERY)
            self._wake.clear()
            try:
                await self.round()
            except ClaimLost:
                log.info("quick play: another process claimed a ticket first; matching again")
            except LobbyError as e:  # the database is busy (Unavailable): the next round
                log.warning("quick play: matching waits: %s", e)
            except Exception:
                if self.hub.closing:
                    return
                log.exception("quick play: a round of matching failed; it goes on")

    async def round(self) -> list[str]:
        """One round: claim the tables to form and form them; their ids."""
        async with self._lock:
            claimed = await self.hub.write(claim, self.hub.store, self.hub.now())
            made = []
            for c in claimed:
                table = await self._form(c)
                if table is not None:
                    made.append(table.id)
            return made

    async def _form(self, c: Claimed) -> LiveTable | None:
        specs = [SeatSpec("human") for _ in c.people] + [
            SeatSpec("bot", QUICK_BOT) for _ in range(c.bots)
        ]
        tickets = [ticket for ticket, _ in c.people]
        table: LiveTable | None = None
        places = []
        try:
            table = await self.hub.create(c.template, {}, specs)
            for seat, (ticket, name) in enumerate(c.people):
                account = c.accounts[seat] if seat < len(c.accounts) else None
                taken, token = await table.take_seat(seat, name, secrets.token_urlsafe(24), account)
                places.append((ticket, table.id, taken, token))
            await self.hub.write(seated, self.hub.store, places, self.hub.now())
        except Exception:
            log.exception(
                "quick play: a %s table could not be formed; its players wait", c.template
            )
            await self._undo(table, places, tickets)
            return None
        log.info(
            "quick play: table %s formed, %d people and %d bots", table.id, len(c.people), c.bots
        )
        return table

    async def _undo(
        self, table: LiveTable | None, places: list[tuple[str, str, int, str]], tickets: list[str]
    ) -> None:
        """Put the tickets back in the queue and close what was made of their table."""
        with contextlib.suppress(Exception):
            await self.hub.write(release, self.hub.store, tickets, self.hub.now())
        if table is not None:
            for _, _, seat, _ in places:
                with contextlib.suppress(Exception):
                    await table.leave(seat)
