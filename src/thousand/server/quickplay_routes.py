"""Quick play's HTTP routes, and its matcher run for the app's lifetime.

=======  ==========================  ===========================================================
method   path                        answer; errors
=======  ==========================  ===========================================================
POST     /quickplay                  201 ``{"ticket", "token", "state": "waiting", "template",
                                     "rating", "wait"}``: in the queue; 422 unknown template, a
                                     wait out of 0 to ``WAIT_MOST`` seconds, a bad name; 409
                                     the account has a ticket in the queue; 429 the address
                                     holds ``tables_per_address`` tickets
GET      /quickplay/{ticket}         waiting: ``{"ticket", "state": "waiting", "template",
                                     "rating", "wait", "waited", "waiting"}``; seated: ``{...,
                                     "state": "seated", "table", "seat", "token"}`` (the seat's
                                     token in the first such answer, then null); 403 the
                                     token (``Authorization: Bearer TOKEN``) does not hold the
                                     ticket, 404 no such ticket
DELETE   /quickplay/{ticket}         204, out of the queue; 403, 404; 409 its table is being
                                     formed or it is seated
=======  ==========================  ===========================================================
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

from fastapi import FastAPI, Header, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from .accounts import AccountStore
from .names import BadName, player_name
from .quickplay import (
    DEFAULT_NAME,
    WAIT_MOST,
    TicketState,
    checked_template,
    checked_wait,
    join,
    leave,
    ticket_view,
)
from .quickplay_matcher import Matcher
from .routes import bearer, name_of_account
from .tables import Hub, LobbyError

#: who is signed in, by the request: an account's id and name, or None for a guest
AccountOf = Callable[[Request], tuple[str, str] | None]


def _guest(_request: Request) -> tuple[str, str] | None:
    return None


class JoinQueue(BaseModel):
    """Play now: the template, the most seconds to wait for people before bots fill the other
    seats, and the name to play under."""

    template: str = "russian"
    wait: float = Field(30.0, description=f"0 to {WAIT_MOST} seconds")
    name: str | None = Field(
        None,
        max_length=256,
        description=f"as a seat's name (1 to 32 characters once normalised); {DEFAULT_NAME!r} "
        "where none is given",
    )


def add_quickplay(app: FastAPI, hub: Hub, account_of: AccountOf = _guest) -> Matcher:
    """Add quick play's routes to ``app``, and run its matcher while the app runs (started
    after the app's own start-up, stopped before its shutdown)."""
    matcher = Matcher(hub)
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app_: FastAPI) -> AsyncIterator[Any]:
        async with inner(app_) as state:
            matcher.start()
            try:
                yield state
            finally:
                await matcher.stop()

    app.router.lifespan_context = lifespan

    @app.post("/quickplay", status_code=201)
    async def join_queue(body: JoinQueue, request: Request) -> dict[str, Any]:
        """Play now: join the queue of a template. Tables are formed from players of close
        ratings; when the wait is over, with the players there are and medium bots."""
        template = checked_template(body.template)
        wait = checked_wait(body.wait)
        account = account_of(request)
        try:
            name = player_name(body.name if body.name is not None else DEFAULT_NAME)
        except BadName as e:
            raise LobbyError(422, str(e)) from None
        if account is not None:
            name = account[1]  # a signed-in player plays under the account's name
        elif await hub.run_heavy(AccountStore(hub.store).holds, name):
            raise LobbyError(409, name_of_account(name))
        address = request.client.host if request.client else "?"
        joined = await hub.write(
            join,
            hub.store,
            template,
            wait,
            name,
            account[0] if account is not None else None,
            address,
            hub.settings.tables_per_address,
            hub.now(),
        )
        matcher.wake()
        return {
            "ticket": joined.ticket,
            "token": joined.token,
            "state": TicketState.WAITING,
            "template": template,
            "rating": joined.rating,
            "wait": wait,
        }

    @app.get("/quickplay/{ticket}")
    async def ticket_state(
        ticket: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Where a ticket stands (``Authorization: Bearer TOKEN``): waiting, or seated with
        the seat's token (given once). Ask at least once a minute: a ticket nobody asks
        after leaves the queue."""
        view = await hub.write(ticket_view, hub.store, ticket, bearer(authorization), hub.now())
        return view.to_json()

    @app.delete("/quickplay/{ticket}", status_code=204)
    async def leave_queue(
        ticket: str, authorization: Annotated[str | None, Header()] = None
    ) -> Response:
        """Leave the queue (``Authorization: Bearer TOKEN``)."""
        await hub.write(leave, hub.store, ticket, bearer(authorization))
        return Response(status_code=204)

    return matcher
