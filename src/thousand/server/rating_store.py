"""Where ratings are kept: each participant's rating per family, and each rated seat's change.

A rated match is rated once: its changes are stored, with every rating they move, in one
transaction that finds none stored for the table first (a second try, from a restart or
another process, finds them and does nothing). The ratings it reads are locked for the
transaction on PostgreSQL (``FOR UPDATE``), so that two matches finishing at once with the
same bot level never lose one's change; SQLite takes one writer at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import (
    Column,
    Connection,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from .ratings import Family, Rating, SeatStats, rated
from .storage import Store, metadata, tables

ratings = Table(
    "ratings",
    metadata,
    #: ``account:ID`` or ``bot:LEVEL``
    Column("participant", String(64), primary_key=True),
    Column("family", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    #: rated matches finished, won, and the contracts declared and made in them
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("declared", Integer, nullable=False),
    Column("made", Integer, nullable=False),
)

rating_changes = Table(
    "rating_changes",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("participant", String(64), nullable=False, index=True),
    Column("family", String(16), nullable=False),
    #: when the match was rated (seconds since the epoch)
    Column("at", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("declared", Integer, nullable=False),
    Column("made", Integer, nullable=False),
)


@dataclass(frozen=True, slots=True)
class Standing:
    """A participant's rating in a family, with its record there."""

    participant: str
    family: Family
    rating: Rating
    games: int
    wins: int
    declared: int
    made: int


@dataclass(frozen=True, slots=True)
class Change:
    """A seat's rating before and after a rated match."""

    table_id: str
    seat: int
    participant: str
    family: Family
    at: float
    place: int
    before: Rating
    after: Rating


def rate_stored(
    store: Store,
    table_id: str,
    family: Family,
    participants: Sequence[str | None],
    sides: Sequence[Sequence[int]],
    stats: Sequence[SeatStats],
    at: float,
) -> bool:
    """:func:`rate_match` in a transaction of its own."""
    with store.engine.begin() as conn:
        return rate_match(conn, table_id, family, participants, sides, stats, at)


def rate_match(
    conn: Connection,
    table_id: str,
    family: Family,
    participants: Sequence[str | None],
    sides: Sequence[Sequence[int]],
    stats: Sequence[SeatStats],
    at: float,
) -> bool:
    """Rate a finished match (seat by seat: ``participants[seat]`` played it and did
    ``stats[seat]``) unless it has been; whether it was rated now. A participant at several
    seats (a bot level) is moved by the mean of its seats' changes; a seat of no participant
    (an account deleted during the match) plays as a newcomer and keeps nothing."""
    kept = sorted({p for p in participants if p is not None})
    # a newcomer's row first, so that every rating this match moves exists to be locked (and
    # the transaction holds SQLite's write lock before it reads)
    _enter(conn, family, kept)
    done = conn.execute(
        select(rating_changes.c.seat).where(rating_changes.c.table_id == table_id).limit(1)
    ).first()
    if done is not None or not kept:
        return False
    held = _locked(conn, family, kept)
    before = [held[p].rating if p is not None else Rating() for p in participants]
    after = rated([s.place for s in stats], sides, before)
    conn.execute(
        rating_changes.insert(),
        [
            {
                "table_id": table_id,
                "seat": seat,
                "participant": p,
                "family": family,
                "at": at,
                "place": stats[seat].place,
                "mu_before": before[seat].mu,
                "sigma_before": before[seat].sigma,
                "mu_after": after[seat].mu,
                "sigma_after": after[seat].sigma,
                "declared": stats[seat].declared,
                "made": stats[seat].made,
            }
            for seat, p in enumerate(participants)
            if p is not None
        ],
    )
    for p in kept:
        seats = [s for s, q in enumerate(participants) if q == p]
        old = before[seats[0]]
        mu = old.mu + sum(after[s].mu - old.mu for s in seats) / len(seats)
        sigma = old.sigma + sum(after[s].sigma - old.sigma for s in seats) / len(seats)
        counts = {
            "games": len(seats),
            "wins": sum(stats[s].won for s in seats),
            "declared": sum(stats[s].declared for s in seats),
            "made": sum(stats[s].made for s in seats),
        }
        row = held[p]
        conn.execute(
            update(ratings)
            .where(ratings.c.participant == p, ratings.c.family == family)
            .values(
                mu=mu,
                sigma=sigma,
                games=row.games + counts["games"],
                wins=row.wins + counts["wins"],
                declared=row.declared + counts["declared"],
                made=row.made + counts["made"],
            )
        )
    return True


