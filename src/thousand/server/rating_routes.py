"""The ratings over HTTP: a family's leaderboard and a player's profile (never a card, never
an account's id, password or sessions).

=======  ==========================  ==================================================
method   path                        answer; errors
=======  ==========================  ==================================================
GET      /api/ratings/{family}       a page of the family's ratings, the highest first
                                     (:func:`.profiles.leaderboard`); 422 no such family
GET      /api/players/{name}         the player's profile (:func:`.profiles.profile`);
                                     404 no account has the name
=======  ==========================  ==================================================
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Response

from .paging import PAGE, Limit, Offset, next_page
from .profiles import leaderboard, profile
from .ratings import Family
from .tables import Hub, LobbyError


def add_rating_routes(app: FastAPI, hub: Hub) -> None:
    @app.get("/api/ratings/{family}")
    async def ratings(
        family: Family, response: Response, limit: Limit = PAGE, offset: Offset = 0
    ) -> list[dict[str, Any]]:
        """A family's leaderboard (``two-player``, ``three-player``, ``four-player``,
        ``partnerships``); a page of it (the ``Link`` header names the next)."""
        board = await hub.run_heavy(leaderboard, hub.store, family, limit + 1, offset)
        if len(board) > limit:
            next_page(response, f"/api/ratings/{family}", limit, offset)
        return board[:limit]

    @app.get("/api/players/{name}")
    async def player(name: str) -> dict[str, Any]:
        """A player's profile: ratings, rating history, finished games."""
        found = await hub.run_heavy(profile, hub.store, name)
        if found is None:
            raise LobbyError(404, f"there is no player {name!r}")
        return found
