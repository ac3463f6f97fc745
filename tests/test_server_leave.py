"""Leaving a table and tables nobody is at: a seat left during the match is played on by a
medium bot, a table no person holds a seat at is closed and leaves the lists, and a table
nobody has been connected to for ``--close-idle`` seconds is closed too, also across a restart
and in a database of an older schema (SQLite and PostgreSQL)."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from websockets.sync.client import connect

from thousand.rules import TEMPLATES, rules_from_record
from thousand.server.migrate import config
from thousand.server.storage import Store, database_url

from .server_support import (
    BOT,
    HUMAN,
    SHORT_MATCH,
    Client,
    Message,
    Server,
    modest,
    play_turn,
    running,
    running_on,
)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with running_on(request.param, tmp_path_factory.mktemp("leave")) as s:
        yield s


def status(server: Server, table_id: str) -> str:
    answer: str = server.get(f"/tables/{table_id}").json()["status"]
    return answer


def listed(server: Server, table_id: str) -> bool:
    """Whether a list of the lobby shows the table (open, or being played now)."""
    live = server.get("/api/tables/live?limit=200").json()["tables"]
    open_ = server.get("/tables?limit=200").json()
    return table_id in [t["id"] for t in live] + [t["id"] for t in open_]


def wait_status(server: Server, table_id: str, wanted: str, limit_s: float = 15) -> float:
    """Seconds until the table's status is ``wanted``."""
    start = time.monotonic()
    while status(server, table_id) != wanted:
        assert time.monotonic() - start < limit_s, f"table {table_id} is {status(server, table_id)}"
        time.sleep(0.05)
    return time.monotonic() - start


@pytest.mark.parametrize("template", TEMPLATES)
def test_a_seat_left_during_the_match_is_played_on_by_a_medium_bot(
    server: Server, template: str
) -> None:
    players = rules_from_record(template, {}).players_count
    table = server.new_table([HUMAN, HUMAN] + [BOT] * (players - 2), SHORT_MATCH, 5, template)
    tid = table["id"]
    ann_token = server.sit(tid, "Ann", 0)["token"]
    bob_token = server.sit(tid, "Bob", 1)["token"]
    ann = Client(server, tid, ann_token, 0)
    bob = Client(server, tid, bob_token, 1)
    watcher = Client(server, tid, None, None)
    bob.send({"type": "leave"})
    left = bob.recv_until(lambda m: m["type"] == "error")
    assert left["code"] == "left"
    seats = ann.recv_until(lambda m: m["type"] == "seats")
    assert seats["status"] == "playing"
    assert seats["seats"][1] == {
        "seat": 1,
        "kind": "bot",
        "level": "medium",
        "name": "medium-bot-1",
        "taken": True,
        "rating": None,
    }
    assert server.get(f"/tables/{tid}").json()["seats"][1]["kind"] == "bot"
    # Bob's token is void; the bot plays seat 1 on while Ann plays hers
    assert server.delete_seat(tid, 1, bob_token).status_code == 403
    choose = modest(random.Random(5))
    deadline = time.monotonic() + 60
    while not any(
        m["type"] == "event" and m["event"].get("seat") == 1 and m["event"]["kind"] == "move"
        for m in ann.messages
    ):
        assert time.monotonic() < deadline, "the bot never played seat 1"
        if ann.my_turn():
            assert play_turn(ann, choose)["type"] == "ack"
        else:
            ann.recv()
    assert status(server, tid) == "playing" and listed(server, tid)
    # the last person leaves: the table is closed, everyone connected is told, and it leaves
    # the lists
    assert server.delete_seat(tid, 0, ann_token).status_code == 204
    closed = watcher.recv_until(lambda m: m["type"] == "seats" and m["status"] == "closed")
    assert closed["seats"][0]["taken"] is False
    assert status(server, tid) == "closed"
    assert not listed(server, tid)
    version = server.get(f"/tables/{tid}").json()["version"]
    time.sleep(0.3)  # nothing more is played (the bots stop)
    assert server.get(f"/tables/{tid}").json()["version"] == version
    assert server.post(f"/tables/{tid}/seats", {"name": "Cid"}).status_code == 409
    for client in (ann, bob, watcher):
        client.close()


def test_leaving_before_the_match_frees_the_seat_and_the_last_person_closes(
    server: Server,
) -> None:
    tid = server.new_table([HUMAN, HUMAN, HUMAN])["id"]
    ann = server.sit(tid, "Ann", 0)["token"]
    bob = server.sit(tid, "Bob", 1)["token"]
    assert server.delete_seat(tid, 1, bob).status_code == 204
    table = server.get(f"/tables/{tid}").json()
    assert table["status"] == "open" and table["free_seats"] == [1, 2]
    assert listed(server, tid)
    assert server.delete_seat(tid, 0, ann).status_code == 204
    assert status(server, tid) == "closed"
    assert not listed(server, tid)
    # a spectator is told it is closed; a closed table is not a finished game
    assert Client(server, tid, None, None).messages[0]["status"] == "closed"
    assert tid not in [g["id"] for g in server.get("/games").json()]


def test_a_spectator_cannot_leave(server: Server) -> None:
    tid = server.new_table([HUMAN, BOT, BOT])["id"]
    server.sit(tid, "Ann", 0)
    watcher = Client(server, tid, None, None)
    watcher.send({"type": "leave"})
    assert watcher.recv_until(lambda m: m["type"] == "error")["code"] == "spectator"
    assert status(server, tid) == "playing"
    watcher.close()


