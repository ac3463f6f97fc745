"""Many server processes under real faults: ``kill -9`` of the process that runs a table's bots
in the middle of a deal (the other takes the table over within seconds, and the person
reconnects to it and plays on); Redis killed and started again (no move lost, the processes
resubscribe and their clients resync); PostgreSQL stopped and started (clear ``unavailable``
errors meanwhile, then recovery, no acknowledged move lost). A two-player, a four-player and
a Polish template each."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from thousand.rules import template_rules
from thousand.server import storage
from thousand.server.storage import Store, database_url

from .scale_support import on_bus, postgres, processes, redis, wait_until
from .server_support import (
    BOT,
    HUMAN,
    SHORT_MATCH,
    Client,
    Message,
    modest,
    postgres_database,
)
from .test_scale import answer_to, assert_whole, reach

TEMPLATES = ["two-player-a", "four-player", "tysiac"]


def players(template: str) -> int:
    return template_rules(template).players_count


def stored_moves(database: str, table_id: str) -> dict[int, str]:
    store = Store(database_url(database, Path(".")))
    try:
        row = store.load(table_id)
    finally:
        store.close()
    assert row is not None
    return {m.version: m.move for m in row.moves}


def stored_version(database: str, table_id: str) -> int:
    store = Store(database_url(database, Path(".")))
    try:
        row = store.load(table_id)
    finally:
        store.close()
    assert row is not None
    return row.version


def lease_owner(database: str, table_id: str) -> str | None:
    store = Store(database_url(database, Path(".")))
    try:
        with store.engine.connect() as conn:
            owner: str | None = conn.execute(
                select(storage.leases.c.owner).where(storage.leases.c.table_id == table_id)
            ).scalar_one_or_none()
            return owner
    finally:
        store.close()


def told(client: Client) -> dict[int, str]:
    """The moves a client was told of, by version (a card handed unseen is not named)."""
    return {
        m["version"]: m["event"]["move"]
        for m in client.messages
        if m["type"] == "event" and m["event"]["kind"] == "move" and m["event"]["move"]
    }


def acked(client: Client) -> dict[int, str]:
    """The versions of the client's acknowledged intents."""
    sent = {m["intent"]: m for m in client.messages if m["type"] == "ack"}
    return {m["version"]: i for i, m in sent.items()}


def play(client: Client, moves: int, rng: random.Random, limit: float = 30) -> None:
    """Make ``moves`` moves for the client's seat (the others, bots or people, play between),
    each acknowledged."""
    choose = modest(rng)
    deadline = time.monotonic() + limit
    made = 0
    while made < moves:
        assert time.monotonic() < deadline, f"{made} of {moves} moves made"
        if client.my_turn():
            assert client.view is not None
            intent = client.intent(choose(list(client.view["legal_actions"])))
            answer = answer_to(client, intent)
            assert answer["type"] == "ack", answer
            made += 1
        else:
            client.recv(limit)
        if any(
            m["type"] == "event" and m["event"].get("winner") is not None for m in client.messages
        ):
            return


def assert_kept(database: str, table_id: str, *clients: Client) -> None:
    """Every move any of the clients was told of is stored as told."""
    stored = stored_moves(database, table_id)
    for c in clients:
        for version, move in told(c).items():
            assert stored.get(version) == move, f"version {version} was lost or changed"


@pytest.mark.parametrize("template", TEMPLATES)
def test_kill_9_of_the_process_running_the_bots_mid_deal(tmp_path: Path, template: str) -> None:
    rng = random.Random(template)
    with postgres_database() as url, redis(tmp_path / "redis") as bus:
        a = on_bus(tmp_path / "a", url, bus.url).start()
        b = on_bus(tmp_path / "b", url, bus.url).start()
        try:
            n = players(template)
            table = a.new_table([HUMAN] + [BOT] * (n - 1), SHORT_MATCH, seed=1, template=template)
            bots = a.new_table([BOT] * n, seed=2, template=template)["id"]
            token = a.sit(table["id"], "Ann", 0)["token"]
            ann = Client(a, table["id"], token, 0)
            watcher = Client(b, bots, None, None)
            play(ann, 3, rng)
            wait_until("the table is leased", lambda: lease_owner(url, table["id"]) is not None)
            holder = lease_owner(url, table["id"])
            assert lease_owner(url, bots) == holder  # both started through the first process
            reach(watcher, watcher.version + 5)
            a.kill()
            killed = time.monotonic()
            before = ann.version
            ann.close()
            # the other process takes the bots over: the watcher sees them play on, beyond
            # every move stored when the first process died
            reach(watcher, stored_version(url, bots) + 10)
            print(f"{template}: bots taken over {time.monotonic() - killed:.1f} s after kill -9")
            assert lease_owner(url, bots) not in (None, holder)
            # Ann reconnects (to the process still up) and plays on
            ann = Client(b, table["id"], token, 0)
            assert ann.version >= before
            play(ann, 4, rng)
            assert lease_owner(url, table["id"]) not in (None, holder)
            assert_kept(url, table["id"], ann)
            assert_kept(url, bots, watcher)
            ann.close()
            watcher.close()
            assert_whole(b, table["id"])
            assert_whole(b, bots)
        finally:
            a.stop()
            b.stop()
    assert "Traceback" not in b.log.read_text()


