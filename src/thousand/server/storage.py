"""Storage: tables, seats, deals and moves in SQLite or PostgreSQL, one schema for both.

Every change a table makes is one transaction that appends a row (a deal or a move, each with
the table's next version) and moves the table's version on; the server tells nobody of a change
before its transaction has committed. A table's record is rebuilt from its rows. SQLite runs in
WAL mode with ``synchronous=NORMAL``: a committed move survives the server being killed (the
operating system holds it), which is what ``kill -9`` tests.

A write that moves a table's version on does so only from the version before it, so a write that
is tried again after its first try committed unseen (the connection dropped at the commit) finds
its own row and does nothing, and a write from a stale copy of the table is refused.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
    select,
    update,
)
from sqlalchemy.engine import ExceptionContext

from ..engine import Dealt

metadata = MetaData()


class TableStatus(StrEnum):
    """Where a table stands: open (waiting for people to sit), playing, finished (won), or
    closed (given up before the end: every person left it, or nobody was at it for the
    server's ``close_idle`` seconds)."""

    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    CLOSED = "closed"

    @property
    def over(self) -> bool:
        """Whether the table is done with: finished or closed."""
        return self in (TableStatus.FINISHED, TableStatus.CLOSED)


tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("template", String(64), nullable=False),
    Column("rules", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),
    #: when a person was last connected (or sat down), for closing a table nobody is at;
    #: null in a table of an older database (counted from when the server loads it)
    Column("seen", Float, nullable=True),
    #: whether the match is rated (chosen at creation): its players' ratings move at its end
    Column("rated", Boolean, nullable=False, server_default=false()),
    #: the time control (:class:`.clocks.TimeControl` as JSON; null: an untimed table), each
    #: seat's bank as the running turn started (a JSON list, null for a bot's seat), and when
    #: that turn started (wall-clock seconds)
    Column("clock", Text, nullable=True),
    Column("banks", Text, nullable=True),
    Column("turn_started", Float, nullable=True),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    #: how many times the seat has been taken: each occupant's intent ids are its own
    Column("occupancy", Integer, nullable=False, server_default="0"),
    #: the account (:mod:`.accounts`) of a signed-in player who took the seat; null for a
    #: guest, a bot, a free seat, and once the account is deleted
    Column("account", String(32), nullable=True, index=True),
)

deals = Table(
    "deals",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("version", Integer, nullable=False),
    Column("dealer", Integer, nullable=False),
    #: the cards as dealt, whole: :meth:`thousand.engine.Dealt.to_json`
    Column("dealt", Text, nullable=False),
)

moves = Table(
    "moves",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("deal", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("move", String(32), nullable=False),
    Column("intent_id", String(64), nullable=True),
    #: the seat's occupancy that sent the intent
    Column("occupancy", Integer, nullable=False, server_default="0"),
    #: why a bot made this person's move (:class:`.clocks.Played`); null: the seat's own move
    Column("played", String(8), nullable=True),
    UniqueConstraint("table_id", "seat", "occupancy", "intent_id", name="uq_moves_intent"),
)

#: the hints a seat asked for (``POST /tables/{id}/hint``): the record has no field for them,
#: so the table keeps them here, one per seat and table version
hints = Table(
    "hints",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    #: the table's version when the hint was given
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    #: the deal (from 1) and how many of its moves had been made
    Column("deal", Integer, nullable=False),
    Column("step", Integer, nullable=False),
    #: the move the hint gave, in the record's words
    Column("move", String(32), nullable=False),
)

#: which server process runs each playing table's own work (its bots, its deals) when several
#: share the database (``thousand serve --bus``): the holder renews its lease every second or so;
#: a lease past ``expires`` (wall-clock seconds) is free for another process to take
leases = Table(
    "leases",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(32), nullable=False),
    Column("expires", Float, nullable=False),
)

