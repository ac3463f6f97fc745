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

from thousand.server.quickplay import (
    ABANDONED,
    FORMING_STALE,
    KEEP_SEATED,
    Claimed,
    ClaimLost,
    TicketState,
    claim,
    join,
    quick_tickets,
    seated,
    ticket_view,
)
from thousand.server.storage import Store, database_url, seats, tables
from thousand.server.tables import LobbyError, token_hash

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
        i = 0
        while i < 15:
            try:
                ticket = join(
                    store, "russian", 300, f"p{k}-{i}", None, f"10.0.{k}.{i}", 10, time.time()
                )
            except DBAPIError:  # the database refused a writer while another held it: again
                with lock:
                    lost["busy"] += 1
                continue
            with lock:
                joined.append(ticket.ticket)
            i += 1

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


def states(store: Store) -> dict[str, str]:
    with store.engine.connect() as conn:
        return {r.id: r.state for r in conn.execute(select(quick_tickets))}


def test_the_queue_tidies_itself_as_it_is_matched(store: Store) -> None:
    """Tickets a dead process was forming a table for wait again after ``FORMING_STALE``; a
    waiting ticket nobody asks after leaves after ``ABANDONED``; a seated one is forgotten
    after ``KEEP_SEATED``."""
    t0 = 1_000_000.0
    joined = [join(store, "russian", 300, f"p{i}", None, "10.0.0.1", 10, t0) for i in range(3)]
    three = [j.ticket for j in joined]
    (formed,) = claim(store, t0)
    assert {t for t, _ in formed.people} == set(three)
    assert set(states(store).values()) == {TicketState.FORMING}
    # the process forming it dies here: nothing more happens to them until FORMING_STALE,
    # while their holders go on asking
    assert claim(store, t0 + FORMING_STALE - 1) == []
    for j in joined:
        assert ticket_view(store, j.ticket, j.token, t0 + FORMING_STALE).state == "forming"
    (again,) = claim(store, t0 + FORMING_STALE + 1)  # waiting again, and matched again
    assert {t for t, _ in again.people} == set(three)
    seated(store, [(t, "table", s, f"token-{s}") for s, t in enumerate(three)], t0 + 200)
    assert set(states(store).values()) == {TicketState.SEATED}
    lone = join(store, "tysiac-2p", 300, "lone", None, "10.0.0.2", 10, t0 + 200).ticket
    claim(store, t0 + 200 + ABANDONED + 1)
    assert lone not in states(store)
    assert claim(store, t0 + 200 + KEEP_SEATED - 1) == [] and len(states(store)) == 3
    claim(store, t0 + 200 + KEEP_SEATED + 1)
    assert states(store) == {}


def test_an_account_holds_one_ticket_in_the_queue(store: Store) -> None:
    first = join(store, "russian", 300, "Ann", "ann", "10.0.0.1", 10, 1.0)
    with pytest.raises(LobbyError) as refused:
        join(store, "tysiac-2p", 300, "Ann", "ann", "10.0.0.2", 10, 2.0)
    assert refused.value.status == 409
    assert str(refused.value) == (
        f"this account is in the quick-play queue already (ticket {first.ticket}): leave it "
        "before joining again"
    )
    assert list(states(store)) == [first.ticket]
    # guests are not told apart: each join is a ticket of its own
    join(store, "russian", 300, "Guest", None, "10.0.0.1", 10, 3.0)
    join(store, "russian", 300, "Guest", None, "10.0.0.1", 10, 3.0)
    assert len(states(store)) == 3


def test_an_address_holds_at_most_its_share_of_tickets(store: Store) -> None:
    for i in range(3):
        join(store, "russian", 300, f"p{i}", None, "10.0.0.9", 3, 1.0)
    with pytest.raises(LobbyError) as refused:
        join(store, "russian", 300, "p3", None, "10.0.0.9", 3, 1.0)
    assert refused.value.status == 429
    assert "this address has 3 tickets waiting or at tables not yet finished" in str(refused.value)
    assert len(states(store)) == 3
