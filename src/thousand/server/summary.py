"""A table as every answer shows it: one shape, built here and nowhere else.

:func:`table` gives a table's summary from its stored row and, where the table is in memory,
its game; each list takes the keys it shows (:data:`LOBBY`, :data:`LIVE`, :data:`GAME`), so a
key means the same in every answer: ``seats`` in ``GET /tables`` is ``seats`` in
``GET /api/tables/live``, and a seat's ``name`` is the name ``players`` gives in ``GET /games``
(and the name the match's record gives it). The WebSocket's ``snapshot`` and ``seats``
messages carry the same :func:`seats`. Never a card: a summary reads no deal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from ..engine import Game
from .storage import TableRow

Key = Literal[
    "id",
    "template",
    "rules",
    "created",
    "status",
    "version",
    "seats",
    "players",
    "free_seats",
    "deals",
    "totals",
    "winner",
    "rematch_of",
    "rematch",
    "websocket",
    "record",
    "hints",
    "rated",
]

#: a table in the lobby: ``POST /tables``, ``GET /tables``, ``GET /tables/{id}``
LOBBY: tuple[Key, ...] = (
    "id",
    "template",
    "rules",
    "status",
    "version",
    "seats",
    "free_seats",
    "deals",
    "totals",
    "winner",
    "rematch_of",
    "rematch",
    "hints",
    "rated",
)
#: a table being played, to watch: ``GET /api/tables/live``
LIVE: tuple[Key, ...] = (
    "id",
    "template",
    "status",
    "version",
    "seats",
    "deals",
    "totals",
    "websocket",
    "rated",
)
#: a finished match, from its stored row alone (no deal is read): ``GET /games``
GAME: tuple[Key, ...] = (
    "id",
    "template",
    "created",
    "seats",
    "players",
    "record",
    "hints",
    "rated",
)


def websocket_path(table_id: str) -> str:
    """Where a table's WebSocket is."""
    return f"/tables/{table_id}/ws"


def record_path(table_id: str) -> str:
    """Where a finished match's record is."""
    return f"/games/{table_id}/record"


def player_names(row: TableRow) -> list[str]:
    """The name each seat plays under in the game and its record: a bot's
    ``LEVEL-bot-SEAT``, a person's own name, ``seat-SEAT`` for a seat nobody has taken."""
    return [
        f"{spec.level}-bot-{s}" if spec.kind == "bot" else row.seats[s].name or f"seat-{s}"
        for s, spec in enumerate(row.seat_specs)
    ]


def seats(row: TableRow, ratings: Mapping[int, int] | None = None) -> list[dict[str, Any]]:
    """Each seat: its number, kind, level, name (None while nobody has taken it), whether
    it is taken, and its rating where ``ratings`` has one (:mod:`.rated`)."""
    names = player_names(row)
    shown = ratings or {}
    return [
        {
            "seat": s,
            "kind": spec.kind,
            "level": spec.level,
            "name": names[s] if spec.kind == "bot" else row.seats[s].name,
            "taken": spec.kind == "bot" or row.seats[s].token_hash is not None,
            "rating": shown.get(s),
        }
        for s, spec in enumerate(row.seat_specs)
    ]


def free_seats(row: TableRow) -> list[int]:
    """The human seats nobody holds."""
    return [
        s
        for s, spec in enumerate(row.seat_specs)
        if spec.kind == "human" and row.seats[s].token_hash is None
    ]


def hint_counts(row: TableRow) -> list[int]:
    """How many hints each seat asked for (the moves they gave are in the replay alone: while
    the match is played a hint's move is a card of the seat's hand)."""
    counts = [0] * len(row.seat_specs)
    for h in row.hints:
        if 0 <= h.seat < len(counts):
            counts[h.seat] += 1
    return counts


def table(
    row: TableRow,
    game: Game | None,
    keys: Sequence[Key],
    ratings: Mapping[int, int] | None = None,
) -> dict[str, Any]:
    """The summary of the table of ``row`` (and ``game``, where it is in memory): ``keys`` of
    it, in that order. A key of the game (``deals``, ``totals``, ``winner``) needs ``game``;
    ``ratings`` are the seats' (:meth:`seats`)."""

    def played() -> Game:
        if game is None:
            raise ValueError(f"the summary of table {row.id} has no game to read")
        return game

    values: dict[Key, Callable[[], Any]] = {
        "id": lambda: row.id,
        "template": lambda: row.template,
        "rules": lambda: row.rules,
        "created": lambda: row.created,
        "status": lambda: row.status,
        "version": lambda: row.version,
        "seats": lambda: seats(row, ratings),
        "players": lambda: [s["name"] for s in seats(row)],
        "rated": lambda: row.rated,
        "free_seats": lambda: free_seats(row),
        "deals": lambda: len(played().logs),
        "totals": lambda: list(played().match.totals),
        "winner": lambda: played().match.winner,
        "rematch_of": lambda: row.rematch_of,
        "rematch": lambda: row.rematch,
        "websocket": lambda: websocket_path(row.id),
        "record": lambda: record_path(row.id),
        "hints": lambda: hint_counts(row),
    }
    return {key: values[key]() for key in keys}
