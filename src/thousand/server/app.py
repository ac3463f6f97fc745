"""The server's app: ``create_app(settings)`` builds it; ``thousand serve`` runs it on uvicorn.

It wires the store and the tables (:class:`.tables.Hub`) into the app's lifespan, the
process's readiness and graceful shutdown (:class:`.lifecycle.Lifecycle`, ``app.state``), the outer
wall (:class:`.guard.Guard`) and the limit on requests per address around every route, the
HTTP routes (:mod:`.routes`, with the table of them all), the accounts and the session check
(:mod:`.account_routes`) and the WebSocket (:mod:`.websocket`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from . import passwords
from .account_routes import add_session_check
from .accounts import AccountStore
from .config import Settings
from .guard import Guard
from .lifecycle import Lifecycle
from .limits import PerAddress
from .routes import add_routes
from .storage import Store, database_url
from .tables import Hub
from .websocket import add_websocket


def create_app(settings: Settings) -> FastAPI:
    store = Store(database_url(settings.database, settings.data))
    hub = Hub(store, settings)
    requests = PerAddress(settings.request_rate, settings.request_burst)
    lifecycle = Lifecycle(hub, settings.drain)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store.migrate()
        await asyncio.to_thread(passwords.warm)
        hub.load()
        hub.start_bus()
        await hub.resume()
        hub.start_sweeping()
        yield
        await hub.stop_bus()
        hub.closing = True
        hub.close()
        store.close()

    app = FastAPI(
        title="thousand",
        summary="Tables of the card game Thousand, for people and bots",
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.lifecycle = lifecycle
    # the session check runs inside the request limit and the Guard (added after it)
    add_session_check(app, AccountStore(store), settings)

    @app.middleware("http")
    async def limit_requests(request: Request, call_next: Any) -> Response:
        address = request.client.host if request.client else "?"
        if not requests.allow(address):
            return JSONResponse({"detail": "too many requests: slow down"}, status_code=429)
        response: Response = await call_next(request)
        return response

    app.add_middleware(
        Guard,
        hosts=settings.allowed_hosts,
        origins=settings.allowed_origins,
        max_body=settings.max_body,
    )
    add_routes(app, hub, lifecycle=lifecycle)
    add_websocket(app, hub, requests, lifecycle)
    return app
