"""Many server processes, one game (``thousand serve --bus``): two or three real processes on
one PostgreSQL database and a private Redis. Clients of one table connected to different
processes see the same events (a seat's connections on two processes get the very same
messages, and so do spectators); intents racing through two processes are settled, one stored
and the other refused as stale; bot tables move exactly once whichever process serves them;
the lobby of each process lists the tables made through the others."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from thousand.rules import TEMPLATES, template_rules
from thousand.server import storage
from thousand.server.storage import Store, database_url

from .scale_support import on_bus, processes, redis, wait_until
from .server_support import (
    BOT,
    HUMAN,
    SHORT_MATCH,
    Client,
    Message,
    Server,
    modest,
    postgres_database,
)

ALL = sorted(TEMPLATES)


def players(template: str) -> int:
    return template_rules(template).players_count


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """Two processes on one PostgreSQL database and one Redis, for the whole module."""
    folder = tmp_path_factory.mktemp("scale")
    with (
        postgres_database() as url,
        redis(folder / "redis") as bus,
        processes(folder, url, bus.url, 2) as servers,
    ):
        yield servers


def events(client: Client, after: int) -> list[Message]:
    return [m for m in client.messages if m["type"] == "event" and m["version"] > after]


def reach(client: Client, version: int) -> None:
    """Read until the client has seen ``version``."""
    while client.version < version:
        client.recv(20)


def answer_to(client: Client, intent: str) -> Message:
    """Read up to the answer to ``intent`` (an ack or an error)."""
    return client.recv_until(lambda m: m.get("intent") == intent)


def same_start(one: list[Message], other: list[Message]) -> int:
    """Assert that two lists of events agree as far as both go; how far that is."""
    n = min(len(one), len(other))
    assert one[:n] == other[:n]
    return n


def assert_whole(server: Server, table_id: str) -> None:
    """The stored table: one row per version, and rows that make a game (the server rebuilds
    it: every move legal where it stands)."""
    store = Store(database_url(server.database, server.data))
    try:
        row = store.load(table_id)
    finally:
        store.close()
    assert row is not None
    versions = sorted([d.version for d in row.deals] + [m.version for m in row.moves])
    assert versions == list(range(1, len(versions) + 1))
    assert server.get(f"/tables/{table_id}").status_code == 200


@pytest.mark.parametrize("template", ALL)
def test_clients_of_one_table_on_two_processes_see_the_same_game(
    pair: list[Server], template: str
) -> None:
    a, b = pair
    n = players(template)
    seats: list[Message] = [HUMAN, HUMAN] + [BOT] * (n - 2)
    table = a.new_table(seats, SHORT_MATCH, seed=len(template), template=template)["id"]
    ann_token = a.sit(table, "Ann", 0)["token"]
    # the last human seat, taken through the other process, starts the match
    bob_token = b.sit(table, "Bob", 1)["token"]
    wait_until("the match starts", lambda: a.get(f"/tables/{table}").json()["version"] >= 1)
    ann = Client(a, table, ann_token, 0)
    bob = Client(b, table, bob_token, 1)
    twin = Client(a, table, bob_token, 1)  # Bob's other tab, on the other process
    watchers = [Client(a, table, None, None), Client(b, table, None, None)]
    everyone = [ann, bob, twin, *watchers]
    start = max(c.version for c in everyone)
    rng = random.Random(template)
    choose = modest(rng)
    answers: list[str] = []
    deadline = time.monotonic() + 60
    while max(c.version for c in everyone) < start + 40:
        assert time.monotonic() < deadline, "the match does not go on"
        for c in everyone:
            c.drain()
        if any(m["type"] == "event" and m["event"].get("winner") is not None for m in ann.messages):
            break
        movers = [c for c in (ann, bob, twin) if c.my_turn()]
        if not movers:
            ann.drain(0.02)
            continue
        mover = rng.choice(movers)
        assert mover.view is not None
        intent = mover.intent(choose(list(mover.view["legal_actions"])))
        answer = answer_to(mover, intent)
        # a view the other process has moved on from is refused: stale, or not_playing where
        # the deal (or the match) ended meanwhile
        assert answer["type"] == "ack" or answer["code"] in ("stale", "not_playing"), answer
        answers.append(answer["type"] if answer["type"] == "ack" else "stale")
    assert answers.count("ack") >= 5, answers
    # every connection reaches the stored version, each seeing every version once (Client
    # asserts there is no gap), and the same events as its twin on the other process
    stored = a.get(f"/tables/{table}").json()["version"]
    for c in everyone:
        reach(c, stored)
    assert same_start(events(bob, start), events(twin, start)) >= stored - start
    assert same_start(events(watchers[0], start), events(watchers[1], start)) >= stored - start
    # and the views they end with are what a fresh connection to the other process is shown
    for c, server, token in ((ann, b, ann_token), (bob, a, bob_token)):
        fresh = Client(server, table, token, c.seat)
        if fresh.version == c.version:
            assert fresh.view == c.view
        fresh.close()
    for c in everyone:
        c.close()
    assert_whole(a, table)


def test_the_lobby_of_each_process_lists_the_tables_of_the_others(pair: list[Server]) -> None:
    a, b = pair
    made = [s.new_table([HUMAN, HUMAN, BOT], seed=i)["id"] for i, s in enumerate((a, b, a))]

    def listed(server: Server) -> set[str]:
        return {t["id"] for t in server.get("/tables?limit=100").json()}

    for server in (a, b):
        wait_until("every table is listed", lambda s=server: set(made) <= listed(s), 10)
    # a match under way through the second process (waiting for its person: it goes on)
    bots = b.new_table([HUMAN, BOT, BOT], seed=9)["id"]
    b.sit(bots, "Ann", 0)

    def live(server: Server) -> set[str]:
        return {t["id"] for t in server.get("/api/tables/live?limit=100").json()["tables"]}

    wait_until("the match is live on the other process", lambda: bots in live(a), 10)


def test_intents_racing_through_two_processes_one_stored_the_other_stale(
    pair: list[Server],
) -> None:
    """Bob's two tabs, one on each process, send different moves at the same moment, turn
    after turn: one is stored, the other refused as stale, and the refused tab resyncs."""
    a, b = pair
    # a match to 1,000: which tab wins a race picks the moves, and a short match (300) ended
    # before the twentieth race in about one path of thirty, leaving nobody to move
    table = a.new_table([HUMAN, HUMAN, HUMAN], seed=21)["id"]
    tokens = [a.sit(table, name, seat)["token"] for seat, name in enumerate("ABC")]
    tabs = {
        seat: (Client(a, table, tokens[seat], seat), Client(b, table, tokens[seat], seat))
        for seat in range(3)
    }
    rng = random.Random(3)
    raced = 0
    deadline = time.monotonic() + 240  # a guard against a hang, not a timing
    while raced < 20:
        assert time.monotonic() < deadline, f"{raced} races"
        top = max(c.version for pair_ in tabs.values() for c in pair_)
        for pair_ in tabs.values():
            for c in pair_:
                while c.version < top:
                    c.recv()
        mover = next((s for s, (c, _) in tabs.items() if c.my_turn()), None)
        if mover is None:
            for pair_ in tabs.values():
                for c in pair_:
                    c.drain(0.02)
            continue
        here, there = tabs[mover]
        assert here.view is not None and there.view is not None
        legal = list(here.view["legal_actions"])
        if len(legal) < 2:
            assert here.intent(legal[0])
            here.recv_until(lambda m: m["type"] == "ack")
            continue
        first, second = rng.sample(legal, 2)
        ids = (here.intent(first), there.intent(second))
        answers = [answer_to(c, i) for c, i in zip((here, there), ids, strict=True)]
        kinds = sorted(m["type"] if m["type"] == "ack" else m["code"] for m in answers)
        assert kinds == ["ack", "stale"], answers
        loser = here if answers[0]["type"] == "error" else there
        winner_version = next(m["version"] for m in answers if m["type"] == "ack")
        reach(loser, winner_version)  # the refused tab resyncs
        raced += 1
    store = Store(database_url(a.database, a.data))
    try:
        row = store.load(table)
    finally:
        store.close()
    assert row is not None
    assert len({m.version for m in row.moves}) == len(row.moves)
    for pair_ in tabs.values():
        for c in pair_:
            c.close()
    assert_whole(a, table)


def test_bots_move_once_whichever_of_three_processes_serves_them(tmp_path: Path) -> None:
    """Bot tables of a two-player, a four-player and the Polish template, made
    through three processes: each table's bots are run by one process (its lease), and every
    process's spectators see the same events, each version once."""
    chosen = ["two-player-a", "four-player", "polish-2card"]
    with (
        postgres_database() as url,
        redis(tmp_path / "redis") as bus,
        processes(tmp_path, url, bus.url, 3) as servers,
    ):
        tables = [
            servers[i % 3].new_table([BOT] * players(t), seed=i, template=t)["id"]
            for i, t in enumerate(chosen)
        ]
        watchers = {t: [Client(s, t, None, None) for s in servers] for t in tables}
        start = {t: max(c.version for c in watchers[t]) for t in tables}
        for t in tables:
            for c in watchers[t]:
                reach(c, start[t] + 40)
        for t in tables:
            first = events(watchers[t][0], start[t])[:40]
            for c in watchers[t][1:]:
                assert events(c, start[t])[:40] == first
            for c in watchers[t]:
                c.close()
        store = Store(database_url(url, tmp_path))
        try:
            with store.engine.connect() as conn:
                owners: dict[str, Any] = dict(
                    conn.execute(select(storage.leases.c.table_id, storage.leases.c.owner)).all()
                )
        finally:
            store.close()
        playing = [
            t for t in tables if servers[0].get(f"/tables/{t}").json()["status"] == "playing"
        ]
        assert set(playing) <= set(owners), "a playing table without a lease"
        for t in tables:
            assert_whole(servers[0], t)
    for s in servers:
        log = s.log.read_text()
        assert "a bot's move was refused" not in log
        assert "Traceback" not in log


