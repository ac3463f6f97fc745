"""Quick play's queue, kept in the database so that every server process on it shares one.

A player joins with a template, the most seconds to wait for people, and a name; the queue
gives a ticket: an id, and a token that acts for it (stored as a hash, like a seat's token). A
ticket is ``waiting``, then ``forming`` while a server forms its table, then ``seated`` at
a table's seat, whose token the queue keeps until the ticket's holder is given it, once.

Forming a table takes two transactions around the table's creation (which the hub stores in
transactions of its own): :func:`claim` picks the tables to form (:mod:`.quickplay_rule`) and
moves their tickets from ``waiting`` to ``forming``, reading the waiting tickets under row
locks on PostgreSQL (``FOR UPDATE SKIP LOCKED``: another process forming tables at the same
moment sees none of them) and moving each only from ``waiting``: a round that finds one moved
already (SQLite reads without a lock, and takes one writer at a time) is undone
(:class:`ClaimLost`) and matched again. So no two processes ever claim one ticket. Once the
table is made and its seats are taken, :func:`seated` stores each ticket's table, seat and
token. A process that dies between the two leaves its tickets ``forming``: after
``FORMING_STALE`` seconds they wait again.

The queue tidies itself as it is matched: a waiting ticket whose holder has not asked after it
for ``ABANDONED`` seconds leaves the queue (nobody would come to its table), and a seated one
is forgotten ``KEEP_SEATED`` seconds after it was seated.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Float,
    Index,
    Integer,
    String,
    Table,
    delete,
    func,
    or_,
    select,
    update,
)

from ..rules import TEMPLATES, RulesError, rules_from_record
from .quickplay_rule import Forming, Waiter, tables_to_form
from .rating_store import standings_of
from .ratings import Rating, family_of, participant_of_account
from .storage import Store, TableStatus, metadata, tables
from .summary import websocket_path
from .tables import LobbyError, new_id, token_hash

#: the most seconds a player may choose to wait for people before bots fill the other seats
WAIT_MOST = 300
#: seconds a waiting ticket stays in the queue without its holder asking after it
ABANDONED = 60.0
#: seconds after which a table still forming is taken to be given up (its process died)
FORMING_STALE = 120.0
#: seconds a seated ticket is kept (its holder may ask where it sits) before it is forgotten
KEEP_SEATED = 3600.0
#: the name a player who gives none plays under
DEFAULT_NAME = "player"


class TicketState(StrEnum):
    WAITING = "waiting"
    FORMING = "forming"
    SEATED = "seated"


quick_tickets = Table(
    "quick_tickets",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("template", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    #: the signed-in player's account (None: a guest)
    Column("account", String(64), nullable=True),
    #: the address that joined, for the limit on what one address may hold
    Column("address", String(64), nullable=False),
    #: the shown rating matching goes by (a guest's: a newcomer's)
    Column("rating", Integer, nullable=False),
    #: the most seconds the player waits for people, when it joined, when it last asked
    Column("wait", Float, nullable=False),
    Column("joined", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("state", String(16), nullable=False),
    #: when the state last changed
    Column("changed", Float, nullable=False),
    Column("table_id", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
    #: the seat's token, until the ticket's holder is given it
    Column("seat_token", String(64), nullable=True),
    Index("ix_quick_tickets_state_template", "state", "template"),
    Index("ix_quick_tickets_address", "address"),
)


@dataclass(frozen=True, slots=True)
class Joined:
    ticket: str
    token: str
    rating: int


@dataclass(frozen=True, slots=True)
class TicketView:
    """A ticket as its holder is told: waiting (for how long, with how many others of its
    template), or seated (where, with the seat's token the first time it is told)."""

    ticket: str
    state: TicketState
    template: str
    rating: int
    wait: float
    waited: float
    waiting: int
    table: str | None = None
    seat: int | None = None
    token: str | None = None

    def to_json(self) -> dict[str, Any]:
        shown = TicketState.WAITING if self.state == TicketState.FORMING else self.state
        answer: dict[str, Any] = {
            "ticket": self.ticket,
            "state": shown,
            "template": self.template,
            "rating": self.rating,
            "wait": self.wait,
            "waited": round(self.waited, 1),
        }
        if shown == TicketState.WAITING:
            answer["waiting"] = self.waiting
        else:
            assert self.table is not None
            answer.update(
                table=self.table,
                seat=self.seat,
                token=self.token,
                websocket=websocket_path(self.table),
            )
        return answer


@dataclass(frozen=True, slots=True)
class Claimed:
    """A table to form, its tickets claimed: the template, the people (ticket and name, in
    seat order), the number of bots, and each person's account (None: a guest)."""

    template: str
    people: tuple[tuple[str, str], ...]
    bots: int
    accounts: tuple[str | None, ...] = ()


@cache
def seats_of(template: str) -> int:
    """The players a template seats."""
    return rules_from_record(template, {}).players_count


def checked_template(template: str) -> str:
    """``template`` when quick play offers it, else a 422 that names the templates."""
    if template not in TEMPLATES:
        raise LobbyError(
            422, f"unknown template {template!r}: the templates are {', '.join(TEMPLATES)}"
        )
    try:
        seats_of(template)
    except RulesError as e:  # a template not yet playable
        raise LobbyError(422, f"template {template!r} cannot be played: {e}") from None
    return template


def checked_wait(wait: float) -> float:
    if not 0 <= wait <= WAIT_MOST:
        raise LobbyError(422, f"the wait must be 0 to {WAIT_MOST} seconds, not {wait:g}")
    return float(wait)


def rating_of(conn: Connection, template: str, account: str | None) -> int:
    """The shown rating quick play matches a player by: the account's in the template's
    family, a newcomer's for a guest or an account not yet rated there."""
    if account is not None:
        family = family_of(rules_from_record(template, {}))
        for standing in standings_of(conn, participant_of_account(account)):
            if standing.family == family:
                return standing.rating.shown
    return Rating().shown


def join(
    store: Store,
    template: str,
    wait: float,
    name: str,
    account: str | None,
    address: str,
    most: int,
    now: float,
) -> Joined:
    """Put a player in the queue (``template``, ``wait`` and ``name`` checked already). An
    address may hold ``most`` tickets that wait or sit at a table not over (429 beyond); an
    account, one ticket in the queue (409 for another: it would sit with itself)."""
    token = secrets.token_urlsafe(24)
    ticket = new_id()
    with store.engine.begin() as conn:
        held = conn.execute(
            select(func.count())
            .select_from(quick_tickets.outerjoin(tables, tables.c.id == quick_tickets.c.table_id))
            .where(
                quick_tickets.c.address == address,
                or_(
                    quick_tickets.c.state != TicketState.SEATED,
                    tables.c.status.in_([TableStatus.OPEN, TableStatus.PLAYING]),
                ),
            )
        ).scalar_one()
        if held >= most:
            raise LobbyError(
                429,
                f"this address has {most} tickets waiting or at tables not yet finished, the "
                "most it may have: finish one before joining again",
            )
        if account is not None:
            queued = conn.execute(
                select(quick_tickets.c.id).where(
                    quick_tickets.c.account == account,
                    quick_tickets.c.state != TicketState.SEATED,
                )
            ).first()
            if queued is not None:
                raise LobbyError(
                    409,
                    f"this account is in the quick-play queue already (ticket {queued.id}): "
                    "leave it before joining again",
                )
        rating = rating_of(conn, template, account)
        conn.execute(
            quick_tickets.insert().values(
                id=ticket,
                token_hash=token_hash(token),
                template=template,
                name=name,
                account=account,
                address=address[:64],
                rating=rating,
                wait=wait,
                joined=now,
                seen=now,
                state=TicketState.WAITING,
                changed=now,
            )
        )
    return Joined(ticket, token, rating)


def _held(conn: Connection, ticket: str, token: str | None, lock: bool) -> Any:
    """The ticket's row, where ``token`` holds it: 404 where there is no such ticket, 403
    where the token is not its."""
    query = select(quick_tickets).where(quick_tickets.c.id == ticket)
    if lock and conn.dialect.name == "postgresql":
        query = query.with_for_update()
    row = conn.execute(query).first()
    if row is None:
        raise LobbyError(404, f"there is no ticket {ticket!r} in the quick-play queue")
    if token is None or not secrets.compare_digest(row.token_hash, token_hash(token)):
        raise LobbyError(403, f"this token does not hold ticket {ticket}")
    return row


def ticket_view(store: Store, ticket: str, token: str | None, now: float) -> TicketView:
    """The ticket as its holder is told (it is seen now: it stays in the queue); a seated
    ticket's seat token is in the first answer that finds it seated, and in no other."""
    with store.engine.begin() as conn:
        row = _held(conn, ticket, token, lock=True)
        conn.execute(update(quick_tickets).where(quick_tickets.c.id == ticket).values(seen=now))
        given = None
        if row.state == TicketState.SEATED and row.seat_token is not None:
            # given by the answer that clears it (not by one that read it as another cleared it)
            taken = conn.execute(
                update(quick_tickets)
                .where(quick_tickets.c.id == ticket, quick_tickets.c.seat_token == row.seat_token)
                .values(seat_token=None)
            )
            given = row.seat_token if taken.rowcount == 1 else None
        waiting = 0
        if row.state != TicketState.SEATED:
            waiting = conn.execute(
                select(func.count()).where(
                    quick_tickets.c.template == row.template,
                    quick_tickets.c.state != TicketState.SEATED,
                )
            ).scalar_one()
    waited_until = row.changed if row.state == TicketState.SEATED else now
    return TicketView(
        ticket=ticket,
        state=TicketState(row.state),
        template=row.template,
        rating=row.rating,
        wait=row.wait,
        waited=max(0.0, waited_until - row.joined),
        waiting=waiting,
        table=row.table_id,
        seat=row.seat,
        token=given,
    )


def leave(store: Store, ticket: str, token: str | None) -> None:
    """Take a waiting ticket out of the queue; 409, nothing changed, where its table is being
    formed or it is seated."""
    with store.engine.begin() as conn:
        row = _held(conn, ticket, token, lock=True)
        if row.state == TicketState.WAITING:
            gone = conn.execute(
                delete(quick_tickets).where(
                    quick_tickets.c.id == ticket, quick_tickets.c.state == TicketState.WAITING
                )
            )
            if gone.rowcount == 1:
                return
            row = _held(conn, ticket, token, lock=True)  # claimed meanwhile: say so
        if row.state == TicketState.FORMING:
            raise LobbyError(
                409, f"a table is being formed for ticket {ticket}: ask where it sits in a moment"
            )
        if row.state == TicketState.SEATED:
            raise LobbyError(
                409,
                f"ticket {ticket} is seated at table {row.table_id} already: leave the table "
                "instead",
            )


def claim(store: Store, now: float, seats: Callable[[str], int] = seats_of) -> list[Claimed]:
    """One round of matching: tidy the queue, pick the tables to form now from the waiting
    tickets no other process is forming tables from, and claim their tickets (``forming``)."""
    postgres = store.engine.dialect.name == "postgresql"
    with store.engine.begin() as conn:
        stale = select(quick_tickets.c.id).where(
            quick_tickets.c.state == TicketState.FORMING,
            quick_tickets.c.changed < now - FORMING_STALE,
        )
        old = select(quick_tickets.c.id).where(
            quick_tickets.c.state == TicketState.SEATED,
            quick_tickets.c.changed < now - KEEP_SEATED,
        )
        waiting = select(quick_tickets).where(quick_tickets.c.state == TicketState.WAITING)
        if postgres:
            stale = stale.with_for_update(skip_locked=True)
            old = old.with_for_update(skip_locked=True)
            waiting = waiting.order_by(quick_tickets.c.id).with_for_update(skip_locked=True)
        _set_state(conn, list(conn.execute(stale).scalars()), TicketState.WAITING, now)
        gone = list(conn.execute(old).scalars())
        rows = list(conn.execute(waiting))
        gone += [r.id for r in rows if r.seen < now - ABANDONED]
        if gone:
            conn.execute(delete(quick_tickets).where(quick_tickets.c.id.in_(gone)))
        names = {r.id: r.name for r in rows}
        accounts = {r.id: r.account for r in rows}
        by_template: dict[str, list[Waiter]] = {}
        for r in rows:
            if r.seen >= now - ABANDONED:
                by_template.setdefault(r.template, []).append(
                    Waiter(r.id, r.rating, r.joined, r.wait)
                )
        claimed: list[Claimed] = []
        for template, waiters in sorted(by_template.items()):
            for forming in tables_to_form(waiters, seats(template), now):
                claimed.append(_claimed(template, forming, names, accounts))
        tickets = [t for c in claimed for t, _ in c.people]
        moved = _set_state(conn, tickets, TicketState.FORMING, now, TicketState.WAITING)
        if moved != len(tickets):  # another writer moved one first: nothing is claimed
            raise ClaimLost()
        return claimed


class ClaimLost(RuntimeError):
    """A ticket picked was claimed by another process meanwhile; the round is undone."""


def _claimed(
    template: str,
    forming: Forming,
    names: dict[str, str],
    accounts: dict[str, str | None],
) -> Claimed:
    return Claimed(
        template,
        tuple((w.ticket, names[w.ticket]) for w in forming.people),
        forming.bots,
        tuple(accounts[w.ticket] for w in forming.people),
    )


def _set_state(
    conn: Connection,
    tickets: Sequence[str],
    state: TicketState,
    now: float,
    only_from: TicketState | None = None,
) -> int:
    if not tickets:
        return 0
    query = update(quick_tickets).where(quick_tickets.c.id.in_(list(tickets)))
    if only_from is not None:
        query = query.where(quick_tickets.c.state == only_from)
    return int(conn.execute(query.values(state=state, changed=now)).rowcount)


def seated(store: Store, places: Sequence[tuple[str, str, int, str]], now: float) -> None:
    """Store where each claimed ticket sits: (ticket, table, seat, the seat's token)."""
    with store.engine.begin() as conn:
        for ticket, table_id, seat, token in places:
            conn.execute(
                update(quick_tickets)
                .where(quick_tickets.c.id == ticket, quick_tickets.c.state == TicketState.FORMING)
                .values(
                    state=TicketState.SEATED,
                    changed=now,
                    table_id=table_id,
                    seat=seat,
                    seat_token=token,
                )
            )


def release(store: Store, tickets: Sequence[str], now: float) -> None:
    """Put claimed tickets back to waiting (their table could not be formed)."""
    with store.engine.begin() as conn:
        _set_state(conn, tickets, TicketState.WAITING, now, TicketState.FORMING)