#: a finished match's analysis against the solver (:mod:`.analyses`), made once and kept
analyses = Table(
    "analyses",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("format", Integer, nullable=False),
    Column("body", Text, nullable=False),
)


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat as the table was created: a human, or a bot at a level."""

    kind: str
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level}


@dataclass(slots=True)
class SeatRow:
    """A seat: its player's name and token (as a hash), how often it has been taken, and the
    account of the signed-in player who holds it (None: a guest, or nobody)."""

    name: str | None = None
    token_hash: str | None = None
    occupancy: int = 0
    account: str | None = None


@dataclass(frozen=True, slots=True)
class DealRow:
    """A deal as stored: its number (from 1), the table version that dealt it, its dealer and
    every card it handed out, whole."""

    number: int
    version: int
    dealer: int
    #: None where the stored cards cannot be read; ``unreadable`` says why
    dealt: Dealt | None
    unreadable: str | None = None


@dataclass(frozen=True, slots=True)
class MoveRow:
    version: int
    deal: int
    seat: int
    move: str
    intent_id: str | None
    occupancy: int = 0
    #: why a bot made this person's move (``clock``, ``away``); None: the seat's own move
    played: str | None = None


@dataclass(frozen=True, slots=True)
class HintRow:
    """A hint given: at which version, to which seat, in which deal and after how many of its
    moves, and the move it gave."""

    version: int
    seat: int
    deal: int
    step: int
    move: str

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "seat": self.seat,
            "deal": self.deal,
            "step": self.step,
            "move": self.move,
        }


@dataclass(slots=True)
class TableRow:
    """A table as stored, with everything it has done."""

    id: str
    created: float
    template: str
    rules: dict[str, Any]
    seat_specs: tuple[SeatSpec, ...]
    seed: int
    status: TableStatus
    version: int
    rematch_of: str | None = None
    rematch: str | None = None
    seen: float | None = None
    rated: bool = False
    #: the time control as JSON (None: untimed), each seat's bank and when the turn started
    clock: dict[str, Any] | None = None
    banks: list[float | None] | None = None
    turn_started: float | None = None
    seats: list[SeatRow] = field(default_factory=list)
    deals: list[DealRow] = field(default_factory=list)
    moves: list[MoveRow] = field(default_factory=list)
    hints: list[HintRow] = field(default_factory=list)


def database_url(database: str | None, data: Path) -> str:
    """The SQLAlchemy URL: ``postgresql://`` URLs use psycopg 3; the default is SQLite in
    ``data``."""
    if database is None:
        data.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{data / 'thousand.sqlite3'}"
    if database.startswith("postgresql://"):
        return "postgresql+psycopg://" + database[len("postgresql://") :]
    return database


class StoreConflict(RuntimeError):
    """A write that does not follow the stored table: another writer moved it on, or the
    rematch of a finished table exists already (``existing`` names it)."""

    def __init__(self, message: str, existing: str | None = None) -> None:
        super().__init__(message)
        self.existing = existing


#: seconds a write waits for a lock another connection holds before it fails (and is retried)
LOCK_WAIT = 0.2


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Store:
    """The database behind the server. Calls are synchronous and short (one transaction)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = _engine(url, LOCK_WAIT)

    def migrate(self) -> None:
        """Bring the schema to the newest migration (Alembic ``upgrade head``), on a connection
        of its own that waits for locks as long as it takes."""
        from .migrate import upgrade

        engine = _engine(self.url, None)
        try:
            upgrade(engine)
        finally:
            engine.dispose()

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    @contextmanager
    def _snapshot(self) -> Iterator[Connection]:
        """A connection whose reads all see the database as it was at the first: a table's
        row, seats, deals and moves that agree (another server may be writing them meanwhile;
        on PostgreSQL, a repeatable-read transaction)."""
        with self.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            yield conn

    # -- writing ----------------------------------------------------------------------------

    def create_table(self, row: TableRow) -> None:
        """Store a new table. A rematch is stored only while its finished table has none:
        otherwise nothing is stored and :class:`StoreConflict` names the rematch there is."""
        with self._tx() as conn:
            if row.rematch_of is not None:
                claimed = conn.execute(
                    update(tables)
                    .where(tables.c.id == row.rematch_of, tables.c.rematch.is_(None))
                    .values(rematch=row.id)
                )
                if claimed.rowcount != 1:
                    existing = conn.execute(
                        select(tables.c.rematch).where(tables.c.id == row.rematch_of)
                    ).scalar_one_or_none()
                    if existing == row.id:  # a try whose commit went unseen
                        return
                    raise StoreConflict(
                        f"table {row.rematch_of} has a rematch already: {existing}", existing
                    )
            conn.execute(
                tables.insert().values(
                    id=row.id,
                    created=row.created,
                    template=row.template,
                    rules=json.dumps(row.rules, sort_keys=True),
                    seats=json.dumps([s.to_json() for s in row.seat_specs]),
                    seed=row.seed,
                    status=row.status,
                    version=row.version,
                    rematch_of=row.rematch_of,
                    seen=row.created if row.seen is None else row.seen,
                    rated=row.rated,
                    clock=None if row.clock is None else json.dumps(row.clock, sort_keys=True),
                    banks=None if row.banks is None else json.dumps(row.banks),
                    turn_started=row.turn_started,
                )
            )
            conn.execute(
                seats.insert(),
                [
                    {
                        "table_id": row.id,
                        "seat": i,
                        "name": s.name,
                        "token_hash": s.token_hash,
                        "occupancy": s.occupancy,
                        "account": s.account,
                    }
                    for i, s in enumerate(row.seats)
                ],
            )

    def set_seat(self, table_id: str, seat: int, before: SeatRow, row: SeatRow) -> None:
        """Store who holds a seat (a token's hash, or None when it is left), only where the
        seat is still as ``before`` (another server may have changed it meanwhile:
        :class:`StoreConflict`, nothing stored); a try again after its commit went unseen
        finds ``row`` stored and does nothing."""
        with self._tx() as conn:
            _change_seat(conn, table_id, seat, before, row)

    def set_status(self, table_id: str, status: TableStatus, version: int) -> None:
        """Store a table's status, only where it is still at ``version`` (else
        :class:`StoreConflict`, nothing stored)."""
        with self._tx() as conn:
            done = conn.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.version == version)
                .values(status=status)
            )
            if done.rowcount != 1:
                stored = conn.execute(
                    select(tables.c.status).where(tables.c.id == table_id)
                ).scalar_one_or_none()
                if stored != status:
                    raise StoreConflict(f"table {table_id} is not at version {version}")

    def seat_to_bot(
        self,
        table_id: str,
        specs: Sequence[SeatSpec],
        seat: int,
        before: SeatRow,
        row: SeatRow,
    ) -> None:
        """Store a seat a person left as a bot's: the table's seats as ``specs`` now are, and
        the seat's row (no name, no token), in one transaction, only where the seat is still
        as ``before`` (:meth:`set_seat`)."""
        with self._tx() as conn:
            if not _change_seat(conn, table_id, seat, before, row):
                return
            conn.execute(
                update(tables)
                .where(tables.c.id == table_id)
                .values(seats=json.dumps([s.to_json() for s in specs]))
            )

    def set_seen(self, seen: Sequence[tuple[str, float]]) -> None:
        """Store when a person was last at each of these tables."""
        with self._tx() as conn:
            for table_id, when in seen:
                conn.execute(update(tables).where(tables.c.id == table_id).values(seen=when))

    def append_deal(
        self,
        table_id: str,
        deal: DealRow,
        status: TableStatus,
        names: Sequence[str | None] = (),
        clock: ClockWrite | None = None,
    ) -> None:
        """Store a new deal (and the table's status, and a timed table's clocks) as version
        ``deal.version``."""
        with self._tx() as conn:
            if not _advance(conn, table_id, deal.version, status):
                stored = conn.execute(
                    select(deals.c.number).where(
                        deals.c.table_id == table_id, deals.c.version == deal.version
                    )
                ).scalar_one_or_none()
                if stored == deal.number:
                    return
                raise StoreConflict(f"table {table_id} is not at version {deal.version - 1}")
            _set_clock(conn, table_id, clock)
            conn.execute(
                deals.insert().values(
                    table_id=table_id,
                    number=deal.number,
                    version=deal.version,
                    dealer=deal.dealer,
                    dealt=json.dumps(_dealt(deal).to_json(), separators=(",", ":")),
                )
            )

    def append_move(
        self, table_id: str, move: MoveRow, status: TableStatus, clock: ClockWrite | None = None
    ) -> None:
        """Store a move (and the table's status, and a timed table's clocks) as version
        ``move.version``."""
        with self._tx() as conn:
            if not _advance(conn, table_id, move.version, status):
                stored = conn.execute(
                    select(moves.c.seat, moves.c.move, moves.c.intent_id, moves.c.occupancy).where(
                        moves.c.table_id == table_id, moves.c.version == move.version
                    )
                ).first()
                mine = (move.seat, move.move, move.intent_id, move.occupancy)
                if stored is not None and tuple(stored) == mine:  # a try again
                    return
                raise StoreConflict(f"table {table_id} is not at version {move.version - 1}")
            _set_clock(conn, table_id, clock)
            conn.execute(
                moves.insert().values(
                    table_id=table_id,
                    version=move.version,
                    deal=move.deal,
                    seat=move.seat,
                    move=move.move,
                    intent_id=move.intent_id,
                    occupancy=move.occupancy,
                    played=move.played,
                )
            )

    def add_hint(self, table_id: str, hint: HintRow) -> bool:
        """Store a hint given; False (nothing stored) where that seat had one at that version
        already."""
        with self._tx() as conn:
            stored = conn.execute(
                select(hints.c.version).where(
                    hints.c.table_id == table_id,
                    hints.c.version == hint.version,
                    hints.c.seat == hint.seat,
                )
            ).first()
            if stored is not None:
                return False
            conn.execute(hints.insert().values(table_id=table_id, **hint.to_json()))
            return True

    def put_analysis(self, table_id: str, format: int, body: str) -> None:
        """Keep a finished match's analysis (in place of one of another format)."""
        with self._tx() as conn:
            conn.execute(analyses.delete().where(analyses.c.table_id == table_id))
            conn.execute(analyses.insert().values(table_id=table_id, format=format, body=body))

    # -- leases -----------------------------------------------------------------------------

    def claim_lease(self, table_id: str, owner: str, now: float, seconds: float) -> bool:
        """Take the lease of a table for ``seconds`` from ``now``, where it is free (none,
        expired, or ``owner``'s own); whether it was taken."""
        with self._tx() as conn:
            if conn.dialect.name == "postgresql":
                from sqlalchemy.dialects.postgresql import insert as pg_insert

                statement: Any = pg_insert(leases)
            else:
                from sqlalchemy.dialects.sqlite import insert as lite_insert

                statement = lite_insert(leases)
            statement = statement.values(table_id=table_id, owner=owner, expires=now + seconds)
            statement = statement.on_conflict_do_update(
                index_elements=[leases.c.table_id],
                set_={"owner": owner, "expires": now + seconds},
                where=(leases.c.expires < now) | (leases.c.owner == owner),
            )
            # (the row comes back where it was inserted or updated; rowcount is not to be
            # trusted for an upsert)
            return conn.execute(statement.returning(leases.c.owner)).first() is not None

    def renew_leases(
        self, owner: str, table_ids: Sequence[str], now: float, seconds: float
    ) -> set[str]:
        """Renew ``owner``'s leases of ``table_ids`` and let go of its others; the tables whose
        lease it holds now (one taken over by another process is not among them)."""
        with self._tx() as conn:
            conn.execute(
                leases.delete().where(
                    leases.c.owner == owner, leases.c.table_id.not_in(list(table_ids))
                )
            )
            if table_ids:
                conn.execute(
                    update(leases)
                    .where(leases.c.owner == owner, leases.c.table_id.in_(list(table_ids)))
                    .values(expires=now + seconds)
                )
            return set(
                conn.execute(select(leases.c.table_id).where(leases.c.owner == owner)).scalars()
            )

    def release_leases(self, owner: str) -> None:
        """Let go of every lease ``owner`` holds (a server that stops)."""
        with self._tx() as conn:
            conn.execute(leases.delete().where(leases.c.owner == owner))

    def unleased(self, now: float) -> list[str]:
        """The playing tables whose lease is free: none, or expired at ``now``."""
        with self.engine.connect() as conn:
            live = select(leases.c.table_id).where(leases.c.expires >= now)
            found = conn.execute(
                select(tables.c.id)
                .where(tables.c.status == TableStatus.PLAYING, tables.c.id.not_in(live))
                .order_by(tables.c.created)
            ).scalars()
            return list(found)

    # -- reading ----------------------------------------------------------------------------

    def unfinished(self) -> list[str]:
        """The ids of the tables not over (open or playing)."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(tables.c.id).where(
                    tables.c.status.in_([TableStatus.OPEN, TableStatus.PLAYING])
                )
            ).scalars()
            return list(found)

    def since(self, table_id: str, version: int) -> TableRow | None:
        """A table as stored now, with its seats, but only the deals and moves after
        ``version`` (no hints): what a copy of the table at ``version`` has to catch up on."""
        with self._snapshot() as conn:
            found = conn.execute(select(tables).where(tables.c.id == table_id)).first()
            if found is None:
                return None
            row = _table(found._mapping)
            row.seats = _seats(conn, table_id)
            row.deals = [
                _deal_row(d)
                for d in conn.execute(
                    select(deals)
                    .where(deals.c.table_id == table_id, deals.c.version > version)
                    .order_by(deals.c.number)
                )
            ]
            row.moves = [
                MoveRow(x.version, x.deal, x.seat, x.move, x.intent_id, x.occupancy)
                for x in conn.execute(
                    select(moves)
                    .where(moves.c.table_id == table_id, moves.c.version > version)
                    .order_by(moves.c.version)
                )
            ]
            return row

    def seen_of(self, table_id: str) -> float | None:
        """When a person was last at a table, as stored."""
        with self.engine.connect() as conn:
            seen: float | None = conn.execute(
                select(tables.c.seen).where(tables.c.id == table_id)
            ).scalar_one_or_none()
            return seen

    def analysis(self, table_id: str, format: int) -> str | None:
        """A finished match's analysis as kept, or None (none, or one of another format)."""
        with self.engine.connect() as conn:
            body: str | None = conn.execute(
                select(analyses.c.body).where(
                    analyses.c.table_id == table_id, analyses.c.format == format
                )
            ).scalar_one_or_none()
            return body

    def load(self, table_id: str) -> TableRow | None:
        with self._snapshot() as conn:
            found = conn.execute(select(tables).where(tables.c.id == table_id)).first()
            if found is None:
                return None
            return self._full(conn, found._mapping)

    def load_all(self, statuses: Sequence[TableStatus]) -> tuple[list[TableRow], list[Unreadable]]:
        """Every table in one of ``statuses``, with its seats, deals and moves; and the tables
        whose rows cannot be read, each with what is wrong (they are left as they are)."""
        loaded: list[TableRow] = []
        unreadable: list[Unreadable] = []
        with self._snapshot() as conn:
            found = conn.execute(
                select(tables).where(tables.c.status.in_(list(statuses))).order_by(tables.c.created)
            ).all()
            for r in found:
                try:
                    loaded.append(self._full(conn, r._mapping))
                except UnreadableRow as e:
                    unreadable.append(Unreadable(r._mapping["id"], str(e)))
            return loaded, unreadable

    def finished(self, limit: int | None = None, offset: int = 0) -> list[TableRow]:
        """The finished tables, newest first, without their deals and moves: ``limit`` of
        them (None: all) from the ``offset``-th on."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(tables)
                .where(tables.c.status == TableStatus.FINISHED)
                .order_by(tables.c.created.desc(), tables.c.id)
                .limit(limit)
                .offset(offset)
            ).all()
            rows = [_table(r._mapping) for r in found]
            for row in rows:
                row.seats = _seats(conn, row.id)
                row.hints = _hints(conn, row.id)
            return rows

    def _full(self, conn: Connection, m: Any) -> TableRow:
        """A table's row with its seats, deals and moves; :class:`UnreadableRow` where a row
        cannot be read."""
        try:
            row = _table(m)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise UnreadableRow(f"its row in 'tables' cannot be read: {e}") from None
        row.seats = _seats(conn, row.id)
        row.deals = [
            _deal_row(d)
            for d in conn.execute(
                select(deals).where(deals.c.table_id == row.id).order_by(deals.c.number)
            )
        ]
        row.moves = [
            MoveRow(x.version, x.deal, x.seat, x.move, x.intent_id, x.occupancy, x.played)
            for x in conn.execute(
                select(moves).where(moves.c.table_id == row.id).order_by(moves.c.version)
            )
        ]
        row.hints = _hints(conn, row.id)
        return row


def _dealt(deal: DealRow) -> Dealt:
    if deal.dealt is None:
        raise ValueError(f"deal {deal.number} has no cards to store")
    return deal.dealt


class UnreadableRow(ValueError):
    """A stored row that cannot be read back (damaged, or written by something else)."""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A table whose rows cannot be read: its id and what is wrong."""

    table_id: str
    problem: str