def test_a_table_with_a_person_on_another_process_is_not_closed_as_idle(tmp_path: Path) -> None:
    """``--close-idle``: a process whose own connections to a table are none does not close
    it while a person is connected to it through another process; once nobody is, it is
    closed."""
    with postgres_database() as url, redis(tmp_path / "redis") as bus:
        servers = [
            on_bus(tmp_path / name, url, bus.url, "--close-idle", "2").start() for name in "ab"
        ]
        try:
            a, b = servers
            table = a.new_table([HUMAN, BOT, BOT], seed=8)["id"]
            ann = Client(b, table, b.sit(table, "Ann", 0)["token"], 0)
            # several rounds of both processes' sweeps (each 0.2 s), the first process with
            # no connection to the table
            deadline = time.monotonic() + 6
            while time.monotonic() < deadline:
                assert a.get(f"/tables/{table}").json()["status"] == "playing"
                ann.drain(0.2)
            ann.close()
            wait_until(
                "the table is closed once nobody is at it",
                lambda: a.get(f"/tables/{table}").json()["status"] == "closed",
                20,
            )
            wait_until(
                "and both processes know it",
                lambda: b.get(f"/tables/{table}").json()["status"] == "closed",
                10,
            )
        finally:
            for s in servers:
                s.stop()
