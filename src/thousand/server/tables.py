"""Tables in play: the match as a :class:`~thousand.engine.Game`, its seats, its connections.

A table changes only under its lock, one step at a time: check the move, apply it to a copy of
the game, store it (a committed transaction), and only then take the new game and tell every
connection (each seat its own view, spectators the spectator view). Bots move on the server
after ``bot_delay`` seconds, thinking in a worker thread so the event loop stays free.

A write the database cannot take (locked, unreachable) is tried again with growing pauses for
``WRITE_PATIENCE`` seconds, each try logged (logger ``thousand.server``); then the change is
given up and nothing is changed: a person is told ``unavailable``, and the table's own work (a
due deal, a bot's move) waits and resumes by itself when the database is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from ..bots import Bot, Limit, derive_seed, make_bot
from ..bots.hint import expert_hint
from ..bots.pimc import Why
from ..engine import Game, IllegalAction, MoveSyntaxError
from ..engine.actions import action_text
from ..engine.views import game_view, move_json
from ..i18n import language
from ..prose.hints import reason
from ..records import record_of_game, write_record
from ..records.replay import report_json
from ..rules import Rules, RulesError, rules_from_record
from . import protocol, summary
from .analyses import FORMAT, analysis_answer
from .bus import Bus, Change, Move, Notice
from .chat import ChatRoom
from .clocks import Clocks, Played, TimeControl
from .config import Settings
from .rated import participants, seat_ratings
from .rating_store import rate_stored, unrated_of
from .ratings import family_of, seat_stats
from .storage import (
    DealRow,
    HintRow,
    MoveRow,
    SeatRow,
    SeatSpec,
    Store,
    StoreConflict,
    TableRow,
    TableStatus,
    now,
)

#: messages queued for one connection, unsent, before it is cut off
MAX_BACKLOG = 2000
#: connections one seat may have open to its table at once (a few tabs, a reconnect)
SEAT_CONNECTIONS = 8
#: seconds a write is tried again while the database cannot take it, before it is given up
WRITE_PATIENCE = 3.0
#: the first pause before a write (or a table's own work) is tried again, and the longest
RETRY_FIRST = 0.05
RETRY_MOST = 2.0
#: seconds an analysis request waits for the analysis before it is answered "pending"
ANALYSIS_WAIT = 2.0
#: the level of the bot that takes a seat a person leaves during the match (the default level
#: of new tables' bots)
LEAVER_BOT = "medium"
#: the longest pause between two rounds of :meth:`Hub.sweep` (a shorter ``close_idle`` sweeps
#: more often)
SWEEP_MOST = 30.0
#: with a bus, the seconds a table's lease lasts, and between two renewals of every lease a
#: process holds (a process that dies has its tables taken over within about the sum)
LEASE_SECONDS = 4.0
LEASE_RENEW = 1.0

log = logging.getLogger("thousand.server")
T = TypeVar("T")


class LobbyError(ValueError):
    """A lobby request that cannot be done; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Unloadable(LobbyError):
    """A stored table whose rows do not make a game: it is set aside, never played."""

    def __init__(self, table_id: str, problem: str) -> None:
        super().__init__(503, f"table {table_id} cannot be loaded: {problem}")
        self.table_id = table_id

    @classmethod
    def set_aside(cls, table_id: str) -> Unloadable:
        """What a client is told of a table set aside: that it is, not why. The server's log says
        why; a stored deal's problem may name its cards."""
        error = cls(table_id, "")
        error.args = (
            f"table {table_id} cannot be loaded: it is set aside (the server's log says why)",
        )
        return error


class Unavailable(LobbyError):
    """A change the database could not store in time; nothing was changed."""

    def __init__(self) -> None:
        super().__init__(503, "the table could not be saved: the database is busy; try again")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_id() -> str:
    return secrets.token_hex(8)


@dataclass(eq=False)
class Connection:
    """One WebSocket client of a table: its seat (None: a spectator) and its outgoing queue."""

    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    closed: bool = False
    #: the hash of the token the seat was taken with (None: a spectator's)
    holder: str | None = None

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a client that has let ``MAX_BACKLOG`` pile up unread is cut off
        (it may reconnect and get a snapshot) rather than let the server's memory grow."""
        if not self.closed:
            self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (one text for many connections)."""
        if self.closed:
            return
        if self.queue.qsize() >= MAX_BACKLOG:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.close()
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


def encode(message: dict[str, Any]) -> str:
    """A message as the WebSocket sends it."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


Observer = Callable[[str, int, float], None]


