"""The server under real faults, on SQLite and PostgreSQL: every player asking for the rematch
at once, a database locked (or its connections cut) under live tables, a seat's new occupant
reusing its predecessor's intent ids, and kill -9 around taking a seat."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import random
import re
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import sqlalchemy.exc
from sqlalchemy import event, func, select
from websockets.sync.client import connect

from thousand.client.link import new_claim
from thousand.engine import Game
from thousand.rules import TEMPLATES, template_rules
from thousand.server import storage
from thousand.server.storage import (
    DealRow,
    MoveRow,
    SeatRow,
    SeatSpec,
    Store,
    StoreConflict,
    TableRow,
    TableStatus,
    database_url,
)
from thousand.server.tables import WRITE_PATIENCE

from .server_support import (
    BOT,
    HUMAN,
    SHORT_MATCH,
    Client,
    Server,
    finished,
    running,
)


def store_of(server: Server) -> Store:
    return Store(database_url(server.database, server.data))


# -- the rematch race -----------------------------------------------------------------------------


def finish_match(server: Server) -> tuple[str, list[str]]:
    """A match of three people played to its end: the table and the seats' tokens."""
    tid = server.new_table([HUMAN, HUMAN, HUMAN], SHORT_MATCH, seed=2)["id"]
    tokens = [server.sit(tid, name, seat)["token"] for seat, name in enumerate("ABC")]
    clients = [Client(server, tid, token, seat) for seat, token in enumerate(tokens)]
    rng = random.Random(2)
    while not any(finished(m) for m in clients[0].messages):
        top = max(c.version for c in clients)
        for c in clients:
            while c.version < top:
                c.recv()
        mover = next((c for c in clients if c.my_turn()), None)
        if mover is not None:
            assert mover.view is not None
            mover.intent(rng.choice(mover.view["legal_actions"]))
            mover.recv_until(lambda m: m["type"] in ("ack", "error"))
    for c in clients:
        c.close()
    return tid, tokens


def clone_finished(store: Store, table_id: str) -> str:
    """A copy of a finished table under a new id, rows and seat tokens alike: a fresh finished
    match whose players hold the same tokens."""
    new = f"c{random.getrandbits(60):015x}"
    with store.engine.begin() as conn:
        for table in (storage.tables, storage.seats, storage.deals, storage.moves):
            key = table.c.id if table is storage.tables else table.c.table_id
            rows = [dict(r._mapping) for r in conn.execute(select(table).where(key == table_id))]
            for row in rows:
                row[key.name] = new
                if table is storage.tables:
                    row["rematch"] = None
                conn.execute(table.insert().values(**row))
    return new


def test_every_player_asking_for_the_rematch_at_once_gets_one_table(
    tmp_path: Path, database: str | None
) -> None:
    rounds = 16
    with running(tmp_path / "data", database) as server:
        original, tokens = finish_match(server)
        store = store_of(server)
        try:
            for _ in range(rounds):
                old = clone_finished(store, original)
                claims = [new_claim() for _ in tokens]
                answers: list[httpx.Response | None] = [None] * len(tokens)
                start = threading.Barrier(len(tokens))

                def ask(
                    seat: int,
                    old: str = old,
                    claims: list[str] = claims,
                    start: threading.Barrier = start,
                    answers: list[httpx.Response | None] = answers,
                ) -> None:
                    start.wait()
                    answers[seat] = server.post(
                        f"/tables/{old}/rematch", {"claim": claims[seat]}, token=tokens[seat]
                    )

                threads = [threading.Thread(target=ask, args=(s,)) for s in range(len(tokens))]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join(30)
                got = [a.json() for a in answers if a is not None and a.status_code == 201]
                assert len(got) == len(tokens), [a.text if a else None for a in answers]
                new = {g["table"] for g in got}
                assert len(new) == 1, f"one rematch table, not {len(new)}"
                with store.engine.connect() as conn:
                    made = conn.execute(
                        select(func.count()).where(storage.tables.c.rematch_of == old)
                    ).scalar_one()
                assert made == 1
                assert sorted(g["seat"] for g in got) == [0, 1, 2]
                table = server.get(f"/tables/{new.pop()}").json()
                assert table["rematch_of"] == old and table["status"] == "playing"
                assert [s["name"] for s in table["seats"]] == ["A", "B", "C"]
                assert server.get(f"/tables/{old}").json()["rematch"] == table["id"]
                assert [g["token"] for g in sorted(got, key=lambda g: g["seat"])] == claims
        finally:
            store.close()