def _enter(conn: Connection, family: Family, participants: Sequence[str]) -> None:
    """A newcomer's rating for each participant that has none in ``family``."""
    if not participants:
        return
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    conn.execute(
        insert(ratings).on_conflict_do_nothing(),
        [
            {
                "participant": p,
                "family": family,
                "mu": Rating().mu,
                "sigma": Rating().sigma,
                "games": 0,
                "wins": 0,
                "declared": 0,
                "made": 0,
            }
            for p in participants
        ],
    )


def _locked(conn: Connection, family: Family, participants: Sequence[str]) -> dict[str, Standing]:
    query = select(ratings).where(
        ratings.c.family == family, ratings.c.participant.in_(list(participants))
    )
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    return {r.participant: _standing(r._mapping) for r in conn.execute(query)}


def _standing(m: object) -> Standing:
    row = dict(m)  # type: ignore[call-overload]
    return Standing(
        participant=row["participant"],
        family=Family(row["family"]),
        rating=Rating(row["mu"], row["sigma"]),
        games=row["games"],
        wins=row["wins"],
        declared=row["declared"],
        made=row["made"],
    )


def standings_of(conn: Connection, participant: str) -> list[Standing]:
    """A participant's rating in each family it has played rated."""
    found = conn.execute(
        select(ratings).where(ratings.c.participant == participant).order_by(ratings.c.family)
    )
    return [_standing(r._mapping) for r in found]


def leaderboard(conn: Connection, family: Family, limit: int, offset: int) -> list[Standing]:
    """A family's ratings, the highest shown rating first (ties by name of participant)."""
    shown = ratings.c.mu - 3 * ratings.c.sigma
    found = conn.execute(
        select(ratings)
        .where(ratings.c.family == family)
        .order_by(shown.desc(), ratings.c.participant)
        .limit(limit)
        .offset(offset)
    )
    return [_standing(r._mapping) for r in found]


def history(conn: Connection, participant: str) -> list[Change]:
    """A participant's rating changes, the oldest first."""
    found = conn.execute(
        select(rating_changes)
        .where(rating_changes.c.participant == participant)
        .order_by(rating_changes.c.at, rating_changes.c.table_id, rating_changes.c.seat)
    )
    return [
        Change(
            table_id=r.table_id,
            seat=r.seat,
            participant=r.participant,
            family=Family(r.family),
            at=r.at,
            place=r.place,
            before=Rating(r.mu_before, r.sigma_before),
            after=Rating(r.mu_after, r.sigma_after),
        )
        for r in found
    ]


def forget(conn: Connection, participant: str) -> None:
    """Delete a participant's ratings and changes (an account deleted: its personal data)."""
    conn.execute(rating_changes.delete().where(rating_changes.c.participant == participant))
    conn.execute(ratings.delete().where(ratings.c.participant == participant))


def shown(conn: Connection, family: Family, participants: Sequence[str]) -> dict[str, int]:
    """The shown rating in ``family`` of each of ``participants`` that has one."""
    if not participants:
        return {}
    found = conn.execute(
        select(ratings).where(
            ratings.c.family == family, ratings.c.participant.in_(list(participants))
        )
    )
    return {r.participant: Rating(r.mu, r.sigma).shown for r in found}


def unrated_of(store: Store) -> list[str]:
    """The finished rated tables that have no rating change stored (the server stopped
    between storing the last move and rating the match, or the database was away)."""
    with store.engine.connect() as conn:
        return unrated(conn)


def unrated(conn: Connection) -> list[str]:
    """:func:`unrated_of` on a connection."""
    rated_ids = select(rating_changes.c.table_id)
    found = conn.execute(
        select(tables.c.id).where(
            tables.c.rated.is_(True),
            tables.c.status == "finished",
            tables.c.id.not_in(rated_ids),
        )
    )
    return [r.id for r in found]
