"""Quick play's queue shared by server processes: two servers on one PostgreSQL database forming
tables from one queue at once never seat a player twice; matching rounds run at once from many
threads (on SQLite and PostgreSQL) never claim a ticket twice; a queue outlives ``kill -9``."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.exc import DBAPIError

from thousand.server.quickplay import Claimed, ClaimLost, claim, join
from thousand.server.storage import Store, database_url, seats, tables
from thousand.server.tables import token_hash

from .quickplay_support import Ticket
from .quickplay_support import join as join_queue
from .server_support import Message, Server, postgres_database, running


def test_two_servers_on_one_database_never_seat_a_player_twice(tmp_path: Path) -> None:
    with (
        postgres_database() as url,
        running(tmp_path / "a", url) as a,  # (the first has migrated the database)
        running(tmp_path / "b", url) as b,
    ):
        # russian players who wait for people, and two-player ones who take bots at once:
        # each joins one server or the other, all at the same moment
        wanted = [("russian", 300.0)] * 30 + [("tysiac-2p", 0.0)] * 12
        start = threading.Barrier(16)

        def enter(i: int) -> Ticket:
            if i < 16:
                start.wait()
            template, wait = wanted[i]
            return join_queue((a, b)[i % 2], template, wait, name=f"p{i}")

        with ThreadPoolExecutor(16) as pool:
            tickets = list(pool.map(enter, range(len(wanted))))
            answers: list[Message] = list(pool.map(lambda t: t.seated(60), tickets))

        places = Counter((x["table"], x["seat"]) for x in answers)
        assert max(places.values()) == 1, "two tickets at one seat"
        by_table: dict[str, list[Message]] = {}
        for x in answers:
            by_table.setdefault(x["table"], []).append(x)
        russian = [t for t, xs in by_table.items() if xs[0]["template"] == "russian"]
        assert len(russian) == 10 and all(len(by_table[t]) == 3 for t in russian)

        store = Store(database_url(url, tmp_path))
        try:
            with store.engine.connect() as conn:
                made = set(conn.execute(select(tables.c.id)).scalars())
                held = {
                    (r.table_id, r.seat): r.token_hash
                    for r in conn.execute(select(seats)).all()
                    if r.token_hash is not None
                }
        finally:
            store.close()
        # every table made seats the tickets told of it, no other
        assert made == set(by_table)
        for x in answers:
            assert held[(x["table"], x["seat"])] == token_hash(x["token"])
        formed = {
            name: s.log.read_text().count("quick play: table ") for name, s in (("a", a), ("b", b))
        }
        print(f"tables formed by each server: {formed}")


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(database_url(None, tmp_path))
        s.migrate()
        yield s
        s.close()
    else:
        with postgres_database() as url:
            s = Store(database_url(url, tmp_path))
            s.migrate()
            yield s
            s.close()


def test_matching_rounds_at_once_never_claim_a_ticket_twice(store: Store) -> None:
    """Players join from four threads while six match, each round one transaction."""
    joined: list[str] = []
    claims: list[Claimed] = []
    lost = Counter[str]()
    lock = threading.Lock()
    start = threading.Barrier(10)

    def joiner(k: int) -> None:
        start.wait()
        for i in range(15):
            ticket = join(
                store, "russian", 300, f"p{k}-{i}", None, f"10.0.{k}.{i}", 10, time.time()
            )
            with lock:
                joined.append(ticket.ticket)

    def matcher() -> None:
        start.wait()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with lock:
                if sum(len(c.people) for c in claims) == 60:
                    return
            try:
                found = claim(store, time.time())
            except ClaimLost:
                lost["claim lost"] += 1
                continue
            except DBAPIError:  # the database refused a writer while another held it
                lost["busy"] += 1
                continue
            with lock:
                claims.extend(found)

    threads = [threading.Thread(target=joiner, args=(k,)) for k in range(4)]
    threads += [threading.Thread(target=matcher) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    claimed = [ticket for c in claims for ticket, _ in c.people]
    assert len(claimed) == len(set(claimed)) == 60
    assert set(claimed) == set(joined)
    assert all(len(c.people) == 3 and c.bots == 0 for c in claims)
    print(f"tables claimed: {len(claims)}; rounds refused: {dict(lost)}")


def test_the_queue_outlives_kill_9(tmp_path: Path) -> None:
    server = Server(tmp_path).start()
    try:
        first = join_queue(server, "russian", 300, name="Before")
        server.kill()
        server.start()
        later = [join_queue(server, "russian", 300, name=n) for n in ("After1", "After2")]
        answers = [t.seated() for t in (first, *later)]
        assert len({x["table"] for x in answers}) == 1
    finally:
        server.stop()
