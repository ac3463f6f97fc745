"""The server's front: the lobby's REST API (with OpenAPI docs at /docs) and the WebSocket.

``create_app(settings)`` builds the FastAPI application; ``thousand serve`` runs it on uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.exc import DBAPIError

from ..bots import available_levels
from . import protocol
from .config import Settings
from .guard import Guard
from .limits import Bucket, PerAddress
from .names import BadName, player_name
from .paging import PAGE, Limit, Offset, next_page, page
from .storage import SeatSpec, Store, database_url
from .tables import FINISHED, Connection, Hub, LiveTable, LobbyError, Unavailable, rematch
from .web_api import mount as mount_web

#: seconds a new connection has to say hello
HELLO_TIMEOUT = 10.0
#: messages over the rate a connection may send before it is closed
OVER_LIMIT_CLOSE = 100


class SeatRequest(BaseModel):
    """A seat of a new table: a person, or a bot at a level."""

    kind: Literal["human", "bot"]
    level: str | None = Field(None, description="the bot's level (easy, ...); bots only")


class CreateTable(BaseModel):
    """A new table: a template, rule overrides as a record's ``rules`` object, and its seats."""

    template: str = "russian"
    rules: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(
        None, ge=0, lt=2**62, description="the seed of the cards and the bots (default: random)"
    )
    seats: list[SeatRequest] = Field(
        default_factory=lambda: [
            SeatRequest(kind="human", level=None),
            SeatRequest(kind="bot", level="easy"),
            SeatRequest(kind="bot", level="easy"),
        ]
    )


#: a client's own secret for a seat: 22 to 128 URL-safe characters (128 bits and more)
CLAIM = r"^[A-Za-z0-9_-]{22,128}$"
CLAIM_ABOUT = (
    "the client's own secret, 22 to 128 URL-safe characters, made afresh for each seat it "
    "takes: it becomes the seat's token, so the same request sent again (after a lost answer) "
    "gets the same seat"
)


class TakeSeat(BaseModel):
    """Sit down: a seat number (or the first free one), the name to play under, and the
    client's claim."""

    seat: int | None = None
    name: str = Field(
        "player",
        max_length=256,
        description="1 to 32 characters once normalised (NFKC, spaces collapsed); not blank, "
        "no invisible character, not a name the server gives (easy-bot-1, seat-2)",
    )
    claim: str | None = Field(None, pattern=CLAIM, description=CLAIM_ABOUT)


class Rematch(BaseModel):
    """The asker's claim for its seat at the rematch."""

    claim: str | None = Field(None, pattern=CLAIM, description=CLAIM_ABOUT)


class SeatTaken(BaseModel):
    """A seat, and the token that acts for it (keep it: it is shown once)."""

    table: str
    seat: int | None
    token: str
    websocket: str