# -- a locked database ----------------------------------------------------------------------------


@contextmanager
def database_locked(server: Server) -> Iterator[None]:
    """Another connection holds the write lock: SQLite's BEGIN EXCLUSIVE, PostgreSQL's LOCK
    TABLE in EXCLUSIVE mode (reads go on, writes wait)."""
    if server.database is None:
        conn = sqlite3.connect(server.data / "thousand.sqlite3", isolation_level=None)
        conn.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")
            conn.close()
    else:
        with psycopg.connect(server.database) as pg:
            pg.execute("LOCK TABLE tables, seats, moves IN EXCLUSIVE MODE")
            try:
                yield
            finally:
                pg.rollback()


def cut_connections(url: str) -> int:
    """PostgreSQL ends every other connection to the server's database (as a restart of the
    database, or a network cut, would)."""
    with psycopg.connect(url, autocommit=True) as pg:
        cut = pg.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    return int(cut[0]) if cut else 0


def wait_for(what: str, done: Any, limit: float = 20) -> None:
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def version_of(server: Server, table_id: str) -> int:
    return int(server.get(f"/tables/{table_id}").json()["version"])


#: every built-in template (each resumes after a restart)
ALL = sorted(TEMPLATES)


def players(template: str) -> int:
    return template_rules(template).players_count


def assert_whole(store: Store, table_id: str, watcher: Client | None = None) -> None:
    """The stored table has one row per version, and every move the watcher was told of (the
    bots play on meanwhile: the rows may be ahead of the table's version read before them)."""
    row = store.load(table_id)
    assert row is not None
    versions = sorted([d.version for d in row.deals] + [m.version for m in row.moves])
    assert versions == list(range(1, len(versions) + 1)) and len(versions) >= row.version
    stored = {m.version: m.move for m in row.moves}
    for m in watcher.messages if watcher else []:
        if m["type"] == "event" and m["event"]["kind"] == "move" and m["event"]["move"]:
            assert stored[m["version"]] == m["event"]["move"], m["version"]