def _deal_row(d: Any) -> DealRow:
    """A stored deal; one whose cards cannot be read comes back without them, saying why (the
    table that holds it cannot be loaded, and says so)."""
    try:
        return DealRow(d.number, d.version, d.dealer, Dealt.from_json(json.loads(d.dealt)))
    except ValueError as e:
        return DealRow(d.number, d.version, d.dealer, None, str(e))


def _engine(url: str, lock_wait: float | None) -> Engine:
    """An engine whose connections wait ``lock_wait`` seconds for a lock (None: as long as it
    takes) and then fail, so that a locked database is a failure the server retries and
    reports, not a request that hangs."""
    sqlite = url.startswith("sqlite")
    args: dict[str, Any] = {}
    if lock_wait is not None:
        if sqlite:
            args["timeout"] = lock_wait
        else:
            ms = round(lock_wait * 1000)
            args["options"] = f"-c lock_timeout={ms}"
            args["connect_timeout"] = 3
    engine = create_engine(url, future=True, connect_args=args)
    if sqlite:
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        event.listen(engine, "handle_error", _lost_connection)
    return engine


def _lost_connection(context: ExceptionContext) -> None:
    """Count an error that PostgreSQL did not send (it has no SQLSTATE) as a lost connection.

    psycopg can find a connection's socket closed ("connection socket closed") before libpq
    marks the connection broken. SQLAlchemy would then take it for a live one and hand it
    back to the pool, whose rollback on it fails and is logged as a traceback. Counted as
    lost, it is discarded, and the retry takes a new one."""
    error = context.original_exception
    if isinstance(error, psycopg.OperationalError) and error.sqlstate is None:
        context.is_disconnect = True


