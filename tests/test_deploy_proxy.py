"""The deployment recipe of docs/deploy.md, for real: readiness, the graceful shutdown, and two
``thousand serve`` processes on one PostgreSQL and one Redis behind HAProxy, run from the docs'
own configuration (docs/deploy/haproxy.cfg) with the test's ports.

The clients are the terminal client's :class:`~thousand.client.link.TableLink`, through the
proxy; the proxy names the process that served each connection (``X-Thousand-Process``), so a
client is known to be on one process and the other on the other (a second connection goes to
the process with fewer, ``balance leastconn``; where it did not, it connects again). Without
haproxy, Redis or PostgreSQL the proxy test is skipped; with CI=true it fails instead.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.exc import OperationalError
from websockets.exceptions import ConnectionClosed

from thousand.client.link import Seat, TableLink, new_claim
from thousand.server.lifecycle import RESTART_CODE, RESTART_REASON, STOPPING

from .deploy_support import REDIS, haproxy, redis_up
from .server_support import (
    BOT,
    HUMAN,
    Client,
    Server,
    postgres_database,
)
from .web_support import web_client

DRAIN = 3.0


# -- readiness and the drain of one process --------------------------------------------------


def test_ready_answers_503_with_a_sentence_where_the_database_does_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with web_client(tmp_path) as client:
        assert client.get("/ready").json() == {"ready": True}
        assert client.get("/health").status_code == 200
        engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]

        def refused(*_args: Any, **_kwargs: Any) -> Any:
            raise OperationalError("SELECT 1", {}, Exception("connection refused"))

        monkeypatch.setattr(engine, "connect", refused)
        answer = client.get("/ready")
        assert answer.status_code == 503
        assert answer.json() == {
            "ready": False,
            "detail": "the database cannot be reached: OperationalError",
        }
        assert client.get("/health").status_code == 200  # liveness: the process is up


@contextmanager
def database_of(kind: str) -> Iterator[str | None]:
    """None for SQLite (in the server's data folder), or a fresh PostgreSQL database."""
    if kind == "sqlite":
        yield None
    else:
        with postgres_database() as url:
            yield url


def play_some(clients: list[Client], rng: random.Random, moves: int) -> None:
    """The clients of one table make ``moves`` random legal moves between them, each client
    reading every event (a deal is dealt on its own after the last move of one)."""
    for _ in range(moves):
        catch_up(clients, max(c.version for c in clients))
        while not any(c.my_turn() for c in clients):  # a deal is being dealt
            catch_up(clients, max(c.version for c in clients) + 1)
        mover = next(c for c in clients if c.my_turn())
        assert mover.view is not None
        mover.intent(rng.choice(mover.view["legal_actions"]))
        catch_up(clients, mover.version + 1)


def catch_up(clients: list[Client], version: int) -> None:
    for c in clients:
        while c.version < version:
            c.recv()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_sigterm_turns_not_ready_finishes_the_moves_and_closes_with_1012(
    tmp_path: Path, kind: str
) -> None:
    """A process told to stop answers /ready 503 at once, goes on serving its tables for
    ``--drain`` seconds, then closes each WebSocket with 1012 after the moves it took are
    stored and told: the versions its clients saw are the table's stored version."""
    rng = random.Random(14)
    with database_of(kind) as url:
        server = Server(tmp_path, url, "--drain", str(DRAIN)).start()
        table = server.new_table([HUMAN, HUMAN, HUMAN], seed=3)
        clients = []
        for seat in range(3):
            taken = server.sit(table["id"], f"P{seat}", seat)
            clients.append(Client(server, table["id"], taken["token"], seat))
        play_some(clients, rng, 5)
        assert server.proc is not None
        os.kill(server.proc.pid, signal.SIGTERM)
        answer = server.get("/ready")
        while answer.status_code == 200:  # until the signal is handled
            answer = server.get("/ready")
        assert (answer.status_code, answer.json()["detail"]) == (503, STOPPING)
        play_some(clients, rng, 5)  # the drain serves on meanwhile
        last = clients[0].version
        mover = next(c for c in clients if c.my_turn())
        assert mover.view is not None
        mover.intent(rng.choice(mover.view["legal_actions"]))  # may be stored, or not taken
        for c in clients:
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    c.recv(DRAIN + 10)
            assert closed.value.rcvd is not None
            assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (
                RESTART_CODE,
                RESTART_REASON,
            )
            assert c.version in (last, last + 1)
        assert len({c.version for c in clients}) == 1, "the clients saw different versions"
        server.proc.wait(DRAIN + 20)
        seen = clients[0].version
        server.start()
        try:
            assert server.get(f"/tables/{table['id']}").json()["version"] == seen
        finally:
            server.stop()


# -- two processes behind HAProxy ------------------------------------------------------------


def served_by(link: TableLink) -> str | None:
    """The process (the proxy's name for it) that serves ``link``'s WebSocket now."""
    conn = link._conn
    if conn is None or conn.response is None:
        return None
    return conn.response.headers.get("X-Thousand-Process")


class Player:
    """A terminal client's link to one seat, through the proxy, making random legal moves."""

    def __init__(self, proxy: str, table: str, taken: dict[str, Any], rng: random.Random) -> None:
        self.rng = rng
        self.messages: list[dict[str, Any]] = []
        seat = Seat(proxy, table, int(taken["seat"]), str(taken["token"]))
        self.link = TableLink(seat, self.messages.append)
        self.task = asyncio.get_running_loop().create_task(self.link.run())

    async def connected(self, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while (process := served_by(self.link)) is None or self.link.snapshot is None:
            assert time.monotonic() < deadline, "the client did not connect through the proxy"
            await asyncio.sleep(0.02)
        return process

    def move_if_mine(self) -> None:
        view = self.link.view
        if view and view["legal_actions"] and self.link._pending is None:
            asyncio.get_running_loop().create_task(
                self.link.move(self.rng.choice(view["legal_actions"]))
            )

    def state(self) -> str:
        """Where the player is (for a failing test's message)."""
        view = self.link.view or {}
        return (
            f"seat {self.link.seat.seat} at version {self.link.version}, {view.get('phase')},"
            f" seat {view.get('to_act')} to act, pending {self.link._pending},"
            f" last {[m.get('type') for m in self.messages[-5:]]}"
        )

    async def close(self) -> None:
        await self.link.close()
        self.task.cancel()


async def play_until(players: list[Player], version: int, timeout: float = 60) -> None:
    """Let the players move until each has seen ``version``."""
    deadline = time.monotonic() + timeout
    while min(p.link.version for p in players) < version:
        assert time.monotonic() < deadline, [p.state() for p in players]
        for p in players:
            p.move_if_mine()
        await asyncio.sleep(0.01)


async def settled(players: list[Player], timeout: float = 30) -> int:
    """The version every player has seen once nobody moves: the players have stopped and it is
    a person's turn (not the bot's, seat 2, nor a deal's to be dealt)."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, [p.state() for p in players]
        versions = {p.link.version for p in players}
        await asyncio.sleep(0.5)
        view = players[0].link.view
        if (
            len(versions) == 1
            and versions == {p.link.version for p in players}
            and view is not None
            and view["to_act"] in (0, 1)
        ):
            return versions.pop()


def gapless(messages: list[dict[str, Any]]) -> list[int]:
    """The versions a client went through: each event one after the last, or a snapshot."""
    versions: list[int] = []
    for m in messages:
        if m["type"] == "snapshot":
            assert not versions or m["version"] >= versions[-1], "a snapshot went back"
            versions.append(m["version"])
        elif m["type"] == "event" and (not versions or m["version"] == versions[-1] + 1):
            versions.append(m["version"])
    return versions


def test_two_processes_behind_haproxy_serve_one_table_and_a_stopped_ones_client_moves_on(
    tmp_path: Path,
) -> None:
    """Two processes on one PostgreSQL and one Redis behind HAProxy (docs/deploy/haproxy.cfg),
    a table of two people and a bot, a client on each process: each sees the other's moves;
    SIGTERM the first one's process, and its client reconnects through the proxy to the other
    one, resyncs and plays on (the bot too, wherever its lease went), with nothing lost."""
    redis_up()
    with postgres_database() as url:
        one = Server(tmp_path / "one", url, "--bus", REDIS, "--drain", str(DRAIN)).start()
        two = Server(tmp_path / "two", url, "--bus", REDIS, "--drain", str(DRAIN)).start()
        try:
            with haproxy(tmp_path, {"one": one.port, "two": two.port}) as proxy:
                asyncio.run(two_players(proxy, {"one": one, "two": two}))
        finally:
            one.stop()
            two.stop()


async def two_players(proxy: str, servers: dict[str, Server]) -> None:
    rng = random.Random(2026)
    async with httpx.AsyncClient(base_url=proxy, timeout=10) as http:
        seats = [HUMAN, HUMAN, BOT]
        answer = await http.post("/tables", json={"template": "russian", "seats": seats})
        assert answer.status_code == 201, answer.text
        table = answer.json()["id"]
        taken = []
        for seat in range(2):
            sit = {"seat": seat, "name": f"P{seat}", "claim": new_claim()}
            answer = await http.post(f"/tables/{table}/seats", json=sit)
            assert answer.status_code == 201, answer.text
            taken.append(answer.json())
    first = Player(proxy, table, taken[0], rng)
    where = await first.connected()
    second = Player(proxy, table, taken[1], rng)
    while await second.connected() == where:  # leastconn sends it to the other, or try again
        await second.close()
        second = Player(proxy, table, taken[1], rng)
    players = [first, second]
    try:
        await play_until(players, 12)
        stopped = servers[where]
        assert stopped.proc is not None
        os.kill(stopped.proc.pid, signal.SIGTERM)
        before = first.link.version
        deadline = time.monotonic() + DRAIN + 30
        while served_by(first.link) in (None, where):
            assert time.monotonic() < deadline, "the client did not move to the other process"
            await play_until(players, min(p.link.version for p in players) + 1)
        assert await first.connected() != where
        await play_until(players, before + 12)
        assert stopped.proc.wait(DRAIN + 20) is not None
        top = await settled(players)
        for p in players:
            assert gapless(p.messages)[-1] == top
        totals = {tuple(p.link.view["match"]["totals"]) for p in players if p.link.view}
        assert len(totals) == 1, totals
    finally:
        for p in players:
            await p.close()
    survivor = next(s for name, s in servers.items() if name != where)
    stored = survivor.get(f"/tables/{table}").json()["version"]
    assert stored == top, (stored, top)