def test_a_locked_database_refuses_clearly_and_the_bots_resume(
    tmp_path: Path, database: str | None
) -> None:
    with running(tmp_path / "data", database) as server:
        bots = server.new_table([BOT, BOT, BOT], seed=3)["id"]
        # and a table of bots of every template, playing flat out
        every = {
            t: server.new_table([BOT] * players(t), seed=i, template=t)["id"]
            for i, t in enumerate(TEMPLATES)
        }
        ann_table = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH, seed=4)["id"]
        ann = Client(server, ann_table, server.sit(ann_table, "Ann", 0)["token"], 0)
        while not ann.my_turn():
            ann.recv()
        empty = server.new_table([HUMAN, HUMAN, BOT], SHORT_MATCH)["id"]
        watcher = Client(server, bots, None, None)
        wait_for("the bots play", lambda: version_of(server, bots) > 5)
        assert ann.view is not None
        move = ann.view["legal_actions"][0]
        # the patience, and the writes of the other tables ahead in the queue
        answered_within = WRITE_PATIENCE + 4
        held = answered_within + 2
        with database_locked(server):
            locked_at = time.monotonic()
            # a person's move gets a clear error that changes nothing, not silence
            intent = ann.intent(move)
            answer = ann.recv_until(lambda m: m.get("intent") == intent, answered_within)
            assert answer["type"] == "error" and answer["code"] == "unavailable", answer
            assert answer["message"] == (
                "the table could not be saved: the database is busy; try again"
            )
            # a person's request gets a clear 503, not a 500 nor a cut connection
            refused = server.post(f"/tables/{empty}/seats", {"name": "Bob", "claim": new_claim()})
            assert refused.status_code == 503, refused.text
            assert refused.json()["detail"].startswith("the table could not be saved")
            frozen = version_of(server, bots)
            stopped = {t: version_of(server, tid) for t, tid in every.items()}
            time.sleep(max(0.0, held - (time.monotonic() - locked_at)))
            assert version_of(server, bots) == frozen, "a write went through the lock"
            assert {t: version_of(server, tid) for t, tid in every.items()} == stopped
        # the bots resume by themselves, and so does the person, with the same intent
        wait_for("the bots resume", lambda: version_of(server, bots) > frozen + 20)
        for t, tid in every.items():
            wait_for(
                f"{t}: the bots resume",
                lambda t=t, tid=tid: version_of(server, tid) > stopped[t] + 3,
            )
        assert version_of(server, ann_table) == ann.version
        seen = ann.version
        ann.send({"type": "intent", "id": intent, "move": move, "version": seen})
        acked = ann.recv_until(lambda m: m.get("intent") == intent)
        assert acked == {"type": "ack", "intent": intent, "version": seen + 1}
        assert server.sit(empty, "Bob", 0)["seat"] == 0
        if database is not None:  # and when the database drops every connection
            for _ in range(3):
                before = version_of(server, bots)
                assert cut_connections(database) >= 1
                wait_for("the bots go on", lambda b=before: version_of(server, bots) > b + 10)
        if database is not None:  # and reads wait for a lock that PostgreSQL can take on them
            busy = {"detail": "the table could not be saved: the database is busy; try again"}
            with psycopg.connect(database) as pg:
                pg.execute("LOCK TABLE tables IN ACCESS EXCLUSIVE MODE")
                # a table not in memory is read from the database, as is the list of games
                for path in ("/games", "/tables/elsewhere"):
                    read = server.get(path)
                    assert (read.status_code, read.json()) == (503, busy), path
                with connect(f"{server.ws}/tables/elsewhere/ws") as ws:
                    ws.send(json.dumps({"type": "hello"}))
                    refused = json.loads(ws.recv(10))
                pg.rollback()
            assert refused == {"type": "error", "code": "unavailable", "message": busy["detail"]}
            assert server.get("/tables/elsewhere").status_code == 404
        watcher.recv_until(lambda m: m["type"] == "event" and m["version"] >= frozen + 20)
        watcher.close()
        ann.close()
        store = store_of(server)
        try:
            assert_whole(store, bots, watcher)
            for tid in every.values():
                assert_whole(store, tid)
        finally:
            store.close()
    log = server.log.read_text()
    assert "append_move failed (try 1), again in 0.05 s: " in log
    assert re.search(r"append_move failed \d+ times; given up", log)
    assert f"table {bots}: its next change waits 0.05 s for the database" in log
    assert f"table {bots} goes on: the database is back" in log
    assert "Traceback" not in log


# -- intent ids belong to the seat's occupant ----------------------------------------------------


# -- kill -9 while seats are taken ----------------------------------------------------------------


def wait_for_stored_seats(server: Server, table_ids: list[str], count: int) -> None:
    """Return as soon as ``count`` seats of these tables are stored as taken (read from the
    database directly, as fast as it answers)."""
    marks = ", ".join("?" if server.database is None else "%s" for _ in table_ids)
    query = f"SELECT count(*) FROM seats WHERE token_hash IS NOT NULL AND table_id IN ({marks})"
    deadline = time.monotonic() + 10
    if server.database is None:
        lite = sqlite3.connect(server.data / "thousand.sqlite3", isolation_level=None)
        try:
            while lite.execute(query, table_ids).fetchone()[0] < count:
                assert time.monotonic() < deadline, "the seats were not stored"
        finally:
            lite.close()
    else:
        with psycopg.connect(server.database, autocommit=True) as pg:
            while (row := pg.execute(query, table_ids).fetchone()) and row[0] < count:
                assert time.monotonic() < deadline, "the seats were not stored"