class LiveTable:
    """A table the server holds in memory, rebuilt from its stored rows."""

    def __init__(self, row: TableRow, rules: Rules, hub: Hub) -> None:
        self.row = row
        self.rules = rules
        self.hub = hub
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        #: the version each applied intent made, by (seat, the seat's occupancy, intent id)
        self.answered: dict[tuple[int, int, str], int] = {}
        self.bots: dict[int, Bot] = {
            s: make_bot(spec.level or "easy", derive_seed(row.seed, "seat", s))
            for s, spec in enumerate(row.seat_specs)
            if spec.kind == "bot"
        }
        self._bot_task: asyncio.Task[None] | None = None
        #: catching up with the database after another process's notice (:meth:`nudge`)
        self._follow_task: asyncio.Task[None] | None = None
        self._behind = False
        #: moves heard of on the bus, not yet taken, by version
        self._heard: dict[int, Move] = {}
        #: the hint being thought out or given last: (version, seat), and its computation
        self._hint: tuple[tuple[int, int], asyncio.Future[tuple[int, Why]]] | None = None
        #: when a person was last connected (wall-clock seconds), and what the store holds;
        #: a table of an older database, which holds none, counts from now
        self.seen = row.seen if row.seen is not None else hub.now()
        self.seen_stored = row.seen
        self.game = self._rebuild()
        #: a timed table's clocks (None: untimed); a restart starts the running turn afresh
        self.clocks = _clocks_of(row, hub.now())
        #: since when each person's seat has had no open connection (wall-clock seconds)
        self.away: dict[int, float] = {s: hub.now() for s in range(len(row.seat_specs))}
        #: the seats connected to the table through each other process (by the bus)
        self.elsewhere: dict[str, frozenset[int]] = {}
        #: set at each change a timed turn's wait should see (a move, a connection)
        self._wake = asyncio.Event()
        #: the medium bots that move for people whose time ran out, made when first needed
        self._stand_ins: dict[int, Bot] = {}
        #: the shown rating of each seat that has one, in the table's family (beside the names)
        self.ratings: dict[int, int] = {}
        #: the table's chat in this process (:mod:`.chat`)
        self.chat = ChatRoom(self)

    # -- state ------------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def status(self) -> TableStatus:
        return self.row.status

    def _rebuild(self) -> Game:
        """The game from the stored deals and moves, each checked again; :class:`Unloadable`,
        saying what is wrong (and naming no card), where they do not make a game."""
        game = Game.start(self.rules, players=summary.player_names(self.row))
        moves_by_deal: dict[int, list[MoveRow]] = {}
        for m in self.row.moves:
            moves_by_deal.setdefault(m.deal, []).append(m)
            if m.intent_id is not None:
                self.answered[(m.seat, m.occupancy, m.intent_id)] = m.version
        for d in self.row.deals:
            if d.dealer != game.match.dealer:
                raise Unloadable(
                    self.id, f"deal {d.number} was dealt by seat {d.dealer}, not by the dealer due"
                )
            if d.dealt is None:
                raise Unloadable(self.id, f"deal {d.number} cannot be read: {d.unreadable}")
            try:
                game = game.new_deal(d.dealt)
            except ValueError as e:
                raise Unloadable(self.id, f"deal {d.number}: {e}") from None
            for m in moves_by_deal.get(d.number, []):
                if game.deal is None or game.deal.to_act != m.seat:
                    raise Unloadable(self.id, f"the move of version {m.version} is out of turn")
                try:
                    game = game.apply(m.move)
                except ValueError:
                    raise Unloadable(
                        self.id, f"the move of version {m.version} is not legal there"
                    ) from None
        return game

    def free_seats(self) -> list[int]:
        return summary.free_seats(self.row)

    def seat_of(self, token: str) -> int | None:
        digest = token_hash(token)
        for s, seat in enumerate(self.row.seats):
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return s
        return None

    async def seat_of_token(self, token: str) -> int | None:
        """The seat ``token`` holds (None: none). Where this copy knows of none, it first
        catches up with the database: the seat may have been taken through another process a
        moment ago, before its notice reached this one. :class:`Unavailable` where the
        database cannot be read."""
        seat = self.seat_of(token)
        if seat is not None:
            return seat
        try:
            async with self.lock:
                await self._catch_up()
        except (DBAPIError, PoolTimeout) as e:
            raise Unavailable() from e
        return self.seat_of(token)

    def view_json(self, seat: int | None) -> dict[str, Any] | None:
        if self.game.deal is None:
            return None
        return game_view(self.game, seat).to_json(rules=False)

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "snapshot",
            "table": self.id,
            "version": self.version,
            "seat": seat,
            "status": self.status,
            "seats": summary.seats(self.row, self.ratings),
            "rules": self.rules.to_json(),
            "deal": len(self.game.logs),
            "reports": [report_json(r) for r in self.game.reports],
            "view": self.view_json(seat),
            "clocks": self.clocks_json(),
        }

    def clocks_json(self) -> dict[str, Any] | None:
        """The clocks every message shows (:meth:`.clocks.Clocks.to_json`); None: untimed."""
        if self.clocks is None:
            return None
        return self.clocks.to_json(self._clock_to_act(), self.hub.now())

    def record_text(self) -> str:
        """The match's record; a timed table's marks the moves a bot made for a person."""
        marks: dict[int, list[tuple[int, str]]] = {}
        for p in summary.played_for(self.row):
            marks.setdefault(p["deal"], []).append((p["step"] + 1, p["why"]))
        return write_record(record_of_game(self.game, self.row.template, marks))

    # -- seats ------------------------------------------------------------------------------

    async def take_seat(
        self, seat: int | None, name: str, claim: str | None = None, account: str | None = None
    ) -> tuple[int, str]:
        """Take a seat; the token is ``claim`` where the client chose one, so that the same
        request made again (after a lost answer or a server that died) gets the same seat.
        ``account``: the signed-in player's account, linked to the seat (None: a guest)."""
        async with self.lock:
            for _ in range(3):
                try:
                    return await self._take_seat(seat, name, claim, account)
                except StoreConflict:  # another server changed the seats: look again
                    await self._catch_up()
            raise LobbyError(409, f"the seats of table {self.id} keep changing: try again")

    async def _take_seat(
        self, seat: int | None, name: str, claim: str | None, account: str | None
    ) -> tuple[int, str]:
        if self.status == TableStatus.CLOSED:
            raise LobbyError(409, f"table {self.id} is closed")
        if claim is not None and (held := self.seat_of(claim)) is not None:
            if seat is not None and seat != held:
                raise LobbyError(
                    409, f"this claim holds seat {held} of table {self.id}, not seat {seat}"
                )
            return held, claim
        free = self.free_seats()
        if seat is None:
            if not free:
                raise LobbyError(409, f"table {self.id} has no free seat")
            seat = free[0]
        elif not 0 <= seat < len(self.row.seat_specs):
            raise LobbyError(422, f"seat {seat} is not a seat of table {self.id}")
        elif seat not in free:
            raise LobbyError(409, f"seat {seat} of table {self.id} is not free")
        if self.row.rated and account is None:
            raise LobbyError(
                403, f"table {self.id} is rated: only a signed-in player may take its seats"
            )
        token = claim if claim is not None else secrets.token_urlsafe(24)
        before = self.row.seats[seat]
        taken = SeatRow(name, token_hash(token), before.occupancy + 1, account)
        await self.hub.write(self.hub.store.set_seat, self.id, seat, before, taken)
        self.row.seats[seat] = taken
        if self.status == TableStatus.OPEN and not self.free_seats():
            # the table starts here: its lease is taken before the other processes hear of
            # the last seat (each of them would start it too, and might take it first)
            await self.hub.claim(self.id)
        self.hub.announce(self.id, self.version, Change.SEATS)
        self.seen = self.hub.now()
        if not any(c.seat == seat for c in self.connections):
            self.away[seat] = self.seen
        await self.hub.refresh_ratings(self)
        self.game = _renamed(self.game, summary.player_names(self.row))
        self._tell_seats()
        if self.status == TableStatus.OPEN and not self.free_seats():
            await self._start()
        return seat, token

    def people(self) -> list[int]:
        """The seats a person holds (taken human seats)."""
        return [
            s
            for s, spec in enumerate(self.row.seat_specs)
            if spec.kind == "human" and self.row.seats[s].token_hash is not None
        ]

    async def leave(self, seat: int, holder: str | None = None) -> str:
        """A person leaves ``seat``; its token is void from now on. What becomes of the seat
        (the answer): ``"closed"``, the table is closed, where no other person holds a seat of
        a table not yet finished; else ``"bot"``, a medium bot plays the seat on, during the
        match; else ``"free"``, the seat is free for another (before the match starts, or
        after it is over). ``holder``: the hash of the leaver's token, which must still hold
        the seat (another server may have changed it: the table is caught up first)."""
        async with self.lock:
            await self._catch_up()
            if holder is not None and self.row.seats[seat].token_hash != holder:
                raise LobbyError(403, f"this token does not hold seat {seat} of table {self.id}")
            try:
                return await self._leave(seat)
            except StoreConflict:  # another server changed the seat: it is not as asked
                await self._catch_up()
                raise LobbyError(
                    409, f"seat {seat} of table {self.id} was changed meanwhile: look again"
                ) from None

    async def _leave(self, seat: int) -> str:
        # a match that is over keeps the names it was played under (its record's), and
        # the accounts that played it
        before = self.row.seats[seat]
        over = self.status.over
        left = SeatRow(
            before.name if over else None, None, before.occupancy, before.account if over else None
        )
        alone = not [s for s in self.people() if s != seat]
        if not self.status.over and alone:
            outcome = "closed"
        elif self.status == TableStatus.PLAYING:
            outcome = "bot"
        else:
            outcome = "free"
        if outcome == "bot":
            specs = tuple(
                SeatSpec("bot", LEAVER_BOT) if s == seat else spec
                for s, spec in enumerate(self.row.seat_specs)
            )
            await self.hub.write(self.hub.store.seat_to_bot, self.id, specs, seat, before, left)
            self.row.seat_specs = specs
            self.bots[seat] = make_bot(LEAVER_BOT, derive_seed(self.row.seed, "seat", seat))
            if self.clocks is not None:  # a bot's seat has no clock
                self.clocks.banks[seat] = None
        else:
            await self.hub.write(self.hub.store.set_seat, self.id, seat, before, left)
        self.row.seats[seat] = left
        self.hub.announce(self.id, self.version, Change.SEATS)
        self._void(seat)
        if not self.status.over:
            self.game = _renamed(self.game, summary.player_names(self.row))
        if outcome == "closed":
            await self._close()
        else:
            self._tell_seats()
            self._kick_bot()
        return outcome

    def _void(self, seat: int) -> None:
        """The seat's occupant has left: its connections are told so and closed."""
        for conn in list(self.connections):
            if conn.seat == seat:
                conn.send(protocol.error("left", f"seat {seat} was left; this token is void"))
                conn.close()
                self.connections.discard(conn)

    def forget_account(self, account: str, name: str) -> None:
        """The seats of a deleted account go by ``name`` and belong to no account (the store
        has done the same); the caller holds the table's lock."""
        found = False
        for s, held in enumerate(self.row.seats):
            if held.account == account:
                self.row.seats[s] = replace(held, name=name, account=None)
                found = True
        if found:
            self.game = _renamed(self.game, summary.player_names(self.row))
            self._tell_seats()

    async def _close(self) -> None:
        """Close the table (under its lock): it leaves the lists, nothing more is played, and
        every connection is told (a ``seats`` message with status ``closed``). Where another
        server moved the table on meanwhile it is caught up instead, and stays open."""
        try:
            await self.hub.write(
                self.hub.store.set_status, self.id, TableStatus.CLOSED, self.version
            )
        except StoreConflict:
            await self._catch_up()
            return
        self.row.status = TableStatus.CLOSED
        self.hub.announce(self.id, self.version, Change.SEATS)
        self._tell_seats()
        log.info("table %s is closed", self.id)

    async def close_if_idle(self, idle: float) -> bool:
        """Close the table if it is not over and no person has been connected to it for
        ``idle`` seconds; whether it was closed."""
        async with self.lock:
            if self.status.over or self.connections or self.hub.now() - self.seen < idle:
                return False
            if self.hub.bus is not None:  # a person may be connected to another process
                stored = await self.hub.write(self.hub.store.seen_of, self.id)
                if stored is not None and stored > self.seen:
                    self.seen = self.seen_stored = stored
                if self.hub.now() - self.seen < idle:
                    return False
            await self._close()
            return self.status == TableStatus.CLOSED

    def _tell_seats(self) -> None:
        seats = summary.seats(self.row, self.ratings)
        text = encode({"type": "seats", "status": self.status, "seats": seats})
        for conn in self.connections:
            conn.send_text(text)

    # -- hints ------------------------------------------------------------------------------

    async def hint(self, seat: int, lang: str) -> dict[str, Any]:
        """The expert bot's move for ``seat``'s view, and why in ``lang``, thought out in a
        worker process; the hint is stored with the table. Refused (:class:`LobbyError`, nothing
        changed) where another person is seated, or it is not the seat's turn."""
        people = [
            s for s, spec in enumerate(self.row.seat_specs) if spec.kind == "human" and s != seat
        ]
        if people:
            raise LobbyError(409, "a hint is given only at a table where every other seat is a bot")
        if self.status != TableStatus.PLAYING or not self.game.in_deal:
            raise LobbyError(409, f"table {self.id} is {self.status}: no deal is under way")
        assert self.game.deal is not None
        if self.game.deal.to_act != seat:
            raise LobbyError(409, f"it is not seat {seat}'s turn: a hint is for your own move")
        version = self.version
        deal = len(self.game.logs)
        step = len(self.game.logs[-1].moves)
        key = (version, seat)
        if self._hint is None or self._hint[0] != key or _failed(self._hint[1]):
            # one computation a version and seat, however often it is asked
            view = game_view(self.game, seat)
            seed = derive_seed(self.row.seed, "hint", version, seat)
            thinking = self.hub.run_apart(expert_hint, view, seed, self.hub.settings.bot_time)
            self._hint = (key, asyncio.ensure_future(thinking))
        try:
            action, why = await asyncio.shield(self._hint[1])
        except Exception:
            log.exception("table %s: a hint failed", self.id)
            raise LobbyError(503, "the hint could not be thought out: try again") from None
        given = HintRow(version, seat, deal, step, action_text(action))
        if await self.hub.write(self.hub.store.add_hint, self.id, given):
            self.row.hints.append(given)
        with language(lang):
            said = reason(why.kind, why.amount, why.made, why.samples)
        return {
            "table": self.id,
            "version": version,
            "seat": seat,
            "move": given.move,
            "action": move_json(action),
            "reason": said,
        }

    # -- connections ------------------------------------------------------------------------

    def attach(self, conn: Connection) -> None:
        """Add a connection and queue its snapshot (nothing can come between the two)."""
        self.connections.add(conn)
        self.seen = self.hub.now()
        if conn.seat is not None:
            self.away.pop(conn.seat, None)
            self._wake.set()
            self._tell_presence()
        conn.send(self.snapshot(conn.seat))

    def detach(self, conn: Connection) -> None:
        self.connections.discard(conn)
        self.seen = self.hub.now()
        if conn.seat is not None and not any(c.seat == conn.seat for c in self.connections):
            self.away[conn.seat] = self.seen
            self._wake.set()
            self._tell_presence()
        self.hub.trim()

    def present_here(self) -> tuple[int, ...]:
        """The seats with a connection to the table through this process."""
        return tuple(sorted({c.seat for c in self.connections if c.seat is not None}))

    def _tell_presence(self) -> None:
        """Tell the other processes which seats are connected here (a timed table's lease
        holder must not play for a seat connected elsewhere)."""
        self.hub.announce(self.id, self.version, Change.PRESENCE, present=self.present_here())

    def heard_presence(self, origin: str, present: tuple[int, ...]) -> None:
        """Another process says which seats are connected to the table through it: a seat
        connected anywhere is not away."""
        self.elsewhere[origin] = frozenset(present)
        now = self.hub.now()
        for seat in range(len(self.row.seat_specs)):
            anywhere = any(seat in seats for seats in self.elsewhere.values())
            if anywhere:
                self.away.pop(seat, None)
            elif seat not in self.away and not any(c.seat == seat for c in self.connections):
                self.away[seat] = now
        self._wake.set()

    def refusal(self, seat: int | None) -> str | None:
        """Why a new connection for ``seat`` (None: a spectator) cannot join, or None: a
        spectator once the table has ``table_connections``, a seat once it has
        ``SEAT_CONNECTIONS`` of its own."""
        if seat is None:
            cap = self.hub.settings.table_connections
            if len(self.connections) >= cap:
                return f"table {self.id} has {cap} connections, the most it takes: try later"
            return None
        if sum(1 for c in self.connections if c.seat == seat) >= SEAT_CONNECTIONS:
            return f"seat {seat} of table {self.id} has {SEAT_CONNECTIONS} connections already"
        return None

    async def intent(self, conn: Connection, intent: protocol.Intent) -> None:
        """Check, apply, store and tell; an error goes to ``conn`` alone and changes nothing."""
        seat = conn.seat
        if seat is None:
            conn.send(protocol.error("spectator", "a spectator cannot move", intent.id))
            return
        async with self.lock:
            if conn.closed:  # its seat was left while this intent waited for the lock
                return
            key = (seat, self.row.seats[seat].occupancy, intent.id)
            done = self.answered.get(key)
            if done is not None:
                conn.send(protocol.ack(intent.id, done))
                return
            problem = self._refusal(seat, intent)
            if problem is not None:
                conn.send(protocol.error(problem[0], problem[1], intent.id))
                return
            assert self.game.deal is not None
            try:
                action = self.game.deal.check(intent.move)
            except MoveSyntaxError as e:
                conn.send(protocol.error("not_a_move", str(e), intent.id))
                return
            except IllegalAction as e:
                conn.send(protocol.error("illegal", f"{intent.move!r}: {e}", intent.id))
                return
            try:
                await self._commit(seat, action, intent.id)
            except Unavailable as e:
                conn.send(protocol.error("unavailable", str(e), intent.id))
                return
            except StoreConflict:  # another server stored a move first
                await self._stale(conn, intent, key)
                return
            conn.send(protocol.ack(intent.id, self.answered[key]))

    async def _stale(
        self, conn: Connection, intent: protocol.Intent, key: tuple[int, int, str]
    ) -> None:
        """The table moved on through another server while ``intent`` was being stored: catch
        up from the database, refuse the intent as stale (unless it was this very intent,
        sent again through another server) and send the client a snapshot to resync."""
        seen = intent.version
        try:
            await self._catch_up()
        except Unavailable as e:
            conn.send(protocol.error("unavailable", str(e), intent.id))
            return
        done = self.answered.get(key)
        if done is not None:
            conn.send(protocol.ack(intent.id, done))
            return
        message = f"the intent saw version {seen}, the table is at {self.version}"
        conn.send(protocol.error("stale", message, intent.id))
        conn.send(self.snapshot(conn.seat))

    def _refusal(self, seat: int, intent: protocol.Intent) -> tuple[str, str] | None:
        if self.row.seats[seat].token_hash is None:
            return ("left", f"seat {seat} was left")
        if self.status != TableStatus.PLAYING or not self.game.in_deal:
            return ("not_playing", f"table {self.id} is {self.status}: no deal is under way")
        if intent.version != self.version:
            return (
                "stale",
                f"the intent saw version {intent.version}, the table is at {self.version}",
            )
        assert self.game.deal is not None
        if self.game.deal.to_act != seat:
            return ("not_your_turn", f"it is seat {self.game.deal.to_act}'s turn, not {seat}'s")
        return None

    # -- changing the game ------------------------------------------------------------------

    async def _start(self) -> None:
        # with a bus the process that starts the table runs it: it takes the lease before the
        # stored status says "playing" (which the other processes look for)
        await self.hub.claim(self.id)
        self.row.status = TableStatus.PLAYING
        if self.game.deal is None:
            await self._deal_or_defer()
        self._tell_seats()
        self._kick_bot()

    def _deal_due(self) -> bool:
        return self.status == TableStatus.PLAYING and not self.game.in_deal and not self.game.over

    async def _deal_or_defer(self) -> None:
        """Deal the next deal; where the database cannot take it now, the table's worker
        (:meth:`_kick_bot`) deals it once the database is back."""
        with contextlib.suppress(Unavailable):
            await self._deal_next()

    async def _deal_next(self) -> None:
        number = len(self.game.logs) + 1
        rng = random.Random(derive_seed(self.row.seed, "deal", number))
        game = self.game.shuffle_and_deal(rng)
        log = game.logs[-1]
        version = self.version + 1
        clocks = None if self.clocks is None else replace(self.clocks, started=self.hub.now())
        try:
            await self.hub.write(
                self.hub.store.append_deal,
                self.id,
                DealRow(number, version, log.dealer, log.dealt),
                self.status,
                (),
                None if clocks is None else (clocks.started, clocks.banks),
            )
        except StoreConflict:  # another server dealt it (or moved on) first
            await self._catch_up()
            return
        self._clocks_moved(clocks)  # (before the deal is told: its event carries the clocks)
        self._take_deal(game)
        self.hub.announce(self.id, version, Change.DEAL)

    def _take_deal(self, game: Game) -> None:
        """Take the game with its new deal (stored) and tell every connection."""
        self.row.version += 1
        self.game = game
        dealt = game.logs[-1]
        event = {"kind": "deal", "number": len(game.logs), "dealer": dealt.dealer}
        self._broadcast(lambda _seat: event)

    async def _commit(
        self, seat: int, action: int, intent_id: str | None, played: Played | None = None
    ) -> None:
        """Store the move and then take it; :class:`Unavailable` (nothing changed) where the
        database could not store it. A deal due after it is dealt now or by the worker.
        ``played``: why a bot made this person's move (None: the seat's own)."""
        started = self.hub.clock()
        game = self.game.apply(action)
        version = self.version + 1
        status = TableStatus.FINISHED if game.over else self.status
        token = action_text(action)
        occupancy = self.row.seats[seat].occupancy
        clocks = None
        if self.clocks is not None:
            moved = self.hub.now()
            clocks = replace(self.clocks, banks=self.clocks.after_move(seat, moved), started=moved)
        stored = MoveRow(version, len(game.logs), seat, token, intent_id, occupancy, played)
        await self.hub.write(
            self.hub.store.append_move,
            self.id,
            stored,
            status,
            None if clocks is None else (clocks.started, clocks.banks),
        )
        self._clocks_moved(clocks)  # (before the move is told: its event carries the clocks)
        self._take_move(seat, action, game, stored)
        heard = Move(seat, token, intent_id, occupancy, None if played is None else str(played))
        self.hub.announce(self.id, version, Change.MOVE, heard)
        self.hub.observe(self.id, version, self.hub.clock() - started)
        if status == TableStatus.FINISHED:  # (the process that stores the last move rates it)
            await self.hub.rate(self)
            self._tell_seats()
        elif not game.in_deal:
            await self._deal_or_defer()
        self._kick_bot()

    def _take_move(self, seat: int, action: int, game: Game, stored: MoveRow) -> None:
        """Take the game after a move (stored as ``stored``) and tell every connection of it
        (the caller tells them the seats where the match is won)."""
        self.row.version = stored.version
        if game.over:
            self.row.status = TableStatus.FINISHED
        self.game = game
        self.row.moves.append(stored)
        if stored.intent_id is not None:
            self.answered[(seat, stored.occupancy, stored.intent_id)] = stored.version
        report = game.reports[-1] if not game.in_deal else None
        open_pass = self.rules.talon_open_pass

        def event_for(recipient: int | None) -> dict[str, Any]:
            ev = protocol.move_event(seat, action, recipient, open_pass)
            if report is not None:
                ev["report"] = report_json(report)
                ev["winner"] = game.match.winner
            return ev

        self._broadcast(event_for)

    # -- other processes' changes (with a bus) ---------------------------------------------

    def nudge(self, move: tuple[int, Move] | None = None) -> None:
        """Another process changed the table: catch up with the database soon (one catch-up
        at a time, however many notices come meanwhile). A notice's ``move`` (its version and
        the move) is taken as it is where it is the next version, without reading the
        database."""
        if move is not None:
            self._heard[move[0]] = move[1]
        else:
            self._behind = True
        if self._follow_task is None or self._follow_task.done():
            self._follow_task = asyncio.get_running_loop().create_task(self._follow())

    def _take_heard(self) -> bool:
        """Take the moves heard of that follow this copy's version; whether the copy is up to
        every version heard of."""
        while (heard := self._heard.pop(self.version + 1, None)) is not None:
            if self.game.deal is None or self.game.deal.to_act != heard.seat:
                self._heard.clear()
                return False
            try:
                action = self.game.deal.check(heard.move)
            except ValueError:
                self._heard.clear()
                return False
            stored = MoveRow(
                self.version + 1,
                len(self.game.logs),
                heard.seat,
                heard.move,
                heard.intent_id,
                heard.occupancy,
                heard.played,
            )
            self._followed(heard.seat)
            self._take_move(heard.seat, action, self.game.apply(action), stored)
            if self.status == TableStatus.FINISHED:
                self._tell_seats()
        caught_up = not any(v > self.version for v in self._heard)
        self._heard = {v: m for v, m in self._heard.items() if v > self.version}
        return caught_up

    async def _follow(self) -> None:
        pause = RETRY_FIRST
        while (self._behind or self._heard) and not self.hub.closing:
            behind, self._behind = self._behind, False
            try:
                async with self.lock:
                    if self._take_heard() and not behind:
                        self._kick_bot()
                        continue
                    self._heard.clear()
                    await self._catch_up()
            except (Unavailable, DBAPIError, PoolTimeout):
                self._behind = True
                log.warning("table %s: catching up waits %.2f s for the database", self.id, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MOST)
            except Exception:
                if not self.hub.closing:
                    log.exception("table %s: catching up failed", self.id)
                return

    async def _reload(self) -> None:
        """Rebuild the table from the database, whole (under the lock), and send every
        connection a snapshot."""
        row = await self.hub.write(self.hub.store.load, self.id)
        if row is None:
            return
        self.row = row
        self.game = self._rebuild()
        for conn in list(self.connections):
            conn.send(self.snapshot(conn.seat))
        self._kick_bot()

    async def _catch_up(self) -> None:
        """Take what the database holds of the table beyond this copy (under the lock): the
        seats and status, and every deal and move after this version, each told to this
        process's connections as though it had been made here."""
        row = await self.hub.write(self.hub.store.since, self.id, self.version)
        if row is None:
            return
        told_seats = False
        if row.seat_specs != self.row.seat_specs:
            for s, spec in enumerate(row.seat_specs):
                if spec.kind == "bot" and s not in self.bots:
                    level = spec.level or "easy"
                    self.bots[s] = make_bot(level, derive_seed(self.row.seed, "seat", s))
            self.row.seat_specs = row.seat_specs
            told_seats = True
        for s, (old, new) in enumerate(zip(self.row.seats, row.seats, strict=True)):
            if old != new:
                told_seats = True
                if old.token_hash is not None and old.token_hash != new.token_hash:
                    self._void(s)
        self.row.seats = row.seats
        self.row.rematch = row.rematch
        if row.seen is not None and row.seen > self.seen:
            self.seen = self.seen_stored = row.seen
        if not self.status.over:
            self.game = _renamed(self.game, summary.player_names(self.row))
        was = self.status
        steps: list[DealRow | MoveRow] = sorted([*row.deals, *row.moves], key=lambda r: r.version)
        try:
            for step in steps:
                if step.version != self.version + 1:
                    break
                if isinstance(step, DealRow):
                    if step.dealt is None:
                        raise ValueError(f"deal {step.number} cannot be read")
                    self._followed(None)
                    self._take_deal(self.game.new_deal(step.dealt))
                else:
                    assert self.game.deal is not None
                    action = self.game.deal.check(step.move)
                    self._followed(step.seat)
                    self._take_move(step.seat, action, self.game.apply(action), step)
        except ValueError as e:  # (IllegalAction and MoveSyntaxError are ValueErrors)
            log.error("table %s: its copy here does not follow the database (%s)", self.id, e)
            await self._reload()
            return
        if self.version == row.version and row.status != self.status:
            self.row.status = row.status
        if self.clocks is not None and row.banks is not None and self.version == row.version:
            stored = _clocks_of(row, self.clocks.started)  # the banks as the mover kept them
            if stored is not None:
                self.clocks = stored
        if told_seats:
            await self.hub.refresh_ratings(self)
        if told_seats or self.status != was:
            self._tell_seats()
        if self.status == TableStatus.OPEN and not self.free_seats():
            await self._start()  # the last seat was taken through another process
        self._kick_bot()

    def _broadcast(self, event_for: Callable[[int | None], dict[str, Any]]) -> None:
        """Tell every connection of the new version: one view and one text per seat (and one
        for all the spectators), however many connections share it."""
        texts: dict[int | None, str] = {}
        clocks = self.clocks_json()
        for conn in self.connections:
            if conn.seat not in texts:
                texts[conn.seat] = encode(
                    {
                        "type": "event",
                        "version": self.version,
                        "event": event_for(conn.seat),
                        "view": self.view_json(conn.seat),
                        "clocks": clocks,
                    }
                )
            conn.send_text(texts[conn.seat])

    # -- bots -------------------------------------------------------------------------------

    def _bot_to_act(self) -> int | None:
        if self.status != TableStatus.PLAYING or not self.game.in_deal:
            return None
        assert self.game.deal is not None
        seat = self.game.deal.to_act
        return seat if seat in self.bots else None

    def _clock_to_act(self) -> int | None:
        """The person whose clock runs: the seat to act at a timed table, where it is no bot's."""
        if self.clocks is None or self.status != TableStatus.PLAYING or not self.game.in_deal:
            return None
        assert self.game.deal is not None
        seat = self.game.deal.to_act
        return None if seat in self.bots else seat

    def _followed(self, seat: int | None) -> None:
        """The clocks after a change made through another process (``seat``'s move, or a
        deal: None): charged here as the mover charged them, the next turn starting now."""
        if self.clocks is None:
            return
        moved = self.hub.now()
        banks = self.clocks.banks if seat is None else self.clocks.after_move(seat, moved)
        self._clocks_moved(replace(self.clocks, banks=banks, started=moved))

    def _clocks_moved(self, clocks: Clocks | None) -> None:
        """Take the clocks a stored change left (a new turn started) and wake the worker."""
        if clocks is not None:
            self.clocks = clocks
        self._wake.set()

    def _has_work(self) -> bool:
        return (
            self._deal_due() or self._bot_to_act() is not None or self._clock_to_act() is not None
        )

    def _kick_bot(self) -> None:
        """Start the table's worker where it has work: a due deal, a bot's turn, a person's
        turn at a timed table (the worker waits for its deadline)."""
        if self.hub.closing or not self._has_work():
            return
        if not self.hub.leads(self.id):  # another process runs the table's own work
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._bots())

    async def _bots(self) -> None:
        """Deal a due deal and let the bots move, while there is such work. Where the database
        cannot take a change the worker waits, longer each time, and tries again: it never
        gives up on a table (nor moves twice: each step starts from the stored version)."""
        pause = RETRY_FIRST
        while not self.hub.closing and self._has_work():
            if not self.hub.leads(self.id):
                return
            try:
                await self._bot_step()
            except Unavailable:
                log.warning(
                    "table %s: its next change waits %.2f s for the database", self.id, pause
                )
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MOST)
            except Exception:
                if not self.hub.closing:  # closing: the storage threads are gone, that is all
                    log.exception("table %s: its worker stopped", self.id)
                return
            else:
                if pause > RETRY_FIRST:
                    log.warning("table %s goes on: the database is back", self.id)
                pause = RETRY_FIRST

    async def _bot_step(self) -> None:
        if self._deal_due():
            async with self.lock:
                if self._deal_due():
                    await self._deal_next()
            return
        seat = self._bot_to_act()
        if seat is None:
            if (person := self._clock_to_act()) is not None:
                await self._clock_step(person)
            return
        if self.hub.settings.bot_delay > 0:
            await asyncio.sleep(self.hub.settings.bot_delay)
        version = self.version
        view = game_view(self.game, seat)
        limit = Limit(self.hub.settings.bot_time, seed=derive_seed(self.row.seed, version))
        bot = self.bots[seat]
        action = await asyncio.get_running_loop().run_in_executor(None, bot.choose, view, limit)
        async with self.lock:
            if self.version != version or self._bot_to_act() != seat:
                return
            if not self.hub.leads(self.id):
                return
            # the bot chose from the view of this very version, so the move is legal;
            # while this worker runs, _commit starts no second one
            try:
                await self._commit(seat, action, None)
            except StoreConflict:  # the table moved on through another process
                log.warning("table %s: a bot's move was refused: the table moved on", self.id)
                await self._catch_up()

    async def _clock_step(self, seat: int) -> None:
        """A person's turn at a timed table: wait until it is due (its deadline, or the end of
        its grace while it has no connection) or something changes; once due, a medium bot
        makes the move from the seat's own view, marked as played for it."""
        assert self.clocks is not None
        self._wake.clear()
        version = self.version
        at, _ = self.clocks.due(seat, self.away.get(seat))
        wait = at - self.hub.now()
        if wait > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
            return  # the worker looks again: the turn may be over, or due now
        bot = self._stand_ins.get(seat)
        if bot is None:
            bot = make_bot(LEAVER_BOT, derive_seed(self.row.seed, "clock", seat))
            self._stand_ins[seat] = bot
        view = game_view(self.game, seat)
        limit = Limit(self.hub.settings.bot_time, seed=derive_seed(self.row.seed, version))
        action = await asyncio.get_running_loop().run_in_executor(None, bot.choose, view, limit)
        async with self.lock:
            if self.version != version or self._clock_to_act() != seat:
                return  # the seat moved (or left) while the bot thought
            at, why = self.clocks.due(seat, self.away.get(seat))
            if at > self.hub.now():
                return  # the seat came back while the bot thought
            await self._commit(seat, action, None, why)


