"""The table protocol's endpoint, ``/tables/{table_id}/ws`` (docs/protocol.md, "The
WebSocket"): the hello, then the client's intents, snapshot requests and pings, and the table's
events and answers, each message as :mod:`.protocol` reads and writes it. The HTTP routes are
:mod:`.routes`'."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import DBAPIError

from . import protocol
from .account_routes import COOKIE
from .chat import Mute, Say
from .lifecycle import RESTART_CODE, RESTART_REASON, Lifecycle
from .limits import Bucket, PerAddress
from .tables import Connection, Hub, LiveTable, LobbyError, Unavailable, token_hash

#: seconds a new connection has to say hello
HELLO_TIMEOUT = 10.0
#: messages over the rate a connection may send before it is closed
OVER_LIMIT_CLOSE = 100


def add_websocket(app: FastAPI, hub: Hub, requests: PerAddress, lifecycle: Lifecycle) -> None:
    """Add the endpoint to ``app``; a new connection counts as a request of its address in
    ``requests`` (the HTTP requests' limit). Once ``lifecycle`` drains, a new connection is
    closed at once with its restart code, and so are the others in turn."""

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
            seat, holder = await _hello(ws, table)
        except protocol.ProtocolError as e:
            await _refuse(ws, e.code, str(e))
            return
        except (WebSocketDisconnect, TimeoutError):
            return
        full = table.refusal(seat)
        if full is not None:
            await _refuse(ws, "full", full)
            return
        if lifecycle.draining:
            with contextlib.suppress(Exception):
                await ws.close(code=RESTART_CODE, reason=RESTART_REASON)
            return
        # (nothing is awaited between these checks and the connection's attach in _serve)
        bucket = Bucket(hub.settings.message_rate, hub.settings.message_burst)
        await _serve(ws, table, Connection(seat, holder=holder), bucket, lifecycle)


async def _leave(table: LiveTable, conn: Connection) -> None:
    """The seat of ``conn`` leaves the table (its connections are told ``left`` and closed); a
    spectator has no seat to leave."""
    if conn.seat is None:
        conn.send(protocol.error("spectator", "a spectator has no seat to leave"))
        return
    try:
        await table.leave(conn.seat, conn.holder)
    except Unavailable as e:
        conn.send(protocol.error("unavailable", str(e)))
    except LobbyError as e:  # the seat was changed through another server meanwhile
        conn.send(protocol.error("stale", str(e)))


async def _refuse(ws: WebSocket, code: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await ws.send_json(protocol.error(code, message))
        await ws.close(code=1008)


async def _hello(ws: WebSocket, table: LiveTable) -> tuple[int | None, str | None]:
    """The seat the hello's token holds (None: a spectator), and the token's hash."""
    text = await asyncio.wait_for(_receive(ws), HELLO_TIMEOUT)
    message = protocol.read_client_message(text)
    if not isinstance(message, protocol.Hello):
        raise protocol.ProtocolError("hello_first", "the first message must be a hello")
    if message.token is None:
        return None, None
    try:
        seat = await table.seat_of_token(message.token)
    except Unavailable as e:
        raise protocol.ProtocolError("unavailable", str(e)) from e
    if seat is None:
        raise protocol.ProtocolError("bad_token", f"this token holds no seat of table {table.id}")
    return seat, token_hash(message.token)


async def _receive(ws: WebSocket) -> str | bytes:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is not None:
        return str(text)
    return bytes(message.get("bytes") or b"")


async def _serve(
    ws: WebSocket, table: LiveTable, conn: Connection, bucket: Bucket, lifecycle: Lifecycle
) -> None:
    async def writer() -> None:
        while (text := await conn.queue.get()) is not None:
            await ws.send_text(text)
        if lifecycle.restarting(conn):
            await ws.close(code=RESTART_CODE, reason=RESTART_REASON)
        else:
            await ws.close(code=1000)

    table.attach(conn)
    sending = asyncio.get_running_loop().create_task(writer())
    # the chat: a spectator writes under the account its session cookie signs in
    session = ws.cookies.get(COOKIE)
    over = 0
    try:
        await table.chat.welcome(conn, session)
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
            elif isinstance(message, protocol.Leave):
                await _leave(table, conn)
            elif isinstance(message, Say | Mute):
                try:
                    await table.chat.handle(conn, message, session)
                except Unavailable as e:
                    conn.send(protocol.error("unavailable", str(e)))
            else:
                conn.send(protocol.error("hello_twice", "this connection has said hello already"))
    finally:
        table.detach(conn)
        if not sending.done():
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sending, 5)
        sending.cancel()
