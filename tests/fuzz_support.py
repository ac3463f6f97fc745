"""Helpers of the fuzz tests (test_fuzz_api, test_fuzz_ws): a real server on either database
with a set of tables that stand still (people seated, mid-deal, the table waiting for a person;
a table waiting for its people; a finished match), and the tables as stored, to compare before
and after.

A table that waits for a person changes only when a request is accepted, so a refused one must
leave every table's stored record (its row, seats, deals, moves and hints) as it was. The one
field left out is ``seen``: the time a person was last connected, which a connection moves.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from thousand.rules import template_rules
from thousand.server.storage import Store, database_url

from .server_support import (
    BOT,
    HUMAN,
    SHORT_MATCH,
    Client,
    Message,
    Server,
    modest,
    postgres_database,
    running,
)

DATABASES = ["sqlite", "postgresql"]
#: request limits that the fuzzing does not reach (a 429 would hide what it sends)
SERVER_LIMITS = ("--request-rate", "100000", "--request-burst", "100000")
#: human moves made at a table before it is left to the fuzzing: it is mid-deal
MOVES = 4


@dataclass
class Seated:
    """A table mid-deal: two people seated (the rest bots) and a spectator, each connected;
    the table waits for ``mover``."""

    id: str
    template: str
    people: list[Client]
    tokens: list[str]
    watcher: Client
    #: the intents each person's seat has had acknowledged: id -> version
    acked: list[dict[str, int]] = field(default_factory=list)

    @property
    def mover(self) -> Client:
        return next(c for c in self.people if c.my_turn())

    @property
    def version(self) -> int:
        return max(c.version for c in self.people)


@dataclass
class Site:
    """A server with its tables, and the database it stores them in."""

    server: Server
    store: Store
    seated: dict[str, Seated]
    #: a table waiting for its people (a free human seat), by template
    waiting: dict[str, str]
    #: a finished match, where there is one
    finished: str | None

    def table_ids(self) -> list[str]:
        finished = [] if self.finished is None else [self.finished]
        return [*self.seated, *self.waiting.values(), *finished]

    def stored(self) -> dict[str, dict[str, Any]]:
        """Every table as stored, ``seen`` aside."""
        out = {}
        for table_id in self.table_ids():
            row = self.store.load(table_id)
            assert row is not None, table_id
            kept = dataclasses.asdict(row)
            kept.pop("seen")
            out[table_id] = kept
        return out


@contextmanager
def database_of(kind: str) -> Iterator[str | None]:
    """None for SQLite, or a fresh PostgreSQL database's URL (skipped where there is none,
    failed under CI=true)."""
    if kind == "sqlite":
        yield None
    else:
        with postgres_database() as url:
            yield url


@contextmanager
def site_on(
    kind: str, data: Path, seated: list[str], waiting: list[str], finished: bool
) -> Iterator[Site]:
    """A server on ``kind`` of database whose request limits the fuzzing does not reach, with
    a table mid-deal for each template of ``seated``, a table waiting for its people for each
    of ``waiting``, and a finished match where ``finished`` asks for one."""
    with database_of(kind) as url, running(data, url, *SERVER_LIMITS) as server:
        store = Store(database_url(url, data))
        try:
            tables = {s.id: s for s in (seat_people(server, t) for t in seated)}
            waits = {t: server.new_table(seats_of(t), seed=3, template=t)["id"] for t in waiting}
            done = finished_match(server) if finished else None
            site = Site(server, store, tables, waits, done)
            yield site
            for s in site.seated.values():
                for c in (*s.people, s.watcher):
                    c.close()
        finally:
            store.close()


def seats_of(template: str) -> list[Message]:
    """Two people, the rest bots."""
    return [HUMAN, HUMAN] + [BOT] * (template_rules(template).players_count - 2)


def seat_people(server: Server, template: str) -> Seated:
    """A table of ``template`` with two people and a spectator, ``MOVES`` person's moves into
    its first deal, waiting for a person."""
    tid = server.new_table(seats_of(template), seed=11, template=template)["id"]
    tokens = [server.sit(tid, name, seat)["token"] for seat, name in enumerate(("Ann", "Bob"))]
    people = [Client(server, tid, token, seat) for seat, token in enumerate(tokens)]
    table = Seated(tid, template, people, tokens, Client(server, tid, None, None))
    table.acked = [{}, {}]
    choose = modest(random.Random(template))
    for _ in range(MOVES):
        mover = settle(table)
        assert mover.view is not None and mover.seat is not None
        move = choose(list(mover.view["legal_actions"]))
        intent_id = mover.intent(move)
        answer = mover.recv_until(lambda m: m["type"] in ("ack", "error"))
        assert answer["type"] == "ack", answer
        table.acked[mover.seat][intent_id] = answer["version"]
    settle(table)
    return table


def settle(table: Seated) -> Client:
    """Read every connection of ``table`` up to the point where the table waits for a person
    (it has dealt and its bots have moved); that person's connection."""
    people = table.people
    while True:
        latest = max(c.version for c in people)
        mover = next((c for c in people if c.my_turn()), None)
        if mover is not None and all(c.version == latest for c in people):
            break
        min(people, key=lambda c: (c.version, c.seat)).recv()
    while table.watcher.version < mover.version:
        table.watcher.recv()
    return mover


def finished_match(server: Server, limit_s: float = 120) -> str:
    """A short match of bots, played to its end."""
    tid = str(server.new_table([BOT, BOT, BOT], SHORT_MATCH, seed=5)["id"])
    deadline = time.monotonic() + limit_s
    while server.get(f"/tables/{tid}").json()["status"] != "finished":
        if time.monotonic() > deadline:
            pytest.fail(f"the bots' match {tid} did not end in {limit_s} s")
        time.sleep(0.2)
    return tid


def no_traceback(server: Server) -> None:
    """The server's log holds no traceback (a request that fell to a 500 leaves one)."""
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[max(0, log.index("Traceback") - 2000) :][:6000]