#: a timed table's clocks as a change leaves them: when the next turn started, each seat's bank
ClockWrite = tuple[float, Sequence[float | None]]


def _set_clock(conn: Connection, table_id: str, clock: ClockWrite | None) -> None:
    """Store a timed table's clocks (in the transaction of the change that moved them)."""
    if clock is not None:
        started, banks = clock
        conn.execute(
            update(tables)
            .where(tables.c.id == table_id)
            .values(turn_started=started, banks=json.dumps(list(banks)))
        )


def _change_seat(conn: Connection, table_id: str, seat: int, before: SeatRow, row: SeatRow) -> bool:
    """Change a seat from ``before`` to ``row``: True where it changed, False where it was
    ``row`` already (a try again); :class:`StoreConflict` where it is neither."""
    held = (
        seats.c.token_hash.is_(None)
        if before.token_hash is None
        else seats.c.token_hash == before.token_hash
    )
    done = conn.execute(
        update(seats)
        .where(
            seats.c.table_id == table_id,
            seats.c.seat == seat,
            seats.c.occupancy == before.occupancy,
            held,
        )
        .values(
            name=row.name,
            token_hash=row.token_hash,
            occupancy=row.occupancy,
            account=row.account,
        )
    )
    if done.rowcount == 1:
        return True
    stored = conn.execute(
        select(seats.c.name, seats.c.token_hash, seats.c.occupancy, seats.c.account).where(
            seats.c.table_id == table_id, seats.c.seat == seat
        )
    ).first()
    if stored is not None and SeatRow(*stored) == row:
        return False
    raise StoreConflict(f"seat {seat} of table {table_id} was changed by another server")


