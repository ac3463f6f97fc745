"""Rated tables: who each seat is rated as, the ratings shown beside the seats' names, and the
match rated at its end (:meth:`.tables.Hub.rate`).

A seat is rated as its signed-in player's account (``account:ID``) or as its bot's level
(``bot:LEVEL``); a human seat of no account (an account deleted during the match) plays as a
newcomer and keeps nothing. Only signed-in players take the human seats of a rated table.
"""

from __future__ import annotations

from ..rules import Rules
from .rating_store import shown
from .ratings import family_of, participant_of_account, participant_of_bot
from .storage import SeatRow, SeatSpec, Store, TableRow


def participant(spec: SeatSpec, seat: SeatRow) -> str | None:
    if spec.kind == "bot":
        return participant_of_bot(spec.level or "easy")
    return participant_of_account(seat.account) if seat.account is not None else None


def participants(row: TableRow) -> list[str | None]:
    return [participant(spec, row.seats[s]) for s, spec in enumerate(row.seat_specs)]


def seat_ratings(store: Store, row: TableRow, rules: Rules) -> dict[int, int]:
    """The shown rating, in the table's family, of each seat whose participant has one."""
    people = participants(row)
    with store.engine.connect() as conn:
        found = shown(conn, family_of(rules), [p for p in people if p is not None])
    return {s: found[p] for s, p in enumerate(people) if p is not None and p in found}