def _token(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, value = authorization.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def create_app(settings: Settings) -> FastAPI:
    store = Store(database_url(settings.database, settings.data))
    hub = Hub(store, settings)
    requests = PerAddress(settings.request_rate, settings.request_burst)
    #: the tables each address has created and that may not be finished yet, and the
    #: creations under way, for the cap on tables per address
    created: dict[str, set[str]] = {}
    creating: dict[str, int] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store.migrate()
        hub.load()
        await hub.resume()
        yield
        hub.closing = True
        hub.close()
        store.close()

    app = FastAPI(
        title="thousand",
        summary="Tables of the card game Thousand, for people and bots",
        lifespan=lifespan,
    )
    app.state.hub = hub

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

    def under_way(address: str) -> int:
        """The tables ``address`` created that are not finished, and those being created."""
        ids = created.get(address, set())
        ids -= {t for t in ids if t not in hub.tables or hub.tables[t].status == FINISHED}
        if not ids:
            created.pop(address, None)
        return len(ids) + creating.get(address, 0)

    @app.exception_handler(LobbyError)
    async def lobby_error(_request: Request, exc: LobbyError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=exc.status)

    @app.exception_handler(DBAPIError)
    async def database_error(_request: Request, _exc: DBAPIError) -> JSONResponse:
        """A read the database could not answer (a write is retried, then ``Unavailable``)."""
        return JSONResponse({"detail": str(Unavailable())}, status_code=503)

    @app.get("/health")
    async def health() -> dict[str, Any]:
        """The server is up; the bot levels it offers."""
        return {"ok": True, "levels": list(available_levels())}

    @app.post("/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table. It starts when every human seat is taken (at once if none is).
        One address may have ``tables_per_address`` tables not yet finished (429 beyond)."""
        levels = available_levels()
        specs = []
        for i, s in enumerate(body.seats):
            if s.kind == "bot":
                level = s.level or "easy"
                if level not in levels:
                    raise LobbyError(
                        422, f"seat {i}: unknown bot level {level!r} (levels: {', '.join(levels)})"
                    )
                specs.append(SeatSpec("bot", level))
            else:
                if s.level is not None:
                    raise LobbyError(422, f"seat {i}: a human seat has no level")
                specs.append(SeatSpec("human"))
        address = request.client.host if request.client else "?"
        cap = settings.tables_per_address
        if under_way(address) >= cap:
            raise LobbyError(
                429,
                f"this address has {cap} tables not yet finished, the most it may have: "
                "finish one before creating another",
            )
        creating[address] = creating.get(address, 0) + 1
        try:
            table = await hub.create(body.template, body.rules, specs, seed=body.seed)
        finally:
            creating[address] -= 1
            if not creating[address]:
                del creating[address]
        created.setdefault(address, set()).add(table.id)
        return table.summary()

    @app.get("/tables")
    async def list_tables(
        response: Response, limit: Limit = PAGE, offset: Offset = 0
    ) -> list[dict[str, Any]]:
        """The open tables: not finished, with a free human seat, the oldest first; a page of
        them (the ``Link`` header names the next)."""
        found = sorted(
            (t for t in hub.tables.values() if t.free_seats() and t.status != FINISHED),
            key=lambda t: (t.row.created, t.id),
        )
        return [t.summary() for t in page(found, response, "/tables", limit, offset)]

    @app.get("/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        """A table's seats, status, version and totals (never a card)."""
        return (await hub.fetch(table_id)).summary()

    @app.post("/tables/{table_id}/seats", status_code=201)
    async def take_seat(table_id: str, body: TakeSeat) -> SeatTaken:
        """Take a seat; the token in the answer acts for that seat alone."""
        try:
            name = player_name(body.name)
        except BadName as e:
            raise LobbyError(422, str(e)) from None
        table = await hub.fetch(table_id)
        seat, token = await table.take_seat(body.seat, name, body.claim)
        return SeatTaken(table=table.id, seat=seat, token=token, websocket=_ws_path(table))

    @app.delete("/tables/{table_id}/seats/{seat}", status_code=204)
    async def leave(
        table_id: str, seat: int, authorization: Annotated[str | None, Header()] = None
    ) -> Response:
        """Leave a seat (``Authorization: Bearer TOKEN``); it is free for another to take."""
        table = await hub.fetch(table_id)
        token = _token(authorization)
        if token is None or table.seat_of(token) != seat:
            raise LobbyError(403, f"this token does not hold seat {seat} of table {table_id}")
        await table.leave(seat)
        return Response(status_code=204)

    @app.get("/tables/{table_id}/watch")
    async def watch(table_id: str) -> dict[str, str]:
        """Where to watch: connect to the WebSocket and say hello without a token."""
        return {"table": table_id, "websocket": _ws_path(await hub.fetch(table_id))}

    @app.post("/tables/{table_id}/rematch", status_code=201)
    async def start_rematch(
        table_id: str,
        body: Rematch | None = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> SeatTaken:
        """A new table with the same rules and seats (one, however many ask at once); the
        asker gets the same seat there."""
        claim = body.claim if body is not None else None
        new, seat, token = await rematch(
            hub, await hub.fetch(table_id), _token(authorization), claim
        )
        return SeatTaken(table=new.id, seat=seat, token=token, websocket=_ws_path(new))

    @app.get("/games")
    async def finished_games(
        response: Response, limit: Limit = PAGE, offset: Offset = 0
    ) -> list[dict[str, Any]]:
        """The finished matches, newest first; a page of them (the ``Link`` header names the
        next)."""
        rows = await hub.run_heavy(store.finished, limit + 1, offset)
        if len(rows) > limit:
            next_page(response, "/games", limit, offset)
        return [
            {
                "id": row.id,
                "template": row.template,
                "created": row.created,
                "players": [s.name for s in row.seats],
                "record": f"/games/{row.id}/record",
            }
            for row in rows[:limit]
        ]

    @app.get("/games/{table_id}/record", response_class=PlainTextResponse)
    async def record(table_id: str) -> PlainTextResponse:
        """A finished match as a ``thousand/1`` record (hands and all: the match is over)."""
        table = await hub.fetch(table_id)
        if table.status != FINISHED:
            raise LobbyError(409, f"table {table_id} is not finished: its cards are still hidden")
        text = await hub.run_heavy(table.record_text)
        return PlainTextResponse(text, media_type="application/json")

    @app.websocket("/tables/{table_id}/ws")
    async def websocket(ws: WebSocket, table_id: str) -> None:
        address = ws.client.host if ws.client else "?"
        await ws.accept()
        if not requests.allow(address):
            await _refuse(ws, "rate_limited", "too many connections: slow down")
            return
        try:
            table = await hub.fetch(table_id)
        except LobbyError as e:
            await _refuse(ws, "not_found", str(e))
            return
        except DBAPIError:  # the table is not in memory and the database cannot be read now
            await _refuse(ws, "unavailable", str(Unavailable()))
            return
        try:
            seat = await _hello(ws, table)
        except protocol.ProtocolError as e:
            await _refuse(ws, e.code, str(e))
            return
        except (WebSocketDisconnect, TimeoutError):
            return
        full = table.refusal(seat)
        if full is not None:
            await _refuse(ws, "full", full)
            return
        # (nothing is awaited between this check and the connection's attach in _serve)
        await _serve(
            ws, table, Connection(seat), Bucket(settings.message_rate, settings.message_burst)
        )

    mount_web(app, hub)
    return app


def _ws_path(table: LiveTable) -> str:
    return f"/tables/{table.id}/ws"


async def _refuse(ws: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await ws.send_json(protocol.error(code, message))
        await ws.close(code=1008)


async def _hello(ws: WebSocket, table: LiveTable) -> int | None:
    text = await asyncio.wait_for(_receive(ws), HELLO_TIMEOUT)
    message = protocol.read_client_message(text)
    if not isinstance(message, protocol.Hello):
        raise protocol.ProtocolError("hello_first", "the first message must be a hello")
    if message.token is None:
        return None
    seat = table.seat_of(message.token)
    if seat is None:
        raise protocol.ProtocolError("bad_token", f"this token holds no seat of table {table.id}")
    return seat


async def _receive(ws: WebSocket) -> str | bytes:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is not None:
        return str(text)
    return bytes(message.get("bytes") or b"")


async def _serve(ws: WebSocket, table: LiveTable, conn: Connection, bucket: Bucket) -> None:
    async def writer() -> None:
        while (text := await conn.queue.get()) is not None:
            await ws.send_text(text)
        await ws.close(code=1000)

    table.attach(conn)
    sending = asyncio.get_running_loop().create_task(writer())
    over = 0
    try:
        while not sending.done():
            try:
                text = await _receive(ws)
            except WebSocketDisconnect:
                break
            if not bucket.allow():
                over += 1
                conn.send(protocol.error("rate_limited", "too many messages: slow down"))
                if over >= OVER_LIMIT_CLOSE:
                    conn.close()
                    break
                continue
            try:
                message = protocol.read_client_message(text)
            except protocol.ProtocolError as e:
                conn.send(protocol.error(e.code, str(e), e.intent_id))
                continue
            if isinstance(message, protocol.Intent):
                await table.intent(conn, message)
            elif isinstance(message, protocol.SnapshotRequest):
                conn.send(table.snapshot(conn.seat))
            elif isinstance(message, protocol.Ping):
                conn.send({"type": "pong", "version": table.version})
            else:
                conn.send(protocol.error("hello_twice", "this connection has said hello already"))
    finally:
        table.detach(conn)
        if not sending.done():
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sending, 5)
        sending.cancel()