def _advance(conn: Connection, table_id: str, version: int, status: TableStatus) -> bool:
    """Move a table from ``version - 1`` to ``version``; False if it is not at ``version - 1``."""
    done = conn.execute(
        update(tables)
        .where(tables.c.id == table_id, tables.c.version == version - 1)
        .values(version=version, status=status)
    )
    return bool(done.rowcount == 1)


def _table(m: Any) -> TableRow:
    return TableRow(
        id=m["id"],
        created=m["created"],
        template=m["template"],
        rules=json.loads(m["rules"]),
        seat_specs=tuple(SeatSpec(s["kind"], s.get("level")) for s in json.loads(m["seats"])),
        seed=m["seed"],
        status=TableStatus(m["status"]),
        version=m["version"],
        rematch_of=m["rematch_of"],
        rematch=m["rematch"],
        seen=m["seen"],
        rated=bool(m["rated"]),
        clock=None if m["clock"] is None else json.loads(m["clock"]),
        banks=None if m["banks"] is None else json.loads(m["banks"]),
        turn_started=m["turn_started"],
    )


def _seats(conn: Connection, table_id: str) -> list[SeatRow]:
    return [
        SeatRow(s.name, s.token_hash, s.occupancy, s.account)
        for s in conn.execute(
            select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)
        )
    ]


def _hints(conn: Connection, table_id: str) -> list[HintRow]:
    return [
        HintRow(h.version, h.seat, h.deal, h.step, h.move)
        for h in conn.execute(
            select(hints)
            .where(hints.c.table_id == table_id)
            .order_by(hints.c.version, hints.c.seat)
        )
    ]


def now() -> float:
    return time.time()