def test_killed_while_seats_are_taken_no_seat_is_lost(tmp_path: Path, database: str | None) -> None:
    """People take every seat of four tables at once (of every template that a restart
    rebuilds, in turn) and the
    server is killed around it (at a random moment, or as soon as some seats are stored), six
    times; after each restart
    each of them holds its seat with a token it has: the one answered, or, where no answer
    came, the one the same request sent again gets. So every seat is played, and every table
    starts."""
    rng = random.Random(5)
    tables, kills = 4, 6
    server = Server(tmp_path / "data", database).start()
    lost = []
    try:
        # how long taking a seat takes here, to kill before, during and after it
        probe = server.new_table([HUMAN, BOT, BOT], SHORT_MATCH)["id"]
        began = time.monotonic()
        server.sit(probe, "probe")
        took = time.monotonic() - began
        for kill in range(kills):
            chosen = [ALL[(tables * kill + k) % len(ALL)] for k in range(tables)]
            made = [server.new_table([HUMAN] * players(t), SHORT_MATCH, template=t) for t in chosen]
            ids = [m["id"] for m in made]
            requests = [
                (m["id"], seat, new_claim()) for m in made for seat in range(len(m["seats"]))
            ]
            answers: list[httpx.Response | None] = [None] * len(requests)
            start = threading.Barrier(len(requests) + 1)

            def take(
                i: int,
                requests: list[tuple[str, int, str]] = requests,
                answers: list[httpx.Response | None] = answers,
                start: threading.Barrier = start,
            ) -> None:
                tid, seat, claim = requests[i]
                body = {"seat": seat, "name": f"P{seat}", "claim": claim}
                start.wait()
                with contextlib.suppress(httpx.HTTPError):  # killed before it answered
                    answers[i] = server.post(f"/tables/{tid}/seats", body)

            threads = [threading.Thread(target=take, args=(i,)) for i in range(len(requests))]
            for t in threads:
                t.start()
            start.wait()
            if kill % 2:  # at a random moment
                time.sleep(rng.uniform(0, 3 * took))
            else:  # as soon as some of the seats are stored, before all are answered
                wait_for_stored_seats(server, ids, rng.randint(1, len(requests) - 1))
            server.kill()
            for t in threads:
                t.join(15)
            server.start()
            tokens = []
            for (tid, seat, claim), answer in zip(requests, answers, strict=True):
                if answer is None:  # the same request again
                    body = {"seat": seat, "name": f"P{seat}", "claim": claim}
                    answer = server.post(f"/tables/{tid}/seats", body)
                    if answer.status_code != 201:
                        lost.append(f"table {tid} seat {seat}: {answer.text}")
                        continue
                assert answer.status_code == 201, answer.text
                tokens.append((tid, seat, answer.json()["token"]))
            assert lost == [], lost
            for tid, seat, token in tokens:
                client = Client(server, tid, token, seat)
                if client.view is None:  # the snapshot came before the first deal
                    client.recv_until(lambda m: m["type"] == "event")
                assert client.view is not None and client.view["seat"] == seat
                client.close()
            for tid in ids:
                assert server.get(f"/tables/{tid}").json()["status"] == "playing"
    finally:
        server.stop()


# -- writes tried again ---------------------------------------------------------------------------

SPECS = (SeatSpec("human"), SeatSpec("bot", "easy"), SeatSpec("bot", "easy"))


def table_t1(store: Store, status: TableStatus) -> DealRow:
    """Table ``t1`` (russian, a person and two bots, in ``status``) stored in a migrated
    ``store``, and the deal it would store first."""
    store.migrate()
    row = TableRow("t1", 1.0, "russian", {}, SPECS, 7, status, 0, seats=[SeatRow()] * 3)
    store.create_table(row)
    dealt = Game.start(template_rules("russian")).shuffle_and_deal(random.Random(1))
    return DealRow(1, 1, 0, dealt.logs[-1].dealt)