def _clocks_of(row: TableRow, now: float) -> Clocks | None:
    """A table's clocks as stored (None: untimed). The running turn starts afresh at ``now``:
    the time a server was down is not charged (a killed server cannot tell when it stopped)."""
    if row.clock is None:
        return None
    control = TimeControl.from_json(row.clock)
    people = [spec.kind == "human" for spec in row.seat_specs]
    if row.banks is None or len(row.banks) != len(people):
        return Clocks.fresh(control, people, now)
    return Clocks(control, [b if p else None for b, p in zip(row.banks, people, strict=True)], now)


def _failed(future: asyncio.Future[Any]) -> bool:
    """Whether a computation ended without its answer (failed or cancelled)."""
    return future.done() and (future.cancelled() or future.exception() is not None)


def _renamed(game: Game, names: Sequence[str]) -> Game:
    return replace(game, players=tuple(names))


class Hub:
    """Every live table, the store behind them, and the server's settings."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        #: the tables in memory, the least recently used first: every unfinished one, and
        #: at most ``finished_cache`` finished ones with no connection
        self.tables: OrderedDict[str, LiveTable] = OrderedDict()
        #: the stored tables that could not be loaded, by id, with what is wrong
        self.set_aside: dict[str, str] = {}
        self.closing = False
        self.observers: list[Observer] = []
        self.clock = _clock
        #: the wall clock (seconds since the epoch) of ``seen`` times, which outlive restarts
        self.now: Callable[[], float] = time.time
        self._sweeper: asyncio.Task[None] | None = None
        # SQLite takes one writer at a time; PostgreSQL commits many tables' moves at once
        threads = 1 if store.engine.dialect.name == "sqlite" else 8
        self.writer = ThreadPoolExecutor(threads, thread_name_prefix="thousand-storage")
        self.lease_writer = ThreadPoolExecutor(1, thread_name_prefix="thousand-leases")
        #: heavy work (a table loaded and rebuilt, a record written) runs here, a
        #: few at a time, never on the event loop
        self.heavy = ThreadPoolExecutor(settings.heavy_workers, thread_name_prefix="thousand-heavy")
        self.processes: ProcessPoolExecutor | None = None
        #: the analyses being made, by table id: one per match however many ask
        self.analysing: dict[str, asyncio.Task[str]] = {}
        #: this process, among those that share the database (a bus's notices name it)
        self.origin = new_id()
        #: the bus to the other processes (``settings.bus``), once started
        self.bus: Bus | None = None
        #: with a bus, the tables whose lease this process holds, and until when (the
        #: monotonic clock) the leases renewed last are sure to be held
        self.held: set[str] = set()
        self.held_until = 0.0
        self._leasing: asyncio.Task[None] | None = None
        #: held while the leases are renewed or one is taken (``held`` changes under it)
        self._lease_lock = asyncio.Lock()
        self._adopting: set[str] = set()

    # -- many processes (a bus) -------------------------------------------------------------

    def start_bus(self) -> None:
        """Join the other processes on ``settings.bus``: hear their notices, take leases."""
        if self.settings.bus is None:
            return
        self.bus = Bus(self.settings.bus, self.origin, self._heard, self.resync)
        self.bus.start()
        self._leasing = asyncio.get_running_loop().create_task(self._lease_rounds())

    async def stop_bus(self) -> None:
        """Leave the bus and let go of every lease (the other processes take the tables over
        at once, without waiting for the leases to expire)."""
        if self.bus is None:
            return
        if self._leasing is not None:
            self._leasing.cancel()
        self.held.clear()
        with contextlib.suppress(Exception):
            await self.lease_write(self.store.release_leases, self.origin)
        await self.bus.close()

    def announce(
        self,
        table_id: str,
        version: int,
        change: Change,
        move: Move | None = None,
        present: tuple[int, ...] = (),
    ) -> None:
        """Tell the other processes that a table changed (its change is stored), or who is
        connected to it here (``present``, with :attr:`Change.PRESENCE`)."""
        if self.bus is not None:
            self.bus.publish(table_id, version, change, move, present)

    def leads(self, table_id: str) -> bool:
        """Whether this process runs the table's own work (its bots, its deals): always
        without a bus; with one, while it holds the table's lease."""
        if self.bus is None:
            return True
        return table_id in self.held and time.monotonic() < self.held_until

    async def claim(self, table_id: str) -> None:
        """With a bus, take the lease of a table that has just started, if it is free."""
        if self.bus is None or self.leads(table_id):
            return
        async with self._lease_lock:
            try:
                won = await self.lease_write(
                    self.store.claim_lease, table_id, self.origin, self.now(), LEASE_SECONDS
                )
            except Unavailable:
                return  # the lease rounds take it later
            if won:
                self.held.add(table_id)
                self.held_until = max(self.held_until, time.monotonic() + LEASE_SECONDS / 2)

    def _heard(self, notice: Notice) -> None:
        """Another process changed a table: catch up the copy held here, or load the table."""
        table = self.tables.get(notice.table)
        if table is None:
            self._adopt(notice.table)
            return
        if notice.change == Change.CHAT:
            asyncio.get_running_loop().create_task(table.chat.deliver())
            return
        if notice.change == Change.PRESENCE:
            table.heard_presence(notice.origin, notice.present)
            return
        if notice.change in (Change.MOVE, Change.DEAL) and notice.version <= table.version:
            return  # caught up already
        if notice.change == Change.MOVE and notice.move is not None:
            table.nudge((notice.version, notice.move))
        else:
            table.nudge()

    def _adopt(self, table_id: str) -> None:
        """Load a table another process holds (so that the lists show it), in the
        background."""
        if table_id in self._adopting or table_id in self.set_aside:
            return
        self._adopting.add(table_id)

        async def adopt() -> None:
            try:
                table = await self.fetch(table_id)
                table.nudge()  # (a notice may have come while it was loaded)
            except (LobbyError, DBAPIError, PoolTimeout) as e:
                log.warning("table %s could not be loaded: %s", table_id, e)
            finally:
                self._adopting.discard(table_id)

        asyncio.get_running_loop().create_task(adopt())

    async def resync(self) -> None:
        """Catch every table up with the database, and load those not here yet: the bus has
        (re)connected, and notices may have been lost meanwhile."""
        for table in list(self.tables.values()):
            if not table.status.over:
                table.nudge()
                if table.present_here():
                    table._tell_presence()
        try:
            ids = await self.write(self.store.unfinished)
        except Unavailable:
            log.warning("the tables of the other processes wait for the database")
            return
        for table_id in ids:
            if table_id not in self.tables:
                self._adopt(table_id)

    async def _lease_rounds(self) -> None:
        while not self.closing:
            try:
                await self._lease_round()
            except Unavailable:
                log.warning("the leases wait for the database")
            except Exception:
                if self.closing:
                    return
                log.exception("a round of leases failed; they go on")
            await asyncio.sleep(LEASE_RENEW)

    async def _lease_round(self) -> None:
        """Renew the leases held (where their tables play on), and take the leases that are
        free: of tables just started, or of a process that stopped or died."""
        async with self._lease_lock:
            await self._renew()
        free = await self.lease_write(self.store.unleased, self.now())
        for table_id in free:
            async with self._lease_lock:
                won = await self.lease_write(
                    self.store.claim_lease, table_id, self.origin, self.now(), LEASE_SECONDS
                )
                if won:
                    self.held.add(table_id)
            if not won:
                continue
            try:
                table = await self.fetch(table_id)
            except LobbyError:
                continue
            log.info("table %s: its lease is taken here", table_id)
            table.nudge()  # catch up, then its worker takes on its due work

    async def _renew(self) -> None:
        began = time.monotonic()
        # (a table claimed as it starts is still open for a moment: its lease is kept)
        playing = [t for t in self.held if t in self.tables and not self.tables[t].status.over]
        kept = await self.lease_write(
            self.store.renew_leases, self.origin, playing, self.now(), LEASE_SECONDS
        )
        lost = set(playing) - kept
        for table_id in sorted(lost):
            log.warning("table %s: its lease was taken over by another process", table_id)
        self.held = kept
        self.held_until = began + LEASE_SECONDS
        for table_id in kept:  # a worker that stopped while the leases could not be renewed
            table = self.tables.get(table_id)
            if table is not None:
                table._kick_bot()

    async def write(self, call: Callable[..., T], *args: Any) -> T:
        """Run a storage call in the storage threads (the event loop goes on meanwhile); one
        table waits for its own writes, under its lock, so its changes stay in order. A call
        the database cannot take now is tried again, with growing pauses, for
        ``WRITE_PATIENCE`` seconds, and then :class:`Unavailable`; each try is logged."""
        return await self._write_in(self.writer, call, *args)

    async def lease_write(self, call: Callable[..., T], *args: Any) -> T:
        """:meth:`write` in a thread of the leases' own, so that renewing them never waits
        behind the tables' writes (a lease not renewed in time is lost)."""
        return await self._write_in(self.lease_writer, call, *args)

    async def _write_in(
        self, executor: ThreadPoolExecutor, call: Callable[..., T], *args: Any
    ) -> T:
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + WRITE_PATIENCE
        pause = RETRY_FIRST
        what = getattr(call, "__name__", "write")
        tries = 0
        while True:
            tries += 1
            if self.closing:
                raise Unavailable()
            try:
                result = await loop.run_in_executor(executor, call, *args)
            except (DBAPIError, PoolTimeout) as e:
                if not _transient(e):
                    raise
                if self.closing or time.monotonic() + pause > deadline:
                    log.error("%s failed %d times; given up: %s", what, tries, _reason(e))
                    raise Unavailable() from None
                log.warning(
                    "%s failed (try %d), again in %.2f s: %s", what, tries, pause, _reason(e)
                )
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_MOST)
            else:
                if tries > 1:
                    log.warning("%s succeeded at try %d: the database is back", what, tries)
                return result

    def observe(self, table_id: str, version: int, seconds: float) -> None:
        for o in self.observers:
            o(table_id, version, seconds)

    def load(self) -> None:
        """Every unfinished table from the store, resumed where it was. A table that cannot be
        loaded is reported by id and set aside (in :attr:`set_aside`); the others go on."""
        rows, unreadable = self.store.load_all([TableStatus.OPEN, TableStatus.PLAYING])
        for u in unreadable:
            self._set_aside(u.table_id, f"table {u.table_id} cannot be loaded: {u.problem}")
        for row in rows:
            try:
                self.tables[row.id] = self._rebuilt(row)
            except Unloadable:
                continue

    def _rebuilt(self, row: TableRow) -> LiveTable:
        """The live table of stored rows; :class:`Unloadable` (and the table set aside, its
        problem logged) when they do not make a game, whatever is wrong with them."""
        try:
            return LiveTable(row, rules_from_record(row.template, row.rules), self)
        except Unloadable as e:
            problem = str(e)
        except RulesError as e:
            problem = f"table {row.id} cannot be loaded: {str(e).replace(chr(10), ' ')}"
        except Exception as e:  # whatever else is wrong with its rows: never stop the server
            problem = f"table {row.id} cannot be loaded: {type(e).__name__}: {e}"
        self._set_aside(row.id, problem)
        raise Unloadable.set_aside(row.id)

    def _set_aside(self, table_id: str, problem: str) -> None:
        self.set_aside[table_id] = problem
        log.error("%s; it is set aside", problem)

    async def rate(self, table: LiveTable) -> None:
        """Rate a rated table that has finished (under its lock), once: its participants'
        ratings move by its places; a database that cannot take it now leaves it to the next
        start (:meth:`resume`)."""
        if not table.row.rated or table.status != TableStatus.FINISHED:
            return
        try:
            await self.write(
                rate_stored,
                self.store,
                table.id,
                family_of(table.rules),
                participants(table.row),
                table.game.match.sides(),
                seat_stats(table.game),
                now(),
            )
        except Unavailable:
            log.warning("table %s: its rating waits for the next start", table.id)
            return
        await self.refresh_ratings(table)

    async def refresh_ratings(self, table: LiveTable) -> None:
        """Read the ratings shown beside the table's names again (kept as they were where the
        database cannot answer now)."""
        with contextlib.suppress(Unavailable):
            table.ratings = await self.write(seat_ratings, self.store, table.row, table.rules)

    async def resume(self) -> None:
        """Start what was under way when the server stopped: a due deal, a bot's turn (with a
        bus, the tables whose lease this process takes resume as it takes them); rate the
        rated tables that finished unrated; read the ratings beside the names."""
        for table_id in await self.write(unrated_of, self.store):
            with contextlib.suppress(LobbyError):
                finished = await self.fetch(table_id)
                async with finished.lock:
                    await self.rate(finished)
        for table in list(self.tables.values()):
            await self.refresh_ratings(table)
        for table in list(self.tables.values()):
            async with table.lock:
                if table.status == TableStatus.OPEN and not table.free_seats():
                    await table._start()  # the last seat was taken just before the stop
                elif table.status == TableStatus.PLAYING and self.bus is None:
                    if table._deal_due():
                        await table._deal_or_defer()
                    table._kick_bot()

    async def create(
        self,
        template: str,
        overrides: dict[str, Any],
        specs: Sequence[SeatSpec],
        rematch_of: str | None = None,
        seed: int | None = None,
        rated: bool = False,
        clock: TimeControl | None = None,
    ) -> LiveTable:
        try:
            rules = rules_from_record(template, overrides)
        except RulesError as e:
            raise LobbyError(422, str(e).replace("\n", " ")) from None
        if len(specs) != rules.players_count:
            raise LobbyError(
                422, f"{len(specs)} seats given, the rules seat {rules.players_count} players"
            )
        row = TableRow(
            id=new_id(),
            created=now(),
            template=template,
            rules=dict(overrides),
            seat_specs=tuple(specs),
            seed=secrets.randbelow(2**62) if seed is None else seed,
            status=TableStatus.OPEN,
            version=0,
            rematch_of=rematch_of,
            rated=rated,
            clock=None if clock is None else clock.to_json(),
            seats=[SeatRow() for _ in specs],
        )
        if clock is not None:
            fresh = Clocks.fresh(clock, [s.kind == "human" for s in specs], row.created)
            row.banks, row.turn_started = fresh.banks, fresh.started
        await self.write(self.store.create_table, row)
        table = LiveTable(row, rules, self)
        await self.refresh_ratings(table)
        self._keep(table)
        bots_only = all(s.kind == "bot" for s in specs)
        if bots_only:  # it starts here: the lease first, as a seat's last taker does
            await self.claim(row.id)
        self.announce(row.id, 0, Change.TABLE)
        if rematch_of is not None:
            self.announce(rematch_of, 0, Change.SEATS)
            if rematch_of in self.tables:
                self.tables[rematch_of].row.rematch = row.id
        if bots_only:
            async with table.lock:
                await table._start()
        return table

    def get(self, table_id: str) -> LiveTable:
        """A table, loaded from storage on this thread if it is not in memory
        (:meth:`fetch` loads it in a worker thread)."""
        table = self.tables.get(table_id)
        if table is None:
            return self._keep(self._build(table_id))
        self.tables.move_to_end(table_id)
        self.trim()
        return table

    async def fetch(self, table_id: str) -> LiveTable:
        """A table; one not in memory is loaded and rebuilt in a worker thread."""
        table = self.tables.get(table_id)
        if table is None:
            built = await self.run_heavy(self._build, table_id)
            table = self.tables.get(table_id)
            if table is None:  # (another request may have loaded it meanwhile)
                return self._keep(built)
        self.tables.move_to_end(table_id)
        self.trim()
        return table

    async def run_heavy(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in the heavy-work threads; the event loop goes on meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self.heavy, call, *args)

    async def run_apart(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in a worker process (``heavy_workers`` of them, started when first
        needed): pure Python work long enough that a thread would hold the interpreter's lock
        from the event loop (a replay). ``call`` and its arguments must pickle."""
        if self.processes is None:
            context = multiprocessing.get_context("spawn")
            self.processes = ProcessPoolExecutor(self.settings.heavy_workers, mp_context=context)
        return await asyncio.get_running_loop().run_in_executor(self.processes, call, *args)

    async def analysis(self, table: LiveTable, wait: float = ANALYSIS_WAIT) -> str | None:
        """A finished match's analysis (:mod:`.analyses`) as JSON: the one kept, or one made in
        a worker process, one computation however many ask at once, kept once made. None
        while it is being made after ``wait`` seconds (ask again)."""
        task = self.analysing.get(table.id)
        if task is None:
            kept = await self.run_heavy(self.store.analysis, table.id, FORMAT)
            if kept is not None:
                return kept
            task = self.analysing.get(table.id)  # (another request may have started it)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._analyse(table))
            self.analysing[table.id] = task
            key = table.id

            def forget(_task: asyncio.Task[str]) -> None:
                self.analysing.pop(key, None)

            task.add_done_callback(forget)
        done, _ = await asyncio.wait({task}, timeout=wait)
        if not done:
            return None
        return task.result()

    async def _analyse(self, table: LiveTable) -> str:
        try:
            record_text = await self.run_heavy(table.record_text)
            body = await self.run_apart(analysis_answer, record_text)
        except Exception as e:
            log.exception("table %s: its analysis failed", table.id)
            raise LobbyError(503, f"the analysis of {table.id} could not be made: try again") from e
        try:
            await self.write(self.store.put_analysis, table.id, FORMAT, body)
        except Unavailable:  # answered all the same; made again when next asked
            log.warning("table %s: its analysis could not be kept", table.id)
        return body

    def start_sweeping(self) -> None:
        """Start :meth:`sweep` in rounds, where ``close_idle`` asks for it."""
        if self.settings.close_idle > 0:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_rounds())

    async def _sweep_rounds(self) -> None:
        pause = min(SWEEP_MOST, self.settings.close_idle / 10)
        while not self.closing:
            await asyncio.sleep(pause)
            try:
                await self.sweep()
            except Unavailable:
                log.warning("the sweep of idle tables waits for the database")
            except Exception:
                if self.closing:
                    return
                log.exception("the sweep of idle tables failed; it goes on")

    async def sweep(self) -> list[str]:
        """One round: a table with a connection is seen now; when each table was last seen is
        stored (where it moved on), so a restart knows it; and a table not over that no person
        has been connected to for ``close_idle`` seconds is closed and leaves the lists. The
        ids of the tables closed."""
        now = self.now()
        live = [t for t in list(self.tables.values()) if not t.status.over]
        for table in live:
            if table.connections:
                table.seen = now
        moved = [(t.id, t.seen) for t in live if t.seen_stored is None or t.seen > t.seen_stored]
        if moved:
            await self.write(self.store.set_seen, moved)
            for table in live:
                table.seen_stored = table.seen
        closed = []
        for table in live:
            if await table.close_if_idle(self.settings.close_idle):
                closed.append(table.id)
        if closed:
            self.trim()
        return closed

    def close(self) -> None:
        """Wait for the storage and heavy-work threads; stop the worker processes."""
        for task in list(self.analysing.values()):
            task.cancel()
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.writer.shutdown(wait=True)
        self.lease_writer.shutdown(wait=True)
        self.heavy.shutdown(wait=True)
        if self.processes is not None:
            self.processes.shutdown(wait=True, cancel_futures=True)

    def _build(self, table_id: str) -> LiveTable:
        """A stored table rebuilt: 404 when there is none, 503 when its rows cannot be read or
        do not make a game (it is set aside, and the log says why)."""
        if table_id in self.set_aside:
            raise Unloadable.set_aside(table_id)
        try:
            row = self.store.load(table_id)
        except DBAPIError:  # the database, not the table: a 503 that says it is busy
            raise
        except Exception as e:
            problem = f"table {table_id} cannot be loaded: {type(e).__name__}: {e}"
            self._set_aside(table_id, problem)
            raise Unloadable.set_aside(table_id) from None
        if row is None:
            raise LobbyError(404, f"there is no table {table_id!r}")
        return self._rebuilt(row)

    def _keep(self, table: LiveTable) -> LiveTable:
        self.tables[table.id] = table
        self.trim()
        return table

    def trim(self) -> None:
        """Forget the least recently used finished tables with no connection beyond
        ``finished_cache`` (they are loaded again when asked for)."""
        finished = [t for t in self.tables.values() if t.status.over]
        excess = len(finished) - self.settings.finished_cache
        for table in finished:
            if excess <= 0:
                break
            if not table.connections and not table.lock.locked():
                del self.tables[table.id]
                excess -= 1


def _clock() -> float:
    return time.perf_counter()


def _transient(e: Exception) -> bool:
    """A failure that may pass: a lock held elsewhere, a lost or refused connection."""
    if isinstance(e, DBAPIError):
        return isinstance(e, OperationalError) or e.connection_invalidated
    return True  # the pool had no connection to give in time


def _reason(e: Exception) -> str:
    """The database's own first line, without the statement and its values (which can hold
    a deal's cards)."""
    cause = e.orig if isinstance(e, DBAPIError) else e
    lines = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {lines[0] if lines else ''}"


async def rematch(
    hub: Hub, old: LiveTable, token: str | None, claim: str | None = None
) -> tuple[LiveTable, int | None, str]:
    """The rematch of a finished table, and the asker's seat there: the same seat, under the
    same name, with a new token (``claim`` where the asker chose one). There is one rematch
    per finished table however many ask at once: the first creates it (under the finished
    table's lock, and in the database only while the finished table has none), the others
    join it."""
    if old.status != TableStatus.FINISHED:
        raise LobbyError(409, f"table {old.id} is not finished: a rematch follows a finished match")
    seat = old.seat_of(token) if token else None
    humans = any(s.kind == "human" for s in old.row.seat_specs)
    if humans and seat is None:
        raise LobbyError(403, "only a player of the finished table may start its rematch")
    async with old.lock:
        if old.row.rematch is None:
            try:
                made = await hub.create(
                    old.row.template,
                    old.row.rules,
                    old.row.seat_specs,
                    rematch_of=old.id,
                    rated=old.row.rated,
                    clock=old.clocks.control if old.clocks is not None else None,
                )
            except StoreConflict as e:  # another server made it first
                if e.existing is None:
                    raise
                old.row.rematch = e.existing
            else:
                old.row.rematch = made.id
        assert old.row.rematch is not None
        new = hub.get(old.row.rematch)
    if seat is None:
        return new, None, ""
    held = old.row.seats[seat]
    taken, new_token = await new.take_seat(seat, held.name or f"seat-{seat}", claim, held.account)
    return new, taken, new_token