def test_a_table_nobody_is_at_is_closed_after_close_idle(tmp_path: Path) -> None:
    with running(tmp_path, None, "--close-idle", "1") as server:
        left = server.new_table([HUMAN, BOT, BOT])["id"]
        ann = Client(server, left, server.sit(left, "Ann", 0)["token"], 0)
        watched = server.new_table([HUMAN, BOT, BOT])["id"]
        server.sit(watched, "Bob", 0)
        watcher = Client(server, watched, None, None)
        nobody = server.new_table([HUMAN, HUMAN, BOT])["id"]  # open: nobody ever sat
        ann.close()
        assert wait_status(server, left, "closed") < 3
        assert wait_status(server, nobody, "closed") < 3
        assert not listed(server, left) and not listed(server, nobody)
        time.sleep(1.5)  # a spectator is a person at the table: it stays
        assert status(server, watched) == "playing" and listed(server, watched)
        watcher.close()
        wait_status(server, watched, "closed")


def test_when_a_person_was_last_at_a_table_survives_a_restart(
    tmp_path: Path, database: str | None
) -> None:
    server = Server(tmp_path, database, "--close-idle", "4").start()
    try:
        tid = server.new_table([HUMAN, BOT, BOT])["id"]
        ann = Client(server, tid, server.sit(tid, "Ann", 0)["token"], 0)
        ann.close()
        time.sleep(1.0)  # a sweep (every 0.4 s here) stores when Ann was last there
        server.kill()
        time.sleep(3.5)
        server.start()
        # counted from Ann's leaving, not from the restart: closed at the first sweeps
        assert wait_status(server, tid, "closed", limit_s=20) < 2.5
        assert not listed(server, tid)
    finally:
        server.stop()


def test_a_table_of_an_older_database_opens_and_counts_from_the_start(
    tmp_path: Path, database: str | None
) -> None:
    with running(tmp_path, database) as server:
        tid = server.new_table([HUMAN, BOT, BOT])["id"]
        server.sit(tid, "Ann", 0)
    store = Store(database_url(database, tmp_path))
    command.downgrade(config(store.engine), "0003")
    with store.engine.begin() as conn:  # made long ago, by a server that kept no such time
        conn.execute(sa.text("UPDATE tables SET created = 0"))
        columns = [c["name"] for c in sa.inspect(conn).get_columns("tables")]
    assert "seen" not in columns
    store.close()
    with running(tmp_path, database, "--close-idle", "2") as server:
        answer: Message = server.get(f"/tables/{tid}").json()
        assert answer["status"] == "playing" and listed(server, tid)
        assert wait_status(server, tid, "closed") > 0.5
    store = Store(database_url(database, tmp_path))
    with store.engine.connect() as conn:
        assert "seen" in [c["name"] for c in sa.inspect(conn).get_columns("tables")]
    store.close()


def play_both(
    clients: list[Client], until: Callable[[], bool], waiting: Client | None = None
) -> None:
    """Play every client's turns (at random: always passing can redeal for ever) until
    ``until()``, reading what ``waiting`` is told meanwhile."""
    choose = random.Random(7).choice
    deadline = time.monotonic() + 60
    while not until():
        assert time.monotonic() < deadline, "the play did not get there"
        for client in clients:
            if client.my_turn():
                assert play_turn(client, choose)["type"] == "ack"
        for client in [*clients, *([waiting] if waiting else [])]:
            with contextlib.suppress(TimeoutError):
                while True:  # everything it has been told so far
                    client.recv(timeout=0.05)


def moved(client: Client, seat: int) -> bool:
    return any(
        m["type"] == "event" and m["event"]["kind"] == "move" and m["event"].get("seat") == seat
        for m in client.messages
    )


def test_a_seat_left_during_the_match_stays_the_bots_after_kill_9(
    tmp_path: Path, database: str | None
) -> None:
    """At a table of every template Ann moves with the intent id ``move-1`` and leaves; after
    a kill -9 and a restart her seat is still the medium bot's, which plays it on beside
    Boris, and her token (and its intent ids) answer nothing."""
    server = Server(tmp_path / "data", database).start()
    try:
        tables: dict[str, tuple[str, str]] = {}
        for template in TEMPLATES:
            players = rules_from_record(template, {}).players_count
            seats = [HUMAN, HUMAN] + [BOT] * (players - 2)
            tid = server.new_table(seats, SHORT_MATCH, 8, template)["id"]
            ann_token = server.sit(tid, "Ann", 0)["token"]
            boris_token = server.sit(tid, "Boris", 1)["token"]
            ann = Client(server, tid, ann_token, 0)
            boris = Client(server, tid, boris_token, 1)
            play_both([boris], ann.my_turn, ann)
            assert ann.view is not None
            ann.intent(ann.view["legal_actions"][-1], "move-1")
            assert ann.recv_until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
            assert server.delete_seat(tid, 0, ann_token).status_code == 204
            ann.close()
            boris.close()
            tables[tid] = (ann_token, boris_token)
        server.kill()
        server.start()
        for tid, (ann_token, boris_token) in tables.items():
            seat0 = server.get(f"/tables/{tid}").json()["seats"][0]
            assert (seat0["kind"], seat0["level"]) == ("bot", "medium")
            assert seat0["name"] == "medium-bot-0"
            boris = Client(server, tid, boris_token, 1)
            version = boris.version
            play_both([boris], lambda b=boris: moved(b, 0))  # type: ignore[misc]
            assert boris.version > version
            boris.close()
            with connect(f"{server.ws}/tables/{tid}/ws") as ws:
                ws.send(json.dumps({"type": "hello", "token": ann_token}))
                assert json.loads(ws.recv(5))["code"] == "bad_token"
    finally:
        server.stop()