def test_a_write_tried_again_after_an_unseen_commit_changes_nothing(
    tmp_path: Path, database: str | None
) -> None:
    """Hub.write tries a write again when its try failed, and a try can fail after its commit
    (the connection dropped at the commit): the same write again is a no-op; a different one
    at a version already stored, or a second rematch of one table, is refused."""
    store = Store(database_url(database, tmp_path / "data"))
    try:
        deal = table_t1(store, TableStatus.FINISHED)
        move = MoveRow(2, 1, 1, "pass", "i-1", 1)
        for _ in range(2):
            store.append_deal("t1", deal, TableStatus.PLAYING)
            store.append_move("t1", move, TableStatus.PLAYING)
        loaded = store.load("t1")
        assert loaded is not None and loaded.version == 2
        assert loaded.deals == [deal] and loaded.moves == [move]
        with pytest.raises(StoreConflict, match="table t1 is not at version 1"):
            store.append_move("t1", MoveRow(2, 1, 1, "110", "i-2", 1), TableStatus.PLAYING)
        with pytest.raises(StoreConflict, match="table t1 is not at version 3"):
            store.append_move("t1", MoveRow(4, 1, 1, "110", "i-2", 1), TableStatus.PLAYING)
        again = store.load("t1")
        assert again is not None and again.moves == [move] and again.version == 2
        # one rematch per finished table, the first stored; its own try again is a no-op
        first = TableRow(
            "r1", 2.0, "russian", {}, SPECS, 8, TableStatus.OPEN, 0, "t1", seats=[SeatRow()] * 3
        )
        store.create_table(first)
        store.create_table(first)
        second = TableRow(
            "r2", 3.0, "russian", {}, SPECS, 9, TableStatus.OPEN, 0, "t1", seats=[SeatRow()] * 3
        )
        with pytest.raises(StoreConflict) as refused:
            store.create_table(second)
        assert refused.value.existing == "r1"
        assert store.load("r2") is None
        loaded = store.load("t1")
        assert loaded is not None and loaded.rematch == "r1"
    finally:
        store.close()


def test_a_socket_found_closed_under_a_write_discards_the_connection(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """psycopg can find a connection's socket closed ("connection socket closed") before libpq
    marks the connection broken, as when PostgreSQL cuts it mid-write. The store counts that
    as a lost connection: the pool discards it rather than roll it back (which fails, and was
    logged as a traceback), and the write tried again takes a new one."""
    from .server_support import postgres_database

    def socket_closed(_conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        if statement.startswith("INSERT INTO deals"):
            pg = cursor.connection
            with socket.socket(fileno=os.dup(pg.pgconn.socket)) as cut:
                cut.shutdown(socket.SHUT_RDWR)
            # and psycopg finds it closed on every call, libpq not yet knowing
            pg.rollback = pg.commit = found_closed
            found_closed()

    def found_closed() -> None:
        raise psycopg.OperationalError("connection socket closed")

    with postgres_database() as url:
        store = Store(database_url(url, tmp_path))
        try:
            deal = table_t1(store, TableStatus.PLAYING)
            event.listen(store.engine, "before_cursor_execute", socket_closed)
            with (
                caplog.at_level(logging.DEBUG, "sqlalchemy.pool"),
                pytest.raises(sqlalchemy.exc.OperationalError) as lost,
            ):
                store.append_deal("t1", deal, TableStatus.PLAYING)
            event.remove(store.engine, "before_cursor_execute", socket_closed)
            assert lost.value.connection_invalidated
            assert "Traceback" not in caplog.text and "during reset" not in caplog.text
            before = store.load("t1")
            assert before is not None and before.version == 0 and before.deals == []
            store.append_deal("t1", deal, TableStatus.PLAYING)
            after = store.load("t1")
            assert after is not None and after.version == 1 and after.deals == [deal]
        finally:
            store.close()
