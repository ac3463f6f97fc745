"""What the leaderboard and a player's profile show, read from the database: ratings per
family with each participant's record, a player's rating history and finished games.

A bot level is named by its level (the page says "medium bot"); a player by the account's
name. A deleted account has no ratings and no profile; its games stay, under "deleted player".
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from . import rating_store, summary
from .accounts import accounts, name_key
from .ratings import Family, participant_of_account
from .storage import Store, TableStatus, seats, tables

#: the most finished games a profile lists (the newest)
PROFILE_GAMES = 200


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def standing_json(s: rating_store.Standing) -> dict[str, Any]:
    return {
        "family": s.family,
        "rating": s.rating.shown,
        "games": s.games,
        "wins": s.wins,
        "win_rate": _rate(s.wins, s.games),
        "declared": s.declared,
        "made": s.made,
        "make_rate": _rate(s.made, s.declared),
    }


def leaderboard(store: Store, family: Family, limit: int, offset: int) -> list[dict[str, Any]]:
    """A page of a family's ratings, the highest first: each participant's name (a player's)
    or level (a bot's), rating and record."""
    with store.engine.connect() as conn:
        board = rating_store.leaderboard(conn, family, limit, offset)
        names = _names(conn, [s.participant for s in board])
    out = []
    for place, s in enumerate(board, start=offset + 1):
        kind, _, who = s.participant.partition(":")
        out.append(
            {
                "place": place,
                "kind": "bot" if kind == "bot" else "player",
                "name": names.get(s.participant) if kind == "account" else None,
                "level": who if kind == "bot" else None,
                **standing_json(s),
            }
        )
    return out


def _names(conn: Connection, participants: list[str]) -> dict[str, str]:
    ids = [p.partition(":")[2] for p in participants if p.startswith("account:")]
    if not ids:
        return {}
    found = conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids)))
    return {participant_of_account(r.id): r.name for r in found}


def profile(store: Store, name: str) -> dict[str, Any] | None:
    """A player's profile, or None where no account has that name: the ratings, the history
    (each rated match: when, the family, the table, the place and the rating after it), and
    the finished games (newest first), each with its replay and its record."""
    with store.engine.connect() as conn:
        found = conn.execute(
            select(accounts.c.id, accounts.c.name, accounts.c.created).where(
                accounts.c.name_key == name_key(name)
            )
        ).first()
        if found is None:
            return None
        participant = participant_of_account(found.id)
        standings = rating_store.standings_of(conn, participant)
        changes = rating_store.history(conn, participant)
        games = conn.execute(
            select(tables.c.id, tables.c.template, tables.c.created, tables.c.rated, seats.c.seat)
            .join(seats, seats.c.table_id == tables.c.id)
            .where(seats.c.account == found.id, tables.c.status == TableStatus.FINISHED)
            .order_by(tables.c.created.desc(), tables.c.id)
            .limit(PROFILE_GAMES)
        ).all()
    places = {c.table_id: c.place for c in changes}
    return {
        "name": found.name,
        "created": found.created,
        "ratings": [standing_json(s) for s in standings],
        "history": [
            {
                "at": c.at,
                "family": c.family,
                "table": c.table_id,
                "place": c.place,
                "rating": c.after.shown,
                "before": c.before.shown,
            }
            for c in changes
        ],
        "games": [
            {
                "id": g.id,
                "template": g.template,
                "created": g.created,
                "rated": bool(g.rated),
                "seat": g.seat,
                "place": places.get(g.id),
                "replay": f"/#/replay/{g.id}",
                "record": summary.record_path(g.id),
            }
            for g in games
        ],
    }