@pytest.mark.parametrize("template", TEMPLATES)
def test_redis_restarted_mid_match_loses_nothing(tmp_path: Path, template: str) -> None:
    rng = random.Random(template)
    with (
        postgres_database() as url,
        redis(tmp_path / "redis") as bus,
        processes(tmp_path, url, bus.url, 2) as (a, b),
    ):
        n = players(template)
        seats: list[Message] = [HUMAN, HUMAN] + [BOT] * (n - 2)
        table = a.new_table(seats, SHORT_MATCH, seed=3, template=template)["id"]
        ann = Client(a, table, a.sit(table, "Ann", 0)["token"], 0)
        bob = Client(b, table, b.sit(table, "Bob", 1)["token"], 1)
        # (a short match: a watcher that reads nothing for a while is cut off past
        # MAX_BACKLOG messages, and bots alone make thousands of moves in a long one)
        bots = a.new_table([BOT] * n, SHORT_MATCH, seed=4, template=template)["id"]
        watcher = Client(b, bots, None, None)
        both = (ann, bob)
        for _ in range(3):
            for c in both:
                reach(c, max(x.version for x in both))
            mover = next((c for c in both if c.my_turn()), None)
            if mover is not None:
                play(mover, 1, rng)
        bus.kill()
        # meanwhile the database takes every move: the bots play on where they are leased,
        # and a person's move is acknowledged
        for c in both:
            try:
                while True:
                    c.recv(0.3)
            except TimeoutError:
                pass
        mover = next((c for c in both if c.my_turn()), None)
        if mover is not None:
            play(mover, 1, rng)
        time.sleep(1)
        bus.start()
        # the processes resubscribe and catch up: every client reaches the stored version
        stored = stored_version(url, table)
        for c in both:
            reach(c, stored)
        reach(watcher, stored_version(url, bots))
        # and the match goes on through both processes
        for _ in range(4):
            for c in both:
                reach(c, max(x.version for x in both))
            mover = next((c for c in both if c.my_turn()), None)
            if mover is not None:
                play(mover, 1, rng)
        for c in (ann, bob):
            assert_kept(url, table, c)
        assert_kept(url, bots, watcher)
        for c in (ann, bob, watcher):
            c.close()
        assert_whole(a, table)
        assert_whole(a, bots)
    for s in (a, b):
        log = s.log.read_text()
        assert "the bus is lost" in log and "Traceback" not in log


@pytest.mark.parametrize("template", TEMPLATES)
def test_postgresql_stopped_and_started_refuses_clearly_then_recovers(
    tmp_path: Path, template: str
) -> None:
    rng = random.Random(template)
    with (
        postgres() as cluster,
        redis(tmp_path / "redis") as bus,
        processes(tmp_path, cluster.url, bus.url, 2) as (a, b),
    ):
        n = players(template)
        table = a.new_table([HUMAN] + [BOT] * (n - 1), SHORT_MATCH, seed=5, template=template)
        ann = Client(a, table["id"], a.sit(table["id"], "Ann", 0)["token"], 0)
        bots = b.new_table([BOT] * n, seed=6, template=template)["id"]
        watcher = Client(a, bots, None, None)
        play(ann, 2, rng)
        while not ann.my_turn():
            ann.recv()
        reach(watcher, watcher.version + 5)
        cluster.stop()
        assert ann.view is not None
        move = modest(rng)(list(ann.view["legal_actions"]))
        intent = ann.intent(move)
        answer = ann.recv_until(lambda m: m.get("intent") == intent, 30)
        assert answer["type"] == "error" and answer["code"] == "unavailable", answer
        # a request that writes gets a clear 503 too
        refused = a.post("/tables", {"template": template, "seats": [BOT] * n})
        assert refused.status_code == 503, refused.text
        assert refused.json()["detail"].startswith("the table could not be saved")
        cluster.start()
        # the same intent again is stored and acknowledged; the bots play on
        wait_until_acked(ann, intent, move)
        reach(watcher, stored_version(cluster.url, bots) + 10)
        play(ann, 3, rng)
        assert_kept(cluster.url, table["id"], ann)
        assert_kept(cluster.url, bots, watcher)
        for version, intent_id in acked(ann).items():
            assert version in stored_moves(cluster.url, table["id"]), intent_id
        ann.close()
        watcher.close()
        assert_whole(a, table["id"])
        assert_whole(a, bots)
    for s in (a, b):
        assert "Traceback" not in s.log.read_text()


def wait_until_acked(client: Client, intent: str, move: str, limit: float = 30) -> None:
    """Send the intent again (as a client does after ``unavailable``) until it is
    acknowledged."""
    deadline = time.monotonic() + limit
    while True:
        assert time.monotonic() < deadline, "the database did not come back"
        client.send({"type": "intent", "id": intent, "move": move, "version": client.version})
        answer = client.recv_until(lambda m: m.get("intent") == intent, 30)
        if answer["type"] == "ack":
            return
        assert answer["code"] == "unavailable", answer
        time.sleep(0.2)
