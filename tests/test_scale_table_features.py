"""The chat and the clocks across server processes (``thousand serve --bus``): a message said
through one process reaches the seats connected through another, and a timed table's lease
holder never plays for a seat that is connected through another process (it does once that
seat has been away past its grace)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from thousand.rules import TEMPLATES, template_rules
from thousand.server.storage import MoveRow, Store, database_url

from .chat_support import ChatClient
from .scale_support import processes, redis
from .server_support import BOT, HUMAN, Client, Server, modest, play_turn, postgres_database

ANN = 0


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """Two processes on one PostgreSQL database and one Redis, for the whole module."""
    folder = tmp_path_factory.mktemp("scale-features")
    with (
        postgres_database() as url,
        redis(folder / "redis") as bus,
        processes(folder, url, bus.url, 2) as servers,
    ):
        yield servers


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_a_chat_message_reaches_the_seats_of_the_other_process(
    pair: list[Server], template: str
) -> None:
    a, b = pair
    count = template_rules(template).players_count
    tid = a.new_table([HUMAN] * count, template=template)["id"]
    seats = [a.sit(tid, f"P{s}", s) for s in range(count)]
    # the first seat through one process, every other through the other
    clients = [ChatClient(a if s == 0 else b, tid, seats[s]["token"], s) for s in range(count)]
    try:
        clients[0].say("hello from a")
        for c in clients[1:]:
            lines = c.chat_until("hello from a")
            assert lines[-1]["text"] == "hello from a" and lines[-1]["seat"] == 0
        clients[-1].say("and back from b")
        assert clients[0].chat_until("and back from b")[-1]["seat"] == count - 1
    finally:
        for c in clients:
            c.close()


def stored_moves(server: Server, tid: str) -> list[MoveRow]:
    store = Store(database_url(server.database, server.data))
    try:
        row = store.load(tid)
    finally:
        store.close()
    assert row is not None
    return row.moves


def test_a_seat_connected_through_another_process_is_not_away(pair: list[Server]) -> None:
    """Ann's table is started (and its lease taken) by the first process; she is connected
    through the second only. Past her grace nobody plays for her; once she has left, her
    moves are played for her, marked away."""
    a, b = pair
    clock = {"move": 60.0, "bank": 60.0, "grace": 0.5}
    made = a.post("/tables", {"seats": [HUMAN, BOT, BOT], "clock": clock, "seed": 3})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    token = a.sit(tid, "Ann", ANN)["token"]  # the match starts through the first process
    ann = Client(b, tid, token, ANN)
    while not ann.my_turn():
        ann.recv()
    time.sleep(2.0)  # four times her grace, connected through the other process
    assert play_turn(ann, modest(random.Random(1)))["type"] == "ack"
    assert all(m.played is None for m in stored_moves(a, tid) if m.seat == ANN)
    ann.close()
    watcher = Client(a, tid, None, None)
    try:
        watcher.recv_until(
            lambda m: m["type"] == "event" and m["event"].get("seat") == ANN, timeout=30
        )
        mine = [m for m in stored_moves(a, tid) if m.seat == ANN]
        assert mine[-1].played == "away"
    finally:
        watcher.close()
